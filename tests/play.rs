//! `pbrain-tianyuan play` driven by scripted stdin: moves, illegal input (the message repeats
//! it and the game goes on), undo, hints, save and load round trips, and finished games with
//! the right result. The engine thinks 100 ms a move on one thread.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use tianyuan::core::{parse_point_list, Pos};
use tianyuan::gamefile::{read_game, GameFormat};

/// Runs `play` with `args` and `input` on stdin; returns (exit code, stdout, stderr).
fn play(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .arg("play")
        .args(["--time-ms", "100", "--threads", "1", "--hash-mb", "4"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("play-{}-{name}", std::process::id()))
}

fn pts(list: &str) -> Vec<Pos> {
    parse_point_list(list, 15, 15).unwrap()
}

#[test]
fn moves_illegal_input_and_undo() {
    let (code, out, err) = play(
        &["--rule", "freestyle"],
        "h8\nh8\nbanana\np3\nundo\n7,7\nboard\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(!out.contains('\x1b'), "no colours when stdout is a pipe");
    // Each bad input is repeated in its message, and nothing is lost.
    assert!(
        out.contains("'h8' is not a legal move: point 'h8' is already occupied."),
        "{out}"
    );
    assert!(
        out.contains("'banana' is neither a move nor a command."),
        "{out}"
    );
    assert!(out.contains("'p3' is not a move here: point 'p3' is off the 15x15 board."));
    // undo takes back the engine's answer and the person's move.
    assert!(out.contains("Took back 2 moves."), "{out}");
    // The engine answered twice (before and after the undo), with score, depth and line.
    let answers: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("white plays "))
        .collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert!(
        answers[0].contains("depth ") && answers[0].contains("; line "),
        "{out}"
    );
    // The board is drawn with coordinates, row 1 on top, the last move in parentheses.
    assert!(
        out.contains("    a b c d e f g h i j k l m n o\n 1  . . ."),
        "{out}"
    );
    let last_board = out
        .rsplit("    a b c d e f g h i j k l m n o\n 1")
        .nth(1)
        .unwrap();
    assert!(last_board.contains('('), "{out}");
    assert!(out.trim_end().ends_with("Move 3: black to move."), "{out}");
}

#[test]
fn save_and_load_round_trip() {
    let psq = tmp("game.psq");
    let sgf = tmp("game.sgf");
    let txt = tmp("game.txt");
    let script = format!(
        "h8\ni9\n7,9\nsave {}\nsave {}\nsave {}\nsave {}\nundo\nundo\nundo\nload {}\nload {}\nquit\n",
        psq.display(),
        sgf.display(),
        txt.display(),
        tmp("game.xyz").display(),
        sgf.display(),
        tmp("missing.psq").display()
    );
    let (code, out, err) = play(&["--rule", "renju", "--engine", "none"], &script);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Saved 3 moves to"), "{out}");
    assert!(
        out.contains("(SGF, renju)")
            && out.contains("(psq, renju)")
            && out.contains("(move list, renju)"),
        "{out}"
    );
    // Issue 34: an unknown extension is refused, nothing is written.
    assert!(
        out.contains("give a file name ending in .psq, .sgf or .txt")
            && out.contains("nothing written"),
        "{out}"
    );
    assert!(!tmp("game.xyz").exists());
    assert_eq!(out.matches("Took back 1 move.").count(), 3, "{out}");
    assert!(out.contains("Loaded 3 moves from"), "{out}");
    assert!(out.contains("missing.psq': cannot read"), "{out}");
    // After the load the game goes on from move 4 with h10 (7,9) as the last move.
    let tail = &out[out.find("Loaded 3 moves").unwrap()..];
    assert!(tail.contains("\n10  . . . . . . .(X)"), "{tail}");
    assert!(tail.contains("Move 4: white to move."), "{tail}");
    for (path, format) in [
        (&psq, GameFormat::Psq),
        (&sgf, GameFormat::Sgf),
        (&txt, GameFormat::Moves),
    ] {
        let g = read_game(path, (15, 15)).unwrap();
        assert_eq!(g.format, format);
        assert_eq!(g.moves, pts("h8,i9,h10"), "{}", path.display());
        // Issue 34: every record carries its rule.
        assert_eq!(
            g.rule,
            Some(tianyuan::core::Rule::Renju),
            "{}",
            path.display()
        );
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn finished_games_have_the_right_result() {
    // Black (the person) completes g8-k8.
    let (_, out, _) = play(
        &["--rule", "freestyle", "--moves", "h8,h9,i8,i9,j8,j9,k8,a1"],
        "g8\nh7\nquit\n",
    );
    assert!(out.contains("Game over: black wins with a five."), "{out}");
    assert!(
        out.contains("'h7': the game is over (black wins with a five)"),
        "{out}"
    );
    assert!(!out.contains("white plays"), "{out}");
    // White (the engine) has an open four h8-h11; black plays elsewhere and loses.
    let (_, out, _) = play(
        &[
            "--rule",
            "freestyle",
            "--moves",
            "a1,h8,a3,h9,a5,h10,a7,h11",
        ],
        "o15\nquit\n",
    );
    assert!(out.contains("Game over: white wins with a five."), "{out}");
    let reply = out.lines().find(|l| l.starts_with("white plays ")).unwrap();
    assert!(
        reply.starts_with("white plays h7 ") || reply.starts_with("white plays h12 "),
        "{reply}"
    );
    // Issue 34: "1 ply", not "1 plies".
    assert!(reply.contains("win in 1 ply,"), "{reply}");
    // Resigning ends the game for the engine; undo takes back the resignation only (issue
    // 34: it took back 2 moves), and the game goes on from the same position.
    let (_, out, _) = play(
        &["--rule", "standard"],
        "h8\nresign\nhint\nundo\nboard\nquit\n",
    );
    assert!(
        out.contains("Game over: white wins: black resigned."),
        "{out}"
    );
    assert!(out.contains("'hint': the game is over"), "{out}");
    assert!(
        out.contains("Took back the resignation; no move taken back."),
        "{out}"
    );
    assert!(!out.contains("Took back 2 moves."), "{out}");
    assert!(out.trim_end().ends_with("Move 3: black to move."), "{out}");
}

/// Issue 34: `help` explains each command instead of repeating the one-line list.
#[test]
fn help_explains_every_command() {
    let (_, out, _) = play(&["--engine", "none"], "help\nquit\n");
    let help = &out[out.find("Commands:").expect("a command list")..];
    for (cmd, what) in [
        ("undo", "take back your last move"),
        ("hint", "the engine's choice"),
        ("resign", "give up"),
        ("save FILE", ".sgf"),
        ("load FILE", "read a game"),
        ("board", "draw the board"),
        ("help", "this list"),
        ("quit", "leave"),
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{cmd} ")))
            .unwrap_or_else(|| panic!("no line for {cmd}: {help}"));
        assert!(line.contains(what), "{cmd}: {line}");
    }
}

/// Issue 34: a game that ended by black's foul is over, in `--moves` and in `load`.
#[test]
fn a_foul_ends_the_game_when_read() {
    let foul = "h8,a1,i9,a3,h10,a5,g9,a7,h9";
    let (code, out, _) = play(&["--rule", "renju", "--moves", foul], "i8\nquit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("Game over: white wins: black's move 9 (h9) is a double three, forbidden to black under renju"),
        "{out}"
    );
    assert!(out.contains("'i8': the game is over"), "{out}");
    assert!(!out.contains("white plays"), "{out}");
    let psq = tmp("foul.psq");
    std::fs::write(
        &psq,
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,0\n9,9,0\n1,3,0\n8,10,0\n1,5,0\n7,9,0\n1,7,0\n8,9,0\nA\nB\n0\nrule=renju\n",
    )
    .unwrap();
    let (_, out, _) = play(
        &["--rule", "renju", "--engine", "none"],
        &format!("load {}\nquit\n", psq.display()),
    );
    assert!(out.contains("Loaded 9 moves"), "{out}");
    assert!(
        out.contains("Game over: white wins: black's move 9 (h9) is a double three"),
        "{out}"
    );
    // A stone after the foul is refused, with the reason.
    let (code, _, err) = play(
        &["--rule", "renju", "--moves", &format!("{foul},o15")],
        "quit\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("move 10 (o15) comes after the end of the game (white wins"),
        "{err}"
    );
    let _ = std::fs::remove_file(psq);
}

#[test]
fn renju_forbidden_points_shown_and_refused() {
    // Black h8 i8 j8 l8 m8: k8 would be an overline.
    let (code, out, _) = play(
        &[
            "--rule",
            "renju",
            "--engine",
            "none",
            "--moves",
            "h8,a1,i8,a3,j8,a5,l8,a7,m8,a9",
        ],
        "k8\nhint\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("\n 8  . . . . . . . X X X ! X X . . 8\n"),
        "{out}"
    );
    assert!(out.contains("! forbidden for black"), "{out}");
    assert!(
        out.contains("'k8' is forbidden for black here (overline); choose another point."),
        "{out}"
    );
    let hint = out
        .lines()
        .find(|l| l.starts_with("hint for black: "))
        .unwrap();
    assert!(!hint.starts_with("hint for black: k8 "), "{hint}");
}

#[test]
fn engine_as_black_moves_first_and_bad_options_exit_2() {
    let (code, out, _) = play(&["--rule", "renju", "--engine", "black"], "quit\n");
    assert_eq!(code, 0);
    assert!(out.contains("you play white, the engine black"), "{out}");
    assert!(out.contains("\nblack plays "), "{out}");
    assert!(out.contains("Move 2: white to move."), "{out}");
    for args in [
        vec!["--engine", "purple"],
        vec!["--rule", "2"],
        vec!["--size", "15x40"],
        vec!["--moves", "h8,h8"],
        vec!["--orientation", "upside-down"],
    ] {
        let (code, out, err) = play(&args, "");
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// `--orientation book`: the board is drawn with row 1 at the bottom, and moves are still
/// typed in the one notation (h9 is `7,8`, drawn on the line labelled 9, the seventh from
/// the top of a 15x15 board).
#[test]
fn book_orientation_draws_row_1_at_the_bottom() {
    let (code, out, err) = play(
        &[
            "--rule",
            "freestyle",
            "--engine",
            "none",
            "--orientation",
            "book",
        ],
        "h8\n7,8\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let last_header = lines
        .iter()
        .rposition(|l| l.starts_with("    a b c"))
        .unwrap();
    let board = &lines[last_header - 16..=last_header];
    assert_eq!(board[0], "    a b c d e f g h i j k l m n o");
    assert_eq!(board[1], "15  . . . . . . . . . . . . . . . 15");
    assert_eq!(board[7], " 9  . . . . . . .(O). . . . . . . 9");
    assert_eq!(board[8], " 8  . . . . . . . X . . . . . . . 8");
    assert_eq!(board[15], " 1  . . . . . . . . . . . . . . . 1");
}
