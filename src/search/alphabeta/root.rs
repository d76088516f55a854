//! Root and iterative deepening: the worker's iterations with aspiration windows, the root
//! search over its ordered root moves, the root threat solvers (VCF, VCT) and the check of
//! the opponent's threats against the chosen move.

use super::decide;
use super::*;

impl<'a> Worker<'a> {
    /// Iterative deepening; returns the best move of the last completed iteration (or a
    /// better one found by the interrupted iteration).
    pub(super) fn iterate(
        &mut self,
        limits: &Limits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let single = match self.prepare_root(limits) {
            Ok(single) => single,
            Err(answer) => return answer,
        };
        let mut result = SearchResult {
            best: self.root_moves[0].pos,
            pv: vec![self.root_moves[0].pos],
            ..SearchResult::default()
        };
        let max_depth = limits
            .max_depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        // Multi-PV on the main thread only; helpers fill the table for its first line.
        let num_pv = if self.id == 0 {
            limits.multipv.clamp(1, self.root_moves.len())
        } else {
            1
        };
        let mut clock = IterationClock::default();
        let mut prev_score: i32 = 0;
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            depth = self.next_depth(depth, max_depth);
            self.seldepth = 0;
            let Some(lines) = self.search_lines(depth, num_pv, prev_score) else {
                self.keep_interrupted_best(&mut result, prev_score);
                break;
            };
            let score = lines[0].score;
            prev_score = score;
            result.best = self.root_moves[0].pos;
            result.score = score;
            result.depth = depth;
            result.pv = lines[0].pv.clone();
            if num_pv > 1 {
                result.lines = lines.clone();
            }
            let stop = if self.id == 0 {
                self.report_iteration(depth, &lines, on_info);
                self.main_should_stop(&result, depth, single, limits, &mut clock)
            } else {
                self.offer_helper_result(&result, limits, max_depth)
            };
            if stop {
                break;
            }
            depth += 1;
        }
        self.flush_nodes();
        if self.id == 0 && num_pv == 1 {
            self.adopt_helper_result(&mut result);
        }
        if self.id == 0 && result.score > -WIN_THRESHOLD && result.score < WIN_THRESHOLD {
            self.avoid_opponent_threats(&mut result, limits);
            lead_with_played_move(&mut result, num_pv);
        }
        result
    }

    /// Everything before the first iteration: the root moves generated and ordered into
    /// `root_moves`. `Ok(single)` (whether there is one move only) to go on searching, or
    /// `Err` with the answer when none is needed: a five, a forced single move on the empty
    /// board, a flex win, every move lost, or a win proved by the root threat solvers.
    fn prepare_root(&mut self, limits: &Limits) -> Result<bool, SearchResult> {
        let mut moves = MoveList::new();
        let node = movegen::generate(&mut self.board, &self.ev, &mut moves);
        match node {
            Node::Win(p) => return Err(self.instant(p, WIN - 1)),
            Node::FlexWin(p) => return Err(self.instant(p, WIN - 3)),
            Node::Lost => {
                // Every move loses: block one five if we can, else any legal point.
                let p = moves
                    .first()
                    .map(|m| m.0)
                    .unwrap_or_else(|| crate::search::quick_move(&self.board));
                return Err(self.instant(p, -(WIN - 2)));
            }
            Node::Moves { .. } => {}
        }
        moves.retain(|m| !self.excluded.contains(&m.0));
        if moves.is_empty() {
            // Renju black with only forbidden points (or all excluded): any empty point.
            let p = crate::search::quick_move(&self.board);
            return Err(self.instant(p, -(WIN - 2)));
        }
        // A single move (a forced block): searched briefly all the same (to depth 10 or an
        // eighth of the target time), so that the score reported is the position's. The
        // first move of a game needs no search.
        let single = moves.len() == 1;
        if single && self.board.stone_count() == 0 {
            return Err(self.instant(moves[0].0, 0));
        }
        // A forced win by continuous fours, then by continuous threats, ends the search at
        // once: the main thread looks for one first while the helpers start the alpha-beta
        // search, and a win it proves ends every thread.
        if self.id == 0 && !single && PARAMS.root_threats != 0 {
            let win = self.root_threat_win(limits, self.shared.stop);
            self.flush_nodes();
            if let Some(r) = win {
                self.shared.done.store(true, Ordering::Relaxed);
                return Err(r);
            }
        }
        moves.sort_by(order_cmp);
        self.root_moves = moves
            .iter()
            .map(|&(pos, order)| RootMove {
                pos,
                score: -WIN,
                order,
            })
            .collect();
        Ok(single)
    }

    /// The depth this thread searches next: `depth` on the main thread (which publishes
    /// it); a helper catches up with the main thread, odd helpers one ply ahead of it and
    /// even ones level, so that the main thread finds the next depth's entries in the table.
    fn next_depth(&self, depth: i32, max_depth: i32) -> i32 {
        if self.id == 0 {
            self.shared.main_depth.store(depth, Ordering::Relaxed);
            depth
        } else {
            let target = self.shared.main_depth.load(Ordering::Relaxed) + (self.id % 2) as i32;
            depth.max(target.min(max_depth))
        }
    }

    /// One iteration at `depth`: the `num_pv` best lines, best first, or `None` when the
    /// search was stopped before they were complete. Line `k` is the best of the root moves
    /// from slot `k` on (the earlier slots hold this iteration's better lines).
    fn search_lines(&mut self, depth: i32, num_pv: usize, prev_score: i32) -> Option<Vec<PvLine>> {
        let mut lines: Vec<PvLine> = Vec::with_capacity(num_pv);
        for pv_idx in 0..num_pv {
            let prev = if pv_idx == 0 {
                prev_score
            } else {
                self.root_moves[pv_idx].score
            };
            let s = self.aspiration(depth, prev, pv_idx);
            if self.aborted {
                return None;
            }
            let mut pv = self.pv[0][..self.pv_len[0]].to_vec();
            if pv.first() != Some(&self.root_moves[pv_idx].pos) {
                pv = vec![self.root_moves[pv_idx].pos];
            }
            self.root_moves[pv_idx].score = s;
            lines.push(PvLine { score: s, pv });
        }
        if num_pv > 1 {
            // A later pass can score above an earlier one (pruning differs): the lines in
            // score order, best first (the same stable sort on both), so that line 1 is the
            // move played and the summary.
            self.root_moves[..num_pv].sort_by_key(|m| std::cmp::Reverse(m.score));
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        }
        Some(lines)
    }

    /// After a stopped iteration: keeps a move it proved better than the old best (the
    /// best root move is first in `root_moves`, moved there when it raised alpha).
    fn keep_interrupted_best(&self, result: &mut SearchResult, prev_score: i32) {
        let best = self.root_moves[0];
        if best.pos != result.best && best.score > prev_score && best.score > -WIN {
            result.best = best.pos;
            result.pv = vec![best.pos];
            result.score = best.score;
        }
    }

    /// The main thread's `INFO` for each line of a completed iteration.
    fn report_iteration(
        &mut self,
        depth: i32,
        lines: &[PvLine],
        on_info: &mut dyn FnMut(&SearchInfo),
    ) {
        self.flush_nodes();
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        let vcf_nodes = self.shared.vcf_nodes.load(Ordering::Relaxed);
        let time_ms = self.elapsed_ms();
        for (pv_index, line) in lines.iter().enumerate() {
            on_info(&SearchInfo {
                depth,
                seldepth: self.seldepth,
                score: line.score,
                nodes,
                vcf_nodes,
                time_ms,
                pv: line.pv.clone(),
                pv_index,
                num_pv: lines.len(),
            });
        }
    }

    /// Whether the main thread stops after a completed iteration: a proven result needs no
    /// deeper search; otherwise the clock's rule between iterations (`Budget::should_stop`:
    /// the next iteration would not finish, or the move's target time is spent, stretched
    /// when the score fell since our previous move or the best move keeps changing), and a
    /// single move stops at depth 10 or an eighth of the target time.
    fn main_should_stop(
        &self,
        result: &SearchResult,
        depth: i32,
        single: bool,
        limits: &Limits,
        clock: &mut IterationClock,
    ) -> bool {
        let score = result.score;
        if score.abs() >= WIN_THRESHOLD
            && depth > crate::search::mate_plies(score).unwrap_or(0).abs() + 2
        {
            return true;
        }
        if result.best != clock.last_best {
            if clock.last_best != Pos::NONE {
                clock.changes += 1.0;
            }
            clock.last_best = result.best;
        }
        let drop = self
            .shared
            .prev_score
            .map_or(0.0, |p| win_rate(p) - win_rate(score));
        if limits
            .budget
            .should_stop(self.elapsed_ms(), depth, drop, clock.changes)
        {
            return true;
        }
        if single && (depth >= 10 || self.elapsed_ms() * 8 >= limits.budget.soft_ms) {
            return true;
        }
        clock.changes *= 0.5;
        false
    }

    /// A helper's completed iteration, offered to the main thread: kept when it is a
    /// better proof or deeper than the helper result kept so far. Whether the helper stops:
    /// a proven win ends the search (it is the move to play), and a helper that completes
    /// the requested depth ends it too (but searches on itself until told).
    fn offer_helper_result(&self, result: &SearchResult, limits: &Limits, max_depth: i32) -> bool {
        let (score, depth) = (result.score, result.depth);
        let proven = score >= WIN_THRESHOLD;
        let mut best = self.shared.helper_best.lock().unwrap();
        let better = best.as_ref().is_none_or(|b| {
            if proven || b.score >= WIN_THRESHOLD {
                score > b.score
            } else {
                depth > b.depth
            }
        });
        if better {
            *best = Some(result.clone());
        }
        drop(best);
        if proven {
            self.shared.done.store(true, Ordering::Relaxed);
            return true;
        }
        if limits.max_depth.is_some() && depth >= max_depth && limits.multipv <= 1 {
            self.shared.done.store(true, Ordering::Relaxed);
        }
        false
    }

    /// The main thread takes a helper's deeper completed iteration, unless it has proved a
    /// win or a loss itself; a helper's proven win replaces any result that is not a faster
    /// win.
    fn adopt_helper_result(&self, result: &mut SearchResult) {
        if let Some(h) = self.shared.helper_best.lock().unwrap().take() {
            let adopt = if h.score >= WIN_THRESHOLD {
                h.score > result.score
            } else {
                result.score.abs() < WIN_THRESHOLD && h.depth > result.depth
            };
            if adopt {
                *result = h;
            }
        }
    }

    /// Root VCF, then root VCT within a share of the time: a winning line if one is found.
    /// `stop` ends both early.
    pub(super) fn root_threat_win(
        &mut self,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        let start = self.shared.start;
        let timed = limits.budget != crate::time::Budget::UNLIMITED;
        self.vcf.set_deadline(Some(start + self.shared.hard / 4));
        let budget = ROOT_VCF_NODES.min(self.solver_share());
        let vcf = self.vcf.solve(&mut self.board, budget, stop);
        self.add_vcf_nodes(self.vcf.nodes());
        self.vcf.set_deadline(None);
        let line = match vcf {
            VcfOutcome::Win(line) => Some(line),
            _ if self.board.stone_count() >= 4 => {
                // Nodes in proportion to the move's target time; the deadline only guards
                // the clock (a loaded machine). No clock (bench, fixed-depth analysis): the
                // node budget alone, so that the result is deterministic.
                //
                // The deadline is the hard limit itself, not the alpha-beta's abort point
                // (`search_hard`, 85 % of it): on a loaded machine (issue 34: steal time, a
                // second build beside the tests) a proof that needs its nodes past 85 % of the
                // limit was cut there, and the move played came from an alpha-beta search that
                // had no time left (depth 0 or 1). A proof found before the hard limit is the
                // move to play and needs no defensive check, so the reserve kept for that
                // check is the VCT's to use.
                let (nodes, deadline) = if timed {
                    let nodes = (limits.budget.soft_ms.saturating_mul(ROOT_VCT_NODES_PER_MS))
                        .clamp(ROOT_VCT_MIN_NODES, ROOT_VCT_NODES);
                    let ms = (self.shared.hard.as_millis() as u64).min(ROOT_VCT_MAX_MS);
                    (nodes, Some(start + Duration::from_millis(ms)))
                } else {
                    (ROOT_VCT_NODES, None)
                };
                let budget = nodes.min(self.solver_share());
                let mut vct = self.take_vct_solver(limits);
                let r = vct.solve(&mut self.board, budget, deadline, stop);
                self.add_vcf_nodes(vct.nodes());
                self.vct = Some(vct);
                match r {
                    VcfOutcome::Win(line) => Some(line),
                    _ => None,
                }
            }
            _ => None,
        }?;
        if self.excluded.contains(&line[0]) || !self.board.is_empty(line[0]) {
            return None;
        }
        let plies = vcf_line_plies(&mut self.board, &line);
        let mut r = self.instant(line[0], WIN - plies);
        r.pv = line;
        r.depth = plies;
        Some(r)
    }

    /// The worker's VCT solver (made on first use, sized by [`Limits::threat_memory`]);
    /// put it back in `self.vct` after use.
    pub(super) fn take_vct_solver(&mut self, limits: &Limits) -> VctSolver {
        if self.vct_memory != limits.threat_memory {
            // Made for another memory limit: make a new one.
            self.vct = None;
            self.vct_memory = limits.threat_memory;
        }
        self.vct
            .take()
            .unwrap_or_else(|| match limits.threat_memory {
                Some(bytes) => crate::search::threat::vct::vct_solver_for(bytes),
                None => VctSolver::new(),
            })
    }

    /// Defence: if the opponent has a VCF or VCT after the chosen move, play the best root
    /// move after which it is proved to have none (else the first whose check is
    /// inconclusive; else keep the move). Uses the time left before the hard limit, of which
    /// [`DEFENCE_RESERVE_PERCENT`] is kept for it (without a clock: node budgets only).
    pub(super) fn avoid_opponent_threats(&mut self, result: &mut SearchResult, limits: &Limits) {
        let timed = limits.budget != crate::time::Budget::UNLIMITED;
        let now = Instant::now();
        let hard = self.shared.start + self.shared.hard;
        if now >= hard {
            return;
        }
        let deadline = hard;
        let stop = self.shared.stop;
        let vct_nodes = if timed {
            (limits
                .budget
                .soft_ms
                .saturating_mul(DEFENCE_VCT_NODES_PER_MS))
            .clamp(ROOT_VCT_MIN_NODES, DEFENCE_VCT_MAX_NODES)
        } else {
            DEFENCE_VCT_NODES
        }
        .min(self.solver_share());
        let mut vct = self.take_vct_solver(limits);
        // Ok(true): the opponent wins after `p`; Ok(false): proved safe; Err: unknown.
        let mut opp_wins = |w: &mut Self, p: Pos, nodes: u64| -> Result<bool, ()> {
            w.board.make(p);
            w.vcf.set_deadline(Some(deadline));
            let mut r = match w.vcf.solve(&mut w.board, DEFENCE_VCF_NODES, stop) {
                VcfOutcome::Win(_) => Ok(true),
                _ => Err(()),
            };
            w.add_vcf_nodes(w.vcf.nodes());
            w.vcf.set_deadline(None);
            if r.is_err() {
                r = match vct.solve(&mut w.board, nodes, timed.then_some(deadline), stop) {
                    VcfOutcome::Win(_) => Ok(true),
                    VcfOutcome::None => Ok(false),
                    VcfOutcome::Unknown => Err(()),
                };
                w.add_vcf_nodes(vct.nodes());
            }
            w.board.undo();
            r
        };
        if opp_wins(self, result.best, vct_nodes) != Ok(true) {
            self.vct = Some(vct);
            return;
        }
        let candidates: Vec<(Pos, i32)> = self
            .root_moves
            .iter()
            .map(|m| (m.pos, m.score))
            .take(16)
            .collect();
        let mut fallback = None;
        for (p, score) in candidates {
            if p == result.best || Instant::now() >= deadline {
                continue;
            }
            match opp_wins(self, p, vct_nodes / 2) {
                Ok(false) => {
                    fallback = Some((p, score));
                    break;
                }
                Err(()) if fallback.is_none() => fallback = Some((p, score)),
                _ => {}
            }
        }
        self.vct = Some(vct);
        if let Some((p, score)) = fallback {
            result.best = p;
            result.pv = vec![p];
            if score > -WIN {
                result.score = score;
            }
        }
    }

    pub(super) fn instant(&mut self, p: Pos, score: i32) -> SearchResult {
        SearchResult {
            best: p,
            score,
            depth: 0,
            nodes: self.nodes,
            vcf_nodes: self.vcf_nodes,
            time_ms: 0,
            pv: vec![p],
            lines: Vec::new(),
        }
    }

    /// The root search of one line at `depth` in aspiration windows around `prev` (from depth
    /// 5 on, widened on failure: a failure high also searches a third of a ply shallower per
    /// failure); see [`Worker::root_search`] for `first`.
    pub(super) fn aspiration(&mut self, depth: i32, prev: i32, first: usize) -> i32 {
        let mut delta = PARAMS.asp_window;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < WIN_THRESHOLD {
            ((prev - delta).max(-WIN), (prev + delta).min(WIN))
        } else {
            (-WIN, WIN)
        };
        let mut fail_high = 0;
        loop {
            let d = (depth as Depth - (fail_high / 3) as Depth).max(1.0);
            let s = self.root_search(d, alpha, beta, first);
            if self.aborted {
                return s;
            }
            if s <= alpha && alpha > -WIN {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-WIN);
                fail_high = 0;
            } else if s >= beta && beta < WIN {
                beta = (s + delta).min(WIN);
                fail_high += 1;
            } else {
                return s;
            }
            delta = delta * (3 + s.abs() / 820) / 4 + 5;
        }
    }

    /// Searches the root moves from slot `first` on (the slots before it hold this
    /// iteration's better multi-PV lines); the best one ends in slot `first`. Moves from the
    /// [`Params::root_lmr_from`](super::super::params::Params)-th on get a reduced
    /// null-window search first, as PV nodes do.
    pub(super) fn root_search(
        &mut self,
        depth: Depth,
        mut alpha: i32,
        beta: i32,
        first: usize,
    ) -> i32 {
        let mut best = -WIN;
        self.pv_len[0] = 0;
        self.root_width = (beta - alpha).max(1);
        self.root_low = alpha;
        let me = self.board.side_to_move();
        self.line[0] = Step {
            eval: self.ev.evaluate(me),
            pv_mark: true,
            ..Step::default()
        };
        // Stable order: last iteration's best first, then by score, then by order.
        if depth > 1.0 && first + 1 < self.root_moves.len() {
            self.root_moves[first + 1..].sort_by(|a, b| {
                b.score
                    .cmp(&a.score)
                    .then(b.order.cmp(&a.order))
                    .then(a.pos.cmp(&b.pos))
            });
        }
        for i in first..self.root_moves.len() {
            let p = self.root_moves[i].pos;
            self.line[0].played = p;
            self.line[0].shape = self.board.combo(me, p);
            self.line[1].ext_surplus = 0.0;
            self.make(p);
            let new_depth = depth - 1.0;
            let score = if i == first {
                -self.search(-beta, -alpha, new_depth, 1, true, false)
            } else {
                let n = i - first + 1;
                let mut s = alpha + 1;
                if depth >= 2.0 && i - first >= PARAMS.root_lmr_from as usize {
                    let r = decide::root_reduction(
                        self.reduction(depth, n),
                        (beta - alpha) as Depth / self.root_width as Depth,
                        self.history_standing(me, p),
                    );
                    let d = decide::reduced_depth(new_depth, r);
                    if d < new_depth {
                        s = -self.search(-alpha - 1, -alpha, d, 1, false, true);
                    }
                }
                if s > alpha && !self.aborted {
                    s = -self.search(-alpha - 1, -alpha, new_depth, 1, false, true);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.search(-beta, -alpha, new_depth, 1, true, false);
                }
                s
            };
            self.undo();
            if self.aborted {
                return best;
            }
            self.root_moves[i].score = if i == first || score > alpha {
                score
            } else {
                -WIN
            };
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.root_low = alpha;
                // Move to slot `first`, keep the others' order.
                let rm = self.root_moves.remove(i);
                self.root_moves.insert(first, rm);
                self.pv[0][0] = p;
                let child_len = self.pv_len[1];
                for j in 0..child_len {
                    self.pv[0][j + 1] = self.pv[1][j];
                }
                self.pv_len[0] = child_len + 1;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// What the main thread's stop rule remembers between iterations.
struct IterationClock {
    /// Best-move changes, halved after each iteration.
    changes: f64,
    /// The best move of the last completed iteration (`Pos::NONE` before the first).
    last_best: Pos,
}

impl Default for IterationClock {
    fn default() -> Self {
        IterationClock {
            changes: 0.0,
            last_best: Pos::NONE,
        }
    }
}

/// Multi-PV: the move played leads the lines (with a line of its own if none of the lines
/// starts with it), and the summary score and PV are line 1's.
fn lead_with_played_move(result: &mut SearchResult, num_pv: usize) {
    if !result.lines.is_empty() && result.lines[0].pv.first() != Some(&result.best) {
        match result
            .lines
            .iter()
            .position(|l| l.pv.first() == Some(&result.best))
        {
            Some(i) => {
                let line = result.lines.remove(i);
                result.lines.insert(0, line);
            }
            None => {
                result.lines.insert(
                    0,
                    PvLine {
                        score: result.score,
                        pv: result.pv.clone(),
                    },
                );
                result.lines.truncate(num_pv);
            }
        }
    }
    if let Some(first) = result.lines.first() {
        result.score = first.score;
        result.pv = first.pv.clone();
    }
}
