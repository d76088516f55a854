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

/// VCT on the `vcf=no` positions (VCT puzzles). `VCT_MS` (default 1000) per position,
/// `VCT_LIMIT` positions at most. Prints the success rate; every win must replay.
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
    let stop = AtomicBool::new(false);
    let mut solver = tianyuan::search::threat::vct::VctSolver::new();
    let (mut wins, mut none, mut unknown, mut n) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    let t0 = Instant::now();
    for c in vcf_cases().iter().filter(|c| !c.vcf).take(limit) {
        n += 1;
        let mut b = c.board.clone();
        let t = Instant::now();
        let r = solver.solve(
            &mut b,
            u64::MAX,
            Some(t + std::time::Duration::from_millis(ms)),
            &stop,
        );
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
                "{} {:?} {} nodes {:.0} ms",
                c.id,
                r,
                solver.nodes(),
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

#[test]
#[ignore]
fn vct_debug_one() {
    let id = std::env::var("VCFID").unwrap();
    let c = vcf_cases().into_iter().find(|c| c.id == id).unwrap();
    let mut b = c.board.clone();
    println!("{}", b.render(&[]));
    let r = tianyuan::search::threat::vct(&mut b, 10_000_000, None, &AtomicBool::new(false));
    println!("{:?}", r);
}

/// Brute-force "win in 3" search: attacker moves p such that every legal defender reply leaves
/// the attacker a VCF.
#[test]
#[ignore]
fn vct_debug_three_ply() {
    let id = std::env::var("VCFID").unwrap();
    let c = vcf_cases().into_iter().find(|c| c.id == id).unwrap();
    let mut b = c.board.clone();
    if let Ok(pre) = std::env::var("PRE") {
        for m in tianyuan::core::parse_point_list(&pre, 15, 15).unwrap() {
            b.make(m);
        }
    }
    let a = b.side_to_move();
    let d = a.opponent();
    let stop = AtomicBool::new(false);
    let mut s = VcfSolver::new();
    let pts: Vec<_> = b.empty_points().collect();
    for &p in &pts {
        if !threat_util::legal(&b, a, p) || b.near(p) == 0 {
            continue;
        }
        let pat: Vec<_> = (0..4).map(|k| b.pattern(a, p, k)).collect();
        b.make_colored(p, a);
        let mut all = true;
        let mut refute = None;
        for &q in &pts {
            if !b.is_empty(q) || !threat_util::legal(&b, d, q) {
                continue;
            }
            if b.is_five(d, q) {
                all = false;
                refute = Some(q);
                break;
            }
            b.make_colored(q, d);
            let r = if std::env::var("USE_VCT").is_ok() {
                tianyuan::search::threat::vct(&mut b, 200_000, None, &stop)
            } else {
                s.solve(&mut b, 100_000, &stop)
            };
            b.undo();
            if !r.is_win() {
                all = false;
                refute = Some(q);
                break;
            }
        }
        b.undo();
        if all {
            println!("winning first move {} patterns {:?}", p, pat);
        } else if pat
            .iter()
            .any(|x| *x >= tianyuan::board::Pattern::SplitThree)
        {
            println!("threat {} {:?} refuted by {:?}", p, pat, refute);
        }
    }
}
