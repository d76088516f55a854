//! The session's settings and memory plan: `INFO` values ([`Settings`]), the clock of the
//! current turn, the engine settings they give (threads, table size) and how the memory limit
//! is shared between the table, the threads and the threat solvers.

use super::*;

/// The values received by `INFO` (docs/protocol.md §2.4, §6.2), kept across games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `timeout_turn`, `timeout_match`, `time_left`, `time_increment` (milliseconds).
    pub time: TimeControl,
    /// `max_memory` in bytes (0 = no limit); `None` if never received.
    pub max_memory: Option<i64>,
    /// `hash_size` in KiB; overrides `max_memory` when set.
    pub hash_kib: Option<i64>,
    /// `thread_num`.
    pub threads: Option<i64>,
    /// `max_depth` in plies (`None` = no limit).
    pub max_depth: Option<i64>,
    /// `max_node` (`None` = no limit).
    pub max_nodes: Option<i64>,
    /// `show_detail` bits: 1 realtime lines, 2 `INFO` blocks.
    pub show_detail: i64,
    /// `game_type` (informational).
    pub game_type: Option<i64>,
    /// `pondering` (stored; we never ponder).
    pub pondering: i64,
    /// `folder`, as given.
    pub folder: Option<String>,
    /// The rule from `INFO rule` (freestyle until told).
    pub rule: Rule,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time: TimeControl::default(),
            max_memory: None,
            hash_kib: None,
            threads: None,
            max_depth: None,
            max_nodes: None,
            show_detail: 0,
            game_type: None,
            pondering: 0,
            folder: None,
            rule: Rule::Freestyle,
        }
    }
}

impl Settings {
    /// The transposition table size these settings ask for, in bytes: `hash_size` KiB if
    /// given; else [`MEMORY_BUDGET_PERCENT`] of `max_memory` ([`DEFAULT_MAX_MEMORY`] when it
    /// is 0) minus the engine's estimate of its other memory for the thread count in force
    /// ([`Engine::memory_overhead`]); clamped to [`MIN_HASH_BYTES`]..=[`MAX_HASH_BYTES`].
    /// `None` when neither key was received (the engine keeps its default).
    pub fn hash_bytes(&self) -> Option<usize> {
        let bytes = if let Some(kib) = self.hash_kib {
            (kib as u64).saturating_mul(1024)
        } else {
            let m = self.max_memory?;
            let basis = if m == 0 { DEFAULT_MAX_MEMORY } else { m as u64 };
            let threads = match self.threads {
                Some(t) => (t.max(1) as u64).min(MAX_THREADS as u64) as usize,
                None => crate::engine::Options::default().threads,
            };
            let rest = Engine::memory_overhead(threads) as u64;
            (basis / 100 * MEMORY_BUDGET_PERCENT).saturating_sub(rest)
        };
        let b = bytes.clamp(MIN_HASH_BYTES, MAX_HASH_BYTES);
        Some(b.min(usize::MAX as u64) as usize)
    }
}

impl<B: Brain, W: Write> Session<B, W> {
    pub(super) fn apply_info(&mut self, info: Info) {
        let memory = matches!(
            info,
            Info::MaxMemory(_) | Info::HashSize(_) | Info::ThreadNum(_)
        );
        let s = &mut self.settings;
        let mut retime = false;
        match info {
            Info::TimeoutTurn(v) if v >= 0 => {
                s.time.turn_ms = Some(v);
                retime = true;
            }
            Info::TimeoutMatch(v) if v >= 0 => {
                s.time.match_ms = Some(v);
                retime = true;
            }
            Info::TimeLeft(v) => {
                s.time.left_ms = Some(v);
                self.clock_used_ms = 0;
                retime = true;
            }
            Info::TimeIncrement(v) if v >= 0 => s.time.increment_ms = v,
            Info::MaxMemory(v) if v >= 0 => {
                s.max_memory = Some(v);
                if v > 0 && (v as u64) < MIN_WORKING_MEMORY {
                    // docs/protocol.md §2.4: a limit we cannot meet is reported, and we play on.
                    self.message(&format!(
                        "max_memory {} bytes is below what the engine needs (about {} bytes); playing with the smallest table",
                        v, MIN_WORKING_MEMORY
                    ));
                }
            }
            Info::HashSize(v) if v > 0 => s.hash_kib = Some(v),
            Info::ThreadNum(v) if v >= 1 => s.threads = Some(v),
            Info::MaxDepth(v) => s.max_depth = (v > 0).then_some(v),
            Info::MaxNode(v) => s.max_nodes = (v > 0).then_some(v),
            Info::ShowDetail(v) => s.show_detail = v,
            Info::GameType(v) => s.game_type = Some(v),
            Info::Pondering(v) => s.pondering = v,
            Info::Folder(f) => s.folder = Some(f),
            Info::Variant(v) => self.four_variant(&v),
            Info::Mode(m) => self.four_mode(&m),
            Info::Rule(v) => {
                let rule = match Rule::from_gomocup(v) {
                    Some(r) => r,
                    None => {
                        self.message(&format!("rule {} not recognised; playing freestyle", v));
                        Rule::Freestyle
                    }
                };
                self.settings.rule = rule;
                if let Some(g) = self.game.as_mut() {
                    g.board.set_rule(rule);
                }
                self.four_rule(rule);
            }
            _ => {}
        }
        if retime {
            self.retime_job();
        }
        if memory && self.job.is_none() {
            // Size the table now, between requests and outside the clock.
            self.apply_engine_settings();
            self.prefault_known_table();
        }
    }

    /// Makes the table resident once its size comes from `max_memory` or `hash_size` (not
    /// the 64 MiB default, which may be above a limit still to come).
    pub(super) fn prefault_known_table(&mut self) {
        // Four-colour searches have their own small table (`fourcolour.rs`).
        if self.settings.hash_bytes().is_some() && !self.four_colour() {
            if let Some(b) = self.brain.as_mut() {
                b.prefault();
            }
        }
    }

    /// Adds the time since the request read at `at` to [`Session::clock_used_ms`].
    pub(super) fn charge_clock(&mut self, at: Instant) {
        let used = at.elapsed().as_millis().min(i64::MAX as u128) as i64;
        self.clock_used_ms = self.clock_used_ms.saturating_add(used);
    }

    /// The clock as the manager last gave it, less the time our moves have taken since
    /// (`clock_used_ms`); a turn limit of [`DEFAULT_TURN_MS`] when no time key was ever
    /// received.
    pub(super) fn clock(&self) -> TimeControl {
        let t = self.settings.time;
        if t.turn_ms.is_none() && t.match_ms.is_none() && t.left_ms.is_none() {
            return TimeControl {
                turn_ms: Some(DEFAULT_TURN_MS),
                ..t
            };
        }
        t.after_use(self.clock_used_ms)
    }

    /// A time `INFO` arrived: tighten the running job's watchdog to the new budget (measured
    /// from its request), or stop it now when the new budget is 0.
    pub(super) fn retime_job(&mut self) {
        let tc = self.clock();
        let Some(j) = self.job.as_mut() else { return };
        if matches!(j.kind, JobKind::Solve { .. }) {
            // A SOLVE has its own time limit, not the game clock's.
            return;
        }
        let b = tc.budget(j.stones, j.points);
        if b.hard_ms == 0 {
            j.stop.store(true, Ordering::SeqCst);
            j.deadline = None;
            return;
        }
        if let Some(d) = j.at.checked_add(Duration::from_millis(
            b.hard_ms.saturating_add(WATCHDOG_GRACE_MS),
        )) {
            if j.deadline.is_none_or(|old| d < old) {
                j.deadline = Some(d);
            }
        }
    }

    /// Passes thread and memory settings to the engine (only between jobs).
    pub(super) fn apply_engine_settings(&mut self) {
        let Some(brain) = self.brain.as_mut() else {
            return;
        };
        if let Some(t) = self.settings.threads {
            brain.set_threads((t.max(1) as u64).min(MAX_THREADS as u64) as usize);
        }
        if let Some(bytes) = self.settings.hash_bytes() {
            brain.set_hash_bytes(bytes);
        }
    }

    /// The budget for a request read at `at`, as left now; `None` means "answer at once".
    pub(super) fn budget_now(&self, at: Instant, stones: usize, points: usize) -> Option<Budget> {
        let b = self.clock().budget(stones, points);
        if b.hard_ms == 0 {
            return None;
        }
        if b == Budget::UNLIMITED {
            return Some(b);
        }
        let spent = at.elapsed().as_millis().min(u64::MAX as u128) as u64;
        let hard = b.hard_ms.saturating_sub(spent);
        if hard == 0 {
            return None;
        }
        Some(Budget {
            soft_ms: b.soft_ms.saturating_sub(spent).clamp(1, hard),
            hard_ms: hard,
            ample: b.ample,
        })
    }

    pub(super) fn limits(&self, budget: Budget, board: &Board) -> Limits {
        let excluded = self
            .blocked
            .iter()
            .filter(|c| board.contains_xy(c.x, c.y))
            .map(|c| Pos::new(c.x as usize, c.y as usize))
            .collect();
        Limits {
            excluded,
            threat_memory: self.threat_memory(),
            ..self.depth_and_nodes(budget)
        }
    }

    /// The limits every search shares, the four-colour one too: `budget` and the
    /// `INFO max_depth` and `INFO max_node` settings.
    pub(super) fn depth_and_nodes(&self, budget: Budget) -> Limits {
        Limits {
            budget,
            max_depth: self
                .settings
                .max_depth
                .map(|d| d.min(i32::MAX as i64) as i32),
            max_nodes: self.settings.max_nodes.map(|n| n as u64),
            ..Limits::default()
        }
    }

    /// The thread count in force (`INFO thread_num`, else every core; at most the hardware
    /// threads).
    pub(super) fn threads(&self) -> usize {
        match self.settings.threads {
            Some(t) => (t.max(1) as u64).min(MAX_THREADS as u64) as usize,
            None => crate::engine::max_threads(),
        }
        .min(crate::engine::max_threads())
    }

    /// Memory for the root VCT solver of a search under `max_memory`: what
    /// [`MEMORY_BUDGET_PERCENT`] of it leaves beside the table and the engine's other
    /// memory, at most [`crate::engine::ROOT_VCT_BYTES`] (what the engine plans for it);
    /// `None` without a limit. Less only when `max_memory` is small (under about 64 MiB).
    pub(super) fn threat_memory(&self) -> Option<usize> {
        let free = self.memory_for_solvers(MEMORY_BUDGET_PERCENT)?;
        Some(free.min(crate::engine::ROOT_VCT_BYTES as u64) as usize)
    }

    /// Bytes that `percent` % of `max_memory` leaves beside the table and the engine's other
    /// memory apart from the root VCT's share ([`crate::engine::ROOT_VCT_BYTES`]), for the
    /// threat solvers; `None` without a limit (`max_memory` not received or 0).
    pub(super) fn memory_for_solvers(&self, percent: u64) -> Option<u64> {
        let m = self.settings.max_memory.filter(|&m| m > 0)? as u64;
        let table = self
            .settings
            .hash_bytes()
            .map_or(crate::engine::DEFAULT_HASH_BYTES as u64, |b| b as u64);
        let other =
            (Engine::memory_overhead(self.threads()) - crate::engine::ROOT_VCT_BYTES) as u64;
        Some((m / 100 * percent).saturating_sub(table + other))
    }
}
