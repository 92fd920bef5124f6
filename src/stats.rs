//! Statistics over stored interval series: steady state (MSER-5), variation, trend with its
//! confidence interval, jitter and stalls (seed 001, section 2.4); the comparison of two
//! runs' throughput (Welch's t); the Universal Scalability Law fitted to a sweep.
//!
//! Interval throughputs are autocorrelated (a slow interval is often followed by another),
//! which makes textbook standard errors too small. Every standard error here is widened by
//! the AR(1) factor sqrt((1 + r1) / (1 - r1)), r1 the lag-1 autocorrelation of the residuals
//! (clamped to 0..0.9), the usual correction for a series that remembers its last value.

use crate::results::{IntervalRow, Phase};
pub use crate::results::{Stability, Stall};
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
fn ar1_factor(r: f64) -> f64 {
    ((1.0 + r) / (1.0 - r)).sqrt()
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom.
pub fn t95(df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df.max(1.0))
        .map(|t| t.inverse_cdf(0.975))
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

/// Fewer measured intervals than this give no trend: a line through a handful of noisy
/// points says nothing per hour.
pub const MIN_TREND_INTERVALS: usize = 10;

/// A run is flagged DECLINING only from this many measured intervals on: a line through 15
/// or 20 autocorrelated points is too easily tilted (clean 20-interval TPC-C runs were
/// flagged 2 times in 8 by the slope's interval alone).
pub const MIN_DECLINE_INTERVALS: usize = 30;

/// How large a decline must be over the run itself to be flagged: the fitted change across
/// the steady part of the measured phase, % of its mean.
pub const DECLINE_PCT: f64 = 5.0;

/// The fitted change across the measured intervals `tps` (at `hours`), % of their mean, and
/// whether it is a decline worth a flag: significant (the slope's 99 % interval below zero,
/// widened for the lag-1 autocorrelation with its small-sample bias corrected, since the
/// plain estimate from 30 points is far too low, and with the effective degrees of
/// freedom that correlation leaves), large over the run (at least
/// [`DECLINE_PCT`]), and not the tilt of one end (the last third's mean at least half that
/// below the first third's). None below [`MIN_DECLINE_INTERVALS`] intervals.
pub fn decline(hours: &[f64], tps: &[f64]) -> Option<(f64, bool)> {
    let n = hours.len().min(tps.len());
    if n < MIN_DECLINE_INTERVALS {
        return None;
    }
    let m = mean(&tps[..n]);
    if m <= 0.0 {
        return None;
    }
    let line = ols(&hours[..n], &tps[..n])?;
    let change = line.b * (hours[n - 1] - hours[0]) / m * 100.0;
    // ols widened the interval by the AR(1) factor of r; widen it to that of r's
    // bias-corrected value r + (1 + 4r) / n (Kendall's approximation).
    let resid: Vec<f64> = hours[..n]
        .iter()
        .zip(&tps[..n])
        .map(|(x, y)| y - (line.a + line.b * x))
        .collect();
    let r = ar1(&resid);
    let corrected = (r + (1.0 + 4.0 * r) / n as f64).min(0.95);
    // And Student's t with the effective degrees of freedom, n (1 - r) / (1 + r) - 2: 30
    // intervals correlated at 0.8 carry the information of about 4 independent ones.
    let n_eff = n as f64 * (1.0 - corrected) / (1.0 + corrected);
    // The flag asks for 99 % (two-sided) rather than 95 %: it is a verdict on one run, and
    // at 95 % clean runs this short and correlated were flagged 2 to 5.5 % of the time.
    let t99 = StudentsT::new(0.0, 1.0, (n_eff - 2.0).max(1.0))
        .map(|t| t.inverse_cdf(0.995))
        .unwrap_or(2.58);
    let widen = ar1_factor(corrected) / ar1_factor(r) * t99 / t95((n - 2) as f64);
    let upper = line.b + (line.b_ci.1 - line.b) * widen;
    let k = n / 3;
    let (first, last) = (mean(&tps[..k]), mean(&tps[n - k..n]));
    let thirds = if first > 0.0 {
        (last / first - 1.0) * 100.0
    } else {
        0.0
    };
    let flag = upper < 0.0 && change <= -DECLINE_PCT && thirds <= -DECLINE_PCT / 2.0;
    Some((change, flag))
}

impl Stability {
    /// A run's stored figures, or (for a result.json written before they existed) the
    /// figures computed from its stored intervals.
    pub fn of_run(r: &crate::results::RunResult) -> Option<Stability> {
        r.stability
            .clone()
            .or_else(|| Stability::of(&r.intervals, r.config.warmup_s, r.config.stability_window_s))
    }

    /// The trend as people read it: "+1.2 %/h (95 % CI -0.3 .. +2.7)", or why there is none.
    pub fn trend_text(&self) -> String {
        match (self.slope_pct_per_hour, self.slope_ci_pct_per_hour) {
            (Some(b), Some((lo, hi))) => format!("{b:+.1} %/h (95 % CI {lo:+.1} .. {hi:+.1})"),
            _ => format!(
                "none from {} interval(s) ({MIN_TREND_INTERVALS} needed)",
                self.intervals
            ),
        }
    }

    /// The figures of the measured intervals in `rows`; `window_s` 0 means one tenth of the
    /// measured time. None when nothing was measured.
    pub fn of(rows: &[IntervalRow], configured_warmup_s: f64, window_s: f64) -> Option<Stability> {
        let m: Vec<&IntervalRow> = rows.iter().filter(|r| r.phase == Phase::Measure).collect();
        if m.is_empty() {
            return None;
        }
        let tps: Vec<f64> = m.iter().map(|r| r.tps).collect();
        let mid: Vec<f64> = m.iter().map(|r| (r.start_s + r.end_s) / 2.0).collect();
        let mean_tps = mean(&tps);
        let cv = if mean_tps > 0.0 {
            std_dev(&tps) / mean_tps
        } else {
            0.0
        };
        let drop = mser5(&tps);
        // Steady from the first measured interval: the configured warm-up was enough.
        let steady_start_s = if drop == 0 {
            configured_warmup_s
        } else {
            m[drop].start_s
        };
        let hours: Vec<f64> = mid.iter().map(|s| s / 3600.0).collect();
        let line = if tps.len() >= MIN_TREND_INTERVALS && mean_tps > 0.0 {
            ols(&hours, &tps)
        } else {
            None
        };
        let pct = |v: f64| v / mean_tps * 100.0;
        let change = decline(&hours, &tps);
        let measured_s = m.last().map_or(0.0, |r| r.end_s) - m[0].start_s;
        let step = (m[0].end_s - m[0].start_s).max(1e-9);
        let window_s = if window_s > 0.0 {
            window_s
        } else {
            measured_s / 10.0
        };
        let w = ((window_s / step).round() as usize).clamp(1, tps.len());
        let mut prefix = vec![0.0; tps.len() + 1];
        for (i, x) in tps.iter().enumerate() {
            prefix[i + 1] = prefix[i] + x;
        }
        let jitter = (w..=tps.len())
            .map(|end| ((prefix[end] - prefix[end - w]) / w as f64 - mean_tps).abs())
            .fold(0.0, f64::max);
        let med = median(&tps);
        Some(Stability {
            intervals: m.len(),
            configured_warmup_s,
            steady_start_s,
            mean_tps,
            cv,
            slope_pct_per_hour: line.map(|l| pct(l.b)),
            slope_ci_pct_per_hour: line.map(|l| (pct(l.b_ci.0), pct(l.b_ci.1))),
            declining: change.is_some_and(|c| c.1),
            change_pct: change.map(|c| c.0),
            window_s: w as f64 * step,
            jitter_pct: if mean_tps > 0.0 {
                jitter / mean_tps * 100.0
            } else {
                0.0
            },
            stalls: m
                .iter()
                .filter(|r| r.tps < 0.1 * med)
                .map(|r| Stall {
                    start_s: r.start_s,
                    end_s: r.end_s,
                    tps: r.tps,
                })
                .collect(),
        })
    }
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
    welch_with(base, new, true)
}

/// [`welch`] for independent samples (an experiment's repetitions): no autocorrelation
/// widening.
pub fn welch_independent(base: &[f64], new: &[f64]) -> Option<Difference> {
    welch_with(base, new, false)
}

fn welch_with(base: &[f64], new: &[f64], autocorrelated: bool) -> Option<Difference> {
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
    let h = t95(df) * se;
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

/// The Universal Scalability Law, X(N) = λN / (1 + σ(N - 1) + κN(N - 1)), fitted to a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Usl {
    /// Throughput of one user without contention or coherency costs.
    pub lambda: f64,
    /// Contention (serialisation), σ.
    pub sigma: f64,
    /// Coherency (crosstalk), κ.
    pub kappa: f64,
    /// Where the fitted curve peaks, sqrt((1 - σ) / κ) users (None when κ is 0).
    pub peak_n: Option<f64>,
    /// Throughput at the peak.
    pub peak_x: Option<f64>,
    /// Coefficient of determination of the fit.
    pub r2: f64,
}

impl Usl {
    /// The curve at `n` users.
    pub fn at(&self, n: f64) -> f64 {
        self.lambda * n / (1.0 + self.sigma * (n - 1.0) + self.kappa * n * (n - 1.0))
    }

    /// Fits (users, throughput) points: for a given λ, N·λ/X - 1 = σ(N - 1) + κN(N - 1) is
    /// linear in σ and κ (least squares, both kept >= 0); λ is searched (golden section)
    /// to minimise the squared error of the throughputs. Needs three levels.
    pub fn fit(points: &[(f64, f64)]) -> Option<Usl> {
        let pts: Vec<(f64, f64)> = points
            .iter()
            .copied()
            .filter(|(n, x)| *n >= 1.0 && *x > 0.0)
            .collect();
        if pts.len() < 3 {
            return None;
        }
        let coefficients = |lambda: f64| -> (f64, f64) {
            // Normal equations of y = σ a + κ b, with a = N - 1 and b = N (N - 1).
            let (mut saa, mut sab, mut sbb, mut say, mut sby) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(n, x) in &pts {
                let (a, b, y) = (n - 1.0, n * (n - 1.0), n * lambda / x - 1.0);
                saa += a * a;
                sab += a * b;
                sbb += b * b;
                say += a * y;
                sby += b * y;
            }
            let det = saa * sbb - sab * sab;
            let (mut s, mut k) = if det.abs() > 1e-12 {
                ((say * sbb - sby * sab) / det, (sby * saa - say * sab) / det)
            } else {
                (0.0, 0.0)
            };
            if s < 0.0 {
                s = 0.0;
                k = if sbb > 0.0 { (sby / sbb).max(0.0) } else { 0.0 };
            }
            if k < 0.0 {
                k = 0.0;
                s = if saa > 0.0 { (say / saa).max(0.0) } else { 0.0 };
            }
            (s, k)
        };
        let sse = |lambda: f64| -> f64 {
            let (s, k) = coefficients(lambda);
            let u = Usl {
                lambda,
                sigma: s,
                kappa: k,
                peak_n: None,
                peak_x: None,
                r2: 0.0,
            };
            pts.iter().map(|&(n, x)| (u.at(n) - x).powi(2)).sum()
        };
        // λ lies between the best per-user throughput seen and well above it.
        let per_user = pts.iter().map(|(n, x)| x / n).fold(0.0, f64::max);
        let (mut lo, mut hi) = (per_user * 0.5, per_user * 4.0);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..200 {
            let (c, d) = (hi - g * (hi - lo), lo + g * (hi - lo));
            if sse(c) < sse(d) {
                hi = d;
            } else {
                lo = c;
            }
        }
        let lambda = (lo + hi) / 2.0;
        let (sigma, kappa) = coefficients(lambda);
        let xs: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let mx = mean(&xs);
        let tss: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
        let mut u = Usl {
            lambda,
            sigma,
            kappa,
            peak_n: None,
            peak_x: None,
            r2: 0.0,
        };
        u.r2 = if tss > 0.0 {
            1.0 - sse(lambda) / tss
        } else {
            1.0
        };
        if kappa > 0.0 && sigma < 1.0 {
            let n = ((1.0 - sigma) / kappa).sqrt();
            u.peak_n = Some(n);
            u.peak_x = Some(u.at(n));
        }
        Some(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(i: usize, step: f64, tps: f64, phase: Phase) -> IntervalRow {
        IntervalRow {
            phase,
            start_s: i as f64 * step,
            end_s: (i + 1) as f64 * step,
            threads: 4,
            transactions: (tps * step) as u64,
            tps,
            qps: 0.0,
            reads_ps: 0.0,
            writes_ps: 0.0,
            other_ps: 0.0,
            p95_ms: 1.0,
            p99_ms: 2.0,
            service_p99_ms: 2.0,
            errors: 0,
            unexpected_errors: 0,
            failed_after_retries: 0,
            err_ps: 0.0,
            reconn_ps: 0.0,
            errors_by_class: Default::default(),
            kinds: Vec::new(),
            client_cpu_pct: 0.0,
            targets: Vec::new(),
        }
    }

    /// Deterministic noise in -1..1 (an LCG), so the tests need no random crate.
    fn noise(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    #[test]
    fn a_known_slope_is_recovered_with_a_confidence_interval_around_it() {
        // 8 hours of 10 s intervals declining 5 % per hour from 1000 tps, ±2 % noise.
        let mut seed = 1;
        let rows: Vec<IntervalRow> = (0..2880)
            .map(|i| {
                let h = (i as f64 + 0.5) * 10.0 / 3600.0;
                let tps = 1000.0 * (1.0 - 0.05 * h) * (1.0 + 0.02 * noise(&mut seed));
                row(i, 10.0, tps, Phase::Measure)
            })
            .collect();
        let s = Stability::of(&rows, 0.0, 0.0).unwrap();
        let slope = s.slope_pct_per_hour.unwrap();
        // Relative to the mean (800 tps): -50 tps/h is -6.25 %/h.
        assert!((slope - -6.25).abs() < 0.2, "{slope}");
        let (lo, hi) = s.slope_ci_pct_per_hour.unwrap();
        assert!(lo < slope && slope < hi && hi < 0.0, "{lo} {hi}");
        assert!(s.declining);
        assert_eq!(s.window_s, 2880.0);
        assert!(s.stalls.is_empty());
    }

    #[test]
    fn a_flat_noisy_run_is_not_declining() {
        let mut seed = 7;
        let rows: Vec<IntervalRow> = (0..360)
            .map(|i| {
                row(
                    i,
                    10.0,
                    500.0 * (1.0 + 0.05 * noise(&mut seed)),
                    Phase::Measure,
                )
            })
            .collect();
        let s = Stability::of(&rows, 0.0, 0.0).unwrap();
        let (lo, hi) = s.slope_ci_pct_per_hour.unwrap();
        assert!(lo < 0.0 && hi > 0.0, "{lo} {hi}");
        // Steady from the start: the steady state starts at the configured warm-up, even
        // when the first measured interval starts a little later (a late timer tick).
        let mut late = rows.clone();
        for r in &mut late {
            r.start_s += 10.02;
            r.end_s += 10.02;
        }
        assert_eq!(
            Stability::of(&late, 10.0, 0.0).unwrap().steady_start_s,
            10.0
        );
        assert!(!s.declining);
        assert!((s.cv - 0.05 / 3f64.sqrt()).abs() < 0.01, "cv {}", s.cv);
        assert!(s.jitter_pct < 2.0, "{}", s.jitter_pct);
    }

    /// `n` intervals of 1 s around 1000 tps with AR(1) noise (lag-1 correlation `rho`,
    /// coefficient of variation `cv`) and a linear change of `change` across the run.
    fn ar1_series(seed: &mut u64, n: usize, rho: f64, cv: f64, change: f64) -> Vec<IntervalRow> {
        let mut e = 0.0;
        (0..n)
            .map(|i| {
                // Uniform noise scaled to unit variance.
                let u = noise(seed) * 3f64.sqrt();
                e = rho * e + (1.0 - rho * rho).sqrt() * u;
                let trend = 1.0 + change * i as f64 / (n - 1) as f64;
                row(i, 1.0, 1000.0 * trend * (1.0 + cv * e), Phase::Measure)
            })
            .collect()
    }

    #[test]
    fn clean_short_runs_are_not_flagged_declining() {
        // 500 clean runs per shape, up to strongly autocorrelated, as short as a demo level
        // and as noisy as this machine: at most 3 % flagged (2,000 runs per shape measured
        // 0.55 % uncorrelated to 2.45 % at lag-1 0.8 and 10 % noise, 30 intervals), where
        // the slope's 95 % interval alone flagged 2 runs in 8.
        let mut seed = 11;
        for n in [15, 20, 30, 60, 120] {
            for (rho, cv) in [(0.0, 0.05), (0.5, 0.03), (0.8, 0.03), (0.8, 0.10)] {
                let flagged = (0..500)
                    .filter(|_| {
                        Stability::of(&ar1_series(&mut seed, n, rho, cv, 0.0), 0.0, 0.0)
                            .unwrap()
                            .declining
                    })
                    .count();
                assert!(
                    flagged <= 15,
                    "{flagged} of 500 clean runs flagged (n {n}, rho {rho}, cv {cv})"
                );
            }
        }
        // Below 30 measured intervals there is no verdict at all.
        let s = Stability::of(&ar1_series(&mut seed, 15, 0.0, 0.0, -0.5), 0.0, 0.0).unwrap();
        assert!(s.change_pct.is_none() && !s.declining);
    }

    #[test]
    fn a_run_that_really_falls_is_flagged_and_a_small_drift_is_not() {
        let mut seed = 5;
        // -20 % over 30 s with this machine's noise: flagged at least 85 % of the time
        // (92 % measured; the 99 % interval costs some power on 30 points).
        let flagged = (0..200)
            .filter(|_| {
                let s =
                    Stability::of(&ar1_series(&mut seed, 30, 0.5, 0.03, -0.2), 0.0, 0.0).unwrap();
                s.declining && s.change_pct.unwrap() < -10.0
            })
            .count();
        assert!(flagged >= 170, "{flagged} of 200");
        // A significant but small drift (-2 % over the run) is not worth the flag.
        let s = Stability::of(&ar1_series(&mut seed, 600, 0.0, 0.002, -0.02), 0.0, 0.0).unwrap();
        let (_, hi) = s.slope_ci_pct_per_hour.unwrap();
        assert!(hi < 0.0, "the drift is significant");
        assert!(!s.declining, "{:?}", s.change_pct);
    }

    #[test]
    fn mser5_finds_a_known_warm_up() {
        // 60 intervals ramping from 100 to 1000 tps, then 540 steady ones.
        let mut seed = 3;
        let rows: Vec<IntervalRow> = (0..600)
            .map(|i| {
                let base = if i < 60 {
                    100.0 + 900.0 * i as f64 / 60.0
                } else {
                    1000.0
                };
                row(
                    i,
                    1.0,
                    base * (1.0 + 0.03 * noise(&mut seed)),
                    Phase::Measure,
                )
            })
            .collect();
        let s = Stability::of(&rows, 0.0, 0.0).unwrap();
        assert!(
            (50.0..=70.0).contains(&s.steady_start_s),
            "{}",
            s.steady_start_s
        );
        // A steady series needs no truncation.
        let flat: Vec<f64> = (0..100).map(|_| 10.0 + noise(&mut seed)).collect();
        assert!(mser5(&flat) <= 10, "{}", mser5(&flat));
    }

    #[test]
    fn stalls_and_jitter_are_found() {
        let mut rows: Vec<IntervalRow> = (0..100)
            .map(|i| row(i, 1.0, 1000.0, Phase::Measure))
            .collect();
        for r in &mut rows[40..45] {
            r.tps = 50.0;
        }
        // Warm-up intervals are not measured.
        rows.insert(0, row(0, 1.0, 0.0, Phase::Warmup));
        let s = Stability::of(&rows, 1.0, 10.0).unwrap();
        assert_eq!(s.intervals, 100);
        assert_eq!(s.stalls.len(), 5);
        assert_eq!(s.stalls[0].start_s, 40.0);
        // The worst 10-interval window holds the 5 stalled ones: mean 525 against 952.5.
        assert!(
            (s.jitter_pct - (952.5 - 525.0) / 952.5 * 100.0).abs() < 0.01,
            "{}",
            s.jitter_pct
        );
    }

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
    fn usl_parameters_are_recovered_from_their_curve() {
        let truth = Usl {
            lambda: 1000.0,
            sigma: 0.05,
            kappa: 0.001,
            peak_n: None,
            peak_x: None,
            r2: 0.0,
        };
        let pts: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
            .iter()
            .map(|&n| (n, truth.at(n)))
            .collect();
        let u = Usl::fit(&pts).unwrap();
        assert!((u.lambda - 1000.0).abs() < 5.0, "{u:?}");
        assert!((u.sigma - 0.05).abs() < 0.002, "{u:?}");
        assert!((u.kappa - 0.001).abs() < 0.0001, "{u:?}");
        let peak = u.peak_n.unwrap();
        assert!((peak - (0.95f64 / 0.001).sqrt()).abs() < 1.0, "{peak}");
        assert!(u.r2 > 0.999);
        assert!(Usl::fit(&pts[..2]).is_none());
    }

    #[test]
    fn basic_statistics() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!((t95(10.0) - 2.228).abs() < 0.001);
        assert!((std_dev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - 2.138).abs() < 0.001);
        assert_eq!(mean(&[]), 0.0);
    }
}
