//! `pbrain-tianyuan openings ...`: the opening tools on the command line (docs/openings.md).
//!
//! - `openings identify`: which of the 26 renju openings the first three stones form;
//! - `openings decide`: one decision of an opening rule, printed as text or `--json`;
//! - `openings generate`: a balanced opening suite in our format and c-gomoku-cli's `pos` and
//!   `offset` formats, with a progress bar.
//!
//! Exit status 0 on success, 2 with a one-line reason on stderr for bad input.

use crate::cli::bad_input;
use crate::core::{parse_move_text, parse_point_list, Rule};
use crate::engine::{Engine, Options};
use crate::opening::renju26;
use crate::opening::suite::{self, SuiteParams};
use crate::opening::{decide, EngineSearch, OpeningRule, Request, Step};
use crate::search::Limits;
use crate::time::Budget;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// `openings` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum OpeningsCommand {
    /// Name the renju opening (one of the 26, any symmetry) formed by the first three stones.
    Identify(IdentifyArgs),
    /// Make one decision of an opening rule by search and print it.
    Decide(DecideArgs),
    /// Generate a balanced opening suite (our format, c-gomoku-cli pos and offset).
    Generate(GenerateArgs),
}

/// Arguments of `openings`.
#[derive(Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: OpeningsCommand,
}

/// `openings identify`.
#[derive(Args, Debug, Clone)]
pub struct IdentifyArgs {
    /// Moves in order from black, as `--moves` of the other tools (h8,h9,i10 or 7,7 7,8 8,9);
    /// only the first three count.
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
    /// Board size N (N x N), 5..=22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `openings decide`.
#[derive(Args, Debug, Clone)]
pub struct DecideArgs {
    /// Opening rule: swap2, rif, soosorv8, swap1, swap5, cswap.
    #[arg(long = "opening-rule")]
    pub opening_rule: String,
    /// Decision point: open, swap1 (or swap), move4, swap2, offer, choose, color, place.
    #[arg(long)]
    pub step: String,
    /// Stones so far in move order from black (comma-separated notation; "-" or nothing for
    /// an empty board). For `choose`, the stones after the fourth are black's offers.
    #[arg(long, default_value = "-", allow_hyphen_values = true)]
    pub moves: String,
    /// For `choose`: black's fifth-move offers (added after the four moves).
    #[arg(long, allow_hyphen_values = true)]
    pub offers: Option<String>,
    /// Number of fifth-move offers N (soosorv8 swap2/offer; rif offer, default 2).
    #[arg(long)]
    pub n: Option<u8>,
    /// Game rule (default: renju for rif and soosorv8, freestyle otherwise).
    #[arg(long)]
    pub rule: Option<String>,
    /// Board size N (N x N), 5..=22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Time for the whole decision in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub time_ms: u64,
    /// Cap on the nodes of each search of the decision.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `openings generate`.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Game rule: freestyle, standard, renju (or caro, caro-exact).
    #[arg(long)]
    pub rule: String,
    /// Board size N (N x N), 5..=22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Openings wanted.
    #[arg(long, default_value_t = 64)]
    pub count: usize,
    /// Seed of the sampler (same seed, same suite).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes of the search that judges each candidate.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Largest accepted |score| for the side to move (evaluation units).
    #[arg(long, default_value_t = 40)]
    pub max_score: i32,
    /// Fewest stones (default 3; renju 5).
    #[arg(long)]
    pub min_stones: Option<usize>,
    /// Most stones (default 5).
    #[arg(long)]
    pub max_stones: Option<usize>,
    /// Renju only: start every opening from the 24 allowed of the 26 (default for renju);
    /// `--free-start` samples the first stones freely instead.
    #[arg(long)]
    pub free_start: bool,
    /// Write `<OUT>.txt` (ours), `<OUT>.pos.txt` and `<OUT>.offset.txt` (c-gomoku-cli)
    /// instead of printing our lines (`<OUT>` may end in `.txt`: the same files); the
    /// folder of `<OUT>` is made if missing.
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
    /// Name prefix of the openings (default: `<rule><size>`).
    #[arg(long)]
    pub name: Option<String>,
    /// Search threads (default 1, which keeps a seed's suite reproducible).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Runs `openings`; returns the exit status.
pub fn run(args: &OpeningsArgs) -> i32 {
    match &args.command {
        OpeningsCommand::Identify(a) => identify(a),
        OpeningsCommand::Decide(a) => decide_cmd(a),
        OpeningsCommand::Generate(a) => generate(a),
    }
}

fn identify(a: &IdentifyArgs) -> i32 {
    if crate::core::check_size(a.size, a.size).is_err() {
        return bad_input(&format!("unsupported board size {}", a.size));
    }
    let moves = match parse_move_text(&a.moves, a.size, a.size) {
        Ok(m) => m,
        Err(e) => return bad_input(&e.to_string()),
    };
    if let Err(e) = check_free(&moves, a.size) {
        return bad_input(&e);
    }
    let r = renju26::recognise(&moves, a.size, a.size);
    if a.json {
        let v = r.map(|r| {
            serde_json::json!({
                "code": r.opening.code,
                "name": r.opening.name,
                "chinese": r.opening.chinese,
                "direct": r.opening.is_direct(),
                "banned": r.opening.banned,
                "transform": r.transform.name(),
            })
        });
        println!("{}", serde_json::json!({ "opening": v }));
    } else {
        match r {
            Some(r) => println!(
                "{} {} {} ({}{}) transform {}",
                r.opening.code,
                r.opening.name,
                r.opening.chinese,
                if r.opening.is_direct() {
                    "direct"
                } else {
                    "indirect"
                },
                if r.opening.banned { ", banned" } else { "" },
                r.transform.name()
            ),
            None => println!("none"),
        }
    }
    0
}

/// Checks that no move of `moves` lands on an earlier one.
///
/// Errors: `move N (h8): point 'h8' is already occupied`, as the other tools say it.
fn check_free(moves: &[crate::core::Pos], size: usize) -> Result<(), String> {
    let mut board =
        crate::board::Board::new(size, size, Rule::Freestyle).map_err(|e| e.to_string())?;
    for (i, &point) in moves.iter().enumerate() {
        if let Err(error) = board.check_move(point) {
            return Err(crate::gamefile::ReplayError::Illegal {
                ply: i + 1,
                point,
                error,
            }
            .to_string());
        }
        board.make(point);
    }
    Ok(())
}

/// Makes `--out`'s folder (as `match --out` does) before any work, so that a path that
/// cannot be written is refused at once rather than after the search.
///
/// Errors: `cannot create the folder DIR: reason`, or `--out NAME is a folder`.
fn prepare_out(out: &std::path::Path) -> Result<(), String> {
    if out.is_dir() {
        return Err(format!(
            "--out {} is a folder: give a name (files NAME.txt, NAME.pos.txt, NAME.offset.txt)",
            out.display()
        ));
    }
    match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the folder {}: {e}", dir.display())),
        _ => Ok(()),
    }
}

fn decide_cmd(a: &DecideArgs) -> i32 {
    let Some(rule) = OpeningRule::parse(&a.opening_rule) else {
        return bad_input(&format!(
            "unknown opening rule '{}' (swap2, rif, soosorv8, swap1, swap5, cswap)",
            a.opening_rule
        ));
    };
    let Some(step) = Step::parse(&a.step) else {
        return bad_input(&format!(
            "unknown step '{}' (open, swap1, move4, swap2, offer, choose, color, place)",
            a.step
        ));
    };
    let game_rule = match &a.rule {
        Some(r) => match Rule::parse_explained(r) {
            Ok(r) => r,
            Err(e) => return bad_input(&e),
        },
        None if matches!(rule, OpeningRule::Rif | OpeningRule::Soosorv8) => Rule::Renju,
        None => Rule::Freestyle,
    };
    if crate::core::check_size(a.size, a.size).is_err() {
        return bad_input(&format!("unsupported board size {}", a.size));
    }
    let mut stones = match parse_point_list(&a.moves, a.size, a.size) {
        Ok(m) => m,
        Err(e) => return bad_input(&e.to_string()),
    };
    if let Some(o) = &a.offers {
        match parse_point_list(o, a.size, a.size) {
            Ok(m) => stones.extend(m),
            Err(e) => return bad_input(&e.to_string()),
        }
    }
    let req = Request {
        rule,
        step,
        game_rule,
        width: a.size,
        height: a.size,
        stones,
        n: a.n,
    };
    let mut options = Options {
        hash_bytes: a.hash_mb.clamp(1, 65536) << 20,
        ..Options::default()
    };
    if let Some(t) = a.threads {
        options.threads = t.clamp(1, 256);
    }
    let mut engine = Engine::new(options);
    engine.prefault();
    let stop = AtomicBool::new(false);
    let base = Limits {
        max_nodes: a.nodes,
        ..Limits::default()
    };
    let mut search = EngineSearch::new(&mut engine, base, &stop);
    match decide(&req, &mut search, Budget::fixed(a.time_ms.max(1))) {
        Ok(d) => {
            if a.json {
                println!("{}", d.to_json());
            } else {
                println!("{}", d.to_text());
            }
            0
        }
        Err(e) => bad_input(&e.to_string()),
    }
}

fn generate(a: &GenerateArgs) -> i32 {
    let p = match suite_params(a) {
        Ok(p) => p,
        Err(e) => return bad_input(&e),
    };
    let stem = a.out.as_deref().map(out_stem);
    if let Some(stem) = &stem {
        if let Err(e) = prepare_out(stem) {
            return bad_input(&e);
        }
    }
    let mut engine = Engine::new(Options {
        threads: a.threads.clamp(1, 256),
        hash_bytes: 16 << 20,
    });
    let bar = ProgressBar::with_draw_target(Some(a.count as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} openings  {msg}")
    {
        bar.set_style(style);
    }
    let entries = suite::generate(&mut engine, &p, &mut |kept, tried| {
        bar.set_position(kept as u64);
        bar.set_message(format!("{} tried", tried));
    });
    bar.finish_and_clear();
    let prefix = a
        .name
        .clone()
        .unwrap_or_else(|| format!("{}{}", p.rule.name(), a.size));
    let ours: Vec<String> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| suite::format_ours(&format!("{}-{:02}", prefix, i + 1), a.size, p.rule, e))
        .collect();
    let header = suite_header(a, &p);
    let Some(stem) = stem else {
        print!("{}", header);
        for l in &ours {
            println!("{}", l);
        }
        return 0;
    };
    let with_ext = |ext: &str| {
        let mut s = stem.clone().into_os_string();
        s.push(ext);
        PathBuf::from(s)
    };
    let pos: String = entries
        .iter()
        .map(|e| suite::format_pos(&e.moves) + "\n")
        .collect();
    let offset: String = entries
        .iter()
        .map(|e| suite::format_offset(&e.moves, a.size) + "\n")
        .collect();
    let files = [
        (with_ext(".txt"), format!("{}{}\n", header, ours.join("\n"))),
        (with_ext(".pos.txt"), pos),
        (with_ext(".offset.txt"), offset),
    ];
    for (path, text) in &files {
        if let Err(e) = std::fs::write(path, text) {
            return bad_input(&format!("cannot write {}: {}", path.display(), e));
        }
    }
    println!(
        "{} openings written to {}, {} and {}",
        entries.len(),
        files[0].0.display(),
        files[1].0.display(),
        files[2].0.display()
    );
    if entries.len() < a.count {
        eprintln!(
            "warning: only {} of {} openings found; try a larger --max-score or more --nodes",
            entries.len(),
            a.count
        );
    }
    0
}

/// The stem of `--out`: the path without a final `.txt` (`--out suite` and
/// `--out suite.txt` both write `suite.txt`, `suite.pos.txt`, `suite.offset.txt`).
fn out_stem(out: &std::path::Path) -> PathBuf {
    match out.to_str().and_then(|s| s.strip_suffix(".txt")) {
        Some(stem) if !stem.is_empty() && !stem.ends_with('/') => PathBuf::from(stem),
        _ => out.to_path_buf(),
    }
}

/// The suite's parameters from the arguments.
///
/// Errors: one line for a bad rule, size, stone counts or count.
fn suite_params(a: &GenerateArgs) -> Result<SuiteParams, String> {
    let rule = Rule::parse_explained(&a.rule)?;
    if crate::core::check_size(a.size, a.size).is_err() {
        return Err(format!("unsupported board size {}", a.size));
    }
    let mut p = SuiteParams::new(rule, a.size);
    p.count = a.count;
    p.seed = a.seed;
    p.nodes = a.nodes.max(1);
    p.max_abs_score = a.max_score.max(0);
    if let Some(m) = a.min_stones {
        p.min_stones = m;
    }
    if let Some(m) = a.max_stones {
        p.max_stones = m;
    }
    if a.free_start {
        p.renju26 = false;
    }
    if p.renju26 && p.min_stones < 3 {
        p.min_stones = 3;
    }
    if p.min_stones == 0 || p.min_stones > p.max_stones || p.max_stones > a.size * a.size / 2 {
        return Err("stone counts must satisfy 1 <= --min-stones <= --max-stones".to_string());
    }
    if a.count == 0 {
        return Err("--count must be at least 1".to_string());
    }
    Ok(p)
}

/// The comment lines that open a suite file: the command that made it and the format.
fn suite_header(a: &GenerateArgs, p: &SuiteParams) -> String {
    let rule = p.rule.name();
    format!(
        "# Balanced {rule} {size}x{size} openings: made by `pbrain-tianyuan openings generate --rule {rule} --size {size} \
         --count {} --seed {} --nodes {} --max-score {}` (docs/openings.md §3).\n\
         # Kept when a {}-node search scores the side to move within +-{}; score= is that score \
         (side to move).\n# Format: <name> <size> rule=<rule> moves=<points in move order, black first> score=<s>\n",
        a.count,
        a.seed,
        p.nodes,
        p.max_abs_score,
        p.nodes,
        p.max_abs_score,
        size = a.size,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_names_a_stem_with_or_without_txt() {
        let stem = |s: &str| out_stem(std::path::Path::new(s));
        assert_eq!(stem("suites/rj"), PathBuf::from("suites/rj"));
        assert_eq!(stem("suites/rj.txt"), PathBuf::from("suites/rj"));
        assert_eq!(stem("rj.pos"), PathBuf::from("rj.pos"));
        // Nothing left before `.txt`: the name is kept as given.
        assert_eq!(stem(".txt"), PathBuf::from(".txt"));
        assert_eq!(stem("dir/.txt"), PathBuf::from("dir/.txt"));
    }
}
