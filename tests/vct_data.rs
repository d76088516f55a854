//! A quick, deterministic VCT check on every tenth `vcf=no` position of the data set (VCT
//! puzzles) with a node limit: the wins must replay, and at least the recorded number must
//! be found. The full run with time limits is `vcf_data::vct_on_vcf_no_positions`
//! (ignored) and `benches/threat.rs`.
mod threat_util;

use std::sync::atomic::AtomicBool;
use threat_util::{check_vct_line, vcf_cases};
use tianyuan::search::threat::{VcfOutcome, VctSolver};

/// Node limit per position (proof nodes plus VCF sub-search nodes).
const NODES: u64 = 150_000;

/// Every tenth `vcf=no` position of the data set (38 positions).
fn every_tenth_vct_puzzle() -> Vec<threat_util::VcfCase> {
    vcf_cases()
        .into_iter()
        .filter(|c| !c.vcf)
        .step_by(10)
        .collect()
}

#[test]
fn vct_subset_of_vcf_no_positions() {
    let stop = AtomicBool::new(false);
    let mut solver = VctSolver::new();
    let cases = every_tenth_vct_puzzle();
    let (mut wins, mut none) = (0, 0);
    for c in &cases {
        let mut b = c.board.clone();
        let r = solver.solve(&mut b, NODES, None, &stop);
        assert_eq!(b.hash(), c.board.hash(), "{}: board not restored", c.id);
        match &r {
            VcfOutcome::Win(line) => {
                wins += 1;
                if let Err(e) = check_vct_line(&c.board, line) {
                    panic!(
                        "{}: bad VCT line {:?}: {}\n{}",
                        c.id,
                        line,
                        e,
                        c.board.render(&[])
                    );
                }
            }
            VcfOutcome::None => none += 1,
            VcfOutcome::Unknown => {}
        }
    }
    println!(
        "VCT on {} vcf=no positions (every tenth), {} nodes each: {} wins, {} none",
        cases.len(),
        NODES,
        wins,
        none
    );
    assert_eq!(cases.len(), 38);
    // 34 measured when this test was written; fewer means a regression.
    assert!(wins >= 34, "only {} wins (expected at least 34)", wins);
}

/// The parallel VCT (one solver per starting pass, two threads) on the same positions, each
/// within 3 s: every win it reports replays as a VCT, it never contradicts the one-thread
/// solver (a win against a proved "none" or the reverse), and it proves at least the wins the
/// one-thread solver proved within 150 000 nodes above.
#[test]
fn parallel_vct_agrees_with_one_thread() {
    use tianyuan::search::threat::{solve_with_stop, SolveLimits, SolveResult};
    let limits = SolveLimits {
        threads: 2,
        ..SolveLimits::time(3_000)
    };
    let stop = AtomicBool::new(false);
    let mut solver = VctSolver::new();
    let cases = every_tenth_vct_puzzle();
    let (mut wins1, mut wins2) = (0, 0);
    for c in &cases {
        let mut b = c.board.clone();
        let one = solver.solve(&mut b, NODES, None, &stop);
        let two = solve_with_stop(&c.board, true, &limits, &stop);
        match (&one, two.result) {
            (VcfOutcome::Win(_), SolveResult::None) | (VcfOutcome::None, SolveResult::Win) => {
                panic!("{}: one thread {:?}, two threads {:?}", c.id, one, two)
            }
            _ => {}
        }
        wins1 += one.is_win() as usize;
        if two.result == SolveResult::Win {
            wins2 += 1;
            if let Err(e) = check_vct_line(&c.board, &two.line) {
                panic!("{}: bad VCT line {:?}: {}", c.id, two.line, e);
            }
        }
    }
    println!(
        "parallel VCT: {} wins on two threads, {} on one",
        wins2, wins1
    );
    assert!(
        wins2 >= wins1,
        "{} wins on two threads, {} on one",
        wins2,
        wins1
    );
}
