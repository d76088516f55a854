//! Exact VCF (victory by continuous fours, docs/rules.md §2) for the side to move, renju-aware
//! (docs/rules.md §3).
//!
//! The game tree of a VCF is narrow: every attacker move is a four, so the defender's answer
//! is forced (the single five point of the four), and the only freedom is the attacker's
//! choice among its fours. The solver is a plain depth-first search over that tree:
//!
//! 1. At the root the attacker wins at once with a five point. If the defender has two or
//!    more five points the attacker (with none) has lost; with one, the attacker's first four
//!    must be played on it.
//! 2. At each attacker node the candidate fours are the empty points where some line pattern
//!    of the attacker is a four or better ([`crate::board::has_four_line`]: `Four`,
//!    `StraightFour`, `DoubleFour` or `Five`). They are kept incrementally: the list of a child
//!    node is the parent's list, filtered, plus the points on the four lines through the
//!    attacker's last stone (a move changes codes only there; a defender stone can only
//!    remove attacker fours). Renju black never plays a forbidden point
//!    ([`Board::forbidden`] is consulted only for double-three candidates such as 4-3-3;
//!    overlines and double fours are visible in the combo).
//! 3. After an attacker four the five points are read from the four's own lines (at most
//!    four points on each side): two or more win ("unstoppable"); one is the forced block.
//!    If the block is forbidden to a renju black defender the attacker wins (forbidden-point
//!    capture); if the block makes a five for the defender the line fails.
//!    Caro (docs/protocol.md §5.3) is the exception: a five with opponent stones right beyond
//!    both ends does not win, so a stone beyond one end can stop a four, and one stone can
//!    stop a straight four. There every defence ([`five_defences`]: blocks and caps) is
//!    tried and all must lose; none at all is a win. (The attacker still answers a defender
//!    four only on its five point, so a caro win that needs a cap by the attacker can be
//!    missed, never invented.)
//! 4. After the block, the defender's new five points are read from the lines through the
//!    block. Two or more refute the line (the attacker has no five left); one forces the
//!    attacker's next four onto it.
//! 5. Positions without a VCF are remembered in a direct-mapped table of 64-bit words: the
//!    key ([`Board::hash`] salted by the attacker's colour) with its low byte replaced by the
//!    number of fours the failed search was allowed (255: unlimited, an exact failure). An
//!    exact failure is a fact about the position (the state of step 1 follows from the
//!    stones), so entries stay valid across calls on the same rule and board size; they are
//!    dropped when either changes. A depth-limited entry answers only searches with at most
//!    that limit, and never replaces an exact one. A search cut short by the node budget, the
//!    stop flag or a deadline stores nothing above the cut.
//! 6. The search runs in two passes: wins of at most `FIRST_LIMIT` (6) fours first, then, if
//!    some line was cut by that limit, the unlimited search. Depth-first search with no
//!    limit can spend 100 000 nodes in a long failing line before it tries a short win next
//!    to it; the short pass finds those wins first, and the exact failures it stores make
//!    the second pass cheaper.
//!
//! Fours are tried strongest combo first (straight four, 4-3, four with a two, ...), ties
//! broken by point so that results are deterministic.
//!
//! Invariant: the board is restored exactly (every stone taken back, side to move unchanged)
//! before any entry point returns.

use crate::board::{is_four_point, is_legal, Board, Combo, Pattern, DELTA};
use crate::core::{Color, Pos, Rule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Result of a VCF or VCT search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VcfOutcome {
    /// A forced win for the side to move. The line alternates attacker, defender,
    /// attacker, ... and ends with the attacker's winning move: a five, a four with two five
    /// points, or (renju, white attacking) a four whose only block is forbidden to black.
    Win(Vec<Pos>),
    /// Proved: the side to move has no such win.
    None,
    /// The node budget, the deadline or the stop flag ended the search first.
    Unknown,
}

impl VcfOutcome {
    /// Whether this is a win.
    pub fn is_win(&self) -> bool {
        matches!(self, VcfOutcome::Win(_))
    }
    /// The first move of a win.
    pub fn first_move(&self) -> Option<Pos> {
        match self {
            VcfOutcome::Win(line) => line.first().copied(),
            _ => None,
        }
    }
    /// The winning line (empty when not a win).
    pub fn line(&self) -> &[Pos] {
        match self {
            VcfOutcome::Win(line) => line,
            _ => &[],
        }
    }
}

/// The five points of `c` created by its stone just placed at `p`, reading only the lines
/// where `p` held a four before the move (`pre_code` is `c`'s code at `p` before the move).
/// Returns how many (capped at 2) and the first one.
#[inline]
pub fn new_five_points(board: &Board, c: Color, p: Pos, pre_code: u16) -> (u32, Pos) {
    let mut n = 0;
    let mut first = Pos::NONE;
    for_each_new_five(board, c, p, pre_code, |q| {
        if n == 0 {
            first = q;
        }
        n += 1;
        n < 2
    });
    (n, first)
}

/// Calls `f` on each five point of `c` on the lines where `p` held a four before `c`'s
/// stone went there (`pre_code`: `c`'s code at `p` before the move), until `f` returns
/// false. A point on two such lines is reported once per line.
#[inline]
fn for_each_new_five(
    board: &Board,
    c: Color,
    p: Pos,
    pre_code: u16,
    mut f: impl FnMut(Pos) -> bool,
) {
    for (d, &delta) in DELTA.iter().enumerate() {
        let nib = (pre_code >> (4 * d)) & 0xF;
        if !(Pattern::Four as u16..=Pattern::DoubleFour as u16).contains(&nib) {
            continue;
        }
        let shift = 4 * d as u32;
        for k in [-4i32, -3, -2, -1, 1, 2, 3, 4] {
            let q = Pos((p.index() as i32 + k * delta) as u16);
            if board.is_empty(q)
                && (board.code(c, q) >> shift) & 0xF == Pattern::Five as u16
                && !f(q)
            {
                return;
            }
        }
    }
}

/// Every five point of `c` on the board, at most `cap` of them, row by row from `a1`. A five
/// point has a stone next to it, so only the move candidates are scanned.
pub fn five_points(board: &Board, c: Color, cap: usize) -> Vec<Pos> {
    let mut out = Vec::new();
    board.for_each_candidate(|p| {
        if out.len() < cap && board.combo(c, p) == Combo::Five {
            out.push(p);
        }
    });
    out
}

/// A short list of points on the stack (it spills to the heap only past 32 points).
pub type PosList = smallvec::SmallVec<[Pos; 32]>;

/// Every five point of `c` on the lines where `p` held a four before `c`'s stone went there
/// (`pre_code`: `c`'s code at `p` before the move), into `out` (cleared first).
pub fn new_five_list(board: &Board, c: Color, p: Pos, pre_code: u16, out: &mut PosList) {
    out.clear();
    for_each_new_five(board, c, p, pre_code, |q| {
        out.push(q);
        true
    });
}

/// The defender's moves that leave `a` none of its five points `fives` (which must be all of
/// them): the five points themselves and, under caro, the points within five of them on
/// their lines that cap a five at an end. Legal for the defender; into `out` (cleared).
///
/// Without caps a defender's stone takes away only the five point it stands on (the other
/// fives are each made of the point and four stones of `a`, which it cannot touch), so the
/// answer is read off directly: the one five point if it is legal for the defender, and
/// nothing against two or more. Under caro every candidate is tried on the board.
pub fn five_defences(board: &mut Board, a: Color, fives: &[Pos], out: &mut PosList) {
    if board.rule().has_caps() {
        five_defences_by_trial(board, a, fives, out);
        return;
    }
    out.clear();
    let Some((&first, rest)) = fives.split_first() else {
        return;
    };
    if rest.iter().all(|&f| f == first) && is_legal(board, a.opponent(), first) {
        out.push(first);
    }
}

/// [`five_defences`] under caro: every empty point within five of a five point on the lines
/// where it makes a five is tried ([`Board::leaves_a_five`]; a stone on another line cannot
/// touch that five or its ends).
fn five_defences_by_trial(board: &mut Board, a: Color, fives: &[Pos], out: &mut PosList) {
    out.clear();
    let d = a.opponent();
    let mut cand = smallvec::SmallVec::<[Pos; 96]>::new();
    for &q in fives {
        cand.push(q);
        for dir in (0..4).filter(|&dir| board.pattern(a, q, dir) == Pattern::Five) {
            cand.extend(empty_within_five(board, q, dir));
        }
    }
    cand.sort_unstable();
    cand.dedup();
    for c in cand {
        if is_legal(board, d, c) && !board.leaves_a_five(c, d, a, fives) {
            out.push(c);
        }
    }
}

/// The empty points within five of `q` on its line of direction `dir` (an index into
/// [`DELTA`]), `q` itself left out: where a stone can cap a five through `q`.
fn empty_within_five(board: &Board, q: Pos, dir: usize) -> impl Iterator<Item = Pos> + '_ {
    (-5..=5i32)
        .filter(|&k| k != 0)
        .map(move |k| Pos((q.index() as i32 + k * DELTA[dir]) as u16))
        .filter(|&c| board.is_empty(c))
}

/// Outcome of one subtree.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Win,
    /// No win within the depth limit; `true` when no depth cut happened below (exact).
    Fail(bool),
    Abort,
}

/// Depth value meaning "no limit" (and, in the table, an exact failure).
const EXACT: u32 = 255;
/// Attacker fours allowed in the first pass (module doc, step 6). Measured on the data set (total / largest
/// node counts): 6 gave 606k / 24k, 5 747k / 136k, 7 682k / 23k, 8 685k / 44k, a single
/// unlimited pass 528k / 130k, doubling from 4 927k / 45k.
const FIRST_LIMIT: u32 = 6;

const SALT: [u64; 2] = [0x2545_f491_4f6c_dd1d, 0x9e6c_63d0_676a_9a99];

/// A reusable VCF solver: the table of positions without a VCF and scratch buffers, so that
/// repeated calls (for example at every node of the main search) allocate nothing once the
/// buffers have grown.
pub struct VcfSolver {
    fail: Vec<u64>,
    mask: usize,
    ctx: Option<(Rule, usize, usize)>,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    /// Nodes visited over every solve (for polling the clock).
    poll_nodes: u64,
    stamp: Vec<u32>,
    generation: u32,
    lists: Vec<Vec<Pos>>,
    moves: Vec<Vec<(u32, Pos)>>,
    path: Vec<Pos>,
    line: Vec<Pos>,
}

impl Default for VcfSolver {
    fn default() -> Self {
        VcfSolver::new()
    }
}

impl VcfSolver {
    /// A solver with a 2^18-entry (2 MiB) table of failed positions.
    pub fn new() -> VcfSolver {
        VcfSolver::with_table_bits(18)
    }

    /// A solver whose failed-position table has `2^bits` entries of 8 bytes (`bits` is
    /// clamped to 8..=28).
    pub fn with_table_bits(bits: u32) -> VcfSolver {
        let bits = bits.clamp(8, 28);
        VcfSolver {
            fail: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
            ctx: None,
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            poll_nodes: 0,
            stamp: vec![0; crate::core::POS_COUNT],
            generation: 0,
            lists: Vec::new(),
            moves: Vec::new(),
            path: Vec::new(),
            line: Vec::new(),
        }
    }

    /// Forgets every remembered position.
    pub fn clear(&mut self) {
        self.fail.iter_mut().for_each(|k| *k = 0);
    }

    /// Back to the state of a new solver of the same table size (new game), keeping the
    /// table's and the buffers' memory: no allocation, no page faults.
    pub fn reset(&mut self) {
        self.clear();
        self.ctx = None;
        self.nodes = 0;
        self.limit = u64::MAX;
        self.deadline = None;
        self.poll_nodes = 0;
        self.stamp.fill(0);
        self.generation = 0;
    }

    /// Attacker nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets a deadline checked every 1024 nodes by later calls (`None`: no deadline).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Searches a VCF for `attacker` whoever is to move (for a defence test: "does the
    /// opponent have a VCF if I pass?"); as [`VcfSolver::solve`] otherwise. The side to move
    /// is restored.
    pub fn solve_for(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_nodes: u64,
        stop: &AtomicBool,
    ) -> VcfOutcome {
        let side = board.side_to_move();
        board.set_side_to_move(attacker);
        let r = self.solve(board, max_nodes, stop);
        board.set_side_to_move(side);
        r
    }

    /// Searches a VCF for the side to move of `board`, visiting at most about `max_nodes`
    /// attacker nodes (pass `u64::MAX` for no limit); `stop` (and the deadline set by
    /// [`VcfSolver::set_deadline`]) ends the search early with [`VcfOutcome::Unknown`].
    /// The board is restored exactly before returning.
    pub fn solve(&mut self, board: &mut Board, max_nodes: u64, stop: &AtomicBool) -> VcfOutcome {
        self.solve_from(board, max_nodes, stop, true)
    }

    /// As [`VcfSolver::solve`] for a position the caller knows to hold no five point of
    /// either side (the search's leaves: its evaluator counts them), which saves the two
    /// scans of the board for them. Gives the same result as `solve` on such a position.
    pub fn solve_without_fives(
        &mut self,
        board: &mut Board,
        max_nodes: u64,
        stop: &AtomicBool,
    ) -> VcfOutcome {
        debug_assert!(five_points(board, board.side_to_move(), 1).is_empty());
        debug_assert!(five_points(board, board.side_to_move().opponent(), 1).is_empty());
        self.solve_from(board, max_nodes, stop, false)
    }

    fn solve_from(
        &mut self,
        board: &mut Board,
        max_nodes: u64,
        stop: &AtomicBool,
        scan_fives: bool,
    ) -> VcfOutcome {
        let ctx = (board.rule(), board.width(), board.height());
        if self.ctx != Some(ctx) {
            self.clear();
            self.ctx = Some(ctx);
        }
        self.nodes = 0;
        self.limit = max_nodes;
        self.path.clear();
        self.line.clear();
        if stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|t| Instant::now() >= t) {
            return VcfOutcome::Unknown;
        }
        let a = board.side_to_move();
        let d = a.opponent();
        // Step 1: an immediate five; the defender's five points.
        let mut forced = Pos::NONE;
        if scan_fives {
            if let Some(&p) = five_points(board, a, 1).first() {
                self.nodes = 1;
                return VcfOutcome::Win(vec![p]);
            }
            let dfives = five_points(board, d, 2);
            if dfives.len() >= 2 {
                self.nodes = 1;
                return VcfOutcome::None;
            }
            forced = dfives.first().copied().unwrap_or(Pos::NONE);
        }
        // Two passes: wins of at most FIRST_LIMIT fours first, so that a short win is not
        // missed while the depth-first search wanders down a long failing line; then, if some
        // line was cut, the unlimited (exact) search, which reuses the exact failures of the
        // first pass.
        let mut limit = FIRST_LIMIT;
        loop {
            match self.attack(board, a, 0, limit, forced, Pos::NONE, stop) {
                Step::Win => return VcfOutcome::Win(std::mem::take(&mut self.line)),
                Step::Fail(true) => return VcfOutcome::None,
                Step::Fail(false) => limit = EXACT,
                Step::Abort => return VcfOutcome::Unknown,
            }
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & self.mask
    }

    /// Fills `lists[depth]` with the attacker's four points (see the module doc, step 2).
    fn collect(&mut self, b: &Board, a: Color, depth: usize, last: Pos) {
        while self.lists.len() <= depth {
            self.lists.push(Vec::with_capacity(32));
            self.moves.push(Vec::with_capacity(32));
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        list.clear();
        if depth == 0 || last.is_none() {
            // A four point has an own stone within two points on its line: a candidate.
            b.for_each_candidate(|p| {
                if is_four_point(b, a, p) {
                    list.push(p);
                }
            });
        } else {
            self.generation = self.generation.wrapping_add(1);
            if self.generation == 0 {
                self.stamp.iter_mut().for_each(|s| *s = 0);
                self.generation = 1;
            }
            let g = self.generation;
            for &p in &self.lists[depth - 1] {
                if b.is_empty(p) && is_four_point(b, a, p) {
                    self.stamp[p.index()] = g;
                    list.push(p);
                }
            }
            let li = last.index() as i32;
            for &delta in &DELTA {
                for k in -5..=5i32 {
                    let q = Pos((li + k * delta) as u16);
                    if b.is_empty(q) && self.stamp[q.index()] != g && is_four_point(b, a, q) {
                        self.stamp[q.index()] = g;
                        list.push(q);
                    }
                }
            }
        }
        self.lists[depth] = list;
    }

    /// Attacker node: `remaining` fours may still be played ([`EXACT`]: no limit).
    #[allow(clippy::too_many_arguments)]
    fn attack(
        &mut self,
        b: &mut Board,
        a: Color,
        depth: usize,
        remaining: u32,
        forced: Pos,
        last: Pos,
        stop: &AtomicBool,
    ) -> Step {
        if remaining == 0 {
            return Step::Fail(false);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            return Step::Abort;
        }
        // The clock is polled every 1024 nodes counted across solves, so that many small
        // solves (the VCT's sub-searches) cannot run past the deadline between polls.
        self.poll_nodes = self.poll_nodes.wrapping_add(1);
        if self.poll_nodes & 1023 == 0
            && (stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|t| Instant::now() >= t))
        {
            return Step::Abort;
        }
        let key = (b.hash() ^ SALT[a.index()]) & !0xFF;
        let slot = self.slot(key);
        let entry = self.fail[slot];
        if entry & !0xFF == key && (entry & 0xFF) as u32 >= remaining {
            return Step::Fail(entry & 0xFF == EXACT as u64);
        }
        self.collect(b, a, depth, last);
        let mut moves = std::mem::take(&mut self.moves[depth]);
        moves.clear();
        if !forced.is_none() {
            if is_four_point(b, a, forced) && is_legal(b, a, forced) {
                moves.push((0, forced));
            }
        } else {
            for &p in &self.lists[depth] {
                let combo = b.combo(a, p);
                if combo == Combo::Forbidden
                    || (matches!(combo, Combo::DoubleThree | Combo::Flex4) && !is_legal(b, a, p))
                {
                    continue;
                }
                moves.push((combo as u32, p));
            }
            moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        }
        let dc = a.opponent();
        let d_forbidden = b.rule().has_forbidden(dc);
        let caps = b.rule().has_caps();
        let next = if remaining == EXACT {
            EXACT
        } else {
            remaining - 1
        };
        let mut result = Step::Fail(true);
        for &(_, p) in &moves {
            let pre = b.code(a, p);
            if b.combo(a, p) == Combo::Five {
                self.win_line(p);
                result = Step::Win;
                break;
            }
            b.make_colored(p, a);
            if caps {
                let r = self.caro_replies(b, a, p, pre, depth, next, stop);
                b.undo();
                match r {
                    Step::Fail(exact) => {
                        if !exact {
                            result = Step::Fail(false);
                        }
                        continue;
                    }
                    _ => {
                        result = r;
                        break;
                    }
                }
            }
            let (n, q) = new_five_points(b, a, p, pre);
            if n >= 2 || (n == 1 && d_forbidden && b.forbidden(q).is_some()) {
                b.undo();
                self.win_line(p);
                result = Step::Win;
                break;
            }
            if n == 0 || b.combo(dc, q) == Combo::Five {
                b.undo();
                continue;
            }
            let r = self.defend_then_attack(b, a, p, q, depth, next, stop);
            b.undo();
            match r {
                Step::Fail(exact) => {
                    if !exact {
                        result = Step::Fail(false);
                    }
                }
                _ => {
                    result = r;
                    break;
                }
            }
        }
        self.moves[depth] = moves;
        if let Step::Fail(exact) = result {
            let stored = if exact { EXACT } else { remaining };
            let old = self.fail[slot];
            // An exact failure is worth more than a depth-limited one: keep it.
            if exact || old & 0xFF != EXACT as u64 {
                self.fail[slot] = key | stored as u64;
            }
        }
        result
    }

    /// The defender (the opponent of `a`) answers the four `p` at `q`: a loss for the attacker
    /// if that makes two five points, else the attacker's next four (forced to block a
    /// single five point). `q` is taken back before returning; `p` stays.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn defend_then_attack(
        &mut self,
        b: &mut Board,
        a: Color,
        p: Pos,
        q: Pos,
        depth: usize,
        next: u32,
        stop: &AtomicBool,
    ) -> Step {
        let dc = a.opponent();
        let pre_d = b.code(dc, q);
        b.make_colored(q, dc);
        let (nd, qd) = new_five_points(b, dc, q, pre_d);
        let r = if nd >= 2 {
            Step::Fail(true)
        } else {
            self.path.push(p);
            self.path.push(q);
            let forced = if nd == 1 { qd } else { Pos::NONE };
            let r = self.attack(b, a, depth + 1, next, forced, p, stop);
            self.path.pop();
            self.path.pop();
            r
        };
        b.undo();
        r
    }

    /// Caro: the attacker has just played the four `p`; every defence (block or cap, see
    /// [`five_defences`]) must lose. No defence: a win.
    #[allow(clippy::too_many_arguments)]
    fn caro_replies(
        &mut self,
        b: &mut Board,
        a: Color,
        p: Pos,
        pre: u16,
        depth: usize,
        next: u32,
        stop: &AtomicBool,
    ) -> Step {
        let dc = a.opponent();
        let mut fives = PosList::new();
        new_five_list(b, a, p, pre, &mut fives);
        if fives.is_empty() {
            return Step::Fail(true);
        }
        let mut replies = PosList::new();
        five_defences(b, a, &fives, &mut replies);
        if replies.is_empty() {
            self.win_line(p);
            return Step::Win;
        }
        for r in replies {
            if b.combo(dc, r) == Combo::Five {
                return Step::Fail(true);
            }
            let res = self.defend_then_attack(b, a, p, r, depth, next, stop);
            if res != Step::Win {
                return res;
            }
        }
        Step::Win
    }

    fn win_line(&mut self, last: Pos) {
        self.line.clear();
        self.line.extend_from_slice(&self.path);
        self.line.push(last);
    }
}

/// Searches a VCF for the side to move with a fresh [`VcfSolver`] (allocates its 2 MiB
/// table; keep a solver for repeated calls). At most about `max_nodes` attacker nodes;
/// `stop` ends the search early with [`VcfOutcome::Unknown`]. The board is restored exactly.
pub fn vcf(board: &mut Board, max_nodes: u64, stop: &AtomicBool) -> VcfOutcome {
    VcfSolver::new().solve(board, max_nodes, stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference answer: every candidate within five of a five point (caps included,
    /// whatever the rule) played on the board with a make and an undo.
    fn by_make_and_undo(board: &mut Board, a: Color, fives: &[Pos]) -> PosList {
        let d = a.opponent();
        let mut cand: Vec<Pos> = Vec::new();
        for &q in fives {
            cand.push(q);
            for dir in 0..4 {
                cand.extend(empty_within_five(board, q, dir));
            }
        }
        cand.sort_unstable();
        cand.dedup();
        let mut out = PosList::new();
        for c in cand {
            if !is_legal(board, d, c) {
                continue;
            }
            board.make_colored(c, d);
            let holds = fives
                .iter()
                .any(|&f| board.is_empty(f) && board.combo(a, f) == Combo::Five);
            board.undo();
            if !holds {
                out.push(c);
            }
        }
        out
    }

    /// [`five_defences`] equals playing every candidate, on random positions with fives
    /// for either colour, under every rule (renju: forbidden points too; caro: caps).
    #[test]
    fn five_defences_match_make_and_undo() {
        let mut rng = crate::core::SplitMix64::new(0x5eed);
        let mut next = move || rng.next_u64();
        for rule in [
            Rule::Freestyle,
            Rule::Standard,
            Rule::Renju,
            Rule::Caro,
            Rule::CaroExact,
        ] {
            let mut checked = [0usize; 3];
            let mut caps = 0;
            for _ in 0..300 {
                let mut b = Board::new(15, 15, rule).unwrap();
                for _ in 0..60 {
                    let p = Pos::new(3 + (next() % 9) as usize, 3 + (next() % 9) as usize);
                    if b.is_empty(p) && b.result_of_move(p).is_none() {
                        b.make(p);
                    }
                    for a in [Color::Black, Color::White] {
                        let fives = five_points(&b, a, 8);
                        if fives.is_empty() {
                            continue;
                        }
                        let mut fast = PosList::new();
                        five_defences(&mut b, a, &fives, &mut fast);
                        let slow = by_make_and_undo(&mut b, a, &fives);
                        assert_eq!(fast, slow, "{rule:?} {a:?} {:?}", b.moves());
                        checked[fives.len().min(2)] += 1;
                        caps += fast.iter().filter(|p| !fives.contains(p)).count();
                    }
                }
            }
            // Both cases were met: one five point, and two or more; under caro, caps.
            assert!(checked[1] > 100 && checked[2] > 100, "{rule:?} {checked:?}");
            assert_eq!(caps > 0, rule.has_caps(), "{rule:?} {caps}");
        }
    }
}
