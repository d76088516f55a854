//! The losses the tuner minimises and its optimiser: the evaluation's cross-entropy against
//! results and scores, the move-ordering loss, the L2 pull towards the prior, and L-BFGS.

use super::*;

/// The L2 penalty `l2 * (x[i] - anchor[i])^2` summed over the parameters `fitted(i)`, its
/// gradient added to `grad`; the gradient of every other parameter is zeroed so that the
/// optimiser leaves it as it is.
pub(super) fn l2_pull(
    x: &[f64],
    grad: &mut [f64],
    anchor: &[f64],
    l2: f64,
    fitted: impl Fn(usize) -> bool,
) -> f64 {
    let mut penalty = 0.0;
    for i in 0..x.len() {
        if fitted(i) {
            let d = x[i] - anchor[i];
            penalty += l2 * d * d;
            grad[i] += 2.0 * l2 * d;
        } else {
            grad[i] = 0.0;
        }
    }
    penalty
}

/// Minimises `f` (which returns the value and writes the gradient) from `x` by L-BFGS
/// (memory 10, backtracking line search with the Armijo condition) for at most `iters`
/// iterations; `log` gets the value after each.
pub(super) fn lbfgs(
    x: &mut [f64],
    iters: usize,
    f: &mut dyn FnMut(&[f64], &mut Vec<f64>) -> f64,
    log: &mut dyn FnMut(usize, f64, &[f64]),
) {
    const MEMORY: usize = 10;
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
    let n = x.len();
    let mut g = vec![0.0; n];
    let mut fx = f(x, &mut g);
    let mut hist: std::collections::VecDeque<(Vec<f64>, Vec<f64>, f64)> = Default::default();
    let mut xn = vec![0.0; n];
    let mut gn = vec![0.0; n];
    for it in 1..=iters {
        let mut q = g.clone();
        let mut alphas = Vec::with_capacity(hist.len());
        for (s, y, rho) in hist.iter().rev() {
            let a = rho * dot(s, &q);
            for i in 0..n {
                q[i] -= a * y[i];
            }
            alphas.push(a);
        }
        let gamma = match hist.back() {
            Some((s, y, _)) => dot(s, y) / dot(y, y).max(1e-300),
            None => 1.0 / dot(&g, &g).sqrt().max(1e-12),
        };
        for v in q.iter_mut() {
            *v *= gamma;
        }
        for ((s, y, rho), a) in hist.iter().zip(alphas.iter().rev()) {
            let b = rho * dot(y, &q);
            for i in 0..n {
                q[i] += s[i] * (a - b);
            }
        }
        let mut d: Vec<f64> = q.iter().map(|v| -v).collect();
        let mut gd = dot(&g, &d);
        if gd >= 0.0 {
            hist.clear();
            let k = 1.0 / dot(&g, &g).sqrt().max(1e-12);
            d = g.iter().map(|v| -v * k).collect();
            gd = dot(&g, &d);
        }
        let mut t = 1.0;
        let fnew = loop {
            for i in 0..n {
                xn[i] = x[i] + t * d[i];
            }
            let v = f(&xn, &mut gn);
            if v <= fx + 1e-4 * t * gd {
                break Some(v);
            }
            t *= 0.5;
            if t < 1e-12 {
                break None;
            }
        };
        let Some(fnew) = fnew else {
            if hist.is_empty() {
                break;
            }
            // Start again from steepest descent.
            hist.clear();
            continue;
        };
        let s: Vec<f64> = (0..n).map(|i| xn[i] - x[i]).collect();
        let y: Vec<f64> = (0..n).map(|i| gn[i] - g[i]).collect();
        let sy = dot(&s, &y);
        if sy > 1e-300 {
            if hist.len() == MEMORY {
                hist.pop_front();
            }
            hist.push_back((s, y, 1.0 / sy));
        }
        x.copy_from_slice(&xn);
        g.copy_from_slice(&gn);
        let improved = fx - fnew;
        fx = fnew;
        log(it, fx, x);
        if improved.abs() < 1e-12 && hist.len() > 1 {
            break;
        }
    }
}

pub(super) use crate::train::target::{bce, sigmoid};

/// The evaluation of a sample under `theta`: the sum of its features' weights times their
/// counts, in evaluation units.
pub(super) fn linear_eval(s: &EvalSample, theta: &[f64]) -> f64 {
    s.feats
        .iter()
        .map(|&(i, c)| theta[i as usize] * c as f64)
        .sum()
}

/// Mean evaluation loss of `samples` under `theta`, and optionally its gradient.
pub(super) fn eval_loss(
    samples: &[&EvalSample],
    theta: &[f64],
    grad: Option<&mut Vec<f64>>,
) -> f64 {
    let want = grad.is_some();
    mean_loss(samples, 2048, theta.len(), grad, |chunk, g| {
        let mut loss = 0.0;
        for s in chunk {
            let p = sigmoid(linear_eval(s, theta) / EVAL_SCALE);
            let y = s.label.target as f64;
            loss += bce(p, y);
            if want {
                let d = (p - y) / EVAL_SCALE;
                for &(i, c) in &s.feats {
                    g[i as usize] += d * c as f64;
                }
            }
        }
        loss
    })
}

/// Mean move-ordering loss of `samples` under `theta`, and optionally its gradient.
pub(super) fn order_loss(
    samples: &[&OrderSample],
    theta: &[f64],
    grad: Option<&mut Vec<f64>>,
) -> f64 {
    let want = grad.is_some();
    mean_loss(samples, 1024, theta.len(), grad, |chunk, g| {
        let mut loss = 0.0;
        let mut z = Vec::new();
        for s in chunk {
            z.clear();
            z.extend(
                s.cands
                    .iter()
                    .map(|&(a, d)| (theta[a as usize] + theta[d as usize]) / ORDER_TEMPERATURE),
            );
            let mx = z.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = z.iter().map(|v| (v - mx).exp()).sum();
            let lse = mx + sum.ln();
            loss += lse - z[s.played as usize];
            if want {
                for (k, &(a, d)) in s.cands.iter().enumerate() {
                    let mut dz = (z[k] - lse).exp();
                    if k == s.played as usize {
                        dz -= 1.0;
                    }
                    let dz = dz / ORDER_TEMPERATURE;
                    g[a as usize] += dz;
                    g[d as usize] += dz;
                }
            }
        }
        loss
    })
}

/// Most blocks a loss is split into for the parallel sum ([`mean_loss`]).
const MAX_BLOCKS: usize = 64;

/// The mean loss over `samples`, computed in parallel blocks of at least `chunk` samples
/// (at most [`MAX_BLOCKS`] blocks): `per_chunk(block, g)` returns the block's summed loss and
/// adds its summed gradient to `g` (`n` parameters; empty when no gradient is wanted). With
/// `grad`, the mean gradient is written there.
///
/// The blocks depend only on `samples.len()` and their results are added in block order,
/// so the result is the same to the last bit whatever the number of threads or the order in
/// which they finish (docs/training.md §5: a fit is repeatable).
fn mean_loss<S: Sync>(
    samples: &[S],
    chunk: usize,
    n: usize,
    grad: Option<&mut Vec<f64>>,
    per_chunk: impl Fn(&[S], &mut Vec<f64>) -> f64 + Sync + Send,
) -> f64 {
    let want = grad.is_some();
    let block = chunk.max(samples.len().div_ceil(MAX_BLOCKS)).max(1);
    let parts: Vec<(f64, Vec<f64>)> = samples
        .par_chunks(block)
        .map(|c| {
            let mut g = if want { vec![0.0; n] } else { Vec::new() };
            let loss = per_chunk(c, &mut g);
            (loss, g)
        })
        .collect();
    let mut loss = 0.0;
    let mut g = if want { vec![0.0; n] } else { Vec::new() };
    for (l, pg) in &parts {
        loss += l;
        for (x, y) in g.iter_mut().zip(pg) {
            *x += y;
        }
    }
    let m = samples.len().max(1) as f64;
    if let Some(out) = grad {
        *out = g.into_iter().map(|x| x / m).collect();
    }
    loss / m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parallel sum gives the same bits with one thread and with several.
    #[test]
    fn mean_loss_is_the_same_whatever_the_thread_count() {
        // Values of very different magnitudes, so that a different order of additions
        // would change the rounding.
        let samples: Vec<f64> = (0..50_000u64)
            .map(|i| {
                let x = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 11) as f64 / (1u64 << 53) as f64;
                x * 10f64.powi((i % 17) as i32 - 8)
            })
            .collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut g = Vec::new();
                let loss = mean_loss(&samples, 16, 3, Some(&mut g), |c, g| {
                    for (k, &x) in c.iter().enumerate() {
                        g[k % 3] += x * (k as f64 + 0.5);
                    }
                    c.iter().map(|x| x * 1.000_000_1).sum()
                });
                (
                    loss.to_bits(),
                    g.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                )
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(4));
        // And it is the mean: the per-block sums agree with a plain sum to rounding.
        let plain: f64 = samples.iter().map(|x| x * 1.000_000_1).sum::<f64>() / 50_000.0;
        assert!((f64::from_bits(one.0) - plain).abs() <= plain.abs() * 1e-12);
    }
}
