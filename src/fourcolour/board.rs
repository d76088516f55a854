//! The four-colour board: stones of four colours on a `width` x `height` board (each side
//! [`crate::core::MIN_SIZE`]..=[`crate::core::MAX_SIZE`]), the colour to move implied by the stone count, win
//! detection under `docs/fourcolour.md` §2, and incremental shape sums for the evaluation.
//!
//! Representation: a cell array indexed by [`Pos`] (0 empty, 1..=4 a colour, [`WALL`] off
//! the board) and every *window* of the board — five consecutive points on one line, in one
//! of the four directions — kept as a base-5 code `sum(cell[i] * 5^i)` (3 125 codes). Every
//! five, one-colour or four-tone, lies in a window, and every winning structure completed by
//! a move lies in a window through that move, so win detection reads the 20 windows through
//! a point in tables indexed by code ([`WindowInfo`]). The evaluation tables give, for each
//! code and mode, a shape value per player (`eval.rs`); the board keeps their sums up to date
//! in [`FourBoard::make`] and [`FourBoard::undo`].
//!
//! Invariants: `codes[w]` equals the code recomputed from the cells; `sums` equals the sum of
//! the mode's values over all windows; `near[p]` counts the stones within two points of `p`
//! (Chebyshev distance); `hash` is the XOR of the Zobrist keys of the stones.

use super::eval::{tables, Values};
use super::rules::{decide, decode, Color, Mode, Player, CODES, POW5};
use crate::core::{check_size, CoordError, Pos, SplitMix64, POS_COUNT, STRIDE};
use once_cell::sync::Lazy;
use std::sync::Arc;
use thiserror::Error;

/// Cell value of an off-board point.
pub const WALL: u8 = 5;
/// [`Pos`] index steps of the four directions (horizontal, vertical, diagonal,
/// anti-diagonal), matching [`crate::core::DIRS`].
const STEPS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];

/// What a window code means, independent of the mode.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowInfo {
    /// Stones in the window (0..=5).
    pub stones: u8,
    /// For a full window: the winning colour number of its colouring (one-colour or
    /// four-tone five), 0 when it does not win.
    pub winner: u8,
    /// Whether a full window holds one colour only (its win depends on the exact-five option
    /// and the run around it).
    pub mono: bool,
    /// For a window with exactly four stones: the slot (0..5) of its empty point; 255
    /// otherwise.
    pub hole: u8,
    /// For a window with exactly four stones: bit `c` set when colour `c` placed in the hole
    /// makes a winning colouring.
    pub fills: u8,
}

/// [`WindowInfo`] for every code.
pub static WINDOW_INFO: Lazy<Vec<WindowInfo>> = Lazy::new(|| {
    (0..CODES)
        .map(|code| {
            let w = decode(code);
            let stones = w.iter().filter(|&&c| c != 0).count() as u8;
            let mut info = WindowInfo {
                stones,
                hole: 255,
                ..Default::default()
            };
            if stones == 5 {
                info.winner = super::rules::window_winner(&w).map_or(0, |c| c.number());
                info.mono = w.iter().all(|&c| c == w[0]);
            }
            if stones == 4 {
                let hole = w.iter().position(|&c| c == 0).expect("one empty slot");
                info.hole = hole as u8;
                for c in 1..=4u8 {
                    let mut f = w;
                    f[hole] = c;
                    if super::rules::window_winner(&f).is_some() {
                        info.fills |= 1 << c;
                    }
                }
            }
            info
        })
        .collect()
});

/// Zobrist keys: `ZOBRIST[c - 1][pos]` for colour number `c` (seeded splitmix64, fixed).
static ZOBRIST: Lazy<Vec<[u64; POS_COUNT]>> = Lazy::new(|| {
    let mut rng = SplitMix64::new(0x5eed_f0c0_10c5_2024);
    (0..4)
        .map(|_| {
            let mut t = [0u64; POS_COUNT];
            for k in t.iter_mut() {
                *k = rng.next_u64();
            }
            t
        })
        .collect()
});

/// The windows of one board size: their points, and for each point the windows through it.
#[derive(Debug)]
pub struct Geometry {
    width: usize,
    height: usize,
    /// Each window's five points in line order, with its direction (index into `DIRS`).
    windows: Vec<([Pos; 5], u8)>,
    /// `through[at[p]..at[p + 1]]` lists `(window, slot)` for point index `p`.
    at: Vec<u32>,
    through: Vec<(u32, u8)>,
    /// Board points in row order (row 0 first).
    points: Vec<Pos>,
}

impl Geometry {
    fn new(width: usize, height: usize) -> Geometry {
        let mut windows = Vec::new();
        let inside =
            |x: isize, y: isize| x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height;
        for (d, &(dx, dy)) in crate::core::DIRS.iter().enumerate() {
            for y in 0..height as isize {
                for x in 0..width as isize {
                    let (ex, ey) = (x + 4 * dx as isize, y + 4 * dy as isize);
                    if !inside(ex, ey) {
                        continue;
                    }
                    let pts: [Pos; 5] = std::array::from_fn(|i| {
                        Pos::new(
                            (x + i as isize * dx as isize) as usize,
                            (y + i as isize * dy as isize) as usize,
                        )
                    });
                    windows.push((pts, d as u8));
                }
            }
        }
        let mut lists: Vec<Vec<(u32, u8)>> = vec![Vec::new(); POS_COUNT];
        for (w, (pts, _)) in windows.iter().enumerate() {
            for (slot, p) in pts.iter().enumerate() {
                lists[p.index()].push((w as u32, slot as u8));
            }
        }
        let mut at = Vec::with_capacity(POS_COUNT + 1);
        let mut through = Vec::new();
        for l in &lists {
            at.push(through.len() as u32);
            through.extend_from_slice(l);
        }
        at.push(through.len() as u32);
        let points = (0..height)
            .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
            .collect();
        Geometry {
            width,
            height,
            windows,
            at,
            through,
            points,
        }
    }

    #[inline]
    fn through(&self, p: Pos) -> &[(u32, u8)] {
        let i = p.index();
        &self.through[self.at[i] as usize..self.at[i + 1] as usize]
    }
}

/// Why a position cannot be set up (`docs/fourcolour.md` §4: the protocol answers `ERROR`
/// with this text and keeps its previous position).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// Board side outside 5..=22.
    #[error(transparent)]
    Size(#[from] CoordError),
    /// A stone off the board.
    #[error("stone {index} at {x},{y} is off the {width}x{height} board")]
    OffBoard {
        /// 1-based stone number.
        index: usize,
        /// Column as given.
        x: i64,
        /// Row as given.
        y: i64,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// Two stones on one point.
    #[error("stone {index} at {x},{y}: the point is already occupied")]
    Occupied {
        /// 1-based stone number.
        index: usize,
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// A colour number outside 1..=4.
    #[error("stone {index}: colour {value} is not 1, 2, 3 or 4")]
    BadColor {
        /// 1-based stone number.
        index: usize,
        /// The number given.
        value: i64,
    },
    /// A colour that breaks the cyclic order 1, 2, 3, 4, 1, ...
    #[error("stone {index} is {got} but the cyclic order needs {expected} (colours 1,2,3,4,1,... in play order)")]
    OutOfOrder {
        /// 1-based stone number.
        index: usize,
        /// The colour the order requires.
        expected: Color,
        /// The colour given.
        got: Color,
    },
    /// The game was already won before the last stone given (or by it).
    #[error(
        "the position is already won: stone {index} ({at}, {color}) completes a win for {winner}"
    )]
    AlreadyWon {
        /// 1-based number of the stone that won.
        index: usize,
        /// Where it is.
        at: Pos,
        /// Its colour.
        color: Color,
        /// The winning player, described.
        winner: String,
    },
}

/// The outcome of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A player completed a winning structure (or had one completed for it); its team wins.
    Win(Player),
    /// The board is full without a win.
    Draw,
}

/// A four-colour position: see the module documentation.
#[derive(Clone, Debug)]
pub struct FourBoard {
    geo: Arc<Geometry>,
    values: &'static Values,
    mode: Mode,
    exact_five: bool,
    cells: Vec<u8>,
    codes: Vec<u16>,
    near: Vec<u8>,
    moves: Vec<Pos>,
    hash: u64,
    sums: [i32; 4],
    /// `hot[p][c - 1]`: windows with four stones and their hole at `p` that colour `c`
    /// completes into a winning colouring.
    hot: Vec<[u8; 4]>,
    /// The points with some non-zero `hot` count, and each point's index in it plus one.
    hot_list: Vec<Pos>,
    hot_index: Vec<u16>,
}

impl FourBoard {
    /// An empty `width` x `height` board.
    ///
    /// `exact_five`: a one-colour run of six or more does not win (the option of
    /// `docs/fourcolour.md` §2); by default five or more wins.
    ///
    /// Errors: [`PositionError::Size`] when a side is outside [`crate::core::MIN_SIZE`]..=[`crate::core::MAX_SIZE`].
    pub fn new(
        width: usize,
        height: usize,
        mode: Mode,
        exact_five: bool,
    ) -> Result<FourBoard, PositionError> {
        check_size(width, height)?;
        let geo = Arc::new(Geometry::new(width, height));
        let mut cells = vec![WALL; POS_COUNT];
        for p in &geo.points {
            cells[p.index()] = 0;
        }
        let values = tables(mode);
        let codes = vec![0u16; geo.windows.len()];
        let mut sums = [0i32; 4];
        for (s, v) in sums.iter_mut().zip(values[0].iter()) {
            *s = v * geo.windows.len() as i32;
        }
        Ok(FourBoard {
            geo,
            values,
            mode,
            exact_five,
            cells,
            codes,
            near: vec![0; POS_COUNT],
            moves: Vec::new(),
            hash: 0,
            sums,
            hot: vec![[0; 4]; POS_COUNT],
            hot_list: Vec::new(),
            hot_index: vec![0; POS_COUNT],
        })
    }

    /// Sets up a position from stones given in play order as `(x, y, colour number)`
    /// (protocol coordinates, 0-based), checking everything `docs/fourcolour.md` §4 asks:
    /// each stone on the board and on an empty point, colours 1..=4 in the cyclic order
    /// from black, and no stone completing a win (the game would be over).
    ///
    /// Errors: the first [`PositionError`] met, in stone order.
    pub fn from_stones(
        width: usize,
        height: usize,
        mode: Mode,
        exact_five: bool,
        stones: &[(i64, i64, i64)],
    ) -> Result<FourBoard, PositionError> {
        let mut b = FourBoard::new(width, height, mode, exact_five)?;
        for (i, &(x, y, c)) in stones.iter().enumerate() {
            let index = i + 1;
            if !b.contains_xy(x, y) {
                return Err(PositionError::OffBoard {
                    index,
                    x,
                    y,
                    width,
                    height,
                });
            }
            let p = Pos::new(x as usize, y as usize);
            if !b.is_empty(p) {
                return Err(PositionError::Occupied { index, x, y });
            }
            let got = Color::from_number(c).ok_or(PositionError::BadColor { index, value: c })?;
            let expected = b.to_move();
            if got != expected {
                return Err(PositionError::OutOfOrder {
                    index,
                    expected,
                    got,
                });
            }
            b.play_checked(p)
                .map_err(|winner| PositionError::AlreadyWon {
                    index,
                    at: p,
                    color: got,
                    winner: mode.describe_player(winner),
                })?;
        }
        Ok(b)
    }

    /// Places the colour to move at `p` (an empty board point) unless that completes a win:
    /// then the board is left unchanged and the winner is returned.
    pub fn play_checked(&mut self, p: Pos) -> Result<(), Player> {
        if let Some(w) = self.winner_if(p) {
            return Err(w);
        }
        self.make(p);
        Ok(())
    }

    /// Board width in points.
    pub fn width(&self) -> usize {
        self.geo.width
    }

    /// Board height in points.
    pub fn height(&self) -> usize {
        self.geo.height
    }

    /// The ownership mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether only an exact one-colour five wins (a run of six or more does not).
    pub fn exact_five(&self) -> bool {
        self.exact_five
    }

    /// Changes the ownership mode (the stones stay; the evaluation sums are rebuilt).
    pub fn set_mode(&mut self, mode: Mode) {
        if mode == self.mode {
            return;
        }
        self.mode = mode;
        self.values = tables(mode);
        self.sums = [0; 4];
        for &code in &self.codes {
            for (s, v) in self.sums.iter_mut().zip(self.values[code as usize].iter()) {
                *s += v;
            }
        }
    }

    /// Changes the exact-five option.
    pub fn set_exact_five(&mut self, exact: bool) {
        self.exact_five = exact;
    }

    /// Whether `(x, y)` is a point of the board.
    pub fn contains_xy(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.geo.width && (y as usize) < self.geo.height
    }

    /// Whether `p` is a board point.
    pub fn contains(&self, p: Pos) -> bool {
        !p.is_none() && p.index() < POS_COUNT && self.cells[p.index()] != WALL
    }

    /// Whether `p` is an empty board point.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == 0
    }

    /// The colour on `p`, if any.
    pub fn color_at(&self, p: Pos) -> Option<Color> {
        Color::from_number(self.cells[p.index()] as i64)
    }

    /// The stones in play order.
    pub fn moves(&self) -> &[Pos] {
        &self.moves
    }

    /// Stones on the board.
    pub fn stone_count(&self) -> usize {
        self.moves.len()
    }

    /// Whether every point holds a stone.
    pub fn is_full(&self) -> bool {
        self.moves.len() == self.geo.points.len()
    }

    /// The board's points in row order.
    pub fn points(&self) -> &[Pos] {
        &self.geo.points
    }

    /// The colour of the next stone (cyclic order from black).
    #[inline]
    pub fn to_move(&self) -> Color {
        Color::of_ply(self.moves.len())
    }

    /// The Zobrist key of the stones (the colour to move follows from them).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The last stone placed, or [`Pos::NONE`].
    pub fn last_move(&self) -> Pos {
        self.moves.last().copied().unwrap_or(Pos::NONE)
    }

    /// Shape sums of the evaluation per player (`eval.rs`), in evaluation units; entries past
    /// the mode's player count are 0.
    pub fn sums(&self) -> [i32; 4] {
        self.sums
    }

    /// Stones within two points (Chebyshev distance) of `p`.
    #[inline]
    pub fn near(&self, p: Pos) -> u8 {
        self.near[p.index()]
    }

    /// Places the colour to move on `p`, an empty board point (not checked beyond a debug
    /// assertion). Does not judge the game: see [`FourBoard::winner_if`].
    pub fn make(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p), "make on a non-empty point {p}");
        let c = self.to_move().number();
        self.cells[p.index()] = c;
        self.update_windows(p, c, true);
        self.moves.push(p);
    }

    /// The stone of colour number `c` on `p` enters (`placed`) or leaves the window codes,
    /// the shape sums, the winning points, the hash and the neighbour counts.
    #[inline]
    fn update_windows(&mut self, p: Pos, c: u8, placed: bool) {
        let geo = Arc::clone(&self.geo);
        for &(w, slot) in geo.through(p) {
            let old = self.codes[w as usize] as usize;
            let step = c as usize * POW5[slot as usize] as usize;
            let new = if placed { old + step } else { old - step };
            self.codes[w as usize] = new as u16;
            let (vo, vn) = (&self.values[old], &self.values[new]);
            for i in 0..4 {
                self.sums[i] += vn[i] - vo[i];
            }
            self.update_hot(&geo, w as usize, old, new);
        }
        self.hash ^= ZOBRIST[c as usize - 1][p.index()];
        self.bump_near(p, placed);
    }

    /// Takes back the last stone (no-op on an empty board).
    pub fn undo(&mut self) {
        let Some(p) = self.moves.pop() else { return };
        let c = self.cells[p.index()];
        self.cells[p.index()] = 0;
        self.update_windows(p, c, false);
    }

    /// Window `w` changed from code `old` to `new`: updates the hot counts of its hole.
    #[inline]
    fn update_hot(&mut self, geo: &Geometry, w: usize, old: usize, new: usize) {
        let info = &*WINDOW_INFO;
        for (code, add) in [(old, false), (new, true)] {
            let i = &info[code];
            if i.stones != 4 || i.fills == 0 {
                continue;
            }
            let q = geo.windows[w].0[i.hole as usize];
            let counts = &mut self.hot[q.index()];
            for (c, n) in counts.iter_mut().enumerate() {
                if i.fills & (2 << c) != 0 {
                    *n = if add { *n + 1 } else { *n - 1 };
                }
            }
            let live = counts.iter().any(|&n| n > 0);
            let at = self.hot_index[q.index()] as usize;
            if live && at == 0 {
                self.hot_list.push(q);
                self.hot_index[q.index()] = self.hot_list.len() as u16;
            } else if !live && at != 0 {
                let moved = *self.hot_list.last().expect("listed");
                self.hot_list.swap_remove(at - 1);
                if moved != q {
                    self.hot_index[moved.index()] = at as u16;
                }
                self.hot_index[q.index()] = 0;
            }
        }
    }

    fn bump_near(&mut self, p: Pos, add: bool) {
        let base = p.index() as isize;
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let q = base + dy * STRIDE as isize + dx;
                if q >= 0 && (q as usize) < POS_COUNT {
                    let n = &mut self.near[q as usize];
                    *n = if add { *n + 1 } else { *n - 1 };
                }
            }
        }
    }

    /// Length of the run of colour number `c` through `p` in direction `d` if `p` held `c`.
    fn run_length(&self, p: Pos, c: u8, d: usize) -> usize {
        let step = STEPS[d];
        let mut n = 1;
        for sign in [1isize, -1] {
            let mut q = p.index() as isize + sign * step;
            while q >= 0 && (q as usize) < POS_COUNT && self.cells[q as usize] == c {
                n += 1;
                q += sign * step;
            }
        }
        n
    }

    /// The winning colours of the structures that colour `c` placed on the empty point `p`
    /// would complete: bit `k` set for colour number `k` (one-colour fives of `c`, five or
    /// more unless [`FourBoard::exact_five`]; four-tone fives of any end colour; several at
    /// once when one stone completes several structures). 0 when it completes none.
    pub fn winning_colors_if(&self, p: Pos, c: Color) -> u8 {
        let c = c.number();
        let info = &*WINDOW_INFO;
        let mut mask = 0u8;
        for &(w, slot) in self.geo.through(p) {
            let code = self.codes[w as usize] as usize + c as usize * POW5[slot as usize] as usize;
            let i = &info[code];
            if i.winner == 0 {
                continue;
            }
            if i.mono && self.exact_five {
                let d = self.geo.windows[w as usize].1 as usize;
                if self.run_length(p, c, d) != 5 {
                    continue;
                }
            }
            mask |= 1 << i.winner;
        }
        mask
    }

    /// The player who would win if the colour to move were placed on the empty point `p`
    /// (the Decision of [`decide`] applied to [`FourBoard::winning_colors_if`]), or `None`.
    pub fn winner_if(&self, p: Pos) -> Option<Player> {
        let c = self.to_move();
        decide(self.mode, c, self.winning_colors_if(p, c))
    }

    /// As [`FourBoard::winner_if`] for colour `c` instead of the colour to move (used to look
    /// at the threats of the colours that move later).
    pub fn winner_if_color(&self, p: Pos, c: Color) -> Option<Player> {
        decide(self.mode, c, self.winning_colors_if(p, c))
    }

    /// Every point where some colour would complete a winning colouring of a window, with the
    /// set of such colours (bit `c` for colour number `c`), in window order, each point once.
    /// A superset of the winning points of every colour (exact-five overlines are not
    /// filtered here: confirm with [`FourBoard::winning_colors_if`]).
    pub fn hot_points(&self) -> Vec<(Pos, u8)> {
        let mut out: Vec<(Pos, u8)> = self
            .hot_list
            .iter()
            .map(|&p| {
                let counts = &self.hot[p.index()];
                let mask = (0..4)
                    .filter(|&c| counts[c] > 0)
                    .fold(0u8, |m, c| m | (2 << c));
                (p, mask)
            })
            .collect();
        out.sort_unstable_by_key(|&(p, _)| p);
        out
    }

    /// [`FourBoard::hot_points`] recomputed from scratch by scanning every window (the
    /// reference the incremental version is tested against).
    pub fn hot_points_slow(&self) -> Vec<(Pos, u8)> {
        let info = &*WINDOW_INFO;
        let mut out: Vec<(Pos, u8)> = Vec::new();
        for (w, &code) in self.codes.iter().enumerate() {
            let i = &info[code as usize];
            if i.stones != 4 || i.fills == 0 {
                continue;
            }
            let p = self.geo.windows[w].0[i.hole as usize];
            match out.iter_mut().find(|(q, _)| *q == p) {
                Some(e) => e.1 |= i.fills,
                None => out.push((p, i.fills)),
            }
        }
        out.sort_unstable_by_key(|&(p, _)| p);
        out
    }

    /// The points where colour `c` would win for a player `good` accepts, each once.
    pub fn winning_points(&self, c: Color, good: impl Fn(Player) -> bool) -> Vec<Pos> {
        self.hot_points()
            .into_iter()
            .filter(|&(_, fills)| fills & (1 << c.number()) != 0)
            .filter(|&(p, _)| self.winner_if_color(p, c).is_some_and(&good))
            .map(|(p, _)| p)
            .collect()
    }

    /// The change of the per-player shape sums if colour `c` were placed on the empty point
    /// `p`.
    pub fn delta_if(&self, p: Pos, c: Color) -> [i32; 4] {
        let c = c.number() as usize;
        let mut d = [0i32; 4];
        for &(w, slot) in self.geo.through(p) {
            let old = self.codes[w as usize] as usize;
            let new = old + c * POW5[slot as usize] as usize;
            let (vo, vn) = (&self.values[old], &self.values[new]);
            for i in 0..4 {
                d[i] += vn[i] - vo[i];
            }
        }
        d
    }

    /// Whether the stones already hold a completed winning structure, and whose: scans every
    /// window (with the exact-five option applied), and decides as the last stone would.
    /// Positions built with [`FourBoard::from_stones`] never have one.
    pub fn existing_winner(&self) -> Option<Player> {
        let info = &*WINDOW_INFO;
        let mut mask = 0u8;
        for (w, &code) in self.codes.iter().enumerate() {
            let i = &info[code as usize];
            if i.winner == 0 {
                continue;
            }
            if i.mono && self.exact_five {
                let (pts, d) = self.geo.windows[w];
                let c = self.cells[pts[0].index()];
                if self.run_length(pts[0], c, d as usize) != 5 {
                    continue;
                }
            }
            mask |= 1 << i.winner;
        }
        let last = self.moves.last()?;
        decide(self.mode, self.color_at(*last)?, mask)
    }

    /// The window codes and their points (tests and the reference checks use them).
    pub fn window_count(&self) -> usize {
        self.codes.len()
    }

    /// The board as text, row `height` at the top: `.` empty, `B W P G` stones, the last
    /// stone in lower case; column letters below.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let last = self.last_move();
        for y in (0..self.height()).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..self.width() {
                let p = Pos::new(x, y);
                let ch = match self.color_at(p) {
                    None => '.',
                    Some(c) if p == last => c.letter().to_ascii_lowercase(),
                    Some(c) => c.letter(),
                };
                s.push(ch);
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        s.push_str("   ");
        for x in 0..self.width() {
            if x < 26 {
                s.push((b'a' + x as u8) as char);
            } else {
                s.push('?');
            }
            s.push(' ');
        }
        s.pop();
        s
    }

    /// The judge's view of a move: the colour to move placed on `p` (an empty board point);
    /// returns the outcome if the game ends with it (a win, or a draw on a full board).
    pub fn play_judged(&mut self, p: Pos) -> Option<Outcome> {
        let w = self.winner_if(p);
        self.make(p);
        match w {
            Some(w) => Some(Outcome::Win(w)),
            None if self.is_full() => Some(Outcome::Draw),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_state_matches_a_rebuild() {
        let mut b = FourBoard::new(9, 9, Mode::TwoVsTwo, false).unwrap();
        let mut rng = 12345u64;
        let mut played = Vec::new();
        for _ in 0..70 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pts: Vec<Pos> = b
                .points()
                .iter()
                .copied()
                .filter(|&p| b.is_empty(p))
                .collect();
            let p = pts[(rng >> 33) as usize % pts.len()];
            b.make(p);
            played.push(p);
            if (rng >> 40).is_multiple_of(3) {
                b.undo();
                played.pop();
            }
            let mut fresh = FourBoard::new(9, 9, Mode::TwoVsTwo, false).unwrap();
            for &q in &played {
                fresh.make(q);
            }
            assert_eq!(fresh.codes, b.codes);
            assert_eq!(fresh.sums, b.sums);
            assert_eq!(fresh.hash, b.hash);
            assert_eq!(fresh.near, b.near);
            assert_eq!(b.hot_points(), b.hot_points_slow());
            assert_eq!(fresh.hot_points(), b.hot_points());
        }
        while b.stone_count() > 0 {
            b.undo();
        }
        let empty = FourBoard::new(9, 9, Mode::TwoVsTwo, false).unwrap();
        assert_eq!(b.sums, empty.sums);
        assert_eq!(b.hash, 0);
    }

    #[test]
    fn window_counts() {
        // 15x15: 11 per row and column, 11x11 per diagonal direction.
        let b = FourBoard::new(15, 15, Mode::TwoPlayers, false).unwrap();
        assert_eq!(b.window_count(), 2 * 15 * 11 + 2 * 11 * 11);
        assert!(FourBoard::new(4, 15, Mode::TwoPlayers, false).is_err());
        assert!(FourBoard::new(23, 23, Mode::TwoPlayers, false).is_err());
        let small = FourBoard::new(5, 5, Mode::FreeForAll, false).unwrap();
        assert_eq!(small.window_count(), 12);
    }
}
