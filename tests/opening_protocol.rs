//! Transcripts of the opening-rule commands (docs/openings.md §4 and §5): Yixin-Board's
//! `yxswap2step1..3` and `yxsoosorvstep1..6`, and this engine's `OPENING`, with exact replies.
//!
//! A scripted engine ([`FakeBrain`]: the quick move, a fixed score from the side to move's
//! view) makes the answers exact; one transcript on the real engine checks their shape.

mod protocol_common;

use protocol_common::*;

/// A session on the scripted engine with `score`, renju on 15x15, a 1 s turn limit.
fn driver(score: i32) -> Driver<FakeBrain> {
    let mut brain = FakeBrain::new(false);
    brain.score = score;
    // Completed depth 2: an answer, not a forced reply to look behind.
    brain.iterations = 2;
    let mut d = Driver::new(brain);
    assert_eq!(
        d.send(&["START 15", "INFO rule 2", "INFO timeout_turn 1000"]),
        ["OK"]
    );
    d
}

/// The lines of a reply with the `time_ms` of the `MESSAGE OPENING` line cut off.
fn reply(d: &mut Driver<FakeBrain>, lines: &[&str]) -> Vec<String> {
    d.send(lines)
        .into_iter()
        .map(|l| match l.find(" time_ms ") {
            Some(i) if l.starts_with("MESSAGE OPENING ") => l[..i].to_string(),
            _ => l,
        })
        .collect()
}

/// Checks one exchange: the commands and the exact reply lines.
fn exchange(d: &mut Driver<FakeBrain>, cmds: &[&str], expect: &[&str]) {
    assert_eq!(reply(d, cmds), expect, "after {cmds:?}");
}

// Yixin-Board's Swap2 steps: the position comes with YXBOARD, own stones field 1.
#[test]
fn yixin_swap2_steps() {
    let three = ["YXBOARD", "7,7,2", "7,8,1", "9,6,2", "DONE", "yxswap2step2"];
    let five = [
        "YXBOARD",
        "7,7,2",
        "7,8,1",
        "9,6,2",
        "8,7,1",
        "6,9,2",
        "DONE",
        "yxswap2step3",
    ];
    // Step 1: the engine opens with three stones (the balanced candidate: all score alike,
    // so the first).
    let mut d = driver(-1000);
    exchange(
        &mut d,
        &["yxswap2step1"],
        &[
            "MESSAGE OPENING swap2 OPEN score 1000 line 7,9 nodes 0",
            "MESSAGE SWAP2 MOVE1 7 7",
            "MESSAGE SWAP2 MOVE2 8 7",
            "MESSAGE SWAP2 MOVE3 10 9",
        ],
    );
    // Step 2, white (to move) clearly worse: take black.
    exchange(
        &mut d,
        &three,
        &[
            "MESSAGE OPENING swap2 SWAP1 score 1000 line 9,5 nodes 0",
            "MESSAGE SWAP2 SWAP1 YES",
        ],
    );
    // Step 3, black (who just moved) better: take black.
    exchange(
        &mut d,
        &five,
        &[
            "MESSAGE OPENING swap2 SWAP2 score 1000 line 8,8 nodes 0",
            "MESSAGE SWAP2 SWAP2 YES",
        ],
    );
    // White clearly better: stay white (Yixin-Board then asks for the move with BOARD).
    let mut d = driver(1000);
    exchange(
        &mut d,
        &three,
        &[
            "MESSAGE OPENING swap2 SWAP1 score -1000 line 9,5 nodes 0",
            "MESSAGE SWAP2 SWAP1 NO",
        ],
    );
    exchange(
        &mut d,
        &five,
        &[
            "MESSAGE OPENING swap2 SWAP2 score -1000 line 8,8 nodes 0",
            "MESSAGE SWAP2 SWAP2 NO",
        ],
    );
    // About even: two more stones, white then black.
    let mut d = driver(0);
    exchange(
        &mut d,
        &three,
        &[
            "MESSAGE OPENING swap2 SWAP1 score 0 line 9,5 nodes 0",
            "MESSAGE SWAP2 MOVE4 9 5",
            "MESSAGE SWAP2 MOVE5 6 6",
        ],
    );
    // The stones on the board must fit the step.
    exchange(
        &mut d,
        &["YXBOARD", "7,7,1", "DONE", "yxswap2step2"],
        &[
            "MESSAGE inconsistent stone counts: 1 own and 0 opponent; playing as black",
            "ERROR yxswap2step2 needs 3 stones on the board (1 black, 0 white given)",
        ],
    );
}

// Yixin-Board's Soosorv-8 steps: the stones come with the command, `x,y` in move order.
#[test]
fn yixin_soosorv_steps() {
    let mut d = driver(-1000);
    exchange(
        &mut d,
        &["yxsoosorvstep1"],
        &[
            "MESSAGE OPENING soosorv8 OPEN score 1000 line 6,8 nodes 0",
            "MESSAGE SOOSORV MOVE1 7 7",
            "MESSAGE SOOSORV MOVE2 7 8",
            "MESSAGE SOOSORV MOVE3 7 9",
        ],
    );
    exchange(
        &mut d,
        &["yxsoosorvstep2", "7,7", "7,8", "8,9", "done"],
        &[
            "MESSAGE OPENING soosorv8 SWAP1 score 1000 line 8,7 nodes 0",
            "MESSAGE SOOSORV SWAP1 Y",
        ],
    );
    exchange(
        &mut d,
        &["yxsoosorvstep4 2", "7,7", "7,8", "8,9", "8,8", "done"],
        &[
            "MESSAGE OPENING soosorv8 SWAP2 score -1001 line 6,6 nodes 0",
            "MESSAGE SOOSORV SWAP2 Y",
        ],
    );
    let mut d = driver(0);
    exchange(
        &mut d,
        &["yxsoosorvstep2", "7,7", "7,8", "8,9", "done"],
        &[
            "MESSAGE OPENING soosorv8 SWAP1 score 0 line 8,7 nodes 0",
            "MESSAGE SOOSORV SWAP1 N",
        ],
    );
    exchange(
        &mut d,
        &["yxsoosorvstep3", "7,7", "7,8", "7,9", "done"],
        &[
            "MESSAGE OPENING soosorv8 MOVE4 score 0 line 8,8 nodes 0",
            "MESSAGE SOOSORV MOVE4 6 8 1",
        ],
    );
    exchange(
        &mut d,
        &["yxsoosorvstep5 3", "7,7", "7,8", "7,9", "8,7", "done"],
        &[
            "MESSAGE OPENING soosorv8 OFFER score -1 line 6,6 nodes 0",
            "MESSAGE SOOSORV MOVE5 REFRESH",
            "MESSAGE SOOSORV MOVE5 8 8",
            "MESSAGE SOOSORV MOVE5 6 6",
            "MESSAGE SOOSORV MOVE5 7 6",
            "MESSAGE SOOSORV MOVE5 DONE",
        ],
    );
    exchange(
        &mut d,
        &[
            "yxsoosorvstep6",
            "7,7",
            "7,8",
            "7,9",
            "8,7",
            "6,6",
            "9,9",
            "done",
        ],
        &[
            "MESSAGE OPENING soosorv8 CHOOSE score 0 line 8,8 nodes 0",
            "MESSAGE SOOSORV MOVE5 C 6 6",
        ],
    );
    let mut d = driver(5);
    exchange(
        &mut d,
        &["yxsoosorvstep4 2", "7,7", "7,8", "8,9", "8,8", "done"],
        &[
            "MESSAGE OPENING soosorv8 SWAP2 score 4 line 6,6 nodes 0",
            "MESSAGE SOOSORV SWAP2 N",
        ],
    );
    // Bad requests: ERROR, and the session goes on.
    exchange(
        &mut d,
        &["yxsoosorvstep4", "7,7", "7,8", "8,9", "8,8", "done"],
        &["ERROR yxsoosorvstep4 and 5 need the number of fifth-move offers"],
    );
    exchange(
        &mut d,
        &["yxsoosorvstep5 9", "7,7", "7,8", "8,9", "8,8", "done"],
        &["ERROR the number of fifth-move offers must be 1..=8, not 9"],
    );
    exchange(
        &mut d,
        &["yxsoosorvstep3", "7,7", "7,8", "done"],
        &["ERROR soosorv8 MOVE4 needs 3 stones, got 2"],
    );
    exchange(
        &mut d,
        &[
            "yxsoosorvstep6",
            "7,7",
            "7,8",
            "8,9",
            "8,8",
            "6,6",
            "6,6",
            "done",
        ],
        &["ERROR bad position: offer g7 repeats a stone"],
    );
    assert_eq!(d.send(&["START 15"]), ["OK"], "still alive");
}

// This engine's OPENING command: every rule and step.
#[test]
fn own_opening_command() {
    let d4 = ["7,7", "7,8", "8,8", "7,6"];
    let with = |head: &str, stones: &[&str]| {
        let mut v = vec![head.to_string()];
        v.extend(stones.iter().map(|s| s.to_string()));
        v.push("DONE".to_string());
        v
    };
    let cases: Vec<(i32, Vec<String>, [&str; 2])> = vec![
        (
            0,
            with("OPENING rif open", &[]),
            [
                "MESSAGE OPENING rif OPEN score 0 line 6,8 nodes 0",
                "OPENING MOVES 7,7 7,8 7,9",
            ],
        ),
        (
            -1000,
            with("OPENING rif swap1", &d4[..3]),
            [
                "MESSAGE OPENING rif SWAP1 score 1000 line 8,7 nodes 0",
                "OPENING SWAP YES",
            ],
        ),
        (
            1000,
            with("opening RIF swap", &d4[..3]),
            [
                "MESSAGE OPENING rif SWAP1 score -1000 line 8,7 nodes 0",
                "OPENING SWAP NO",
            ],
        ),
        (
            0,
            with("OPENING rif offer", &d4),
            [
                "MESSAGE OPENING rif OFFER score -1 line 6,5 nodes 0",
                "OPENING OFFERS 8,7 6,5",
            ],
        ),
        (
            0,
            with(
                "OPENING rif choose",
                &["7,7", "7,8", "8,8", "7,6", "9,9", "6,9"],
            ),
            [
                "MESSAGE OPENING rif CHOOSE score 0 line 6,6 nodes 0",
                "OPENING CHOOSE 9,9 6,6",
            ],
        ),
        (
            0,
            with("OPENING soosorv8 open", &[]),
            [
                "MESSAGE OPENING soosorv8 OPEN score 0 line 6,8 nodes 0",
                "OPENING MOVES 7,7 7,8 7,9",
            ],
        ),
        (
            0,
            with("OPENING soosorv8 move4", &d4[..3]),
            [
                "MESSAGE OPENING soosorv8 MOVE4 score 0 line 6,6 nodes 0",
                "OPENING MOVE4 8,7 1",
            ],
        ),
        (
            5,
            with("OPENING soosorv8 swap2 3", &d4),
            [
                "MESSAGE OPENING soosorv8 SWAP2 score 4 line 6,5 nodes 0",
                "OPENING SWAP NO",
            ],
        ),
        (
            0,
            with("OPENING soosorv8 offer 2", &d4),
            [
                "MESSAGE OPENING soosorv8 OFFER score -1 line 6,5 nodes 0",
                "OPENING OFFERS 8,7 6,5",
            ],
        ),
        (
            1000,
            with("OPENING swap1 color", &["0,0"]),
            [
                "MESSAGE OPENING swap1 COLOR score -1000 line 4,0 nodes 0",
                "OPENING COLOR WHITE",
            ],
        ),
        (
            -1000,
            with("OPENING swap5 color", &["7,7", "7,8", "9,9", "3,3", "11,3"]),
            [
                "MESSAGE OPENING swap5 COLOR score 1000 line 8,8 nodes 0",
                "OPENING COLOR BLACK",
            ],
        ),
        (
            -1000,
            with("OPENING cswap color", &["7,7", "8,8"]),
            [
                "MESSAGE OPENING cswap COLOR score -1000 line 8,6 nodes 0",
                "OPENING COLOR WHITE",
            ],
        ),
        (
            1000,
            with("OPENING swap2 swap1", &["7,7", "7,8", "9,6"]),
            [
                "MESSAGE OPENING swap2 SWAP1 score -1000 line 9,5 nodes 0",
                "OPENING MOVES 9,5",
            ],
        ),
        (
            -1,
            with("OPENING swap2 swap2", &["7,7", "7,8", "9,6", "8,7", "6,9"]),
            [
                "MESSAGE OPENING swap2 SWAP2 score 1 line 8,8 nodes 0",
                "OPENING SWAP YES",
            ],
        ),
    ];
    for (score, cmds, expect) in cases {
        let mut d = driver(score);
        let cmds: Vec<&str> = cmds.iter().map(|s| s.as_str()).collect();
        exchange(&mut d, &cmds, &expect);
    }
    // The other steps, all scores alike.
    let mut d = driver(0);
    for (cmds, expect) in [
        (
            vec!["OPENING swap2 open", "DONE"],
            [
                "MESSAGE OPENING swap2 OPEN score 0 line 7,9 nodes 0",
                "OPENING MOVES 7,7 8,7 10,9",
            ],
        ),
        (
            vec!["OPENING soosorv8 swap1", "7,7", "7,8", "8,8", "DONE"],
            [
                "MESSAGE OPENING soosorv8 SWAP1 score 0 line 8,7 nodes 0",
                "OPENING SWAP NO",
            ],
        ),
        (
            vec![
                "OPENING soosorv8 choose",
                "7,7",
                "7,8",
                "8,8",
                "7,6",
                "9,9",
                "6,9",
                "5,5",
                "DONE",
            ],
            [
                "MESSAGE OPENING soosorv8 CHOOSE score 0 line 6,6 nodes 0",
                "OPENING CHOOSE 9,9 6,6",
            ],
        ),
        (
            vec!["OPENING swap1 open", "DONE"],
            [
                "MESSAGE OPENING swap1 OPEN score 0 line 0,4 nodes 0",
                "OPENING MOVES 0,1",
            ],
        ),
        (
            vec!["OPENING swap5 open", "DONE"],
            [
                "MESSAGE OPENING swap5 OPEN score 0 line 6,8 nodes 0",
                "OPENING MOVES 8,6 9,8 7,7 6,9 7,9",
            ],
        ),
        (
            vec!["OPENING cswap place", "DONE"],
            [
                "MESSAGE OPENING cswap PLACE score 0 line 7,7 nodes 0",
                "OPENING MOVES 7,7",
            ],
        ),
        (
            vec!["OPENING cswap place", "7,7", "DONE"],
            [
                "MESSAGE OPENING cswap PLACE score 0 line 4,4 nodes 0",
                "OPENING MOVES 4,4",
            ],
        ),
    ] {
        exchange(&mut d, &cmds, &expect);
    }
    // Errors.
    for (cmds, expect) in [
        (vec!["OPENING chess open", "DONE"], "ERROR OPENING takes a rule (swap2 rif soosorv8 swap1 swap5 cswap), a step and an optional N"),
        (vec!["OPENING soosorv8", "DONE"], "ERROR OPENING takes a step (open swap1 move4 swap2 offer choose color place)"),
        (vec!["OPENING rif move4", "7,7", "7,8", "8,9", "DONE"], "ERROR rif has no step MOVE4 (its steps: OPEN SWAP1 OFFER CHOOSE)"),
        (vec!["OPENING rif swap1", "7,7", "7,8", "15,9", "DONE"], "ERROR 15,9 is off the 15x15 board"),
        (vec!["OPENING swap1 color", "7,7", "7,8", "DONE"], "ERROR swap1 COLOR needs 1 stones, got 2"),
    ] {
        exchange(&mut d, &cmds, &[expect]);
    }
    // A bad body line is reported and skipped.
    exchange(
        &mut d,
        &[
            "OPENING rif offer 2",
            "7,7",
            "7,8",
            "8,9",
            "8,8",
            "x",
            "DONE",
        ],
        &[
            "MESSAGE skipped body line: bad coordinates 'x'",
            "MESSAGE OPENING rif OFFER score -1 line 6,6 nodes 0",
            "OPENING OFFERS 6,8 6,6",
        ],
    );
    // Before START: no game.
    let mut d = Driver::new(FakeBrain::new(false));
    assert_eq!(
        d.send(&["OPENING rif open", "DONE", "yxswap2step1", "yxsoosorvstep1"]),
        ["ERROR no game started"; 3]
    );
}

// The real engine: the answers have the right shape and make sense on the board.
#[test]
fn real_engine_transcript() {
    let mut d = Driver::engine();
    d.send(&["START 15", "INFO rule 4", "INFO timeout_turn 500"]);
    let out = d.send(&["yxsoosorvstep5 2", "7,7", "7,8", "8,8", "7,6", "done"]);
    assert!(
        out[0].starts_with("MESSAGE OPENING soosorv8 OFFER score "),
        "{out:?}"
    );
    assert_eq!(out[1], "MESSAGE SOOSORV MOVE5 REFRESH");
    assert_eq!(out[4], "MESSAGE SOOSORV MOVE5 DONE");
    assert_eq!(out.len(), 5, "{out:?}");
    let offer = |l: &str| {
        let v: Vec<usize> = l
            .strip_prefix("MESSAGE SOOSORV MOVE5 ")
            .unwrap()
            .split(' ')
            .map(|t| t.parse().unwrap())
            .collect();
        (v[0], v[1])
    };
    let (a, b) = (offer(&out[2]), offer(&out[3]));
    assert_ne!(a, b);
    for p in [a, b] {
        assert!(![(7, 7), (7, 8), (8, 8), (7, 6)].contains(&p));
    }
    let out = d.send(&["OPENING soosorv8 move4", "7,7", "7,8", "8,8", "DONE"]);
    let last = out.last().unwrap();
    let toks: Vec<&str> = last.split(' ').collect();
    assert_eq!(toks[..2], ["OPENING", "MOVE4"], "{out:?}");
    let n: u8 = toks[3].parse().unwrap();
    assert!((1..=8).contains(&n));
    assert!(is_move(toks[2]));
}
