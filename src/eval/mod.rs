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
//! [`win_rate`]); wins are outside this range ([`crate::search::WIN`]).

pub mod features;
pub mod weights;

use crate::board::{Board, Combo, UndoPoint};
use crate::core::{Color, Pos, POS_COUNT};
use features::{class, threat_mask, CLASSES};
use weights::EvalTables;

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
/// Counts kept per colour.
pub const COUNTS: usize = CLASSES + 2;

use crate::board::has_four_line;

/// The incremental part of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    /// Per colour: Σ mover values, Σ waiter values over the empty points.
    sum: [[i32; 2]; 2],
    /// Per colour: empty points per threat class, and with a four line ([`ANY_FOUR`]).
    count: [[u16; COUNTS]; 2],
}

/// Incremental evaluation of one board (one per search thread). After every
/// [`Board::make`] call [`Evaluator::make`], after every [`Board::undo`] call
/// [`Evaluator::undo`].
pub struct Evaluator {
    tables: [&'static EvalTables; 2],
    cur: State,
    stack: Vec<State>,
    /// Per point: the move number at which it was last seen in a change list.
    mark: Box<[u32; POS_COUNT]>,
    stamp: u32,
}

impl Evaluator {
    /// An evaluator for `board` as it stands (O(points)).
    pub fn new(board: &Board) -> Evaluator {
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
            mark: Box::new([0; POS_COUNT]),
            stamp: 0,
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
            for c in [Color::Black, Color::White] {
                self.add(&mut s, board, c, board.code(c, p), 1);
            }
        }
        s
    }

    #[inline(always)]
    fn add(&self, s: &mut State, board: &Board, c: Color, code: u16, sign: i32) {
        let ci = c.index();
        let t = self.tables[ci];
        let v = t.value[code as usize];
        s.sum[ci][0] += sign * (v as u16 as i16 as i32);
        s.sum[ci][1] += sign * ((v >> 16) as u16 as i16 as i32);
        let combo = board.combo_table(c).combo(code);
        let k = t.class[combo as usize] as usize;
        if k < CLASSES {
            s.count[ci][k] = s.count[ci][k].wrapping_add(sign as u16);
        }
        if has_four_line(code) {
            s.count[ci][ANY_FOUR] = s.count[ci][ANY_FOUR].wrapping_add(sign as u16);
        }
    }

    /// Takes the move just made on `board` into account.
    #[inline]
    pub fn make(&mut self, board: &Board) {
        self.stack.push(self.cur);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let changes: &[UndoPoint] = board.last_changes();
        let mut s = self.cur;
        for u in changes {
            let q = u.q as usize & (POS_COUNT - 1);
            if self.mark[q] == self.stamp {
                continue;
            }
            self.mark[q] = self.stamp;
            let pos = Pos(q as u16);
            let empty = board.is_empty(pos);
            for c in [Color::Black, Color::White] {
                let old = u.code[c.index()];
                if empty {
                    let new = board.code(c, pos);
                    if new == old {
                        continue;
                    }
                    self.add(&mut s, board, c, new, 1);
                }
                self.add(&mut s, board, c, old, -1);
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
    }

    /// The evaluation for `side` to move (evaluation units, within ±[`EVAL_LIMIT`]).
    #[inline]
    pub fn evaluate(&self, side: Color) -> i32 {
        let (s, o) = (side.index(), side.opponent().index());
        let me = self.counts(side);
        let opp = self.counts(side.opponent());
        let mask = threat_mask(me, opp);
        let v = self.cur.sum[s][0] + self.cur.sum[o][1] + self.tables[s].threat[mask] as i32;
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

    /// The move-ordering tables of colour `c` (attack in the low 16 bits, defence in the
    /// high 16, by raw code).
    #[inline]
    pub fn order_table(&self, c: Color) -> &[u32; 1 << 16] {
        &self.tables[c.index()].order
    }

    /// Checks the incremental state against a recomputation (tests).
    pub fn verify(&self, board: &Board) -> Result<(), String> {
        let f = self.full(board);
        if f == self.cur {
            Ok(())
        } else {
            Err(format!("incremental {:?} != full {:?}", self.cur, f))
        }
    }
}

/// Static evaluation of `board` from the side to move's view, from scratch (O(points);
/// searches keep an [`Evaluator`] instead).
pub fn evaluate(board: &Board) -> i32 {
    Evaluator::new(board).evaluate(board.side_to_move())
}

/// The evaluation from the side to move's point-score sum `mine` and the opponent's
/// `theirs` (the hand-set scores of [`crate::board::combo`], summed over the move
/// candidates; used for move ordering).
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
