//! Group-sequential boundaries by alpha spending (Lan and DeMets, Biometrika 1983): the
//! nominal error rate of each look of a sequential experiment such that, over all its looks,
//! an interval misses the true value with at most `alpha` probability.
//!
//! A Bonferroni split of `alpha` over the looks treats them as independent; they are not (the
//! look after 5 blocks holds the 4 blocks of the one before), so each look may spend more.
//! The standardised estimate after information t (blocks / the most blocks) behaves as a
//! Brownian motion's S(t) / √t. The spending function α(t) says how much of `alpha` is spent
//! by t; look k's boundary c_k makes P(no earlier crossing, |Z_k| ≥ c_k) = α(t_k) − α(t_k−1),
//! found by integrating the density of S over the region not yet crossed (Armitage,
//! McPherson and Rowe 1969) on a grid. The O'Brien–Fleming-type function
//! α(t) = 2 − 2Φ(z_{1−α/2} / √t) (per side) spends little early and leaves the last look near `alpha`
//! (2.03 standard errors at 5 % with five equally spaced looks, against 1.96 for one).
//! Two-sided: `alpha` / 2 is spent on each side.

use statrs::distribution::{Continuous, ContinuousCDF, Normal};

/// Grid points over the region not yet crossed.
const GRID: usize = 801;

fn std_normal() -> Normal {
    Normal::new(0.0, 1.0).expect("the standard normal")
}

/// The O'Brien–Fleming-type spending function: the share of the two-sided `alpha` spent by
/// information fraction `t` (0..=1), half on each side, each half spent as Lan and DeMets'
/// one-sided 2 − 2Φ(z_{1−α'/2} / √t) with α' = α / 2 (as gsDesign's sfLDOF).
pub fn obrien_fleming(alpha: f64, t: f64) -> f64 {
    if t <= 0.0 {
        return 0.0;
    }
    let n = std_normal();
    let z = n.inverse_cdf(1.0 - alpha / 4.0);
    (4.0 - 4.0 * n.cdf(z / t.min(1.0).sqrt())).min(alpha)
}

/// The two-sided boundaries (in standard errors) of looks at the increasing information
/// fractions `fractions` (each in (0, 1]), spending `alpha` by O'Brien–Fleming-type.
pub fn boundaries(alpha: f64, fractions: &[f64]) -> Vec<f64> {
    let n = std_normal();
    let mut out = Vec::with_capacity(fractions.len());
    // The density of S at the last look over its region (-b, b), on a grid.
    let mut region: Option<(Vec<f64>, Vec<f64>)> = None;
    let (mut t_prev, mut spent) = (0.0, 0.0);
    for &t in fractions {
        let target = (obrien_fleming(alpha, t) - spent).max(1e-15);
        let dt = (t - t_prev).max(1e-12);
        let sd = dt.sqrt();
        let c = match &region {
            None => n.inverse_cdf(1.0 - target / 2.0),
            Some((s, f)) => {
                // P(|S_prev + √dt Z| ≥ c √t) over the density not yet crossed.
                let cross = |c: f64| -> f64 {
                    let b = c * t.sqrt();
                    let g: Vec<f64> = s
                        .iter()
                        .map(|u| n.cdf((-b - u) / sd) + n.sf((b - u) / sd))
                        .collect();
                    simpson(s, &product(f, &g))
                };
                bisect(|c| cross(c) - target, 0.0, 40.0)
            }
        };
        out.push(c);
        let b = c * t.sqrt();
        let s: Vec<f64> = (0..GRID)
            .map(|i| -b + 2.0 * b * i as f64 / (GRID - 1) as f64)
            .collect();
        let f: Vec<f64> = match &region {
            None => s.iter().map(|x| n.pdf(x / sd) / sd).collect(),
            Some((u, fu)) => s
                .iter()
                .map(|x| {
                    let k: Vec<f64> = u.iter().map(|v| n.pdf((x - v) / sd) / sd).collect();
                    simpson(u, &product(fu, &k))
                })
                .collect(),
        };
        region = Some((s, f));
        spent += target;
        t_prev = t;
    }
    out
}

/// The nominal two-sided error rate of a boundary `c` in standard errors.
pub fn nominal(c: f64) -> f64 {
    2.0 * std_normal().sf(c)
}

fn product(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x * y).collect()
}

/// Simpson's rule over an evenly spaced grid of odd length.
fn simpson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len();
    if n < 3 {
        return 0.0;
    }
    let h = (x[n - 1] - x[0]) / (n - 1) as f64;
    let inner: f64 = (1..n - 1)
        .map(|i| if i % 2 == 1 { 4.0 } else { 2.0 } * y[i])
        .sum();
    h / 3.0 * (y[0] + y[n - 1] + inner)
}

/// The root of an increasing-or-decreasing `f` in (lo, hi) by bisection (f(lo) > 0 > f(hi)
/// for a crossing probability falling with the boundary).
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_look_is_the_fixed_test() {
        let c = boundaries(0.05, &[1.0]);
        assert!((c[0] - 1.959964).abs() < 1e-6, "{c:?}");
        assert!((nominal(c[0]) - 0.05).abs() < 1e-9);
    }

    #[test]
    fn five_equal_looks_match_the_published_boundaries() {
        // Lan-DeMets O'Brien-Fleming-type, 2.5 % a side, five equally spaced looks: 4.877,
        // 3.357, 2.680, 2.290, 2.031 (gsDesign's sfLDOF bounds for k = 5, alpha 0.025).
        let c = boundaries(0.05, &[0.2, 0.4, 0.6, 0.8, 1.0]);
        for (got, want) in c.iter().zip([4.877, 3.357, 2.680, 2.290, 2.031]) {
            assert!((got - want).abs() < 0.005, "{c:?}");
        }
    }

    #[test]
    fn the_looks_spend_alpha_and_no_more() {
        // Brownian paths looked at 3..=5 of 5: any crossing at most 5 %, measured.
        let fractions = [0.6, 0.8, 1.0];
        let c = boundaries(0.05, &fractions);
        let mut seed = 5;
        let (mut crossed, runs) = (0, 200_000);
        for _ in 0..runs {
            let (mut s, mut t0) = (0.0, 0.0);
            for (t, c) in fractions.iter().zip(&c) {
                s += (t - t0).sqrt() * crate::analysis::sim::gauss(&mut seed);
                t0 = *t;
                if (s / t.sqrt()).abs() >= *c {
                    crossed += 1;
                    break;
                }
            }
        }
        let rate = f64::from(crossed) / f64::from(runs);
        assert!((rate - 0.05).abs() < 0.003, "{rate}");
        // Each look spends more than the Bonferroni split of txbench's first sequential
        // experiments, 5 % × (n - 1)^2 / (4 + 9 + 16), the last nearly 5 %.
        for (k, c) in c.iter().enumerate() {
            let bonferroni = 0.05 * f64::from((k as u32 + 2).pow(2)) / 29.0;
            assert!(nominal(*c) > bonferroni, "{k}: {c}");
        }
        assert!(nominal(c[2]) > 0.04, "{c:?}");
    }
}
