//! A run's stability, computed from its stored intervals: steady state (MSER-5), variation,
//! trend with its confidence interval, the DECLINING flag, jitter and stalls (seed 001,
//! section 2.4). The record it fills, [`Stability`], is stored with the run (results).

use super::stats::{ar1, ar1_factor, mean, median, mser5, ols, std_dev, t95};
use crate::results::{IntervalRow, Phase, Stability, Stall};
use statrs::distribution::{ContinuousCDF, StudentsT};

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

/// How far the last third's mean must be below the first third's for a fall to be flagged
/// without the slope's test, when the two thirds do not overlap at all (it adds 2 flags in
/// 500 to clean runs of 30 intervals correlated at 0.8 with 10 % noise, 7 -> 9, and none to
/// the other shapes of `clean_short_runs_are_not_flagged_declining`).
pub const PLAIN_DECLINE_PCT: f64 = 20.0;

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
    let significant = upper < 0.0 && change <= -DECLINE_PCT && thirds <= -DECLINE_PCT / 2.0;
    // A fall too plain for a line: every interval of the last third below every one of the
    // first, by at least [`PLAIN_DECLINE_PCT`]. A fall that is not a straight line (a lock
    // held a growing share of the time: 630 tps down to almost nothing and flat) leaves
    // residuals so correlated that the slope's interval spans zero.
    let (lo_first, hi_last) = (
        tps[..k].iter().copied().fold(f64::INFINITY, f64::min),
        tps[n - k..n]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max),
    );
    let plain = hi_last < lo_first && thirds <= -PLAIN_DECLINE_PCT;
    Some((change, significant || plain))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(i: usize, step: f64, tps: f64, phase: Phase) -> IntervalRow {
        let start = i as f64 * step;
        crate::analysis::sim::interval_row(phase, start, start + step, tps, 1.0)
    }

    use crate::analysis::sim::noise;

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
    fn a_fall_that_is_not_a_line_is_flagged() {
        // As tests/decline.rs's run once measured: a lock held a growing share of the time
        // takes 630 tps down to almost nothing early in the run, and there it stays. The line
        // fits badly, its residuals are correlated (0.74, 0.84 corrected: 3.4 effective
        // intervals), and the slope's interval alone spans zero although the last third is
        // 90 % below the first and the thirds do not overlap at all.
        let mut seed = 9;
        let rows: Vec<IntervalRow> = (0..40)
            .map(|i| {
                let tps =
                    (630.0 * (-(i as f64) / 8.0).exp() + 30.0) * (1.0 + 0.3 * noise(&mut seed));
                row(i, 1.0, tps.max(0.0), Phase::Measure)
            })
            .collect();
        let s = Stability::of(&rows, 0.0, 0.0).unwrap();
        assert!(s.declining, "{:?}", s.change_pct);
        // A run that stays flat but for a dip in its middle is not a decline.
        assert!(s.change_pct.unwrap() < -50.0);
        let rows: Vec<IntervalRow> = (0..40)
            .map(|i| {
                let dip = if (14..26).contains(&i) { 0.1 } else { 1.0 };
                row(
                    i,
                    1.0,
                    600.0 * dip * (1.0 + 0.05 * noise(&mut seed)),
                    Phase::Measure,
                )
            })
            .collect();
        assert!(!Stability::of(&rows, 0.0, 0.0).unwrap().declining);
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
}
