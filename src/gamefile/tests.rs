//! Unit tests of the game files.

use super::*;

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

#[test]
fn psq_read() {
    let g = parse_game(
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,9,12\n1,1,3\nA\nB\n15\n",
        (20, 20),
    )
    .unwrap();
    assert_eq!(g.format, GameFormat::Psq);
    assert_eq!(g.size, Some((15, 15)));
    assert_eq!(g.moves, [p(7, 7), p(7, 8), p(0, 0)]);
    assert_eq!(
        (g.black.as_deref(), g.white.as_deref()),
        (Some("A"), Some("B"))
    );
    assert!(parse_game("Piskvorky 15x15, 11:11, 0\n16,1,0\n", (15, 15)).is_err());
    assert!(parse_game("Piskvorky big, 11:11, 0\n", (15, 15)).is_err());
}

#[test]
fn sgf_read_main_line_and_setup() {
    // c-gomoku-cli style: RU as a number, comments, a variation after the main line.
    let g = parse_game(
        "(;FF[4]GM[4]SZ[15]RU[4]PB[x\\]y]PW[B];B[hh]C[opening move];W[hi]\n(;B[ij];W[aa])(;B[oo]))",
        (15, 15),
    )
    .unwrap();
    assert_eq!(g.format, GameFormat::Sgf);
    assert_eq!(g.rule, Some(Rule::Renju));
    assert_eq!(g.black.as_deref(), Some("x]y"));
    assert_eq!(g.moves, [p(7, 7), p(7, 8), p(8, 9), p(0, 0)]);
    let g = parse_game("(;GM[4]SZ[20:15]AB[hh][ii]AW[hi];W[aa])", (15, 15)).unwrap();
    assert_eq!(g.size, Some((20, 15)));
    assert_eq!(g.moves, [p(7, 7), p(7, 8), p(8, 8), p(0, 0)]);
    for bad in [
        "(;GM[1]SZ[19];B[aa])",
        "(;GM[4]SZ[15];B[hh];B[hi])",
        "(;GM[4]SZ[15];B[])",
        "(;GM[4]SZ[15];B[zz])",
        "(;GM[4]SZ[15];B[hh]",
    ] {
        assert!(parse_game(bad, (15, 15)).is_err(), "{bad}");
    }
}

#[test]
fn move_list_read() {
    let g = parse_game("# a game\nh8 h9 # first two\n7,9\n", (15, 15)).unwrap();
    assert_eq!(g.format, GameFormat::Moves);
    assert_eq!(g.moves, [p(7, 7), p(7, 8), p(7, 9)]);
    assert!(parse_game("h8 q1", (15, 15)).is_err());
}

#[test]
fn written_games_read_back() {
    let moves = [p(7, 7), p(7, 8), p(0, 0), p(14, 9)];
    let g = GameRecordText {
        width: 15,
        height: 10,
        rule: Rule::Renju,
        black: "A",
        white: "B]",
        moves: &moves,
        result: "B+",
    };
    for f in [GameFormat::Psq, GameFormat::Sgf, GameFormat::Moves] {
        let text = game_text(f, &g);
        let back = parse_game(&text, (15, 10)).unwrap();
        assert_eq!(back.moves, moves, "{f:?}: {text}");
        assert_eq!(back.format, f);
        // Issue 34: every record we write carries its rule.
        assert_eq!(back.rule, Some(Rule::Renju), "{f:?}: {text}");
        if f != GameFormat::Moves {
            assert_eq!(back.size, Some((15, 10)), "{text}");
            assert_eq!(back.white.as_deref(), Some("B]"));
        }
    }
    // The SGF row letter counts from the top like the protocol's y: h8 = 7,7 = "hh",
    // a1 = 0,0 = "aa".
    assert!(to_sgf(&g).contains(";B[hh];W[hi];B[aa];W[oj]"));
    assert_eq!(
        GameFormat::for_path(Path::new("x.SGF")),
        Ok(GameFormat::Sgf)
    );
    assert_eq!(
        GameFormat::for_path(Path::new("x.psq")),
        Ok(GameFormat::Psq)
    );
    assert_eq!(
        GameFormat::for_path(Path::new("x.txt")),
        Ok(GameFormat::Moves)
    );
    // Issue 34: an unknown extension is refused, not written as psq.
    for bad in ["x", "g.xyz", "g.psq.bak"] {
        let e = GameFormat::for_path(Path::new(bad)).unwrap_err();
        assert!(e.contains(".psq, .sgf or .txt"), "{bad}: {e}");
    }
}

#[test]
fn psq_rule_lines() {
    let ours = "Piskvorky 15x15, 11:11, 0\n8,8,0\nA\nB\n0\nrule=freestyle\n";
    assert_eq!(
        parse_game(ours, (15, 15)).unwrap().rule,
        Some(Rule::Freestyle)
    );
    let g = parse_game(ours, (15, 15)).unwrap();
    assert_eq!(
        (g.black.as_deref(), g.white.as_deref()),
        (Some("A"), Some("B"))
    );
    // Gomocup's tournament line after the result code.
    let gomocup = "Piskvorky 15x15, 11:11, 0\n8,8,0\nX.zip\nY.zip\n-1\n0,Freestyle15_1\n";
    assert_eq!(
        parse_game(gomocup, (15, 15)).unwrap().rule,
        Some(Rule::Freestyle)
    );
    let renju = "Piskvorky 15x15, 11:11, 0\n8,8,0\nX\nY\n-1\n3,Renju\n";
    assert_eq!(parse_game(renju, (15, 15)).unwrap().rule, Some(Rule::Renju));
    // Piskvork's own records name no rule.
    let plain = "Piskvorky 15x15, 11:11, 0\n8,8,0\nX\nY\n0\n";
    assert_eq!(parse_game(plain, (15, 15)).unwrap().rule, None);
    let bad = "Piskvorky 15x15, 11:11, 0\n8,8,0\nrule=banana\n";
    let e = parse_game(bad, (15, 15)).unwrap_err().to_string();
    assert!(e.contains("unknown rule 'banana'"), "{e}");
    // A move list's rule comment.
    let g = parse_game("# rule=caro\nh8,h9\n", (15, 15)).unwrap();
    assert_eq!((g.rule, g.moves.len()), (Some(Rule::Caro), 2));
}

#[test]
fn binary_files_are_refused_with_a_short_escaped_excerpt() {
    let dir = std::env::temp_dir().join(format!("tianyuan-gamefile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nul = dir.join("nul.bin");
    std::fs::write(&nul, b"PK\x03\x04\x00\x1b[2J garbage").unwrap();
    let e = read_game(&nul, (15, 15)).unwrap_err().to_string();
    assert!(
        e.contains("not a game file") && e.contains("NUL byte at byte 4"),
        "{e}"
    );
    assert!(!e.contains('\u{1b}'), "{e:?}");
    // No NUL, but control bytes and a terminal escape in a long "move".
    let esc = dir.join("esc.txt");
    let mut bytes = b"h8 \x1b]0;".to_vec();
    bytes.extend(vec![b'q'; 5000]);
    std::fs::write(&esc, &bytes).unwrap();
    let e = read_game(&esc, (15, 15)).unwrap_err().to_string();
    assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
    assert!(e.len() < 200, "{} bytes: {e}", e.len());
    let mostly = dir.join("mostly.psq");
    std::fs::write(
        &mostly,
        (1u8..=255).filter(|&b| b != b'\n').collect::<Vec<u8>>(),
    )
    .unwrap();
    let e = read_game(&mostly, (15, 15)).unwrap_err().to_string();
    assert!(e.contains("not a game file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_judges_fives_fouls_and_stones_after_the_end() {
    let pts = |s: &str| crate::core::parse_point_list(s, 15, 15).unwrap();
    // Issue 34: black's h9 is a double three under renju.
    let foul = pts("h8,a1,i9,a3,h10,a5,g9,a7,h9");
    let r = replay(15, 15, Rule::Renju, &foul).unwrap();
    let end = r.end.unwrap();
    assert_eq!(
        end,
        GameEnd::Foul {
            ply: 9,
            point: p(7, 8),
            kind: ForbiddenKind::DoubleThree
        }
    );
    assert_eq!(end.winner(), Some(Color::White));
    let text = end.describe(Rule::Renju);
    assert!(
        text.contains("white wins") && text.contains("double three"),
        "{text}"
    );
    assert!(text.contains("renju"), "{text}");
    assert_eq!(r.board.stone_count(), 9);
    // The same moves under freestyle: no foul, the game goes on.
    assert_eq!(replay(15, 15, Rule::Freestyle, &foul).unwrap().end, None);
    // A stone after the foul, and one after a five.
    let mut after = foul.clone();
    after.push(p(0, 14));
    let e = replay(15, 15, Rule::Renju, &after).err().unwrap();
    assert!(matches!(e, ReplayError::AfterEnd { ply: 10, .. }), "{e:?}");
    let five = pts("a1,b1,a2,b2,a3,b3,a4,b4,a5,b5");
    let e = replay(15, 15, Rule::Freestyle, &five).err().unwrap();
    assert!(
        e.to_string()
            .contains("move 10 (b5) comes after the end of the game (black wins"),
        "{e}"
    );
    let r = replay(15, 15, Rule::Freestyle, &five[..9]).unwrap();
    assert!(matches!(
        r.end,
        Some(GameEnd::Five {
            winner: Color::Black,
            ply: 9,
            ..
        })
    ));
    // A stone on a stone.
    let e = replay(15, 15, Rule::Renju, &pts("h8,h8")).err().unwrap();
    assert!(matches!(e, ReplayError::Illegal { ply: 2, .. }), "{e:?}");
    // A 5x5 board filled without a five: a draw on the last move.
    let order = [
        (0, 0),
        (1, 0),
        (2, 0),
        (4, 0),
        (3, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (4, 1),
        (3, 1),
        (1, 2),
        (0, 2),
        (3, 2),
        (2, 2),
        (4, 2),
        (0, 3),
        (1, 3),
        (2, 3),
        (4, 3),
        (3, 3),
        (0, 4),
        (1, 4),
        (2, 4),
        (4, 4),
        (3, 4),
    ];
    let fill: Vec<Pos> = order.iter().map(|&(x, y)| p(x, y)).collect();
    match replay(5, 5, Rule::Freestyle, &fill) {
        Ok(r) => assert_eq!(r.end, Some(GameEnd::Full { ply: 25 })),
        Err(e) => panic!("{e}"),
    }
}
