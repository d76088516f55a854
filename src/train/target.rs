//! What a position teaches the evaluation, shared by the tuner ([`super::tune`]) and the
//! network trainer ([`super::net`]): which positions are samples, their label (the game's
//! result, the recorded search score) and the training target blended from them
//! (`docs/training.md` §5).

use super::data::GameRecord;
use crate::board::Board;
use crate::core::Color;
use crate::eval::features;
use crate::eval::{Evaluator, EVAL_SCALE};

/// The options of the training target and of the held-out games, shared by `tune` and
/// `train-net`.
#[derive(clap::Args, Debug, Clone)]
pub struct TargetArgs {
    /// Weight of the recorded search score in the target (0: results only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Recorded search scores are clamped to ± this many evaluation units before their
    /// scale is fitted and they enter the target (0: no clamp, a proven win counts as
    /// certain). A cap keeps a win the labelling search saw but the game did not convert
    /// from being read as a certainty (docs/training.md §5).
    #[arg(long, default_value_t = 0)]
    pub score_cap: i32,
    /// Every K-th game is held out for validation (0 or 1: none).
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
}

impl TargetArgs {
    /// Whether the `i`-th game (from 0) is held out.
    pub fn held_out(&self, i: usize) -> bool {
        self.holdout > 1 && i % self.holdout == self.holdout - 1
    }

    /// Sets the targets of the training and held-out samples ([`blend_targets`] with these
    /// options); returns the fitted scale of the recorded scores.
    pub fn blend<S: Labelled>(&self, train: &mut [S], held: &mut [S]) -> f64 {
        blend_targets(train, held, self.lambda, self.score_cap)
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of the prediction `p` (0..1, kept 1e-9 from either end) against the
/// target `y` (0..=1).
pub fn bce(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Whether the evaluation would be asked in this position, so that it makes a sample: the
/// side to move has no five point, the opponent has none, no unstoppable straight four is on
/// the board, and more than ten points are empty.
pub fn is_quiet(board: &Board, ev: &Evaluator) -> bool {
    let (s, o) = (board.side_to_move(), board.side_to_move().opponent());
    ev.five_points(s) == 0
        && ev.five_points(o) == 0
        && !(ev.counts(s)[features::class::FLEX4] > 0 && ev.four_line_points(o) == 0)
        && board.stone_count() + 10 < board.width() * board.height()
}

/// What a position teaches the evaluation: the game's result for the side to move, the
/// recorded search score and the target blended from them ([`blend_targets`]).
#[derive(Clone, Copy, Debug)]
pub struct Label {
    /// The training target (the result until [`blend_targets`] sets it).
    pub target: f32,
    /// The game's result for the side to move (1, 0.5, 0).
    pub result: f32,
    /// The recorded search score of the position, if it was searched.
    pub score: Option<i32>,
}

impl Label {
    /// The label of the position before move `i` of game `g`, `mover` to move (the target:
    /// the result).
    pub fn of(g: &GameRecord, i: usize, mover: Color) -> Label {
        let result = g.outcome.score_for(mover);
        Label {
            target: result,
            result,
            score: g.scores.get(i).copied().flatten(),
        }
    }
}

/// A sample with a [`Label`].
pub trait Labelled {
    /// The sample's label, to read or to set.
    fn label(&mut self) -> &mut Label;
}

/// The scale `k` minimising the logistic loss of `sigmoid(v / k)` against the results
/// (a refining grid search from 20 to 5000).
pub fn fit_scale(pairs: impl Iterator<Item = (i32, f32)>) -> f64 {
    let pairs: Vec<(f64, f64)> = pairs
        .map(|(v, r)| ((v.clamp(-3000, 3000)) as f64, r as f64))
        .collect();
    if pairs.is_empty() {
        return EVAL_SCALE;
    }
    let loss = |k: f64| -> f64 { pairs.iter().map(|&(v, r)| bce(sigmoid(v / k), r)).sum() };
    let (mut lo, mut hi) = (20f64.ln(), 5000f64.ln());
    let mut best = EVAL_SCALE;
    for _ in 0..6 {
        let step = (hi - lo) / 10.0;
        let mut best_l = f64::MAX;
        let mut best_i = 0;
        for i in 0..=10 {
            let k = (lo + step * i as f64).exp();
            let l = loss(k);
            if l < best_l {
                best_l = l;
                best_i = i;
                best = k;
            }
        }
        let c = lo + step * best_i as f64;
        lo = c - step;
        hi = c + step;
    }
    best
}

/// Sets every sample's target: the game's result blended with weight `lambda` (0..=1)
/// with the recorded search score read as `sigmoid(score / scale)`, where the scale is
/// fitted to the training samples' results. With `cap > 0` the recorded scores are first
/// clamped to ±`cap` evaluation units, so that a proven win (±30 000) counts as a strong
/// but not certain prediction. Returns the fitted scale.
pub fn blend_targets<S: Labelled>(train: &mut [S], held: &mut [S], lambda: f64, cap: i32) -> f64 {
    if cap > 0 {
        for s in train.iter_mut().chain(held.iter_mut()) {
            let l = s.label();
            l.score = l.score.map(|v| v.clamp(-cap, cap));
        }
    }
    let scale = fit_scale(train.iter_mut().filter_map(|s| {
        let l = s.label();
        l.score.map(|v| (v, l.result))
    }));
    for s in train.iter_mut().chain(held.iter_mut()) {
        let l = s.label();
        if let (Some(v), true) = (l.score, lambda > 0.0) {
            let p = sigmoid(v as f64 / scale);
            l.target = ((1.0 - lambda) * l.result as f64 + lambda * p) as f32;
        }
    }
    scale
}
