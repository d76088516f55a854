//! Board benchmarks (issue: core rules): make + undo with the full pattern update, the same
//! with the incremental evaluation and an evaluation (tables alone, and with a network:
//! docs/network.md's cost gate), and the renju forbidden-point test, on mid-game 15x15
//! positions made by a fixed pseudo-random generator (deterministic).
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tianyuan::board::Board;
use tianyuan::core::{Pos, Rule};
use tianyuan::eval::network::RuleNet;
use tianyuan::eval::Evaluator;

/// A mid-game position: `stones` moves clustered around the centre, from a fixed seed,
/// skipping moves that would end the game.
fn midgame(rule: Rule, stones: usize, seed: u64) -> Board {
    let mut s = seed;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut b = Board::new(15, 15, rule).unwrap();
    let mut tries = 0;
    while b.ply() < stones && tries < 10_000 {
        tries += 1;
        let x = 3 + (next() % 9) as usize;
        let y = 3 + (next() % 9) as usize;
        let p = Pos::new(x, y);
        if b.is_empty(p) && b.result_of_move(p).is_none() {
            b.make(p);
        }
    }
    b
}

/// 16 mid-game boards of `rule` and the (board, move) pairs a loop visits: board by board
/// in turn, each board's moves in turn, until every move of the longest list was made once.
/// Precomputed, so that the loop measures make and undo rather than the divisions that
/// would pick the next pair.
fn boards_and_moves(rule: Rule) -> (Vec<Board>, Vec<(usize, Pos)>) {
    let boards: Vec<Board> = (0..16)
        .map(|i| midgame(rule, 40, 0x9E37_79B9 + i))
        .collect();
    let moves: Vec<Vec<Pos>> = boards
        .iter()
        .map(|b| b.empty_points().filter(|&p| b.near(p) > 0).collect())
        .collect();
    let longest = moves.iter().map(Vec::len).max().unwrap_or(0);
    let sequence = (0..longest * boards.len())
        .map(|i| {
            let k = i % boards.len();
            (k, moves[k][(i / boards.len()) % moves[k].len()])
        })
        .collect();
    (boards, sequence)
}

/// Make, evaluate and undo, with the evaluator's updates: the tables alone, then with a
/// network (random weights: the arithmetic costs the same as a trained network's).
fn bench_make_evaluate(c: &mut Criterion) {
    let rule = Rule::Renju;
    let (boards, sequence) = boards_and_moves(rule);
    let net: &'static RuleNet = Box::leak(Box::new(RuleNet::random(2, 1)));
    for (name, net) in [("tables", None), ("network", Some(net))] {
        c.bench_function(
            &format!("make_evaluate_undo_{}_{name}", rule.name()),
            |bench| {
                let mut boards = boards.clone();
                let mut evs: Vec<Evaluator> = boards
                    .iter()
                    .map(|b| Evaluator::with_network(b, net))
                    .collect();
                let mut i = 0usize;
                bench.iter(|| {
                    let (k, p) = sequence[i];
                    let (b, ev) = (&mut boards[k], &mut evs[k]);
                    b.make(black_box(p));
                    ev.make(b);
                    black_box(ev.evaluate(b.side_to_move()));
                    b.undo();
                    ev.undo();
                    i = (i + 1) % sequence.len();
                })
            },
        );
    }
}

/// The network's head alone, from a fixed accumulator.
fn bench_head(c: &mut Criterion) {
    let net = RuleNet::random(1, 2);
    let input: [i32; tianyuan::eval::network::INPUT] =
        std::array::from_fn(|i| ((i as i32 * 7919) % 200 - 60) << 6);
    c.bench_function("network_head", |bench| {
        bench.iter(|| tianyuan::eval::network::head(black_box(&net), black_box(&input)))
    });
}

fn bench_make_undo(c: &mut Criterion) {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let (boards, sequence) = boards_and_moves(rule);
        c.bench_function(&format!("make_undo_{}", rule.name()), |bench| {
            let mut boards = boards.clone();
            let mut i = 0usize;
            bench.iter(|| {
                let (k, p) = sequence[i];
                let b = &mut boards[k];
                b.make(black_box(p));
                b.undo();
                i += 1;
                if i == sequence.len() {
                    i = 0;
                }
            })
        });
    }
}

fn bench_forbidden(c: &mut Criterion) {
    let boards: Vec<Board> = (0..32)
        .map(|i| midgame(Rule::Renju, 36, 0xDEAD_BEEF + i))
        .collect();
    let points: Vec<Vec<Pos>> = boards
        .iter()
        .map(|b| b.empty_points().filter(|&p| b.near(p) > 0).collect())
        .collect();
    c.bench_function("forbidden_one_point", |bench| {
        let mut i = 0usize;
        bench.iter(|| {
            let k = i % boards.len();
            let p = points[k][(i / boards.len()) % points[k].len()];
            i += 1;
            black_box(boards[k].forbidden(black_box(p)))
        })
    });
    c.bench_function("forbidden_all_points", |bench| {
        let mut i = 0usize;
        bench.iter(|| {
            let k = i % boards.len();
            i += 1;
            black_box(boards[k].forbidden_points())
        })
    });
}

criterion_group!(
    benches,
    bench_make_undo,
    bench_make_evaluate,
    bench_head,
    bench_forbidden
);
criterion_main!(benches);
