//! Property tests: on random positions (9x9 to 15x15, every rule) every win the VCF and VCT
//! solvers report replays under the rules, and the board comes back unchanged.
mod threat_util;

use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use threat_util::{check_vcf_line, check_vct_line};
use tianyuan::board::Board;
use tianyuan::core::{Color, Pos, Rule};
use tianyuan::search::threat::{VcfOutcome, VcfSolver, VctSolver};

fn build(size: usize, rule: usize, stones: &[(usize, usize, bool)], white_to_move: bool) -> Board {
    let mut b = Board::new(size, size, Rule::ALL[rule]).unwrap();
    // Stones gather in a 9x9 window around the centre, where shapes form.
    let o = size / 2 - 4;
    for &(x, y, white) in stones {
        let p = Pos::new(o + x % 9, o + y % 9);
        let c = if white { Color::White } else { Color::Black };
        if b.is_empty(p) && !b.is_five(c, p) {
            b.make_colored(p, c);
        }
    }
    b.set_side_to_move(if white_to_move {
        Color::White
    } else {
        Color::Black
    });
    b
}

/// Whether the side to move has a five point or a straight-four point (one-move wins).
fn trivial(b: &Board) -> bool {
    let c = b.side_to_move();
    b.empty_points()
        .any(|p| b.combo(c, p) >= tianyuan::board::Combo::Flex4)
}

/// A board that prints as a diagram (for shrunk failure reports).
#[derive(Clone)]
struct Position(Board);

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} to move\n{}",
            self.0.rule(),
            self.0.side_to_move().name(),
            self.0.render(&[])
        )
    }
}

fn position() -> impl Strategy<Value = Position> {
    (
        9usize..=15,
        0usize..5,
        prop::collection::vec((0usize..9, 0usize..9, any::<bool>()), 6..40),
        any::<bool>(),
    )
        .prop_map(|(size, rule, stones, w)| Position(build(size, rule, &stones, w)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn vcf_wins_replay(pos in position()) {
        let b = pos.0;
        // Positions with a five or a straight four to play are trivial.
        prop_assume!(!trivial(&b));
        let mut work = b.clone();
        let r = VcfSolver::with_table_bits(12).solve(&mut work, 200_000, &AtomicBool::new(false));
        prop_assert_eq!(work.hash(), b.hash());
        prop_assert_eq!(work.ply(), b.ply());
        prop_assert_eq!(work.side_to_move(), b.side_to_move());
        if let VcfOutcome::Win(line) = &r {
            if let Err(e) = check_vcf_line(&b, line) {
                return Err(TestCaseError::fail(format!("{:?}: {}\n{}", line, e, b.render(&[]))));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn vct_wins_replay(pos in position()) {
        let b = pos.0;
        // Positions with a five or a straight four to play are trivial.
        prop_assume!(!trivial(&b));
        let mut work = b.clone();
        let r = VctSolver::new().solve(&mut work, 30_000, None, &AtomicBool::new(false));
        prop_assert_eq!(work.hash(), b.hash());
        prop_assert_eq!(work.ply(), b.ply());
        prop_assert_eq!(work.side_to_move(), b.side_to_move());
        if let VcfOutcome::Win(line) = &r {
            if let Err(e) = check_vct_line(&b, line) {
                return Err(TestCaseError::fail(format!("{:?}: {}\n{}", line, e, b.render(&[]))));
            }
        }
    }
}
