//! The features of the learned evaluation (`docs/training.md` §3): canonical pattern codes
//! and threat classes. The evaluator ([`super::Evaluator`]) and the tuner
//! (`crate::train::tune`) share these definitions, so that what is trained is exactly what
//! is evaluated.
//!
//! - A point's *code* for one colour packs its four line patterns
//!   ([`crate::board::Pattern`], 15 values) in four nibbles. The order of the directions
//!   does not matter for the value of a point, so each code maps to the index of its
//!   multiset of four patterns: [`CANON_CODES`] = C(18, 4) = 3060 classes.
//! - A point's *threat class* is derived from its [`Combo`]: five, straight four (or two
//!   fours), four-three, four, double three, three (renju black: a double three is a
//!   forbidden-point candidate, not a threat). The evaluator counts, per colour, the empty
//!   points of each class; the *threat mask* is 11 yes/no facts about those counts from the
//!   side to move's view ([`threat_mask`]).

use crate::board::{Combo, Pattern};
use crate::core::{Color, Rule};
use once_cell::sync::Lazy;

pub use crate::board::canon::{canon, CANON, CANON_CODES, PATTERNS};
use crate::board::canon::{canon_index_of, multichoose};
/// Number of threat classes counted per colour.
pub const CLASSES: usize = 6;
/// Number of threat masks (11 bits).
pub const MASKS: usize = 1 << 11;

/// A threat class: the index into the per-colour counts.
pub mod class {
    /// A five point.
    pub const FIVE: usize = 0;
    /// A straight four or two fours (two five points at once).
    pub const FLEX4: usize = 1;
    /// A four and an open three.
    pub const FOUR_THREE: usize = 2;
    /// A simple four (possibly with minor shapes).
    pub const FOUR: usize = 3;
    /// Two open threes (not for renju black).
    pub const DOUBLE_THREE: usize = 4;
    /// One open three (possibly with minor shapes).
    pub const THREE: usize = 5;
    /// No threat class.
    pub const NONE: usize = 255;
}

/// The threat class of a combo for a colour with (`forbidden`) or without forbidden points.
pub fn combo_class(c: Combo, forbidden: bool) -> usize {
    match c {
        Combo::Five => class::FIVE,
        Combo::Flex4 => class::FLEX4,
        Combo::FourThree => class::FOUR_THREE,
        Combo::Four | Combo::FourPlus => class::FOUR,
        Combo::DoubleThree if !forbidden => class::DOUBLE_THREE,
        Combo::Three | Combo::ThreePlus => class::THREE,
        _ => class::NONE,
    }
}

/// Threat class of every combo value, for `rule` and `color` (indexed by `Combo as usize`).
pub fn class_table(rule: Rule, color: Color) -> [u8; 16] {
    let mut t = [class::NONE as u8; 16];
    for c in ALL_COMBOS {
        t[c as usize] = combo_class(c, rule.has_forbidden(color)) as u8;
    }
    t
}

/// Every [`Combo`] value.
pub const ALL_COMBOS: [Combo; 13] = [
    Combo::Forbidden,
    Combo::None,
    Combo::Two,
    Combo::DoubleTwo,
    Combo::ClosedThree,
    Combo::Three,
    Combo::ThreePlus,
    Combo::Four,
    Combo::FourPlus,
    Combo::DoubleThree,
    Combo::FourThree,
    Combo::Flex4,
    Combo::Five,
];

/// The threat mask of a position from the side to move's view: `me` and `opp` are the
/// counts of empty points per threat class of the side to move and of its opponent. Bits:
/// 0 the opponent has a five point; 1/2 own/opponent straight-four point; 3/4 four-three;
/// 5/6 four; 7/8 double three; 9/10 three.
#[inline]
pub fn threat_mask(me: &[u16; CLASSES], opp: &[u16; CLASSES]) -> usize {
    ((opp[class::FIVE] > 0) as usize)
        | ((me[class::FLEX4] > 0) as usize) << 1
        | ((opp[class::FLEX4] > 0) as usize) << 2
        | ((me[class::FOUR_THREE] > 0) as usize) << 3
        | ((opp[class::FOUR_THREE] > 0) as usize) << 4
        | ((me[class::FOUR] > 0) as usize) << 5
        | ((opp[class::FOUR] > 0) as usize) << 6
        | ((me[class::DOUBLE_THREE] > 0) as usize) << 7
        | ((opp[class::DOUBLE_THREE] > 0) as usize) << 8
        | ((me[class::THREE] > 0) as usize) << 9
        | ((opp[class::THREE] > 0) as usize) << 10
}

/// The four patterns (ascending) of each canonical index.
pub static CANON_PATTERNS: Lazy<Vec<[Pattern; 4]>> = Lazy::new(|| {
    let mut v = vec![[Pattern::Dead; 4]; CANON_CODES];
    for a in 0..PATTERNS {
        for b in a..PATTERNS {
            for c in b..PATTERNS {
                for d in c..PATTERNS {
                    v[canon_index([a, b, c, d])] = [a, b, c, d].map(|x| Pattern::from_u8(x as u8));
                }
            }
        }
    }
    v
});

/// Number of canonical codes of the 12-pattern set that weights files of format 1 used
/// before [`Pattern::ClosedOne`], [`Pattern::OpenTwo3`] and [`Pattern::OpenTwo4`] were split
/// from [`Pattern::One`] and [`Pattern::OpenTwo`]: C(15, 4).
pub const LEGACY_CANON_CODES: usize = multichoose(12, 4);

/// For every canonical index, the index of the same multiset in the 12-pattern set (the
/// split patterns merged back), so that tables of that set can be read.
pub static LEGACY_INDEX: Lazy<Vec<u16>> = Lazy::new(|| {
    let coarse = |p: Pattern| -> usize {
        match p {
            Pattern::Dead => 0,
            Pattern::Overline => 1,
            Pattern::ClosedOne | Pattern::One => 2,
            Pattern::ClosedTwo => 3,
            Pattern::OpenTwo | Pattern::OpenTwo3 | Pattern::OpenTwo4 => 4,
            Pattern::ClosedThree => 5,
            Pattern::SplitThree => 6,
            Pattern::OpenThree => 7,
            Pattern::Four => 8,
            Pattern::StraightFour => 9,
            Pattern::DoubleFour => 10,
            Pattern::Five => 11,
        }
    };
    CANON_PATTERNS
        .iter()
        .map(|pats| {
            let mut p = pats.map(coarse);
            p.sort_unstable();
            canon_index_of(p, 12) as u16
        })
        .collect()
});

/// Index of the sorted multiset `p` (ascending, values below [`PATTERNS`]) in lexicographic
/// order of all sorted multisets.
fn canon_index(p: [usize; 4]) -> usize {
    canon_index_of(p, PATTERNS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_indices_are_a_bijection() {
        let mut seen = vec![false; CANON_CODES];
        for a in 0..PATTERNS {
            for b in a..PATTERNS {
                for c in b..PATTERNS {
                    for d in c..PATTERNS {
                        let i = canon_index([a, b, c, d]);
                        assert!(i < CANON_CODES);
                        assert!(!seen[i], "duplicate {i}");
                        seen[i] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // Order of the directions does not matter.
        let code = |p: [u16; 4]| p[0] | p[1] << 4 | p[2] << 8 | p[3] << 12;
        assert_eq!(canon(code([7, 2, 2, 12])), canon(code([2, 12, 7, 2])));
        assert_ne!(canon(code([7, 2, 2, 12])), canon(code([7, 2, 3, 12])));
        assert_eq!(
            CANON_PATTERNS[canon(code([7, 2, 2, 12]))][3],
            Pattern::StraightFour
        );
    }

    #[test]
    fn masks() {
        let mut me = [0u16; CLASSES];
        let mut opp = [0u16; CLASSES];
        assert_eq!(threat_mask(&me, &opp), 0);
        opp[class::FIVE] = 1;
        me[class::THREE] = 3;
        assert_eq!(threat_mask(&me, &opp), 1 | 1 << 9);
        assert_eq!(combo_class(Combo::DoubleThree, true), class::NONE);
        assert_eq!(combo_class(Combo::DoubleThree, false), class::DOUBLE_THREE);
        assert_eq!(
            class_table(Rule::Renju, Color::Black)[Combo::DoubleThree as usize],
            255
        );
    }
}
