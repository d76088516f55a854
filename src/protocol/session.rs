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
use super::swap2::{self, Swap2Answer};
use crate::board::Board;
use crate::core::{Color, Pos, Rule};
use crate::engine::{Engine, MAX_MULTIPV};
use crate::search::{quick_move, Limits, SearchInfo, SearchResult};
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

/// The values received by `INFO` (docs/protocol.md §2.4, §6.2), kept across games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `timeout_turn`, `timeout_match`, `time_left`, `time_increment` (milliseconds).
    pub time: TimeControl,
    /// `max_memory` in bytes (0 = no limit); `None` if never received.
    pub max_memory: Option<i64>,
    /// `hash_size` in KiB; overrides `max_memory` when set.
    pub hash_kib: Option<i64>,
    /// `thread_num`.
    pub threads: Option<i64>,
    /// `max_depth` in plies (`None` = no limit).
    pub max_depth: Option<i64>,
    /// `max_node` (`None` = no limit).
    pub max_nodes: Option<i64>,
    /// `show_detail` bits: 1 realtime lines, 2 `INFO` blocks.
    pub show_detail: i64,
    /// `game_type` (informational).
    pub game_type: Option<i64>,
    /// `pondering` (stored; we never ponder).
    pub pondering: i64,
    /// `folder`, as given.
    pub folder: Option<String>,
    /// The rule from `INFO rule` (freestyle until told).
    pub rule: Rule,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time: TimeControl::default(),
            max_memory: None,
            hash_kib: None,
            threads: None,
            max_depth: None,
            max_nodes: None,
            show_detail: 0,
            game_type: None,
            pondering: 0,
            folder: None,
            rule: Rule::Freestyle,
        }
    }
}

impl Settings {
    /// The transposition table size these settings ask for, in bytes: `hash_size` KiB if
    /// given; else [`MEMORY_BUDGET_PERCENT`] of `max_memory` ([`DEFAULT_MAX_MEMORY`] when it
    /// is 0) minus the engine's estimate of its other memory for the thread count in force
    /// ([`Engine::memory_overhead`]); clamped to [`MIN_HASH_BYTES`]..=[`MAX_HASH_BYTES`].
    /// `None` when neither key was received (the engine keeps its default).
    pub fn hash_bytes(&self) -> Option<usize> {
        let bytes = if let Some(kib) = self.hash_kib {
            (kib as u64).saturating_mul(1024)
        } else {
            let m = self.max_memory?;
            let basis = if m == 0 { DEFAULT_MAX_MEMORY } else { m as u64 };
            let threads = match self.threads {
                Some(t) => (t.max(1) as u64).min(MAX_THREADS as u64) as usize,
                None => crate::engine::Options::default().threads,
            };
            let rest = Engine::memory_overhead(threads) as u64;
            (basis / 100 * MEMORY_BUDGET_PERCENT).saturating_sub(rest)
        };
        let b = bytes.clamp(MIN_HASH_BYTES, MAX_HASH_BYTES);
        Some(b.min(usize::MAX as u64) as usize)
    }
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
            Command::Turn(c) => {
                let p = match self.point(c) {
                    Ok(p) => p,
                    Err(e) => return self.error(&e),
                };
                let g = self.game.as_mut().expect("game");
                let me = g.me.unwrap_or(g.board.side_to_move().opponent());
                g.board.make_colored(p, me.opponent());
                g.me = Some(me);
                self.request_move(at, false, 1);
            }
            Command::Play(c) => {
                let p = match self.point(c) {
                    Ok(p) => p,
                    Err(e) => return self.error(&e),
                };
                let g = self.game.as_mut().expect("game");
                let me = g.me();
                g.board.make_colored(p, me);
                g.me = Some(me);
                self.out.line(&format::move_line(p));
            }
            Command::Takeback(c) => {
                let g = self.game.as_mut().expect("game");
                let b = &g.board;
                let last = b.last_move();
                if !b.contains_xy(c.x, c.y)
                    || last.is_none()
                    || last != Pos::new(c.x as usize, c.y as usize)
                {
                    self.error(&format!("{},{} is not the last stone", c.x, c.y));
                    return;
                }
                g.board.undo();
                self.out.line("OK");
            }
            Command::Body(kind @ (BodyKind::Board | BodyKind::YxBoard), body) => {
                self.set_position(kind, body);
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
            Command::Solve { vct, time_ms } => {
                let g = self.game.as_ref().expect("game");
                let threads = self.threads();
                // What `max_memory` leaves beside the table and the engine's other memory
                // (no search runs meanwhile, so the root VCT's share is free).
                let memory_bytes = self
                    .memory_for_solvers(100)
                    .map_or(usize::MAX, |b| b.min(usize::MAX as u64) as usize);
                let limits = crate::search::threat::SolveLimits {
                    time_ms,
                    threads,
                    memory_bytes,
                };
                let board = g.board.clone();
                if self.brain.is_none() {
                    // The search thread was lost (a failed job): solve here instead.
                    let stop = std::sync::atomic::AtomicBool::new(false);
                    let r = crate::search::threat::solve_with_stop(&board, vct, &limits, &stop);
                    self.finish_solve(vct, &r);
                    return;
                }
                let (stones, points) = (board.stone_count(), board.width() * board.height());
                self.spawn(
                    JobKind::Solve { vct },
                    at,
                    stones,
                    points,
                    Budget::fixed(time_ms),
                    move |_, stop, _| {
                        JobOutput::Solve(crate::search::threat::solve_with_stop(
                            &board, vct, &limits, stop,
                        ))
                    },
                );
            }
            Command::YxShowForbid => {
                let g = self.game.as_ref().expect("game");
                // The points forbidden to the side to move: none when white is to move (§6.1).
                let to_move = g.board.side_to_move();
                let pts: Vec<Pos> = if g.board.rule().has_forbidden(to_move) {
                    g.board
                        .forbidden_points()
                        .into_iter()
                        .map(|(p, _)| p)
                        .collect()
                } else {
                    Vec::new()
                };
                self.out.line(&format::forbid_line(&pts));
            }
            other => {
                // Commands routed elsewhere never get here; answer rather than stay silent.
                self.out.line(&format::unknown(&format!("{:?}", other)));
            }
        }
    }

    /// Checks a coordinate against the board: on it and empty.
    fn point(&self, c: Coord) -> Result<Pos, String> {
        let b = &self.game.as_ref().expect("game").board;
        if !b.contains_xy(c.x, c.y) {
            return Err(format!(
                "{},{} is off the {}x{} board",
                c.x,
                c.y,
                b.width(),
                b.height()
            ));
        }
        let p = Pos::new(c.x as usize, c.y as usize);
        if !b.is_empty(p) {
            return Err(format!("{},{} is occupied", c.x, c.y));
        }
        Ok(p)
    }

    /// START / RECTSTART / RESTART: a new empty board, settings kept, table cleared.
    fn start(&mut self, w: i64, h: i64) {
        let board = usize::try_from(w)
            .ok()
            .zip(usize::try_from(h).ok())
            .ok_or_else(|| format!("unsupported board size {}x{}", w, h))
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
        for e in &body.bad {
            self.message(&format!("skipped body line: {}", e));
        }
    }

    /// BOARD / YXBOARD: replaces the position (docs/protocol.md §2.7). Bad lines are skipped with
    /// a `MESSAGE`; our colour comes from the stone counts.
    fn set_position(&mut self, kind: BodyKind, body: Body) {
        self.report_bad_lines(&body);
        let g = self.game.as_ref().expect("game");
        let (w, h, rule) = (g.board.width(), g.board.height(), g.board.rule());
        let mut seen = HashSet::new();
        let mut stones: Vec<(Pos, i64)> = Vec::new();
        for l in &body.lines {
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
                Some(why) => self.message(&format!(
                    "skipped {} line {},{},{}: {}",
                    kind.name(),
                    x,
                    y,
                    f,
                    why
                )),
                None => stones.push((Pos::new(x as usize, y as usize), f)),
            }
        }
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

    fn apply_info(&mut self, info: Info) {
        let memory = matches!(
            info,
            Info::MaxMemory(_) | Info::HashSize(_) | Info::ThreadNum(_)
        );
        let s = &mut self.settings;
        let mut retime = false;
        match info {
            Info::TimeoutTurn(v) if v >= 0 => {
                s.time.turn_ms = Some(v);
                retime = true;
            }
            Info::TimeoutMatch(v) if v >= 0 => {
                s.time.match_ms = Some(v);
                retime = true;
            }
            Info::TimeLeft(v) => {
                s.time.left_ms = Some(v);
                self.clock_used_ms = 0;
                retime = true;
            }
            Info::TimeIncrement(v) if v >= 0 => s.time.increment_ms = v,
            Info::MaxMemory(v) if v >= 0 => {
                s.max_memory = Some(v);
                if v > 0 && (v as u64) < MIN_WORKING_MEMORY {
                    // docs/protocol.md §2.4: a limit we cannot meet is reported, and we play on.
                    self.message(&format!(
                        "max_memory {} bytes is below what the engine needs (about {} bytes); playing with the smallest table",
                        v, MIN_WORKING_MEMORY
                    ));
                }
            }
            Info::HashSize(v) if v > 0 => s.hash_kib = Some(v),
            Info::ThreadNum(v) if v >= 1 => s.threads = Some(v),
            Info::MaxDepth(v) => s.max_depth = (v > 0).then_some(v),
            Info::MaxNode(v) => s.max_nodes = (v > 0).then_some(v),
            Info::ShowDetail(v) => s.show_detail = v,
            Info::GameType(v) => s.game_type = Some(v),
            Info::Pondering(v) => s.pondering = v,
            Info::Folder(f) => s.folder = Some(f),
            Info::Variant(v) => self.four_variant(&v),
            Info::Mode(m) => self.four_mode(&m),
            Info::Rule(v) => {
                let rule = match Rule::from_gomocup(v) {
                    Some(r) => r,
                    None => {
                        self.message(&format!("rule {} not recognised; playing freestyle", v));
                        Rule::Freestyle
                    }
                };
                self.settings.rule = rule;
                if let Some(g) = self.game.as_mut() {
                    g.board.set_rule(rule);
                }
                self.four_rule(rule);
            }
            _ => {}
        }
        if retime {
            self.retime_job();
        }
        if memory && self.job.is_none() {
            // Size the table now, between requests and outside the clock.
            self.apply_engine_settings();
            self.prefault_known_table();
        }
    }

    /// Makes the table resident once its size comes from `max_memory` or `hash_size` (not
    /// the 64 MiB default, which may be above a limit still to come).
    fn prefault_known_table(&mut self) {
        // Four-colour searches have their own small table (`fourcolour.rs`).
        if self.settings.hash_bytes().is_some() && !self.four_colour() {
            if let Some(b) = self.brain.as_mut() {
                b.prefault();
            }
        }
    }

    /// Adds the time since the request read at `at` to [`Session::clock_used_ms`].
    fn charge_clock(&mut self, at: Instant) {
        let used = at.elapsed().as_millis().min(i64::MAX as u128) as i64;
        self.clock_used_ms = self.clock_used_ms.saturating_add(used);
    }

    /// The clock as the manager last gave it, less the time our moves have taken since
    /// (`clock_used_ms`); a turn limit of [`DEFAULT_TURN_MS`] when no time key was ever
    /// received.
    fn clock(&self) -> TimeControl {
        let t = self.settings.time;
        if t.turn_ms.is_none() && t.match_ms.is_none() && t.left_ms.is_none() {
            return TimeControl {
                turn_ms: Some(DEFAULT_TURN_MS),
                ..t
            };
        }
        t.after_use(self.clock_used_ms)
    }

    /// A time `INFO` arrived: tighten the running job's watchdog to the new budget (measured
    /// from its request), or stop it now when the new budget is 0.
    fn retime_job(&mut self) {
        let tc = self.clock();
        let Some(j) = self.job.as_mut() else { return };
        if matches!(j.kind, JobKind::Solve { .. }) {
            // A SOLVE has its own time limit, not the game clock's.
            return;
        }
        let b = tc.budget(j.stones, j.points);
        if b.hard_ms == 0 {
            j.stop.store(true, Ordering::SeqCst);
            j.deadline = None;
            return;
        }
        if let Some(d) = j.at.checked_add(Duration::from_millis(
            b.hard_ms.saturating_add(WATCHDOG_GRACE_MS),
        )) {
            if j.deadline.is_none_or(|old| d < old) {
                j.deadline = Some(d);
            }
        }
    }

    /// Passes thread and memory settings to the engine (only between jobs).
    fn apply_engine_settings(&mut self) {
        let Some(brain) = self.brain.as_mut() else {
            return;
        };
        if let Some(t) = self.settings.threads {
            brain.set_threads((t.max(1) as u64).min(MAX_THREADS as u64) as usize);
        }
        if let Some(bytes) = self.settings.hash_bytes() {
            brain.set_hash_bytes(bytes);
        }
    }

    /// The budget for a request read at `at`, as left now; `None` means "answer at once".
    fn budget_now(&self, at: Instant, stones: usize, points: usize) -> Option<Budget> {
        let b = self.clock().budget(stones, points);
        if b.hard_ms == 0 {
            return None;
        }
        if b == Budget::UNLIMITED {
            return Some(b);
        }
        let spent = at.elapsed().as_millis().min(u64::MAX as u128) as u64;
        let hard = b.hard_ms.saturating_sub(spent);
        if hard == 0 {
            return None;
        }
        Some(Budget {
            soft_ms: b.soft_ms.saturating_sub(spent).clamp(1, hard),
            hard_ms: hard,
        })
    }

    fn limits(&self, budget: Budget, board: &Board) -> Limits {
        let excluded = self
            .blocked
            .iter()
            .filter(|c| board.contains_xy(c.x, c.y))
            .map(|c| Pos::new(c.x as usize, c.y as usize))
            .collect();
        Limits {
            budget,
            max_depth: self
                .settings
                .max_depth
                .map(|d| d.min(i32::MAX as i64) as i32),
            max_nodes: self.settings.max_nodes.map(|n| n as u64),
            excluded,
            multipv: 1,
            threat_memory: self.threat_memory(),
        }
    }

    /// The thread count in force (`INFO thread_num`, else every core; at most the hardware
    /// threads).
    fn threads(&self) -> usize {
        match self.settings.threads {
            Some(t) => (t.max(1) as u64).min(MAX_THREADS as u64) as usize,
            None => crate::engine::max_threads(),
        }
        .min(crate::engine::max_threads())
    }

    /// Memory for the root VCT solver of a search under `max_memory`: what
    /// [`MEMORY_BUDGET_PERCENT`] of it leaves beside the table and the engine's other
    /// memory, at most [`crate::engine::ROOT_VCT_BYTES`] (what the engine plans for it);
    /// `None` without a limit. Less only when `max_memory` is small (under about 64 MiB).
    fn threat_memory(&self) -> Option<usize> {
        let free = self.memory_for_solvers(MEMORY_BUDGET_PERCENT)?;
        Some(free.min(crate::engine::ROOT_VCT_BYTES as u64) as usize)
    }

    /// Bytes that `percent` % of `max_memory` leaves beside the table and the engine's other
    /// memory apart from the root VCT's share ([`crate::engine::ROOT_VCT_BYTES`]), for the
    /// threat solvers; `None` without a limit (`max_memory` not received or 0).
    fn memory_for_solvers(&self, percent: u64) -> Option<u64> {
        let m = self.settings.max_memory.filter(|&m| m > 0)? as u64;
        let table = self
            .settings
            .hash_bytes()
            .map_or(crate::engine::DEFAULT_HASH_BYTES as u64, |b| b as u64);
        let other =
            (Engine::memory_overhead(self.threads()) - crate::engine::ROOT_VCT_BYTES) as u64;
        Some((m / 100 * percent).saturating_sub(table + other))
    }

    /// Starts the search for our move (or answers at once when there is no time);
    /// `multipv` lines are searched and reported (YXNBEST), the best one played.
    fn request_move(&mut self, at: Instant, nbest: bool, multipv: usize) {
        let g = self.game.as_mut().expect("game");
        let me = g.me();
        g.board.set_side_to_move(me);
        if g.board.is_full() {
            self.error("board is full");
            return;
        }
        let board = g.board.clone();
        let (stones, points) = (board.stone_count(), board.width() * board.height());
        self.apply_engine_settings();
        let budget = match (self.budget_now(at, stones, points), self.brain.is_some()) {
            (Some(b), true) => b,
            _ => {
                self.charge_clock(at);
                let best = quick_move(&board);
                let r = SearchResult {
                    best,
                    pv: vec![best],
                    ..Default::default()
                };
                return self.finish_move(r, nbest);
            }
        };
        let limits = Limits {
            multipv,
            ..self.limits(budget, &board)
        };
        let kind = JobKind::Move { nbest };
        self.spawn(
            kind,
            at,
            stones,
            points,
            budget,
            move |brain, stop, on_info| {
                JobOutput::Move(brain.think(&board, &limits, stop, on_info))
            },
        );
    }

    /// SWAP2BOARD (docs/protocol.md §2.12): the stones alternate from black; the answer is decided
    /// by [`swap2::decide`] on the search thread.
    fn swap2(&mut self, body: Body, at: Instant) {
        self.report_bad_lines(&body);
        let g = self.game.as_ref().expect("game");
        let (w, h, rule) = (g.board.width(), g.board.height(), g.board.rule());
        let mut board = Board::new(w, h, rule).expect("size already checked");
        for l in &body.lines {
            if !board.contains_xy(l.at.x, l.at.y) {
                self.message(&format!(
                    "skipped SWAP2BOARD line {},{}: off the board",
                    l.at.x, l.at.y
                ));
                continue;
            }
            let p = Pos::new(l.at.x as usize, l.at.y as usize);
            if !board.is_empty(p) {
                self.message(&format!(
                    "skipped SWAP2BOARD line {},{}: square already given",
                    l.at.x, l.at.y
                ));
                continue;
            }
            board.make(p);
        }
        let n = board.ply();
        if ![0, 3, 5].contains(&n) {
            self.message(&format!("swap2 with {} stones: playing one move", n));
        }
        let g = self.game.as_mut().expect("game");
        g.board = board.clone();
        g.me = None;
        if board.empty_points().count() < if n == 0 { 3 } else { 1 } {
            self.error("board is full");
            return;
        }
        let (stones, points) = (board.stone_count(), w * h);
        self.apply_engine_settings();
        let settings_limits = self.limits(Budget::UNLIMITED, &board);
        match (self.budget_now(at, stones, points), self.brain.is_some()) {
            (Some(budget), true) => {
                let watch = if budget == Budget::UNLIMITED {
                    swap2::UNLIMITED_STAGE
                } else {
                    budget
                };
                self.spawn(
                    JobKind::Swap2,
                    at,
                    stones,
                    points,
                    watch,
                    move |brain, stop, _| {
                        let mut search = |b: &Board, bu: Budget| {
                            let limits = Limits {
                                budget: bu,
                                excluded: Vec::new(),
                                ..settings_limits.clone()
                            };
                            brain.think(b, &limits, stop, &mut |_| {})
                        };
                        JobOutput::Swap2(swap2::decide(&board, budget, &mut search))
                    },
                );
            }
            _ => {
                self.charge_clock(at);
                let mut quick = |b: &Board, _| SearchResult {
                    best: quick_move(b),
                    ..Default::default()
                };
                let a = swap2::decide(&board, Budget::fixed(0), &mut quick);
                self.finish_swap2(a);
            }
        }
    }

    /// Runs `work` on the search thread with the engine.
    fn spawn<F>(
        &mut self,
        kind: JobKind,
        at: Instant,
        stones: usize,
        points: usize,
        budget: Budget,
        work: F,
    ) where
        F: FnOnce(&mut B, &AtomicBool, &mut dyn FnMut(&SearchInfo)) -> JobOutput + Send + 'static,
    {
        let Some(mut brain) = self.brain.take() else {
            return;
        };
        let id = self.next_id;
        self.next_id += 1;
        self.seldepth = 0;
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let tx = self.tx.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let mut on_info = |info: &SearchInfo| {
                    let _ = tx.send(Event::Progress {
                        id,
                        info: info.clone(),
                    });
                };
                let out = catch_unwind(AssertUnwindSafe(|| {
                    work(&mut brain, &thread_stop, &mut on_info)
                }))
                .ok();
                let _ = tx.send(Event::Done { id });
                (brain, out)
            });
        let deadline = if budget.hard_ms >= Budget::UNLIMITED.hard_ms {
            None
        } else {
            at.checked_add(Duration::from_millis(
                budget.hard_ms.saturating_add(WATCHDOG_GRACE_MS),
            ))
        };
        match spawned {
            Ok(handle) => {
                self.job = Some(Job {
                    id,
                    kind,
                    stop,
                    handle,
                    at,
                    stones,
                    points,
                    deadline,
                })
            }
            Err(_) => {
                // No thread: the engine went with the closure. Answer with the quick move
                // from now on (the session stays usable, only weaker).
                self.message("could not start the search thread; playing quick moves");
                let board = self.game.as_ref().map(|g| g.board.clone());
                if matches!(kind, JobKind::FourMove) {
                    self.four_finish_move(None);
                } else if let Some(board) = board {
                    self.answer_quickly(kind, &board);
                }
            }
        }
    }

    /// Stops and discards the running job without printing its answer.
    fn abort_job(&mut self) {
        let Some(job) = self.job.take() else { return };
        job.stop.store(true, Ordering::SeqCst);
        if let Ok((brain, _)) = job.handle.join() {
            self.brain = Some(brain);
        }
    }

    /// The running job has sent `Done`: take the engine back and print the answer.
    fn finish_job(&mut self) {
        let Some(job) = self.job.take() else { return };
        if !matches!(job.kind, JobKind::Solve { .. }) {
            self.charge_clock(job.at);
        }
        let (brain, out) = match job.handle.join() {
            Ok((b, o)) => (Some(b), o),
            Err(_) => (None, None),
        };
        self.brain = brain;
        let board = self.game.as_ref().map(|g| g.board.clone());
        match (job.kind, out) {
            (JobKind::Move { nbest }, Some(JobOutput::Move(r))) => self.finish_move(r, nbest),
            (JobKind::Swap2, Some(JobOutput::Swap2(a))) => self.finish_swap2(a),
            (JobKind::Solve { vct }, Some(JobOutput::Solve(r))) => self.finish_solve(vct, &r),
            (JobKind::Opening(style, _), Some(JobOutput::Opening(d))) => {
                self.finish_opening(style, d)
            }
            (JobKind::FourMove, out) => {
                let r = match out {
                    Some(JobOutput::FourMove(r)) => Some(r),
                    _ => None,
                };
                self.four_finish_move(r);
            }
            (kind, _) => {
                // The search failed: answer with the quick move rather than nothing.
                self.message("search failed; playing the quick move");
                if let Some(board) = board {
                    self.answer_quickly(kind, &board);
                }
            }
        }
        self.run_deferred();
    }

    /// Prints progress of the running job as `show_detail` and the job kind ask.
    fn progress(&mut self, info: &SearchInfo) {
        let nbest = matches!(
            self.job.as_ref().map(|j| &j.kind),
            Some(JobKind::Move { nbest: true })
        );
        if nbest {
            self.out.line(&format::progress(info));
        }
        if self.settings.show_detail & 1 != 0 {
            if let Some(l) = format::realtime_best(info) {
                self.out.line(&l);
            }
        }
        if self.settings.show_detail & 2 != 0 {
            for l in format::info_block(info) {
                self.out.line(&l);
            }
        }
    }

    /// Plays and prints our move from a search result (a legal fallback replaces a move
    /// that is not an empty board point).
    fn finish_move(&mut self, r: SearchResult, nbest: bool) {
        let g = self.game.as_mut().expect("game");
        let me = g.me();
        let p = swap2::legal_or_quick(&g.board, r.best);
        let Some(p) = p else {
            self.error("board is full");
            return;
        };
        g.board.make_colored(p, me);
        g.me = Some(me);
        if nbest || r.depth > 0 {
            let info = SearchInfo {
                depth: r.depth,
                seldepth: if r.depth > 0 {
                    self.seldepth.max(r.depth)
                } else {
                    0
                },
                score: r.score,
                nodes: r.nodes,
                vcf_nodes: r.vcf_nodes,
                time_ms: r.time_ms,
                pv: if r.pv.first() == Some(&p) {
                    r.pv.clone()
                } else {
                    vec![p]
                },
                pv_index: 0,
                num_pv: 1,
            };
            self.out.line(&format::progress(&info));
        }
        self.out.line(&format::move_line(p));
    }

    /// Prints a swap2 answer and adds its stones to the board (alternating colours).
    /// Answers a job without searching (the search thread could not start or failed):
    /// the quick move, or swap2 decisions made from quick moves.
    fn answer_quickly(&mut self, kind: JobKind, board: &Board) {
        match kind {
            JobKind::Move { nbest } => {
                let best = quick_move(board);
                let r = SearchResult {
                    best,
                    ..Default::default()
                };
                self.finish_move(r, nbest)
            }
            JobKind::Swap2 => {
                let mut quick = |b: &Board, _| SearchResult {
                    best: quick_move(b),
                    ..Default::default()
                };
                let a = swap2::decide(board, Budget::fixed(0), &mut quick);
                self.finish_swap2(a);
            }
            JobKind::Opening(style, req) => self.answer_opening_quickly(style, &req),
            JobKind::Solve { vct } => {
                let r = crate::search::threat::SolveReport {
                    result: crate::search::threat::SolveResult::Unknown,
                    line: Vec::new(),
                    nodes: 0,
                    time_ms: 0,
                };
                self.finish_solve(vct, &r);
            }
            JobKind::FourMove => self.four_finish_move(None),
        }
    }

    /// Prints a `SOLVE` answer: a `MESSAGE` with the effort, then the `SOLVE` line.
    fn finish_solve(&mut self, vct: bool, r: &crate::search::threat::SolveReport) {
        self.message(&format!(
            "SOLVE {} nodes {} time_ms {}",
            if vct { "VCT" } else { "VCF" },
            r.nodes,
            r.time_ms
        ));
        self.out.line(&format::solve_line(r));
    }

    fn finish_swap2(&mut self, a: Option<Swap2Answer>) {
        let Some(a) = a else {
            self.error("board is full");
            return;
        };
        let g = self.game.as_mut().expect("game");
        for p in a.stones() {
            if g.board.contains(p) && g.board.is_empty(p) {
                g.board.make(p);
            }
        }
        self.out.line(&a.to_line());
    }
}
