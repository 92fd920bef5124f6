//! Pure statistics: means, medians, the lag-1 autocorrelation and its widening of standard
//! errors, Student's t, the MSER-5 truncation point, a least-squares line with its slope's
//! interval, and the comparison of two samples' means (Welch's t).
//!
//! Interval throughputs are autocorrelated (a slow interval is often followed by another),
//! which makes textbook standard errors too small. Every standard error here is widened by
//! the AR(1) factor sqrt((1 + r1) / (1 - r1)), r1 the lag-1 autocorrelation of the residuals
//! (clamped to 0..0.9), the usual correction for a series that remembers its last value.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// The arithmetic mean (0 for no values).
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The sample standard deviation (0 for fewer than two values).
pub fn std_dev(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

/// The median (0 for no values).
pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Lag-1 autocorrelation of `v` around its mean, clamped to 0..=0.9.
pub fn ar1(v: &[f64]) -> f64 {
    if v.len() < 3 {
        return 0.0;
    }
    let m = mean(v);
    let den: f64 = v.iter().map(|x| (x - m).powi(2)).sum();
    if den <= 0.0 {
        return 0.0;
    }
    let num: f64 = v.windows(2).map(|w| (w[0] - m) * (w[1] - m)).sum();
    (num / den).clamp(0.0, 0.9)
}

/// The AR(1) widening factor of a standard error.
pub fn ar1_factor(r: f64) -> f64 {
    ((1.0 + r) / (1.0 - r)).sqrt()
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom.
pub fn t95(df: f64) -> f64 {
    t_quantile(df, 0.95)
}

/// The two-sided quantile of Student's t with `df` degrees of freedom for a `confidence`
/// in (0, 1): the half-width of a `confidence` interval in standard errors.
pub fn t_quantile(df: f64, confidence: f64) -> f64 {
    let upper = 1.0 - (1.0 - confidence) / 2.0;
    StudentsT::new(0.0, 1.0, df.max(1.0))
        .map(|t| t.inverse_cdf(upper))
        .unwrap_or(1.96)
}

/// MSER-5 (White 1997; Franklin and White 2008): the series is cut into batches of 5, and
/// the truncation point d (in batches, at most half of them) minimising the squared error
/// of the remaining batch means, divided by their count squared, is where steady state
/// starts. Returns the number of values to drop (a multiple of 5).
pub fn mser5(v: &[f64]) -> usize {
    let batches: Vec<f64> = v.chunks_exact(5).map(mean).collect();
    let k = batches.len();
    if k < 2 {
        return 0;
    }
    // Suffix sums of the batch means and their squares: each truncation point in O(1), so
    // recomputing after every interval of a long run stays cheap.
    let (mut s1, mut s2) = (vec![0.0; k + 1], vec![0.0; k + 1]);
    for i in (0..k).rev() {
        s1[i] = s1[i + 1] + batches[i];
        s2[i] = s2[i + 1] + batches[i] * batches[i];
    }
    let mut best = (f64::INFINITY, 0);
    for d in 0..=k / 2 {
        let n = (k - d) as f64;
        let sse = (s2[d] - s1[d] * s1[d] / n).max(0.0);
        let score = sse / (n * n);
        if score < best.0 * (1.0 - 1e-9) {
            best = (score, d);
        }
    }
    best.1 * 5
}

/// A least-squares line y = a + b x, with the 95 % confidence interval of b (AR(1)-corrected).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// Intercept.
    pub a: f64,
    /// Slope.
    pub b: f64,
    /// 95 % confidence interval of the slope.
    pub b_ci: (f64, f64),
}

/// Fits a line to the points; None for fewer than three points or a single x.
pub fn ols(x: &[f64], y: &[f64]) -> Option<Line> {
    let n = x.len().min(y.len());
    if n < 3 {
        return None;
    }
    let (mx, my) = (mean(&x[..n]), mean(&y[..n]));
    let sxx: f64 = x[..n].iter().map(|v| (v - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = x[..n]
        .iter()
        .zip(&y[..n])
        .map(|(a, b)| (a - mx) * (b - my))
        .sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let resid: Vec<f64> = x[..n]
        .iter()
        .zip(&y[..n])
        .map(|(xi, yi)| yi - (a + b * xi))
        .collect();
    let s2 = resid.iter().map(|r| r * r).sum::<f64>() / (n - 2) as f64;
    let se = (s2 / sxx).sqrt() * ar1_factor(ar1(&resid));
    let h = t95((n - 2) as f64) * se;
    Some(Line {
        a,
        b,
        b_ci: (b - h, b + h),
    })
}

/// The verdict of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// NEW's mean throughput is higher, with 95 % confidence.
    Faster,
    /// NEW's mean throughput is lower, with 95 % confidence.
    Slower,
    /// The 95 % confidence interval of the difference includes zero.
    NoSignificantDifference,
}

impl Verdict {
    /// As printed.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::NoSignificantDifference => "no significant difference",
        }
    }
}

/// NEW against BASE: the difference of mean throughput with its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// NEW's mean minus BASE's mean.
    pub diff: f64,
    /// Its 95 % confidence interval.
    pub ci: (f64, f64),
    /// `diff` as % of BASE's mean.
    pub deviation_pct: f64,
    /// `ci` as % of BASE's mean.
    pub ci_pct: (f64, f64),
    /// Faster, slower or no significant difference.
    pub verdict: Verdict,
}

/// The method of [`welch`], for outputs to name.
pub const COMPARE_METHOD: &str = "Welch's t-test on per-interval throughput, 95 % confidence, standard errors widened for lag-1 autocorrelation";

/// Welch's two-sample t interval for mean(new) - mean(base) on per-interval samples, each
/// variance of the mean widened by its AR(1) factor. None with fewer than two samples.
pub fn welch(base: &[f64], new: &[f64]) -> Option<Difference> {
    welch_with(base, new, true, 0.95)
}

/// [`welch`] for independent samples (an experiment's repetitions): no autocorrelation
/// widening.
pub fn welch_independent(base: &[f64], new: &[f64]) -> Option<Difference> {
    welch_with(base, new, false, 0.95)
}

/// [`welch_independent`] at another `confidence` (a sequential experiment's level).
pub fn welch_independent_at(base: &[f64], new: &[f64], confidence: f64) -> Option<Difference> {
    welch_with(base, new, false, confidence)
}

fn welch_with(
    base: &[f64],
    new: &[f64],
    autocorrelated: bool,
    confidence: f64,
) -> Option<Difference> {
    if base.len() < 2 || new.len() < 2 {
        return None;
    }
    let var_of_mean = |v: &[f64]| {
        let f = if autocorrelated {
            ar1_factor(ar1(v))
        } else {
            1.0
        };
        std_dev(v).powi(2) / v.len() as f64 * f * f
    };
    let (vb, vn) = (var_of_mean(base), var_of_mean(new));
    let (mb, mn) = (mean(base), mean(new));
    let diff = mn - mb;
    let se = (vb + vn).sqrt();
    let df = if se > 0.0 {
        (vb + vn).powi(2) / (vb * vb / (base.len() - 1) as f64 + vn * vn / (new.len() - 1) as f64)
    } else {
        (base.len() + new.len() - 2) as f64
    };
    let h = t_quantile(df, confidence) * se;
    let ci = (diff - h, diff + h);
    let verdict = if ci.0 > 0.0 {
        Verdict::Faster
    } else if ci.1 < 0.0 {
        Verdict::Slower
    } else {
        Verdict::NoSignificantDifference
    };
    let pct = |v: f64| if mb != 0.0 { v / mb * 100.0 } else { 0.0 };
    Some(Difference {
        diff,
        ci,
        deviation_pct: pct(diff),
        ci_pct: (pct(ci.0), pct(ci.1)),
        verdict,
    })
}

/// The method of [`paired_log_ratio`], for outputs to name.
pub const PAIRED_METHOD: &str = "within each block (one cell of each variant, in random order): the mean of the blocks' log throughput ratios, Student's t interval on blocks - 1 degrees of freedom, 95 % confidence, as a ratio";

/// NEW against BASE within blocks: `pairs` holds (BASE, NEW) of each block, run one after
/// the other, so what drifts between blocks (a neighbour, the page cache, the time of day)
/// is in both and cancels. The mean of ln(NEW / BASE) over the blocks with Student's t
/// interval on n - 1 degrees of freedom, given as the ratio exp(mean) - 1 in % (and, in
/// `diff` and `ci`, in BASE's units at BASE's mean). None with fewer than two pairs or a
/// value that is not positive.
pub fn paired_log_ratio(pairs: &[(f64, f64)]) -> Option<Difference> {
    paired_log_ratio_at(pairs, 0.95)
}

/// [`paired_log_ratio`] at another `confidence` (a sequential experiment's level).
pub fn paired_log_ratio_at(pairs: &[(f64, f64)], confidence: f64) -> Option<Difference> {
    if pairs.len() < 2 || pairs.iter().any(|(b, n)| *b <= 0.0 || *n <= 0.0) {
        return None;
    }
    let d: Vec<f64> = pairs.iter().map(|(b, n)| (n / b).ln()).collect();
    let m = mean(&d);
    let h = t_quantile((d.len() - 1) as f64, confidence) * std_dev(&d) / (d.len() as f64).sqrt();
    Some(log_ratio_difference(pairs, m, (m - h, m + h)))
}

/// The change of NEW against BASE from a mean log ratio `m` of `pairs` and its interval
/// `(lo, hi)` on the log scale, as percentages and in BASE's unit, with the verdict the
/// interval gives. The paired comparisons (the mean's and the trimmed mean's) share it.
pub fn log_ratio_difference(pairs: &[(f64, f64)], m: f64, (lo, hi): (f64, f64)) -> Difference {
    let verdict = if lo > 0.0 {
        Verdict::Faster
    } else if hi < 0.0 {
        Verdict::Slower
    } else {
        Verdict::NoSignificantDifference
    };
    let pct = |x: f64| x.exp_m1() * 100.0;
    let base = mean(&pairs.iter().map(|p| p.0).collect::<Vec<_>>());
    Difference {
        diff: base * m.exp_m1(),
        ci: (base * lo.exp_m1(), base * hi.exp_m1()),
        deviation_pct: pct(m),
        ci_pct: (pct(lo), pct(hi)),
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::analysis::sim::{Shape, noise};

    #[test]
    fn welch_tells_a_real_difference_from_noise() {
        let mut seed = 11;
        let a: Vec<f64> = (0..60).map(|_| 1000.0 + 30.0 * noise(&mut seed)).collect();
        let b: Vec<f64> = (0..60).map(|_| 1000.0 + 30.0 * noise(&mut seed)).collect();
        let c: Vec<f64> = (0..60).map(|_| 1050.0 + 30.0 * noise(&mut seed)).collect();
        let same = welch(&a, &b).unwrap();
        assert_eq!(same.verdict, Verdict::NoSignificantDifference, "{same:?}");
        let faster = welch(&a, &c).unwrap();
        assert_eq!(faster.verdict, Verdict::Faster, "{faster:?}");
        assert!((faster.deviation_pct - 5.0).abs() < 1.0);
        assert_eq!(welch(&c, &a).unwrap().verdict, Verdict::Slower);
        assert!(welch(&a[..1], &b).is_none());
    }

    #[test]
    fn basic_statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!((t95(10.0) - 2.228).abs() < 0.001);
        assert!((std_dev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - 2.138).abs() < 0.001);
        assert_eq!(mean(&[]), 0.0);
    }

    /// Experiments of `blocks` blocks of `shape`: how often each analysis says "faster" or
    /// "slower", of `n` experiments: (paired, Welch).
    fn verdicts(seed: &mut u64, n: usize, blocks: usize, shape: Shape) -> (usize, usize) {
        let (mut paired, mut welch) = (0, 0);
        for _ in 0..n {
            let mut level = 0.0;
            let pairs: Vec<(f64, f64)> =
                (0..blocks).map(|_| shape.block(seed, &mut level)).collect();
            let said = |d: Option<Difference>| {
                d.is_some_and(|d| d.verdict != Verdict::NoSignificantDifference)
            };
            paired += usize::from(said(paired_log_ratio(&pairs)));
            let (b, new): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
            welch += usize::from(said(welch_independent(&b, &new)));
        }
        (paired, welch)
    }

    #[test]
    fn paired_blocks_keep_the_false_verdict_rate_and_find_what_drift_hides() {
        // A against A, 2,000 experiments per shape: this machine's noise (cells of one
        // variant 875-1,188 tps at one level: about 10 %), drift between blocks from none to
        // more than the noise, some drift between a block's two cells. The paired analysis
        // says "faster" or "slower" about 5 % of the time (its nominal level; 2,000
        // experiments put 1.5 points around it at 3 standard errors).
        let mut seed = 17;
        for blocks in [3, 5, 10] {
            for (drift, within, cv) in [(0.0, 0.0, 0.05), (0.10, 0.02, 0.05), (0.20, 0.05, 0.10)] {
                let shape = Shape {
                    drift,
                    within,
                    cv,
                    effect: 0.0,
                };
                let (paired, welch) = verdicts(&mut seed, 2000, blocks, shape);
                eprintln!(
                    "A against A, {blocks} blocks, drift {drift}, within {within}, cv {cv}: paired {paired}, Welch {welch} of 2000"
                );
                assert!(
                    paired <= 130,
                    "{paired} of 2000 A-against-A verdicts (blocks {blocks}, drift {drift}, cv {cv})"
                );
            }
        }
        // A 6 % loss under 10 % drift between blocks and 2 % noise within them, 5 blocks:
        // the pairs see it nearly always, Welch on the same cells rarely.
        let shape = Shape {
            drift: 0.10,
            within: 0.0,
            cv: 0.02,
            effect: -0.06,
        };
        let (paired, welch) = verdicts(&mut seed, 500, 5, shape);
        eprintln!("-6 %, 5 blocks, drift 0.1, cv 0.02: paired {paired}, Welch {welch} of 500");
        assert!(paired >= 450, "paired found {paired} of 500");
        assert!(welch <= 250, "Welch found {welch} of 500");
        // The ratio is read back: NEW = 0.9 × BASE in every block is -10 %.
        let d = paired_log_ratio(&[(100.0, 90.0), (200.0, 180.0), (50.0, 45.0)]).unwrap();
        assert!((d.deviation_pct + 10.0).abs() < 1e-9, "{d:?}");
        assert_eq!(d.verdict, Verdict::Slower);
        assert!(paired_log_ratio(&[(100.0, 90.0)]).is_none());
    }
}
