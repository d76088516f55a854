//! In-memory transcripts of the protocol executor: every item of docs/protocol.md §7 and §8 that
//! does not need a real process (those are in `protocol_e2e.rs`). Each test checks every
//! reply line, the absence of extra lines, and the state after rejected lines.

mod protocol_common;

use protocol_common::*;
use tianyuan::board::Board;
use tianyuan::core::{Color, Pos, Rule};

// ---------------------------------------------------------------------------------------
// §8: START, RECTSTART

#[test]
fn start_sizes() {
    let mut d = Driver::engine();
    assert_eq!(d.send(&["START 15"]), ["OK"]);
    let before = snap(&d);
    for bad in [
        "START 4",
        "START abc",
        "START 23",
        "START",
        "START -15",
        "START 99999999999999999999",
    ] {
        let out = d.send(&[bad]);
        assert_eq!(out.len(), 1, "{}: {:?}", bad, out);
        assert!(out[0].starts_with("ERROR "), "{}: {:?}", bad, out);
        assert_eq!(snap(&d), before, "{} changed the state", bad);
    }
    // Every size out of range gets the hint (issue 51: START -15 lacked it).
    for (bad, size) in [
        ("START 4", "4x4"),
        ("START -15", "-15x-15"),
        ("START 23", "23x23"),
    ] {
        assert_eq!(
            d.send(&[bad]),
            [format!(
                "ERROR unsupported board size {size}: each side must be 5..=22"
            )]
        );
    }
    assert_eq!(d.send(&["START 15 15"]), ["OK"]);
    assert_eq!(d.s.board().unwrap().width(), 15);
    assert_eq!(d.send(&["start 5"]), ["OK"]);
    assert_eq!(d.send(&["START 22"]), ["OK"]);
    assert_eq!(d.send(&["RECTSTART 15,12"]), ["OK"]);
    let b = d.s.board().unwrap();
    assert_eq!((b.width(), b.height()), (15, 12));
    let before = snap(&d);
    for bad in [
        "RECTSTART 4,12",
        "RECTSTART 15,23",
        "RECTSTART 15",
        "RECTSTART x,y",
    ] {
        let out = d.send(&[bad]);
        assert_eq!(out.len(), 1, "{}: {:?}", bad, out);
        assert!(out[0].starts_with("ERROR "), "{}: {:?}", bad, out);
        assert_eq!(snap(&d), before, "{} changed the state", bad);
    }
}

/// §7 item 9: a failed START keeps the game in progress.
#[test]
fn failed_start_keeps_game() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    one_move(&d.send(&["TURN 7,7"]));
    let before = snap(&d);
    assert!(d.send(&["START 3"])[0].starts_with("ERROR "));
    assert_eq!(snap(&d), before);
    assert_eq!(before.unwrap().stones, 2);
}

// §8: INFO before and after START: no output at all; values stored.
#[test]
fn info_keys_are_silent() {
    let infos = [
        "INFO timeout_turn 5000",
        "INFO timeout_match 180000",
        "INFO time_left 170000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO evaluate 3,4",
        "INFO folder C:\\Program Files\\pisq data",
        "INFO thread_num 1",
        "INFO hash_size 1024",
        "INFO max_depth 20",
        "INFO max_node 100000",
        "INFO show_detail 0",
        "INFO time_increment 0",
        "INFO pondering 0",
        "INFO caution_factor 2",
        "INFO unknown_key whatever",
        "INFO max_node notanumber",
        "INFO",
        "info TIMEOUT_TURN 4000",
    ];
    let mut d = Driver::engine();
    for i in infos {
        assert_eq!(d.send(&[i]), Vec::<String>::new(), "{}", i);
    }
    assert_eq!(d.send(&["START 15"]), ["OK"]);
    for i in infos {
        assert_eq!(d.send(&[i]), Vec::<String>::new(), "{}", i);
    }
    let s = d.s.settings();
    assert_eq!(s.time.turn_ms, Some(4000));
    assert_eq!(s.time.match_ms, Some(180000));
    assert_eq!(s.time.left_ms, Some(170000));
    assert_eq!(s.max_memory, Some(367001600));
    assert_eq!(s.rule, Rule::Standard);
    assert_eq!(s.folder.as_deref(), Some("C:\\Program Files\\pisq data"));
    assert_eq!(s.max_nodes, Some(100000), "a bad value is ignored");
    assert_eq!(d.s.board().unwrap().rule(), Rule::Standard);
}

/// §7 item 6: INFO before START is applied to the game START creates.
#[test]
fn info_before_start_applies() {
    let mut d = Driver::engine();
    assert!(d
        .send(&["INFO rule 4", "INFO timeout_turn 1000"])
        .is_empty());
    assert_eq!(d.send(&["START 15"]), ["OK"]);
    assert_eq!(d.s.board().unwrap().rule(), Rule::Renju);
    // A rule change applies to the current game without clearing the board.
    one_move(&d.send(&["TURN 7,7"]));
    assert!(d.send(&["INFO rule 0"]).is_empty());
    let b = d.s.board().unwrap();
    assert_eq!((b.rule(), b.stone_count()), (Rule::Freestyle, 2));
    // Yixin's 2 is renju; an undecodable value falls back to freestyle with a MESSAGE only.
    d.send(&["INFO rule 2"]);
    assert_eq!(d.s.board().unwrap().rule(), Rule::Renju);
    let out = d.send(&["INFO rule -7"]);
    assert!(out.iter().all(|l| l.starts_with("MESSAGE ")), "{:?}", out);
    assert_eq!(d.s.board().unwrap().rule(), Rule::Freestyle);
}

// ---------------------------------------------------------------------------------------
// §8: BEGIN, TURN, BOARD

#[test]
fn begin_gives_one_move() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let p = one_move(&d.send(&["BEGIN"]));
    assert!(p.x() < 15 && p.y() < 15);
    assert_eq!(d.s.our_color(), Some(Color::Black));
    assert_eq!(d.s.board().unwrap().moves(), [p]);
}

#[test]
fn turn_then_repeat_is_error() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let p = one_move(&d.send(&["TURN 7,7"]));
    assert_ne!(p, Pos::new(7, 7));
    assert_eq!(d.s.our_color(), Some(Color::White));
    let b = d.s.board().unwrap();
    assert_eq!(b.moves(), [Pos::new(7, 7), p]);
    assert_eq!(b.move_colors(), [Color::Black, Color::White]);
    let before = snap(&d);
    let out = d.send(&["TURN 7,7"]);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("ERROR "), "{:?}", out);
    assert_eq!(snap(&d), before);
}

/// §7 item 11: occupied, off board, malformed, -1,-1.
#[test]
fn turn_rejections_leave_state() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    one_move(&d.send(&["TURN 7,7"]));
    let before = snap(&d);
    for bad in [
        "TURN 7,7",
        "TURN 15,0",
        "TURN 0,15",
        "TURN -1,-1",
        "TURN a,b",
        "TURN 3",
        "TURN",
        "TURN 1,2,3",
    ] {
        let out = d.send(&[bad]);
        assert_eq!(out.len(), 1, "{}: {:?}", bad, out);
        assert!(out[0].starts_with("ERROR "), "{}: {:?}", bad, out);
        assert_eq!(snap(&d), before, "{}", bad);
    }
    // Spaces around the comma are fine.
    let p = one_move(&d.send(&["TURN 10 , 10"]));
    assert_eq!(d.s.board().unwrap().moves()[2..], [Pos::new(10, 10), p]);
}

#[test]
fn empty_board_any_case_and_endings() {
    for bytes in [
        &b"START 15\r\nBOARD\r\nDONE\r\n"[..],
        b"start 15\nboard\ndone\n",
        b"START 15\rBOARD\rDONE\r",
        b"START 15\r\nBoard\nDone\r\n",
        b"\n\n  START 15  \r\n\t\r\nBOARD\n\nDONE",
    ] {
        let mut d = Driver::engine();
        let out = d.send_bytes(bytes);
        assert_eq!(out[0], "OK", "{:?}", bytes);
        one_move(&out[1..]);
        assert_eq!(
            d.s.our_color(),
            Some(Color::Black),
            "§7 item 1: zero stones → we are black"
        );
    }
}

#[test]
fn board_mixed_endings_with_stones() {
    let mut d = Driver::engine();
    let out = d.send_bytes(b"START 15\r\nBOARD\n7,7,2\n8,8,1\r\n 6 , 9 ,2\rDONE\r\n");
    assert_eq!(out[0], "OK");
    let p = one_move(&out[1..]);
    let b = d.s.board().unwrap();
    assert_eq!(
        b.moves(),
        [Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 9), p]
    );
    assert_eq!(d.s.our_color(), Some(Color::White));
    assert_eq!(
        b.move_colors(),
        [Color::Black, Color::White, Color::Black, Color::White]
    );
}

/// §7 item 12: bad body lines are skipped with a MESSAGE each, in input order and one format
/// (issue 51), each reason right (`6,6` lacks its field); reading goes on to DONE.
#[test]
fn board_bad_lines_skipped() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let out = d.send(&[
        "BOARD", "7,7,1", "garbage", "15,3,2", "3,-1,2", "7,7,2", "5,5,4", "5,5,0", "6,6", "8,8,2",
        "DONE",
    ]);
    let msgs: Vec<_> = out
        .iter()
        .filter(|l| l.starts_with("MESSAGE skipped "))
        .collect();
    assert_eq!(
        msgs,
        [
            "MESSAGE skipped body line: bad coordinates 'garbage'",
            "MESSAGE skipped body line: 15,3,2: off the board",
            "MESSAGE skipped body line: 3,-1,2: off the board",
            "MESSAGE skipped body line: 7,7,2: square already given",
            "MESSAGE skipped body line: 5,5,4: field must be 1, 2 or 3",
            "MESSAGE skipped body line: 5,5,0: field must be 1, 2 or 3",
            "MESSAGE skipped body line: '6,6' lacks the field (x,y,field)",
        ],
        "{out:?}"
    );
    let p = one_move(&out);
    let b = d.s.board().unwrap();
    assert_eq!(b.moves(), [Pos::new(7, 7), Pos::new(8, 8), p]);
    assert_eq!(d.s.our_color(), Some(Color::Black));
}

/// §7 item 13: inconsistent counts still get a move, with a MESSAGE.
#[test]
fn board_inconsistent_counts() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let out = d.send(&["BOARD", "1,1,1", "2,2,1", "3,1,1", "9,9,2", "DONE"]);
    assert!(out[0].starts_with("MESSAGE "), "{:?}", out);
    one_move(&out);
    assert_eq!(d.s.our_color(), Some(Color::Black));
    let out = d.send(&["BOARD", "1,1,2", "2,2,2", "3,1,2", "9,9,1", "DONE"]);
    assert!(out[0].starts_with("MESSAGE "), "{:?}", out);
    one_move(&out);
    assert_eq!(d.s.our_color(), Some(Color::White));
}

/// BOARD field 3: dead stones block lines but are not moves.
#[test]
fn board_field_three_is_a_wall() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let out = d.send(&["BOARD", "7,7,3", "8,8,2", "DONE"]);
    let p = one_move(&out);
    let b = d.s.board().unwrap();
    assert_eq!(b.cell(Pos::new(7, 7)), tianyuan::board::WALL);
    assert_eq!(b.moves(), [Pos::new(8, 8), p]);
    assert_eq!(d.s.our_color(), Some(Color::White));
}

/// §7 item 2 and "no stale state": a mid-game BOARD replaces the position completely.
#[test]
fn board_mid_game_replaces() {
    let mut d = Driver::engine();
    d.send(&["START 15", "INFO rule 4"]);
    for t in ["TURN 7,7", "TURN 3,3", "TURN 11,2"] {
        one_move(&d.send(&[t]));
    }
    d.send(&["YXBOARD", "0,0,1", "14,14,2", "DONE"]);
    let b = d.s.board().unwrap();
    let fresh =
        Board::from_stones(15, 15, Rule::Renju, &[Pos::new(0, 0)], &[Pos::new(14, 14)]).unwrap();
    assert_eq!(b.moves(), fresh.moves());
    assert_eq!(b.hash(), fresh.hash());
    assert_eq!(b.stone_count(), 2);
    assert_eq!(d.s.our_color(), Some(Color::Black));
    b.verify_incremental().unwrap();
}

/// §7 item 14: full board → ERROR board is full, for BOARD and TURN.
#[test]
fn full_board_is_error() {
    let mut d = Driver::engine();
    d.send(&["START 5"]);
    let mut body = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            body.push(format!("{},{},3", x, y));
        }
    }
    assert_eq!(
        send_owned(&mut d, &with_body("BOARD", &body)),
        ["ERROR board is full"]
    );
    // TURN on the last empty square.
    body.pop();
    d.send(
        &with_body("YXBOARD", &body)
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>(),
    );
    assert_eq!(d.send(&["TURN 4,4"]), ["ERROR board is full"]);
    assert_eq!(d.send(&["BEGIN"]), ["ERROR BEGIN on a non-empty board"]);
}

/// §7 item 14: a renju black position where every empty square is forbidden still gets a
/// move (the only empty square).
#[test]
fn all_forbidden_still_moves() {
    let mut d = Driver::engine();
    d.send(&["INFO rule 4", "START 15"]);
    let mut body = Vec::new();
    let black = [(0, 0), (1, 0), (2, 0), (4, 0), (5, 0)];
    let white = [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14)];
    body.extend(self::body(&black, 1));
    body.extend(self::body(&white, 2));
    for y in 0..15 {
        for x in 0..15 {
            if (x, y) != (3, 0) && !black.contains(&(x, y)) && !white.contains(&(x, y)) {
                body.push(format!("{},{},3", x, y));
            }
        }
    }
    let out = send_owned(&mut d, &with_body("BOARD", &body));
    assert_eq!(d.s.board().map(|b| b.is_full()), Some(true));
    assert_eq!(one_move(&out), Pos::new(3, 0));
}

/// §7 item 15: BEGIN on a non-empty board.
#[test]
fn begin_on_nonempty_is_error() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    one_move(&d.send(&["TURN 7,7"]));
    let before = snap(&d);
    let out = d.send(&["BEGIN"]);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("ERROR "));
    assert_eq!(snap(&d), before);
}

// ---------------------------------------------------------------------------------------
// §8: colour inference (rules from the board; the quick move already knows them)

fn black_overline_position(we_are_white: bool) -> Vec<String> {
    // The side to move has x = 2,3,4,6,7 on row 7: 5,7 makes six in a row.
    let ours = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];
    // The opponent's stones are scattered and make no threats.
    let theirs_all = [(2, 2), (6, 2), (10, 2), (2, 12), (6, 12), (12, 12)];
    let theirs = if we_are_white {
        &theirs_all[..]
    } else {
        &theirs_all[..5]
    };
    let mut v = body(&ours, 1);
    v.extend(body(theirs, 2));
    v
}

#[test]
fn white_wins_with_overline_in_renju() {
    let mut d = Driver::engine();
    d.send(&["INFO rule 4", "START 15"]);
    let out = send_owned(&mut d, &with_body("BOARD", &black_overline_position(true)));
    assert_eq!(d.s.our_color(), Some(Color::White));
    assert_eq!(one_move(&out), Pos::new(5, 7));
}

#[test]
fn black_avoids_overline_in_renju() {
    let mut d = Driver::engine();
    d.send(&["INFO rule 4", "START 15"]);
    let out = send_owned(&mut d, &with_body("BOARD", &black_overline_position(false)));
    assert_eq!(d.s.our_color(), Some(Color::Black));
    let p = one_move(&out);
    assert_ne!(p, Pos::new(5, 7));
    // The same position in freestyle: the overline wins, so the test can tell the two apart.
    let mut d = Driver::engine();
    d.send(&["INFO rule 0", "START 15"]);
    let out = send_owned(&mut d, &with_body("BOARD", &black_overline_position(false)));
    assert_eq!(one_move(&out), Pos::new(5, 7));
}

#[test]
fn black_avoids_double_three_in_renju() {
    // Black (to move, equal counts) has 6,7 7,7 and 8,5 8,6: 8,7 makes two open threes.
    let black = [(6, 7), (7, 7), (8, 5), (8, 6)];
    let white = [(1, 1), (13, 1), (1, 13), (13, 13)];
    let mut v = body(&black, 1);
    v.extend(body(&white, 2));
    let mut d = Driver::engine();
    d.send(&["INFO rule 4", "START 15"]);
    // Check the test position itself before the engine moves (its move may change it).
    let mut check = d.s.board().unwrap().clone();
    for (i, &(x, y)) in black.iter().enumerate() {
        check.make(Pos::new(x, y));
        let (wx, wy) = white[i];
        check.make(Pos::new(wx, wy));
    }
    assert!(
        check.forbidden(Pos::new(8, 7)).is_some(),
        "test position: 8,7 is a double three"
    );
    let out = send_owned(&mut d, &with_body("BOARD", &v));
    assert_eq!(d.s.our_color(), Some(Color::Black));
    assert_ne!(one_move(&out), Pos::new(8, 7));
    // Under freestyle the same square is the natural move, so the test can fail.
    let mut d = Driver::engine();
    d.send(&["INFO rule 0", "START 15"]);
    let out = send_owned(&mut d, &with_body("BOARD", &v));
    assert_eq!(one_move(&out), Pos::new(8, 7));
}

// ---------------------------------------------------------------------------------------
// §8: TAKEBACK, RESTART, PLAY

#[test]
fn takeback_last_stone_only() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let p = one_move(&d.send(&["TURN 7,7"]));
    let q = one_move(&d.send(&["TURN 3,3"]));
    let before = snap(&d);
    for bad in [
        format!("TAKEBACK {},{}", p.x(), p.y()),
        "TAKEBACK 7,7".into(),
        "TAKEBACK 0,0".into(),
        "TAKEBACK 99,1".into(),
        "TAKEBACK x".into(),
    ] {
        let out = d.send(&[bad.as_str()]);
        assert_eq!(out.len(), 1, "{}: {:?}", bad, out);
        assert!(out[0].starts_with("ERROR "), "{}: {:?}", bad, out);
        assert_eq!(snap(&d), before, "{}", bad);
    }
    // Several TAKEBACKs in a row, each OK (Piskvork's undo of one full move).
    assert_eq!(d.send(&[&format!("TAKEBACK {},{}", q.x(), q.y())]), ["OK"]);
    assert_eq!(d.send(&["TAKEBACK 3,3"]), ["OK"]);
    let b = d.s.board().unwrap();
    assert_eq!(b.moves(), [Pos::new(7, 7), p]);
    // No stale state: the board equals one built from scratch.
    let fresh = Board::from_stones_to_move(
        15,
        15,
        Rule::Freestyle,
        &[Pos::new(7, 7)],
        &[p],
        Color::Black,
    )
    .unwrap();
    assert_eq!(b.hash(), fresh.hash());
    b.verify_incremental().unwrap();
    // Play goes on with the same colours.
    let r = one_move(&d.send(&["TURN 12,2"]));
    let b = d.s.board().unwrap();
    assert_eq!(b.moves(), [Pos::new(7, 7), p, Pos::new(12, 2), r]);
    assert_eq!(
        b.move_colors(),
        [Color::Black, Color::White, Color::Black, Color::White]
    );
    // Taking back down to the empty board works too.
    for s in [r, Pos::new(12, 2), p, Pos::new(7, 7)] {
        assert_eq!(d.send(&[&format!("TAKEBACK {},{}", s.x(), s.y())]), ["OK"]);
    }
    assert_eq!(d.s.board().unwrap().stone_count(), 0);
}

#[test]
fn takeback_on_empty_board_is_error() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    let out = d.send(&["TAKEBACK 7,7"]);
    assert!(out.len() == 1 && out[0].starts_with("ERROR "), "{:?}", out);
}

#[test]
fn restart_empties_board() {
    let mut d = Driver::engine();
    d.send(&["RECTSTART 15,12", "INFO rule 1", "INFO timeout_turn 5000"]);
    one_move(&d.send(&["TURN 7,7"]));
    assert_eq!(d.send(&["RESTART"]), ["OK"]);
    let b = d.s.board().unwrap();
    assert_eq!(
        (b.width(), b.height(), b.stone_count(), b.rule()),
        (15, 12, 0, Rule::Standard)
    );
    assert_eq!(d.s.our_color(), None);
    assert_eq!(d.s.settings().time.turn_ms, Some(5000));
    one_move(&d.send(&["BEGIN"]));
    assert_eq!(d.s.our_color(), Some(Color::Black));
}

#[test]
fn play_without_suggest() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    one_move(&d.send(&["TURN 7,7"]));
    assert_eq!(d.send(&["PLAY 3 , 4"]), ["3,4"]);
    let b = d.s.board().unwrap();
    assert_eq!(b.moves()[2], Pos::new(3, 4));
    assert_eq!(b.move_colors()[2], Color::White);
    let before = snap(&d);
    let out = d.send(&["PLAY 3,4"]);
    assert!(out.len() == 1 && out[0].starts_with("ERROR "));
    assert_eq!(snap(&d), before);
}

// ---------------------------------------------------------------------------------------
// §7 item 5: requests before START

#[test]
fn requests_before_start() {
    let mut d = Driver::engine();
    for req in [
        &["TURN 7,7"][..],
        &["BEGIN"],
        &["BOARD", "7,7,1", "DONE"],
        &["YXBOARD", "DONE"],
        &["SWAP2BOARD", "DONE"],
        &["RESTART"],
        &["TAKEBACK 7,7"],
        &["PLAY 7,7"],
        &["YXNBEST 1"],
        &["YXSHOWFORBID"],
    ] {
        assert_eq!(d.send(req), ["ERROR no game started"], "{:?}", req);
        assert!(d.s.board().is_none());
    }
    // These are fine before START.
    let out = d.send(&[
        "ABOUT",
        "YXSHOWINFO",
        "INFO rule 1",
        "YXHASHCLEAR",
        "YXSTOP",
    ]);
    assert_eq!(out.len(), 3, "{:?}", out);
    assert!(out[0].starts_with("name=\"Tianyuan\""));
    assert!(out[1..].iter().all(|l| l.starts_with("MESSAGE INFO ")));
}

// §7 item 29 and §8: ABOUT first.
#[test]
fn about_line() {
    let mut d = Driver::engine();
    let out = d.send(&["ABOUT"]);
    assert_eq!(
        out,
        [format!(
            "name=\"Tianyuan\", version=\"{}\", author=\"Tianyuan developers\", country=\"CN\"",
            env!("CARGO_PKG_VERSION")
        )]
    );
}

// §7 item 18 and §8: unknown commands.
#[test]
fn unknown_commands() {
    let mut d = Driver::engine();
    let out = d.send(&["FOO"]);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("UNKNOWN "));
    let out = d.send(&["yxfoo", "1,1", "done"]);
    assert_eq!(out.len(), 3, "{:?}", out);
    assert!(out.iter().all(|l| l.starts_with("UNKNOWN ")));
    assert_eq!(d.send(&["SUGGEST 1,1", "yxswap2step1", "DONE"]).len(), 3);
    assert_eq!(d.send(&["START 15"]), ["OK"], "still alive");
}

// §7 item 8 and §8: INFO folder with spaces, then BEGIN → one line.
#[test]
fn folder_with_spaces_then_begin() {
    let mut d = Driver::engine();
    d.send(&["START 20"]);
    assert!(d.send(&["INFO folder C:\\A B\\C"]).is_empty());
    let out = d.send(&["BEGIN"]);
    // Exactly one answer; with a real search, per-move MESSAGE summaries may precede it.
    one_move(&out);
    assert!(
        out.iter()
            .all(|l| !l.starts_with("ERROR") && !l.starts_with("UNKNOWN")),
        "{:?}",
        out
    );
}

// §7 item 21: long lines.
#[test]
fn long_lines() {
    let mut d = Driver::engine();
    let path = format!("INFO folder C:\\{}", "x y ".repeat(2000));
    assert!(d.send(&[&path]).is_empty());
    assert_eq!(d.s.settings().folder.as_ref().map(|f| f.len()), Some(8002));
    let mut bytes = b"START 15\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'A', 70 * 1024));
    bytes.extend(b"\nBEGIN\n");
    let out = d.send_bytes(&bytes);
    assert_eq!(out[0], "OK");
    assert!(
        out[1].starts_with("MESSAGE ") && out[1].contains("71680 bytes"),
        "{:?}",
        out
    );
    one_move(&out[2..]);
    // A long unknown command is answered with a shortened echo.
    let out = d.send(&[&"Z".repeat(5000)]);
    assert!(out.len() == 1 && out[0].starts_with("UNKNOWN ") && out[0].len() < 300);
}

// §7 item 24 (idle part): YXSTOP while idle → nothing.
#[test]
fn stop_while_idle_is_silent() {
    let mut d = Driver::engine();
    assert!(d.send(&["YXSTOP", "STOP"]).is_empty());
    d.send(&["START 15"]);
    one_move(&d.send(&["BEGIN"]));
    assert!(d.send(&["yxstop"]).is_empty());
}

// ---------------------------------------------------------------------------------------
// §8: Yixin extensions

#[test]
fn yxboard_then_nbest() {
    let mut d = Driver::engine();
    d.send(&["START 15"]);
    assert!(d
        .send(&["YXBOARD", "7,7,2", "8,8,1", "6,9,2", "DONE"])
        .is_empty());
    assert_eq!(d.s.our_color(), Some(Color::White));
    let out = d.send(&["YXNBEST 2"]);
    assert!(
        out.len() >= 2
            && out[..out.len() - 1]
                .iter()
                .all(|l| l.starts_with("MESSAGE ")),
        "{:?}",
        out
    );
    let p = one_move(&out);
    assert_eq!(d.s.board().unwrap().moves()[3], p, "YXNBEST plays its move");
}

#[test]
fn show_forbid() {
    let mut d = Driver::engine();
    d.send(&["INFO rule 4", "START 15"]);
    // Black to move with 6,7 7,7 and 8,5 8,6: 8,7 is a double three.
    d.send(&[
        "YXBOARD", "6,7,1", "7,7,1", "8,5,1", "8,6,1", "1,1,2", "13,1,2", "1,13,2", "13,13,2",
        "DONE",
    ]);
    let expected: String =
        d.s.board()
            .unwrap()
            .forbidden_points()
            .iter()
            .map(|(p, _)| format!("{:02}{:02}", p.x(), p.y()))
            .collect();
    assert!(expected.contains("0807"));
    assert_eq!(d.send(&["yxshowforbid"]), [format!("FORBID {}.", expected)]);
    // White to move: none.
    d.send(&[
        "YXBOARD", "6,7,2", "7,7,2", "8,5,2", "8,6,2", "1,1,1", "13,1,1", "1,13,1", "DONE",
    ]);
    assert_eq!(d.s.our_color(), Some(Color::White));
    assert_eq!(d.send(&["YXSHOWFORBID"]), ["FORBID ."]);
    // Not renju: none.
    d.send(&[
        "INFO rule 0",
        "YXBOARD",
        "6,7,1",
        "7,7,1",
        "8,5,1",
        "8,6,1",
        "DONE",
    ]);
    assert_eq!(d.send(&["YXSHOWFORBID"]), ["FORBID ."]);
}

#[test]
fn show_info_and_hash_clear() {
    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    let out = d.send(&["YXSHOWINFO"]);
    assert_eq!(out.len(), 2);
    assert!(out[0].starts_with("MESSAGE INFO MAX_THREAD_NUM "));
    assert_eq!(out[1], "MESSAGE INFO MAX_HASH_SIZE 22");
    let clears = log.lock().unwrap().clears;
    assert!(d.send(&["YXHASHCLEAR"]).is_empty());
    assert_eq!(log.lock().unwrap().clears, clears + 1);
}

#[test]
fn block_list_goes_to_limits() {
    let brain = FakeBrain::new(false);
    let log = brain.log.clone();
    let mut d = Driver::new(brain);
    assert!(
        d.send(&["START 15", "YXBLOCK", "7,7", "8,8", "99,99", "DONE"])
            .len()
            == 1
    );
    assert!(d.send(&["yxblockundo", "7,7", "done"]).is_empty());
    one_move(&d.send(&["BEGIN"]));
    assert_eq!(
        log.lock().unwrap().limits.last().unwrap().excluded,
        [Pos::new(8, 8)],
        "off-board entries dropped"
    );
    assert!(d.send(&["YXBLOCKRESET"]).is_empty());
    one_move(&d.send(&["TURN 3,3"]));
    assert!(log
        .lock()
        .unwrap()
        .limits
        .last()
        .unwrap()
        .excluded
        .is_empty());
}

// ---------------------------------------------------------------------------------------
// §8 and §2.12: SWAP2BOARD

#[test]
fn swap2_stage_a() {
    // With a clock: three distinct free points.
    let mut d = Driver::engine();
    d.send(&["INFO rule 1", "START 15", "INFO time_left 10000"]);
    let out = d.send(&["SWAP2BOARD", "DONE"]);
    assert_eq!(out.len(), 1, "{:?}", out);
    let ps: Vec<Pos> = out[0].split(' ').map(mv).collect();
    assert_eq!(ps.len(), 3);
    assert!(ps[0] != ps[1] && ps[1] != ps[2] && ps[0] != ps[2]);
    assert!(ps.iter().all(|p| p.x() < 15 && p.y() < 15));
    // Deterministic at a fixed depth without a clock (a clock would let load change the
    // depth reached, and so the choice).
    let run = || Driver::engine().send(&["INFO rule 1", "START 15", "SWAP2BOARD", "DONE"]);
    let first = run();
    assert_eq!(first.len(), 2);
    assert_eq!(first[1].split(' ').count(), 3);
    assert_eq!(run(), first);
}

fn swap2_answer(score: i32, stones: &[&str]) -> Vec<String> {
    let mut brain = FakeBrain::new(false);
    brain.score = score;
    let mut d = Driver::new(brain);
    d.send(&["INFO rule 1", "START 15", "INFO time_left 100000"]);
    let mut v = vec!["SWAP2BOARD"];
    v.extend_from_slice(stones);
    v.push("DONE");
    d.send(&v)
}

#[test]
fn swap2_stage_b_and_c() {
    let three = ["7,7", "7,8", "9,6"];
    let five = ["7,7", "7,8", "9,6", "8,7", "6,9"];
    assert_eq!(swap2_answer(-1000, &three), ["SWAP"]);
    let one = swap2_answer(1000, &three);
    assert!(one.len() == 1 && is_move(&one[0]), "{:?}", one);
    let two = swap2_answer(0, &three);
    assert_eq!(two.len(), 1);
    let ps: Vec<Pos> = two[0].split(' ').map(mv).collect();
    assert_eq!(ps.len(), 2);
    assert!(ps[0] != ps[1]);
    for p in &ps {
        assert!(![(7, 7), (7, 8), (9, 6)].contains(&(p.x(), p.y())));
    }
    assert_eq!(swap2_answer(-1, &five), ["SWAP"]);
    let c = swap2_answer(5, &five);
    assert!(
        c.len() == 1 && is_move(&c[0]) && !five.contains(&c[0].as_str()),
        "{:?}",
        c
    );
    // With the real engine: one answer line of an allowed shape.
    for stones in [&three[..], &five[..]] {
        let mut d = Driver::engine();
        let mut v = vec!["START 15", "SWAP2BOARD"];
        v.extend_from_slice(stones);
        v.push("DONE");
        let out = d.send(&v);
        assert_eq!(out.len(), 2, "{:?}", out);
        let n = out[1].split(' ').count();
        assert!(
            out[1] == "SWAP"
                || (out[1].split(' ').all(is_move) && n <= if stones.len() == 3 { 2 } else { 1 }),
            "{:?}",
            out
        );
    }
}

/// §7 items 30 and 31: a second SWAP2BOARD, then BOARD replaces the position.
#[test]
fn swap2_then_board() {
    let mut d = Driver::engine();
    d.send(&["INFO rule 1", "START 15"]);
    let a = d.send(&["SWAP2BOARD", "DONE"]);
    assert_eq!(a.len(), 1);
    let c = d.send(&["SWAP2BOARD", "7,7", "7,8", "9,6", "8,7", "6,9", "DONE"]);
    assert_eq!(c.len(), 1);
    let p = one_move(&d.send(&["BOARD", "7,7,2", "7,8,1", "9,6,2", "8,7,1", "6,9,2", "DONE"]));
    assert_eq!(d.s.board().unwrap().stone_count(), 6);
    assert_eq!(d.s.board().unwrap().moves()[5], p);
    assert_eq!(d.s.our_color(), Some(Color::White));
}
