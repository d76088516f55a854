//! The decisions of every opening rule, made by search (docs/openings.md §2).
//!
//! Every decision reads positions through one [`Evaluator`]: a score from black's point of
//! view and the line behind it ([`Eval`]). How each decision uses it:
//! - **colour choices** (swap after move 3, Soosorv-8's swaps, Swap1, five-stone swap,
//!   continuous swap after a double placement): take the colour the search prefers; on a
//!   score of exactly 0 keep the colour held;
//! - **opening stones** (the 26 openings, Swap1's stone, the five stones): the candidate
//!   whose score is closest to 0, since the opponent then picks the better colour;
//! - **fifth-move offers** (black): the N best moves for black no two of which are symmetric
//!   to each other, none forbidden for black and none a five at once; the offers are white's
//!   to choose from, so the best N for black leave white the least;
//! - **the choice among offers** (white): the offer whose position is worst for black, then
//!   white's best move 6 in it;
//! - **Soosorv-8's move 4 and N** (white): for the best few white moves, the value of the
//!   N-th best offer black could make; the pair closest to 0 wins, because black may swap
//!   after it;
//! - **continuous swap's placement**: one stone (the best move) unless two stones after which
//!   the opponent's colour choice leaves us more.
//!
//! Time: the budget given covers the whole decision and is spread evenly over its searches.

use super::eval::{Candidate, Eval, Evaluator, Probe, Search};
use super::renju26::{self, RenjuOpening};
use super::suite::random_opening;
use super::swap2::{self, Swap2Answer};
use super::symmetry::{pattern_symmetries, symmetric_points, PatternSymmetry};
use super::{OpeningRule, Step, MAX_OFFERS};
use crate::board::{Board, GameResult};
use crate::core::SplitMix64;
use crate::core::{Color, Pos, Rule};
use crate::eval::WIN;
use crate::search::SearchResult;
use crate::time::Budget;
use thiserror::Error;

mod steps;
use steps::*;

/// Errors of a decision request (the position does not fit the rule's step).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OpeningError {
    /// The step is not a decision point of the rule.
    #[error("{rule} has no step {step} (its steps: {steps})")]
    NoSuchStep {
        /// The rule.
        rule: OpeningRule,
        /// The step asked for.
        step: Step,
        /// The rule's steps, space separated.
        steps: String,
    },
    /// The number of stones does not fit the step.
    #[error("{rule} {step} needs {expected} stones, got {got}")]
    StoneCount {
        /// The rule.
        rule: OpeningRule,
        /// The step.
        step: Step,
        /// What the step takes, e.g. `3` or `4 plus the offers`.
        expected: String,
        /// Stones given.
        got: usize,
    },
    /// N (the number of fifth-move offers) is missing or outside 1..=8.
    #[error("{0}: the number of fifth-move offers must be 1..=8")]
    BadCount(Step),
    /// Stones repeat or lie off the board, or the given stones already hold a five.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// Too few empty points for the answer.
    #[error("the board has too few empty points")]
    BoardFull,
}

/// A decision to make: the rule, the step and the stones so far in move order (black
/// first, alternating colours), on a board of the given size and game rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The opening rule.
    pub rule: OpeningRule,
    /// The decision point.
    pub step: Step,
    /// The game rule (renju forbids black's double threes, double fours and overlines).
    pub game_rule: Rule,
    /// Board width in points.
    pub width: usize,
    /// Board height in points.
    pub height: usize,
    /// The stones in move order, black first, alternating; for [`Step::Choose`] the first
    /// four are the moves and the rest are black's fifth-move offers.
    pub stones: Vec<Pos>,
    /// The number of fifth-move offers (Soosorv-8's [`Step::Swap2`] and [`Step::Offer`],
    /// RIF's [`Step::Offer`]; for RIF it defaults to 2).
    pub n: Option<u8>,
}

/// What the decision is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Stones to place in move order (black first when the board is empty): an opening, a
    /// Swap1 stone, five stones, or continuous swap's one or two stones.
    Stones(Vec<Pos>),
    /// Exchange colours (`true`) or keep them.
    Swap(bool),
    /// Soosorv-8: white's move 4 and the number of fifth-move offers.
    Move4 {
        /// Move 4.
        at: Pos,
        /// N, 1..=8.
        n: u8,
    },
    /// Black's fifth-move offers.
    Offers(Vec<Pos>),
    /// The offer kept as move 5 and white's move 6 ([`Pos::NONE`] when the game is over
    /// after move 5: a forbidden offer loses for black).
    Choose {
        /// Move 5.
        fifth: Pos,
        /// Move 6.
        sixth: Pos,
    },
    /// The colour taken.
    Color(Color),
    /// A Swap2 answer (docs/openings.md §2.1).
    Swap2(Swap2Answer),
}

/// An option the decision weighed, with its score from black's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Considered {
    /// What it is, e.g. `D4`, `h9 N=3`, `offer j10`.
    pub label: String,
    /// The stones of the option.
    pub stones: Vec<Pos>,
    /// Score from black's view.
    pub black: i32,
}

/// A decision with the evaluation it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The rule.
    pub rule: OpeningRule,
    /// The step.
    pub step: Step,
    /// The decision.
    pub action: Action,
    /// The evaluation behind it: the position the decision leaves (for colour choices the
    /// position as given).
    pub eval: Eval,
    /// The options weighed.
    pub considered: Vec<Considered>,
    /// The renju opening on the board after the decision, if the first three stones form one.
    pub opening: Option<&'static RenjuOpening>,
    /// Nodes of all searches.
    pub nodes: u64,
    /// Searches run.
    pub searches: usize,
    /// Milliseconds spent.
    pub time_ms: u64,
}

impl Decision {
    /// The decision as one JSON object: `rule`, `step`, `action` (an object with `kind` and
    /// its fields, points in notation), `score` (black's view), `to_move`, `line`, `depth`,
    /// `opening`, `considered`, `nodes`, `searches`, `time_ms`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let n = |p: &Pos| p.to_notation();
        let list = |v: &[Pos]| v.iter().map(n).collect::<Vec<_>>();
        let action = match &self.action {
            Action::Stones(s) => json!({"kind": "stones", "stones": list(s)}),
            Action::Swap(s) => json!({"kind": "swap", "swap": s}),
            Action::Move4 { at, n: k } => json!({"kind": "move4", "move": n(at), "n": k}),
            Action::Offers(s) => json!({"kind": "offers", "offers": list(s)}),
            Action::Choose { fifth, sixth } => {
                json!({"kind": "choose", "fifth": n(fifth), "sixth": (!sixth.is_none()).then(|| n(sixth))})
            }
            Action::Color(c) => json!({"kind": "color", "color": c.name()}),
            Action::Swap2(a) => match a {
                Swap2Answer::Swap => json!({"kind": "swap2", "answer": "swap"}),
                other => {
                    json!({"kind": "swap2", "answer": "stones", "stones": list(&other.stones())})
                }
            },
        };
        json!({
            "rule": self.rule.name(),
            "step": self.step.name().to_ascii_lowercase(),
            "action": action,
            "score": self.eval.black,
            "to_move": self.eval.to_move.map(|c| c.name()),
            "line": list(&self.eval.pv),
            "depth": self.eval.depth,
            "opening": self.opening.map(|o| format!("{} {}", o.code, o.name)),
            "considered": self.considered.iter().map(|c| json!({
                "label": c.label, "stones": list(&c.stones), "score": c.black
            })).collect::<Vec<_>>(),
            "nodes": self.nodes,
            "searches": self.searches,
            "time_ms": self.time_ms,
        })
    }

    /// The action in words, e.g. `swap: yes`, `offers: j10 g6`, `move4: i7 N=3`.
    pub fn action_text(&self) -> String {
        let list = |v: &[Pos]| {
            v.iter()
                .map(|p| p.to_notation())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match &self.action {
            Action::Stones(s) => format!("stones: {}", list(s)),
            Action::Swap(s) => format!("swap: {}", if *s { "yes" } else { "no" }),
            Action::Move4 { at, n } => format!("move4: {} N={}", at, n),
            Action::Offers(s) => format!("offers: {}", list(s)),
            Action::Choose { fifth, sixth } => format!("choose: {} then {}", fifth, sixth),
            Action::Color(c) => format!("color: {}", c.name()),
            Action::Swap2(Swap2Answer::Swap) => "swap2: swap".to_string(),
            Action::Swap2(a) => format!("swap2: {}", list(&a.stones())),
        }
    }

    /// The decision as text lines: the action, the score and line, the options weighed, the
    /// effort.
    pub fn to_text(&self) -> String {
        let mut out = vec![self.action_text()];
        if let Some(o) = self.opening {
            out.push(format!("opening {} {} ({})", o.code, o.name, o.chinese));
        }
        out.push(format!(
            "score {} (black's view){}",
            self.eval.black,
            self.eval
                .to_move
                .map(|c| format!(", {} to move", c.name()))
                .unwrap_or_default()
        ));
        out.push(format!(
            "line {}",
            self.eval
                .pv
                .iter()
                .map(|p| p.to_notation())
                .collect::<Vec<_>>()
                .join(" ")
        ));
        for c in &self.considered {
            out.push(format!("considered {} score {}", c.label, c.black));
        }
        out.push(format!(
            "nodes {} searches {} time_ms {}",
            self.nodes, self.searches, self.time_ms
        ));
        out.join("\n")
    }
}

/// How many white moves Soosorv-8's move-4 decision weighs.
pub const MOVE4_CANDIDATES: usize = 3;

/// How many positions the five-stone swap's opener tries.
pub const SWAP5_CANDIDATES: usize = 8;

/// How many points Swap1's opener tries.
pub const SWAP1_CANDIDATES: usize = 10;

/// Makes the decision `req` asks for, searching through `search` within `budget` (measured
/// from now; an unlimited budget means [`super::eval::UNLIMITED_DECISION`]).
///
/// Errors: [`OpeningError`] when the stones do not fit the rule's step (count, N, repeated or
/// off-board points, a five already on the board) or the board is too full to answer.
pub fn decide(
    req: &Request,
    search: &mut dyn Search,
    budget: Budget,
) -> Result<Decision, OpeningError> {
    check_request(req)?;
    let (moves, offers) = if req.step == Step::Choose {
        req.stones.split_at(4)
    } else {
        (&req.stones[..], &[][..])
    };
    let board = board_of(req, moves)?;
    decide_on(
        req.rule,
        req.step,
        &board,
        offers,
        offer_count(req),
        search,
        budget,
    )
}

/// The decision of `rule`'s `step` on any position: `board` as set up (its stones, colours
/// and side to move), `offers` the fifth-move offers for [`Step::Choose`], `n` the number
/// of offers for [`Step::Swap2`] and [`Step::Offer`]. Unlike [`decide`] the stone count is
/// not checked, so the decisions can be tried on positions with more stones than the rule
/// allows (tests with known verdicts do). Who decides:
/// - [`Step::Swap1`]: the player holding the side to move, who may exchange colours;
/// - [`Step::Swap2`] (Soosorv-8): black, to move, knowing N;
/// - [`Step::Color`]: a player without a colour yet;
/// - [`Step::Offer`]: black, to move; [`Step::Choose`]: white, black's offers given;
/// - [`Step::Move4`], [`Step::Place`], [`Step::Open`]: the side to move.
///
/// Errors: [`OpeningError::NoSuchStep`], [`OpeningError::BadCount`] (N outside 1..=8 where
/// it is needed), [`OpeningError::BoardFull`].
pub fn decide_on(
    rule: OpeningRule,
    step: Step,
    board: &Board,
    offers: &[Pos],
    n: u8,
    search: &mut dyn Search,
    budget: Budget,
) -> Result<Decision, OpeningError> {
    if !rule.steps().contains(&step) {
        return Err(no_such_step(rule, step));
    }
    if matches!(step, Step::Swap2 | Step::Offer)
        && rule != OpeningRule::Swap2
        && !(1..=MAX_OFFERS).contains(&n)
    {
        return Err(OpeningError::BadCount(step));
    }
    let mut ev = Evaluator::new(search, budget);
    let (action, eval, considered) = match (rule, step) {
        (OpeningRule::Swap2, _) => swap2_step(board, &mut ev)?,
        (_, Step::Open) => match rule {
            OpeningRule::Rif | OpeningRule::Soosorv8 => open_renju(board, &mut ev)?,
            OpeningRule::Swap1 => open_swap1(board, &mut ev)?,
            _ => open_swap5(board, &mut ev)?,
        },
        (_, Step::Swap1) => colour_choice(board, &mut ev, board.side_to_move(), true),
        (_, Step::Color) => {
            let held = board.side_to_move().opponent();
            colour_choice(board, &mut ev, held, false)
        }
        (_, Step::Move4) => move4(board, &mut ev)?,
        (_, Step::Swap2) => soosorv_swap2(board, n, &mut ev)?,
        (_, Step::Offer) => offer(board, n, &mut ev)?,
        (_, Step::Choose) => choose(board, offers, &mut ev)?,
        (_, Step::Place) => place(board, &mut ev)?,
    };
    let mut after = board.moves().to_vec();
    match &action {
        Action::Stones(s) => after.extend(s),
        Action::Move4 { at, .. } => after.push(*at),
        _ => {}
    }
    Ok(Decision {
        rule,
        step,
        opening: renju26::recognise(&after, board.width(), board.height()).map(|r| r.opening),
        action,
        eval,
        considered,
        nodes: ev.nodes,
        searches: ev.searches,
        time_ms: ev.elapsed_ms(),
    })
}

fn no_such_step(rule: OpeningRule, step: Step) -> OpeningError {
    OpeningError::NoSuchStep {
        rule,
        step,
        steps: rule
            .steps()
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

type Outcome = (Action, Eval, Vec<Considered>);

/// The stone counts a step accepts, as text, and whether `n` stones fit.
fn stones_fit(rule: OpeningRule, step: Step, n: usize) -> (String, bool) {
    let exact = |k: usize| (k.to_string(), n == k);
    match (rule, step) {
        (_, Step::Open) => exact(0),
        (OpeningRule::Swap2, Step::Swap1) => exact(3),
        (OpeningRule::Swap2, Step::Swap2) => exact(5),
        (_, Step::Swap1) | (_, Step::Move4) => exact(3),
        (_, Step::Swap2) | (_, Step::Offer) => exact(4),
        (_, Step::Choose) => ("4 plus at least one offer".into(), n >= 5),
        (OpeningRule::Swap1, Step::Color) => exact(1),
        (OpeningRule::Swap5, Step::Color) => exact(5),
        (_, Step::Color) => ("2 to 6".into(), (2..=6).contains(&n)),
        (_, Step::Place) => ("0 to 4".into(), n <= 4),
    }
}

fn check_request(req: &Request) -> Result<(), OpeningError> {
    if !req.rule.steps().contains(&req.step) {
        return Err(no_such_step(req.rule, req.step));
    }
    let (expected, ok) = stones_fit(req.rule, req.step, req.stones.len());
    if !ok {
        return Err(OpeningError::StoneCount {
            rule: req.rule,
            step: req.step,
            expected,
            got: req.stones.len(),
        });
    }
    if matches!(req.step, Step::Swap2 | Step::Offer) && req.rule != OpeningRule::Swap2 {
        let n = offer_count(req);
        if !(1..=MAX_OFFERS).contains(&n) {
            return Err(OpeningError::BadCount(req.step));
        }
    }
    let moves = if req.step == Step::Choose {
        &req.stones[..4]
    } else {
        &req.stones[..]
    };
    board_of(req, moves)?;
    if req.step == Step::Choose {
        let offers = &req.stones[4..];
        for (i, p) in offers.iter().enumerate() {
            if moves.contains(p) || offers[..i].contains(p) {
                return Err(OpeningError::BadPosition(format!(
                    "offer {} repeats a stone",
                    p
                )));
            }
        }
    }
    Ok(())
}

/// N for the request: given, else 2 for RIF.
fn offer_count(req: &Request) -> u8 {
    req.n
        .unwrap_or(if req.rule == OpeningRule::Rif { 2 } else { 0 })
}

/// The board of `stones` played alternately from black.
fn board_of(req: &Request, stones: &[Pos]) -> Result<Board, OpeningError> {
    let mut b = Board::new(req.width, req.height, req.game_rule)
        .map_err(|e| OpeningError::BadPosition(e.to_string()))?;
    for &p in stones {
        b.check_move(p)
            .map_err(|e| OpeningError::BadPosition(e.to_string()))?;
        if let Some(GameResult::Win(c)) = b.result_of_move(p) {
            return Err(OpeningError::BadPosition(format!(
                "the game is over after {} ({} wins)",
                p,
                c.name()
            )));
        }
        b.make(p);
    }
    Ok(b)
}

/// `board` with `stones` added in turn (the side to move first).
fn with_stones(board: &Board, stones: &[Pos]) -> Result<Board, OpeningError> {
    let mut b = board.clone();
    for &p in stones {
        b.check_move(p)
            .map_err(|e| OpeningError::BadPosition(e.to_string()))?;
        b.make(p);
    }
    Ok(b)
}

/// `p` if it is an empty point of `board`, else the quick move; `None` on a full board.
fn legal(board: &Board, p: Pos) -> Option<Pos> {
    swap2::legal_or_quick(board, p)
}

/// Whether black may offer `p` as move 5: empty, not forbidden, not a five at once.
fn offer_ok(board: &Board, p: Pos) -> bool {
    board.contains(p)
        && board.is_empty(p)
        && board.forbidden(p).is_none()
        && !board.is_five(Color::Black, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::quick_move;

    fn req(rule: OpeningRule, step: Step, moves: &str, n: Option<u8>) -> Request {
        Request {
            rule,
            step,
            game_rule: Rule::Renju,
            width: 15,
            height: 15,
            stones: crate::core::parse_point_list(moves, 15, 15).unwrap(),
            n,
        }
    }

    /// A search that scores every position by a fixed function of the board (black's view)
    /// and lists root moves by the quick move order.
    fn scripted(score: impl Fn(&Board) -> i32) -> impl FnMut(&Board, &Probe) -> SearchResult {
        move |b: &Board, p: &Probe| {
            let stm = b.side_to_move();
            let s = score(b);
            let from_stm = if stm == Color::Black { s } else { -s };
            let best = quick_move(b);
            let mut lines = Vec::new();
            if p.multipv > 1 {
                let mut pts: Vec<Pos> = b
                    .empty_points()
                    .filter(|q| !p.excluded.contains(q))
                    .collect();
                pts.sort_by_key(|q| {
                    let (dx, dy) = (q.x() as i32 - 7, q.y() as i32 - 7);
                    (dx * dx + dy * dy, *q)
                });
                for (i, q) in pts.into_iter().take(p.multipv).enumerate() {
                    let mut c = b.clone();
                    c.make(q);
                    let after = score(&c) - i as i32;
                    lines.push(crate::search::PvLine {
                        score: if stm == Color::Black { after } else { -after },
                        pv: vec![q],
                    });
                }
            }
            SearchResult {
                best,
                score: from_stm,
                pv: vec![best],
                nodes: 1,
                depth: 4,
                lines,
                ..Default::default()
            }
        }
    }

    #[test]
    fn bad_requests() {
        let mut s = scripted(|_| 0);
        let b = Budget::fixed(50);
        let e = decide(
            &req(OpeningRule::Rif, Step::Move4, "h8,h9,h10", None),
            &mut s,
            b,
        );
        assert!(matches!(e, Err(OpeningError::NoSuchStep { .. })), "{:?}", e);
        let e = decide(
            &req(OpeningRule::Rif, Step::Swap1, "h8,h9", None),
            &mut s,
            b,
        );
        assert!(matches!(e, Err(OpeningError::StoneCount { .. })), "{:?}", e);
        let e = decide(
            &req(OpeningRule::Soosorv8, Step::Offer, "h8,h9,h10,i9", None),
            &mut s,
            b,
        );
        assert_eq!(e, Err(OpeningError::BadCount(Step::Offer)));
        let e = decide(
            &req(OpeningRule::Soosorv8, Step::Offer, "h8,h9,h10,i9", Some(9)),
            &mut s,
            b,
        );
        assert_eq!(e, Err(OpeningError::BadCount(Step::Offer)));
        let e = decide(
            &req(OpeningRule::Rif, Step::Choose, "h8,h9,h10,i9,j10,j10", None),
            &mut s,
            b,
        );
        assert!(matches!(e, Err(OpeningError::BadPosition(_))), "{:?}", e);
    }

    #[test]
    fn colour_choices_follow_the_score() {
        let b = Budget::fixed(50);
        for (score, swap) in [(100, true), (-100, false), (0, false)] {
            let mut s = scripted(move |_| score);
            let d = decide(
                &req(OpeningRule::Rif, Step::Swap1, "h8,h9,h10", None),
                &mut s,
                b,
            )
            .unwrap();
            assert_eq!(d.action, Action::Swap(swap), "score {}", score);
            assert_eq!(d.eval.black, score);
            assert_eq!(d.opening.unwrap().code, "D1");
            // Soosorv-8's second swap: black swaps away from a bad position.
            let d = decide(
                &req(OpeningRule::Soosorv8, Step::Swap2, "h8,h9,h10,i9", Some(2)),
                &mut s,
                b,
            )
            .unwrap();
            let expect = score - 1 < 0;
            assert_eq!(d.action, Action::Swap(expect), "score {}", score);
        }
        let mut s = scripted(|_| 30);
        let d = decide(&req(OpeningRule::Swap1, Step::Color, "a1", None), &mut s, b).unwrap();
        assert_eq!(d.action, Action::Color(Color::Black));
        let mut s = scripted(|_| -30);
        let d = decide(
            &req(OpeningRule::Swap5, Step::Color, "h8,h9,h10,a1,c3", None),
            &mut s,
            b,
        )
        .unwrap();
        assert_eq!(d.action, Action::Color(Color::White));
    }

    #[test]
    fn open_picks_the_balanced_opening() {
        // Score: distance of black's third stone from the centre, minus 2: the third stone
        // two points away scores 0.
        let mut s = scripted(|b: &Board| {
            let m = b.moves();
            if m.len() < 3 {
                return 500;
            }
            let (dx, dy) = (m[2].x() as i32 - 7, m[2].y() as i32 - 7);
            (dx.abs().max(dy.abs()) - 2) * 100 + dx.abs() + dy.abs()
        });
        let d = decide(
            &req(OpeningRule::Soosorv8, Step::Open, "", None),
            &mut s,
            Budget::fixed(200),
        )
        .unwrap();
        let Action::Stones(st) = &d.action else {
            panic!("{:?}", d.action)
        };
        assert_eq!(st.len(), 3);
        assert_eq!(d.considered.len(), 24, "the banned two left out");
        assert_eq!(d.opening.unwrap().code, "D1", "h10: distance 2, score 2");
    }

    /// A search whose multi-PV lines are the given points in order (those still empty and
    /// not excluded), scored 100, 99, ... for black.
    fn listing(order: Vec<Pos>) -> impl FnMut(&Board, &Probe) -> SearchResult {
        move |b: &Board, p: &Probe| {
            let stm = b.side_to_move();
            let lines: Vec<crate::search::PvLine> = order
                .iter()
                .filter(|q| b.is_empty(**q) && !p.excluded.contains(q))
                .take(p.multipv)
                .enumerate()
                .map(|(i, &q)| crate::search::PvLine {
                    score: if stm == Color::Black {
                        100 - i as i32
                    } else {
                        i as i32 - 100
                    },
                    pv: vec![q],
                })
                .collect();
            SearchResult {
                best: lines.first().map_or(quick_move(b), |l| l.pv[0]),
                depth: 4,
                nodes: 1,
                lines,
                ..Default::default()
            }
        }
    }

    fn pts(s: &str) -> Vec<Pos> {
        crate::core::parse_point_list(s, 15, 15).unwrap()
    }

    #[test]
    fn offers_skip_fives_forbidden_points_and_mirror_images() {
        // Black: an open four on row 8 (g8 and l8 make fives) and the double-three shape of
        // rules' first double-three example in the top-left corner (c12 forbidden).
        let black = pts("h8,i8,j8,k8,b13,c13,d11,c10");
        let white = pts("o1,m1,k1,o3,m3,k3,o5,m5");
        let board =
            Board::from_stones_to_move(15, 15, Rule::Renju, &black, &white, Color::Black).unwrap();
        let c12 = pts("c12")[0];
        assert!(
            board.forbidden(c12).is_some(),
            "test position: c12 is a double three"
        );
        let order = pts("g8,c12,l8,g7,a1,b1,n9,n8,n10");
        let mut s = listing(order);
        let d = decide_on(
            OpeningRule::Rif,
            Step::Offer,
            &board,
            &[],
            5,
            &mut s,
            Budget::fixed(100),
        )
        .unwrap();
        assert_eq!(d.action, Action::Offers(pts("g7,a1,b1,n9,n8")));
        // Mirror images: D1 with white h7 is symmetric about the h column.
        let board = board_of(
            &req(OpeningRule::Rif, Step::Offer, "h8,h9,h10,h7", None),
            &pts("h8,h9,h10,h7"),
        )
        .unwrap();
        let mut s = listing(pts("g10,i10,g6,i6,h11,j10"));
        let d = decide_on(
            OpeningRule::Rif,
            Step::Offer,
            &board,
            &[],
            4,
            &mut s,
            Budget::fixed(100),
        )
        .unwrap();
        assert_eq!(d.action, Action::Offers(pts("g10,g6,h11,j10")));
    }

    #[test]
    fn choose_keeps_the_offer_worst_for_black() {
        let board = board_of(
            &req(OpeningRule::Rif, Step::Choose, "", None),
            &pts("h8,h9,i9,i10"),
        )
        .unwrap();
        // Black's score after each offer: the search scores white-to-move positions by the
        // offer's column (a..o = 0..14) minus 7, from black's view.
        let mut s = scripted(|b: &Board| {
            let last = b.last_move();
            if b.ply() == 5 {
                last.x() as i32 - 7
            } else {
                0
            }
        });
        let d = decide_on(
            OpeningRule::Rif,
            Step::Choose,
            &board,
            &pts("k10,f7,j11"),
            3,
            &mut s,
            Budget::fixed(200),
        )
        .unwrap();
        let Action::Choose { fifth, sixth } = d.action else {
            panic!("{:?}", d.action)
        };
        assert_eq!(fifth, pts("f7")[0]);
        assert!(board.is_empty(sixth) && sixth != fifth);
        assert_eq!(d.considered.len(), 3);
        assert_eq!(d.eval.black, -2);
    }

    #[test]
    fn continuous_swap_doubles_when_one_stone_leaves_us_worse() {
        let board = board_of(
            &req(OpeningRule::ContinuousSwap, Step::Place, "", None),
            &pts("h8"),
        )
        .unwrap();
        // Black's view: after white's single stone black is better by 300; after white's
        // stone and a black stone near the centre by 400; after a quiet black stone even.
        let mut s = scripted(|b: &Board| match b.ply() {
            2 => 300,
            3 => {
                let l = b.last_move();
                let d = (l.x() as i32 - 7).abs().max((l.y() as i32 - 7).abs());
                if d >= 4 {
                    0
                } else {
                    400
                }
            }
            _ => 0,
        });
        let d = decide_on(
            OpeningRule::ContinuousSwap,
            Step::Place,
            &board,
            &[],
            0,
            &mut s,
            Budget::fixed(500),
        )
        .unwrap();
        let Action::Stones(st) = &d.action else {
            panic!("{:?}", d.action)
        };
        assert_eq!(st.len(), 2, "{}", d.to_text());
        let far = (st[1].x() as i32 - 7)
            .abs()
            .max((st[1].y() as i32 - 7).abs());
        assert!(far >= 4, "the black stone is a quiet one: {}", d.to_text());
        assert_eq!(d.eval.black, 0);
        // When the single stone is good enough, one stone.
        let mut s = scripted(|b: &Board| if b.ply() == 2 { -50 } else { 400 });
        let d = decide_on(
            OpeningRule::ContinuousSwap,
            Step::Place,
            &board,
            &[],
            0,
            &mut s,
            Budget::fixed(500),
        )
        .unwrap();
        assert!(
            matches!(&d.action, Action::Stones(v) if v.len() == 1),
            "{}",
            d.to_text()
        );
    }
}
