//! End-to-end tests of `pbrain-tianyuan match` with fake engines, and a short match of our
//! engine against itself.
//!
//! The fakes are one small python3 script written to a temporary directory at test time and
//! started with a mode argument:
//! - `sane`: plays the first empty point nearest the centre (after a `MESSAGE` and a `DEBUG`
//!   line, which the referee must skip);
//! - `timeout`: answers `START` but never a move;
//! - `occupied`: plays the lowest occupied point (in `x, y` order) as soon as there is one;
//! - `crash`: exits (status 3) at its third move request of a game;
//! - `garbage`: answers its second move request with `hello there`;
//! - `foul6` / `foul44`: as black plays a fixed list on the top edge (row 1, protocol y 0)
//!   that ends in an overline (a1 b1 c1 e1 f1, then d1) or a double four (b1 c1 d1 a2 a3 a4,
//!   then a1);
//!   as white plays like `sane`;
//! - `rowwin`: as black plays a15..e15... on the bottom row (a five the sane engine never
//!   blocks);
//!   as white answers garbage; so against `sane` it wins exactly the games it starts;
//! - `filler`: black fills the points with `(x + 2y) mod 4 < 2`, white the others, in row
//!   order: no five is ever possible, so the board fills up;
//! - `slow3`: sleeps 0.4 s before each of its first three moves of a game, then plays like
//!   `sane` at once;
//! - `caroblack`: as black plays b15 c15 d15 e15 f15, then like `sane`; `caroblock`: as white
//!   plays a15 and g15 first, then like `sane` (so black's five is closed at both ends);
//! - `dead`: exits at once (like an engine that cannot start);
//! - `pairwin`: with a stone on a1 (protocol 0,0) answers garbage, else plays the bottom row
//!   with either colour; so against `sane` from the openings `a1` and `b1` it loses both
//!   games of the first and wins both of the second.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The fake engine (the modes above).
const FAKE: &str = include_str!("arena_common/fake.py");

/// Path of the fake engine script: written once per test process into cargo's temporary
/// directory for integration tests (by a rename, so concurrent test runs never see a
/// half-written file).
fn fake() -> &'static Path {
    static FAKE_PATH: OnceLock<PathBuf> = OnceLock::new();
    FAKE_PATH.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join("fake.py");
        let tmp = dir.join(format!("fake.py.{}", std::process::id()));
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

fn engine(mode: &str) -> String {
    format!("{} {}", fake().display(), mode)
}

/// A fresh output directory.
fn out_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-out-{}-{}-{}",
        std::process::id(),
        tag,
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
    out: PathBuf,
}

impl Drop for Run {
    /// Removes the output directory, unless the test failed (then it is kept to look at).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.out);
        }
    }
}

impl Run {
    /// The one line starting with `prefix` in the final summary (the last such line).
    fn line(&self, prefix: &str) -> &str {
        self.stdout
            .lines()
            .rfind(|l| l.starts_with(prefix))
            .unwrap_or_else(|| {
                panic!(
                    "no '{prefix}' line in:\n{}\nstderr:\n{}",
                    self.stdout, self.stderr
                )
            })
    }
    fn results(&self) -> Value {
        let text = std::fs::read_to_string(self.out.join("results.json")).expect("results.json");
        serde_json::from_str(&text).expect("valid json")
    }
    fn games(&self) -> Vec<Value> {
        self.results()["games"].as_array().unwrap().clone()
    }
}

/// Runs `pbrain-tianyuan match` with the given engines and extra options; records go to a
/// fresh directory.
fn run_match(tag: &str, engines: &[String], extra: &[&str]) -> Run {
    let out = out_dir(tag);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"));
    cmd.arg("match");
    for e in engines {
        cmd.arg("--engine").arg(e);
    }
    // Generous defaults unless the test sets them: no engine here is slow by accident.
    for (k, v) in [
        ("--tc-turn-ms", "5000"),
        ("--tc-game-ms", "0"),
        ("--tolerance-ms", "1000"),
    ] {
        if !extra.contains(&k) {
            cmd.args([k, v]);
        }
    }
    cmd.args(extra);
    cmd.arg("--out").arg(&out);
    let o = cmd.output().expect("run pbrain-tianyuan match");
    Run {
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        code: o.status.code().unwrap_or(-1),
        out,
    }
}

fn kinds(games: &[Value]) -> Vec<String> {
    games
        .iter()
        .map(|g| g["termination"]["kind"].as_str().unwrap().to_string())
        .collect()
}

fn winners(games: &[Value]) -> Vec<i64> {
    games
        .iter()
        .map(|g| g["winner"].as_i64().unwrap_or(-1))
        .collect()
}

#[test]
fn timeout_loses_on_time() {
    // Turn limit 500 ms + tolerance 500 ms: the silent engine is judged at 1000 ms.
    let r = run_match(
        "timeout",
        &[engine("timeout"), engine("sane")],
        &["--tc-turn-ms", "500", "--tolerance-ms", "500"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-timeout vs fake-sane: 0 - 2 - 0"
    );
    // 0 - 2 - 0: LOS = (1 + erf(-2 / sqrt(4))) / 2 = (1 - 0.8427008) / 2 = 7.9 %.
    assert_eq!(
        r.line("Elo difference: "),
        "Elo difference: -inf +/- inf, LOS: 7.9 %"
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["timeout", "timeout"]);
    assert_eq!(winners(&g), [1, 1]);
    assert!(g.iter().all(|g| g["termination"]["limit_ms"] == 1000));
    // Game 1: the timeout engine is black and never moves; game 2: white, after black's h8.
    assert_eq!(g[0]["moves"].as_array().unwrap().len(), 0);
    assert_eq!(g[1]["moves"], serde_json::json!(["h8"]));
    // psq: black's h8 (1-based 8,8), black's and white's names, 15 = time forfeit, and
    // the rule line (issue 34: our records carry their rule).
    let psq = std::fs::read_to_string(r.out.join("game-0002.psq")).unwrap();
    assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,"), "{psq}");
    assert!(
        psq.ends_with("\nfake-sane\nfake-timeout\n15\nrule=freestyle\n"),
        "{psq}"
    );
    assert!(
        r.line("Forfeit losses: ").contains("fake-timeout 2"),
        "{}",
        r.stdout
    );
}

#[test]
fn occupied_point_loses() {
    let r = run_match("occupied", &[engine("sane"), engine("occupied")], &[]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-sane vs fake-occupied: 2 - 0 - 0"
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["illegal_move", "illegal_move"]);
    assert_eq!(winners(&g), [0, 0]);
    for game in &g {
        let d = game["termination"]["detail"].as_str().unwrap();
        assert!(d.contains("is occupied"), "{d}");
    }
    // Game 1: white's first move repeats black's h8; game 2: black's second move is on
    // white's h7 (the lowest occupied point in x, y order).
    assert!(
        r.line("Finished game 1 ")
            .ends_with("1-0 {white: illegal move (7,7 (h8) is occupied)}"),
        "{}",
        r.stdout
    );
    assert!(
        r.line("Finished game 2 ")
            .ends_with("0-1 {black: illegal move (7,6 (h7) is occupied)}"),
        "{}",
        r.stdout
    );
}

#[test]
fn crash_mid_game_loses_and_engine_restarts() {
    let r = run_match(
        "crash",
        &[engine("crash"), engine("sane")],
        &["--games", "3"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-crash vs fake-sane: 0 - 3 - 0"
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["crash", "crash", "crash"]);
    assert_eq!(winners(&g), [1, 1, 1]);
    // It crashes at its third request: after its own two moves and the opponent's.
    assert_eq!(g[0]["moves"].as_array().unwrap().len(), 4);
    assert_eq!(g[1]["moves"].as_array().unwrap().len(), 5);
    assert!(
        g[0]["termination"]["detail"]
            .as_str()
            .unwrap()
            .contains("exit"),
        "{:?}",
        g[0]
    );
}

#[test]
fn garbage_reply_loses() {
    let r = run_match("garbage", &[engine("sane"), engine("garbage")], &[]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-sane vs fake-garbage: 2 - 0 - 0"
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["garbage", "garbage"]);
    assert_eq!(g[0]["termination"]["line"], "hello there");
    // The sane engine's MESSAGE and DEBUG lines were skipped, not judged as garbage.
    let log = std::fs::read_to_string(r.out.join("game-0001.log")).unwrap();
    assert!(log.contains("< MESSAGE thinking about move 1"), "{log}");
    assert!(log.contains("< DEBUG nothing to see"), "{log}");
}

#[test]
fn renju_overline_foul_loses_for_black() {
    let r = run_match(
        "foul6",
        &[engine("foul6"), engine("sane")],
        &["--rule", "renju", "--games", "1"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-foul6 vs fake-sane: 0 - 1 - 0"
    );
    let g = r.games();
    assert_eq!(
        g[0]["termination"],
        serde_json::json!({"kind": "foul", "forbidden": "overline"})
    );
    assert_eq!(g[0]["result"], "0-1");
    let moves: Vec<&str> = g[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.last(), Some(&"d1"));
    assert_eq!(moves.len(), 11);
    // The same stones under freestyle: the overline wins for black instead.
    let f = run_match(
        "foul6-free",
        &[engine("foul6"), engine("sane")],
        &["--rule", "freestyle", "--games", "1"],
    );
    assert_eq!(
        f.line("Score of "),
        "Score of fake-foul6 vs fake-sane: 1 - 0 - 0"
    );
    assert_eq!(kinds(&f.games()), ["five"]);
}

#[test]
fn renju_double_four_foul_loses_for_black() {
    // The foul engine second: black in the second game only. In the first game it plays
    // white like sane, and the sane black runs into a double four itself at k11 after 48
    // stones (h11 i11 j11 k11 on the row and h8 i9 j10 k11 on the diagonal, both fours with
    // one open end): the foul is credited to white there too.
    let r = run_match(
        "foul44",
        &[engine("sane"), engine("foul44")],
        &["--rule", "renju", "--games", "2"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-sane vs fake-foul44: 1 - 1 - 0"
    );
    let g = r.games();
    for game in &g {
        assert_eq!(
            game["termination"],
            serde_json::json!({"kind": "foul", "forbidden": "double-four"})
        );
        assert_eq!(game["result"], "0-1");
    }
    assert_eq!(winners(&g), [1, 0]);
    assert_eq!(g[0]["moves"].as_array().unwrap().last().unwrap(), "k11");
    assert_eq!(g[1]["moves"].as_array().unwrap().last().unwrap(), "a1");
    let sgf = std::fs::read_to_string(r.out.join("game-0002.sgf")).unwrap();
    assert!(
        sgf.contains("RU[renju]") && sgf.contains("RE[W+]") && sgf.contains("PB[fake-foul44]"),
        "{sgf}"
    );
    // a1 = protocol 0,0, the top-left corner: SGF "aa" (as c-gomoku-cli writes it).
    assert!(sgf.trim_end().ends_with(";B[aa])"), "{sgf}");
}

#[test]
fn engine_that_cannot_start_loses_every_game() {
    let r = run_match("dead", &[engine("dead"), engine("sane")], &["--games", "2"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    // No ABOUT answer: the executable's file name is used.
    assert_eq!(
        r.line("Score of "),
        "Score of fake.py vs fake-sane: 0 - 2 - 0"
    );
    assert_eq!(kinds(&r.games()), ["crash", "crash"]);
}

#[test]
fn sprt_stops_early() {
    // rowwin wins every game it starts as black and loses every game as white, so the
    // results alternate W, L, W, L, ... With elo0 = 0, elo1 = 1000 the LLR after 6 games is
    // -2.962 < ln(0.05 / 0.95) = -2.944 (hand calculation in stats.rs): H0 after 6 of 100.
    let r = run_match(
        "sprt",
        &[engine("rowwin"), engine("sane")],
        &[
            "--games",
            "100",
            "--sprt",
            "0,1000,0.05,0.05",
            "--sprt-model",
            "trinomial",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-rowwin vs fake-sane: 3 - 3 - 0"
    );
    assert_eq!(
        r.line("Elo difference: "),
        "Elo difference: 0.0 +/- 381.8, LOS: 50.0 %"
    );
    assert_eq!(r.line("Games played: "), "Games played: 6 of 100");
    assert!(
        r.line("SPRT: ").contains("llr -2.96") && r.line("SPRT: ").contains("H0 was accepted"),
        "{}",
        r.stdout
    );
    assert_eq!(
        kinds(&r.games()),
        ["five", "garbage", "five", "garbage", "five", "garbage"]
    );
    assert_eq!(r.results()["sprt_decision"], "AcceptH0");
}

#[test]
fn sprt_reads_pairs_by_default() {
    let dir = out_dir("pairs-openings");
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("a1b1.txt");
    std::fs::write(&openings, "a1\nb1\n").unwrap();
    let f = openings.to_str().unwrap();
    let sprt = [
        "--openings",
        f,
        "--games",
        "40",
        "--sprt",
        "0,1000,0.05,0.05",
    ];
    // pairwin's results go L, L, W, W, L, L, ...: pairs of 0 and 2 points in turn. Read by
    // pairs (pair means 0, 1, 0, 1, 0: mean 0.4, variance 0.24), 5 pairs give the LLR that
    // 5 games L, L, W, W, L give read one by one (-3.606, below): H0 after 10 games, never
    // in the middle of a pair.
    let r = run_match("pairs", &[engine("pairwin"), engine("sane")], &sprt);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.line("Games played: "), "Games played: 10 of 40");
    assert_eq!(
        r.line("Score of "),
        "Score of fake-pairwin vs fake-sane: 4 - 6 - 0"
    );
    assert!(
        r.line("Pairs (0, 1/2, 1, 3/2, 2 points): ")
            .starts_with("Pairs (0, 1/2, 1, 3/2, 2 points): 3, 0, 0, 0, 2; Elo -70.4 +/- "),
        "{}",
        r.stdout
    );
    let said = r.line("SPRT: ");
    assert!(
        said.contains("llr -3.61") && said.contains("pairs)"),
        "{said}"
    );
    assert_eq!(
        r.results()["pairs"][0]["pairs"],
        serde_json::json!([3, 0, 0, 0, 2])
    );
    // Read game by game the same results decide after 5 (L, L, W, W, L: s = 0.4, var = 0.24,
    // LLR = 5 * 0.4968477 * (0.8 - 1.4968477) / 0.48 = -3.606), with one pair unfinished.
    let r = run_match(
        "trinomial",
        &[engine("pairwin"), engine("sane")],
        &[&sprt[..], &["--sprt-model", "trinomial"]].concat(),
    );
    assert_eq!(r.line("Games played: "), "Games played: 5 of 40");
    let said = r.line("SPRT: ");
    assert!(
        said.contains("llr -3.61") && said.contains("games)"),
        "{said}"
    );
    assert_eq!(
        r.results()["pairs"][0]["pairs"],
        serde_json::json!([1, 0, 0, 0, 1])
    );
    // rowwin wins exactly the games it starts: every pair is 1 - 1, which says nothing about
    // strength, and the pairs' SPRT plays on to the end.
    let r = run_match(
        "even-pairs",
        &[engine("rowwin"), engine("sane")],
        &["--games", "12", "--sprt", "0,1000,0.05,0.05"],
    );
    assert_eq!(r.line("Games played: "), "Games played: 12 of 12");
    assert!(r.line("SPRT: ").contains("llr 0.00"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_played_twice_with_colours_reversed() {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/openings_renju26.txt");
    let r = run_match(
        "openings",
        &[engine("sane"), engine("occupied")],
        &[
            "--rule",
            "renju",
            "--openings",
            openings.to_str().unwrap(),
            "--games",
            "4",
            "--seed",
            "5",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-sane vs fake-occupied: 4 - 0 - 0"
    );
    let g = r.games();
    let names: Vec<&str> = g.iter().map(|x| x["opening"].as_str().unwrap()).collect();
    assert_eq!(names[0], names[1]);
    assert_eq!(names[2], names[3]);
    assert_ne!(names[0], names[2]);
    assert_eq!(
        (g[0]["black"].as_i64(), g[1]["black"].as_i64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        (g[2]["black"].as_i64(), g[3]["black"].as_i64()),
        (Some(0), Some(1))
    );
    // Each game starts with the opening's three stones (h8, then h9 or i9, then a third).
    for game in &g {
        let m = game["moves"].as_array().unwrap();
        assert_eq!(m[0], "h8");
        assert!(m[1] == "h9" || m[1] == "i9", "{m:?}");
        assert_eq!(&game["times_ms"].as_array().unwrap()[..3], &[0, 0, 0]);
    }
    // Three stones: white moves first, and its first request is BOARD with the opening stones
    // (field 2 = the opponent's) after INFO time_left.
    let log = std::fs::read_to_string(r.out.join("game-0001.log")).unwrap();
    assert!(log.contains("W > INFO time_left 2147483647\n"), "{log}");
    assert!(
        log.contains("W > BOARD\n") && log.contains("W > 7,7,2\n") && log.contains("W > DONE\n"),
        "{log}"
    );
    assert!(log.contains("B > INFO rule 4\n"), "{log}");
    // The psq holds every stone, 1-based, then the names, the result code and the rule.
    let psq = std::fs::read_to_string(r.out.join("game-0001.psq")).unwrap();
    let lines: Vec<&str> = psq.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    assert_eq!(lines[1], "8,8,0");
    assert_eq!(lines.len(), 1 + g[0]["moves"].as_array().unwrap().len() + 4);
    assert_eq!(
        &lines[lines.len() - 4..],
        ["fake-sane", "fake-occupied", "1", "rule=renju"]
    );
    // A different seed changes the order of the first openings used (26 openings).
    let r2 = run_match(
        "openings2",
        &[engine("sane"), engine("occupied")],
        &[
            "--rule",
            "renju",
            "--openings",
            openings.to_str().unwrap(),
            "--games",
            "4",
            "--seed",
            "6",
        ],
    );
    let names2: Vec<String> = r2
        .games()
        .iter()
        .map(|x| x["opening"].as_str().unwrap().to_string())
        .collect();
    assert_ne!(names2, names, "seeds 5 and 6 gave the same order");
}

#[test]
fn full_board_is_a_draw_and_renju_200_stones_too() {
    let r = run_match(
        "full",
        &[engine("filler"), engine("filler")],
        &["--games", "1"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-filler-1 vs fake-filler-2: 0 - 0 - 1"
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["board_full"]);
    assert_eq!(g[0]["moves"].as_array().unwrap().len(), 225);
    assert_eq!(g[0]["result"], "1/2-1/2");
    let r = run_match(
        "draw200",
        &[engine("filler"), engine("filler")],
        &["--games", "1", "--rule", "renju", "--draw-200"],
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["draw200"], "{}", r.stdout);
    assert_eq!(g[0]["moves"].as_array().unwrap().len(), 200);
}

#[test]
fn concurrent_games_all_recorded() {
    let r = run_match(
        "conc",
        &[engine("garbage"), engine("sane")],
        &["--games", "4", "--concurrency", "2"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-garbage vs fake-sane: 0 - 4 - 0"
    );
    for n in 1..=4 {
        for ext in ["psq", "sgf", "log"] {
            assert!(
                r.out.join(format!("game-{n:04}.{ext}")).exists(),
                "game {n} .{ext}"
            );
        }
    }
    assert_eq!(r.results()["games"].as_array().unwrap().len(), 4);
    let summary = std::fs::read_to_string(r.out.join("summary.txt")).unwrap();
    assert!(
        summary.contains("Score of fake-garbage vs fake-sane: 0 - 4 - 0\nElo difference: "),
        "{summary}"
    );
}

#[test]
fn three_engines_round_robin() {
    let r = run_match(
        "rr",
        &[engine("sane"), engine("garbage"), engine("timeout")],
        &[
            "--games",
            "2",
            "--tc-turn-ms",
            "300",
            "--tolerance-ms",
            "300",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let scores: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("Score of "))
        .collect();
    assert_eq!(scores.len(), 3, "{}", r.stdout);
    assert_eq!(scores[0], "Score of fake-sane vs fake-garbage: 2 - 0 - 0");
    assert_eq!(scores[1], "Score of fake-sane vs fake-timeout: 2 - 0 - 0");
    // garbage vs timeout: the garbage engine fails only on its second request, the silent one
    // on its first, so the silent one loses both.
    assert_eq!(
        scores[2],
        "Score of fake-garbage vs fake-timeout: 2 - 0 - 0"
    );
    assert!(
        r.stdout
            .contains("   1 fake-sane               4.0      4\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("   2 fake-garbage            2.0      4\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("   3 fake-timeout            0.0      4"),
        "{}",
        r.stdout
    );
}

#[test]
fn bad_engine_command_is_an_error() {
    let r = run_match(
        "bad",
        &["/nonexistent/pbrain-nothing".to_string(), engine("sane")],
        &[],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("cannot start engine '/nonexistent/pbrain-nothing'"),
        "{}",
        r.stderr
    );
    let r = run_match("badq", &["'unterminated".to_string(), engine("sane")], &[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unterminated single quote"),
        "{}",
        r.stderr
    );
}

#[test]
fn match_clock_runs_out() {
    // No turn limit, 1000 ms per game, tolerance 100 ms. slow3 takes ~400 ms for each of its
    // first three moves: limits 1100 and ~700 ms for the first two, then 100 ms plus the
    // ~200 ms left, which its third move exceeds.
    let r = run_match(
        "clock",
        &[engine("slow3"), engine("sane")],
        &[
            "--games",
            "1",
            "--tc-turn-ms",
            "0",
            "--tc-game-ms",
            "1000",
            "--tolerance-ms",
            "100",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.line("Score of "),
        "Score of fake-slow3 vs fake-sane: 0 - 1 - 0"
    );
    let g = r.games();
    assert_eq!(kinds(&g), ["timeout"]);
    let limit = g[0]["termination"]["limit_ms"].as_i64().unwrap();
    assert!((100..400).contains(&limit), "limit {limit}");
    assert_eq!(g[0]["moves"].as_array().unwrap().len(), 4);
    // The clock was announced before each move: 1000 first, then what was left.
    let log = std::fs::read_to_string(r.out.join("game-0001.log")).unwrap();
    let lefts: Vec<i64> = log
        .lines()
        .filter(|l| l.contains("B > INFO time_left "))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(lefts.len(), 3, "{log}");
    assert_eq!(lefts[0], 1000);
    assert!(
        lefts[1] < 650 && lefts[2] < 300 && lefts[2] == limit - 100,
        "{lefts:?}"
    );
    assert!(
        log.contains("B > INFO timeout_match 1000\n") && !log.contains("timeout_turn"),
        "{log}"
    );

    // With a 400 ms increment the clock stays near 1000 ms and nobody runs out of time.
    let r = run_match(
        "inc",
        &[engine("slow3"), engine("sane")],
        &[
            "--games",
            "1",
            "--tc-turn-ms",
            "0",
            "--tc-game-ms",
            "1000",
            "--tc-inc-ms",
            "400",
            "--tolerance-ms",
            "100",
        ],
    );
    assert_ne!(kinds(&r.games())[0], "timeout", "{}", r.stdout);
    let log = std::fs::read_to_string(r.out.join("game-0001.log")).unwrap();
    assert!(log.contains("B > INFO time_increment 400\n"), "{log}");
    let third: i64 = log
        .lines()
        .filter(|l| l.contains("B > INFO time_left "))
        .nth(2)
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
        .unwrap();
    assert!(third > 800, "{log}");
}

#[test]
fn caro_closed_five_does_not_win() {
    // Black's five b15..f15 is closed by white a15 and g15. Freestyle: black wins with it
    // (9 stones); caro (INFO rule 8): it does not count and the game goes on.
    let engines = [engine("caroblack"), engine("caroblock")];
    let free = run_match(
        "caro-free",
        &engines,
        &["--games", "1", "--rule", "freestyle"],
    );
    let g = free.games();
    assert_eq!(kinds(&g), ["five"]);
    assert_eq!(g[0]["moves"].as_array().unwrap().len(), 9);
    assert_eq!(g[0]["winner"], 0);
    let caro = run_match(
        "caro",
        &engines,
        &["--games", "1", "--rule", "caro", "--name", "1:CaroB"],
    );
    assert_eq!(caro.code, 0, "{}\n{}", caro.stdout, caro.stderr);
    let g = caro.games();
    assert!(g[0]["moves"].as_array().unwrap().len() > 9, "{:?}", g[0]);
    assert!(caro
        .line("Score of ")
        .starts_with("Score of CaroB vs fake-caroblock: "));
    let log = std::fs::read_to_string(caro.out.join("game-0001.log")).unwrap();
    assert!(log.contains("B > INFO rule 8\n"), "{log}");
}

/// Our engine (the binary with no arguments is the protocol engine) against itself: two
/// games with colours reversed, both ending on the board.
#[test]
fn our_engine_against_itself() {
    let ours = env!("CARGO_BIN_EXE_pbrain-tianyuan").to_string();
    let r = run_match(
        "self",
        &[ours.clone(), ours],
        &[
            "--games",
            "2",
            "--tc-turn-ms",
            "300",
            "--tc-game-ms",
            "10000",
            "--threads",
            "1",
            "--memory-mb",
            "16",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let score = r.line("Score of ");
    let counts: Vec<u64> = score
        .rsplit(": ")
        .next()
        .unwrap()
        .split(" - ")
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 2, "{score}");
    // Both games end on the board: no forfeits of any kind.
    for k in kinds(&r.games()) {
        assert!(
            ["five", "board_full", "foul"].contains(&k.as_str()),
            "forfeit {k}:\n{}",
            r.stdout
        );
    }
    assert_eq!(r.results()["forfeits"], serde_json::json!([0, 0]));
    // Empty board: black gets BEGIN, white its first move as TURN.
    let log = std::fs::read_to_string(r.out.join("game-0001.log")).unwrap();
    assert!(
        log.contains("B > BEGIN\n") && log.contains("W > TURN "),
        "{log}"
    );
}

/// `match-games` turns a match's output into training records: the games' moves and
/// results, with each engine's `ev` evaluation on the move it chose.
#[test]
fn match_games_writes_scored_training_records() {
    let r = run_match(
        "records",
        &[engine("eval"), engine("eval")],
        &["--games", "2", "--rule", "freestyle", "--size", "15"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let file = r.out.join("games.txt");
    let o = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .arg("match-games")
        .arg(&r.out)
        .arg("--out")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}");
    assert!(stdout.starts_with("2 games written"), "{stdout}");
    let text = std::fs::read_to_string(&file).unwrap();
    let games = tianyuan::train::data::read_games(&mut text.as_bytes()).unwrap();
    let results = r.games();
    assert_eq!(games.len(), 2);
    for (g, v) in games.iter().zip(&results) {
        assert_eq!(g.moves.len(), v["moves"].as_array().unwrap().len());
        assert_eq!(
            g.opening, 0,
            "no opening suite: every move was the engines'"
        );
        // The fake prints `ev` in -200..200 before every move.
        assert!(g
            .scores
            .iter()
            .all(|s| s.is_some_and(|v| (-200..200).contains(&v))));
    }
}
