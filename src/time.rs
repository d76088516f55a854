//! Time control: turns the manager's clock (docs/protocol.md §2.4 and §4) into a search budget.
//!
//! All durations are milliseconds. A value of `None` means "not received". The budget is
//! measured from the moment the request was read (docs/protocol.md §4.2), never from an earlier
//! clock reading: managers suspend engines between moves.
//!
//! Where the ideas come from: the optimum and maximum times, the move-importance curve and
//! the stop rule's falling-score and best-move-instability factors are Stockfish's time
//! management; their constants (the 0.9 share, the 21-move horizon, the 1.7 divisor, the
//! importance curve's points, the stop rule's 1.25 + 0.02 d^1.4) are Rapfi's
//! (docs/strength.md §1).

/// What the manager told us about the clock (`INFO timeout_turn`, `timeout_match`,
/// `time_left`, `time_increment`), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// Limit for one move; `Some(0)` means "answer at once"; `None`: no turn limit.
    pub turn_ms: Option<i64>,
    /// Limit for the whole game; 0 or `None`: unlimited.
    pub match_ms: Option<i64>,
    /// Remaining match time; 2147483647 means unlimited; may be negative.
    pub left_ms: Option<i64>,
    /// Fischer increment per move (Yixin-Board's `time_increment`).
    pub increment_ms: i64,
}

/// Values at or above this many milliseconds mean "no limit" (2147483647 is the protocol's
/// unlimited `time_left`; Yixin-Board's 100000000 match time too).
pub const UNLIMITED_MS: i64 = 100_000_000;

/// A turn limit at or above this many milliseconds (over 16 minutes; Yixin-Board sends
/// 2000000 for "no limit") counts as no turn limit.
pub const TURN_UNLIMITED_MS: i64 = 1_000_000;

/// Largest safety margin kept back from a limit, in milliseconds: covers pipe latency,
/// process resume and the stop latency of the search. The margin is a tenth of the limit,
/// at least [`MIN_RESERVE_MS`] and at most this (and never more than a quarter of the limit).
pub const SAFETY_MS: i64 = 100;
/// Smallest safety margin kept back from a limit, in milliseconds (see [`SAFETY_MS`]).
pub const MIN_RESERVE_MS: i64 = 40;
/// The time left is spread over at most this many of our own moves (a short horizon: a
/// position is usually decided long before the board fills).
pub const HORIZON_MOVES: i64 = 21;
/// Time set aside for each of our remaining moves (outside the search), in milliseconds.
/// c-gomoku-cli measured 7-13 ms a move for our instant answers at the end of full-board
/// games (two games at a time on 2 cores), against about 0.1 ms inside the engine.
pub const MOVE_OVERHEAD_MS: i64 = 10;
/// At most this many remaining moves get [`MOVE_OVERHEAD_MS`] set aside (enough for every
/// move of a game that fills a 22x22 board: a fast game that ends in a full-board draw must
/// still have time for its last moves).
pub const MAX_RESERVED_MOVES: i64 = 250;
/// No single move may take more than the time left divided by this.
pub const MAX_SHARE_DIVISOR: i64 = 7;

/// A search budget in milliseconds from the moment the request was read.
///
/// The search stops on its own between iterations once the elapsed time passes a target
/// derived from `soft_ms` (see [`Budget::should_stop`]) and is aborted at `hard_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The optimum time for the move: the base of the stop rule between iterations.
    pub soft_ms: u64,
    /// Never search past this.
    pub hard_ms: u64,
    /// The clock leaves the turn limit for every remaining move: the stop rule is the
    /// optimum alone (no iteration-time or stability factors), as in analysis.
    pub ample: bool,
}

impl Budget {
    /// A budget with no limit (analysis).
    pub const UNLIMITED: Budget = Budget {
        soft_ms: u64::MAX / 4,
        hard_ms: u64::MAX / 4,
        ample: true,
    };
    /// Both limits at `ms`.
    pub fn fixed(ms: u64) -> Budget {
        Budget {
            soft_ms: ms,
            hard_ms: ms,
            ample: false,
        }
    }

    /// The stop rule after a completed iteration: `true` when the search should not start
    /// iteration `depth + 1`, `elapsed_ms` after its start.
    ///
    /// - the next iteration probably cannot finish: `elapsed >= hard / (1.25 + 0.02 depth^1.4)`;
    /// - the move's target is spent: `elapsed >= soft * falling * instability`, where
    ///   `falling` (0.5 to 1.5, about 0.55 when the score holds) grows when the score dropped
    ///   by `score_drop` win-probability points (0..1) since the previous move, and
    ///   `instability` (1 and up) is 1 plus twice the recent best-move changes per iteration.
    pub fn should_stop(&self, elapsed_ms: u64, depth: i32, score_drop: f64, changes: f64) -> bool {
        if *self == Budget::UNLIMITED {
            return false;
        }
        let e = elapsed_ms as f64;
        if self.ample {
            return e >= self.soft_ms as f64;
        }
        let d = depth.max(1) as f64;
        if e >= self.hard_ms as f64 / (1.25 + 0.02 * d.powf(1.4)) {
            return true;
        }
        let falling = (0.55 + 3.0 * score_drop).clamp(0.5, 1.5);
        let instability = 1.0 + 2.0 * changes.max(0.0);
        e >= self.soft_ms as f64 * falling * instability
    }
}

/// The safety margin kept back from a limit of `limit` milliseconds (see [`SAFETY_MS`]).
pub fn reserve_ms(limit: i64) -> i64 {
    (limit / 10).clamp(MIN_RESERVE_MS, SAFETY_MS).min(limit / 4)
}

/// How much a move at `ply` (stones on the board) deserves relative to an average move:
/// a little more in the opening, where the game is decided, and less and less once the
/// board fills (1.1 at ply 0, 1.0 at 50, 0.7 at 100, 0.4 from 150 on).
pub fn move_importance(ply: usize) -> f64 {
    let p = ply as f64;
    if p <= 50.0 {
        1.1 - 0.1 * p / 50.0
    } else {
        (1.0 - 0.6 * (p - 50.0) / 100.0).max(0.4)
    }
}

impl TimeControl {
    /// Whether no limit at all is in force.
    pub fn is_unlimited(&self) -> bool {
        let turn_unl = self.turn_ms.is_none_or(|t| t >= TURN_UNLIMITED_MS);
        let left_unl = match self.left_ms {
            Some(l) => l >= UNLIMITED_MS,
            None => self.match_ms.is_none_or(|m| m == 0 || m >= UNLIMITED_MS),
        };
        turn_unl && left_unl
    }

    /// The match time left in milliseconds: `time_left`, or `timeout_match` before any
    /// `time_left`; `None` when the match time is unlimited (0 or at least [`UNLIMITED_MS`]).
    pub fn match_left_ms(&self) -> Option<i64> {
        match self.left_ms {
            Some(l) if l < UNLIMITED_MS => Some(l),
            Some(_) => None,
            None => self.match_ms.filter(|&m| m > 0 && m < UNLIMITED_MS),
        }
    }

    /// This clock after `used_ms` milliseconds of our own moves that the manager has not
    /// yet reported through `time_left`: a limited match time left is reduced by them (it
    /// may go negative: answer at once); an unlimited one and the turn limit are unchanged.
    pub fn after_use(&self, used_ms: i64) -> TimeControl {
        let mut tc = *self;
        if used_ms > 0 {
            if let Some(l) = self.match_left_ms() {
                tc.left_ms = Some(l.saturating_sub(used_ms));
            }
        }
        tc
    }

    /// The budget for the next move, given the number of stones already on the board and the
    /// board's point count.
    ///
    /// The time left is first reduced by [`MOVE_OVERHEAD_MS`] for each of our remaining moves
    /// (half the empty points, at most [`MAX_RESERVED_MOVES`]; the reserve is at most three
    /// quarters of the game time); with nothing left beyond the reserve (and no increment)
    /// the budget is 0: answer at once.
    ///
    /// - hard limit ("maximum"): the turn limit, and the time left divided by
    ///   min([`MAX_SHARE_DIVISOR`], empty points) plus the increment, each minus its safety
    ///   margin ([`reserve_ms`]), never above the time left minus its margin; 0 when the turn
    ///   limit is 0 or no time is left (answer at once);
    /// - soft limit ("optimum"): 0.9 of the maximum when the time left covers the turn limit
    ///   for every remaining move (or there is no game clock); else the smallest of 0.9 x
    ///   maximum, the time left over [`HORIZON_MOVES`] moves plus the increment, and the
    ///   maximum / 1.7 x [`move_importance`].
    pub fn budget(&self, stones: usize, points: usize) -> Budget {
        if self.is_unlimited() {
            return Budget::UNLIMITED;
        }
        let turn = self.turn_ms.filter(|&t| t < TURN_UNLIMITED_MS);
        let left = self.match_left_ms();
        if turn == Some(0) || left.is_some_and(|l| l <= 0) {
            return Budget::fixed(0);
        }
        let inc = self.increment_ms.max(0);
        let empty = points.saturating_sub(stones).max(1) as i64;
        // Every move costs some time outside the search (the pipe, the manager, starting
        // threads): keep that much back for each of our remaining moves (half the empty
        // points), but never more than three quarters of the game's time (of the time left
        // when the game time is not known). When the time left is all reserve, answer at
        // once: a game that fills the board must still have time for its last moves.
        let own_left = ((empty + 1) / 2).min(MAX_RESERVED_MOVES);
        let game = self.match_ms.filter(|&m| m > 0 && m < UNLIMITED_MS);
        let left = match left {
            Some(l) => {
                let cap = game.map_or(l, |m| m.max(l)) * 3 / 4;
                let usable = l - (MOVE_OVERHEAD_MS * own_left).min(cap);
                if usable <= 0 && inc == 0 {
                    return Budget::fixed(0);
                }
                Some(usable.max(0))
            }
            None => None,
        };
        let mut hard = i64::MAX / 4;
        if let Some(t) = turn {
            hard = hard.min(t - reserve_ms(t));
        }
        if let Some(l) = left {
            let share = l / MAX_SHARE_DIVISOR.min(empty) + inc;
            hard = hard.min(share - reserve_ms(share)).min(l - reserve_ms(l));
        }
        let hard = hard.max(1);
        let ample = match (left, turn) {
            (None, _) => true,
            (Some(l), Some(t)) => t.saturating_mul(empty.min(64)) < l,
            (Some(_), None) => false,
        };
        let mut soft = hard * 9 / 10;
        if !ample {
            if let Some(l) = left {
                soft = soft.min(l / HORIZON_MOVES + inc * 8 / 10);
            }
            let by_importance = hard as f64 / 1.7 * move_importance(stones);
            soft = soft.min(by_importance as i64);
        }
        let soft = soft.clamp(1, hard);
        Budget {
            soft_ms: soft as u64,
            hard_ms: hard as u64,
            ample,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: Option<i64>, game: Option<i64>, left: Option<i64>) -> TimeControl {
        TimeControl {
            turn_ms: turn,
            match_ms: game,
            left_ms: left,
            increment_ms: 0,
        }
    }

    #[test]
    fn turn_limit_only() {
        // No game clock: the optimum is 0.9 of the maximum.
        let b = tc(Some(5000), None, None).budget(10, 225);
        assert_eq!(b.hard_ms, 4900);
        assert_eq!(b.soft_ms, 4410);
    }

    #[test]
    fn gauntlet_clock_first_move() {
        // 10 s a game, 1 s a move, empty 15x15 board: 113 x 10 ms set aside, then maximum
        // min(1000, 8870 / 7) - 100, optimum min(0.9 x 900, 8870 / 21, 900 / 1.7 x 1.1).
        let b = tc(Some(1000), Some(10_000), Some(10_000)).budget(0, 225);
        assert_eq!(b.hard_ms, 900);
        assert_eq!(b.soft_ms, 8870 / 21);
        // Later, with 3 s left (93 x 10 ms set aside: 2070 usable): the share of the time
        // left binds, 2070 / 7 = 295 less its margin of a tenth.
        let b = tc(Some(1000), Some(10_000), Some(3000)).budget(40, 225);
        assert_eq!(b.hard_ms, 295 - 40);
        assert_eq!(b.soft_ms, 2070 / 21);
        // Near the end of a long game: 200 ms left, 20 empty points: 100 ms usable, a
        // share of 14 less its margin of a quarter.
        let b = tc(Some(1000), Some(10_000), Some(200)).budget(205, 225);
        assert_eq!(b.hard_ms, 100 / 7 - 3);
    }

    #[test]
    fn the_reserve_keeps_time_for_the_last_moves() {
        // 2 s games, 200 ms a move, a 20x20 board almost full: 90 ms left for our last 10
        // moves (10 ms each set aside): answer at once.
        let b = tc(Some(200), Some(2000), Some(90)).budget(380, 400);
        assert_eq!(b.hard_ms, 0);
        // With 150 ms left the 50 ms beyond the reserve are spent over the moves.
        let b = tc(Some(200), Some(2000), Some(150)).budget(380, 400);
        assert!(b.hard_ms > 0 && b.hard_ms <= 50 / 7, "{b:?}");
        // A 1 s game on an empty 20x20 board: the reserve (200 moves x 10 ms) is capped at
        // three quarters of the game, so the first move still gets time.
        let b = tc(Some(1000), Some(1000), Some(1000)).budget(0, 400);
        assert!(b.hard_ms > 0, "{b:?}");
    }

    #[test]
    fn long_clock() {
        // 180 s a game, 30 s a move: 113 x 10 ms set aside, maximum 178 870 / 7 - 100,
        // optimum 178 870 / 21.
        let b = tc(Some(30_000), Some(180_000), Some(180_000)).budget(0, 225);
        assert_eq!(b.hard_ms, 178_870 / 7 - 100);
        assert_eq!(b.soft_ms, 178_870 / 21);
    }

    #[test]
    fn ample_time_uses_the_turn() {
        // Time left covers 64 turns: 0.9 of the turn's maximum.
        let b = tc(Some(1000), Some(1_000_000), Some(1_000_000)).budget(0, 225);
        assert_eq!(b.hard_ms, 900);
        assert_eq!(b.soft_ms, 810);
    }

    #[test]
    fn zero_turn_means_now() {
        assert_eq!(tc(Some(0), None, None).budget(0, 225), Budget::fixed(0));
    }

    #[test]
    fn negative_time_left_means_now() {
        let b = tc(Some(5000), Some(100_000), Some(-5)).budget(0, 225);
        assert_eq!(b, Budget::fixed(0));
    }

    #[test]
    fn unlimited_values() {
        assert!(tc(None, Some(0), Some(2147483647)).is_unlimited());
        assert!(tc(Some(2_000_000), Some(100_000_000), None).is_unlimited());
        assert_eq!(
            tc(None, None, None).budget(0, 225),
            Budget::UNLIMITED,
            "nothing received"
        );
    }

    #[test]
    fn never_above_the_limits() {
        for turn in [1, 5, 30, 50, 100, 200, 500, 1000, 5000, 30_000] {
            for left in [1, 10, 100, 300, 1000, 3000, 10_000, 180_000] {
                for stones in [0, 10, 100, 220, 224] {
                    for inc in [0, 100] {
                        let t = TimeControl {
                            turn_ms: Some(turn),
                            match_ms: Some(180_000),
                            left_ms: Some(left),
                            increment_ms: inc,
                        };
                        let b = t.budget(stones, 225);
                        assert!(b.soft_ms <= b.hard_ms, "{t:?} {b:?}");
                        assert!(b.hard_ms as i64 <= turn.max(1), "{t:?} {b:?}");
                        assert!(b.hard_ms as i64 <= left.max(1), "{t:?} {b:?}");
                        if turn >= 100 && left >= 100 {
                            assert!((b.hard_ms as i64) <= turn - reserve_ms(turn));
                            assert!((b.hard_ms as i64) <= left - reserve_ms(left));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn little_time_left_stays_small() {
        let b = tc(Some(30_000), Some(180_000), Some(1000)).budget(100, 400);
        assert!(b.hard_ms <= 1000 / 7, "{b:?}");
    }

    #[test]
    fn used_time_comes_off_the_match_time_left() {
        // Before any time_left: off timeout_match.
        assert_eq!(
            tc(None, Some(10_000), None).after_use(3000).left_ms,
            Some(7000)
        );
        // After one: off time_left, and below zero means "answer at once".
        let t = tc(Some(1000), Some(10_000), Some(2000)).after_use(2500);
        assert_eq!(t.left_ms, Some(-500));
        assert_eq!(t.turn_ms, Some(1000));
        assert_eq!(t.budget(10, 225), Budget::fixed(0));
        // Unlimited match time stays unlimited; nothing used changes nothing.
        let u = tc(Some(1000), Some(0), Some(2_147_483_647));
        assert_eq!(u.after_use(5000), u);
        assert_eq!(tc(None, Some(0), None).after_use(5000).left_ms, None);
        let f = tc(None, Some(10_000), Some(4000));
        assert_eq!(f.after_use(0), f);
    }

    #[test]
    fn stop_rule() {
        let b = Budget {
            soft_ms: 476,
            hard_ms: 900,
            ample: false,
        };
        // Stable score and move: about 0.55 of the optimum.
        assert!(!b.should_stop(250, 8, 0.0, 0.0));
        assert!(b.should_stop(270, 8, 0.0, 0.0));
        // A falling score or a changing move buys more time.
        assert!(!b.should_stop(400, 8, 0.2, 0.0));
        assert!(!b.should_stop(400, 8, 0.0, 0.5));
        // But never an iteration that cannot finish before the maximum.
        assert!(b.should_stop(600, 8, 0.5, 2.0));
        assert!(!Budget::UNLIMITED.should_stop(1 << 40, 50, 0.0, 0.0));
        // With ample time the optimum alone decides.
        let a = Budget { ample: true, ..b };
        assert!(!a.should_stop(470, 8, 0.0, 0.0));
        assert!(a.should_stop(476, 8, 0.0, 0.0));
    }

    #[test]
    fn importance_decreases() {
        assert!(move_importance(0) > move_importance(50));
        assert!(move_importance(50) > move_importance(100));
        assert_eq!(move_importance(300), 0.4);
    }
}
