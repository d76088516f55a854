use super::*;

/// A renju game record whose positions after the opening are quiet.
fn game() -> GameRecord {
    GameRecord::parse(
        "renju 15x15 black 3 h8 i9 g7 j10:-21 g9:35 h9:-10 f8:40 i7:-30 e9:15 j8:-5",
        1,
    )
    .unwrap()
}

fn samples(g: &GameRecord) -> Vec<NetSample> {
    let mut out = Vec::new();
    game_samples(g, groups_of(g.rule), &mut out);
    out
}

#[test]
fn a_sample_counts_every_empty_point_once_a_half() {
    let g = game();
    let s = samples(&g);
    assert_eq!(
        s.len(),
        g.moves.len() - g.opening,
        "every position is quiet"
    );
    for (k, x) in s.iter().enumerate() {
        let empties = 225 - (g.opening + k);
        let (mover, waiter) = x.feats.split_at(x.split as usize);
        let sum = |h: &[(u16, u16)]| h.iter().map(|&(_, c)| c as usize).sum::<usize>();
        assert_eq!(sum(mover), empties + 1, "the classes and the mask");
        assert_eq!(sum(waiter), empties);
        // Renju: the mover's rows lie in its colour's group, the waiter's in the other's.
        let group = |r: u16| r as usize / ROWS;
        let black_moves = (g.opening + k).is_multiple_of(2);
        assert!(mover
            .iter()
            .all(|&(r, _)| group(r) == !black_moves as usize));
        assert!(waiter
            .iter()
            .all(|&(r, _)| group(r) == black_moves as usize));
    }
}

/// The trainer's integer path is the engine's: the same value as the evaluator with the
/// same network, on every position of a game.
#[test]
fn the_quantised_evaluation_is_the_engines() {
    let g = game();
    let net: &'static RuleNet = Box::leak(Box::new(RuleNet::random(2, 11)));
    let mut board = Board::new(15, 15, Rule::Renju).unwrap();
    let s = samples(&g);
    for (i, &mv) in g.moves.iter().enumerate() {
        if i >= g.opening {
            let engine = Evaluator::with_network(&board, Some(net)).evaluate(board.side_to_move());
            assert_eq!(
                quantised_eval(net, &s[i - g.opening]),
                engine as f64,
                "move {i}"
            );
        }
        board.make(mv);
    }
}

/// The hand-written gradient equals the loss's finite differences, for the weight of each
/// kind with the largest gradient (an embedding the sample uses, the accumulator bias, both
/// layers) and for a fixed one of each.
#[test]
fn the_gradient_matches_finite_differences() {
    let s = &samples(&game())[3];
    let mut net = FloatNet::new(2, &vec![4.0; 2 * ROWS], 7);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    use rand::Rng;
    net.w2
        .iter_mut()
        .for_each(|w| *w = rng.gen_range(-1.0..1.0));
    let loss = |n: &FloatNet| {
        let x = s.base as f64 / EVAL_SCALE + n.forward(s).out as f64;
        bce(sigmoid(x), 0.7)
    };
    let p = net.forward(s);
    let q = sigmoid(s.base as f64 / EVAL_SCALE + p.out as f64);
    let mut g = Grad::new(2);
    net.backward(s, &p, (q - 0.7) as f32, &mut g);
    let row = s.feats[2].0 as usize;
    let row_grad = *g.row_for_test(row);
    let (bias0, w1, w2) = g.dense_for_test();
    let largest = |v: &[f32]| {
        (0..v.len())
            .max_by(|&a, &b| v[a].abs().total_cmp(&v[b].abs()))
            .unwrap()
    };
    let mut checked = 0;
    for (name, grads, which) in [
        ("embedding", &row_grad[..], 0),
        ("bias0", bias0, 1),
        ("w1", w1, 2),
        ("w2", w2, 3),
    ] {
        for i in [largest(grads), 3] {
            let h = 1e-3;
            let at = |n: &mut FloatNet, d: f32| match which {
                0 => n.embed[row * HIDDEN + i] += d,
                1 => n.bias0[i] += d,
                2 => n.w1[i] += d,
                _ => n.w2[i] += d,
            };
            let (mut plus, mut minus) = (net.clone(), net.clone());
            at(&mut plus, h);
            at(&mut minus, -h);
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * h as f64);
            let analytic = grads[i] as f64;
            assert!(
                (numeric - analytic).abs() < 1e-3 + 0.02 * numeric.abs(),
                "{name}[{i}]: numeric {numeric}, analytic {analytic}"
            );
            checked += (analytic.abs() > 1e-3) as usize;
        }
    }
    assert!(
        checked >= 4,
        "each kind's largest gradient is not zero: {checked}"
    );
}

/// Quantising keeps the evaluation within a few units of the float one (the rounding of
/// the weights and activations), on every sample of a game, where the network moves the
/// evaluation by hundreds of units.
#[test]
fn quantising_keeps_the_evaluation() {
    let s = samples(&game());
    let mut net = FloatNet::new(2, &vec![4.0; 2 * ROWS], 3);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(2);
    use rand::Rng;
    net.w2
        .iter_mut()
        .for_each(|w| *w = rng.gen_range(-2.0..2.0));
    let q = net.quantise();
    let (mut moved, mut diff) = (0.0, 0.0);
    for x in &s {
        let (f, i) = (float_eval(&net, x), quantised_eval(&q, x));
        assert!((f - i).abs() < 8.0, "float {f}, quantised {i}");
        diff += (f - i).abs() / s.len() as f64;
        moved += (f - x.base as f64).abs() / s.len() as f64;
    }
    assert!(diff < 5.0, "mean difference {diff}");
    assert!(moved > 100.0, "the network moves the evaluation: {moved}");
}
