//! Unit tests of the node search's static verdicts and leaf search (`node.rs`, `leaf.rs`).

use super::*;
use crate::core::{parse_point_list, Rule};

/// Runs `f` on a worker set up for the 15x15 position with `black` and `white` stones
/// (point lists such as `"h8,i8"`) and `to_move` to move.
fn with_worker<R>(
    black: &str,
    white: &str,
    to_move: Color,
    rule: Rule,
    f: impl FnOnce(&mut Worker) -> R,
) -> R {
    let b = parse_point_list(black, 15, 15).unwrap();
    let w = parse_point_list(white, 15, 15).unwrap();
    let board = Board::from_stones_to_move(15, 15, rule, &b, &w, to_move).unwrap();
    let tt = TranspositionTable::new(1 << 20);
    let stop = AtomicBool::new(false);
    let limits = Limits::default();
    let shared = Shared::new(&tt, &stop, Instant::now(), &limits, None);
    let mut worker = Worker::new(0, board, &shared, &limits, Solvers::new());
    f(&mut worker)
}

fn verdict(black: &str, white: &str, to_move: Color, rule: Rule) -> Option<i32> {
    with_worker(black, white, to_move, rule, |w| {
        let before = w.board.hash();
        let r = w.threat_verdict();
        assert_eq!(w.board.hash(), before, "the probe takes its moves back");
        r
    })
}

// Black's k8 is a four-three: the four h8-k8 (g8 is white; five point l8) and the open
// three k6-k8.
const FOUR_THREE_BLACK: &str = "h8,i8,j8,k6,k7";

#[test]
fn a_four_three_wins_when_the_opponent_has_no_four() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        let r = verdict(FOUR_THREE_BLACK, "g8,c3,c13,m13,n2", Color::Black, rule);
        assert_eq!(r, Some(5), "{rule:?}");
    }
}

#[test]
fn a_quiet_position_has_no_verdict() {
    let r = verdict("h8,i9,k6", "g8,c3,c13", Color::Black, Rule::Freestyle);
    assert_eq!(r, None);
}

#[test]
fn a_straight_four_point_wins_in_three() {
    // Black h8-j8 open (g8, k8, f8, l8 empty): g8 or k8 makes a straight four.
    let r = verdict("h8,i8,j8", "c3,c13,m13", Color::Black, Rule::Freestyle);
    assert_eq!(r, Some(3));
}

#[test]
fn the_four_three_probe_wins_when_the_block_makes_no_four() {
    // White has fours to play (its open three c13-e13), so the count alone does not
    // decide; the forced block at l8 makes nothing for white: a win.
    let r = verdict(
        FOUR_THREE_BLACK,
        "g8,c13,d13,e13,a1",
        Color::Black,
        Rule::Freestyle,
    );
    assert_eq!(r, Some(5));
}

#[test]
fn no_win_when_the_forced_block_makes_a_four() {
    // White l9-l11: the block at l8 makes white a four, which black must answer.
    let r = verdict(
        FOUR_THREE_BLACK,
        "g8,l9,l10,l11,a1",
        Color::Black,
        Rule::Freestyle,
    );
    assert_eq!(r, None);
}

#[test]
fn renju_black_four_three_wins_through_the_probe() {
    // Renju black never wins on the counts alone: the probe plays k8, white blocks at
    // l8, and black keeps a straight-four point (k5 or k9).
    let r = verdict(
        FOUR_THREE_BLACK,
        "g8,c3,c13,m13,n2",
        Color::Black,
        Rule::Renju,
    );
    assert_eq!(r, Some(5));
}

#[test]
fn a_block_that_is_a_renju_foul_does_not_count_as_a_four() {
    // White's k8 is a four-three (h8-k8 with g8 black, five point l8; k6-k8 open). Black's
    // block at l8 makes two fours (l8-l11 and l8-o5): a counter in freestyle, a
    // forbidden double four in renju, where white's four-three wins.
    let black = "g8,l9,l10,l11,m7,n6,o5";
    let white = "h8,i8,j8,k6,k7,a1";
    assert_eq!(verdict(black, white, Color::White, Rule::Freestyle), None);
    assert_eq!(verdict(black, white, Color::White, Rule::Renju), Some(5));
}

#[test]
fn a_block_that_is_a_forbidden_double_three_is_no_defence() {
    // The same four-three of white's; black's block at l8 makes two open threes (l8-l10
    // and l8-n6) and black has fours of its own elsewhere (b13-d13), so only the probe
    // decides. Renju: the double three is forbidden, black cannot block, white wins.
    let black = "g8,l9,l10,m7,n6,b13,c13,d13";
    let white = "h8,i8,j8,k6,k7,a1,o15";
    assert_eq!(verdict(black, white, Color::White, Rule::Renju), Some(5));
    assert_eq!(
        verdict(black, white, Color::White, Rule::Freestyle),
        Some(5)
    );
}

/// The local VCF score of black to move at a leaf: its four f8 (c8-f8, b8 white; forced
/// block g8) turns h10 into a four-three (the four h10-h13, h14 white, and the three
/// f8-h10 on the diagonal through g9). Black's last stone is g9.
fn leaf_vcf(black: &str, rule: Rule) -> (Option<i32>, i32) {
    with_worker(black, "b8,h14,a1,a15,o1,o15", Color::Black, rule, |w| {
        let before = w.board.hash();
        let sw = w.threat_verdict();
        let s = w.leaf_node(-WIN, WIN, 0.0, 0);
        assert_eq!(w.board.hash(), before, "the search takes its moves back");
        (sw, s)
    })
}

#[test]
fn the_leaf_vcf_finds_a_four_then_a_four_three() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let (sw, s) = leaf_vcf("c8,d8,e8,h11,h12,h13,g9", rule);
        assert_eq!(sw, None, "{rule:?}: no static win before the first four");
        // Four f8, block g8, four-three h10: a five on the seventh ply at the latest.
        assert!(s >= WIN - 7, "{rule:?}: {s}");
    }
    // Without h11 there is no second four: no win.
    let (_, s) = leaf_vcf("c8,d8,e8,a3,h12,h13,g9", Rule::Freestyle);
    assert!(s < WIN_THRESHOLD, "{s}");
}
