//! `label` (docs/training.md §6): every move after a record's opening gets the labelling
//! engine's evaluation of the position before it; moves, results and openings are kept.
//! The labelling engine here is Tianyuan itself under the protocol.
use std::process::Command;
use tianyuan::train::data::GameRecord;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
}

/// A fresh temporary directory for one test.
fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tianyuan-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The game records of a file in the `selfplay` format.
fn records(path: &std::path::Path) -> Vec<GameRecord> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| GameRecord::parse(l, i + 1).unwrap())
        .collect()
}

#[test]
fn label_scores_every_searched_move() {
    let dir = fresh_dir("label");
    let games = dir.join("games.txt");
    let out = dir.join("labelled.txt");
    // Two records: in the first black makes an open three on the h column (h8 h9 h10),
    // white plays elsewhere, black makes a straight four and then five; the second is a
    // renju record on a 13x13 board (a new START and rule mid-file).
    std::fs::write(
        &games,
        "# tianyuan-games 1\n\
         freestyle 15x15 black 3 h8 a1 h9 a3 h10:12 e5 h11 h12 h7\n\
         renju 13x13 white 2 g7 h8 g8 g6 f7:-30 h9\n",
    )
    .unwrap();
    let me = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let o = bin()
        .args([
            "label", "--engine", me, "--nodes", "2000", "--quiet", "--data",
        ])
        .arg(&games)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "label failed: {log}");
    assert!(log.contains("7 positions labelled, 3 without"), "{log}");
    let text = std::fs::read_to_string(&out).unwrap();
    let recs = records(&out);
    let orig = records(&games);
    assert_eq!(recs.len(), 2);
    for (r, g) in recs.iter().zip(&orig) {
        assert_eq!(
            (r.rule, r.width, r.outcome, r.opening),
            (g.rule, g.width, g.outcome, g.opening)
        );
        assert_eq!(r.moves, g.moves);
        for s in &r.scores[..r.opening] {
            assert_eq!(*s, None, "opening moves stay unscored");
        }
    }
    let first = &recs[0].scores;
    // White to move with a wasted stone on a1 against black's h8 h9: worse for white;
    // black to move: better for black; white to move against the open three: worse.
    assert!(
        first[3].unwrap() < 0 && first[4].unwrap() > 0 && first[5].unwrap() < 0,
        "{text}"
    );
    // Black's straight four, white's forced block and black's five are answered at once,
    // without an evaluation: those moves keep no score (the fit uses the result there).
    assert_eq!(&first[6..], &[None, None, None], "{text}");
    assert!(
        recs[1].scores[2..]
            .iter()
            .all(|s| s.is_some_and(|v| v.abs() < 29_000)),
        "{text}"
    );
    // The engine's own moves are kept as the teacher's moves (`>point`): none in the
    // opening, an empty point everywhere else, a defence of the open three before move 5
    // and the one five point before move 8.
    let pt = |s: &str| tianyuan::core::parse_point(s, 15, 15).unwrap();
    for r in &recs {
        assert_eq!(r.best.len(), r.moves.len(), "{text}");
        assert!(r.best[..r.opening].iter().all(Option::is_none), "{text}");
        for (i, b) in r.best.iter().enumerate().skip(r.opening) {
            let b = b.unwrap_or_else(|| panic!("no teacher move at {i}: {text}"));
            assert!(!r.moves[..i].contains(&b), "{text}");
        }
    }
    let best = &recs[0].best;
    assert!(
        ["h6", "h7", "h11", "h12"]
            .map(pt)
            .contains(&best[5].unwrap()),
        "{text}"
    );
    assert_eq!(best[8], Some(pt("h7")), "{text}");
}

#[test]
fn label_reports_an_engine_that_cannot_start() {
    let dir = fresh_dir("label-bad");
    let games = dir.join("games.txt");
    std::fs::write(
        &games,
        "# tianyuan-games 1\nfreestyle 15x15 black 1 h8 i9:3\n",
    )
    .unwrap();
    let o = bin()
        .args([
            "label",
            "--engine",
            "/nonexistent/engine",
            "--quiet",
            "--data",
        ])
        .arg(&games)
        .arg("--out")
        .arg(dir.join("o.txt"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("/nonexistent/engine"),
        "{err}"
    );
}

/// A brain that answers its first `BOARD` with `MESSAGE ev 111`, its move, and then a late
/// `MESSAGE ev 999` after the move, and every later `BOARD` with a move alone.
const LATE_TALKER: &str = r#"#!/usr/bin/env python3
import sys
n = 0
for line in sys.stdin:
    w = line.strip().upper()
    if w.startswith("START"):
        sys.stdout.write("OK\n"); sys.stdout.flush()
    elif w == "DONE":
        n += 1
        if n == 1:
            sys.stdout.write("MESSAGE ev 111\n0,0\nMESSAGE ev 999\n")
        else:
            sys.stdout.write("0,1\n")
        sys.stdout.flush()
    elif w == "END":
        break
"#;

#[test]
fn label_ignores_lines_after_the_move() {
    let dir = fresh_dir("label-late");
    let engine = dir.join("late.py");
    std::fs::write(&engine, LATE_TALKER).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let games = dir.join("games.txt");
    let out = dir.join("labelled.txt");
    std::fs::write(
        &games,
        "# tianyuan-games 1\nfreestyle 15x15 black 1 h8 i9 h9\n",
    )
    .unwrap();
    let o = bin()
        .args(["label", "--quiet", "--engine"])
        .arg(&engine)
        .arg("--data")
        .arg(&games)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "label failed: {log}");
    // The first position gets the evaluation printed before the move; the second, answered
    // without one, stays unscored instead of taking the late line of the first search.
    assert_eq!(
        records(&out)[0].scores,
        vec![None, Some(111), None],
        "{log}"
    );
}
