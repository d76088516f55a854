//! Move generation with threat-based restriction and ordering scores.
//!
//! A node's candidates are the empty points with a stone in the 5x5 square around them (every
//! five point, four point and three point of either side lies there). Before anything else the
//! generator classifies the node:
//! - the side to move has a five: [`Node::Win`];
//! - the opponent has a five point: the only moves are blocks (two blocks needed: lost;
//!   under caro the blocks include caps beyond an end, found exactly);
//! - the side to move has a straight four (or double four) point: with no five point of the
//!   opponent, a win in three plies whatever fours the opponent has (ours is a five first;
//!   not under caro, where a straight four can be capped);
//! - the opponent threatens to make a straight four (an open three on the board): the moves
//!   are our fours and fives plus every point where the opponent's line pattern is a four or
//!   better — these include every point that blocks a three (near ends, far ends, gaps), so
//!   no real defence is pruned;
//! - otherwise every candidate.
//!
//! Under renju, black's forbidden points are removed (so a five point of white that black
//! can only block on a forbidden point leaves black without moves: a loss).

use super::threat::vcf::{five_defences, PosList};
use crate::board::canon::CLASS_SLOTS;
use crate::board::{is_four_point, Board, Combo};
use crate::core::{Color, Pos};
use crate::eval::{features, Evaluator};
use arrayvec::ArrayVec;
use smallvec::SmallVec;

/// Most moves a node can have: every point of the largest board.
pub const MAX_MOVES: usize = crate::core::MAX_SIZE * crate::core::MAX_SIZE;

/// Candidate moves with ordering scores: a fixed-capacity list on the stack with room for
/// every point of a 22x22 board, so it never allocates.
pub type MoveList = ArrayVec<(Pos, i32), MAX_MOVES>;

/// The tactical verdict of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// The side to move makes a five at this point.
    Win(Pos),
    /// The opponent has two or more five points (or one we cannot legally block): lost in 2.
    Lost,
    /// The side to move makes a straight four at this point and cannot be stopped: win in 3.
    FlexWin(Pos),
    /// Search the listed moves; `forced` when only blocks of a five point are allowed,
    /// `defending` when they answer an open three.
    Moves {
        /// Only blocks of the opponent's five point are listed.
        forced: bool,
        /// The moves answer an open three (our fours and the blocking points).
        defending: bool,
        /// Number of candidate points where the side to move makes a four (a VCF is
        /// possible only if this is not zero).
        fours: u32,
    },
}

/// Whether a stone of `me` at the empty point `p`, whose combo is `combo`, is a renju foul
/// (docs/rules.md §3.2): always `false` when `me` has no forbidden points under the board's
/// rule; the exact forbidden test runs only where the combo says the point may be one.
#[inline]
pub fn is_foul(board: &Board, me: Color, p: Pos, combo: Combo) -> bool {
    board.rule().has_forbidden(me)
        && match combo {
            Combo::Forbidden => true,
            Combo::DoubleThree => board.forbidden(p).is_some(),
            _ => false,
        }
}

/// The learned move-ordering score of `p` for `me` (docs/training.md §3): the mover's
/// `attack` value of its code at `p` plus the `defence` value of the opponent's code there.
#[inline]
pub fn order_score(board: &Board, ev: &Evaluator, me: Color, p: Pos) -> i32 {
    const M: usize = CLASS_SLOTS - 1;
    let a = ev.order_table(me)[board.class(me, p) as usize & M] as u16 as i16 as i32;
    let d = (ev.order_table(me.opponent())[board.class(me.opponent(), p) as usize & M] >> 16) as u16
        as i16 as i32;
    a + d
}

/// Classifies the node and fills `out` with its moves and ordering scores (unsorted).
///
/// `ev` must be the evaluator of `board` (its threat-class counts decide most verdicts
/// without a scan); ordering scores come from the learned move-ordering tables: the
/// mover's `attack` value of its code at the point plus the `defence` value of the
/// opponent's code there.
pub fn generate(board: &mut Board, ev: &Evaluator, out: &mut MoveList) -> Node {
    out.clear();
    let me = board.side_to_move();
    let opp = me.opponent();
    if board.stone_count() == 0 {
        let p = Pos::new(board.width() / 2, board.height() / 2);
        out.push((p, 0));
        return Node::Moves {
            forced: true,
            defending: false,
            fours: 0,
        };
    }
    if ev.five_points(me) > 0 {
        let mut win = Pos::NONE;
        board.for_each_candidate(|p| {
            if win.is_none() && board.combo(me, p) == Combo::Five {
                win = p;
            }
        });
        if !win.is_none() {
            return Node::Win(win);
        }
    }
    if ev.five_points(opp) > 0 {
        let mut fives: SmallVec<[Pos; 4]> = SmallVec::new();
        board.for_each_candidate(|p| {
            if board.combo(opp, p) == Combo::Five {
                fives.push(p);
            }
        });
        if board.rule().has_caps() {
            // Caro: a five can also be capped beyond an end; the exact defences.
            let mut defs = PosList::new();
            five_defences(board, opp, &fives, &mut defs);
            out.extend(defs.into_iter().map(|p| (p, 0)));
            if out.is_empty() {
                return Node::Lost;
            }
        } else {
            for &p in &fives {
                if !is_foul(board, me, p, board.combo(me, p)) {
                    out.push((p, 0));
                }
            }
            if fives.len() >= 2 || out.is_empty() {
                return Node::Lost;
            }
        }
        return Node::Moves {
            forced: true,
            defending: true,
            fours: ev.four_line_points(me) as u32,
        };
    }
    // With no five point of the opponent, a straight four cannot be stopped (its fours do
    // not matter: ours is a five first).
    if ev.counts(me)[features::class::FLEX4] > 0 && !board.rule().has_caps() {
        let mut flex = Pos::NONE;
        board.for_each_candidate(|p| {
            if flex.is_none() && board.combo(me, p) == Combo::Flex4 {
                flex = p;
            }
        });
        if !flex.is_none() {
            return Node::FlexWin(flex);
        }
    }
    board.for_each_candidate(|p| out.push((p, order_score(board, ev, me, p))));
    if out.is_empty() {
        // Only walls on the board (or no stone near any empty point): any empty point.
        for p in board.empty_points() {
            out.push((p, 0));
        }
        return Node::Moves {
            forced: false,
            defending: false,
            fours: 0,
        };
    }
    let renju_me = board.rule().has_forbidden(me);
    let fours = ev.four_line_points(me) as u32;
    if ev.counts(opp)[features::class::FLEX4] > 0 {
        out.retain(|&mut (p, _)| {
            let mc = board.combo(me, p);
            mc >= Combo::Four && mc != Combo::DoubleThree
                || is_four_point(board, me, p)
                || is_four_point(board, opp, p)
        });
        if renju_me {
            out.retain(|&mut (p, _)| !is_foul(board, me, p, board.combo(me, p)));
        }
        return Node::Moves {
            forced: false,
            defending: true,
            fours,
        };
    }
    if renju_me {
        out.retain(|&mut (p, _)| !is_foul(board, me, p, board.combo(me, p)));
    }
    Node::Moves {
        forced: false,
        defending: false,
        fours,
    }
}
