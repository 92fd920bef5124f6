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
        let unit = Unit::of(&sweeps);
        let mut curves = Curves::default();
        for (i, rs) in &sweeps {
            curves.add_sweep(i, rs, &unit);
        }
        let c1 = Chart::against_threads(
            "sweep-throughput".into(),
            "Throughput against concurrency",
            unit.long,
            curves.tput,
        );
        let c2 = Chart::against_threads(
            "sweep-p95".into(),
            "p95 response time against concurrency",
            "ms",
            curves.p95,
        );
        for c in [c1, c2] {
            push_chart(h, charts_out, c)?;
        }
        usl_table(h, unit.short, &curves.fits);
    }

    Ok(())
}

/// The unit of the throughput axis and of the fits.
struct Unit {
    /// NOPM (every sweep is TPC-C's) rather than tps.
    nopm: bool,
    /// Its name in the table.
    short: &'static str,
    /// Its name on the chart's axis.
    long: &'static str,
}

impl Unit {
    /// The unit of `sweeps`.
    fn of(sweeps: &[(&Input, &Vec<RunResult>)]) -> Unit {
        // TPC-C's sweeps in NOPM (when every sweep is TPC-C's), others in tps.
        let nopm = sweeps
            .iter()
            .all(|(_, rs)| rs.iter().all(|r| r.throughput().rate.is_some()));
        let (short, long) = if nopm {
            ("NOPM", "New-Orders per minute (NOPM)")
        } else {
            ("tps", "transactions per second")
        };
        Unit { nopm, short, long }
    }

    /// Run `r`'s throughput in this unit.
    fn of_run(&self, r: &RunResult) -> f64 {
        if self.nopm {
            r.throughput().value
        } else {
            r.summary.as_ref().map_or(0.0, |s| s.tps)
        }
    }
}

/// The charts' series and the USL fits, each sweep in its own colour.
#[derive(Default)]
struct Curves<'a> {
    /// Per sweep: its levels, then its USL curve when it has a fit.
    tput: Vec<Series>,
    /// Per sweep: p95 at each level.
    p95: Vec<Series>,
    /// Per sweep: its fit, and how many levels it was fitted to.
    fits: Vec<(&'a Input, Option<Usl>, usize)>,
}

impl<'a> Curves<'a> {
    /// Adds sweep `i`, whose levels' runs are `rs`.
    fn add_sweep(&mut self, i: &'a Input, rs: &[RunResult], unit: &Unit) {
        let name = name_of(&i.path);
        let pts: Vec<(f64, f64)> = rs
            .iter()
            .filter(|r| r.summary.is_some())
            .map(|r| (f64::from(r.config.threads), unit.of_run(r)))
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
            .map(|r| (f64::from(r.config.threads), unit.of_run(r)))
            .filter(|(_, x)| *x > 0.0)
            .collect();
        let fit = Usl::fit(&trusted);
        let color = Some(self.fits.len());
        self.tput.push(Series {
            name: name.clone(),
            points: pts.clone(),
            style: Style::Points,
            color,
        });
        if let Some(u) = &fit {
            self.tput.push(Series {
                name: format!("{name} USL fit"),
                points: usl_curve(u, &pts),
                style: Style::Dashed,
                color,
            });
        }
        self.p95.push(Series {
            name,
            points: lat,
            style: Style::Points,
            color,
        });
        self.fits.push((i, fit, trusted.len()));
    }
}

/// Points of fit `u` from one thread to the most threads in `pts` or the predicted peak,
/// whichever is more, but no further than four times the most threads measured.
fn usl_curve(u: &Usl, pts: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let max_n = pts.iter().map(|p| p.0).fold(1.0, f64::max);
    let top = u.peak_n.map_or(max_n, |p| p.max(max_n)).min(max_n * 4.0);
    (0..=100)
        .map(|k| {
            let n = 1.0 + (top - 1.0) * f64::from(k) / 100.0;
            (n, u.at(n))
        })
        .collect()
}

/// The Universal Scalability Law table: each sweep's fit, in `unit`.
fn usl_table(h: &mut String, unit: &str, fits: &[(&Input, Option<Usl>, usize)]) {
    let _ = write!(
        h,
        "<h3>Universal Scalability Law</h3><p class=\"note\">X(N) = λN / (1 + σ(N−1) + κN(N−1)): σ is contention (serialisation), κ coherency (crosstalk); the curve peaks at N* = √((1−σ)/κ).</p><table><tr><th>sweep</th><th>λ ({unit} per user)</th><th>σ</th><th>κ</th><th>predicted peak threads</th><th>predicted peak {unit}</th><th>R²</th></tr>"
    );
    for (i, fit, n) in fits {
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
