//! Swap2 opening decisions (docs/openings.md §2.1; the `SWAP2BOARD` dialogue of the
//! Piskvork protocol), independent of the protocol text: it sees a [`Board`], a [`Budget`]
//! and a search callback, and returns a [`Swap2Answer`]. [`super::decide()`] wraps it for the
//! `OPENING` command, the CLI and Yixin-Board's `yxswap2step` commands.
//!
//! Policy (all scores from the search, in evaluation units from the side to move's view):
//! - **Stage A** (no stones; we are the first player and place black, white, black): a fixed
//!   list of three-stone shapes around the centre ([`OPENINGS`]). Each one that fits the board
//!   is searched with white to move and the one whose score is closest to 0 is played (ties:
//!   the earlier one in the list). The list is a starting point, not opening theory: the
//!   third black stone is kept two or three points away from the first pair, which keeps
//!   black's edge small; a book can replace it later.
//! - **Stage B** (three stones; we would be white): one search with white to move gives the
//!   score `s` for white. `s < -`[`SWAP_MARGIN`] (black, the side that just moved, is better)
//!   → `SWAP`; `s > SWAP_MARGIN` (white is better) → play white's best move and stay white;
//!   otherwise the position is about even and we add two stones (white's best move, then
//!   black's best reply from a second search) so that the opponent has to choose a colour in
//!   a position our search also sees as balanced.
//! - **Stage C** (five stones; we are the first player, would be white): one search with
//!   white to move; `s < 0` (black, who just moved, is better) → `SWAP`, else play white's
//!   best move.
//! - Any other stone count (managers never send one): play the best move for the side to
//!   move.
//!
//! Time: the stage's budget is split evenly over the searches it may run (plus one share
//! kept back), so the whole answer fits the budget. Under no clock at all each stage uses
//! [`UNLIMITED_STAGE`].

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::search::{quick_move, SearchResult};
use crate::time::Budget;

/// Score margin, in evaluation units, beyond which stage B calls a side clearly better.
pub const SWAP_MARGIN: i32 = 120;

/// Budget of a whole stage when the manager gave no time limit.
pub const UNLIMITED_STAGE: Budget = Budget {
    soft_ms: 5_000,
    hard_ms: 10_000,
    ample: false,
};

/// Budgets above this many milliseconds count as "no limit" here.
const UNLIMITED_THRESHOLD_MS: u64 = 24 * 3600 * 1000;

/// Stage A candidates: `(dx, dy)` offsets from the centre `(w/2, h/2)` of black's first
/// stone, white's stone and black's second stone, in that order.
pub const OPENINGS: [[(i32, i32); 3]; 4] = [
    [(0, 0), (1, 0), (3, 2)],
    [(0, 0), (1, 1), (-2, 3)],
    [(0, 0), (0, 1), (3, -2)],
    [(0, 0), (1, -1), (-3, -1)],
];

/// The answer to one `SWAP2BOARD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Stage A: black, white, black.
    Three([Pos; 3]),
    /// Take the colour that just moved; the opponent makes the next move.
    Swap,
    /// Make the next move and keep that colour.
    One(Pos),
    /// Stage B: a white stone and a black stone; the opponent then chooses.
    Two(Pos, Pos),
}

impl Swap2Answer {
    /// The answer line: moves `x,y` separated by single spaces, or `SWAP`.
    pub fn to_line(&self) -> String {
        let m = |p: &Pos| format!("{},{}", p.x(), p.y());
        match self {
            Swap2Answer::Three(ps) => ps.iter().map(m).collect::<Vec<_>>().join(" "),
            Swap2Answer::Swap => "SWAP".to_string(),
            Swap2Answer::One(p) => m(p),
            Swap2Answer::Two(a, b) => format!("{} {}", m(a), m(b)),
        }
    }

    /// The stones the answer adds to the board, in move order.
    pub fn stones(&self) -> Vec<Pos> {
        match *self {
            Swap2Answer::Three(ps) => ps.to_vec(),
            Swap2Answer::Swap => Vec::new(),
            Swap2Answer::One(p) => vec![p],
            Swap2Answer::Two(a, b) => vec![a, b],
        }
    }
}

/// Divides a stage budget into `parts` equal shares (an unlimited budget first becomes
/// [`UNLIMITED_STAGE`]).
fn share(budget: Budget, parts: u64) -> Budget {
    let b = if budget.hard_ms >= UNLIMITED_THRESHOLD_MS {
        UNLIMITED_STAGE
    } else {
        budget
    };
    let parts = parts.max(1);
    Budget {
        soft_ms: b.soft_ms / parts,
        hard_ms: b.hard_ms / parts,
        ample: b.ample,
    }
}

/// `p` if it is an empty point of `board`, else the quick move (or any empty point); `None`
/// only on a full board.
pub fn legal_or_quick(board: &Board, p: Pos) -> Option<Pos> {
    if board.contains(p) && board.is_empty(p) {
        return Some(p);
    }
    let q = quick_move(board);
    if board.contains(q) && board.is_empty(q) {
        return Some(q);
    }
    board.empty_points().next()
}

/// Points of a stage A candidate on a `width` x `height` board, if all three fit.
fn place_opening(shape: &[(i32, i32); 3], width: usize, height: usize) -> Option<[Pos; 3]> {
    let (cx, cy) = ((width / 2) as i32, (height / 2) as i32);
    let mut out = [Pos::NONE; 3];
    for (i, &(dx, dy)) in shape.iter().enumerate() {
        let (x, y) = (cx + dx, cy + dy);
        if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
            return None;
        }
        out[i] = Pos::new(x as usize, y as usize);
    }
    Some(out)
}

/// Three distinct empty points near the centre, for boards where no candidate fits.
fn fallback_three(board: &Board) -> Option<[Pos; 3]> {
    let (cx, cy) = ((board.width() / 2) as i64, (board.height() / 2) as i64);
    let mut pts: Vec<Pos> = board.empty_points().collect();
    pts.sort_by_key(|p| ((p.x() as i64 - cx).abs() + (p.y() as i64 - cy).abs(), *p));
    (pts.len() >= 3).then(|| [pts[0], pts[1], pts[2]])
}

/// Decides the answer to a `SWAP2BOARD` whose stones (in move order, first black) are on
/// `board`; the board's side to move must be the colour after the last stone.
///
/// `search(board, budget)` searches a position for its side to move; `budget` is the time
/// for the whole stage, measured from now. Returns `None` only when the board has too few
/// empty points for any answer.
pub fn decide(
    board: &Board,
    budget: Budget,
    search: &mut dyn FnMut(&Board, Budget) -> SearchResult,
) -> Option<Swap2Answer> {
    match board.ply() {
        0 => stage_a(board, budget, search),
        3 => {
            let r = search(board, share(budget, 3));
            let w4 = legal_or_quick(board, r.best)?;
            if r.score < -SWAP_MARGIN {
                return Some(Swap2Answer::Swap);
            }
            if r.score > SWAP_MARGIN {
                return Some(Swap2Answer::One(w4));
            }
            let mut b = board.clone();
            b.make(w4);
            if b.is_full() {
                return Some(Swap2Answer::One(w4));
            }
            let r2 = search(&b, share(budget, 3));
            let b5 = legal_or_quick(&b, r2.best)?;
            Some(Swap2Answer::Two(w4, b5))
        }
        5 => {
            let r = search(board, share(budget, 2));
            let w6 = legal_or_quick(board, r.best)?;
            if r.score < 0 {
                Some(Swap2Answer::Swap)
            } else {
                Some(Swap2Answer::One(w6))
            }
        }
        _ => {
            let r = search(board, share(budget, 1));
            legal_or_quick(board, r.best).map(Swap2Answer::One)
        }
    }
}

/// Stage A: the candidate opening whose searched score is closest to even.
fn stage_a(
    board: &Board,
    budget: Budget,
    search: &mut dyn FnMut(&Board, Budget) -> SearchResult,
) -> Option<Swap2Answer> {
    let fits: Vec<[Pos; 3]> = OPENINGS
        .iter()
        .filter_map(|s| place_opening(s, board.width(), board.height()))
        .filter(|ps| ps.iter().all(|&p| board.is_empty(p)))
        .collect();
    if fits.is_empty() {
        return fallback_three(board).map(Swap2Answer::Three);
    }
    let each = share(budget, fits.len() as u64 + 1);
    let mut best: Option<([Pos; 3], i32)> = None;
    for ps in fits {
        let mut b = board.clone();
        for (i, &p) in ps.iter().enumerate() {
            b.make_colored(p, if i == 1 { Color::White } else { Color::Black });
        }
        let dist = search(&b, each).score.saturating_abs();
        if best.is_none_or(|(_, d)| dist < d) {
            best = Some((ps, dist));
        }
    }
    best.map(|(ps, _)| Swap2Answer::Three(ps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn fixed(score: i32) -> impl FnMut(&Board, Budget) -> SearchResult {
        move |b: &Board, _| SearchResult {
            best: quick_move(b),
            score,
            ..Default::default()
        }
    }

    fn board_with(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Standard).unwrap();
        for &(x, y) in moves {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn stage_a_gives_three_distinct_points() {
        let b = board_with(&[]);
        let a = decide(&b, Budget::fixed(100), &mut fixed(0)).unwrap();
        let Swap2Answer::Three(ps) = a else {
            panic!("{:?}", a)
        };
        assert!(ps[0] != ps[1] && ps[1] != ps[2] && ps[0] != ps[2]);
        assert_eq!(a.to_line(), "7,7 8,7 10,9");
        // Tiny board: candidates do not fit, the fallback still gives three points.
        let b = Board::new(5, 5, Rule::Freestyle).unwrap();
        let Some(Swap2Answer::Three(ps)) = decide(&b, Budget::fixed(100), &mut fixed(0)) else {
            panic!()
        };
        assert!(ps[0] != ps[1] && ps[1] != ps[2] && ps[0] != ps[2]);
    }

    #[test]
    fn stage_b_policy() {
        let b = board_with(&[(7, 7), (7, 8), (9, 6)]);
        assert_eq!(
            decide(&b, Budget::fixed(100), &mut fixed(-500)),
            Some(Swap2Answer::Swap)
        );
        assert!(matches!(
            decide(&b, Budget::fixed(100), &mut fixed(500)),
            Some(Swap2Answer::One(_))
        ));
        let Some(Swap2Answer::Two(w, k)) = decide(&b, Budget::fixed(100), &mut fixed(0)) else {
            panic!()
        };
        assert!(w != k && b.is_empty(w) && b.is_empty(k));
    }

    #[test]
    fn stage_c_policy() {
        let b = board_with(&[(7, 7), (7, 8), (9, 6), (8, 7), (6, 9)]);
        assert_eq!(
            decide(&b, Budget::fixed(100), &mut fixed(-1)),
            Some(Swap2Answer::Swap)
        );
        assert!(matches!(
            decide(&b, Budget::fixed(100), &mut fixed(0)),
            Some(Swap2Answer::One(_))
        ));
    }

    #[test]
    fn budget_is_shared() {
        let b = board_with(&[(7, 7), (7, 8), (9, 6)]);
        let mut seen = Vec::new();
        let mut s = |bd: &Board, bu: Budget| {
            seen.push(bu);
            SearchResult {
                best: quick_move(bd),
                ..Default::default()
            }
        };
        decide(
            &b,
            Budget {
                soft_ms: 300,
                hard_ms: 900,
                ample: false,
            },
            &mut s,
        );
        assert_eq!(seen.len(), 2);
        assert!(seen.iter().all(|b| b.hard_ms == 300 && b.soft_ms == 100));
    }
}
