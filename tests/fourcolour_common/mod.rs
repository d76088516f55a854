//! Helpers shared by the four-colour tests: positions with chosen stones, the other colours'
//! turns filled by stones far away.
#![allow(dead_code)]

use tianyuan::core::Pos;
use tianyuan::fourcolour::{FourBoard, Mode};

/// Filler points of a 15x15 board: both coordinates even (no two of them adjacent in any
/// direction, so they never make a five) and at least `gap` points (Chebyshev distance)
/// from every point of `keep` (so with `gap >= 5` they share no window with them).
pub fn fillers(keep: &[Pos], gap: i64) -> Vec<Pos> {
    let mut v = Vec::new();
    for y in (0..15).step_by(2) {
        for x in (0..15).step_by(2) {
            let far = keep.iter().all(|k| {
                (k.x() as i64 - x as i64)
                    .abs()
                    .max((k.y() as i64 - y as i64).abs())
                    >= gap
            });
            if far {
                v.push(Pos::new(x, y));
            }
        }
    }
    v
}

/// The stones to place, in play order, so that `stones` (point, colour number) are placed in
/// the given order, each in its colour's cyclic turn, with filler stones in the other turns,
/// and colour `next` is to move at the end. Fillers keep `gap` points away from `keep` and
/// from the stones.
pub fn sequence(stones: &[(Pos, u8)], next: u8, keep: &[Pos], gap: i64) -> Vec<(Pos, u8)> {
    let mut far: Vec<Pos> = stones.iter().map(|s| s.0).collect();
    far.extend_from_slice(keep);
    let mut fill = fillers(&far, gap).into_iter();
    let mut out: Vec<(Pos, u8)> = Vec::new();
    let mut put = |out: &mut Vec<(Pos, u8)>, c: u8| {
        while (out.len() % 4) as u8 + 1 != c {
            let f = fill.next().expect("enough filler points");
            let colour = (out.len() % 4) as u8 + 1;
            out.push((f, colour));
        }
    };
    for &(p, c) in stones {
        put(&mut out, c);
        out.push((p, c));
    }
    put(&mut out, next);
    out
}

/// A 15x15 board holding [`sequence`]`(stones, next, &[], 5)`.
pub fn build(mode: Mode, exact: bool, stones: &[(Pos, u8)], next: u8) -> FourBoard {
    let seq = sequence(stones, next, &[], 5);
    let triples: Vec<(i64, i64, i64)> = seq
        .iter()
        .map(|&(p, c)| (p.x() as i64, p.y() as i64, c as i64))
        .collect();
    FourBoard::from_stones(15, 15, mode, exact, &triples).expect("a legal, unfinished position")
}

/// `x,y,c` body lines of a sequence.
pub fn body(seq: &[(Pos, u8)]) -> Vec<String> {
    seq.iter()
        .map(|&(p, c)| format!("{},{},{}", p.x(), p.y(), c))
        .collect()
}
