//! The `bench` signature: a fixed set of positions (every rule, 15x15 and 20x20) searched on
//! one thread to a fixed depth with a fixed 16 MiB transposition table, cleared between
//! positions, with no clock. The total node count changes only when search behaviour or the
//! built-in weights (whose evaluation and ordering steer the search) change; it is the number
//! quoted as `Bench: N` in commit messages.
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
pub const DEFAULT_DEPTH: i32 = 12;

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
    /// Main-search nodes (docs/strength.md §5).
    pub nodes: u64,
    /// Threat-solver nodes, counted apart.
    pub vcf_nodes: u64,
    /// Best move found (notation).
    pub best: String,
    /// Score found.
    pub score: i32,
    /// Time of the search alone, in microseconds.
    pub search_us: u64,
}

/// What [`run_bench`] measured besides the per-position lines.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchTimes {
    /// Setting up, in microseconds: the boards (and with them the rule tables, built on first
    /// use) and the engine with its transposition table.
    pub setup_us: u64,
    /// The searches alone, in microseconds (clearing the table between positions and
    /// everything else excluded).
    pub search_us: u64,
}

impl BenchTimes {
    /// Nodes per second of the searches alone.
    pub fn nps(&self, nodes: u64) -> u64 {
        (nodes as u128 * 1_000_000 / self.search_us.max(1) as u128) as u64
    }
}

/// Runs the bench at `depth`, calling `progress` with each position's result as soon as it
/// is searched; returns every result and the times. The boards and the engine are set up
/// before the first search, so that building the rule tables and the transposition table is
/// not counted as search time.
pub fn run_bench(depth: i32, progress: &mut dyn FnMut(&BenchLine)) -> (Vec<BenchLine>, BenchTimes) {
    let setup = Instant::now();
    let boards: Vec<Board> = POSITIONS
        .iter()
        .map(|&(_, rule, size, moves)| {
            let mut board = Board::new(size, size, rule).expect("bench size");
            let list = parse_point_list(moves, size, size).expect("bench moves");
            board.play_all(&list).expect("bench moves legal");
            board
        })
        .collect();
    let mut engine = Engine::new(Options {
        threads: 1,
        hash_bytes: BENCH_HASH_BYTES,
    });
    let mut times = BenchTimes {
        setup_us: setup.elapsed().as_micros() as u64,
        search_us: 0,
    };
    let mut out = Vec::new();
    for (&(name, ..), board) in POSITIONS.iter().zip(&boards) {
        engine.clear();
        let limits = Limits {
            budget: Budget::UNLIMITED,
            max_depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let r = engine.think(board, &limits, &stop, &mut |_| {});
        let search_us = start.elapsed().as_micros() as u64;
        times.search_us += search_us;
        let line = BenchLine {
            name,
            nodes: r.nodes,
            vcf_nodes: r.vcf_nodes,
            best: r.best.to_notation(),
            score: r.score,
            search_us,
        };
        progress(&line);
        out.push(line);
    }
    (out, times)
}

/// Runs `bench`: a first line at once, each position's nodes as soon as it is searched, the
/// set-up and search times, then `Bench: <nodes> nodes <nps> nps` with the nodes per second
/// of the searches alone.
pub fn run(args: &BenchArgs) -> i32 {
    use std::io::Write as _;
    if !(1..=60).contains(&args.depth) {
        return crate::cli::bad_input("--depth must be 1..=60");
    }
    println!(
        "Bench: {} positions, depth {}, 1 thread, {} MiB table",
        POSITIONS.len(),
        args.depth,
        BENCH_HASH_BYTES >> 20
    );
    let _ = std::io::stdout().flush();
    let (lines, times) = run_bench(args.depth, &mut |l| {
        println!(
            "{:<16} {:>10} nodes {:>9} vcf  best {:<4} score {:<6} {:>9.3} ms",
            l.name,
            l.nodes,
            l.vcf_nodes,
            l.best,
            l.score,
            l.search_us as f64 / 1000.0
        );
        let _ = std::io::stdout().flush();
    });
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    println!(
        "Setup {:.3} ms (boards, rule tables, transposition table), search {:.3} ms",
        times.setup_us as f64 / 1000.0,
        times.search_us as f64 / 1000.0
    );
    println!("Bench: {} nodes {} nps", total, times.nps(total));
    0
}
