//! Search for several players (`docs/fourcolour.md` §5).
//!
//! **Two sides** (`2p`, `1v2`, `1v3`, `2v2`): team-aware alpha-beta (negamax). A score is
//! always from the view of the team to move; a child's score is negated only when the team
//! changes, so the consecutive moves of team-mates (white, purple and green in `1v3`) are all
//! "ours". Iterative deepening, a transposition table keyed by the stones (the colour to move
//! follows from their number), and move ordering by the change of the shape sums.
//!
//! **Free-for-all** (`ffa`): max-n. Each node returns a value per player and the player to
//! move picks the child best for itself. Why max-n rather than the alternatives:
//! - *paranoid* search (all others against the root player) would turn the game into two
//!   sides and prune well, but it assumes the three others cooperate: that they leave each
//!   other's fours unblocked and would even hand one another a five. None of that happens in
//!   a free-for-all — a rival's five is a loss for each of the others — so paranoid play
//!   spends its moves blocking threats the other players will block anyway, and counts
//!   positions as lost that are not;
//! - *best-reply* search lets only the strongest opponent answer and the others pass, but a
//!   pass breaks the fixed colour order, which every four-tone five depends on.
//!
//! Max-n keeps each player's own interest, which is exactly the rules' "each for itself".
//! Its weak pruning is made up for by a narrow move list (threat answers first, then the best
//! few points by shape change) and by cutting a node as soon as the player to move has a
//! sure win. A leaf is worth to each player its own shape sum: with three rivals who block
//! each other's fours, building one's own threats matters more than spoiling one rival's.
//! Measured against three one-ply greedy players (`tests/fourcolour_strength.rs`, one engine
//! seat, 20 000 to 100 000 nodes a move): max-n with own sums scored 0.90 (160 games); with
//! "own minus the strongest rival" 0.53 to 0.56 (20 games), with four times own minus the
//! rival 0.78 (80 games); paranoid search (with the same "no gift" rule) 0.51 (20 games).
//!
//! **Threat logic**, in both searches and at every node: a player with a winning point takes
//! it; a player whose opponents (the colours that move before its team's next stone) have a
//! winning point must block it, and has lost if there are more such points than stones it
//! places before them; a move that completes a structure winning for another team (another
//! player in free-for-all) is never considered while another move exists. A forced block
//! does not use up depth (an extension, capped at [`MAX_PLY`]).
//!
//! Time: the [`Budget`] is measured from the start of the search; no iteration starts after
//! the soft limit, and the search stops within about 256 nodes of the hard limit, the node
//! limit or the stop flag, returning the last completed iteration's move.

use super::board::FourBoard;
use super::eval::team_score;
use super::rules::{Color, Mode, Player};
use crate::core::Pos;
/// The limits of the two-colour search; the four-colour search keeps `budget`,
/// `max_depth` and `max_nodes`, and has no use for `excluded`, `multipv` or `threat_memory`.
pub use crate::search::Limits;
use crate::time::Budget;
use crate::tt::Bound;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Score of a win on the board now, from the winner's view; a win in `n` plies scores
/// `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this magnitude are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 10_000;
/// Deepest ply searched (extensions included).
pub const MAX_PLY: usize = 64;
/// Moves kept at an inner node of the two-side search (the best by shape change).
pub const BEAM_TWO_SIDES: usize = 14;
/// Moves kept at an inner node of the free-for-all search.
pub const BEAM_FFA: usize = 14;
/// Bonus for the team to move at a leaf, evaluation units.
const TEMPO: i32 = 40;
/// Default transposition table size, bytes.
pub const DEFAULT_TT_BYTES: usize = 8 << 20;

/// The outcome of a search (or of one completed iteration).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move for the colour to move; [`Pos::NONE`] only on a full board.
    pub best: Pos,
    /// Score from the view of the team to move (the player to move in free-for-all): above
    /// [`WIN_THRESHOLD`] a win in `WIN - score` plies, below `-WIN_THRESHOLD` a loss.
    pub score: i32,
    /// Completed depth in plies (0: no iteration completed; the move is the quick move).
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Principal variation, the move first.
    pub pv: Vec<Pos>,
}

impl SearchResult {
    /// Plies to a forced win (positive) or loss (negative), if the score says so.
    pub fn win_in(&self) -> Option<i32> {
        if self.score > WIN_THRESHOLD {
            Some(WIN - self.score)
        } else if self.score < -WIN_THRESHOLD {
            Some(-(WIN + self.score))
        } else {
            None
        }
    }
}

/// One slot of the table (a single-threaded, always-replace-if-not-shallower table: the
/// two-colour [`crate::tt::TranspositionTable`] packs scores into 16 bits, too few for
/// [`WIN`]).
#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    best: u16,
    depth: i8,
    bound: Bound,
}

/// The searcher: owns the transposition table (cleared for each search).
pub struct Searcher {
    tt: Vec<TtEntry>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(DEFAULT_TT_BYTES)
    }
}

impl Searcher {
    /// A searcher whose table takes at most `tt_bytes` bytes (at least 1024 entries).
    pub fn new(tt_bytes: usize) -> Searcher {
        let entries = (tt_bytes / std::mem::size_of::<TtEntry>()).max(1024);
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        Searcher {
            tt: vec![TtEntry::default(); entries],
        }
    }

    /// Searches `board` for the colour to move within `limits`; `stop` may be raised by
    /// another thread at any time. `on_iteration` receives each completed iteration.
    /// Always returns a legal move when the board is not full.
    pub fn search(
        &mut self,
        board: &FourBoard,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let start = Instant::now();
        for e in self.tt.iter_mut() {
            *e = TtEntry::default();
        }
        let quick = quick_move(board);
        let mut result = SearchResult {
            best: quick,
            pv: if quick.is_none() { vec![] } else { vec![quick] },
            ..Default::default()
        };
        if quick.is_none() {
            return result;
        }
        let mask = self.tt.len() - 1;
        let mut ctx = Ctx {
            board: board.clone(),
            mode: board.mode(),
            tt: &mut self.tt,
            tt_mask: mask,
            start,
            budget: limits.budget,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            stop,
            nodes: 0,
            aborted: false,
            pv: vec![Vec::new(); MAX_PLY + 2],
            root_first: Pos::NONE,
            side: [0; 4],
            root_moves: 0,
        };
        for (p, s) in ctx.side.iter_mut().enumerate() {
            *s = ctx.mode.team(p).min(1);
        }
        let max_depth = limits.max_depth.unwrap_or(60).clamp(1, 60);
        for depth in 1..=max_depth {
            ctx.root_first = result.best;
            let score = if ctx.mode.two_sides() {
                ctx.alphabeta(depth, -WIN - 1, WIN + 1, 0)
            } else {
                let me = ctx.mode.owner(board.to_move());
                ctx.maxn(depth, 0)[me]
            };
            if ctx.aborted {
                break;
            }
            if let Some(&best) = ctx.pv[0].first() {
                result.best = best;
                result.pv = ctx.pv[0].clone();
            }
            result.score = score;
            result.depth = depth;
            result.nodes = ctx.nodes;
            result.time_ms = start.elapsed().as_millis() as u64;
            on_iteration(&result);
            // A proved result, a single legal choice, or the soft limit ends the search.
            if score.abs() > WIN_THRESHOLD || ctx.root_moves == 1 || ctx.past_soft() {
                break;
            }
        }
        result.nodes = ctx.nodes;
        result.time_ms = start.elapsed().as_millis() as u64;
        result
    }
}

/// Searches with a fresh default searcher (8 MiB table): see [`Searcher::search`].
pub fn search(board: &FourBoard, limits: &Limits, stop: &AtomicBool) -> SearchResult {
    Searcher::default().search(board, limits, stop, &mut |_| {})
}

/// A move without search, for when there is no time: a winning point of the colour to move,
/// else the single point that blocks the next colour's win, else the point whose stone
/// changes the shape sums most in the mover's favour (never a move that hands another team
/// a win while another exists). [`Pos::NONE`] only on a full board.
pub fn quick_move(board: &FourBoard) -> Pos {
    if board.is_full() {
        return Pos::NONE;
    }
    let c = board.to_move();
    let mode = board.mode();
    let me = mode.owner(c);
    let good = |w: Player| mode.team(w) == mode.team(me);
    let hot = board.hot_points();
    if let Some(p) = winning_points_in(board, &hot, c, good).first() {
        return *p;
    }
    let next = c.next();
    if mode.team_of(next) != mode.team(me) {
        let foe = mode.team_of(next);
        let t = winning_points_in(board, &hot, next, |w| mode.team(w) == foe);
        if let Some(&p) = t.first() {
            return p;
        }
    }
    let moves = ordered_moves(board, &hot, usize::MAX);
    moves.first().copied().unwrap_or_else(|| {
        board
            .points()
            .iter()
            .copied()
            .find(|&p| board.is_empty(p))
            .unwrap_or(Pos::NONE)
    })
}

/// The points of `hot` where colour `c` wins for a player `good` accepts.
fn winning_points_in(
    board: &FourBoard,
    hot: &[(Pos, u8)],
    c: Color,
    good: impl Fn(Player) -> bool,
) -> Vec<Pos> {
    hot.iter()
        .filter(|&&(_, f)| f & (1 << c.number()) != 0)
        .filter(|&&(p, _)| board.winner_if_color(p, c).is_some_and(&good))
        .map(|&(p, _)| p)
        .collect()
}

/// Whether colour `c` on `p` completes a structure that wins for someone `c`'s owner would
/// not want to win (another team; in free-for-all another player).
fn is_gift(board: &FourBoard, hot: &[(Pos, u8)], p: Pos, c: Color) -> bool {
    let mode = board.mode();
    let me = mode.owner(c);
    hot.iter()
        .any(|&(q, f)| q == p && f & (1 << c.number()) != 0)
        && board
            .winner_if_color(p, c)
            .is_some_and(|w| mode.team(w) != mode.team(me))
}

/// Score of a move for ordering: the mover's team's gain in shape sums minus the others'.
fn move_score(board: &FourBoard, p: Pos, c: Color) -> i32 {
    let mode = board.mode();
    let d = board.delta_if(p, c);
    let team = mode.team_of(c);
    let mut s = 0;
    for (pl, v) in d.iter().enumerate().take(mode.players()) {
        if mode.team(pl) == team {
            s += 2 * v;
        } else {
            s -= v;
        }
    }
    s
}

/// Candidate moves for the colour to move, best first by [`move_score`] (ties by point),
/// gifts left out (unless every move is one), at most `limit` of them. The centre on an
/// empty board.
fn ordered_moves(board: &FourBoard, hot: &[(Pos, u8)], limit: usize) -> Vec<Pos> {
    if board.stone_count() == 0 {
        return vec![Pos::new(board.width() / 2, board.height() / 2)];
    }
    let c = board.to_move();
    let mut scored: Vec<(i32, Pos)> = Vec::with_capacity(64);
    let mut gifts = Vec::new();
    for &p in board.points() {
        if !board.is_empty(p) || board.near(p) == 0 {
            continue;
        }
        if is_gift(board, hot, p, c) {
            gifts.push(p);
            continue;
        }
        scored.push((move_score(board, p, c), p));
    }
    if scored.is_empty() {
        // Every nearby point hands someone a win: take any other empty point, else a gift.
        if let Some(p) = board
            .points()
            .iter()
            .copied()
            .find(|&p| board.is_empty(p) && !is_gift(board, hot, p, c))
        {
            return vec![p];
        }
        return gifts.into_iter().take(limit.max(1)).collect();
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(limit).map(|(_, p)| p).collect()
}

struct Ctx<'a> {
    board: FourBoard,
    mode: Mode,
    tt: &'a mut Vec<TtEntry>,
    tt_mask: usize,
    start: Instant,
    budget: Budget,
    max_nodes: u64,
    stop: &'a AtomicBool,
    nodes: u64,
    aborted: bool,
    pv: Vec<Vec<Pos>>,
    /// The previous iteration's best root move, searched first.
    root_first: Pos,
    /// The team of each player (two-side modes).
    side: [usize; 4],
    /// Moves searched at the root in the last iteration (1: the move is forced).
    root_moves: usize,
}

impl Ctx<'_> {
    fn past_soft(&self) -> bool {
        self.start.elapsed().as_millis() as u64 >= self.budget.soft_ms
    }

    /// Counts a node; raises `aborted` when a limit is reached (checked every 256 nodes).
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.nodes >= self.max_nodes
                || self.start.elapsed().as_millis() as u64 >= self.budget.hard_ms)
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn set_pv(&mut self, ply: usize, m: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// The moves of a node, the TT move (or the previous best root move) first.
    fn moves(&self, hot: &[(Pos, u8)], ply: usize, hint: Pos, beam: usize) -> Vec<Pos> {
        let limit = if ply == 0 { usize::MAX } else { beam };
        let mut moves = ordered_moves(&self.board, hot, limit);
        let first = if ply == 0 { self.root_first } else { hint };
        if !first.is_none() && self.board.contains(first) && self.board.is_empty(first) {
            if let Some(i) = moves.iter().position(|&m| m == first) {
                moves[..=i].rotate_right(1);
            } else if !is_gift(&self.board, hot, first, self.board.to_move()) {
                moves.insert(0, first);
            }
        }
        moves
    }

    /// The search side of colour `c`'s owner.
    fn side_of(&self, c: Color) -> usize {
        self.side[self.mode.owner(c)]
    }

    /// The static value of the position for team `side` (two-side modes).
    fn leaf(&self, side: usize) -> i32 {
        team_score(self.mode, &self.board.sums(), side)
    }

    /// The forcing facts of a node for the side to move: its stones before an opponent's
    /// (`r`), and the points where the opponents moving next could win (each for its own
    /// team: nobody completes a structure that wins for another team).
    fn opponent_threats(&self, hot: &[(Pos, u8)]) -> (usize, Vec<Pos>) {
        let mode = self.mode;
        let c = self.board.to_move();
        let team = self.side_of(c);
        let mut r = 0;
        while r < 4 && self.side_of(c.after(r)) == team {
            r += 1;
        }
        let mut points = Vec::new();
        let mut k = r;
        while k < r + 4 && self.side_of(c.after(k)) != team {
            let o = c.after(k);
            let foe = mode.team_of(o);
            for p in winning_points_in(&self.board, hot, o, |w| mode.team(w) == foe) {
                if !points.contains(&p) {
                    points.push(p);
                }
            }
            k += 1;
        }
        (r, points)
    }

    /// Team-aware negamax: the score of the position for the team to move.
    fn alphabeta(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        if self.board.is_full() {
            return 0;
        }
        let mode = self.mode;
        let c = self.board.to_move();
        let team = self.side_of(c);
        let real = mode.team_of(c);
        let hot = self.board.hot_points();
        // Step 1. A winning point ends the game now.
        let wins = winning_points_in(&self.board, &hot, c, |w| mode.team(w) == real);
        if let Some(&p) = wins.first() {
            self.set_pv(ply, p);
            return WIN - ply as i32 - 1;
        }
        // Step 2. The opponents' winning points: block them, or the game is lost.
        let (r, threats) = self.opponent_threats(&hot);
        if threats.len() > r {
            return -(WIN - (ply + r + 1) as i32);
        }
        let forced = !threats.is_empty() && threats.len() == r;
        // Step 3. Leaf.
        if depth <= 0 && !forced || ply >= MAX_PLY {
            return self.leaf(team) + TEMPO;
        }
        // Step 4. Transposition table.
        let key = self.board.hash();
        let slot = (key as usize) & self.tt_mask;
        let e = self.tt[slot];
        let mut hint = Pos::NONE;
        if e.key == key && e.bound != Bound::None {
            hint = Pos(e.best);
            if ply > 0 && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                if e.bound.settles(s, alpha, beta) {
                    if !hint.is_none() && self.board.is_empty(hint) {
                        self.set_pv(ply, hint);
                    }
                    return s;
                }
            }
        }
        // Step 5. Moves: the blocks when forced, else the best few by shape change.
        let moves = if forced {
            threats
        } else {
            self.moves(&hot, ply, hint, BEAM_TWO_SIDES)
        };
        if ply == 0 {
            self.root_moves = moves.len();
        }
        let child_depth = if forced { depth } else { depth - 1 };
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = Pos::NONE;
        for m in moves {
            // A move that completes a structure ends the game (only blocks and moves left
            // when all else is a gift can).
            let score = if let Some(w) = self.board.winner_if(m) {
                if self.side[w] == team {
                    WIN - ply as i32 - 1
                } else {
                    -(WIN - ply as i32 - 1)
                }
            } else {
                self.board.make(m);
                let same = self.side_of(self.board.to_move()) == team;
                let s = if same {
                    self.alphabeta(child_depth, alpha, beta, ply + 1)
                } else {
                    -self.alphabeta(child_depth, -beta, -alpha, ply + 1)
                };
                self.board.undo();
                s
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                }
                if score >= beta {
                    break;
                }
            }
        }
        if best_move.is_none() {
            return self.leaf(team);
        }
        if ply == 0 && self.pv[0].is_empty() {
            self.set_pv(0, best_move);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let replace = e.key != key || e.depth as i32 <= depth;
        if replace {
            self.tt[slot] = TtEntry {
                key,
                score: to_tt(best, ply),
                best: best_move.0,
                depth: depth.clamp(-100, 100) as i8,
                bound,
            };
        }
        best
    }

    /// The value per player of a win for player `w` in `ply` plies from the root.
    fn win_vector(&self, w: Player, ply: usize) -> [i32; 4] {
        let mut v = [-(WIN - ply as i32); 4];
        v[w] = WIN - ply as i32;
        v
    }

    /// Max-n: the value of the position for each player, as the players moving in turn
    /// each maximise their own.
    fn maxn(&mut self, depth: i32, ply: usize) -> [i32; 4] {
        self.pv[ply].clear();
        if self.tick() {
            return [0; 4];
        }
        if self.board.is_full() {
            return [0; 4];
        }
        let mode = self.mode;
        let c = self.board.to_move();
        let me = mode.owner(c);
        let hot = self.board.hot_points();
        let wins = winning_points_in(&self.board, &hot, c, |w| w == me);
        if let Some(&p) = wins.first() {
            self.set_pv(ply, p);
            return self.win_vector(me, ply + 1);
        }
        let next = c.next();
        let rival = mode.owner(next);
        let threats = winning_points_in(&self.board, &hot, next, |w| w == rival);
        if threats.len() > 1 {
            return self.win_vector(rival, ply + 2);
        }
        let forced = threats.len() == 1;
        if depth <= 0 && !forced || ply >= MAX_PLY {
            let sums = self.board.sums();
            return std::array::from_fn(|p| sums[p] + if p == me { TEMPO } else { 0 });
        }
        let moves = if forced {
            threats
        } else {
            self.moves(&hot, ply, Pos::NONE, BEAM_FFA)
        };
        if ply == 0 {
            self.root_moves = moves.len();
        }
        let child_depth = if forced { depth } else { depth - 1 };
        let mut best: Option<[i32; 4]> = None;
        for m in moves {
            let v = if let Some(w) = self.board.winner_if(m) {
                self.win_vector(w, ply + 1)
            } else {
                self.board.make(m);
                let v = self.maxn(child_depth, ply + 1);
                self.board.undo();
                v
            };
            if self.aborted {
                return [0; 4];
            }
            if best.is_none_or(|b| v[me] > b[me]) {
                best = Some(v);
                self.set_pv(ply, m);
                if v[me] > WIN_THRESHOLD {
                    break;
                }
            }
        }
        best.unwrap_or_else(|| self.board.sums())
    }
}

/// A score at `ply` as the table keeps it: wins and losses counted from the node.
fn to_tt(score: i32, ply: usize) -> i32 {
    crate::tt::win_to_node(score, ply as i32, WIN_THRESHOLD + 1)
}

/// Inverse of [`to_tt`].
fn from_tt(score: i32, ply: usize) -> i32 {
    crate::tt::win_from_node(score, ply as i32, WIN_THRESHOLD + 1)
}
