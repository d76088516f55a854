//! What the node search does without searching moves: the static verdicts of a node's
//! threats (a straight-four point, a four-three that holds, docs/strength.md §2 step 1) and
//! the leaf search of fours near the side's last move (step 2).
//!
//! Both are Rapfi's ideas (its quick win check and its leaf search of fours), and so are
//! the leaf's constants: the area around the last move, the depth to which any four is
//! tried, the delta margin (1 669 + 48 a ply, at least 614: Rapfi's values scaled by 0.8 to
//! our evaluation units). docs/strength.md §2.2.

use super::decide::{makes_four, makes_four_and_more};
use super::*;
use crate::board::{DELTA, EMPTY};

/// Plies from a straight-four point to the five.
const STRAIGHT_FOUR_PLIES: i32 = 3;
/// Plies from a winning four-three (or double-three) point to the five.
const FOUR_THREE_PLIES: i32 = 5;
/// The leaf search keeps trying any four while its depth is at least this; deeper into
/// the leaf only fours that make something besides.
const ANY_FOUR_DEPTH: Depth = -1.0;
/// Leaf delta pruning never uses a margin below this (evaluation units).
const LEAF_DELTA_FLOOR: i32 = 614;

impl Worker<'_> {
    /// The side to move's win that needs no search, in plies to the five, at a node where
    /// the opponent has no five point (not used under caro, where a five can be capped):
    /// - a straight-four point;
    /// - a four-three or double-three point when the opponent has no four to play, except
    ///   for renju black, whose follow-ups can be forbidden;
    /// - a four-three point whose four's forced block gives the opponent nothing (see
    ///   [`Worker::four_three_holds`]).
    pub(super) fn threat_verdict(&mut self) -> Option<i32> {
        let me = self.board.side_to_move();
        let counts = *self.ev.counts(me);
        if counts[class::FLEX4] > 0 {
            return Some(STRAIGHT_FOUR_PLIES);
        }
        let four_threes = counts[class::FOUR_THREE] > 0;
        let opponent_quiet = self.ev.four_line_points(me.opponent()) == 0;
        let by_count = opponent_quiet
            && !self.board.rule().has_forbidden(me)
            && (four_threes || counts[class::DOUBLE_THREE] > 0);
        if by_count || (four_threes && self.four_three_holds()) {
            return Some(FOUR_THREE_PLIES);
        }
        None
    }

    /// Whether some legal four-three point of the side to move wins outright: it is played,
    /// and the opponent's forced block of its four neither makes a four of the opponent's
    /// (nor, for renju black as the opponent, a double three that is not a foul), while
    /// renju black as the attacker keeps a straight-four point. Each point is played and
    /// taken back.
    fn four_three_holds(&mut self) -> bool {
        let me = self.board.side_to_move();
        let mut points: ArrayVec<Pos, 16> = ArrayVec::new();
        self.board.for_each_candidate(|p| {
            if self.board.combo(me, p) == Combo::FourThree
                && !movegen::is_foul(&self.board, me, p, Combo::FourThree)
            {
                let _ = points.try_push(p);
            }
        });
        points.into_iter().any(|p| {
            self.make(p);
            let holds = self.block_gives_nothing(me, p);
            self.undo();
            holds
        })
    }

    /// After `me` played the four-three `p`: whether the block of its four is harmless to
    /// `me` (see [`Worker::four_three_holds`]).
    fn block_gives_nothing(&self, me: Color, p: Pos) -> bool {
        let Some(block) = self.five_point_through(me, p) else {
            return false;
        };
        let them = me.opponent();
        let shape = self.board.combo(them, block);
        let legal = !movegen::is_foul(&self.board, them, block, shape);
        let real_double_three =
            self.board.rule().has_forbidden(them) && shape == Combo::DoubleThree;
        if legal && (makes_four(shape) || real_double_three) {
            return false;
        }
        !self.board.rule().has_forbidden(me) || self.ev.counts(me)[class::FLEX4] > 0
    }

    /// A five point of `c` on the four lines through `p`, at most four points away.
    fn five_point_through(&self, c: Color, p: Pos) -> Option<Pos> {
        DELTA.iter().find_map(|&step| {
            (1..=4).flat_map(|k| [k, -k]).find_map(|k| {
                let q = Pos((p.0 as i32 + k * step) as u16);
                (self.board.cell(q) == EMPTY && self.board.combo(c, q) == Combo::Five).then_some(q)
            })
        })
    }

    /// The leaf of the node search: `depth` <= 0, the node already counted and its
    /// verdicts read, the opponent without a five point. See [`Worker::leaf_attack`].
    #[inline]
    pub(super) fn leaf_search(&mut self, alpha: i32, beta: i32, depth: Depth, ply: usize) -> i32 {
        self.leaf_attack(alpha, beta, depth.min(0.0), ply)
    }

    /// A node inside the leaf search: counted as a search node, then decided by its
    /// verdicts, by the block of the opponent's four, or by [`Worker::leaf_attack`].
    pub(super) fn leaf_node(&mut self, alpha: i32, beta: i32, depth: Depth, ply: usize) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let me = self.board.side_to_move();
        if ply >= MAX_PLY - 4 || self.board.is_full() {
            return self.ev.evaluate(me);
        }
        let ply_i = ply as i32;
        if self.ev.five_points(me) > 0 {
            return WIN - ply_i - 1;
        }
        if self.ev.five_points(me.opponent()) > 0 {
            return self.leaf_block(alpha, beta, depth, ply);
        }
        if !self.board.rule().has_caps() && PARAMS.static_verdicts != 0 {
            if let Some(plies) = self.threat_verdict() {
                return WIN - ply_i - plies;
            }
        }
        self.leaf_attack(alpha, beta, depth, ply)
    }

    /// The side to move at a leaf either stands on its evaluation or plays one of its fours
    /// near its own last move (any four while `depth` >= -1 or after two fours that made
    /// something besides, else only those), each a ply deeper; a renju foul is never tried.
    /// An evaluation at or above beta, or far enough below alpha that fours cannot help,
    /// stands at once.
    fn leaf_attack(&mut self, alpha: i32, beta: i32, depth: Depth, ply: usize) -> i32 {
        let me = self.board.side_to_move();
        let stand = self.ev.evaluate(me);
        self.line[ply].eval = stand;
        if stand >= beta || self.ev.four_line_points(me) == 0 {
            return stand;
        }
        let alpha = alpha.max(stand);
        let margin =
            (PARAMS.leaf_delta + PARAMS.leaf_delta_ply * depth as i32).max(LEAF_DELTA_FLOOR);
        if stand + margin < alpha {
            return alpha;
        }
        let anchor = self.own_last_move(ply, me);
        if anchor.is_none() {
            return stand;
        }
        let after_two_rich_fours = ply >= 4
            && makes_four_and_more(self.line[ply - 2].shape)
            && makes_four_and_more(self.line[ply - 4].shape);
        let any_four = depth >= ANY_FOUR_DEPTH || after_two_rich_fours;
        let fours = self.fours_around(anchor, any_four);
        self.leaf_moves(&fours, stand, alpha, beta, depth - 1.0, ply)
    }

    /// The last move of `me`, the side to move at `ply`: two plies up in the line, or from
    /// the game's record near the root.
    fn own_last_move(&self, ply: usize, me: Color) -> Pos {
        if ply >= 2 {
            return self.line[ply - 2].played;
        }
        let colors = self.board.move_colors();
        let played = self.board.moves();
        (0..played.len())
            .rev()
            .find(|&i| colors[i] == me)
            .map_or(Pos::NONE, |i| played[i])
    }

    /// The side to move's legal fours (with `any_four` false: only those that make
    /// something besides) in [`LEAF_AREA`] around `anchor`, in search order.
    fn fours_around(&self, anchor: Pos, any_four: bool) -> MoveList {
        let me = self.board.side_to_move();
        let mut fours = MoveList::new();
        for &offset in LEAF_AREA.iter() {
            let q = Pos((anchor.0 as i32 + offset) as u16);
            if self.board.cell(q) != EMPTY {
                continue;
            }
            let shape = self.board.combo(me, q);
            let wanted = if any_four {
                makes_four(shape)
            } else {
                makes_four_and_more(shape)
            };
            if wanted && !movegen::is_foul(&self.board, me, q, shape) {
                fours.push((q, movegen::order_score(&self.board, &self.ev, me, q)));
            }
        }
        fours.sort_unstable_by(order_cmp);
        fours
    }

    /// The defender inside the leaf search: the block of the opponent's five point (under
    /// caro every defence), at the same depth.
    fn leaf_block(&mut self, alpha: i32, beta: i32, depth: Depth, ply: usize) -> i32 {
        let ply_i = ply as i32;
        let mut blocks = MoveList::new();
        match movegen::generate(&mut self.board, &self.ev, &mut blocks) {
            Node::Win(_) => return WIN - ply_i - 1,
            Node::Lost => return -(WIN - ply_i - 2),
            Node::FlexWin(_) => return WIN - ply_i - 3,
            Node::Moves { .. } if blocks.is_empty() => return -(WIN - ply_i - 2),
            Node::Moves { .. } => {}
        }
        self.leaf_moves(&blocks, -WIN, alpha, beta, depth, ply)
    }

    /// Searches `moves` in order as leaf nodes at `child_depth`: the best score, at least
    /// `floor` (0 once aborted), stopping at the first that reaches `beta`.
    fn leaf_moves(
        &mut self,
        moves: &MoveList,
        floor: i32,
        mut alpha: i32,
        beta: i32,
        child_depth: Depth,
        ply: usize,
    ) -> i32 {
        let me = self.board.side_to_move();
        let mut best = floor;
        for &(p, _) in moves.iter() {
            self.line[ply].played = p;
            self.line[ply].shape = self.board.combo(me, p);
            self.make(p);
            let score = -self.leaf_node(-beta, -alpha, child_depth, ply + 1);
            self.undo();
            if self.aborted {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Offsets (in [`Pos`] index units) of the points the leaf search tries around the side's
/// last move: the 5x5 square around it and its eight lines out to four points.
static LEAF_AREA: once_cell::sync::Lazy<ArrayVec<i32, 40>> = once_cell::sync::Lazy::new(|| {
    let stride = crate::core::STRIDE as i32;
    let mut area = ArrayVec::new();
    for dy in -4i32..=4 {
        for dx in -4i32..=4 {
            let in_square = dx.abs() <= 2 && dy.abs() <= 2;
            let on_line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            if (dx, dy) != (0, 0) && (in_square || on_line) {
                area.push(dy * stride + dx);
            }
        }
    }
    area
});
