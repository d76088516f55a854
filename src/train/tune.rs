//! `pbrain-tianyuan tune`: fits the evaluation and move-ordering tables to self-play games
//! (`docs/training.md` §5).
//!
//! **Evaluation.** Every position after the opening in which the evaluation would be asked
//! (the side to move has no five point, the opponent has none, and no unstoppable straight
//! four is on the board) becomes one sample: its features are the counts of each canonical
//! code per colour and role ([`crate::eval::features`]) and its threat mask, so the
//! evaluation is linear in the table values. The loss is the logistic (cross-entropy) loss
//! between `sigmoid(eval / EVAL_SCALE)` and the target: the game's result for the side to
//! move (1, 0.5, 0), optionally blended with the recorded search score (`--lambda`).
//! Rare codes are held near a prior by an L2 penalty: first the tables are fitted in a
//! factorised form (a value per line pattern and per combo for each role, a value per mask
//! bit), then every entry is fitted freely with the L2 penalty pulling it toward the
//! factorised fit.
//!
//! **Move ordering.** For every searched move, a softmax over the candidate points of
//! `(attack[code of the mover] + defence[code of the opponent]) / ORDER_TEMPERATURE`, with
//! cross-entropy against the move the search played.
//!
//! Optimiser: full-batch L-BFGS; games are split into training and held-out sets by number
//! (`--holdout`), and both losses are printed as the fit goes.
//!
//! Colours share their tables under freestyle, standard and caro (the rules are the same for
//! both colours, and colour-specific play is expressed through the side-to-move roles);
//! renju fits black and white separately.

use super::data::GameRecord;
use super::target::{fit_scale, is_quiet, Label, Labelled, TargetArgs};
use super::TrainError;
use crate::board::{Board, Combo, Pattern};
use crate::core::{Color, Rule};
use crate::eval::features::{self, canon, CANON_CODES, CANON_PATTERNS, MASKS};
use crate::eval::weights::{Kind, Weights};
use crate::eval::{Evaluator, EVAL_SCALE};
use clap::Args;
use rayon::prelude::*;
use std::path::Path;

mod loss;
use loss::*;

/// Ordering-score units per logit of the move-ordering softmax.
pub const ORDER_TEMPERATURE: f64 = 100.0;

/// Arguments of `pbrain-tianyuan tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// Game files (the `selfplay` format); the rules found in them are fitted.
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// Weights to start from and to keep for rules without data (default: the built-in;
    /// `prior`: the hand-set prior).
    #[arg(long)]
    pub base: Option<String>,
    /// Start every fitted rule from the hand-set prior instead of the base weights.
    #[arg(long)]
    pub from_prior: bool,
    /// Output weights file.
    #[arg(long)]
    pub out: String,
    /// Version number written into the weights.
    #[arg(long, default_value_t = 1)]
    pub version: u32,
    /// L-BFGS iterations of the factorised fit (0 skips it).
    #[arg(long, default_value_t = 100)]
    pub factor_iters: usize,
    /// L-BFGS iterations of the full fit (and of the move-ordering fit).
    #[arg(long, default_value_t = 200)]
    pub iters: usize,
    /// L2 penalty toward the factorised fit (with `--factor-iters 0`: toward the starting
    /// weights), per sample (larger holds rare codes closer).
    #[arg(long, default_value_t = 1e-8)]
    pub l2: f64,
    /// The training target and the held-out games.
    #[command(flatten)]
    pub target: TargetArgs,
    /// Copy a rule's tables (both colours, after the fit) into another rule: `TO=FROM`, e.g.
    /// `standard=freestyle`. Repeatable; see docs/training.md §5 for when rules share.
    #[arg(long = "copy", value_name = "TO=FROM")]
    pub copy: Vec<String>,
    /// Skip the move-ordering fit.
    #[arg(long)]
    pub no_order: bool,
    /// The move the ordering tables learn to rank first: `played` (the game's move) or
    /// `best` (the labelling engine's move, `>point` in the records, docs/training.md §1;
    /// the played move where a record has none).
    #[arg(long, value_enum, default_value_t = OrderTarget::Played)]
    pub order_target: OrderTarget,
}

/// Which move of a position the move-ordering fit treats as the right one.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderTarget {
    /// The move played in the game.
    Played,
    /// The labelling engine's move, where the record has one.
    Best,
}

/// The hand-set prior of a canonical code: the old point score (line-pattern weights and
/// combo bonus), zero for a point with no stone near it.
fn prior_base(idx: usize, rule: Rule, color: Color) -> f64 {
    use crate::board::combo::{combine, combo_bonus, pattern_weight};
    let pats = CANON_PATTERNS[idx];
    let combo = combine(pats, rule.has_forbidden(color));
    if combo == Combo::Forbidden {
        return 0.0;
    }
    let s: i32 = pats.iter().map(|&p| pattern_weight(p)).sum::<i32>() + combo_bonus(combo);
    (s - 4 * pattern_weight(Pattern::One)) as f64
}

fn order_prior(c: Combo, attack: bool) -> f64 {
    let (a, d) = match c {
        Combo::Forbidden => (-20000, 0),
        Combo::None => (0, 0),
        Combo::Two => (40, 30),
        Combo::DoubleTwo => (90, 70),
        Combo::ClosedThree => (60, 40),
        Combo::Three => (200, 150),
        Combo::ThreePlus => (260, 190),
        Combo::Four => (240, 120),
        Combo::FourPlus => (300, 160),
        Combo::DoubleThree => (900, 700),
        Combo::FourThree => (2000, 1500),
        Combo::Flex4 => (5000, 3000),
        Combo::Five => (20000, 15000),
    };
    if attack {
        a as f64
    } else {
        d as f64
    }
}

/// The hand-set prior weights (version 0): the old point scores as evaluation values and
/// the old ordering values, no threat values.
pub fn prior_weights() -> Weights {
    let mut w = Weights::zero(0, EVAL_SCALE as u32);
    for rule in Rule::ALL {
        for color in [Color::Black, Color::White] {
            let cw = w.get_mut(rule, color);
            for idx in 0..CANON_CODES {
                let b = prior_base(idx, rule, color);
                let combo = combine_idx(idx, rule, color);
                cw.table_mut(Kind::Mover)[idx] = clamp16(1.5 * b);
                cw.table_mut(Kind::Waiter)[idx] = clamp16(-1.25 * b);
                cw.table_mut(Kind::Attack)[idx] = clamp16(order_prior(combo, true) + b / 4.0);
                cw.table_mut(Kind::Defence)[idx] = clamp16(order_prior(combo, false) + b / 4.0);
            }
        }
    }
    w
}

fn combine_idx(idx: usize, rule: Rule, color: Color) -> Combo {
    crate::board::combo::combine(CANON_PATTERNS[idx], rule.has_forbidden(color))
}

fn clamp16(v: f64) -> i16 {
    v.round().clamp(-32000.0, 32000.0) as i16
}

/// Parameter layout of one rule: per colour group, the five tables in [`Kind::ALL`] order.
#[derive(Clone, Copy, Debug)]
struct Layout {
    groups: usize,
}

const GROUP: usize = 4 * CANON_CODES + MASKS;

impl Layout {
    fn of(rule: Rule) -> Layout {
        Layout {
            groups: if rule == Rule::Renju { 2 } else { 1 },
        }
    }
    fn len(self) -> usize {
        self.groups * GROUP
    }
    fn group(self, c: Color) -> usize {
        if self.groups == 2 {
            c.index()
        } else {
            0
        }
    }
    fn offset(self, c: Color, k: Kind) -> usize {
        let base = self.group(c) * GROUP;
        base + match k {
            Kind::Mover => 0,
            Kind::Waiter => CANON_CODES,
            Kind::Threat => 2 * CANON_CODES,
            Kind::Attack => 2 * CANON_CODES + MASKS,
            Kind::Defence => 3 * CANON_CODES + MASKS,
        }
    }
}

/// One evaluation sample: sparse feature counts and a target.
struct EvalSample {
    feats: Vec<(u32, u16)>,
    /// The result, the recorded score and the target.
    label: Label,
    /// The hand-set evaluation of the position (a reference predictor).
    hand: i32,
}

impl Labelled for EvalSample {
    fn label(&mut self) -> &mut Label {
        &mut self.label
    }
}

/// One move-ordering sample: the candidates' (attack, defence) parameter indices and the
/// index of the move played among them.
struct OrderSample {
    cands: Vec<(u32, u32)>,
    played: u32,
}

#[derive(Default)]
struct Samples {
    eval: Vec<EvalSample>,
    order: Vec<OrderSample>,
}

/// Extracts the samples of one game; the ordering samples' right move is `target`'s.
fn game_samples(g: &GameRecord, lay: Layout, target: OrderTarget, out: &mut Samples) {
    let Ok(mut board) = Board::new(g.width, g.height, g.rule) else {
        return;
    };
    let mut counts: Vec<u16> = vec![0; lay.len()];
    let mut touched: Vec<u32> = Vec::new();
    for (i, &mv) in g.moves.iter().enumerate() {
        if i >= g.opening && board.is_empty(mv) {
            let s = board.side_to_move();
            let o = s.opponent();
            let ev = Evaluator::new(&board);
            if is_quiet(&board, &ev) {
                touched.clear();
                let mut bump = |idx: usize, counts: &mut Vec<u16>| {
                    if counts[idx] == 0 {
                        touched.push(idx as u32);
                    }
                    counts[idx] += 1;
                };
                let (ms, wo) = (lay.offset(s, Kind::Mover), lay.offset(o, Kind::Waiter));
                for p in board.empty_points() {
                    bump(ms + canon(board.code(s, p)), &mut counts);
                    bump(wo + canon(board.code(o, p)), &mut counts);
                }
                let mask = features::threat_mask(ev.counts(s), ev.counts(o));
                bump(lay.offset(s, Kind::Threat) + mask, &mut counts);
                let feats = touched
                    .iter()
                    .map(|&t| {
                        let c = counts[t as usize];
                        counts[t as usize] = 0;
                        (t, c)
                    })
                    .collect();
                let hand = crate::eval::combine(board.score(s), board.score(o));
                out.eval.push(EvalSample {
                    feats,
                    label: Label::of(g, i, s),
                    hand,
                });
            }
            if ev.five_points(s) == 0 {
                let right = match target {
                    OrderTarget::Best => g.best.get(i).copied().flatten().unwrap_or(mv),
                    OrderTarget::Played => mv,
                };
                let (at, de) = (lay.offset(s, Kind::Attack), lay.offset(s, Kind::Defence));
                let mut cands = Vec::new();
                let mut played = None;
                for (y, &row) in board.candidate_rows().iter().enumerate().take(g.height) {
                    let mut bits = row;
                    while bits != 0 {
                        let x = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let p = crate::core::Pos::new(x, y);
                        let mc = board.code(s, p);
                        if board.combo(s, p) == Combo::Forbidden {
                            continue;
                        }
                        if p == right {
                            played = Some(cands.len() as u32);
                        }
                        cands.push((
                            (at + canon(mc)) as u32,
                            (de + canon(board.code(o, p))) as u32,
                        ));
                    }
                }
                if let Some(played) = played {
                    if cands.len() > 1 {
                        out.order.push(OrderSample { cands, played });
                    }
                }
            }
        }
        if !board.is_empty(mv) {
            return;
        }
        board.make(mv);
    }
}

/// The factorised form of a rule's evaluation tables: per group and role a value per line
/// pattern and per combo, and per group a value per mask bit.
struct Factors {
    lay: Layout,
    rule: Rule,
    /// Per group: [role][pattern 15 + combo 13], then 11 mask bits.
    f: Vec<f64>,
}

/// Factors per role: one per pattern, one per combo.
const FROLE: usize = features::PATTERNS + 13;
const FPER: usize = 2 * FROLE + 11;

impl Factors {
    fn new(lay: Layout, rule: Rule) -> Factors {
        Factors {
            lay,
            rule,
            f: vec![0.0; lay.groups * FPER],
        }
    }
    fn group_color(&self, g: usize) -> Color {
        if g == 1 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// Full table values from the factors (evaluation tables only).
    fn expand(&self, theta: &mut [f64]) {
        for g in 0..self.lay.groups {
            let c = self.group_color(g);
            let f = &self.f[g * FPER..(g + 1) * FPER];
            for (r, kind) in [Kind::Mover, Kind::Waiter].into_iter().enumerate() {
                let off = self.lay.offset(c, kind);
                for idx in 0..CANON_CODES {
                    let pats = CANON_PATTERNS[idx];
                    let combo = combine_idx(idx, self.rule, c);
                    let v: f64 = pats.iter().map(|&p| f[r * FROLE + p as usize]).sum::<f64>()
                        + f[r * FROLE + features::PATTERNS + combo as usize];
                    theta[off + idx] = v;
                }
            }
            let off = self.lay.offset(c, Kind::Threat);
            for mask in 0..MASKS {
                theta[off + mask] = (0..11)
                    .filter(|b| mask >> b & 1 == 1)
                    .map(|b| f[2 * FROLE + b])
                    .sum();
            }
        }
    }
    /// The gradient of the factors from the gradient of the full tables.
    fn project(&self, grad: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.f.len()];
        for g in 0..self.lay.groups {
            let c = self.group_color(g);
            let o = &mut out[g * FPER..(g + 1) * FPER];
            for (r, kind) in [Kind::Mover, Kind::Waiter].into_iter().enumerate() {
                let off = self.lay.offset(c, kind);
                for idx in 0..CANON_CODES {
                    let gv = grad[off + idx];
                    if gv == 0.0 {
                        continue;
                    }
                    for &p in &CANON_PATTERNS[idx] {
                        o[r * FROLE + p as usize] += gv;
                    }
                    o[r * FROLE + features::PATTERNS + combine_idx(idx, self.rule, c) as usize] +=
                        gv;
                }
            }
            let off = self.lay.offset(c, Kind::Threat);
            for mask in 0..MASKS {
                let gv = grad[off + mask];
                for b in 0..11 {
                    if mask >> b & 1 == 1 {
                        o[2 * FROLE + b] += gv;
                    }
                }
            }
        }
        out
    }
}

/// What a fit reports per epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Which stage: `factor`, `eval` or `order`.
    pub stage: &'static str,
    /// Epoch number from 1.
    pub epoch: usize,
    /// Mean training loss.
    pub train: f64,
    /// Mean held-out loss.
    pub held_out: f64,
}

/// The result of fitting one rule.
pub struct RuleFit {
    /// Per epoch losses.
    pub reports: Vec<EpochReport>,
    /// Loss of the starting weights (train, held out) for evaluation and ordering.
    pub start: [(f64, f64); 2],
    /// Loss of the fitted weights.
    pub end: [(f64, f64); 2],
    /// Training and held-out sample counts (evaluation).
    pub samples: (usize, usize),
    /// Held-out loss of the fitted evaluation against the results alone.
    pub result_loss: f64,
    /// Held-out loss against the results of the recorded search scores and of the hand-set
    /// evaluation, each with its fitted scale (reference predictors).
    pub references: [f64; 2],
    /// The fitted scales of the recorded scores and of the hand-set evaluation.
    pub scales: (f64, f64),
}

/// Mean held-out loss of the evaluation against the game results only.
fn result_loss(samples: &[&EvalSample], theta: &[f64]) -> f64 {
    let mut sum = 0.0;
    for s in samples {
        sum += bce(
            sigmoid(linear_eval(s, theta) / EVAL_SCALE),
            s.label.result as f64,
        );
    }
    sum / samples.len().max(1) as f64
}

/// The samples of one rule's fit, split into training and held-out sets, each as
/// references for the loss functions.
struct FitSets<'s> {
    train_eval: Vec<&'s EvalSample>,
    held_eval: Vec<&'s EvalSample>,
    train_order: Vec<&'s OrderSample>,
    held_order: Vec<&'s OrderSample>,
}

impl FitSets<'_> {
    /// Evaluation and ordering losses of `theta`: `[(train, held out); 2]`.
    fn losses(&self, theta: &[f64]) -> [(f64, f64); 2] {
        [
            (
                eval_loss(&self.train_eval, theta, None),
                eval_loss(&self.held_eval, theta, None),
            ),
            (
                order_loss(&self.train_order, theta, None),
                order_loss(&self.held_order, theta, None),
            ),
        ]
    }
}

/// Whether parameter `i` of a [`Layout`] belongs to the evaluation (else to move ordering).
fn is_eval_param(i: usize) -> bool {
    i % GROUP < 2 * CANON_CODES + MASKS
}

/// Fits the tables of `rule` in `weights` to `games` (all of that rule). `log` receives each
/// epoch's report as it ends.
pub fn fit_rule(
    weights: &mut Weights,
    rule: Rule,
    games: &[&GameRecord],
    args: &TuneArgs,
    log: &mut dyn FnMut(&EpochReport),
) -> RuleFit {
    let lay = Layout::of(rule);
    let (mut train, mut held) = (Samples::default(), Samples::default());
    for (i, g) in games.iter().enumerate() {
        let out = if args.target.held_out(i) {
            &mut held
        } else {
            &mut train
        };
        game_samples(g, lay, args.order_target, out);
    }
    // The recorded search scores' scale, the blended targets and the reference losses.
    let score_scale = args.target.blend(&mut train.eval, &mut held.eval);
    let hand_scale = fit_scale(train.eval.iter().map(|s| (s.hand, s.label.result)));
    let references = reference_losses(&held.eval, score_scale, hand_scale);
    let sets = FitSets {
        train_eval: train.eval.iter().collect(),
        held_eval: held.eval.iter().collect(),
        train_order: train.order.iter().collect(),
        held_order: held.order.iter().collect(),
    };
    let mut theta = tables_to_params(weights, rule, lay);
    let start = sets.losses(&theta);
    let mut reports = Vec::new();
    let mut report = |r: EpochReport| {
        log(&r);
        reports.push(r);
    };
    let every = (args.iters / 10).max(1);
    // Stage 1: the factorised evaluation, from zero; stage 2: every entry, with the L2
    // penalty toward the factorised fit (the starting weights when stage 1 was skipped).
    let mut prior = theta.clone();
    if args.factor_iters > 0 && !sets.train_eval.is_empty() {
        fit_factors(
            &mut theta,
            lay,
            rule,
            &sets,
            args.factor_iters,
            every,
            &mut report,
        );
        prior.clone_from(&theta);
    }
    if args.iters > 0 && !sets.train_eval.is_empty() {
        fit_entries(&mut theta, &prior, &sets, args, every, &mut report);
    }
    if !args.no_order && !sets.train_order.is_empty() {
        fit_order(&mut theta, &sets, args, every, &mut report);
    }
    let end = sets.losses(&theta);
    params_to_tables(weights, rule, lay, &theta);
    RuleFit {
        reports,
        start,
        end,
        samples: (train.eval.len(), held.eval.len()),
        result_loss: result_loss(&sets.held_eval, &theta),
        references,
        scales: (score_scale, hand_scale),
    }
}

/// Held-out loss against the results of the reference predictors: the recorded search
/// scores (scale `score_scale`) and the hand-set evaluation (scale `hand_scale`).
fn reference_losses(held: &[EvalSample], score_scale: f64, hand_scale: f64) -> [f64; 2] {
    let reference = |f: &dyn Fn(&EvalSample) -> Option<f64>| {
        let (mut sum, mut n) = (0.0, 0usize);
        for s in held {
            if let Some(p) = f(s) {
                sum += bce(p, s.label.result as f64);
                n += 1;
            }
        }
        sum / n.max(1) as f64
    };
    [
        reference(&|s| s.label.score.map(|v| sigmoid(v as f64 / score_scale))),
        reference(&|s| Some(sigmoid(s.hand as f64 / hand_scale))),
    ]
}

/// The tables of `rule` in `weights` as the parameters of `lay`.
fn tables_to_params(weights: &Weights, rule: Rule, lay: Layout) -> Vec<f64> {
    let mut theta = vec![0.0; lay.len()];
    for g in 0..lay.groups {
        let c = if g == 1 { Color::White } else { Color::Black };
        let cw = weights.get(rule, c);
        for k in Kind::ALL {
            let off = lay.offset(c, k);
            for (i, &v) in cw.table(k).iter().enumerate() {
                theta[off + i] = v as f64;
            }
        }
    }
    theta
}

/// The parameters back into the tables of `rule` (both colours when they share).
fn params_to_tables(weights: &mut Weights, rule: Rule, lay: Layout, theta: &[f64]) {
    for c in [Color::Black, Color::White] {
        let cw = weights.get_mut(rule, c);
        for k in Kind::ALL {
            let off = lay.offset(c, k);
            for (i, v) in cw.table_mut(k).iter_mut().enumerate() {
                *v = clamp16(theta[off + i]);
            }
        }
    }
}

/// Stage 1: the factorised evaluation fitted from zero for `iters` iterations, expanded
/// into `theta`; a report every `every` iterations.
fn fit_factors(
    theta: &mut [f64],
    lay: Layout,
    rule: Rule,
    sets: &FitSets,
    iters: usize,
    every: usize,
    report: &mut dyn FnMut(EpochReport),
) {
    let mut fac = Factors::new(lay, rule);
    let mut full = theta.to_vec();
    let mut g = Vec::new();
    let mut x = fac.f.clone();
    lbfgs(
        &mut x,
        iters,
        &mut |x: &[f64], grad: &mut Vec<f64>| {
            fac.f.copy_from_slice(x);
            fac.expand(&mut full);
            let l = eval_loss(&sets.train_eval, &full, Some(&mut g));
            *grad = fac.project(&g);
            l
        },
        &mut |it, l, x| {
            if it % every == 0 {
                let mut t = theta.to_vec();
                Factors {
                    lay,
                    rule,
                    f: x.to_vec(),
                }
                .expand(&mut t);
                report(EpochReport {
                    stage: "factor",
                    epoch: it,
                    train: l,
                    held_out: eval_loss(&sets.held_eval, &t, None),
                });
            }
        },
    );
    fac.f.copy_from_slice(&x);
    fac.expand(theta);
}

/// Stage 2: every evaluation entry, pulled toward `prior` by the L2 penalty.
fn fit_entries(
    theta: &mut Vec<f64>,
    prior: &[f64],
    sets: &FitSets,
    args: &TuneArgs,
    every: usize,
    report: &mut dyn FnMut(EpochReport),
) {
    let l2 = args.l2;
    let mut x = theta.clone();
    lbfgs(
        &mut x,
        args.iters,
        &mut |x: &[f64], grad: &mut Vec<f64>| {
            let l = eval_loss(&sets.train_eval, x, Some(grad));
            l + l2_pull(x, grad, prior, l2, is_eval_param)
        },
        &mut |it, l, x| {
            if it % every == 0 {
                report(EpochReport {
                    stage: "eval",
                    epoch: it,
                    train: l,
                    held_out: eval_loss(&sets.held_eval, x, None),
                });
            }
        },
    );
    *theta = x;
}

/// The move-ordering entries, pulled toward their starting values.
fn fit_order(
    theta: &mut Vec<f64>,
    sets: &FitSets,
    args: &TuneArgs,
    every: usize,
    report: &mut dyn FnMut(EpochReport),
) {
    let start = theta.clone();
    // Ordering scores are in much larger units: a far weaker pull toward the start.
    let l2 = args.l2 * 1e-3;
    let mut x = theta.clone();
    lbfgs(
        &mut x,
        args.iters.max(args.factor_iters).max(1),
        &mut |x: &[f64], grad: &mut Vec<f64>| {
            let l = order_loss(&sets.train_order, x, Some(grad));
            l + l2_pull(x, grad, &start, l2, |i| !is_eval_param(i))
        },
        &mut |it, l, x| {
            if it % every == 0 {
                report(EpochReport {
                    stage: "order",
                    epoch: it,
                    train: l,
                    held_out: order_loss(&sets.held_order, x, None),
                });
            }
        },
    );
    *theta = x;
}

/// Runs `tune`. Errors: unreadable or bad game and weights files, bad `--copy` arguments,
/// an unwritable output file ([`TrainError`]).
pub fn run(args: &TuneArgs) -> Result<(), TrainError> {
    let games = super::read_game_files(&args.data)?;
    let mut weights = match &args.base {
        Some(p) if p == "prior" => prior_weights(),
        Some(p) => Weights::load(Path::new(p))?,
        None => crate::eval::weights::active().clone(),
    };
    let copies = super::parse_copies(&args.copy)?;
    let prior = prior_weights();
    weights.version = args.version;
    weights.scale = EVAL_SCALE as u32;
    for rule in Rule::ALL {
        let of_rule: Vec<&GameRecord> = games.iter().filter(|g| g.rule == rule).collect();
        if of_rule.is_empty() {
            continue;
        }
        if args.from_prior {
            for c in [Color::Black, Color::White] {
                *weights.get_mut(rule, c) = prior.get(rule, c).clone();
            }
        }
        println!("{}: {} games", rule.name(), of_rule.len());
        let fit = fit_rule(&mut weights, rule, &of_rule, args, &mut |r| {
            println!(
                "  {:<6} iteration {:>3}: train {:.5} held-out {:.5}",
                r.stage, r.epoch, r.train, r.held_out
            );
        });
        println!(
            "  held-out loss against results: fitted evaluation {:.5}; references: recorded search scores {:.5} (scale {:.0}), hand-set evaluation {:.5} (scale {:.0})",
            fit.result_loss, fit.references[0], fit.scales.0, fit.references[1], fit.scales.1
        );
        println!(
            "  {} evaluation samples ({} held out); evaluation loss train {:.5} -> {:.5}, held-out {:.5} -> {:.5}; ordering loss train {:.4} -> {:.4}, held-out {:.4} -> {:.4}",
            fit.samples.0 + fit.samples.1,
            fit.samples.1,
            fit.start[0].0,
            fit.end[0].0,
            fit.start[0].1,
            fit.end[0].1,
            fit.start[1].0,
            fit.end[1].0,
            fit.start[1].1,
            fit.end[1].1
        );
    }
    for &(to, from) in &copies {
        for c in [Color::Black, Color::White] {
            *weights.get_mut(to, c) = weights.get(from, c).clone();
        }
        println!("{}: tables copied from {}", to.name(), from.name());
    }
    if let Err(e) = weights.save(Path::new(&args.out)) {
        return Err(TrainError::Write {
            path: args.out.clone(),
            reason: Some(e),
        });
    }
    println!("wrote {} (version {})", args.out, weights.version);
    Ok(())
}

/// Writes the hand-set prior weights to `path` (bootstrapping a weights file).
pub fn write_prior(path: &Path) -> std::io::Result<()> {
    prior_weights().save(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::target::blend_targets;

    fn sample(score: i32, result: f32) -> EvalSample {
        EvalSample {
            feats: Vec::new(),
            label: Label {
                target: result,
                result,
                score: Some(score),
            },
            hand: 0,
        }
    }

    /// With `--order-target best` the ordering sample's right move is the labelling
    /// engine's move; without one in the record, the played move.
    #[test]
    fn order_target_picks_the_teachers_move() {
        let lay = Layout::of(Rule::Freestyle);
        let right = |line: &str, target: OrderTarget| {
            let g = GameRecord::parse(line, 1).unwrap();
            let mut out = Samples::default();
            game_samples(&g, lay, target, &mut out);
            assert_eq!(out.order.len(), 2, "{line}");
            out.order.iter().map(|o| o.played).collect::<Vec<_>>()
        };
        let labelled = "freestyle 15x15 black 1 h8 i9:-5>g7 h10:20>h9";
        let plain = "freestyle 15x15 black 1 h8 i9:-5 h10:20";
        let played = right(plain, OrderTarget::Played);
        assert_eq!(right(plain, OrderTarget::Best), played);
        assert_eq!(right(labelled, OrderTarget::Played), played);
        let best = right(labelled, OrderTarget::Best);
        assert_ne!(best[0], played[0]);
        assert_ne!(best[1], played[1]);
    }

    /// Positions scored as proven wins that the games did not all convert: uncapped, the
    /// target is a certainty; capped, it stays a strong prediction below 1, and ordinary
    /// scores keep their order.
    #[test]
    fn score_cap_keeps_proven_wins_below_certainty() {
        let make = || {
            let mut v = Vec::new();
            for i in 0..200 {
                v.push(sample(29_990, if i % 10 == 0 { 0.0 } else { 1.0 }));
                v.push(sample(-29_990, if i % 10 == 0 { 1.0 } else { 0.0 }));
                v.push(sample(100, if i % 3 == 0 { 0.0 } else { 1.0 }));
                v.push(sample(-100, if i % 3 == 0 { 1.0 } else { 0.0 }));
            }
            v
        };
        let (mut raw, mut raw_held) = (make(), Vec::new());
        blend_targets(&mut raw, &mut raw_held, 1.0, 0);
        assert!(
            raw[0].label.target > 0.9999,
            "uncapped win target {}",
            raw[0].label.target
        );
        let (mut capped, mut held) = (make(), vec![sample(29_990, 1.0)]);
        blend_targets(&mut capped, &mut held, 1.0, 600);
        assert_eq!(capped[0].label.score, Some(600));
        assert_eq!(held[0].label.score, Some(600));
        let win = capped[0].label.target;
        assert!(win > 0.8 && win < 0.999, "capped win target {win}");
        assert!((capped[1].label.target - (1.0 - win)).abs() < 1e-6);
        assert!(capped[2].label.target > 0.5 && capped[2].label.target < win);
        // Half the weight on the search score: halfway between result and prediction.
        let (mut half, mut none) = (make(), Vec::new());
        blend_targets(&mut half, &mut none, 0.5, 600);
        assert!((half[0].label.target - (0.5 * half[0].label.result + 0.5 * win)).abs() < 1e-3);
    }
}
