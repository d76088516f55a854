//! `play`: a person plays the engine in the terminal.
//!
//! Moves and commands are read one per line from stdin, so a game can be scripted as well as
//! typed. A move is a point in notation (`h8`) or protocol form (`7,7`). Commands: `undo`
//! (takes back the last move of the person, and the engine's answer to it), `hint` (the
//! engine's choice for the person, not played), `resign`, `save FILE` (psq, or SGF for
//! `.sgf`, or a move list for `.txt`), `load FILE` (psq, SGF or a move list), `board`,
//! `help`, `quit`. Input that is neither a move nor a command, or a move that is not legal
//! (off the board, on a stone, forbidden to black in renju), is answered with a message that
//! repeats it, and nothing changes.
//!
//! After each move the board is drawn ([`crate::view::diagram`]): coordinates on every side,
//! the last move in parentheses and, in renju with black to move, black's forbidden points;
//! colours only when stdout is a terminal. The engine's moves come with their score (from
//! the engine's side: `win in N plies`, `loss in N plies`, or evaluation units), depth and
//! line. When the game ends (a five, a renju foul, a full board, a resignation) the result is
//! printed; `undo`, `save`, `load` and `quit` still work.

use super::{bad_input, parse_rule, score_text, PositionArgs};
use crate::board::{Board, GameResult};
use crate::core::{parse_point, Color, Pos};
use crate::engine::{Engine, Options};
use crate::gamefile::{game_text, read_game, GameFormat, GameRecordText};
use crate::search::Limits;
use crate::time::Budget;
use crate::view::{diagram, stdout_wants_color, Marks};
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
    /// The engine's thinking time per move (and per hint), in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
}

/// The commands, for `help`.
const HELP: &str = "Type a move (h8 or 7,7), or one of: undo, hint, resign, save FILE, load FILE, board, help, quit.";

/// One game in progress.
struct Game {
    board: Board,
    engine_color: Option<Color>,
    engine: Engine,
    time_ms: u64,
    /// The result once the game has ended, as a sentence, with the SGF result code.
    over: Option<(String, &'static str)>,
    color: bool,
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
        if let Err(e) = parse_rule(r) {
            return bad_input(&e);
        }
    }
    let board = match args.pos.board() {
        Ok(b) => b,
        Err(e) => return bad_input(&e),
    };
    let mut options = Options {
        hash_bytes: args.hash_mb.clamp(1, 65536) << 20,
        ..Options::default()
    };
    if let Some(t) = args.threads {
        options.threads = t.clamp(1, 256);
    }
    let mut game = Game {
        board,
        engine_color,
        engine: Engine::new(options),
        time_ms: args.time_ms,
        over: None,
        color: stdout_wants_color(),
    };
    game.check_finished();
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
    println!("{HELP}");
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
        print!("{}", diagram(b, &Marks::for_position(b), self.color));
        match &self.over {
            Some((text, _)) => println!("Game over: {text}."),
            None => println!("Move {}: {} to move.", b.ply() + 1, b.side_to_move().name()),
        }
        let _ = std::io::stdout().flush();
    }

    /// Sets `over` when the position is already decided (a loaded game, a start position).
    fn check_finished(&mut self) {
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
                println!("'{typed}' is neither a move nor a command. {HELP}");
                return;
            }
            Err(e) => {
                println!("'{typed}' is not a move here: {e}.");
                return;
            }
        };
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
        let format = GameFormat::for_path(p);
        match std::fs::write(p, game_text(format, &g)) {
            Ok(()) => println!(
                "Saved {} moves to {path} ({}).",
                b.ply(),
                match format {
                    GameFormat::Psq => "psq",
                    GameFormat::Sgf => "SGF",
                    GameFormat::Moves => "move list",
                }
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
        let game = match read_game(Path::new(path), (b.width(), b.height())) {
            Ok(g) => g,
            Err(e) => {
                println!("'load {path}': {e}.");
                return;
            }
        };
        let (w, h) = game.size.unwrap_or((b.width(), b.height()));
        let rule = game.rule.unwrap_or(b.rule());
        let mut board = match Board::new(w, h, rule) {
            Ok(b) => b,
            Err(e) => {
                println!("'load {path}': {e}.");
                return;
            }
        };
        for (i, &p) in game.moves.iter().enumerate() {
            if let Err(e) = board.check_move(p) {
                println!("'load {path}': move {} ({p}): {e}.", i + 1);
                return;
            }
            board.make(p);
        }
        self.board = board;
        self.engine.clear();
        self.check_finished();
        println!(
            "Loaded {} moves from {path}: {} {}x{}.",
            self.board.ply(),
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
