//! The Universal Scalability Law fitted to a sweep's levels.

use super::stats::mean;
use serde::{Deserialize, Serialize};

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
}
