//! Extensions: YXSHOWFORBID reports the points forbidden to the side to move (docs/protocol.md
//! §6.1): black's under renju, none when white is to move; SOLVE (this engine's threat-space
//! solver command, docs/protocol.md §6.4); and a max_memory below the engine's needs is
//! reported with a MESSAGE (§2.4); YXNBEST's count checked; the emergency move (no time)
//! next to the stones.
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

/// Sends `input`; where a line reads `WAIT`, waits (up to 20 s) for a move line first, and
/// where it reads `WAITFOR text`, for a line starting with `text`.
fn run(input: &str) -> (Vec<String>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let mut lines = Vec::new();
    for l in input.lines() {
        if l == "WAIT" {
            loop {
                let got = rx
                    .recv_timeout(Duration::from_secs(20))
                    .expect("a move line");
                let is_move = got.split_once(',').is_some()
                    && !got.starts_with("MESSAGE")
                    && !got.starts_with("INFO");
                lines.push(got);
                if is_move {
                    break;
                }
            }
        } else if let Some(text) = l.strip_prefix("WAITFOR ") {
            loop {
                let got = rx
                    .recv_timeout(Duration::from_secs(20))
                    .unwrap_or_else(|_| panic!("a line starting with {}: {:?}", text, lines));
                let found = got.starts_with(text);
                lines.push(got);
                if found {
                    break;
                }
            }
        } else {
            writeln!(stdin, "{}", l).unwrap();
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    while let Ok(l) = rx.recv_timeout(Duration::from_millis(500)) {
        lines.push(l);
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (lines, err)
}

/// Black h8 i8 j8 l8 m8 (k8 = 10,7 makes an overline), white far away; `own` is the field of
/// black's stones.
fn position(cmd: &str, own_black: bool) -> String {
    let (b, w) = if own_black { (1, 2) } else { (2, 1) };
    let mut s = format!("START 15\nINFO rule 4\nINFO timeout_turn 300\n{}\n", cmd);
    for (i, x) in [7, 8, 9, 11, 12].iter().enumerate() {
        s += &format!("{},7,{}\n", x, b);
        s += &format!("0,{},{}\n", 2 * i, w);
    }
    s += "DONE\n";
    s
}

#[test]
fn forbid_for_black_to_move() {
    // YXBOARD: five black and five white stones, black to move.
    let input = position("YXBOARD", true) + "YXSHOWFORBID\nEND\n";
    let (lines, err) = run(&input);
    assert!(err.is_empty());
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers, vec!["OK", "FORBID 1007."]);
}

#[test]
fn no_forbid_for_white_to_move() {
    // BOARD with us as black: we move, then white is to move.
    let input = position("BOARD", true) + "WAIT\nYXSHOWFORBID\nEND\n";
    let (lines, err) = run(&input);
    assert!(err.is_empty());
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers.len(), 3, "{:?}", lines);
    assert_eq!(answers[0], "OK");
    assert_ne!(answers[1], "10,7", "black must not play the overline point");
    assert_eq!(answers[2], "FORBID .");
}

#[test]
fn tiny_max_memory_is_reported() {
    let (lines, err) = run("START 15\nINFO max_memory 1000000\nBEGIN\nWAIT\nEND\n");
    assert!(err.is_empty());
    assert_eq!(lines[0], "OK");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("MESSAGE max_memory 1000000")),
        "{:?}",
        lines
    );
    assert!(lines.last().unwrap().contains(','), "{:?}", lines);
}

#[test]
fn solve_command() {
    // Freestyle, black h8 i8 j8 against white h9 i9 and a far stone, black to move: g8 or k8
    // makes a straight four (a VCF of one move); white's reply cannot stop it.
    let input = "START 15\nINFO rule 0\nYXBOARD\n7,7,1\n7,8,2\n8,7,1\n8,8,2\n9,7,1\n0,0,2\nDONE\n\
                 SOLVE\nSOLVE VCT 1000\nSOLVE nonsense\nWAITFOR ERROR\nEND\n";
    let (lines, err) = run(input);
    assert!(err.is_empty());
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers.len(), 4, "{:?}", lines);
    assert_eq!(answers[0], "OK");
    for a in &answers[1..3] {
        assert!(
            *a == "SOLVE WIN 6,7" || *a == "SOLVE WIN 10,7",
            "{:?}",
            lines
        );
    }
    assert!(answers[3].starts_with("ERROR "));
    // White to move with nothing: no VCF.
    let input = "START 15\nYXBOARD\n7,7,1\n8,8,2\n9,9,1\nDONE\nSOLVE 200\nWAITFOR SOLVE\nEND\n";
    let (lines, _) = run(input);
    assert_eq!(lines.last().unwrap(), "SOLVE NONE", "{:?}", lines);
}

/// SOLVE runs as a job: the engine keeps reading commands meanwhile (ABOUT is answered at
/// once), YXSTOP ends a long solve with an answer (`SOLVE UNKNOWN` unless it proved
/// something), and the engine plays normally afterwards. The position (V1794 of the VCT
/// data, renju) is not settled within seconds.
#[test]
fn solve_is_a_job_that_yxstop_ends() {
    let mut input = String::from("START 15\nINFO rule 4\nYXBOARD\n");
    let black = "f8,g6,g7,g9,h5,h7,h8,h10,i8";
    let white = "e7,f5,f7,g8,h11,i5,i7,i9,k7";
    for (list, who) in [(black, 1), (white, 2)] {
        for p in tianyuan::core::parse_point_list(list, 15, 15).unwrap() {
            input.push_str(&format!("{},{},{}\n", p.x(), p.y(), who));
        }
    }
    input.push_str("DONE\nSOLVE VCT 600000\nABOUT\nWAITFOR name=\nYXSTOP\nWAITFOR SOLVE\n");
    input.push_str("INFO timeout_turn 300\nBOARD\n7,7,2\nDONE\nWAIT\nEND\n");
    let t0 = std::time::Instant::now();
    let (lines, err) = run(&input);
    assert!(err.is_empty(), "{}", err);
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers.len(), 4, "{:?}", lines);
    assert_eq!(answers[0], "OK");
    assert!(answers[1].starts_with("name="), "{:?}", lines);
    assert!(
        answers[2] == "SOLVE UNKNOWN" || answers[2].starts_with("SOLVE WIN "),
        "{:?}",
        lines
    );
    assert!(answers[3].split_once(',').is_some(), "{:?}", lines);
    // Far below the 10-minute solve: YXSTOP ended it.
    assert!(t0.elapsed() < Duration::from_secs(60), "{:?}", t0.elapsed());
}

/// YXNBEST k (multi-PV): with `show_detail 2` every completed iteration reports k result
/// blocks (`INFO PV 0..k-1`, `INFO NUMPV k`) with distinct first moves; the progress lines
/// say `pv i/k`; the move played is the first move of line 0 of the deepest iteration.
#[test]
fn yxnbest_searches_k_lines() {
    let input = "START 15\nINFO rule 0\nINFO show_detail 2\nINFO max_depth 5\n\
                 INFO timeout_turn 60000\nYXBOARD\n7,7,1\n7,8,2\n8,8,1\n6,6,2\nDONE\n\
                 YXNBEST 3\nWAIT\nEND\n";
    let (lines, err) = run(input);
    assert!(err.is_empty(), "{}", err);
    // (depth, pv index, numpv, first move) of each block.
    let mut blocks: Vec<(u32, usize, usize, String)> = Vec::new();
    let (mut pv, mut num, mut depth) = (usize::MAX, 0, 0);
    for l in &lines {
        if let Some(v) = l.strip_prefix("INFO PV ") {
            if v != "DONE" {
                pv = v.parse().unwrap();
            }
        } else if let Some(v) = l.strip_prefix("INFO NUMPV ") {
            num = v.parse().unwrap();
        } else if let Some(v) = l.strip_prefix("INFO DEPTH ") {
            depth = v.parse().unwrap();
        } else if let Some(v) = l.strip_prefix("INFO BESTLINE ") {
            let first = v.split_whitespace().next().unwrap_or("").to_string();
            blocks.push((depth, pv, num, first));
        }
    }
    let deepest = blocks.iter().map(|b| b.0).max().expect("result blocks");
    assert_eq!(deepest, 5, "{:?}", lines);
    let last: Vec<_> = blocks.iter().filter(|b| b.0 == deepest).collect();
    assert_eq!(last.len(), 3, "{:?}", lines);
    for (i, b) in last.iter().enumerate() {
        assert_eq!((b.1, b.2), (i, 3), "{:?}", lines);
    }
    let mut firsts: Vec<&String> = last.iter().map(|b| &b.3).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{:?}", lines);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("MESSAGE pv 3/3 depth 5")));
    let mv = lines
        .iter()
        .rev()
        .find(|l| !l.starts_with("MESSAGE") && !l.starts_with("INFO"))
        .unwrap();
    assert_eq!(mv, &last[0].3, "{:?}", lines);
}

/// Issue 51: a count outside 1 to 64, or none, is refused with `ERROR` and starts no
/// search (docs/protocol.md §6.1).
#[test]
fn yxnbest_refuses_a_count_outside_1_to_64() {
    let input = "START 15\nINFO timeout_turn 60000\nYXNBEST 0\nYXNBEST -1\nYXNBEST\n\
                 YXNBEST 65\nABOUT\nWAITFOR name=\nEND\n";
    let (lines, err) = run(input);
    assert!(err.is_empty(), "{err}");
    let before_about: Vec<&String> = lines
        .iter()
        .take_while(|l| !l.starts_with("name="))
        .collect();
    assert_eq!(
        before_about,
        [
            "OK",
            "ERROR YXNBEST takes a count from 1 to 64, not '0'",
            "ERROR YXNBEST takes a count from 1 to 64, not '-1'",
            "ERROR YXNBEST needs a count from 1 to 64",
            "ERROR YXNBEST takes a count from 1 to 64, not '65'",
        ],
        "{lines:?}"
    );
}

/// Issue 51: with no time at all (`timeout_turn` 0 or 1, `time_left` 0) the answer is still
/// a sensible move: next to the only stone, not three lines away from it.
#[test]
fn the_emergency_move_is_next_to_the_stones() {
    for info in [
        "INFO timeout_turn 0",
        "INFO timeout_turn 1",
        "INFO timeout_match 100000\nINFO time_left 0",
    ] {
        let input = format!("START 15\n{info}\nTURN 7,7\nWAIT\nEND\n");
        let (lines, err) = run(&input);
        assert!(err.is_empty(), "{err}");
        let mv = lines
            .iter()
            .rev()
            .find(|l| !l.starts_with("MESSAGE") && !l.starts_with("INFO"))
            .unwrap();
        let (x, y) = mv.split_once(',').unwrap();
        let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
        assert!(
            (x - 7).abs() <= 1 && (y - 7).abs() <= 1 && (x, y) != (7, 7),
            "{info}: {mv}"
        );
    }
}
