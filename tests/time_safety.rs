//! Every reply within the turn limit, whatever the memory and thread settings and whenever
//! they arrive (protocol.md §1.6: under the Gomocup referee, start-up work is on the first
//! move's clock).
//!
//! The built binary (`pbrain-tianyuan`, no arguments) gets `START 15`, an `INFO` block with
//! `timeout_turn 200` and the case's `max_memory` / `hash_size` / `thread_num`, and a `BOARD`
//! in one write, as the Gomocup referee and c-gomoku-cli send them, and must answer within
//! 200 ms of that write. Then two `TURN`s, a `TURN` sent together with new memory and thread
//! settings (a resize mid-game), and `RESTART` with a `BOARD` (a new game: the table written
//! by the first is cleared) must each be answered within 200 ms too.
//!
//! The limit asserted is the protocol's, `timeout_turn` itself: the engine aims at
//! `timeout_turn` minus its safety margin (`tianyuan::time::SAFETY_MS`, at most a quarter of
//! the turn: 150 ms here) and the margin covers process start, pipes and scheduling. Tables
//! are sized up to the largest `max_memory` managers send (1 GiB: a table of about 800 MiB);
//! resizing, clearing and making the table resident must all happen off the clock.
//!
//! A case with a late reply is played a second time and fails only if a reply is late again
//! (a loaded machine may delay one reply; work done on the clock repeats).
//!
//! These tests hold the engine to the limits themselves (200 ms turns, 40 ms past a hard
//! limit), which a loaded machine (two cores, a build beside the tests) can break for reasons
//! that are not the engine's. They are therefore `#[ignore]`d, named `wall_clock_*`, and
//! `.ci/run` runs them on their own after the rest of the suite, one at a time:
//! `cargo test -- --ignored --test-threads=1 wall_clock_`. Add `--nocapture` to see the
//! reply times; `tools/first_reply.py` prints first-reply times of the release binary.
#![cfg(unix)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// `INFO timeout_turn` sent, in milliseconds; every reply must come within it.
const TURN_MS: u64 = 200;
/// Wait before declaring a reply missing (the assertion on the time comes after).
const GIVE_UP: Duration = Duration::from_secs(10);

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stones: HashSet<(u32, u32)>,
}

impl Proc {
    fn spawn() -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn engine");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            stdin: child.stdin.take().unwrap(),
            child,
            lines: rx,
            stones: HashSet::new(),
        }
    }

    /// Writes `lines` in one write and returns the engine's move and the milliseconds from
    /// the write to it (`OK` of `START`/`RESTART` and `MESSAGE` lines are skipped).
    fn ask(&mut self, lines: &[String]) -> ((u32, u32), u64) {
        let text: String = lines.iter().map(|l| format!("{}\n", l)).collect();
        let t0 = Instant::now();
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        loop {
            let line = self
                .lines
                .recv_timeout(GIVE_UP)
                .unwrap_or_else(|_| panic!("no reply to {:?}", lines));
            if line == "OK" || line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
                continue;
            }
            let ms = t0.elapsed().as_millis() as u64;
            let mv = line
                .split_once(',')
                .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                .unwrap_or_else(|| panic!("{:?} is not a move (after {:?})", line, lines));
            assert!(self.stones.insert(mv), "{:?} is occupied", mv);
            return (mv, ms);
        }
    }

    /// An empty point near the centre for the opponent.
    fn free_point(&mut self) -> (u32, u32) {
        let p = (3..12)
            .flat_map(|y| (3..12).map(move |x| (x, y)))
            .find(|p| !self.stones.contains(p))
            .expect("an empty point");
        self.stones.insert(p);
        p
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"END\n");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One case: the memory settings of the first `INFO` block and those sent mid-game.
struct Case {
    max_memory: Option<u64>,
    hash_kib: Option<u64>,
    threads: u32,
    /// `max_memory` and `thread_num` sent together with the third `TURN`.
    later: (u64, u32),
}

fn memory_lines(max_memory: Option<u64>, hash_kib: Option<u64>, threads: u32) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(m) = max_memory {
        v.push(format!("INFO max_memory {}", m));
    }
    if let Some(h) = hash_kib {
        v.push(format!("INFO hash_size {}", h));
    }
    v.push(format!("INFO thread_num {}", threads));
    v
}

/// Plays the case's requests; returns the reply times in milliseconds, labelled.
fn run(case: &Case) -> Vec<(&'static str, u64)> {
    let mut e = Proc::spawn();
    let mut times = Vec::new();
    let mut first = vec![
        "START 15".to_string(),
        format!("INFO timeout_turn {}", TURN_MS),
        "INFO timeout_match 1000000".to_string(),
        "INFO time_left 1000000".to_string(),
    ];
    first.extend(memory_lines(case.max_memory, case.hash_kib, case.threads));
    first.extend(["INFO rule 0", "BOARD", "7,7,2", "DONE"].map(String::from));
    e.stones.insert((7, 7));
    times.push(("first", e.ask(&first).1));
    for label in ["turn 2", "turn 3"] {
        let (x, y) = e.free_point();
        times.push((label, e.ask(&[format!("TURN {},{}", x, y)]).1));
    }
    let (x, y) = e.free_point();
    let mut resize = memory_lines(Some(case.later.0), None, case.later.1);
    resize.push(format!("TURN {},{}", x, y));
    times.push(("resized", e.ask(&resize).1));
    e.stones.clear();
    e.stones.insert((7, 7));
    let restart = ["RESTART", "BOARD", "7,7,2", "DONE"].map(String::from);
    times.push(("restart", e.ask(&restart).1));
    times
}

#[test]
#[ignore = "wall clock: run alone by .ci/run (cargo test -- --ignored wall_clock_)"]
fn wall_clock_every_reply_within_the_turn_limit_whatever_the_table_size() {
    const MIB: u64 = 1 << 20;
    let cases = [
        (Some(0), None, 1, (1 << 30, 2)),
        (Some(0), None, 2, (350 * MIB, 1)),
        (Some(350 * MIB), None, 1, (1 << 30, 1)),
        (Some(350 * MIB), None, 2, (64 * MIB, 2)),
        (Some(1 << 30), None, 1, (350 * MIB, 2)),
        (Some(1 << 30), None, 2, (1 << 30, 1)),
        (None, Some(256 * 1024), 2, (1 << 30, 2)),
        (Some(1 << 30), Some(768 * 1024), 1, (350 * MIB, 2)),
    ]
    .map(|(max_memory, hash_kib, threads, later)| Case {
        max_memory,
        hash_kib,
        threads,
        later,
    });
    let mut late = Vec::new();
    for c in &cases {
        let label = format!(
            "max_memory {:?} hash_size {:?} thread_num {} (then max_memory {} thread_num {})",
            c.max_memory, c.hash_kib, c.threads, c.later.0, c.later.1
        );
        // A case with a late reply is played once more: on a loaded machine one reply may be
        // delayed by scheduling, while work on the clock (the table made resident there took
        // 225-620 ms) repeats.
        let mut over = Vec::new();
        for attempt in 1..=2 {
            let times = run(c);
            let shown: Vec<String> = times.iter().map(|(l, t)| format!("{} {}", l, t)).collect();
            println!("{} [run {}]: {} ms", label, attempt, shown.join(", "));
            over = times
                .into_iter()
                .filter(|&(_, t)| t > TURN_MS)
                .map(|(l, t)| format!("{}: {} reply after {} ms", label, l, t))
                .collect();
            if over.is_empty() {
                break;
            }
        }
        late.extend(over);
    }
    assert!(
        late.is_empty(),
        "replies over timeout_turn {} ms:\n{}",
        TURN_MS,
        late.join("\n")
    );
}

/// A crowded standard-rule position (from a soak game at 200 ms per move) where the search's
/// threat solvers used to run far past the hard limit: `analyze --time-ms 150` took 270-290 ms,
/// and under the protocol a 200 ms turn was answered after 221 ms. The engine raises the
/// search's stop flag at the hard limit; the search must then answer within a few
/// milliseconds of it.
#[test]
#[ignore = "wall clock: run alone by .ci/run (cargo test -- --ignored wall_clock_)"]
fn wall_clock_a_timed_search_ends_at_its_hard_limit_in_a_crowded_position() {
    use std::sync::atomic::AtomicBool;
    use tianyuan::board::Board;
    use tianyuan::core::{parse_point, Rule};
    use tianyuan::engine::{Engine, Options};
    use tianyuan::search::Limits;
    use tianyuan::time::Budget;

    const MOVES: &str = "i5,k5,e9,j4,d8,k4,f10,g11,i4,i3,l6,k3,k6,j3,l3,h2,g1,h3,g3,j6,j2,l5,\
        m6,k2,k1,k8,h1,i7,h8,j7,j5,l9,i6,l4,m3,m10,n11,j8,e1,f1,m4,m5,n6,o6,h7,j9,j10,o5,n5,h6,\
        k9,g5,f4,h4,h5";
    /// What the search may take past its hard limit (stop latency, scheduling).
    const LATENESS_MS: u128 = 40;
    let mut board = Board::new(15, 15, Rule::Standard).unwrap();
    for m in MOVES.split(',') {
        board.make(parse_point(m, 15, 15).unwrap());
    }
    let mut late = Vec::new();
    for threads in [1, 2] {
        let mut e = Engine::new(Options {
            threads,
            hash_bytes: 16 << 20,
        });
        for hard_ms in [50, 150] {
            let limits = Limits {
                budget: Budget {
                    soft_ms: hard_ms,
                    hard_ms,
                    ample: false,
                },
                ..Limits::default()
            };
            // The fastest of three runs: a loaded machine may delay one, an overrun repeats.
            let mut times = Vec::new();
            for _ in 0..3 {
                let t = Instant::now();
                let r = e.think(&board, &limits, &AtomicBool::new(false), &mut |_| {});
                times.push(t.elapsed().as_millis());
                assert!(board.is_empty(r.best));
            }
            println!("{threads} thread(s), hard limit {hard_ms} ms: {times:?} ms");
            let ms = *times.iter().min().unwrap();
            if ms > hard_ms as u128 + LATENESS_MS {
                late.push(format!(
                    "{threads} thread(s): {ms} ms for a {hard_ms} ms limit"
                ));
            }
        }
    }
    assert!(late.is_empty(), "{}", late.join("\n"));
}

/// A caro 20x20 position (from a soak game at 200 ms per move) whose VCT runs many small VCF
/// sub-searches of slow caro nodes: asked for 50 ms, the solver took 373 ms when only its own
/// nodes polled the clock (a forced move was answered after 603 ms of a 200 ms turn). Every
/// sub-search now starts only before the deadline, and the VCF polls across solves.
#[test]
#[ignore = "wall clock: run alone by .ci/run (cargo test -- --ignored wall_clock_)"]
fn wall_clock_a_vct_solve_keeps_its_deadline_in_caro() {
    use std::sync::atomic::AtomicBool;
    use tianyuan::board::Board;
    use tianyuan::core::{parse_point, Rule};
    use tianyuan::search::threat::VctSolver;

    const MOVES: &str = "h13,l7,h10,h7,i11,h11,i10,i12,g10,f10,j10,k10,g9,j12,f8,e7,g13,h12,g12,\
        g11,i13,k12,l12,j13,f13,d13,e9,k14,l15,k11,k13,k9,k7";
    /// What the solver may take past its deadline (scheduling on a busy machine).
    const LATENESS_MS: u128 = 40;
    let mut board = Board::new(20, 20, Rule::Caro).unwrap();
    for m in MOVES.split(',') {
        board.make(parse_point(m, 20, 20).unwrap());
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        let mut s = VctSolver::new();
        let t = Instant::now();
        let deadline = t + Duration::from_millis(50);
        s.solve(
            &mut board,
            u64::MAX,
            Some(deadline),
            &AtomicBool::new(false),
        );
        times.push(t.elapsed().as_millis());
    }
    let ms = *times.iter().min().unwrap();
    assert!(ms <= 50 + LATENESS_MS, "50 ms VCT solves took {times:?} ms");
}
