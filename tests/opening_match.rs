//! `pbrain-tianyuan match --opening-rule`: short matches of our engine against itself under
//! Swap2 (through `SWAP2BOARD`) and Soosorv-8 and RIF (through `OPENING`), ending with legal
//! games whose decisions are in the records (docs/openings.md §6).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use tianyuan::board::Board;
use tianyuan::core::{parse_point, Rule};
use tianyuan::opening::renju26::recognise;

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
    out: PathBuf,
}

impl Drop for Run {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.out);
        }
    }
}

fn run(tag: &str, rule: &str, opening_rule: &str) -> Run {
    let ours = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("opening-match-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(ours)
        .args(["match", "--engine", ours, "--engine", ours, "--games", "2"])
        .args(["--rule", rule, "--opening-rule", opening_rule])
        .args([
            "--tc-turn-ms",
            "200",
            "--tc-game-ms",
            "10000",
            "--tolerance-ms",
            "1000",
        ])
        .args([
            "--threads",
            "1",
            "--memory-mb",
            "16",
            "--name",
            "1:A",
            "--name",
            "2:B",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run match");
    Run {
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        code: o.status.code().unwrap_or(-1),
        out,
    }
}

impl Run {
    fn results(&self) -> Value {
        let t = std::fs::read_to_string(self.out.join("results.json")).expect("results.json");
        serde_json::from_str(&t).unwrap()
    }
}

/// Both games end on the board, every stone is legal, and the decisions are recorded.
fn check(r: &Run, rule: Rule, requests: &[&[&str]]) -> Vec<Value> {
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let res = r.results();
    assert_eq!(res["forfeits"], serde_json::json!([0, 0]), "{}", r.stdout);
    let games = res["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2);
    for (i, g) in games.iter().enumerate() {
        let kind = g["termination"]["kind"].as_str().unwrap();
        assert!(
            ["five", "board_full", "foul"].contains(&kind),
            "game {i}: {kind}\n{}",
            r.stdout
        );
        let mut b = Board::new(15, 15, rule).unwrap();
        for m in g["moves"].as_array().unwrap() {
            let p = parse_point(m.as_str().unwrap(), 15, 15).unwrap();
            b.check_move(p).unwrap();
            b.make(p);
        }
        let d = g["opening_decisions"]
            .as_array()
            .expect("decisions recorded");
        let asked: Vec<&str> = d.iter().map(|x| x["request"].as_str().unwrap()).collect();
        assert!(
            requests.iter().any(|want| asked == *want),
            "game {i}: {asked:?}"
        );
        // The first player opens.
        assert_eq!(d[0]["seat"], 0);
        assert_eq!(d[0]["color"], "black");
        let n = i + 1;
        let sgf = std::fs::read_to_string(r.out.join(format!("game-{n:04}.sgf"))).unwrap();
        assert!(sgf.contains("opening rule "), "{sgf}");
        let log = std::fs::read_to_string(r.out.join(format!("game-{n:04}.log"))).unwrap();
        // The request as sent (Swap2's labels name the stone count after the command).
        let sent = if asked[0].starts_with("SWAP2BOARD") {
            "> SWAP2BOARD"
        } else {
            asked[0]
        };
        assert!(log.contains(sent), "{log}");
    }
    assert!(r.stdout.contains(", opening rule "), "{}", r.stdout);
    games
}

#[test]
fn swap2_match_between_two_copies() {
    let r = run("swap2", "standard", "swap2");
    let stage_b_then: &[&[&str]] = &[
        &["SWAP2BOARD 0", "SWAP2BOARD 3"],
        &["SWAP2BOARD 0", "SWAP2BOARD 3", "SWAP2BOARD 5"],
    ];
    check(&r, Rule::Standard, stage_b_then);
}

#[test]
fn soosorv8_match_between_two_copies() {
    let r = run("soosorv8", "renju", "soosorv8");
    let steps: &[&str] = &[
        "OPENING soosorv8 OPEN",
        "OPENING soosorv8 SWAP1",
        "OPENING soosorv8 MOVE4",
        "OPENING soosorv8 SWAP2 N",
        "OPENING soosorv8 OFFER N",
        "OPENING soosorv8 CHOOSE",
    ];
    let games = {
        // N is chosen in the game: accept each value.
        let all: Vec<Vec<String>> = (1..=8)
            .map(|n| {
                steps
                    .iter()
                    .map(|s| s.replace(" N", &format!(" {n}")))
                    .collect()
            })
            .collect();
        let refs: Vec<Vec<&str>> = all
            .iter()
            .map(|v| v.iter().map(|s| s.as_str()).collect())
            .collect();
        let slices: Vec<&[&str]> = refs.iter().map(|v| v.as_slice()).collect();
        check(&r, Rule::Renju, &slices)
    };
    for g in games {
        let moves: Vec<_> = g["moves"].as_array().unwrap()[..3]
            .iter()
            .map(|m| parse_point(m.as_str().unwrap(), 15, 15).unwrap())
            .collect();
        assert!(
            recognise(&moves, 15, 15).is_some(),
            "one of the 26: {moves:?}"
        );
        // Move 5 is one of the offers, move 6 white's answer.
        let d = g["opening_decisions"].as_array().unwrap();
        let offers = d[4]["answer"].as_str().unwrap();
        let chose = d[5]["answer"].as_str().unwrap();
        let fifth = chose.split(' ').nth(2).unwrap();
        assert!(
            offers.split(' ').skip(2).any(|o| o == fifth),
            "{offers} / {chose}"
        );
    }
}

#[test]
fn rif_match_between_two_copies() {
    let r = run("rif", "renju", "rif");
    check(
        &r,
        Rule::Renju,
        &[&[
            "OPENING rif OPEN",
            "OPENING rif SWAP1",
            "OPENING rif OFFER 2",
            "OPENING rif CHOOSE",
        ]],
    );
}

#[test]
fn opening_rule_options() {
    let ours = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    for extra in [
        vec!["--opening-rule", "chess"],
        vec!["--opening-rule", "rif", "--opening-n", "9"],
        vec![
            "--opening-rule",
            "rif",
            "--openings",
            "openings/openings_renju26.txt",
        ],
    ] {
        let o = Command::new(ours)
            .args(["match", "--engine", ours, "--engine", ours])
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
