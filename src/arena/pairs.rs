//! Game pairs: the two games of one opening with colours reversed, counted by the points one
//! side took from them (the *pentanomial* count of fishtest: 0, 1/2, 1, 3/2 or 2 points).
//!
//! Why: on balanced openings the two games of a pair are not independent. An opening that
//! favours black tends to give each side one win, so the pair's mean score varies much less
//! than two independent games would (Rapfi against itself on 50 renju openings at 10 s + 1 s:
//! per-game variance 0.247, the pair mean's variance per game 0.102). Treating the games as
//! independent (the trinomial model) overstates the noise, and an SPRT then needs up to
//! twice the games it needs when it reads the pairs (docs/tools.md, "match").
//!
//! [`Pairing`] matches the games of a schedule into pairs as they finish, in any order;
//! [`Penta`] holds the counts and is a [`Sample`] for the Elo interval and the SPRT (each
//! pair one sample, its value the pair's mean score in `0..=1`).

use std::collections::HashMap;

use super::stats::{self, Sample};

/// Counts of finished pairs by the points of the pair's first engine, in half points:
/// `counts[k]` pairs brought `k / 2` points (`k` in `0..=4`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Penta {
    /// Pairs by half points won, 0 to 4.
    pub counts: [u64; 5],
}

impl Penta {
    /// Counts one pair that brought `half_points / 2` points (`half_points` in `0..=4`;
    /// larger values are counted as 4).
    pub fn count(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Finished pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The summary line, e.g. `Pairs (0, 1/2, 1, 3/2, 2 points): 6, 0, 39, 1, 4; Elo -10.4
    /// +/- 43.8` (the Elo interval of the pairs, narrower than the games' when the two games
    /// of a pair are correlated), or `None` before the first pair.
    pub fn line(&self) -> Option<String> {
        let e = stats::estimate(self)?;
        let c = self.counts;
        Some(format!(
            "Pairs (0, 1/2, 1, 3/2, 2 points): {}, {}, {}, {}, {}; Elo {} +/- {}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            stats::fmt1(e.elo),
            stats::fmt1(e.margin)
        ))
    }
}

impl Sample for Penta {
    fn samples(&self) -> u64 {
        self.pairs()
    }

    /// Mean score per game: the points of all pairs over twice their number.
    fn mean(&self) -> Option<f64> {
        let n = self.pairs();
        let half: u64 = self.counts.iter().zip(0u64..).map(|(c, k)| c * k).sum();
        (n > 0).then(|| half as f64 / (4 * n) as f64)
    }

    /// Variance of one pair's mean score (`k / 4` for `k` half points).
    fn variance(&self) -> Option<f64> {
        let s = self.mean()?;
        let n = self.pairs() as f64;
        let sum: f64 = self
            .counts
            .iter()
            .zip(0u32..)
            .map(|(&c, k)| c as f64 * (f64::from(k) / 4.0 - s).powi(2))
            .sum();
        Some(sum / n)
    }
}

/// Matches finished games into pairs. A pair is identified by its *slot*: game `k` of an
/// engine pair's schedule belongs to slot `k / 2` (the schedule plays each opening twice in a
/// row with colours reversed; docs/tools.md). Games may finish in any order.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    /// Half points of the first game of each slot whose second game has not finished.
    waiting: HashMap<usize, usize>,
    /// The finished pairs.
    pub penta: Penta,
}

impl Pairing {
    /// Adds game `k` of the schedule of an engine pair (0-based, counting that pair's games
    /// only), with `half_points` (0, 1 or 2) for the pair's first engine. Returns whether the
    /// game completed its pair.
    pub fn add(&mut self, k: usize, half_points: usize) -> bool {
        match self.waiting.remove(&(k / 2)) {
            Some(first) => {
                self.penta.count(first + half_points);
                true
            }
            None => {
                self.waiting.insert(k / 2, half_points);
                false
            }
        }
    }
}

/// Half points of a game for the pair's first engine: 2 for a win, 0 for a loss, 1 for a draw
/// (`a_won` as in [`stats::Wld::count`]).
pub fn half_points(a_won: Option<bool>) -> usize {
    match a_won {
        Some(true) => 2,
        Some(false) => 0,
        None => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::SprtParams;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn pairing_matches_slots_in_any_order() {
        let mut p = Pairing::default();
        // Slot 0: a win (game 0) and a loss (game 1); slot 1: game 3 before game 2, a win and
        // a draw; slot 2 is left half finished.
        assert!(!p.add(0, 2));
        assert!(!p.add(3, 2));
        assert!(p.add(1, 0));
        assert!(!p.add(4, 1));
        assert!(p.add(2, 1));
        assert_eq!(p.penta.counts, [0, 0, 1, 1, 0]);
        assert_eq!(p.penta.pairs(), 2);
        assert_eq!(half_points(None), 1);
    }

    // Worked example: pairs 0, 1, 1, 1, 2 points (half points 0, 2, 2, 2, 4), N = 5.
    //   pair means 0, 0.5, 0.5, 0.5, 1: s = 2.5 / 5 = 0.5
    //   var = (0.25 + 0 + 0 + 0 + 0.25) / 5 = 0.1
    //   stderr = sqrt(0.1 / 5) = 0.1414214; bounds 0.5 -/+ 1.959964 * 0.1414214 = 0.5 -/+ 0.2771808
    //   Elo(0.7771808) = -400 log10(1 / 0.7771808 - 1) = -400 log10(0.2867035) = 217.03,
    //   so the interval is 0.0 +/- 217.0.
    const EX: Penta = Penta {
        counts: [1, 0, 3, 0, 1],
    };

    #[test]
    fn mean_variance_and_line_by_hand() {
        assert_eq!(EX.samples(), 5);
        assert!(close(EX.mean().unwrap(), 0.5, 1e-12));
        assert!(close(EX.variance().unwrap(), 0.1, 1e-12));
        assert_eq!(
            EX.line().unwrap(),
            "Pairs (0, 1/2, 1, 3/2, 2 points): 1, 0, 3, 0, 1; Elo 0.0 +/- 217.0"
        );
        assert_eq!(Penta::default().line(), None);
        // The example of the docs: 97 half points of 200, s = 0.485, var = 0.051025.
        let doc = Penta {
            counts: [6, 0, 39, 1, 4],
        };
        assert!(close(doc.variance().unwrap(), 0.051_025, 1e-9));
        assert!(doc
            .line()
            .unwrap()
            .ends_with("6, 0, 39, 1, 4; Elo -10.4 +/- 43.8"));
        // A one-sided record: half points 3, 4, 4 (N = 3): means 0.75, 1, 1, s = 2.75 / 3 =
        // 0.9166667, var = ((0.1666667)^2 + 2 (0.0833333)^2) / 3 = (0.0277778 + 0.0138889) / 3
        // = 0.0138889.
        let w = Penta {
            counts: [0, 0, 0, 1, 2],
        };
        assert!(close(w.mean().unwrap(), 0.916_666_7, 1e-7));
        assert!(close(w.variance().unwrap(), 0.013_888_9, 1e-7));
    }

    #[test]
    fn sprt_reads_pairs_as_samples() {
        // elo0 = -10, elo1 = 0: s0 = 1 / (1 + 10^(0.025)) = 1 / 2.0592537 = 0.4856128, s1 = 0.5.
        // 100 pairs, counts 10, 5, 70, 5, 10: s = 0.5,
        //   var = (10 * 0.25 + 5 * 0.0625 + 0 + 5 * 0.0625 + 10 * 0.25) / 100 = 0.05625
        //   LLR = 100 * 0.0143872 * (1 - 0.4856128 - 0.5) / (2 * 0.05625)
        //       = 100 * 0.0143872 * 0.0143872 / 0.1125 = 0.183992
        // The same 200 games read one by one, if each 1-point pair was a win and a loss:
        // W = 70 + 5 + 2 * 10 = 95, L = 2 * 10 + 5 + 70 = 95, D = 10, var = 190 * 0.25 / 200
        // = 0.2375, LLR = 200 * 0.0143872^2 / (2 * 0.2375) = 0.087154: less than half.
        let p = SprtParams::parse("-10,0,0.05,0.05").unwrap();
        let pe = Penta {
            counts: [10, 5, 70, 5, 10],
        };
        assert!(close(p.llr(&pe), 0.183_992, 1e-5), "{}", p.llr(&pe));
        let games = stats::Wld {
            wins: 95,
            losses: 95,
            draws: 10,
        };
        assert!(close(p.llr(&games), 0.087_154, 1e-5), "{}", p.llr(&games));
    }
}
