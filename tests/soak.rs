//! A small soak: the built engine (`pbrain-tianyuan`) plays itself under our own `match` at a
//! fast time control (200 ms per move, 2 s per game, Gomocup's 1000 ms tolerance) on 1 and 2
//! threads, under every rule family and both board sizes, and must finish every game with no
//! forfeit of any kind (time, illegal move, unparsable reply, crash, no `OK` to `START`, renju
//! foul), no stray output (nothing on stderr, no stdout line other than `OK`,
//! `MESSAGE`/`DEBUG`, a move or the `ABOUT` answer, nothing unrequested) and a peak resident
//! set (`VmHWM`) of each engine process at or below `max_memory`.
//!
//! Sixteen games in eight matches (every rule on both board sizes, 1 or 2 threads), 10-45 s
//! depending on the machine's load. The large soak (1000 games, also under c-gomoku-cli and
//! against other engines, every late move counted) is `tools/soak.py`; see docs/testing.md.
//!
//! The soak plays on the clock (a move over its limit plus the tolerance is a forfeit), so a
//! loaded machine could fail it for reasons that are not the engine's: it is `#[ignore]`d,
//! named `wall_clock_*`, and `.ci/run` runs it with the other wall-clock tests on their own
//! after the rest of the suite (`cargo test -- --ignored --test-threads=1 wall_clock_`).
#![cfg(target_os = "linux")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tianyuan::arena::{run_match, MatchArgs, MatchConfig};
use tianyuan::core::Rule;

/// Time tolerance of the referee, in milliseconds: a reply later than min(turn limit, game
/// time left) + this loses. Gomocup's 1000 ms, so that a machine loaded by other jobs cannot
/// fail the soak; replies within the turn limit itself are checked by `tests/time_safety.rs`
/// and `tools/soak.py` (which counts every late move).
const TOLERANCE_MS: u64 = 1000;
/// `INFO max_memory` sent to the engines, in MiB.
const MAX_MEMORY_MIB: u64 = 128;

/// Openings (3 and 4 stones near the centre), our notation, per board size.
const OPENINGS_15: &str = "h8,i9,g10\nh8,j8,g9,h10\n";
const OPENINGS_20: &str = "k10,l11,j12\nk10,m10,j11,k12\n";

fn args(
    engine: &str,
    rule: Rule,
    size: usize,
    threads: u32,
    openings: &Path,
    out: &Path,
) -> MatchArgs {
    MatchArgs {
        engines: vec![engine.to_string(), engine.to_string()],
        rule,
        size: size.to_string(),
        games: Some(2),
        tc_turn_ms: 200,
        tc_game_ms: 2000,
        tc_inc_ms: 0,
        tolerance_ms: TOLERANCE_MS,
        start_timeout_ms: 5000,
        engine_options: Vec::new(),
        names: vec!["1:first".into(), "2:second".into()],
        threads: Some(threads),
        memory_mb: MAX_MEMORY_MIB,
        openings: Some(openings.to_path_buf()),
        concurrency: 1,
        sprt: None,
        sprt_model: Default::default(),
        seed: None,
        out: Some(out.to_path_buf()),
        draw_200: false,
        restart_each_game: false,
        svg: false,
        orientation: Default::default(),
        opening_rule: None,
        opening_n: 2,
        variant: "standard".into(),
        mode: "2p".into(),
        shard: None,
        judge_conditions: false,
    }
}

/// `VmHWM` in KiB of every live child process of this test, by pid.
fn children_peaks() -> Vec<(u32, u64)> {
    let me = std::process::id();
    let mut v = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return v;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the parenthesised command: state, ppid, ...
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        if rest.split_whitespace().nth(1) != Some(&me.to_string()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            continue;
        };
        if let Some(kib) = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
        {
            v.push((pid, kib));
        }
    }
    v
}

/// Whether an engine's stdout line is expected protocol output.
fn expected_output(text: &str) -> bool {
    let word = text.split(' ').next().unwrap_or("").to_ascii_uppercase();
    let is_move = text
        .split_once(',')
        .is_some_and(|(x, y)| x.trim().parse::<i64>().is_ok() && y.trim().parse::<i64>().is_ok());
    text == "OK" || word == "MESSAGE" || word == "DEBUG" || is_move || text.contains("name=")
}

/// Stray output in a game transcript (`<ms> <B|W> <dir> <text>` lines after a header).
fn stray_lines(log: &str) -> Vec<String> {
    log.lines()
        .skip(1)
        .filter(|l| {
            let parts: Vec<&str> = l.trim_start().splitn(4, ' ').collect();
            if parts.len() < 3 {
                return false;
            }
            let text = parts.get(3).unwrap_or(&"").trim();
            match parts[2] {
                "!" => true,
                "<" => !expected_output(text),
                "#" => text.contains("unrequested"),
                _ => false,
            }
        })
        .map(String::from)
        .collect()
}

#[test]
fn stray_output_is_recognised() {
    let log = "game 1 black a white b: 1-0 {black: five}\n\
               \x20   0.0 B > START 15\n\
               \x20   1.0 B < OK\n\
               \x20   2.0 B < MESSAGE depth 1\n\
               \x20   3.0 B < 7,7\n\
               \x20   4.0 W < name=\"x\", version=\"1\"\n\
               \x20   5.0 W < ERROR unexpected\n\
               \x20   6.0 W ! panicked at src/x.rs\n\
               \x20   7.0 B # 1 unrequested line(s) discarded before the game\n\
               \x20   8.0 B # forfeit: time forfeit (limit 200 ms)\n";
    let stray = stray_lines(log);
    assert_eq!(stray.len(), 3, "{stray:?}");
    assert!(stray[0].contains("ERROR unexpected"));
    assert!(stray[1].contains("panicked"));
    assert!(stray[2].contains("unrequested"));
}

#[test]
#[ignore = "wall clock: run alone by .ci/run (cargo test -- --ignored wall_clock_)"]
fn wall_clock_small_soak_has_no_forfeit_no_stray_output_and_stays_under_max_memory() {
    let engine = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let base: PathBuf = std::env::temp_dir().join(format!("tianyuan-soak-{}", std::process::id()));
    std::fs::create_dir_all(&base).unwrap();
    let openings = [(15, OPENINGS_15), (20, OPENINGS_20)].map(|(size, text)| {
        let p = base.join(format!("openings{size}.txt"));
        std::fs::write(&p, text).unwrap();
        (size, p)
    });
    let openings: HashMap<usize, PathBuf> = openings.into_iter().collect();

    // Sample the engines' peak resident sets while the matches run.
    let peaks: Arc<Mutex<HashMap<u32, u64>>> = Arc::default();
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peaks, done) = (peaks.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                for (pid, kib) in children_peaks() {
                    let mut p = peaks.lock().unwrap();
                    let e = p.entry(pid).or_insert(0);
                    *e = (*e).max(kib);
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };

    let configs = [
        (Rule::Freestyle, 15, 1),
        (Rule::Freestyle, 20, 2),
        (Rule::Standard, 15, 2),
        (Rule::Standard, 20, 1),
        (Rule::Renju, 15, 2),
        (Rule::Renju, 20, 1),
        (Rule::Caro, 15, 1),
        (Rule::Caro, 20, 2),
    ];
    let mut problems = Vec::new();
    let mut games = 0;
    let mut longest_move = 0u64;
    for (rule, size, threads) in configs {
        let out = base.join(format!("{}-{}-t{}", rule.name(), size, threads));
        let cfg =
            MatchConfig::from_args(&args(engine, rule, size, threads, &openings[&size], &out))
                .expect("match configuration");
        let summary = run_match(cfg).expect("match runs");
        assert_eq!(summary.games_played, 2);
        games += summary.games_played;
        let label = format!("{} {}x{} {} thread(s)", rule.name(), size, size, threads);
        if summary.forfeits.iter().any(|&f| f > 0) {
            problems.push(format!("{label}: forfeits {:?}", summary.forfeits));
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap())
                .unwrap();
        for g in json["games"].as_array().unwrap() {
            let kind = g["termination"]["kind"].as_str().unwrap_or("?");
            if !["five", "board_full", "draw200"].contains(&kind) {
                problems.push(format!(
                    "{label}: game {} ended by {}",
                    g["number"], g["termination"]
                ));
            }
            for t in g["times_ms"].as_array().unwrap() {
                longest_move = longest_move.max(t.as_u64().unwrap());
            }
        }
        for n in 1..=2 {
            let log = std::fs::read_to_string(out.join(format!("game-{n:04}.log"))).unwrap();
            for l in stray_lines(&log) {
                problems.push(format!("{label}: game {n}: stray output: {l}"));
            }
        }
    }
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    let peaks = peaks.lock().unwrap();
    let peak = peaks.values().copied().max().unwrap_or(0);
    println!(
        "{games} games, longest move {longest_move} ms, {} engine processes, peak resident {} KiB \
         of max_memory {} KiB",
        peaks.len(),
        peak,
        MAX_MEMORY_MIB * 1024
    );
    assert!(peaks.len() >= 2, "no engine process was sampled");
    if peak > MAX_MEMORY_MIB * 1024 {
        problems.push(format!(
            "peak resident set {peak} KiB over max_memory {} KiB",
            MAX_MEMORY_MIB * 1024
        ));
    }
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&base);
    }
    assert!(
        problems.is_empty(),
        "{}\n(records in {})",
        problems.join("\n"),
        base.display()
    );
}
