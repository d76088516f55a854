//! Threat-solver benchmarks on the VCF data set (`tests/data/vcf_positions.txt`).
//!
//! - `vcf/dataset`: one VCF solve of each of the 1831 positions (cleared solver);
//! - `vcf/slowest`, `vcf/typical`: single positions;
//! - `vct/vcf_no_subset`: VCT on every tenth `vcf=no` position with a node limit.
//!
//! The per-position time distribution (median, p99, max) and the VCT success rates within
//! 1 s and 10 s are printed by the ignored tests `vcf_data::vcf_timing` and
//! `vcf_data::vct_on_vcf_no_positions` (`VCT_MS=10000`), run in release mode.

#[path = "../tests/threat_util/mod.rs"]
mod threat_util;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use threat_util::vcf_cases;
use tianyuan::search::threat::{VcfSolver, VctSolver};

fn vcf_benches(c: &mut Criterion) {
    let cases = vcf_cases();
    let stop = AtomicBool::new(false);
    let mut solver = VcfSolver::new();
    let mut g = c.benchmark_group("vcf");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("dataset", |bench| {
        bench.iter(|| {
            let mut wins = 0;
            for case in &cases {
                let mut b = case.board.clone();
                solver.clear();
                wins += solver.solve(&mut b, u64::MAX, &stop).is_win() as usize;
            }
            black_box(wins)
        })
    });
    for (name, id) in [("slowest", "V0006"), ("typical", "V0100")] {
        let case = cases.iter().find(|c| c.id == id).expect("data position");
        g.bench_function(name, |bench| {
            bench.iter(|| {
                let mut b = case.board.clone();
                solver.clear();
                black_box(solver.solve(&mut b, u64::MAX, &stop))
            })
        });
    }
    g.finish();
}

fn vct_benches(c: &mut Criterion) {
    let cases: Vec<_> = vcf_cases()
        .into_iter()
        .filter(|c| !c.vcf)
        .step_by(10)
        .collect();
    let stop = AtomicBool::new(false);
    let mut g = c.benchmark_group("vct");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("vcf_no_subset", |bench| {
        bench.iter(|| {
            let mut solver = VctSolver::new();
            let mut wins = 0;
            for case in &cases {
                let mut b = case.board.clone();
                wins += solver.solve(&mut b, 150_000, None, &stop).is_win() as usize;
            }
            black_box(wins)
        })
    });
    g.finish();
}

criterion_group!(benches, vcf_benches, vct_benches);
criterion_main!(benches);
