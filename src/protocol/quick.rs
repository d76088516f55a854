//! The emergency move: the answer when there is no time to search (`timeout_turn` 0 or 1,
//! `time_left` 0) or the search thread is lost.
//!
//! [`crate::search::quick_move`] takes a five, else a block of the opponent's five, else the
//! best static score; on a sparse board many points tie on that score and the first in row
//! order wins, which can be a point three lines from every stone (`TURN 7,7` answered
//! `4,4`). Here the same choice is kept when it is a five, a block, or a point within two
//! lines of a stone; otherwise the best static score among the points next to the stones
//! wins, ties going to the point nearest the last move.

use crate::board::Board;
use crate::core::Pos;

/// The emergency move for the side to move: the centre on an empty board, [`Pos::NONE`] on
/// a full one; never a point forbidden to black (unless all are).
pub fn quick_move(board: &Board) -> Pos {
    let q = crate::search::quick_move(board);
    if q.is_none() || board.stone_count() == 0 {
        return q;
    }
    let me = board.side_to_move();
    if board.is_five(me, q) || board.is_five(me.opponent(), q) || board.near(q) > 0 {
        return q;
    }
    let mut best: Option<(i64, i64, Pos)> = None;
    board.for_each_candidate(|p| {
        if board.rule().has_forbidden(me) && board.forbidden(p).is_some() {
            return;
        }
        let key = (static_score(board, p), -distance(board.last_move(), p), p);
        if best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
            best = Some(key);
        }
    });
    best.map_or(q, |b| b.2)
}

/// The static score of `p` as [`crate::search::quick_move`] weighs it: the side to move's
/// pattern score plus 0.8 times the opponent's.
fn static_score(board: &Board, p: Pos) -> i64 {
    let me = board.side_to_move();
    let opp = me.opponent();
    board.combo_table(me).score(board.code(me, p)) as i64
        + board.combo_table(opp).score(board.code(opp, p)) as i64 * 8 / 10
}

/// Chebyshev distance between two points (a large number when `a` is no point).
fn distance(a: Pos, b: Pos) -> i64 {
    if a.is_none() {
        return 1 << 20;
    }
    let dx = (a.x() as i64 - b.x() as i64).abs();
    let dy = (a.y() as i64 - b.y() as i64).abs();
    dx.max(dy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    #[test]
    fn next_to_a_lone_stone() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.make(Pos::new(7, 7));
        let p = quick_move(&b);
        assert_eq!(distance(Pos::new(7, 7), p), 1, "{p:?}");
    }

    #[test]
    fn a_five_and_a_block_are_kept() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        // Black h8 i8 j8 k8, white far away; white to move must block g8 or l8.
        for (x, y) in [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)] {
            b.make(Pos::new(x, y));
        }
        let p = quick_move(&b);
        assert!(p == Pos::new(6, 7) || p == Pos::new(11, 7), "{p:?}");
        b.make(Pos::new(0, 6)); // white has a1 a3 a5 a7; black to move wins.
        let p = quick_move(&b);
        assert!(p == Pos::new(6, 7) || p == Pos::new(11, 7), "{p:?}");
    }
}
