//! A proven win is played whatever the thread count and timing (issue: never let a proven
//! win slip): positions where the side to move wins by VCT, searched many times at a
//! 200 ms turn with one and two threads, also two searches at once (a busy machine).
//!
//! The margin of the timed runs comes from the limit, not from an idle machine (issue 34:
//! the test failed on a loaded host, with steal time and a second build beside it). Right
//! before and right after each timed search the test times the proof itself (the VCT
//! solver alone, on the same position, under the load of that moment). A search is held to
//! the win when that proof, counted once per search thread (on a loaded machine the helpers
//! take the cores the solver needs), fits in three quarters of the move's hard limit: the
//! engine gives its root VCT the whole hard limit (`search::alphabeta`, issue 34), so a miss
//! there is the engine's fault. Searches the machine was too slow for are counted and
//! reported on stderr, not judged. Without a clock (a node limit), the win is asserted every
//! time: that part does not depend on the machine at all.
mod threat_util;

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use threat_util::vcf_cases;
use tianyuan::board::Board;
use tianyuan::core::{parse_point, parse_point_list, Pos, Rule};
use tianyuan::engine::{Engine, Options};
use tianyuan::eval::WIN_THRESHOLD;
use tianyuan::search::threat::{VcfOutcome, VctSolver};
use tianyuan::search::Limits;
use tianyuan::time::{Budget, TimeControl};

/// The renju position of the bug report: black wins by VCT starting c8.
const REPORTED: &str = "h8,h9,i9,j10,f10,i7,f8,g8,f7,f9,e9,e10,d11,d8,g7,h6,d12,d10,e7,h7,\
                        i6,g9,e5,f6,d7,c7,e6,e8,f5,g4";

/// Nodes within which the test positions' VCT is proved: a quarter of the root VCT's node
/// budget at this turn (200 nodes per millisecond of the 144 ms target: 28 800).
const PROOF_NODES: u64 = 8_000;

/// Limits of a protocol move with `INFO timeout_turn 200`.
fn turn_200(board: &Board) -> Limits {
    let tc = TimeControl {
        turn_ms: Some(200),
        ..TimeControl::default()
    };
    Limits {
        budget: tc.budget(board.stone_count(), board.width() * board.height()),
        ..Limits::default()
    }
}

/// Writes a line to the test's stderr even when the harness captures output.
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// How long the VCT solver alone takes to prove `board` now.
fn proof_time(board: &Board) -> Duration {
    let mut b = board.clone();
    let t = Instant::now();
    let r = VctSolver::new().solve(&mut b, PROOF_NODES, None, &AtomicBool::new(false));
    assert!(
        r.is_win(),
        "the test position has no VCT within {PROOF_NODES} nodes"
    );
    t.elapsed()
}

/// What the timed searches of one position did.
#[derive(Default, Debug)]
struct Tally {
    /// Searches the machine was fast enough for, each a win.
    judged: usize,
    /// Searches the machine was too slow for (the proof alone took too long).
    starved: usize,
    /// Judged searches that did not play a proven win: (move, score, proof ms, search ms).
    misses: Vec<(Pos, i32, u128, u128)>,
}

/// Searches `board` `runs` times at a 200 ms turn on `threads` threads (a fresh engine each
/// time, as a new process would be); judges each search as the module docs say.
fn timed_runs(board: &Board, threads: usize, runs: usize) -> Tally {
    let limits = turn_200(board);
    let allowed = Duration::from_millis(limits.budget.hard_ms * 3 / 4);
    let mut tally = Tally::default();
    for _ in 0..runs {
        let mut e = Engine::new(Options {
            threads,
            hash_bytes: 16 << 20,
        });
        let before = proof_time(board);
        let t = Instant::now();
        let r = e.think(board, &limits, &AtomicBool::new(false), &mut |_| {});
        let took = t.elapsed();
        let after = proof_time(board);
        let proof = before.max(after) * threads as u32;
        if proof > allowed {
            tally.starved += 1;
            continue;
        }
        tally.judged += 1;
        if r.score < WIN_THRESHOLD {
            tally
                .misses
                .push((r.best, r.score, proof.as_millis(), took.as_millis()));
        }
    }
    tally
}

/// Positions with a VCT the solver proves within [`PROOF_NODES`] nodes: the reported one
/// and some puzzles.
fn vct_positions() -> Vec<(String, Board)> {
    let mut v = Vec::new();
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    b.play_all(&parse_point_list(REPORTED, 15, 15).unwrap())
        .unwrap();
    v.push(("reported".to_string(), b));
    let stop = AtomicBool::new(false);
    let mut solver = VctSolver::new();
    for c in vcf_cases().into_iter().filter(|c| !c.vcf).step_by(25) {
        let mut b = c.board.clone();
        if let VcfOutcome::Win(_) = solver.solve(&mut b, PROOF_NODES, None, &stop) {
            v.push((c.id.clone(), c.board.clone()));
        }
    }
    v
}

fn reported() -> Board {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    b.play_all(&parse_point_list(REPORTED, 15, 15).unwrap())
        .unwrap();
    b
}

#[test]
fn reported_position_wins_with_c8_every_time() {
    let b = reported();
    let c8 = parse_point("c8", 15, 15).unwrap();
    for threads in [1, 2] {
        let mut judged = 0;
        let mut starved = 0;
        for _ in 0..20 {
            let limits = turn_200(&b);
            let allowed = Duration::from_millis(limits.budget.hard_ms * 3 / 4);
            let mut e = Engine::new(Options {
                threads,
                hash_bytes: 16 << 20,
            });
            let before = proof_time(&b);
            let r = e.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
            let proof = before.max(proof_time(&b)) * threads as u32;
            if proof > allowed {
                starved += 1;
                continue;
            }
            judged += 1;
            assert_eq!(
                r.best,
                c8,
                "{threads} threads: played {} (the proof alone took {} ms)",
                r.best,
                proof.as_millis()
            );
            assert!(
                r.score >= WIN_THRESHOLD,
                "{threads} threads: score {}",
                r.score
            );
        }
        if starved > 0 {
            note(&format!(
                "win_conversion: reported position, {threads} threads: {judged} searches \
                 judged, {starved} not (the machine was too slow for the 200 ms turn)"
            ));
        }
    }
}

#[test]
fn proven_wins_are_played_two_searches_at_once() {
    let positions = vct_positions();
    assert!(positions.len() >= 4, "only {} positions", positions.len());
    for (id, b) in &positions {
        for threads in [1, 2] {
            // Two searches at once, as two games of a manager on one machine.
            let (a, c) = std::thread::scope(|s| {
                let h = s.spawn(|| timed_runs(b, threads, 5));
                (timed_runs(b, threads, 5), h.join().unwrap())
            });
            assert!(
                a.misses.is_empty() && c.misses.is_empty(),
                "{id}, {threads} threads: missed (move, score, proof ms, search ms) {:?} {:?}",
                a.misses,
                c.misses
            );
            let starved = a.starved + c.starved;
            if starved > 0 {
                note(&format!(
                    "win_conversion: {id}, {threads} threads: {} searches judged, {starved} \
                     not (the machine was too slow for the 200 ms turn)",
                    a.judged + c.judged
                ));
            }
        }
    }
}

/// Without a clock the root VCT runs on its node budget alone: every position's win is
/// played every time, on one thread and two, whatever the machine's speed.
#[test]
fn proven_wins_are_played_under_a_node_limit() {
    for (id, b) in &vct_positions() {
        for threads in [1, 2] {
            for _ in 0..3 {
                let mut e = Engine::new(Options {
                    threads,
                    hash_bytes: 16 << 20,
                });
                let limits = Limits {
                    budget: Budget::UNLIMITED,
                    max_nodes: Some(400_000),
                    ..Limits::default()
                };
                let r = e.think(b, &limits, &AtomicBool::new(false), &mut |_| {});
                assert!(
                    r.score >= WIN_THRESHOLD,
                    "{id}, {threads} threads: played {} with score {}",
                    r.best,
                    r.score
                );
            }
        }
    }
}
