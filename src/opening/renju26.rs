//! The 26 standard renju openings (docs/openings.md §1):
//! black's first stone on the centre point, white's stone on one of its eight neighbours, black's
//! second stone inside the 5x5 square around the first. Up to the eight symmetries there are
//! 13 *direct* openings (white orthogonally next to black) and 13 *indirect* ones (white
//! diagonally next to black); D13 (Yusei) and I13 (Suisei) are banned in professional play.
//!
//! Recognition works on any board that holds the 5x5 square around its centre point
//! `(width / 2, height / 2)` (the centre of Gomocup's offsets, `h8` on 15x15), odd or even.

use super::symmetry::Transform;
use crate::core::{Color, Pos};

/// One of the 26 openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenjuOpening {
    /// Code: `D1`..`D13` (direct) or `I1`..`I13` (indirect).
    pub code: &'static str,
    /// Japanese name in romaji.
    pub name: &'static str,
    /// Chinese name.
    pub chinese: &'static str,
    /// White's first stone as an offset from black's first: `(0, 1)` direct, `(1, 1)`
    /// indirect (`h9` and `i9` when black is on `h8`).
    pub white: (i32, i32),
    /// Black's second stone as an offset from black's first.
    pub third: (i32, i32),
    /// Banned in professional play (Yusei and Suisei).
    pub banned: bool,
}

const fn o(
    code: &'static str,
    name: &'static str,
    chinese: &'static str,
    white: (i32, i32),
    third: (i32, i32),
    banned: bool,
) -> RenjuOpening {
    RenjuOpening {
        code,
        name,
        chinese,
        white,
        third,
        banned,
    }
}

const D: (i32, i32) = (0, 1);
const I: (i32, i32) = (1, 1);

/// The 26 openings in the usual order (D1..D13, I1..I13), with black on `h8`, white on `h9`
/// (direct) or `i9` (indirect) and the third stone as in the standard table.
pub const OPENINGS: [RenjuOpening; 26] = [
    o("D1", "Kansei", "寒星", D, (0, 2), false),
    o("D2", "Keigetsu", "溪月", D, (1, 2), false),
    o("D3", "Sosei", "疏星", D, (2, 2), false),
    o("D4", "Kagetsu", "花月", D, (1, 1), false),
    o("D5", "Zangetsu", "残月", D, (2, 1), false),
    o("D6", "Ugetsu", "雨月", D, (1, 0), false),
    o("D7", "Kinsei", "金星", D, (2, 0), false),
    o("D8", "Shogetsu", "松月", D, (0, -1), false),
    o("D9", "Kyugetsu", "丘月", D, (1, -1), false),
    o("D10", "Shingetsu", "新月", D, (2, -1), false),
    o("D11", "Zuisei", "瑞星", D, (0, -2), false),
    o("D12", "Sangetsu", "山月", D, (1, -2), false),
    o("D13", "Yusei", "游星", D, (2, -2), true),
    o("I1", "Chosei", "长星", I, (2, 2), false),
    o("I2", "Kyogetsu", "峡月", I, (2, 1), false),
    o("I3", "Kosei", "恒星", I, (2, 0), false),
    o("I4", "Suigetsu", "水月", I, (2, -1), false),
    o("I5", "Ryusei", "流星", I, (2, -2), false),
    o("I6", "Ungetsu", "云月", I, (1, 0), false),
    o("I7", "Hogetsu", "浦月", I, (1, -1), false),
    o("I8", "Rangetsu", "岚月", I, (1, -2), false),
    o("I9", "Gingetsu", "银月", I, (0, -1), false),
    o("I10", "Myojo", "明星", I, (0, -2), false),
    o("I11", "Shagetsu", "斜月", I, (-1, -1), false),
    o("I12", "Meigetsu", "名月", I, (-1, -2), false),
    o("I13", "Suisei", "彗星", I, (-2, -2), true),
];

impl RenjuOpening {
    /// The three stones on a `width` x `height` board in the table's orientation, or `None`
    /// when the 5x5 square around the centre does not fit.
    pub fn stones(&self, width: usize, height: usize) -> Option<[Pos; 3]> {
        self.stones_transformed(width, height, Transform(0))
    }

    /// The three stones after applying `t` about black's first stone.
    pub fn stones_transformed(
        &self,
        width: usize,
        height: usize,
        t: Transform,
    ) -> Option<[Pos; 3]> {
        let (cx, cy) = ((width / 2) as i32, (height / 2) as i32);
        if cx < 2 || cy < 2 || cx + 2 >= width as i32 || cy + 2 >= height as i32 {
            return None;
        }
        let at = |d: (i32, i32)| {
            let (dx, dy) = t.apply(d);
            Pos::new((cx + dx) as usize, (cy + dy) as usize)
        };
        Some([at((0, 0)), at(self.white), at(self.third)])
    }

    /// Whether the opening is direct (white orthogonally next to black).
    pub fn is_direct(&self) -> bool {
        self.white == D
    }
}

/// A recognised opening: which of the 26, and the transform that takes the table's
/// orientation to the stones given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognised {
    /// The opening.
    pub opening: &'static RenjuOpening,
    /// Table orientation to the given stones.
    pub transform: Transform,
}

/// The opening formed by the first three stones `moves[0..3]` (black, white, black) on a
/// `width` x `height` board, or `None` when they are not one of the 26: black's first stone
/// off the centre point, white's not next to it, black's second outside the 5x5 square,
/// repeated points, or fewer than three stones. Later stones are ignored.
pub fn recognise(moves: &[Pos], width: usize, height: usize) -> Option<Recognised> {
    let [m1, m2, m3] = <[Pos; 3]>::try_from(moves.get(..3)?).ok()?;
    let (cx, cy) = ((width / 2) as i32, (height / 2) as i32);
    let d = |p: Pos| (p.x() as i32 - cx, p.y() as i32 - cy);
    if d(m1) != (0, 0) {
        return None;
    }
    let (w, b) = (d(m2), d(m3));
    if w == (0, 0) || w.0.abs() > 1 || w.1.abs() > 1 {
        return None;
    }
    if b == (0, 0) || b == w || b.0.abs() > 2 || b.1.abs() > 2 {
        return None;
    }
    for t in Transform::ALL {
        let (tw, tb) = (t.apply(w), t.apply(b));
        if let Some(op) = OPENINGS.iter().find(|o| o.white == tw && o.third == tb) {
            return Some(Recognised {
                opening: op,
                transform: t.inverse(),
            });
        }
    }
    None
}

/// [`recognise`] for stones given with their colours: exactly the colours black, white,
/// black are required of the first three.
pub fn recognise_colored(
    stones: &[(Pos, Color)],
    width: usize,
    height: usize,
) -> Option<Recognised> {
    let cols: Vec<Color> = stones.iter().take(3).map(|s| s.1).collect();
    if cols != [Color::Black, Color::White, Color::Black] {
        return None;
    }
    let moves: Vec<Pos> = stones.iter().map(|s| s.0).collect();
    recognise(&moves, width, height)
}

/// The opening with this code (`D4`, `i7`; any case).
pub fn by_code(code: &str) -> Option<&'static RenjuOpening> {
    OPENINGS.iter().find(|o| o.code.eq_ignore_ascii_case(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_stones_are_recognised_as_themselves() {
        for op in &OPENINGS {
            for t in Transform::ALL {
                let s = op.stones_transformed(15, 15, t).unwrap();
                let r = recognise(&s, 15, 15).unwrap();
                assert_eq!(r.opening.code, op.code);
                assert_eq!(op.stones_transformed(15, 15, r.transform).unwrap(), s);
            }
        }
        assert_eq!(by_code("d4").unwrap().name, "Kagetsu");
        assert!(by_code("X1").is_none());
    }
}
