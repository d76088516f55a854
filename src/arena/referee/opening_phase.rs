//! The opening dialogue of a game played under an opening rule (docs/openings.md §6).
//!
//! Both engines make the rule's decisions through the protocol: Swap2 with `SWAP2BOARD`
//! (docs/protocol.md §2.12), the other rules with this engine's `OPENING <rule> <STEP> [n]`
//! command (docs/openings.md §5). Each request is preceded by `INFO time_left` and timed and
//! charged like a move. The referee checks every answer: stones on empty board points, RIF
//! and Soosorv-8 openings among the 26, offers of the agreed number with no two symmetric
//! and none forbidden or a five, the kept offer among those offered. A bad answer loses like
//! a bad move; an answer that is not understood (`UNKNOWN`, `ERROR`, anything else) loses as
//! an unparsable reply. Every decision is kept in [`DecisionRecord`]s.
//!
//! Seats: seat 0 is the first player (the one who opens), seat 1 the second. Colours follow
//! the decisions; the game keeps which seat holds black (`GameRecord::colors_swapped` after).

use super::super::player::{board_request, parse_move_line, Player, Reply};
use super::{await_move, send_timed};
use super::{Forfeit, Game, MoveRecord, Termination};
use crate::board::{ForbiddenKind, GameResult};
use crate::core::{Color, Pos};
use crate::opening::symmetry::{pattern_symmetries, stones_of, symmetric_points};
use crate::opening::{renju26, OpeningRule, Step, MAX_OFFERS};
use std::time::Duration;

/// The opening rule of a match and, for RIF, the number of fifth-move offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningPlan {
    /// The rule.
    pub rule: OpeningRule,
    /// RIF's number of fifth-move offers (1..=8; Soosorv-8's N is chosen in the game).
    pub n: u8,
}

/// One decision of the opening dialogue.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DecisionRecord {
    /// Who decided: 0 the first player, 1 the second.
    pub seat: usize,
    /// The colour the decider held when asked (`black`, `white`).
    pub color: &'static str,
    /// What was asked, e.g. `OPENING soosorv8 SWAP1` or `SWAP2BOARD 3`.
    pub request: String,
    /// The answer line as received.
    pub answer: String,
    /// Time taken, in ms.
    pub time_ms: u64,
}

/// How the game ended during the dialogue (a stone made a five or a foul).
type End = (Option<Color>, Termination);

/// Longest wait for an answer when no clock limits it.
const NO_LIMIT: Duration = Duration::from_secs(3600);

impl Game<'_> {
    /// The colour `seat` holds.
    fn color_of_seat(&self, seat: usize) -> Color {
        if seat == self.black_seat {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Runs the dialogue of `plan`. `Ok(None)`: normal play goes on from the stones placed;
    /// `Ok(Some(end))`: a placed stone ended the game; `Err`: a forfeit.
    pub(super) fn opening_phase(
        &mut self,
        plan: OpeningPlan,
        players: &mut [&mut Player; 2],
    ) -> Result<Option<End>, Forfeit> {
        macro_rules! place_all {
            ($pts:expr, $seat:expr, $t:expr) => {
                for (i, &p) in $pts.iter().enumerate() {
                    if let Some(end) = self.place(p, $seat, if i == 0 { $t } else { 0 })? {
                        return Ok(Some(end));
                    }
                }
            };
        }
        let name = plan.rule.name();
        match plan.rule {
            OpeningRule::Swap2 => {
                let (line, t) = self.ask(players, 0, "SWAP2BOARD\nDONE\n", "SWAP2BOARD 0")?;
                let pts = self.points(&line, 0, 3..=3)?;
                place_all!(pts, 0, t);
                let req = self.body("SWAP2BOARD", &[]);
                let (line, t) = self.ask(players, 1, &req, "SWAP2BOARD 3")?;
                if line.trim().eq_ignore_ascii_case("SWAP") {
                    self.black_seat = 1;
                    return Ok(None);
                }
                let pts = self.points(&line, 1, 1..=2)?;
                place_all!(pts, 1, t);
                if pts.len() == 1 {
                    return Ok(None);
                }
                let req = self.body("SWAP2BOARD", &[]);
                let (line, t) = self.ask(players, 0, &req, "SWAP2BOARD 5")?;
                if line.trim().eq_ignore_ascii_case("SWAP") {
                    return Ok(None);
                }
                let pts = self.points(&line, 0, 1..=1)?;
                self.black_seat = 1;
                place_all!(pts, 0, t);
            }
            OpeningRule::Rif | OpeningRule::Soosorv8 => {
                let stones = self.opening_answer(players, 0, name, Step::Open, None, "MOVES")?;
                let pts = self.points_of(&stones, 0, 3..=3)?;
                if renju26::recognise(&pts, self.board.width(), self.board.height()).is_none() {
                    return Err(self.illegal(0, "the opening is not one of the 26".into()));
                }
                place_all!(pts, 0, stones.1);
                let (ans, _) = self.opening_answer(players, 1, name, Step::Swap1, None, "SWAP")?;
                if self.yes(&ans, 1)? {
                    self.black_seat = 1;
                }
                let n = if plan.rule == OpeningRule::Rif {
                    let w = self.seat_of(Color::White);
                    let (p, t) = self.move_request(players, w)?;
                    place_all!([p], w, t);
                    plan.n
                } else {
                    let w = self.seat_of(Color::White);
                    let ans = self.opening_answer(players, w, name, Step::Move4, None, "MOVE4")?;
                    let toks: Vec<&str> = ans.0.split_whitespace().collect();
                    let n = toks
                        .get(1)
                        .and_then(|t| t.parse::<u8>().ok())
                        .filter(|n| (1..=MAX_OFFERS).contains(n));
                    let (Some(n), 2) = (n, toks.len()) else {
                        return Err(self.garbage(w, &ans.0));
                    };
                    let pts = self.points(toks[0], w, 1..=1)?;
                    place_all!(pts, w, ans.1);
                    let b = self.seat_of(Color::Black);
                    let (ans, _) =
                        self.opening_answer(players, b, name, Step::Swap2, Some(n), "SWAP")?;
                    if self.yes(&ans, b)? {
                        self.black_seat = 1 - self.black_seat;
                    }
                    n
                };
                let b = self.seat_of(Color::Black);
                let (offers, _) =
                    self.opening_answer(players, b, name, Step::Offer, Some(n), "OFFERS")?;
                let offers = self.points(&offers, b, n as usize..=n as usize)?;
                self.check_offers(&offers, b)?;
                let w = self.seat_of(Color::White);
                let (ans, t) = self.opening_answer_with(
                    players,
                    w,
                    name,
                    Step::Choose,
                    None,
                    "CHOOSE",
                    &offers,
                )?;
                let pts = self.points(&ans, w, 2..=2)?;
                if !offers.contains(&pts[0]) {
                    return Err(self.illegal(w, format!("{} was not offered", pts[0])));
                }
                // Move 5 is black's stone, kept by white: its time is white's.
                place_all!([pts[0]], b, t);
                place_all!([pts[1]], w, 0);
            }
            OpeningRule::Swap1 | OpeningRule::Swap5 => {
                let k = if plan.rule == OpeningRule::Swap1 {
                    1
                } else {
                    5
                };
                let stones = self.opening_answer(players, 0, name, Step::Open, None, "MOVES")?;
                let pts = self.points_of(&stones, 0, k..=k)?;
                place_all!(pts, 0, stones.1);
                let (ans, _) = self.opening_answer(players, 1, name, Step::Color, None, "COLOR")?;
                self.black_seat = if self.black(&ans, 1)? { 1 } else { 0 };
            }
            OpeningRule::ContinuousSwap => {
                while self.moves.len() < 5 {
                    let mover = self.seat_of(self.board.side_to_move());
                    let stones =
                        self.opening_answer(players, mover, name, Step::Place, None, "MOVES")?;
                    let pts = self.points_of(&stones, mover, 1..=2)?;
                    place_all!(pts, mover, stones.1);
                    if pts.len() == 2 {
                        let opp = 1 - mover;
                        let (ans, _) =
                            self.opening_answer(players, opp, name, Step::Color, None, "COLOR")?;
                        self.black_seat = if self.black(&ans, opp)? { opp } else { mover };
                    }
                }
            }
        }
        Ok(None)
    }

    /// Sends `text` to `seat` as a timed request (after `INFO time_left`) and returns the
    /// first line that is not `MESSAGE`/`DEBUG` with the time it took; records nothing.
    fn ask(
        &mut self,
        players: &mut [&mut Player; 2],
        seat: usize,
        text: &str,
        label: &str,
    ) -> Result<(String, u64), Forfeit> {
        let cfg = self.cfg;
        let color = self.color_of_seat(seat);
        let limit = cfg.tc.move_limit_ms(self.left_ms[seat], cfg.tolerance_ms);
        let p = &mut *players[seat];
        let start =
            send_timed(p, &cfg.tc, self.left_ms[seat], text, label).map_err(|t| (color, t))?;
        let dur = limit.map_or(NO_LIMIT, |l| Duration::from_millis(l.max(0) as u64));
        let (line, elapsed) = match p.read_reply(start, dur + Duration::from_millis(1)) {
            Reply::Line(l, e) if e <= dur => (l, e),
            Reply::Line(..) | Reply::Timeout => {
                p.kill();
                return Err((
                    color,
                    Termination::Timeout {
                        limit_ms: limit.unwrap_or(0),
                    },
                ));
            }
            Reply::Closed => {
                return Err((
                    color,
                    Termination::Crash {
                        detail: p.exit_text(),
                    },
                ))
            }
        };
        let ms = elapsed.as_millis() as i64;
        if cfg.tc.game_ms > 0 {
            self.left_ms[seat] = self.left_ms[seat] - ms + cfg.tc.inc_ms as i64;
        }
        self.decisions.push(DecisionRecord {
            seat,
            color: color.name(),
            request: label.to_string(),
            answer: line.clone(),
            time_ms: ms.max(0) as u64,
        });
        Ok((line, ms.max(0) as u64))
    }

    /// `<word>` then the stones so far and `extra`, one `x,y` line each, then `DONE`.
    fn body(&self, word: &str, extra: &[Pos]) -> String {
        let mut s = format!("{word}\n");
        for p in self
            .moves
            .iter()
            .map(|m| m.pos)
            .chain(extra.iter().copied())
        {
            s.push_str(&format!("{},{}\n", p.x(), p.y()));
        }
        s.push_str("DONE\n");
        s
    }

    /// Asks `seat` an `OPENING` question and returns the answer after `OPENING <word> `,
    /// with the time taken.
    fn opening_answer(
        &mut self,
        players: &mut [&mut Player; 2],
        seat: usize,
        rule: &str,
        step: Step,
        n: Option<u8>,
        word: &str,
    ) -> Result<(String, u64), Forfeit> {
        self.opening_answer_with(players, seat, rule, step, n, word, &[])
    }

    #[allow(clippy::too_many_arguments)]
    fn opening_answer_with(
        &mut self,
        players: &mut [&mut Player; 2],
        seat: usize,
        rule: &str,
        step: Step,
        n: Option<u8>,
        word: &str,
        extra: &[Pos],
    ) -> Result<(String, u64), Forfeit> {
        let head = match n {
            Some(n) => format!("OPENING {} {} {}", rule, step.name(), n),
            None => format!("OPENING {} {}", rule, step.name()),
        };
        let text = self.body(&head, extra);
        let (line, t) = self.ask(players, seat, &text, &head)?;
        let mut toks = line.split_whitespace();
        let ok = toks
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("OPENING"))
            && toks.next().is_some_and(|w| w.eq_ignore_ascii_case(word));
        if !ok {
            return Err(self.garbage(seat, &line));
        }
        Ok((toks.collect::<Vec<_>>().join(" "), t))
    }

    /// `YES` / `NO` of a `SWAP` answer.
    fn yes(&self, ans: &str, seat: usize) -> Result<bool, Forfeit> {
        match ans.trim().to_ascii_uppercase().as_str() {
            "YES" => Ok(true),
            "NO" => Ok(false),
            _ => Err(self.garbage(seat, &format!("OPENING SWAP {ans}"))),
        }
    }

    /// `BLACK` / `WHITE` of a `COLOR` answer: whether black was taken.
    fn black(&self, ans: &str, seat: usize) -> Result<bool, Forfeit> {
        match ans.trim().to_ascii_uppercase().as_str() {
            "BLACK" => Ok(true),
            "WHITE" => Ok(false),
            _ => Err(self.garbage(seat, &format!("OPENING COLOR {ans}"))),
        }
    }

    fn garbage(&self, seat: usize, line: &str) -> Forfeit {
        (
            self.color_of_seat(seat),
            Termination::Garbage {
                line: line.to_string(),
            },
        )
    }

    fn illegal(&self, seat: usize, detail: String) -> Forfeit {
        (
            self.color_of_seat(seat),
            Termination::IllegalMove { detail },
        )
    }

    /// [`Game::points`] of an answer with its time.
    fn points_of(
        &self,
        ans: &(String, u64),
        seat: usize,
        count: std::ops::RangeInclusive<usize>,
    ) -> Result<Vec<Pos>, Forfeit> {
        self.points(&ans.0, seat, count)
    }

    /// The `x,y` points of an answer (separated by spaces): a number of them in `count`, on
    /// empty board points, all distinct.
    fn points(
        &self,
        text: &str,
        seat: usize,
        count: std::ops::RangeInclusive<usize>,
    ) -> Result<Vec<Pos>, Forfeit> {
        let mut out: Vec<Pos> = Vec::new();
        for tok in text.split_whitespace() {
            let Some((x, y)) = parse_move_line(tok) else {
                return Err(self.garbage(seat, text));
            };
            let p = self.check_point(x, y).map_err(|d| self.illegal(seat, d))?;
            if out.contains(&p) {
                return Err(self.illegal(seat, format!("{p} given twice")));
            }
            out.push(p);
        }
        if !count.contains(&out.len()) {
            return Err(self.illegal(
                seat,
                format!(
                    "{} stones given, {}..={} expected",
                    out.len(),
                    count.start(),
                    count.end()
                ),
            ));
        }
        Ok(out)
    }

    /// Fifth-move offers must be legal black moves that are not fives, no two symmetric.
    fn check_offers(&self, offers: &[Pos], seat: usize) -> Result<(), Forfeit> {
        let syms = pattern_symmetries(&stones_of(&self.board));
        for (i, &p) in offers.iter().enumerate() {
            if let Some(k) = self.board.forbidden(p) {
                return Err(self.illegal(seat, format!("offer {p} is forbidden ({})", k.name())));
            }
            if self.board.is_five(Color::Black, p) {
                return Err(self.illegal(seat, format!("offer {p} makes a five")));
            }
            if let Some(q) = offers[..i].iter().find(|&&q| symmetric_points(&syms, q, p)) {
                return Err(self.illegal(seat, format!("offers {q} and {p} are symmetric")));
            }
        }
        Ok(())
    }

    /// Puts the next stone (the colour to move) on `p`, recorded with `time_ms` as `seat`'s
    /// decision; a five or a renju foul ends the game.
    fn place(&mut self, p: Pos, seat: usize, time_ms: u64) -> Result<Option<End>, Forfeit> {
        let color = self.board.side_to_move();
        if !self.board.is_empty(p) {
            return Err(self.illegal(seat, format!("{p} is occupied")));
        }
        let foul = if self.cfg.rule.has_forbidden(color) {
            self.board.forbidden(p)
        } else {
            None
        };
        let result = self.board.result_of_move(p);
        self.board.make(p);
        self.moves.push(MoveRecord {
            pos: p,
            color,
            time_ms,
            opening: true,
        });
        Ok(match result {
            Some(GameResult::Win(w)) if w == color => Some((Some(w), Termination::Five)),
            Some(GameResult::Win(w)) => Some((
                Some(w),
                Termination::Foul {
                    forbidden: foul
                        .map(ForbiddenKind::name)
                        .unwrap_or("forbidden point")
                        .to_string(),
                },
            )),
            Some(GameResult::Draw) => Some((None, Termination::BoardFull)),
            None => None,
        })
    }

    /// A normal move request (`BOARD`) to `seat` inside the dialogue (RIF's move 4).
    fn move_request(
        &mut self,
        players: &mut [&mut Player; 2],
        seat: usize,
    ) -> Result<(Pos, u64), Forfeit> {
        let cfg = self.cfg;
        let color = self.color_of_seat(seat);
        let req = board_request(self.moves.iter().map(|m| (m.pos, m.color == color)));
        let limit = cfg.tc.move_limit_ms(self.left_ms[seat], cfg.tolerance_ms);
        let p = &mut *players[seat];
        let start =
            send_timed(p, &cfg.tc, self.left_ms[seat], &req, "request").map_err(|t| (color, t))?;
        let (x, y, ms) = await_move(p, start, limit).map_err(|t| (color, t))?;
        cfg.tc.charge(&mut self.left_ms[seat], ms);
        let pos = self
            .check_point(x, y)
            .map_err(|detail| (color, Termination::IllegalMove { detail }))?;
        Ok((pos, ms.max(0) as u64))
    }
}
