//! The eight symmetries of the square grid (rotations by multiples of 90 degrees and the four
//! mirrors), applied to offsets, to whole boards and to stone patterns.
//!
//! Two uses (docs/openings.md §1 and §3):
//! - **board symmetry**: a transform about the centre of a square board maps the board onto
//!   itself; suites use it to drop positions that are mirror images of each other;
//! - **pattern symmetry**: a transform followed by a translation that maps a set of stones
//!   (colours kept) onto itself. Renju's fifth-move rule forbids two offers that such a
//!   symmetry maps onto each other ("no two symmetric fifth moves", docs/rules.md §4): the board
//!   edge is ignored there, as over the board.

use crate::board::Board;
use crate::core::{Color, Pos};

/// One of the eight grid symmetries, acting on offsets `(dx, dy)`:
/// `0` identity, `1` rotation by 90 degrees, `2` by 180, `3` by 270, `4` mirror `x -> -x`,
/// `5` mirror `y -> -y`, `6` the diagonal `x <-> y`, `7` the anti-diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transform(pub u8);

impl Transform {
    /// All eight, identity first.
    pub const ALL: [Transform; 8] = [
        Transform(0),
        Transform(1),
        Transform(2),
        Transform(3),
        Transform(4),
        Transform(5),
        Transform(6),
        Transform(7),
    ];

    /// Applies the transform to an offset.
    pub fn apply(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self.0 & 7 {
            0 => (x, y),
            1 => (-y, x),
            2 => (-x, -y),
            3 => (y, -x),
            4 => (-x, y),
            5 => (x, -y),
            6 => (y, x),
            _ => (-y, -x),
        }
    }

    /// The transform that undoes this one.
    pub fn inverse(self) -> Transform {
        match self.0 & 7 {
            1 => Transform(3),
            3 => Transform(1),
            t => Transform(t),
        }
    }

    /// A short name (`identity`, `rot90`, `rot180`, `rot270`, `flip-x`, `flip-y`,
    /// `diagonal`, `anti-diagonal`).
    pub fn name(self) -> &'static str {
        [
            "identity",
            "rot90",
            "rot180",
            "rot270",
            "flip-x",
            "flip-y",
            "diagonal",
            "anti-diagonal",
        ][(self.0 & 7) as usize]
    }

    /// The image of `p` under this transform about the centre of a `size` x `size` board
    /// (for even sizes the centre lies between points; the image is always a board point).
    pub fn on_board(self, p: Pos, size: usize) -> Pos {
        let c = size as i32 - 1;
        let (x, y) = self.apply((2 * p.x() as i32 - c, 2 * p.y() as i32 - c));
        Pos::new(((x + c) / 2) as usize, ((y + c) / 2) as usize)
    }
}

/// A stone set in move order: each stone with its colour.
pub type Stones = [(Pos, Color)];

/// The stones of a board in move order, with their colours.
pub fn stones_of(board: &Board) -> Vec<(Pos, Color)> {
    board
        .moves()
        .iter()
        .copied()
        .zip(board.move_colors().iter().copied())
        .collect()
}

fn xy(p: Pos) -> (i32, i32) {
    (p.x() as i32, p.y() as i32)
}

/// A pattern symmetry: `q = T(p) + shift`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternSymmetry {
    /// The grid transform.
    pub transform: Transform,
    /// The translation applied after it.
    pub shift: (i32, i32),
}

impl PatternSymmetry {
    /// The image of the offset-free point `(x, y)`.
    pub fn apply(&self, p: (i32, i32)) -> (i32, i32) {
        let (x, y) = self.transform.apply(p);
        (x + self.shift.0, y + self.shift.1)
    }
}

/// Every pattern symmetry of a stone set (colours kept), identity included. An empty set has
/// only the identity here: on an empty board the question of symmetric stones does not arise
/// in any opening rule.
pub fn pattern_symmetries(stones: &Stones) -> Vec<PatternSymmetry> {
    let id = PatternSymmetry {
        transform: Transform(0),
        shift: (0, 0),
    };
    if stones.is_empty() {
        return vec![id];
    }
    let sorted = |v: &mut Vec<(i32, i32, Color)>| v.sort();
    let mut orig: Vec<(i32, i32, Color)> = stones
        .iter()
        .map(|&(p, c)| {
            let (x, y) = xy(p);
            (x, y, c)
        })
        .collect();
    sorted(&mut orig);
    let anchor = (orig[0].0, orig[0].1);
    let mut out = Vec::new();
    for t in Transform::ALL {
        let mut img: Vec<(i32, i32, Color)> = stones
            .iter()
            .map(|&(p, c)| {
                let (x, y) = t.apply(xy(p));
                (x, y, c)
            })
            .collect();
        sorted(&mut img);
        let shift = (anchor.0 - img[0].0, anchor.1 - img[0].1);
        let moved: Vec<(i32, i32, Color)> = img
            .iter()
            .map(|&(x, y, c)| (x + shift.0, y + shift.1, c))
            .collect();
        // Sorting is preserved by a translation, so the lists compare directly.
        if moved == orig {
            out.push(PatternSymmetry {
                transform: t,
                shift,
            });
        }
    }
    out
}

/// Whether `a` and `b` are images of each other under one of `syms` (see
/// [`pattern_symmetries`]); a point is always symmetric to itself.
pub fn symmetric_points(syms: &[PatternSymmetry], a: Pos, b: Pos) -> bool {
    syms.iter().any(|s| s.apply(xy(a)) == xy(b))
}

/// A canonical key of a position up to the board's own symmetries (square boards): the
/// smallest of the eight transformed stone lists, each sorted by colour then point. Two
/// positions with the same stones (move order aside) under some board symmetry get equal
/// keys.
pub fn board_canonical(stones: &Stones, size: usize) -> Vec<(u8, u16)> {
    Transform::ALL
        .iter()
        .map(|&t| {
            let mut v: Vec<(u8, u16)> = stones
                .iter()
                .map(|&(p, c)| (c.index() as u8, t.on_board(p, size).0))
                .collect();
            v.sort();
            v
        })
        .min()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_form_a_group() {
        for t in Transform::ALL {
            let p = (2, -1);
            assert_eq!(t.inverse().apply(t.apply(p)), p, "{}", t.name());
        }
        let images: std::collections::HashSet<(i32, i32)> =
            Transform::ALL.iter().map(|t| t.apply((2, 1))).collect();
        assert_eq!(images.len(), 8);
        // On a board: corners go to corners, the centre stays.
        for t in Transform::ALL {
            assert_eq!(t.on_board(Pos::new(7, 7), 15), Pos::new(7, 7));
            let c = t.on_board(Pos::new(0, 0), 20);
            assert!([0, 19].contains(&c.x()) && [0, 19].contains(&c.y()));
        }
    }

    #[test]
    fn pattern_symmetry_of_stones() {
        let b = Color::Black;
        let w = Color::White;
        // h8 black, h9 white: the mirror through the h column keeps it (plus identity).
        let s = [(Pos::new(7, 7), b), (Pos::new(7, 8), w)];
        let syms = pattern_symmetries(&s);
        assert_eq!(syms.len(), 2);
        assert!(symmetric_points(&syms, Pos::new(6, 9), Pos::new(8, 9)));
        assert!(!symmetric_points(&syms, Pos::new(6, 9), Pos::new(8, 8)));
        // The same shape elsewhere on the board has the same symmetries (translation).
        let t = [(Pos::new(2, 3), b), (Pos::new(2, 4), w)];
        assert_eq!(pattern_symmetries(&t).len(), 2);
        // A lone stone: all eight.
        assert_eq!(pattern_symmetries(&[(Pos::new(3, 3), b)]).len(), 8);
        // Colours matter: black-black is symmetric under the swap, black-white is not.
        let bb = [(Pos::new(7, 7), b), (Pos::new(8, 7), b)];
        let bw = [(Pos::new(7, 7), b), (Pos::new(8, 7), w)];
        assert_eq!(pattern_symmetries(&bb).len(), 4);
        assert_eq!(pattern_symmetries(&bw).len(), 2);
    }

    #[test]
    fn canonical_keys() {
        let b = Color::Black;
        let a = [(Pos::new(7, 7), b), (Pos::new(8, 9), Color::White)];
        let m = [(Pos::new(7, 7), b), (Pos::new(6, 9), Color::White)];
        let r = [(Pos::new(7, 7), b), (Pos::new(9, 6), Color::White)];
        assert_eq!(board_canonical(&a, 15), board_canonical(&m, 15));
        assert_eq!(board_canonical(&a, 15), board_canonical(&r, 15));
        let other = [(Pos::new(7, 7), b), (Pos::new(9, 9), Color::White)];
        assert_ne!(board_canonical(&a, 15), board_canonical(&other, 15));
    }
}
