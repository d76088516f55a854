//! One-shot command-line tools: `forbidden`, `analyze`, `solve`, `demo`, and the terminal
//! game [`play`].
//!
//! Each tool reads a position from [`PositionArgs`] (moves, stone sets or a game file),
//! prints plain text or exactly one JSON object, and returns a process exit status: 0 on
//! success, 2 on bad input (with a one-line reason on stderr, never a panic). With
//! [`PictureArgs`] the tools also draw the position: a text diagram on stdout (`--board`) and
//! an SVG file (`--svg FILE`), both with row 1 at the top or, with `--orientation book`, at
//! the bottom (docs/rules.md §1).

pub mod label;
pub mod match_games;
pub mod merge;
pub mod pipe;
pub mod play;
mod position;
pub mod sprt;
pub mod stop;
pub mod winline;

use crate::board::Board;
use crate::core::{
    excerpt, parse_move_text, parse_point_list, parse_size, quote_path, Color, Pos, Rule,
};
use crate::engine::{Engine, Options};
use crate::gamefile::{read_game, replay, GameEnd, GameFormat, GameRecordText};
use crate::search::{Limits, SearchResult};
use crate::time::Budget;
use crate::view::{diagram, stdout_wants_color, svg::to_svg, Marks, Orientation};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

pub mod fourcolour;

pub use position::{position_caption, write_text, PictureArgs, Position, PositionArgs, Setup};

/// Exit status for bad input.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Board side used when neither `--size` nor a game file gives one.
pub const DEFAULT_SIZE: usize = 15;

/// Rule used when neither `--rule` nor a game file names one (docs/tools.md, "Positions").
pub const DEFAULT_RULE: Rule = Rule::Renju;

/// Longest time limit a tool accepts, in milliseconds (a day).
pub const MAX_TIME_MS: u64 = 86_400_000;

/// Largest transposition table a tool accepts, in MiB (64 GiB).
pub const MAX_HASH_MB: usize = 65_536;

/// The one check of a time limit in milliseconds, for every tool and the web API: `ms` must
/// be 1..=`max` (0 is not "no limit" anywhere). `name` is the flag or field
/// (`--time-ms`, `time_ms`).
///
/// Errors: `<name> must be 1..=<max> (milliseconds)`.
pub fn check_time_ms(name: &str, ms: u64, max: u64) -> Result<u64, String> {
    if (1..=max).contains(&ms) {
        Ok(ms)
    } else {
        Err(format!("{name} must be 1..={max} (milliseconds)"))
    }
}

/// The one check of a thread count, for every tool and the web API: `None` is every core
/// ([`crate::engine::max_threads`]), a count of 1 or more is capped at `cap` (the hardware
/// threads, or a server's limit).
///
/// Errors: 0, as `<name> must be at least 1 (default: every core)`.
pub fn check_threads(name: &str, threads: Option<usize>, cap: usize) -> Result<usize, String> {
    match threads {
        None => Ok(cap.max(1)),
        Some(0) => Err(format!("{name} must be at least 1 (default: every core)")),
        Some(t) => Ok(t.min(cap.max(1))),
    }
}

/// The one check of a transposition table size in MiB, for every tool and `serve`:
/// 1..=[`MAX_HASH_MB`]; returns bytes.
///
/// Errors: `<name> must be 1..=65536 (MiB)`.
pub fn check_hash_mb(name: &str, mb: usize) -> Result<usize, String> {
    if (1..=MAX_HASH_MB).contains(&mb) {
        Ok(mb << 20)
    } else {
        Err(format!("{name} must be 1..={MAX_HASH_MB} (MiB)"))
    }
}

/// `forbidden`: black's forbidden points of a position.
#[derive(Args, Debug, Clone)]
pub struct ForbiddenArgs {
    #[command(flatten)]
    /// The position (the rule is always renju for this tool).
    pub pos: PositionArgs,
    #[command(flatten)]
    /// Diagram and SVG picture.
    pub picture: PictureArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `forbidden`; returns the exit status. Text output is one `point kind` line per
/// forbidden point, or `no forbidden point` when there is none, after a `note: the game is
/// over: ...` line when the position is finished (JSON: a `note` key).
pub fn forbidden(args: &ForbiddenArgs) -> i32 {
    let mut pos = args.pos.clone();
    if let Some(r) = &pos.rule {
        match Rule::parse_explained(r) {
            Ok(Rule::Renju) => {}
            Ok(r) => {
                return bad_input(&format!(
                    "forbidden points exist only under renju, not {}",
                    r
                ))
            }
            Err(e) => return bad_input(&e),
        }
    }
    pos.rule = Some("renju".into());
    if let Err(e) = args.picture.check(args.json) {
        return bad_input(&e);
    }
    let (setup, position) = match forbidden_position(&pos) {
        Ok(sp) => sp,
        Err(e) => return bad_input(&e),
    };
    // Forbidden points are black's whatever happened elsewhere: a finished position (a
    // five, black's foul) is answered, with a note.
    let over = position.over().map(|why| {
        format!("the game is over: {why} (the points are black's, as the stones stand)")
    });
    let notes: Vec<String> = setup.rule_note.iter().cloned().chain(over).collect();
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    let board = position.board;
    let points = board.forbidden_points();
    if args.json {
        let mut v = forbidden_json(&board);
        if let Some(n) = &note {
            v["note"] = n.as_str().into();
        }
        println!("{v}");
    } else {
        if let Some(n) = &note {
            println!("note: {n}");
        }
        if points.is_empty() {
            println!("no forbidden point");
        }
        for (p, k) in &points {
            println!("{} {}", p, k.name());
        }
    }
    let marks = Marks {
        last_move: setup.stones.is_none(),
        forbidden: points.clone(),
        caption: Some(format!(
            "{}; {} forbidden point{} for black",
            position_caption(&board),
            points.len(),
            if points.len() == 1 { "" } else { "s" }
        )),
        ..Marks::default()
    };
    if let Err(e) = args.picture.draw(&board, &marks) {
        return bad_input(&e);
    }
    0
}

/// The position of `forbidden`: as every tool reads it, except that stone sets whose counts
/// no game has are taken with black to move without `--to-move` (forbidden points are
/// black's whatever the side to move).
///
/// Errors: the one-line reasons of [`PositionArgs::setup`] and [`Setup::position`].
fn forbidden_position(pos: &PositionArgs) -> Result<(Setup, Position), String> {
    let setup = match pos.setup() {
        Ok(s) => s,
        Err(_) if pos.to_move.is_none() && (pos.black.is_some() || pos.white.is_some()) => {
            let mut black_to_move = pos.clone();
            black_to_move.to_move = Some("black".into());
            black_to_move.setup()?
        }
        Err(e) => return Err(e),
    };
    let position = setup.position()?;
    Ok((setup, position))
}

/// Prints a one-line reason on stderr and returns [`EXIT_BAD_INPUT`]. Control characters
/// left in `reason` are escaped (a last guard: quoted input is already an [`excerpt`]).
pub fn bad_input(reason: &str) -> i32 {
    let line: String = reason
        .replace(['\r', '\n'], " ")
        .chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    eprintln!("error: {line}");
    EXIT_BAD_INPUT
}

/// The exit status of a tool that returns a typed error: 0 on success, else the error printed
/// by [`bad_input`] (status [`EXIT_BAD_INPUT`]).
pub fn exit_status<E: std::fmt::Display>(result: Result<(), E>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => bad_input(&e.to_string()),
    }
}

/// `analyze`: search a position and report the best move.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    /// The position.
    pub pos: PositionArgs,
    #[command(flatten)]
    /// Diagram and SVG picture (with the best move and the principal variation).
    pub picture: PictureArgs,
    /// Time limit in milliseconds, 1..=86400000 (default 1000 unless --depth is given).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Fixed depth in plies, 1..=100 (with no --time-ms, no time limit: deep searches can
    /// take hours; Ctrl-C stops one and prints its last completed iteration).
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search threads, at least 1 (default: all cores; capped at the hardware threads).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB, 1..=65536.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Principal variations to report (multi-PV), 1..=64: the best K moves, each with its
    /// score and line.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Four-colour options (`--variant fourcolour`).
    #[command(flatten)]
    pub four: fourcolour::FourArgs,
}

/// Why a position cannot be searched: `white has a five` or `the board is full` (read from
/// the stones; [`Position::over`] also knows black's fouls).
pub fn game_over_reason(board: &Board) -> Option<String> {
    if let Some(c) = board.winner() {
        return Some(format!("{} has a five", c.name()));
    }
    if board.is_full() {
        return Some("the board is full".into());
    }
    None
}

/// Depths above this, with no time limit, get a line on stderr saying how to stop the search.
const DEEP: i32 = 20;

/// Runs `analyze`; returns the exit status: 0, 2 on bad input, [`stop::EXIT_STOPPED`] when
/// Ctrl-C (SIGTERM, SIGHUP) stopped the search (its last completed iteration is printed).
pub fn analyze(args: &AnalyzeArgs) -> i32 {
    // The same checks for both variants (issue 34: one meaning, one check, one message).
    let options = match engine_options(args.threads, args.hash_mb) {
        Ok(o) => o,
        Err(e) => return bad_input(&e),
    };
    if let Some(t) = args.time_ms {
        if let Err(e) = check_time_ms("--time-ms", t, MAX_TIME_MS) {
            return bad_input(&e);
        }
    }
    if let Some(code) = fourcolour::analyze_if_four(args) {
        return code;
    }
    if let Err(e) = args.picture.check(args.json) {
        return bad_input(&e);
    }
    let setup = match args.pos.setup() {
        Ok(s) => s,
        Err(e) => return bad_input(&e),
    };
    let board = match setup.position().and_then(Position::playable) {
        Ok(b) => b,
        Err(e) => return bad_input(&e),
    };
    if let Some(d) = args.depth {
        if !(1..=100).contains(&d) {
            return bad_input("--depth must be 1..=100");
        }
    }
    if !(1..=crate::engine::MAX_MULTIPV).contains(&args.multipv) {
        return bad_input(&format!(
            "--multipv must be 1..={}",
            crate::engine::MAX_MULTIPV
        ));
    }
    print_rule_note(&setup, args.json);
    let mut engine = Engine::new(options);
    // Resident before the clock starts: page faults would slow a multi-threaded search.
    engine.prefault();
    let limits = Limits {
        budget: analyze_budget(args.time_ms, args.depth),
        max_depth: args.depth,
        multipv: args.multipv,
        ..Limits::default()
    };
    let stop = stop::flag_raised_by_signals();
    if args.time_ms.is_none() && args.depth.is_some_and(|d| d > DEEP) {
        eprintln!(
            "analyze: searching to depth {} with no time limit; Ctrl-C stops and prints the \
             last completed iteration",
            args.depth.unwrap_or_default()
        );
    }
    let r = engine.think(&board, &limits, stop, &mut |_| {});
    print_result_noted(&r, &board, args.json, setup.rule_note.as_deref());
    let code = if stop::stopped() {
        eprintln!("analyze: interrupted: the result is that of the last completed iteration");
        stop::EXIT_STOPPED
    } else {
        0
    };
    let marks = Marks {
        line: r.pv.clone(),
        best: Some(r.best),
        caption: Some(format!(
            "{}; best {}, {}, depth {}",
            position_caption(&board),
            r.best,
            score_text(r.score),
            r.depth
        )),
        // Stone sets have no last move.
        last_move: setup.stones.is_none(),
        ..Marks::for_position(&board)
    };
    if let Err(e) = args.picture.draw(&board, &marks) {
        return bad_input(&e);
    }
    code
}

/// The engine options of `--threads` and `--hash-mb`, checked by [`check_threads`] and
/// [`check_hash_mb`].
///
/// Errors: their one-line reasons.
pub fn engine_options(threads: Option<usize>, hash_mb: usize) -> Result<Options, String> {
    Ok(Options {
        threads: check_threads("--threads", threads, crate::engine::max_threads())?,
        hash_bytes: check_hash_mb("--hash-mb", hash_mb)?,
    })
}

/// Prints the [`Setup::rule_note`] as a `note: ...` line before a text answer (a JSON
/// answer carries it as its `note` field instead).
pub fn print_rule_note(setup: &Setup, json: bool) {
    if let (Some(note), false) = (&setup.rule_note, json) {
        println!("note: {note}");
    }
}

/// `N ply` or `N plies`.
pub fn plies(n: i32) -> String {
    if n.abs() == 1 {
        format!("{n} ply")
    } else {
        format!("{n} plies")
    }
}

/// A score for people, from the side to move's view: `win in N plies` (`win in 1 ply`),
/// `loss in N plies` or the number (evaluation units; see [`crate::eval::WIN`]).
pub fn score_text(score: i32) -> String {
    match crate::search::mate_plies(score) {
        Some(n) if n > 0 => format!("win in {}", plies(n)),
        Some(n) => format!("loss in {}", plies(-n)),
        None => format!("score {score}"),
    }
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

/// The JSON object of the `analyze` tool (also the web board's `POST /api/analyze`) for the
/// search `r` of `board`:
/// `{"move","score","static","win_in","depth","nodes","vcf_nodes","nps","time_ms","pv"}` with
/// points in notation, the score in evaluation units from the side to move's view, `static`
/// the static evaluation of `board` in the same units and view (no search: what the search's
/// leaves start from; docs/training.md §3), `win_in` the
/// plies to a forced win (negative: loss) or null, `nodes` the main-search nodes and
/// `vcf_nodes` the threat-solver nodes (docs/strength.md §5), `nps` main-search nodes per
/// second, `time_ms` in milliseconds. With multi-PV lines it
/// also has `"lines":[{"move":..,"score":..,"pv":[..]},..]`, best first.
pub fn result_json(r: &SearchResult, board: &Board) -> serde_json::Value {
    let mut v = serde_json::json!({
        "move": r.best.to_notation(),
        "score": r.score,
        "static": crate::eval::evaluate(board),
        "win_in": r.win_in(),
        "depth": r.depth,
        "nodes": r.nodes,
        "vcf_nodes": r.vcf_nodes,
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

/// Prints the search result `r` of `board` as text or as the JSON object of the `analyze`
/// tool ([`result_json`]). With multi-PV lines, text gets one `line K score S pv ...` row per
/// line.
pub fn print_result(r: &SearchResult, board: &Board, json: bool) {
    print_result_noted(r, board, json, None)
}

/// [`print_result`], with the JSON object carrying `note` (the [`Setup::rule_note`]) when
/// there is one.
fn print_result_noted(r: &SearchResult, board: &Board, json: bool, note: Option<&str>) {
    let notation = notation_list;
    let pv = notation(&r.pv);
    if json {
        let mut v = result_json(r, board);
        if let Some(n) = note {
            v["note"] = n.into();
        }
        println!("{v}");
    } else {
        println!("move {}", r.best);
        match r.win_in() {
            Some(n) if n > 0 => println!("score win in {}", plies(n)),
            Some(n) => println!("score loss in {}", plies(-n)),
            None => println!("score {}", r.score),
        }
        println!("static {}", crate::eval::evaluate(board));
        println!("depth {}", r.depth);
        println!("nodes {}", r.nodes);
        println!("vcf_nodes {}", r.vcf_nodes);
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

/// Arguments of `pbrain-tianyuan solve`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    /// The position.
    pub pos: PositionArgs,
    /// Search for a VCT (continuous threats) instead of a VCF.
    #[arg(long)]
    pub vct: bool,
    /// Time limit in milliseconds, 1..=86400000.
    #[arg(long, default_value_t = 5000)]
    pub time_ms: u64,
    /// Threads, at least 1 (default: all cores; capped at the hardware threads). A VCT runs
    /// one solver per thread, each starting with a different pass (at most 3 are useful);
    /// a VCF uses one thread.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory cap of the VCT solvers together, in MiB (default and 0: none); a solve that
    /// would pass it answers `unknown`. Each solver needs a fixed 8 MiB plus its growing
    /// proof table.
    #[arg(long)]
    pub memory_mb: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `solve`: the threat solver's arguments plus pictures.
#[derive(Args, Debug, Clone)]
pub struct SolveCliArgs {
    #[command(flatten)]
    /// Position, solver and output options.
    pub solve: SolveArgs,
    #[command(flatten)]
    /// Diagram and SVG picture (with the winning line).
    pub picture: PictureArgs,
}

/// Runs `solve`; returns the exit status (0, or 2 on bad input, a finished game included,
/// with one line on stderr).
pub fn solve(args: &SolveCliArgs) -> i32 {
    use crate::search::threat::{solve_with_stop, SolveLimits, SolveResult};
    let a = &args.solve;
    if let Err(e) = args.picture.check(a.json) {
        return bad_input(&e);
    }
    let setup = match a.pos.setup() {
        Ok(s) => s,
        Err(e) => return bad_input(&e),
    };
    let board = match setup.position().and_then(Position::playable) {
        Ok(b) => b,
        Err(e) => return bad_input(&e),
    };
    let threads = match check_threads("--threads", a.threads, crate::engine::max_threads()) {
        Ok(t) => t,
        Err(e) => return bad_input(&e),
    };
    if let Err(e) = check_time_ms("--time-ms", a.time_ms, MAX_TIME_MS) {
        return bad_input(&e);
    }
    print_rule_note(&setup, a.json);
    let limits = SolveLimits {
        threads,
        memory_bytes: match a.memory_mb {
            None | Some(0) => usize::MAX,
            Some(mb) => mb.saturating_mul(1 << 20),
        },
        ..SolveLimits::time(a.time_ms)
    };
    let report = solve_with_stop(&board, a.vct, &limits, &AtomicBool::new(false));
    let line = winline::to_five(&board, &report.line);
    if a.json {
        let mut v = winline::report_json(&report, &line);
        if let Some(n) = &setup.rule_note {
            v["note"] = n.as_str().into();
        }
        println!("{v}");
    } else {
        print!("{}", winline::report_text(&report, &line));
    }
    let kind = if a.vct { "VCT" } else { "VCF" };
    let verdict = match report.result {
        SolveResult::Win => format!("{} wins by {kind}", board.side_to_move().name()),
        SolveResult::None => format!("no {kind}"),
        SolveResult::Unknown => format!("{kind} unknown (time ran out)"),
    };
    let marks = Marks {
        line,
        caption: Some(format!("{}; {verdict}", position_caption(&board))),
        last_move: setup.stones.is_none(),
        ..Marks::for_position(&board)
    };
    if let Err(e) = args.picture.draw(&board, &marks) {
        return bad_input(&e);
    }
    0
}

/// `demo`: a short engine-against-itself game from a built-in opening, printed as it goes.
#[derive(Args, Debug, Clone)]
pub struct DemoArgs {
    /// Rule: freestyle (0), standard (1), renju (4), caro (8) or caro-exact (9).
    #[arg(long, default_value = "renju")]
    pub rule: String,
    /// Board size: N or WxH.
    #[arg(long, default_value = "15")]
    pub size: String,
    /// Milliseconds of thinking per move, 1..=86400000.
    #[arg(long, default_value_t = 200)]
    pub move_ms: u64,
    /// Stop after the engine has played this many moves (the three opening stones not
    /// counted; 0: play to the end).
    #[arg(long, default_value_t = 0)]
    pub max_moves: usize,
    /// Wait this many milliseconds after each move, to follow the game.
    #[arg(long, default_value_t = 0)]
    pub pause_ms: u64,
    /// Save the game when it ends: psq for .psq, SGF for .sgf, a move list for .txt (other
    /// names are refused); every format records the rule.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Which way up to draw the board: screen (row 1 at the top) or book (row 1 at the
    /// bottom, as renju books); docs/rules.md §1.
    #[arg(long, value_enum, default_value_t = Orientation::Screen)]
    pub orientation: Orientation,
}

/// Runs `demo`; returns the exit status. On a terminal the board is redrawn in place;
/// otherwise each position is printed after the previous one.
pub fn demo(args: &DemoArgs) -> i32 {
    let (mut board, save) = match demo_setup(args) {
        Ok(s) => s,
        Err(e) => return bad_input(&e),
    };
    let color = stdout_wants_color();
    let (w, h) = (board.width(), board.height());
    let title = format!(
        "Tianyuan demo: {} on {}x{}, {} ms per move",
        board.rule(),
        w,
        h,
        args.move_ms
    );
    let redraw = |board: &Board, status: &str| {
        let marks = Marks {
            orientation: args.orientation,
            ..Marks::for_position(board)
        };
        let picture = diagram(board, &marks, color);
        if color {
            // A terminal: draw over the previous board instead of scrolling.
            print!("\x1b[H\x1b[2J{title}\n{picture}{status}\n");
        } else {
            print!("{status}\n{picture}");
        }
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
    };
    if !color {
        println!("{title}");
    }
    redraw(&board, "opening: 3 stones");
    let result_text = demo_game(args, &mut board, &redraw);
    if let Some((path, format)) = save {
        let g = GameRecordText {
            width: w,
            height: h,
            rule: board.rule(),
            black: "Tianyuan",
            white: "Tianyuan",
            moves: board.moves(),
            result: &result_text,
        };
        let text = crate::gamefile::game_text(format, &g);
        if let Err(e) = write_text(path, &text) {
            return bad_input(&e);
        }
        println!("saved {}", path.display());
    }
    0
}

/// Where a game is to be saved, and in which format.
type SaveTo<'a> = (&'a PathBuf, GameFormat);

/// The board of a demo (the opening played: the centre, then the Kagetsu (D4) shape
/// scaled to the board centre) and where to save the game, from the arguments.
///
/// Errors: one line for a bad rule, size, move time or save path (the save path is
/// checked by writing it empty, so that the game does not end in a failure).
fn demo_setup(args: &DemoArgs) -> Result<(Board, Option<SaveTo<'_>>), String> {
    let rule = Rule::parse_explained(&args.rule)?;
    let (w, h) = parse_size(&args.size).map_err(|e| e.to_string())?;
    let mut board = Board::new(w, h, rule).map_err(|e| e.to_string())?;
    check_time_ms("--move-ms", args.move_ms, MAX_TIME_MS)?;
    let save = match &args.save {
        Some(path) => {
            let format = GameFormat::for_path(path)?;
            write_text(path, "")?;
            Some((path, format))
        }
        None => None,
    };
    let (cx, cy) = (w / 2, h / 2);
    for (dx, dy) in [(0usize, 0usize), (0, 1), (1, 1)] {
        board.make(Pos::new(cx + dx, cy + dy));
    }
    Ok((board, save))
}

/// Plays the demo game on `board` until it ends or `--max-moves`, drawing the board after
/// every move; returns the result as the game files write it (`B+`, `W+`, `0`, or empty
/// when stopped).
fn demo_game(args: &DemoArgs, board: &mut Board, redraw: &dyn Fn(&Board, &str)) -> String {
    let mut engine = Engine::new(Options {
        hash_bytes: 32 << 20,
        ..Options::default()
    });
    let stop = AtomicBool::new(false);
    let mut played = 0;
    loop {
        if args.max_moves > 0 && played >= args.max_moves {
            println!("stopped after {} moves", played);
            return String::new();
        }
        let limits = Limits {
            budget: Budget::fixed(args.move_ms),
            ..Limits::default()
        };
        let r = engine.think(board, &limits, &stop, &mut |_| {});
        if r.best.is_none() {
            println!("board full: draw");
            return "0".into();
        }
        let mover = board.side_to_move();
        let result = board.result_of_move(r.best);
        board.make(r.best);
        played += 1;
        let status = format!(
            "{}. {} {}  (depth {}, {}, {} nodes)",
            board.ply(),
            mover.name(),
            r.best,
            r.depth,
            score_text(r.score),
            r.nodes
        );
        redraw(board, &status);
        match result {
            Some(crate::board::GameResult::Win(c)) => {
                println!("{} wins", c.name());
                return if c == Color::Black { "B+" } else { "W+" }.into();
            }
            Some(crate::board::GameResult::Draw) => {
                println!("draw");
                return "0".into();
            }
            None => {}
        }
        if args.pause_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(args.pause_ms));
        }
    }
}

/// The budget of an `analyze` search: `--time` milliseconds; with only `--depth`, no time
/// limit; with neither, one second.
pub(crate) fn analyze_budget(time_ms: Option<u64>, depth: Option<i32>) -> Budget {
    match (time_ms, depth) {
        (Some(t), _) => Budget::fixed(t),
        (None, Some(_)) => Budget::UNLIMITED,
        (None, None) => Budget::fixed(1000),
    }
}
