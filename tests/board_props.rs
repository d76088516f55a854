//! Property tests of the board: after random make/undo sequences on random sizes and rules,
//! the incremental patterns, scores, neighbour counts and Zobrist key equal a recomputation
//! from scratch, and the fast forbidden test agrees with the exact recursive one.
use proptest::prelude::*;
use tianyuan::board::{forbidden, Board};
use tianyuan::core::{Pos, Rule};

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Freestyle),
        Just(Rule::Standard),
        Just(Rule::Renju),
        Just(Rule::Caro),
        Just(Rule::CaroExact)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn incremental_state_matches_rebuild(
        w in 5usize..=22, h in 5usize..=22, rule in rule_strategy(),
        ops in prop::collection::vec((0usize..1000, 0u8..10), 1..160)
    ) {
        let mut b = Board::new(w, h, rule).unwrap();
        let start_hash = b.hash();
        for (pick, op) in ops {
            if op < 3 && b.ply() > 0 {
                b.undo();
            } else {
                let empties: Vec<Pos> = b.empty_points().collect();
                if empties.is_empty() { break; }
                b.make(empties[pick % empties.len()]);
            }
            if let Err(e) = b.verify_incremental() {
                prop_assert!(false, "{}", e);
            }
        }
        while b.ply() > 0 { b.undo(); }
        prop_assert_eq!(b.hash(), start_hash);
        prop_assert!(b.verify_incremental().is_ok());
    }

    #[test]
    fn fast_forbidden_agrees_with_exact(
        seed_moves in prop::collection::vec((0usize..15, 0usize..15), 4..60)
    ) {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        // Cluster the stones around the centre so that shapes form often.
        for (x, y) in seed_moves {
            let p = Pos::new(3 + x % 9, 3 + y % 9);
            if b.is_empty(p) { b.make(p); }
        }
        for p in b.empty_points().collect::<Vec<_>>() {
            let mut lines = b.lines().clone();
            prop_assert_eq!(b.forbidden(p), forbidden::exact(&mut lines, p), "at {}", p);
        }
    }
}
