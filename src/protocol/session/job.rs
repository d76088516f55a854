//! The search job and its watchdog: a move, `SOLVE` or swap2 request starts a job on its own
//! thread on a copy of the board; its progress and result come back as [`Event`]s and are
//! answered here (or at once when there is no time).

use super::*;

impl<B: Brain, W: Write> Session<B, W> {
    /// Starts the search for our move (or answers at once when there is no time);
    /// `multipv` lines are searched and reported (YXNBEST), the best one played.
    pub(super) fn request_move(&mut self, at: Instant, nbest: bool, multipv: usize) {
        let g = self.game.as_mut().expect("game");
        let me = g.me();
        g.board.set_side_to_move(me);
        if g.board.is_full() {
            self.error("board is full");
            return;
        }
        let board = g.board.clone();
        let (stones, points) = (board.stone_count(), board.width() * board.height());
        self.apply_engine_settings();
        let budget = match (self.budget_now(at, stones, points), self.brain.is_some()) {
            (Some(b), true) => b,
            _ => {
                self.charge_clock(at);
                let best = quick_move(&board);
                let r = SearchResult {
                    best,
                    pv: vec![best],
                    ..Default::default()
                };
                return self.finish_move(r, nbest);
            }
        };
        let limits = Limits {
            multipv,
            ..self.limits(budget, &board)
        };
        let kind = JobKind::Move { nbest };
        self.spawn(
            kind,
            at,
            stones,
            points,
            budget,
            move |brain, stop, on_info| {
                JobOutput::Move(brain.think(&board, &limits, stop, on_info))
            },
        );
    }

    /// SWAP2BOARD (docs/protocol.md §2.12): the stones alternate from black; the answer is decided
    /// by [`swap2::decide`] on the search thread.
    pub(super) fn swap2(&mut self, body: Body, at: Instant) {
        let g = self.game.as_ref().expect("game");
        let (w, h, rule) = (g.board.width(), g.board.height(), g.board.rule());
        let mut board = Board::new(w, h, rule).expect("size already checked");
        let mut refused = Vec::new();
        for (i, l) in body.lines.iter().enumerate() {
            let (x, y) = (l.at.x, l.at.y);
            if !board.contains_xy(x, y) {
                refused.push((i, format!("{x},{y}: off the board")));
                continue;
            }
            let p = Pos::new(x as usize, y as usize);
            if !board.is_empty(p) {
                refused.push((i, format!("{x},{y}: square already given")));
                continue;
            }
            board.make(p);
        }
        self.report_skipped(&body, refused);
        let n = board.ply();
        if ![0, 3, 5].contains(&n) {
            self.message(&format!(
                "swap2 with {}: playing one move",
                crate::core::counted(n, "stone", "stones")
            ));
        }
        let g = self.game.as_mut().expect("game");
        g.board = board.clone();
        g.me = None;
        if board.empty_points().count() < if n == 0 { 3 } else { 1 } {
            self.error("board is full");
            return;
        }
        let (stones, points) = (board.stone_count(), w * h);
        self.apply_engine_settings();
        let settings_limits = self.limits(Budget::UNLIMITED, &board);
        match (self.budget_now(at, stones, points), self.brain.is_some()) {
            (Some(budget), true) => {
                let watch = if budget == Budget::UNLIMITED {
                    swap2::UNLIMITED_STAGE
                } else {
                    budget
                };
                self.spawn(
                    JobKind::Swap2,
                    at,
                    stones,
                    points,
                    watch,
                    move |brain, stop, _| {
                        let mut search = |b: &Board, bu: Budget| {
                            let limits = Limits {
                                budget: bu,
                                excluded: Vec::new(),
                                ..settings_limits.clone()
                            };
                            brain.think(b, &limits, stop, &mut |_| {})
                        };
                        JobOutput::Swap2(swap2::decide(&board, budget, &mut search))
                    },
                );
            }
            _ => {
                self.charge_clock(at);
                let mut quick = |b: &Board, _| SearchResult {
                    best: quick_move(b),
                    ..Default::default()
                };
                let a = swap2::decide(&board, Budget::fixed(0), &mut quick);
                self.finish_swap2(a);
            }
        }
    }

    /// Runs `work` on the search thread with the engine.
    pub(super) fn spawn<F>(
        &mut self,
        kind: JobKind,
        at: Instant,
        stones: usize,
        points: usize,
        budget: Budget,
        work: F,
    ) where
        F: FnOnce(&mut B, &AtomicBool, &mut dyn FnMut(&SearchInfo)) -> JobOutput + Send + 'static,
    {
        let Some(mut brain) = self.brain.take() else {
            return;
        };
        let id = self.next_id;
        self.next_id += 1;
        self.seldepth = 0;
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let tx = self.tx.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let mut on_info = |info: &SearchInfo| {
                    let _ = tx.send(Event::Progress {
                        id,
                        info: info.clone(),
                    });
                };
                let out = catch_unwind(AssertUnwindSafe(|| {
                    work(&mut brain, &thread_stop, &mut on_info)
                }))
                .ok();
                let _ = tx.send(Event::Done { id });
                (brain, out)
            });
        let deadline = if budget.hard_ms >= Budget::UNLIMITED.hard_ms {
            None
        } else {
            at.checked_add(Duration::from_millis(
                budget.hard_ms.saturating_add(WATCHDOG_GRACE_MS),
            ))
        };
        match spawned {
            Ok(handle) => {
                self.job = Some(Job {
                    id,
                    kind,
                    stop,
                    handle,
                    at,
                    stones,
                    points,
                    deadline,
                })
            }
            Err(_) => {
                // No thread: the engine went with the closure. Answer with the quick move
                // from now on (the session stays usable, only weaker).
                self.message("could not start the search thread; playing quick moves");
                let board = self.game.as_ref().map(|g| g.board.clone());
                if matches!(kind, JobKind::FourMove) {
                    self.four_finish_move(None);
                } else if let Some(board) = board {
                    self.answer_quickly(kind, &board);
                }
            }
        }
    }

    /// Stops and discards the running job without printing its answer.
    pub(super) fn abort_job(&mut self) {
        let Some(job) = self.job.take() else { return };
        job.stop.store(true, Ordering::SeqCst);
        if let Ok((brain, _)) = job.handle.join() {
            self.brain = Some(brain);
        }
    }

    /// The running job has sent `Done`: take the engine back and print the answer.
    pub(super) fn finish_job(&mut self) {
        let Some(job) = self.job.take() else { return };
        if !matches!(job.kind, JobKind::Solve { .. }) {
            self.charge_clock(job.at);
        }
        let (brain, out) = match job.handle.join() {
            Ok((b, o)) => (Some(b), o),
            Err(_) => (None, None),
        };
        self.brain = brain;
        let board = self.game.as_ref().map(|g| g.board.clone());
        match (job.kind, out) {
            (JobKind::Move { nbest }, Some(JobOutput::Move(r))) => self.finish_move(r, nbest),
            (JobKind::Swap2, Some(JobOutput::Swap2(a))) => self.finish_swap2(a),
            (JobKind::Solve { vct }, Some(JobOutput::Solve(r))) => self.finish_solve(vct, &r),
            (JobKind::Opening(style, _), Some(JobOutput::Opening(d))) => {
                self.finish_opening(style, d)
            }
            (JobKind::FourMove, out) => {
                let r = match out {
                    Some(JobOutput::FourMove(r)) => Some(r),
                    _ => None,
                };
                self.four_finish_move(r);
            }
            (kind, _) => {
                // The search failed: answer with the quick move rather than nothing.
                self.message("search failed; playing the quick move");
                if let Some(board) = board {
                    self.answer_quickly(kind, &board);
                }
            }
        }
        self.run_deferred();
    }

    /// Prints progress of the running job as `show_detail` and the job kind ask.
    pub(super) fn progress(&mut self, info: &SearchInfo) {
        let nbest = matches!(
            self.job.as_ref().map(|j| &j.kind),
            Some(JobKind::Move { nbest: true })
        );
        if nbest {
            self.out.line(&format::progress(info));
        }
        if self.settings.show_detail & 1 != 0 {
            if let Some(l) = format::realtime_best(info) {
                self.out.line(&l);
            }
        }
        if self.settings.show_detail & 2 != 0 {
            for l in format::info_block(info) {
                self.out.line(&l);
            }
        }
    }

    /// Plays and prints our move from a search result (a legal fallback replaces a move
    /// that is not an empty board point).
    pub(super) fn finish_move(&mut self, r: SearchResult, nbest: bool) {
        let g = self.game.as_mut().expect("game");
        let me = g.me();
        let p = swap2::legal_or_quick(&g.board, r.best);
        let Some(p) = p else {
            self.error("board is full");
            return;
        };
        g.board.make_colored(p, me);
        g.me = Some(me);
        if nbest || r.depth > 0 {
            let info = SearchInfo {
                depth: r.depth,
                seldepth: if r.depth > 0 {
                    self.seldepth.max(r.depth)
                } else {
                    0
                },
                score: r.score,
                nodes: r.nodes,
                vcf_nodes: r.vcf_nodes,
                time_ms: r.time_ms,
                pv: if r.pv.first() == Some(&p) {
                    r.pv.clone()
                } else {
                    vec![p]
                },
                pv_index: 0,
                num_pv: 1,
            };
            self.out.line(&format::progress(&info));
        }
        self.out.line(&format::move_line(p));
    }

    /// Prints a swap2 answer and adds its stones to the board (alternating colours).
    /// Answers a job without searching (the search thread could not start or failed):
    /// the quick move, or swap2 decisions made from quick moves.
    pub(super) fn answer_quickly(&mut self, kind: JobKind, board: &Board) {
        match kind {
            JobKind::Move { nbest } => {
                let best = quick_move(board);
                let r = SearchResult {
                    best,
                    ..Default::default()
                };
                self.finish_move(r, nbest)
            }
            JobKind::Swap2 => {
                let mut quick = |b: &Board, _| SearchResult {
                    best: quick_move(b),
                    ..Default::default()
                };
                let a = swap2::decide(board, Budget::fixed(0), &mut quick);
                self.finish_swap2(a);
            }
            JobKind::Opening(style, req) => self.answer_opening_quickly(style, &req),
            JobKind::Solve { vct } => {
                let r = crate::search::threat::SolveReport {
                    result: crate::search::threat::SolveResult::Unknown,
                    line: Vec::new(),
                    nodes: 0,
                    time_ms: 0,
                };
                self.finish_solve(vct, &r);
            }
            JobKind::FourMove => self.four_finish_move(None),
        }
    }

    /// Prints a `SOLVE` answer: a `MESSAGE` with the effort, then the `SOLVE` line.
    pub(super) fn finish_solve(&mut self, vct: bool, r: &crate::search::threat::SolveReport) {
        self.message(&format!(
            "SOLVE {} nodes {} time_ms {}",
            if vct { "VCT" } else { "VCF" },
            r.nodes,
            r.time_ms
        ));
        self.out.line(&format::solve_line(r));
    }

    pub(super) fn finish_swap2(&mut self, a: Option<Swap2Answer>) {
        let Some(a) = a else {
            self.error("board is full");
            return;
        };
        let g = self.game.as_mut().expect("game");
        for p in a.stones() {
            if g.board.contains(p) && g.board.is_empty(p) {
                g.board.make(p);
            }
        }
        self.out.line(&a.to_line());
    }
}
