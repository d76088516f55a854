//! Move generation with threat-based restriction and ordering scores.
//!
//! A node's candidates are the empty points with a stone in the 5x5 square around them (every
//! five point, four point and three point of either side lies there). Before anything else the
//! generator classifies the node:
//! - the side to move has a five: [`Node::Win`];
//! - the opponent has a five point: the only moves are blocks (two blocks needed: lost);
//! - the side to move has a straight four (or double four) and the opponent has no four
//!   point to delay with: a win in three plies;
//! - the opponent threatens to make a straight four (an open three on the board): the moves
//!   are our fours and fives plus every point where the opponent's line pattern is a four or
//!   better — these include every point that blocks a three (near ends, far ends, gaps), so
//!   no real defence is pruned;
//! - otherwise every candidate.
//!
//! Under renju, black's forbidden points are removed (so a five point of white that black
//! can only block on a forbidden point leaves black without moves: a loss).

use crate::board::{Board, Combo, Pattern};
use crate::core::{Color, Pos};
use smallvec::SmallVec;

/// Candidate moves with ordering scores.
pub type MoveList = SmallVec<[(Pos, i32); 96]>;

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

#[inline]
fn attack_value(c: Combo) -> i32 {
    match c {
        Combo::Forbidden => -100_000,
        Combo::None => 0,
        Combo::Two => 40,
        Combo::DoubleTwo => 90,
        Combo::ClosedThree => 60,
        Combo::Three => 200,
        Combo::ThreePlus => 260,
        Combo::Four => 240,
        Combo::FourPlus => 300,
        Combo::DoubleThree => 900,
        Combo::FourThree => 2000,
        Combo::Flex4 => 5000,
        Combo::Five => 100_000,
    }
}

#[inline]
fn defend_value(c: Combo) -> i32 {
    match c {
        Combo::Forbidden | Combo::None => 0,
        Combo::Two => 30,
        Combo::DoubleTwo => 70,
        Combo::ClosedThree => 40,
        Combo::Three => 150,
        Combo::ThreePlus => 190,
        Combo::Four => 120,
        Combo::FourPlus => 160,
        Combo::DoubleThree => 700,
        Combo::FourThree => 1500,
        Combo::Flex4 => 3000,
        Combo::Five => 50_000,
    }
}

/// Whether some line of `c` at `p` is a four or better.
#[inline]
fn has_four_line(board: &Board, c: Color, p: Pos) -> bool {
    let code = board.code(c, p);
    (0..4).any(|d| {
        let v = ((code >> (4 * d)) & 0xF) as u8;
        v >= Pattern::Four as u8
    })
}

/// Whether a black stone at `p` is a renju foul (only checked where the combo says it may be).
#[inline]
fn is_foul(board: &Board, me: Color, p: Pos, combo: Combo) -> bool {
    board.rule().has_forbidden(me)
        && match combo {
            Combo::Forbidden => true,
            Combo::DoubleThree => board.forbidden(p).is_some(),
            _ => false,
        }
}

/// Classifies the node and fills `out` with its moves and ordering scores (unsorted).
pub fn generate(board: &Board, out: &mut MoveList) -> Node {
    generate_with_eval(board, out, false).0
}

/// [`generate`], also returning the static evaluation of the node
/// ([`crate::eval::combine`] of the point-score sums over the candidates it scanned; only
/// meaningful when the node is [`Node::Moves`]). With `leaf`, the moves of an unforced
/// node are not listed (a leaf only needs the verdict and the evaluation; forced blocks are
/// still listed).
pub fn generate_with_eval(board: &Board, out: &mut MoveList, leaf: bool) -> (Node, i32) {
    out.clear();
    let me = board.side_to_move();
    let opp = me.opponent();
    if board.ply() == 0 && board.stone_count() == 0 {
        let p = Pos::new(board.width() / 2, board.height() / 2);
        out.push((p, 0));
        let node = Node::Moves {
            forced: true,
            defending: false,
            fours: 0,
        };
        return (node, 0);
    }
    let my_table = board.combo_table(me);
    let opp_table = board.combo_table(opp);
    let mut opp_fives: SmallVec<[Pos; 4]> = SmallVec::new();
    let mut my_flex = Pos::NONE;
    let mut opp_has_four = false;
    let mut opp_flex = false;
    let mut my_fours = 0u32;
    let (mut my_sum, mut opp_sum) = (0, 0);
    let mut all_empty_far = true;
    let rows = board.candidate_rows();
    for (y, &row) in rows.iter().enumerate().take(board.height()) {
        let mut bits = row;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let p = Pos::new(x, y);
            all_empty_far = false;
            let my_code = board.code(me, p);
            let opp_code = board.code(opp, p);
            let mc = my_table.combo(my_code);
            if mc == Combo::Five {
                return (Node::Win(p), 0);
            }
            let oc = opp_table.combo(opp_code);
            let my_score = my_table.score(my_code);
            let opp_score = opp_table.score(opp_code);
            my_sum += my_score;
            opp_sum += opp_score;
            if oc == Combo::Five {
                opp_fives.push(p);
            } else if oc == Combo::Flex4 {
                opp_flex = true;
            }
            // Over-inclusive on purpose: a claimed flex win must survive every delaying four.
            opp_has_four |= has_four_line(board, opp, p);
            my_fours += has_four_line(board, me, p) as u32;
            if mc == Combo::Flex4 && my_flex.is_none() {
                my_flex = p;
            }
            if !leaf {
                let score = attack_value(mc) + defend_value(oc) + (my_score + opp_score) / 4;
                out.push((p, score));
            }
        }
    }
    if all_empty_far {
        // Only walls on the board (or no stone near any empty point): any empty point.
        for p in board.empty_points() {
            out.push((p, 0));
        }
        let node = Node::Moves {
            forced: false,
            defending: false,
            fours: 0,
        };
        return (node, 0);
    }
    let eval = crate::eval::combine(my_sum, opp_sum);
    if !opp_fives.is_empty() {
        out.clear();
        for &p in &opp_fives {
            if !is_foul(board, me, p, board.combo(me, p)) {
                out.push((p, 0));
            }
        }
        if opp_fives.len() >= 2 || out.is_empty() {
            return (Node::Lost, eval);
        }
        let node = Node::Moves {
            forced: true,
            defending: true,
            fours: my_fours,
        };
        return (node, eval);
    }
    if !my_flex.is_none() && !opp_has_four {
        return (Node::FlexWin(my_flex), eval);
    }
    let renju_me = board.rule().has_forbidden(me);
    if opp_flex {
        out.retain(|&mut (p, _)| {
            let mc = board.combo(me, p);
            mc >= Combo::Four && mc != Combo::DoubleThree
                || has_four_line(board, me, p)
                || has_four_line(board, opp, p)
        });
        if renju_me {
            out.retain(|&mut (p, _)| !is_foul(board, me, p, board.combo(me, p)));
        }
        let node = Node::Moves {
            forced: false,
            defending: true,
            fours: my_fours,
        };
        return (node, eval);
    }
    if renju_me {
        out.retain(|&mut (p, _)| !is_foul(board, me, p, board.combo(me, p)));
    }
    let node = Node::Moves {
        forced: false,
        defending: false,
        fours: my_fours,
    };
    (node, eval)
}
