//! `play`: a person plays the engine in the terminal.
//!
//! Moves and commands are read one per line from stdin, so a game can be scripted as well as
//! typed. A move is a point in notation (`h8`) or protocol form (`7,7`). Commands ([`HELP`]
//! explains each): `undo` (takes back the last move of the person, and the engine's answer
//! to it; after a resignation it takes back the resignation only), `hint` (the engine's
//! choice for the person, not played), `resign`, `save FILE` (psq for `.psq`, SGF for
//! `.sgf`, a move list for `.txt`; any other name is refused; every format records the
//! rule), `load FILE` (psq, SGF or a move list, judged as the tools judge a game: a game
//! that ended, by a five or black's foul, is shown as over), `board`, `help`, `quit`. Input
//! that is neither a move nor a command, or a move that is not legal (off the board, on a
//! stone, forbidden to black in renju), is answered with a message that repeats it (as a
//! short escaped [`crate::core::excerpt`]), and nothing changes.
//!
//! After each move the board is drawn ([`crate::view::diagram`], row 1 at the top or, with
//! `--orientation book`, at the bottom): coordinates on every side,
//! the last move in parentheses and, in renju with black to move, black's forbidden points;
//! colours only when stdout is a terminal. The engine's moves come with their score (from
//! the engine's side: `win in N plies`, `loss in N plies`, or evaluation units), depth and
//! line. When the game ends (a five, a renju foul, a full board, a resignation) the result is
//! printed; `undo`, `save`, `load` and `quit` still work.

use super::{bad_input, check_time_ms, engine_options, score_text, PositionArgs, MAX_TIME_MS};
use crate::board::{Board, GameResult};
use crate::core::{excerpt, parse_point, quote_path, Color, Pos, Rule};
use crate::engine::Engine;
use crate::gamefile::{game_text, read_game, replay, GameFormat, GameRecordText};
use crate::search::Limits;
use crate::time::Budget;
use crate::view::{diagram, stdout_wants_color, Marks, Orientation};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Arguments of `pbrain-tianyuan play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    #[command(flatten)]
    /// The starting position (empty board by default).
    pub pos: PositionArgs,
    /// The colour the engine plays: black, white, or none (two people; the engine only gives
    /// hints).
    #[arg(long, default_value = "white")]
    pub engine: String,
    /// The engine's thinking time per move (and per hint), in milliseconds, 1..=86400000.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Search threads, at least 1 (default: all cores; capped at the hardware threads).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB, 1..=65536.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Which way up to draw the board: screen (row 1 at the top) or book (row 1 at the
    /// bottom, as renju books); moves are typed the same either way (docs/rules.md §1).
    #[arg(long, value_enum, default_value_t = Orientation::Screen)]
    pub orientation: Orientation,
}

/// The one-line reminder printed at the start and after input that is not understood.
const USAGE: &str = "Type a move (h8 or 7,7), or a command: undo, hint, resign, save FILE, load FILE, board, help, quit.";

/// What `help` prints: every command with what it does.
pub const HELP: &str = "\
Moves: a point in notation (h8: the column letter and the row number, as the board's
  labels show them) or as x,y from 0 (7,7). Black moves first; in renju black's forbidden points are refused.
Commands:
  undo       take back your last move and the engine's answer to it (after a
             resignation: take back the resignation only)
  hint       show the engine's choice for you, without playing it
  resign     give up the game (undo takes it back)
  save FILE  write the game: FILE.psq (Piskvork), FILE.sgf (SGF) or FILE.txt (move
             list); every format records the rule
  load FILE  read a game from a .psq, SGF or move-list file (a game that has ended is
             shown as over)
  board      draw the board again
  help       this list
  quit       leave (also: exit, q, or the end of input)";

/// One game in progress.
struct Game {
    board: Board,
    engine_color: Option<Color>,
    engine: Engine,
    time_ms: u64,
    /// The result once the game has ended, as a sentence, with the SGF result code.
    over: Option<(String, &'static str)>,
    /// Whether `over` is a resignation (which `undo` takes back without a move).
    resigned: bool,
    color: bool,
    orientation: Orientation,
}

/// Runs `play`; returns the exit status (2 for bad arguments, else 0).
pub fn run(args: &PlayArgs) -> i32 {
    let engine_color = match args.engine.to_ascii_lowercase().as_str() {
        "none" | "no" | "off" => None,
        s => match Color::parse(s) {
            Some(c) => Some(c),
            None => {
                return bad_input(&format!(
                    "bad --engine '{}': black, white or none",
                    args.engine
                ))
            }
        },
    };
    if let Some(r) = &args.pos.rule {
        if let Err(e) = Rule::parse_explained(r) {
            return bad_input(&e);
        }
    }
    let setup = match args.pos.setup() {
        Ok(s) => s,
        Err(e) => return bad_input(&e),
    };
    let position = match setup.position() {
        Ok(p) => p,
        Err(e) => return bad_input(&e),
    };
    let options = match engine_options(args.threads, args.hash_mb) {
        Ok(o) => o,
        Err(e) => return bad_input(&e),
    };
    if let Err(e) = check_time_ms("--time-ms", args.time_ms, MAX_TIME_MS) {
        return bad_input(&e);
    }
    if let Some(note) = &setup.rule_note {
        println!("Note: {note}.");
    }
    let mut game = Game {
        board: position.board.clone(),
        engine_color,
        engine: Engine::new(options),
        time_ms: args.time_ms,
        over: None,
        resigned: false,
        color: stdout_wants_color(),
        orientation: args.orientation,
    };
    game.over = position.over().map(|text| {
        let code = position
            .end
            .map(|e| e.sgf_result())
            .or_else(|| game.board.winner().map(result_code))
            .unwrap_or("0");
        (text, code)
    });
    let who = match engine_color {
        Some(c) => format!(
            "you play {}, the engine {} ({} ms a move)",
            c.opponent().name(),
            c.name(),
            args.time_ms
        ),
        None => "two players; the engine gives hints".to_string(),
    };
    println!(
        "Tianyuan: {} {}x{}; {}.",
        game.board.rule(),
        game.board.width(),
        game.board.height(),
        who
    );
    println!("{USAGE}");
    game.show();
    let interactive = std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    loop {
        if game.over.is_none() && Some(game.board.side_to_move()) == game.engine_color {
            game.engine_move();
            continue;
        }
        if interactive {
            print!("{}> ", game.board.side_to_move().name());
            let _ = std::io::stdout().flush();
        }
        let mut buf = Vec::new();
        match lines.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).trim().to_string();
        if line.is_empty() {
            continue;
        }
        if !game.command(&line) {
            break;
        }
    }
    let _ = std::io::stdout().flush();
    0
}

impl Game {
    /// Prints the board and whose turn it is (or the result).
    fn show(&self) {
        let b = &self.board;
        let marks = Marks {
            orientation: self.orientation,
            ..Marks::for_position(b)
        };
        print!("{}", diagram(b, &marks, self.color));
        match &self.over {
            Some((text, _)) => println!("Game over: {text}."),
            None => println!("Move {}: {} to move.", b.ply() + 1, b.side_to_move().name()),
        }
        let _ = std::io::stdout().flush();
    }

    /// Sets `over` when the position on the board is decided (after `undo`: a five or a
    /// full board; a foul is never on the board, since `undo` takes it back).
    fn check_finished(&mut self) {
        self.resigned = false;
        self.over = if let Some(c) = self.board.winner() {
            Some((format!("{} has a five", c.name()), result_code(c)))
        } else if self.board.is_full() {
            Some(("the board is full: draw".into(), "0"))
        } else {
            None
        };
    }

    /// Plays `p` for the side to move (checked legal) and records the end of the game.
    fn play(&mut self, p: Pos) {
        let mover = self.board.side_to_move();
        let result = self.board.result_of_move(p);
        let foul = self
            .board
            .forbidden(p)
            .filter(|_| self.board.rule().has_forbidden(mover));
        self.board.make(p);
        self.over = match result {
            Some(GameResult::Win(c)) if c == mover => {
                Some((format!("{} wins with a five", c.name()), result_code(c)))
            }
            Some(GameResult::Win(c)) => Some((
                format!(
                    "{} wins: {} played a forbidden point ({})",
                    c.name(),
                    mover.name(),
                    foul.map(|k| k.name()).unwrap_or("foul")
                ),
                result_code(c),
            )),
            Some(GameResult::Draw) => Some(("the board is full: draw".into(), "0")),
            None => None,
        };
    }

    /// Searches the position for the side to move.
    fn think(&mut self) -> crate::search::SearchResult {
        let limits = Limits {
            budget: Budget::fixed(self.time_ms),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        self.engine.think(&self.board, &limits, &stop, &mut |_| {})
    }

    fn engine_move(&mut self) {
        let r = self.think();
        if r.best.is_none() {
            self.over = Some(("the board is full: draw".into(), "0"));
            self.show();
            return;
        }
        let mover = self.board.side_to_move();
        println!(
            "{} plays {}  ({}, depth {}; line {})",
            mover.name(),
            r.best,
            score_text(r.score),
            r.depth,
            line_text(&r.pv)
        );
        self.play(r.best);
        self.show();
    }

    /// Carries out one input line; returns `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_lowercase();
        let rest = line[line.find(char::is_whitespace).unwrap_or(line.len())..].trim();
        match word.as_str() {
            "quit" | "exit" | "q" => return false,
            "help" | "?" => println!("{HELP}"),
            "board" | "show" => self.show(),
            "undo" | "u" => self.undo(),
            "hint" => self.hint(),
            "resign" => self.resign(),
            "save" => self.save(rest),
            "load" => self.load(rest),
            _ => self.human_move(line),
        }
        let _ = std::io::stdout().flush();
        true
    }

    fn human_move(&mut self, typed: &str) {
        let b = &self.board;
        let p = match parse_point(typed, b.width(), b.height()) {
            Ok(p) => p,
            Err(crate::core::CoordError::BadNotation(_)) => {
                println!(
                    "'{}' is neither a move nor a command. {USAGE}",
                    excerpt(typed)
                );
                return;
            }
            Err(e) => {
                println!("'{}' is not a move here: {e}.", excerpt(typed));
                return;
            }
        };
        let typed = excerpt(typed);
        if let Some((text, _)) = &self.over {
            println!("'{typed}': the game is over ({text}); undo, save, load or quit.");
            return;
        }
        if let Err(e) = b.check_move(p) {
            println!("'{typed}' is not a legal move: {e}.");
            return;
        }
        let me = b.side_to_move();
        if b.rule().has_forbidden(me) {
            if let Some(k) = b.forbidden(p) {
                if !b.is_five(me, p) {
                    println!(
                        "'{typed}' is forbidden for black here ({}); choose another point.",
                        k.name()
                    );
                    return;
                }
            }
        }
        self.play(p);
        self.show();
    }

    fn undo(&mut self) {
        if self.resigned {
            self.over = None;
            self.resigned = false;
            println!("Took back the resignation; no move taken back.");
            self.show();
            return;
        }
        let colors = self.board.move_colors().to_vec();
        let is_human = |c: Color| Some(c) != self.engine_color;
        let Some(last_human) = colors.iter().rposition(|&c| is_human(c)) else {
            println!("'undo': there is no move of yours to take back.");
            return;
        };
        let n = colors.len() - last_human;
        for _ in 0..n {
            self.board.undo();
        }
        self.over = None;
        self.check_finished();
        println!("Took back {} move{}.", n, if n == 1 { "" } else { "s" });
        self.show();
    }

    fn hint(&mut self) {
        if let Some((text, _)) = &self.over {
            println!("'hint': the game is over ({text}).");
            return;
        }
        let r = self.think();
        println!(
            "hint for {}: {}  ({}, depth {}; line {})",
            self.board.side_to_move().name(),
            r.best,
            score_text(r.score),
            r.depth,
            line_text(&r.pv)
        );
    }

    fn resign(&mut self) {
        if let Some((text, _)) = &self.over {
            println!("'resign': the game is over ({text}).");
            return;
        }
        let loser = match self.engine_color {
            Some(e) => e.opponent(),
            None => self.board.side_to_move(),
        };
        let winner = loser.opponent();
        self.over = Some((
            format!("{} wins: {} resigned", winner.name(), loser.name()),
            result_code(winner),
        ));
        self.resigned = true;
        self.show();
    }

    fn save(&mut self, path: &str) {
        if path.is_empty() {
            println!("'save' needs a file name: save game.psq (or .sgf, .txt).");
            return;
        }
        let name = |c: Color| {
            if Some(c) == self.engine_color {
                "Tianyuan"
            } else {
                "human"
            }
        };
        let b = &self.board;
        let g = GameRecordText {
            width: b.width(),
            height: b.height(),
            rule: b.rule(),
            black: name(Color::Black),
            white: name(Color::White),
            moves: b.moves(),
            result: self.over.as_ref().map(|o| o.1).unwrap_or(""),
        };
        let p = Path::new(path);
        let format = match GameFormat::for_path(p) {
            Ok(f) => f,
            Err(e) => {
                println!("'save': {e}; nothing written.");
                return;
            }
        };
        let path = quote_path(Path::new(path));
        match std::fs::write(p, game_text(format, &g)) {
            Ok(()) => println!(
                "Saved {} moves to {path} ({}, {}).",
                b.ply(),
                format.name(),
                b.rule()
            ),
            Err(e) => println!("'save {path}': cannot write it: {e}."),
        }
    }

    fn load(&mut self, path: &str) {
        if path.is_empty() {
            println!("'load' needs a file name: load game.psq (or .sgf, .txt).");
            return;
        }
        let b = &self.board;
        let game = read_game(Path::new(path), (b.width(), b.height()));
        let path = quote_path(Path::new(path));
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                println!("'load {path}': {e}.");
                return;
            }
        };
        let (w, h) = game.size.unwrap_or((b.width(), b.height()));
        let rule = game.rule.unwrap_or(b.rule());
        let r = match replay(w, h, rule, &game.moves) {
            Ok(r) => r,
            Err(e) => {
                println!("'load {path}': {e}.");
                return;
            }
        };
        self.board = r.board;
        self.engine.clear();
        self.check_finished();
        if let Some(end) = r.end {
            self.over = Some((end.describe(rule), end.sgf_result()));
        }
        let named = if game.rule.is_some() {
            ""
        } else {
            " (the file names no rule: the game's rule kept)"
        };
        println!(
            "Loaded {} from {path}: {} {}x{}{named}.",
            crate::core::counted(self.board.ply(), "move", "moves"),
            rule,
            w,
            h
        );
        self.show();
    }
}

fn result_code(winner: Color) -> &'static str {
    match winner {
        Color::Black => "B+",
        Color::White => "W+",
    }
}

fn line_text(pv: &[Pos]) -> String {
    if pv.is_empty() {
        return "-".into();
    }
    pv.iter()
        .map(|p| p.to_notation())
        .collect::<Vec<_>>()
        .join(" ")
}
