//! The incremental evaluator equals a recomputation after any sequence of moves and takebacks,
//! for every rule and several board sizes, with the tables alone and with a network.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tianyuan::board::Board;
use tianyuan::core::{Pos, Rule};
use tianyuan::eval::network::RuleNet;
use tianyuan::eval::{evaluate, Evaluator};

#[test]
fn incremental_matches_full_recomputation() {
    random_walks(7, 6, &|b| Evaluator::new(b), &|b| evaluate(b));
}

#[test]
fn incremental_network_matches_full_recomputation() {
    let nets: [&'static RuleNet; 2] = [1, 2].map(|g| &*Box::leak(Box::new(RuleNet::random(g, 5))));
    let net = |b: &Board| Some(nets[(b.rule() == Rule::Renju) as usize]);
    random_walks(8, 2, &|b| Evaluator::with_network(b, net(b)), &|b| {
        Evaluator::with_network(b, net(b)).evaluate(b.side_to_move())
    });
}

/// Random games with takebacks (`games` per rule and size), the evaluator made by `make`
/// checked after every step against its recomputation and at random steps against `full`.
fn random_walks(
    seed: u64,
    games: usize,
    make: &dyn Fn(&Board) -> Evaluator,
    full: &dyn Fn(&Board) -> i32,
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for rule in Rule::ALL {
        for (w, h) in [(15, 15), (20, 20), (7, 9), (22, 22)] {
            for _game in 0..games {
                let mut b = Board::new(w, h, rule).unwrap();
                let mut ev = make(&b);
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
                    // Evaluated at some steps only, so that a network's sums are brought up
                    // to date over several moves and takebacks at once (they are lazy).
                    if rng.gen_bool(0.5) {
                        assert_eq!(ev.evaluate(b.side_to_move()), full(&b));
                    }
                }
            }
        }
    }
}
