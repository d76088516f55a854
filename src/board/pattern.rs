//! Line patterns: the shape one more stone of a colour makes on one line.
//!
//! A board line is packed into a `u64` with two bits per point (`00` empty, `01` black,
//! `10` white, `11` wall) and five wall points on each side. The shape at an empty point is
//! decided by the eleven points centred on it (five each side): enough to see an overline
//! next to an exact five and the blockers at both ends of a caro five. The 20 bits of the ten
//! neighbours form a key; [`PatternTable`] maps every key to the pattern for black (low
//! nibble) and white (high nibble) under one rule, so a lookup is one shift, two masks and one
//! load.
//!
//! The table is built once per rule from a slow reference classifier ([`Classifier::classify`])
//! that follows docs/rules.md §2 literally: a five is a run that wins under the rule; a
//! four leaves exactly one point that makes a five with the new stone; a straight four leaves
//! two such points at both ends of one run of four; an open three is one stone away from a
//! straight four; and so on down to twos. The classifier canonicalises each window (points
//! behind the first blocker on each side cannot matter) and memoises, so building a rule's
//! table takes tens of milliseconds.

use crate::core::{Color, Rule};
use once_cell::sync::OnceCell;
use std::collections::HashMap;

/// The shape made on one line by putting a stone of one colour on an empty point, weakest
/// first (`X` the new stone, `x` own stones, `o` opponent or edge, `.` empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made on this line through the point: `oxX.xo`.
    Dead = 0,
    /// Six or more in a row that does not win under the rule (standard, renju black, exact
    /// caro): `xxxXxx`. For renju black this is the overline foul.
    Overline = 1,
    /// A lone stone with room for a five that can only grow into closed twos: `oX.....`.
    ClosedOne = 2,
    /// A lone stone that can grow into an open two: `...X...`.
    One = 3,
    /// Two stones that can only grow into a closed three: `oxX...`.
    ClosedTwo = 4,
    /// Two stones that can grow into an open three, with one or two points that make it one:
    /// `o.xX...o`, `..x..X..`.
    OpenTwo = 5,
    /// An open two with exactly three points that make an open three: `o..xX...`, `..x.X..`.
    OpenTwo3 = 6,
    /// An open two with four or more points that make an open three: `...xX...`.
    OpenTwo4 = 7,
    /// Three stones that can only become a (simple) four: `oxxX..`.
    ClosedThree = 8,
    /// A split three: one more stone, inside the group, makes a straight four: `.xX.x.`.
    SplitThree = 9,
    /// A continuous open three: one more stone at an end makes a straight four: `..xxX..`.
    OpenThree = 10,
    /// A (simple) four: exactly one point makes a five: `oxxxX.`, `xx.xX`.
    Four = 11,
    /// A straight (open) four: both ends of a run of four make a five: `.xxxX.`.
    StraightFour = 12,
    /// Two fours on one line through the stone, not a straight four: `x.xXx.x`.
    DoubleFour = 13,
    /// A winning line under the rule (exact five, or five or more where overlines win).
    Five = 14,
}

impl Pattern {
    /// Pattern from its numeric value (`0..=14`); other values map to [`Pattern::Dead`].
    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        match v {
            1 => Pattern::Overline,
            2 => Pattern::ClosedOne,
            3 => Pattern::One,
            4 => Pattern::ClosedTwo,
            5 => Pattern::OpenTwo,
            6 => Pattern::OpenTwo3,
            7 => Pattern::OpenTwo4,
            8 => Pattern::ClosedThree,
            9 => Pattern::SplitThree,
            10 => Pattern::OpenThree,
            11 => Pattern::Four,
            12 => Pattern::StraightFour,
            13 => Pattern::DoubleFour,
            14 => Pattern::Five,
            _ => Pattern::Dead,
        }
    }
    /// Whether this is an open two of any kind ([`Pattern::OpenTwo`], [`Pattern::OpenTwo3`],
    /// [`Pattern::OpenTwo4`]).
    #[inline]
    pub fn is_open_two(self) -> bool {
        matches!(
            self,
            Pattern::OpenTwo | Pattern::OpenTwo3 | Pattern::OpenTwo4
        )
    }
    /// Whether this is an open three of either kind (continuous or split).
    #[inline]
    pub fn is_three(self) -> bool {
        matches!(self, Pattern::OpenThree | Pattern::SplitThree)
    }
    /// Number of fours this line holds for the double-four rule: 1 for a four or a straight
    /// four, 2 for two fours on one line, else 0 (docs/rules.md §3).
    #[inline]
    pub fn four_count(self) -> u32 {
        match self {
            Pattern::Four | Pattern::StraightFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// Whether a 16-bit point code (four pattern nibbles, see `crate::board::combo`) has a line
/// pattern [`Pattern::Four`] or better (`Four`, `StraightFour`, `DoubleFour`, `Five`: values
/// 11..=14). Each nibble is spread into its own byte and 5 added, so that exactly the values
/// 11 and above carry into bit 4 of their byte.
#[inline(always)]
pub fn has_four_line(code: u16) -> bool {
    let c = code as u32;
    let spread = (c & 0x000F) | ((c & 0x00F0) << 4) | ((c & 0x0F00) << 8) | ((c & 0xF000) << 12);
    spread.wrapping_add(0x0505_0505) & 0x1010_1010 != 0
}

/// What a point holds, seen from the colour being classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    Empty = 0,
    /// A stone of the colour being classified.
    Own = 1,
    /// A stone of the other colour.
    Opp = 2,
    /// Off the board, or a dead stone.
    Wall = 3,
}

/// How a colour wins under a rule: exact five only, and whether caro's both-ends block applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WinRule {
    /// Only exactly five wins (standard, renju black, exact caro).
    pub exact: bool,
    /// A five with opponent stones right beyond both ends does not win (caro).
    pub caro: bool,
    /// Renju black: a "three" counts only when it can become a straight four; a same-line
    /// double four is a foul, not a threat.
    pub forbidden: bool,
}

impl WinRule {
    /// The win condition of `color` under `rule` (docs/rules.md §3, docs/protocol.md §5.3).
    pub fn of(rule: Rule, color: Color) -> WinRule {
        match rule {
            Rule::Freestyle => WinRule {
                exact: false,
                caro: false,
                forbidden: false,
            },
            Rule::Standard => WinRule {
                exact: true,
                caro: false,
                forbidden: false,
            },
            Rule::Renju => match color {
                Color::Black => WinRule {
                    exact: true,
                    caro: false,
                    forbidden: true,
                },
                Color::White => WinRule {
                    exact: false,
                    caro: false,
                    forbidden: false,
                },
            },
            Rule::Caro => WinRule {
                exact: false,
                caro: true,
                forbidden: false,
            },
            Rule::CaroExact => WinRule {
                exact: true,
                caro: true,
                forbidden: false,
            },
        }
    }
}

/// Half the window length: points considered on each side of the classified point.
pub const HALF: usize = 5;
/// Window length (`2 * HALF + 1`).
pub const WIN: usize = 2 * HALF + 1;

/// Whether the run of own stones through `i` wins; `None` if `i` is not own.
fn run_wins(line: &[Cell; WIN], i: usize, wr: WinRule) -> bool {
    if line[i] != Cell::Own {
        return false;
    }
    let mut a = i;
    while a > 0 && line[a - 1] == Cell::Own {
        a -= 1;
    }
    let mut b = i;
    while b + 1 < WIN && line[b + 1] == Cell::Own {
        b += 1;
    }
    let len = b - a + 1;
    if len >= 6 {
        return !wr.exact;
    }
    if len < 5 {
        return false;
    }
    if wr.caro {
        let left = if a == 0 { Cell::Wall } else { line[a - 1] };
        let right = if b + 1 >= WIN {
            Cell::Wall
        } else {
            line[b + 1]
        };
        return !(left == Cell::Opp && right == Cell::Opp);
    }
    true
}

/// Length of the own run through the centre.
fn centre_run(line: &[Cell; WIN]) -> usize {
    let mut a = HALF;
    while a > 0 && line[a - 1] == Cell::Own {
        a -= 1;
    }
    let mut b = HALF;
    while b + 1 < WIN && line[b + 1] == Cell::Own {
        b += 1;
    }
    b - a + 1
}

/// Empty points `e` within four of the centre such that an own stone at `e` makes a winning
/// run that contains the centre (the centre must already be own).
fn five_points(line: &[Cell; WIN], wr: WinRule) -> Vec<usize> {
    let mut out = Vec::new();
    for e in HALF - 4..=HALF + 4 {
        if line[e] != Cell::Empty {
            continue;
        }
        let mut l = *line;
        l[e] = Cell::Own;
        // The run through e must contain the centre: every point between them is own.
        let (lo, hi) = if e < HALF { (e, HALF) } else { (HALF, e) };
        if (lo..=hi).all(|j| l[j] == Cell::Own) && run_wins(&l, HALF, wr) {
            out.push(e);
        }
    }
    out
}

/// Puts every point behind the first blocker on each side to that blocker's kind; for
/// non-caro rules an edge and an opponent stone are the same blocker.
fn canonical(line: &[Cell; WIN], wr: WinRule) -> [Cell; WIN] {
    let mut l = *line;
    if !wr.caro {
        for c in l.iter_mut() {
            if *c == Cell::Wall {
                *c = Cell::Opp;
            }
        }
    }
    let mut blocker = None;
    for i in (0..HALF).rev() {
        if let Some(b) = blocker {
            l[i] = b;
        } else if matches!(l[i], Cell::Opp | Cell::Wall) {
            blocker = Some(l[i]);
        }
    }
    blocker = None;
    for c in l.iter_mut().skip(HALF + 1) {
        if let Some(b) = blocker {
            *c = b;
        } else if matches!(*c, Cell::Opp | Cell::Wall) {
            blocker = Some(*c);
        }
    }
    l
}

/// Canonical form of one half of a window given from the centre outward: points behind the
/// first blocker take that blocker's kind (edge and opponent are one kind unless caro).
fn canonical_half(cells: &[Cell; HALF], wr: WinRule) -> [Cell; HALF] {
    let mut out = *cells;
    let mut blocker = None;
    for c in out.iter_mut() {
        if !wr.caro && *c == Cell::Wall {
            *c = Cell::Opp;
        }
        if let Some(b) = blocker {
            *c = b;
        } else if matches!(*c, Cell::Opp | Cell::Wall) {
            blocker = Some(*c);
        }
    }
    out
}

/// Memoising reference classifier for one win rule.
pub struct Classifier {
    wr: WinRule,
    memo: HashMap<[Cell; WIN], Pattern>,
}

impl Classifier {
    /// A classifier for `wr` with an empty memo.
    pub fn new(wr: WinRule) -> Classifier {
        Classifier {
            wr,
            memo: HashMap::new(),
        }
    }

    /// The pattern of a window whose centre holds the new own stone (the centre is set to own
    /// whatever it holds). This is the slow, literal reading of docs/rules.md §2.
    pub fn classify(&mut self, line: &[Cell; WIN]) -> Pattern {
        let mut l = *line;
        l[HALF] = Cell::Own;
        let l = canonical(&l, self.wr);
        self.classify_canonical(&l)
    }

    fn classify_canonical(&mut self, l: &[Cell; WIN]) -> Pattern {
        if let Some(&p) = self.memo.get(l) {
            return p;
        }
        let p = self.compute(l);
        self.memo.insert(*l, p);
        p
    }

    fn compute(&mut self, l: &[Cell; WIN]) -> Pattern {
        let wr = self.wr;
        if run_wins(l, HALF, wr) {
            return Pattern::Five;
        }
        if centre_run(l) >= 6 {
            return Pattern::Overline;
        }
        let fives = five_points(l, wr);
        if fives.len() >= 2 {
            // Straight four: a run of exactly four through the centre with both ends fives.
            let mut a = HALF;
            while a > 0 && l[a - 1] == Cell::Own {
                a -= 1;
            }
            let mut b = HALF;
            while b + 1 < WIN && l[b + 1] == Cell::Own {
                b += 1;
            }
            if b - a + 1 == 4 && a > 0 && fives.contains(&(a - 1)) && fives.contains(&(b + 1)) {
                return Pattern::StraightFour;
            }
            return Pattern::DoubleFour;
        }
        if fives.len() == 1 {
            return Pattern::Four;
        }
        // Below a four: the best shape one more own stone (within four of the centre) makes.
        let mut best_three: Option<Pattern> = None;
        let mut has_four = false;
        let mut threes = 0;
        let mut has_closed_three = false;
        let mut has_open_two = false;
        let mut has_closed_two = false;
        for e in HALF - 4..=HALF + 4 {
            if l[e] != Cell::Empty {
                continue;
            }
            let mut m = *l;
            m[e] = Cell::Own;
            // A stone that itself completes a win on this line makes no three (docs/rules.md §3).
            if run_wins(&m, e, wr) {
                continue;
            }
            let m = canonical(&m, wr);
            let next = self.classify_canonical(&m);
            match next {
                Pattern::StraightFour => {
                    // Continuous three when the added stone extends the run at an end.
                    let continuous = is_run_end(&m, e);
                    let kind = if continuous {
                        Pattern::OpenThree
                    } else {
                        Pattern::SplitThree
                    };
                    best_three = Some(best_three.map_or(kind, |b| b.max(kind)));
                }
                Pattern::DoubleFour if !wr.forbidden => {
                    best_three = Some(
                        best_three.map_or(Pattern::SplitThree, |b| b.max(Pattern::SplitThree)),
                    );
                }
                Pattern::Four | Pattern::DoubleFour => has_four = true,
                Pattern::OpenThree | Pattern::SplitThree => threes += 1,
                Pattern::ClosedThree => has_closed_three = true,
                p if p.is_open_two() => has_open_two = true,
                Pattern::ClosedTwo => has_closed_two = true,
                _ => {}
            }
        }
        if let Some(t) = best_three {
            t
        } else if has_four {
            Pattern::ClosedThree
        } else if threes >= 4 {
            Pattern::OpenTwo4
        } else if threes == 3 {
            Pattern::OpenTwo3
        } else if threes > 0 {
            Pattern::OpenTwo
        } else if has_closed_three {
            Pattern::ClosedTwo
        } else if has_open_two {
            Pattern::One
        } else if has_closed_two {
            Pattern::ClosedOne
        } else {
            Pattern::Dead
        }
    }
}

/// Whether own point `e` is at an end of the own run through it (so the run was extended,
/// not joined).
fn is_run_end(l: &[Cell; WIN], e: usize) -> bool {
    let left_own = e > 0 && l[e - 1] == Cell::Own;
    let right_own = e + 1 < WIN && l[e + 1] == Cell::Own;
    !(left_own && right_own)
}

/// Decodes a 20-bit key into a window for `color` (centre left empty).
pub fn key_to_line(key: u32, color: Color) -> [Cell; WIN] {
    let mut l = [Cell::Empty; WIN];
    let own = 1 + color.index() as u32;
    for j in 0..10 {
        let v = (key >> (2 * j)) & 3;
        let idx = if j < 5 { j as usize } else { j as usize + 1 };
        l[idx] = match v {
            0 => Cell::Empty,
            3 => Cell::Wall,
            x if x == own => Cell::Own,
            _ => Cell::Opp,
        };
    }
    l
}

/// Key of the window centred on line offset `off` of a packed line word (see the module doc).
#[inline(always)]
pub fn window_key(word: u64, off: usize) -> u32 {
    let v = word >> (2 * off);
    ((v & 0x3FF) | ((v >> 12) & 0x3FF) << 10) as u32
}

/// Number of distinct window keys (20 bits).
pub const KEY_COUNT: usize = 1 << 20;

/// The per-rule lookup table: for each 20-bit key, black's pattern in the low nibble and
/// white's in the high nibble. 1 MiB per rule.
pub struct PatternTable {
    data: Box<[u8; KEY_COUNT]>,
    /// For a rule whose patterns never depend on the outermost point on either side (freestyle:
    /// a run of six wins as a five does), the same pairs by the 16-bit key of the inner eight
    /// neighbours ([`short_window_key`]), 64 KiB; `None` otherwise.
    short: Option<Box<[u8; SHORT_KEY_COUNT]>>,
}

/// Number of distinct short window keys (16 bits: four neighbours on each side).
pub const SHORT_KEY_COUNT: usize = 1 << 16;

/// Key of the nine-point window centred on line offset `off` of a packed line word: the four
/// neighbours on each side (see [`window_key`] for the eleven-point key).
#[inline(always)]
pub fn short_window_key(word: u64, off: usize) -> u32 {
    let v = word >> (2 * off);
    (((v >> 2) & 0xFF) | ((v >> 12) & 0xFF) << 8) as u32
}

impl PatternTable {
    fn build(rule: Rule) -> PatternTable {
        // The pattern depends on each half of the window only through its canonical form
        // (points behind the first blocker do not matter), so classify every pair of
        // canonical halves once and fill the 2^20 keys from that small matrix.
        let mut data = vec![0u8; KEY_COUNT].into_boxed_slice();
        for color in [Color::Black, Color::White] {
            let wr = WinRule::of(rule, color);
            let mut cls = Classifier::new(wr);
            // halves[i] = canonical cells of a half, listed from the centre outward.
            let mut halves: Vec<[Cell; HALF]> = Vec::new();
            let mut index: HashMap<[Cell; HALF], u16> = HashMap::new();
            let mut left_map = vec![0u16; 1 << 10];
            let mut right_map = vec![0u16; 1 << 10];
            let own = 1 + color.index() as u32;
            let decode = |v: u32| match v {
                0 => Cell::Empty,
                3 => Cell::Wall,
                x if x == own => Cell::Own,
                _ => Cell::Opp,
            };
            for h in 0..1u32 << 10 {
                for right in [false, true] {
                    // Left half: bit pair j is offset j - 5, so the centre side is j = 4.
                    // Right half: bit pair j is offset j + 1.
                    let mut cells = [Cell::Empty; HALF];
                    for (k, c) in cells.iter_mut().enumerate() {
                        let j = if right { k } else { HALF - 1 - k };
                        *c = decode((h >> (2 * j)) & 3);
                    }
                    let canon = canonical_half(&cells, wr);
                    let n = halves.len() as u16;
                    let id = *index.entry(canon).or_insert_with(|| {
                        halves.push(canon);
                        n
                    });
                    if right {
                        right_map[h as usize] = id;
                    } else {
                        left_map[h as usize] = id;
                    }
                }
            }
            let n = halves.len();
            let mut matrix = vec![0u8; n * n];
            for (li, l) in halves.iter().enumerate() {
                for (ri, r) in halves.iter().enumerate() {
                    let mut line = [Cell::Empty; WIN];
                    for k in 0..HALF {
                        line[HALF - 1 - k] = l[k];
                        line[HALF + 1 + k] = r[k];
                    }
                    matrix[li * n + ri] = cls.classify(&line) as u8;
                }
            }
            let shift = 4 * color.index();
            for (key, slot) in data.iter_mut().enumerate() {
                let l = left_map[key & 0x3FF] as usize;
                let r = right_map[key >> 10] as usize;
                *slot |= matrix[l * n + r] << shift;
            }
        }
        // The short table exists when no key's pattern depends on the outer points.
        let outer = 3 | 3 << 18;
        let short = (0..KEY_COUNT as u32)
            .all(|k| data[k as usize] == data[(k & !outer) as usize])
            .then(|| {
                let mut t = Box::new([0u8; SHORT_KEY_COUNT]);
                for (k, slot) in t.iter_mut().enumerate() {
                    // Inner left cells are bit pairs 1..=4 of the long key, inner right 5..=8.
                    let long = ((k & 0xFF) << 2) | ((k >> 8) & 0xFF) << 10;
                    *slot = data[long];
                }
                t
            });
        PatternTable {
            data: data.try_into().expect("2^20 keys"),
            short,
        }
    }

    /// The short table, if the rule's patterns never depend on the outermost points (see
    /// [`PatternTable`]): freestyle.
    #[inline(always)]
    pub fn short(&self) -> Option<&[u8; SHORT_KEY_COUNT]> {
        self.short.as_deref()
    }

    /// The table of `rule`, built on first use (tens of milliseconds) and shared.
    pub fn get(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceCell<PatternTable>; 5] = [
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
            OnceCell::new(),
        ];
        TABLES[rule.index()].get_or_init(|| PatternTable::build(rule))
    }

    /// Both colours' patterns for `key`: black in the low nibble, white in the high nibble.
    #[inline(always)]
    pub fn lookup(&self, key: u32) -> u8 {
        // SAFETY-free: key is masked to 20 bits by construction; index checked in debug.
        self.data[key as usize & (KEY_COUNT - 1)]
    }

    /// The pattern of `color` for `key`.
    #[inline(always)]
    pub fn pattern(&self, key: u32, color: Color) -> Pattern {
        Pattern::from_u8((self.lookup(key) >> (4 * color.index())) & 0xF)
    }
}

/// Classifies a window given as text for tests and docs: `X` own new stone at the centre
/// (must be the middle character), `x` own, `o` opponent, `#` wall, `.` empty; shorter
/// strings are padded with walls evenly on both sides around the `X`.
pub fn classify_str(s: &str, rule: Rule, color: Color) -> Pattern {
    let chars: Vec<char> = s.chars().collect();
    let c = chars
        .iter()
        .position(|&ch| ch == 'X')
        .expect("window needs an X");
    let mut l = [Cell::Wall; WIN];
    for (i, &ch) in chars.iter().enumerate() {
        let idx = HALF as isize + i as isize - c as isize;
        if !(0..WIN as isize).contains(&idx) {
            continue;
        }
        l[idx as usize] = match ch {
            'x' | 'X' => Cell::Own,
            'o' => Cell::Opp,
            '.' => Cell::Empty,
            _ => Cell::Wall,
        };
    }
    Classifier::new(WinRule::of(rule, color)).classify(&l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    fn fs(s: &str) -> Pattern {
        classify_str(s, Rule::Freestyle, Color::Black)
    }
    fn std(s: &str) -> Pattern {
        classify_str(s, Rule::Standard, Color::Black)
    }

    #[test]
    fn basic_shapes_freestyle() {
        assert_eq!(fs("....xxxXx....."), Five);
        assert_eq!(fs(".....xxXx....."), StraightFour);
        assert_eq!(fs("....xxxXx....."), Five);
        assert_eq!(fs(".....xxXx....."), StraightFour);
        assert_eq!(fs("....oxxXx.o..."), Four);
        assert_eq!(fs("......xxX....."), OpenThree);
        assert_eq!(fs(".....x.xX......"), SplitThree);
        assert_eq!(fs("....oxxX......"), ClosedThree);
        assert_eq!(fs(".....xxX.x....."), Four);
        assert_eq!(fs("......xxXx....."), StraightFour);
        assert_eq!(fs("....x.xXx.x...."), DoubleFour);
        assert_eq!(fs("......xX......."), OpenTwo4);
        assert_eq!(fs(".....oxX......."), ClosedTwo);
        assert_eq!(fs("......X........"), One);
        assert_eq!(fs("o..Xo"), Dead);
    }

    #[test]
    fn four_lines_of_every_code() {
        for code in 0..=u16::MAX {
            let want = (0..4).any(|d| {
                let v = ((code >> (4 * d)) & 0xF) as u8;
                (Four as u8..=Five as u8).contains(&v)
            });
            if (0..4).all(|d| (code >> (4 * d)) & 0xF <= Five as u16) {
                assert_eq!(has_four_line(code), want, "{code:04x}");
            }
        }
        assert!(has_four_line(Four as u16) && !has_four_line(OpenThree as u16 * 0x1111));
    }

    #[test]
    fn finer_ones_and_twos() {
        for (w, want) in [
            ("......xX.......", OpenTwo4),
            ("......x.X......", OpenTwo3),
            ("o..xX...", OpenTwo3),
            ("....x..X.......", OpenTwo),
            ("o.xX...o", OpenTwo),
            ("o.xX..o", ClosedTwo),
            ("oxX.....", ClosedTwo),
            ("......X........", One),
            ("o.X....", One),
            ("oX.....", ClosedOne),
            ("oX....o", ClosedOne),
            ("oX...o", Dead),
        ] {
            assert_eq!(fs(w), want, "{w}");
        }
    }

    #[test]
    fn exact_five_and_overline() {
        assert_eq!(std("....xxxXxx...."), Overline);
        assert_eq!(std("....x.xxXx...."), Four);
        // x.xxX: only the gap makes an exact five; the right end makes a mere run of four.
        assert_eq!(std("...x.xxX......"), Four);
        // .xxX.x with an own stone two beyond: the straight-four point would make six.
        assert_eq!(std("....xxX.x..."), Four);
        assert_eq!(std("...x.xxX.x..."), DoubleFour);
        assert_eq!(std(".....xxXx.x..."), Four);
    }

    #[test]
    fn caro_blocked_five() {
        assert_eq!(classify_str("oxxXxxo", Rule::Caro, Color::Black), Dead);
        assert_ne!(classify_str("oxxXxxo", Rule::Caro, Color::Black), Five);
        assert_eq!(classify_str("#xxXxxo", Rule::Caro, Color::Black), Five);
        assert_eq!(classify_str(".oxxXxx.", Rule::Caro, Color::Black), Five);
        assert_eq!(classify_str("oxxxXxxo", Rule::Caro, Color::Black), Five);
        assert_eq!(
            classify_str("oxxxXxxo", Rule::CaroExact, Color::Black),
            Overline
        );
    }

    #[test]
    fn renju_white_overline_wins() {
        assert_eq!(classify_str("..xxxXxx..", Rule::Renju, Color::White), Five);
        assert_eq!(
            classify_str("..xxxXxx..", Rule::Renju, Color::Black),
            Overline
        );
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;

    /// The fast table (built from canonical halves) equals the slow classifier on every key,
    /// for every rule and colour.
    #[test]
    fn table_matches_reference_on_every_key() {
        for rule in Rule::ALL {
            let table = PatternTable::get(rule);
            for color in [Color::Black, Color::White] {
                let mut cls = Classifier::new(WinRule::of(rule, color));
                let mut checked = 0;
                for key in 0..KEY_COUNT as u32 {
                    let line = key_to_line(key, color);
                    assert_eq!(
                        table.pattern(key, color),
                        cls.classify(&line),
                        "rule {:?} colour {:?} key {:05x}",
                        rule,
                        color,
                        key
                    );
                    checked += 1;
                }
                assert_eq!(checked, KEY_COUNT);
            }
        }
    }
}
