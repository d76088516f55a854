//! Search: iterative deepening principal-variation search over a shared transposition
//! table, with threat-space solvers (`vcf`, `vct`).
//!
//! Scores are in evaluation units from the side to move's view; wins and losses are
//! [`WIN`](crate::eval::WIN) minus the number of plies to the five (see [`crate::tt::score_to_tt`]).

use crate::board::{Board, Combo};
use crate::core::Pos;
use crate::eval::{WIN, WIN_THRESHOLD};
use crate::time::Budget;

/// What bounds a search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Time budget from the start of the search.
    pub budget: Budget,
    /// Stop after completing this depth (plies).
    pub max_depth: Option<i32>,
    /// Stop after about this many nodes: main-search and threat-solver nodes together
    /// (docs/strength.md §5).
    pub max_nodes: Option<u64>,
    /// Root moves not to consider (YXBLOCK); empty for none.
    pub excluded: Vec<Pos>,
    /// Principal variations to search (multi-PV, YXNBEST): the best `multipv` root moves
    /// get exact scores and lines each iteration; 0 and 1 mean one.
    pub multipv: usize,
    /// Memory the root VCT solver may use, in bytes (its fixed tables included); `None`:
    /// [`crate::engine::ROOT_VCT_BYTES`] as planned by [`crate::engine::BASE_MEMORY_BYTES`]
    /// (its node budget keeps it there). Set under a tight `max_memory`.
    pub threat_memory: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            budget: Budget::UNLIMITED,
            max_depth: None,
            max_nodes: None,
            excluded: Vec::new(),
            multipv: 1,
            threat_memory: None,
        }
    }
}

/// Progress report after an iteration.
#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    /// Completed nominal depth in plies.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Score from the side to move's view (see [`crate::eval::WIN`]).
    pub score: i32,
    /// Main-search nodes so far (all threads): one per alpha-beta or quiescence node, as
    /// Rapfi counts them (docs/strength.md §5).
    pub nodes: u64,
    /// Threat-solver (VCF and VCT) nodes so far (all threads), counted apart from `nodes`.
    pub vcf_nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation, first move first.
    pub pv: Vec<Pos>,
    /// Which principal variation this is, 0 for the best (multi-PV).
    pub pv_index: usize,
    /// How many principal variations the iteration reports (1 without multi-PV).
    pub num_pv: usize,
}

/// One line of a multi-PV search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PvLine {
    /// Score from the side to move's view (see [`crate::eval::WIN`]).
    pub score: i32,
    /// The line, its root move first.
    pub pv: Vec<Pos>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play ([`Pos::NONE`] only on a full board).
    pub best: Pos,
    /// Score from the side to move's view.
    pub score: i32,
    /// Completed depth in plies.
    pub depth: i32,
    /// Main-search nodes (all threads): one per alpha-beta or quiescence node
    /// (docs/strength.md §5).
    pub nodes: u64,
    /// Threat-solver (VCF and VCT) nodes (all threads), counted apart from `nodes`.
    pub vcf_nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Pos>,
    /// With multi-PV ([`Limits::multipv`] above 1): the best root moves of the last completed
    /// iteration, best first, each with its exact score and line; else empty.
    pub lines: Vec<PvLine>,
}

impl SearchResult {
    /// Plies to a forced win (positive) or loss (negative), if the score is one.
    pub fn win_in(&self) -> Option<i32> {
        mate_plies(self.score)
    }
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Plies to a forced win (positive) or loss (negative) for a score, if it is one.
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= WIN_THRESHOLD {
        Some(WIN - score)
    } else if score <= -WIN_THRESHOLD {
        Some(-(WIN + score))
    } else {
        None
    }
}

mod alphabeta;
pub mod movegen;
pub mod params;
pub mod threat;

pub use alphabeta::Searcher;

/// A move found without search: a five, a block of the opponent's five, else the empty point
/// with the best combined threat and score; black avoids forbidden points under renju while
/// any other point exists. [`Pos::NONE`] only on a full board.
pub fn quick_move(board: &Board) -> Pos {
    let me = board.side_to_move();
    let opp = me.opponent();
    let mut best = Pos::NONE;
    let mut best_key = i64::MIN;
    for p in board.empty_points() {
        let legal = !(board.rule().has_forbidden(me) && board.forbidden(p).is_some());
        let mine = board.combo(me, p);
        let theirs = board.combo(opp, p);
        let ts = board.combo_table(me).score(board.code(me, p)) as i64
            + board.combo_table(opp).score(board.code(opp, p)) as i64 * 8 / 10;
        let mut key = ts;
        if mine == Combo::Five {
            key += 1 << 40;
        } else if theirs == Combo::Five {
            key += 1 << 36;
        }
        if !legal {
            key -= 1 << 50;
        }
        if board.ply() == 0 {
            // Empty board: the centre.
            let (cx, cy) = (board.width() / 2, board.height() / 2);
            key = -((p.x() as i64 - cx as i64).abs() + (p.y() as i64 - cy as i64).abs());
        }
        if key > best_key {
            best_key = key;
            best = p;
        }
    }
    best
}
