//! TPC-C's scorecard: NOPM, TPM and the input rates the specification requires, from a
//! run's summary and the inputs its terminals drew. Plain arithmetic over serialisable
//! inputs, so `txbench merge` can score the shards of a run together.

use super::DISTRICTS;
use super::txn::{KINDS, P90_LIMIT_S};
use crate::results::{Rate, ScoreLine, Summary, WorkloadReport};
use crate::workload::rand::valid_c_last_delta;
use serde::{Deserialize, Serialize};

/// Deferred Delivery's figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DeferredScore {
    /// 90th percentile of completion time, ms.
    pub p90_ms: f64,
    /// Deliveries completed.
    pub done: u64,
    /// Deliveries that failed.
    pub failed: u64,
    /// `p90_ms` is the largest of several shards' 90th percentiles: the run's is at most that.
    #[serde(default)]
    pub upper_bound: bool,
}

/// What the scorecard counts beside the summary (stored in the report, summed by `merge`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreInputs {
    /// Warehouses of the run.
    pub warehouses: u32,
    /// The specification's keying and think times.
    pub spec_think: bool,
    /// C for C_LAST at load time.
    pub c_last_load: u32,
    /// C for C_LAST in this run.
    pub c_last: u32,
    /// What the terminals drew and Delivery found.
    #[serde(flatten)]
    pub counts: Counts,
    /// With --delivery deferred.
    pub deferred: Option<DeferredScore>,
    /// Per table set, with more than one (`--table-sets`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sets: Vec<SetScore>,
}

/// What one table set's terminals did: its share of the run and its own mix and input rates.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetScore {
    /// Its schema.
    #[serde(default)]
    pub schema: String,
    /// Transactions done per kind (committed or rolled back on purpose).
    pub done: [u64; 5],
    /// New-Orders rolled back on purpose.
    pub rolled_back: u64,
    /// What its terminals drew and Delivery found.
    #[serde(flatten)]
    pub counts: Counts,
}

/// The input rates' counts: what the terminals drew and what Delivery found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// New-Order lines.
    pub lines: u64,
    /// Of those, supplied by a remote warehouse.
    pub remote_lines: u64,
    /// Payments.
    pub payments: u64,
    /// Of those, for a customer of a remote warehouse.
    pub remote_payments: u64,
    /// Of those, by last name.
    pub payments_by_name: u64,
    /// Order-Status transactions.
    pub order_status: u64,
    /// Of those, by last name.
    pub order_status_by_name: u64,
    /// Districts that Delivery visited.
    pub delivery_districts: u64,
    /// Of those, with no undelivered order.
    pub skipped_districts: u64,
}

impl Counts {
    /// Both counted together.
    pub fn plus(self, o: &Counts) -> Counts {
        Counts {
            lines: self.lines + o.lines,
            remote_lines: self.remote_lines + o.remote_lines,
            payments: self.payments + o.payments,
            remote_payments: self.remote_payments + o.remote_payments,
            payments_by_name: self.payments_by_name + o.payments_by_name,
            order_status: self.order_status + o.order_status,
            order_status_by_name: self.order_status_by_name + o.order_status_by_name,
            delivery_districts: self.delivery_districts + o.delivery_districts,
            skipped_districts: self.skipped_districts + o.skipped_districts,
        }
    }
}

impl SetScore {
    /// Both counted together (shards of one set, or all sets); the first's schema.
    pub fn plus(mut self, o: &SetScore) -> SetScore {
        for (a, b) in self.done.iter_mut().zip(o.done) {
            *a += b;
        }
        self.rolled_back += o.rolled_back;
        self.counts = self.counts.plus(&o.counts);
        if self.schema.is_empty() {
            self.schema = o.schema.clone();
        }
        self
    }
}

impl ScoreInputs {
    /// The shards' inputs as one run's: counts summed; deferred completion's 90th percentile
    /// as the largest shard's (an upper bound of the run's). Shards that drew different
    /// run-time C values (different seeds) keep the first's, and say so.
    pub fn merge(parts: &[ScoreInputs]) -> Option<(ScoreInputs, Option<String>)> {
        let (first, rest) = parts.split_first()?;
        let mut m = first.clone();
        let mut note = None;
        for p in rest {
            m.counts = m.counts.plus(&p.counts);
            if m.sets.len() == p.sets.len() {
                m.sets = m
                    .sets
                    .iter()
                    .zip(&p.sets)
                    .map(|(a, b)| a.clone().plus(b))
                    .collect();
            } else {
                note = Some(format!(
                    "the shards ran different numbers of table sets ({} and {}): the per-set lines are left out",
                    m.sets.len().max(1),
                    p.sets.len().max(1)
                ));
                m.sets.clear();
            }
            m.deferred = match (m.deferred, p.deferred) {
                (Some(a), Some(b)) => Some(DeferredScore {
                    p90_ms: a.p90_ms.max(b.p90_ms),
                    done: a.done + b.done,
                    failed: a.failed + b.failed,
                    upper_bound: true,
                }),
                (a, b) => a.or(b),
            };
            if p.c_last != first.c_last {
                note = Some(format!(
                    "the shards drew different run-time C values for C_LAST ({} and {}: no shared --seed or --start-at); the scorecard shows the first shard's",
                    first.c_last, p.c_last
                ));
            }
        }
        Some((m, note))
    }
}

/// The scorecard of a run: `s` its measured phase, `i` what its terminals drew.
pub fn report(s: &Summary, i: &ScoreInputs) -> WorkloadReport {
    let minutes = s.duration_s / 60.0;
    let kind = |i: usize| s.kinds.get(i);
    let new_orders = kind(0).map(|k| k.completed).unwrap_or(0);
    let nopm = new_orders as f64 / minutes.max(1e-9);
    let tpm = s.transactions as f64 / minutes.max(1e-9);
    let get = |n: u64| n as f64;
    let pct = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    let done: [u64; 5] = std::array::from_fn(|n| kind(n).map_or(0, |k| k.completed));
    let rolled_back = kind(0).map_or(0, |k| k.rolled_back);
    let mut card = input_rates(&done, s.transactions, rolled_back, &i.counts, i.warehouses);
    // 5.4.5: skipped districts at most 1 % of the Delivery transactions, or 1, whichever
    // is greater.
    let deliveries = get(i.counts.delivery_districts) / f64::from(DISTRICTS);
    let skipped = get(i.counts.skipped_districts);
    let limit = (deliveries * 0.01).max(1.0);
    card.push(ScoreLine {
        name: "Delivery skipped districts".into(),
        value: format!(
            "{skipped:.0} in {deliveries:.0} deliveries ({:.2} %)",
            pct(skipped, deliveries)
        ),
        requirement: format!("<= {:.0} (1 % of deliveries, at least 1)", limit.floor()),
        pass: (deliveries > 0.0).then_some(skipped <= limit),
    });
    for (n, name) in KINDS.iter().enumerate() {
        if let Some(k) = kind(n)
            && k.completed > 0
        {
            let p90 = k.response.p90_ms / 1000.0;
            card.push(ScoreLine {
                name: format!("90th percentile {name}"),
                value: format!("{p90:.3} s"),
                requirement: format!("<= {} s", P90_LIMIT_S[n]),
                pass: Some(p90 <= P90_LIMIT_S[n]),
            });
        }
    }
    if let Some(d) = &i.deferred {
        let within = if d.upper_bound { "at most" } else { "within" };
        card.push(ScoreLine {
            name: "deferred Delivery completion".into(),
            value: format!("90 % {within} {:.3} s ({} done)", d.p90_ms / 1000.0, d.done),
            requirement: "90 % within 80 s".into(),
            pass: (d.done > 0).then_some(d.p90_ms <= 80_000.0),
        });
        card.push(ScoreLine {
            name: "deferred Delivery failures".into(),
            value: d.failed.to_string(),
            requirement: "0".into(),
            pass: Some(d.failed == 0),
        });
    }
    let delta = i.c_last_load.abs_diff(i.c_last);
    card.push(ScoreLine {
        name: "C_LAST run/load delta".into(),
        value: format!("{delta} (load {}, run {})", i.c_last_load, i.c_last),
        requirement: "65 .. 119, not 96 or 112".into(),
        pass: Some(valid_c_last_delta(i.c_last_load, i.c_last)),
    });
    card.extend(set_lines(&i.sets, nopm, i.warehouses));
    let per_wh = nopm / f64::from(i.warehouses) / i.sets.len().max(1) as f64;
    card.push(ScoreLine {
        name: "NOPM per warehouse".into(),
        value: format!("{per_wh:.2}"),
        requirement: if i.spec_think {
            "9 .. 12.86 with the specification's think times".into()
        } else {
            "informational without the specification's think times".into()
        },
        pass: (i.spec_think).then(|| (9.0..=12.86).contains(&per_wh)),
    });
    WorkloadReport {
        statements: Vec::new(),
        headline: vec![
            ("NOPM".into(), format!("{nopm:.0}")),
            ("TPM".into(), format!("{tpm:.0}")),
            ("warehouses".into(), i.warehouses.to_string()),
        ]
        .into_iter()
        .chain((!i.sets.is_empty()).then(|| ("table sets".into(), i.sets.len().to_string())))
        .collect(),
        scorecard: card,
        inputs: serde_json::to_value(i).ok(),
        rate: Some(Rate {
            name: "NOPM".into(),
            kind: KINDS[0].into(),
            per_minute: nopm,
            all_per_minute: tpm,
        }),
    }
}

/// The mix and input-rate rules (clauses 5.2.3, 2.4.1, 2.5.1, 2.6.1) as scorecard lines:
/// `done` transactions per kind out of `total`, `rolled_back` New-Orders, and what the
/// terminals drew. The run's card shows them; each table set's line checks them for its
/// own terminals. With one warehouse (in each set) there is no remote warehouse: every
/// line and customer is the home warehouse's (2.4.1.5, 2.5.1.2), and the remote rates are
/// not judged.
fn input_rates(
    done: &[u64; 5],
    total: u64,
    rolled_back: u64,
    c: &Counts,
    warehouses: u32,
) -> Vec<ScoreLine> {
    let get = |n: u64| n as f64;
    let pct = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    let range = |name: &str, v: f64, lo: f64, hi: f64, unit: &str, n: f64| ScoreLine {
        name: name.into(),
        value: format!("{v:.2}{unit}"),
        requirement: format!("{lo} .. {hi}{unit}"),
        pass: (n > 0.0).then_some(v >= lo && v <= hi),
    };
    let remote = |line: ScoreLine| {
        if warehouses > 1 {
            line
        } else {
            ScoreLine {
                requirement: format!("{} with remote warehouses (one here)", line.requirement),
                pass: None,
                ..line
            }
        }
    };
    let mut card = Vec::new();
    for (n, name) in KINDS.iter().enumerate().skip(1) {
        let share = pct(get(done[n]), get(total));
        let min = if n == 1 { 43.0 } else { 4.0 };
        card.push(ScoreLine {
            name: format!("mix {name}"),
            value: format!("{share:.2} %"),
            requirement: format!(">= {min} %"),
            pass: Some(share >= min),
        });
    }
    let (rolled, nos) = (get(rolled_back), get(done[0]));
    card.push(range(
        "New-Order rollbacks",
        pct(rolled, nos),
        0.9,
        1.1,
        " %",
        nos,
    ));
    let committed = nos - rolled;
    card.push(range(
        "order lines per order",
        get(c.lines) / committed.max(1.0),
        9.5,
        10.5,
        "",
        committed,
    ));
    for (name, part, whole, lo, hi) in [
        ("remote order lines", c.remote_lines, c.lines, 0.95, 1.05),
        ("remote Payments", c.remote_payments, c.payments, 14.0, 16.0),
    ] {
        let whole = get(whole);
        card.push(remote(range(
            name,
            pct(get(part), whole),
            lo,
            hi,
            " %",
            whole,
        )));
    }
    card.push(range(
        "Payments by last name",
        pct(get(c.payments_by_name), get(c.payments)),
        57.0,
        63.0,
        " %",
        get(c.payments),
    ));
    card.push(range(
        "Order-Status by last name",
        pct(get(c.order_status_by_name), get(c.order_status)),
        57.0,
        63.0,
        " %",
        get(c.order_status),
    ));
    card
}

/// One line per table set: its share of NOPM (the run's NOPM in proportion to its
/// New-Orders, so the sets add up to the run's) and whether its own mix and input rates
/// hold (its terminals draw them alone).
fn set_lines(sets: &[SetScore], nopm: f64, warehouses: u32) -> Vec<ScoreLine> {
    let all_new: u64 = sets.iter().map(|s| s.done[0]).sum();
    let pct = |a: u64, b: u64| {
        if b > 0 {
            100.0 * a as f64 / b as f64
        } else {
            0.0
        }
    };
    sets.iter()
        .enumerate()
        .map(|(i, s)| {
            let total: u64 = s.done.iter().sum();
            let wrong: Vec<String> =
                input_rates(&s.done, total, s.rolled_back, &s.counts, warehouses)
                    .into_iter()
                    .filter(|l| l.pass == Some(false))
                    .map(|l| format!("{} {}", l.name, l.value))
                    .collect();
            ScoreLine {
                name: format!("set {} ({}) NOPM", i + 1, s.schema),
                value: format!(
                    "{:.0} ({:.1} % of the New-Orders){}",
                    nopm * s.done[0] as f64 / (all_new.max(1)) as f64,
                    pct(s.done[0], all_new),
                    if wrong.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", wrong.join(", "))
                    }
                ),
                requirement: "its own mix and input rates as above".into(),
                pass: (total > 0).then_some(wrong.is_empty()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warehouse_does_not_judge_the_remote_rates() {
        // A run's worth of draws with nothing remote, as one warehouse draws them.
        let c = Counts {
            lines: 10_000,
            payments: 1_000,
            payments_by_name: 600,
            order_status: 100,
            order_status_by_name: 60,
            ..Counts::default()
        };
        let done = [1_000, 1_000, 100, 100, 100];
        let judged = |warehouses: u32| -> Vec<(String, Option<bool>)> {
            input_rates(&done, 2_300, 10, &c, warehouses)
                .into_iter()
                .filter(|l| l.name.starts_with("remote"))
                .map(|l| (l.name, l.pass))
                .collect()
        };
        assert_eq!(
            judged(1),
            [
                ("remote order lines".to_string(), None),
                ("remote Payments".to_string(), None)
            ]
        );
        assert_eq!(
            judged(2),
            [
                ("remote order lines".to_string(), Some(false)),
                ("remote Payments".to_string(), Some(false))
            ]
        );
    }
}
