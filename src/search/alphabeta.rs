//! Iterative-deepening principal-variation search, run by one or more threads that share
//! one transposition table (lazy SMP).
//!
//! Each thread owns a copy of the board, its history and killer tables and its PV table;
//! threads share the transposition table, the stop flags, the node counter and two results:
//! - the root threat search: the main thread runs the root VCF and VCT before its alpha-beta
//!   search while the helpers (if any) start theirs; a win it proves ends every thread and
//!   becomes the result, and so does a win proved in any thread's tree;
//! - helper iterations: odd helpers search one ply deeper than the main thread's current
//!   iteration and even ones level with it, so that the main thread finds the next depth in
//!   the table; the deepest iteration a helper completes replaces the main thread's result
//!   when it is deeper, and a helper completing the requested depth ends a fixed-depth search.
//!
//! Thread 0 (the main thread) decides when to stop on time and reports progress. With one
//! thread the search is deterministic (same node count for the same position, limits and
//! table size); `bench` and the tests rely on it.
//!
//! A node is searched in named phases (`node.rs`: window and verdicts, leaf, table,
//! judgement, before the moves, the moves, learning and storing); the per-move rules
//! (pruning, extensions, reductions, re-searches) are pure functions in `decide.rs`, the
//! static verdicts and the leaf search of fours in `leaf.rs`. What each rule does, where
//! its idea comes from and what it was measured to be worth: docs/strength.md §2. The
//! history formula (a gain growing with depth, each entry pulled back toward 0 the fuller
//! it is, the moves searched before the best one losing as much) is Stockfish's, with
//! Rapfi's constants for gomoku (`HISTORY_MAX`, `history_gain`).

use super::movegen::{self, MoveList, Node};
use super::params::PARAMS;
use super::threat::vcf::{VcfOutcome, VcfSolver};
use super::threat::vct::VctSolver;
use super::{Limits, PvLine, SearchInfo, SearchResult};
use crate::board::{Board, Combo};
use crate::core::{Color, Pos, POS_COUNT};
use crate::eval::features::class;
use crate::eval::{win_rate, Evaluator};
use crate::eval::{WIN, WIN_THRESHOLD};
use crate::tt::{
    score_from_tt, score_to_tt, Bound, PauseGuard, Plan, Preparation, TranspositionTable, NO_EVAL,
    STAND_IN_BYTES,
};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod decide;
mod leaf;
mod node;
mod root;

/// Deepest ply the search may reach.
pub const MAX_PLY: usize = 128;

/// State shared by the threads of one search.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    done: AtomicBool,
    /// Main-search nodes of every thread (one per [`Worker::search`] call: alpha-beta and
    /// quiescence nodes, as Rapfi counts them; docs/strength.md §5).
    nodes: AtomicU64,
    /// Nodes of the threat solvers (VCF and VCT) of every thread, counted apart.
    vcf_nodes: AtomicU64,
    start: Instant,
    hard: Duration,
    /// When the alpha-beta search is aborted: the hard limit less the time kept for the
    /// defensive threat check ([`DEFENCE_RESERVE_PERCENT`]).
    search_hard: Duration,
    /// Node limit ([`Limits::max_nodes`]): main-search and threat-solver nodes together, so
    /// that it bounds the work whatever the threat solvers' share.
    max_nodes: u64,
    /// Depth of the main thread's current iteration (0 before its first).
    main_depth: AtomicI32,
    /// The deepest iteration completed by a helper thread.
    helper_best: Mutex<Option<SearchResult>>,
    /// The score of our previous move's search (two plies earlier in the same game), for
    /// the time management's falling-score factor.
    prev_score: Option<i32>,
}

impl<'a> Shared<'a> {
    /// The state of one search started at `start` under `limits`; `prev_score` is the score
    /// of our previous move's search, if any (the clock's falling-score factor).
    fn new(
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        start: Instant,
        limits: &Limits,
        prev_score: Option<i32>,
    ) -> Shared<'a> {
        let hard_ms = limits.budget.hard_ms;
        Shared {
            tt,
            stop,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            vcf_nodes: AtomicU64::new(0),
            start,
            hard: Duration::from_millis(hard_ms),
            search_hard: Duration::from_millis(
                hard_ms - (hard_ms / 100 * DEFENCE_RESERVE_PERCENT).min(DEFENCE_RESERVE_MAX_MS),
            ),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            main_depth: AtomicI32::new(0),
            helper_best: Mutex::new(None),
            prev_score,
        }
    }

    #[inline]
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed)
    }
}

#[derive(Clone, Copy)]
struct RootMove {
    pos: Pos,
    score: i32,
    order: i32,
}

/// Per-thread search state.
struct Worker<'a> {
    id: usize,
    board: Board,
    shared: &'a Shared<'a>,
    /// Main-search nodes of this thread (see [`Shared::nodes`]).
    nodes: u64,
    flushed: u64,
    /// Threat-solver nodes of this thread not yet added to [`Shared::vcf_nodes`].
    vcf_nodes: u64,
    /// Work left before the next poll of the clock: one per node, one per solver node.
    poll_left: i64,
    aborted: bool,
    seldepth: i32,
    /// History per colour and point: [`SLOT_THREAT`] for moves that make a three or better,
    /// [`SLOT_CALM`] for the others; each within ±[`HISTORY_MAX`].
    history: Box<[[[i32; 2]; POS_COUNT]; 2]>,
    killers: Box<[[Pos; 2]; MAX_PLY]>,
    pv: Box<[[Pos; MAX_PLY]; MAX_PLY]>,
    pv_len: Box<[usize; MAX_PLY]>,
    root_moves: Vec<RootMove>,
    excluded: Vec<Pos>,
    vcf: VcfSolver,
    /// Incremental evaluation of `board`.
    ev: Evaluator,
    /// The VCT solver, made on first use.
    vct: Option<VctSolver>,
    /// The memory limit the VCT solver was made for ([`Limits::threat_memory`]).
    vct_memory: Option<usize>,
    /// Per ply of the current line: the move, its combo, the static evaluation and marks.
    line: Box<[Step; MAX_PLY + 1]>,
    /// The rule's late-move reduction factor times ln(i), by i (see [`Worker::reduction`]).
    lmr_lut: [Depth; LMR_TABLE_SIZE],
    /// Width of the root's aspiration window in the current root search.
    root_width: i32,
    /// The root's alpha (the lower edge of its window) in the current root search.
    root_low: i32,
    /// Per ply, the move left out by a singular test search ([`Pos::NONE`]: none).
    left_out: Box<[Pos; MAX_PLY]>,
}

/// Units of work (search nodes, threat-solver nodes) between two polls of the clock.
const POLL_INTERVAL: i64 = 1024;

/// Attacker nodes the VCF solver may spend at the root before the main search.
const ROOT_VCF_NODES: u64 = 400_000;
/// Most nodes the VCT solver may spend at the root before the main search (with a clock it
/// gets [`ROOT_VCT_NODES_PER_MS`] per millisecond of the move's target time, at least
/// [`ROOT_VCT_MIN_NODES`], and stops at the hard limit, at most [`ROOT_VCT_MAX_MS`]).
const ROOT_VCT_NODES: u64 = 200_000;
/// Root VCT nodes per millisecond of the move's target time.
const ROOT_VCT_NODES_PER_MS: u64 = 200;
/// Fewest root VCT nodes with a clock.
const ROOT_VCT_MIN_NODES: u64 = 5_000;
/// Longest root VCT attempt, in milliseconds.
const ROOT_VCT_MAX_MS: u64 = 3_000;
/// Attacker nodes of the VCF tried in interior nodes near the root (ply <= 2, depth >= 3).
const NODE_VCF_NODES: u64 = 3_000;
/// Attacker nodes of each defensive VCF check of the opponent after the chosen root move.
const DEFENCE_VCF_NODES: u64 = 30_000;
/// Nodes of the defensive VCT check of the opponent after the chosen root move without a
/// clock; with one it gets [`DEFENCE_VCT_NODES_PER_MS`] per millisecond of the target
/// time (the solver runs at 1-3 million nodes a second), at most [`DEFENCE_VCT_MAX_NODES`],
/// and stops at the hard limit.
const DEFENCE_VCT_NODES: u64 = 100_000;
/// Defensive VCT nodes per millisecond of the move's target time.
const DEFENCE_VCT_NODES_PER_MS: u64 = 1_000;
/// Most nodes of one defensive VCT check with a clock.
const DEFENCE_VCT_MAX_NODES: u64 = 1_000_000;
/// Share of the hard limit (percent) kept for the defensive check: the alpha-beta search
/// is aborted that much earlier.
const DEFENCE_RESERVE_PERCENT: u64 = 15;
/// At most this many milliseconds are kept for the defensive check.
const DEFENCE_RESERVE_MAX_MS: u64 = 200;

/// Plies from the position where `line` starts to the five it forces: the line itself, plus
/// two when its last move is a four that cannot be stopped (two five points, or a block
/// forbidden to black) rather than a five.
fn vcf_line_plies(board: &mut Board, line: &[Pos]) -> i32 {
    let n = line.len();
    for &p in &line[..n - 1] {
        board.make(p);
    }
    let last = line[n - 1];
    let five = board.is_five(board.side_to_move(), last);
    for _ in 0..n - 1 {
        board.undo();
    }
    n as i32 + if five { 0 } else { 2 }
}

/// The searcher: the shared transposition table, kept between searches.
///
/// The table can be resized, cleared and made resident in the background
/// ([`Searcher::prepare_in_background`]); until that is done, searches use a stand-in of at
/// most [`STAND_IN_BYTES`].
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    /// The real table while it is being prepared in the background (`tt` is then a stand-in).
    preparing: Option<Preparation>,
    /// Raised while a search runs: the preparation waits (see [`Preparation`]).
    pause: Arc<AtomicBool>,
    /// Ply and score of the last completed search (time management).
    last: Option<(usize, i32)>,
    /// Each search thread's threat solvers, kept between searches so that their tables are
    /// allocated (and their pages touched) once, not at every move.
    solvers: Vec<Solvers>,
}

/// The threat solvers of one search thread.
struct Solvers {
    vcf: VcfSolver,
    vct: Option<VctSolver>,
    vct_memory: Option<usize>,
}

impl Solvers {
    fn new() -> Solvers {
        Solvers {
            vcf: VcfSolver::with_table_bits(16),
            vct: None,
            vct_memory: None,
        }
    }

    /// Forgets what the solvers learned (new game) but keeps their memory.
    fn reset(&mut self) {
        self.vcf.reset();
        if let Some(v) = self.vct.as_mut() {
            v.reset();
        }
    }
}

impl Searcher {
    /// A searcher with a transposition table of at most `hash_bytes` bytes.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_bytes)),
            preparing: None,
            pause: Arc::default(),
            last: None,
            solvers: Vec::new(),
        }
    }

    /// Replaces the table with an empty one of at most `hash_bytes` bytes (the old one is
    /// freed first, so peak memory never holds both).
    pub fn resize_tt(&mut self, hash_bytes: usize) {
        if let Some(p) = self.preparing.take() {
            drop(p.wait(true));
        }
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(hash_bytes));
    }

    /// Size of the table in bytes (of the one being prepared, if any).
    pub fn tt_bytes(&self) -> usize {
        match &self.preparing {
            Some(p) => p.size_bytes(),
            None => self.tt.size_bytes(),
        }
    }

    /// Per mille of the table written in the last search.
    pub fn hashfull(&self) -> usize {
        self.tt.hashfull()
    }

    /// Makes the whole table resident now (see [`TranspositionTable::prefault`]); a no-op
    /// while a search holds it.
    pub fn prefault(&mut self) {
        self.finish_preparation();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.prefault();
        }
    }

    /// Empties the table (new game, `YXHASHCLEAR`) and forgets what the threat solvers
    /// learned.
    pub fn clear(&mut self) {
        self.solvers.iter_mut().for_each(Solvers::reset);
        self.finish_preparation();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => {
                let bytes = self.tt.size_bytes();
                self.resize_tt(bytes);
            }
        }
    }

    /// Starts carrying out `plan` (resize, clear, make resident) on a background thread and
    /// returns at once; until it is done, searches use a stand-in table of at most
    /// [`STAND_IN_BYTES`] (emptied when the plan clears). A plan with nothing to do starts
    /// nothing. While a preparation runs, a new plan is added to it.
    pub fn prepare_in_background(&mut self, plan: Plan) {
        if plan.clear {
            // A new game forgets what the threat solvers learned, as `clear` does.
            self.solvers.iter_mut().for_each(Solvers::reset);
        }
        if let Some(p) = self.preparing.take() {
            let p = p.then(plan);
            if plan.clear || plan.resize.is_some() {
                self.tt = Arc::new(TranspositionTable::new(1));
                self.tt = Arc::new(TranspositionTable::new(p.size_bytes().min(STAND_IN_BYTES)));
            }
            self.preparing = Some(p);
            return;
        }
        let tt = &self.tt;
        let work = plan.bytes_after(tt.size_bytes()) != tt.size_bytes()
            || (plan.clear && tt.is_dirty())
            || (plan.prefault && tt.needs_prefault());
        if !work {
            return;
        }
        let size = plan.bytes_after(tt.size_bytes());
        let stand_in = Arc::new(TranspositionTable::new(size.min(STAND_IN_BYTES)));
        let table = match Arc::try_unwrap(std::mem::replace(&mut self.tt, stand_in)) {
            Ok(t) => t,
            // Still shared (cannot happen between searches): prepare a fresh one.
            Err(_) => TranspositionTable::new(1),
        };
        let plan = Plan {
            resize: Some(size),
            ..plan
        };
        self.preparing = Some(Preparation::start(table, plan, self.pause.clone()));
    }

    /// Puts the table prepared in the background in place of the stand-in if it is ready,
    /// waiting for it at most `wait`; returns whether no preparation is left.
    pub fn install_prepared(&mut self, wait: Duration) -> bool {
        let Some(p) = self.preparing.as_mut() else {
            return true;
        };
        let ready = if wait.is_zero() {
            p.try_take()
        } else {
            p.take_within(wait)
        };
        match ready {
            Some(t) => {
                self.preparing = None;
                self.tt = Arc::new(t);
                true
            }
            None => false,
        }
    }

    /// Pauses the background preparation (between its 2 MiB slices) until the guard is
    /// dropped: the engine pauses it while it searches.
    pub fn pause_preparation(&self) -> PauseGuard {
        PauseGuard::new(&self.pause)
    }

    /// Waits for a background preparation to finish and puts its table in place.
    fn finish_preparation(&mut self) {
        if let Some(p) = self.preparing.take() {
            let t = p.wait(false);
            self.tt = Arc::new(t);
        }
    }

    /// Searches `board` for the side to move on `threads` threads within `limits`.
    /// `stop` may be raised from another thread; `on_info` gets a report after each
    /// completed iteration of the main thread.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        threads: usize,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let prev_score = self
            .last
            .filter(|&(ply, _)| ply + 2 == board.ply())
            .map(|(_, s)| s);
        let shared = Shared::new(&self.tt, stop, start, limits, prev_score);
        let threads = threads.max(1);
        let mut result = SearchResult::default();
        let mut solvers = std::mem::take(&mut self.solvers);
        solvers.resize_with(threads.max(solvers.len()), Solvers::new);
        let mut spare = solvers.split_off(threads);
        std::thread::scope(|scope| {
            let mut own = solvers.drain(..);
            let main_solvers = own.next().expect("one solver set per thread");
            let mut helpers = Vec::with_capacity(threads - 1);
            for (id, sv) in (1..threads).zip(own) {
                let shared = &shared;
                let board = board.clone();
                let limits = limits.clone();
                let h = std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(id, board, shared, &limits, sv);
                        w.iterate(&limits, &mut |_| {});
                        w.into_solvers()
                    })
                    .expect("spawn search thread");
                helpers.push(h);
            }
            let mut w = Worker::new(0, board.clone(), &shared, limits, main_solvers);
            result = w.iterate(limits, on_info);
            shared.done.store(true, Ordering::Relaxed);
            self.solvers.push(w.into_solvers());
            for h in helpers {
                // A helper that panicked has lost its solvers: a fresh set replaces them.
                self.solvers
                    .push(h.join().unwrap_or_else(|_| Solvers::new()));
            }
        });
        self.solvers.append(&mut spare);
        result.nodes = shared.nodes.load(Ordering::Relaxed);
        result.vcf_nodes = shared.vcf_nodes.load(Ordering::Relaxed);
        result.time_ms = start.elapsed().as_millis() as u64;
        self.last = Some((board.ply(), result.score));
        result
    }
}

impl<'a> Worker<'a> {
    fn new(
        id: usize,
        board: Board,
        shared: &'a Shared<'a>,
        limits: &Limits,
        solvers: Solvers,
    ) -> Worker<'a> {
        Worker {
            id,
            shared,
            nodes: 0,
            flushed: 0,
            vcf_nodes: 0,
            poll_left: POLL_INTERVAL,
            aborted: false,
            seldepth: 0,
            history: Box::new([[[0; 2]; POS_COUNT]; 2]),
            killers: Box::new([[Pos::NONE; 2]; MAX_PLY]),
            pv: Box::new([[Pos::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: Box::new([0; MAX_PLY]),
            root_moves: Vec::new(),
            excluded: limits.excluded.clone(),
            vcf: solvers.vcf,
            ev: Evaluator::new(&board),
            vct: solvers.vct,
            vct_memory: solvers.vct_memory,
            line: Box::new([Step::default(); MAX_PLY + 1]),
            lmr_lut: lmr_lut(board.rule()),
            root_width: 1,
            root_low: -WIN,
            left_out: Box::new([Pos::NONE; MAX_PLY]),
            board,
        }
    }

    /// Most nodes one root or defensive threat search may take under a node limit: an eighth
    /// of it (the limit counts solver nodes too, so the alpha-beta search keeps the rest).
    fn solver_share(&self) -> u64 {
        if self.shared.max_nodes == u64::MAX {
            u64::MAX
        } else {
            (self.shared.max_nodes / 8).max(1)
        }
    }

    /// The worker's threat solvers, for the next search.
    fn into_solvers(self) -> Solvers {
        Solvers {
            vcf: self.vcf,
            vct: self.vct,
            vct_memory: self.vct_memory,
        }
    }

    fn flush_nodes(&mut self) {
        let d = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.shared.nodes.fetch_add(d, Ordering::Relaxed);
        let v = std::mem::take(&mut self.vcf_nodes);
        self.shared.vcf_nodes.fetch_add(v, Ordering::Relaxed);
    }

    /// Counts `n` threat-solver nodes (apart from the main-search nodes) against the poll.
    #[inline]
    fn add_vcf_nodes(&mut self, n: u64) {
        self.vcf_nodes += n;
        self.poll_left -= n as i64;
    }

    /// Polls the stop conditions once [`POLL_INTERVAL`] units of work (nodes of the search
    /// and of the threat solvers) were done since the last poll; sets `aborted`.
    #[inline]
    fn poll(&mut self) {
        self.poll_left -= 1;
        if self.poll_left <= 0 {
            self.poll_left = POLL_INTERVAL;
            self.flush_nodes();
            if self.shared.start.elapsed() >= self.shared.search_hard
                || self.shared.nodes.load(Ordering::Relaxed)
                    + self.shared.vcf_nodes.load(Ordering::Relaxed)
                    >= self.shared.max_nodes
            {
                self.shared.done.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.should_stop() {
            self.aborted = true;
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.shared.start.elapsed().as_millis() as u64
    }
}

/// Moves of a node picked one at a time before the rest are sorted.
const PICKED_MOVES: usize = 3;

/// The order moves are tried in: the higher ordering score first, then the lower point.
#[inline(always)]
fn order_cmp(a: &(Pos, i32), b: &(Pos, i32)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(a.0.cmp(&b.0))
}

/// Whether move `a` is tried before move `b` ([`order_cmp`]).
#[inline(always)]
fn order_before(a: (Pos, i32), b: (Pos, i32)) -> bool {
    order_cmp(&a, &b) == std::cmp::Ordering::Less
}

/// A depth or depth change in plies; fractional, as reductions and extensions are.
pub(super) type Depth = f32;

/// One ply of the current line (see [`Worker::search`]).
#[derive(Clone, Copy)]
pub(super) struct Step {
    /// The move played from this ply ([`Pos::NONE`] before one is).
    pub played: Pos,
    /// The combo that move made for its side.
    pub shape: Combo,
    /// Static evaluation at this ply, side to move's view.
    pub eval: i32,
    /// The node is or was on a principal variation (this search or an earlier one).
    pub pv_mark: bool,
    /// Plies of extension beyond one a move taken on the line so far.
    pub ext_surplus: Depth,
}

impl Default for Step {
    fn default() -> Step {
        Step {
            played: Pos::NONE,
            shape: Combo::None,
            eval: 0,
            pv_mark: false,
            ext_surplus: 0.0,
        }
    }
}

/// History slot of moves that make a three or better.
const SLOT_THREAT: usize = 0;
/// History slot of the other moves.
const SLOT_CALM: usize = 1;
/// History entries stay within ± this.
const HISTORY_MAX: i32 = 10_692;

/// Moves a node of `depth` searches before the rest are pruned (once one does not lose):
/// (base + depth^exp) / (2 - improving), none below depth 1 but the first.
#[inline]
fn move_count_limit(depth: Depth, improving: bool) -> usize {
    let d = depth.max(0.0) as usize;
    let n = if d == 0 {
        0
    } else {
        MCP_TABLE[d.min(LMR_TABLE_SIZE - 1)]
    };
    n / if improving { 1 } else { 2 }
}

/// `base + d^exp` for every whole depth `d` below [`LMR_TABLE_SIZE`].
static MCP_TABLE: once_cell::sync::Lazy<[usize; LMR_TABLE_SIZE]> =
    once_cell::sync::Lazy::new(|| {
        let mut t = [0; LMR_TABLE_SIZE];
        for (d, v) in t.iter_mut().enumerate() {
            *v = (PARAMS.mcp_base + (d as f32).powf(PARAMS.mcp_exp)) as usize;
        }
        t
    });

/// Depths and move numbers at or above this read the last entry of the reduction table.
const LMR_TABLE_SIZE: usize = 64;

/// The rule's reduction factor F times ln(i) for every i below [`LMR_TABLE_SIZE`] (0 at 0):
/// a reduction is the product of two entries (docs/strength.md §2).
fn lmr_lut(rule: crate::core::Rule) -> [Depth; LMR_TABLE_SIZE] {
    let f = if rule.has_forbidden(Color::Black) {
        PARAMS.lmr_factor_renju
    } else {
        PARAMS.lmr_factor
    };
    let mut t = [0.0; LMR_TABLE_SIZE];
    for (i, v) in t.iter_mut().enumerate().skip(1) {
        *v = f * (i as Depth).ln();
    }
    t
}
