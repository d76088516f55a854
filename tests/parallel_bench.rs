//! Measurement, not a test: speed of the parallel search on 1 and 2 threads over the `bench`
//! positions (every rule). Ignored by default; run in release on a quiet machine:
//!
//! ```text
//! cargo test --release --test parallel_bench -- --ignored --nocapture
//! ```
//!
//! For each position and thread count it reports (median of `SMP_REPS` runs, default 3; the
//! 1- and 2-thread runs alternate so that both meet the same load):
//! - nodes per second of a search stopped after a fixed node count (`SMP_NODES`, default
//!   1 000 000; all threads' nodes count), on a cleared 16 MiB table;
//! - cores used (CPU seconds per wall second) during those searches: 1.0 and 2.0 on a quiet
//!   machine; less means other processes took the cores;
//! - nodes per CPU-second of the same searches (process CPU time from `/proc/self/stat`, all
//!   threads): on a loaded machine the wall-clock ratio shows how many cores the search got,
//!   while this one shows whether each thread slowed down (table or cache contention); equal
//!   nodes per CPU-second on 1 and 2 threads means a 2x wall-clock gain on two free cores;
//! - wall time, cores used and nodes to complete a fixed depth (`SMP_DEPTH`, default 8).
//!
//! The machine's load average (`/proc/loadavg`) is printed before and after, since other
//! processes on the same cores distort the wall-clock figures. Nothing is asserted.

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tianyuan::bench::{BENCH_HASH_BYTES, POSITIONS};
use tianyuan::board::Board;
use tianyuan::core::parse_point_list;
use tianyuan::engine::{Engine, Options};
use tianyuan::search::Limits;
use tianyuan::time::Budget;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// CPU time used so far by this process (all threads, including finished ones), seconds;
/// from `/proc/self/stat` (`utime + stime`, in ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0))
        .collect();
    if f.len() < 13 {
        return f64::NAN;
    }
    (f[11] + f[12]) as f64 / 100.0
}

/// One search from a cleared table: (wall seconds, CPU seconds, nodes).
fn run(engine: &mut Engine, board: &Board, limits: &Limits) -> (f64, f64, u64) {
    engine.clear();
    let c = cpu_seconds();
    let t = Instant::now();
    let r = engine.think(board, limits, &AtomicBool::new(false), &mut |_| {});
    (t.elapsed().as_secs_f64(), cpu_seconds() - c, r.nodes)
}

/// Medians over the repetitions for one thread count.
#[derive(Default)]
struct Figures {
    nps: Vec<f64>,
    npc: Vec<f64>,
    cores: Vec<f64>,
    depth_ms: Vec<f64>,
    depth_cores: Vec<f64>,
    depth_nodes: Vec<f64>,
}

#[test]
#[ignore]
fn smp_speedup() {
    let reps: usize = env_or("SMP_REPS", 3);
    let node_limit: u64 = env_or("SMP_NODES", 1_000_000);
    let depth: i32 = env_or("SMP_DEPTH", 8);
    println!(
        "load average before: {}; {} reps, {} nodes, depth {}",
        loadavg(),
        reps,
        node_limit,
        depth
    );
    println!(
        "{:<15} {:>8} {:>8} {:>5} | {:>7} {:>7} {:>5} | {:>4} {:>4} | {:>6} {:>6} {:>5} {:>4} {:>4} {:>8} {:>8}",
        "position",
        "nps 1t",
        "nps 2t",
        "ratio",
        "npc 1t",
        "npc 2t",
        "ratio",
        "cpu1",
        "cpu2",
        "d-ms1",
        "d-ms2",
        "ratio",
        "cpu1",
        "cpu2",
        "nodes 1t",
        "nodes 2t"
    );
    let mut engines = [1usize, 2].map(|threads| {
        Engine::new(Options {
            threads,
            hash_bytes: BENCH_HASH_BYTES,
        })
    });
    let (mut log_nps, mut log_npc, mut log_depth, mut n) = (0.0f64, 0.0f64, 0.0f64, 0);
    for &(name, rule, size, moves) in POSITIONS {
        let mut board = Board::new(size, size, rule).unwrap();
        board
            .play_all(&parse_point_list(moves, size, size).unwrap())
            .unwrap();
        let nodes_limits = Limits {
            budget: Budget::UNLIMITED,
            max_nodes: Some(node_limit),
            ..Limits::default()
        };
        let depth_limits = Limits {
            budget: Budget::UNLIMITED,
            max_depth: Some(depth),
            ..Limits::default()
        };
        let mut f: [Figures; 2] = Default::default();
        // 1 and 2 threads alternate, so that both see the same load.
        for _ in 0..reps {
            for (i, e) in engines.iter_mut().enumerate() {
                let (s, cpu, nodes) = run(e, &board, &nodes_limits);
                f[i].nps.push(nodes as f64 / s);
                f[i].npc.push(nodes as f64 / cpu);
                f[i].cores.push(cpu / s);
                let (s, cpu, nodes) = run(e, &board, &depth_limits);
                f[i].depth_ms.push(s * 1000.0);
                f[i].depth_cores.push(cpu / s);
                f[i].depth_nodes.push(nodes as f64);
            }
        }
        let m = |i: usize, g: fn(&Figures) -> &Vec<f64>| median(g(&f[i]).clone());
        let nps = [m(0, |f| &f.nps), m(1, |f| &f.nps)];
        let npc = [m(0, |f| &f.npc), m(1, |f| &f.npc)];
        let cores = [m(0, |f| &f.cores), m(1, |f| &f.cores)];
        let depth_ms = [m(0, |f| &f.depth_ms), m(1, |f| &f.depth_ms)];
        let depth_nodes = [m(0, |f| &f.depth_nodes), m(1, |f| &f.depth_nodes)];
        let depth_cores = [m(0, |f| &f.depth_cores), m(1, |f| &f.depth_cores)];
        println!(
            "{:<15} {:>8.0} {:>8.0} {:>5.2} | {:>7.0} {:>7.0} {:>5.2} | {:>4.2} {:>4.2} | {:>6.0} {:>6.0} {:>5.2} {:>4.2} {:>4.2} {:>8.0} {:>8.0}",
            name,
            nps[0],
            nps[1],
            nps[1] / nps[0],
            npc[0],
            npc[1],
            npc[1] / npc[0],
            cores[0],
            cores[1],
            depth_ms[0],
            depth_ms[1],
            depth_ms[0] / depth_ms[1],
            depth_cores[0],
            depth_cores[1],
            depth_nodes[0],
            depth_nodes[1]
        );
        log_nps += (nps[1] / nps[0]).ln();
        log_npc += (npc[1] / npc[0]).ln();
        log_depth += (depth_ms[0] / depth_ms[1]).ln();
        n += 1;
    }
    println!(
        "geometric mean: nps 2t/1t {:.2}, nodes per CPU-second 2t/1t {:.2}, time-to-depth \
         speedup 1t/2t {:.2}",
        (log_nps / n as f64).exp(),
        (log_npc / n as f64).exp(),
        (log_depth / n as f64).exp()
    );
    println!("load average after: {}", loadavg());
}
