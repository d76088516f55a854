//! Threat-space search: the VCF and VCT solvers ([`mod@vcf`], [`mod@vct`]) and the `solve` tool.
//!
//! Entry points:
//! - [`solve`] / [`solve_with_stop`], for tools and the protocol layer: copies the board,
//!   runs a solver under a time limit and returns a [`SolveReport`];
//! - [`VcfSolver`], for the main search at any node: keep one per thread, call
//!   [`VcfSolver::solve`] (side to move attacks) or [`VcfSolver::solve_for`] (a given colour
//!   attacks, for "does the opponent have a VCF after this move?") with a node budget; no
//!   allocation per call once its buffers have grown, and the table of positions without a
//!   VCF persists between calls (dropped when the rule or board size changes);
//! - [`VctSolver`] (df-pn), for the root: node budget, deadline and stop flag;
//! - the free functions [`vcf()`] and [`vct()`], which build a fresh solver per call.
//!
//! Every entry point restores the board exactly (stones and side to move) and never
//! reports a win that the rules do not give (docs/rules.md §2-3).

pub mod vcf;
pub mod vct;

use crate::board::Board;
use crate::core::Pos;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
pub use vcf::{vcf, VcfOutcome, VcfSolver};
pub use vct::{vct, VctSolver};

/// The verdict of [`solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// The side to move has a forced win of the kind asked for.
    Win,
    /// Proved: no such win.
    None,
    /// The time ran out (or the stop flag was raised) before a proof either way.
    Unknown,
}

impl SolveResult {
    /// `win`, `none` or `unknown` (the JSON `result` field).
    pub fn name(self) -> &'static str {
        match self {
            SolveResult::Win => "win",
            SolveResult::None => "none",
            SolveResult::Unknown => "unknown",
        }
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// Win, none or unknown.
    pub result: SolveResult,
    /// On a win: attacker, defender, ..., the winning move (a five, a four with two five
    /// points, or a four whose only block is forbidden to black); else empty.
    pub line: Vec<Pos>,
    /// Nodes searched (VCF nodes, or VCT proof nodes plus their VCF sub-search nodes).
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

impl SolveReport {
    /// The first move of the winning line.
    pub fn best_move(&self) -> Option<Pos> {
        self.line.first().copied()
    }

    /// The JSON object of the `solve` tool:
    /// `{"result":"win","move":"i8","line":["i8","g8","i10"],"nodes":1234,"time_ms":3}`
    /// (`move` is null and `line` empty unless the result is a win).
    pub fn to_json(&self) -> serde_json::Value {
        let line: Vec<String> = self.line.iter().map(|p| p.to_notation()).collect();
        serde_json::json!({
            "result": self.result.name(),
            "move": self.best_move().map(|p| p.to_notation()),
            "line": line,
            "nodes": self.nodes,
            "time_ms": self.time_ms,
        })
    }

    /// Plain text, one `key value` line each: `result`, `move`, `line`, `plies`, `nodes`,
    /// `time_ms`.
    pub fn to_text(&self) -> String {
        let line: Vec<String> = self.line.iter().map(|p| p.to_notation()).collect();
        let mv = self
            .best_move()
            .map(|p| p.to_notation())
            .unwrap_or_else(|| "none".into());
        format!(
            "result {}\nmove {}\nline {}\nplies {}\nnodes {}\ntime_ms {}\n",
            self.result.name(),
            mv,
            if line.is_empty() {
                "-".to_string()
            } else {
                line.join(" ")
            },
            self.line.len(),
            self.nodes,
            self.time_ms
        )
    }
}

/// Passes of the VCT solver ([`VctSolver::set_first_pass`]): a parallel VCT solve runs at
/// most this many solvers.
pub const VCT_PASSES: usize = 3;

/// What bounds a [`solve_with_stop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// Time limit in milliseconds (0: no limit).
    pub time_ms: u64,
    /// Threads, at least 1 (a VCF uses one whatever this says).
    pub threads: usize,
    /// Memory the VCT solvers may use together, in bytes ([`usize::MAX`]: no cap); a solve
    /// that would pass it answers [`SolveResult::Unknown`]. A VCF needs a fixed 8 MiB.
    pub memory_bytes: usize,
}

impl SolveLimits {
    /// One thread, no memory cap, `time_ms` milliseconds (0: no limit).
    pub fn time(time_ms: u64) -> SolveLimits {
        SolveLimits {
            time_ms,
            threads: 1,
            memory_bytes: usize::MAX,
        }
    }
}

/// Solves `board` for the side to move on one thread: a VCF, or with `vct` a VCT, within
/// `time_ms` milliseconds (0: no limit). The board is not changed. See [`solve_with_stop`].
pub fn solve(board: &Board, vct: bool, time_ms: u64) -> SolveReport {
    solve_with_stop(
        board,
        vct,
        &SolveLimits::time(time_ms),
        &AtomicBool::new(false),
    )
}

/// As [`solve`], within `limits`, and `stop` (raised by another thread) ends the search
/// early with [`SolveResult::Unknown`] unless a result is already known.
///
/// A VCT on several threads is a portfolio: solver `i` starts with pass `i` of
/// [`VctSolver::solve`] (threes and fours only; quiet VCF threats; larger VCF sub-searches),
/// all share the deadline and the memory cap, and the first proof (a win, or "none" from a
/// pass with quiet threats) stops the others. `nodes` sums every solver's nodes. A VCF runs
/// on one thread.
pub fn solve_with_stop(
    board: &Board,
    vct: bool,
    limits: &SolveLimits,
    stop: &AtomicBool,
) -> SolveReport {
    let start = Instant::now();
    let deadline = (limits.time_ms > 0).then(|| start + Duration::from_millis(limits.time_ms));
    let mut b = board.clone();
    let solvers = limits.threads.clamp(1, VCT_PASSES);
    // Each VCT solver's cap on its growing tables.
    // Each VCT solver's share of the memory (all of it counted: fixed and growing tables).
    let per_solver = match limits.memory_bytes {
        usize::MAX => usize::MAX,
        m => m / solvers,
    };
    let (outcome, nodes) = if vct && solvers > 1 {
        parallel_vct(board, solvers, per_solver, deadline, stop)
    } else if vct {
        let mut s = vct_solver(per_solver);
        let r = s.solve(&mut b, u64::MAX, deadline, stop);
        (r, s.nodes())
    } else {
        let mut s = VcfSolver::new();
        s.set_deadline(deadline);
        let r = s.solve(&mut b, u64::MAX, stop);
        (r, s.nodes())
    };
    let (result, line) = match outcome {
        VcfOutcome::Win(line) => (SolveResult::Win, line),
        VcfOutcome::None => (SolveResult::None, Vec::new()),
        VcfOutcome::Unknown => (SolveResult::Unknown, Vec::new()),
    };
    SolveReport {
        result,
        line,
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
    }
}

/// A VCT solver within `bytes` bytes ([`vct::vct_solver_for`]), or the default one without
/// a cap ([`usize::MAX`]).
fn vct_solver(bytes: usize) -> VctSolver {
    if bytes == usize::MAX {
        VctSolver::new()
    } else {
        vct::vct_solver_for(bytes)
    }
}

/// The VCT portfolio of [`solve_with_stop`] on `solvers` threads: the outcome and the nodes
/// of all solvers.
fn parallel_vct(
    board: &Board,
    solvers: usize,
    memory_per_solver: usize,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> (VcfOutcome, u64) {
    // Raised by the first solver with a proof, or by the watcher when `stop` is raised.
    let finished = AtomicBool::new(false);
    let proof: std::sync::Mutex<Option<VcfOutcome>> = std::sync::Mutex::new(None);
    let nodes = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..solvers)
            .map(|pass| {
                let (finished, proof, nodes) = (&finished, &proof, &nodes);
                let mut b = board.clone();
                scope.spawn(move || {
                    let mut s = vct_solver(memory_per_solver);
                    s.set_first_pass(pass);
                    let r = s.solve(&mut b, u64::MAX, deadline, finished);
                    nodes.fetch_add(s.nodes(), Ordering::Relaxed);
                    if r != VcfOutcome::Unknown && !finished.swap(true, Ordering::AcqRel) {
                        *proof.lock().unwrap() = Some(r);
                    }
                })
            })
            .collect();
        // Watcher: passes `stop` on, and ends when every solver has.
        while !workers.iter().all(|w| w.is_finished()) {
            if stop.load(Ordering::Relaxed) {
                finished.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    let outcome = proof.into_inner().unwrap().unwrap_or(VcfOutcome::Unknown);
    (outcome, nodes.into_inner())
}
