//! The node search below the root: a principal-variation alpha-beta search with
//! fractional depths (docs/strength.md §2), in named phases (§2.1):
//!
//! 1. **window and verdicts**: count the node, narrow the window to the reachable wins,
//!    and settle what the threat counts decide alone;
//! 2. **leaf**: at depth 0 or below, the leaf search of fours (`leaf.rs`);
//! 3. **table**: read the node's entry, cut on a settling bound;
//! 4. **judgement**: the static evaluation, whether it improves, and the evaluation the
//!    cut-offs read;
//! 5. **before the moves**: razoring, futility, a small VCF near the root;
//! 6. **the moves**: generated, ordered, cut off by the move count, each extended or
//!    reduced by the pure rules of `decide.rs` and searched;
//! 7. **learning and storing**: history and killers, the PV mark, the table entry.

use super::decide::{self, makes_four, MoveFacts, NodeFacts, TableMoveTest};
use super::*;

/// A node's threats once its verdicts left it open.
#[derive(Clone, Copy)]
struct Threats {
    /// The opponent has a five point: the node's only moves are its blocks.
    forced: bool,
    /// The opponent has a five point or a straight-four point (an open three).
    threatened: bool,
}

/// What the table knew of a node.
#[derive(Clone, Copy)]
struct TableView {
    /// The stored best move ([`Pos::NONE`]: none).
    mv: Pos,
    /// The stored static evaluation ([`NO_EVAL`]: none).
    eval: i32,
    /// The stored score (relative to this node), depth and bound, on a hit.
    hit: Option<(i32, i32, Bound)>,
    /// The stored PV mark.
    pv: bool,
}

/// A node's evaluations (phase 4).
#[derive(Clone, Copy)]
struct Judgement {
    /// The static evaluation (the parent's, negated, when the node answers a threat).
    static_eval: i32,
    /// What the cut-offs read: a bounded table score beyond the static evaluation in its
    /// bound's direction, else the static evaluation.
    eval: i32,
    improving: bool,
}

/// What stays fixed over a node's move loop.
struct NodePlan {
    ply: usize,
    pv: bool,
    expected_cut: bool,
    threats: Threats,
    table: TableView,
    judged: Judgement,
    pv_marked: bool,
    renju: bool,
    our_last: Pos,
    their_last: Pos,
    killers: [Pos; 2],
    /// The evaluation is far above beta at an expected cut node.
    far_above_beta: bool,
    move_budget: usize,
    /// The depth the moves are searched from (plies).
    depth: Depth,
}

/// The running state of a node's move loop.
struct LoopState {
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Pos,
    searched: usize,
    /// Moves of three or better searched before the best one.
    lost_attacks: ArrayVec<Pos, 32>,
    /// Quiet moves searched before the best one.
    lost_quiet: ArrayVec<Pos, 64>,
}

impl<'a> Worker<'a> {
    /// The node search at `depth` plies (fractional) from `ply`, with the window
    /// (`alpha`, `beta`); `pv` for an open window, `expected_cut` for a null-window child
    /// of a later move of a PV node or of an expected all node. Returns 0 once aborted.
    pub(super) fn search(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: Depth,
        ply: usize,
        pv: bool,
        expected_cut: bool,
    ) -> i32 {
        let (alpha, beta) = match self.open_window(alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let threats = match self.verdicts(ply) {
            Ok(threats) => threats,
            Err(score) => return score,
        };
        if depth <= 0.0 && !threats.forced {
            return self.leaf_search(alpha, beta, depth, ply);
        }
        let table = match self.read_table(alpha, beta, depth, ply, pv) {
            Ok(table) => table,
            Err(score) => return score,
        };
        let pv_marked = self.mark_node(ply, pv, table.pv);
        let judged = self.judge(ply, threats, &table);
        let mut depth = depth;
        if !threats.forced {
            let facts = NodeFacts {
                depth,
                pv,
                expected_cut,
                threatened: threats.threatened,
                eval: judged.eval,
                improving: judged.improving,
                table_hit: table.hit.is_some(),
                renju: self.renju(),
                fours_in_a_row: self.fours_in_a_row(ply),
            };
            depth = match self.before_moves(&facts, alpha, beta, ply) {
                Ok(depth) => depth,
                Err(score) => return score,
            };
        }
        let mut moves = match self.node_moves(ply, table.mv) {
            Ok(moves) => moves,
            Err(score) => return score,
        };
        let plan = NodePlan {
            ply,
            pv,
            expected_cut,
            threats,
            table,
            judged,
            pv_marked,
            renju: self.renju(),
            our_last: self.last_move_of_ply(ply, 2),
            their_last: self.last_move_of_ply(ply, 1),
            killers: self.killers[ply],
            far_above_beta: !pv
                && expected_cut
                && decide::far_above_beta(judged.eval, beta, depth, threats.threatened),
            move_budget: move_count_limit(depth, judged.improving),
            depth,
        };
        let mut state = LoopState {
            alpha,
            beta,
            best: -WIN,
            best_move: Pos::NONE,
            searched: 0,
            lost_attacks: ArrayVec::new(),
            lost_quiet: ArrayVec::new(),
        };
        if let Err(score) = self.move_loop(&plan, &mut moves, &mut state) {
            return score;
        }
        if state.searched == 0 {
            // Only the left-out move (a singular test): fail low.
            return alpha;
        }
        if !state.best_move.is_none() && state.best > alpha {
            self.reward(&plan, &state);
        }
        self.store(&plan, &state, alpha)
    }

    /// Phase 1a: counts the node and narrows the window to the wins still reachable from
    /// `ply`; `Err` with the node's score when it ends here (aborted, the window closed,
    /// a full board, the deepest ply).
    fn open_window(&mut self, alpha: i32, beta: i32, ply: usize) -> Result<(i32, i32), i32> {
        self.nodes += 1;
        self.poll();
        self.pv_len[ply] = 0;
        if self.aborted {
            return Err(0);
        }
        self.seldepth = self.seldepth.max(ply as i32);
        let alpha = alpha.max(-WIN + ply as i32);
        let beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        if self.board.is_full() {
            return Err(0);
        }
        if ply >= MAX_PLY - 4 {
            return Err(self.ev.evaluate(self.board.side_to_move()));
        }
        Ok((alpha, beta))
    }

    /// Phase 1b: the verdicts of the threat counts: a five point wins, two of the opponent's
    /// lose (not under caro, where one stone can cap both), and the static wins of
    /// [`Worker::threat_verdict`] when the opponent has no five point (not under caro).
    fn verdicts(&mut self, ply: usize) -> Result<Threats, i32> {
        let ply_i = ply as i32;
        let me = self.board.side_to_move();
        let opp = me.opponent();
        if self.ev.five_points(me) > 0 {
            return Err(WIN - ply_i - 1);
        }
        let caro = self.board.rule().has_caps();
        let their_fives = self.ev.five_points(opp);
        if their_fives >= 2 && !caro {
            return Err(-(WIN - ply_i - 2));
        }
        if their_fives == 0 && !caro && PARAMS.static_verdicts != 0 {
            if let Some(plies) = self.threat_verdict() {
                return Err(WIN - ply_i - plies);
            }
        }
        let forced = their_fives > 0;
        Ok(Threats {
            forced,
            threatened: forced || self.ev.counts(opp)[class::FLEX4] > 0,
        })
    }

    /// Phase 3: the node's table entry; `Err` with its score when a non-PV node's entry is
    /// deep enough and its bound settles the window (never in a singular test).
    fn read_table(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: Depth,
        ply: usize,
        pv: bool,
    ) -> Result<TableView, i32> {
        let Some(entry) = self.shared.tt.probe(self.tt_key()) else {
            return Ok(TableView {
                mv: Pos::NONE,
                eval: NO_EVAL,
                hit: None,
                pv: false,
            });
        };
        let score = score_from_tt(entry.score, ply as i32);
        let may_cut = !pv && self.left_out[ply].is_none() && PARAMS.table_cutoffs != 0;
        if may_cut && entry.depth as Depth >= depth && entry.bound.settles(score, alpha, beta) {
            return Err(score);
        }
        Ok(TableView {
            mv: entry.mv,
            eval: entry.eval,
            hit: Some((score, entry.depth, entry.bound)),
            pv: entry.pv,
        })
    }

    /// Sets the node's PV mark (a singular test keeps its node's), clears its child's and
    /// the grandchildren's killers; returns the mark.
    fn mark_node(&mut self, ply: usize, pv: bool, table_pv: bool) -> bool {
        if self.left_out[ply].is_none() {
            self.line[ply].pv_mark = pv || table_pv;
        }
        self.line[ply + 1].pv_mark = false;
        self.killers[(ply + 2).min(MAX_PLY - 1)] = [Pos::NONE; 2];
        self.line[ply].pv_mark
    }

    /// Phase 4: the node's evaluations. Against a four or an open three the position is
    /// judged by its answer: the parent's evaluation stands, and nothing improves.
    fn judge(&mut self, ply: usize, threats: Threats, table: &TableView) -> Judgement {
        let me = self.board.side_to_move();
        let static_eval = match (threats.threatened, ply) {
            (true, 1..) => -self.line[ply - 1].eval,
            (false, _) if table.eval != NO_EVAL => table.eval,
            _ => self.ev.evaluate(me),
        };
        self.line[ply].eval = static_eval;
        let improving = !threats.threatened && ply >= 2 && static_eval > self.line[ply - 2].eval;
        let eval = match table.hit {
            Some((score, _, bound))
                if !threats.threatened
                    && score.abs() < WIN_THRESHOLD
                    && bound.settles(score, static_eval - 1, static_eval + 1) =>
            {
                score
            }
            _ => static_eval,
        };
        Judgement {
            static_eval,
            eval,
            improving,
        }
    }

    /// Phase 5, at a node not forced to block: razoring and futility end the node; a node
    /// at depth 0 or below goes to the leaf; near the root, a small VCF may prove a win.
    /// `Ok` with the depth to search the moves at, `Err` with the node's score.
    fn before_moves(
        &mut self,
        facts: &NodeFacts,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<Depth, i32> {
        if decide::razor(facts, alpha) {
            return Err(self.leaf_search(alpha, alpha + 1, 0.0, ply));
        }
        if decide::futile(facts, beta) {
            return Err(facts.eval);
        }
        let depth = facts.depth;
        if depth <= 0.0 {
            return Err(self.leaf_search(alpha, beta, depth, ply));
        }
        let near_root =
            ply as i32 <= PARAMS.near_root_vcf_ply && depth >= 3.0 && self.left_out[ply].is_none();
        if near_root && self.ev.four_line_points(self.board.side_to_move()) > 0 {
            if let Some(score) = self.vcf_win(NODE_VCF_NODES, ply as i32) {
                return Err(score);
            }
        }
        Ok(depth)
    }

    /// Phase 6a: the node's moves with their ordering scores (the table move first, then
    /// the generator's score plus killer bonus and history); `Err` with the node's score
    /// when the generator settles it.
    fn node_moves(&mut self, ply: usize, table_move: Pos) -> Result<MoveList, i32> {
        let ply_i = ply as i32;
        let mut moves = MoveList::new();
        match movegen::generate(&mut self.board, &self.ev, &mut moves) {
            Node::Win(_) => return Err(WIN - ply_i - 1),
            Node::Lost => return Err(-(WIN - ply_i - 2)),
            Node::FlexWin(_) => return Err(WIN - ply_i - 3),
            Node::Moves { .. } if moves.is_empty() => return Err(-(WIN - ply_i - 2)),
            Node::Moves { .. } => {}
        }
        let me = self.board.side_to_move();
        let killers = self.killers[ply];
        for (p, score) in moves.iter_mut() {
            if *p == table_move {
                *score += 1 << 24;
                continue;
            }
            if killers.contains(p) {
                *score += PARAMS.killer_bonus;
            }
            let h = &self.history[me.index()][p.index()];
            *score += if self.board.combo(me, *p) >= Combo::Three {
                h[SLOT_THREAT] / PARAMS.hist_attack_div
            } else {
                h[SLOT_CALM] / PARAMS.hist_quiet_div
            };
        }
        Ok(moves)
    }

    /// The move played `back` plies before `ply` (1: the opponent's last, 2: ours), from the
    /// line or, above the search's first ply, from the game's record.
    fn last_move_of_ply(&self, ply: usize, back: usize) -> Pos {
        if ply >= back {
            return self.line[ply - back].played;
        }
        // The board's record ends with the line's moves: the same move, `back` from its end.
        let played = self.board.moves();
        played
            .len()
            .checked_sub(back)
            .map_or(Pos::NONE, |i| played[i])
    }

    /// Phase 6b: searches the moves in order until one reaches beta or the move budget
    /// is spent; `Err` with the node's score when it must end at once (aborted, or a
    /// singular test proved a cut).
    fn move_loop(
        &mut self,
        plan: &NodePlan,
        moves: &mut MoveList,
        st: &mut LoopState,
    ) -> Result<(), i32> {
        let me = self.board.side_to_move();
        let may_prune = |st: &LoopState| plan.ply > 0 && st.best > -WIN_THRESHOLD;
        for i in 0..moves.len() {
            // Once a move that does not lose is known, the budget stops the loop: the count
            // and the best only grow, so every later move would be pruned too.
            if may_prune(st) && st.searched + 1 >= plan.move_budget {
                break;
            }
            let p = pick_next(moves, i);
            if p == self.left_out[plan.ply] {
                continue;
            }
            st.searched += 1;
            let mut facts = self.move_facts(plan, st, p);
            let table_move = plan.table.hit.is_some() && p == plan.table.mv && !plan.threats.forced;
            let test = if table_move {
                self.table_move_test(plan, st, p)?
            } else {
                TableMoveTest::NotRun
            };
            // Read only now: the test searched this node again and may have changed it.
            facts.history = self.history_standing(me, p);
            let ext = decide::extension(&facts, table_move, test);
            let score = self.search_move(plan, st, &facts, p, ext);
            if self.aborted {
                return Err(0);
            }
            if self.take_score(plan, st, p, score) {
                break;
            }
            if p != st.best_move {
                if facts.ours >= Combo::Three {
                    let _ = st.lost_attacks.try_push(p);
                } else if !plan.threats.threatened {
                    let _ = st.lost_quiet.try_push(p);
                }
            }
        }
        Ok(())
    }

    /// The facts of move `p` for the rules of `decide.rs`.
    fn move_facts(&self, plan: &NodePlan, st: &LoopState, p: Pos) -> MoveFacts {
        let me = self.board.side_to_move();
        let after =
            |back: usize| plan.ply >= back && self.line[plan.ply - back].shape >= Combo::Three;
        let window_share = if plan.pv {
            (st.beta - st.alpha) as Depth / self.root_width as Depth
        } else {
            0.0
        };
        MoveFacts {
            depth: plan.depth,
            pv: plan.pv,
            expected_cut: plan.expected_cut,
            pv_marked: plan.pv_marked,
            improving: plan.judged.improving,
            threatened: plan.threats.threatened,
            forced: plan.threats.forced,
            renju_black: plan.renju && me == Color::Black,
            far_above_beta: plan.far_above_beta,
            after_own_threat: after(2),
            after_own_four: plan.ply >= 2 && makes_four(self.line[plan.ply - 2].shape),
            window_share,
            refutes_root: plan.ply % 2 == 1 && st.best >= -self.root_low,
            base_reduction: self.reduction(plan.depth, st.searched),
            ours: self.board.combo(me, p),
            theirs: self.board.combo(me.opponent(), p),
            from_our_last: distance(p, plan.our_last),
            from_their_last: distance(p, plan.their_last),
            killer: plan.killers.contains(&p),
            // Set by the move loop after the table move's test (pruning does not read it).
            history: 0,
        }
    }

    /// The history standing of `me`'s move `p` that reductions read.
    pub(super) fn history_standing(&self, me: Color, p: Pos) -> i32 {
        let h = &self.history[me.index()][p.index()];
        h[SLOT_THREAT] + h[SLOT_CALM] * 780 / 1024 - PARAMS.history_offset
    }

    /// The singular test of the table move `p` (Stockfish's singular extension): the node
    /// is searched again without it, shallower and with a null window below the table
    /// score. When every other move fails low the move is singular; when even without it
    /// the node reaches beta, the node is cut (`Err` with the score; also `Err(0)` when
    /// aborted).
    fn table_move_test(
        &mut self,
        plan: &NodePlan,
        st: &LoopState,
        p: Pos,
    ) -> Result<TableMoveTest, i32> {
        let Some((table_score, table_depth, bound)) = plan.table.hit else {
            return Ok(TableMoveTest::NotRun);
        };
        let ply = plan.ply;
        let depth = plan.depth;
        // The entry must be a lower bound short of a win from a search nearly as deep; the
        // node deep enough, below the root, and not itself a test.
        let entry_fits = matches!(bound, Bound::Lower | Bound::Exact)
            && table_score.abs() < WIN_THRESHOLD
            && table_depth as Depth >= depth - PARAMS.singular_entry_slack;
        let applies =
            entry_fits && depth >= PARAMS.singular_depth && ply > 0 && self.left_out[ply].is_none();
        if !applies {
            return Ok(TableMoveTest::NotRun);
        }
        // A node that was on a PV but is not searched as one tests with a wider margin and
        // a ply less.
        let was_pv = !plan.pv && plan.pv_marked;
        let per_ply = if plan.renju {
            PARAMS.singular_margin_renju
        } else {
            PARAMS.singular_margin
        } + 0.8 * was_pv as i32 as Depth;
        let bar = (table_score - (per_ply * depth) as i32).max(-WIN);
        let test_depth = depth * PARAMS.singular_test_share - was_pv as i32 as Depth;
        self.left_out[ply] = p;
        let without = self.search(bar - 1, bar, test_depth, ply, false, plan.expected_cut);
        self.left_out[ply] = Pos::NONE;
        if self.aborted {
            return Err(0);
        }
        if without < bar {
            let far_margin = PARAMS.singular_far_margin - ((depth * 0.48) as i32).min(7);
            let far = !plan.pv
                && without < bar - far_margin
                && self.line[ply].ext_surplus < PARAMS.singular_double_room;
            return Ok(TableMoveTest::Singular { far });
        }
        if bar >= st.beta {
            return Err(bar);
        }
        Ok(if table_score >= st.beta {
            TableMoveTest::Shallower
        } else {
            TableMoveTest::Plain
        })
    }

    /// Plays `p`, searches it at the node's depth less a ply plus `ext` (reduced first when
    /// it is a later move at depth 2 or more, then searched again as far as it earns), and
    /// takes it back; the score from the node's view.
    fn search_move(
        &mut self,
        plan: &NodePlan,
        st: &LoopState,
        facts: &MoveFacts,
        p: Pos,
        ext: Depth,
    ) -> i32 {
        let ply = plan.ply;
        let full = plan.depth - 1.0 + ext;
        self.line[ply].played = p;
        self.line[ply].shape = facts.ours;
        self.line[ply + 1].ext_surplus = self.line[ply].ext_surplus + (ext - 1.0).max(0.0);
        self.make(p);
        let (alpha, beta) = (st.alpha, st.beta);
        let score = if plan.depth >= 2.0 && st.searched > 1 && !plan.threats.forced {
            self.reduced_then_full(plan, st, facts, full)
        } else if !plan.pv || st.searched > 1 {
            let s = -self.search(-alpha - 1, -alpha, full, ply + 1, false, !plan.expected_cut);
            self.open_research(plan.pv, s, alpha, beta, full, ply)
        } else {
            -self.search(-beta, -alpha, full, ply + 1, true, false)
        };
        self.undo();
        score
    }

    /// A later move: a null-window search at the reduced depth; if it beats alpha, again at
    /// the full depth (deeper when it beat alpha by far); at a PV node, then with the open
    /// window.
    fn reduced_then_full(
        &mut self,
        plan: &NodePlan,
        st: &LoopState,
        facts: &MoveFacts,
        mut full: Depth,
    ) -> i32 {
        let (alpha, beta, child) = (st.alpha, st.beta, plan.ply + 1);
        let reduced = decide::reduced_depth(full, decide::reduction(facts));
        let mut s = -self.search(-alpha - 1, -alpha, reduced, child, false, true);
        if s > alpha && reduced < full && !self.aborted {
            let mut extra = decide::research_extra(s, alpha, st.best, full, reduced) as Depth;
            // A line's extensions of re-searches are capped.
            if self.line[child].ext_surplus >= MAX_RESEARCH_SURPLUS {
                extra = extra.min(1.0);
            } else {
                self.line[child].ext_surplus += (extra - 1.0).max(0.0);
            }
            full += extra;
            if reduced < full {
                s = -self.search(-alpha - 1, -alpha, full, child, false, !plan.expected_cut);
            }
        }
        self.open_research(plan.pv, s, alpha, beta, full, plan.ply)
    }

    /// At a PV node, a null-window score inside the window is searched again with the
    /// open window.
    fn open_research(
        &mut self,
        pv: bool,
        s: i32,
        alpha: i32,
        beta: i32,
        full: Depth,
        ply: usize,
    ) -> i32 {
        if pv && s > alpha && s < beta && !self.aborted {
            -self.search(-beta, -alpha, full, ply + 1, true, false)
        } else {
            s
        }
    }

    /// Takes move `p`'s score into the loop state (best, best move, PV, alpha); true when
    /// it reaches beta.
    fn take_score(&mut self, plan: &NodePlan, st: &mut LoopState, p: Pos, score: i32) -> bool {
        if score <= st.best {
            return false;
        }
        st.best = score;
        if score <= st.alpha {
            return false;
        }
        st.best_move = p;
        if plan.pv {
            self.extend_pv(plan.ply, p);
        }
        if score >= st.beta {
            return true;
        }
        st.alpha = score;
        false
    }

    /// The PV of `ply`: `p` and its child's PV.
    fn extend_pv(&mut self, ply: usize, p: Pos) {
        let n = self.pv_len[ply + 1];
        let (upper, lower) = self.pv.split_at_mut(ply + 1);
        upper[ply][0] = p;
        upper[ply][1..=n].copy_from_slice(&lower[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Phase 7a: the best move's history rises (and it becomes a killer when quiet); the
    /// moves of its kind searched before it fall as much.
    fn reward(&mut self, plan: &NodePlan, st: &LoopState) {
        let me = self.board.side_to_move();
        let gain = decide::history_gain(plan.depth);
        let best = st.best_move;
        let table = &mut self.history[me.index()];
        if self.board.combo(me, best) >= Combo::Three {
            nudge(&mut table[best.index()][SLOT_THREAT], gain);
        } else if !plan.threats.threatened {
            nudge(&mut table[best.index()][SLOT_CALM], gain);
            for q in &st.lost_quiet {
                nudge(&mut table[q.index()][SLOT_CALM], -gain);
            }
            let k = &mut self.killers[plan.ply];
            if k[0] != best {
                *k = [best, k[0]];
            }
        }
        for q in &st.lost_attacks {
            nudge(&mut table[q.index()][SLOT_THREAT], -gain);
        }
    }

    /// Phase 7b: the node's PV mark and table entry (not for a singular test); returns the
    /// node's score. `alpha` is the window's lower edge as the moves began.
    fn store(&mut self, plan: &NodePlan, st: &LoopState, alpha: i32) -> i32 {
        let ply = plan.ply;
        if !self.left_out[ply].is_none() {
            return st.best;
        }
        // A node that failed low keeps its parent's PV mark when deep enough; one that
        // found a move keeps its own only if the child that decided it had one.
        let deep = plan.depth > 3.0;
        if st.best <= alpha {
            self.line[ply].pv_mark |= ply >= 1 && self.line[ply - 1].pv_mark && deep;
        } else if deep {
            self.line[ply].pv_mark &= self.line[ply + 1].pv_mark;
        }
        let bound = if st.best >= st.beta {
            Bound::Lower
        } else if plan.pv && st.best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            self.tt_key(),
            st.best_move,
            score_to_tt(st.best, ply as i32),
            plan.judged.static_eval,
            plan.depth as i32,
            bound,
            self.line[ply].pv_mark,
        );
        st.best
    }

    /// Whether renju's forbidden points exist in this game.
    fn renju(&self) -> bool {
        self.board.rule().has_forbidden(Color::Black)
    }

    /// Whether our moves two and four plies up were both fours.
    fn fours_in_a_row(&self, ply: usize) -> bool {
        ply >= 4 && makes_four(self.line[ply - 2].shape) && makes_four(self.line[ply - 4].shape)
    }

    /// The base late-move reduction at `depth` for the `n`-th move (from 1), in plies:
    /// F² ln(depth) ln(n) with the rule's factor F.
    #[inline]
    pub(super) fn reduction(&self, depth: Depth, n: usize) -> Depth {
        let d = (depth as usize).min(LMR_TABLE_SIZE - 1);
        self.lmr_lut[d] * self.lmr_lut[n.min(LMR_TABLE_SIZE - 1)]
    }

    /// Plays `p` on the worker's board and updates its evaluator.
    #[inline]
    pub(super) fn make(&mut self, p: Pos) {
        self.board.make(p);
        // The child's table entry is loaded while its evaluation is brought up to date.
        self.shared.tt.prefetch(self.tt_key());
        self.ev.make(&self.board);
    }

    /// Takes back the last [`Worker::make`].
    #[inline]
    pub(super) fn undo(&mut self) {
        self.board.undo();
        self.ev.undo();
    }

    /// The position's table key: the board hash with the side to move.
    #[inline]
    pub(super) fn tt_key(&self) -> u64 {
        self.board.hash() ^ (self.board.side_to_move() as u64)
    }

    /// A VCF of the side to move within `nodes` attacker nodes, at a node of `ply` with no
    /// five point on either side: the win's score, if any.
    pub(super) fn vcf_win(&mut self, nodes: u64, ply_i: i32) -> Option<i32> {
        let r = self
            .vcf
            .solve_without_fives(&mut self.board, nodes, self.shared.stop);
        self.add_vcf_nodes(self.vcf.nodes());
        match r {
            VcfOutcome::Win(line) => Some(WIN - ply_i - vcf_line_plies(&mut self.board, &line)),
            _ => None,
        }
    }
}

/// Puts the best remaining move of `moves[i..]` at `i` and returns it. The first
/// [`PICKED_MOVES`] are picked one at a time (most nodes cut off after a few moves); when
/// the loop gets past them, the rest is sorted once.
fn pick_next(moves: &mut MoveList, i: usize) -> Pos {
    if i < PICKED_MOVES {
        let best = (i..moves.len())
            .reduce(|b, j| {
                if order_before(moves[j], moves[b]) {
                    j
                } else {
                    b
                }
            })
            .unwrap_or(i);
        moves.swap(i, best);
    } else if i == PICKED_MOVES {
        moves[i..].sort_unstable_by(order_cmp);
    }
    moves[i].0
}

/// Moves `h` by `gain` toward ±[`HISTORY_MAX`], the less the fuller it is.
#[inline]
fn nudge(h: &mut i32, gain: i32) {
    *h += gain - *h * gain.abs() / HISTORY_MAX;
}

/// Chebyshev distance between two points, -1 when either is [`Pos::NONE`].
#[inline]
fn distance(a: Pos, b: Pos) -> i32 {
    if a.is_none() || b.is_none() {
        -1
    } else {
        a.chebyshev(b)
    }
}

/// A line's surplus extensions from re-searches stop growing beyond this many plies
/// (Rapfi's cap and value, docs/strength.md §2.2).
const MAX_RESEARCH_SURPLUS: Depth = 5.0;

#[cfg(test)]
#[path = "node_tests.rs"]
mod tests;
