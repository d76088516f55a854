//! The network evaluation (`docs/network.md`): the table evaluation plus a learned
//! nonlinear correction, in integers, updated move by move.
//!
//! For the side to move `s` and its opponent `o`, the correction reads two vectors of
//! [`HIDDEN`] numbers, the *accumulator*:
//! - `mover = Σ_p E[s][class_s(p)] + E[s][mask] + bias_m`,
//! - `waiter = Σ_p E[o][class_o(p)] + bias_w`,
//!
//! over the empty points `p`, where `E` are learned embeddings ([`RuleNet::embed`]) indexed
//! like the tables of `docs/training.md` §3 (canonical class, threat mask). A colour's
//! classes have one embedding whichever side is to move: the sum of the side to move feeds
//! the first half of the head's input and the other's the second, so the head's weights
//! tell the roles apart, and a move updates one sum a colour (half the work of an
//! embedding per role). Then
//! `a0 = clamp(mover ‖ waiter, 0, 1)`, `a1 = clamp(W1·a0 + b1, 0, 1)` ([`HIDDEN`] numbers)
//! and `correction = w2·a1 + b2` in logistic units, scaled to evaluation units. The
//! evaluation is the table evaluation plus the correction (a linear shortcut beside the
//! nonlinear head: a network whose output weights are zero is the table evaluation).
//!
//! Integers ([`EMBED_ONE`], [`ACT_ONE`], [`W1_ONE`], [`W2_ONE`] say the scales): embeddings
//! `i16`, the accumulator `i32` (no overflow: 484 points of at most 32 767 each),
//! activations `0..=127`, first-layer weights `i16` with `i32` sums (at most
//! 64 × 127 × 32 767, below 2^31), output weights `i16`. Every step is
//! exact integer arithmetic, so the scalar path and the one compiled for AVX2 ([`head`])
//! give the same result bit for bit.

pub mod file;

use super::features::{CANON_CODES, MASKS};
use crate::board::{Board, MAX_CHANGES};
use crate::core::{Color, Rule};
use once_cell::sync::OnceCell;

/// Width of each half of the accumulator and of the hidden layer.
pub const HIDDEN: usize = 32;
/// Width of the first layer's input: the mover's and the waiter's halves.
pub const INPUT: usize = 2 * HIDDEN;
/// Activation scale: 1.0 is `ACT_ONE` (the activations `0..=127`).
pub const ACT_ONE: i32 = 127;
/// Bits the embeddings and the accumulator have below the activation scale.
pub const EMBED_SHIFT: u32 = 6;
/// Embedding and accumulator scale: 1.0 is `EMBED_ONE`, so an `i16` embedding lies within
/// ±4.03 and a sum over many points keeps its precision.
pub const EMBED_ONE: i32 = ACT_ONE << EMBED_SHIFT;
/// Bits of the first-layer weights below 1.0.
pub const W1_SHIFT: u32 = 12;
/// First-layer weight scale: 1.0 is `W1_ONE`, so an `i16` weight lies within ±8.
pub const W1_ONE: i32 = 1 << W1_SHIFT;
/// Output weight scale: one evaluation unit per unit activation is `W2_ONE`.
pub const W2_ONE: i32 = 16;
/// Embedding rows of one colour group: the classes, then the threat masks.
pub const ROWS: usize = CANON_CODES + MASKS;
/// First row of the threat masks in a group (the classes' rows are `0..CANON_CODES`).
pub const MASK_ROW: usize = CANON_CODES;

/// The network of one rule, quantised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleNet {
    /// Colour groups: 2 when black and white have embeddings of their own (renju), else 1.
    pub groups: usize,
    /// `groups × ROWS` rows of [`HIDDEN`] values, row `g * ROWS + r` at `HIDDEN * (g * ROWS + r)`.
    pub embed: Vec<i16>,
    /// The accumulator's bias (mover half, then waiter half), at [`EMBED_ONE`].
    pub bias0: [i32; INPUT],
    /// First-layer weights, [`HIDDEN`] rows of [`INPUT`] (output-major).
    pub w1: Vec<i16>,
    /// First-layer bias, in units of `ACT_ONE * W1_ONE`.
    pub b1: [i32; HIDDEN],
    /// Output weights, evaluation units per unit activation times [`W2_ONE`].
    pub w2: [i16; HIDDEN],
    /// Output bias, in units of `ACT_ONE * W2_ONE` per evaluation unit.
    pub b2: i32,
}

/// The accumulator sums of one position, per colour: the sum of the colour's class
/// embeddings over the empty points (biases and mask left out).
pub type Sums = [[i32; HIDDEN]; 2];

/// The embedding rows one move takes out of and puts into each colour's sum: the point
/// played leaves (its rows out), each other point the move changed moves from its old
/// class's row to its new one's, for each colour whose class there changed. Filled by
/// the evaluator as it walks the move's changes, applied only when an evaluation needs the
/// sums ([`RuleNet::apply`], docs/network.md §3).
#[derive(Clone, Copy, Debug)]
pub struct Delta {
    /// Per colour index: rows taken out (`len[c][0]` of them).
    out: [[u16; MAX_CHANGES]; 2],
    /// Per colour index: rows put in (`len[c][1]` of them).
    into: [[u16; MAX_CHANGES]; 2],
    len: [[u8; 2]; 2],
}

/// Fills a [`Delta`] with the counts kept aside (in registers while a move's changes are
/// walked), written into the record when the writer is dropped.
pub struct DeltaWriter<'a> {
    d: &'a mut Delta,
    len: [[u8; 2]; 2],
}

impl DeltaWriter<'_> {
    /// One point of colour index `ci` (0 black, 1 white) moves from class `old` to class
    /// `new` (a class from `CANON_CODES` on has no row: nothing to take out or put in). At
    /// most [`MAX_CHANGES`] calls a move and colour (one a changed point): more panics.
    #[inline(always)]
    pub fn change(&mut self, ci: usize, old: u16, new: u16) {
        self.take_out(ci, old);
        if (new as usize) < CANON_CODES {
            let n = &mut self.len[ci][1];
            self.d.into[ci][*n as usize] = new;
            *n += 1;
        }
    }

    /// The point played leaves colour index `ci`'s sum: its row for class `old` out.
    #[inline(always)]
    pub fn take_out(&mut self, ci: usize, old: u16) {
        if (old as usize) < CANON_CODES {
            let n = &mut self.len[ci][0];
            self.d.out[ci][*n as usize] = old;
            *n += 1;
        }
    }
}

impl Drop for DeltaWriter<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.d.len = self.len;
    }
}

impl Delta {
    /// No change.
    pub const NONE: Delta = Delta {
        out: [[0; MAX_CHANGES]; 2],
        into: [[0; MAX_CHANGES]; 2],
        len: [[0; 2]; 2],
    };

    /// A writer that fills this record anew (a new move): the record holds what was
    /// written once the writer is dropped.
    #[inline(always)]
    pub fn writer(&mut self) -> DeltaWriter<'_> {
        DeltaWriter {
            d: self,
            len: [[0; 2]; 2],
        }
    }

    /// The rows colour index `ci`'s sum loses.
    #[inline(always)]
    pub fn taken_out(&self, ci: usize) -> &[u16] {
        &self.out[ci][..self.len[ci][0] as usize]
    }

    /// The rows colour index `ci`'s sum gains.
    #[inline(always)]
    pub fn put_in(&self, ci: usize) -> &[u16] {
        &self.into[ci][..self.len[ci][1] as usize]
    }
}

impl RuleNet {
    /// A network with every weight zero: its correction is 0 (the table evaluation).
    pub fn zero(groups: usize) -> RuleNet {
        RuleNet {
            groups,
            embed: vec![0; groups * ROWS * HIDDEN],
            bias0: [0; INPUT],
            w1: vec![0; HIDDEN * INPUT],
            b1: [0; HIDDEN],
            w2: [0; HIDDEN],
            b2: 0,
        }
    }

    /// A network with random weights of the sizes training reaches (embeddings within
    /// ±1/4, every `i8` and `i16` range used), the same for the same `seed`: for
    /// tests and benchmarks of the arithmetic, not for play.
    pub fn random(groups: usize, seed: u64) -> RuleNet {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut n = RuleNet::zero(groups);
        let e = (EMBED_ONE / 4) as i16;
        n.embed.iter_mut().for_each(|v| *v = rng.gen_range(-e..=e));
        n.bias0
            .iter_mut()
            .for_each(|v| *v = rng.gen_range(-2 * EMBED_ONE..=2 * EMBED_ONE));
        n.w1.iter_mut()
            .for_each(|v| *v = rng.gen_range(-W1_ONE..=W1_ONE) as i16);
        n.b1.iter_mut()
            .for_each(|v| *v = rng.gen_range(-20_000..=20_000));
        n.w2.iter_mut()
            .for_each(|v| *v = rng.gen_range(-4000..=4000));
        n.b2 = rng.gen_range(-100_000..=100_000);
        n
    }

    /// Memory the network's weights hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.embed.len() * 2 + self.w1.len() * 2 + (INPUT + HIDDEN + 1) * 4 + HIDDEN * 2
    }

    /// The colour group of colour `c`.
    #[inline]
    pub fn group(&self, c: Color) -> usize {
        if self.groups == 2 {
            c.index()
        } else {
            0
        }
    }

    /// Embedding row `row` (below [`ROWS`]) of colour `c`'s group.
    #[inline]
    pub fn row(&self, c: Color, row: usize) -> &[i16; HIDDEN] {
        let at = (self.group(c) * ROWS + row) * HIDDEN;
        self.embed[at..at + HIDDEN]
            .try_into()
            .expect("HIDDEN values")
    }

    /// Adds the embedding of one empty point whose class for colour `c` is `class` to `c`'s
    /// sum (nothing for a class from `CANON_CODES` on: such a point has no row).
    #[inline]
    pub fn add(&self, sums: &mut Sums, c: Color, class: u16) {
        if (class as usize) < CANON_CODES {
            let r = self.row(c, class as usize);
            for i in 0..HIDDEN {
                sums[c.index()][i] += r[i] as i32;
            }
        }
    }

    /// The sums one move after `from`, the move's rows taken out and put in as `delta`
    /// lists them (docs/network.md §3). The AVX2 build where the processor has it (the same
    /// integer additions).
    #[inline]
    pub fn apply(&self, from: &Sums, delta: &Delta) -> Sums {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                // SAFETY: the processor supports AVX2 (checked at run time).
                return unsafe { self.apply_avx2(from, delta) };
            }
        }
        self.apply_body(from, delta)
    }

    /// [`RuleNet::apply`] compiled for AVX2.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2(&self, from: &Sums, delta: &Delta) -> Sums {
        self.apply_body(from, delta)
    }

    #[inline(always)]
    fn apply_body(&self, from: &Sums, delta: &Delta) -> Sums {
        let mut next = *from;
        for (ci, c) in [(0, Color::Black), (1, Color::White)] {
            // A local copy: it cannot alias the embeddings, so the compiler keeps it in
            // vector registers over the whole list (updating the sums in place through a
            // reference compiled to one lane at a time, docs/network.md §8).
            let mut acc = from[ci];
            for &r in delta.taken_out(ci) {
                let row = self.row(c, r as usize);
                for i in 0..HIDDEN {
                    acc[i] -= row[i] as i32;
                }
            }
            for &r in delta.put_in(ci) {
                let row = self.row(c, r as usize);
                for i in 0..HIDDEN {
                    acc[i] += row[i] as i32;
                }
            }
            next[ci] = acc;
        }
        next
    }

    /// The sums of `board` from scratch (O(points)).
    pub fn sums(&self, board: &Board) -> Sums {
        let mut sums = [[0; HIDDEN]; 2];
        for p in board.empty_points() {
            for c in [Color::Black, Color::White] {
                self.add(&mut sums, c, board.class(c, p));
            }
        }
        sums
    }

    /// The correction for `side` to move (evaluation units) from the sums and the threat
    /// mask (below [`MASKS`]).
    #[inline]
    pub fn correction(&self, sums: &Sums, side: Color, mask: usize) -> i32 {
        let (s, o) = (side.index(), side.opponent().index());
        let m = self.row(side, MASK_ROW + (mask & (MASKS - 1)));
        let mut input = [0i32; INPUT];
        for i in 0..HIDDEN {
            input[i] = sums[s][i] + m[i] as i32 + self.bias0[i];
            input[HIDDEN + i] = sums[o][i] + self.bias0[HIDDEN + i];
        }
        head(self, &input)
    }
}

/// The head from the accumulator (biases included), evaluation units: the AVX2 build of
/// [`head_body`] where the processor has it, else the portable one.
#[inline]
pub fn head(net: &RuleNet, input: &[i32; INPUT]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            // SAFETY: the processor supports AVX2 (checked at run time).
            return unsafe { head_avx2(net, input) };
        }
    }
    head_body(net, input)
}

/// The portable head (the reference the AVX2 build must equal).
pub fn head_scalar(net: &RuleNet, input: &[i32; INPUT]) -> i32 {
    head_body(net, input)
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: OnceCell<bool> = OnceCell::new();
    *AVX2.get_or_init(|| std::is_x86_feature_detected!("avx2"))
}

/// The head with AVX2 instructions (the same integer arithmetic as [`head_scalar`], in
/// another order: sums of integers, exact, so the result is the same bit for bit). Each
/// hidden unit's row of weights meets the activations in 16-lane multiply-adds, and the
/// partial sums of eight units are added across lanes together (docs/network.md §3).
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn head_avx2(net: &RuleNet, input: &[i32; INPUT]) -> i32 {
    use std::arch::x86_64::*;
    const { assert!(HIDDEN.is_multiple_of(8) && INPUT.is_multiple_of(16)) };
    let mut a0 = [0i16; INPUT];
    for (a, &x) in a0.iter_mut().zip(input) {
        *a = (x >> EMBED_SHIFT).clamp(0, ACT_ONE) as i16;
    }
    // SAFETY (loads and stores below): every pointer is within its array, 16 or 8 lanes
    // at a multiple of 16 or 8 (the sizes asserted above); unaligned loads and stores.
    let mut a = [_mm256_setzero_si256(); INPUT / 16];
    for (k, v) in a.iter_mut().enumerate() {
        *v = _mm256_loadu_si256(a0.as_ptr().add(16 * k) as *const __m256i);
    }
    let mut z = [0i32; HIDDEN];
    for g in 0..HIDDEN / 8 {
        let mut v = [_mm256_setzero_si256(); 8];
        for (r, vr) in v.iter_mut().enumerate() {
            let w = net.w1[(8 * g + r) * INPUT..][..INPUT].as_ptr();
            for (k, ak) in a.iter().enumerate() {
                let wk = _mm256_loadu_si256(w.add(16 * k) as *const __m256i);
                *vr = _mm256_add_epi32(*vr, _mm256_madd_epi16(*ak, wk));
            }
        }
        // Eight vectors of partial sums into one vector of the eight units' sums (unit
        // 8g + r in lane r): pairwise additions within 128-bit halves, then the halves.
        let s01 = _mm256_hadd_epi32(v[0], v[1]);
        let s23 = _mm256_hadd_epi32(v[2], v[3]);
        let s45 = _mm256_hadd_epi32(v[4], v[5]);
        let s67 = _mm256_hadd_epi32(v[6], v[7]);
        let t0 = _mm256_hadd_epi32(s01, s23);
        let t1 = _mm256_hadd_epi32(s45, s67);
        let sum = _mm256_add_epi32(
            _mm256_permute2x128_si256::<0x20>(t0, t1),
            _mm256_permute2x128_si256::<0x31>(t0, t1),
        );
        _mm256_storeu_si256(z.as_mut_ptr().add(8 * g) as *mut __m256i, sum);
    }
    let mut out = net.b2;
    for ((&zj, &b), &w) in z.iter().zip(&net.b1).zip(&net.w2) {
        let a1 = ((zj + b) >> W1_SHIFT).clamp(0, ACT_ONE);
        out += a1 * w as i32;
    }
    out / (ACT_ONE * W2_ONE)
}

/// The head's arithmetic, written as fixed-length lane loops for the compiler to vectorise.
#[inline(always)]
fn head_body(net: &RuleNet, input: &[i32; INPUT]) -> i32 {
    let mut a0 = [0i32; INPUT];
    for (a, &x) in a0.iter_mut().zip(input) {
        *a = (x >> EMBED_SHIFT).clamp(0, ACT_ONE);
    }
    let mut out = net.b2;
    for j in 0..HIDDEN {
        let w: &[i16; INPUT] = net.w1[j * INPUT..(j + 1) * INPUT]
            .try_into()
            .expect("INPUT weights");
        let mut z = 0i32;
        for (&a, &wi) in a0.iter().zip(w) {
            z += a * wi as i32;
        }
        // z is in units of ACT_ONE * W1_ONE; the shift brings it back to ACT_ONE.
        let a1 = ((z + net.b1[j]) >> W1_SHIFT).clamp(0, ACT_ONE);
        out += a1 * net.w2[j] as i32;
    }
    out / (ACT_ONE * W2_ONE)
}

/// A set of networks: one per rule at most (a rule without one is evaluated by the tables
/// alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The networks' own version (which training run made them).
    pub version: u32,
    /// Indexed by [`Rule::index`].
    pub rules: Vec<Option<RuleNet>>,
}

impl Network {
    /// No network for any rule.
    pub fn empty(version: u32) -> Network {
        Network {
            version,
            rules: vec![None; Rule::ALL.len()],
        }
    }
}

/// The networks compiled into the binary (`weights/tianyuan.tyn`, docs/network.md §3): the
/// default evaluation of the rules they cover; the other rules are evaluated by the tables
/// alone.
pub static DEFAULT_NETWORK: &[u8] = include_bytes!("../../../weights/tianyuan.tyn");

static ACTIVE: OnceCell<Network> = OnceCell::new();

/// Makes `n` the networks of this process in place of the built-in ones (`--network FILE`,
/// or [`Network::empty`] for `--eval tables`). Must be called before the first evaluation.
///
/// Errors: the networks were already fixed (returns `n` back).
pub fn install(n: Network) -> Result<(), Network> {
    ACTIVE.set(n)
}

/// The networks in use: those installed, else the built-in ones.
fn active() -> &'static Network {
    ACTIVE.get_or_init(|| {
        Network::from_bytes(DEFAULT_NETWORK).expect("the built-in network file is valid")
    })
}

/// Memory the networks in use hold, in bytes (0 when the tables evaluate alone): the engine
/// counts it against `max_memory` beside its other fixed memory.
pub fn installed_bytes() -> usize {
    active().rules.iter().flatten().map(RuleNet::bytes).sum()
}

/// The network of `rule` in use, if there is one.
pub fn of_rule(rule: Rule) -> Option<&'static RuleNet> {
    active().rules[rule.index()].as_ref()
}

#[cfg(test)]
mod tests;
