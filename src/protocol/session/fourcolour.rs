//! The four-colour variant in the protocol session (`docs/fourcolour.md` §4).
//!
//! `INFO variant fourcolour` (or `fourcolor`) switches the session to four-colour gomoku and
//! `INFO variant standard` back to two colours; `INFO mode M` sets who owns which colour
//! (`2p` by default). Both are kept across games, like every `INFO` value; a game in progress
//! is replaced by an empty board of the same size when the variant changes. While the
//! variant is active the game commands are handled here:
//! - `START`, `RECTSTART`, `RESTART`: a new empty four-colour board (`OK`);
//! - `BOARD` with body lines `x,y,c` (`c` the colour 1..=4) in play order, then `DONE`: the
//!   position is checked as a whole (every stone on an empty board point, colours in the
//!   cyclic order from black, no completed win) and replaces the game, and the engine
//!   answers for the colour to move; `YXBOARD` does the same without an answer;
//! - `BEGIN` on an empty board: black's first move;
//! - `TURN x,y`: accepted when exactly one stone was placed since the engine's last move
//!   (its colour follows from the order), then the engine moves: that is, when the engine
//!   moved last, or after `START` or `TAKEBACK`, but not after `YXBOARD`;
//! - `PLAY x,y` plays the colour to move as the engine's move; `TAKEBACK x,y` takes back the
//!   last stone;
//! - `YXSHOWFORBID` answers `FORBID .` (no forbidden points); the two-colour commands
//!   (`SWAP2BOARD`, the opening-rule commands, `YXNBEST`, `SOLVE`) get `ERROR`.
//!
//! A rejected command (an unknown mode or variant, a body that breaks the order, a position
//! or a `TURN` stone that is already a win) gets `ERROR` with the reason and leaves the
//! previous state as it was. The exact-five option follows `INFO rule`: rule 1 (exact five)
//! makes a one-colour run of six or more not win; every other rule means five or more.
//! Searches run as jobs like two-colour ones (`YXSTOP`, `END` and `INFO` are read meanwhile;
//! the clock and `max_depth`/`max_node` apply).

use super::{Brain, Game, JobKind, JobOutput, Session};
use crate::board::Board;
use crate::core::{Pos, Rule};
use crate::fourcolour::search::{Searcher, DEFAULT_TT_BYTES};
use crate::fourcolour::{quick_move, FourBoard, Mode, SearchResult};
use crate::protocol::format;
use crate::protocol::parse::{Body, BodyKind, Command, Coord};
use std::io::Write;
use std::time::Instant;

/// The four-colour part of the session.
#[derive(Debug)]
pub(super) struct FourState {
    /// `INFO variant fourcolour` is in force.
    active: bool,
    /// The ownership mode from `INFO mode` (two players until told).
    mode: Mode,
    /// The game, from `START` on while the variant is active.
    game: Option<FourGame>,
}

impl Default for FourState {
    fn default() -> Self {
        FourState {
            active: false,
            mode: Mode::TwoPlayers,
            game: None,
        }
    }
}

#[derive(Debug)]
struct FourGame {
    board: FourBoard,
    /// Stones on the board after the engine's last move (0 after `START`, the board's count
    /// after `TAKEBACK`); `None` after `YXBOARD`, which sets a position without our move.
    /// `TURN` is accepted only when it equals the stone count: its stone is then exactly one
    /// stone since our last move.
    answered: Option<usize>,
}

/// Whether `INFO rule` asks for exact fives.
fn exact_five(rule: Rule) -> bool {
    rule == Rule::Standard
}

impl<B: Brain, W: Write> Session<B, W> {
    /// Whether the four-colour variant is active.
    pub fn four_colour(&self) -> bool {
        self.four.active
    }

    /// The four-colour ownership mode in force (used once the variant is active).
    pub fn four_mode_setting(&self) -> Mode {
        self.four.mode
    }

    /// The four-colour board (`None` when the variant is not active or before `START`).
    pub fn four_board(&self) -> Option<&FourBoard> {
        self.four.game.as_ref().map(|g| &g.board)
    }

    /// `INFO variant v`.
    pub(super) fn four_variant(&mut self, v: &str) {
        let four = match v.trim().to_ascii_lowercase().as_str() {
            "fourcolour" | "fourcolor" | "four-colour" | "four-color" => true,
            "standard" => false,
            _ => {
                self.error(&format!(
                    "unknown variant '{}': fourcolour, fourcolor or standard",
                    v.trim()
                ));
                return;
            }
        };
        if four == self.four.active {
            return;
        }
        self.four.active = four;
        if four {
            if let Some(g) = self.game.take() {
                let (w, h) = (g.board.width(), g.board.height());
                if g.board.stone_count() > 0 {
                    self.message(&format!(
                        "variant fourcolour: the game starts again on an empty {}x{} board",
                        w, h
                    ));
                }
                let _ = self.four_new_game(w, h);
            }
        } else if let Some(g) = self.four.game.take() {
            let (w, h) = (g.board.width(), g.board.height());
            if g.board.stone_count() > 0 {
                self.message(&format!(
                    "variant standard: the game starts again on an empty {}x{} board",
                    w, h
                ));
            }
            let board = Board::new(w, h, self.settings.rule).expect("size already checked");
            self.game = Some(Game { board, me: None });
        }
    }

    /// `INFO mode m`.
    pub(super) fn four_mode(&mut self, m: &str) {
        let Some(mode) = Mode::parse(m) else {
            self.error(&format!(
                "unknown mode '{}': 2p, 1v2, 1v3, 2v2 or ffa",
                m.trim()
            ));
            return;
        };
        self.four.mode = mode;
        if let Some(g) = self.four.game.as_mut() {
            g.board.set_mode(mode);
        }
    }

    /// `INFO rule`: the exact-five option of the four-colour game.
    pub(super) fn four_rule(&mut self, rule: Rule) {
        if let Some(g) = self.four.game.as_mut() {
            g.board.set_exact_five(exact_five(rule));
        }
    }

    fn four_new_game(&mut self, w: usize, h: usize) -> Result<(), String> {
        let board = FourBoard::new(w, h, self.four.mode, exact_five(self.settings.rule))
            .map_err(|e| e.to_string())?;
        self.four.game = Some(FourGame {
            board,
            answered: Some(0),
        });
        self.clock_used_ms = 0;
        Ok(())
    }

    /// Handles `cmd` when the variant is active; returns the commands it leaves to the
    /// two-colour executor (all of them when the variant is off).
    pub(super) fn four_execute(&mut self, cmd: Command, at: Instant) -> Option<Command> {
        if !self.four.active {
            return Some(cmd);
        }
        match cmd {
            Command::Start(n) => self.four_start(n, n),
            Command::RectStart(w, h) => self.four_start(w, h),
            Command::Restart => match self.four.game.as_ref() {
                Some(g) => {
                    let (w, h) = (g.board.width() as i64, g.board.height() as i64);
                    self.four_start(w, h)
                }
                None => self.error("no game started"),
            },
            Command::Begin
            | Command::Turn(_)
            | Command::Play(_)
            | Command::Takeback(_)
            | Command::Body(BodyKind::Board | BodyKind::YxBoard, _)
                if self.four.game.is_none() =>
            {
                if let Command::Body(_, body) = &cmd {
                    self.report_bad_lines(body);
                }
                self.error("no game started")
            }
            Command::Begin => {
                let g = self.four.game.as_ref().expect("game");
                if g.board.stone_count() > 0 {
                    return {
                        self.error("BEGIN on a non-empty board");
                        None
                    };
                }
                self.four_request_move(at);
            }
            Command::Turn(c) => self.four_turn(c, at),
            Command::Play(c) => {
                let p = match self.four_point(c) {
                    Ok(p) => p,
                    Err(e) => return self.error_none(&e),
                };
                let g = self.four.game.as_mut().expect("game");
                g.board.make(p);
                g.answered = Some(g.board.stone_count());
                self.out.line(&format::move_line(p));
            }
            Command::Takeback(c) => {
                let g = self.four.game.as_mut().expect("game");
                let last = g.board.last_move();
                if last.is_none() || !g.board.contains_xy(c.x, c.y) || last != xy(c) {
                    return self.error_none(&format!("{},{} is not the last stone", c.x, c.y));
                }
                g.board.undo();
                g.answered = Some(g.board.stone_count());
                self.out.line("OK");
            }
            Command::Body(kind @ (BodyKind::Board | BodyKind::YxBoard), body) => {
                if self.four_set_position(body) && kind == BodyKind::Board {
                    self.four_request_move(at);
                }
            }
            Command::YxShowForbid => self.out.line(&format::forbid_line(&[])),
            // Commands that need no game, or answer the same in both variants.
            c @ (Command::Info(_)
            | Command::YxHashClear
            | Command::Unknown(_)
            | Command::About
            | Command::End
            | Command::Stop
            | Command::YxShowInfo
            | Command::YxBlockReset
            | Command::Body(BodyKind::YxBlock | BodyKind::YxBlockUndo, _)) => return Some(c),
            // The rest are two-colour commands (swap2, opening rules, multi-PV, SOLVE).
            other => {
                if let Command::Body(_, body) = &other {
                    self.report_bad_lines(body);
                }
                let word = match &other {
                    Command::Body(kind, _) => kind.name().to_string(),
                    Command::YxNbest(_) => "YXNBEST".to_string(),
                    Command::Solve { .. } => "SOLVE".to_string(),
                    Command::YxSwap2Step(n) => format!("YXSWAP2STEP{n}"),
                    Command::YxSoosorvStep1 => "YXSOOSORVSTEP1".to_string(),
                    _ => "this command".to_string(),
                };
                self.error(&format!(
                    "{word} is not available in the four-colour variant"
                ))
            }
        }
        None
    }

    fn error_none(&mut self, text: &str) -> Option<Command> {
        self.error(text);
        None
    }

    /// START / RECTSTART / RESTART in four-colour play.
    fn four_start(&mut self, w: i64, h: i64) {
        let size = usize::try_from(w).ok().zip(usize::try_from(h).ok());
        let made = match size {
            Some((w, h)) => self.four_new_game(w, h),
            None => Err(format!("unsupported board size {}x{}", w, h)),
        };
        match made {
            Ok(()) => self.out.line("OK"),
            Err(e) => self.error(&e),
        }
    }

    /// Checks a coordinate against the four-colour board: on it and empty.
    fn four_point(&self, c: Coord) -> Result<Pos, String> {
        let b = &self.four.game.as_ref().expect("game").board;
        super::vacant_point(c, b.width(), b.height(), |p| b.is_empty(p))
    }

    /// `TURN x,y`: the one stone placed since our last move, then our move.
    fn four_turn(&mut self, c: Coord, at: Instant) {
        let p = match self.four_point(c) {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let g = self.four.game.as_mut().expect("game");
        if g.answered != Some(g.board.stone_count()) {
            return self.error(
                "TURN needs exactly one stone since our last move; send the position with BOARD",
            );
        }
        if let Some(w) = over(&g.board) {
            return self.error(&w);
        }
        let color = g.board.to_move();
        if let Err(w) = g.board.play_checked(p) {
            let text = format!(
                "the game is over: {},{} ({}) completes a win for {}",
                c.x,
                c.y,
                color,
                g.board.mode().describe_player(w)
            );
            return self.error(&text);
        }
        self.four_request_move(at);
    }

    /// BOARD / YXBOARD: replaces the position when the whole body checks; `false` (after an
    /// `ERROR`) otherwise.
    fn four_set_position(&mut self, body: Body) -> bool {
        if let Some((_, e)) = body.bad.first() {
            self.error(&format!("bad body line: {} (expected x,y,c)", e));
            return false;
        }
        let g = self.four.game.as_ref().expect("game");
        let (w, h, mode, exact) = (
            g.board.width(),
            g.board.height(),
            g.board.mode(),
            g.board.exact_five(),
        );
        let stones: Vec<(i64, i64, i64)> = body
            .lines
            .iter()
            .map(|l| (l.at.x, l.at.y, l.field.unwrap_or(0)))
            .collect();
        match FourBoard::from_stones(w, h, mode, exact, &stones) {
            Ok(board) => {
                self.four.game = Some(FourGame {
                    board,
                    answered: None,
                });
                true
            }
            Err(e) => {
                self.error(&e.to_string());
                false
            }
        }
    }

    /// Starts the search for the colour to move (or answers at once without time).
    fn four_request_move(&mut self, at: Instant) {
        let g = self.four.game.as_ref().expect("game");
        if g.board.is_full() {
            return self.error("board is full");
        }
        if let Some(w) = over(&g.board) {
            return self.error(&w);
        }
        let board = g.board.clone();
        let players = board.mode().players();
        // The clock spreads time over our own moves: about stones / players of them so far.
        let stones = board.stone_count() * 2 / players;
        let points = board.width() * board.height();
        let budget = match (self.budget_now(at, stones, points), self.brain.is_some()) {
            (Some(b), true) => b,
            _ => {
                self.charge_clock(at);
                return self.four_finish_move(None);
            }
        };
        let limits = self.depth_and_nodes(budget);
        // The two-colour table stays allocated: keep this one small within the memory the
        // engine plans for its solvers (`crate::engine::ROOT_VCT_BYTES`).
        let tt_bytes = self
            .settings
            .hash_bytes()
            .map_or(DEFAULT_TT_BYTES, |b| b.min(DEFAULT_TT_BYTES));
        self.spawn(
            JobKind::FourMove,
            at,
            stones,
            points,
            budget,
            move |_, stop, _| {
                let mut searcher = Searcher::new(tt_bytes);
                JobOutput::FourMove(searcher.search(&board, &limits, stop, &mut |_| {}))
            },
        );
    }

    /// Plays and prints our move from a search result, or the quick move without one.
    pub(super) fn four_finish_move(&mut self, r: Option<SearchResult>) {
        let Some(g) = self.four.game.as_mut() else {
            return self.error("no game started");
        };
        let searched = r.filter(|r| g.board.contains(r.best) && g.board.is_empty(r.best));
        let p = match &searched {
            Some(r) => r.best,
            None => quick_move(&g.board),
        };
        if p.is_none() {
            return self.error("board is full");
        }
        g.board.make(p);
        g.answered = Some(g.board.stone_count());
        if let Some(r) = searched.filter(|r| r.depth > 0) {
            let score = match r.win_in() {
                Some(n) if n > 0 => format!("+M{}", n),
                Some(n) => format!("-M{}", -n),
                None => r.score.to_string(),
            };
            self.message(&format!(
                "depth {} ev {} n {} tm {} pv {}",
                r.depth,
                score,
                r.nodes,
                r.time_ms,
                format::pv_text(&r.pv)
            ));
        }
        self.out.line(&format::move_line(p));
    }
}

fn xy(c: Coord) -> Pos {
    Pos::new(c.x as usize, c.y as usize)
}

/// `Some(reason)` when the game on `board` is already won.
fn over(board: &FourBoard) -> Option<String> {
    board.existing_winner().map(|w| {
        format!(
            "the game is over: {} has won",
            board.mode().describe_player(w)
        )
    })
}
