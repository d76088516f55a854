//! Issue 50: the engine under the Gomocup judge's conditions (`match --judge-conditions`,
//! src/arena/judge.rs), at fastgame's shape scaled down (0.5 s a move, 12 s a game instead
//! of 5 s and 120 s; 1 s of tolerance as the judge gives, `max_memory` 350 MiB).
//!
//! Every process is fresh for its game (`--restart-each-game`), pinned to one CPU, stopped
//! after its `INFO` block and after each move and continued only when its turn comes, so
//! whatever it initialises lazily is paid inside its first move; its unique memory is
//! measured after every move (the runner notes it in the game's log) and a move over
//! `max_memory` would lose the game. The test asserts no forfeit, every first move inside
//! its limit, and a unique memory at most `max_memory` after every move; with `--nocapture`
//! it prints the slowest move and the largest memory.
//!
//! Untimed tests beside it: a suspended player is stopped (state `T`) until a line is
//! written to it, and `--judge-conditions` refuses `--opening-rule` and four colours.
//!
//! It plays 8 games (about 50 s on two cores); `TIANYUAN_JUDGE_GAMES=20` plays the 20 of
//! the check (about 2 min). Timed (a loaded machine can make an engine late for
//! reasons not its own): `#[ignore]`d and named `wall_clock_*`, run alone by `.ci/run`
//! (docs/testing.md §2).
#![cfg(target_os = "linux")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use tianyuan::arena::player::{EngineSpec, Player, Reply};

/// Games played unless `TIANYUAN_JUDGE_GAMES` says otherwise.
const GAMES: usize = 8;
/// Fastgame scaled down: 0.5 s a move, 12 s a game.
const TURN_MS: u64 = 500;
const GAME_MS: u64 = 12_000;
/// The judge's tolerance.
const TOLERANCE_MS: u64 = 1000;
/// Gomocup's `max_memory`: 350 MiB.
const MAX_MEMORY: u64 = 350 << 20;

/// The number of stones of each opening of an openings file, by name.
fn opening_lengths(file: &Path) -> HashMap<String, usize> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let name = l.split_whitespace().next()?;
            let moves = l
                .split_whitespace()
                .find_map(|w| w.strip_prefix("moves="))?;
            Some((name.to_string(), moves.split(',').count()))
        })
        .collect()
}

/// The `judge: unique memory N bytes` notes of a game log, in order.
fn memory_notes(log: &str) -> Vec<u64> {
    log.lines()
        .filter_map(|l| l.split("# judge: unique memory ").nth(1))
        .map(|rest| rest.trim_end_matches(" bytes").parse().unwrap())
        .collect()
}

/// The state letter of process `pid` (`/proc/PID/stat`: `T` when stopped).
fn state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    after_name.chars().next().unwrap()
}

#[test]
fn a_suspended_player_is_stopped_until_the_next_line_is_written_to_it() {
    let spec = Arc::new(EngineSpec::new("cat").unwrap());
    let mut p = Player::spawn(spec).unwrap();
    p.suspend().unwrap();
    // SIGSTOP is delivered asynchronously: wait for the state to show it.
    let stopped = (0..200).any(|_| {
        std::thread::sleep(Duration::from_millis(5));
        state(p.pid()) == 'T'
    });
    assert!(stopped, "state {}", state(p.pid()));
    let start = p.send("7,7\n").unwrap();
    assert_ne!(state(p.pid()), 'T');
    match p.read_reply(start, Duration::from_secs(10)) {
        Reply::Line(line, _) => assert_eq!(line, "7,7"),
        other => panic!("no echo from the continued process: {other:?}"),
    }
}

#[test]
fn judge_conditions_refuse_the_opening_dialogue_and_four_colours() {
    let engine = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    for (extra, why) in [
        (["--opening-rule", "swap2"], "leave out --opening-rule"),
        (["--variant", "fourcolour"], "two-colour games only"),
    ] {
        let out = Command::new(engine)
            .args([
                "match",
                "--engine",
                engine,
                "--engine",
                engine,
                "--judge-conditions",
            ])
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--judge-conditions ") && err.contains(why),
            "{err}"
        );
    }
}

#[test]
fn memory_notes_are_read_from_the_log() {
    let log = "   144.4 B # judge: unique memory 47509504 bytes\n\
               \x20  150.0 W > TURN 7,7\n\
               \x20  544.1 W # judge: unique memory 112590848 bytes\n";
    assert_eq!(memory_notes(log), [47_509_504, 112_590_848]);
}

#[test]
#[ignore = "wall clock: run alone by .ci/run (cargo test -- --ignored wall_clock_)"]
fn wall_clock_games_under_the_judges_conditions_without_a_forfeit() {
    let games: usize = std::env::var("TIANYUAN_JUDGE_GAMES")
        .map(|g| g.parse().expect("TIANYUAN_JUDGE_GAMES: a number of games"))
        .unwrap_or(GAMES);
    let engine = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/balanced_freestyle15.txt");
    let out: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("judge-conditions-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(engine)
        .args(["match", "--engine", engine, "--engine", engine])
        .args(["--name", "1:first", "--name", "2:second"])
        .args(["--rule", "freestyle", "--size", "15", "--seed", "50"])
        .arg("--openings")
        .arg(&openings)
        .args(["--games", &games.to_string()])
        .args(["--tc-turn-ms", &TURN_MS.to_string()])
        .args(["--tc-game-ms", &GAME_MS.to_string()])
        .args(["--tolerance-ms", &TOLERANCE_MS.to_string()])
        .args(["--memory-mb", &(MAX_MEMORY >> 20).to_string()])
        .args([
            "--judge-conditions",
            "--restart-each-game",
            "--concurrency",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}{stderr}");
    assert!(
        stderr.is_empty(),
        "pinning or another step failed: {stderr}"
    );
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["games_played"], games, "{stdout}");
    assert_eq!(results["forfeits"], serde_json::json!([0, 0]), "{stdout}");
    let lengths = opening_lengths(&openings);
    let (mut slowest, mut slowest_first, mut largest, mut moves) = (0, 0, 0, 0);
    for g in results["games"].as_array().unwrap() {
        let n = g["number"].as_u64().unwrap();
        let kind = g["termination"]["kind"].as_str().unwrap();
        assert!(["five", "board_full"].contains(&kind), "game {n}: {g}");
        let skip = lengths[g["opening"].as_str().unwrap()];
        let times: Vec<u64> = g["times_ms"].as_array().unwrap()[skip..]
            .iter()
            .map(|t| t.as_u64().unwrap())
            .collect();
        // Each engine's first move is the first timed move of a fresh, just-continued process.
        let first = times[0].max(times[1]);
        assert!(
            first <= TURN_MS + TOLERANCE_MS,
            "game {n}: first moves {times:?}"
        );
        slowest_first = slowest_first.max(first);
        slowest = slowest.max(*times.iter().max().unwrap());
        let log = std::fs::read_to_string(out.join(format!("game-{n:04}.log"))).unwrap();
        assert!(
            log.contains(&format!("> INFO max_memory {MAX_MEMORY}")),
            "game {n}"
        );
        let memory = memory_notes(&log);
        assert_eq!(memory.len(), times.len(), "game {n}: one measure per move");
        for (i, &m) in memory.iter().enumerate() {
            assert!(
                m > 0 && m <= MAX_MEMORY,
                "game {n}, move {}: {m} bytes",
                i + 1
            );
        }
        largest = largest.max(*memory.iter().max().unwrap());
        moves += times.len();
    }
    eprintln!(
        "judge conditions: {games} games, {moves} moves, 0 forfeits; slowest move {slowest} ms \
         (first moves: {slowest_first} ms; limit {TURN_MS} ms + {TOLERANCE_MS} ms tolerance); \
         largest unique memory {largest} bytes ({:.1} MiB; max_memory {MAX_MEMORY} bytes)",
        largest as f64 / (1 << 20) as f64
    );
    let _ = std::fs::remove_dir_all(&out);
}
