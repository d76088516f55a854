//! The network in floating point for training: forward pass, hand-written gradients, Adam,
//! and the quantisation into the integer network the engine runs
//! ([`crate::eval::network`], docs/network.md §2-§4).

use crate::eval::network::{RuleNet, ACT_ONE, EMBED_ONE, HIDDEN, INPUT, ROWS, W1_ONE, W2_ONE};
use crate::eval::EVAL_SCALE;
use rand::{Rng, SeedableRng};

/// One training position: its features, the table evaluation and the target.
pub struct NetSample {
    /// Embedding rows (`group * ROWS + row`) with their counts: the side to move's half
    /// (its classes and the threat mask) first, then from `split` on the opponent's.
    pub feats: Vec<(u16, u16)>,
    /// Where the waiter's rows start in `feats`.
    pub split: u16,
    /// The table evaluation, evaluation units.
    pub base: i32,
    /// The result, the recorded score and the blended target.
    pub label: crate::train::target::Label,
}

impl crate::train::target::Labelled for NetSample {
    fn label(&mut self) -> &mut crate::train::target::Label {
        &mut self.label
    }
}

/// Largest first-layer weight an `i16` holds at [`W1_ONE`].
const W1_MAX: f32 = 32767.0 / W1_ONE as f32;
/// Largest output weight (logistic units per unit activation) an `i16` holds.
const W2_MAX: f32 = 32767.0 / (W2_ONE as f32 * EVAL_SCALE as f32);
/// Largest embedding an `i16` holds at [`EMBED_ONE`].
const EMBED_MAX: f32 = 32767.0 / EMBED_ONE as f32;

/// The network's parameters in floating point. Units: embeddings and `bias0` in
/// activations (1.0 saturates), `w2` and `b2` in logistic units.
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// Colour groups (2: black and white apart).
    pub groups: usize,
    /// `groups * ROWS` rows of [`HIDDEN`].
    pub embed: Vec<f32>,
    /// Accumulator bias, mover half then waiter half.
    pub bias0: Vec<f32>,
    /// First layer, [`HIDDEN`] rows of [`INPUT`].
    pub w1: Vec<f32>,
    /// First-layer bias.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
}

/// The intermediate values of one forward pass (for the backward pass).
pub struct Pass {
    /// Accumulator with bias, before clamping.
    pub acc: [f32; INPUT],
    /// First layer before clamping.
    pub z1: [f32; HIDDEN],
    /// The correction, logistic units.
    pub out: f32,
}

impl FloatNet {
    /// A new network whose correction is zero (output weights zero), the rest random from
    /// `seed`. `row_scale[r]` is the typical count of row `r` in a position (at least 1): a
    /// row's initial embeddings are drawn within ±0.1 / that count, so that no accumulator
    /// starts far outside the clamp's range.
    pub fn new(groups: usize, row_scale: &[f32], seed: u64) -> FloatNet {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut embed = vec![0.0; groups * ROWS * HIDDEN];
        for (r, row) in embed.chunks_exact_mut(HIDDEN).enumerate() {
            let a = 0.1 / row_scale[r].max(1.0);
            row.iter_mut().for_each(|v| *v = rng.gen_range(-a..=a));
        }
        let a1 = 1.0 / (INPUT as f32).sqrt();
        FloatNet {
            groups,
            embed,
            bias0: vec![0.5; INPUT],
            w1: (0..HIDDEN * INPUT)
                .map(|_| rng.gen_range(-a1..=a1))
                .collect(),
            b1: vec![0.5; HIDDEN],
            w2: vec![0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// The forward pass of `s`.
    pub fn forward(&self, s: &NetSample) -> Pass {
        let mut acc = [0f32; INPUT];
        acc.copy_from_slice(&self.bias0);
        for (k, &(row, count)) in s.feats.iter().enumerate() {
            let half = if k < s.split as usize { 0 } else { HIDDEN };
            let e = &self.embed[row as usize * HIDDEN..][..HIDDEN];
            for (a, &v) in acc[half..half + HIDDEN].iter_mut().zip(e) {
                *a += count as f32 * v;
            }
        }
        let mut z1 = [0f32; HIDDEN];
        let mut out = self.b2;
        for (j, z1j) in z1.iter_mut().enumerate() {
            let w = &self.w1[j * INPUT..][..INPUT];
            let z: f32 = acc
                .iter()
                .zip(w)
                .map(|(&a, &w)| a.clamp(0.0, 1.0) * w)
                .sum();
            *z1j = z + self.b1[j];
            out += z1j.clamp(0.0, 1.0) * self.w2[j];
        }
        Pass { acc, z1, out }
    }

    /// Adds to `g` the gradient of the loss for `s` (whose forward pass is `p`) scaled by
    /// `d`, the loss's derivative with respect to the output.
    pub fn backward(&self, s: &NetSample, p: &Pass, d: f32, g: &mut Grad) {
        let inside = |x: f32| x > 0.0 && x < 1.0;
        g.b2 += d;
        let mut dacc = [0f32; INPUT];
        for j in 0..HIDDEN {
            g.w2[j] += d * p.z1[j].clamp(0.0, 1.0);
            if !inside(p.z1[j]) {
                continue;
            }
            let dz = d * self.w2[j];
            g.b1[j] += dz;
            let w = &self.w1[j * INPUT..][..INPUT];
            let gw = &mut g.w1[j * INPUT..][..INPUT];
            for i in 0..INPUT {
                gw[i] += dz * p.acc[i].clamp(0.0, 1.0);
                dacc[i] += dz * w[i];
            }
        }
        for ((da, &a), gb) in dacc.iter_mut().zip(&p.acc).zip(&mut g.bias0) {
            if !inside(a) {
                *da = 0.0;
            }
            *gb += *da;
        }
        for (k, &(row, count)) in s.feats.iter().enumerate() {
            let half = if k < s.split as usize { 0 } else { HIDDEN };
            let e = g.row(row as usize);
            for (v, &da) in e.iter_mut().zip(&dacc[half..half + HIDDEN]) {
                *v += count as f32 * da;
            }
        }
    }

    /// The integer network the engine runs. The engine's activations cut the low bits off
    /// (a shift, rounding down); half a step added to the biases makes them round to the
    /// nearest instead.
    pub fn quantise(&self) -> RuleNet {
        let q = |v: f32, scale: f32, lim: f32| (v * scale).round().clamp(-lim, lim);
        let mut n = RuleNet::zero(self.groups);
        let (embed, act) = (EMBED_ONE as f32, ACT_ONE as f32);
        for (d, &v) in n.embed.iter_mut().zip(&self.embed) {
            *d = q(v, embed, 32767.0) as i16;
        }
        let half_act = 1 << (crate::eval::network::EMBED_SHIFT - 1);
        for (d, &v) in n.bias0.iter_mut().zip(&self.bias0) {
            *d = q(v, embed, 1e9) as i32 + half_act;
        }
        for (d, &v) in n.w1.iter_mut().zip(&self.w1) {
            *d = q(v, W1_ONE as f32, 32767.0) as i16;
        }
        for (d, &v) in n.b1.iter_mut().zip(&self.b1) {
            *d = q(v, act * W1_ONE as f32, 1e9) as i32 + W1_ONE / 2;
        }
        let out = EVAL_SCALE as f32 * W2_ONE as f32;
        for (d, &v) in n.w2.iter_mut().zip(&self.w2) {
            *d = q(v, out, 32767.0) as i16;
        }
        n.b2 = q(self.b2, out * act, 1e9) as i32;
        n
    }
}

/// A gradient: the embeddings sparse (only the rows a batch touched), the rest dense.
pub struct Grad {
    slot: Vec<u32>,
    /// The rows touched, in the order first touched.
    pub rows: Vec<u32>,
    vals: Vec<[f32; HIDDEN]>,
    bias0: Vec<f32>,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Grad {
    /// A zero gradient for a network of `groups` colour groups.
    pub fn new(groups: usize) -> Grad {
        Grad {
            slot: vec![u32::MAX; groups * ROWS],
            rows: Vec::new(),
            vals: Vec::new(),
            bias0: vec![0.0; INPUT],
            w1: vec![0.0; HIDDEN * INPUT],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// The gradient of embedding row `r`, zero when first touched.
    fn row(&mut self, r: usize) -> &mut [f32; HIDDEN] {
        if self.slot[r] == u32::MAX {
            self.slot[r] = self.rows.len() as u32;
            self.rows.push(r as u32);
            self.vals.push([0.0; HIDDEN]);
        }
        &mut self.vals[self.slot[r] as usize]
    }

    /// The gradient of embedding row `r` (tests).
    #[cfg(test)]
    pub fn row_for_test(&mut self, r: usize) -> &[f32; HIDDEN] {
        self.row(r)
    }

    /// The dense gradients `bias0`, `w1`, `w2` (tests).
    #[cfg(test)]
    pub fn dense_for_test(&self) -> (&[f32], &[f32], &[f32]) {
        (&self.bias0, &self.w1, &self.w2)
    }

    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Grad) {
        for (&r, v) in other.rows.iter().zip(&other.vals) {
            let e = self.row(r as usize);
            e.iter_mut().zip(v).for_each(|(a, b)| *a += b);
        }
        let pairs = [
            (&mut self.bias0, &other.bias0),
            (&mut self.w1, &other.w1),
            (&mut self.b1, &other.b1),
            (&mut self.w2, &other.w2),
        ];
        for (a, b) in pairs {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        self.b2 += other.b2;
    }

    /// Back to zero.
    pub fn clear(&mut self) {
        for &r in &self.rows {
            self.slot[r as usize] = u32::MAX;
        }
        self.rows.clear();
        self.vals.clear();
        for v in [&mut self.bias0, &mut self.w1, &mut self.b1, &mut self.w2] {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
        self.b2 = 0.0;
    }
}

/// Adam (Kingma and Ba 2014: β1 0.9, β2 0.999, ε 1e-8), its moments kept for every
/// parameter; the embeddings' moments move only on the rows a batch touched (the lazy
/// variant for sparse gradients). Weight decay is decoupled from the gradient (AdamW,
/// Loshchilov and Hutter 2017): every step shrinks the embeddings a batch touched and the
/// first layer's weights by `lr * decay` of their value.
pub struct Adam {
    lr: f32,
    decay: f32,
    step: i32,
    m: FloatNet,
    v: FloatNet,
}

impl Adam {
    /// An optimiser with learning rate `lr` and weight decay `decay` for `net`.
    pub fn new(net: &FloatNet, lr: f32, decay: f32) -> Adam {
        let mut zero = net.clone();
        for v in [
            &mut zero.embed,
            &mut zero.bias0,
            &mut zero.w1,
            &mut zero.b1,
            &mut zero.w2,
        ] {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
        zero.b2 = 0.0;
        Adam {
            lr,
            decay,
            step: 0,
            m: zero.clone(),
            v: zero,
        }
    }

    /// One step along the gradient `g` (of the mean loss), then the weights clipped to the
    /// ranges their integer forms hold.
    pub fn step(&mut self, net: &mut FloatNet, g: &Grad) {
        self.step += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let lr = self.lr * (1.0 - b2.powi(self.step)).sqrt() / (1.0 - b1.powi(self.step));
        let shrink = 1.0 - self.lr * self.decay;
        let update = |w: &mut f32, m: &mut f32, v: &mut f32, g: f32, lim: f32, keep: f32| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w = (*w * keep - lr * *m / (v.sqrt() + 1e-8)).clamp(-lim, lim);
        };
        for (&r, gv) in g.rows.iter().zip(&g.vals) {
            let at = r as usize * HIDDEN;
            for (k, &gk) in gv.iter().enumerate() {
                let (m, v) = (&mut self.m.embed[at + k], &mut self.v.embed[at + k]);
                update(&mut net.embed[at + k], m, v, gk, EMBED_MAX, shrink);
            }
        }
        let dense = [
            (
                &mut net.bias0,
                &mut self.m.bias0,
                &mut self.v.bias0,
                &g.bias0,
                EMBED_MAX,
                1.0,
            ),
            (
                &mut net.w1,
                &mut self.m.w1,
                &mut self.v.w1,
                &g.w1,
                W1_MAX,
                shrink,
            ),
            (&mut net.b1, &mut self.m.b1, &mut self.v.b1, &g.b1, 1e6, 1.0),
            (
                &mut net.w2,
                &mut self.m.w2,
                &mut self.v.w2,
                &g.w2,
                W2_MAX,
                1.0,
            ),
        ];
        for (w, m, v, g, lim, keep) in dense {
            for i in 0..w.len() {
                update(&mut w[i], &mut m[i], &mut v[i], g[i], lim, keep);
            }
        }
        update(&mut net.b2, &mut self.m.b2, &mut self.v.b2, g.b2, 1e6, 1.0);
    }
}
