//! Time control: turns the manager's clock (protocol.md §2.4 and §4) into a search budget.
//!
//! All durations are milliseconds. A value of `None` means "not received". The budget is
//! measured from the moment the request was read (protocol.md §4.2), never from an earlier
//! clock reading: managers suspend engines between moves.

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

/// Safety margin kept back from the hard limit, in milliseconds: covers pipe latency, process
/// resume and the stop latency of the search.
pub const SAFETY_MS: i64 = 120;

/// A search budget in milliseconds from the moment the request was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stop starting new iterations after this (typical time for the move).
    pub soft_ms: u64,
    /// Never search past this.
    pub hard_ms: u64,
}

impl Budget {
    /// A budget with no limit (analysis).
    pub const UNLIMITED: Budget = Budget {
        soft_ms: u64::MAX / 4,
        hard_ms: u64::MAX / 4,
    };
    /// Both limits at `ms`.
    pub fn fixed(ms: u64) -> Budget {
        Budget {
            soft_ms: ms,
            hard_ms: ms,
        }
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

    /// The budget for the next move, given the number of stones already on the board and the
    /// board's point count (to estimate how many moves remain).
    ///
    /// - hard limit: min(turn, time left) minus [`SAFETY_MS`] (at least 1 ms... 0 when the
    ///   turn limit is 0 or time left is not positive: answer at once);
    /// - soft limit: when match time binds, the time left spread over the expected remaining
    ///   moves (plus the increment), else about 60 % of the turn limit.
    pub fn budget(&self, stones: usize, points: usize) -> Budget {
        if self.is_unlimited() {
            return Budget::UNLIMITED;
        }
        let turn = self.turn_ms.filter(|&t| t < TURN_UNLIMITED_MS);
        let left = match self.left_ms {
            Some(l) if l < UNLIMITED_MS => Some(l),
            Some(_) => None,
            None => self.match_ms.filter(|&m| m > 0 && m < UNLIMITED_MS),
        };
        if turn == Some(0) || left.is_some_and(|l| l <= 0) {
            return Budget::fixed(0);
        }
        let mut hard = i64::MAX / 4;
        if let Some(t) = turn {
            hard = hard.min(t - SAFETY_MS.min(t / 4));
        }
        if let Some(l) = left {
            // Keep a reserve so that a long game never runs the clock out.
            hard = hard
                .min(l - SAFETY_MS.min(l / 4))
                .min(l * 3 / 10 + self.increment_ms);
        }
        let hard = hard.max(1);
        let mut soft = hard;
        if let Some(t) = turn {
            soft = soft.min(t * 6 / 10);
        }
        if let Some(l) = left {
            // Expected remaining own moves: games rarely run past half the board.
            let expected_total = (points / 3).clamp(30, 120) as i64;
            let own_stones = (stones / 2) as i64;
            let remaining = (expected_total - own_stones).max(12);
            soft = soft.min(l / remaining + self.increment_ms * 8 / 10);
        }
        let soft = soft.clamp(1, hard);
        Budget {
            soft_ms: soft as u64,
            hard_ms: hard as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_limit_only() {
        let tc = TimeControl {
            turn_ms: Some(5000),
            ..Default::default()
        };
        let b = tc.budget(10, 225);
        assert_eq!(b.hard_ms, 5000 - SAFETY_MS as u64);
        assert_eq!(b.soft_ms, 3000);
    }

    #[test]
    fn zero_turn_means_now() {
        let tc = TimeControl {
            turn_ms: Some(0),
            ..Default::default()
        };
        assert_eq!(tc.budget(0, 225), Budget::fixed(0));
    }

    #[test]
    fn negative_time_left_means_now() {
        let tc = TimeControl {
            turn_ms: Some(5000),
            match_ms: Some(100000),
            left_ms: Some(-5),
            increment_ms: 0,
        };
        assert_eq!(tc.budget(0, 225), Budget::fixed(0));
    }

    #[test]
    fn unlimited_values() {
        let tc = TimeControl {
            turn_ms: None,
            match_ms: Some(0),
            left_ms: Some(2147483647),
            increment_ms: 0,
        };
        assert!(tc.is_unlimited());
        let tc = TimeControl {
            turn_ms: Some(2_000_000),
            match_ms: Some(100_000_000),
            left_ms: None,
            increment_ms: 0,
        };
        assert!(tc.is_unlimited());
    }

    #[test]
    fn match_time_spreads() {
        let tc = TimeControl {
            turn_ms: Some(30000),
            match_ms: Some(180000),
            left_ms: Some(180000),
            increment_ms: 0,
        };
        let b = tc.budget(20, 400);
        assert!(b.soft_ms < 10000, "{:?}", b);
        assert!(b.hard_ms <= 30000 - SAFETY_MS as u64);
        // Little time left: the hard limit stays well below it.
        let tc = TimeControl {
            turn_ms: Some(30000),
            match_ms: Some(180000),
            left_ms: Some(1000),
            increment_ms: 0,
        };
        let b = tc.budget(100, 400);
        assert!(b.hard_ms <= 300, "{:?}", b);
    }
}
