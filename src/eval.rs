//! Static evaluation from the board's incremental point scores.
//!
//! Every empty point carries, for each colour, a score of the shapes a stone there would
//! make ([`crate::board::combo`]); the evaluation sums them over the move candidates (the
//! move generator does this while it scans, so a leaf costs no extra pass). The evaluation is the side to
//! move's sum against the opponent's, with the side to move's potential weighted higher since
//! it moves first. Units: roughly 40 per open three; wins are outside this range
//! ([`crate::search::WIN`]).

use crate::board::Board;

/// Largest magnitude of a static evaluation.
pub const EVAL_LIMIT: i32 = 20_000;

/// Static evaluation of `board` from the side to move's view (O(candidate points)).
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side_to_move();
    combine(board.score(me), board.score(me.opponent()))
}

/// The evaluation from the side to move's point-score sum `mine` and the opponent's
/// `theirs` (both over the move candidates).
#[inline]
pub fn combine(mine: i32, theirs: i32) -> i32 {
    let v = (mine * 6 - theirs * 5) / 4 + 8;
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Evaluation units per logistic unit: the expected score of the side to move is
/// `1 / (1 + exp(-eval / EVAL_SCALE))` (see [`win_rate`]).
pub const EVAL_SCALE: f64 = 200.0;

/// Expected score (0 to 1) of the side to move for a search score `score` (evaluation units;
/// wins and losses give 1 and 0).
pub fn win_rate(score: i32) -> f64 {
    1.0 / (1.0 + (-(score as f64) / EVAL_SCALE).exp())
}
