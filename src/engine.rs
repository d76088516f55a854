//! The engine facade: owns the search state (transposition table, thread count, options) and
//! answers "think about this board" requests. Protocol, CLI and match code use only this.
//!
//! Searching never writes to stdout: progress goes to a callback as [`SearchInfo`].

use crate::board::Board;
use crate::core::Pos;
use crate::search::{self, Limits, SearchInfo, SearchResult};
use crate::time::Budget;
use crate::tt::Plan;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Most principal variations a search gives (`YXNBEST`, `--multipv`; more are clamped to
/// this by the protocol; the search also stops at the number of root moves).
pub const MAX_MULTIPV: usize = 64;

/// Default transposition table size in bytes when no memory limit is given (64 MiB).
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

/// Memory set aside for the root VCT solver of a search, in bytes: its proof table grows with
/// its node budget (at most 200 000 nodes). Outside searches (the protocol's `SOLVE`) the
/// threat solvers may use it.
pub const ROOT_VCT_BYTES: usize = 20 << 20;

/// Estimated resident memory of the process apart from the transposition table and the
/// search threads, in bytes: code, libraries, pattern tables, the protocol's buffers and its
/// search thread, the pool that clears the table. Measured on Linux x86-64 (`VmHWM` over
/// whole protocol games, `tests/memory_protocol.rs`) at about 6 MiB; doubled for other
/// platforms and allocator slack; plus [`ROOT_VCT_BYTES`] and the stand-in table searches
/// use while the real one is prepared in the background ([`crate::tt::STAND_IN_BYTES`]).
pub const BASE_MEMORY_BYTES: usize = (12 << 20) + ROOT_VCT_BYTES + crate::tt::STAND_IN_BYTES;

/// Longest wait of a timed search for a table still being prepared in the background, in
/// milliseconds (it waits at most an eighth of its soft limit, and up to this).
pub const MAX_TABLE_WAIT_MS: u64 = 1_000;

/// Estimated resident memory of each search thread, in bytes: the touched part of its stack
/// (recursion to at most 128 plies), its board copy, its history, killer and PV tables and
/// any threat-solver table. Measured at under 1 MiB per thread (1 to 8 threads, Linux
/// x86-64); the estimate leaves room for per-thread solver tables.
pub const THREAD_MEMORY_BYTES: usize = 4 << 20;

/// Engine options that persist across games (set by `INFO` keys or CLI flags).
#[derive(Clone, Debug)]
pub struct Options {
    /// Search threads, at least 1.
    pub threads: usize,
    /// Transposition table size in bytes.
    pub hash_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            hash_bytes: DEFAULT_HASH_BYTES,
        }
    }
}

/// The largest useful thread count: the machine's available parallelism (at least 1).
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Makes the C allocator give freed blocks of 1 MiB and more back to the operating system at
/// once (called by [`Engine::new`]; process-wide, idempotent).
///
/// glibc raises its mmap threshold each time it frees a large mapped block, after which
/// blocks of that size come from the heap of the allocating thread and stay resident after
/// being freed. Every search runs on fresh threads, each given its own heap, so tables
/// allocated per search (the threat solvers') would pile up, one copy per heap: measured at
/// `max_memory` 64 MiB, resident memory grew from 32 to 52 MiB over four short games and
/// the peak passed 64 MiB within two long ones (`tests/memory_protocol.rs`). A fixed
/// threshold keeps such blocks in their own mappings, unmapped when freed. No-op except on
/// Linux with glibc.
fn return_large_blocks_to_os() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            use std::ffi::c_int;
            extern "C" {
                fn mallopt(param: c_int, value: c_int) -> c_int;
            }
            /// glibc's `M_MMAP_THRESHOLD` parameter of `mallopt`.
            const M_MMAP_THRESHOLD: c_int = -3;
            // SAFETY: `mallopt` is glibc's documented allocator-tuning call; it takes two
            // integers and only changes allocation parameters.
            unsafe {
                mallopt(M_MMAP_THRESHOLD, 1 << 20);
            }
        });
    }
}

/// The engine: search state shared by successive requests.
pub struct Engine {
    options: Options,
    searcher: search::Searcher,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Options::default())
    }
}

impl Engine {
    /// A new engine with the given options (allocates the transposition table).
    /// The thread count is capped as in [`Engine::set_threads`].
    pub fn new(mut options: Options) -> Engine {
        return_large_blocks_to_os();
        options.threads = options.threads.clamp(1, max_threads());
        let searcher = search::Searcher::new(options.hash_bytes);
        Engine { options, searcher }
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets the number of search threads (at least 1).
    ///
    /// The count is capped at the machine's hardware threads ([`max_threads`]): more threads
    /// than cores only slow the search and its stop latency down.
    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.clamp(1, max_threads());
    }

    /// Resizes the transposition table to at most `bytes` bytes (its contents are lost).
    pub fn set_hash_bytes(&mut self, bytes: usize) {
        if bytes != self.options.hash_bytes {
            self.options.hash_bytes = bytes;
            self.searcher.resize_tt(bytes);
        }
    }

    /// Size of the transposition table in bytes (at most the size asked for; less if the
    /// allocation had to be halved).
    pub fn tt_bytes(&self) -> usize {
        self.searcher.tt_bytes()
    }

    /// Estimated resident memory of everything except the transposition table when searching
    /// on `threads` threads, in bytes ([`BASE_MEMORY_BYTES`] plus [`THREAD_MEMORY_BYTES`] per
    /// thread, plus the networks of `--network` if any,
    /// [`crate::eval::network::installed_bytes`]). A memory limit minus this is what the
    /// table may use.
    pub fn memory_overhead(threads: usize) -> usize {
        BASE_MEMORY_BYTES
            .saturating_add(THREAD_MEMORY_BYTES.saturating_mul(threads.max(1)))
            .saturating_add(crate::eval::network::installed_bytes())
    }

    /// Makes the transposition table resident now, outside any clock, so that searches do
    /// not pay page faults (tables under 1 GiB; see `TranspositionTable::prefault`). The
    /// CLI calls it before analysing.
    pub fn prefault(&mut self) {
        self.searcher.prefault();
    }

    /// Clears the transposition table and histories (new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
    }

    /// [`Engine::set_hash_bytes`] without waiting: the old table is freed and the new one
    /// allocated on a background thread (see [`Engine::think`] for what searches use
    /// meanwhile). For the protocol, whose clock may be running.
    pub fn set_hash_bytes_in_background(&mut self, bytes: usize) {
        if bytes != self.options.hash_bytes {
            self.options.hash_bytes = bytes;
            self.searcher.prepare_in_background(Plan {
                resize: Some(bytes),
                ..Plan::default()
            });
        }
    }

    /// [`Engine::clear`] without waiting: the table is emptied on a background thread.
    pub fn clear_in_background(&mut self) {
        self.searcher.prepare_in_background(Plan {
            clear: true,
            ..Plan::default()
        });
    }

    /// [`Engine::prefault`] without waiting: the table is made resident on a background
    /// thread. The protocol calls it once the memory settings are known.
    pub fn prefault_in_background(&mut self) {
        self.searcher.prepare_in_background(Plan {
            prefault: true,
            ..Plan::default()
        });
    }

    /// Searches `board` for the side to move within `limits`; `stop` may be raised by another
    /// thread at any time to end the search early. `on_info` receives progress after each
    /// completed iteration. Always returns a legal move when one exists (on a full board the
    /// result's move is [`Pos::NONE`]).
    ///
    /// While the table is being prepared in the background (the `*_in_background` methods),
    /// a search without a time limit waits for it (until `stop`); a timed one waits at most
    /// an eighth of its soft limit (at most [`MAX_TABLE_WAIT_MS`]), deducted from its budget,
    /// and then searches with a stand-in table of at most [`crate::tt::STAND_IN_BYTES`]; the
    /// preparation pauses while the search runs and goes on after it.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        if limits.budget == Budget::UNLIMITED {
            while !self.searcher.install_prepared(Duration::from_millis(10))
                && !stop.load(Ordering::Relaxed)
            {}
            let _paused = self.searcher.pause_preparation();
            return self
                .searcher
                .search(board, limits, self.options.threads, stop, on_info);
        }
        let wait = (limits.budget.soft_ms / 8).min(MAX_TABLE_WAIT_MS);
        self.searcher.install_prepared(Duration::from_millis(wait));
        let deadline = start + Duration::from_millis(limits.budget.hard_ms);
        let waited = start.elapsed().as_millis() as u64;
        let hard = limits.budget.hard_ms.saturating_sub(waited).max(1);
        let limits = Limits {
            budget: Budget {
                soft_ms: limits.budget.soft_ms.saturating_sub(waited).clamp(1, hard),
                hard_ms: hard,
                ample: limits.budget.ample,
            },
            ..limits.clone()
        };
        let threads = self.options.threads;
        let searcher = &mut self.searcher;
        // The search's stop flag is also raised at the hard limit, by a timer thread: the
        // search checks its clock only between batches of nodes, while the threat solvers it
        // runs inside them see the stop flag (measured: a 150 ms search of a crowded position
        // took 280 ms without it).
        let raised = AtomicBool::new(false);
        let finished = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let timer = std::thread::Builder::new()
                .name("deadline".into())
                .spawn_scoped(scope, || {
                    while !finished.load(Ordering::Relaxed) {
                        if stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
                            raised.store(true, Ordering::Relaxed);
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(1));
                    }
                });
            let flag = if timer.is_ok() { &raised } else { stop };
            let paused = searcher.pause_preparation();
            let r = searcher.search(board, &limits, threads, flag, on_info);
            drop(paused);
            finished.store(true, Ordering::Relaxed);
            r
        })
    }

    /// A quick move for emergencies (no time at all): an immediate win, a forced block, or
    /// the point with the best static score. [`Pos::NONE`] only on a full board.
    pub fn quick_move(board: &Board) -> Pos {
        search::quick_move(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn board() -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (7, 8), (8, 8)] {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn a_table_prepared_in_the_background_is_used_once_ready() {
        let mut e = Engine::new(Options {
            threads: 1,
            hash_bytes: 8 << 20,
        });
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        e.think(&board(), &limits, &stop, &mut |_| {});
        e.set_hash_bytes_in_background(24 << 20);
        e.clear_in_background();
        e.prefault_in_background();
        assert_eq!(
            e.tt_bytes(),
            24 << 20,
            "the size planned is reported at once"
        );
        // A search without a time limit waits for the table.
        let r = e.think(&board(), &limits, &stop, &mut |_| {});
        assert!(r.depth >= 1 && !r.best.is_none());
        assert!(e.searcher.install_prepared(Duration::ZERO));
        assert_eq!(e.tt_bytes(), 24 << 20);
        // A resident table needs no prefault: nothing is started.
        e.prefault_in_background();
        assert!(e.searcher.install_prepared(Duration::ZERO));
        // A timed search never waits past its budget: it uses the stand-in meanwhile.
        e.clear_in_background();
        let timed = Limits {
            budget: Budget {
                soft_ms: 40,
                hard_ms: 60,
                ample: false,
            },
            ..Limits::default()
        };
        let t = Instant::now();
        let r = e.think(&board(), &timed, &stop, &mut |_| {});
        assert!(!r.best.is_none());
        assert!(
            t.elapsed() < Duration::from_millis(60 + 50),
            "{:?}",
            t.elapsed()
        );
    }
}
