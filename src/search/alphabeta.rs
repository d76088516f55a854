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
//! Steps of a node (see [`Worker::search`]):
//! 1. count the node, poll the clock every 1024 nodes, stop if asked;
//! 2. mate-distance pruning; a full board is a draw;
//! 3. tactical classification by [`movegen::generate`]: five now, lost to two fives, flex win,
//!    forced block, defence of an open three;
//! 4. leaf: static evaluation, or a quiescence search of fours when the side to move can
//!    make one;
//! 5. transposition table probe and cut-off (non-PV nodes); futility pruning and razoring at
//!    shallow non-PV nodes (on the table score where its bound improves on the static
//!    evaluation); a small VCF near the root; internal iterative reduction when the table
//!    has no move;
//! 6. ordered moves (TT move, killers, threat scores, history); singular extension of the
//!    TT move; PVS with log x log late-move reductions and move-count pruning of quiet moves
//!    at shallow depth — never applied to forced blocks or defences of an open three;
//! 7. store the result (not for a singular-extension test search, which leaves a move out).
//!
//! The pruning and reduction rules, their parameters and the matches that chose them are
//! described in `docs/strength.md` §2.

use super::movegen::{self, MoveList, Node};
use super::params::PARAMS;
use super::threat::vcf::{VcfOutcome, VcfSolver};
use super::threat::vct::VctSolver;
use super::{Limits, PvLine, SearchInfo, SearchResult};
use crate::board::{Board, Combo};
use crate::core::{Pos, POS_COUNT};
use crate::eval::features::class;
use crate::eval::{win_rate, Evaluator};
use crate::eval::{WIN, WIN_THRESHOLD};
use crate::tt::{
    score_from_tt, score_to_tt, Bound, PauseGuard, Plan, Preparation, TranspositionTable, NO_EVAL,
    STAND_IN_BYTES,
};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

impl Shared<'_> {
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
    history: Box<[[i32; POS_COUNT]; 2]>,
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
    /// Static evaluation per ply of the current line (for "improving").
    eval_stack: Box<[i32; MAX_PLY]>,
    /// Per ply, the move left out by a singular-extension test search ([`Pos::NONE`]: none).
    skip: Box<[Pos; MAX_PLY]>,
    /// Nominal depth of the current iteration (bounds the extensions).
    root_depth: i32,
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
        self.solvers.clear();
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
            self.solvers.clear();
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
        let shared = Shared {
            tt: &self.tt,
            stop,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            vcf_nodes: AtomicU64::new(0),
            start,
            hard: Duration::from_millis(limits.budget.hard_ms),
            search_hard: Duration::from_millis(
                limits.budget.hard_ms
                    - (limits.budget.hard_ms / 100 * DEFENCE_RESERVE_PERCENT)
                        .min(DEFENCE_RESERVE_MAX_MS),
            ),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            main_depth: AtomicI32::new(0),
            helper_best: Mutex::new(None),
            prev_score: self
                .last
                .filter(|&(ply, _)| ply + 2 == board.ply())
                .map(|(_, s)| s),
        };
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
            history: Box::new([[0; POS_COUNT]; 2]),
            killers: Box::new([[Pos::NONE; 2]; MAX_PLY]),
            pv: Box::new([[Pos::NONE; MAX_PLY]; MAX_PLY]),
            pv_len: Box::new([0; MAX_PLY]),
            root_moves: Vec::new(),
            excluded: limits.excluded.clone(),
            vcf: solvers.vcf,
            ev: Evaluator::new(&board),
            vct: solvers.vct,
            vct_memory: solvers.vct_memory,
            eval_stack: Box::new([0; MAX_PLY]),
            skip: Box::new([Pos::NONE; MAX_PLY]),
            root_depth: 0,
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

    /// Iterative deepening; returns the best move of the last completed iteration (or a
    /// better one found by the interrupted iteration).
    fn iterate(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let mut moves = MoveList::new();
        let node = movegen::generate(&mut self.board, &self.ev, &mut moves);
        let mut result = SearchResult::default();
        // Immediate answers: a five, a forced single move, a flex win, or nothing to do.
        match node {
            Node::Win(p) => return self.instant(p, WIN - 1),
            Node::FlexWin(p) => return self.instant(p, WIN - 3),
            Node::Lost => {
                // Every move loses: block one five if we can, else any legal point.
                let p = moves
                    .first()
                    .map(|m| m.0)
                    .unwrap_or_else(|| super::quick_move(&self.board));
                return self.instant(p, -(WIN - 2));
            }
            Node::Moves { .. } => {}
        }
        moves.retain(|m| !self.excluded.contains(&m.0));
        if moves.is_empty() {
            // Renju black with only forbidden points (or all excluded): any empty point.
            let p = super::quick_move(&self.board);
            return self.instant(p, -(WIN - 2));
        }
        // A single move (a forced block): searched briefly all the same (to depth 10 or an
        // eighth of the target time), so that the score reported is the position's. The
        // first move of a game needs no search.
        let single = moves.len() == 1;
        if single && self.board.stone_count() == 0 {
            return self.instant(moves[0].0, 0);
        }
        // A forced win by continuous fours, then by continuous threats, ends the search at
        // once: the main thread looks for one first while the helpers start the alpha-beta
        // search, and a win it proves ends every thread.
        if self.id == 0 && !single {
            let win = self.root_threat_win(limits, self.shared.stop);
            self.flush_nodes();
            if let Some(r) = win {
                self.shared.done.store(true, Ordering::Relaxed);
                return r;
            }
        }
        moves.sort_by(order_cmp);
        self.root_moves = moves
            .iter()
            .map(|&(pos, order)| RootMove {
                pos,
                score: -WIN,
                order,
            })
            .collect();
        result.best = self.root_moves[0].pos;
        result.pv = vec![result.best];
        let max_depth = limits
            .max_depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut prev_score: i32 = 0;
        // Multi-PV on the main thread only; helpers fill the table for its first line.
        let num_pv = if self.id == 0 {
            limits.multipv.clamp(1, self.root_moves.len())
        } else {
            1
        };
        let mut lines: Vec<PvLine> = Vec::with_capacity(num_pv);
        // Best-move changes per iteration, halved each iteration (time management).
        let mut changes = 0.0f64;
        let mut last_best = Pos::NONE;
        let start_depth = 1 + (self.id % 2) as i32;
        let mut depth = start_depth;
        while depth <= max_depth {
            if self.id == 0 {
                self.shared.main_depth.store(depth, Ordering::Relaxed);
            } else {
                // Odd helpers one ply ahead of the main thread, even ones level with it, so
                // that the main thread finds the next depth's entries in the table.
                let target = self.shared.main_depth.load(Ordering::Relaxed) + (self.id % 2) as i32;
                depth = depth.max(target.min(max_depth));
            }
            self.seldepth = 0;
            // Line `k` of a multi-PV search is the best of the root moves from slot `k` on;
            // the earlier slots hold this iteration's better lines.
            lines.clear();
            let mut score = 0;
            for pv_idx in 0..num_pv {
                let prev = if pv_idx == 0 {
                    prev_score
                } else {
                    self.root_moves[pv_idx].score
                };
                let s = self.aspiration(depth, prev, pv_idx);
                if self.aborted {
                    break;
                }
                let mut pv = self.pv[0][..self.pv_len[0]].to_vec();
                if pv.first() != Some(&self.root_moves[pv_idx].pos) {
                    pv = vec![self.root_moves[pv_idx].pos];
                }
                self.root_moves[pv_idx].score = s;
                lines.push(PvLine { score: s, pv });
                if pv_idx == 0 {
                    score = s;
                }
            }
            if !self.aborted && num_pv > 1 {
                // A later pass can score above an earlier one (pruning differs): the lines
                // in score order, best first (the same stable sort on both), so that line 1
                // is the move played and the summary.
                self.root_moves[..num_pv].sort_by_key(|m| std::cmp::Reverse(m.score));
                lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                score = lines[0].score;
            }
            // The best root move is first in root_moves (moved there when it raised alpha).
            if self.aborted {
                // Keep a move the interrupted iteration proved better than the old best.
                let best = self.root_moves[0];
                if best.pos != result.best && best.score > prev_score && best.score > -WIN {
                    result.best = best.pos;
                    result.pv = vec![best.pos];
                    result.score = best.score;
                }
                break;
            }
            prev_score = score;
            result.best = self.root_moves[0].pos;
            result.score = score;
            result.depth = depth;
            result.pv = lines[0].pv.clone();
            if num_pv > 1 {
                result.lines = lines.clone();
            }
            if self.id != 0 {
                let mut best = self.shared.helper_best.lock().unwrap();
                let proven = score >= WIN_THRESHOLD;
                if best.as_ref().is_none_or(|b| {
                    if proven || b.score >= WIN_THRESHOLD {
                        score > b.score
                    } else {
                        depth > b.depth
                    }
                }) {
                    *best = Some(result.clone());
                }
                drop(best);
                // A proven win ends the search: it is the move to play.
                if proven {
                    self.shared.done.store(true, Ordering::Relaxed);
                    break;
                }
                // A helper that completes the requested depth ends the search.
                if limits.max_depth.is_some() && depth >= max_depth && limits.multipv <= 1 {
                    self.shared.done.store(true, Ordering::Relaxed);
                }
            }
            if self.id == 0 {
                self.flush_nodes();
                let (nodes, vcf_nodes, time_ms) = (
                    self.shared.nodes.load(Ordering::Relaxed),
                    self.shared.vcf_nodes.load(Ordering::Relaxed),
                    self.elapsed_ms(),
                );
                for (pv_index, line) in lines.iter().enumerate() {
                    on_info(&SearchInfo {
                        depth,
                        seldepth: self.seldepth,
                        score: line.score,
                        nodes,
                        vcf_nodes,
                        time_ms,
                        pv: line.pv.clone(),
                        pv_index,
                        num_pv,
                    });
                }
                // A proven result needs no deeper search.
                if score.abs() >= WIN_THRESHOLD
                    && depth > super::mate_plies(score).unwrap_or(0).abs() + 2
                {
                    break;
                }
                // Stop rule between iterations (see `Budget::should_stop`): the next
                // iteration would not finish, or the move's target time is spent, stretched
                // when the score fell since our previous move or the best move keeps changing.
                if result.best != last_best {
                    if last_best != Pos::NONE {
                        changes += 1.0;
                    }
                    last_best = result.best;
                }
                let drop = self
                    .shared
                    .prev_score
                    .map_or(0.0, |p| win_rate(p) - win_rate(score));
                if limits
                    .budget
                    .should_stop(self.elapsed_ms(), depth, drop, changes)
                {
                    break;
                }
                if single && (depth >= 10 || self.elapsed_ms() * 8 >= limits.budget.soft_ms) {
                    break;
                }
                changes *= 0.5;
            }
            depth += 1;
        }
        self.flush_nodes();
        // A helper's deeper completed iteration replaces the main thread's result, unless
        // the main thread has proved a win or a loss (or reports several lines).
        // A helper's proven win always replaces a result that is not a faster win.
        if self.id == 0 && num_pv == 1 {
            if let Some(h) = self.shared.helper_best.lock().unwrap().take() {
                let adopt = if h.score >= WIN_THRESHOLD {
                    h.score > result.score
                } else {
                    result.score.abs() < WIN_THRESHOLD && h.depth > result.depth
                };
                if adopt {
                    result = h;
                }
            }
        }
        if self.id == 0 && result.score > -WIN_THRESHOLD && result.score < WIN_THRESHOLD {
            self.avoid_opponent_threats(&mut result, limits);
            // Multi-PV: the move played leads the lines, and the summary is line 1.
            if !result.lines.is_empty() && result.lines[0].pv.first() != Some(&result.best) {
                match result
                    .lines
                    .iter()
                    .position(|l| l.pv.first() == Some(&result.best))
                {
                    Some(i) => {
                        let line = result.lines.remove(i);
                        result.lines.insert(0, line);
                    }
                    None => {
                        result.lines.insert(
                            0,
                            PvLine {
                                score: result.score,
                                pv: result.pv.clone(),
                            },
                        );
                        result.lines.truncate(num_pv);
                    }
                }
            }
            if let Some(first) = result.lines.first() {
                result.score = first.score;
                result.pv = first.pv.clone();
            }
        }
        result
    }

    /// Root VCF, then root VCT within a share of the time: a winning line if one is found.
    /// `stop` ends both early.
    fn root_threat_win(&mut self, limits: &Limits, stop: &AtomicBool) -> Option<SearchResult> {
        let start = self.shared.start;
        let timed = limits.budget != crate::time::Budget::UNLIMITED;
        self.vcf.set_deadline(Some(start + self.shared.hard / 4));
        let budget = ROOT_VCF_NODES.min(self.solver_share());
        let vcf = self.vcf.solve(&mut self.board, budget, stop);
        self.add_vcf_nodes(self.vcf.nodes());
        self.vcf.set_deadline(None);
        let line = match vcf {
            VcfOutcome::Win(line) => Some(line),
            _ if self.board.stone_count() >= 4 => {
                // Nodes in proportion to the move's target time; the deadline only guards
                // the clock (a loaded machine). No clock (bench, fixed-depth analysis): the
                // node budget alone, so that the result is deterministic.
                //
                // The deadline is the hard limit itself, not the alpha-beta's abort point
                // (`search_hard`, 85 % of it): on a loaded machine (issue 34: steal time, a
                // second build beside the tests) a proof that needs its nodes past 85 % of the
                // limit was cut there, and the move played came from an alpha-beta search that
                // had no time left (depth 0 or 1). A proof found before the hard limit is the
                // move to play and needs no defensive check, so the reserve kept for that
                // check is the VCT's to use.
                let (nodes, deadline) = if timed {
                    let nodes = (limits.budget.soft_ms.saturating_mul(ROOT_VCT_NODES_PER_MS))
                        .clamp(ROOT_VCT_MIN_NODES, ROOT_VCT_NODES);
                    let ms = (self.shared.hard.as_millis() as u64).min(ROOT_VCT_MAX_MS);
                    (nodes, Some(start + Duration::from_millis(ms)))
                } else {
                    (ROOT_VCT_NODES, None)
                };
                let budget = nodes.min(self.solver_share());
                let mut vct = self.take_vct_solver(limits);
                let r = vct.solve(&mut self.board, budget, deadline, stop);
                self.add_vcf_nodes(vct.nodes());
                self.vct = Some(vct);
                match r {
                    VcfOutcome::Win(line) => Some(line),
                    _ => None,
                }
            }
            _ => None,
        }?;
        if self.excluded.contains(&line[0]) || !self.board.is_empty(line[0]) {
            return None;
        }
        let plies = vcf_line_plies(&mut self.board, &line);
        let mut r = self.instant(line[0], WIN - plies);
        r.pv = line;
        r.depth = plies;
        Some(r)
    }

    /// The worker's VCT solver (made on first use, sized by [`Limits::threat_memory`]);
    /// put it back in `self.vct` after use.
    fn take_vct_solver(&mut self, limits: &Limits) -> VctSolver {
        if self.vct_memory != limits.threat_memory {
            // Made for another memory limit: make a new one.
            self.vct = None;
            self.vct_memory = limits.threat_memory;
        }
        self.vct
            .take()
            .unwrap_or_else(|| match limits.threat_memory {
                Some(bytes) => super::threat::vct::vct_solver_for(bytes),
                None => VctSolver::new(),
            })
    }

    /// Defence: if the opponent has a VCF or VCT after the chosen move, play the best root
    /// move after which it is proved to have none (else the first whose check is
    /// inconclusive; else keep the move). Uses the time left before the hard limit, of which
    /// [`DEFENCE_RESERVE_PERCENT`] is kept for it (without a clock: node budgets only).
    fn avoid_opponent_threats(&mut self, result: &mut SearchResult, limits: &Limits) {
        let timed = limits.budget != crate::time::Budget::UNLIMITED;
        let now = Instant::now();
        let hard = self.shared.start + self.shared.hard;
        if now >= hard {
            return;
        }
        let deadline = hard;
        let stop = self.shared.stop;
        let vct_nodes = if timed {
            (limits
                .budget
                .soft_ms
                .saturating_mul(DEFENCE_VCT_NODES_PER_MS))
            .clamp(ROOT_VCT_MIN_NODES, DEFENCE_VCT_MAX_NODES)
        } else {
            DEFENCE_VCT_NODES
        }
        .min(self.solver_share());
        let mut vct = self.take_vct_solver(limits);
        // Ok(true): the opponent wins after `p`; Ok(false): proved safe; Err: unknown.
        let mut opp_wins = |w: &mut Self, p: Pos, nodes: u64| -> Result<bool, ()> {
            w.board.make(p);
            w.vcf.set_deadline(Some(deadline));
            let mut r = match w.vcf.solve(&mut w.board, DEFENCE_VCF_NODES, stop) {
                VcfOutcome::Win(_) => Ok(true),
                _ => Err(()),
            };
            w.add_vcf_nodes(w.vcf.nodes());
            w.vcf.set_deadline(None);
            if r.is_err() {
                r = match vct.solve(&mut w.board, nodes, timed.then_some(deadline), stop) {
                    VcfOutcome::Win(_) => Ok(true),
                    VcfOutcome::None => Ok(false),
                    VcfOutcome::Unknown => Err(()),
                };
                w.add_vcf_nodes(vct.nodes());
            }
            w.board.undo();
            r
        };
        if opp_wins(self, result.best, vct_nodes) != Ok(true) {
            self.vct = Some(vct);
            return;
        }
        let candidates: Vec<(Pos, i32)> = self
            .root_moves
            .iter()
            .map(|m| (m.pos, m.score))
            .take(16)
            .collect();
        let mut fallback = None;
        for (p, score) in candidates {
            if p == result.best || Instant::now() >= deadline {
                continue;
            }
            match opp_wins(self, p, vct_nodes / 2) {
                Ok(false) => {
                    fallback = Some((p, score));
                    break;
                }
                Err(()) if fallback.is_none() => fallback = Some((p, score)),
                _ => {}
            }
        }
        self.vct = Some(vct);
        if let Some((p, score)) = fallback {
            result.best = p;
            result.pv = vec![p];
            if score > -WIN {
                result.score = score;
            }
        }
    }

    fn instant(&mut self, p: Pos, score: i32) -> SearchResult {
        SearchResult {
            best: p,
            score,
            depth: 0,
            nodes: self.nodes,
            vcf_nodes: self.vcf_nodes,
            time_ms: 0,
            pv: vec![p],
            lines: Vec::new(),
        }
    }

    /// The root search of one line at `depth` in aspiration windows around `prev` (from depth
    /// 5 on, widened on failure); see [`Worker::root_search`] for `first`.
    fn aspiration(&mut self, depth: i32, prev: i32, first: usize) -> i32 {
        let mut delta = 60;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < WIN_THRESHOLD {
            (prev - delta, prev + delta)
        } else {
            (-WIN, WIN)
        };
        loop {
            let s = self.root_search(depth, alpha, beta, first);
            if self.aborted {
                return s;
            }
            if s <= alpha && alpha > -WIN {
                alpha = (alpha - delta).max(-WIN);
                delta *= 2;
            } else if s >= beta && beta < WIN {
                beta = (beta + delta).min(WIN);
                delta *= 2;
            } else {
                return s;
            }
        }
    }

    /// Searches the root moves from slot `first` on (the slots before it hold this
    /// iteration's better multi-PV lines); the best one ends in slot `first`.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, first: usize) -> i32 {
        let mut best = -WIN;
        self.pv_len[0] = 0;
        self.root_depth = depth;
        // Stable order: last iteration's best first, then by score, then by order.
        if depth > 1 && first + 1 < self.root_moves.len() {
            self.root_moves[first + 1..].sort_by(|a, b| {
                b.score
                    .cmp(&a.score)
                    .then(b.order.cmp(&a.order))
                    .then(a.pos.cmp(&b.pos))
            });
        }
        for i in first..self.root_moves.len() {
            let p = self.root_moves[i].pos;
            self.make(p);
            let score = if i == first {
                -self.search(-beta, -alpha, depth - 1, 1, true, false)
            } else {
                let mut s = -self.search(-alpha - 1, -alpha, depth - 1, 1, false, true);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.search(-beta, -alpha, depth - 1, 1, true, false);
                }
                s
            };
            self.undo();
            if self.aborted {
                return best;
            }
            self.root_moves[i].score = if i == first || score > alpha {
                score
            } else {
                -WIN
            };
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                // Move to slot `first`, keep the others' order.
                let rm = self.root_moves.remove(i);
                self.root_moves.insert(first, rm);
                self.pv[0][0] = p;
                let child_len = self.pv_len[1];
                for j in 0..child_len {
                    self.pv[0][j + 1] = self.pv[1][j];
                }
                self.pv_len[0] = child_len + 1;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Plays `p` on the worker's board and updates its evaluator.
    #[inline]
    fn make(&mut self, p: Pos) {
        self.board.make(p);
        // The child's table entry is loaded while its evaluation is brought up to date.
        self.shared.tt.prefetch(self.tt_key());
        self.ev.make(&self.board);
    }

    /// The position's table key: the board hash with the side to move.
    #[inline]
    fn tt_key(&self) -> u64 {
        self.board.hash() ^ (self.board.side_to_move() as u64)
    }

    /// A VCF of the side to move within `nodes` attacker nodes, at a node of `ply` with no
    /// five point on either side (step 3 passed, not `forced`): the win's score, if any.
    fn vcf_win(&mut self, nodes: u64, ply_i: i32) -> Option<i32> {
        let r = self
            .vcf
            .solve_without_fives(&mut self.board, nodes, self.shared.stop);
        self.add_vcf_nodes(self.vcf.nodes());
        match r {
            VcfOutcome::Win(line) => Some(WIN - ply_i - vcf_line_plies(&mut self.board, &line)),
            _ => None,
        }
    }

    /// Takes back the last [`Worker::make`].
    #[inline]
    fn undo(&mut self) {
        self.board.undo();
        self.ev.undo();
    }

    /// The node search (module doc, steps 1-7). `cut` marks an expected cut node: a
    /// null-window child of a PV node's later moves, or of an expected all node.
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut: bool,
    ) -> i32 {
        // Step 1.
        self.nodes += 1;
        self.poll();
        self.pv_len[ply] = 0;
        if self.aborted {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        // Step 2.
        let ply_i = ply as i32;
        alpha = alpha.max(-WIN + ply_i);
        beta = beta.min(WIN - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        if self.board.is_full() {
            return 0;
        }
        let me = self.board.side_to_move();
        let opp = me.opponent();
        if ply >= MAX_PLY - 4 {
            return self.ev.evaluate(me);
        }
        // Step 3: static verdicts from the threat-class counts (O(1)).
        if self.ev.five_points(me) > 0 {
            return WIN - ply_i - 1;
        }
        let caro = self.board.rule().has_caps();
        let opp_fives = self.ev.five_points(opp);
        if opp_fives >= 2 && !caro {
            return -(WIN - ply_i - 2);
        }
        if opp_fives == 0 && !caro && self.ev.four_line_points(opp) == 0 {
            let c = self.ev.counts(me);
            if c[class::FLEX4] > 0 {
                return WIN - ply_i - 3;
            }
            if PARAMS.static_mates != 0
                && !self.board.rule().has_forbidden(me)
                && (c[class::FOUR_THREE] > 0 || c[class::DOUBLE_THREE] > 0)
            {
                return WIN - ply_i - 5;
            }
        }
        let forced = opp_fives > 0;
        // Step 4: leaf; with fours to play, a quiescence search of them.
        if depth <= 0 && !forced {
            let static_eval = self.ev.evaluate(me);
            self.eval_stack[ply] = static_eval;
            // With `leaf_vcf`, a small VCF search of the side to move at the first leaf
            // (not inside the quiescence search) proves wins the fours below cannot see.
            if PARAMS.leaf_vcf > 0
                && depth == 0
                && static_eval < beta
                && self.ev.four_line_points(me) > 0
            {
                let win = self.vcf_win(PARAMS.leaf_vcf as u64, ply_i);
                if let Some(score) = win {
                    return score;
                }
            }
            if PARAMS.qs > 0
                && depth > -PARAMS.qs
                && static_eval < beta
                && self.ev.four_line_points(me) > 0
            {
                return self.quiescence_fours(alpha, beta, depth, ply, static_eval);
            }
            return static_eval;
        }
        // Step 5: the table; with `tt_eval`, a bounded table score that lies beyond the
        // static evaluation in its bound's direction stands in for it in the pruning below.
        let key = self.tt_key();
        let skip = self.skip[ply];
        let mut tt_move = Pos::NONE;
        let mut tt_hit = None;
        let mut tt_eval = NO_EVAL;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            tt_eval = e.eval;
            let s = score_from_tt(e.score, ply_i);
            tt_hit = Some((s, e.depth, e.bound));
            if !pv_node && skip == Pos::NONE && e.depth >= depth && e.bound.settles(s, alpha, beta)
            {
                return s;
            }
        }
        let static_eval = if forced {
            // A forced block: the position is judged by its answer.
            if ply >= 2 {
                self.eval_stack[ply - 2]
            } else {
                self.ev.evaluate(me)
            }
        } else if tt_eval != NO_EVAL {
            tt_eval
        } else {
            self.ev.evaluate(me)
        };
        self.eval_stack[ply] = static_eval;
        let improving = ply < 2 || static_eval > self.eval_stack[ply - 2];
        let prune_eval = match tt_hit {
            Some((s, _, b))
                if PARAMS.tt_eval != 0
                    && s.abs() < WIN_THRESHOLD
                    && b.settles(s, static_eval - 1, static_eval + 1) =>
            {
                s
            }
            _ => static_eval,
        };
        // Futility: far above beta with no threat of the opponent's pending, a shallow
        // non-PV node stands pat.
        if PARAMS.futility > 0
            && !pv_node
            && !forced
            && depth <= PARAMS.futility
            && beta.abs() < WIN_THRESHOLD
            && self.ev.counts(opp)[class::FLEX4] == 0
            && self.ev.counts(opp)[class::FOUR_THREE] == 0
            && prune_eval - PARAMS.futility_margin * (depth - improving as i32).max(1) >= beta
        {
            return prune_eval;
        }
        // Razoring: far below alpha at a shallow non-PV node with no threat on either side
        // (the side to move has no four to play, the opponent no three or four-three
        // pending): fail low on the static evaluation.
        if PARAMS.razor > 0
            && !pv_node
            && !forced
            && depth <= PARAMS.razor
            && alpha.abs() < WIN_THRESHOLD
            && self.ev.four_line_points(me) == 0
            && self.ev.counts(opp)[class::FLEX4] == 0
            && self.ev.counts(opp)[class::FOUR_THREE] == 0
            && prune_eval + PARAMS.razor_margin * depth < alpha
        {
            return prune_eval;
        }
        // Razoring with threats (`razor_qs`): far below alpha at a shallow non-PV node, the
        // node is replaced by its quiescence search (the side to move's fours), failing low
        // unless they reach alpha.
        if PARAMS.razor_qs > 0
            && !pv_node
            && !forced
            && depth <= PARAMS.razor_qs
            && alpha.abs() < WIN_THRESHOLD
            && self.ev.counts(opp)[class::FLEX4] == 0
            && self.ev.counts(opp)[class::FOUR_THREE] == 0
            && prune_eval + PARAMS.razor_margin * depth < alpha
        {
            if self.ev.four_line_points(me) == 0 {
                return prune_eval;
            }
            let v = self.quiescence_fours(alpha, alpha + 1, 0, ply, static_eval);
            if self.aborted {
                return 0;
            }
            if v <= alpha {
                return v;
            }
        }
        // Near the root, a small VCF of the side to move proves wins the search would need
        // many plies for.
        if ply <= 2
            && depth >= 3
            && !forced
            && skip == Pos::NONE
            && self.ev.four_line_points(me) > 0
        {
            if let Some(score) = self.vcf_win(NODE_VCF_NODES, ply_i) {
                return score;
            }
        }
        // Internal iterative reduction: a node the table knows nothing about is searched
        // one ply shallower (its move ordering is poor, and a deeper search comes back with
        // a table move).
        let depth = if PARAMS.iir > 0 && tt_move == Pos::NONE && !forced && depth >= PARAMS.iir {
            depth - 1
        } else {
            depth
        };
        // Step 6.
        let mut moves = MoveList::new();
        let node = movegen::generate(&mut self.board, &self.ev, &mut moves);
        let defending = match node {
            Node::Win(_) => return WIN - ply_i - 1,
            Node::Lost => return -(WIN - ply_i - 2),
            Node::FlexWin(_) => return WIN - ply_i - 3,
            Node::Moves { defending, .. } => defending,
        };
        if moves.is_empty() {
            return -(WIN - ply_i - 2);
        }
        let mi = me.index();
        let killers = self.killers[ply];
        for m in moves.iter_mut() {
            if m.0 == tt_move {
                m.1 += 1 << 24;
            } else if m.0 == killers[0] || m.0 == killers[1] {
                m.1 += KILLER_BONUS;
            }
            m.1 += self.history[mi][m.0.index()] >> HISTORY_SHIFT;
        }
        // Forced blocks cost no depth; with `ext_three`, neither do answers to an open
        // three, so that threat sequences cost one ply per threat.
        let new_depth = if forced || (defending && PARAMS.ext_three != 0) {
            depth
        } else {
            depth - 1
        };
        let orig_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = Pos::NONE;
        let prune_count = if PARAMS.mcp == 1 || PARAMS.mcp == 2 {
            move_count_limit(depth, improving)
        } else {
            usize::MAX
        };
        let mut quiet_seen = 0usize;
        for i in 0..moves.len() {
            // Best first (score, then point): most nodes cut off after a few moves, so the
            // first ones are picked one at a time and the rest sorted only when reached.
            if i < PICKED_MOVES {
                let mut b = i;
                for j in i + 1..moves.len() {
                    if order_before(moves[j], moves[b]) {
                        b = j;
                    }
                }
                moves.swap(i, b);
            } else if i == PICKED_MOVES {
                moves[i..].sort_unstable_by(order_cmp);
            }
            let p = moves[i].0;
            if p == skip {
                continue;
            }
            // Singular extension: when every move but the table move fails low against a
            // margin below its table score, the table move is searched a ply deeper; when
            // even without it the node fails high, it is cut (multi-cut).
            let mut ext = 0;
            if let Some((tt_score, tt_depth, tt_bound)) = tt_hit {
                if PARAMS.se > 0
                    && p == tt_move
                    && ply > 0
                    && skip == Pos::NONE
                    && !forced
                    && depth >= PARAMS.se
                    && tt_depth >= depth - 3
                    && matches!(tt_bound, Bound::Lower | Bound::Exact)
                    && tt_score.abs() < WIN_THRESHOLD
                    && ply_i < 2 * self.root_depth
                {
                    let singular_beta = tt_score - PARAMS.se_margin * depth;
                    self.skip[ply] = p;
                    let v = self.search(
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        false,
                        cut,
                    );
                    self.skip[ply] = Pos::NONE;
                    if self.aborted {
                        return 0;
                    }
                    if v < singular_beta {
                        ext = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta && PARAMS.se_neg != 0 {
                        ext = -1;
                    }
                }
            }
            let my_combo = self.board.combo(me, p);
            let quiet = !forced
                && !defending
                && (my_combo < Combo::Three
                    || (PARAMS.bare_four_quiet != 0 && my_combo == Combo::Four))
                && self.board.combo(opp, p) < Combo::Three
                && p != tt_move;
            if quiet {
                quiet_seen += 1;
                // Move-count pruning: once a move that does not lose is known, quiet moves
                // late in the order are not searched at non-PV nodes.
                if PARAMS.mcp == 1 && !pv_node && best > -WIN_THRESHOLD && quiet_seen > prune_count
                {
                    continue;
                }
                // The same at every depth, counted over all moves (PV nodes with `mcp_pv`).
                if PARAMS.mcp == 2
                    && (!pv_node || PARAMS.mcp_pv != 0)
                    && best > -WIN_THRESHOLD
                    && i >= prune_count
                {
                    continue;
                }
                // Trivial moves (no shape for either side) at shallow depth.
                if depth < PARAMS.trivial_depth
                    && best > -WIN_THRESHOLD
                    && self.board.combo(me, p) == Combo::None
                    && self.board.combo(opp, p) == Combo::None
                {
                    continue;
                }
                if PARAMS.mcp == 0
                    && !pv_node
                    && depth <= PARAMS.mcp0_depth
                    && i >= (PARAMS.mcp0_base + PARAMS.mcp0_mul * depth) as usize
                    && best > -WIN_THRESHOLD
                {
                    break;
                }
            }
            self.make(p);
            let score = if i == 0 {
                -self.search(
                    -beta,
                    -alpha,
                    new_depth + ext,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut,
                )
            } else {
                // Late-move reductions.
                let mut r = 0;
                if PARAMS.lmr_new != 0 {
                    if depth >= PARAMS.lmr_depth && i >= 2 && !forced {
                        r = lmr(depth, i, quiet, pv_node, improving);
                        if cut && p != killers[0] && p != killers[1] {
                            r += PARAMS.lmr_cut;
                        }
                        r = r.min(new_depth - 1).max(0);
                    }
                } else if quiet && depth >= 3 && i >= 3 {
                    r = 1 + (i >= 8) as i32 + (depth >= 8 && i >= 16) as i32;
                    if pv_node {
                        r -= 1;
                    }
                }
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut);
                }
                if pv_node && s > alpha && s < beta && !self.aborted {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            };
            self.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.pv[ply][0] = p;
                        let child_len = self.pv_len[ply + 1];
                        for j in 0..child_len {
                            self.pv[ply][j + 1] = self.pv[ply + 1][j];
                        }
                        self.pv_len[ply] = child_len + 1;
                    }
                    if alpha >= beta {
                        if !forced {
                            let k = &mut self.killers[ply];
                            if k[0] != p {
                                k[1] = k[0];
                                k[0] = p;
                            }
                            let h = &mut self.history[mi][p.index()];
                            *h += depth * depth * 16 - *h * depth * depth / 512;
                        }
                        break;
                    }
                }
            }
        }
        // Step 7.
        if skip != Pos::NONE {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best, ply_i),
            static_eval,
            depth,
            bound,
        );
        best
    }
}

impl Worker<'_> {
    /// Quiescence search at a leaf (`depth` <= 0) where the side to move can make a four:
    /// the static evaluation `stand_pat` stands unless one of its fours (each answered by
    /// the forced block, which costs no depth) does better; every four costs one ply, so
    /// the line ends after `PARAMS.qs` fours.
    fn quiescence_fours(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        stand_pat: i32,
    ) -> i32 {
        // The static verdicts of `search` (a five point, the opponent's five point, a
        // straight four) are settled before this is called.
        let mut moves = MoveList::new();
        movegen::generate_fours(&self.board, &self.ev, &mut moves);
        moves.sort_unstable_by(order_cmp);
        let mut best = stand_pat;
        alpha = alpha.max(stand_pat);
        for &(p, _) in moves.iter() {
            self.make(p);
            let s = -self.search(-beta, -alpha, depth - 1, ply + 1, false, false);
            self.undo();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Moves of a node picked one at a time before the rest are sorted.
const PICKED_MOVES: usize = 3;

/// Ordering bonus of the ply's two killer moves, in ordering units (100 a logit of the
/// learned move ordering; docs/strength.md §2, step 4).
const KILLER_BONUS: i32 = 500;

/// History scores (at most 8 192) are divided by 2^this in move ordering, so that they add
/// up to about 1.3 logits (docs/strength.md §2, step 4).
const HISTORY_SHIFT: i32 = 6;

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

/// Quiet moves searched at a non-PV node of `depth` before the rest are pruned.
#[inline]
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let d = depth.max(1) as f64;
    let n = (PARAMS.mcp_base + d.powf(PARAMS.mcp_exp)) / if improving { 1.0 } else { 2.0 };
    n as usize
}

/// Depths and move numbers below this read [`lmr`] from [`LMR_TABLE`].
const LMR_TABLE_SIZE: usize = 64;

/// [`lmr_formula`] for every depth and move number below [`LMR_TABLE_SIZE`] and each of the
/// eight (quiet, PV node, improving) cases, computed once.
static LMR_TABLE: once_cell::sync::Lazy<Box<[[[i8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]; 8]>> =
    once_cell::sync::Lazy::new(|| {
        let mut t = Box::new([[[0i8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]; 8]);
        for (f, plane) in t.iter_mut().enumerate() {
            for (d, row) in plane.iter_mut().enumerate() {
                for (i, r) in row.iter_mut().enumerate() {
                    let v = lmr_formula(d as i32, i, f & 1 != 0, f & 2 != 0, f & 4 != 0);
                    *r = v.clamp(0, i8::MAX as i32) as i8;
                }
            }
        }
        t
    });

/// Late-move reduction in plies for the `i`-th move (from 0) at `depth` ([`lmr_formula`],
/// read from a table for the common cases).
#[inline]
fn lmr(depth: i32, i: usize, quiet: bool, pv_node: bool, improving: bool) -> i32 {
    if (depth as usize) < LMR_TABLE_SIZE && i < LMR_TABLE_SIZE {
        let f = quiet as usize | (pv_node as usize) << 1 | (improving as usize) << 2;
        LMR_TABLE[f][depth as usize][i] as i32
    } else {
        lmr_formula(depth, i, quiet, pv_node, improving)
    }
}

/// Late-move reduction in plies for the `i`-th move (from 0) at `depth`: the factor times
/// ln(depth) ln(move number), with the adjustments of docs/strength.md §2, step 6.
fn lmr_formula(depth: i32, i: usize, quiet: bool, pv_node: bool, improving: bool) -> i32 {
    if depth < 1 || i < 1 {
        return 0;
    }
    let base = (depth as f64).ln() * (i as f64).ln() * PARAMS.lmr_factor;
    let mut r = if quiet {
        base + PARAMS.lmr_quiet
    } else {
        base * PARAMS.lmr_threat_mul + PARAMS.lmr_threat_add
    };
    if pv_node {
        r -= 1.0;
    }
    if !improving {
        r += 0.5;
    }
    r.round().max(0.0) as i32
}
