//! The report's sweep section: throughput (NOPM for TPC-C) and p95 against concurrency,
//! one curve per sweep, each with its Universal Scalability Law fit and the fit's table.

use super::charts::{Chart, Series, Style};
use super::page::{Input, name_of};
use super::page::{esc, push_chart};
use crate::analysis::usl::Usl;
use crate::results::{RunResult, Stored};
use anyhow::Result;
use std::fmt::Write as _;

/// The section of the sweeps among `inputs` (nothing when there are none).
pub(super) fn section(h: &mut String, charts_out: &mut Vec<Chart>, inputs: &[Input]) -> Result<()> {
    // Sweeps: throughput and p95 against concurrency, with the USL fit.
    let sweeps: Vec<(&Input, &Vec<RunResult>)> = inputs
        .iter()
        .filter_map(|i| match &i.stored {
            Stored::Sweep(_, rs) => Some((i, rs)),
            Stored::Run(_) => None,
        })
        .collect();
    if !sweeps.is_empty() {
        h.push_str("<h2>Throughput and latency against concurrency</h2>");
        let mut tput = Vec::new();
        let mut p95 = Vec::new();
        let mut fits = Vec::new();
        // TPC-C's sweeps in NOPM (when every sweep is TPC-C's), others in tps.
        let nopm = sweeps
            .iter()
            .all(|(_, rs)| rs.iter().all(|r| r.throughput().rate.is_some()));
        let (unit, unit_long) = if nopm {
            ("NOPM", "New-Orders per minute (NOPM)")
        } else {
            ("tps", "transactions per second")
        };
        let tput_of = |r: &RunResult| {
            if nopm {
                r.throughput().value
            } else {
                r.summary.as_ref().map_or(0.0, |s| s.tps)
            }
        };
        for (i, rs) in &sweeps {
            let name = name_of(&i.path);
            let pts: Vec<(f64, f64)> = rs
                .iter()
                .filter(|r| r.summary.is_some())
                .map(|r| (f64::from(r.config.threads), tput_of(r)))
                .collect();
            let lat: Vec<(f64, f64)> = rs
                .iter()
                .filter_map(|r| {
                    r.summary
                        .as_ref()
                        .map(|s| (f64::from(r.config.threads), s.response.p95_ms))
                })
                .collect();
            // The fit uses only levels whose numbers can be trusted.
            let trusted: Vec<(f64, f64)> = rs
                .iter()
                .filter(|r| r.validity.valid && r.summary.is_some())
                .map(|r| (f64::from(r.config.threads), tput_of(r)))
                .filter(|(_, x)| *x > 0.0)
                .collect();
            let fit = Usl::fit(&trusted);
            let color = Some(fits.len());
            tput.push(Series {
                name: name.clone(),
                points: pts.clone(),
                style: Style::Points,
                color,
            });
            if let Some(u) = &fit {
                let max_n = pts.iter().map(|p| p.0).fold(1.0, f64::max);
                let top = u.peak_n.map_or(max_n, |p| p.max(max_n)).min(max_n * 4.0);
                let curve = (0..=100)
                    .map(|k| {
                        let n = 1.0 + (top - 1.0) * f64::from(k) / 100.0;
                        (n, u.at(n))
                    })
                    .collect();
                tput.push(Series {
                    name: format!("{name} USL fit"),
                    points: curve,
                    style: Style::Dashed,
                    color,
                });
            }
            p95.push(Series {
                name,
                points: lat,
                style: Style::Points,
                color,
            });
            fits.push((i, fit, trusted.len()));
        }
        let c1 = Chart::against_threads(
            "sweep-throughput".into(),
            "Throughput against concurrency",
            unit_long,
            tput,
        );
        let c2 = Chart::against_threads(
            "sweep-p95".into(),
            "p95 response time against concurrency",
            "ms",
            p95,
        );
        for c in [c1, c2] {
            push_chart(h, charts_out, c)?;
        }
        let _ = write!(
            h,
            "<h3>Universal Scalability Law</h3><p class=\"note\">X(N) = λN / (1 + σ(N−1) + κN(N−1)): σ is contention (serialisation), κ coherency (crosstalk); the curve peaks at N* = √((1−σ)/κ).</p><table><tr><th>sweep</th><th>λ ({unit} per user)</th><th>σ</th><th>κ</th><th>predicted peak threads</th><th>predicted peak {unit}</th><th>R²</th></tr>"
        );
        for (i, fit, n) in &fits {
            match fit {
                Some(u) => {
                    let _ = write!(
                        h,
                        "<tr><td>{}</td><td class=\"n\">{:.1}</td><td class=\"n\">{:.4}</td><td class=\"n\">{:.6}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3}</td></tr>",
                        esc(&name_of(&i.path)),
                        u.lambda,
                        u.sigma,
                        u.kappa,
                        u.peak_n
                            .map_or("none (no coherency cost)".into(), |p| format!("{p:.0}")),
                        u.peak_x.map_or("-".into(), |x| format!("{x:.0}")),
                        u.r2
                    );
                }
                None => {
                    let _ = write!(
                        h,
                        "<tr><td>{}</td><td colspan=\"6\">no fit: {n} valid level(s) with throughput, 3 needed</td></tr>",
                        esc(&name_of(&i.path))
                    );
                }
            }
        }
        h.push_str("</table>");
    }

    Ok(())
}
