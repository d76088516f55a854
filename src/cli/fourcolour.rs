//! `analyze --variant fourcolour`: the best move of a four-colour position
//! (`docs/fourcolour.md` §6).
//!
//! The position is `--stones h8:1,h9:2,...`: points in play order, each with its colour
//! (1 black, 2 white, 3 purple, 4 green; the colour may be left out, since the order fixes
//! it, but when given it must be the one the cyclic order requires). `--mode` sets the
//! owners, `--size` the board (`N` or `WxH`), `--exact-five` (or `--rule standard`) the
//! exact-five option. The search runs on one thread for `--time-ms` (default 1000) or to
//! `--depth`.

use super::{bad_input, AnalyzeArgs};
use crate::core::parse_point;
use crate::fourcolour::search::Limits;
use crate::fourcolour::{Color, FourBoard, Mode, Searcher};
use clap::Args;
use std::sync::atomic::AtomicBool;

/// The four-colour options of `analyze`.
#[derive(Args, Debug, Clone, Default)]
pub struct FourArgs {
    /// Game variant: standard (two colours) or fourcolour (also fourcolor: four-colour
    /// gomoku, docs/fourcolour.md).
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// Four-colour ownership mode: 2p, 1v2, 1v3, 2v2 or ffa.
    #[arg(long, default_value = "2p")]
    pub mode: String,
    /// Four-colour stones in play order, `h8:1,h9:2,i10:3` (colour 1 black, 2 white,
    /// 3 purple, 4 green; optional, but checked against the cyclic order when given).
    #[arg(long, allow_hyphen_values = true)]
    pub stones: Option<String>,
    /// Four-colour: only an exact one-colour five wins (a run of six or more does not).
    #[arg(long)]
    pub exact_five: bool,
}

/// Parses `--stones`: `point[:colour]` items separated by commas (`-` or empty: none), on a
/// `w` x `h` board, as `(x, y, colour number)` in play order.
///
/// Errors: a one-line reason naming the bad item.
pub fn parse_stones(text: &str, w: usize, h: usize) -> Result<Vec<(i64, i64, i64)>, String> {
    let t = text.trim();
    if t.is_empty() || t == "-" {
        return Ok(Vec::new());
    }
    t.split(',')
        .enumerate()
        .map(|(i, item)| {
            let item = item.trim();
            let (point, color) = match item.split_once(':') {
                Some((p, c)) => {
                    let c = Color::parse(c).ok_or_else(|| {
                        format!(
                            "bad colour in '{}': 1 black, 2 white, 3 purple or 4 green",
                            item
                        )
                    })?;
                    (p, c)
                }
                None => (item, Color::of_ply(i)),
            };
            let p = parse_point(point, w, h).map_err(|e| e.to_string())?;
            Ok((p.x() as i64, p.y() as i64, color.number() as i64))
        })
        .collect()
}

/// Runs the four-colour `analyze` when `--variant` asks for it: `Some(exit status)`;
/// `None` for a two-colour analysis (after checking that no four-colour option was given).
pub fn analyze_if_four(args: &AnalyzeArgs) -> Option<i32> {
    let f = &args.four;
    match f.variant.trim().to_ascii_lowercase().as_str() {
        "standard" => {
            if f.stones.is_some() || f.exact_five || f.mode != "2p" {
                return Some(bad_input(
                    "--stones, --mode and --exact-five need --variant fourcolour",
                ));
            }
            None
        }
        "fourcolour" | "fourcolor" => Some(analyze(args)),
        other => Some(bad_input(&format!(
            "unknown variant '{}': standard or fourcolour",
            other
        ))),
    }
}

fn analyze(args: &AnalyzeArgs) -> i32 {
    let f = &args.four;
    let p = &args.pos;
    if p.moves.is_some()
        || p.black.is_some()
        || p.white.is_some()
        || p.to_move.is_some()
        || p.file.is_some()
        || p.ply.is_some()
    {
        return bad_input(
            "four-colour positions are given with --stones, not --moves/--black/--white/--file",
        );
    }
    let exact_five = match p.rule.as_deref().map(crate::core::Rule::parse) {
        None | Some(Some(crate::core::Rule::Freestyle)) => f.exact_five,
        Some(Some(crate::core::Rule::Standard)) => true,
        _ => {
            return bad_input(
                "four-colour games are freestyle (five or more) or standard (exact five)",
            )
        }
    };
    if args.multipv != 1 {
        return bad_input("--multipv is not available in the four-colour variant");
    }
    let Some(mode) = Mode::parse(&f.mode) else {
        return bad_input(&format!(
            "unknown mode '{}': 2p, 1v2, 1v3, 2v2 or ffa",
            f.mode
        ));
    };
    if let Some(d) = args.depth {
        if !(1..=60).contains(&d) {
            return bad_input("--depth must be 1..=60 in the four-colour variant");
        }
    }
    let (w, h) = match crate::core::parse_size(p.size.as_deref().unwrap_or("15")) {
        Ok(s) => s,
        Err(e) => return bad_input(&e.to_string()),
    };
    let stones = match parse_stones(f.stones.as_deref().unwrap_or(""), w, h) {
        Ok(s) => s,
        Err(e) => return bad_input(&e),
    };
    let board = match FourBoard::from_stones(w, h, mode, exact_five, &stones) {
        Ok(b) => b,
        Err(e) => return bad_input(&e.to_string()),
    };
    if board.is_full() {
        return bad_input("the board is full");
    }
    let limits = Limits {
        budget: super::analyze_budget(args.time_ms, args.depth),
        max_depth: args.depth,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash_mb.clamp(1, 1024) << 20);
    let stop = AtomicBool::new(false);
    let r = searcher.search(&board, &limits, &stop, &mut |_| {});
    let c = board.to_move();
    let player = mode.owner(c);
    let pv: Vec<String> = r.pv.iter().map(|p| p.to_notation()).collect();
    if args.json {
        let v = serde_json::json!({
            "variant": "fourcolour",
            "mode": mode.name(),
            "to_move": c.name(),
            "player": player + 1,
            "team": mode.team(player) + 1,
            "move": r.best.to_notation(),
            "score": r.score,
            "win_in": r.win_in(),
            "depth": r.depth,
            "nodes": r.nodes,
            "time_ms": r.time_ms,
            "pv": pv,
        });
        println!("{}", v);
    } else {
        println!("variant fourcolour mode {}", mode.name());
        println!("to_move {} ({})", c.name(), mode.describe_player(player));
        println!("move {}", r.best);
        match r.win_in() {
            Some(k) if k > 0 => println!("score win in {} plies", k),
            Some(k) => println!("score loss in {} plies", -k),
            None => println!("score {}", r.score),
        }
        println!("depth {}", r.depth);
        println!("nodes {}", r.nodes);
        println!("time_ms {}", r.time_ms);
        println!("pv {}", pv.join(" "));
    }
    0
}
