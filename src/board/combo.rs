//! Point classes from the four line patterns of one colour, and the hand-set per-point scores
//! of each code (the board keeps codes and classes, not scores: [`super::Board::score`] sums
//! these over the candidates when asked, for the hand-set reference evaluation of `tune`).
//!
//! A point's *code* packs its four [`Pattern`]s for one colour into 16 bits (direction `d` in
//! bits `4d..4d+4`). [`ComboTable`] maps every code to a [`Combo`] (the threat the stone would
//! make, used by move ordering and the threat searches) and to a score (used by evaluation),
//! one table per rule and colour.

use super::canon::{canon, is_valid_code, CLASS_SLOTS};
use super::pattern::Pattern;
use crate::core::{Color, Rule};
use once_cell::sync::OnceCell;

/// The threat one stone makes with all four lines together, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Combo {
    /// Renju black only: an overline or a double four without a five (a sure foul).
    Forbidden = 0,
    /// Nothing of note.
    None = 1,
    /// One open two.
    Two = 2,
    /// Two or more open twos.
    DoubleTwo = 3,
    /// A closed three (can become a four).
    ClosedThree = 4,
    /// One open three.
    Three = 5,
    /// One open three and an open two or closed three elsewhere.
    ThreePlus = 6,
    /// One simple four.
    Four = 7,
    /// A simple four and an open two or closed three elsewhere.
    FourPlus = 8,
    /// Two or more open threes and no four (for renju black: a double-three candidate that the
    /// exact forbidden test must confirm).
    DoubleThree = 9,
    /// A four and an open three (4-3): legal for renju black, wins unless answered by a five.
    FourThree = 10,
    /// A straight four, or two fours (for renju black only a straight four: two fours are a
    /// foul): two five points at once.
    Flex4 = 11,
    /// A winning line.
    Five = 12,
}

/// Score units of a point for evaluation (see [`pattern_weight`]).
pub type Score = i32;

/// Weight of one line pattern in a point's score.
pub fn pattern_weight(p: Pattern) -> Score {
    match p {
        Pattern::Dead | Pattern::Overline => 0,
        Pattern::ClosedOne | Pattern::One => 2,
        Pattern::ClosedTwo => 5,
        Pattern::OpenTwo | Pattern::OpenTwo3 | Pattern::OpenTwo4 => 14,
        Pattern::ClosedThree => 16,
        Pattern::SplitThree => 40,
        Pattern::OpenThree => 46,
        Pattern::Four => 52,
        Pattern::StraightFour | Pattern::DoubleFour => 220,
        Pattern::Five => 1200,
    }
}

/// Extra score of a point for its combined threat.
pub fn combo_bonus(c: Combo) -> Score {
    match c {
        Combo::Forbidden => 0,
        Combo::None | Combo::Two => 0,
        Combo::DoubleTwo => 8,
        Combo::ClosedThree => 0,
        Combo::Three => 0,
        Combo::ThreePlus => 12,
        Combo::Four => 0,
        Combo::FourPlus => 16,
        Combo::DoubleThree => 120,
        Combo::FourThree => 260,
        Combo::Flex4 => 300,
        Combo::Five => 0,
    }
}

/// The four patterns of a code.
#[inline]
pub fn code_patterns(code: u16) -> [Pattern; 4] {
    [
        Pattern::from_u8((code & 0xF) as u8),
        Pattern::from_u8(((code >> 4) & 0xF) as u8),
        Pattern::from_u8(((code >> 8) & 0xF) as u8),
        Pattern::from_u8(((code >> 12) & 0xF) as u8),
    ]
}

/// Combines four line patterns into a [`Combo`] for a colour with or without forbidden moves.
pub fn combine(pats: [Pattern; 4], forbidden_rules: bool) -> Combo {
    let mut fives = 0;
    let mut overline = false;
    let mut fours = 0;
    let mut flex = false;
    let mut threes = 0;
    let mut minor = 0; // open twos and closed threes
    let mut twos = 0;
    for p in pats {
        match p {
            Pattern::Five => fives += 1,
            Pattern::Overline => overline = true,
            Pattern::StraightFour => {
                fours += 1;
                flex = true
            }
            Pattern::DoubleFour => {
                fours += 2;
                flex = true
            }
            Pattern::Four => fours += 1,
            Pattern::OpenThree | Pattern::SplitThree => threes += 1,
            Pattern::ClosedThree => minor += 1,
            p if p.is_open_two() => {
                minor += 1;
                twos += 1
            }
            _ => {}
        }
    }
    if fives > 0 {
        return Combo::Five;
    }
    if forbidden_rules && (overline || fours >= 2) {
        return Combo::Forbidden;
    }
    if forbidden_rules && threes >= 2 {
        // A double-three candidate (also 4-3-3): the exact test decides.
        return Combo::DoubleThree;
    }
    if flex || fours >= 2 {
        return Combo::Flex4;
    }
    if fours == 1 {
        return if threes >= 1 {
            Combo::FourThree
        } else if minor > 0 {
            Combo::FourPlus
        } else {
            Combo::Four
        };
    }
    if threes >= 2 {
        return Combo::DoubleThree;
    }
    if threes == 1 {
        return if minor > 0 {
            Combo::ThreePlus
        } else {
            Combo::Three
        };
    }
    if pats.contains(&Pattern::ClosedThree) {
        return Combo::ClosedThree;
    }
    match twos {
        0 => Combo::None,
        1 => Combo::Two,
        _ => Combo::DoubleTwo,
    }
}

/// Per rule and colour: the combo and the score of every 16-bit code, and the combo of every
/// canonical class ([`super::canon`]).
pub struct ComboTable {
    combo: Box<[Combo; 1 << 16]>,
    score: Box<[i16; 1 << 16]>,
    class_combo: Box<[Combo; CLASS_SLOTS]>,
}

impl ComboTable {
    fn build(rule: Rule, color: Color) -> ComboTable {
        let forbidden = rule.has_forbidden(color);
        let mut combo = Vec::with_capacity(1 << 16);
        let mut score = Vec::with_capacity(1 << 16);
        for code in 0..=u16::MAX {
            let pats = code_patterns(code);
            let c = combine(pats, forbidden);
            combo.push(c);
            let s = if c == Combo::Forbidden {
                0
            } else {
                pats.iter().map(|&p| pattern_weight(p)).sum::<Score>() + combo_bonus(c)
            };
            score.push(s.clamp(i16::MIN as Score, i16::MAX as Score) as i16);
        }
        let mut class_combo = Box::new([Combo::None; CLASS_SLOTS]);
        for code in (0..=u16::MAX).filter(|&c| is_valid_code(c)) {
            class_combo[canon(code)] = combo[code as usize];
        }
        ComboTable {
            combo: combo.into_boxed_slice().try_into().expect("65536 combos"),
            score: score.into_boxed_slice().try_into().expect("65536 scores"),
            class_combo,
        }
    }

    /// The shared table for `rule` and `color`, built on first use.
    pub fn get(rule: Rule, color: Color) -> &'static ComboTable {
        static TABLES: [OnceCell<ComboTable>; 10] = [
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
        ];
        TABLES[rule.index() * 2 + color.index()].get_or_init(|| ComboTable::build(rule, color))
    }

    /// The combo of a code.
    #[inline(always)]
    pub fn combo(&self, code: u16) -> Combo {
        self.combo[code as usize]
    }

    /// The combo of a canonical class (every code of the class has it).
    #[inline(always)]
    pub fn combo_of_class(&self, class: u16) -> Combo {
        self.class_combo[class as usize & (CLASS_SLOTS - 1)]
    }

    /// The score of a code.
    #[inline(always)]
    pub fn score(&self, code: u16) -> Score {
        self.score[code as usize] as Score
    }
}
