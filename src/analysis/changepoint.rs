//! Change points in a series of results (one benchmark across builds or days): E-divisive
//! means (Matteson and James, "A Nonparametric Approach for Multiple Change Point Analysis of
//! Multivariate Data", JASA 2014), as MongoDB's performance CI uses it (Daly et al., ICPE
//! 2020). The series is split where the energy distance between the two sides, weighted by
//! their sizes, is largest; a permutation test says whether that split is more than the
//! noise would give; the pieces are split again, best split first, until no split passes.
//! It assumes nothing about the noise's distribution (this machine's is skewed, with
//! outliers); with α = 1 a lone outlier weighs in proportion to its distance, not its
//! square. Each change is then measured as the ratio of the means of the segments on either
//! side, with Welch's interval on their logarithms.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;

/// What the detection takes.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// A split is a change when fewer than this share of the permuted series split better.
    pub significance: f64,
    /// Permutations per test.
    pub permutations: usize,
    /// The fewest points a segment may hold.
    pub min_size: usize,
    /// The permutations' seed (the same series gives the same answer).
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            significance: 0.05,
            permutations: 199,
            min_size: 3,
            seed: 0x7862_656e_6368,
        }
    }
}

/// One change point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// The index of the first point after the change.
    pub index: usize,
    /// The permutation test's p-value of the split that found it.
    pub p_value: f64,
    /// Mean of the segment before and of the segment after.
    pub before: f64,
    /// See `before`.
    pub after: f64,
    /// after / before − 1, %.
    pub step_pct: f64,
    /// Its 95 % interval, % (Welch on the logarithms of the two segments; None when a
    /// segment has fewer than two points or a value is not positive).
    pub interval_pct: Option<(f64, f64)>,
}

/// The change points of `series`, in order.
pub fn changes(series: &[f64], o: &Options) -> Vec<Change> {
    let n = series.len();
    if n < 2 * o.min_size.max(1) {
        return Vec::new();
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(o.seed);
    let mut cuts: Vec<(usize, f64)> = Vec::new();
    // Segments still open to a split, as [start, end).
    loop {
        let mut bounds: Vec<usize> = std::iter::once(0)
            .chain(cuts.iter().map(|c| c.0))
            .chain(std::iter::once(n))
            .collect();
        bounds.sort_unstable();
        // The best split over every segment.
        let best = bounds
            .windows(2)
            .filter_map(|w| {
                let (tau, q) = best_split(&series[w[0]..w[1]], o.min_size)?;
                Some((w[0], w[1], w[0] + tau, q))
            })
            .max_by(|a, b| a.3.total_cmp(&b.3));
        let Some((start, end, tau, q)) = best else {
            break;
        };
        let p = permutation_p(&series[start..end], q, o, &mut rng);
        if p >= o.significance {
            break;
        }
        cuts.push((tau, p));
    }
    cuts.sort_by_key(|c| c.0);
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(cuts.iter().map(|c| c.0))
        .chain(std::iter::once(n))
        .collect();
    cuts.iter()
        .enumerate()
        .map(|(i, &(index, p_value))| {
            let a = &series[bounds[i]..index];
            let b = &series[index..bounds[i + 2]];
            step(index, p_value, a, b)
        })
        .collect()
}

/// The change at `index` from segment `a` to segment `b`.
fn step(index: usize, p_value: f64, a: &[f64], b: &[f64]) -> Change {
    let (before, after) = (super::stats::mean(a), super::stats::mean(b));
    let positive = a.iter().chain(b).all(|v| *v > 0.0);
    let interval_pct = if positive && a.len() >= 2 && b.len() >= 2 {
        let ln = |v: &[f64]| v.iter().map(|x| x.ln()).collect::<Vec<f64>>();
        super::stats::welch_independent(&ln(a), &ln(b))
            .map(|d| ((d.ci.0.exp() - 1.0) * 100.0, (d.ci.1.exp() - 1.0) * 100.0))
    } else {
        None
    };
    Change {
        index,
        p_value,
        before,
        after,
        step_pct: if before != 0.0 {
            (after / before - 1.0) * 100.0
        } else {
            0.0
        },
        interval_pct,
    }
}

/// The split of `x` (at τ: `x[..τ]` and `x[τ..]`) with the largest statistic, and that
/// statistic: Q(τ) = m k / (m + k) · (2/(m k) Σ|a − b| − Σ_{pairs in a}|·|/C(m,2) −
/// Σ_{pairs in b}|·|/C(k,2)). None when no split leaves both sides `min_size` points.
fn best_split(x: &[f64], min_size: usize) -> Option<(usize, f64)> {
    let n = x.len();
    let min = min_size.max(2);
    if n < 2 * min {
        return None;
    }
    // before[τ]: the sum of |x_p − x_q| over p < q < τ; after[τ]: over τ ≤ p < q < n. O(n²)
    // time, O(n) memory.
    let mut before = vec![0.0; n + 1];
    for t in 1..=n {
        let last = x[t - 1];
        before[t] = before[t - 1] + x[..t - 1].iter().map(|v| (v - last).abs()).sum::<f64>();
    }
    let mut after = vec![0.0; n + 1];
    for t in (0..n).rev() {
        let first = x[t];
        after[t] = after[t + 1] + x[t + 1..].iter().map(|v| (v - first).abs()).sum::<f64>();
    }
    let all = before[n];
    let mut best: Option<(usize, f64)> = None;
    for tau in min..=n - min {
        let (m, k) = (tau as f64, (n - tau) as f64);
        let (wa, wb) = (before[tau], after[tau]);
        let between = all - wa - wb;
        let e = 2.0 * between / (m * k) - wa / (m * (m - 1.0) / 2.0) - wb / (k * (k - 1.0) / 2.0);
        let q = m * k / (m + k) * e;
        if best.is_none_or(|b| q > b.1) {
            best = Some((tau, q));
        }
    }
    best
}

/// The share of permutations of `x` whose best split is at least `q` (with the series
/// itself counted, so never 0).
fn permutation_p(x: &[f64], q: f64, o: &Options, rng: &mut rand::rngs::StdRng) -> f64 {
    let mut v = x.to_vec();
    let mut higher = 0usize;
    for _ in 0..o.permutations {
        v.shuffle(rng);
        if best_split(&v, o.min_size).is_some_and(|(_, p)| p >= q) {
            higher += 1;
        }
    }
    (higher + 1) as f64 / (o.permutations + 1) as f64
}

#[cfg(test)]
mod tests;
