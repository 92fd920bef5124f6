//! Wait events from performance_schema (`events_waits_summary_global_by_event_name`), or on
//! PostgreSQL from pg_stat_activity polled every 100 ms (the sampler adds up the backends it
//! sees waiting, each for the time since the last look: an estimate, and `count` is looks,
//! not waits): their increases per interval, the rows of `waits.csv`, and the measured phase's top waits. Latch
//! contention shows only here, never in a status counter (seed 000's index rw-lock). Pure
//! data: the sampler reads the table.

use crate::metrics::Phase;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One wait event's totals (or their increase).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct WaitStat {
    /// Waits (COUNT_STAR).
    pub count: f64,
    /// Time waited, ms (SUM_TIMER_WAIT, picoseconds on the server).
    pub time_ms: f64,
}

/// Event name → totals.
pub type Waits = BTreeMap<String, WaitStat>;

/// The increase from `a` to the later `b`, events that moved only. A total that went down was
/// reset (TRUNCATE of the summary table): its increase counts from zero.
pub fn delta(a: &Waits, b: &Waits) -> Waits {
    b.iter()
        .filter_map(|(k, v)| {
            let d = match a.get(k) {
                Some(p) if v.count >= p.count && v.time_ms >= p.time_ms => WaitStat {
                    count: v.count - p.count,
                    time_ms: v.time_ms - p.time_ms,
                },
                Some(_) => *v,
                None => *v,
            };
            (d.count > 0.0).then(|| (k.clone(), d))
        })
        .collect()
}

/// Adds `b` to `a`.
pub fn add(a: &mut Waits, b: &Waits) {
    for (k, v) in b {
        let e = a.entry(k.clone()).or_default();
        e.count += v.count;
        e.time_ms += v.time_ms;
    }
}

/// The class of an event, as METRICS.md groups them: `mutex`, `rwlock`, `sxlock`, `cond`,
/// `file I/O`, `table I/O`, `network`, `lock`, or `other`. PostgreSQL's `Type/Event`
/// names by their wait_event_type: LWLock is a read-write lock, Lock and BufferPin are
/// locks, IO is file I/O, Client is the network.
pub fn class(event: &str) -> &'static str {
    match event.split('/').next() {
        Some("LWLock") => return "rwlock",
        Some("Lock" | "BufferPin") => return "lock",
        Some("IO") => return "file I/O",
        Some("Client") => return "network",
        Some("IPC" | "Timeout" | "Activity" | "Extension") => return "other",
        _ => {}
    }
    let mut parts = event.split('/');
    let (_, kind, sub) = (parts.next(), parts.next(), parts.next());
    match (kind, sub) {
        (Some("synch"), Some("mutex")) => "mutex",
        (Some("synch"), Some("rwlock")) => "rwlock",
        (Some("synch"), Some("sxlock")) => "sxlock",
        (Some("synch"), Some("cond")) => "cond",
        (Some("io"), Some("file")) => "file I/O",
        (Some("io"), Some("table")) => "table I/O",
        (Some("io"), Some("socket")) => "network",
        (Some("lock"), _) => "lock",
        _ => "other",
    }
}

/// Events per interval kept in waits.csv (the largest by time waited).
pub const TOP_PER_INTERVAL: usize = 20;

/// One row of waits.csv: one event in one interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WaitRow {
    /// Warm-up or measured.
    pub phase: Phase,
    /// Seconds since the run started: the samples the row lies between.
    pub start_s: f64,
    /// See `start_s`.
    pub end_s: f64,
    /// The event (`wait/synch/rwlock/innodb/index_tree_rw_lock`).
    pub event: String,
    /// Waits per second.
    pub waits_per_s: f64,
    /// Milliseconds waited per second (summed over all threads: 1000 is one thread waiting
    /// all the time).
    pub wait_ms_per_s: f64,
    /// Average wait, µs.
    pub avg_us: f64,
}

/// The header of waits.csv.
pub const CSV_HEADER: &str = "phase,start_s,end_s,event,class,waits_per_s,wait_ms_per_s,avg_us\n";

/// The interval's rows: the [`TOP_PER_INTERVAL`] events that waited longest.
pub fn rows(phase: Phase, start_s: f64, end_s: f64, d: &Waits) -> Vec<WaitRow> {
    let secs = (end_s - start_s).max(1e-9);
    let mut v: Vec<(&String, &WaitStat)> = d.iter().collect();
    v.sort_by(|a, b| b.1.time_ms.total_cmp(&a.1.time_ms));
    v.into_iter()
        .take(TOP_PER_INTERVAL)
        .map(|(k, w)| WaitRow {
            phase,
            start_s,
            end_s,
            event: k.clone(),
            waits_per_s: w.count / secs,
            wait_ms_per_s: w.time_ms / secs,
            avg_us: if w.count > 0.0 {
                w.time_ms * 1000.0 / w.count
            } else {
                0.0
            },
        })
        .collect()
}

impl WaitRow {
    /// The row as a waits.csv line.
    pub fn csv_line(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{},{:.3},{:.3},{},{},{:.3},{:.3},{:.3}",
            match self.phase {
                Phase::Warmup => "warmup",
                Phase::Measure => "measure",
            },
            self.start_s,
            self.end_s,
            self.event.replace(',', ";"),
            class(&self.event),
            self.waits_per_s,
            self.wait_ms_per_s,
            self.avg_us
        );
        s
    }

    /// The rows of a waits.csv file (lines that do not parse are skipped).
    pub fn parse_csv(text: &str) -> Vec<WaitRow> {
        text.lines()
            .skip(1)
            .filter_map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                if f.len() != 8 {
                    return None;
                }
                Some(WaitRow {
                    phase: match f[0] {
                        "warmup" => Phase::Warmup,
                        "measure" => Phase::Measure,
                        _ => return None,
                    },
                    start_s: f[1].parse().ok()?,
                    end_s: f[2].parse().ok()?,
                    event: f[3].to_string(),
                    waits_per_s: f[5].parse().ok()?,
                    wait_ms_per_s: f[6].parse().ok()?,
                    avg_us: f[7].parse().ok()?,
                })
            })
            .collect()
    }
}

/// One of the measured phase's top waits, in result.json.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopWait {
    /// The event.
    pub event: String,
    /// Its class (see [`class`]).
    pub class: String,
    /// Waits per transaction txbench counted.
    pub waits_per_txn: f64,
    /// Milliseconds waited per transaction.
    pub wait_ms_per_txn: f64,
    /// Milliseconds waited per second of the measured phase.
    pub wait_ms_per_s: f64,
    /// Average wait, µs.
    pub avg_us: f64,
    /// Share of all the time waited in the measured phase, %.
    pub share_pct: f64,
}

/// The `n` events that waited longest over `secs` measured seconds and `transactions`.
pub fn top(measured: &Waits, secs: f64, transactions: u64, n: usize) -> Vec<TopWait> {
    let total: f64 = measured.values().map(|w| w.time_ms).sum();
    let mut v: Vec<(&String, &WaitStat)> = measured.iter().collect();
    v.sort_by(|a, b| b.1.time_ms.total_cmp(&a.1.time_ms));
    let txns = transactions.max(1) as f64;
    v.into_iter()
        .take(n)
        .filter(|(_, w)| w.time_ms > 0.0)
        .map(|(k, w)| TopWait {
            event: k.clone(),
            class: class(k).to_string(),
            waits_per_txn: w.count / txns,
            wait_ms_per_txn: w.time_ms / txns,
            wait_ms_per_s: w.time_ms / secs.max(1e-9),
            avg_us: w.time_ms * 1000.0 / w.count.max(1.0),
            share_pct: if total > 0.0 {
                w.time_ms / total * 100.0
            } else {
                0.0
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(pairs: &[(&str, f64, f64)]) -> Waits {
        pairs
            .iter()
            .map(|(k, c, t)| {
                (
                    k.to_string(),
                    WaitStat {
                        count: *c,
                        time_ms: *t,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn deltas_keep_events_that_moved_and_survive_a_reset() {
        let a = w(&[
            ("wait/synch/mutex/a", 10.0, 1.0),
            ("wait/io/file/b", 5.0, 2.0),
        ]);
        let b = w(&[
            ("wait/synch/mutex/a", 30.0, 4.0),
            ("wait/io/file/b", 5.0, 2.0),
            ("wait/synch/rwlock/c", 2.0, 0.5),
        ]);
        let d = delta(&a, &b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d["wait/synch/mutex/a"].count, 20.0);
        assert_eq!(d["wait/synch/mutex/a"].time_ms, 3.0);
        assert_eq!(d["wait/synch/rwlock/c"].count, 2.0);
        // Truncated in between: the new totals are the increase.
        let reset = w(&[("wait/synch/mutex/a", 3.0, 0.2)]);
        assert_eq!(delta(&b, &reset)["wait/synch/mutex/a"].count, 3.0);
        let mut sum = d.clone();
        add(&mut sum, &d);
        assert_eq!(sum["wait/synch/mutex/a"].time_ms, 6.0);
    }

    #[test]
    fn classes_follow_the_instrument_names() {
        assert_eq!(
            class("wait/synch/rwlock/innodb/index_tree_rw_lock"),
            "rwlock"
        );
        assert_eq!(
            class("wait/synch/sxlock/innodb/index_tree_rw_lock"),
            "sxlock"
        );
        assert_eq!(class("wait/synch/mutex/innodb/trx_sys_mutex"), "mutex");
        assert_eq!(class("wait/io/file/innodb/innodb_log_file"), "file I/O");
        assert_eq!(class("wait/io/table/sql/handler"), "table I/O");
        assert_eq!(class("wait/io/socket/sql/client_connection"), "network");
        assert_eq!(class("wait/lock/table/sql/handler"), "lock");
        assert_eq!(class("idle"), "other");
        assert_eq!(class("Lock/transactionid"), "lock");
        assert_eq!(class("LWLock/WALWrite"), "rwlock");
        assert_eq!(class("IO/WALSync"), "file I/O");
        assert_eq!(class("IPC/SyncRep"), "other");
    }

    #[test]
    fn rows_keep_the_longest_waits_and_read_back() {
        let d: Waits = (0..30)
            .map(|i| {
                (
                    format!("wait/synch/mutex/e{i}"),
                    WaitStat {
                        count: 10.0,
                        time_ms: f64::from(i),
                    },
                )
            })
            .collect();
        let r = rows(Phase::Measure, 1.0, 3.0, &d);
        assert_eq!(r.len(), TOP_PER_INTERVAL);
        assert_eq!(r[0].event, "wait/synch/mutex/e29");
        assert_eq!(r[0].wait_ms_per_s, 14.5);
        assert_eq!(r[0].waits_per_s, 5.0);
        assert_eq!(r[0].avg_us, 2900.0);
        let text: String = std::iter::once(CSV_HEADER.to_string())
            .chain(r.iter().map(WaitRow::csv_line))
            .collect();
        assert_eq!(WaitRow::parse_csv(&text), r);
    }

    #[test]
    fn top_waits_per_transaction_and_share() {
        let m = w(&[
            ("wait/synch/rwlock/innodb/index_tree_rw_lock", 400.0, 300.0),
            ("wait/io/file/innodb/innodb_log_file", 100.0, 100.0),
            ("wait/synch/mutex/x", 10.0, 0.0),
        ]);
        let t = top(&m, 10.0, 200, 5);
        assert_eq!(t.len(), 2, "an event with no time waited is not a top wait");
        assert_eq!(t[0].class, "rwlock");
        assert_eq!(t[0].share_pct, 75.0);
        assert_eq!(t[0].wait_ms_per_txn, 1.5);
        assert_eq!(t[0].waits_per_txn, 2.0);
        assert_eq!(t[0].wait_ms_per_s, 30.0);
        assert_eq!(t[0].avg_us, 750.0);
    }
}
