//! Search benchmarks (issue: parallel search): for one `bench` position per rule, on 1 and 2
//! threads sharing one 16 MiB transposition table, cleared before every search:
//! - `nps/<position>/<threads>`: a search stopped after a fixed node count (all threads'
//!   nodes count). Criterion's throughput is that node count per iteration, so its
//!   "elem/s" figure is nodes per second (the search overshoots the limit by at most 1024
//!   nodes per thread, under 1 %).
//! - `depth/<position>/<threads>`: wall time to complete a fixed depth.
//!
//! Only the search is timed (not the table clear). Run with `cargo bench --bench search`;
//! the machine's other load distorts both figures, so compare runs made under similar load.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tianyuan::bench::{BENCH_HASH_BYTES, POSITIONS};
use tianyuan::board::Board;
use tianyuan::core::parse_point_list;
use tianyuan::engine::{Engine, Options};
use tianyuan::search::Limits;
use tianyuan::time::Budget;

/// Node limit of the `nps` benchmarks.
const NODES: u64 = 300_000;
/// Depth of the `depth` benchmarks.
const DEPTH: i32 = 7;
/// One position per rule from `bench::POSITIONS`.
const NAMES: &[&str] = &["freestyle15-a", "standard15-a", "renju15-b", "caro15-a"];

fn board(name: &str) -> Board {
    let &(_, rule, size, moves) = POSITIONS
        .iter()
        .find(|p| p.0 == name)
        .expect("bench position");
    let mut b = Board::new(size, size, rule).unwrap();
    b.play_all(&parse_point_list(moves, size, size).unwrap())
        .unwrap();
    b
}

/// Total time of `iters` searches from a cleared table.
fn timed(engine: &mut Engine, b: &Board, limits: &Limits, iters: u64) -> Duration {
    let stop = AtomicBool::new(false);
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        engine.clear();
        let t = Instant::now();
        let r = engine.think(b, limits, &stop, &mut |_| {});
        total += t.elapsed();
        criterion::black_box(r);
    }
    total
}

fn bench_search(c: &mut Criterion) {
    let node_limits = Limits {
        budget: Budget::UNLIMITED,
        max_nodes: Some(NODES),
        ..Limits::default()
    };
    let depth_limits = Limits {
        budget: Budget::UNLIMITED,
        max_depth: Some(DEPTH),
        ..Limits::default()
    };
    let mut engines = [1usize, 2].map(|threads| {
        Engine::new(Options {
            threads,
            hash_bytes: BENCH_HASH_BYTES,
        })
    });

    let mut g = c.benchmark_group("nps");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(NODES));
    for name in NAMES {
        let b = board(name);
        for e in engines.iter_mut() {
            let threads = e.options().threads;
            g.bench_with_input(BenchmarkId::new(*name, threads), &b, |bench, b| {
                bench.iter_custom(|iters| timed(e, b, &node_limits, iters))
            });
        }
    }
    g.finish();

    let mut g = c.benchmark_group("depth");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for name in NAMES {
        let b = board(name);
        for e in engines.iter_mut() {
            let threads = e.options().threads;
            g.bench_with_input(BenchmarkId::new(*name, threads), &b, |bench, b| {
                bench.iter_custom(|iters| timed(e, b, &depth_limits, iters))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
