//! Match statistics: Elo difference with a 95 % interval, likelihood of superiority (LOS)
//! and the sequential probability ratio test (SPRT).
//!
//! Conventions (the ones cutechess-cli and fishtest print, so numbers can be compared):
//! - the score `s` of `W` wins, `L` losses and `D` draws in `N` games is `(W + D/2) / N`;
//! - the logistic Elo difference of a score is `-400 * log10(1/s - 1)`;
//! - the 95 % interval uses the per-game variance of the trinomial result
//!   `var = (W (1-s)^2 + L s^2 + D (1/2-s)^2) / N`, the standard error `sqrt(var / N)`, and
//!   takes half the Elo distance between `s ± 1.959964 * stderr` as the `+/-` margin;
//! - LOS is `Phi((W - L) / sqrt(W + L))` = `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`;
//!   draws carry no information about who is stronger;
//! - the SPRT uses the generalised SPRT with the normal approximation of the
//!   log-likelihood ratio, as cutechess-cli and fishtest do:
//!   `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)` where `s0`, `s1` are the scores of the
//!   logistic Elo hypotheses `elo0`, `elo1`; the test stops when `LLR` leaves
//!   `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`. A sample ([`Sample`]) is a game
//!   (trinomial: `N` games, `var` as above) or, by default, a pair of colour-reversed games
//!   (pentanomial: `N` pairs, `s` and `var` of the pair's mean score; [`super::pairs`]).
//!
//! Nothing here does I/O; everything is unit-tested against hand-computed values.

use thiserror::Error;

/// The two-sided 97.5 % quantile of the standard normal distribution (for 95 % intervals).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Wld {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Wld {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points: one per win, half per draw.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game in `0..=1`, or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The same results seen from the opponent's side.
    pub fn flipped(&self) -> Wld {
        Wld {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Counts one game: `Some(true)` a win, `Some(false)` a loss, `None` a draw.
    pub fn count(&mut self, won: Option<bool>) {
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    /// The results of `self` less those of `part` (a subset of its games).
    pub fn minus(&self, part: &Wld) -> Wld {
        Wld {
            wins: self.wins - part.wins,
            losses: self.losses - part.losses,
            draws: self.draws - part.draws,
        }
    }

    /// `W - L - D (score)`, the score with three decimals (`-` before the first game).
    pub fn short(&self) -> String {
        let score = self.score().map_or("-".to_string(), |s| format!("{s:.3}"));
        format!("{} - {} - {} ({score})", self.wins, self.losses, self.draws)
    }

    /// Per-game variance of the score (see the module docs), or `None` before the first game.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, l, d) = (
            self.wins as f64 / n,
            self.losses as f64 / n,
            self.draws as f64 / n,
        );
        Some(w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2))
    }
}

/// A sample of results the Elo interval and the SPRT can read: single games ([`Wld`]) or
/// pairs of colour-reversed games ([`super::pairs::Penta`]).
pub trait Sample {
    /// Independent samples: games, or pairs.
    fn samples(&self) -> u64;
    /// Mean score per game in `0..=1`, or `None` before the first sample.
    fn mean(&self) -> Option<f64>;
    /// Variance of one sample's score, or `None` before the first sample.
    fn variance(&self) -> Option<f64>;
}

impl Sample for Wld {
    fn samples(&self) -> u64 {
        self.games()
    }

    fn mean(&self) -> Option<f64> {
        self.score()
    }

    fn variance(&self) -> Option<f64> {
        Wld::variance(self)
    }
}

/// Logistic Elo difference of a mean score `s` in `0..=1`: `-400 log10(1/s - 1)`.
/// Returns `+inf` for 1 and `-inf` for 0.
pub fn elo_from_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0 for printing.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// Expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, accurate to about 1e-13 (Maclaurin series below 5, `±1` beyond, where
/// the true value differs from `±1` by less than 2e-12).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() >= 5.0 {
        return x.signum();
    }
    // erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
    let x2 = x * x;
    let mut term = x; // (-1)^n x^(2n+1) / n!
    let mut sum = x;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= -x2 / n;
        let add = term / (2.0 * n + 1.0);
        sum += add;
        if add.abs() < 1e-17 * sum.abs().max(1e-300) {
            break;
        }
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

/// Likelihood of superiority, in `0..=1`: the probability that the side with these results is
/// the stronger one. 0.5 when there are no decisive games.
pub fn los(r: &Wld) -> f64 {
    let decisive = (r.wins + r.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
}

/// An Elo estimate with its 95 % margin and LOS.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct EloEstimate {
    /// Elo difference (positive: the side is stronger); `±inf` for a perfect score.
    pub elo: f64,
    /// Half-width of the 95 % interval, in Elo; `inf` when a bound reaches score 0 or 1.
    pub margin: f64,
    /// Likelihood of superiority in `0..=1`.
    pub los: f64,
}

/// Elo difference, 95 % margin and LOS of the results, or `None` before the first game.
pub fn elo_estimate(r: &Wld) -> Option<EloEstimate> {
    estimate(r).map(|e| EloEstimate { los: los(r), ..e })
}

/// Elo difference and 95 % margin of any [`Sample`] (its standard error is
/// `sqrt(variance / samples)`), or `None` before the first sample. The LOS is left at 0.5:
/// [`elo_estimate`] fills it in for games.
pub fn estimate(r: &impl Sample) -> Option<EloEstimate> {
    let s = r.mean()?;
    let var = r.variance()?;
    let stderr = (var / r.samples() as f64).sqrt();
    let lo = (s - Z_95 * stderr).clamp(0.0, 1.0);
    let hi = (s + Z_95 * stderr).clamp(0.0, 1.0);
    // A perfect score has no spread (lo = hi = 1) and an infinite Elo: its interval is
    // unbounded, not NaN.
    let mut margin = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    if margin.is_nan() {
        margin = f64::INFINITY;
    }
    Some(EloEstimate {
        elo: elo_from_score(s),
        margin,
        los: 0.5,
    })
}

/// Formats the summary line `Elo difference: E +/- M, LOS: P %` (one decimal each).
pub fn elo_line(r: &Wld) -> String {
    match elo_estimate(r) {
        Some(e) => format!(
            "Elo difference: {} +/- {}, LOS: {:.1} %",
            fmt1(e.elo),
            fmt1(e.margin),
            e.los * 100.0
        ),
        None => "Elo difference: nan +/- nan, LOS: 50.0 %".to_string(),
    }
}

/// One decimal, with `inf`/`-inf` spelled out.
pub(crate) fn fmt1(v: f64) -> String {
    if v.is_infinite() {
        if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{:.1}", v)
    }
}

/// Errors of [`SprtParams::parse`].
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SprtError {
    /// Not four comma-separated numbers.
    #[error("--sprt wants ELO0,ELO1,ALPHA,BETA (four numbers), got '{0}'")]
    Format(String),
    /// `elo0 >= elo1`, or `alpha`/`beta` outside `(0, 0.5)`.
    #[error("--sprt {0}: need ELO0 < ELO1 and 0 < ALPHA, BETA < 0.5")]
    Range(String),
}

/// SPRT hypotheses (logistic Elo) and error rates.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SprtParams {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// What one sample is: a game, or a pair of colour-reversed games (the default; absent
    /// from the shard files of older versions, which `merge` then reads by pairs too).
    #[serde(default)]
    pub model: SprtModel,
}

/// The samples an SPRT reads.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Every game is a sample with three outcomes (cutechess-cli's model).
    Trinomial,
    /// Every pair of games of one opening with colours reversed is a sample with five
    /// outcomes (fishtest's model): correct when the pair's games are correlated, as they
    /// are on balanced openings, and then it needs fewer games (docs/tools.md, "match").
    #[default]
    Pentanomial,
}

/// What the SPRT says after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The LLR fell below the lower bound: H0 accepted.
    AcceptH0,
    /// The LLR rose above the upper bound: H1 accepted.
    AcceptH1,
}

impl SprtParams {
    /// Parses `ELO0,ELO1,ALPHA,BETA`, e.g. `0,10,0.05,0.05`.
    ///
    /// Errors: [`SprtError::Format`] unless four numbers; [`SprtError::Range`] unless
    /// `elo0 < elo1` and both error rates are in `(0, 0.5)`.
    pub fn parse(text: &str) -> Result<SprtParams, SprtError> {
        let v: Vec<f64> = text
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| SprtError::Format(text.to_string()))?;
        if v.len() != 4 || v.iter().any(|x| !x.is_finite()) {
            return Err(SprtError::Format(text.to_string()));
        }
        let p = SprtParams {
            elo0: v[0],
            elo1: v[1],
            alpha: v[2],
            beta: v[3],
            model: SprtModel::default(),
        };
        let ok_rate = |r: f64| r > 0.0 && r < 0.5;
        if p.elo0 >= p.elo1 || !ok_rate(p.alpha) || !ok_rate(p.beta) {
            return Err(SprtError::Range(text.to_string()));
        }
        Ok(p)
    }

    /// `(lower, upper)` LLR bounds: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the results (module docs). 0 before the
    /// first game and while every game had the same result (zero variance: the normal
    /// approximation says nothing yet).
    pub fn llr(&self, r: &(impl Sample + ?Sized)) -> f64 {
        let (Some(s), Some(var)) = (r.mean(), r.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        r.samples() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision for these results.
    pub fn decision(&self, r: &(impl Sample + ?Sized)) -> SprtDecision {
        let llr = self.llr(r);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// Summary line, e.g. `SPRT: llr 0.17 (5.9 %), lbound -2.94, ubound 2.94 - continue`
    /// (the percentage is the LLR as a fraction of the bound it is heading for).
    pub fn line(&self, r: &(impl Sample + ?Sized)) -> String {
        let llr = self.llr(r);
        let (lo, hi) = self.bounds();
        let frac = if llr >= 0.0 { llr / hi } else { llr / -lo };
        let verdict = match self.decision(r) {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 was accepted",
            SprtDecision::AcceptH1 => "H1 was accepted",
        };
        format!(
            "SPRT: llr {:.2} ({:.1} %), lbound {:.2}, ubound {:.2} - {} (elo0 {}, elo1 {}, alpha {}, beta {}, {})",
            llr,
            frac * 100.0,
            lo,
            hi,
            verdict,
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            match self.model {
                SprtModel::Trinomial => "games",
                SprtModel::Pentanomial => "pairs",
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Worked example used by several tests: W = 6, L = 2, D = 2, N = 10.
    //   s   = (6 + 2/2) / 10 = 0.7
    //   Elo = -400 log10(1/0.7 - 1) = -400 log10(3/7)
    //       = -400 (0.4771213 - 0.8450980) = -400 (-0.3679768) = 147.19
    //   var = 0.6 (0.3)^2 + 0.2 (0.7)^2 + 0.2 (0.2)^2 = 0.054 + 0.098 + 0.008 = 0.16
    //   stderr = sqrt(0.16 / 10) = sqrt(0.016) = 0.1264911
    //   bounds = 0.7 -/+ 1.959964 * 0.1264911 = 0.7 -/+ 0.2479180 = 0.4520820 .. 0.9479180
    //   Elo(hi) = -400 log10(1/0.947918 - 1) = -400 log10(0.0549433) = 504.03
    //   Elo(lo) = -400 log10(1/0.452082 - 1) = -400 log10(1.2119932) = -33.40
    //   margin = (504.03 + 33.40) / 2 = 268.72
    //   LOS = (1 + erf((6 - 2) / sqrt(2 * 8))) / 2 = (1 + erf(1)) / 2
    //       = (1 + 0.8427008) / 2 = 0.9213504
    const EX: Wld = Wld {
        wins: 6,
        losses: 2,
        draws: 2,
    };

    #[test]
    fn score_and_elo_by_hand() {
        assert_eq!(EX.games(), 10);
        assert!(close(EX.score().unwrap(), 0.7, 1e-12));
        assert!(close(EX.variance().unwrap(), 0.16, 1e-12));
        assert!(close(elo_from_score(0.7), 147.19, 0.005));
        // Even score is 0 Elo. 200 Elo means odds of 10^(200/400) = 10^(1/2): 1/s - 1 =
        // 10^(-1/2) = 0.3162278, so s = 1 / 1.3162278 = 0.7597469.
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.759_746_9), 200.0, 0.001));
        assert!(close(score_from_elo(200.0), 0.759_746_9, 1e-7));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn interval_by_hand() {
        let e = elo_estimate(&EX).unwrap();
        assert!(close(e.elo, 147.19, 0.005), "{e:?}");
        assert!(close(e.margin, 268.72, 0.01), "{e:?}");
        assert!(close(e.los, 0.921_350_4, 1e-6), "{e:?}");
        assert_eq!(
            elo_line(&EX),
            "Elo difference: 147.2 +/- 268.7, LOS: 92.1 %"
        );
        // The mirror image: same margin, negated Elo, LOS 1 - 0.9213504.
        let m = elo_estimate(&EX.flipped()).unwrap();
        assert!(close(m.elo, -147.19, 0.005) && close(m.margin, 268.72, 0.01));
        assert!(close(m.los, 0.078_649_6, 1e-6));
        // Even: 3 - 3 - 0, s = 0.5, var = 0.25, stderr = sqrt(0.25 / 6) = 0.2041241,
        // upper bound 0.5 + 1.959964 * 0.2041241 = 0.9000760,
        // Elo = -400 log10(1 / 0.9000760 - 1) = -400 log10(0.1110178) = 381.84, and the lower
        // bound mirrors it, so the margin is 381.8 (and the Elo prints as 0.0, not -0.0).
        let even = Wld {
            wins: 3,
            losses: 3,
            draws: 0,
        };
        assert_eq!(
            elo_line(&even),
            "Elo difference: 0.0 +/- 381.8, LOS: 50.0 %"
        );
    }

    #[test]
    fn degenerate_results() {
        assert!(elo_estimate(&Wld::default()).is_none());
        assert_eq!(
            los(&Wld {
                wins: 0,
                losses: 0,
                draws: 5
            }),
            0.5
        );
        // All draws: s = 0.5, var = 0, so the interval is a point: 0 +/- 0.
        let d = elo_estimate(&Wld {
            wins: 0,
            losses: 0,
            draws: 4,
        })
        .unwrap();
        assert_eq!((d.elo, d.margin), (0.0, 0.0));
        // All wins: infinite Elo, and the line says so instead of printing NaN.
        let w = Wld {
            wins: 3,
            losses: 0,
            draws: 0,
        };
        // LOS = (1 + erf(3 / sqrt(6))) / 2 = (1 + erf(1.2247449)) / 2 = (1 + 0.9167355) / 2.
        assert_eq!(elo_line(&w), "Elo difference: inf +/- inf, LOS: 95.8 %");
        assert_eq!(
            elo_line(&w.flipped()),
            "Elo difference: -inf +/- inf, LOS: 4.2 %"
        );
    }

    #[test]
    fn erf_values() {
        // Table values (Abramowitz & Stegun 7.1): erf(0.5) = 0.5204999, erf(1) = 0.8427008,
        // erf(2) = 0.9953223, erf(3) = 0.9999779.
        assert_eq!(erf(0.0), 0.0);
        assert!(close(erf(0.5), 0.520_499_9, 1e-7));
        assert!(close(erf(1.0), 0.842_700_8, 1e-7));
        assert!(close(erf(-1.0), -0.842_700_8, 1e-7));
        assert!(close(erf(2.0), 0.995_322_3, 1e-7));
        assert!(close(erf(3.0), 0.999_977_9, 1e-7));
        assert_eq!(erf(6.0), 1.0);
    }

    #[test]
    fn sprt_llr_by_hand() {
        // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1 / (1 + 10^(-0.025)) = 1 / 1.9440609 = 0.5143872.
        // With EX (s = 0.7, var = 0.16, N = 10):
        //   LLR = 10 * (0.5143872 - 0.5) * (1.4 - 0.5 - 0.5143872) / (2 * 0.16)
        //       = 10 * 0.0143872 * 0.3856128 / 0.32 = 0.173371
        let p = SprtParams::parse("0,10,0.05,0.05").unwrap();
        assert!(close(score_from_elo(10.0), 0.514_387_2, 1e-7));
        assert!(close(p.llr(&EX), 0.173_371, 1e-5), "{}", p.llr(&EX));
        // Bounds for alpha = beta = 0.05: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439.
        let (lo, hi) = p.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        assert_eq!(p.decision(&EX), SprtDecision::Continue);
        assert!(p
            .line(&EX)
            .starts_with("SPRT: llr 0.17 (5.9 %), lbound -2.94, ubound 2.94 - continue"));
    }

    #[test]
    fn sprt_decisions_by_hand() {
        // elo0 = 0, elo1 = 1000: s1 = 1 / (1 + 10^(-2.5)) = 1 / 1.0031623 = 0.9968477,
        // s1 - s0 = 0.4968477.
        // Alternating win/loss, N = 6 (3 - 3 - 0): s = 0.5, var = 0.25,
        //   LLR = 6 * 0.4968477 * (1 - 1.4968477) / 0.5 = -6 * 0.4968477^2 / 0.5
        //       = -6 * 0.2468577 / 0.5 = -2.962292 < -2.944439: H0 accepted.
        // After 5 games (3 - 2 - 0): s = 0.6, var = (3 * 0.16 + 2 * 0.36) / 5 = 0.24,
        //   LLR = 5 * 0.4968477 * (1.2 - 1.4968477) / 0.48 = -5 * 0.1474885 / 0.48
        //       = -1.536334: continue.
        let p = SprtParams::parse("0,1000,0.05,0.05").unwrap();
        let six = Wld {
            wins: 3,
            losses: 3,
            draws: 0,
        };
        let five = Wld {
            wins: 3,
            losses: 2,
            draws: 0,
        };
        assert!(close(p.llr(&six), -2.962_292, 1e-5), "{}", p.llr(&six));
        assert!(close(p.llr(&five), -1.536_334, 1e-5), "{}", p.llr(&five));
        assert_eq!(p.decision(&six), SprtDecision::AcceptH0);
        assert_eq!(p.decision(&five), SprtDecision::Continue);
        // A winning record, 5 - 1 - 0, with elo0 = 0, elo1 = 100:
        //   s = 5/6 = 0.8333333, var = (5 (1/6)^2 + (5/6)^2) / 6 = (5/36 + 25/36) / 6 = 0.1388889
        //   s1 = 1 / (1 + 10^(-0.25)) = 1 / 1.5623413 = 0.6400650
        //   LLR = 6 * 0.1400650 * (1.6666667 - 1.1400650) / (2 * 0.1388889)
        //       = 6 * 0.0737584 / 0.2777778 = 1.593183: continue.
        let p100 = SprtParams::parse("0,100,0.05,0.05").unwrap();
        let r = Wld {
            wins: 5,
            losses: 1,
            draws: 0,
        };
        assert!(close(p100.llr(&r), 1.593_183, 1e-5), "{}", p100.llr(&r));
        // Ten times the games with the same proportions multiplies the LLR by ten: 15.93 > 2.94.
        let r10 = Wld {
            wins: 50,
            losses: 10,
            draws: 0,
        };
        assert!(close(p100.llr(&r10), 15.931_83, 1e-4));
        assert_eq!(p100.decision(&r10), SprtDecision::AcceptH1);
        // No variance yet: LLR 0.
        assert_eq!(
            p100.llr(&Wld {
                wins: 4,
                losses: 0,
                draws: 0
            }),
            0.0
        );
    }

    #[test]
    fn sprt_parse_errors() {
        assert!(matches!(
            SprtParams::parse("0,10,0.05"),
            Err(SprtError::Format(_))
        ));
        assert!(matches!(
            SprtParams::parse("a,10,0.05,0.05"),
            Err(SprtError::Format(_))
        ));
        assert!(matches!(
            SprtParams::parse("10,0,0.05,0.05"),
            Err(SprtError::Range(_))
        ));
        assert!(matches!(
            SprtParams::parse("0,10,0.6,0.05"),
            Err(SprtError::Range(_))
        ));
    }
}
