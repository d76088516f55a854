//! The VCF solver against a slow brute-force VCF (tests/threat_util) on small random
//! positions, for every rule: the yes/no answers must agree, so no win is reported for a
//! side that has none and none is missed; every reported line must replay.
mod threat_util;

use std::sync::atomic::AtomicBool;
use threat_util::{brute_vcf, check_vcf_line, fives, random_position};
use tianyuan::core::{Rule, SplitMix64};
use tianyuan::search::threat::{VcfOutcome, VcfSolver};

fn compare(rule: Rule, cases: usize, seed: u64) {
    let exact = !matches!(rule, Rule::Caro | Rule::CaroExact);
    let mut missed = 0;
    let mut rng = SplitMix64::new(seed);
    let stop = AtomicBool::new(false);
    let mut solver = VcfSolver::with_table_bits(14);
    let (mut checked, mut wins, mut skipped, mut quiet) = (0, 0, 0, 0);
    for i in 0..cases {
        let size = 7 + rng.below(3) as usize;
        let stones = 8 + rng.below(24) as usize;
        let mut b = random_position(&mut rng, size, rule, stones);
        // Positions where the side to move already faces two fives are trivial; keep them.
        let mut budget = 4_000u64;
        let Some(expect) = brute_vcf(&mut b, &mut budget) else {
            skipped += 1;
            continue;
        };
        let r = solver.solve(&mut b, 1_000_000, &stop);
        checked += 1;
        // Without a five point on either side, the entry point that skips their scans
        // (the search's leaves) must give the same answer.
        if fives(&b, b.side_to_move()).is_empty()
            && fives(&b, b.side_to_move().opponent()).is_empty()
        {
            let r2 = solver.solve_without_fives(&mut b, 1_000_000, &stop);
            assert_eq!(
                matches!(r2, VcfOutcome::Win(_)),
                matches!(r, VcfOutcome::Win(_)),
                "{rule:?} case {i}: solve_without_fives {r2:?}, solve {r:?}"
            );
            quiet += 1;
        }
        match (&r, expect) {
            (VcfOutcome::Win(line), true) => {
                wins += 1;
                if let Err(e) = check_vcf_line(&b, line) {
                    panic!(
                        "{:?} case {}: bad line {:?}: {}\n{}",
                        rule,
                        i,
                        line,
                        e,
                        b.render(&[])
                    );
                }
            }
            (VcfOutcome::None, false) => {}
            // Caro: the solver answers a defender's four only on its five point, not with a
            // cap beyond the end, so it may miss a win (never report a false one).
            (VcfOutcome::None, true) if !exact => missed += 1,
            _ => panic!(
                "{:?} case {}: solver {:?}, brute force {}; {} to move, fives {:?}/{:?}\n{}",
                rule,
                i,
                r,
                expect,
                b.side_to_move().name(),
                fives(&b, b.side_to_move()),
                fives(&b, b.side_to_move().opponent()),
                b.render(&[])
            ),
        }
    }
    println!(
        "{:?}: {} positions agree ({} with a VCF), {} skipped (brute force budget), {} caro wins missed, {} without fives checked twice",
        rule, checked - missed, wins, skipped, missed, quiet
    );
    assert!(quiet >= checked / 4, "too few positions without fives");
    assert!(missed * 20 <= checked, "too many missed wins");
    assert!(checked >= cases / 2, "too many skipped");
    assert!(
        wins >= checked / 10,
        "too few VCF positions to be a useful check"
    );
}

#[test]
fn brute_force_agrees_freestyle() {
    compare(Rule::Freestyle, 1500, 1);
}

#[test]
fn brute_force_agrees_standard() {
    compare(Rule::Standard, 1500, 2);
}

#[test]
fn brute_force_agrees_renju() {
    compare(Rule::Renju, 2500, 3);
}

#[test]
fn brute_force_agrees_caro() {
    compare(Rule::Caro, 600, 4);
    compare(Rule::CaroExact, 600, 5);
}
