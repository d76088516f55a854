//! Vocabulary shared by every layer: points, colours, rules, notation.
//!
//! Coordinates follow docs/rules.md §1: protocol `x,y` is 0-based with `x` the column from
//! the left and `y` the row from the top; human notation is a column letter (`a` = column 0)
//! followed by the row number `y + 1`, so `a1` is the top-left corner and `h8` is `7,7`.
//! Boards are from [`MIN_SIZE`] to [`MAX_SIZE`] on each side.

use std::fmt;
use thiserror::Error;

/// Smallest supported board side, in points (docs/protocol.md §2.1).
pub const MIN_SIZE: usize = 5;
/// Largest supported board side, in points (docs/protocol.md §2.1: Rapfi, cli and Yixin-Board stop
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

/// The rule set of a game (docs/rules.md §3, docs/protocol.md §2.4 and §5.3).
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

    /// Decodes a Piskvork/Gomocup `INFO rule` value as docs/protocol.md §2.4 requires: exactly 2
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
    /// `caro-exact` (or `caro9`), or the Gomocup number that names exactly one of them (0, 1,
    /// 4, 8, 9). Other numbers are refused: they are combinations of the protocol's rule bits
    /// (2 is even read differently by Piskvork and Yixin-Board, docs/protocol.md §2.4), so
    /// a command line that says them says nothing clear. [`Rule::parse_explained`] says why.
    pub fn parse(s: &str) -> Option<Rule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" | "0" => Some(Rule::Freestyle),
            "standard" | "exact5" | "exact-five" | "1" => Some(Rule::Standard),
            "renju" | "4" => Some(Rule::Renju),
            "caro" | "caro8" | "8" => Some(Rule::Caro),
            "caro-exact" | "caro9" | "caroexact" | "standard-caro" | "9" => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// As [`Rule::parse`], with a one-line reason on failure that lists the valid rules
    /// ([`RULE_CHOICES`]) and, for a Gomocup number that is no rule of its own, says what the
    /// number means.
    pub fn parse_explained(s: &str) -> Result<Rule, String> {
        if let Some(r) = Rule::parse(s) {
            return Ok(r);
        }
        let t = s.trim();
        let why = match t.parse::<i64>() {
            Ok(2) => "rule 2 is renju to Yixin-Board but freestyle in a continuous game to \
                      Piskvork, so it is not accepted here"
                .to_string(),
            Ok(n) if (0..=15).contains(&n) => format!(
                "rule {n} is a combination of the protocol's rule bits (1 exact five, 2 \
                 continuous game, 4 renju, 8 caro), not a rule of its own"
            ),
            _ => format!("unknown rule '{t}'"),
        };
        Err(format!("{why}; valid rules: {RULE_CHOICES}"))
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

    /// Whether a stone on one point can stop a five elsewhere: only in caro, where a five
    /// with opponent stones right beyond both ends does not win (docs/protocol.md §5.3), so a
    /// stone just beyond one end of a four whose other end is already blocked defends it.
    #[inline]
    pub fn has_caps(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroExact)
    }
}

/// [`Rule::parse_explained`]: the one parser of a `--rule` value (clap uses it for every
/// argument of type [`Rule`]).
impl std::str::FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Rule, String> {
        Rule::parse_explained(s)
    }
}

/// The rules a command line may name, with their Gomocup numbers (for help and error texts).
pub const RULE_CHOICES: &str = "freestyle (0), standard (1), renju (4), caro (8), caro-exact (9)";

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
    /// The Chebyshev (king-move) distance to `other`: the larger of the column and the row
    /// differences, in points.
    pub fn chebyshev(self, other: Pos) -> i32 {
        let dx = (self.x() as i32 - other.x() as i32).abs();
        let dy = (self.y() as i32 - other.y() as i32).abs();
        dx.max(dy)
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
    /// The text is neither `h8`-style notation nor `x,y` (quoted as an [`excerpt`]).
    #[error("bad point '{}': expected a letter and a row number like h8, or x,y", excerpt(.0))]
    BadNotation(String),
    /// The point lies outside a `width` x `height` board.
    #[error("point '{}' is off the {1}x{2} board", excerpt(.0))]
    OffBoard(String, usize, usize),
    /// The point already holds a stone.
    #[error("point '{}' is already occupied", excerpt(.0))]
    Occupied(String),
    /// Board side outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    #[error("unsupported board size {0}x{1}: each side must be {min}..={max}", min = MIN_SIZE, max = MAX_SIZE)]
    BadSize(usize, usize),
    /// A board size that is neither `N` nor `WxH`.
    #[error("bad board size '{}': expected N (N x N) or WxH, e.g. 15 or 15x20", excerpt(.0))]
    BadSizeText(String),
}

/// Longest piece of someone else's text that a message quotes, in characters
/// ([`excerpt`]).
pub const EXCERPT_CHARS: usize = 32;

/// A short, printable quotation of `text` for an error message: at most [`EXCERPT_CHARS`]
/// characters (then `...`), with control characters, invalid UTF-8 replacements and other
/// unprintable characters escaped as Rust escapes them (`\u{1b}`, `\0`, `\t`). A binary
/// file given as a game is thus never echoed raw to a terminal.
pub fn excerpt(text: &str) -> String {
    excerpt_of(text, EXCERPT_CHARS)
}

/// Longest file name a message quotes, in characters ([`quote_path`]).
pub const PATH_CHARS: usize = 240;

/// A file name as typed, for a message: escaped like an [`excerpt`], cut at [`PATH_CHARS`]
/// characters.
pub fn quote_path(path: &std::path::Path) -> String {
    excerpt_of(&path.display().to_string(), PATH_CHARS)
}

/// [`excerpt`] with a limit of `max_chars` characters.
fn excerpt_of(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push_str("...");
            break;
        }
        if c.is_control() || c == '\u{fffd}' || (!c.is_ascii() && !c.is_alphanumeric()) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// One number of a coordinate: decimal digits with an optional `-`, white space around it
/// allowed (docs/protocol.md §1.2: spaces and tabs around the commas of coordinates are
/// ignored); `None` for anything else or a value beyond `i64`.
pub fn parse_coord_number(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// The one parser of `x,y` text (protocol coordinates, engine answers, command lines): two
/// [`parse_coord_number`]s and one comma; `None` otherwise.
pub fn parse_xy(text: &str) -> Option<(i64, i64)> {
    let (a, b) = text.split_once(',')?;
    Some((parse_coord_number(a)?, parse_coord_number(b)?))
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
    let (x, y) = if t.contains(',') {
        parse_xy(t).ok_or_else(bad)?
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

/// A count with its noun in the right number: `counted(1, "move", "moves")` is `1 move`,
/// `counted(3, "move", "moves")` is `3 moves` (and `0 moves`).
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
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

/// Parses a board size as the command line gives it: `N` for an `N` x `N` board or `WxH`
/// (`15x20`: 15 columns, 20 rows); returns `(width, height)`, each checked against
/// [`MIN_SIZE`]..=[`MAX_SIZE`].
///
/// Errors: [`CoordError::BadSizeText`] for text of neither form, [`CoordError::BadSize`] for
/// a side out of range.
pub fn parse_size(text: &str) -> Result<(usize, usize), CoordError> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || CoordError::BadSizeText(text.trim().to_string());
    let num = |s: &str| -> Result<usize, CoordError> {
        let s = s.trim();
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    let (w, h) = match t.split_once('x') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let n = num(&t)?;
            (n, n)
        }
    };
    check_size(w, h)?;
    Ok((w, h))
}

/// Parses a list of moves in any of the forms people and programs write them, and checks
/// each point against a `width` x `height` board (not for occupancy):
/// - notation points separated by commas and/or spaces: `h8,h9,i10` or `h8 h9 i10`;
/// - protocol points `x,y` separated by spaces, semicolons or new lines: `7,7 7,8 8,9`;
/// - a comma-separated run of numbers read in pairs: `7,7,7,8,8,9`;
/// - any mix of these (`h8 7,8`); `-` or nothing is the empty list.
///
/// Errors: as [`parse_point`] for a bad or off-board point; [`CoordError::BadNotation`]
/// naming the numbers when a run of numbers has an odd count.
pub fn parse_move_text(text: &str, width: usize, height: usize) -> Result<Vec<Pos>, CoordError> {
    let mut out = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ';') {
        let token = token.trim_matches(',');
        if token.is_empty() || token == "-" {
            continue;
        }
        let numeric = token
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b',' || b == b'-');
        if numeric && token.contains(',') {
            let parts: Vec<&str> = token.split(',').collect();
            if !parts.len().is_multiple_of(2) {
                return Err(CoordError::BadNotation(format!(
                    "{token} (numbers go in x,y pairs)"
                )));
            }
            for pair in parts.chunks(2) {
                out.push(parse_point(
                    &format!("{},{}", pair[0], pair[1]),
                    width,
                    height,
                )?);
            }
        } else {
            for part in token.split(',').filter(|s| !s.is_empty()) {
                out.push(parse_point(part, width, height)?);
            }
        }
    }
    Ok(out)
}

/// The four line directions as `(dx, dy)`: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A small deterministic generator (SplitMix64), so that a seed gives the same Zobrist keys,
/// openings and shuffles on every platform (the one generator of the crate).
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator with this seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A uniform value in `0..n` (`n > 0`), by rejection so there is no modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_nouns() {
        assert_eq!(counted(1, "move", "moves"), "1 move");
        assert_eq!(counted(0, "move", "moves"), "0 moves");
        assert_eq!(counted(5, "stone", "stones"), "5 stones");
    }

    #[test]
    fn excerpts_are_short_and_printable() {
        // Issue 34: a binary file's bytes quoted in an error reached the terminal raw.
        let raw = "\u{1b}[2J\u{0}\u{7f}PK\u{3}\u{4}\u{fffd}x";
        let e = excerpt(raw);
        assert_eq!(e, "\\u{1b}[2J\\u{0}\\u{7f}PK\\u{3}\\u{4}\\u{fffd}x");
        assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
        let long = "h".repeat(1000);
        assert_eq!(excerpt(&long), format!("{}...", "h".repeat(EXCERPT_CHARS)));
        assert_eq!(excerpt("h8"), "h8");
        let msg = CoordError::BadNotation(format!("\u{1b}]0;{}", "z".repeat(500))).to_string();
        assert!(msg.len() < 120 && !msg.contains('\u{1b}'), "{msg}");
    }

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
    fn sizes_and_move_text() {
        assert_eq!(parse_size("15"), Ok((15, 15)));
        assert_eq!(parse_size(" 15x20 "), Ok((15, 20)));
        assert_eq!(parse_size("20X15"), Ok((20, 15)));
        assert_eq!(parse_size("4"), Err(CoordError::BadSize(4, 4)));
        assert_eq!(parse_size("15x23"), Err(CoordError::BadSize(15, 23)));
        assert!(matches!(parse_size("15x"), Err(CoordError::BadSizeText(_))));
        assert!(matches!(parse_size("big"), Err(CoordError::BadSizeText(_))));
        let want = vec![Pos::new(7, 7), Pos::new(7, 8), Pos::new(8, 9)];
        for text in [
            "h8,h9,i10",
            "h8 h9 i10",
            "7,7 7,8 8,9",
            "7,7;7,8;8,9",
            "7,7,7,8,8,9",
            "h8 7,8\ni10",
            " 7,7 , h9,i10",
        ] {
            assert_eq!(parse_move_text(text, 15, 15), Ok(want.clone()), "{text}");
        }
        assert_eq!(parse_move_text("-", 15, 15), Ok(vec![]));
        assert!(parse_move_text("7,7,8", 15, 15).is_err());
        assert!(matches!(
            parse_move_text("7,15", 15, 15),
            Err(CoordError::OffBoard(..))
        ));
        assert!(parse_move_text("h8,zz", 15, 15).is_err());
    }

    #[test]
    fn rule_names() {
        assert_eq!(Rule::parse("RENJU"), Some(Rule::Renju));
        assert_eq!(Rule::parse("4"), Some(Rule::Renju));
        assert_eq!(Rule::parse("9"), Some(Rule::CaroExact));
        for n in ["2", "3", "5", "6"] {
            assert_eq!(Rule::parse(n), None, "{n}");
            let e = Rule::parse_explained(n).unwrap_err();
            assert!(e.contains(&format!("rule {n} ")), "{e}");
            assert!(e.ends_with(RULE_CHOICES), "{e}");
        }
        let e = Rule::parse_explained("renjuu").unwrap_err();
        assert_eq!(
            e,
            format!("unknown rule 'renjuu'; valid rules: {RULE_CHOICES}")
        );
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
