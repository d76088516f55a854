//! The board: stones, packed lines, incremental patterns, Zobrist key, make and undo.
//!
//! Invariants kept by [`Board::make`] and [`Board::undo`]:
//! - `lines[d][l]` packs line `l` of direction `d` with two bits per point (see
//!   [`pattern`]); points off the board are walls.
//! - For every empty point `p` and colour `c`, `pts[p].code[c]` holds the four [`Pattern`]s
//!   that a stone of `c` at `p` would make, one nibble per direction, as the rule's
//!   [`PatternTable`] gives them for the current lines (zero on an occupied point).
//! - `pts[p].cls[c]` is the canonical class ([`canon`]) of `pts[p].code[c]`.
//! - `hash` is the XOR of the Zobrist keys of the stones (the side to move is not included;
//!   it follows from the stone count).
//! - `rows[y + 2]` has bit `x + 2` set for every occupied point `(x, y)`; `near[y + 2]` has
//!   bit `x + 2` set for every point within the 5x5 square of an occupied point.
//!
//! A move touches 4 lines and re-reads the patterns of at most 40 empty points on them; each
//! such point lies on exactly one of the four lines, so it is changed (and saved for undo)
//! at most once per move.

pub mod canon;
pub mod combo;
pub mod forbidden;
pub mod pattern;
mod query;

use crate::core::{check_size, Color, CoordError, Pos, Rule, SplitMix64, PAD, POS_COUNT, STRIDE};
pub use combo::{Combo, ComboTable, Score};
pub use forbidden::is_legal;
use once_cell::sync::Lazy;
pub use pattern::{has_four_line, Pattern, PatternTable};

/// Number of line words kept per direction (diagonals of a 22x22 board need 43).
pub const LINES: usize = 48;

/// Step between neighbouring points along each of the four directions (horizontal,
/// vertical, diagonal, anti-diagonal), in [`Pos`] units.
pub const DELTA: [i32; 4] = [1, STRIDE as i32, STRIDE as i32 + 1, 1 - STRIDE as i32];

/// Contents of a point in [`Board::cell`].
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;
/// Off the board, or a dead stone that counts for no line (protocol field 3).
pub const WALL: u8 = 3;

/// Value stored in a point for a stone of `c`.
#[inline]
pub fn stone(c: Color) -> u8 {
    1 + c as u8
}

/// For each point index and direction: which line word it lies on and its offset along it.
struct LineMap {
    line: [[u8; POS_COUNT]; 4],
    off: [[u8; POS_COUNT]; 4],
}

const fn build_line_map() -> LineMap {
    let mut m = LineMap {
        line: [[0; POS_COUNT]; 4],
        off: [[0; POS_COUNT]; 4],
    };
    let mut y = 0;
    while y < crate::core::MAX_SIZE {
        let mut x = 0;
        while x < crate::core::MAX_SIZE {
            let p = Pos::new(x, y).0 as usize;
            m.line[0][p] = y as u8;
            m.off[0][p] = x as u8;
            m.line[1][p] = x as u8;
            m.off[1][p] = y as u8;
            m.line[2][p] = (x + 21 - y) as u8;
            m.off[2][p] = x as u8;
            m.line[3][p] = (x + y) as u8;
            m.off[3][p] = x as u8;
            x += 1;
        }
        y += 1;
    }
    m
}

/// Computed at compile time, so lookups need no initialisation check.
static LINE_MAP: LineMap = build_line_map();

/// Zobrist keys per colour and point, from a fixed seed (deterministic across runs).
static ZOBRIST: Lazy<Box<[[u64; POS_COUNT]; 2]>> = Lazy::new(|| {
    let mut rng = SplitMix64::new(0x7469_616e_7975_616e); // "tianyuan"
    let mut t = Box::new([[0u64; POS_COUNT]; 2]);
    for c in 0..2 {
        for p in 0..POS_COUNT {
            t[c][p] = rng.next_u64();
        }
    }
    t
});

/// Zobrist key of a stone of `c` at `p`.
#[inline]
pub fn zobrist(c: Color, p: Pos) -> u64 {
    ZOBRIST[c.index()][p.index()]
}

/// Stones and packed lines only: enough to read any pattern on the fly. The exact
/// (recursive) forbidden-point test works on a scratch copy of this.
#[derive(Clone)]
pub struct Lines {
    /// [`EMPTY`], [`BLACK`], [`WHITE`] or [`WALL`] per point index.
    pub cells: [u8; POS_COUNT],
    words: [[u64; LINES]; 4],
    table: &'static PatternTable,
}

impl Lines {
    fn new(width: usize, height: usize, rule: Rule) -> Lines {
        let mut l = Lines {
            cells: [WALL; POS_COUNT],
            words: [[u64::MAX; LINES]; 4],
            table: PatternTable::get(rule),
        };
        for y in 0..height {
            for x in 0..width {
                let p = Pos::new(x, y);
                l.cells[p.index()] = EMPTY;
                for d in 0..4 {
                    let (w, s) = Self::slot(p, d);
                    l.words[d][w] &= !(3u64 << s);
                }
            }
        }
        l
    }

    #[inline(always)]
    fn slot(p: Pos, d: usize) -> (usize, u32) {
        let m = &LINE_MAP;
        (
            m.line[d][p.index()] as usize,
            2 * (m.off[d][p.index()] as u32 + 5),
        )
    }

    /// Puts `v` ([`BLACK`], [`WHITE`] or [`WALL`]) on the empty point `p`.
    #[inline(always)]
    pub fn set(&mut self, p: Pos, v: u8) {
        debug_assert_eq!(self.cells[p.index()], EMPTY);
        self.cells[p.index()] = v;
        let m = &LINE_MAP;
        for d in 0..4 {
            let w = m.line[d][p.index()] as usize;
            let s = 2 * (m.off[d][p.index()] as u32 + 5);
            self.words[d][w] |= (v as u64) << s;
        }
    }

    /// Empties the point `p`.
    #[inline(always)]
    pub fn clear(&mut self, p: Pos) {
        self.cells[p.index()] = EMPTY;
        let m = &LINE_MAP;
        for d in 0..4 {
            let w = m.line[d][p.index()] as usize;
            let s = 2 * (m.off[d][p.index()] as u32 + 5);
            self.words[d][w] &= !(3u64 << s);
        }
    }

    /// The window key of point `p` in direction `d`.
    #[inline(always)]
    pub fn key(&self, p: Pos, d: usize) -> u32 {
        let m = &LINE_MAP;
        let w = self.words[d][m.line[d][p.index()] as usize];
        pattern::window_key(w, m.off[d][p.index()] as usize)
    }

    /// Both colours' pattern nibbles of `p` in direction `d` (black low, white high).
    #[inline(always)]
    pub fn pattern_pair(&self, p: Pos, d: usize) -> u8 {
        self.table.lookup(self.key(p, d))
    }

    /// The pattern a stone of `c` at empty point `p` makes in direction `d`.
    #[inline]
    pub fn pattern(&self, p: Pos, d: usize, c: Color) -> Pattern {
        Pattern::from_u8((self.pattern_pair(p, d) >> (4 * c.index())) & 0xF)
    }

    /// The 16-bit pattern code of `c` at `p`, read from the lines.
    #[inline]
    pub fn code(&self, p: Pos, c: Color) -> u16 {
        let mut code = 0u16;
        for d in 0..4 {
            let v = (self.pattern_pair(p, d) >> (4 * c.index())) & 0xF;
            code |= (v as u16) << (4 * d);
        }
        code
    }

    /// The pattern table in use.
    pub fn table(&self) -> &'static PatternTable {
        self.table
    }
}

/// Most points one move changes ([`Board::last_changes`]): the point played and up to five
/// points each way on its four lines.
pub const MAX_CHANGES: usize = 1 + 4 * 2 * 5;

/// The pattern state of one point: both colours' codes and their canonical classes, kept
/// together (8 bytes) so that a move reads and writes each changed point in one access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct PointCodes {
    /// The codes (black, white): four [`Pattern`] nibbles each, one per direction.
    pub code: [u16; 2],
    /// Their canonical classes ([`canon`]).
    pub cls: [u16; 2],
}

/// The state of one point before a move changed it (for undo, and for incremental
/// evaluation: [`Board::last_changes`]).
#[derive(Clone, Copy, Debug)]
pub struct UndoPoint {
    /// The point's index ([`Pos::index`]).
    pub q: u16,
    /// Its codes and classes before the change.
    pub old: PointCodes,
}

/// What [`Board::undo`] needs of one move besides its changed points.
#[derive(Clone, Copy, Debug)]
struct MoveUndo {
    /// Height of the changed-point stack before the move.
    height: u32,
    /// The five rows of the `near` area around the move before it (rows `y .. y + 5` of the
    /// padded array for a move on row `y`).
    near: [u32; 5],
}

/// Result of the game after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The colour won (a five under the rule, or the opponent's renju foul).
    Win(Color),
    /// Full board (or the draw rule of the manager) with no winner.
    Draw,
}

/// Errors of setting up or changing a position.
pub type BoardError = CoordError;

/// A gomoku board of any size from 5x5 to 22x22 (rectangles too) under one rule.
///
/// Cloning copies about 8 KiB; search threads each own one.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    lines: Lines,
    /// Per point index: both colours' codes and classes.
    pts: [PointCodes; POS_COUNT],
    /// Old codes of the points a move changed, for [`Board::undo`]: the entries below
    /// `undo_top`; the vector is kept at least [`MAX_CHANGES`] longer so that a move writes
    /// its entries without a capacity check.
    undo_points: Vec<UndoPoint>,
    /// Number of entries of `undo_points` in use.
    undo_top: usize,
    /// Per move: the height of `undo_points` before it and the old `near` rows.
    undo_moves: Vec<MoveUndo>,
    /// Occupied points by row: bit `x + 2` of `rows[y + 2]`, with two empty margin rows and
    /// columns so that 5x5 windows need no bounds checks.
    rows: [u32; crate::core::MAX_SIZE + 4],
    /// Points within the 5x5 square of an occupied point, laid out as `rows`.
    near: [u32; crate::core::MAX_SIZE + 4],
    hash: u64,
    moves: Vec<Pos>,
    colors: Vec<Color>,
    side: Color,
    stones: usize,
    combo_tables: [&'static ComboTable; 2],
}

impl Board {
    /// An empty `width` x `height` board (each side 5..=22) under `rule`.
    ///
    /// Errors: [`CoordError::BadSize`] for a side outside 5..=22.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        check_size(width, height)?;
        let mut b = Board {
            width,
            height,
            rule,
            lines: Lines::new(width, height, rule),
            pts: [PointCodes::default(); POS_COUNT],
            undo_points: Vec::new(),
            undo_top: 0,
            undo_moves: Vec::with_capacity(width * height),
            rows: [0; crate::core::MAX_SIZE + 4],
            near: [0; crate::core::MAX_SIZE + 4],
            hash: 0,
            moves: Vec::with_capacity(width * height),
            colors: Vec::with_capacity(width * height),
            side: Color::Black,
            stones: 0,
            combo_tables: [
                ComboTable::get(rule, Color::Black),
                ComboTable::get(rule, Color::White),
            ],
        };
        b.refresh_all();
        Ok(b)
    }

    /// Recomputes every code from the lines.
    fn refresh_all(&mut self) {
        let pts: Vec<Pos> = self.points().collect();
        for p in pts {
            for c in [Color::Black, Color::White] {
                let code = if self.lines.cells[p.index()] == EMPTY {
                    self.lines.code(p, c)
                } else {
                    0
                };
                self.pts[p.index()].code[c.index()] = code;
                self.pts[p.index()].cls[c.index()] = canon::CANON[code as usize];
            }
        }
    }

    /// Width in points (number of columns, `x` range).
    pub fn width(&self) -> usize {
        self.width
    }
    /// Height in points (number of rows, `y` range).
    pub fn height(&self) -> usize {
        self.height
    }
    /// The rule in force.
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// Changes the rule, keeping the stones (docs/protocol.md §2.4: a rule change applies to the
    /// current game).
    pub fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        let walls: Vec<Pos> = self.points().filter(|&p| self.cell(p) == WALL).collect();
        let mut b = Board::new(self.width, self.height, rule).expect("size already checked");
        for p in walls {
            b.put_wall(p);
        }
        for (&p, &c) in self.moves.iter().zip(&self.colors) {
            b.make_colored(p, c);
        }
        b.side = self.side;
        *self = b;
    }
    /// The Zobrist key of the stones.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Moves played so far, in order. Stones placed with [`Board::put_wall`] are not moves.
    pub fn moves(&self) -> &[Pos] {
        &self.moves
    }
    /// The colour of each move in [`Board::moves`].
    pub fn move_colors(&self) -> &[Color] {
        &self.colors
    }
    /// Number of moves played.
    #[inline]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }
    /// The colour to move: black on an empty board, then the opponent of the last mover
    /// (or as set by [`Board::set_side_to_move`]).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Sets the colour to move (for positions set up from stone sets).
    pub fn set_side_to_move(&mut self, c: Color) {
        self.side = c;
    }
    /// The last move, or [`Pos::NONE`].
    pub fn last_move(&self) -> Pos {
        self.moves.last().copied().unwrap_or(Pos::NONE)
    }
    /// Whether `(x, y)` (signed) is on the board.
    #[inline]
    pub fn contains_xy(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }
    /// Whether `p` is a board point.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        !p.is_none() && p.index() < POS_COUNT && self.contains_xy(p.x() as i64, p.y() as i64)
    }
    /// Contents of a point: [`EMPTY`], [`BLACK`], [`WHITE`] or [`WALL`] (off board too).
    #[inline]
    pub fn cell(&self, p: Pos) -> u8 {
        self.lines.cells[p.index()]
    }
    /// Whether `p` is an empty board point.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.lines.cells[p.index()] == EMPTY
    }
    /// Number of stones (moves and walls) on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }
    /// Whether no empty point is left.
    pub fn is_full(&self) -> bool {
        self.stones >= self.width * self.height
    }
    /// Every board point, row by row from `a1`.
    pub fn points(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }
    /// Every empty board point.
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        self.points().filter(move |&p| self.is_empty(p))
    }
    /// The stored pattern code of colour `c` at empty point `p` (four nibbles).
    #[inline(always)]
    pub fn code(&self, c: Color, p: Pos) -> u16 {
        self.pts[p.index()].code[c.index()]
    }
    /// The pattern a stone of `c` at empty point `p` makes in direction `d` (O(1)).
    #[inline(always)]
    pub fn pattern(&self, c: Color, p: Pos, d: usize) -> Pattern {
        Pattern::from_u8(((self.pts[p.index()].code[c.index()] >> (4 * d)) & 0xF) as u8)
    }
    /// The canonical class ([`canon`]) of the code of colour `c` at empty point `p`.
    #[inline(always)]
    pub fn class(&self, c: Color, p: Pos) -> u16 {
        self.pts[p.index()].cls[c.index()]
    }
    /// The threat class a stone of `c` at empty point `p` would make (O(1)). For renju black
    /// a [`Combo::DoubleThree`] still needs [`Board::forbidden`] to tell a foul from a fake.
    #[inline(always)]
    pub fn combo(&self, c: Color, p: Pos) -> Combo {
        self.combo_tables[c.index()].combo_of_class(self.pts[p.index()].cls[c.index()])
    }
    /// Sum of the point scores ([`ComboTable::score`]) of colour `c` over the move
    /// candidates (empty points with a stone in the 5x5 square around them). O(candidates).
    pub fn score(&self, c: Color) -> Score {
        let table = self.combo_tables[c.index()];
        let mut sum = 0;
        for (y, &row) in self.candidate_rows().iter().enumerate().take(self.height) {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                sum += table.score(self.pts[Pos::new(x, y).index()].code[c.index()]);
            }
        }
        sum
    }
    /// The combo table of colour `c`: each code's threat ([`Combo`]) and point score.
    #[inline]
    pub fn combo_table(&self, c: Color) -> &'static ComboTable {
        self.combo_tables[c.index()]
    }
    /// Number of stones within the 5x5 square centred on board point `p` (`p` included).
    #[inline]
    pub fn near(&self, p: Pos) -> u8 {
        let (x, y) = (p.x(), p.y());
        let mut n = 0;
        for r in &self.rows[y..y + 5] {
            n += ((r >> x) & 0x1F).count_ones();
        }
        n as u8
    }

    /// For each row `y` (index `y`), a bit mask of the empty points (bit `x`) that have a
    /// stone within the 5x5 square around them: the move-generation candidates.
    #[inline]
    pub fn candidate_rows(&self) -> [u32; crate::core::MAX_SIZE] {
        let mask = (1u32 << self.width) - 1;
        let mut out = [0u32; crate::core::MAX_SIZE];
        for (y, row) in out.iter_mut().enumerate().take(self.height) {
            *row = ((self.near[y + 2] & !self.rows[y + 2]) >> 2) & mask;
        }
        out
    }

    /// Calls `f` for every move candidate (an empty point with a stone in the 5x5 square
    /// around it, as [`Board::candidate_rows`]), row by row from `a1`, each row from the left.
    #[inline(always)]
    pub fn for_each_candidate(&self, mut f: impl FnMut(Pos)) {
        let mask = (1u32 << self.width) - 1;
        for y in 0..self.height {
            let mut bits = ((self.near[y + 2] & !self.rows[y + 2]) >> 2) & mask;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(Pos::new(x, y));
            }
        }
    }
    /// The points the last move changed, with their codes before it, in the order of the
    /// changes: first the point played, then the empty points within reach of it on its four
    /// lines, each once (a point shares one line with the move), whether its codes changed or
    /// not. Empty if no move was played.
    #[inline]
    pub fn last_changes(&self) -> &[UndoPoint] {
        match self.undo_moves.last() {
            Some(u) => &self.undo_points[u.height as usize..self.undo_top],
            None => &[],
        }
    }
    /// The packed lines (for the exact forbidden test and tests).
    pub fn lines(&self) -> &Lines {
        &self.lines
    }

    /// Plays a stone of the side to move on the empty board point `p`.
    ///
    /// Panics in debug builds if `p` is not empty; use [`Board::check_move`] on input first.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        let c = self.side_to_move();
        self.make_colored(p, c);
    }

    /// Plays a stone of colour `c` on the empty point `p`; the opponent of `c` moves next.
    pub fn make_colored(&mut self, p: Pos, c: Color) {
        self.moves.push(p);
        self.colors.push(c);
        self.side = c.opponent();
        self.hash ^= zobrist(c, p);
        let y = p.y();
        self.undo_moves.push(MoveUndo {
            height: self.undo_top as u32,
            near: [
                self.near[y],
                self.near[y + 1],
                self.near[y + 2],
                self.near[y + 3],
                self.near[y + 4],
            ],
        });
        self.place::<true>(p, stone(c));
    }

    /// Puts a stone that belongs to nobody (protocol `BOARD` field 3) on empty point `p`: it
    /// blocks lines but is not a move.
    pub fn put_wall(&mut self, p: Pos) {
        self.place::<false>(p, WALL);
        self.hash ^= zobrist(Color::Black, p) ^ zobrist(Color::White, p);
    }

    /// Puts `v` on `p` and updates every incremental structure; with `SAVE` the old codes
    /// and threat classes of the changed points go on the undo stack (the board keeps no
    /// point scores: [`Board::score`] sums them from the table when asked).
    #[inline(always)]
    fn place<const SAVE: bool>(&mut self, p: Pos, v: u8) {
        let pi = p.index();
        let top = self.undo_top;
        if self.undo_points.len() < top + MAX_CHANGES {
            self.grow_undo();
        }
        // The changed points of this move go straight to the undo stack, at `top + n` (one
        // length check a move instead of a capacity check a point). Skipping occupied points
        // by a branch measured faster in the search than a branch-free update that reads and
        // writes them all (docs/strength.md §5).
        let mut n = 0;
        {
            let buf = &mut self.undo_points[top..top + MAX_CHANGES];
            if SAVE {
                buf[0] = UndoPoint {
                    q: pi as u16,
                    old: self.pts[pi],
                };
                n = 1;
            }
            self.pts[pi] = PointCodes::default();
            self.lines.set(p, v);
            let mut up = Update {
                pts: &mut self.pts,
                cells: &self.lines.cells,
                buf,
                n,
            };
            match self.lines.table.short() {
                Some(short) => up.around::<SAVE, 4>(&self.lines.words, p, |w, off| {
                    short[pattern::short_window_key(w, off) as usize]
                }),
                None => {
                    let table = self.lines.table;
                    up.around::<SAVE, 5>(&self.lines.words, p, |w, off| {
                        table.lookup(pattern::window_key(w, off))
                    })
                }
            }
            n = up.n;
        }
        if SAVE {
            self.undo_top = top + n;
        }
        self.stones += 1;
        self.rows[p.y() + 2] |= 1 << (p.x() + 2);
        let square = 0x1F << p.x();
        for r in &mut self.near[p.y()..p.y() + 5] {
            *r |= square;
        }
    }

    /// Lengthens the undo stack so that one more move fits (rarely: it doubles).
    #[cold]
    fn grow_undo(&mut self) {
        let want = (self.undo_top + MAX_CHANGES)
            .max(2 * self.undo_points.len())
            .max(64 * MAX_CHANGES);
        self.undo_points.resize(
            want,
            UndoPoint {
                q: 0,
                old: PointCodes::default(),
            },
        );
    }

    /// Takes back the last move. Does nothing if no move was played.
    #[inline]
    pub fn undo(&mut self) {
        let Some(p) = self.moves.pop() else { return };
        let c = self.colors.pop().unwrap_or(Color::Black);
        let mu = self.undo_moves.pop().expect("one undo record per move");
        self.side = c;
        self.hash ^= zobrist(c, p);
        self.lines.clear(p);
        self.stones -= 1;
        self.rows[p.y() + 2] &= !(1 << (p.x() + 2));
        self.near[p.y()..p.y() + 5].copy_from_slice(&mu.near);
        let height = mu.height as usize;
        for u in self.undo_points[height..self.undo_top].iter().rev() {
            self.pts[u.q as usize & (POS_COUNT - 1)] = u.old;
        }
        self.undo_top = height;
    }
}

/// The pattern update of one move: the points' codes, the cells, and the move's slice of the
/// undo stack with the number of entries written so far.
struct Update<'a> {
    pts: &'a mut [PointCodes; POS_COUNT],
    cells: &'a [u8; POS_COUNT],
    buf: &'a mut [UndoPoint],
    n: usize,
}

impl Update<'_> {
    /// Re-reads the patterns of the empty points within `REACH` of `p` on its four lines
    /// (5, or 4 for a rule whose patterns never depend on the fifth point, with its short
    /// table: [`PatternTable::short`]); `pair(word, offset)` reads both colours' patterns.
    /// With `SAVE` every empty point read goes on the undo stack (changed or not: nearly all
    /// change, and the test would cost more than it saves).
    #[inline(always)]
    fn around<const SAVE: bool, const REACH: i32>(
        &mut self,
        words: &[[u64; LINES]; 4],
        p: Pos,
        pair: impl Fn(u64, usize) -> u8 + Copy,
    ) {
        self.line::<SAVE, REACH, 0>(words, p, pair);
        self.line::<SAVE, REACH, 1>(words, p, pair);
        self.line::<SAVE, REACH, 2>(words, p, pair);
        self.line::<SAVE, REACH, 3>(words, p, pair);
    }

    /// [`Update::around`] on the line of direction `D`, one point after the other (written
    /// out, so that each point's offset is a constant).
    #[inline(always)]
    fn line<const SAVE: bool, const REACH: i32, const D: usize>(
        &mut self,
        words: &[[u64; LINES]; 4],
        p: Pos,
        pair: impl Fn(u64, usize) -> u8 + Copy,
    ) {
        let pi = p.index();
        let word = words[D][LINE_MAP.line[D][pi] as usize];
        let off = LINE_MAP.off[D][pi] as i32;
        if REACH >= 5 {
            self.point::<SAVE, D, -5>(pi, word, off, pair);
        }
        self.point::<SAVE, D, -4>(pi, word, off, pair);
        self.point::<SAVE, D, -3>(pi, word, off, pair);
        self.point::<SAVE, D, -2>(pi, word, off, pair);
        self.point::<SAVE, D, -1>(pi, word, off, pair);
        self.point::<SAVE, D, 1>(pi, word, off, pair);
        self.point::<SAVE, D, 2>(pi, word, off, pair);
        self.point::<SAVE, D, 3>(pi, word, off, pair);
        self.point::<SAVE, D, 4>(pi, word, off, pair);
        if REACH >= 5 {
            self.point::<SAVE, D, 5>(pi, word, off, pair);
        }
    }

    /// Re-reads the patterns of the point `K` steps from the move (index `pi`) in direction
    /// `D`, if it is empty; `word` and `off` are the move's line word and offset in it.
    #[inline(always)]
    fn point<const SAVE: bool, const D: usize, const K: i32>(
        &mut self,
        pi: usize,
        word: u64,
        off: i32,
        pair: impl Fn(u64, usize) -> u8,
    ) {
        // Masking keeps the index provably in bounds (it always is: PAD >= 5).
        let q = ((pi as i32 + K * DELTA[D]) as usize) & (POS_COUNT - 1);
        if self.cells[q] != EMPTY {
            return;
        }
        let shift = 4 * D as u32;
        let mask = !(0xFu16 << shift);
        let pair = pair(word, (off + K) as usize);
        let old = self.pts[q];
        if SAVE {
            // At most MAX_CHANGES - 1 points follow the one played: the bound never bites, it
            // spares the index check.
            let i = self.n.min(MAX_CHANGES - 1);
            self.buf[i] = UndoPoint { q: q as u16, old };
            self.n += 1;
        }
        let nb = (old.code[0] & mask) | (((pair & 0xF) as u16) << shift);
        let nw = (old.code[1] & mask) | (((pair >> 4) as u16) << shift);
        self.pts[q] = PointCodes {
            code: [nb, nw],
            cls: [canon::CANON[nb as usize], canon::CANON[nw as usize]],
        };
    }
}

/// Why a point is forbidden to black under renju (docs/rules.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForbiddenKind {
    /// Two or more open threes through the stone.
    DoubleThree,
    /// Two or more fours through the stone (also on one line).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl ForbiddenKind {
    /// Name used in CLI output: `double-three`, `double-four`, `overline`.
    pub fn name(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        }
    }
    /// Short code used by the test data: `33`, `44`, `6`.
    pub fn code(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "33",
            ForbiddenKind::DoubleFour => "44",
            ForbiddenKind::Overline => "6",
        }
    }
}

#[allow(dead_code)]
const _PAD_CHECK: () = assert!(PAD == pattern::HALF);

/// Whether `c` has a four or better on some line at empty point `p`.
#[inline(always)]
pub fn is_four_point(board: &Board, c: Color, p: Pos) -> bool {
    has_four_line(board.code(c, p))
}
