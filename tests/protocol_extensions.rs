//! Extensions: YXSHOWFORBID reports the points forbidden to the side to move (protocol.md
//! §6.1): black's under renju, none when white is to move; SOLVE (this engine's threat-space
//! solver command, README); and a max_memory below the engine's needs is reported with a
//! MESSAGE (§2.4).
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

/// Sends `input`; where a line reads `WAIT`, waits (up to 20 s) for a move line first.
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
                let is_move = got.split_once(',').is_some() && !got.starts_with("MESSAGE");
                lines.push(got);
                if is_move {
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
                 SOLVE\nSOLVE VCT 1000\nSOLVE nonsense\nEND\n";
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
    let input = "START 15\nYXBOARD\n7,7,1\n8,8,2\n9,9,1\nDONE\nSOLVE 200\nEND\n";
    let (lines, _) = run(input);
    assert_eq!(lines.last().unwrap(), "SOLVE NONE", "{:?}", lines);
}
