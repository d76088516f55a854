//! Balanced opening suites (docs/openings.md §3): random openings near the centre, kept when
//! a short search scores them near 0 for the side to move, written in the formats our
//! `match` and c-gomoku-cli read.
//!
//! Formats of one opening (stones in move order, black first):
//! - **ours** (`openings/*.txt`): `<name> <size> rule=<rule> moves=h8,h9,i10 score=<s>`, with
//!   `#` comment lines; points in notation (column letter, row number `y + 1`);
//! - **pos** (c-gomoku-cli `type=pos`): the points run together, `h8h9i10`: column letter
//!   `a + x`, row `y + 1` of the protocol coordinates; no comments;
//! - **offset** (c-gomoku-cli `type=offset`, Gomocup's opening format): `x,y` offsets from
//!   the centre `(size / 2, size / 2)` separated by `, `, e.g. `0,0, 0,1, 1,2`; no comments.
//!
//! The pos and offset lines give the engines exactly the protocol coordinates of our lines.

use super::eval::{EngineSearch, Probe, Search};
use super::renju26;
use super::symmetry::{board_canonical, Transform};
use crate::board::Board;
use crate::core::{Color, Pos, Rule, SplitMix64};
use crate::engine::Engine;
use crate::search::Limits;
use crate::time::Budget;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// Shuffles in place (Fisher-Yates) with a [`SplitMix64`] seeded by `seed`.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// A random opening of `stones` stones (black first, alternating) on a `size` x `size`
/// board under `rule`: the first stone within a few points of the centre, each later one
/// within two points of a stone already placed; black never on a forbidden point, no five.
/// With `renju26`, the first three stones are one of the 24 allowed renju openings under a
/// random symmetry. `None` when the sampler got stuck (rare; draw again).
pub fn random_opening(
    rng: &mut SplitMix64,
    size: usize,
    rule: Rule,
    stones: usize,
    renju26: bool,
) -> Option<Vec<Pos>> {
    let mut b = Board::new(size, size, rule).ok()?;
    let c = (size / 2) as i32;
    if renju26 && stones >= 3 {
        let allowed: Vec<&renju26::RenjuOpening> =
            renju26::OPENINGS.iter().filter(|o| !o.banned).collect();
        let op = allowed[rng.below(allowed.len() as u64) as usize];
        let t = Transform(rng.below(8) as u8);
        for p in op.stones_transformed(size, size, t)? {
            b.make(p);
        }
    }
    let spread = (size as i32 / 6).clamp(1, 3);
    while b.ply() < stones {
        let mut placed = false;
        for _ in 0..200 {
            let (x, y) = if b.ply() == 0 {
                (
                    c + rng.below(2 * spread as u64 + 1) as i32 - spread,
                    c + rng.below(2 * spread as u64 + 1) as i32 - spread,
                )
            } else {
                let m = b.moves()[rng.below(b.ply() as u64) as usize];
                (
                    m.x() as i32 + rng.below(5) as i32 - 2,
                    m.y() as i32 + rng.below(5) as i32 - 2,
                )
            };
            if !b.contains_xy(x as i64, y as i64) {
                continue;
            }
            let p = Pos::new(x as usize, y as usize);
            if !b.is_empty(p) || b.result_of_move(p).is_some() {
                continue;
            }
            if b.rule().has_forbidden(b.side_to_move()) && b.forbidden(p).is_some() {
                continue;
            }
            b.make(p);
            placed = true;
            break;
        }
        if !placed {
            return None;
        }
    }
    Some(b.moves().to_vec())
}

/// One opening of a suite with its search score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The stones in move order.
    pub moves: Vec<Pos>,
    /// Score for the side to move after the stones.
    pub score: i32,
    /// The side to move after the stones.
    pub to_move: Color,
}

/// How to make a suite.
#[derive(Clone, Debug)]
pub struct SuiteParams {
    /// Game rule.
    pub rule: Rule,
    /// Board side (square boards, 5..=22).
    pub size: usize,
    /// Openings wanted.
    pub count: usize,
    /// Seed of the sampler.
    pub seed: u64,
    /// Fewest stones of an opening.
    pub min_stones: usize,
    /// Most stones of an opening.
    pub max_stones: usize,
    /// Nodes of the search that judges each opening (node limits keep a seed's suite the
    /// same from machine to machine).
    pub nodes: u64,
    /// Milliseconds per search as a safety cap (0: none).
    pub time_ms: u64,
    /// Largest accepted `|score|` for the side to move, evaluation units.
    pub max_abs_score: i32,
    /// Start renju openings from the 26 (for renju: the tournament shape).
    pub renju26: bool,
    /// Give up after this many candidates.
    pub max_tries: usize,
}

impl SuiteParams {
    /// Defaults for a rule and size: 3 to 5 stones (renju: 5, from the 26 openings), 20 000
    /// nodes per opening, `|score| <= 40`, 64 openings.
    pub fn new(rule: Rule, size: usize) -> SuiteParams {
        let renju = rule == Rule::Renju;
        SuiteParams {
            rule,
            size,
            count: 64,
            seed: 1,
            min_stones: if renju { 5 } else { 3 },
            max_stones: 5,
            nodes: 20_000,
            time_ms: 0,
            max_abs_score: 40,
            renju26: renju,
            max_tries: 20_000,
        }
    }
}

/// Makes a suite with `engine` (one search per candidate, table cleared before each so that
/// a seed gives the same suite). `progress(kept, tried)` is called after each candidate.
/// Returns fewer than `count` openings only when `max_tries` candidates were used up.
pub fn generate(
    engine: &mut Engine,
    params: &SuiteParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<SuiteEntry> {
    let mut rng = SplitMix64::new(params.seed);
    let mut seen: HashSet<Vec<(u8, u16)>> = HashSet::new();
    let mut out = Vec::new();
    let stop = AtomicBool::new(false);
    let base = Limits {
        max_nodes: Some(params.nodes),
        ..Limits::default()
    };
    let mut tried = 0;
    while out.len() < params.count && tried < params.max_tries {
        tried += 1;
        let span = (params.max_stones.saturating_sub(params.min_stones) + 1) as u64;
        let stones = params.min_stones + rng.below(span) as usize;
        let Some(moves) =
            random_opening(&mut rng, params.size, params.rule, stones, params.renju26)
        else {
            continue;
        };
        let mut board = Board::new(params.size, params.size, params.rule).expect("size checked");
        for &p in &moves {
            board.make(p);
        }
        let key = board_canonical(&super::symmetry::stones_of(&board), params.size);
        if !seen.insert(key) {
            progress(out.len(), tried);
            continue;
        }
        engine.clear();
        let budget = if params.time_ms > 0 {
            Budget::fixed(params.time_ms)
        } else {
            Budget::UNLIMITED
        };
        let r = EngineSearch::new(engine, base.clone(), &stop).search(
            &board,
            &Probe {
                budget,
                multipv: 1,
                excluded: Vec::new(),
            },
        );
        if r.score.saturating_abs() <= params.max_abs_score {
            out.push(SuiteEntry {
                moves,
                score: r.score,
                to_move: board.side_to_move(),
            });
        }
        progress(out.len(), tried);
    }
    out
}

/// Our line for an opening: `<name> <size> rule=<rule> moves=<points> score=<s>`.
pub fn format_ours(name: &str, size: usize, rule: Rule, e: &SuiteEntry) -> String {
    format!(
        "{} {} rule={} moves={} score={}",
        name,
        size,
        rule.name(),
        e.moves
            .iter()
            .map(|p| p.to_notation())
            .collect::<Vec<_>>()
            .join(","),
        e.score
    )
}

/// The c-gomoku-cli `pos` line: `h8h9i10`.
pub fn format_pos(moves: &[Pos]) -> String {
    moves.iter().map(|p| p.to_notation()).collect()
}

/// The c-gomoku-cli / Gomocup `offset` line: `0,0, 0,1, 1,2` (offsets from
/// `(size / 2, size / 2)`).
pub fn format_offset(moves: &[Pos], size: usize) -> String {
    let c = (size / 2) as i32;
    moves
        .iter()
        .map(|p| format!("{},{}", p.x() as i32 - c, p.y() as i32 - c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses a c-gomoku-cli `pos` line (`h8h9i10`: letters and row numbers run together) on a
/// `size` x `size` board. `None` unless the line is only such points, all on the board.
pub fn parse_pos(line: &str, size: usize) -> Option<Vec<Pos>> {
    let t = line.trim();
    let b = t.as_bytes();
    if b.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i].to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start || i - start > 2 {
            return None;
        }
        let row: usize = t[start..i].parse().ok()?;
        let x = (c - b'a') as usize;
        if row == 0 || x >= size || row > size {
            return None;
        }
        out.push(Pos::new(x, row - 1));
    }
    Some(out)
}

/// Parses an `offset` line (`8,-3, 6,-4`: pairs of signed offsets from `(size / 2, size / 2)`,
/// separated by commas and spaces). `None` unless the numbers pair up and land on the board.
pub fn parse_offset(line: &str, size: usize) -> Option<Vec<Pos>> {
    let t = line.trim();
    if t.is_empty()
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == ',' || c == ' ')
    {
        return None;
    }
    let nums: Vec<i32> = t
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i32>().ok())
        .collect::<Option<_>>()?;
    if nums.is_empty() || !nums.len().is_multiple_of(2) {
        return None;
    }
    let c = (size / 2) as i32;
    nums.chunks(2)
        .map(|xy| {
            let (x, y) = (xy[0] + c, xy[1] + c);
            (x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size)
                .then(|| Pos::new(x as usize, y as usize))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_round_trip() {
        let moves = vec![
            Pos::new(7, 7),
            Pos::new(7, 8),
            Pos::new(8, 9),
            Pos::new(10, 12),
        ];
        assert_eq!(format_pos(&moves), "h8h9i10k13");
        assert_eq!(format_offset(&moves, 15), "0,0, 0,1, 1,2, 3,5");
        assert_eq!(parse_pos("h8h9i10k13", 15), Some(moves.clone()));
        assert_eq!(parse_offset("0,0, 0,1, 1,2, 3,5", 15), Some(moves.clone()));
        // The c-gomoku-cli README's examples.
        assert_eq!(parse_pos("b7d6e6f7h2k5", 20).unwrap().len(), 6);
        assert_eq!(
            parse_offset("8,-3, 6,-4, 5,-4, 4,-3, 2,-8, -1,-5", 20).unwrap()[0],
            Pos::new(18, 7)
        );
        assert_eq!(parse_pos("h8,h9", 15), None);
        assert_eq!(parse_pos("z8", 15), None);
        assert_eq!(parse_offset("0,0, 1", 15), None);
        assert_eq!(parse_offset("9,0", 15), None);
        let e = SuiteEntry {
            moves: moves.clone(),
            score: -3,
            to_move: Color::Black,
        };
        assert_eq!(
            format_ours("f15-01", 15, Rule::Freestyle, &e),
            "f15-01 15 rule=freestyle moves=h8,h9,i10,k13 score=-3"
        );
    }

    #[test]
    fn random_openings_are_legal_and_seeded() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut a = SplitMix64::new(9);
            let mut b = SplitMix64::new(9);
            for n in 1..=6 {
                let x = random_opening(&mut a, 15, rule, n, rule == Rule::Renju && n >= 3);
                let y = random_opening(&mut b, 15, rule, n, rule == Rule::Renju && n >= 3);
                assert_eq!(x, y);
                let x = x.unwrap();
                assert_eq!(x.len(), n);
                let mut bd = Board::new(15, 15, rule).unwrap();
                for p in x {
                    assert!(bd.is_empty(p) && bd.result_of_move(p).is_none());
                    bd.make(p);
                }
            }
        }
        let mut r = SplitMix64::new(3);
        let o = random_opening(&mut r, 15, Rule::Renju, 5, true).unwrap();
        assert!(renju26::recognise(&o, 15, 15).is_some());
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mut a: Vec<u32> = (0..26).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..26).collect::<Vec<_>>());
        assert_ne!(a, (0..26).collect::<Vec<_>>());
    }
}
