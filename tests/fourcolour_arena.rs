//! Four-colour matches through `pbrain-tianyuan match --variant fourcolour`: a full game of
//! every mode with our engine in every seat (replayed and judged again from its record), and
//! a crashing, an illegal and a garbage-speaking engine in one seat, scored as
//! `docs/fourcolour.md` §7 says.
//!
//! The misbehaving engines are one python3 script written to a temporary directory, started
//! with a mode argument: `crash` exits at its second move request, `occupied` plays on a
//! stone at its second move request, `garbage` answers it with `hello`; before that (and
//! `sane` always) it plays the first empty point nearest the centre.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use tianyuan::core::{parse_point, Pos};
use tianyuan::fourcolour::{FourBoard, Mode, Outcome};

const FAKE: &str = r#"#!/usr/bin/env python3
import sys
mode = sys.argv[1] if len(sys.argv) > 1 else "sane"
size = 15
board = set()
requests = 0

def out(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()

def nearest():
    c = size // 2
    free = [(max(abs(x - c), abs(y - c)), y, x) for y in range(size) for x in range(size) if (x, y) not in board]
    _, y, x = min(free)
    return (x, y)

def answer():
    global requests
    requests += 1
    if requests >= 2 and mode == "crash":
        sys.exit(3)
    if requests >= 2 and mode == "garbage":
        out("hello")
        return
    if requests >= 2 and mode == "occupied" and board:
        out("%d,%d" % sorted(board)[0])
        return
    p = nearest()
    board.add(p)
    out("%d,%d" % p)

body = None
for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    word = line.split()[0].upper()
    if body is not None:
        if word == "DONE":
            board = set(body)
            body = None
            answer()
        else:
            x, y, c = line.split(",")
            body.append((int(x), int(y)))
        continue
    if word == "START":
        size = int(line.split()[1])
        board = set()
        requests = 0
        out("OK")
    elif word == "BEGIN":
        answer()
    elif word == "TURN":
        x, y = line.split()[1].split(",")
        board.add((int(x), int(y)))
        answer()
    elif word == "BOARD":
        body = []
    elif word == "ABOUT":
        out('name="fake", version="1"')
    elif word == "END":
        break
"#;

fn fake() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tianyuan-fc-fake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("fake4.py");
    std::fs::write(&p, FAKE).unwrap();
    p
}

fn ours() -> String {
    env!("CARGO_BIN_EXE_pbrain-tianyuan").to_string()
}

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tianyuan-fc-arena-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Runs a match; returns stdout and the parsed results.json.
fn run(tag: &str, engines: &[String], extra: &[&str]) -> (String, Value, PathBuf) {
    let dir = out_dir(tag);
    let mut cmd = Command::new(ours());
    cmd.arg("match").args(["--variant", "fourcolour"]);
    for e in engines {
        cmd.args(["--engine", e]);
    }
    cmd.args(["--out", dir.to_str().unwrap()]).args(extra);
    let o = cmd.output().expect("run match");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{}\n{}",
        stdout,
        String::from_utf8_lossy(&o.stderr)
    );
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    (stdout, json, dir)
}

/// The record's moves and result line.
fn read_fcg(path: &Path, size: usize) -> (Vec<(Pos, u8)>, String) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut moves = Vec::new();
    let mut result = String::new();
    let mut in_moves = false;
    for l in text.lines() {
        if let Some(r) = l.strip_prefix("result ") {
            result = r.to_string();
        } else if l == "moves" {
            in_moves = true;
        } else if l == "end" {
            in_moves = false;
        } else if in_moves {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 4, "{l}");
            let p = parse_point(f[2], size, size).unwrap();
            moves.push((p, f[1].parse().unwrap()));
        }
    }
    (moves, result)
}

#[test]
fn a_full_game_of_every_mode_with_our_engine_in_every_seat() {
    for mode in Mode::ALL {
        let (stdout, json, dir) = run(
            mode.name(),
            &[ours(), ours()],
            &[
                "--mode",
                mode.name(),
                "--size",
                "9",
                "--games",
                "1",
                "--tc-turn-ms",
                "3000",
                "--tc-game-ms",
                "0",
                "--engine-option",
                "max_depth=2",
                "--engine-option",
                "thread_num=1",
                "--memory-mb",
                "64",
            ],
        );
        assert!(stdout.contains("Games played: 1 of 1"), "{stdout}");
        let (moves, result) = read_fcg(&dir.join("game-0001.fcg"), 9);
        // Replay: every stone on an empty point, in the cyclic colour order, and the judged
        // outcome is the recorded one.
        let mut b = FourBoard::new(9, 9, mode, false).unwrap();
        let mut outcome = None;
        for (i, &(p, c)) in moves.iter().enumerate() {
            assert!(outcome.is_none(), "{mode}: stones after the end");
            assert_eq!(c, b.to_move().number(), "{mode}: stone {i} out of order");
            assert!(b.is_empty(p), "{mode}: stone {i} on a stone");
            outcome = b.play_judged(p);
        }
        let expect = match outcome {
            Some(Outcome::Win(w)) => format!("win {}", w + 1),
            Some(Outcome::Draw) => "draw".to_string(),
            None => panic!("{mode}: the game did not end"),
        };
        assert_eq!(result, expect, "{mode}");
        let g = &json["games"][0];
        assert_eq!(g["moves"].as_array().unwrap().len(), moves.len());
        assert_eq!(g["seats"].as_array().unwrap().len(), mode.players());
        // Points: a win counts for every member of the winning team.
        let points: f64 = json["engines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["totals"]["points"].as_f64().unwrap())
            .sum();
        let expect_points = match outcome {
            Some(Outcome::Win(w)) => mode.members(mode.team(w)).len() as f64,
            _ => mode.players() as f64 / mode.teams() as f64,
        };
        assert!((points - expect_points).abs() < 1e-9, "{mode}: {points}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn fake_engine(kind: &str) -> String {
    format!("python3 {} {kind}", fake().display())
}

fn totals(json: &Value, engine: usize) -> Value {
    json["engines"][engine]["totals"].clone()
}

#[test]
fn a_crashing_engine_forfeits_and_its_team_loses() {
    // Two against two: ours in seats 1 and 3 (team 1), the crashing engine in 2 and 4.
    let (stdout, json, dir) = run(
        "crash",
        &[ours(), fake_engine("crash")],
        &[
            "--mode",
            "2v2",
            "--games",
            "1",
            "--engine-option",
            "1:max_depth=2",
        ],
    );
    assert!(
        stdout.contains("player 2 (white) forfeits: crash"),
        "{stdout}"
    );
    let g = &json["games"][0];
    assert_eq!(g["result"], "forfeit");
    assert_eq!(g["player"], 2);
    assert_eq!(g["termination"]["kind"], "crash");
    let a = totals(&json, 0);
    let b = totals(&json, 1);
    assert_eq!(
        (a["wins"].as_u64(), a["points"].as_f64()),
        (Some(2), Some(2.0))
    );
    assert_eq!(
        (b["losses"].as_u64(), b["points"].as_f64()),
        (Some(2), Some(0.0))
    );
    assert_eq!(b["forfeits"], 1);
    let text = std::fs::read_to_string(dir.join("game-0001.fcg")).unwrap();
    assert!(text.contains("result forfeit 2"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_move_forfeits_in_free_for_all() {
    // Free-for-all: the offender loses and the three others share a draw (1/3 each).
    let (stdout, json, dir) = run(
        "occupied",
        &[
            fake_engine("sane"),
            fake_engine("occupied"),
            fake_engine("sane"),
        ],
        &["--mode", "ffa", "--games", "1"],
    );
    assert!(
        stdout.contains("player 2 (white) forfeits: illegal move"),
        "{stdout}"
    );
    let a = totals(&json, 0);
    let b = totals(&json, 1);
    let c = totals(&json, 2);
    // Seats: 1 engine A, 2 engine B (offender), 3 engine C, 4 engine A.
    assert_eq!(a["draws"], 2);
    assert!((a["points"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(
        (b["losses"].as_u64(), b["forfeits"].as_u64()),
        (Some(1), Some(1))
    );
    assert!((c["points"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn garbage_forfeits_and_seats_rotate() {
    // Two players, two games: the garbage engine is second in game 1 and first in game 2,
    // and loses both on its second move request.
    let (stdout, json, dir) = run(
        "garbage",
        &[fake_engine("sane"), fake_engine("garbage")],
        &["--mode", "2p", "--games", "2"],
    );
    let games = json["games"].as_array().unwrap();
    assert_eq!(games[0]["seats"], serde_json::json!([0, 1]));
    assert_eq!(games[1]["seats"], serde_json::json!([1, 0]));
    assert_eq!(games[0]["player"], 2);
    assert_eq!(games[1]["player"], 1);
    for g in games {
        assert_eq!(g["termination"]["kind"], "garbage");
    }
    let a = totals(&json, 0);
    assert_eq!(
        (a["wins"].as_u64(), a["games_won"].as_u64()),
        (Some(2), Some(2))
    );
    assert!(stdout.contains("points 2.00/2 (1.000)"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_four_colour_options() {
    let o = Command::new(ours())
        .args(["match", "--variant", "fourcolour", "--mode", "3p"])
        .args(["--engine", "a", "--engine", "b"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown mode '3p'"));
    let o = Command::new(ours())
        .args(["match", "--variant", "fourcolour", "--rule", "renju"])
        .args(["--engine", "a", "--engine", "b"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = Command::new(ours())
        .args(["match", "--mode", "ffa", "--engine", "a", "--engine", "b"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}
