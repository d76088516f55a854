//! The incremental evaluator equals a recomputation after any sequence of moves and takebacks,
//! for every rule and several board sizes.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tianyuan::board::Board;
use tianyuan::core::{Pos, Rule};
use tianyuan::eval::{evaluate, Evaluator};

#[test]
fn incremental_matches_full_recomputation() {
    let mut rng = SmallRng::seed_from_u64(7);
    for rule in Rule::ALL {
        for (w, h) in [(15, 15), (20, 20), (7, 9), (22, 22)] {
            for _game in 0..6 {
                let mut b = Board::new(w, h, rule).unwrap();
                let mut ev = Evaluator::new(&b);
                let mut played = 0;
                for _step in 0..120 {
                    if played > 0 && rng.gen_bool(0.3) {
                        b.undo();
                        ev.undo();
                        played -= 1;
                    } else {
                        let empties: Vec<Pos> = b.empty_points().collect();
                        if empties.is_empty() {
                            break;
                        }
                        // Mostly near the centre so that shapes form.
                        let p = if rng.gen_bool(0.8) {
                            let (cx, cy) = (w as i64 / 2, h as i64 / 2);
                            let x = (cx + rng.gen_range(-3..=3)).clamp(0, w as i64 - 1);
                            let y = (cy + rng.gen_range(-3..=3)).clamp(0, h as i64 - 1);
                            Pos::new(x as usize, y as usize)
                        } else {
                            empties[rng.gen_range(0..empties.len())]
                        };
                        if !b.is_empty(p) {
                            continue;
                        }
                        b.make(p);
                        ev.make(&b);
                        played += 1;
                    }
                    ev.verify(&b)
                        .unwrap_or_else(|e| panic!("{rule:?} {w}x{h}: {e}"));
                    assert_eq!(ev.evaluate(b.side_to_move()), evaluate(&b));
                }
            }
        }
    }
}
