//! Stage 2 of the protocol: the executor.
//!
//! A [`Session`] owns the game state (board, our colour, the `INFO` settings, the `YXBLOCK`
//! list), the engine (through the [`Brain`] trait) and the output writer. It consumes
//! [`Event`]s: lines read by the reader thread (each stamped with the [`Instant`] it was
//! read), and progress/completion notices from the search thread.
//!
//! Invariants:
//! - Every request gets exactly one answer line; `MESSAGE` lines come before it; nothing is
//!   written after `END` (docs/protocol.md §1.5, §2.11).
//! - At most one search job runs, on its own thread, on a copy of the board; the game board
//!   changes only when its answer is printed, so a job aborted by a new request (§7 item 27)
//!   leaves no trace and prints nothing.
//! - While a job runs, commands that print a non-`MESSAGE` answer without replacing the
//!   position (`UNKNOWN`, `ERROR`, `YXSHOWFORBID`, `YXHASHCLEAR`) are deferred and carried out
//!   in order after the job's answer, so that no stray line reaches a manager that waits for
//!   a move. `ABOUT`, `YXSHOWINFO`, `INFO`, `YXSTOP`, `END` and the `YXBLOCK` family act at
//!   once.
//! - A rejected command leaves the game, settings and table unchanged.
//! - Time budgets are measured from the instant the request line was read (§4.2), so queueing
//!   delay is subtracted; a watchdog raises the stop flag shortly after the hard limit in
//!   case the search overruns. With no time key ever received (`timeout_turn`,
//!   `timeout_match`, `time_left`) a move gets [`DEFAULT_TURN_MS`] (§4.1).
//! - End of input while a job runs lets the job finish (within its limit) and write its
//!   answer, and any command held back after it, before the session exits (§7 item 23); a
//!   job without a time limit is stopped at once and answers with what it has.

mod opening;

use super::format::{self, Out};
use super::parse::{Assembled, Assembler, Body, BodyKind, Command, Coord, Info, ParseError};
use super::quick::quick_move;
use super::swap2::{self, Swap2Answer};
use crate::board::Board;
use crate::core::{Color, Pos, Rule};
use crate::engine::{Engine, MAX_MULTIPV};
use crate::search::{Limits, SearchInfo, SearchResult};
use crate::time::{Budget, TimeControl};
use std::collections::{HashSet, VecDeque};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod fourcolour;
mod game;
mod job;
mod settings;

pub use settings::Settings;

/// Memory assumed when `INFO max_memory` is 0 ("no limit"), in bytes (350 MiB, as Gomocup
/// and Rapfi use).
pub const DEFAULT_MAX_MEMORY: u64 = 367_001_600;
/// Share of `max_memory` the whole process plans to use at its peak, in per cent
/// (docs/protocol.md §4.4 recommends at most about 80 %).
pub const MEMORY_BUDGET_PERCENT: u64 = 80;
/// Memory the engine needs whatever the table size (tables, board copies, thread stacks in
/// use), in bytes: a `max_memory` below this cannot be met and is reported.
pub const MIN_WORKING_MEMORY: u64 = 12 << 20;
/// Smallest transposition table we configure, in bytes.
pub const MIN_HASH_BYTES: u64 = 1 << 20;
/// Largest transposition table we configure, in bytes (4 GiB); `YXSHOWINFO` reports it as
/// [`MAX_HASH_LOG2_KIB`].
pub const MAX_HASH_BYTES: u64 = 1 << 32;
/// log2 of [`MAX_HASH_BYTES`] in KiB.
pub const MAX_HASH_LOG2_KIB: u32 = 22;
/// Largest thread count we pass on.
pub const MAX_THREADS: usize = 256;
/// The turn limit of a move when the manager never sent `timeout_turn`, `timeout_match` or
/// `time_left`, in milliseconds (docs/protocol.md §4.1): 5 s, so that a person typing
/// commands, or a script piping them, gets an answer (the protocol's reference skeleton
/// assumes 30 s; the managers we play under always send a limit).
pub const DEFAULT_TURN_MS: i64 = 5_000;

/// How long after the hard limit the watchdog raises the stop flag, in milliseconds.
pub const WATCHDOG_GRACE_MS: u64 = 30;
/// Stack of the search thread, in bytes.
const SEARCH_STACK: usize = 16 << 20;

/// What the executor needs from the engine. [`Engine`] implements it; tests substitute
/// engines with controlled timing.
pub trait Brain: Send + 'static {
    /// Searches `board` for its side to move within `limits` until done or `stop` is raised;
    /// reports each completed iteration to `on_info`. See [`Engine::think`].
    fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;
    /// Sets the number of search threads (at least 1).
    fn set_threads(&mut self, n: usize);
    /// Sets the transposition table size in bytes. Like [`Brain::clear`] and
    /// [`Brain::prefault`] it must return at once (the move's clock may be running: a
    /// manager may send `BOARD` right after `INFO`); the work may go on in the background.
    fn set_hash_bytes(&mut self, bytes: usize);
    /// Clears the transposition table and histories.
    fn clear(&mut self);
    /// Makes the transposition table resident; default: nothing.
    fn prefault(&mut self) {}
}

impl Brain for Engine {
    fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        Engine::think(self, board, limits, stop, on_info)
    }
    fn set_threads(&mut self, n: usize) {
        Engine::set_threads(self, n)
    }
    fn set_hash_bytes(&mut self, bytes: usize) {
        Engine::set_hash_bytes_in_background(self, bytes)
    }
    fn clear(&mut self) {
        Engine::clear_in_background(self)
    }
    fn prefault(&mut self) {
        Engine::prefault_in_background(self)
    }
}

/// Input of a [`Session`].
#[derive(Debug)]
pub enum Event {
    /// One input line (line ending removed, invalid UTF-8 replaced) and when it was read.
    Line {
        /// The text.
        text: String,
        /// When the reader got it.
        at: Instant,
    },
    /// A line longer than the reader's cap was dropped (docs/protocol.md §1.2).
    Overlong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// End of input: stop and exit.
    Eof,
    /// Sent by the search thread after each completed iteration of job `id`.
    Progress {
        /// The job.
        id: u64,
        /// The iteration's report.
        info: SearchInfo,
    },
    /// Sent by the search thread when job `id` has finished.
    Done {
        /// The job.
        id: u64,
    },
}

/// Whether the session goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `END` or end of input: exit now.
    Exit,
}

/// The game in progress (exists from `START` on).
struct Game {
    board: Board,
    /// Our colour once known (BEGIN, TURN, BOARD, PLAY); `None` right after START/RESTART.
    me: Option<Color>,
}

impl Game {
    /// Our colour: as known, else the side to move (the engine is always asked to move).
    fn me(&self) -> Color {
        self.me.unwrap_or(self.board.side_to_move())
    }
}

/// What a job computes.
enum JobKind {
    /// A move; `nbest` for YXNBEST (progress lines and a summary are always printed).
    Move { nbest: bool },
    /// A swap2 answer for the stones on the board in move order.
    Swap2,
    /// `SOLVE`: a VCF, or a VCT, of the side to move (answers a `SOLVE` line, plays nothing).
    Solve { vct: bool },
    /// An opening-rule decision (`yxswap2step`, `yxsoosorvstep`, `OPENING`).
    Opening(opening::Style, Box<crate::opening::Request>),
    /// A four-colour move (`fourcolour.rs`).
    FourMove,
}

/// What a job returns.
enum JobOutput {
    Move(SearchResult),
    Swap2(Option<Swap2Answer>),
    Solve(crate::search::threat::SolveReport),
    Opening(Result<crate::opening::Decision, crate::opening::OpeningError>),
    FourMove(crate::fourcolour::SearchResult),
}

/// A running search job.
struct Job<B> {
    id: u64,
    kind: JobKind,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<(B, Option<JobOutput>)>,
    /// When the request was read, and the stone and point counts its budget was made from.
    at: Instant,
    stones: usize,
    points: usize,
    /// When the watchdog raises the stop flag.
    deadline: Option<Instant>,
}

/// A command held back until the running job has answered.
enum Deferred {
    Command(Command, Instant),
    Error(ParseError),
}

/// The executor: see the module documentation.
pub struct Session<B: Brain, W: Write> {
    out: Out<W>,
    /// `None` while a job owns it (or after the search thread could not start).
    brain: Option<B>,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    assembler: Assembler,
    /// When the first line of the body being read arrived.
    body_at: Instant,
    settings: Settings,
    game: Option<Game>,
    blocked: Vec<Coord>,
    job: Option<Job<B>>,
    deferred: VecDeque<Deferred>,
    next_id: u64,
    exited: bool,
    /// Deepest ply reported by the running (or last) job's iterations.
    seldepth: i32,
    /// The four-colour variant's settings and game (`fourcolour.rs`).
    four: fourcolour::FourState,
    /// Milliseconds our own moves have taken since the last `INFO time_left` or the start
    /// of the game: a manager that sends `timeout_match` but no `time_left` still gets its
    /// match limit kept (docs/protocol.md §4.1).
    clock_used_ms: i64,
    /// End of input arrived while a job ran: exit once it has answered (§7 item 23).
    eof_pending: bool,
}

impl<B: Brain, W: Write> Session<B, W> {
    /// A session with no game yet, writing to `out`.
    pub fn new(brain: B, out: W) -> Session<B, W> {
        let (tx, rx) = channel();
        Session {
            out: Out::new(out),
            brain: Some(brain),
            tx,
            rx,
            assembler: Assembler::new(),
            body_at: Instant::now(),
            settings: Settings::default(),
            game: None,
            blocked: Vec::new(),
            job: None,
            deferred: VecDeque::new(),
            next_id: 1,
            exited: false,
            seldepth: 0,
            four: fourcolour::FourState::default(),
            clock_used_ms: 0,
            eof_pending: false,
        }
    }

    /// A sender for the reader thread's [`Event::Line`], [`Event::Overlong`] and
    /// [`Event::Eof`].
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// The `INFO` settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The current board (`None` before `START`).
    pub fn board(&self) -> Option<&Board> {
        self.game.as_ref().map(|g| &g.board)
    }

    /// Our colour, once the game has told it.
    pub fn our_color(&self) -> Option<Color> {
        self.game.as_ref().and_then(|g| g.me)
    }

    /// The `YXBLOCK` list, in the order received.
    pub fn blocked(&self) -> &[Coord] {
        &self.blocked
    }

    /// Whether a search job is running.
    pub fn is_searching(&self) -> bool {
        self.job.is_some()
    }

    /// Whether `END` or end of input was seen (the session takes no more input).
    pub fn has_exited(&self) -> bool {
        self.exited
    }

    /// The output sink (tests read the lines from it).
    pub fn output(&self) -> &W {
        self.out.sink()
    }

    /// The output sink, mutably.
    pub fn output_mut(&mut self) -> &mut W {
        self.out.sink_mut()
    }

    /// Runs until `END`, end of input or a broken output; returns the exit code (0, or 1
    /// when the output broke).
    pub fn run(&mut self) -> i32 {
        while !self.exited {
            let Some(ev) = self.next_event() else { break };
            self.handle_event(ev);
            if self.out.is_broken() {
                self.shutdown();
                return 1;
            }
        }
        0
    }

    /// Processes one line read now, without waiting for a search it starts (mid-search tests
    /// use this). Returns [`Flow::Exit`] after `END`.
    pub fn push_line(&mut self, text: &str) -> Flow {
        self.handle_event(Event::Line {
            text: text.to_string(),
            at: Instant::now(),
        })
    }

    /// Processes one line read now and waits until any search it started has answered.
    pub fn feed_line(&mut self, text: &str) -> Flow {
        let f = self.push_line(text);
        self.wait_idle();
        f
    }

    /// Blocks until no job is running (its answer printed), handling search events and
    /// the watchdog meanwhile.
    pub fn wait_idle(&mut self) {
        while self.job.is_some() && !self.exited {
            let Some(ev) = self.next_event() else { break };
            self.handle_event(ev);
        }
    }

    /// Handles one event.
    pub fn handle_event(&mut self, ev: Event) -> Flow {
        if self.exited {
            return Flow::Exit;
        }
        match ev {
            Event::Line { text, at } => self.on_line(&text, at),
            Event::Overlong { bytes } => {
                self.message(&format!("input line of {} bytes dropped (too long)", bytes));
                Flow::Continue
            }
            Event::Eof => {
                let Some(j) = self.job.as_ref() else {
                    self.shutdown();
                    return Flow::Exit;
                };
                // Finish the move, then exit: a job with a deadline ends by itself; one
                // without a time limit would never end, since nobody can send YXSTOP now.
                if j.deadline.is_none() {
                    j.stop.store(true, Ordering::SeqCst);
                }
                self.eof_pending = true;
                Flow::Continue
            }
            Event::Progress { id, info } => {
                if self.job.as_ref().is_some_and(|j| j.id == id) {
                    self.seldepth = self.seldepth.max(info.seldepth);
                    self.progress(&info);
                }
                Flow::Continue
            }
            Event::Done { id } => {
                if self.job.as_ref().is_some_and(|j| j.id == id) {
                    self.finish_job();
                }
                if self.eof_pending {
                    match self.job.as_ref() {
                        None => {
                            self.shutdown();
                            return Flow::Exit;
                        }
                        // A held-back command started another job: the same rule.
                        Some(j) if j.deadline.is_none() => j.stop.store(true, Ordering::SeqCst),
                        Some(_) => {}
                    }
                }
                Flow::Continue
            }
        }
    }

    /// Waits for the next event, raising the stop flag of a job whose deadline passes.
    fn next_event(&mut self) -> Option<Event> {
        loop {
            let deadline = self.job.as_ref().and_then(|j| j.deadline);
            let Some(d) = deadline else {
                return self.rx.recv().ok();
            };
            let now = Instant::now();
            let wait = d.saturating_duration_since(now);
            match self.rx.recv_timeout(wait) {
                Ok(ev) => return Some(ev),
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(j) = self.job.as_mut() {
                        j.stop.store(true, Ordering::SeqCst);
                        j.deadline = None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Stops everything and refuses further input (END, end of input). The search thread is
    /// told to stop but not waited for: the process exits at once.
    fn shutdown(&mut self) {
        if let Some(j) = &self.job {
            j.stop.store(true, Ordering::SeqCst);
        }
        self.out.mute();
        self.exited = true;
    }

    fn on_line(&mut self, text: &str, at: Instant) -> Flow {
        let was_in_body = self.assembler.in_body();
        match self.assembler.push(text) {
            Assembled::Nothing => {
                if !was_in_body && self.assembler.in_body() {
                    self.body_at = at;
                }
                Flow::Continue
            }
            Assembled::Command(c) => {
                let at = if was_in_body { self.body_at } else { at };
                self.dispatch(c, at)
            }
            Assembled::Error(e) => {
                if self.job.is_some() {
                    self.deferred.push_back(Deferred::Error(e));
                } else {
                    self.out.line(&format::error(&e.to_string()));
                }
                Flow::Continue
            }
            Assembled::End => {
                self.shutdown();
                Flow::Exit
            }
        }
    }

    /// Routes a command: immediate ones act now, position-changing requests abort a running
    /// job first, others wait for the job's answer.
    fn dispatch(&mut self, cmd: Command, at: Instant) -> Flow {
        match cmd {
            Command::End => {
                self.shutdown();
                return Flow::Exit;
            }
            Command::Stop => {
                if let Some(j) = &self.job {
                    j.stop.store(true, Ordering::SeqCst);
                }
            }
            // A variant or mode change waits for the running search's answer.
            Command::Info(info @ (Info::Variant(_) | Info::Mode(_))) if self.job.is_some() => self
                .deferred
                .push_back(Deferred::Command(Command::Info(info), at)),
            Command::Info(info) => self.apply_info(info),
            Command::About => self.out.line(&format::about()),
            Command::YxShowInfo => {
                let threads = std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1);
                self.message(&format!(
                    "INFO MAX_THREAD_NUM {}",
                    threads.min(MAX_THREADS).min(crate::engine::max_threads())
                ));
                self.message(&format!("INFO MAX_HASH_SIZE {}", MAX_HASH_LOG2_KIB));
            }
            Command::Body(kind @ (BodyKind::YxBlock | BodyKind::YxBlockUndo), body) => {
                self.update_blocks(kind, body)
            }
            Command::YxBlockReset => self.blocked.clear(),
            c if c.aborts_search() => {
                self.abort_job();
                self.run_deferred();
                self.execute(c, at);
            }
            c => {
                if self.job.is_some() {
                    self.deferred.push_back(Deferred::Command(c, at));
                } else {
                    self.execute(c, at);
                }
            }
        }
        Flow::Continue
    }

    /// Carries out commands held back during a job, in order (called when idle).
    fn run_deferred(&mut self) {
        while self.job.is_none() {
            let Some(d) = self.deferred.pop_front() else {
                break;
            };
            match d {
                Deferred::Command(c, at) => self.execute(c, at),
                Deferred::Error(e) => self.out.line(&format::error(&e.to_string())),
            }
        }
    }

    fn message(&mut self, text: &str) {
        self.out.line(&format::message(text));
    }

    fn error(&mut self, text: &str) {
        self.out.line(&format::error(text));
    }

    /// Executes a command while no job runs.
    fn execute(&mut self, cmd: Command, at: Instant) {
        debug_assert!(self.job.is_none());
        // The four-colour variant takes the game commands (`fourcolour.rs`).
        let Some(cmd) = self.four_execute(cmd, at) else {
            return;
        };
        match cmd {
            Command::Info(info) => self.apply_info(info),
            Command::Start(n) => self.start(n, n),
            Command::RectStart(w, h) => self.start(w, h),
            Command::YxHashClear => {
                if let Some(b) = self.brain.as_mut() {
                    b.clear();
                }
            }
            Command::Unknown(text) => self.out.line(&format::unknown(&format!(
                "command not supported: {}",
                text
            ))),
            // Everything else needs a game.
            c => {
                if self.game.is_none() {
                    if let Command::Body(_, body) = &c {
                        self.report_bad_lines(body);
                    }
                    self.error("no game started");
                    return;
                }
                self.execute_in_game(c, at);
            }
        }
    }

    fn execute_in_game(&mut self, cmd: Command, at: Instant) {
        match cmd {
            Command::Restart => {
                let g = self.game.as_ref().expect("game");
                let (w, h) = (g.board.width(), g.board.height());
                self.start(w as i64, h as i64);
            }
            Command::Begin => {
                let g = self.game.as_mut().expect("game");
                if g.board.stone_count() > 0 {
                    self.error("BEGIN on a non-empty board");
                    return;
                }
                g.me = Some(Color::Black);
                self.request_move(at, false, 1);
            }
            Command::Turn(c) => self.turn(c, at),
            Command::Play(c) => self.play_stone(c),
            Command::Takeback(c) => self.takeback(c),
            Command::Body(kind @ (BodyKind::Board | BodyKind::YxBoard), body) => {
                self.set_position(body);
                if kind == BodyKind::Board {
                    self.request_move(at, false, 1);
                }
            }
            Command::Body(BodyKind::Swap2Board, body) => self.swap2(body, at),
            Command::YxSwap2Step(k) => self.opening_command(opening::Asked::swap2(k), at),
            Command::YxSoosorvStep1 => {
                self.opening_command(opening::Asked::soosorv(1, None, None), at)
            }
            Command::Body(BodyKind::YxSoosorv { step, n }, body) => {
                self.opening_command(opening::Asked::soosorv(step, n, Some(body)), at)
            }
            Command::Body(BodyKind::Opening { rule, step, n }, body) => {
                self.opening_command(opening::Asked::opening(rule, step, n, body), at)
            }
            Command::YxNbest(k) => {
                let k = k.clamp(1, MAX_MULTIPV as i64) as usize;
                self.request_move(at, true, k)
            }
            Command::Solve { vct, time_ms } => self.solve(vct, time_ms, at),
            Command::YxShowForbid => self.show_forbid(),
            other => {
                // Commands routed elsewhere never get here; answer rather than stay silent.
                self.out.line(&format::unknown(&format!("{:?}", other)));
            }
        }
    }

    /// Checks a coordinate against the board: on it and empty.
    fn point(&self, c: Coord) -> Result<Pos, String> {
        let b = &self.game.as_ref().expect("game").board;
        vacant_point(c, b.width(), b.height(), |p| b.is_empty(p))
    }

    /// START / RECTSTART / RESTART: a new empty board, settings kept, table cleared.
    fn start(&mut self, w: i64, h: i64) {
        let board = usize::try_from(w)
            .ok()
            .zip(usize::try_from(h).ok())
            // A negative side gets the same message, with its hint, as a side out of range.
            .ok_or_else(|| {
                format!(
                    "unsupported board size {w}x{h}: each side must be {}..={}",
                    crate::core::MIN_SIZE,
                    crate::core::MAX_SIZE
                )
            })
            .and_then(|(w, h)| Board::new(w, h, self.settings.rule).map_err(|e| e.to_string()));
        match board {
            Ok(board) => {
                self.game = Some(Game { board, me: None });
                self.clock_used_ms = 0;
                self.apply_engine_settings();
                if let Some(b) = self.brain.as_mut() {
                    b.clear();
                }
                self.prefault_known_table();
                self.out.line("OK");
            }
            Err(e) => self.error(&e),
        }
    }

    fn report_bad_lines(&mut self, body: &Body) {
        self.report_skipped(body, Vec::new());
    }

    /// Prints `MESSAGE skipped body line: reason` for each skipped line of a body in input
    /// order: the lines the parser refused (`body.bad`) and those refused after reading
    /// (`refused`: the index in `body.lines`, and the reason).
    pub(super) fn report_skipped(&mut self, body: &Body, refused: Vec<(usize, String)>) {
        let mut all: Vec<(usize, bool, String)> = body
            .bad
            .iter()
            .map(|(before, e)| (*before, false, e.to_string()))
            .collect();
        all.extend(refused.into_iter().map(|(i, why)| (i, true, why)));
        all.sort_by_key(|a| (a.0, a.1));
        for (_, _, why) in all {
            self.message(&format!("skipped body line: {why}"));
        }
    }

    /// BOARD / YXBOARD: replaces the position (docs/protocol.md §2.7). Bad lines are skipped with
    /// a `MESSAGE`; our colour comes from the stone counts.
    fn set_position(&mut self, body: Body) {
        let g = self.game.as_ref().expect("game");
        let (w, h, rule) = (g.board.width(), g.board.height(), g.board.rule());
        let mut seen = HashSet::new();
        let mut stones: Vec<(Pos, i64)> = Vec::new();
        let mut refused = Vec::new();
        for (i, l) in body.lines.iter().enumerate() {
            let (x, y) = (l.at.x, l.at.y);
            let f = l.field.unwrap_or(0);
            let why = if x < 0 || y < 0 || x as usize >= w || y as usize >= h {
                Some("off the board")
            } else if !(1..=3).contains(&f) {
                Some("field must be 1, 2 or 3")
            } else if !seen.insert((x, y)) {
                Some("square already given")
            } else {
                None
            };
            match why {
                Some(why) => refused.push((i, format!("{x},{y},{f}: {why}"))),
                None => stones.push((Pos::new(x as usize, y as usize), f)),
            }
        }
        self.report_skipped(&body, refused);
        let m = stones.iter().filter(|s| s.1 == 1).count();
        let o = stones.iter().filter(|s| s.1 == 2).count();
        let me = if m == o {
            Color::Black
        } else if o == m + 1 {
            Color::White
        } else {
            let me = if m > o { Color::Black } else { Color::White };
            self.message(&format!(
                "inconsistent stone counts: {} own and {} opponent; playing as {}",
                m,
                o,
                me.name()
            ));
            me
        };
        let mut board = Board::new(w, h, rule).expect("size already checked");
        for (p, f) in stones {
            match f {
                1 => board.make_colored(p, me),
                2 => board.make_colored(p, me.opponent()),
                _ => board.put_wall(p),
            }
        }
        board.set_side_to_move(me);
        let g = self.game.as_mut().expect("game");
        g.board = board;
        g.me = Some(me);
    }

    fn update_blocks(&mut self, kind: BodyKind, body: Body) {
        self.report_bad_lines(&body);
        for l in body.lines {
            if kind == BodyKind::YxBlock {
                if !self.blocked.contains(&l.at) {
                    self.blocked.push(l.at);
                }
            } else {
                self.blocked.retain(|c| *c != l.at);
            }
        }
    }
}

/// Checks a protocol coordinate against a `width` x `height` board whose empty points
/// `is_empty` tells: the point, or the error line's text (off the board, occupied). Both
/// variants' sessions use it.
fn vacant_point(
    c: Coord,
    width: usize,
    height: usize,
    is_empty: impl Fn(Pos) -> bool,
) -> Result<Pos, String> {
    let on_board = |v: i64, n: usize| usize::try_from(v).is_ok_and(|v| v < n);
    if !on_board(c.x, width) || !on_board(c.y, height) {
        return Err(format!(
            "{},{} is off the {}x{} board",
            c.x, c.y, width, height
        ));
    }
    let p = Pos::new(c.x as usize, c.y as usize);
    if !is_empty(p) {
        return Err(format!("{},{} is occupied", c.x, c.y));
    }
    Ok(p)
}
