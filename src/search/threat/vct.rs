//! VCT (victory by continuous threats, docs/rules.md §2) for the side to move, renju-aware
//! (docs/rules.md §3), by depth-first proof-number search (df-pn) over a transposition table.
//!
//! # Why df-pn
//!
//! A VCT tree is an AND/OR tree whose width changes wildly from node to node: after a four
//! the defender has one reply, after an open three three to six (the blocking points,
//! far ends and split-three gaps) plus every counter-four. Proof-number search expands the
//! most-proving node first, so it follows the narrow, forcing lines and leaves the wide ones
//! for later, without any depth limit; df-pn is its depth-first form, which needs memory only
//! for the table and re-expands nothing that the table still holds. Gomoku positions never
//! repeat (stones are only added) and the side to move follows from the stone count, so a
//! table keyed by the stones alone is exact and df-pn's graph-history problems cannot arise.
//! Dependency-based search (Allis) would need a proof that combined threat sequences are
//! independent, which renju's forbidden points (a stone far away can make or unmake a
//! forbidden point) make hard to keep exact.
//!
//! # The game searched
//!
//! OR nodes (attacker to move), in order:
//! 1. a five point of the attacker: proved;
//! 2. two five points of the defender: disproved;
//! 3. a VCF of the attacker ([`VcfSolver`], node-limited): proved, with the VCF as its line;
//! 4. one five point of the defender: the block is the only move (illegal for renju black:
//!    disproved);
//! 5. otherwise the moves are the attacker's threats: every legal point where some line
//!    pattern is an open or split three or a four, and (from the second pass on) one
//!    virtual child, the quiet-threat node of the same position. No move: disproved.
//!
//! Quiet-threat nodes (attacker to move, same stones): the moves are the legal points with
//! two growing line shapes (open or closed twos and threes), or one closed three, after
//! which the attacker would have a VCF if the defender passed (one VCF per candidate, so
//! the node is expanded only when df-pn reaches it: its proof number starts at `QUIET_PN`
//! where real threats start at 1). No move: disproved.
//!
//! AND nodes (defender to move):
//! 1. a five point of the defender: disproved;
//! 2. two attacker five points: proved; one: the block is the only move, and a block
//!    forbidden to renju black proves the node (forbidden-point capture);
//! 3. a VCF of the defender: disproved (the attacker's threat was too slow);
//! 4. the attacker's threats `S` are its legal points with two five points (a straight four,
//!    or for white/freestyle two fours). If `S` is not empty the defender's moves are every
//!    legal point on a four-making line of each point of `S` (within five points: the point
//!    itself, both ends, the far ends, split-three gaps, and in caro the blockers beyond a
//!    five) that leaves the attacker no point of `S` still winning;
//! 5. if `S` is empty the pending threat is the attacker's VCF if the defender passed (none:
//!    disproved, the defender has a free move). The defender's moves are the legal points
//!    of the VCF's relevance zone (within five points, on the four lines, of a move of the
//!    VCF or of its final five point, so that the forbidden block of a capture counts)
//!    after which the attacker has no VCF. A stone outside the zone changes no pattern,
//!    five point or (but for the recursive rule) forbidden point of the VCF, which still
//!    wins;
//! 6. in both cases, and whatever the threat, every defender four (counter-four, legal for
//!    renju black) is a move too. No move: proved.
//!
//! # Passes
//!
//! [`VctSolver::solve`] runs up to three passes on a fresh table: threes and fours only
//! (fast); then with quiet threats; then with VCF sub-searches ten times larger. A pass runs
//! only if the one before ended with "none" or with "none but for a VCF sub-search that hit
//! its budget". Every such unfinished VCF is taken the defender's way (an attacker VCF as
//! "no", a defender VCF as "yes"), so a reported win is always real; the final answer is
//! then "unknown" instead of "none". Measured on the 377 `vcf=no` positions (VCT puzzles)
//! at 1 s each: threes and fours only 319 wins; one pass with quiet threats as ordinary
//! moves 312 (generating them everywhere costs too much); the passes with the virtual
//! quiet-threat child 358.
//!
//! Known limits (documented, not bugs): a renju white defence that makes black's threat
//! point forbidden from afar (through the recursive double-three rule) is not generated,
//! and quiet threats are only those that threaten a VCF at once.

use super::vcf::{five_defences, five_points, PosList, VcfOutcome, VcfSolver};
use crate::board::{is_four_point, is_legal, zobrist, Board, Combo, Pattern, DELTA};
use crate::core::{Color, Pos, POS_COUNT};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

mod moves;
use std::time::Instant;

/// log2 of the entries of the VCF sub-solver's table in [`VctSolver::new`].
pub const VCT_VCF_TABLE_BITS: u32 = 20;

/// Memory of a [`VctSolver::new`] whatever its progress, in bytes: the VCF sub-solver's
/// table of failed positions (2^20 entries of 8 bytes) and small per-point buffers.
pub const VCT_FIXED_BYTES: usize = vct_fixed_bytes(VCT_VCF_TABLE_BITS);

/// Memory of a [`VctSolver::with_vcf_table_bits`] whatever its progress, in bytes.
pub const fn vct_fixed_bytes(bits: u32) -> usize {
    (8 << bits) + (64 << 10)
}

/// The solver that fits `bytes` bytes in all: the largest VCF sub-solver table (up to
/// [`VCT_VCF_TABLE_BITS`]) taking at most half, the rest capping its growing tables.
pub fn vct_solver_for(bytes: usize) -> VctSolver {
    let mut bits = VCT_VCF_TABLE_BITS;
    while bits > 10 && vct_fixed_bytes(bits) > bytes / 2 {
        bits -= 1;
    }
    let mut s = VctSolver::with_vcf_table_bits(bits);
    s.set_memory_limit(bytes.saturating_sub(vct_fixed_bytes(bits)));
    s
}

/// Proof and disproof numbers saturate here (a proved or disproved node).
const INF: u32 = 1 << 28;

/// Node budget of each VCF sub-search (ten times this in the last pass).
const VCF_BUDGET: u64 = 20_000;
/// Node budget of the VCF that tests a quiet threat candidate.
const QUIET_VCF_BUDGET: u64 = 2_000;

/// The keys are Zobrist hashes already: use them as they are.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Map<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

/// A table entry: proof and disproof numbers, nodes spent below (to pick the defender's
/// longest resistance for the main line) and the node's cached move list.
#[derive(Clone, Copy)]
struct Entry {
    pn: u32,
    dn: u32,
    work: u32,
    start: u32,
    len: u16,
    expanded: bool,
}

const UNKNOWN_ENTRY: Entry = Entry {
    pn: 1,
    dn: 1,
    work: 0,
    start: 0,
    len: 0,
    expanded: false,
};

type Moves = SmallVec<[Pos; 64]>;

/// The three kinds of node: attacker to move (its threes and fours, and one virtual child
/// standing for its quiet threats), the virtual node of quiet threats (same position,
/// attacker to move), defender to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Or,
    Quiet,
    And,
}

impl Kind {
    fn is_or(self) -> bool {
        self != Kind::And
    }
}

/// Key salt of the virtual quiet-threat node of a position.
const QUIET_SALT: u64 = 0x5155_4945_5454_4852;
/// Initial proof number of an unexpanded quiet-threat node: the attacker's threes and fours
/// are tried first, quiet threats (costly to generate: one VCF per candidate) when the
/// threes and fours look at least this hard.
const QUIET_PN: u32 = 6;

/// What the first visit of a node finds.
enum Expansion {
    Proved,
    Disproved,
    Moves,
}

/// A reusable VCT solver (its VCF sub-solver keeps its failed-position table between
/// calls; the proof table is cleared for each new root).
pub struct VctSolver {
    vcf: VcfSolver,
    tt: Map<Entry>,
    arena: Vec<Pos>,
    wins: Map<Vec<Pos>>,
    attacker: Color,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    incomplete: bool,
    stamp: Vec<u32>,
    generation: u32,
    quiet: bool,
    allow_quiet: bool,
    vcf_budget: u64,
    proof_nodes: u64,
    first_pass: usize,
    max_bytes: usize,
}

impl Default for VctSolver {
    fn default() -> Self {
        VctSolver::new()
    }
}

#[inline]
fn sat(x: u64) -> u32 {
    x.min(INF as u64) as u32
}

/// Whether some line of `c` at `p` is an open three, a split three or a four (patterns
/// `SplitThree..=DoubleFour`).
#[inline]
fn is_threat_point(board: &Board, c: Color, p: Pos) -> bool {
    let code = board.code(c, p);
    (0..4).any(|d| {
        let n = (code >> (4 * d)) & 0xF;
        (Pattern::SplitThree as u16..=Pattern::DoubleFour as u16).contains(&n)
    })
}

/// Whether `c` at `p` makes two five points at once and may play there.
#[inline]
fn is_winning_threat(board: &Board, c: Color, p: Pos) -> bool {
    board.is_empty(p) && board.combo(c, p) == Combo::Flex4 && is_legal(board, c, p)
}

impl VctSolver {
    /// A solver with an empty table.
    pub fn new() -> VctSolver {
        VctSolver::with_vcf_table_bits(VCT_VCF_TABLE_BITS)
    }

    /// A solver whose VCF sub-solver keeps 2^`bits` failed positions (8 bytes each; `bits`
    /// clamped to 10..=24): smaller for tight memory ([`vct_fixed_bytes`]).
    pub fn with_vcf_table_bits(bits: u32) -> VctSolver {
        VctSolver {
            vcf: VcfSolver::with_table_bits(bits.clamp(10, 24)),
            tt: Map::default(),
            arena: Vec::new(),
            wins: Map::default(),
            attacker: Color::Black,
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            aborted: false,
            incomplete: false,
            stamp: vec![0; POS_COUNT],
            generation: 0,
            quiet: false,
            allow_quiet: true,
            vcf_budget: VCF_BUDGET,
            proof_nodes: 0,
            first_pass: 0,
            max_bytes: usize::MAX,
        }
    }

    /// Back to the state of a new solver of the same sizes (new game), keeping the memory of
    /// its tables and buffers: no allocation, no page faults.
    pub fn reset(&mut self) {
        self.vcf.reset();
        self.tt.clear();
        self.arena.clear();
        self.wins.clear();
        self.attacker = Color::Black;
        self.nodes = 0;
        self.limit = u64::MAX;
        self.deadline = None;
        self.aborted = false;
        self.incomplete = false;
        self.stamp.fill(0);
        self.generation = 0;
        self.quiet = false;
        self.allow_quiet = true;
        self.vcf_budget = VCF_BUDGET;
        self.proof_nodes = 0;
        self.first_pass = 0;
    }

    /// Nodes of the last call: proof-search nodes plus VCF sub-search nodes.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proof-search node visits of the last call (part of [`VctSolver::nodes`]).
    pub fn proof_nodes(&self) -> u64 {
        self.proof_nodes
    }

    /// Searches a VCT for the side to move of `board` within about `max_nodes` nodes (VCF
    /// sub-search nodes included), until `deadline`, or until `stop` is raised; returns the
    /// main line on a win (attacker, defender, ..., the winning move; the defender's moves
    /// are the replies that resisted longest). The board is restored exactly.
    pub fn solve(
        &mut self,
        board: &mut Board,
        max_nodes: u64,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> VcfOutcome {
        self.attacker = board.side_to_move();
        self.nodes = 0;
        self.proof_nodes = 0;
        self.limit = max_nodes;
        self.deadline = deadline;
        self.vcf.set_deadline(deadline);
        // Pass 1: threes and fours only (fast). Pass 2: quiet VCF threats as well. Pass 3:
        // the same with VCF sub-searches ten times larger. A pass runs only if the one before
        // it ended without a win and without running out of nodes or time: proved "none", or
        // "none" but for some VCF sub-search that hit its budget.
        let mut result = VcfOutcome::Unknown;
        let passes = [
            (false, VCF_BUDGET),
            (true, VCF_BUDGET),
            (true, 10 * VCF_BUDGET),
        ];
        for &(quiet, budget) in &passes[self.first_pass.min(passes.len() - 1)..] {
            if quiet && !self.allow_quiet {
                break;
            }
            self.quiet = quiet;
            self.vcf_budget = budget;
            self.tt.clear();
            self.arena.clear();
            self.wins.clear();
            self.aborted = false;
            self.incomplete = false;
            let (pn, dn) = self.mid(board, Kind::Or, INF, INF, stop);
            result = if pn == 0 {
                VcfOutcome::Win(self.main_line(board))
            } else if dn == 0 && !self.incomplete && !self.aborted {
                VcfOutcome::None
            } else {
                VcfOutcome::Unknown
            };
            let settled_none = result == VcfOutcome::None && quiet;
            if result.is_win() || self.aborted || settled_none {
                break;
            }
        }
        self.vcf.set_deadline(None);
        result
    }

    /// Whether the second pass (quiet VCF threats) may run (default: yes).
    pub fn set_quiet_threats(&mut self, allow: bool) {
        self.allow_quiet = allow;
    }

    /// The pass [`VctSolver::solve`] starts with: 0 (default) threes and fours only, 1 quiet
    /// VCF threats as well, 2 (or more) the same with ten times larger VCF sub-searches. A
    /// parallel solve runs one solver per starting pass; a win from any pass is a proof, and
    /// so is "none" from a pass with quiet threats (when they are allowed).
    pub fn set_first_pass(&mut self, pass: usize) {
        self.first_pass = pass;
    }

    /// Caps the memory of the solver's growing tables (proof table, move lists, win lines)
    /// at about `bytes` bytes, counting the peak of their next growth (old and new storage
    /// side by side); a solve that would pass it ends as if out of nodes ("unknown" unless
    /// already proved). The fixed tables (the VCF sub-solver's, [`VCT_FIXED_BYTES`]) come
    /// on top. Default: no cap.
    pub fn set_memory_limit(&mut self, bytes: usize) {
        self.max_bytes = bytes;
    }

    /// The memory the growing tables would hold at the peak of their next growth, in bytes.
    fn growing_bytes(&self) -> usize {
        fn peak(len: usize, capacity: usize, slot: usize, spare: usize) -> usize {
            let now = capacity * slot;
            if len + spare >= capacity {
                // The next growth doubles the storage while the old one is still held.
                3 * now.max(slot * 16)
            } else {
                now
            }
        }
        let tt_slot = std::mem::size_of::<(u64, Entry)>() + 1;
        let win_slot = std::mem::size_of::<(u64, Vec<Pos>)>() + 1 + 16 * std::mem::size_of::<Pos>();
        // Hash maps keep 1/8 of their buckets free.
        peak(self.tt.len(), self.tt.capacity(), tt_slot * 8 / 7 + 1, 256)
            + peak(
                self.wins.len(),
                self.wins.capacity(),
                win_slot * 8 / 7 + 1,
                16,
            )
            + peak(
                self.arena.len(),
                self.arena.capacity(),
                std::mem::size_of::<Pos>(),
                POS_COUNT,
            )
    }

    fn out_of_budget(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.limit
            || stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|t| Instant::now() >= t)
            || (self.max_bytes != usize::MAX && self.growing_bytes() > self.max_bytes)
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn run_vcf(&mut self, b: &mut Board, stop: &AtomicBool) -> VcfOutcome {
        // Sub-searches run in loops (defences, quiet threats): none starts past the budget
        // or the deadline.
        if self.out_of_budget(stop) {
            return VcfOutcome::Unknown;
        }
        let budget = self
            .vcf_budget
            .min(self.limit.saturating_sub(self.nodes))
            .max(1);
        let r = self.vcf.solve(b, budget, stop);
        self.nodes += self.vcf.nodes();
        r
    }

    /// df-pn's multiple iterative deepening at one node: searches until the node's proof or
    /// disproof number reaches its threshold; returns them.
    fn mid(
        &mut self,
        b: &mut Board,
        kind: Kind,
        th_pn: u32,
        th_dn: u32,
        stop: &AtomicBool,
    ) -> (u32, u32) {
        self.nodes += 1;
        self.proof_nodes += 1;
        let start_nodes = self.nodes;
        let key = Self::key_of(b, kind);
        if self.out_of_budget(stop) {
            let e = self.tt.get(&key).copied().unwrap_or(UNKNOWN_ENTRY);
            return (e.pn, e.dn);
        }
        let mut moves = Moves::new();
        if let Some(settled) = self.node_moves(b, kind, &mut moves, stop) {
            return settled;
        }
        let or = kind.is_or();
        let mover = if or {
            self.attacker
        } else {
            self.attacker.opponent()
        };
        let (mut pn, mut dn);
        loop {
            // Step 1: this node's numbers from its children.
            let mut best = 0usize;
            let mut best_num = INF;
            let mut best_other = 0u32;
            let mut second = INF;
            let (mut sum, mut min) = (0u64, INF);
            for (i, &m) in moves.iter().enumerate() {
                let (_, e) = self.child(b, mover, m);
                // OR: minimise pn, sum dn; AND: minimise dn, sum pn.
                let (num, other) = if or { (e.pn, e.dn) } else { (e.dn, e.pn) };
                sum += other as u64;
                min = min.min(num);
                if num < best_num {
                    second = best_num;
                    best_num = num;
                    best_other = other;
                    best = i;
                } else if num < second {
                    second = num;
                }
            }
            if or {
                pn = min;
                dn = sat(sum);
            } else {
                pn = sat(sum);
                dn = min;
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.aborted {
                break;
            }
            // Step 2: thresholds for the most-proving child (with the 1 + 1/4 trick against
            // thrashing between two close siblings).
            let widen = |x: u32| sat(x as u64 + x as u64 / 4 + 1);
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(widen(second)),
                    sat(th_dn as u64 - dn as u64 + best_other as u64),
                )
            } else {
                (
                    sat(th_pn as u64 - pn as u64 + best_other as u64),
                    th_dn.min(widen(second)),
                )
            };
            let m = moves[best];
            if m.is_none() {
                self.mid(b, Kind::Quiet, c_pn, c_dn, stop);
            } else {
                b.make_colored(m, mover);
                self.mid(b, if or { Kind::And } else { Kind::Or }, c_pn, c_dn, stop);
                b.undo();
            }
        }
        let e = self.tt.entry(key).or_insert(UNKNOWN_ENTRY);
        e.pn = pn;
        e.dn = dn;
        e.work = sat(e.work as u64 + self.nodes - start_nodes + 1);
        (pn, dn)
    }

    /// The cached moves of a node (empty if it was never expanded).
    fn cached_moves(&self, key: u64) -> Vec<Pos> {
        match self.tt.get(&key) {
            Some(e) if e.expanded => {
                self.arena[e.start as usize..e.start as usize + e.len as usize].to_vec()
            }
            _ => Vec::new(),
        }
    }

    /// Among the proved children of a node, the one with the least work (attacker) or the
    /// most (defender: its longest resistance).
    fn proved_child(&self, b: &Board, kind: Kind) -> Option<Pos> {
        let or = kind.is_or();
        let mover = if or {
            self.attacker
        } else {
            self.attacker.opponent()
        };
        self.cached_moves(Self::key_of(b, kind))
            .into_iter()
            .filter_map(|m| {
                let (_, e) = self.child(b, mover, m);
                (e.pn == 0).then_some((e.work, m))
            })
            .reduce(|x, y| {
                let better = if or { y.0 < x.0 } else { y.0 > x.0 };
                if better {
                    y
                } else {
                    x
                }
            })
            .map(|x| x.1)
    }

    /// The main line of a proved root: the attacker's proved move with the least work, the
    /// defender's reply with the most, down to a five, a VCF or an unstoppable threat.
    fn main_line(&mut self, board: &mut Board) -> Vec<Pos> {
        let a = self.attacker;
        let d = a.opponent();
        let mut line = Vec::new();
        let mut played = 0;
        let mut or = true;
        let stop = AtomicBool::new(false);
        loop {
            if or {
                if let Some(l) = self.wins.get(&board.hash()) {
                    line.extend_from_slice(l);
                    break;
                }
                let mut m = self.proved_child(board, Kind::Or);
                if m == Some(Pos::NONE) {
                    m = self.proved_child(board, Kind::Quiet);
                }
                let Some(m) = m.filter(|m| !m.is_none()) else {
                    break;
                };
                line.push(m);
                board.make_colored(m, a);
                played += 1;
                or = false;
                continue;
            }
            let af = five_points(board, a, 8);
            if !af.is_empty() {
                let mut defs = PosList::new();
                five_defences(board, a, &af, &mut defs);
                if defs.is_empty() {
                    break;
                }
            }
            if let Some(m) = self.proved_child(board, Kind::And) {
                line.push(m);
                board.make_colored(m, d);
                played += 1;
                or = true;
                continue;
            }
            // Proved because no defence holds: the defender plays the first defence point (or
            // any legal point), then the attacker's VCF wins.
            let threats = if board.rule().has_caps() {
                SmallVec::new()
            } else {
                self.winning_threats(board)
            };
            let mut cand: Vec<Pos> = if threats.is_empty() {
                match self.null_move_vcf(board, &stop) {
                    Some(l) => self.relevance_zone(board, &l),
                    None => Vec::new(),
                }
            } else {
                self.defence_candidates(board, &threats).to_vec()
            };
            cand.retain(|&p| is_legal(board, d, p));
            let q = cand
                .first()
                .copied()
                .or_else(|| board.empty_points().find(|&p| is_legal(board, d, p)));
            let Some(q) = q else { break };
            line.push(q);
            board.make_colored(q, d);
            played += 1;
            if let VcfOutcome::Win(l) = self.vcf.solve(board, 10_000_000, &stop) {
                line.extend_from_slice(&l);
            }
            break;
        }
        for _ in 0..played {
            board.undo();
        }
        line
    }
}

/// Searches a VCT for the side to move with a fresh [`VctSolver`]: at most about `max_nodes`
/// nodes (VCF sub-searches included), until `deadline`, or until `stop` is raised
/// ([`VcfOutcome::Unknown`] then). On a win the line is the main line. The board is restored
/// exactly.
pub fn vct(
    board: &mut Board,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> VcfOutcome {
    VctSolver::new().solve(board, max_nodes, deadline, stop)
}
