//! Every position of `tests/data/vcf_positions.txt` through the VCF solver: wins have a first
//! move from the listed set and a line that replays under the rules; "no VCF" positions give
//! `None`. Also prints the solve-time distribution (measured, never asserted).
mod threat_util;

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use threat_util::{check_vcf_line, vcf_cases};
use tianyuan::search::threat::{VcfOutcome, VcfSolver};

/// Node budget per position: far above what any position needs, so `Unknown` is a failure.
const NODES: u64 = 20_000_000;

#[test]
fn vcf_positions_all() {
    let cases = vcf_cases();
    let stop = AtomicBool::new(false);
    let mut solver = VcfSolver::new();
    let mut failures = Vec::new();
    let mut times = Vec::new();
    let (mut yes, mut no) = (0, 0);
    for c in &cases {
        let mut b = c.board.clone();
        let before = b.hash();
        solver.clear();
        let t = Instant::now();
        let r = solver.solve(&mut b, NODES, &stop);
        times.push((
            t.elapsed().as_secs_f64() * 1000.0,
            solver.nodes(),
            c.id.clone(),
        ));
        assert_eq!(b.hash(), before, "{}: board not restored", c.id);
        assert_eq!(b.ply(), c.board.ply(), "{}: board not restored", c.id);
        assert_eq!(
            b.side_to_move(),
            c.board.side_to_move(),
            "{}: side not restored",
            c.id
        );
        match (&r, c.vcf) {
            (VcfOutcome::Win(line), true) => {
                yes += 1;
                if !c.first_moves.contains(&line[0]) {
                    failures.push(format!(
                        "{}: first move {} not in {:?}",
                        c.id, line[0], c.first_moves
                    ));
                }
                if let Err(e) = check_vcf_line(&c.board, line) {
                    failures.push(format!("{}: bad line {:?}: {}", c.id, line, e));
                }
            }
            (VcfOutcome::None, false) => no += 1,
            _ => failures.push(format!("{}: expected vcf={} got {:?}", c.id, c.vcf, r)),
        }
    }
    times.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap());
    let n = times.len();
    println!(
        "checked {} VCF positions ({} wins, {} without VCF); time ms: median {:.3}, p99 {:.3}, max {:.3} ({}, {} nodes)",
        n,
        yes,
        no,
        times[n / 2].0,
        times[n * 99 / 100].0,
        times[n - 1].0,
        times[n - 1].2,
        times[n - 1].1
    );
    println!("total nodes {}", times.iter().map(|t| t.1).sum::<u64>());
    for t in times.iter().rev().take(5) {
        println!("  slow: {} {:.3} ms {} nodes", t.2, t.0, t.1);
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        n,
        failures.join("\n")
    );
    assert_eq!(n, 1831);
    assert_eq!((yes, no), (1454, 377));
}

#[test]
#[ignore]
fn vcf_debug_one() {
    let id = std::env::var("VCFID").unwrap();
    let c = vcf_cases().into_iter().find(|c| c.id == id).unwrap();
    let mut b = c.board.clone();
    println!("{}", b.render(&[]));
    let r = VcfSolver::new().solve(&mut b, NODES, &AtomicBool::new(false));
    println!("{:?} first {:?}", r, c.first_moves);
}
