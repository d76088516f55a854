//! The session's opening-rule commands (docs/openings.md §4 and §5): Yixin-Board's
//! `yxswap2step1..3` and `yxsoosorvstep1..6`, and this engine's `OPENING <rule> <step> [n]`.
//!
//! Each request becomes an [`opening::Request`] decided by [`opening::decide`] on the search
//! thread (so `YXSTOP` ends it early, with the best decision found by then), timed like a
//! move. The answer is one `MESSAGE OPENING ...` line with the score and line the decision
//! rests on, then:
//! - Yixin-Board's steps: only the `MESSAGE SWAP2 ...` / `MESSAGE SOOSORV ...` lines that
//!   Yixin-Board reads, coordinates as two numbers separated by a space in the order of a
//!   move line `x,y` (Yixin-Board's source names them `y x`);
//! - `OPENING`: one line `OPENING MOVES|SWAP|MOVE4|OFFERS|CHOOSE|COLOR ...`.
//!
//! Errors (a position that does not fit the step) are answered `ERROR <reason>`. None of
//! these commands changes the game: the manager sends the position again afterwards.

use super::{Brain, JobKind, JobOutput, Session};
use crate::board::Board;
use crate::core::{Color, Pos};
use crate::opening::swap2::Swap2Answer;
use crate::opening::{self, Action, Decision, OpeningError, OpeningRule, Probe, Request, Step};
use crate::protocol::parse::Body;
use crate::protocol::quick::quick_move;
use crate::search::{Limits, SearchResult};
use crate::time::Budget;
use std::io::Write;
use std::time::Instant;

/// Which command asked, and so how the decision is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    /// `yxswap2stepK`.
    Swap2Step(u8),
    /// `yxsoosorvstepK`.
    Soosorv(u8),
    /// `OPENING`.
    Opening,
}

/// What the manager sent: the style, the rule and step (`None`: not understood), N, and
/// the stones as written.
pub(super) struct Asked {
    pub style: Style,
    pub rule: Option<OpeningRule>,
    pub step: Option<Step>,
    pub n: Option<i64>,
    pub body: Option<Body>,
}

impl Asked {
    /// `yxswap2stepK`.
    pub fn swap2(k: u8) -> Asked {
        let step = match k {
            1 => Step::Open,
            2 => Step::Swap1,
            _ => Step::Swap2,
        };
        Asked {
            style: Style::Swap2Step(k),
            rule: Some(OpeningRule::Swap2),
            step: Some(step),
            n: None,
            body: None,
        }
    }

    /// `yxsoosorvstepK [n]` with its body (none for step 1).
    pub fn soosorv(k: u8, n: Option<i64>, body: Option<Body>) -> Asked {
        let step = match k {
            1 => Step::Open,
            2 => Step::Swap1,
            3 => Step::Move4,
            4 => Step::Swap2,
            5 => Step::Offer,
            _ => Step::Choose,
        };
        Asked {
            style: Style::Soosorv(k),
            rule: Some(OpeningRule::Soosorv8),
            step: Some(step),
            n,
            body,
        }
    }

    /// `OPENING <rule> <step> [n]` with its body.
    pub fn opening(
        rule: Option<OpeningRule>,
        step: Option<Step>,
        n: Option<i64>,
        body: Body,
    ) -> Asked {
        Asked {
            style: Style::Opening,
            rule,
            step,
            n,
            body: Some(body),
        }
    }
}

impl<B: Brain, W: Write> Session<B, W> {
    /// Answers an opening-rule command (see the module docs).
    pub(super) fn opening_command(&mut self, asked: Asked, at: Instant) {
        if let Some(b) = &asked.body {
            self.report_bad_lines(b);
        }
        let req = match self.opening_request(&asked) {
            Ok(r) => r,
            Err(e) => return self.error(&e),
        };
        let (stones, points) = (req.stones.len(), req.width * req.height);
        self.apply_engine_settings();
        let board = Board::new(req.width, req.height, req.game_rule).expect("size already checked");
        let settings_limits = self.limits(Budget::UNLIMITED, &board);
        let style = asked.style;
        match (self.budget_now(at, stones, points), self.brain.is_some()) {
            (Some(budget), true) => {
                let watch = if budget == Budget::UNLIMITED {
                    opening::eval::UNLIMITED_DECISION
                } else {
                    budget
                };
                self.spawn(
                    JobKind::Opening(style, Box::new(req.clone())),
                    at,
                    stones,
                    points,
                    watch,
                    move |brain, stop, _| {
                        let mut search = |b: &Board, p: &Probe| {
                            let limits = Limits {
                                budget: p.budget,
                                multipv: p.multipv.max(1),
                                excluded: p.excluded.clone(),
                                ..settings_limits.clone()
                            };
                            brain.think(b, &limits, stop, &mut |_| {})
                        };
                        JobOutput::Opening(opening::decide(&req, &mut search, budget))
                    },
                );
            }
            _ => {
                let d = quick_decision(&req);
                self.finish_opening(style, d);
            }
        }
    }

    /// The decision request of a command, or the `ERROR` text.
    fn opening_request(&self, asked: &Asked) -> Result<Request, String> {
        let g = self.game.as_ref().expect("game");
        let (w, h, game_rule) = (g.board.width(), g.board.height(), g.board.rule());
        let rule = asked.rule.ok_or_else(|| {
            "OPENING takes a rule (swap2 rif soosorv8 swap1 swap5 cswap), a step and an optional N"
                .to_string()
        })?;
        let step = asked.step.ok_or_else(|| {
            "OPENING takes a step (open swap1 move4 swap2 offer choose color place)".to_string()
        })?;
        let n = match asked.n {
            None => None,
            Some(v) if (1..=opening::MAX_OFFERS as i64).contains(&v) => Some(v as u8),
            Some(v) => {
                return Err(format!(
                    "the number of fifth-move offers must be 1..=8, not {}",
                    v
                ))
            }
        };
        if matches!(asked.style, Style::Soosorv(4 | 5)) && n.is_none() {
            return Err("yxsoosorvstep4 and 5 need the number of fifth-move offers".into());
        }
        let stones = match (&asked.style, &asked.body) {
            (Style::Swap2Step(1), _) => Vec::new(),
            (Style::Swap2Step(k), _) => {
                // The position came with YXBOARD: black and white stones, taken in turn.
                let b = &g.board;
                let of = |c: Color| -> Vec<Pos> {
                    b.moves()
                        .iter()
                        .zip(b.move_colors())
                        .filter(|(_, &mc)| mc == c)
                        .map(|(&p, _)| p)
                        .collect()
                };
                let (black, white) = (of(Color::Black), of(Color::White));
                let want = if *k == 2 { 3 } else { 5 };
                if black.len() + white.len() != want || black.len() != white.len() + 1 {
                    return Err(format!(
                        "yxswap2step{} needs {} stones on the board ({} black, {} white given)",
                        k,
                        want,
                        black.len(),
                        white.len()
                    ));
                }
                let mut v = Vec::new();
                for (i, &p) in black.iter().enumerate() {
                    v.push(p);
                    if let Some(&q) = white.get(i) {
                        v.push(q);
                    }
                }
                v
            }
            (_, Some(body)) => {
                let mut v = Vec::new();
                for l in &body.lines {
                    if l.at.x < 0 || l.at.y < 0 || l.at.x as usize >= w || l.at.y as usize >= h {
                        return Err(format!(
                            "{},{} is off the {}x{} board",
                            l.at.x, l.at.y, w, h
                        ));
                    }
                    v.push(Pos::new(l.at.x as usize, l.at.y as usize));
                }
                v
            }
            (_, None) => Vec::new(),
        };
        Ok(Request {
            rule,
            step,
            game_rule,
            width: w,
            height: h,
            stones,
            n,
        })
    }

    /// Prints the answer to an opening command.
    pub(super) fn finish_opening(&mut self, style: Style, d: Result<Decision, OpeningError>) {
        match d {
            Ok(d) => {
                self.message(&eval_text(&d));
                match answer_lines(style, &d) {
                    Ok(lines) => {
                        for l in lines {
                            self.out.line(&l);
                        }
                    }
                    Err(e) => self.error(&e),
                }
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Answers an opening job without searching (the search thread failed or could not
    /// start): the decision made from quick moves.
    pub(super) fn answer_opening_quickly(&mut self, style: Style, req: &Request) {
        let d = quick_decision(req);
        self.finish_opening(style, d);
    }
}

/// A decision made from quick moves only (no time to search).
fn quick_decision(req: &Request) -> Result<Decision, OpeningError> {
    let mut quick = |b: &Board, _: &Probe| SearchResult {
        best: quick_move(b),
        pv: vec![quick_move(b)],
        // Not a forced reply: nothing to follow.
        depth: 2,
        ..Default::default()
    };
    opening::decide(req, &mut quick, Budget::fixed(1))
}

fn xy(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

fn yx(p: Pos) -> String {
    format!("{} {}", p.x(), p.y())
}

/// `OPENING <rule> <step> score <s> line <x,y ...> nodes <n> time_ms <t>` (the `MESSAGE`
/// text before every opening answer; the score is from black's view).
pub(super) fn eval_text(d: &Decision) -> String {
    format!(
        "OPENING {} {} score {} line {} nodes {} time_ms {}",
        d.rule.name(),
        d.step.name(),
        d.eval.black,
        d.eval
            .pv
            .iter()
            .map(|&p| xy(p))
            .collect::<Vec<_>>()
            .join(" "),
        d.nodes,
        d.time_ms
    )
}

/// The answer lines of a decision in the command's style.
pub(super) fn answer_lines(style: Style, d: &Decision) -> Result<Vec<String>, String> {
    let yn = |b: bool| if b { "Y" } else { "N" };
    let bad = || format!("no answer of this kind for {:?}", style);
    Ok(match (style, &d.action) {
        (Style::Swap2Step(1), Action::Swap2(Swap2Answer::Three(ps))) => ps
            .iter()
            .enumerate()
            .map(|(i, &p)| format!("MESSAGE SWAP2 MOVE{} {}", i + 1, yx(p)))
            .collect(),
        (Style::Swap2Step(k), Action::Swap2(Swap2Answer::Swap)) => {
            vec![format!("MESSAGE SWAP2 SWAP{} YES", k - 1)]
        }
        (Style::Swap2Step(k), Action::Swap2(Swap2Answer::One(_))) => {
            vec![format!("MESSAGE SWAP2 SWAP{} NO", k - 1)]
        }
        (Style::Swap2Step(2), Action::Swap2(Swap2Answer::Two(a, b))) => vec![
            format!("MESSAGE SWAP2 MOVE4 {}", yx(*a)),
            format!("MESSAGE SWAP2 MOVE5 {}", yx(*b)),
        ],
        (Style::Soosorv(1), Action::Stones(ps)) => ps
            .iter()
            .enumerate()
            .map(|(i, &p)| format!("MESSAGE SOOSORV MOVE{} {}", i + 1, yx(p)))
            .collect(),
        (Style::Soosorv(2), Action::Swap(s)) => vec![format!("MESSAGE SOOSORV SWAP1 {}", yn(*s))],
        (Style::Soosorv(3), Action::Move4 { at, n }) => {
            vec![format!("MESSAGE SOOSORV MOVE4 {} {}", yx(*at), n)]
        }
        (Style::Soosorv(4), Action::Swap(s)) => vec![format!("MESSAGE SOOSORV SWAP2 {}", yn(*s))],
        (Style::Soosorv(5), Action::Offers(ps)) => {
            let mut v = vec!["MESSAGE SOOSORV MOVE5 REFRESH".to_string()];
            v.extend(
                ps.iter()
                    .map(|&p| format!("MESSAGE SOOSORV MOVE5 {}", yx(p))),
            );
            v.push("MESSAGE SOOSORV MOVE5 DONE".to_string());
            v
        }
        (Style::Soosorv(6), Action::Choose { fifth, .. }) => {
            vec![format!("MESSAGE SOOSORV MOVE5 C {}", yx(*fifth))]
        }
        (Style::Opening, a) => vec![opening_line(a)],
        _ => return Err(bad()),
    })
}

/// The `OPENING ...` answer line of an action (docs/openings.md §5).
pub fn opening_line(a: &Action) -> String {
    let list = |v: &[Pos]| v.iter().map(|&p| xy(p)).collect::<Vec<_>>().join(" ");
    match a {
        Action::Stones(ps) => format!("OPENING MOVES {}", list(ps)),
        Action::Swap(s) => format!("OPENING SWAP {}", if *s { "YES" } else { "NO" }),
        Action::Move4 { at, n } => format!("OPENING MOVE4 {} {}", xy(*at), n),
        Action::Offers(ps) => format!("OPENING OFFERS {}", list(ps)),
        Action::Choose { fifth, sixth } => {
            if sixth.is_none() {
                format!("OPENING CHOOSE {}", xy(*fifth))
            } else {
                format!("OPENING CHOOSE {} {}", xy(*fifth), xy(*sixth))
            }
        }
        Action::Color(c) => format!(
            "OPENING COLOR {}",
            if *c == Color::Black { "BLACK" } else { "WHITE" }
        ),
        Action::Swap2(Swap2Answer::Swap) => "OPENING SWAP YES".to_string(),
        Action::Swap2(other) => format!("OPENING MOVES {}", list(&other.stones())),
    }
}
