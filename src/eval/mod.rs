//! Static evaluation: a learned sum over the empty points of values looked up by pattern
//! code, plus a learned value of the threat situation (`docs/training.md` §3).
//!
//! For the side to move `s` and its opponent `o`:
//! `eval = Σ mover_s[code_s(p)] + Σ waiter_o[code_o(p)] + threat_s[mask]`, the sums over
//! every empty point `p`, where `code_c(p)` is the pattern code of colour `c` at `p`, the
//! tables come from the weights ([`weights`]) of the rule and colour, and `mask` is the
//! threat mask ([`features::threat_mask`]). The [`Evaluator`] keeps the four sums and the
//! per-colour threat-class counts up to date move by move from the points each move changed
//! ([`Board::last_changes`]), so an evaluation costs O(1).
//!
//! Units: [`EVAL_SCALE`] per logistic unit (the expected score of the side to move is
//! [`win_rate`]); wins are outside this range ([`WIN`]).

pub mod features;
pub mod network;
pub mod weights;

use crate::board::canon::CLASS_SLOTS;
use crate::board::{Board, Combo, UndoPoint};
use crate::core::{Color, Pos, POS_COUNT};
use features::{class, threat_mask, CLASSES};
use network::{Delta, RuleNet, Sums};
use weights::EvalTables;

/// Score of a five on the board now, from the winner's view. A win in `n` plies scores
/// `WIN - n`; a loss in `n` plies `-(WIN - n)`. Search scores use the evaluation's units;
/// wins and losses lie beyond [`WIN_THRESHOLD`], far outside [`EVAL_LIMIT`].
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;

/// Largest magnitude of a static evaluation.
pub const EVAL_LIMIT: i32 = 20_000;

/// Evaluation units per logistic unit: the expected score of the side to move is
/// `1 / (1 + exp(-eval / EVAL_SCALE))` (see [`win_rate`]).
pub const EVAL_SCALE: f64 = 200.0;

/// Expected score (0 to 1) of the side to move for a search score `score` (evaluation units;
/// wins and losses give 1 and 0).
pub fn win_rate(score: i32) -> f64 {
    1.0 / (1.0 + (-(score as f64) / EVAL_SCALE).exp())
}

/// Index of the count of points with a four line (any line pattern four or better), kept
/// beside the [`CLASSES`] threat classes.
pub const ANY_FOUR: usize = CLASSES;
/// Count slots kept per colour: the [`CLASSES`] threat classes, [`ANY_FOUR`], and one slot
/// (7) where points of no threat class are counted, so that the update needs no branch.
pub const COUNTS: usize = 8;

/// The incremental part of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    /// Per colour: Σ mover values, Σ waiter values over the empty points.
    sum: [[i32; 2]; 2],
    /// Per colour: empty points per threat class, with a four line ([`ANY_FOUR`]), and of
    /// no threat class (slot 7).
    count: [[u16; COUNTS]; 2],
}

/// Incremental evaluation of one board (one per search thread). After every
/// [`Board::make`] call [`Evaluator::make`], after every [`Board::undo`] call
/// [`Evaluator::undo`].
pub struct Evaluator {
    tables: [&'static EvalTables; 2],
    cur: State,
    stack: Vec<State>,
    /// The network's correction, when the rule has one ([`network`]).
    net: Option<NetState>,
}

/// The network of an [`Evaluator`] and its accumulator sums, brought up to date lazily:
/// a move only records the rows it changes, and an evaluation applies the moves recorded
/// since the last sums it has (docs/network.md §3).
struct NetState {
    net: &'static RuleNet,
    /// `sums[k]`: the sums `k` moves after the evaluator was made, valid for `k <= fresh`.
    sums: Vec<Sums>,
    /// `deltas[k]`: the rows move `k` changed (`1 <= k <= ply`; entry 0 unused).
    deltas: Vec<Delta>,
    /// Moves made since the evaluator was made (and not taken back).
    ply: usize,
    /// The last ply whose sums are up to date (at most `ply`).
    fresh: usize,
}

impl Evaluator {
    /// An evaluator for `board` as it stands (O(points)), with the network installed for
    /// its rule if there is one ([`network::of_rule`]).
    pub fn new(board: &Board) -> Evaluator {
        Evaluator::with_network(board, network::of_rule(board.rule()))
    }

    /// An evaluator for `board` with the network `net` (`None`: the tables alone).
    pub fn with_network(board: &Board, net: Option<&'static RuleNet>) -> Evaluator {
        let rule = board.rule();
        let mut e = Evaluator {
            tables: [
                weights::tables(rule, Color::Black),
                weights::tables(rule, Color::White),
            ],
            cur: State {
                sum: [[0; 2]; 2],
                count: [[0; COUNTS]; 2],
            },
            stack: Vec::with_capacity(256),
            net: net.map(|net| NetState::new(net, board)),
        };
        e.cur = e.full(board);
        e
    }

    /// Recomputes the state from scratch.
    fn full(&self, board: &Board) -> State {
        let mut s = State {
            sum: [[0; 2]; 2],
            count: [[0; COUNTS]; 2],
        };
        for p in board.empty_points() {
            for c in 0..2 {
                let cls = board.class(if c == 0 { Color::Black } else { Color::White }, p);
                add::<1>(self.tables[c], &mut s, c, cls);
            }
        }
        // Slot 7 counts classless points and is never read: keep it out of comparisons.
        s.count[0][7] = 0;
        s.count[1][7] = 0;
        s
    }

    /// Takes the move just made on `board` into account.
    #[inline]
    pub fn make(&mut self, board: &Board) {
        self.stack.push(self.cur);
        let changes: &[UndoPoint] = board.last_changes();
        let tables = self.tables;
        let mut s = self.cur;
        // The network's rows are listed in the same walk, applied when an evaluation needs
        // them (NetState::refresh).
        let mut delta = self.net.as_mut().map(|n| n.push().writer());
        // The point played comes first (it is no longer empty); each other changed point is
        // empty and listed once (docs: `crate::board` module invariants).
        if let Some((first, rest)) = changes.split_first() {
            for (ci, t) in tables.into_iter().enumerate() {
                add::<-1>(t, &mut s, ci, first.old.cls[ci]);
                if let Some(d) = &mut delta {
                    d.take_out(ci, first.old.cls[ci]);
                }
            }
            for u in rest {
                let pos = Pos(u.q & (POS_COUNT as u16 - 1));
                for (ci, c) in [(0, Color::Black), (1, Color::White)] {
                    let old = u.old.cls[ci];
                    let new = board.class(c, pos);
                    if new != old {
                        add::<-1>(tables[ci], &mut s, ci, old);
                        add::<1>(tables[ci], &mut s, ci, new);
                        if let Some(d) = &mut delta {
                            d.change(ci, old, new);
                        }
                    }
                }
            }
        }
        self.cur = s;
    }

    /// Takes back the last [`Evaluator::make`].
    #[inline]
    pub fn undo(&mut self) {
        if let Some(s) = self.stack.pop() {
            self.cur = s;
        }
        if let Some(n) = &mut self.net {
            n.pop();
        }
    }

    /// The evaluation for `side` to move (evaluation units, within ±[`EVAL_LIMIT`]). With a
    /// network this first brings its sums up to date (the moves since the last evaluation).
    #[inline]
    pub fn evaluate(&mut self, side: Color) -> i32 {
        let (s, o) = (side.index(), side.opponent().index());
        let mask = threat_mask(self.counts(side), self.counts(side.opponent()));
        let mut v = self.cur.sum[s][0] + self.cur.sum[o][1] + self.tables[s].threat[mask] as i32;
        if let Some(n) = &mut self.net {
            v += n.net.correction(n.refresh(), side, mask);
        }
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The threat-class counts of colour `c` (the first [`CLASSES`] entries).
    #[inline]
    pub fn counts(&self, c: Color) -> &[u16; CLASSES] {
        self.cur.count[c.index()][..CLASSES]
            .try_into()
            .expect("CLASSES entries")
    }

    /// Number of empty points where colour `c` has a four five point (a five).
    #[inline]
    pub fn five_points(&self, c: Color) -> u16 {
        self.cur.count[c.index()][class::FIVE]
    }

    /// Number of empty points where colour `c` would have a line four or better.
    #[inline]
    pub fn four_line_points(&self, c: Color) -> u16 {
        self.cur.count[c.index()][ANY_FOUR]
    }

    /// The move-ordering tables of colour `c` by canonical class (attack in the low 16 bits,
    /// defence in the high 16; [`CLASS_SLOTS`] entries, index masked).
    #[inline]
    pub fn order_table(&self, c: Color) -> &[u32; CLASS_SLOTS] {
        &self.tables[c.index()].order
    }

    /// Checks the incremental state against a recomputation (tests).
    pub fn verify(&self, board: &Board) -> Result<(), String> {
        let f = self.full(board);
        let mut cur = self.cur;
        cur.count[0][7] = 0;
        cur.count[1][7] = 0;
        if f != cur {
            return Err(format!("incremental {:?} != full {:?}", cur, f));
        }
        match &self.net {
            Some(n) if n.current() != n.net.sums(board) => {
                Err("incremental network sums differ from the full ones".to_string())
            }
            _ => Ok(()),
        }
    }
}

/// Adds (`SIGN` 1) or removes (`SIGN` -1) one empty point of class `cls` for colour
/// index `ci`, whose tables are `t`.
#[inline(always)]
fn add<const SIGN: i32>(t: &EvalTables, s: &mut State, ci: usize, cls: u16) {
    let i = cls as usize & (CLASS_SLOTS - 1);
    let v = t.value[i];
    s.sum[ci][0] += SIGN * (v as u16 as i16 as i32);
    s.sum[ci][1] += SIGN * ((v >> 16) as u16 as i16 as i32);
    let info = t.info[i];
    let k = (info & 7) as usize;
    let four = (info >> 3) as u16;
    let count = &mut s.count[ci];
    if SIGN > 0 {
        count[k] = count[k].wrapping_add(1);
        count[ANY_FOUR] = count[ANY_FOUR].wrapping_add(four);
    } else {
        count[k] = count[k].wrapping_sub(1);
        count[ANY_FOUR] = count[ANY_FOUR].wrapping_sub(four);
    }
}

impl NetState {
    fn new(net: &'static RuleNet, board: &Board) -> NetState {
        let mut sums = Vec::with_capacity(256);
        sums.push(net.sums(board));
        let mut deltas = Vec::with_capacity(256);
        deltas.push(Delta::NONE);
        NetState {
            net,
            sums,
            deltas,
            ply: 0,
            fresh: 0,
        }
    }

    /// A new ply: the record of its move's rows, to be filled.
    #[inline]
    fn push(&mut self) -> &mut Delta {
        self.ply += 1;
        if self.deltas.len() <= self.ply {
            self.deltas.push(Delta::NONE);
            self.sums.push([[0; network::HIDDEN]; 2]);
        }
        &mut self.deltas[self.ply]
    }

    /// Takes back the last ply.
    #[inline]
    fn pop(&mut self) {
        self.ply = self.ply.saturating_sub(1);
        self.fresh = self.fresh.min(self.ply);
    }

    /// The sums of the current ply, after applying the moves not yet applied.
    #[inline]
    fn refresh(&mut self) -> &Sums {
        while self.fresh < self.ply {
            let next = self
                .net
                .apply(&self.sums[self.fresh], &self.deltas[self.fresh + 1]);
            self.fresh += 1;
            self.sums[self.fresh] = next;
        }
        &self.sums[self.ply]
    }

    /// The sums of the current ply, computed without keeping them (for checks).
    fn current(&self) -> Sums {
        (self.fresh + 1..=self.ply).fold(self.sums[self.fresh], |s, k| {
            self.net.apply(&s, &self.deltas[k])
        })
    }
}

/// Static evaluation of `board` from the side to move's view, from scratch (O(points);
/// searches keep an [`Evaluator`] instead).
pub fn evaluate(board: &Board) -> i32 {
    Evaluator::new(board).evaluate(board.side_to_move())
}

/// The old hand-set evaluation, from the side to move's point-score sum `mine` and the
/// opponent's `theirs` (the hand-set scores of [`crate::board::combo`], summed over the move
/// candidates by [`crate::board::Board::score`]). Neither the search nor its move ordering
/// uses it: `tune` keeps it as a reference predictor, whose held-out loss is printed beside
/// the fitted evaluation's.
#[inline]
pub fn combine(mine: i32, theirs: i32) -> i32 {
    let v = (mine * 6 - theirs * 5) / 4 + 8;
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Whether the combo is a five (shorthand for the search).
#[inline]
pub fn is_five(c: Combo) -> bool {
    c == Combo::Five
}
