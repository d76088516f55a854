//! Tactics through the engine facade: win in one, block a four, answer an open three, renju
//! black avoiding a forbidden "winning" point, white winning with an overline in renju, and
//! a forced win found by the root VCF.
mod common;

use std::sync::atomic::AtomicBool;
use tianyuan::board::Board;
use tianyuan::core::{parse_point, parse_point_list, Color, Pos, Rule};
use tianyuan::engine::{Engine, Options};
use tianyuan::search::{Limits, SearchResult};
use tianyuan::time::Budget;

fn pos(black: &str, white: &str, to_move: Color, rule: Rule) -> Board {
    let b = parse_point_list(black, 15, 15).unwrap();
    let w = parse_point_list(white, 15, 15).unwrap();
    Board::from_stones_to_move(15, 15, rule, &b, &w, to_move).unwrap()
}

fn think(board: &Board, threads: usize, ms: u64) -> SearchResult {
    let mut e = Engine::new(Options {
        threads,
        hash_bytes: 8 << 20,
    });
    let limits = Limits {
        budget: Budget::fixed(ms),
        max_depth: Some(12),
        ..Limits::default()
    };
    e.think(board, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn p(s: &str) -> Pos {
    parse_point(s, 15, 15).unwrap()
}

#[test]
fn win_in_one_every_rule() {
    for rule in [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ] {
        // Black four h8..k8 closed by white at g8: the only five point is l8.
        let b = pos("h8,i8,j8,k8,c3", "g8,d12,m12,n3,b10", Color::Black, rule);
        let r = think(&b, 1, 500);
        assert_eq!(r.best, p("l8"), "{:?}", rule);
        assert_eq!(r.win_in(), Some(1));
    }
}

#[test]
fn blocks_a_four() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        // White threatens l8 (g8 is black); black has nothing faster.
        let b = pos("g8,c3,c5,m13,b12", "h8,i8,j8,k8", Color::Black, rule);
        let r = think(&b, 1, 500);
        common::assert_blocks_the_four(rule, r.best);
    }
}

#[test]
fn answers_an_open_three() {
    // White has an open three h8-i8-j8 (both sides wide open); black must stop it at f8, g8,
    // k8 or l8 (a four elsewhere would only delay).
    let b = pos("h10,c3,m12", "h8,i8,j8", Color::Black, Rule::Freestyle);
    let r = think(&b, 1, 1500);
    assert!(
        ["f8", "g8", "k8", "l8"].contains(&r.best.to_notation().as_str()),
        "played {}",
        r.best
    );
}

#[test]
fn renju_black_avoids_forbidden_double_four() {
    // Black h8 i8 j8 (row) and k5 k6 k7 (column) with white blocking g8 and k4: k8 would
    // make two fours (row h8..k8 and column k5..k8), a win in freestyle but a foul in renju.
    let black = "h8,i8,j8,k5,k6,k7";
    let white = "g8,k4,c13,d13,m2";
    let b = pos(black, white, Color::Black, Rule::Renju);
    assert!(b.forbidden(p("k8")).is_some());
    let r = think(&b, 1, 800);
    assert_ne!(r.best, p("k8"));
    // The same position in freestyle: k8 wins (double four).
    let b = pos(black, white, Color::Black, Rule::Freestyle);
    let r = think(&b, 1, 800);
    assert!(
        r.win_in().is_some_and(|n| n > 0),
        "freestyle should find the double-four win"
    );
}

#[test]
fn renju_white_wins_with_overline() {
    // White h8 i8 j8 l8 m8: k8 makes six, which wins for white in renju.
    let b = pos(
        "c3,c5,c7,c9,c11,n3",
        "h8,i8,j8,l8,m8",
        Color::White,
        Rule::Renju,
    );
    let r = think(&b, 1, 500);
    assert_eq!(r.best, p("k8"));
    assert_eq!(r.win_in(), Some(1));
    // In standard rules the same point does not win.
    let b = pos(
        "c3,c5,c7,c9,c11,n3",
        "h8,i8,j8,l8,m8",
        Color::White,
        Rule::Standard,
    );
    let r = think(&b, 1, 300);
    assert_ne!(r.win_in(), Some(1));
}

#[test]
fn two_threads_find_the_same_win() {
    // Freestyle, black to move: k8 makes a row four (h8..k8, five point l8) and a split
    // column four (k8, k10..k12, five point k9) at once: a double four, a win in 3 plies.
    let b = pos(
        "h8,i8,j8,k10,k11,k12,a1",
        "g8,d12,m2,n13,b3,c14",
        Color::Black,
        Rule::Freestyle,
    );
    for threads in [1, 2] {
        let r = think(&b, threads, 1500);
        assert!(
            r.win_in().is_some_and(|n| n > 0),
            "{} threads: {:?}",
            threads,
            r
        );
        let mut bb = b.clone();
        assert!(bb.is_empty(r.best));
        bb.make(r.best);
    }
}

/// Multi-PV (`Limits::multipv`, YXNBEST): three lines with distinct root moves, the first
/// being the move played, the others in score order, each a sequence of legal moves from
/// the position; one line asked for gives no `lines` at all.
#[test]
fn multipv_lines() {
    let b = pos("h8,i9", "h9,g7", Color::Black, Rule::Freestyle);
    let mut e = Engine::new(Options {
        threads: 1,
        hash_bytes: 8 << 20,
    });
    let mut limits = Limits {
        max_depth: Some(6),
        multipv: 3,
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let r = e.think(&b, &limits, &AtomicBool::new(false), &mut |i| {
        infos.push((i.depth, i.pv_index, i.num_pv))
    });
    assert_eq!(r.depth, 6);
    assert_eq!(r.lines.len(), 3, "{:?}", r.lines);
    assert_eq!(r.lines[0].pv.first(), Some(&r.best));
    assert_eq!(r.lines[0].score, r.score);
    assert!(r.lines[1].score >= r.lines[2].score, "{:?}", r.lines);
    let mut firsts: Vec<Pos> = r.lines.iter().map(|l| l.pv[0]).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
    for l in &r.lines {
        let mut c = b.clone();
        for &q in &l.pv {
            assert!(c.is_empty(q) && c.forbidden(q).is_none(), "{:?}", l);
            if c.result_of_move(q).is_some() {
                break;
            }
            c.make(q);
        }
    }
    // Each completed iteration reported its three lines in order.
    assert!(
        infos.ends_with(&[(6, 0, 3), (6, 1, 3), (6, 2, 3)]),
        "{:?}",
        infos
    );
    limits.multipv = 1;
    let one = e.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(one.lines.is_empty());
}

#[test]
fn the_search_sees_the_opponents_two_vcfs() {
    // White has two separate VCFs of two fours each (lower left: f7 four, black blocks g7,
    // then f3 is a double four; upper right the same shifted by 7 columns and 6 rows);
    // black has only single stones, so no black move stops both. A depth-4 search sees it:
    // white makes the first four inside the tree, and its double four is a straight-four
    // point at the next node, a static verdict (docs/strength.md §2). The leaves' local VCF
    // tries only fours near the side's own last move, so a shallower search that leaves
    // both fours to the leaf need not see it.
    let black = "b3,b7,f2,f8,i9,i13,m8,m14,a15,h15,o15,o1,h1,a1,o5,a11";
    let white = "c3,d3,e3,c7,d7,e7,f5,f6,j9,k9,l9,j13,k13,l13,m11,m12";
    let b = pos(black, white, Color::Black, Rule::Freestyle);
    let mut e = Engine::new(Options {
        threads: 1,
        hash_bytes: 8 << 20,
    });
    let limits = Limits {
        budget: Budget::UNLIMITED,
        max_depth: Some(4),
        ..Limits::default()
    };
    let r = e.think(&b, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(
        r.score <= -tianyuan::eval::WIN_THRESHOLD,
        "score {} at depth {}",
        r.score,
        r.depth
    );
}
