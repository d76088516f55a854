//! The one evaluation every opening decision rests on: "how good is this position for each
//! colour", from a search, with the line the search saw (docs/openings.md §2).
//!
//! A decision gets a [`Search`] (the engine, or a scripted stand-in in tests) and a time
//! budget; an [`Evaluator`] spreads the budget over the searches the decision runs and
//! keeps their totals. Scores are turned from the searcher's "side to move" view into
//! black's view ([`Eval::black`]), so that decisions about colours compare them directly.

use crate::board::Board;
use crate::core::{Color, Pos};
use crate::engine::Engine;
use crate::search::{Limits, SearchResult};
use crate::time::Budget;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What one search of a decision is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Time for this search, from its start.
    pub budget: Budget,
    /// Lines to search (multi-PV); 1 for the best move only.
    pub multipv: usize,
    /// Root moves the search must not consider.
    pub excluded: Vec<Pos>,
}

/// Something that searches a position for its side to move: the engine
/// ([`EngineSearch`]), or a closure `FnMut(&Board, &Probe) -> SearchResult`.
pub trait Search {
    /// Searches `board` for its side to move as `probe` asks.
    fn search(&mut self, board: &Board, probe: &Probe) -> SearchResult;
}

impl<F: FnMut(&Board, &Probe) -> SearchResult> Search for F {
    fn search(&mut self, board: &Board, probe: &Probe) -> SearchResult {
        self(board, probe)
    }
}

/// The engine facade as a [`Search`]: every probe is one [`Engine::think`] with the probe's
/// budget, lines and exclusions on top of `base` (which carries node and depth caps).
pub struct EngineSearch<'a> {
    engine: &'a mut Engine,
    base: Limits,
    stop: &'a AtomicBool,
}

impl<'a> EngineSearch<'a> {
    /// Wraps `engine`; `stop` ends every search early when raised.
    pub fn new(engine: &'a mut Engine, base: Limits, stop: &'a AtomicBool) -> EngineSearch<'a> {
        EngineSearch { engine, base, stop }
    }
}

impl Search for EngineSearch<'_> {
    fn search(&mut self, board: &Board, probe: &Probe) -> SearchResult {
        let limits = Limits {
            budget: probe.budget,
            multipv: probe.multipv.max(1),
            excluded: probe.excluded.clone(),
            ..self.base.clone()
        };
        self.engine.think(board, &limits, self.stop, &mut |_| {})
    }
}

/// A position judged by one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eval {
    /// Score from black's point of view in evaluation units (positive: black is better;
    /// forced wins are `eval::WIN` minus plies, losses the negation).
    pub black: i32,
    /// The colour to move in the searched position.
    pub to_move: Option<Color>,
    /// The best move of the side to move ([`Pos::NONE`] when none was searched).
    pub best: Pos,
    /// The line the search saw, its first move first.
    pub pv: Vec<Pos>,
    /// Completed depth in plies.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

impl Eval {
    /// The score from `c`'s point of view.
    pub fn for_color(&self, c: Color) -> i32 {
        match c {
            Color::Black => self.black,
            Color::White => -self.black,
        }
    }

    /// Builds the evaluation of `board` from a search of it.
    pub fn from_result(board: &Board, r: &SearchResult) -> Eval {
        let stm = board.side_to_move();
        Eval {
            black: to_black(stm, r.score),
            to_move: Some(stm),
            best: r.best,
            pv: r.pv.clone(),
            depth: r.depth,
            nodes: r.nodes,
        }
    }
}

/// Turns a score from `stm`'s view into black's.
pub fn to_black(stm: Color, score: i32) -> i32 {
    match stm {
        Color::Black => score,
        Color::White => -score,
    }
}

/// One root move of a multi-PV search: the move and the position's score after it, from
/// black's view, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub at: Pos,
    /// Score from black's view.
    pub black: i32,
    /// The line, the move first.
    pub pv: Vec<Pos>,
    /// Completed depth of the search that scored it, in plies (0: not searched).
    pub depth: i32,
}

/// Budget of a whole decision when the caller gives no limit.
pub const UNLIMITED_DECISION: Budget = Budget {
    soft_ms: 5_000,
    hard_ms: 10_000,
    ample: false,
};

/// How many forced replies [`Evaluator::eval`] follows at most.
pub const FORCED_FOLLOW: usize = 3;

/// Budgets above this many milliseconds count as "no limit".
const UNLIMITED_THRESHOLD_MS: u64 = 24 * 3600 * 1000;

/// Runs the searches of one decision within its budget and keeps their totals.
pub struct Evaluator<'a> {
    search: &'a mut dyn Search,
    budget: Budget,
    start: Instant,
    /// Nodes of all searches so far.
    pub nodes: u64,
    /// Searches run so far.
    pub searches: usize,
    /// Shortest wall time of a search so far, in ms (the engine's fixed cost per search).
    min_wall_ms: Option<u64>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator spending at most `budget` (measured from now; an unlimited budget becomes
    /// [`UNLIMITED_DECISION`]) on searches through `search`.
    pub fn new(search: &'a mut dyn Search, budget: Budget) -> Evaluator<'a> {
        let budget = if budget.hard_ms >= UNLIMITED_THRESHOLD_MS {
            UNLIMITED_DECISION
        } else {
            budget
        };
        Evaluator {
            search,
            budget,
            start: Instant::now(),
            nodes: 0,
            searches: 0,
            min_wall_ms: None,
        }
    }

    /// Whether another search fits in the time left: always before the first; after it,
    /// when at least twice the shortest search so far (wall time, the engine's fixed cost
    /// included) is left. Decisions that weigh many options stop weighing when not.
    pub fn can_afford(&self) -> bool {
        let left = self.budget.hard_ms.saturating_sub(self.elapsed_ms());
        match self.min_wall_ms {
            None => left > 0,
            Some(w) => left >= 2 * w.max(1),
        }
    }

    /// Milliseconds since the decision started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis().min(u64::MAX as u128) as u64
    }

    /// The budget of the next search when `parts` searches (this one included) remain: an
    /// even share of the time left, with one share kept back for the answer.
    fn share(&self, parts: usize) -> Budget {
        let spent = self.elapsed_ms();
        let parts = parts.max(1) as u64 + 1;
        let soft_left = self.budget.soft_ms.saturating_sub(spent);
        let hard_left = self.budget.hard_ms.saturating_sub(spent);
        Budget {
            soft_ms: (soft_left / parts).max(1).min(hard_left.max(1)),
            hard_ms: (hard_left / parts).max(1),
            ample: self.budget.ample,
        }
    }

    /// The decision's whole budget (after the unlimited default was applied).
    pub fn total_budget(&self) -> Budget {
        self.budget
    }

    /// Runs one search with exactly `probe` (for callers that split the time themselves),
    /// counting it in the totals.
    pub fn search_raw(&mut self, board: &Board, probe: &Probe) -> SearchResult {
        let t0 = Instant::now();
        let r = self.search.search(board, probe);
        let wall = t0.elapsed().as_millis().min(u64::MAX as u128) as u64;
        self.min_wall_ms = Some(self.min_wall_ms.map_or(wall, |m| m.min(wall)));
        self.nodes += r.nodes;
        self.searches += 1;
        r
    }

    fn run(
        &mut self,
        board: &Board,
        multipv: usize,
        excluded: Vec<Pos>,
        parts: usize,
    ) -> SearchResult {
        let probe = Probe {
            budget: self.share(parts),
            multipv,
            excluded,
        };
        self.search_raw(board, &probe)
    }

    /// Judges `board` for its side to move with one search; `parts` is the number of
    /// searches the decision still means to run, this one included.
    ///
    /// A search that answers at depth 1 without a forced-win score (the engine answers a
    /// forced block at once, with a static score) is followed: the reply is played and the
    /// position after it judged instead, up to [`FORCED_FOLLOW`] times, so that a threat
    /// sequence behind a forced reply shows in the score.
    pub fn eval(&mut self, board: &Board, parts: usize) -> Eval {
        let r = self.run(board, 1, Vec::new(), parts);
        let mut e = Eval::from_result(board, &r);
        let mut b = board.clone();
        let mut last = r;
        for _ in 0..FORCED_FOLLOW {
            let p = last.best;
            let forced = last.depth <= 1
                && crate::search::mate_plies(last.score).is_none()
                && b.contains(p)
                && b.is_empty(p)
                && b.result_of_move(p).is_none();
            if !forced || self.elapsed_ms() >= self.budget.hard_ms {
                break;
            }
            b.make(p);
            let r2 = self.run(&b, 1, Vec::new(), parts);
            let e2 = Eval::from_result(&b, &r2);
            e.black = e2.black;
            e.pv.truncate(e.pv.len().min(b.ply() - board.ply() - 1));
            e.pv.push(p);
            e.pv.extend(e2.pv.iter().copied());
            e.depth = e2.depth + (b.ply() - board.ply()) as i32;
            e.nodes += e2.nodes;
            last = r2;
        }
        e
    }

    /// The best `k` root moves of `board` (multi-PV, skipping `excluded`), best first for
    /// the side to move, each with the score after it from black's view; and the
    /// evaluation of `board` itself.
    pub fn candidates(
        &mut self,
        board: &Board,
        k: usize,
        excluded: Vec<Pos>,
        parts: usize,
    ) -> (Eval, Vec<Candidate>) {
        let r = self.run(board, k.max(1), excluded, parts);
        let stm = board.side_to_move();
        let mut out: Vec<Candidate> = r
            .lines
            .iter()
            .filter_map(|l| {
                let at = *l.pv.first()?;
                Some(Candidate {
                    at,
                    black: to_black(stm, l.score),
                    pv: l.pv.clone(),
                    depth: r.depth,
                })
            })
            .collect();
        if out.is_empty() && board.contains(r.best) {
            out.push(Candidate {
                at: r.best,
                black: to_black(stm, r.score),
                pv: r.pv.clone(),
                depth: r.depth,
            });
        }
        (Eval::from_result(board, &r), out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    #[test]
    fn scores_turn_to_black_view() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.make(Pos::new(7, 7));
        let mut s = |bd: &Board, p: &Probe| {
            assert!(p.budget.hard_ms > 0);
            SearchResult {
                best: crate::search::quick_move(bd),
                score: 50,
                nodes: 7,
                depth: 4,
                ..Default::default()
            }
        };
        let mut ev = Evaluator::new(&mut s, Budget::fixed(100));
        let e = ev.eval(&b, 1);
        assert_eq!(e.to_move, Some(Color::White));
        assert_eq!(e.black, -50);
        assert_eq!(e.for_color(Color::White), 50);
        let (_, c) = ev.candidates(&b, 3, Vec::new(), 1);
        assert_eq!(c.len(), 1, "no lines: the best move stands in");
        assert_eq!(ev.nodes, 14);
        assert_eq!(ev.searches, 2);
    }

    #[test]
    fn forced_replies_are_followed() {
        // Depth 1 without a win score: the reply is played and the next position judged.
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.make(Pos::new(7, 7));
        let mut s = |bd: &Board, _: &Probe| SearchResult {
            best: crate::search::quick_move(bd),
            pv: vec![crate::search::quick_move(bd)],
            score: if bd.ply() == 1 { -5 } else { 300 },
            depth: if bd.ply() == 1 { 1 } else { 6 },
            nodes: 1,
            ..Default::default()
        };
        let mut ev = Evaluator::new(&mut s, Budget::fixed(1000));
        let e = ev.eval(&b, 1);
        assert_eq!(ev.searches, 2);
        assert_eq!(e.black, 300, "black to move after the forced white reply");
        assert_eq!(e.pv.len(), 2);
        assert_eq!(e.depth, 7);
    }

    #[test]
    fn shares_shrink_with_the_parts() {
        let mut seen = Vec::new();
        let mut s = |bd: &Board, p: &Probe| {
            seen.push(p.budget);
            SearchResult {
                best: crate::search::quick_move(bd),
                depth: 4,
                ..Default::default()
            }
        };
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut ev = Evaluator::new(&mut s, Budget::fixed(900));
        ev.eval(&b, 2);
        ev.eval(&b, 1);
        assert!(
            seen[0].hard_ms <= 300 && seen[0].hard_ms >= 290,
            "{:?}",
            seen
        );
        assert!(
            seen[1].hard_ms <= 450 && seen[1].hard_ms >= 430,
            "{:?}",
            seen
        );
    }
}
