//! The session's commands on the game in progress that do more than one thing: a move of
//! the opponent's (`TURN`), a stone placed without a reply (`PLAY`), a takeback, the
//! threat solver (`SOLVE`, this engine's extension) and the forbidden points
//! (`YXSHOWFORBID`) (docs/protocol.md).

use super::{Brain, JobKind, JobOutput, Session};
use crate::core::Pos;
use crate::protocol::format;
use crate::protocol::parse::Coord;
use crate::time::Budget;
use std::io::Write;
use std::time::Instant;

impl<B: Brain, W: Write> Session<B, W> {
    /// `TURN x,y`: the opponent's stone, then our move.
    pub(super) fn turn(&mut self, c: Coord, at: Instant) {
        let p = match self.point(c) {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let g = self.game.as_mut().expect("game");
        let me = g.me.unwrap_or(g.board.side_to_move().opponent());
        g.board.make_colored(p, me.opponent());
        g.me = Some(me);
        self.request_move(at, false, 1);
    }

    /// `PLAY x,y`: our stone where the manager says, echoed.
    pub(super) fn play_stone(&mut self, c: Coord) {
        let p = match self.point(c) {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let g = self.game.as_mut().expect("game");
        let me = g.me();
        g.board.make_colored(p, me);
        g.me = Some(me);
        self.out.line(&format::move_line(p));
    }

    /// `TAKEBACK x,y`: removes the last stone, which must be at `x,y`.
    pub(super) fn takeback(&mut self, c: Coord) {
        let g = self.game.as_mut().expect("game");
        let b = &g.board;
        let last = b.last_move();
        if !b.contains_xy(c.x, c.y)
            || last.is_none()
            || last != Pos::new(c.x as usize, c.y as usize)
        {
            self.error(&format!("{},{} is not the last stone", c.x, c.y));
            return;
        }
        g.board.undo();
        self.out.line("OK");
    }

    /// `SOLVE [VCT] ms`: the VCF (or VCT) solver on the search thread, within `max_memory`.
    pub(super) fn solve(&mut self, vct: bool, time_ms: u64, at: Instant) {
        let g = self.game.as_ref().expect("game");
        let threads = self.threads();
        // What `max_memory` leaves beside the table and the engine's other memory
        // (no search runs meanwhile, so the root VCT's share is free).
        let memory_bytes = self
            .memory_for_solvers(100)
            .map_or(usize::MAX, |b| b.min(usize::MAX as u64) as usize);
        let limits = crate::search::threat::SolveLimits {
            time_ms,
            threads,
            memory_bytes,
        };
        let board = g.board.clone();
        if self.brain.is_none() {
            // The search thread was lost (a failed job): solve here instead.
            let stop = std::sync::atomic::AtomicBool::new(false);
            let r = crate::search::threat::solve_with_stop(&board, vct, &limits, &stop);
            self.finish_solve(vct, &r);
            return;
        }
        let (stones, points) = (board.stone_count(), board.width() * board.height());
        self.spawn(
            JobKind::Solve { vct },
            at,
            stones,
            points,
            Budget::fixed(time_ms),
            move |_, stop, _| {
                JobOutput::Solve(crate::search::threat::solve_with_stop(
                    &board, vct, &limits, stop,
                ))
            },
        );
    }

    /// `YXSHOWFORBID`: the points forbidden to the side to move (none when white is to
    /// move, docs/protocol.md §6.1).
    pub(super) fn show_forbid(&mut self) {
        let g = self.game.as_ref().expect("game");
        let to_move = g.board.side_to_move();
        let pts: Vec<Pos> = if g.board.rule().has_forbidden(to_move) {
            g.board
                .forbidden_points()
                .into_iter()
                .map(|(p, _)| p)
                .collect()
        } else {
            Vec::new()
        };
        self.out.line(&format::forbid_line(&pts));
    }
}
