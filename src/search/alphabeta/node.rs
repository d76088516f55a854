//! Node search: the principal-variation alpha-beta search below the root and the
//! quiescence search over fours, with make/undo of the worker's board and evaluator.

use super::*;

impl Worker<'_> {
    /// Quiescence search at a leaf (`depth` <= 0) where the side to move can make a four:
    /// the static evaluation `stand_pat` stands unless one of its fours (each answered by
    /// the forced block, which costs no depth) does better; every four costs one ply, so
    /// the line ends after `PARAMS.qs` fours.
    fn quiescence_fours(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        stand_pat: i32,
    ) -> i32 {
        // The static verdicts of `search` (a five point, the opponent's five point, a
        // straight four) are settled before this is called.
        let mut moves = MoveList::new();
        movegen::generate_fours(&self.board, &self.ev, &mut moves);
        moves.sort_unstable_by(order_cmp);
        let mut best = stand_pat;
        alpha = alpha.max(stand_pat);
        for &(p, _) in moves.iter() {
            self.make(p);
            let s = -self.search(-beta, -alpha, depth - 1, ply + 1, false, false);
            self.undo();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

impl<'a> Worker<'a> {
    /// Plays `p` on the worker's board and updates its evaluator.
    #[inline]
    pub(super) fn make(&mut self, p: Pos) {
        self.board.make(p);
        // The child's table entry is loaded while its evaluation is brought up to date.
        self.shared.tt.prefetch(self.tt_key());
        self.ev.make(&self.board);
    }

    /// The position's table key: the board hash with the side to move.
    #[inline]
    pub(super) fn tt_key(&self) -> u64 {
        self.board.hash() ^ (self.board.side_to_move() as u64)
    }

    /// A VCF of the side to move within `nodes` attacker nodes, at a node of `ply` with no
    /// five point on either side (step 3 passed, not `forced`): the win's score, if any.
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

    /// Takes back the last [`Worker::make`].
    #[inline]
    pub(super) fn undo(&mut self) {
        self.board.undo();
        self.ev.undo();
    }

    /// The node search (module doc, steps 1-7). `cut` marks an expected cut node: a
    /// null-window child of a PV node's later moves, or of an expected all node.
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut: bool,
    ) -> i32 {
        // Step 1.
        self.nodes += 1;
        self.poll();
        self.pv_len[ply] = 0;
        if self.aborted {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        // Step 2.
        let ply_i = ply as i32;
        alpha = alpha.max(-WIN + ply_i);
        beta = beta.min(WIN - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        if self.board.is_full() {
            return 0;
        }
        let me = self.board.side_to_move();
        let opp = me.opponent();
        if ply >= MAX_PLY - 4 {
            return self.ev.evaluate(me);
        }
        // Step 3: static verdicts from the threat-class counts (O(1)).
        if self.ev.five_points(me) > 0 {
            return WIN - ply_i - 1;
        }
        let caro = self.board.rule().has_caps();
        let opp_fives = self.ev.five_points(opp);
        if opp_fives >= 2 && !caro {
            return -(WIN - ply_i - 2);
        }
        if opp_fives == 0 && !caro && self.ev.four_line_points(opp) == 0 {
            let c = self.ev.counts(me);
            if c[class::FLEX4] > 0 {
                return WIN - ply_i - 3;
            }
            if PARAMS.static_mates != 0
                && !self.board.rule().has_forbidden(me)
                && (c[class::FOUR_THREE] > 0 || c[class::DOUBLE_THREE] > 0)
            {
                return WIN - ply_i - 5;
            }
        }
        let forced = opp_fives > 0;
        // Step 4: leaf; with fours to play, a quiescence search of them.
        if depth <= 0 && !forced {
            let static_eval = self.ev.evaluate(me);
            self.eval_stack[ply] = static_eval;
            // With `leaf_vcf`, a small VCF search of the side to move at the first leaf
            // (not inside the quiescence search) proves wins the fours below cannot see.
            if PARAMS.leaf_vcf > 0
                && depth == 0
                && static_eval < beta
                && self.ev.four_line_points(me) > 0
            {
                let win = self.vcf_win(PARAMS.leaf_vcf as u64, ply_i);
                if let Some(score) = win {
                    return score;
                }
            }
            if PARAMS.qs > 0
                && depth > -PARAMS.qs
                && static_eval < beta
                && self.ev.four_line_points(me) > 0
            {
                return self.quiescence_fours(alpha, beta, depth, ply, static_eval);
            }
            return static_eval;
        }
        // Step 5: the table; with `tt_eval`, a bounded table score that lies beyond the
        // static evaluation in its bound's direction stands in for it in the pruning below.
        let key = self.tt_key();
        let skip = self.skip[ply];
        let mut tt_move = Pos::NONE;
        let mut tt_hit = None;
        let mut tt_eval = NO_EVAL;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            tt_eval = e.eval;
            let s = score_from_tt(e.score, ply_i);
            tt_hit = Some((s, e.depth, e.bound));
            if !pv_node && skip == Pos::NONE && e.depth >= depth && e.bound.settles(s, alpha, beta)
            {
                return s;
            }
        }
        let static_eval = if forced {
            // A forced block: the position is judged by its answer.
            if ply >= 2 {
                self.eval_stack[ply - 2]
            } else {
                self.ev.evaluate(me)
            }
        } else if tt_eval != NO_EVAL {
            tt_eval
        } else {
            self.ev.evaluate(me)
        };
        self.eval_stack[ply] = static_eval;
        let improving = ply < 2 || static_eval > self.eval_stack[ply - 2];
        let prune_eval = match tt_hit {
            Some((s, _, b))
                if PARAMS.tt_eval != 0
                    && s.abs() < WIN_THRESHOLD
                    && b.settles(s, static_eval - 1, static_eval + 1) =>
            {
                s
            }
            _ => static_eval,
        };
        // Futility: far above beta with no threat of the opponent's pending, a shallow
        // non-PV node stands pat.
        if PARAMS.futility > 0
            && !pv_node
            && !forced
            && depth <= PARAMS.futility
            && beta.abs() < WIN_THRESHOLD
            && self.ev.counts(opp)[class::FLEX4] == 0
            && self.ev.counts(opp)[class::FOUR_THREE] == 0
            && prune_eval - PARAMS.futility_margin * (depth - improving as i32).max(1) >= beta
        {
            return prune_eval;
        }
        // Razoring: far below alpha at a shallow non-PV node with no threat on either side
        // (the side to move has no four to play, the opponent no three or four-three
        // pending): fail low on the static evaluation.
        if PARAMS.razor > 0
            && !pv_node
            && !forced
            && depth <= PARAMS.razor
            && alpha.abs() < WIN_THRESHOLD
            && self.ev.four_line_points(me) == 0
            && self.ev.counts(opp)[class::FLEX4] == 0
            && self.ev.counts(opp)[class::FOUR_THREE] == 0
            && prune_eval + PARAMS.razor_margin * depth < alpha
        {
            return prune_eval;
        }
        // Razoring with threats (`razor_qs`): far below alpha at a shallow non-PV node, the
        // node is replaced by its quiescence search (the side to move's fours), failing low
        // unless they reach alpha.
        if PARAMS.razor_qs > 0
            && !pv_node
            && !forced
            && depth <= PARAMS.razor_qs
            && alpha.abs() < WIN_THRESHOLD
            && self.ev.counts(opp)[class::FLEX4] == 0
            && self.ev.counts(opp)[class::FOUR_THREE] == 0
            && prune_eval + PARAMS.razor_margin * depth < alpha
        {
            if self.ev.four_line_points(me) == 0 {
                return prune_eval;
            }
            let v = self.quiescence_fours(alpha, alpha + 1, 0, ply, static_eval);
            if self.aborted {
                return 0;
            }
            if v <= alpha {
                return v;
            }
        }
        // Near the root, a small VCF of the side to move proves wins the search would need
        // many plies for.
        if ply <= 2
            && depth >= 3
            && !forced
            && skip == Pos::NONE
            && self.ev.four_line_points(me) > 0
        {
            if let Some(score) = self.vcf_win(NODE_VCF_NODES, ply_i) {
                return score;
            }
        }
        // Internal iterative reduction: a node the table knows nothing about is searched
        // one ply shallower (its move ordering is poor, and a deeper search comes back with
        // a table move).
        let depth = if PARAMS.iir > 0 && tt_move == Pos::NONE && !forced && depth >= PARAMS.iir {
            depth - 1
        } else {
            depth
        };
        // Step 6.
        let mut moves = MoveList::new();
        let node = movegen::generate(&mut self.board, &self.ev, &mut moves);
        let defending = match node {
            Node::Win(_) => return WIN - ply_i - 1,
            Node::Lost => return -(WIN - ply_i - 2),
            Node::FlexWin(_) => return WIN - ply_i - 3,
            Node::Moves { defending, .. } => defending,
        };
        if moves.is_empty() {
            return -(WIN - ply_i - 2);
        }
        let mi = me.index();
        let killers = self.killers[ply];
        for m in moves.iter_mut() {
            if m.0 == tt_move {
                m.1 += 1 << 24;
            } else if m.0 == killers[0] || m.0 == killers[1] {
                m.1 += KILLER_BONUS;
            }
            m.1 += self.history[mi][m.0.index()] >> HISTORY_SHIFT;
        }
        // Forced blocks cost no depth; with `ext_three`, neither do answers to an open
        // three, so that threat sequences cost one ply per threat.
        let new_depth = if forced || (defending && PARAMS.ext_three != 0) {
            depth
        } else {
            depth - 1
        };
        let orig_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = Pos::NONE;
        let prune_count = if PARAMS.mcp == 1 || PARAMS.mcp == 2 {
            move_count_limit(depth, improving)
        } else {
            usize::MAX
        };
        let mut quiet_seen = 0usize;
        for i in 0..moves.len() {
            // Best first (score, then point): most nodes cut off after a few moves, so the
            // first ones are picked one at a time and the rest sorted only when reached.
            if i < PICKED_MOVES {
                let mut b = i;
                for j in i + 1..moves.len() {
                    if order_before(moves[j], moves[b]) {
                        b = j;
                    }
                }
                moves.swap(i, b);
            } else if i == PICKED_MOVES {
                moves[i..].sort_unstable_by(order_cmp);
            }
            let p = moves[i].0;
            if p == skip {
                continue;
            }
            // Singular extension: when every move but the table move fails low against a
            // margin below its table score, the table move is searched a ply deeper; when
            // even without it the node fails high, it is cut (multi-cut).
            let mut ext = 0;
            if let Some((tt_score, tt_depth, tt_bound)) = tt_hit {
                if PARAMS.se > 0
                    && p == tt_move
                    && ply > 0
                    && skip == Pos::NONE
                    && !forced
                    && depth >= PARAMS.se
                    && tt_depth >= depth - 3
                    && matches!(tt_bound, Bound::Lower | Bound::Exact)
                    && tt_score.abs() < WIN_THRESHOLD
                    && ply_i < 2 * self.root_depth
                {
                    let singular_beta = tt_score - PARAMS.se_margin * depth;
                    self.skip[ply] = p;
                    let v = self.search(
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        false,
                        cut,
                    );
                    self.skip[ply] = Pos::NONE;
                    if self.aborted {
                        return 0;
                    }
                    if v < singular_beta {
                        ext = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta && PARAMS.se_neg != 0 {
                        ext = -1;
                    }
                }
            }
            let my_combo = self.board.combo(me, p);
            let quiet = !forced
                && !defending
                && (my_combo < Combo::Three
                    || (PARAMS.bare_four_quiet != 0 && my_combo == Combo::Four))
                && self.board.combo(opp, p) < Combo::Three
                && p != tt_move;
            if quiet {
                quiet_seen += 1;
                // Move-count pruning: once a move that does not lose is known, quiet moves
                // late in the order are not searched at non-PV nodes.
                if PARAMS.mcp == 1 && !pv_node && best > -WIN_THRESHOLD && quiet_seen > prune_count
                {
                    continue;
                }
                // The same at every depth, counted over all moves (PV nodes with `mcp_pv`).
                if PARAMS.mcp == 2
                    && (!pv_node || PARAMS.mcp_pv != 0)
                    && best > -WIN_THRESHOLD
                    && i >= prune_count
                {
                    continue;
                }
                // Trivial moves (no shape for either side) at shallow depth.
                if depth < PARAMS.trivial_depth
                    && best > -WIN_THRESHOLD
                    && self.board.combo(me, p) == Combo::None
                    && self.board.combo(opp, p) == Combo::None
                {
                    continue;
                }
                if PARAMS.mcp == 0
                    && !pv_node
                    && depth <= PARAMS.mcp0_depth
                    && i >= (PARAMS.mcp0_base + PARAMS.mcp0_mul * depth) as usize
                    && best > -WIN_THRESHOLD
                {
                    break;
                }
            }
            self.make(p);
            let score = if i == 0 {
                -self.search(
                    -beta,
                    -alpha,
                    new_depth + ext,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut,
                )
            } else {
                // Late-move reductions.
                let mut r = 0;
                if PARAMS.lmr_new != 0 {
                    if depth >= PARAMS.lmr_depth && i >= 2 && !forced {
                        r = lmr(depth, i, quiet, pv_node, improving);
                        if cut && p != killers[0] && p != killers[1] {
                            r += PARAMS.lmr_cut;
                        }
                        r = r.min(new_depth - 1).max(0);
                    }
                } else if quiet && depth >= 3 && i >= 3 {
                    r = 1 + (i >= 8) as i32 + (depth >= 8 && i >= 16) as i32;
                    if pv_node {
                        r -= 1;
                    }
                }
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut);
                }
                if pv_node && s > alpha && s < beta && !self.aborted {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            };
            self.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.pv[ply][0] = p;
                        let child_len = self.pv_len[ply + 1];
                        for j in 0..child_len {
                            self.pv[ply][j + 1] = self.pv[ply + 1][j];
                        }
                        self.pv_len[ply] = child_len + 1;
                    }
                    if alpha >= beta {
                        if !forced {
                            let k = &mut self.killers[ply];
                            if k[0] != p {
                                k[1] = k[0];
                                k[0] = p;
                            }
                            let h = &mut self.history[mi][p.index()];
                            *h += depth * depth * 16 - *h * depth * depth / 512;
                        }
                        break;
                    }
                }
            }
        }
        // Step 7.
        if skip != Pos::NONE {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best, ply_i),
            static_eval,
            depth,
            bound,
        );
        best
    }
}
