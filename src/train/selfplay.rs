//! `pbrain-tianyuan selfplay`: games of the engine against itself for training
//! (`docs/training.md` §2).
//!
//! Every game starts from a random opening of a few stones near the centre that a short
//! search judges balanced, then each move is searched with a node limit drawn around the
//! mean (so that games from the same opening differ). A game ends at a five, a full board,
//! a proven win or loss (the search's score; the solvers' proofs are exact), or a draw
//! adjudicated once most of the board is filled. Games are written in the order of their
//! numbers, each as soon as it and every game before it have ended ([`super::data`]
//! format). With one search thread per game, a game depends only on the seed, the game's
//! number and the options, so the file does not depend on `--concurrency`.
//!
//! With `--shard K/N` the run plays only its block of the game numbers
//! ([`crate::shard::Shard::range`]), each game exactly as the whole run would, and writes a
//! shard file (docs/cluster.md §2): joined by `merge`, the shards give the file of the whole
//! run, byte for byte.

use super::data::{write_header, GameRecord, Outcome};
use super::TrainError;
use crate::board::Board;
use crate::core::{Pos, Rule};
use crate::engine::{Engine, Options};
use crate::eval::WIN_THRESHOLD;
use crate::search::Limits;
use crate::shard::{end_line, InOrder, Shard, ShardHeader};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Arguments of `pbrain-tianyuan selfplay`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Rule: freestyle, standard, renju, caro, caro-exact.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board size N (N x N), 5..=22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Mean node limit of each move's search.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Spread of the node limit: each search gets `nodes ± spread` (uniform).
    #[arg(long, default_value_t = 3_000)]
    pub spread: u64,
    /// Fewest random opening stones.
    #[arg(long, default_value_t = 2)]
    pub min_opening: usize,
    /// Most random opening stones.
    #[arg(long, default_value_t = 5)]
    pub max_opening: usize,
    /// Opening stones lie within this distance of the centre (in both coordinates).
    #[arg(long, default_value_t = 3)]
    pub opening_radius: usize,
    /// An opening is kept only if a search of `--balance-nodes` nodes scores it within
    /// ± this many evaluation units for the side to move.
    #[arg(long, default_value_t = 120)]
    pub balance: i32,
    /// Node limit of the balance search.
    #[arg(long, default_value_t = 20_000)]
    pub balance_nodes: u64,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Transposition table per game, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash_mb: usize,
    /// Seed of the random openings and node limits.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (appended to; the header is written when the file is new). With
    /// `--shard` the file is replaced: it holds that shard alone.
    #[arg(long)]
    pub out: String,
    /// Play only shard K of N (K from 0): the games numbered `K * games / N .. (K + 1) *
    /// games / N` of the whole run, each as the whole run plays it; the output is a shard
    /// file for `merge` (docs/cluster.md).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse_arg)]
    pub shard: Option<Shard>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Options of one self-play game.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// The rule.
    pub rule: Rule,
    /// Board side (square boards).
    pub size: usize,
    /// Mean node limit per move.
    pub nodes: u64,
    /// Node limit spread (uniform ±).
    pub spread: u64,
    /// Opening stone count range (inclusive).
    pub opening: (usize, usize),
    /// Opening stones within this distance of the centre.
    pub radius: usize,
    /// Largest |score| of an accepted opening.
    pub balance: i32,
    /// Nodes of the balance search.
    pub balance_nodes: u64,
}

fn search(engine: &mut Engine, board: &Board, nodes: u64) -> (Pos, i32) {
    let limits = Limits {
        max_nodes: Some(nodes.max(1)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let r = engine.think(board, &limits, &stop, &mut |_| {});
    (r.best, r.score)
}

/// A random balanced opening (moves black first); gives up after 50 tries and returns the
/// last one tried.
pub fn random_opening(engine: &mut Engine, opt: &GameOptions, rng: &mut SmallRng) -> Vec<Pos> {
    let c = opt.size as i64 / 2;
    let r = opt.radius.min(opt.size / 2) as i64;
    let mut last = Vec::new();
    for _ in 0..50 {
        let n = rng.gen_range(opt.opening.0..=opt.opening.1.max(opt.opening.0));
        let mut board = Board::new(opt.size, opt.size, opt.rule).expect("checked size");
        let mut moves = Vec::new();
        let mut ok = true;
        while moves.len() < n {
            let x = (c + rng.gen_range(-r..=r)) as usize;
            let y = (c + rng.gen_range(-r..=r)) as usize;
            let p = Pos::new(x, y);
            if !board.is_empty(p) {
                continue;
            }
            if board.result_of_move(p).is_some() {
                ok = false;
                break;
            }
            board.make(p);
            moves.push(p);
        }
        last = moves.clone();
        if !ok {
            continue;
        }
        engine.clear();
        let (_, score) = search(engine, &board, opt.balance_nodes);
        if score.abs() <= opt.balance {
            return moves;
        }
    }
    last
}

/// Plays one game from a random opening; `rng` decides the opening and the node limits.
pub fn play_game(engine: &mut Engine, opt: &GameOptions, rng: &mut SmallRng) -> GameRecord {
    let opening = random_opening(engine, opt, rng);
    engine.clear();
    let mut board = Board::new(opt.size, opt.size, opt.rule).expect("checked size");
    let mut scores = Vec::new();
    for &p in &opening {
        board.make(p);
        scores.push(None);
    }
    let cells = opt.size * opt.size;
    let outcome = loop {
        if board.stone_count() >= cells {
            break Outcome::Draw;
        }
        let lo = opt.nodes.saturating_sub(opt.spread).max(1);
        let hi = opt.nodes + opt.spread;
        let nodes = rng.gen_range(lo..=hi);
        let (best, score) = search(engine, &board, nodes);
        if best.is_none() || !board.is_empty(best) {
            break Outcome::Draw;
        }
        let me = board.side_to_move();
        let result = board.result_of_move(best);
        board.make(best);
        scores.push(Some(score));
        match result {
            Some(crate::board::GameResult::Win(c)) => break Outcome::win_for(c),
            Some(crate::board::GameResult::Draw) => break Outcome::Draw,
            None => {}
        }
        if score >= WIN_THRESHOLD {
            break Outcome::win_for(me);
        }
        if score <= -WIN_THRESHOLD {
            break Outcome::win_for(me.opponent());
        }
        if board.stone_count() * 100 >= cells * 85 {
            break Outcome::Draw;
        }
    };
    GameRecord {
        rule: opt.rule,
        width: opt.size,
        height: opt.size,
        outcome,
        opening: opening.len(),
        moves: board.moves().to_vec(),
        scores,
        best: Vec::new(),
    }
}

/// The seed of game number `i` (0-based, in the whole run) of a run with `--seed seed`.
pub fn game_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64
}

/// The options that decide the games, for a shard header (docs/cluster.md §2): everything
/// but `--out`, `--quiet`, `--concurrency` and `--shard`, with the spread as applied.
fn settings(args: &SelfplayArgs, opt: &GameOptions) -> serde_json::Value {
    serde_json::json!({
        "rule": opt.rule.name(),
        "size": opt.size,
        "games": args.games,
        "nodes": opt.nodes,
        "spread": opt.spread,
        "min_opening": opt.opening.0,
        "max_opening": opt.opening.1,
        "opening_radius": opt.radius,
        "balance": opt.balance,
        "balance_nodes": opt.balance_nodes,
        "hash_mb": args.hash_mb.max(1),
        "seed": args.seed,
        "threads": 1,
    })
}

/// Runs `selfplay`. Errors: bad arguments or an output file that cannot be opened or
/// written ([`TrainError`]).
pub fn run(args: &SelfplayArgs) -> Result<(), TrainError> {
    let bad = |s: String| Err(TrainError::BadArgument(s));
    let rule = Rule::parse_explained(&args.rule).map_err(TrainError::BadArgument)?;
    if crate::core::check_size(args.size, args.size).is_err() {
        return bad(format!("bad --size {}: 5..=22", args.size));
    }
    if args.min_opening > args.max_opening || args.max_opening > 20 {
        return bad("bad opening range: --min-opening <= --max-opening <= 20".to_string());
    }
    let opt = GameOptions {
        rule,
        size: args.size,
        nodes: args.nodes,
        spread: args.spread.min(args.nodes.saturating_sub(1)),
        opening: (args.min_opening, args.max_opening),
        radius: args.opening_radius,
        balance: args.balance,
        balance_nodes: args.balance_nodes,
    };
    let games = match args.shard {
        Some(sh) => sh.range(args.games),
        None => 0..args.games,
    };
    let write_error = |reason| TrainError::Write {
        path: args.out.clone(),
        reason,
    };
    let out = open_output(args, &opt).map_err(|e| match e {
        OutputError::Open(source) => TrainError::Open {
            path: args.out.clone(),
            source,
        },
        OutputError::Write(e) => write_error(Some(e)),
    })?;
    let t = play_games(args, &opt, games.clone(), out).ok_or_else(|| write_error(None))?;
    let part = match args.shard {
        Some(sh) => format!(
            " (shard {sh}: games {}..{} of {})",
            games.start, games.end, args.games
        ),
        None => String::new(),
    };
    println!(
        "{} games{part}: black {} white {} draw {} -> {}",
        t[0] + t[1] + t[2],
        t[0],
        t[1],
        t[2],
        args.out
    );
    Ok(())
}

/// Why the output file could not be made ready.
enum OutputError {
    Open(std::io::Error),
    Write(std::io::Error),
}

/// Opens `--out` (a shard's file is replaced, otherwise games are appended) and writes the
/// game file's header line when the file is new or a shard's, and a shard's header.
fn open_output(
    args: &SelfplayArgs,
    opt: &GameOptions,
) -> Result<std::io::BufWriter<std::fs::File>, OutputError> {
    let exists = std::path::Path::new(&args.out).exists();
    let file = if args.shard.is_some() {
        std::fs::File::create(&args.out)
    } else {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args.out)
    }
    .map_err(OutputError::Open)?;
    let mut out = std::io::BufWriter::new(file);
    let mut head = Ok(());
    if args.shard.is_some() || !exists {
        head = write_header(&mut out);
    }
    if let Some(sh) = args.shard {
        let h = ShardHeader::new(
            "selfplay",
            sh,
            args.games,
            crate::shard::this_engine(),
            settings(args, opt),
        );
        head = head.and_then(|_| writeln!(out, "{}", h.line()));
    }
    head.and_then(|_| out.flush()).map_err(OutputError::Write)?;
    Ok(out)
}

/// Plays games `games` on `--concurrency` threads, writing each in order to `out` (and a
/// shard's end line after the last); the counts of black wins, white wins and draws, or
/// `None` when a write failed.
fn play_games(
    args: &SelfplayArgs,
    opt: &GameOptions,
    games: std::ops::Range<usize>,
    out: std::io::BufWriter<std::fs::File>,
) -> Option<[usize; 3]> {
    let out = Mutex::new(InOrder::new(out, games.start));
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg} [{elapsed} < {eta}]")
            .expect("valid template"),
    );
    let next = AtomicUsize::new(games.start);
    let tally = Mutex::new([0usize; 3]);
    let failed = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..args.concurrency.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new(Options {
                    threads: 1,
                    hash_bytes: args.hash_mb.max(1) << 20,
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games.end || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut rng = SmallRng::seed_from_u64(game_seed(args.seed, i));
                    let g = play_game(&mut engine, opt, &mut rng);
                    if out
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(i, g.to_line())
                        .is_err()
                    {
                        failed.store(true, Ordering::Relaxed);
                    }
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    t[match g.outcome {
                        Outcome::Black => 0,
                        Outcome::White => 1,
                        Outcome::Draw => 2,
                    }] += 1;
                    bar.set_message(format!("black {} white {} draw {}", t[0], t[1], t[2]));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    let mut out = out.into_inner().unwrap_or_else(|e| e.into_inner());
    if !failed.load(Ordering::Relaxed) && args.shard.is_some() {
        let w = out.writer();
        if writeln!(w, "{}", end_line(games.len()))
            .and_then(|_| w.flush())
            .is_err()
        {
            failed.store(true, Ordering::Relaxed);
        }
    }
    if failed.load(Ordering::Relaxed) {
        return None;
    }
    let t = *tally.lock().unwrap_or_else(|e| e.into_inner());
    Some(t)
}
