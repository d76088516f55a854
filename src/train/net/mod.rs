//! `pbrain-tianyuan train-net`: fits the network evaluation (`docs/network.md`) to game
//! records, beside the table evaluation it corrects.
//!
//! The samples are the positions `tune` fits the tables on (the same quiet positions and
//! the same targets: the game's result blended with the recorded search score, `--lambda`).
//! The tables stay as they are: the network learns the correction added to their value,
//! starting from zero (its output weights start at zero), by Adam on mini-batches with the
//! cross-entropy loss of `sigmoid((tables + correction) / EVAL_SCALE)` against the target.
//! Every `--holdout`-th game is held out; the epoch with the lowest held-out loss is kept,
//! quantised, and its held-out loss reported beside the float network's and the tables'.
//! For a given seed and data the result does not depend on the number of threads: a batch
//! is cut into a fixed number of parts whose gradients are added in order.

pub mod model;

use super::data::GameRecord;
use super::target::{bce, is_quiet, sigmoid, Label, TargetArgs};
use super::TrainError;
use crate::board::Board;
use crate::core::{Color, Rule};
use crate::eval::features::{threat_mask, CANON_CODES};
use crate::eval::network::{self, Network, RuleNet, HIDDEN, INPUT, MASK_ROW, ROWS};
use crate::eval::{Evaluator, EVAL_LIMIT, EVAL_SCALE};
use clap::Args;
use model::{Adam, FloatNet, Grad, NetSample};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::path::Path;

/// Parts a batch is cut into for the threads (fixed, so that results do not depend on the
/// thread count).
const PARTS: usize = 8;

/// Arguments of `pbrain-tianyuan train-net`.
#[derive(Args, Debug, Clone)]
pub struct NetArgs {
    /// Game files (the `selfplay` format); a network is fitted for each rule found in them.
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// Output network file.
    #[arg(long)]
    pub out: String,
    /// Version number written into the file.
    #[arg(long, default_value_t = 1)]
    pub version: u32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions a gradient step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// Weight decay of the embeddings and the first layer (decoupled, AdamW): each step
    /// shrinks them by `lr * decay` of their value (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub decay: f64,
    /// The training target and the held-out games (as for `tune`; with `--holdout 0` the
    /// last epoch is kept).
    #[command(flatten)]
    pub target: TargetArgs,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Copy a rule's network into another rule after the fit: `TO=FROM`. Repeatable.
    #[arg(long = "copy", value_name = "TO=FROM")]
    pub copy: Vec<String>,
}

/// The figures of one rule's fit.
pub struct NetFit {
    /// Training and held-out positions.
    pub samples: (usize, usize),
    /// Per epoch: mean training loss, held-out loss.
    pub epochs: Vec<(f64, f64)>,
    /// The epoch kept (1-based; 0: none improved on the start).
    pub best: usize,
    /// Held-out losses `[against the targets, against the results]` of the tables alone,
    /// the float network and the quantised one.
    pub held: [[f64; 2]; 3],
}

/// Colour groups of a rule's network: renju's colours have embeddings of their own.
pub fn groups_of(rule: Rule) -> usize {
    if rule == Rule::Renju {
        2
    } else {
        1
    }
}

/// The sample of `board` (quiet, as [`is_quiet`] says), `counts` a zero scratch of
/// `groups * ROWS` entries (left zero).
fn sample(
    board: &Board,
    ev: &mut Evaluator,
    groups: usize,
    counts: &mut [u16],
    label: Label,
) -> NetSample {
    let (s, o) = (board.side_to_move(), board.side_to_move().opponent());
    let group = |c: Color| if groups == 2 { c.index() * ROWS } else { 0 };
    let mut feats: Vec<(u16, u16)> = Vec::with_capacity(128);
    let mut split = 0;
    // One half at a time: the same row may appear in both (colours that share a group).
    for c in [s, o] {
        let first = feats.len();
        let mut bump = |row: usize, feats: &mut Vec<(u16, u16)>| {
            if counts[row] == 0 {
                feats.push((row as u16, 0));
            }
            counts[row] += 1;
        };
        for p in board.empty_points() {
            let class = board.class(c, p) as usize;
            if class < CANON_CODES {
                bump(group(c) + class, &mut feats);
            }
        }
        if c == s {
            let mask = threat_mask(ev.counts(s), ev.counts(o));
            bump(group(s) + MASK_ROW + mask, &mut feats);
        }
        for f in &mut feats[first..] {
            f.1 = std::mem::take(&mut counts[f.0 as usize]);
        }
        if c == s {
            split = feats.len() as u16;
        }
    }
    NetSample {
        feats,
        split,
        base: ev.evaluate(s),
        label,
    }
}

/// The samples of one game for a network of `groups` colour groups.
fn game_samples(g: &GameRecord, groups: usize, out: &mut Vec<NetSample>) {
    let Ok(mut board) = Board::new(g.width, g.height, g.rule) else {
        return;
    };
    let mut counts = vec![0u16; groups * ROWS];
    for (i, &mv) in g.moves.iter().enumerate() {
        if i >= g.opening && board.is_empty(mv) {
            let mut ev = Evaluator::with_network(&board, None);
            if is_quiet(&board, &ev) {
                let label = Label::of(g, i, board.side_to_move());
                out.push(sample(&board, &mut ev, groups, &mut counts, label));
            }
        }
        if !board.is_empty(mv) {
            return;
        }
        board.make(mv);
    }
}

/// Mean losses `[against the targets, against the results]` of the prediction `eval`
/// (evaluation units) over `samples`, summed in a fixed order.
fn losses(samples: &[NetSample], eval: &(dyn Fn(&NetSample) -> f64 + Sync)) -> [f64; 2] {
    let parts: Vec<[f64; 2]> = samples
        .par_chunks(4096)
        .map(|part| {
            let mut sum = [0.0; 2];
            for s in part {
                let p = sigmoid(eval(s) / EVAL_SCALE);
                sum[0] += bce(p, s.label.target as f64);
                sum[1] += bce(p, s.label.result as f64);
            }
            sum
        })
        .collect();
    let n = samples.len().max(1) as f64;
    let total = parts
        .iter()
        .fold([0.0; 2], |a, b| [a[0] + b[0], a[1] + b[1]]);
    [total[0] / n, total[1] / n]
}

/// The float network's evaluation of `s` (evaluation units).
fn float_eval(net: &FloatNet, s: &NetSample) -> f64 {
    s.base as f64 + net.forward(s).out as f64 * EVAL_SCALE
}

/// The integer network's evaluation of `s`, exactly as the engine computes it.
fn quantised_eval(net: &RuleNet, s: &NetSample) -> f64 {
    let mut input = net.bias0;
    for (k, &(row, count)) in s.feats.iter().enumerate() {
        let half = if k < s.split as usize { 0 } else { HIDDEN };
        let e = &net.embed[row as usize * HIDDEN..][..HIDDEN];
        for (a, &v) in input[half..half + HIDDEN].iter_mut().zip(e) {
            *a += count as i32 * v as i32;
        }
    }
    let input: &[i32; INPUT] = &input;
    (s.base + network::head(net, input)).clamp(-EVAL_LIMIT, EVAL_LIMIT) as f64
}

/// The typical count of each embedding row in the samples (its mean where it appears).
fn row_scales(samples: &[NetSample], groups: usize) -> Vec<f32> {
    let mut sum = vec![(0f64, 0u32); groups * ROWS];
    for s in samples {
        for &(r, c) in &s.feats {
            sum[r as usize].0 += c as f64;
            sum[r as usize].1 += 1;
        }
    }
    sum.iter()
        .map(|&(t, n)| if n == 0 { 1.0 } else { (t / n as f64) as f32 })
        .collect()
}

/// One pass over `train` in the order `order`; returns the mean training loss.
fn epoch(
    net: &mut FloatNet,
    adam: &mut Adam,
    train: &[NetSample],
    order: &[u32],
    batch: usize,
    grads: &mut [Grad],
) -> f64 {
    let mut total = 0.0;
    for idx in order.chunks(batch) {
        let per = idx.len().div_ceil(PARTS);
        let scale = 1.0 / idx.len() as f32;
        let net_ref = &*net;
        let part_loss: Vec<f64> = grads
            .par_iter_mut()
            .zip(idx.par_chunks(per))
            .map(|(g, part)| {
                g.clear();
                let mut loss = 0.0;
                for &i in part {
                    let s = &train[i as usize];
                    let p = net_ref.forward(s);
                    let x = s.base as f64 / EVAL_SCALE + p.out as f64;
                    let q = sigmoid(x);
                    loss += bce(q, s.label.target as f64);
                    net_ref.backward(s, &p, (q - s.label.target as f64) as f32 * scale, g);
                }
                loss
            })
            .collect();
        let (first, rest) = grads.split_at_mut(1);
        for g in rest.iter().take(idx.len().div_ceil(per) - 1) {
            first[0].add(g);
        }
        adam.step(net, &first[0]);
        total += part_loss.iter().sum::<f64>();
    }
    total / order.len().max(1) as f64
}

/// Fits the network of `rule` to `games` (all of that rule); `log` gets each epoch's
/// number and losses (training, held out) as it ends.
pub fn fit_rule(
    rule: Rule,
    games: &[&GameRecord],
    args: &NetArgs,
    log: &mut dyn FnMut(usize, f64, f64),
) -> Result<(RuleNet, NetFit), TrainError> {
    let groups = groups_of(rule);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        let out = if args.target.held_out(i) {
            &mut held
        } else {
            &mut train
        };
        game_samples(g, groups, out);
    }
    if train.is_empty() {
        return Err(TrainError::BadArgument(format!(
            "no {} position to train on (every game held out, or no quiet position after the openings)",
            rule.name()
        )));
    }
    args.target.blend(&mut train, &mut held);
    let mut net = FloatNet::new(groups, &row_scales(&train, groups), args.seed);
    let mut adam = Adam::new(&net, args.lr as f32, args.decay as f32);
    let mut grads: Vec<Grad> = (0..PARTS).map(|_| Grad::new(groups)).collect();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(args.seed ^ 0x5eed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let tables = losses(&held, &|s| s.base as f64);
    let (mut best, mut best_loss, mut best_net) = (0, tables[0], net.clone());
    let mut epochs = Vec::new();
    for e in 1..=args.epochs {
        order.shuffle(&mut rng);
        let t = epoch(
            &mut net,
            &mut adam,
            &train,
            &order,
            args.batch.max(1),
            &mut grads,
        );
        let h = losses(&held, &|s| float_eval(&net, s))[0];
        log(e, t, h);
        epochs.push((t, h));
        if h < best_loss || held.is_empty() {
            (best, best_loss, best_net) = (e, h, net.clone());
        }
    }
    let quantised = best_net.quantise();
    let held_losses = [
        tables,
        losses(&held, &|s| float_eval(&best_net, s)),
        losses(&held, &|s| quantised_eval(&quantised, s)),
    ];
    let fit = NetFit {
        samples: (train.len(), held.len()),
        epochs,
        best,
        held: held_losses,
    };
    Ok((quantised, fit))
}

/// Checks the numeric arguments.
fn check(args: &NetArgs) -> Result<(), TrainError> {
    let bad = |m: &str| Err(TrainError::BadArgument(m.to_string()));
    if args.epochs == 0 {
        return bad("--epochs must be at least 1");
    }
    if args.batch == 0 {
        return bad("--batch must be at least 1");
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        return bad("--lr must be above 0 and below 1");
    }
    if !(args.decay >= 0.0 && args.lr * args.decay < 1.0) {
        return bad("--decay must be at least 0 and below 1 / --lr");
    }
    if !(0.0..=1.0).contains(&args.target.lambda) {
        return bad("--lambda must be between 0 and 1");
    }
    Ok(())
}

/// `train-net`: fits a network per rule found in the data and writes the file.
///
/// Errors: [`TrainError`] for bad arguments, unreadable or bad game files, data with no
/// game, a `--copy` from a rule without a network, and a file that cannot be written.
pub fn run(args: &NetArgs) -> Result<(), TrainError> {
    check(args)?;
    let games = super::read_game_files(&args.data)?;
    let copies = super::parse_copies(&args.copy)?;
    let fitted: Vec<Rule> = Rule::ALL
        .into_iter()
        .filter(|&r| games.iter().any(|g| g.rule == r))
        .collect();
    if fitted.is_empty() {
        return Err(TrainError::BadArgument(
            "no games in the data files".to_string(),
        ));
    }
    check_copies(&copies, &fitted)?;
    // The output is checked before the training, not after it.
    std::fs::write(&args.out, b"").map_err(|e| TrainError::Write {
        path: args.out.clone(),
        reason: Some(e),
    })?;
    let mut net = Network::empty(args.version);
    for &rule in &fitted {
        let of_rule: Vec<&GameRecord> = games.iter().filter(|g| g.rule == rule).collect();
        println!("{}: {} games", rule.name(), of_rule.len());
        let held_out = (0..of_rule.len()).any(|i| args.target.held_out(i));
        let (rule_net, fit) = fit_rule(rule, &of_rule, args, &mut |e, t, h| match held_out {
            true => println!("  epoch {e:>3}: train {t:.5} held-out {h:.5}"),
            false => println!("  epoch {e:>3}: train {t:.5}"),
        })?;
        report(&fit);
        net.rules[rule.index()] = Some(rule_net);
    }
    for (to, from) in copies {
        let n = net.rules[from.index()]
            .clone()
            .expect("checked by check_copies");
        let groups = groups_of(to);
        if n.groups != groups {
            let mut m = n.clone();
            m.groups = groups;
            m.embed = n.embed[..ROWS * HIDDEN].repeat(groups);
            net.rules[to.index()] = Some(m);
        } else {
            net.rules[to.index()] = Some(n);
        }
        println!("{}: network copied from {}", to.name(), from.name());
    }
    net.save(Path::new(&args.out))
        .map_err(|e| TrainError::Write {
            path: args.out.clone(),
            reason: Some(e),
        })?;
    println!("wrote {} (version {})", args.out, net.version);
    Ok(())
}

/// Checks `--copy TO=FROM` pairs, in order, against the rules the data fits: each FROM must
/// have a network by then (fitted, or copied by an earlier pair), and no TO may be a rule
/// with games of its own or its own FROM.
///
/// Errors: [`TrainError::BadArgument`] naming the pair.
fn check_copies(copies: &[(Rule, Rule)], fitted: &[Rule]) -> Result<(), TrainError> {
    let mut have = fitted.to_vec();
    for &(to, from) in copies {
        let pair = format!("--copy {}={}", to.name(), from.name());
        let why = if to == from {
            Some("a rule copied onto itself".to_string())
        } else if !have.contains(&from) {
            Some(format!(
                "no {} network (no {} games in the data)",
                from.name(),
                from.name()
            ))
        } else if fitted.contains(&to) {
            Some(format!("{} has games of its own in the data", to.name()))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(TrainError::BadArgument(format!("{pair}: {why}")));
        }
        have.push(to);
    }
    Ok(())
}

fn report(fit: &NetFit) {
    if fit.samples.1 == 0 {
        println!(
            "  {} positions, none held out: the last epoch is kept",
            fit.samples.0
        );
        return;
    }
    let [t, f, q] = fit.held;
    let kept = match fit.best {
        0 => "the start: no epoch lowered it".to_string(),
        e => format!("epoch {e}"),
    };
    println!(
        "  {} positions ({} held out); held-out loss against the targets: tables {:.5}, network {:.5} ({kept}), quantised {:.5} ({:+.2} % of the float); against the results: tables {:.5}, network {:.5}, quantised {:.5}",
        fit.samples.0 + fit.samples.1,
        fit.samples.1,
        t[0],
        f[0],
        q[0],
        100.0 * (q[0] - f[0]) / f[0].max(1e-12),
        t[1],
        f[1],
        q[1]
    );
}

#[cfg(test)]
mod tests;
