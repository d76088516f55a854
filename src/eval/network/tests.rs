use super::*;
use crate::core::Pos;
use crate::eval::Evaluator;

/// A position with shapes for both colours (freestyle or renju, 15x15).
fn position(rule: Rule) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for (x, y) in [
        (7, 7),
        (8, 8),
        (7, 8),
        (6, 6),
        (7, 6),
        (9, 9),
        (5, 7),
        (8, 6),
    ] {
        b.make(Pos::new(x, y));
    }
    b
}

#[test]
fn a_zero_network_is_the_table_evaluation() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let b = position(rule);
        let zero: &'static RuleNet = Box::leak(Box::new(RuleNet::zero(2)));
        let with = Evaluator::with_network(&b, Some(zero)).evaluate(b.side_to_move());
        let without = Evaluator::with_network(&b, None).evaluate(b.side_to_move());
        assert_eq!(with, without);
        assert_ne!(without, 0, "the position has a nonzero table value");
    }
}

#[test]
fn a_renju_network_holds_654_kb() {
    // 2 groups × (3 060 classes + 2 048 masks) × 32 × 2 bytes, the first layer 64 × 32 × 2,
    // the biases 64 + 32 + 1 of 4 bytes and the output weights 32 × 2.
    assert_eq!(RuleNet::zero(2).bytes(), 653_824 + 4_096 + 388 + 64);
    assert_eq!(RuleNet::zero(1).bytes(), 326_912 + 4_096 + 388 + 64);
}

#[test]
fn the_head_computes_by_hand() {
    // Every input saturates at 127 (1000 << 6 is far above EMBED_ONE); hidden unit 0 reads
    // input 0 with weight 1.0 and unit 1 reads input 1 with weight -0.5 plus a bias of 1.0:
    // unit 0 is 127 (1.0), unit 1 is (-127 * 2048 + 127 * 4096) >> 12 = 63. Output weights 10 and -4
    // evaluation units per unit activation and a bias of 3 units:
    // 3 + 10 * 127 / 127 - 4 * 63 / 127 = 11.02, truncated toward zero: 11.
    let mut n = RuleNet::zero(1);
    n.w1[0] = W1_ONE as i16;
    n.w1[INPUT + 1] = -(W1_ONE as i16) / 2;
    n.b1[1] = ACT_ONE * W1_ONE;
    n.w2[0] = (10 * W2_ONE) as i16;
    n.w2[1] = (-4 * W2_ONE) as i16;
    n.b2 = 3 * ACT_ONE * W2_ONE;
    let input = [1000 << EMBED_SHIFT; INPUT];
    assert_eq!(head_scalar(&n, &input), 11);
    // Inputs below zero switch the inputs off: unit 0 is 0, unit 1 its bias alone (127).
    let input = [-5; INPUT];
    assert_eq!(head_scalar(&n, &input), 3 + (-4 * 127) / 127);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx2_head_equals_the_scalar_one() {
    if !std::is_x86_feature_detected!("avx2") {
        return;
    }
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    let mut differed = 0;
    for seed in 0..20 {
        let n = RuleNet::random(1, seed);
        for _ in 0..200 {
            let mut input = [0i32; INPUT];
            input
                .iter_mut()
                .for_each(|v| *v = rng.gen_range(-300 * 64..=300 * 64));
            let scalar = head_scalar(&n, &input);
            // SAFETY: AVX2 is present (checked above).
            assert_eq!(unsafe { head_avx2(&n, &input) }, scalar);
            differed += (scalar != n.b2 / (ACT_ONE * W2_ONE)) as usize;
        }
    }
    assert!(
        differed > 3000,
        "the random inputs exercise the head: {differed}"
    );
}

#[test]
fn files_round_trip_and_refuse_damage() {
    let mut net = Network::empty(4);
    net.rules[Rule::Renju.index()] = Some(RuleNet::random(2, 1));
    net.rules[Rule::Freestyle.index()] = Some(RuleNet::random(1, 2));
    let b = net.to_bytes();
    assert_eq!(Network::from_bytes(&b).unwrap(), net);
    // 2 groups (renju) and 1 (freestyle) of ROWS rows of HIDDEN i16, plus the heads.
    let head = INPUT * 4 + HIDDEN * INPUT * 2 + HIDDEN * 4 + HIDDEN * 2 + 4;
    assert_eq!(
        b.len(),
        8 + 16 + 2 * 4 + 3 * ROWS * HIDDEN * 2 + 2 * head + 8
    );
    for at in [13, 30, 5000, b.len() - 9] {
        let mut c = b.clone();
        c[at] ^= 4;
        assert!(matches!(
            Network::from_bytes(&c),
            Err(crate::eval::weights::WeightsError::Checksum { .. })
        ));
    }
    assert_eq!(
        Network::from_bytes(&b[..b.len() - 1]).unwrap_err(),
        crate::eval::weights::WeightsError::Checksum {
            expected: u64::from_le_bytes(b[b.len() - 9..b.len() - 1].try_into().unwrap()),
            found: crate::eval::weights::fnv1a(&b[..b.len() - 9]),
        }
    );
    assert!(matches!(
        Network::from_bytes(b"TYWEIGHT\x01\0\0\0"),
        Err(crate::eval::weights::WeightsError::BadMagic)
    ));
}

#[test]
fn the_correction_moves_the_evaluation() {
    let b = position(Rule::Renju);
    let net: &'static RuleNet = Box::leak(Box::new(RuleNet::random(2, 9)));
    let mut ev = Evaluator::with_network(&b, Some(net));
    let mut tables = Evaluator::with_network(&b, None);
    let side = b.side_to_move();
    let sums = net.sums(&b);
    let mask =
        crate::eval::features::threat_mask(tables.counts(side), tables.counts(side.opponent()));
    let correction = net.correction(&sums, side, mask);
    assert_ne!(correction, 0);
    assert_eq!(ev.evaluate(side), tables.evaluate(side) + correction);
}

#[test]
fn the_built_in_networks_load_and_cover_the_documented_rules() {
    // docs/network.md §3 lists the rules the built-in file covers; update both together.
    let covered: &[Rule] = &[];
    let n = Network::from_bytes(DEFAULT_NETWORK).expect("weights/tianyuan.tyn is valid");
    for rule in Rule::ALL {
        let net = n.rules[rule.index()].as_ref();
        assert_eq!(net.is_some(), covered.contains(&rule), "{}", rule.name());
        if let Some(net) = net {
            assert_eq!(net.groups, if rule == Rule::Renju { 2 } else { 1 });
        }
    }
}
