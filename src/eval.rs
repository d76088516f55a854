//! Static evaluation from the board's incremental point scores.
//!
//! Every empty point carries, for each colour, a score of the shapes a stone there would
//! make ([`crate::board::combo`]); the board keeps the sums. The evaluation is the side to
//! move's sum against the opponent's, with the side to move's potential weighted higher since
//! it moves first. Units: roughly 40 per open three; wins are outside this range
//! ([`crate::search::WIN`]).

use crate::board::Board;

/// Largest magnitude of a static evaluation.
pub const EVAL_LIMIT: i32 = 20_000;

/// Static evaluation of `board` from the side to move's view.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side_to_move();
    let mine = board.score(me);
    let theirs = board.score(me.opponent());
    let v = (mine * 6 - theirs * 5) / 4 + 8;
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
