//! Soundness of the VCT solver against the full game: on small random positions, every win
//! it reports is replayed with *every* legal defender reply at each defender turn (not only
//! the replies the solver generates), the attacker's moves being asked of the solver again
//! at each attacker turn, down to a VCF that the brute-force oracle confirms. A defence
//! that the solver's candidate generation missed shows up as a position where the solver
//! (asked afresh) finds no win.
mod threat_util;

use std::sync::atomic::AtomicBool;
use threat_util::{brute_vcf, check_vct_line, legal, random_position};
use tianyuan::board::Board;
use tianyuan::core::{Color, Pos, Rule, SplitMix64};
use tianyuan::search::threat::{VcfOutcome, VcfSolver, VctSolver};

const VCT_NODES: u64 = 100_000;

struct Verifier {
    vct: VctSolver,
    vcf: VcfSolver,
    calls: u32,
    max_calls: u32,
}

impl Verifier {
    /// Attacker `a` to move: the solver must name a winning move, and every defender reply
    /// to it must still lose. `None` when the call budget ran out.
    fn attacker(&mut self, b: &mut Board, a: Color) -> Option<Result<(), String>> {
        // A VCF ends the check; the brute force confirms it when it can.
        let stop = AtomicBool::new(false);
        if let VcfOutcome::Win(line) = self.vcf.solve(b, 1_000_000, &stop) {
            let mut budget = if matches!(b.rule(), Rule::Caro | Rule::CaroExact) {
                0
            } else {
                2_000
            };
            return match brute_vcf(b, &mut budget) {
                Some(false) => Some(Err(format!(
                    "VCF {:?} denied by brute force\n{}",
                    line,
                    b.render(&[])
                ))),
                _ => Some(Ok(())),
            };
        }
        self.calls += 1;
        if self.calls > self.max_calls {
            return None;
        }
        let r = self.vct.solve(b, VCT_NODES, None, &stop);
        let line = match r {
            VcfOutcome::Win(line) => line,
            VcfOutcome::None => {
                return Some(Err(format!(
                    "no win found after {:?}\n{}",
                    b.moves(),
                    b.render(&[])
                )));
            }
            VcfOutcome::Unknown => return None,
        };
        if let Err(e) = check_vct_line(b, &line) {
            return Some(Err(format!(
                "bad line {:?}: {}\n{}",
                line,
                e,
                b.render(&[])
            )));
        }
        let p = line[0];
        b.make_colored(p, a);
        let r = self.defender(b, a);
        b.undo();
        r
    }

    /// Defender to move: every legal reply must leave the attacker a win.
    fn defender(&mut self, b: &mut Board, a: Color) -> Option<Result<(), String>> {
        let d = a.opponent();
        let pts: Vec<Pos> = b.empty_points().collect();
        if pts.iter().any(|&q| b.is_five(d, q)) {
            return Some(Err(format!(
                "defender has a five after {:?}\n{}",
                b.moves(),
                b.render(&[])
            )));
        }
        for q in pts {
            if !legal(b, d, q) {
                continue;
            }
            b.make_colored(q, d);
            let r = self.attacker(b, a);
            b.undo();
            match r {
                Some(Ok(())) => {}
                other => return other,
            }
        }
        Some(Ok(()))
    }
}

fn verify(rule: Rule, cases: usize, seed: u64, max_calls: u32) {
    let mut rng = SplitMix64::new(seed);
    let stop = AtomicBool::new(false);
    let mut v = Verifier {
        vct: VctSolver::new(),
        vcf: VcfSolver::new(),
        calls: 0,
        max_calls: 0,
    };
    let (mut wins, mut verified, mut quiet) = (0, 0, 0);
    for i in 0..cases {
        let size = 7 + rng.below(2) as usize;
        let stones = 10 + rng.below(14) as usize;
        let mut b = random_position(&mut rng, size, rule, stones);
        if v.vcf.solve(&mut b, 1_000_000, &stop) != VcfOutcome::None {
            continue;
        }
        let VcfOutcome::Win(line) = v.vct.solve(&mut b, VCT_NODES, None, &stop) else {
            continue;
        };
        wins += 1;
        let a = b.side_to_move();
        let q = !(0..4).any(|d| {
            let pat = b.pattern(a, line[0], d);
            pat.is_three() || pat >= tianyuan::board::Pattern::Four
        });
        v.calls = 0;
        v.max_calls = max_calls;
        match v.attacker(&mut b, a) {
            Some(Ok(())) => {
                verified += 1;
                if q {
                    quiet += 1;
                }
            }
            Some(Err(e)) => panic!("{:?} case {} (line {:?}): {}", rule, i, line, e),
            None => {}
        }
    }
    println!(
        "{:?}: {} VCT wins (no VCF) on random positions, {} verified against every defence ({} starting with a quiet threat)",
        rule, wins, verified, quiet
    );
    assert!(verified >= 5, "too few verified wins for a useful check");
}

#[test]
fn vct_wins_hold_against_every_defence_freestyle() {
    verify(Rule::Freestyle, 200, 11, 100);
}

#[test]
fn vct_wins_hold_against_every_defence_standard() {
    verify(Rule::Standard, 200, 12, 100);
}

#[test]
fn vct_wins_hold_against_every_defence_renju() {
    verify(Rule::Renju, 320, 13, 100);
}

#[test]
fn vct_wins_hold_against_every_defence_caro() {
    verify(Rule::Caro, 80, 14, 40);
}
