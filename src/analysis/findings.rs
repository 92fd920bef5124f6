//! Findings: plain-language explanations of a result from the server's figures, each citing
//! its number and what to try. A pure function of the stored run (result.json and the
//! server.csv rows), so a report can recompute them from any run directory.

use crate::metrics::server::ServerRow;
pub use crate::results::Finding;
use crate::results::{Phase, RunResult};

fn finding(rule: &str, finding: String, suggestion: &str) -> Finding {
    Finding {
        rule: rule.into(),
        finding,
        suggestion: suggestion.into(),
    }
}

/// Growth of the history list over the measured phase that counts as purge lag.
pub const HISTORY_GROWTH: f64 = 1000.0;
/// Checkpoint age, % of the redo capacity, from which flush storms are likely.
pub const CHECKPOINT_AGE_PCT: f64 = 75.0;
/// Threads_running, as a share of the client's threads, from which the server is the queue.
pub const SERVER_QUEUE_SHARE: f64 = 0.8;
/// Buffer pool reads per transaction from which the run is I/O-bound.
pub const BP_READS_PER_TXN: f64 = 0.1;
/// Client and server CPU together, % of the host, from which they compete for it.
pub const SHARED_CPU_PCT: f64 = 90.0;
/// The driver's share of the host's CPUs from which, on a host busy for other reasons too, it
/// counts as competing with the server.
pub const SHARED_CPU_CLIENT_PCT: f64 = 15.0;
/// B-tree page splits plus reorganisations per transaction (per New-Order for TPC-C) from
/// which rows grow in place or keys land in the middle of full pages. Measured here (TPC-C,
/// 2 warehouses, 4 threads, 20 s): 2.3 per New-Order with `--null-dates null`, 0.09 with
/// `default`.
pub const PAGE_CHURN: f64 = 0.5;
/// Row lock waits per transaction from which rows are hot.
pub const ROW_LOCK_WAITS_PER_TXN: f64 = 0.05;
/// Statements prepared per transaction in the measured phase from which, when their share of
/// the statements falls over it, the virtual users were still preparing what they met for
/// the first time.
pub const PREPARES_PER_TXN: f64 = 0.1;
/// ... and their share of the statements run (Questions) from which they are a real cost.
pub const PREPARES_SHARE: f64 = 0.02;
/// How much prepares per statement run must fall from the measured phase's first half to
/// its second.
pub const PREPARES_FALL: f64 = 0.7;
/// ... or the share of them the sessions kept prepared (first uses, not closed).
pub const PREPARES_KEPT: f64 = 0.5;

/// The findings of a finished run: `rows` are its server.csv rows.
pub fn of(r: &RunResult, rows: &[ServerRow]) -> Vec<Finding> {
    let Some(summary) = &r.summary else {
        return Vec::new();
    };
    let Some(s) = &summary.server else {
        return Vec::new();
    };
    let mut out = Vec::new();
    purge_lag(rows, &mut out);
    still_preparing(rows, summary.transactions, &mut out);
    if let Some(&age) = s.peaks.get("checkpoint_age_pct")
        && age >= CHECKPOINT_AGE_PCT
    {
        out.push(finding(
            "checkpoint_age",
            format!(
                "the checkpoint age reached {age:.0} % of the redo capacity: InnoDB must flush dirty pages in a hurry to free redo space (flush storms, periodic dips in throughput)"
            ),
            "a larger redo log (innodb_log_file_size), or faster page flushing (innodb_io_capacity)",
        ));
    }
    if let Some(&running) = s.averages.get("threads_running") {
        // The monitor's own SHOW STATUS is one of the running threads.
        let running = (running - 1.0).max(0.0);
        let threads = f64::from(r.config.threads);
        if threads >= 2.0 && running >= SERVER_QUEUE_SHARE * threads {
            out.push(finding(
                "server_queue",
                format!(
                    "Threads_running averaged {running:.1} of the {threads:.0} client threads: transactions queue inside the server (it is the bottleneck, not the client)"
                ),
                "find what they wait for: row lock waits, the waits table (performance_schema=ON), or the server's CPU",
            ));
        }
    }
    if let Some(&reads) = s.per_transaction.get("bp_reads")
        && reads >= BP_READS_PER_TXN
    {
        out.push(finding(
            "io_bound",
            format!(
                "the buffer pool read {reads:.2} pages from disk per transaction: the data does not fit in memory, so the run measures the disk"
            ),
            "a larger innodb_buffer_pool_size (or a smaller data set) if a CPU-bound run was meant; a longer warm-up if the pool was still filling",
        ));
    }
    if let Some(&server_cpu) = s.averages.get("server_cpu_pct") {
        let client = summary.client_cpu_pct;
        let both = server_cpu + client;
        let host = s.averages.get("host_cpu_busy_pct").copied();
        // Either the two of them fill the host, or the host is full (other processes too)
        // while the driver takes a real share of it.
        let host_full =
            host.is_some_and(|h| h >= SHARED_CPU_PCT) && client >= SHARED_CPU_CLIENT_PCT;
        if both >= SHARED_CPU_PCT || host_full {
            let others = host
                .map(|h| (h - both).max(0.0))
                .filter(|o| *o >= 5.0)
                .map(|o| format!(", other processes {o:.0} %"))
                .unwrap_or_default();
            out.push(finding(
                "shared_cpu",
                format!(
                    "txbench ({client:.0} %) and the server ({server_cpu:.0} %) together used {both:.0} % of this host's CPUs{}{others}: every CPU second the driver takes is missing from the server",
                    host.map(|h| format!(" (host busy {h:.0} %)")).unwrap_or_default()
                ),
                "run the driver on another machine, or use fewer threads or --rate, before reading this as the server's limit",
            ));
        }
    }
    page_churn(r, s, &mut out);
    if let Some(&waits) = s.per_transaction.get("row_lock_waits")
        && waits >= ROW_LOCK_WAITS_PER_TXN
    {
        let avg = s
            .averages
            .get("row_lock_time_ms_avg")
            .map(|ms| format!(", {ms:.1} ms each on average"))
            .unwrap_or_default();
        let what = match r.config.workload.as_str() {
            "tpcb" => "more branches (--scale): every TPC-B transaction updates its branch row",
            "tpcc" => {
                "more warehouses: Payment and New-Order update the warehouse and district rows"
            }
            _ => "spread the writes over more rows (a larger table, another distribution)",
        };
        out.push(finding(
            "row_locks",
            format!(
                "{waits:.2} row lock waits per transaction{avg}: transactions queue on hot rows"
            ),
            what,
        ));
    }
    out
}

/// Page splits and reorganisations: seed 000's NULL dates that grow when Delivery fills them.
fn page_churn(r: &RunResult, s: &crate::metrics::server::ServerSummary, out: &mut Vec<Finding>) {
    let (per, what) = if s.per_new_order.is_empty() {
        (&s.per_transaction, "transaction")
    } else {
        (&s.per_new_order, "New-Order")
    };
    let splits = per.get("page_splits").copied();
    let reorgs = per.get("page_reorgs").copied();
    if splits.is_none() && reorgs.is_none() {
        return;
    }
    let (splits, reorgs) = (splits.unwrap_or(0.0), reorgs.unwrap_or(0.0));
    if splits + reorgs < PAGE_CHURN {
        return;
    }
    let null_dates = r.config.workload == "tpcc"
        && r.config
            .workload_options
            .get("null_dates")
            .and_then(|v| v.as_str())
            == Some("null");
    let redo = per
        .get("redo_bytes")
        .map(|b| format!(", {:.1} KB of redo", b / 1000.0))
        .unwrap_or_default();
    let (cause, suggestion) = if null_dates {
        (
            " (with --null-dates null, Delivery fills O_CARRIER_ID and OL_DELIVERY_D in place: every delivered row grows)",
            "compare with `--null-dates default` (NOT NULL with a sentinel, rows keep their size); under more threads this churn becomes index lock contention (seed 000: waits on the index rw-lock with performance_schema=ON)",
        )
    } else {
        (
            "",
            "look for rows that grow on update (NULL or VARCHAR columns filled later) or keys inserted into the middle of full pages; innodb_fill_factor leaves room at load time",
        )
    };
    out.push(finding(
        "page_splits",
        format!(
            "{splits:.2} B-tree page splits and {reorgs:.2} page reorganisations per {what}{redo}: records outgrow their pages{cause}"
        ),
        suggestion,
    ));
}

/// Prepares in the measured phase that are first uses: each virtual user prepares a statement
/// when it first meets it (TPC-C's terminals meet some 50), so at thousands of users a short
/// warm-up leaves preparing in the measured phase (2,000 terminals after a 10-s warm-up: two
/// prepares per transaction; after 300 s, still one), and its cost in every cost per
/// transaction. First uses show as prepares per statement run (Questions) falling over the
/// phase, or as statements the sessions keep prepared (MySQL's Prepared_stmt_count) rising by
/// most of the prepares: a workload that prepares and closes as it runs (pgbench's `-M
/// extended`) does neither and is left alone, even when its throughput falls.
fn still_preparing(rows: &[ServerRow], transactions: u64, out: &mut Vec<Finding>) {
    // Per measured row: its seconds, prepares and statements run.
    let measured: Vec<(f64, f64, f64)> = rows
        .iter()
        .filter(|r| r.phase == Phase::Measure)
        .filter_map(|r| {
            let secs = r.end_s - r.start_s;
            Some((
                secs,
                secs * r.get("prepares_per_s")?,
                secs * r.get("questions_per_s")?,
            ))
        })
        .collect();
    if measured.len() < 2 || transactions == 0 {
        return;
    }
    let sums = |part: &[(f64, f64, f64)]| {
        part.iter()
            .fold((0.0, 0.0, 0.0), |a, r| (a.0 + r.0, a.1 + r.1, a.2 + r.2))
    };
    let (first, second) = measured.split_at(measured.len() / 2);
    let ((s1, p1, q1), (s2, p2, q2)) = (sums(first), sums(second));
    let (total, questions) = (p1 + p2, q1 + q2);
    let per_txn = total / transactions as f64;
    let share = |p: f64, q: f64| p / q.max(1.0);
    let overall = share(total, questions);
    let falling = share(p2, q2) <= PREPARES_FALL * share(p1, q1);
    let kept = kept_prepared(rows).filter(|(from, to)| to - from >= PREPARES_KEPT * total);
    if per_txn < PREPARES_PER_TXN || overall < PREPARES_SHARE || !(falling || kept.is_some()) {
        return;
    }
    let pct = overall * 100.0;
    // Kept at a steady rate may also be a workload that never closes what it prepares.
    let leak = if kept.is_some() && !falling {
        " (or the workload prepares statements it never closes)"
    } else {
        ""
    };
    let how = match kept {
        Some((from, to)) => format!(
            "and the sessions kept {:.0} more prepared at its end than at its start (Prepared_stmt_count {from:.0} to {to:.0})",
            to - from
        ),
        None => {
            let (early, late) = (p1 / s1.max(1e-9), p2 / s2.max(1e-9));
            format!("{early:.0} per second in its first half and {late:.0} in its second")
        }
    };
    out.push(finding(
        "still_preparing",
        format!(
            "the server prepared {total:.0} statements in the measured phase, {per_txn:.2} per transaction ({pct:.0} % of the statements run), {how}: the virtual users were still preparing the statements they met for the first time{leak}, so every cost per transaction (the client's and the server's) includes preparing"
        ),
        "a longer --warmup, until server.csv's prepares_per_s is about 0; thousands of paced terminals take many minutes to meet every statement",
    ));
}

/// The statements the sessions kept prepared (server.csv's `prepared_statements`) when the
/// measured phase opened (the warm-up's last row, else its own first) and at its end.
fn kept_prepared(rows: &[ServerRow]) -> Option<(f64, f64)> {
    let first = rows.iter().position(|r| r.phase == Phase::Measure)?;
    let last = rows.iter().rposition(|r| r.phase == Phase::Measure)?;
    let at = |i: usize| rows[i].get("prepared_statements");
    Some((at(first.saturating_sub(1))?, at(last)?))
}

fn purge_lag(rows: &[ServerRow], out: &mut Vec<Finding>) {
    let hll: Vec<(f64, f64)> = rows
        .iter()
        .filter(|r| r.phase == Phase::Measure)
        .filter_map(|r| Some((r.end_s, r.get("history_list_length")?)))
        .collect();
    if hll.len() < 3 {
        return;
    }
    let (t0, first) = hll[0];
    let (t1, last) = hll[hll.len() - 1];
    let rising = hll.windows(2).filter(|w| w[1].1 > w[0].1).count() as f64;
    if last - first >= HISTORY_GROWTH
        && last >= 2.0 * first
        && rising >= 0.6 * (hll.len() - 1) as f64
    {
        let rate = (last - first) / (t1 - t0).max(1e-9);
        out.push(finding(
            "purge_lag",
            format!(
                "the history list length grew from {first:.0} to {last:.0} during the measured phase ({rate:.0} per second): purge does not keep up, so throughput will decline on long runs"
            ),
            "end long-running transactions (INFORMATION_SCHEMA.INNODB_TRX), add purge threads (innodb_purge_threads), and run long enough to see the decline",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::server::COLUMNS;

    fn row(t: f64, vals: &[(&str, f64)]) -> ServerRow {
        ServerRow {
            phase: Phase::Measure,
            start_s: t - 1.0,
            end_s: t,
            values: COLUMNS
                .iter()
                .map(|c| vals.iter().find(|(n, _)| *n == c.name).map(|(_, v)| *v))
                .collect(),
        }
    }

    #[test]
    fn a_steadily_growing_history_list_is_purge_lag() {
        let rows: Vec<ServerRow> = (1..=10)
            .map(|i| row(i as f64, &[("history_list_length", 500.0 * i as f64)]))
            .collect();
        let mut out = Vec::new();
        purge_lag(&rows, &mut out);
        assert_eq!(out.len(), 1);
        assert!(
            out[0].finding.contains("from 500 to 5000"),
            "{}",
            out[0].finding
        );
        // A history list that moves up and down around a level is purge keeping up.
        let rows: Vec<ServerRow> = (1..=10)
            .map(|i| {
                row(
                    i as f64,
                    &[("history_list_length", 800.0 + 700.0 * (i % 2) as f64)],
                )
            })
            .collect();
        let mut out = Vec::new();
        purge_lag(&rows, &mut out);
        assert!(out.is_empty());
    }

    /// 10 one-second rows: `prepares` and `questions` per second in the first 5, then in the
    /// last 5.
    fn prepared(prepares: (f64, f64), questions: (f64, f64)) -> Vec<ServerRow> {
        (1..=10)
            .map(|i| {
                let (p, q) = if i <= 5 {
                    (prepares.0, questions.0)
                } else {
                    (prepares.1, questions.1)
                };
                row(i as f64, &[("prepares_per_s", p), ("questions_per_s", q)])
            })
            .collect()
    }

    fn preparing(rows: &[ServerRow], transactions: u64) -> Vec<Finding> {
        let mut out = Vec::new();
        still_preparing(rows, transactions, &mut out);
        out
    }

    #[test]
    fn falling_prepares_in_the_measured_phase_are_users_still_preparing() {
        // 300 then 100 prepares a second among 3,000 statements a second; 2,000 transactions.
        let out = preparing(&prepared((300.0, 100.0), (3000.0, 3000.0)), 2000);
        assert_eq!(out.len(), 1);
        let f = &out[0].finding;
        assert!(f.contains("prepared 2000 statements"), "{f}");
        assert!(
            f.contains("1.00 per transaction (7 % of the statements run)"),
            "{f}"
        );
        assert!(
            f.contains("300 per second in its first half and 100"),
            "{f}"
        );
        // A prepare per statement run, steady, or falling with the throughput, is the
        // workload, not a warm-up.
        assert!(preparing(&prepared((300.0, 300.0), (3000.0, 3000.0)), 2000).is_empty());
        assert!(preparing(&prepared((300.0, 100.0), (3000.0, 1000.0)), 2000).is_empty());
        // Few against the transactions, or against the statements run, or none recorded
        // (PostgreSQL), say nothing.
        assert!(preparing(&prepared((300.0, 100.0), (3000.0, 3000.0)), 100_000).is_empty());
        assert!(preparing(&prepared((30.0, 10.0), (30_000.0, 30_000.0)), 2000).is_empty());
        assert!(preparing(&[row(1.0, &[]), row(2.0, &[])], 2000).is_empty());
    }

    /// 10 one-second rows of `p` prepares and `q` statements a second, the statements kept
    /// prepared rising by `kept` a second from a warm-up row's 78,000.
    fn kept(p: f64, q: f64, kept: f64) -> Vec<ServerRow> {
        let mut warm = row(0.0, &[("prepared_statements", 78_000.0)]);
        warm.phase = Phase::Warmup;
        let measured = (1..=10).map(|i| {
            let t = i as f64;
            row(
                t,
                &[
                    ("prepares_per_s", p),
                    ("questions_per_s", q),
                    ("prepared_statements", 78_000.0 + kept * t),
                ],
            )
        });
        std::iter::once(warm).chain(measured).collect()
    }

    #[test]
    fn steady_prepares_the_sessions_keep_are_users_still_preparing() {
        // 2,000 paced terminals after a 300-s warm-up: about one prepare per transaction, at a
        // steady rate, every one kept (first uses).
        let out = preparing(&kept(96.0, 1200.0, 96.0), 960);
        assert_eq!(out.len(), 1, "{out:?}");
        let f = &out[0].finding;
        assert!(
            f.contains("1.00 per transaction (8 % of the statements run), and the sessions kept 960 more prepared at its end than at its start (Prepared_stmt_count 78000 to 78960)"),
            "{f}"
        );
        // Prepared and closed as they run (kept flat, or a few): the workload, not a warm-up.
        assert!(preparing(&kept(96.0, 1200.0, 0.0), 960).is_empty());
        assert!(preparing(&kept(96.0, 1200.0, 40.0), 960).is_empty());
    }
}
