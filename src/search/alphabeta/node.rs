//! Node search: the principal-variation alpha-beta search below the root, with fractional
//! depths (docs/strength.md §2), the quiescence search over fours, and make/undo of the
//! worker's board and evaluator.

use super::*;

/// Chebyshev distance between two points, -1 when either is [`Pos::NONE`].
#[inline]
fn distance(a: Pos, b: Pos) -> i32 {
    if a.is_none() || b.is_none() {
        -1
    } else {
        a.chebyshev(b)
    }
}

/// Whether a move of this combo makes a four (a five point) or better.
#[inline]
pub(super) fn is_four(c: Combo) -> bool {
    matches!(
        c,
        Combo::Four | Combo::FourPlus | Combo::FourThree | Combo::Flex4 | Combo::Five
    )
}

/// Whether a move of this combo makes a four with a two or closed three beside it, or better.
#[inline]
fn is_four_plus(c: Combo) -> bool {
    matches!(
        c,
        Combo::FourPlus | Combo::FourThree | Combo::Flex4 | Combo::Five
    )
}

/// Razoring margin at `depth` (evaluation units).
#[inline]
fn razor_margin(depth: Depth) -> i32 {
    (PARAMS.razor_a * depth * depth + PARAMS.razor_b * depth + PARAMS.razor_c) as i32
}

impl Worker<'_> {
    /// The static wins of the side to move at a node where the opponent has no five point
    /// (not under caro), in plies to the five (docs/strength.md §2, step 1): a straight-four
    /// point wins in 3; a four-three or double-three point in 5 when the opponent has no four
    /// to play, and a four-three point also when the forced block of its four makes no four
    /// for the opponent (for renju black: and leaves a straight-four point; black's
    /// double threes are fouls).
    fn static_win(&mut self) -> Option<i32> {
        let me = self.board.side_to_move();
        let c = *self.ev.counts(me);
        if c[class::FLEX4] > 0 {
            return Some(3);
        }
        let renju_black = self.board.rule().has_forbidden(me);
        if self.ev.four_line_points(me.opponent()) == 0
            && !renju_black
            && (c[class::FOUR_THREE] > 0 || c[class::DOUBLE_THREE] > 0)
        {
            return Some(5);
        }
        if c[class::FOUR_THREE] > 0 && self.four_three_wins() {
            return Some(5);
        }
        None
    }

    /// Whether one of the side to move's four-three points wins: after it, the opponent's
    /// forced block makes no four (or is a renju foul), and renju black keeps a
    /// straight-four point. Plays each such point and takes it back.
    fn four_three_wins(&mut self) -> bool {
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let mut points: ArrayVec<Pos, 16> = ArrayVec::new();
        self.board.for_each_candidate(|p| {
            if self.board.combo(me, p) == Combo::FourThree
                && !movegen::is_foul(&self.board, me, p, Combo::FourThree)
            {
                let _ = points.try_push(p);
            }
        });
        for p in points {
            self.make(p);
            let block = self.five_point_near(me, p);
            let wins = match block {
                None => false,
                Some(b) => {
                    let oc = self.board.combo(opp, b);
                    let foul = movegen::is_foul(&self.board, opp, b, oc);
                    let counter = !foul
                        && (is_four(oc)
                            || (self.board.rule().has_forbidden(opp) && oc == Combo::DoubleThree));
                    !counter
                        && (!self.board.rule().has_forbidden(me)
                            || self.ev.counts(me)[class::FLEX4] > 0)
                }
            };
            self.undo();
            if wins {
                return true;
            }
        }
        false
    }

    /// The five point of `c` on the lines through `p` within four points of it, if any.
    fn five_point_near(&self, c: Color, p: Pos) -> Option<Pos> {
        for d in crate::board::DELTA {
            for k in (-4..=4).filter(|&k| k != 0) {
                let q = Pos((p.0 as i32 + k * d) as u16);
                if self.board.cell(q) == crate::board::EMPTY
                    && self.board.combo(c, q) == Combo::Five
                {
                    return Some(q);
                }
            }
        }
        None
    }

    /// The leaf (`depth` <= 0, no five point of the opponent, step 3 passed): the local
    /// VCF search ([`Worker::qvcf`]).
    #[inline]
    fn leaf(&mut self, alpha: i32, beta: i32, depth: Depth, ply: usize) -> i32 {
        self.qvcf(alpha, beta, depth.min(0.0), ply, true)
    }

    /// The local VCF search at a leaf (`depth` <= 0; the caller passed step 3 when `checked`):
    /// the side to move stands on its static evaluation or plays a four near its own last
    /// move (any four in the first two of its moves, then only fours that make something
    /// besides), each answered by the forced block at no cost in depth; every four costs a
    /// ply. Nodes count as search nodes. Renju black's forbidden fours are never tried.
    fn qvcf(&mut self, mut alpha: i32, beta: i32, depth: Depth, ply: usize, checked: bool) -> i32 {
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let ply_i = ply as i32;
        if !checked {
            self.nodes += 1;
            self.poll();
            if self.aborted {
                return 0;
            }
            if ply >= MAX_PLY - 4 || self.board.is_full() {
                return self.ev.evaluate(me);
            }
            if self.ev.five_points(me) > 0 {
                return WIN - ply_i - 1;
            }
            let caro = self.board.rule().has_caps();
            let opp_fives = self.ev.five_points(opp);
            if opp_fives > 0 {
                return self.qvcf_defend(alpha, beta, depth, ply);
            }
            if !caro {
                if let Some(plies) = self.static_win() {
                    return WIN - ply_i - plies;
                }
            }
        }
        let static_eval = self.ev.evaluate(me);
        self.frames[ply].static_eval = static_eval;
        if static_eval >= beta {
            return static_eval;
        }
        let fours = self.ev.four_line_points(me);
        if fours == 0 {
            return static_eval;
        }
        alpha = alpha.max(static_eval);
        // Delta pruning: too far below alpha for fours to matter.
        if static_eval + (PARAMS.qvcf_delta + PARAMS.qvcf_delta_ply * depth as i32).max(614) < alpha
        {
            return alpha;
        }
        let own_last = if ply >= 2 {
            self.frames[ply - 2].mv
        } else {
            let m = self.board.moves();
            let colors = self.board.move_colors();
            (0..m.len())
                .rev()
                .find(|&i| colors[i] == me)
                .map_or(Pos::NONE, |i| m[i])
        };
        if own_last.is_none() {
            return static_eval;
        }
        let plain = depth >= -1.0
            || (ply >= 4
                && is_four_plus(self.frames[ply - 2].combo)
                && is_four_plus(self.frames[ply - 4].combo));
        let mut moves = MoveList::new();
        for &off in QVCF_AREA.iter() {
            let q = Pos((own_last.0 as i32 + off) as u16);
            if self.board.cell(q) != crate::board::EMPTY {
                continue;
            }
            let c = self.board.combo(me, q);
            let ok = if plain { is_four(c) } else { is_four_plus(c) };
            if ok && !movegen::is_foul(&self.board, me, q, c) {
                moves.push((q, movegen::order_score(&self.board, &self.ev, me, q)));
            }
        }
        moves.sort_unstable_by(order_cmp);
        self.qvcf_children(&moves, static_eval, alpha, beta, depth - 1.0, ply)
    }

    /// Searches `moves` in order with [`Worker::qvcf`] at `child_depth` and returns the best
    /// score, at least `best` (0 once aborted); stops at the first score reaching `beta`.
    fn qvcf_children(
        &mut self,
        moves: &MoveList,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        child_depth: Depth,
        ply: usize,
    ) -> i32 {
        let me = self.board.side_to_move();
        for &(p, _) in moves.iter() {
            self.frames[ply].mv = p;
            self.frames[ply].combo = self.board.combo(me, p);
            self.make(p);
            let s = -self.qvcf(-beta, -alpha, child_depth, ply + 1, false);
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

    /// The defender's node of [`Worker::qvcf`]: the block (or, under caro, every defence)
    /// of the opponent's five point, at no cost in depth.
    fn qvcf_defend(&mut self, alpha: i32, beta: i32, depth: Depth, ply: usize) -> i32 {
        let ply_i = ply as i32;
        let mut moves = MoveList::new();
        match movegen::generate(&mut self.board, &self.ev, &mut moves) {
            Node::Win(_) => return WIN - ply_i - 1,
            Node::Lost => return -(WIN - ply_i - 2),
            Node::FlexWin(_) => return WIN - ply_i - 3,
            Node::Moves { .. } => {}
        }
        if moves.is_empty() {
            return -(WIN - ply_i - 2);
        }
        self.qvcf_children(&moves, -WIN, alpha, beta, depth, ply)
    }
}

/// Offsets (in [`Pos`] index units) of the points the local VCF tries around the side's
/// last move: the 5x5 square and the eight lines out to four points.
static QVCF_AREA: once_cell::sync::Lazy<ArrayVec<i32, 40>> = once_cell::sync::Lazy::new(|| {
    let s = crate::core::STRIDE as i32;
    let mut v = ArrayVec::new();
    for dy in -4i32..=4 {
        for dx in -4i32..=4 {
            let square = dx.abs() <= 2 && dy.abs() <= 2;
            let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            if (dx, dy) != (0, 0) && (square || line) {
                v.push(dy * s + dx);
            }
        }
    }
    v
});

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

    /// Adds `bonus` to a history entry, pulled toward at most [`HISTORY_MAX`] in size.
    #[inline]
    fn history_update(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The node search (module doc of `alphabeta`, steps 1-7) at `depth` plies (fractional).
    /// `cut` marks an expected cut node: a null-window child of a PV node's later moves, or
    /// of an expected all node.
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: Depth,
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
        if opp_fives == 0 && !caro {
            if let Some(plies) = self.static_win() {
                return WIN - ply_i - plies;
            }
        }
        let forced = opp_fives > 0;
        // The opponent threatens a five next move or a straight four (an open three).
        let opp_threat = forced || self.ev.counts(opp)[class::FLEX4] > 0;
        // Step 4: leaf.
        if depth <= 0.0 && !forced {
            return self.leaf(alpha, beta, depth, ply);
        }
        // Step 5: the table.
        let key = self.tt_key();
        let skip = self.skip[ply];
        let mut tt_move = Pos::NONE;
        let mut tt_hit = None;
        let mut tt_eval = NO_EVAL;
        let mut tt_pv = false;
        if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            tt_eval = e.eval;
            tt_pv = e.pv;
            let s = score_from_tt(e.score, ply_i);
            tt_hit = Some((s, e.depth, e.bound));
            if !pv_node
                && skip == Pos::NONE
                && e.depth as Depth >= depth
                && e.bound.settles(s, alpha, beta)
            {
                return s;
            }
        }
        if skip == Pos::NONE {
            self.frames[ply].tt_pv = pv_node || tt_pv;
        }
        let node_tt_pv = self.frames[ply].tt_pv;
        self.frames[ply + 1].tt_pv = false;
        self.killers[(ply + 2).min(MAX_PLY - 1)] = [Pos::NONE; 2];
        // Static evaluation: against a four or an open three the position is judged by its
        // answer (the evaluation before the threat).
        let static_eval = if opp_threat {
            if ply >= 1 {
                -self.frames[ply - 1].static_eval
            } else {
                self.ev.evaluate(me)
            }
        } else if tt_eval != NO_EVAL {
            tt_eval
        } else {
            self.ev.evaluate(me)
        };
        self.frames[ply].static_eval = static_eval;
        let improvement = if ply >= 2 && !opp_threat {
            static_eval - self.frames[ply - 2].static_eval
        } else {
            0
        };
        let improving = improvement > 0;
        // The evaluation the pruning reads: a bounded table score beyond the static
        // evaluation in its bound's direction stands in for it.
        let eval = match tt_hit {
            Some((s, _, b))
                if !opp_threat
                    && s.abs() < WIN_THRESHOLD
                    && b.settles(s, static_eval - 1, static_eval + 1) =>
            {
                s
            }
            _ => static_eval,
        };
        let renju = self.board.rule().has_forbidden(Color::Black);
        let mut depth = depth;
        if !forced {
            // Razoring: a shallow non-PV node far below alpha, or facing an open three
            // (with `razor_three`), is resolved by the quiescence search (its fours, else
            // the evaluation).
            if !pv_node
                && depth < PARAMS.razor_depth
                && (alpha < WIN_THRESHOLD || tt_hit.is_none())
                && ((opp_threat && PARAMS.razor_three != 0)
                    || (!opp_threat && eval + razor_margin(depth) < alpha))
            {
                return self.leaf(alpha, alpha + 1, 0.0, ply);
            }
            // Futility: far above beta, a non-PV node stands pat (not after two fours of
            // ours in a row: the attack may be on its way to a win).
            let fut_scale = if renju {
                PARAMS.futility_renju
            } else {
                PARAMS.futility
            } - PARAMS.futility_cut * (cut && tt_hit.is_none()) as i32;
            if !pv_node
                && !opp_threat
                && eval.abs() < WIN_THRESHOLD
                && beta > -WIN_THRESHOLD
                && eval
                    - ((fut_scale as Depth * (depth - 1.0 - improving as i32 as Depth)) as i32)
                        .max(0)
                    >= beta
                && !(ply >= 4
                    && is_four(self.frames[ply - 2].combo)
                    && is_four(self.frames[ply - 4].combo))
            {
                return eval;
            }
            // Internal iterative reductions: a PV node the table knows nothing about, and
            // one whose table entry is shallower than the depth.
            if ply > 0 && pv_node && tt_move.is_none() {
                depth -= PARAMS.iir_pv;
            }
            if pv_node && depth > 1.0 && !tt_move.is_none() {
                if let Some((_, tt_depth, _)) = tt_hit {
                    depth -=
                        ((depth - tt_depth as Depth) * PARAMS.iir_tt).clamp(0.0, PARAMS.iir_tt_max);
                }
            }
            if depth <= 0.0 {
                return self.leaf(alpha, beta, depth, ply);
            }
            // Near the root, a small VCF of the side to move proves wins the search would
            // need many plies for.
            if ply <= 2 && depth >= 3.0 && skip == Pos::NONE && self.ev.four_line_points(me) > 0 {
                if let Some(score) = self.vcf_win(NODE_VCF_NODES, ply_i) {
                    return score;
                }
            }
        }
        // Step 6.
        let mut moves = MoveList::new();
        let node = movegen::generate(&mut self.board, &self.ev, &mut moves);
        match node {
            Node::Win(_) => return WIN - ply_i - 1,
            Node::Lost => return -(WIN - ply_i - 2),
            Node::FlexWin(_) => return WIN - ply_i - 3,
            Node::Moves { .. } => {}
        }
        if moves.is_empty() {
            return -(WIN - ply_i - 2);
        }
        let mi = me.index();
        let killers = self.killers[ply];
        for m in moves.iter_mut() {
            if m.0 == tt_move {
                m.1 += 1 << 24;
                continue;
            }
            if m.0 == killers[0] || m.0 == killers[1] {
                m.1 += PARAMS.killer_bonus;
            }
            let h = &self.history[mi][m.0.index()];
            m.1 += if self.board.combo(me, m.0) >= Combo::Three {
                h[HIST_ATTACK] / PARAMS.hist_attack_div
            } else {
                h[HIST_QUIET] / PARAMS.hist_quiet_div
            };
        }
        let last_opp = if ply >= 1 {
            self.frames[ply - 1].mv
        } else {
            self.board.last_move()
        };
        let last_own = if ply >= 2 {
            self.frames[ply - 2].mv
        } else {
            let m = self.board.moves();
            if m.len() >= 2 {
                m[m.len() - 2]
            } else {
                Pos::NONE
            }
        };
        let own_attack_before = ply >= 2 && self.frames[ply - 2].combo >= Combo::Three;
        let likely_fail_high = !pv_node
            && cut
            && eval
                >= beta
                    + PARAMS.fhr_a
                    + PARAMS.fhr_b * depth as i32
                    + PARAMS.fhr_c * opp_threat as i32;
        let mcp_limit = move_count_limit(depth, improving);
        let orig_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = Pos::NONE;
        let mut move_count = 0usize;
        let mut searched_quiet: ArrayVec<Pos, 64> = ArrayVec::new();
        let mut searched_attack: ArrayVec<Pos, 32> = ArrayVec::new();
        for i in 0..moves.len() {
            // Move-count pruning, once a move that does not lose is known: the move that
            // would reach the limit and every later one are pruned (the count and `best`
            // only grow), so the loop stops before picking it.
            if ply > 0 && best > -WIN_THRESHOLD && move_count + 1 >= mcp_limit {
                break;
            }
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
            move_count += 1;
            let my_combo = self.board.combo(me, p);
            let opp_combo = self.board.combo(opp, p);
            let trivial = my_combo == Combo::None && opp_combo == Combo::None;
            let dist_opp = distance(p, last_opp);
            let dist_own = distance(p, last_own);
            let distract = dist_own > if renju { 5 } else { 4 } && dist_opp > 4;
            // Pruning at shallow depth, once a move that does not lose is known.
            if ply > 0 && best > -WIN_THRESHOLD {
                if trivial && depth < PARAMS.trivial_depth {
                    continue;
                }
                if opp_threat && depth < PARAMS.trivial_depth && !is_four(opp_combo) && distract {
                    continue;
                }
            }
            // Extensions.
            let mut ext: Depth = 0.0;
            if forced {
                ext = if depth > 0.0 { PARAMS.ext_forced } else { 1.0 };
            } else if let Some((tt_score, tt_depth, tt_bound)) = tt_hit.filter(|_| p == tt_move) {
                if ply > 0
                    && depth >= PARAMS.se_depth
                    && skip == Pos::NONE
                    && tt_score.abs() < WIN_THRESHOLD
                    && matches!(tt_bound, Bound::Lower | Bound::Exact)
                    && tt_depth as Depth >= depth - PARAMS.se_tt_depth
                {
                    let former_pv = !pv_node && node_tt_pv;
                    let margin = if renju {
                        PARAMS.se_margin_renju
                    } else {
                        PARAMS.se_margin
                    } + 0.8 * former_pv as i32 as Depth;
                    let singular_beta = (tt_score - (margin * depth) as i32).max(-WIN);
                    self.skip[ply] = p;
                    let v = self.search(
                        singular_beta - 1,
                        singular_beta,
                        depth * PARAMS.se_reduction - former_pv as i32 as Depth,
                        ply,
                        false,
                        cut,
                    );
                    self.skip[ply] = Pos::NONE;
                    if self.aborted {
                        return 0;
                    }
                    if v < singular_beta {
                        let double = PARAMS.se_double - ((depth * 0.48) as i32).min(7);
                        ext = if !pv_node
                            && v < singular_beta - double
                            && self.frames[ply].extra_ext < PARAMS.se_extra_max
                        {
                            2.0
                        } else {
                            1.0
                        };
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta {
                        ext = -PARAMS.se_reduction_fh;
                    }
                } else {
                    ext = if pv_node {
                        PARAMS.ext_tt_pv
                    } else {
                        PARAMS.ext_tt_non_pv
                    };
                    if is_four(my_combo) && (0..=6).contains(&dist_own) {
                        ext += if dist_own <= 4 {
                            PARAMS.ext_near_four4
                        } else {
                            PARAMS.ext_near_four6
                        };
                    }
                }
            }
            if likely_fail_high {
                if is_four(my_combo) {
                    if ply >= 2 && is_four(self.frames[ply - 2].combo) {
                        ext += 1.0;
                    }
                } else {
                    ext -= 1.0;
                }
            }
            let mut new_depth = depth - 1.0 + ext;
            self.frames[ply].mv = p;
            self.frames[ply].combo = my_combo;
            self.frames[ply + 1].extra_ext = self.frames[ply].extra_ext + (ext - 1.0).max(0.0);
            self.make(p);
            let score = if depth >= 2.0 && move_count > 1 && !forced {
                // Late-move reduction.
                let mut r = self.reduction(depth, move_count);
                if pv_node {
                    r = (r - (beta - alpha) as Depth / self.root_delta as Depth).max(0.0);
                } else if !improving && r > 1.0 {
                    r += PARAMS.lmr_not_improving;
                }
                if node_tt_pv {
                    r -= PARAMS.lmr_tt_pv;
                }
                if ply & 1 == 1 && best >= -self.root_alpha {
                    r += PARAMS.lmr_no_alpha;
                }
                if cut
                    && !(!opp_threat
                        && (p == killers[0] || p == killers[1])
                        && my_combo < Combo::Three)
                {
                    r += PARAMS.lmr_cut;
                }
                if opp_threat && !is_four(opp_combo) {
                    if dist_opp > 4 {
                        r += PARAMS.lmr_far_defence_opp;
                    }
                    if dist_own > 4 {
                        r += PARAMS.lmr_far_defence_own;
                    }
                }
                if !opp_threat
                    && own_attack_before
                    && (my_combo >= Combo::Three
                        || (dist_own <= 4
                            && my_combo >= Combo::DoubleTwo
                            && my_combo != Combo::ClosedThree))
                {
                    r -= PARAMS.lmr_continued_attack;
                }
                // Renju black's double-three points that the generator kept are not
                // forbidden (a three of them cannot become a straight four).
                if renju && me == Color::Black && my_combo == Combo::DoubleThree {
                    r -= PARAMS.lmr_false_forbidden;
                }
                let h = &self.history[mi][p.index()];
                let stat = h[HIST_ATTACK] + h[HIST_QUIET] * 780 / 1024 - PARAMS.stat_offset;
                r -= stat as Depth
                    / if depth > 5.4 {
                        PARAMS.lmr_history_deep
                    } else {
                        PARAMS.lmr_history
                    };
                let d = (new_depth - r).min(new_depth + 1.0).max(1.0);
                let mut s = -self.search(-alpha - 1, -alpha, d, ply + 1, false, true);
                if s > alpha && d < new_depth && !self.aborted {
                    let diff = (new_depth - d) as i32;
                    let mut more = (s > alpha + PARAMS.lmr_deeper + 9 * diff) as i32 as Depth
                        + (s > alpha + PARAMS.lmr_deeper2 + 21 * diff) as i32 as Depth
                        - (s < best + new_depth as i32) as i32 as Depth;
                    if self.frames[ply + 1].extra_ext >= LMR_EXTRA_MAX {
                        more = more.min(1.0);
                    } else {
                        self.frames[ply + 1].extra_ext += (more - 1.0).max(0.0);
                    }
                    new_depth += more;
                    if d < new_depth {
                        s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut);
                    }
                }
                if pv_node && s > alpha && s < beta && !self.aborted {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            } else if !pv_node || move_count > 1 {
                let mut s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut);
                if pv_node && s > alpha && s < beta && !self.aborted {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                s
            } else {
                -self.search(-beta, -alpha, new_depth, ply + 1, true, false)
            };
            self.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = p;
                    if pv_node {
                        self.pv[ply][0] = p;
                        let child_len = self.pv_len[ply + 1];
                        for j in 0..child_len {
                            self.pv[ply][j + 1] = self.pv[ply + 1][j];
                        }
                        self.pv_len[ply] = child_len + 1;
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                    // The remaining moves are searched shallower once alpha was raised.
                    if depth > 2.0 && depth < 12.0 && score.abs() < 1600 {
                        depth -= PARAMS.alpha_raise;
                    }
                }
            }
            if p != best_move {
                if my_combo >= Combo::Three {
                    let _ = searched_attack.try_push(p);
                } else if !opp_threat {
                    let _ = searched_quiet.try_push(p);
                }
            }
        }
        if move_count == 0 {
            // Only the skipped move (singular test): fail low.
            return alpha;
        }
        // History: the best move gains, the other moves of its kind searched before lose.
        if !best_move.is_none() && best > orig_alpha {
            let bonus = stat_bonus(depth);
            let my_combo = self.board.combo(me, best_move);
            let hist = &mut self.history[mi];
            if my_combo >= Combo::Three {
                Self::history_update(&mut hist[best_move.index()][HIST_ATTACK], bonus);
            } else if !opp_threat {
                Self::history_update(&mut hist[best_move.index()][HIST_QUIET], bonus);
                for &q in &searched_quiet {
                    Self::history_update(&mut hist[q.index()][HIST_QUIET], -bonus);
                }
                let k = &mut self.killers[ply];
                if k[0] != best_move {
                    k[1] = k[0];
                    k[0] = best_move;
                }
            }
            for &q in &searched_attack {
                Self::history_update(&mut self.history[mi][q.index()][HIST_ATTACK], -bonus);
            }
        }
        // Step 7.
        if skip != Pos::NONE {
            return best;
        }
        // A node that failed low keeps the PV mark of its parent; one that found a move
        // keeps it only if the child that refuted or confirmed it had one.
        if best <= orig_alpha {
            self.frames[ply].tt_pv =
                self.frames[ply].tt_pv || (ply >= 1 && self.frames[ply - 1].tt_pv && depth > 3.0);
        } else if depth > 3.0 {
            self.frames[ply].tt_pv = self.frames[ply].tt_pv && self.frames[ply + 1].tt_pv;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best, ply_i),
            static_eval,
            depth as i32,
            bound,
            self.frames[ply].tt_pv,
        );
        best
    }

    /// The base late-move reduction at `depth` for the `n`-th move (from 1), in plies:
    /// F² ln(depth) ln(n) with the rule's factor F.
    #[inline]
    pub(super) fn reduction(&self, depth: Depth, n: usize) -> Depth {
        let d = (depth as usize).min(LMR_TABLE_SIZE - 1);
        self.lmr_lut[d] * self.lmr_lut[n.min(LMR_TABLE_SIZE - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{parse_point_list, Rule};

    /// Runs `f` on a worker set up for the 15x15 position with `black` and `white` stones
    /// (point lists such as `"h8,i8"`) and `to_move` to move.
    fn with_worker<R>(
        black: &str,
        white: &str,
        to_move: Color,
        rule: Rule,
        f: impl FnOnce(&mut Worker) -> R,
    ) -> R {
        let b = parse_point_list(black, 15, 15).unwrap();
        let w = parse_point_list(white, 15, 15).unwrap();
        let board = Board::from_stones_to_move(15, 15, rule, &b, &w, to_move).unwrap();
        let tt = TranspositionTable::new(1 << 20);
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let shared = Shared::new(&tt, &stop, Instant::now(), &limits, None);
        let mut worker = Worker::new(0, board, &shared, &limits, Solvers::new());
        f(&mut worker)
    }

    fn static_win(black: &str, white: &str, to_move: Color, rule: Rule) -> Option<i32> {
        with_worker(black, white, to_move, rule, |w| {
            let before = w.board.hash();
            let r = w.static_win();
            assert_eq!(w.board.hash(), before, "the probe takes its moves back");
            r
        })
    }

    // Black's k8 is a four-three: the four h8-k8 (g8 is white; five point l8) and the open
    // three k6-k8.
    const FOUR_THREE_BLACK: &str = "h8,i8,j8,k6,k7";

    #[test]
    fn a_four_three_wins_when_the_opponent_has_no_four() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let r = static_win(FOUR_THREE_BLACK, "g8,c3,c13,m13,n2", Color::Black, rule);
            assert_eq!(r, Some(5), "{rule:?}");
        }
    }

    #[test]
    fn a_quiet_position_has_no_static_win() {
        let r = static_win("h8,i9,k6", "g8,c3,c13", Color::Black, Rule::Freestyle);
        assert_eq!(r, None);
    }

    #[test]
    fn a_straight_four_point_wins_in_three() {
        // Black h8-j8 open (g8, k8, f8, l8 empty): g8 or k8 makes a straight four.
        let r = static_win("h8,i8,j8", "c3,c13,m13", Color::Black, Rule::Freestyle);
        assert_eq!(r, Some(3));
    }

    #[test]
    fn the_four_three_probe_wins_when_the_block_makes_no_four() {
        // White has fours to play (its open three c13-e13), so the count alone does not
        // decide; the forced block at l8 makes nothing for white: a win.
        let r = static_win(
            FOUR_THREE_BLACK,
            "g8,c13,d13,e13,a1",
            Color::Black,
            Rule::Freestyle,
        );
        assert_eq!(r, Some(5));
    }

    #[test]
    fn no_win_when_the_forced_block_makes_a_four() {
        // White l9-l11: the block at l8 makes white a four, which black must answer.
        let r = static_win(
            FOUR_THREE_BLACK,
            "g8,l9,l10,l11,a1",
            Color::Black,
            Rule::Freestyle,
        );
        assert_eq!(r, None);
    }

    #[test]
    fn renju_black_four_three_wins_through_the_probe() {
        // Renju black never wins on the counts alone: the probe plays k8, white blocks at
        // l8, and black keeps a straight-four point (k5 or k9).
        let r = static_win(
            FOUR_THREE_BLACK,
            "g8,c3,c13,m13,n2",
            Color::Black,
            Rule::Renju,
        );
        assert_eq!(r, Some(5));
    }

    #[test]
    fn a_block_that_is_a_renju_foul_does_not_count_as_a_four() {
        // White's k8 is a four-three (h8-k8 with g8 black, five point l8; k6-k8 open). Black's
        // block at l8 makes two fours (l8-l11 and l8-o5): a counter in freestyle, a
        // forbidden double four in renju, where white's four-three wins.
        let black = "g8,l9,l10,l11,m7,n6,o5";
        let white = "h8,i8,j8,k6,k7,a1";
        assert_eq!(
            static_win(black, white, Color::White, Rule::Freestyle),
            None
        );
        assert_eq!(static_win(black, white, Color::White, Rule::Renju), Some(5));
    }

    #[test]
    fn a_block_that_is_a_forbidden_double_three_is_no_defence() {
        // The same four-three of white's; black's block at l8 makes two open threes (l8-l10
        // and l8-n6) and black has fours of its own elsewhere (b13-d13), so only the probe
        // decides. Renju: the double three is forbidden, black cannot block, white wins.
        let black = "g8,l9,l10,m7,n6,b13,c13,d13";
        let white = "h8,i8,j8,k6,k7,a1,o15";
        assert_eq!(static_win(black, white, Color::White, Rule::Renju), Some(5));
        assert_eq!(
            static_win(black, white, Color::White, Rule::Freestyle),
            Some(5)
        );
    }

    /// The local VCF score of black to move at a leaf: its four f8 (c8-f8, b8 white; forced
    /// block g8) turns h10 into a four-three (the four h10-h13, h14 white, and the three
    /// f8-h10 on the diagonal through g9). Black's last stone is g9.
    fn leaf_vcf(black: &str, rule: Rule) -> (Option<i32>, i32) {
        with_worker(black, "b8,h14,a1,a15,o1,o15", Color::Black, rule, |w| {
            let before = w.board.hash();
            let sw = w.static_win();
            let s = w.qvcf(-WIN, WIN, 0.0, 0, false);
            assert_eq!(w.board.hash(), before, "the search takes its moves back");
            (sw, s)
        })
    }

    #[test]
    fn the_leaf_vcf_finds_a_four_then_a_four_three() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let (sw, s) = leaf_vcf("c8,d8,e8,h11,h12,h13,g9", rule);
            assert_eq!(sw, None, "{rule:?}: no static win before the first four");
            // Four f8, block g8, four-three h10: a five on the seventh ply at the latest.
            assert!(s >= WIN - 7, "{rule:?}: {s}");
        }
        // Without h11 there is no second four: no win.
        let (_, s) = leaf_vcf("c8,d8,e8,a3,h12,h13,g9", Rule::Freestyle);
        assert!(s < WIN_THRESHOLD, "{s}");
    }
}
