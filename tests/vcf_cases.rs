//! Hand-made VCF positions for the renju corner cases of docs/rules.md §3.
mod threat_util;

use std::sync::atomic::AtomicBool;
use threat_util::{check_vcf_line, End};
use tianyuan::board::{Board, ForbiddenKind};
use tianyuan::core::{parse_point, parse_point_list, Color, Rule};
use tianyuan::search::threat::{vcf, VcfOutcome};

fn board(rule: Rule, black: &str, white: &str, to_move: Color) -> Board {
    let b = parse_point_list(black, 15, 15).unwrap();
    let w = parse_point_list(white, 15, 15).unwrap();
    Board::from_stones_to_move(15, 15, rule, &b, &w, to_move).unwrap()
}

fn pt(s: &str) -> tianyuan::core::Pos {
    parse_point(s, 15, 15).unwrap()
}

/// A straight four that is also a double three (4-3-3) is forbidden: the solver must not win
/// with it (where overlines and fours are not at stake, only the exact test can tell). Without
/// h8 black has no VCF (d8 makes a four whose block is h8), so the answer must be a proved
/// `None`: a win (with h8 or any other move) or `Unknown` fails.
#[test]
fn straight_four_with_double_three_is_forbidden() {
    // Row 8: c8 white, e8 f8 g8 black: h8 makes a straight four e8-h8.
    // Column h: h9 h10; diagonal: i9 j10: h8 also makes two open threes.
    let mut b = board(
        Rule::Renju,
        "e8,f8,g8,h9,h10,i9,j10",
        "c8,a1,a3,a5,a7,a9,a11",
        Color::Black,
    );
    assert_eq!(b.forbidden(pt("h8")), Some(ForbiddenKind::DoubleThree));
    let r = vcf(&mut b, 1_000_000, &AtomicBool::new(false));
    if let VcfOutcome::Win(line) = &r {
        assert_ne!(line[0], pt("h8"), "won with a forbidden 4-3-3");
    }
    assert_eq!(
        r,
        VcfOutcome::None,
        "renju: no VCF without the forbidden h8"
    );
    // Freestyle: h8 is a plain straight four and wins at once.
    let mut b = board(
        Rule::Freestyle,
        "e8,f8,g8,h9,h10,i9,j10",
        "c8,a1,a3,a5,a7,a9,a11",
        Color::Black,
    );
    let r = vcf(&mut b, 1_000_000, &AtomicBool::new(false));
    assert!(r.is_win());
    assert_eq!(check_vcf_line(&b, r.line()), Ok(End::Unstoppable));
}

/// Example V0012 of tests/data/vcf_positions.txt: white wins by forcing black's only block onto a
/// double-three point.
#[test]
fn forbidden_capture_line() {
    let mut b = board(
        Rule::Renju,
        "e6,f9,g10,h7,h8,h11,j8",
        "f7,g8,g9,h9,i6,i7",
        Color::White,
    );
    let r = vcf(&mut b, 1_000_000, &AtomicBool::new(false));
    let VcfOutcome::Win(line) = r else {
        panic!("no win: {:?}", r)
    };
    assert_eq!(line[0], pt("i10"));
    assert_eq!(check_vcf_line(&b, &line), Ok(End::Forbidden));
}

/// A defender's five point must be blocked first: black has a four, white to move has a
/// straight-four point elsewhere but must block (and the block is no four): no VCF.
#[test]
fn defender_four_must_be_answered() {
    let mut b = board(Rule::Freestyle, "a2,a3,a4,a5", "a6,f8,g8,h8", Color::White);
    assert_eq!(
        vcf(&mut b, 1_000_000, &AtomicBool::new(false)),
        VcfOutcome::None
    );
    // With the block on a four point of white's, the VCF goes through it.
    // Black a2-a5 (a6 white) has the five point a1; white's block a1 makes the four a1-d1.
    let mut b = board(
        Rule::Freestyle,
        "a2,a3,a4,a5",
        "a6,b1,c1,d1,f8,g8,h8",
        Color::White,
    );
    let r = vcf(&mut b, 1_000_000, &AtomicBool::new(false));
    let VcfOutcome::Win(line) = r else {
        panic!("no win: {:?}", r)
    };
    assert_eq!(line[0], pt("a1"));
    check_vcf_line(&b, &line).unwrap();
}
