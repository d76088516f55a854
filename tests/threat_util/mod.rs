//! Helpers shared by the threat-solver tests: positions of the VCF data file, independent
//! replay checkers for VCF/VCT lines, and a slow brute-force VCF oracle.
//!
//! The checkers read only the board (`is_five`, `forbidden`, patterns) and scan every point,
//! so they are independent of the solvers' shortcuts; the one exception is the test of a
//! quiet VCF threat in a VCT line, which asks the (separately tested) VCF solver.
#![allow(dead_code)]

use std::sync::atomic::AtomicBool;
use tianyuan::board::{Board, Pattern};
use tianyuan::core::{parse_point_list, Color, Pos, Rule, SplitMix64};
use tianyuan::search::threat::VcfSolver;

/// Every five point of `c` (full scan).
pub fn fives(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_points().filter(|&q| b.is_five(c, q)).collect()
}

/// Whether `c` may play `p` (renju black: not forbidden; a five is never forbidden).
pub fn legal(b: &Board, c: Color, p: Pos) -> bool {
    !(b.rule().has_forbidden(c) && b.forbidden(p).is_some())
}

/// Every legal move of the defender (the opponent of `a`) after which `a` has no five
/// point: the block of a four, and under caro also a stone that caps a five at one end.
/// Full scan, independent of the solvers.
pub fn defences(b: &mut Board, a: Color) -> Vec<Pos> {
    let d = a.opponent();
    // Whether a point makes a five depends only on the eleven points centred on it along
    // each line, so only stones within five of a five point, on its lines, can matter.
    let af = fives(b, a);
    let pts: Vec<Pos> = b
        .empty_points()
        .filter(|q| {
            af.iter().any(|f| {
                let (dx, dy) = (q.x() as i64 - f.x() as i64, q.y() as i64 - f.y() as i64);
                (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && dx.abs().max(dy.abs()) <= 5
            })
        })
        .collect();
    let mut out = Vec::new();
    for q in pts {
        if !legal(b, d, q) {
            continue;
        }
        b.make_colored(q, d);
        if fives(b, a).is_empty() {
            out.push(q);
        }
        b.undo();
    }
    out
}

/// How a winning line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The last move makes a five.
    Five,
    /// The last move leaves five points that no defender move removes (two or more, or a
    /// caro five that cannot be capped), and the defender has none.
    Unstoppable,
    /// The last move is a white four whose only block is forbidden to black.
    Forbidden,
}

/// Checks the end of a line: the attacker `a` has just played its last move on `b`.
fn check_end(b: &mut Board, a: Color, made_five: bool) -> Result<End, String> {
    if made_five {
        return Ok(End::Five);
    }
    let d = a.opponent();
    let af = fives(b, a);
    if af.is_empty() {
        return Err("line ends without a five point".into());
    }
    if !fives(b, d).is_empty() {
        return Err("line ends while the defender has a five point".into());
    }
    let defs = defences(b, a);
    if !defs.is_empty() {
        return Err(format!(
            "line ends but the defender can answer with {:?}",
            defs
        ));
    }
    if af.len() == 1 && b.rule().has_forbidden(d) && b.forbidden(af[0]).is_some() {
        return Ok(End::Forbidden);
    }
    Ok(End::Unstoppable)
}

/// Checks an attacker move `p` before it is played: on the board, legal, and if the
/// defender has five points, a five or a move that leaves the defender none. Returns whether
/// it answered a defender four.
fn check_attacker_move(b: &mut Board, a: Color, i: usize, p: Pos) -> Result<bool, String> {
    if !b.contains(p) || !b.is_empty(p) {
        return Err(format!("move {} ({}) is not an empty point", i, p));
    }
    if !legal(b, a, p) {
        return Err(format!("attacker move {} ({}) is forbidden", i, p));
    }
    let d = a.opponent();
    if fives(b, d).is_empty() || b.is_five(a, p) {
        return Ok(false);
    }
    b.make_colored(p, a);
    let left = fives(b, d);
    b.undo();
    if left.is_empty() {
        Ok(true)
    } else {
        Err(format!(
            "attacker move {} ({}) leaves the defender the five points {:?}",
            i, p, left
        ))
    }
}

/// Checks a defender move `q` after the attacker's four: legal, no five, and a real
/// defence (the attacker has no five point after it); outside caro it must be the one block.
fn check_defence(b: &mut Board, a: Color, i: usize, q: Pos) -> Result<(), String> {
    let d = a.opponent();
    let af = fives(b, a);
    let defs = defences(b, a);
    if defs.is_empty() {
        return Err(format!(
            "the attacker already wins before defender move {} ({})",
            i, q
        ));
    }
    if !defs.contains(&q) {
        return Err(format!(
            "defender move {} ({}) does not stop the four (defences {:?})",
            i, q, defs
        ));
    }
    let caro = matches!(b.rule(), Rule::Caro | Rule::CaroExact);
    if !caro && (af.len() != 1 || defs != af) {
        return Err(format!(
            "defender move {} ({}): block {:?} is not unique",
            i, q, defs
        ));
    }
    if b.is_five(d, q) {
        return Err(format!("defender move {} ({}) makes a five", i, q));
    }
    Ok(())
}

/// Replays a VCF line for the side to move of `board`: every attacker move is legal and a
/// four (or a five), answers the defender's five point when there is one, every defender
/// move is the unique block of the four (under caro: one of the moves that leave no five
/// point) and makes no five, and the line ends in a five, five points the defender cannot
/// stop, or a forbidden-point capture.
pub fn check_vcf_line(board: &Board, line: &[Pos]) -> Result<End, String> {
    if line.is_empty() || line.len().is_multiple_of(2) {
        return Err(format!("line of {} moves", line.len()));
    }
    let mut b = board.clone();
    let a = b.side_to_move();
    let d = a.opponent();
    let mut i = 0;
    loop {
        let p = line[i];
        check_attacker_move(&mut b, a, i, p)?;
        let five = b.is_five(a, p);
        b.make_colored(p, a);
        if i + 1 == line.len() {
            return check_end(&mut b, a, five);
        }
        if five {
            return Err(format!("five at move {} before the end of the line", i));
        }
        if fives(&b, a).is_empty() {
            return Err(format!("attacker move {} ({}) is not a four", i, p));
        }
        let q = line[i + 1];
        check_defence(&mut b, a, i + 1, q)?;
        b.make_colored(q, d);
        i += 2;
    }
}

/// Whether `a` playing `p` would have a VCF if the defender then passed (a quiet threat);
/// checked with the VCF solver, which the data-set and brute-force tests check on their own.
pub fn vcf_threat(b: &mut Board, a: Color, p: Pos) -> bool {
    b.make_colored(p, a);
    b.set_side_to_move(a);
    let r = VcfSolver::new().solve(b, 2_000_000, &AtomicBool::new(false));
    b.undo();
    r.is_win()
}

/// Replays a VCT main line: every attacker move is legal and either a threat (a four, a
/// move whose line pattern is an open or split three, or a quiet VCF threat) or the answer
/// to the defender's four; after an attacker four the defender's move is a real defence
/// (as in [`check_vcf_line`]); defender moves are legal and make no five; the line ends in a
/// five, five points the defender cannot stop, or a forbidden-point capture.
pub fn check_vct_line(board: &Board, line: &[Pos]) -> Result<End, String> {
    if line.is_empty() || line.len().is_multiple_of(2) {
        return Err(format!("line of {} moves", line.len()));
    }
    let mut b = board.clone();
    let a = b.side_to_move();
    let d = a.opponent();
    let mut i = 0;
    loop {
        let p = line[i];
        let blocks = check_attacker_move(&mut b, a, i, p)?;
        let five = b.is_five(a, p);
        let threat = (0..4).any(|k| {
            let pat = b.pattern(a, p, k);
            pat.is_three() || pat >= Pattern::Four
        });
        if !threat && !blocks && !vcf_threat(&mut b, a, p) {
            return Err(format!(
                "attacker move {} ({}) is neither a threat (four, three, VCF threat) nor a forced block",
                i, p
            ));
        }
        b.make_colored(p, a);
        if i + 1 == line.len() {
            return check_end(&mut b, a, five);
        }
        if five {
            return Err(format!("five at move {} before the end of the line", i));
        }
        let q = line[i + 1];
        if !b.contains(q) || !b.is_empty(q) || !legal(&b, d, q) {
            return Err(format!("defender move {} ({}) is illegal", i + 1, q));
        }
        if !fives(&b, a).is_empty() {
            check_defence(&mut b, a, i + 1, q)?;
        } else if b.is_five(d, q) {
            return Err(format!("defender move {} ({}) makes a five", i + 1, q));
        }
        b.make_colored(q, d);
        i += 2;
    }
}

/// Slow brute-force VCF for the side to move: plain recursion over every empty point,
/// testing fours by playing them and scanning the whole board for five points, and trying
/// every defender move that leaves no five point (the block, or a caro cap); no table, no
/// ordering, no pruning. `budget` counts attacker nodes; `None` when it runs out.
pub fn brute_vcf(board: &mut Board, budget: &mut u64) -> Option<bool> {
    let a = board.side_to_move();
    if !fives(board, a).is_empty() {
        return Some(true);
    }
    brute_node(board, a, budget)
}

fn brute_node(b: &mut Board, a: Color, budget: &mut u64) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let d = a.opponent();
    let pts: Vec<Pos> = b.empty_points().collect();
    for p in pts {
        if !legal(b, a, p) {
            continue;
        }
        b.make_colored(p, a);
        // The move must leave the defender no five and make a four.
        let r = if !fives(b, d).is_empty() || fives(b, a).is_empty() {
            Some(false)
        } else {
            let defs = defences(b, a);
            let mut all = Some(true);
            for q in defs {
                if b.is_five(d, q) {
                    all = Some(false);
                    break;
                }
                b.make_colored(q, d);
                let r = brute_node(b, a, budget);
                b.undo();
                if r != Some(true) {
                    all = r;
                    break;
                }
            }
            all
        };
        b.undo();
        match r {
            None => return None,
            Some(true) => return Some(true),
            Some(false) => {}
        }
    }
    Some(false)
}

/// A position of `vcf_positions.txt`.
pub struct VcfCase {
    pub id: String,
    pub board: Board,
    pub vcf: bool,
    pub first_moves: Vec<Pos>,
    pub end: String,
}

/// Reads `tests/data/vcf_positions.txt`.
pub fn vcf_cases() -> Vec<VcfCase> {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/vcf_positions.txt");
    let text = std::fs::read_to_string(path).expect("vcf data file");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let head = line.split(" src=").next().unwrap();
        let mut parts = head.split_whitespace();
        let id = parts.next().unwrap().to_string();
        let size: usize = parts.next().unwrap().parse().unwrap();
        let mut get = std::collections::HashMap::new();
        for kv in parts {
            if let Some((k, v)) = kv.split_once('=') {
                get.insert(k, v);
            }
        }
        assert_eq!(get["rule"], "renju", "{}", id);
        let black = parse_point_list(get["black"], size, size).unwrap();
        let white = parse_point_list(get["white"], size, size).unwrap();
        let to_move = Color::parse(get["to_move"]).unwrap();
        let board =
            Board::from_stones_to_move(size, size, Rule::Renju, &black, &white, to_move).unwrap();
        out.push(VcfCase {
            id,
            board,
            vcf: get["vcf"] == "yes",
            first_moves: parse_point_list(get["first_moves"], size, size).unwrap(),
            end: get["end"].to_string(),
        });
    }
    out
}

/// A random position on a `size` x `size` board: `stones` stones of random colours, none
/// completing a five, and a random side to move.
pub fn random_position(rng: &mut SplitMix64, size: usize, rule: Rule, stones: usize) -> Board {
    let mut b = Board::new(size, size, rule).unwrap();
    let mut placed = 0;
    let mut tries = 0;
    while placed < stones && tries < 10 * stones {
        tries += 1;
        let p = Pos::new(
            rng.below(size as u64) as usize,
            rng.below(size as u64) as usize,
        );
        let c = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        if !b.is_empty(p) || b.is_five(c, p) {
            continue;
        }
        b.make_colored(p, c);
        placed += 1;
    }
    b.set_side_to_move(if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    });
    b
}
