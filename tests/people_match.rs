//! `pbrain-tianyuan match` as a new user meets it: records that load back into the same
//! positions (psq and SGF the same way up), SVG pictures of the games, names in self-play,
//! argument errors that name what is missing, warnings for openings of another rule, and the
//! summary of a match stopped with Ctrl-C.
//!
//! The engines are one small python3 script written at test time: `ABOUT` says
//! `name="fake"`; as black it plays along the top row (a1, b1, ... = `0,0`, `1,0`, ...), as
//! white the empty point nearest the centre, which never blocks that row, so black wins every
//! game with its fifth stone (move 9 without an opening). An optional second argument is a
//! delay in seconds before each move.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use tianyuan::gamefile::{read_game, GameFormat};

const FAKE: &str = r#"#!/usr/bin/env python3
import os, sys, time
delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
if os.environ.get("FAKE_PID_DIR"):
    open(os.path.join(os.environ["FAKE_PID_DIR"], str(os.getpid())), "w").close()
size = 15
board = {}
me_black = None

def out(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()

def choose():
    if me_black:
        for x in range(size):
            if (x, 0) not in board:
                return (x, 0)
    c = size // 2
    free = [(x, y) for y in range(size) for x in range(size) if (x, y) not in board]
    return min(free, key=lambda p: (max(abs(p[0] - c), abs(p[1] - c)), p[1], p[0]))

def answer():
    if delay:
        time.sleep(delay)
    p = choose()
    board[p] = 1
    out("%d,%d" % p)

for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    word = line.split()[0].upper()
    if word == "START":
        size = int(line.split()[1])
        board = {}
        me_black = None
        out("OK")
    elif word == "ABOUT":
        out('name="fake", version="1.0"')
    elif word == "BEGIN":
        me_black = True
        answer()
    elif word == "TURN":
        x, y = [int(t) for t in line.split(None, 1)[1].split(",")]
        if me_black is None:
            me_black = False
        board[(x, y)] = 2
        answer()
    elif word == "BOARD":
        mine = theirs = 0
        for body in sys.stdin:
            body = body.strip()
            if body.upper() == "DONE":
                break
            x, y, f = [int(t) for t in body.split(",")]
            board[(x, y)] = int(f)
            mine += f == 1
            theirs += f == 2
        me_black = mine == theirs
        answer()
    elif word == "END":
        sys.exit(0)
"#;

fn fake() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join("people-fake.py");
        let tmp = dir.join(format!("people-fake.py.{}", std::process::id()));
        std::fs::write(&tmp, FAKE).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::rename(&tmp, &path).unwrap();
        path
    })
}

fn out_dir(tag: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("people-match-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn match_cmd(engine: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"));
    cmd.arg("match")
        .args(["--engine", engine, "--engine", engine])
        .args([
            "--tc-turn-ms",
            "5000",
            "--tc-game-ms",
            "0",
            "--tolerance-ms",
            "1000",
        ])
        .args(extra);
    cmd
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let o = cmd.output().expect("run match");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

#[test]
fn records_load_back_and_pictures_show_the_games() {
    let dir = out_dir("records");
    let engine = fake().display().to_string();
    let (code, out, err) = run(&mut match_cmd(
        &engine,
        &["--games", "2", "--svg", "--out", dir.to_str().unwrap()],
    ));
    assert_eq!(code, 0, "{out}{err}");
    // Self-play without --name: the two engines still have distinct names.
    assert!(out.contains("Match: fake-1 vs fake-2 |"), "{out}");
    assert!(
        out.contains("Score of fake-1 vs fake-2: 1 - 1 - 0"),
        "{out}"
    );
    assert!(out.contains("Forfeit losses: fake-1 0, fake-2 0"), "{out}");
    let games = results(&dir)["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2);
    for g in &games {
        let n = g["number"].as_u64().unwrap();
        let moves: Vec<String> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(moves.len(), 9, "{g}");
        // Black's row a1..e1 is the top row: protocol y = 0.
        assert_eq!(moves[8], "e1", "{g}");
        for (ext, format) in [("psq", GameFormat::Psq), ("sgf", GameFormat::Sgf)] {
            let path = dir.join(format!("game-{n:04}.{ext}"));
            let file = read_game(&path, (15, 15)).unwrap();
            assert_eq!(file.format, format);
            assert_eq!(file.size, Some((15, 15)));
            let back: Vec<String> = file.moves.iter().map(|p| p.to_notation()).collect();
            assert_eq!(back, moves, "{}", path.display());
        }
        // The SGF writes a1 (0,0) as "aa", as c-gomoku-cli does.
        let sgf = std::fs::read_to_string(dir.join(format!("game-{n:04}.sgf"))).unwrap();
        assert!(sgf.contains(";B[aa]"), "{sgf}");
        // The picture: one stone per move, by colour, numbered in move order.
        let svg = std::fs::read_to_string(dir.join(format!("game-{n:04}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let stones = |class: &str| -> Vec<String> {
            let mut v: Vec<String> = doc
                .descendants()
                .filter(|e| e.attribute("class") == Some(class))
                .map(|e| e.attribute("data-point").unwrap().to_string())
                .collect();
            v.sort();
            v
        };
        let mut black: Vec<String> = moves.iter().step_by(2).cloned().collect();
        let mut white: Vec<String> = moves.iter().skip(1).step_by(2).cloned().collect();
        black.sort();
        white.sort();
        assert_eq!(stones("stone black"), black);
        assert_eq!(stones("stone white"), white);
        let numbers = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("move-number"))
            .count();
        assert_eq!(numbers, 9);
        // Row 1 at the top by default: black's a1 on the top grid line.
        assert_eq!(stone_y(&svg, "a1"), 40);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The SVG y of the stone at `point` in a game picture.
fn stone_y(svg: &str, point: &str) -> u32 {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let stone = doc
        .descendants()
        .find(|e| {
            e.attribute("data-point") == Some(point)
                && e.attribute("class")
                    .is_some_and(|c| c.starts_with("stone "))
        })
        .unwrap_or_else(|| panic!("no stone at {point}"));
    stone.attribute("cy").unwrap().parse().unwrap()
}

/// `--orientation book` turns the game pictures over: black's row a1..e1 (protocol y 0) is
/// drawn on the bottom grid line (40 + 14 x 32), the records do not change.
#[test]
fn book_orientation_draws_the_games_row_1_at_the_bottom() {
    let dir = out_dir("book");
    let engine = fake().display().to_string();
    let out = dir.to_str().unwrap();
    let args = [
        "--games",
        "2",
        "--svg",
        "--orientation",
        "book",
        "--out",
        out,
    ];
    let (code, out, err) = run(&mut match_cmd(&engine, &args));
    assert_eq!(code, 0, "{out}{err}");
    for n in 1..=2 {
        let svg = std::fs::read_to_string(dir.join(format!("game-{n:04}.svg"))).unwrap();
        assert_eq!(stone_y(&svg, "a1"), 40 + 14 * 32);
        assert_eq!(stone_y(&svg, "e1"), 40 + 14 * 32);
        let sgf = std::fs::read_to_string(dir.join(format!("game-{n:04}.sgf"))).unwrap();
        assert!(sgf.contains(";B[aa]"), "{sgf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn argument_errors_name_what_is_wrong() {
    let bin = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let check = |args: &[&str], want: &str| {
        let (code, out, err) = run(Command::new(bin).args(args));
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    };
    check(
        &["match"],
        "the following required arguments were not provided: --engine <CMD>",
    );
    check(&["match", "--engine", "x"], "give at least two --engine");
    let two = ["match", "--engine", "a", "--engine", "b"];
    fn with<'a>(two: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [two, extra].concat()
    }
    check(
        &with(&two, &["--draw-200"]),
        "--draw-200 is Gomocup's renju draw rule; it does not apply to freestyle",
    );
    check(
        &with(&two, &["--rule", "standard", "--draw-200"]),
        "does not apply to standard",
    );
    check(
        &with(&two, &["--svg"]),
        "--svg draws the games next to their records: give --out DIR",
    );
    check(
        &with(&two, &["--size", "15x20"]),
        "matches are played on square boards",
    );
    check(
        &with(&two, &["--size", "23"]),
        "unsupported board size 23x23",
    );
}

#[test]
fn renju_openings_under_another_rule_get_a_warning() {
    let dir = out_dir("openings");
    let engine = fake().display().to_string();
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/openings_renju26.txt");
    let (code, out, err) = run(&mut match_cmd(
        &engine,
        &[
            "--games",
            "1",
            "--openings",
            openings.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
    ));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains(
            "match: warning: 26 of the 26 openings are marked for renju (e.g. D1) but the match plays freestyle"
        ),
        "{err}"
    );
    // Under renju the same file is played without a word.
    let (code, out, err) = run(&mut match_cmd(
        &engine,
        &[
            "--games",
            "1",
            "--rule",
            "renju",
            "--openings",
            openings.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
    ));
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT to the match process) stops the match: the game in progress ends at once
/// and is not counted, and the summary of the finished games is printed and written.
#[cfg(unix)]
#[test]
fn interrupted_match_prints_and_writes_its_summary() {
    interrupted_by("INT", 130);
}

/// SIGTERM (what `timeout`, Slurm and Kubernetes send) stops the match as Ctrl-C does: the
/// summary is written and the engines are ended.
#[cfg(unix)]
#[test]
fn terminated_match_prints_and_writes_its_summary() {
    interrupted_by("TERM", 143);
}

/// SIGHUP (the terminal went away) stops the match as Ctrl-C does.
#[cfg(unix)]
#[test]
fn hung_up_match_prints_and_writes_its_summary() {
    interrupted_by("HUP", 129);
}

/// Sends `signal` to a match after its first game and checks the exit status `code`, the
/// printed and written summary of the finished games and (on Linux) that every engine the
/// match started has ended when the match has.
#[cfg(unix)]
fn interrupted_by(signal: &str, code: i32) {
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    let dir = out_dir(&format!("interrupt-{signal}"));
    let pids = dir.with_extension("pids");
    let _ = std::fs::remove_dir_all(&pids);
    std::fs::create_dir_all(&pids).unwrap();
    let engine = format!("{} 0.1", fake().display());
    let mut child = match_cmd(&engine, &["--games", "20", "--out", dir.to_str().unwrap()])
        .env("FAKE_PID_DIR", &pids)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let line = rx
            .recv_timeout(deadline - Instant::now())
            .expect("a first game");
        let done = line.starts_with("Finished game 1 ");
        out.push(line);
        if done {
            break;
        }
    }
    let sent = Instant::now();
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) {
        out.push(line);
    }
    let status = child.wait().unwrap().code();
    // The game in progress is cut short rather than played out (20 games take 20 s).
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(status, Some(code), "{out:?}");
    #[cfg(target_os = "linux")]
    for entry in std::fs::read_dir(&pids).unwrap() {
        let pid = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "engine {pid} still runs after SIG{signal}"
        );
    }
    let text = out.join("\n");
    let finished = out
        .iter()
        .filter(|l| l.starts_with("Finished game "))
        .count();
    assert!(
        text.contains(&format!(
            "Match interrupted (SIG{signal}) after {finished} finished games"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("Games played: {finished} of 20")),
        "{text}"
    );
    let summary = std::fs::read_to_string(dir.join("summary.txt")).unwrap();
    assert!(
        summary.contains(&format!("Games played: {finished} of 20")),
        "{summary}"
    );
    assert_eq!(
        results(&dir)["games"].as_array().unwrap().len(),
        finished,
        "{text}"
    );
    assert_eq!(results(&dir)["games_played"], finished as u64);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&pids);
}

/// Issue 51: a binary openings file is refused as such, not with `stream did not contain
/// valid UTF-8`.
#[test]
fn a_binary_openings_file_is_refused_as_not_text() {
    let dir = out_dir("binary");
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.bin");
    std::fs::write(
        &openings,
        [0x89u8, b'P', b'N', b'G', 0, 0xff, 0xfe, 1, 2, 3],
    )
    .unwrap();
    let engine = fake().display().to_string();
    let (code, out, err) = run(&mut match_cmd(
        &engine,
        &["--openings", openings.to_str().unwrap(), "--games", "1"],
    ));
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("is not a text file: binary data (a NUL byte at byte 4)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
