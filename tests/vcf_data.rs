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

/// Solve time of every position, in release mode: the best of three runs with a cleared
/// solver (the machine is shared, so single runs are noisy). Prints median, 99th percentile
/// and maximum.
#[test]
#[ignore]
fn vcf_timing() {
    let cases = vcf_cases();
    let stop = AtomicBool::new(false);
    let mut solver = VcfSolver::new();
    let mut times: Vec<(f64, String)> = Vec::new();
    for c in &cases {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let mut b = c.board.clone();
            solver.clear();
            let t = Instant::now();
            let r = solver.solve(&mut b, NODES, &stop);
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(r.is_win(), c.vcf, "{}", c.id);
        }
        times.push((best, c.id.clone()));
    }
    times.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap());
    let n = times.len();
    let mean = times.iter().map(|t| t.0).sum::<f64>() / n as f64;
    println!(
        "VCF solve time over {} positions (best of 3): median {:.3} ms, p99 {:.3} ms, max {:.3} ms ({}), mean {:.3} ms",
        n,
        times[n / 2].0,
        times[(n * 99).div_ceil(100) - 1].0,
        times[n - 1].0,
        times[n - 1].1,
        mean
    );
}

/// VCT on the `vcf=no` positions (VCT puzzles). `VCT_MS` (default 1000) per position,
/// `VCT_NODES` nodes per position (default no limit), `VCT_LIMIT` positions at most,
/// `VCT_ONLY` a comma-separated list of ids, `VCT_VERBOSE` one line per position,
/// `VCT_THREADS` threads (default 1; more runs the parallel portfolio of `solve_with_stop`).
/// Prints the success rate; every win must replay.
#[test]
#[ignore]
fn vct_on_vcf_no_positions() {
    let ms: u64 = std::env::var("VCT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let limit: usize = std::env::var("VCT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let only = std::env::var("VCT_ONLY").ok();
    let nodes: u64 = std::env::var("VCT_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    let threads: usize = std::env::var("VCT_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let stop = AtomicBool::new(false);
    let mut solver = tianyuan::search::threat::vct::VctSolver::new();
    let (mut wins, mut none, mut unknown, mut n) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    let t0 = Instant::now();
    for c in vcf_cases()
        .iter()
        .filter(|c| {
            !c.vcf
                && only
                    .as_ref()
                    .is_none_or(|o| o.split(',').any(|x| x == c.id))
        })
        .take(limit)
    {
        n += 1;
        let mut b = c.board.clone();
        let t = Instant::now();
        let r = if threads > 1 {
            // The parallel portfolio of `solve_with_stop` (no node limit).
            let limits = tianyuan::search::threat::SolveLimits {
                threads,
                ..tianyuan::search::threat::SolveLimits::time(ms)
            };
            let rep = tianyuan::search::threat::solve_with_stop(&b, true, &limits, &stop);
            match rep.result {
                tianyuan::search::threat::SolveResult::Win => VcfOutcome::Win(rep.line),
                tianyuan::search::threat::SolveResult::None => VcfOutcome::None,
                tianyuan::search::threat::SolveResult::Unknown => VcfOutcome::Unknown,
            }
        } else {
            solver.solve(
                &mut b,
                nodes,
                Some(t + std::time::Duration::from_millis(ms)),
                &stop,
            )
        };
        match &r {
            VcfOutcome::Win(line) => {
                wins += 1;
                if let Err(e) = threat_util::check_vct_line(&c.board, line) {
                    bad.push(format!("{}: {:?}: {}", c.id, line, e));
                }
            }
            VcfOutcome::None => none += 1,
            VcfOutcome::Unknown => unknown += 1,
        }
        if std::env::var("VCT_VERBOSE").is_ok() {
            println!(
                "{} {:?} {} nodes ({} proof nodes) {:.0} ms",
                c.id,
                r,
                solver.nodes(),
                solver.proof_nodes(),
                t.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
    println!(
        "VCT within {} ms: {} of {} vcf=no positions won ({} none, {} unknown), {:.1} s",
        ms,
        wins,
        n,
        none,
        unknown,
        t0.elapsed().as_secs_f64()
    );
    assert!(bad.is_empty(), "bad lines:\n{}", bad.join("\n"));
}
