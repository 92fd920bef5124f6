//! server.csv: the named per-interval columns (one table: name, doc, formula over a Delta)
//! and its rows.

use super::*;

/// One column of server.csv: its name and how it is computed from a [`Delta`].
pub struct Column {
    /// Plain name (`page_splits_per_s`).
    pub name: &'static str,
    /// What it says, for the schema document.
    pub doc: &'static str,
    /// The value, when the server and host let us compute it.
    pub value: fn(&Delta) -> Option<f64>,
}

fn pct(num: Option<f64>, den: Option<f64>) -> Option<f64> {
    let d = den?;
    (d > 0.0).then_some(num? / d * 100.0)
}

/// Every server.csv column after `phase,start_s,end_s`, in order.
pub const COLUMNS: &[Column] = &[
    Column {
        name: "server_cpu_pct",
        doc: "server process CPU (user + system), % of all the host's CPUs",
        value: |d| pct(d.server_cpu_s(), d.host.map(|h| d.secs * h.cpus)),
    },
    Column {
        name: "server_rss_mb",
        doc: "server process resident memory, MiB",
        value: |d| d.process.map(|p| p.rss_bytes / 1048576.0),
    },
    Column {
        name: "server_read_mb_per_s",
        doc: "bytes the server process read from storage, MiB/s",
        value: |d| d.rate(d.process.map(|p| p.read_bytes / 1048576.0)),
    },
    Column {
        name: "server_write_mb_per_s",
        doc: "bytes the server process wrote to storage, MiB/s",
        value: |d| d.rate(d.process.map(|p| p.write_bytes / 1048576.0)),
    },
    Column {
        name: "host_cpu_busy_pct",
        doc: "the host's CPUs busy (not idle, not iowait), %",
        value: |d| pct(d.host.map(|h| h.busy_s), d.host.map(|h| h.total_s)),
    },
    Column {
        name: "host_iowait_pct",
        doc: "the host's CPUs idle waiting for I/O, %",
        value: |d| pct(d.host.map(|h| h.iowait_s), d.host.map(|h| h.total_s)),
    },
    Column {
        name: "host_steal_pct",
        doc: "the host's CPU time taken by the hypervisor, %",
        value: |d| pct(d.host.map(|h| h.steal_s), d.host.map(|h| h.total_s)),
    },
    Column {
        name: "context_switches_per_s",
        doc: "the host's context switches per second",
        value: |d| d.rate(d.host.map(|h| h.ctxt)),
    },
    Column {
        name: "disk_reads_per_s",
        doc: "reads completed by the data directory's device per second",
        value: |d| d.rate(d.disk.map(|k| k.reads)),
    },
    Column {
        name: "disk_read_mb_per_s",
        doc: "the data directory's device: MiB read per second",
        value: |d| d.rate(d.disk.map(|k| k.read_bytes / 1048576.0)),
    },
    Column {
        name: "disk_writes_per_s",
        doc: "writes completed by the data directory's device per second",
        value: |d| d.rate(d.disk.map(|k| k.writes)),
    },
    Column {
        name: "disk_write_mb_per_s",
        doc: "the data directory's device: MiB written per second",
        value: |d| d.rate(d.disk.map(|k| k.write_bytes / 1048576.0)),
    },
    Column {
        name: "fsyncs_per_s",
        doc: "flush requests (fsync, fdatasync) completed by the device per second",
        value: |d| d.rate(d.disk.map(|k| k.flushes)),
    },
    Column {
        name: "fsync_ms_avg",
        doc: "average time of the device's flush requests, ms",
        value: |d| {
            let k = d.disk?;
            (k.flushes > 0.0).then_some(k.flush_ms / k.flushes)
        },
    },
    Column {
        name: "innodb_fsyncs_per_s",
        doc: "fsyncs InnoDB asked for (Innodb_data_fsyncs; PostgreSQL: pg_stat_wal.wal_sync) per second",
        value: |d| d.rate(d.counter(&["innodb_data_fsyncs", "pg_wal_sync"])),
    },
    Column {
        name: "commits_per_s",
        doc: "COMMIT statements (Com_commit; PostgreSQL: pg_stat_database.xact_commit, autocommitted statements included) per second",
        value: |d| d.rate(d.counter(&["com_commit", "pg_xact_commit"])),
    },
    Column {
        name: "rollbacks_per_s",
        doc: "ROLLBACK statements (Com_rollback; PostgreSQL: xact_rollback) per second",
        value: |d| d.rate(d.counter(&["com_rollback", "pg_xact_rollback"])),
    },
    Column {
        name: "questions_per_s",
        doc: "statements clients sent (Questions) per second",
        value: |d| d.rate(d.status("questions")),
    },
    Column {
        name: "prepares_per_s",
        doc: "statements prepared (Com_stmt_prepare; not counted on PostgreSQL) per second",
        value: |d| d.rate(d.status("com_stmt_prepare")),
    },
    Column {
        name: "prepared_statements",
        doc: "statements prepared and not closed, all sessions (Prepared_stmt_count; not on PostgreSQL): rising, sessions still meet statements for the first time",
        value: |d| d.gauge(&["prepared_stmt_count"]),
    },
    Column {
        name: "threads_running",
        doc: "server threads executing a statement (Threads_running, the monitor's own included)",
        value: |d| d.gauge(&["threads_running"]),
    },
    Column {
        name: "threads_connected",
        doc: "open connections (Threads_connected)",
        value: |d| d.gauge(&["threads_connected"]),
    },
    Column {
        name: "row_lock_waits_per_s",
        doc: "row lock waits (Innodb_row_lock_waits) per second",
        value: |d| d.rate(d.status("innodb_row_lock_waits")),
    },
    Column {
        name: "row_lock_time_ms_avg",
        doc: "average row lock wait in the interval, ms (Innodb_row_lock_time / _waits)",
        value: |d| {
            let w = d.status("innodb_row_lock_waits")?;
            (w > 0.0).then_some(d.status("innodb_row_lock_time")? / w)
        },
    },
    Column {
        name: "deadlocks_per_s",
        doc: "deadlocks (Innodb_deadlocks, or INNODB_METRICS lock_deadlocks; PostgreSQL: pg_stat_database.deadlocks) per second",
        value: |d| {
            d.rate(d.counter(&["innodb_deadlocks", "innodb:lock_deadlocks", "pg_deadlocks"]))
        },
    },
    Column {
        name: "page_splits_per_s",
        doc: "B-tree page splits (INNODB_METRICS index_page_splits) per second",
        value: |d| d.rate(d.page_splits()),
    },
    Column {
        name: "page_reorgs_per_s",
        doc: "B-tree page reorganisations (index_page_reorg_attempts: a grown record did not fit) per second",
        value: |d| d.rate(d.page_reorgs()),
    },
    Column {
        name: "page_merges_per_s",
        doc: "successful B-tree page merges (index_page_merge_successful) per second",
        value: |d| d.rate(d.counter(&["innodb:index_page_merge_successful"])),
    },
    Column {
        name: "history_list_length",
        doc: "undo records not purged yet (Innodb_history_list_length or trx_rseg_history_len)",
        value: |d| d.gauge(&["innodb_history_list_length", "innodb:trx_rseg_history_len"]),
    },
    Column {
        name: "checkpoint_age_pct",
        doc: "redo written since the last checkpoint, % of the redo capacity the server allows",
        value: |d| {
            pct(
                d.gauge(&["innodb_checkpoint_age", "innodb:log_lsn_checkpoint_age"]),
                d.gauge(&[
                    "innodb_checkpoint_max_age",
                    "innodb:log_max_modified_age_async",
                ]),
            )
        },
    },
    Column {
        name: "dirty_pages_pct",
        doc: "dirty buffer pool pages, % of all pages",
        value: |d| {
            pct(
                d.gauge(&["innodb_buffer_pool_pages_dirty"]),
                d.gauge(&["innodb_buffer_pool_pages_total"]),
            )
        },
    },
    Column {
        name: "bp_reads_per_s",
        doc: "pages read from disk into the buffer pool (Innodb_buffer_pool_reads; PostgreSQL: blks_read into shared_buffers) per second",
        value: |d| d.rate(d.counter(&["innodb_buffer_pool_reads", "pg_blks_read"])),
    },
    Column {
        name: "bp_read_requests_per_s",
        doc: "logical page reads (Innodb_buffer_pool_read_requests; PostgreSQL: blks_hit + blks_read) per second",
        value: |d| {
            d.rate(
                d.status("innodb_buffer_pool_read_requests")
                    .or_else(|| Some(d.status("pg_blks_hit")? + d.status("pg_blks_read")?)),
            )
        },
    },
    Column {
        name: "bp_wait_free_per_s",
        doc: "waits for a free buffer pool page (Innodb_buffer_pool_wait_free) per second",
        value: |d| d.rate(d.status("innodb_buffer_pool_wait_free")),
    },
    Column {
        name: "pages_flushed_per_s",
        doc: "buffer pool pages flushed (Innodb_buffer_pool_pages_flushed; PostgreSQL: buffers written by checkpoints, the background writer and backends) per second",
        value: |d| {
            d.rate(d.status("innodb_buffer_pool_pages_flushed").or_else(|| {
                Some(
                    d.status("pg_buffers_checkpoint")?
                        + d.status("pg_buffers_clean")?
                        + d.status("pg_buffers_backend")?,
                )
            }))
        },
    },
    Column {
        name: "redo_bytes_per_s",
        doc: "redo log bytes written per second (Innodb_os_log_written, or the LSN's advance; PostgreSQL: pg_stat_wal.wal_bytes)",
        value: |d| d.rate(d.redo_bytes()),
    },
    Column {
        name: "log_waits_per_s",
        doc: "waits for log buffer space (Innodb_log_waits) per second",
        value: |d| d.rate(d.status("innodb_log_waits")),
    },
    Column {
        name: "tmp_disk_tables_per_s",
        doc: "temporary tables created on disk (Created_tmp_disk_tables; PostgreSQL: temp_files) per second",
        value: |d| d.rate(d.counter(&["created_tmp_disk_tables", "pg_temp_files"])),
    },
    Column {
        name: "rows_scanned_per_s",
        doc: "rows read by scans (Handler_read_rnd_next; PostgreSQL: tup_returned) per second",
        value: |d| d.rate(d.counter(&["handler_read_rnd_next", "pg_tup_returned"])),
    },
    Column {
        name: "active_transactions",
        doc: "transactions open in InnoDB (INNODB_METRICS trx_active_transactions)",
        value: |d| d.gauge(&["innodb:trx_active_transactions"]),
    },
    Column {
        name: "replica_lag_s",
        doc: "replication: the largest Seconds_Behind_Master of the replicas (empty without replicas)",
        value: |d| d.status_gauges.get(REPLICA_LAG).copied(),
    },
    Column {
        name: "replica_gtid_behind",
        doc: "replication: the most transactions any replica lacks of the primary's binary log (GTID distance)",
        value: |d| d.status_gauges.get(REPLICA_GTID_BEHIND).copied(),
    },
    Column {
        name: "replicas_running",
        doc: "replication: replicas whose IO and SQL threads both run",
        value: |d| d.status_gauges.get(REPLICAS_RUNNING).copied(),
    },
    Column {
        name: "semisync_on",
        doc: "semi-synchronous replication: 1 while the primary waits for a replica's acknowledgement (Rpl_semi_sync_master_status), 0 after it fell back to asynchronous",
        value: |d| d.status_gauges.get("rpl_semi_sync_master_status").copied(),
    },
    Column {
        name: "semisync_unacked_commits_per_s",
        doc: "semi-sync: commits not acknowledged by a replica (Rpl_semi_sync_master_no_tx) per second",
        value: |d| d.rate(d.status("rpl_semi_sync_master_no_tx")),
    },
    Column {
        name: "galera_cluster_size",
        doc: "Galera: nodes this node sees in its cluster (wsrep_cluster_size)",
        value: |d| d.status_gauges.get("wsrep_cluster_size").copied(),
    },
    Column {
        name: "galera_cert_failures_per_s",
        doc: "Galera: transactions of this node that failed certification (wsrep_local_cert_failures) per second",
        value: |d| d.rate(d.status("wsrep_local_cert_failures")),
    },
    Column {
        name: "galera_flow_control_pct",
        doc: "Galera: share of the interval replication was paused by flow control (wsrep_flow_control_paused_ns), %",
        value: |d| {
            d.status("wsrep_flow_control_paused_ns")
                .and_then(|ns| (d.secs > 0.0).then_some(ns / 1e9 / d.secs * 100.0))
        },
    },
    Column {
        name: "new_orders_per_s",
        doc: "TPC-C: New-Orders the server committed (SUM(D_NEXT_O_ID)'s increase) per second",
        value: |d| d.rate(d.workload.get("new_orders").copied()),
    },
];

/// One row of server.csv.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerRow {
    /// "warmup" or "measure".
    pub phase: crate::metrics::Phase,
    /// Seconds since the run started: the earlier sample.
    pub start_s: f64,
    /// The later sample.
    pub end_s: f64,
    /// [`COLUMNS`]' values, in order (None: not recorded).
    pub values: Vec<Option<f64>>,
}

impl ServerRow {
    /// The row for `delta`, which ends at `end_s`.
    pub fn of(phase: crate::metrics::Phase, delta: &Delta, end_s: f64) -> ServerRow {
        ServerRow {
            phase,
            start_s: end_s - delta.secs,
            end_s,
            values: COLUMNS.iter().map(|c| (c.value)(delta)).collect(),
        }
    }

    /// The value of the column named `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        let i = COLUMNS.iter().position(|c| c.name == name)?;
        self.values.get(i).copied().flatten()
    }

    /// server.csv's header line.
    pub fn csv_header() -> String {
        let mut h = String::from("phase,start_s,end_s");
        for c in COLUMNS {
            h.push(',');
            h.push_str(c.name);
        }
        h.push('\n');
        h
    }

    /// This row as a server.csv line (empty fields where nothing was recorded).
    pub fn csv_line(&self) -> String {
        let phase = match self.phase {
            crate::metrics::Phase::Warmup => "warmup",
            crate::metrics::Phase::Measure => "measure",
        };
        let mut l = format!("{phase},{:.3},{:.3}", self.start_s, self.end_s);
        for v in &self.values {
            l.push(',');
            if let Some(v) = v {
                l.push_str(&format!("{v:.3}"));
            }
        }
        l.push('\n');
        l
    }

    /// Parses server.csv (as [`ServerRow::csv_line`] writes it); columns are matched by
    /// name, so a file from an older build with fewer columns still reads.
    pub fn parse_csv(text: &str) -> Vec<ServerRow> {
        let mut lines = text.lines();
        let Some(header) = lines.next() else {
            return Vec::new();
        };
        let names: Vec<&str> = header.split(',').collect();
        let index: Vec<Option<usize>> = COLUMNS
            .iter()
            .map(|c| names.iter().position(|n| *n == c.name))
            .collect();
        lines
            .filter_map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let phase = match *f.first()? {
                    "warmup" => crate::metrics::Phase::Warmup,
                    "measure" => crate::metrics::Phase::Measure,
                    _ => return None,
                };
                Some(ServerRow {
                    phase,
                    start_s: f.get(1)?.parse().ok()?,
                    end_s: f.get(2)?.parse().ok()?,
                    values: index
                        .iter()
                        .map(|i| i.and_then(|i| f.get(i)?.parse().ok()))
                        .collect(),
                })
            })
            .collect()
    }
}
