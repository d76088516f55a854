//! Renju forbidden points for black (docs/rules.md §3), judged exactly.
//!
//! Order of the test for a black stone at an empty point `p`:
//! 1. an exact five on any line: legal (five wins first);
//! 2. an overline on any line: forbidden;
//! 3. two or more fours through `p` (a same-line double four counts two): forbidden;
//! 4. fewer than two open threes through `p`: legal;
//! 5. otherwise put `p` on a scratch board and count the threes through `p` that are *real*:
//!    a three is real when one of its straight-four points `e` (a point where black makes a
//!    straight four containing `p`) makes no five on any line and is itself not forbidden —
//!    tested recursively with `p` on the board. Two or more real threes: forbidden.
//!
//! Steps 1-4 read the board's stored patterns ([`fast`]); step 5 reads patterns on the fly
//! from a copy of the packed lines. [`exact`] runs every step from the lines alone and is the
//! reference the property tests compare [`fast`] against.

use super::{Board, Combo, ForbiddenKind, Lines, Pattern, BLACK, DELTA, EMPTY};
use crate::core::{Color, Pos};

/// Steps 1-4 as a verdict: `Some(Some(kind))` forbidden, `Some(None)` legal, `None` needs the
/// recursive three test.
#[inline]
fn classify(pats: [Pattern; 4]) -> Option<Option<ForbiddenKind>> {
    if pats.contains(&Pattern::Five) {
        return Some(None);
    }
    if pats.contains(&Pattern::Overline) {
        return Some(Some(ForbiddenKind::Overline));
    }
    let fours: u32 = pats.iter().map(|p| p.four_count()).sum();
    if fours >= 2 {
        return Some(Some(ForbiddenKind::DoubleFour));
    }
    let threes = pats.iter().filter(|p| p.is_three()).count();
    if threes < 2 {
        return Some(None);
    }
    None
}

fn patterns_from_lines(lines: &Lines, p: Pos) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|d| lines.pattern(p, d, Color::Black))
}

/// The forbidden test using the board's incremental patterns for steps 1-4.
pub fn fast(board: &Board, p: Pos) -> Option<ForbiddenKind> {
    let pats = [0, 1, 2, 3].map(|d| board.pattern(Color::Black, p, d));
    match classify(pats) {
        Some(v) => v,
        None => {
            let mut lines = board.lines().clone();
            double_three(&mut lines, p, pats)
        }
    }
}

/// The forbidden test from the packed lines alone (reference implementation). `p` must be an
/// empty point; the rule of `lines` must be renju.
pub fn exact(lines: &mut Lines, p: Pos) -> Option<ForbiddenKind> {
    if lines.cells[p.index()] != EMPTY {
        return None;
    }
    let pats = patterns_from_lines(lines, p);
    match classify(pats) {
        Some(v) => v,
        None => double_three(lines, p, pats),
    }
}

/// Step 5: with `p` placed, counts real threes among the three directions of `pats`.
fn double_three(lines: &mut Lines, p: Pos, pats: [Pattern; 4]) -> Option<ForbiddenKind> {
    lines.set(p, BLACK);
    let mut real = 0;
    for (d, pat) in pats.iter().enumerate() {
        if pat.is_three() && is_real_three(lines, p, d) {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    lines.clear(p);
    (real >= 2).then_some(ForbiddenKind::DoubleThree)
}

/// With black on `p`, whether the three through `p` in direction `d` has a straight-four
/// point that makes no five and is not itself forbidden.
fn is_real_three(lines: &mut Lines, p: Pos, d: usize) -> bool {
    // The key of p's window (the centre's own bits are not part of the key).
    let base = lines.key(p, d);
    for k in -4..=4i32 {
        if k == 0 {
            continue;
        }
        let e = Pos((p.index() as i32 + k * DELTA[d]) as u16);
        if lines.cells[e.index()] != EMPTY {
            continue;
        }
        // Slot of e in p's key: offsets -5..-1 are slots 0..4, +1..+5 are slots 5..9.
        let slot = if k < 0 {
            (k + 5) as u32
        } else {
            (k + 4) as u32
        };
        let key = base | (BLACK as u32) << (2 * slot);
        if lines.table().pattern(key, Color::Black) != Pattern::StraightFour {
            continue;
        }
        // e makes a straight four with p: it counts only if e makes no five anywhere and is
        // itself a legal move (docs/rules.md §3, recursive).
        let e_pats = patterns_from_lines(lines, e);
        if e_pats.contains(&Pattern::Five) {
            continue;
        }
        if exact(lines, e).is_none() {
            return true;
        }
    }
    false
}

/// Whether a stone of `c` at empty point `p` is a legal move: always, except for renju black
/// on a forbidden point (docs/rules.md §3). Uses the combo for the clear cases and the exact
/// recursive test only for double-three candidates.
#[inline]
pub fn is_legal(board: &Board, c: Color, p: Pos) -> bool {
    if !board.rule().has_forbidden(c) {
        return true;
    }
    match board.combo(c, p) {
        Combo::Forbidden => false,
        // A straight four with two open threes (4-3-3) is a double three: the combo ranks
        // the straight four first, so the exact test decides.
        Combo::DoubleThree | Combo::Flex4 => board.forbidden(p).is_none(),
        _ => true,
    }
}
