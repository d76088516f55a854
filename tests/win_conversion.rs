//! A proven win is played whatever the thread count and timing (issue: never let a proven
//! win slip): positions where the side to move wins by VCT, searched many times at a
//! 200 ms turn with one and two threads, also two searches at once (a busy machine).
mod threat_util;

use std::sync::atomic::AtomicBool;
use threat_util::vcf_cases;
use tianyuan::board::Board;
use tianyuan::core::{parse_point, parse_point_list, Pos, Rule};
use tianyuan::engine::{Engine, Options};
use tianyuan::search::threat::{VcfOutcome, VctSolver};
use tianyuan::search::{Limits, WIN_THRESHOLD};
use tianyuan::time::TimeControl;

/// The renju position of the bug report: black wins by VCT starting c8.
const REPORTED: &str = "h8,h9,i9,j10,f10,i7,f8,g8,f7,f9,e9,e10,d11,d8,g7,h6,d12,d10,e7,h7,\
                        i6,g9,e5,f6,d7,c7,e6,e8,f5,g4";

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

/// Searches `board` `runs` times on `threads` threads (a fresh engine each time, as a new
/// process would be) and returns the moves that were not proven wins.
fn misses(board: &Board, threads: usize, runs: usize) -> Vec<(Pos, i32)> {
    let mut out = Vec::new();
    for _ in 0..runs {
        let mut e = Engine::new(Options {
            threads,
            hash_bytes: 16 << 20,
        });
        let r = e.think(
            board,
            &turn_200(board),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        if r.score < WIN_THRESHOLD {
            out.push((r.best, r.score));
        }
    }
    out
}

/// Positions with a VCT the solver proves quickly (within 8 000 nodes, a quarter of the
/// root VCT's budget at this turn): the reported one and some puzzles.
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
        if let VcfOutcome::Win(_) = solver.solve(&mut b, 8_000, None, &stop) {
            v.push((c.id.clone(), c.board.clone()));
        }
    }
    v
}

#[test]
fn reported_position_wins_with_c8_every_time() {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    b.play_all(&parse_point_list(REPORTED, 15, 15).unwrap())
        .unwrap();
    let c8 = parse_point("c8", 15, 15).unwrap();
    for threads in [1, 2] {
        for _ in 0..20 {
            let mut e = Engine::new(Options {
                threads,
                hash_bytes: 16 << 20,
            });
            let r = e.think(&b, &turn_200(&b), &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.best, c8, "{threads} threads: played {}", r.best);
            assert!(
                r.score >= WIN_THRESHOLD,
                "{threads} threads: score {}",
                r.score
            );
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
                let h = s.spawn(|| misses(b, threads, 5));
                (misses(b, threads, 5), h.join().unwrap())
            });
            assert!(
                a.is_empty() && c.is_empty(),
                "{id}, {threads} threads: missed {:?} {:?}",
                a,
                c
            );
        }
    }
}
