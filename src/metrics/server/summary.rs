//! The measured phase's server figures stored in result.json: per transaction and per
//! New-Order, averages and peaks, the cross-check records, and the "why" rows.

use super::*;

/// The server's count beside txbench's, over the measured phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossCheck {
    /// What is counted ("transactions (Com_commit + Com_rollback)", "New-Orders (SUM(D_NEXT_O_ID))").
    pub what: String,
    /// The server's figure.
    pub server: f64,
    /// txbench's figure.
    pub txbench: f64,
    /// The largest difference that is not material for this run.
    pub allowed: f64,
    /// Whether the difference is within `allowed` (and `excess_allowed`).
    pub agrees: bool,
    /// How many more txbench may count than the server besides `allowed`: the work of
    /// transactions in flight when a warm-up ended, which txbench counts when they end and
    /// the server before the measured phase opened. One-sided: it never hides the server
    /// counting more (another client).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub excess_allowed: f64,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

impl CrossCheck {
    /// Compares `server` with `txbench`: `slack` is the difference the run's own timing and
    /// errors can explain (transactions around the sample that opened the measured phase,
    /// failed attempts whose ROLLBACK may count twice, COMMITs that lost their connection);
    /// beyond it, 2 % of txbench's count (at least 10) is allowed.
    pub fn new(what: &str, server: f64, txbench: f64, slack: f64) -> CrossCheck {
        let allowed = slack + (txbench * 0.02).max(10.0);
        CrossCheck {
            what: what.to_string(),
            server,
            txbench,
            allowed,
            agrees: (server - txbench).abs() <= allowed,
            excess_allowed: 0.0,
        }
    }

    /// The same check, allowing txbench `excess` more than the server besides.
    pub fn with_excess(mut self, excess: f64) -> CrossCheck {
        self.excess_allowed = excess;
        self.agrees = (self.server - self.txbench).abs() <= self.limit();
        self
    }

    /// The difference allowed on the side it falls: `allowed`, and `excess_allowed` besides
    /// when txbench counted more.
    pub fn limit(&self) -> f64 {
        if self.txbench > self.server {
            self.allowed + self.excess_allowed
        } else {
            self.allowed
        }
    }

    /// The INVALID reason when the figures disagree.
    pub fn reason(&self) -> Option<String> {
        (!self.agrees).then(|| {
            format!(
                "the server counted {:.0} {} over the measured phase but txbench counted {:.0} (a difference of {:+.1} %, more than the {:.0} this run's timing and errors explain): another client was using the server, or txbench miscounted",
                self.server,
                self.what,
                self.txbench,
                (self.server - self.txbench) / self.txbench.max(1.0) * 100.0,
                self.limit()
            )
        })
    }
}

/// A Galera node's own count of the conflicts its clients saw as deadlocks (MariaDB reports
/// a failed certification and a brute-force abort with the same 1213 and text as an InnoDB
/// deadlock, so the client cannot tell them apart; the node's counters can).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflicts {
    /// Transactions that failed certification against another node's (wsrep_local_cert_failures).
    pub cert_failures: f64,
    /// Local transactions aborted by a replicated one (wsrep_local_bf_aborts).
    pub bf_aborts: f64,
    /// InnoDB's own deadlocks (Innodb_deadlocks or lock_deadlocks).
    pub innodb_deadlocks: Option<f64>,
}

/// Which of the server's own counters should match txbench's, per workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerCount {
    /// Every transaction attempt (of the kinds that commit) ends with COMMIT or ROLLBACK:
    /// compare Com_commit + Com_rollback.
    pub transactions: bool,
    /// txbench sends and counts every statement itself (no stored procedures, no deferred
    /// work): compare Com_select + Com_insert + Com_update + Com_delete + Com_replace.
    pub statements: bool,
    /// A failed attempt sends ROLLBACK once or twice (a stored procedure's handler rolls back
    /// and re-signals, then the driver rolls back): each counts from 1 to 2 rollbacks.
    pub double_rollback: bool,
    /// PostgreSQL: the transactions each attempt ends are known (Workload::commits and
    /// autocommit_statements): compare pg_stat_database's count.
    #[serde(default = "yes")]
    pub pg_transactions: bool,
}

fn yes() -> bool {
    true
}

/// The server block of the summary: per-transaction figures, peaks and the cross-checks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerSummary {
    /// Measured seconds the server figures cover (between the samples that bound the
    /// measured phase).
    pub duration_s: f64,
    /// Per transaction txbench counted, over the measured phase (`server_cpu_ms`,
    /// `redo_bytes`, `page_splits`, `row_lock_waits`, `bp_reads`, …).
    pub per_transaction: BTreeMap<String, f64>,
    /// TPC-C: the same per New-Order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_new_order: BTreeMap<String, f64>,
    /// Averages over the measured phase (`server_cpu_pct`, `threads_running`, …).
    pub averages: BTreeMap<String, f64>,
    /// The highest value of each gauge in the measured phase.
    pub peaks: BTreeMap<String, f64>,
    /// The server's counts beside txbench's.
    pub cross_checks: Vec<CrossCheck>,
    /// Cross-checks that were not made, and why (a run whose checks could not be made
    /// where they normally are is INVALID: a check not made is not a check passed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks_not_made: Vec<String>,
    /// Samples taken.
    pub samples: u64,
    /// Samples skipped because the previous one was still running.
    pub skipped_samples: u64,
    /// Average wall time of a sample, ms.
    pub sample_ms_avg: f64,
    /// Longest sample, ms.
    pub sample_ms_max: f64,
    /// The monitor's own CPU over the measured phase, ms (the sampler thread of the client).
    #[serde(default)]
    pub monitor_cpu_ms: f64,
    /// What could not be recorded, and why.
    #[serde(default)]
    pub not_recorded: Vec<String>,
    /// The port the monitor read the server through when it was not the users': MariaDB's
    /// `extra_port`, served a thread per connection, past a thread pool that would queue the
    /// samples behind the virtual users' statements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monitor_port: Option<u16>,
    /// The wait events that waited longest in the measured phase (performance_schema on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_waits: Vec<crate::metrics::waits::TopWait>,
}

/// Wait events kept in the summary's `top_waits`.
pub const TOP_WAITS: usize = 10;

/// Columns whose peak the summary keeps.
pub const PEAK_COLUMNS: &[&str] = &[
    "history_list_length",
    "checkpoint_age_pct",
    "dirty_pages_pct",
    "threads_running",
    "active_transactions",
    "server_rss_mb",
    "server_cpu_pct",
    "host_cpu_busy_pct",
];

/// Columns whose measured-phase average the summary keeps.
pub const AVERAGE_COLUMNS: &[&str] = &[
    "server_cpu_pct",
    "host_cpu_busy_pct",
    "host_iowait_pct",
    "host_steal_pct",
    "threads_running",
    "history_list_length",
    "checkpoint_age_pct",
    "dirty_pages_pct",
    "row_lock_time_ms_avg",
    "fsync_ms_avg",
    "disk_write_mb_per_s",
];

impl ServerSummary {
    /// Figures over the measured phase: `measured` is the sum of its deltas, `rows` every
    /// server.csv row, `transactions` and `new_orders` what txbench counted.
    pub fn of(
        measured: &Delta,
        rows: &[ServerRow],
        transactions: u64,
        new_orders: Option<u64>,
    ) -> ServerSummary {
        let mut s = ServerSummary {
            duration_s: measured.secs,
            ..ServerSummary::default()
        };
        let rows_written = match (
            measured.status("innodb_rows_inserted"),
            measured.status("innodb_rows_updated"),
        ) {
            (Some(i), Some(u)) => Some(i + u),
            _ => None,
        };
        let figures: [(&str, Option<f64>); 14] = [
            ("rows_written", rows_written),
            ("server_cpu_ms", measured.server_cpu_s().map(|c| c * 1000.0)),
            ("redo_bytes", measured.redo_bytes()),
            ("page_splits", measured.page_splits()),
            ("page_reorgs", measured.page_reorgs()),
            ("row_lock_waits", measured.status("innodb_row_lock_waits")),
            ("bp_reads", measured.status("innodb_buffer_pool_reads")),
            (
                "bp_read_requests",
                measured.status("innodb_buffer_pool_read_requests"),
            ),
            (
                "disk_write_kb",
                measured.disk.map(|d| d.write_bytes / 1024.0),
            ),
            ("fsyncs", measured.disk.map(|d| d.flushes)),
            ("rows_scanned", measured.status("handler_read_rnd_next")),
            // What replication makes a commit wait for: a semi-synchronous primary's wait for
            // its replica's acknowledgement (µs in MariaDB's counter), a Galera node's pauses
            // by flow control (ns) and its transactions that failed certification.
            (
                "ack_wait_ms",
                measured
                    .status("rpl_semi_sync_master_tx_wait_time")
                    .map(|us| us / 1000.0),
            ),
            (
                "flow_control_ms",
                measured
                    .status("wsrep_flow_control_paused_ns")
                    .map(|ns| ns / 1e6),
            ),
            (
                "cert_failures",
                measured.status("wsrep_local_cert_failures"),
            ),
        ];
        for (name, v) in figures {
            // A replication figure of 0 is left out: every MariaDB has the counters, and a
            // server that waits for nobody should not print "0 ms" in every run.
            let v = v.filter(|v| *v != 0.0 || !ABSENT_WHEN_ZERO.contains(&name));
            if let Some(v) = v {
                if transactions > 0 {
                    s.per_transaction
                        .insert(name.into(), v / transactions as f64);
                }
                if let Some(n) = new_orders.filter(|n| *n > 0) {
                    s.per_new_order.insert(name.into(), v / n as f64);
                }
            }
        }
        s.top_waits =
            crate::metrics::waits::top(&measured.waits, measured.secs, transactions, TOP_WAITS);
        let measure: Vec<&ServerRow> = rows
            .iter()
            .filter(|r| r.phase == crate::metrics::Phase::Measure)
            .collect();
        for name in PEAK_COLUMNS {
            if let Some(m) = measure
                .iter()
                .filter_map(|r| r.get(name))
                .fold(None, |a: Option<f64>, v| Some(a.map_or(v, |a| a.max(v))))
            {
                s.peaks.insert(name.to_string(), m);
            }
        }
        for name in AVERAGE_COLUMNS {
            let vals: Vec<f64> = measure.iter().filter_map(|r| r.get(name)).collect();
            if !vals.is_empty() {
                s.averages.insert(
                    name.to_string(),
                    vals.iter().sum::<f64>() / vals.len() as f64,
                );
            }
        }
        s
    }
}

/// One line of a "why" table: a server figure of BASE and NEW.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WhyRow {
    /// `per transaction: page_splits`, `per New-Order: redo_bytes`, …
    pub figure: String,
    /// BASE's value.
    pub base: f64,
    /// NEW's value.
    pub new: f64,
    /// (NEW − BASE) / BASE, % (None when BASE is 0).
    pub change_pct: Option<f64>,
}

/// BASE's and NEW's per-transaction (and per-New-Order) server figures side by side, ranked
/// by relative change (figures that appear from nothing first, unchanged ones last): the
/// likely cause of a verdict. Averages of levels (CPU %, Threads_running) are left out: they
/// follow the throughput rather than explain it.
pub fn why(base: &ServerSummary, new: &ServerSummary) -> Vec<WhyRow> {
    let mut rows = Vec::new();
    for (group, b, n) in [
        (
            "per transaction",
            &base.per_transaction,
            &new.per_transaction,
        ),
        ("per New-Order", &base.per_new_order, &new.per_new_order),
    ] {
        for (k, &bv) in b {
            let Some(&nv) = n.get(k) else { continue };
            rows.push(WhyRow {
                figure: format!("{group}: {k}"),
                base: bv,
                new: nv,
                change_pct: (bv.abs() > 1e-12).then(|| (nv - bv) / bv.abs() * 100.0),
            });
        }
    }
    let rank = |r: &WhyRow| match r.change_pct {
        Some(c) => c.abs(),
        None if r.new.abs() > 1e-12 => f64::INFINITY,
        None => 0.0,
    };
    rows.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
    rows
}

/// Per-transaction figures recorded only when not 0 (a server without replication waits for
/// nothing); an experiment compares their absence as 0.
pub const ABSENT_WHEN_ZERO: &[&str] = &["ack_wait_ms", "flow_control_ms", "cert_failures"];

/// Labels of the per-transaction figures (`#` is the value).
pub const PER_TXN_LABELS: &[(&str, &str)] = &[
    ("server_cpu_ms", "CPU # ms"),
    ("redo_bytes", "redo # B"),
    ("page_splits", "page splits #"),
    ("page_reorgs", "page reorganisations #"),
    ("row_lock_waits", "row lock waits #"),
    ("bp_reads", "buffer pool reads #"),
    ("bp_read_requests", "page requests #"),
    ("rows_scanned", "rows scanned #"),
    ("disk_write_kb", "disk writes # KiB"),
    ("fsyncs", "fsyncs #"),
    ("ack_wait_ms", "semi-sync acknowledgement wait # ms"),
    ("flow_control_ms", "Galera flow-control pause # ms"),
    ("cert_failures", "certification failures #"),
];

/// A per-transaction figure as printed: three significant places or so (0.014, 2.24, 1520).
pub fn figure_text(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}
