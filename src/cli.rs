//! One-shot command-line tools: `forbidden`, `analyze`, `bench`, `demo`.
//!
//! Each tool reads a position from [`PositionArgs`], prints plain text or exactly one JSON
//! object, and returns a process exit status: 0 on success, 2 on bad input (with a one-line
//! reason on stderr, never a panic).

use crate::board::Board;
use crate::core::{parse_point_list, Color, Pos, Rule};
use crate::engine::{Engine, Options};
use crate::search::{Limits, SearchResult};
use crate::time::Budget;
use clap::Args;
use std::sync::atomic::AtomicBool;

/// Exit status for bad input.
pub const EXIT_BAD_INPUT: i32 = 2;

/// A position given on the command line.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Rule: freestyle, standard, renju, caro, caro-exact (or a Gomocup rule number).
    #[arg(long, default_value = "renju")]
    pub rule: String,
    /// Board size N (N x N), 5..=22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Moves played alternately from black, comma-separated notation (h8,h9,i10).
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Black stones as a set (comma-separated notation; "-" for none).
    #[arg(long, allow_hyphen_values = true)]
    pub black: Option<String>,
    /// White stones as a set (comma-separated notation; "-" for none).
    #[arg(long, allow_hyphen_values = true)]
    pub white: Option<String>,
    /// Side to move with --black/--white (default: black if the counts are equal, else
    /// white).
    #[arg(long)]
    pub to_move: Option<String>,
}

impl PositionArgs {
    /// Builds the board.
    ///
    /// Errors: a one-line reason (bad rule, size, point, occupied point, missing stones).
    pub fn board(&self) -> Result<Board, String> {
        let rule =
            Rule::parse(&self.rule).ok_or_else(|| format!("unknown rule '{}'", self.rule))?;
        let n = self.size;
        let mut board = Board::new(n, n, rule).map_err(|e| e.to_string())?;
        match (&self.moves, &self.black, &self.white) {
            (Some(m), None, None) => {
                let moves = parse_point_list(m, n, n).map_err(|e| e.to_string())?;
                board.play_all(&moves).map_err(|e| e.to_string())?;
                if self.to_move.is_some() {
                    return Err("--to-move goes with --black/--white, not --moves".into());
                }
            }
            (None, b, w) if b.is_some() || w.is_some() => {
                let black = parse_point_list(b.as_deref().unwrap_or("-"), n, n)
                    .map_err(|e| e.to_string())?;
                let white = parse_point_list(w.as_deref().unwrap_or("-"), n, n)
                    .map_err(|e| e.to_string())?;
                let to_move = match &self.to_move {
                    Some(s) => Color::parse(s)
                        .ok_or_else(|| format!("bad --to-move '{}': black or white", s))?,
                    None if black.len() > white.len() => Color::White,
                    None => Color::Black,
                };
                board = Board::from_stones_to_move(n, n, rule, &black, &white, to_move)
                    .map_err(|e| e.to_string())?;
            }
            (None, None, None) => {}
            _ => return Err("give either --moves or --black/--white, not both".into()),
        }
        Ok(board)
    }
}

/// `forbidden`: black's forbidden points of a position.
#[derive(Args, Debug, Clone)]
pub struct ForbiddenArgs {
    #[command(flatten)]
    /// The position (the rule is always renju for this tool).
    pub pos: PositionArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `forbidden`; returns the exit status.
pub fn forbidden(args: &ForbiddenArgs) -> i32 {
    let mut pos = args.pos.clone();
    match Rule::parse(&pos.rule) {
        Some(Rule::Renju) => {}
        Some(r) => {
            return bad_input(&format!(
                "forbidden points exist only under renju, not {}",
                r
            ))
        }
        None => return bad_input(&format!("unknown rule '{}'", pos.rule)),
    }
    pos.rule = "renju".into();
    let board = match pos.board() {
        Ok(b) => b,
        Err(e) => return bad_input(&e),
    };
    if args.json {
        println!("{}", forbidden_json(&board));
    } else {
        for (p, k) in &board.forbidden_points() {
            println!("{} {}", p, k.name());
        }
    }
    0
}

/// Prints a one-line reason on stderr and returns [`EXIT_BAD_INPUT`].
pub fn bad_input(reason: &str) -> i32 {
    eprintln!("error: {}", reason.replace('\n', " "));
    EXIT_BAD_INPUT
}

/// `analyze`: search a position and report the best move.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    /// The position.
    pub pos: PositionArgs,
    /// Time limit in milliseconds (default 1000 unless --depth is given).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Fixed depth in plies.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Principal variations to report (multi-PV), 1..=64: the best K moves, each with its
    /// score and line.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `analyze`; returns the exit status.
pub fn analyze(args: &AnalyzeArgs) -> i32 {
    let board = match args.pos.board() {
        Ok(b) => b,
        Err(e) => return bad_input(&e),
    };
    if board.is_full() {
        return bad_input("the board is full");
    }
    if let Some(c) = board.winner() {
        return bad_input(&format!("the game is over: {} has a five", c.name()));
    }
    if let Some(d) = args.depth {
        if !(1..=100).contains(&d) {
            return bad_input("--depth must be 1..=100");
        }
    }
    if !(1..=crate::protocol::session::MAX_MULTIPV).contains(&args.multipv) {
        return bad_input(&format!(
            "--multipv must be 1..={}",
            crate::protocol::session::MAX_MULTIPV
        ));
    }
    let mut options = Options {
        hash_bytes: args.hash_mb.clamp(1, 65536) << 20,
        ..Options::default()
    };
    if let Some(t) = args.threads {
        options.threads = t.clamp(1, 256);
    }
    let mut engine = Engine::new(options);
    // Resident before the clock starts: page faults would slow a multi-threaded search.
    engine.prefault();
    let limits = Limits {
        budget: match (args.time_ms, args.depth) {
            (Some(t), _) => Budget::fixed(t),
            (None, Some(_)) => Budget::UNLIMITED,
            (None, None) => Budget::fixed(1000),
        },
        max_depth: args.depth,
        multipv: args.multipv,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let r = engine.think(&board, &limits, &stop, &mut |_| {});
    print_result(&r, args.json);
    0
}

/// The JSON object of the `forbidden` tool (also the web board's `POST /api/forbidden`):
/// `{"forbidden":[{"point":"k8","kind":"overline"},..]}`, black's forbidden points in row
/// order from `a1`, each with its kind (`double-three`, `double-four`, `overline`); empty
/// unless the board's rule is renju.
pub fn forbidden_json(board: &Board) -> serde_json::Value {
    let list: Vec<serde_json::Value> = board
        .forbidden_points()
        .iter()
        .map(|(p, k)| serde_json::json!({"point": p.to_notation(), "kind": k.name()}))
        .collect();
    serde_json::json!({ "forbidden": list })
}

/// Points in notation (`["h8","h9"]`).
fn notation_list(points: &[Pos]) -> Vec<String> {
    points.iter().map(|p| p.to_notation()).collect()
}

/// The JSON object of the `analyze` tool (also the web board's `POST /api/analyze`):
/// `{"move","score","win_in","depth","nodes","nps","time_ms","pv"}` with points in notation,
/// the score in evaluation units from the side to move's view, `win_in` the plies to a
/// forced win (negative: loss) or null, `time_ms` in milliseconds. With multi-PV lines it
/// also has `"lines":[{"move":..,"score":..,"pv":[..]},..]`, best first.
pub fn result_json(r: &SearchResult) -> serde_json::Value {
    let mut v = serde_json::json!({
        "move": r.best.to_notation(),
        "score": r.score,
        "win_in": r.win_in(),
        "depth": r.depth,
        "nodes": r.nodes,
        "nps": r.nps(),
        "time_ms": r.time_ms,
        "pv": notation_list(&r.pv),
    });
    if !r.lines.is_empty() {
        v["lines"] = r
            .lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "move": l.pv.first().map(|p| p.to_notation()),
                    "score": l.score,
                    "pv": notation_list(&l.pv),
                })
            })
            .collect();
    }
    v
}

/// Prints a search result as text or as the JSON object of the `analyze` tool
/// ([`result_json`]). With multi-PV lines, text gets one `line K score S pv ...` row per
/// line.
pub fn print_result(r: &SearchResult, json: bool) {
    let notation = notation_list;
    let pv = notation(&r.pv);
    if json {
        println!("{}", result_json(r));
    } else {
        println!("move {}", r.best);
        match r.win_in() {
            Some(n) if n > 0 => println!("score win in {} plies", n),
            Some(n) => println!("score loss in {} plies", -n),
            None => println!("score {}", r.score),
        }
        println!("depth {}", r.depth);
        println!("nodes {}", r.nodes);
        println!("nps {}", r.nps());
        println!("time_ms {}", r.time_ms);
        println!("pv {}", pv.join(" "));
        for (k, l) in r.lines.iter().enumerate() {
            println!(
                "line {} score {} pv {}",
                k + 1,
                l.score,
                notation(&l.pv).join(" ")
            );
        }
    }
}

/// Renders the board with the last move marked, for the demo.
pub fn show(board: &Board) -> String {
    board.render(&[])
}

/// `demo`: a short engine-against-itself game from a built-in opening, printed as it goes.
#[derive(Args, Debug, Clone)]
pub struct DemoArgs {
    /// Rule of the game.
    #[arg(long, default_value = "renju")]
    pub rule: String,
    /// Board size.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 200)]
    pub move_ms: u64,
    /// Stop after this many moves (0: play to the end).
    #[arg(long, default_value_t = 0)]
    pub max_moves: usize,
}

/// Runs `demo`; returns the exit status.
pub fn demo(args: &DemoArgs) -> i32 {
    let Some(rule) = Rule::parse(&args.rule) else {
        return bad_input(&format!("unknown rule '{}'", args.rule));
    };
    let mut board = match Board::new(args.size, args.size, rule) {
        Ok(b) => b,
        Err(e) => return bad_input(&e.to_string()),
    };
    // Opening: the centre, then the Kagetsu (D4) shape scaled to the board centre.
    let (cx, cy) = (args.size / 2, args.size / 2);
    for (dx, dy) in [(0i64, 0i64), (0, 1), (1, 1)] {
        let p = Pos::new((cx as i64 + dx) as usize, (cy as i64 + dy) as usize);
        board.make(p);
    }
    println!(
        "Tianyuan demo: {} on {}x{}, {} ms per move",
        rule, args.size, args.size, args.move_ms
    );
    println!("{}", board.render(&[]));
    let mut engine = Engine::new(Options {
        hash_bytes: 32 << 20,
        ..Options::default()
    });
    let stop = AtomicBool::new(false);
    loop {
        if args.max_moves > 0 && board.ply() >= args.max_moves {
            println!("stopped after {} moves", board.ply());
            break;
        }
        let limits = Limits {
            budget: Budget::fixed(args.move_ms),
            ..Limits::default()
        };
        let r = engine.think(&board, &limits, &stop, &mut |_| {});
        if r.best.is_none() {
            println!("board full: draw");
            break;
        }
        let mover = board.side_to_move();
        let result = board.result_of_move(r.best);
        board.make(r.best);
        println!(
            "{}. {} {}  (depth {}, score {}, {} nodes)",
            board.ply(),
            mover.name(),
            r.best,
            r.depth,
            r.score,
            r.nodes
        );
        println!("{}", board.render(&[]));
        match result {
            Some(crate::board::GameResult::Win(c)) => {
                println!("{} wins", c.name());
                break;
            }
            Some(crate::board::GameResult::Draw) => {
                println!("draw");
                break;
            }
            None => {}
        }
    }
    0
}
