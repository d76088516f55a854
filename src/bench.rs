//! The `bench` signature: a fixed set of positions (every rule, 15x15 and 20x20) searched on
//! one thread to a fixed depth with a fixed 16 MiB transposition table, cleared between
//! positions, with no clock. The total node count changes only when search behaviour
//! changes; it is the number quoted as `Bench: N` in commit messages.
//!
//! Positions: the ten benchmark positions of Rapfi's `benchmark.cpp` (converted to this
//! project's notation, rows from the bottom) plus caro and a renju position with forbidden
//! points.

use crate::board::Board;
use crate::core::{parse_point_list, Rule};
use crate::engine::{Engine, Options};
use crate::search::Limits;
use crate::time::Budget;
use clap::Args;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Default bench depth in plies.
pub const DEFAULT_DEPTH: i32 = 8;

/// Transposition table size of the bench, bytes.
pub const BENCH_HASH_BYTES: usize = 16 << 20;

/// The bench positions: (name, rule, size, moves from black).
pub const POSITIONS: &[(&str, Rule, usize, &str)] = &[
    ("freestyle15-a", Rule::Freestyle, 15, "h8,g9,f10,g8,g7"),
    ("freestyle15-b", Rule::Freestyle, 15, "h14,h11,h12,f10"),
    (
        "freestyle20-a",
        Rule::Freestyle,
        20,
        "e19,f19,h18,g18,g15,h16,f12",
    ),
    (
        "freestyle20-b",
        Rule::Freestyle,
        20,
        "f16,e18,b14,h16,g18,g17,i15,e17,h17,d17,f19,i16,f17,f15,e16,d15,d14,e14,f13",
    ),
    ("standard15-a", Rule::Standard, 15, "h8,h9,j10,i9,f9"),
    ("standard15-b", Rule::Standard, 15, "f10,i7,h8"),
    ("standard15-c", Rule::Standard, 15, "b13,k6,g14,f10"),
    ("renju15-a", Rule::Renju, 15, "h8,i7,j6,i8,i9,g7"),
    (
        "renju15-b",
        Rule::Renju,
        15,
        "h8,h7,j7,j8,f8,i9,g9,i7,h10,e7,f10,k9,l10,i6,i10,f7,g7,g5,h6,i5,i8",
    ),
    (
        "renju15-c",
        Rule::Renju,
        15,
        "h8,h7,h10,i6,i10,i7,g7,g8,j5,i9",
    ),
    ("caro15-a", Rule::Caro, 15, "h8,h9,i9,g7,j10,k11,i8,i10"),
    (
        "caro-exact15-a",
        Rule::CaroExact,
        15,
        "h8,i9,g9,j10,g8,f8,g7",
    ),
];

/// Arguments of `pbrain-tianyuan bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Depth in plies for every position.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: i32,
}

/// One position's bench result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Position name.
    pub name: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// Best move found (notation).
    pub best: String,
    /// Score found.
    pub score: i32,
}

/// Runs the bench at `depth`; returns per-position results and the elapsed milliseconds.
pub fn run_bench(depth: i32) -> (Vec<BenchLine>, u64) {
    let start = Instant::now();
    let mut out = Vec::new();
    let mut engine = Engine::new(Options {
        threads: 1,
        hash_bytes: BENCH_HASH_BYTES,
    });
    for &(name, rule, size, moves) in POSITIONS {
        let mut board = Board::new(size, size, rule).expect("bench size");
        let list = parse_point_list(moves, size, size).expect("bench moves");
        board.play_all(&list).expect("bench moves legal");
        engine.clear();
        let limits = Limits {
            budget: Budget::UNLIMITED,
            max_depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let r = engine.think(&board, &limits, &stop, &mut |_| {});
        out.push(BenchLine {
            name,
            nodes: r.nodes,
            best: r.best.to_notation(),
            score: r.score,
        });
    }
    (out, start.elapsed().as_millis() as u64)
}

/// Runs `bench`; prints each position's nodes then `Bench: <nodes> nodes <nps> nps`.
pub fn run(args: &BenchArgs) -> i32 {
    if !(1..=60).contains(&args.depth) {
        return crate::cli::bad_input("--depth must be 1..=60");
    }
    let (lines, ms) = run_bench(args.depth);
    let mut total = 0;
    for l in &lines {
        println!(
            "{:<16} {:>10} nodes  best {:<4} score {}",
            l.name, l.nodes, l.best, l.score
        );
        total += l.nodes;
    }
    println!("Bench: {} nodes {} nps", total, total * 1000 / ms.max(1));
    0
}
