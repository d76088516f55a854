//! The per-move and per-node decisions of the node search, as pure functions of the facts
//! they read (docs/strength.md §2.1): how far a move is extended or reduced, how deep a
//! reduced move that beat alpha is searched again, and the node-level cut-offs before the
//! moves (razoring, futility).
//!
//! Nothing here touches the board or the search state: the node gathers a [`MoveFacts`]
//! for each move and asks. Each rule's origin and measured worth are in docs/strength.md
//! §2.2.

use super::{Depth, PARAMS};
use crate::board::Combo;
use crate::eval::WIN_THRESHOLD;

/// Whether a move of this combo makes a four (a five point) or better.
#[inline]
pub(super) fn makes_four(c: Combo) -> bool {
    matches!(
        c,
        Combo::Four | Combo::FourPlus | Combo::FourThree | Combo::Flex4 | Combo::Five
    )
}

/// Whether a move of this combo makes a four with a two or closed three beside it, or better.
#[inline]
pub(super) fn makes_four_and_more(c: Combo) -> bool {
    matches!(
        c,
        Combo::FourPlus | Combo::FourThree | Combo::Flex4 | Combo::Five
    )
}

/// What the node knows about one of its moves when it is about to search it.
#[derive(Clone, Copy, Debug)]
pub(super) struct MoveFacts {
    /// The node's depth (plies).
    pub depth: Depth,
    /// The node is searched with an open window.
    pub pv: bool,
    /// The node is expected to fail high (a null-window child of a later move of a PV
    /// node, or of an expected all node).
    pub expected_cut: bool,
    /// The node is or was on a principal variation (its table mark).
    pub pv_marked: bool,
    /// The node's evaluation rose over the last two plies.
    pub improving: bool,
    /// The opponent has a four or an open three: the node answers a threat.
    pub threatened: bool,
    /// The opponent has a five point: the move is its block.
    pub forced: bool,
    /// Renju and black to move.
    pub renju_black: bool,
    /// The node's evaluation is far above beta at an expected cut node.
    pub far_above_beta: bool,
    /// Our move two plies up made a three or better.
    pub after_own_threat: bool,
    /// Our move two plies up made a four or better.
    pub after_own_four: bool,
    /// The window's width over the root's (PV nodes; 0 elsewhere).
    pub window_share: Depth,
    /// At the opponent's turn (odd ply), the node's best already refutes the root's alpha.
    pub refutes_root: bool,
    /// The base reduction for this depth and move number (F² ln d ln n, plies).
    pub base_reduction: Depth,
    /// Combo the move makes for the side to move.
    pub ours: Combo,
    /// Combo the point has for the opponent (what the move takes away).
    pub theirs: Combo,
    /// Chebyshev distance to our own last move (-1: none).
    pub from_our_last: i32,
    /// Chebyshev distance to the opponent's last move (-1: none).
    pub from_their_last: i32,
    /// The move is one of the ply's killers.
    pub killer: bool,
    /// The move's history standing: attack plus 780/1024 of quiet history, less an offset.
    pub history: i32,
}

impl MoveFacts {
    /// An answer to an open three that stops no four of the opponent's.
    fn side_answer(&self) -> bool {
        self.threatened && !makes_four(self.theirs)
    }

    /// A killer that is a quiet move at an unthreatened node.
    fn quiet_killer(&self) -> bool {
        !self.threatened && self.killer && self.ours < Combo::Three
    }

    /// A threat that keeps our attack going: a three or better, or a double two (not a
    /// closed three) near our last move, after our own threat two plies up.
    fn continues_attack(&self) -> bool {
        let near_shape = self.from_our_last <= 4
            && self.ours >= Combo::DoubleTwo
            && self.ours != Combo::ClosedThree;
        !self.threatened && self.after_own_threat && (self.ours >= Combo::Three || near_shape)
    }
}

/// How the table move fared in the singular test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum TableMoveTest {
    /// No test: not the table move, or the test's conditions did not hold.
    NotRun,
    /// Every other move failed low: the table move is singular; `far` when they failed far
    /// below at a non-PV node whose line still has room for extensions.
    Singular { far: bool },
    /// The table score is at or above beta but the move is not singular.
    Shallower,
    /// Neither singular nor above beta.
    Plain,
}

/// The move's extension in plies (negative: searched shallower), from the kind of move,
/// the table move's test (`test`, with `table_move` telling whether the move is the table
/// move of a table hit) and the node's prospects.
pub(super) fn extension(f: &MoveFacts, table_move: bool, test: TableMoveTest) -> Depth {
    let ext = if f.forced {
        if f.depth > 0.0 {
            PARAMS.ext_forced
        } else {
            1.0
        }
    } else if table_move {
        table_move_extension(test)
    } else {
        0.0
    };
    ext + expected_cut_adjustment(f)
}

/// The table move's extension, by its singular test (none when no test ran).
fn table_move_extension(test: TableMoveTest) -> Depth {
    match test {
        TableMoveTest::Singular { far: true } => 2.0,
        TableMoveTest::Singular { far: false } => 1.0,
        TableMoveTest::Shallower => -PARAMS.singular_shallower,
        TableMoveTest::Plain | TableMoveTest::NotRun => 0.0,
    }
}

/// At a node far above beta, a move that makes no four is searched a ply shallower, and a
/// four that follows our own four two plies up a ply deeper.
fn expected_cut_adjustment(f: &MoveFacts) -> Depth {
    match (f.far_above_beta, makes_four(f.ours)) {
        (false, _) => 0.0,
        (true, false) => -1.0,
        (true, true) if f.after_own_four => 1.0,
        (true, true) => 0.0,
    }
}

/// The late-move reduction of a move in plies (may be negative), built up from the base
/// reduction: first the node's kind, then the node's prospects, then what the move is,
/// then its history.
pub(super) fn reduction(f: &MoveFacts) -> Depth {
    let mut r = by_node_kind(f);
    if f.expected_cut && !f.quiet_killer() {
        r += PARAMS.lmr_cut;
    }
    if f.refutes_root {
        r += PARAMS.lmr_no_alpha;
    }
    if f.pv_marked {
        r -= PARAMS.lmr_pv_mark;
    }
    // Renju black's double-three points that the generator kept are not forbidden (a three
    // of them cannot become a straight four): worth more than they look.
    if f.renju_black && f.ours == Combo::DoubleThree {
        r -= PARAMS.lmr_false_forbidden;
    }
    if f.continues_attack() {
        r -= PARAMS.lmr_continued_attack;
    }
    if f.side_answer() {
        if f.from_our_last > 4 {
            r += PARAMS.lmr_far_defence_own;
        }
        if f.from_their_last > 4 {
            r += PARAMS.lmr_far_defence_opp;
        }
    }
    let per_ply = if f.depth > 5.4 {
        PARAMS.lmr_history_deep
    } else {
        PARAMS.lmr_history
    };
    r - f.history as Depth / per_ply
}

/// The base reduction adjusted for the node's kind: a PV node reduces less the wider its
/// window is against the root's (never below 0); another node that is not improving
/// reduces a ply more when its reduction is already above one.
fn by_node_kind(f: &MoveFacts) -> Depth {
    let r = f.base_reduction;
    if f.pv {
        (r - f.window_share).max(0.0)
    } else if !f.improving && r > 1.0 {
        r + PARAMS.lmr_not_improving
    } else {
        r
    }
}

/// The late-move reduction of a later root move (plies): the base less the window's
/// share of the root's (never below 0), less the PV mark's credit (the root always has
/// it) and the history's.
pub(super) fn root_reduction(base: Depth, window_share: Depth, history: i32) -> Depth {
    (base - window_share).max(0.0) - PARAMS.lmr_pv_mark - history as Depth / PARAMS.lmr_history
}

/// The depth a reduced move is searched to first: `full` less the reduction, where a
/// negative reduction deepens by at most one ply, and never below one ply.
#[inline]
pub(super) fn reduced_depth(full: Depth, r: Depth) -> Depth {
    (full - r.max(-1.0)).max(1.0)
}

/// Plies added to a reduced move's full depth when its reduced search beat alpha: one when
/// it beat alpha by a margin, another by a wide one (both grow with the plies it was
/// reduced by: 9 and 21 points a ply, Rapfi's 11 and 26 scaled to our units), one fewer
/// when it stayed within a few points of the node's best.
pub(super) fn research_extra(
    score: i32,
    alpha: i32,
    best: i32,
    full: Depth,
    reduced: Depth,
) -> i32 {
    let cut_plies = (full - reduced) as i32;
    let by_margin = score > alpha + PARAMS.lmr_deeper + 9 * cut_plies;
    let by_wide_margin = score > alpha + PARAMS.lmr_deeper2 + 21 * cut_plies;
    let near_best = score < best + full as i32;
    by_margin as i32 + by_wide_margin as i32 - near_best as i32
}

/// What the node knows before its moves, for the cut-offs that end it early.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeFacts {
    /// The node's depth (plies).
    pub depth: Depth,
    /// The node is searched with an open window.
    pub pv: bool,
    /// The node is expected to fail high.
    pub expected_cut: bool,
    /// The opponent has a four or an open three.
    pub threatened: bool,
    /// The evaluation the cut-offs read (the table's bounded score where it improves on
    /// the static evaluation).
    pub eval: i32,
    /// The node's evaluation rose over the last two plies.
    pub improving: bool,
    /// The table had an entry for the node.
    pub table_hit: bool,
    /// Renju: futility uses the renju margin.
    pub renju: bool,
    /// Our last two moves were both fours: an attack under way, never stood pat on.
    pub fours_in_a_row: bool,
}

/// Whether an expected cut node's evaluation is far above beta: by 12 a ply less 7, and 70
/// more when the node answers a threat (its moves that make no four are then searched a
/// ply shallower, [`extension`]).
pub(super) fn far_above_beta(eval: i32, beta: i32, depth: Depth, threatened: bool) -> bool {
    let margin = PARAMS.fhr_a + PARAMS.fhr_b * depth as i32 + PARAMS.fhr_c * threatened as i32;
    eval >= beta + margin
}

/// Razoring: a shallow non-PV node far below alpha, or one facing an open three, is handed
/// to the leaf search (its fours, else the evaluation). Not when alpha is a won score the
/// table may know more of.
pub(super) fn razor(f: &NodeFacts, alpha: i32) -> bool {
    if f.pv || f.depth >= PARAMS.razor_depth {
        return false;
    }
    if alpha >= WIN_THRESHOLD && f.table_hit {
        return false;
    }
    if f.threatened {
        PARAMS.razor_three != 0
    } else {
        f.eval + razor_margin(f.depth) < alpha
    }
}

/// Razoring margin at `depth` (evaluation units): a d² + b d + c.
#[inline]
fn razor_margin(depth: Depth) -> i32 {
    (PARAMS.razor_a * depth * depth + PARAMS.razor_b * depth + PARAMS.razor_c) as i32
}

/// Futility: a non-PV node not under threat whose evaluation stays at or above beta after
/// a margin per remaining ply stands pat, unless our last two moves were fours (the attack
/// may be on its way to a win) or a score is a win.
pub(super) fn futile(f: &NodeFacts, beta: i32) -> bool {
    if f.pv || f.threatened || f.fours_in_a_row {
        return false;
    }
    if f.eval.abs() >= WIN_THRESHOLD || beta <= -WIN_THRESHOLD {
        return false;
    }
    let per_ply = if f.renju {
        PARAMS.futility_renju
    } else {
        PARAMS.futility
    } - PARAMS.futility_cut * (f.expected_cut && !f.table_hit) as i32;
    let plies = f.depth - 1.0 - f.improving as i32 as Depth;
    f.eval - ((per_ply as Depth * plies) as i32).max(0) >= beta
}

/// History gain of the best move of a node searched at `depth` (the others of its kind
/// searched before it lose as much): 25 d² + 105 d − 157, within 1 to 8 927.
#[inline]
pub(super) fn history_gain(depth: Depth) -> i32 {
    ((25.0 * depth * depth + 105.0 * depth - 157.0) as i32).clamp(1, 8_927)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quiet move at a quiet non-PV node, depth 4, nothing special.
    fn quiet() -> MoveFacts {
        MoveFacts {
            depth: 4.0,
            pv: false,
            expected_cut: false,
            pv_marked: false,
            improving: true,
            threatened: false,
            forced: false,
            renju_black: false,
            far_above_beta: false,
            after_own_threat: false,
            after_own_four: false,
            window_share: 0.0,
            refutes_root: false,
            base_reduction: 1.5,
            ours: Combo::Two,
            theirs: Combo::None,
            from_our_last: 2,
            from_their_last: 2,
            killer: false,
            history: 0,
        }
    }

    #[test]
    fn extensions_by_kind_of_move() {
        let mut f = quiet();
        assert_eq!(extension(&f, false, TableMoveTest::NotRun), 0.0);
        f.forced = true;
        assert_eq!(
            extension(&f, false, TableMoveTest::NotRun),
            PARAMS.ext_forced
        );
        f.depth = 0.0;
        assert_eq!(extension(&f, false, TableMoveTest::NotRun), 1.0);
        let f = quiet();
        let t = |test| extension(&f, true, test);
        assert_eq!(t(TableMoveTest::Singular { far: true }), 2.0);
        assert_eq!(t(TableMoveTest::Singular { far: false }), 1.0);
        assert_eq!(t(TableMoveTest::Shallower), -PARAMS.singular_shallower);
        assert_eq!(t(TableMoveTest::Plain), 0.0);
        assert_eq!(t(TableMoveTest::NotRun), 0.0, "no test, no extension");
    }

    #[test]
    fn far_above_beta_only_fours_keep_their_depth() {
        let mut f = quiet();
        f.far_above_beta = true;
        assert_eq!(extension(&f, false, TableMoveTest::NotRun), -1.0);
        f.ours = Combo::Four;
        assert_eq!(extension(&f, false, TableMoveTest::NotRun), 0.0);
        f.after_own_four = true;
        assert_eq!(extension(&f, false, TableMoveTest::NotRun), 1.0);
    }

    #[test]
    fn reduction_terms() {
        let base = quiet();
        let r0 = reduction(&base);
        assert_eq!(r0, 1.5, "a quiet improving move: the base");
        let with = |change: fn(&mut MoveFacts)| {
            let mut f = base;
            change(&mut f);
            reduction(&f) - r0
        };
        let close = |a: Depth, b: Depth| (a - b).abs() < 1e-5;
        assert!(close(
            with(|f| f.improving = false),
            PARAMS.lmr_not_improving
        ));
        assert!(close(with(|f| f.expected_cut = true), PARAMS.lmr_cut));
        assert!(close(with(|f| f.refutes_root = true), PARAMS.lmr_no_alpha));
        assert!(close(with(|f| f.pv_marked = true), -PARAMS.lmr_pv_mark));
        assert!(close(
            with(|f| {
                f.threatened = true;
                f.from_our_last = 5;
                f.from_their_last = 5;
            }),
            PARAMS.lmr_far_defence_opp + PARAMS.lmr_far_defence_own
        ));
        assert!(close(
            with(|f| {
                f.after_own_threat = true;
                f.ours = Combo::Three;
            }),
            -PARAMS.lmr_continued_attack
        ));
        assert!(close(
            with(|f| {
                f.renju_black = true;
                f.ours = Combo::DoubleThree;
            }),
            -PARAMS.lmr_false_forbidden
        ));
        assert!(close(
            with(|f| f.history = 1000),
            -1000.0 / PARAMS.lmr_history
        ));
    }

    #[test]
    fn reduction_exemptions() {
        let mut f = quiet();
        f.expected_cut = true;
        f.killer = true;
        assert_eq!(
            reduction(&f),
            1.5,
            "a quiet killer gets no cut-node reduction"
        );
        f.improving = false;
        f.base_reduction = 0.9;
        assert_eq!(reduction(&f), 0.9, "not improving adds only above one ply");
        let mut f = quiet();
        f.pv = true;
        f.window_share = 2.0;
        assert_eq!(
            reduction(&f),
            0.0,
            "the window share never makes it negative"
        );
    }

    #[test]
    fn root_reduction_credits_the_pv_mark_and_history() {
        let r = root_reduction(2.0, 0.5, 0);
        assert!((r - (1.5 - PARAMS.lmr_pv_mark)).abs() < 1e-6);
        assert_eq!(root_reduction(0.5, 1.0, 0), -PARAMS.lmr_pv_mark);
        let h = root_reduction(2.0, 0.0, 1000) - root_reduction(2.0, 0.0, 0);
        assert!((h + 1000.0 / PARAMS.lmr_history).abs() < 1e-4);
    }

    #[test]
    fn reduced_depth_is_within_its_bounds() {
        assert_eq!(reduced_depth(5.0, 2.5), 2.5);
        assert_eq!(reduced_depth(5.0, -3.0), 6.0, "at most one ply deeper");
        assert_eq!(reduced_depth(5.0, 10.0), 1.0, "at least one ply");
    }

    #[test]
    fn research_is_deeper_by_the_margin() {
        let (full, reduced) = (6.0, 4.0);
        let margin = PARAMS.lmr_deeper + 9 * 2;
        assert_eq!(research_extra(margin, 0, -100, full, reduced), 0);
        assert_eq!(research_extra(margin + 1, 0, -100, full, reduced), 1);
        let wide = PARAMS.lmr_deeper2 + 21 * 2;
        assert_eq!(research_extra(wide + 1, 0, -100, full, reduced), 2);
        assert_eq!(research_extra(1, 0, 0, full, reduced), -1, "near the best");
    }

    fn node() -> NodeFacts {
        NodeFacts {
            depth: 2.0,
            pv: false,
            expected_cut: false,
            threatened: false,
            eval: 0,
            improving: false,
            table_hit: true,
            renju: false,
            fours_in_a_row: false,
        }
    }

    #[test]
    fn razoring_far_below_alpha_or_under_a_three() {
        let f = node();
        let margin = razor_margin(2.0);
        assert!(razor(&f, margin + 1));
        assert!(!razor(&f, margin));
        let mut g = f;
        g.threatened = true;
        assert_eq!(razor(&g, -1000), PARAMS.razor_three != 0);
        g.pv = true;
        assert!(!razor(&g, 1000));
        let mut h = f;
        h.depth = PARAMS.razor_depth;
        assert!(!razor(&h, 10_000));
        assert!(!razor(&f, WIN_THRESHOLD), "a won alpha with a table entry");
    }

    #[test]
    fn futility_margin_per_ply() {
        let mut f = node();
        f.depth = 3.0;
        f.eval = 100;
        // Two plies of margin at 50 each.
        assert!(futile(&f, 0));
        assert!(!futile(&f, 1));
        f.renju = true;
        assert!(!futile(&f, -27), "renju's margin is 64 a ply");
        assert!(futile(&f, -28));
        f.renju = false;
        f.fours_in_a_row = true;
        assert!(!futile(&f, -1000));
        f.fours_in_a_row = false;
        f.threatened = true;
        assert!(!futile(&f, -1000));
    }

    #[test]
    fn far_above_beta_by_a_margin_per_ply() {
        let margin = PARAMS.fhr_a + PARAMS.fhr_b * 3;
        assert!(far_above_beta(margin, 0, 3.0, false));
        assert!(!far_above_beta(margin - 1, 0, 3.0, false));
        assert!(
            !far_above_beta(margin, 0, 3.0, true),
            "more margin under threat"
        );
    }

    #[test]
    fn history_gain_grows_with_depth_within_bounds() {
        assert_eq!(history_gain(0.0), 1);
        assert_eq!(history_gain(2.0), 153);
        assert_eq!(history_gain(100.0), 8_927);
    }
}
