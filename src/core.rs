//! Vocabulary shared by every layer: points, colours, rules, notation.
//!
//! Coordinates follow `docs/rules.md` section 1: protocol `x,y` is 0-based with `x` the
//! column; human notation is a column letter (`a` = column 0) followed by the row number
//! `y + 1`, so `h8` is `7,7`. Boards are from [`MIN_SIZE`] to [`MAX_SIZE`] on each side.

use std::fmt;
use thiserror::Error;

/// Smallest supported board side, in points (protocol.md §2.1).
pub const MIN_SIZE: usize = 5;
/// Largest supported board side, in points (protocol.md §2.1: Rapfi, cli and Yixin-Board stop
/// at 22 too). The line encoding packs 22 points plus 5 wall points on each side into 64 bits.
pub const MAX_SIZE: usize = 22;
/// Row stride of the [`Pos`] index: `index = (y + PAD) * STRIDE + (x + PAD)`.
pub const STRIDE: usize = 32;
/// Margin of off-board points kept around the board in [`Pos`] indices, so that walking up
/// to 5 points from any board point along a line stays inside `0..POS_COUNT`.
pub const PAD: usize = 5;
/// Number of distinct [`Pos`] indices (`STRIDE * STRIDE`); arrays indexed by `Pos` have this
/// length.
pub const POS_COUNT: usize = STRIDE * STRIDE;

/// A stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player's colour.
    Black = 0,
    /// The second player's colour.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// Lower-case English name (`black`, `white`).
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
    /// Parses `black`/`b`/`white`/`w` (any case).
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Color::Black),
            "white" | "w" => Some(Color::White),
            _ => None,
        }
    }
}

/// The rule set of a game (rules.md section 3, protocol.md §2.4 and §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins, both colours (Gomocup rule 0).
    Freestyle,
    /// Exactly five wins, both colours; an overline neither wins nor loses (rule 1).
    Standard,
    /// Black: exactly five, and double three, double four and overline are forbidden;
    /// white: five or more (rule 4, or 2 from Yixin-style managers).
    Renju,
    /// Caro as Gomocup configures it (rule 8): a five blocked by opponent stones at both
    /// ends does not win; six or more wins whatever is at its ends. The edge is no blocker.
    Caro,
    /// "Standard caro" (rule 9): only an exact five that is not blocked at both ends wins.
    CaroExact,
}

impl Rule {
    /// Every rule, in a fixed order (used by tables and tests).
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Position of the rule in [`Rule::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Decodes a Piskvork/Gomocup `INFO rule` value as protocol.md §2.4 requires: exactly 2
    /// is renju (Yixin); otherwise bit 4 renju, bit 8 caro (with bit 1: exact caro), bit 1
    /// exact five; bit 2 (continuous game) is ignored. Returns `None` for values it cannot
    /// decode (negative); callers fall back to freestyle and say so.
    pub fn from_gomocup(value: i64) -> Option<Rule> {
        if value == 2 {
            return Some(Rule::Renju);
        }
        if !(0..=15).contains(&value) {
            return None;
        }
        if value & 4 != 0 {
            Some(Rule::Renju)
        } else if value & 8 != 0 {
            Some(if value & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            })
        } else if value & 1 != 0 {
            Some(Rule::Standard)
        } else {
            Some(Rule::Freestyle)
        }
    }

    /// The Gomocup `INFO rule` value that selects this rule.
    pub fn gomocup_value(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// Parses a CLI rule name: `freestyle`, `standard` (or `exact5`), `renju`, `caro`,
    /// `caro-exact` (or `caro9`), or a Gomocup number.
    pub fn parse(s: &str) -> Option<Rule> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" => Some(Rule::Freestyle),
            "standard" | "exact5" | "exact-five" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro" | "caro8" => Some(Rule::Caro),
            "caro-exact" | "caro9" | "caroexact" | "standard-caro" => Some(Rule::CaroExact),
            other => other.parse::<i64>().ok().and_then(Rule::from_gomocup),
        }
    }

    /// Lower-case name as accepted by [`Rule::parse`].
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// Whether the given colour has forbidden points under this rule (renju black only).
    #[inline]
    pub fn has_forbidden(self, color: Color) -> bool {
        self == Rule::Renju && color == Color::Black
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A point of the board, stored as `(y + PAD) * STRIDE + (x + PAD)`. [`Pos::NONE`] means
/// "no point".
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// The "no point" sentinel (not a board point).
    pub const NONE: Pos = Pos(u16::MAX);

    /// The point at column `x`, row `y` (0-based). Both must be below [`STRIDE`].
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }
    /// Column, 0-based (meaningless for [`Pos::NONE`]).
    #[inline]
    pub fn x(self) -> usize {
        (self.0 as usize % STRIDE).wrapping_sub(PAD)
    }
    /// Row, 0-based (row 0 is notation row 1).
    #[inline]
    pub fn y(self) -> usize {
        (self.0 as usize / STRIDE).wrapping_sub(PAD)
    }
    /// Index into arrays of length [`POS_COUNT`].
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// Whether this is [`Pos::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }
    /// Protocol form `x,y`.
    pub fn to_xy(self) -> String {
        format!("{},{}", self.x(), self.y())
    }
    /// Human notation (`h8`) when the column fits a letter (`x < 26`), else `x,y`.
    pub fn to_notation(self) -> String {
        if self.is_none() {
            return "none".to_string();
        }
        if self.x() < 26 {
            format!("{}{}", (b'a' + self.x() as u8) as char, self.y() + 1)
        } else {
            self.to_xy()
        }
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_notation())
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_notation())
    }
}

/// Errors from reading points, point lists and board sizes.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CoordError {
    /// The text is neither `h8`-style notation nor `x,y`.
    #[error("bad point '{0}': expected a letter and a row number like h8, or x,y")]
    BadNotation(String),
    /// The point lies outside a `width` x `height` board.
    #[error("point '{0}' is off the {1}x{2} board")]
    OffBoard(String, usize, usize),
    /// The point already holds a stone.
    #[error("point '{0}' is already occupied")]
    Occupied(String),
    /// Board side outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    #[error("unsupported board size {0}x{1}: each side must be {min}..={max}", min = MIN_SIZE, max = MAX_SIZE)]
    BadSize(usize, usize),
}

/// Parses human notation (`h8`, `H8`; letter first, row counted from 1) or protocol `x,y`
/// (0-based, spaces allowed around the comma) and checks it against a `width` x `height`
/// board.
///
/// Errors: [`CoordError::BadNotation`] for text of neither form, [`CoordError::OffBoard`]
/// for a point outside the board.
pub fn parse_point(text: &str, width: usize, height: usize) -> Result<Pos, CoordError> {
    let t = text.trim();
    let bad = || CoordError::BadNotation(t.to_string());
    let (x, y) = if let Some((a, b)) = t.split_once(',') {
        let x: i64 = a.trim().parse().map_err(|_| bad())?;
        let y: i64 = b.trim().parse().map_err(|_| bad())?;
        (x, y)
    } else {
        let mut chars = t.chars();
        let c = chars.next().ok_or_else(bad)?;
        if !c.is_ascii_alphabetic() {
            return Err(bad());
        }
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 3 {
            return Err(bad());
        }
        let row: i64 = rest.parse().map_err(|_| bad())?;
        ((c.to_ascii_lowercase() as u8 - b'a') as i64, row - 1)
    };
    if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
        return Err(CoordError::OffBoard(t.to_string(), width, height));
    }
    Ok(Pos::new(x as usize, y as usize))
}

/// Parses a comma-separated list of notation points (`h8,h9,i10`); `-` or an empty string is
/// the empty list. Errors as [`parse_point`] (protocol `x,y` pairs are not accepted here,
/// since the comma separates points).
pub fn parse_point_list(text: &str, width: usize, height: usize) -> Result<Vec<Pos>, CoordError> {
    let t = text.trim();
    if t.is_empty() || t == "-" {
        return Ok(Vec::new());
    }
    t.split(',')
        .map(|s| {
            let s = s.trim();
            if s.contains(',') || s.is_empty() {
                return Err(CoordError::BadNotation(s.to_string()));
            }
            parse_point(s, width, height)
        })
        .collect()
}

/// Checks a board size: each side in [`MIN_SIZE`]..=[`MAX_SIZE`].
///
/// Errors: [`CoordError::BadSize`].
pub fn check_size(width: usize, height: usize) -> Result<(), CoordError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height) {
        Ok(())
    } else {
        Err(CoordError::BadSize(width, height))
    }
}

/// The four line directions as `(dx, dy)`: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trip() {
        let p = parse_point("h8", 15, 15).unwrap();
        assert_eq!((p.x(), p.y()), (7, 7));
        assert_eq!(p.to_notation(), "h8");
        assert_eq!(parse_point("H9", 15, 15).unwrap(), Pos::new(7, 8));
        assert_eq!(parse_point(" 7 , 8 ", 15, 15).unwrap(), Pos::new(7, 8));
        assert_eq!(parse_point("a1", 15, 15).unwrap(), Pos::new(0, 0));
    }

    #[test]
    fn notation_errors() {
        assert!(matches!(
            parse_point("8h", 15, 15),
            Err(CoordError::BadNotation(_))
        ));
        assert!(matches!(
            parse_point("", 15, 15),
            Err(CoordError::BadNotation(_))
        ));
        assert!(matches!(
            parse_point("h", 15, 15),
            Err(CoordError::BadNotation(_))
        ));
        assert!(matches!(
            parse_point("p1", 15, 15),
            Err(CoordError::OffBoard(..))
        ));
        assert!(matches!(
            parse_point("a16", 15, 15),
            Err(CoordError::OffBoard(..))
        ));
        assert!(matches!(
            parse_point("a0", 15, 15),
            Err(CoordError::OffBoard(..))
        ));
        assert!(matches!(
            parse_point("-1,3", 15, 15),
            Err(CoordError::OffBoard(..))
        ));
        assert!(matches!(
            parse_point("h99999999999", 15, 15),
            Err(CoordError::BadNotation(_))
        ));
        assert!(parse_point_list("h8,,h9", 15, 15).is_err());
        assert_eq!(parse_point_list("-", 15, 15).unwrap(), vec![]);
    }

    #[test]
    fn rule_decoding() {
        assert_eq!(Rule::from_gomocup(0), Some(Rule::Freestyle));
        assert_eq!(Rule::from_gomocup(1), Some(Rule::Standard));
        assert_eq!(Rule::from_gomocup(2), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(3), Some(Rule::Standard));
        assert_eq!(Rule::from_gomocup(4), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(6), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(8), Some(Rule::Caro));
        assert_eq!(Rule::from_gomocup(9), Some(Rule::CaroExact));
        assert_eq!(Rule::from_gomocup(10), Some(Rule::Caro));
        assert_eq!(Rule::from_gomocup(-1), None);
    }
}
