//! Server metrics arithmetic: raw samples of the server's counters and of the host it runs
//! on, their deltas, the named per-interval columns of `server.csv`, and the measured-phase
//! figures stored in result.json. Pure data: the sampler (`crate::sampler`) fills
//! [`RawSample`]s; nothing here talks to a server.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The server process, from /proc/PID.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessStat {
    /// User CPU seconds.
    pub user_s: f64,
    /// System CPU seconds.
    pub sys_s: f64,
    /// Resident memory, bytes.
    pub rss_bytes: f64,
    /// Bytes read from storage (/proc/PID/io read_bytes).
    pub read_bytes: f64,
    /// Bytes written to storage (/proc/PID/io write_bytes).
    pub write_bytes: f64,
}

/// The host's CPUs, from /proc/stat (seconds summed over all CPUs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct HostStat {
    /// Every state.
    pub total_s: f64,
    /// Idle and iowait excluded.
    pub busy_s: f64,
    /// Waiting for I/O.
    pub iowait_s: f64,
    /// Taken by the hypervisor.
    pub steal_s: f64,
    /// Context switches.
    pub ctxt: f64,
    /// CPUs.
    pub cpus: f64,
}

/// The data directory's block device, from /proc/diskstats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct DiskStat {
    /// Reads completed.
    pub reads: f64,
    /// Bytes read.
    pub read_bytes: f64,
    /// Writes completed.
    pub writes: f64,
    /// Bytes written.
    pub write_bytes: f64,
    /// Flush requests completed (fsync reaching the device).
    pub flushes: f64,
    /// Milliseconds spent on flush requests.
    pub flush_ms: f64,
}

/// One reading of everything the sampler can see.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RawSample {
    /// Seconds since the run started, when the reading was taken.
    pub t: f64,
    /// SHOW GLOBAL STATUS, numeric values (ON/OFF as 1/0, wsrep_cluster_status Primary as
    /// 1), names lower case; and the replication gauges the sampler measures itself,
    /// prefixed `txbench_` ([`REPLICA_LAG`], [`REPLICA_GTID_BEHIND`], [`REPLICAS_RUNNING`]).
    pub status: BTreeMap<String, f64>,
    /// INFORMATION_SCHEMA.INNODB_METRICS, enabled rows: name → COUNT.
    pub innodb: BTreeMap<String, f64>,
    /// Counts the workload reads from its own tables (TPC-C: `new_orders` = SUM(D_NEXT_O_ID)).
    pub workload: BTreeMap<String, f64>,
    /// The server process, when it runs on this host.
    pub process: Option<ProcessStat>,
    /// This host's CPUs, when the server runs on it.
    pub host: Option<HostStat>,
    /// The data directory's disk, when the server runs on this host and the device has
    /// statistics.
    pub disk: Option<DiskStat>,
    /// performance_schema wait events, when it is on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub waits: super::waits::Waits,
}

/// The largest Seconds_Behind_Master of the replicas that replicate.
pub const REPLICA_LAG: &str = "txbench_replica_lag_s";
/// The most transactions (GTIDs) any reachable replica lacks of the primary's binary log.
pub const REPLICA_GTID_BEHIND: &str = "txbench_replica_gtid_behind";
/// Replicas whose IO and SQL threads both run.
pub const REPLICAS_RUNNING: &str = "txbench_replicas_running";

/// A SHOW GLOBAL STATUS value as a number: ON/OFF and Galera's cluster status included.
pub fn status_value(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().or(match v {
        "ON" | "Primary" => Some(1.0),
        // "Disconnected" is also what a server without Galera says: no number.
        "OFF" | "non-Primary" => Some(0.0),
        _ => None,
    })
}

/// wsrep_ status variables that count (everything else wsrep_ is a level).
const WSREP_COUNTERS: &[&str] = &[
    "wsrep_local_cert_failures",
    "wsrep_local_bf_aborts",
    "wsrep_local_commits",
    "wsrep_local_replays",
    "wsrep_replicated",
    "wsrep_replicated_bytes",
    "wsrep_received",
    "wsrep_received_bytes",
    "wsrep_flow_control_sent",
    "wsrep_flow_control_recv",
    "wsrep_flow_control_paused_ns",
    "wsrep_repl_keys",
    "wsrep_repl_keys_bytes",
    "wsrep_repl_data_bytes",
    "wsrep_repl_other_bytes",
];

/// SHOW GLOBAL STATUS variables that are levels, not counters (lower case); everything
/// else numeric is treated as a counter and reported as a delta.
pub fn status_is_gauge(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "uptime",
        "uptime_since_flush_status",
        "innodb_checkpoint_age",
        "innodb_checkpoint_max_age",
        "innodb_history_list_length",
        "innodb_row_lock_current_waits",
        "innodb_row_lock_time_avg",
        "innodb_row_lock_time_max",
        "innodb_buffer_pool_bytes_data",
        "innodb_buffer_pool_bytes_dirty",
        "innodb_buffer_pool_load_status",
        "innodb_page_size",
        "innodb_lsn_current",
        "innodb_lsn_flushed",
        "innodb_lsn_last_checkpoint",
        "innodb_max_trx_id",
        "innodb_oldest_view_low_limit_trx_id",
        "innodb_purge_trx_id",
        "innodb_purge_undo_no",
        "memory_used",
        "memory_used_initial",
        "max_used_connections",
        "max_statement_time_exceeded",
        "open_files",
        "open_streams",
        "open_table_definitions",
        "open_tables",
        "prepared_stmt_count",
        "qcache_free_blocks",
        "qcache_free_memory",
        "qcache_queries_in_cache",
        "qcache_total_blocks",
        "slave_running",
        "rpl_semi_sync_master_status",
        "rpl_semi_sync_master_clients",
        "rpl_semi_sync_slave_status",
        "rpl_semi_sync_master_avg_trx_wait_time",
        "rpl_semi_sync_master_avg_net_wait_time",
        "innodb_data_pending_reads",
        "innodb_data_pending_writes",
        "innodb_data_pending_fsyncs",
        "innodb_os_log_pending_fsyncs",
        "innodb_os_log_pending_writes",
        "innodb_num_open_files",
        "innodb_mem_adaptive_hash",
        "innodb_mem_dictionary",
    ];
    EXACT.contains(&name)
        || name.starts_with("txbench_")
        || (name.starts_with("wsrep_") && !WSREP_COUNTERS.contains(&name))
        || name.starts_with("threads_")
        || name.contains("_current")
        || (name.starts_with("innodb_buffer_pool_pages_")
            && !matches!(
                name,
                "innodb_buffer_pool_pages_flushed"
                    | "innodb_buffer_pool_pages_lru_flushed"
                    | "innodb_buffer_pool_pages_lru_freed"
                    | "innodb_buffer_pool_pages_made_young"
                    | "innodb_buffer_pool_pages_made_not_young"
                    | "innodb_buffer_pool_pages_split"
            ))
        || name.ends_with("_max_age")
        || name.starts_with("innodb_buffer_pool_resize")
        || name.starts_with("max_used_connections")
}

/// INNODB_METRICS rows that are levels, not counters (their TYPE does not say: MariaDB
/// marks the cumulative lock_deadlocks as a 'value' too).
pub fn innodb_is_gauge(name: &str) -> bool {
    matches!(
        name,
        "trx_rseg_history_len"
            | "trx_rseg_current_size"
            | "trx_active_transactions"
            | "log_lsn_checkpoint_age"
            | "log_lsn_buf_pool_oldest"
            | "log_max_modified_age_async"
            | "log_max_modified_age_sync"
            | "buffer_pool_size"
            | "buffer_pool_pages_total"
            | "buffer_pool_pages_misc"
            | "buffer_pool_pages_data"
            | "buffer_pool_pages_dirty"
            | "buffer_pool_pages_free"
            | "buffer_pool_bytes_data"
            | "buffer_pool_bytes_dirty"
            | "os_pending_reads"
            | "os_pending_writes"
    ) || name.contains("_current")
        || name.ends_with("_time_max")
        || name.ends_with("_time_avg")
}

/// `combine(self, other, op)`: the struct of `op` applied field by field.
macro_rules! field_by_field {
    ($t:ident { $($f:ident),* }) => {
        impl $t {
            fn combine(self, o: $t, op: impl Fn(f64, f64) -> f64) -> $t {
                $t { $($f: op(self.$f, o.$f)),* }
            }
        }
    };
}
field_by_field!(ProcessStat {
    user_s,
    sys_s,
    rss_bytes,
    read_bytes,
    write_bytes
});
field_by_field!(HostStat {
    total_s,
    busy_s,
    iowait_s,
    steal_s,
    ctxt,
    cpus
});
field_by_field!(DiskStat {
    reads,
    read_bytes,
    writes,
    write_bytes,
    flushes,
    flush_ms
});

fn both<T>(a: Option<T>, b: Option<T>) -> Option<(T, T)> {
    Some((a?, b?))
}

/// `f(a, b)` when both are there, else whichever is.
fn either<T>(a: Option<T>, b: Option<T>, f: impl Fn(T, T) -> T) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(f(a, b)),
        (a, b) => a.or(b),
    }
}

/// What changed between two samples: counters as deltas, gauges as their latest value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Delta {
    /// Seconds between the two samples.
    pub secs: f64,
    /// Status counters: increase.
    pub status: BTreeMap<String, f64>,
    /// Status gauges: latest value.
    pub status_gauges: BTreeMap<String, f64>,
    /// INNODB_METRICS counters: increase.
    pub innodb: BTreeMap<String, f64>,
    /// INNODB_METRICS gauges: latest value.
    pub innodb_gauges: BTreeMap<String, f64>,
    /// Workload counts: increase.
    pub workload: BTreeMap<String, f64>,
    /// Server process: CPU and I/O increase; rss is the latest value.
    pub process: Option<ProcessStat>,
    /// Host CPU: increase (cpus is the latest value).
    pub host: Option<HostStat>,
    /// Disk: increase.
    pub disk: Option<DiskStat>,
    /// Wait events that moved: increase.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub waits: super::waits::Waits,
}

fn counters(
    a: &BTreeMap<String, f64>,
    b: &BTreeMap<String, f64>,
    gauge: impl Fn(&str) -> bool,
) -> (BTreeMap<String, f64>, BTreeMap<String, f64>) {
    let mut deltas = BTreeMap::new();
    let mut gauges = BTreeMap::new();
    for (k, &v) in b {
        if gauge(k) {
            gauges.insert(k.clone(), v);
        } else if let Some(&prev) = a.get(k) {
            // A counter that went down was reset (FLUSH STATUS): count from zero.
            deltas.insert(k.clone(), if v >= prev { v - prev } else { v });
        }
    }
    (deltas, gauges)
}

impl RawSample {
    /// Counters `prev` had that this sample lacks (a NULL or a failed read): each keeps
    /// `prev`'s value, so this sample adds nothing to it and the next one spans the gap. A
    /// missing counter read as 0 would look like a reset and turn the next sample into a
    /// huge delta. Returns the names carried.
    pub fn carry_missing_counters(&mut self, prev: &RawSample) -> Vec<String> {
        let mut carried = Vec::new();
        let mut carry = |to: &mut BTreeMap<String, f64>,
                         from: &BTreeMap<String, f64>,
                         gauge: fn(&str) -> bool| {
            for (k, v) in from {
                if !gauge(k) && !to.contains_key(k) {
                    to.insert(k.clone(), *v);
                    carried.push(k.clone());
                }
            }
        };
        carry(&mut self.status, &prev.status, status_is_gauge);
        carry(&mut self.innodb, &prev.innodb, innodb_is_gauge);
        carry(&mut self.workload, &prev.workload, |_| false);
        carried
    }
}

impl Delta {
    /// The change from `a` to the later sample `b`.
    pub fn between(a: &RawSample, b: &RawSample) -> Delta {
        let (status, status_gauges) = counters(&a.status, &b.status, status_is_gauge);
        let (innodb, innodb_gauges) = counters(&a.innodb, &b.innodb, innodb_is_gauge);
        let (workload, _) = counters(&a.workload, &b.workload, |_| false);
        let sub = |x: f64, y: f64| (y - x).max(0.0);
        Delta {
            secs: (b.t - a.t).max(0.0),
            status,
            status_gauges,
            innodb,
            innodb_gauges,
            workload,
            process: both(a.process, b.process).map(|(x, y)| ProcessStat {
                rss_bytes: y.rss_bytes,
                ..x.combine(y, sub)
            }),
            host: both(a.host, b.host).map(|(x, y)| HostStat {
                cpus: y.cpus,
                ..x.combine(y, sub)
            }),
            disk: both(a.disk, b.disk).map(|(x, y)| x.combine(y, sub)),
            waits: super::waits::delta(&a.waits, &b.waits),
        }
    }

    /// Adds a later delta of the same phase (sums counters, keeps the later gauges).
    pub fn add(&mut self, o: &Delta) {
        fn sum(a: &mut BTreeMap<String, f64>, b: &BTreeMap<String, f64>) {
            for (k, v) in b {
                *a.entry(k.clone()).or_default() += v;
            }
        }
        self.secs += o.secs;
        sum(&mut self.status, &o.status);
        sum(&mut self.innodb, &o.innodb);
        sum(&mut self.workload, &o.workload);
        self.status_gauges = o.status_gauges.clone();
        self.innodb_gauges = o.innodb_gauges.clone();
        let add = |x: f64, y: f64| x + y;
        self.process = either(self.process, o.process, |a, b| ProcessStat {
            rss_bytes: b.rss_bytes,
            ..a.combine(b, add)
        });
        self.host = either(self.host, o.host, |a, b| HostStat {
            cpus: b.cpus,
            ..a.combine(b, add)
        });
        self.disk = either(self.disk, o.disk, |a, b| a.combine(b, add));
        super::waits::add(&mut self.waits, &o.waits);
    }

    /// A status counter's increase (0 when the server lacks it).
    pub fn status(&self, name: &str) -> Option<f64> {
        self.status.get(name).copied()
    }

    /// A Galera node's conflicts over the delta (None when it is not one).
    pub fn conflicts(&self) -> Option<Conflicts> {
        Some(Conflicts {
            cert_failures: self.status("wsrep_local_cert_failures")?,
            bf_aborts: self.status("wsrep_local_bf_aborts")?,
            innodb_deadlocks: self.counter(&["innodb_deadlocks", "innodb:lock_deadlocks"]),
        })
    }

    /// The first of `names` found among the status counters, then the INNODB_METRICS
    /// counters (`innodb:NAME`).
    fn counter(&self, names: &[&str]) -> Option<f64> {
        names.iter().find_map(|n| match n.strip_prefix("innodb:") {
            Some(m) => self.innodb.get(m).copied(),
            None => self.status.get(*n).copied(),
        })
    }

    /// Like [`Delta::counter`] for gauges.
    fn gauge(&self, names: &[&str]) -> Option<f64> {
        names.iter().find_map(|n| match n.strip_prefix("innodb:") {
            Some(m) => self.innodb_gauges.get(m).copied(),
            None => self.status_gauges.get(*n).copied(),
        })
    }

    fn rate(&self, v: Option<f64>) -> Option<f64> {
        (self.secs > 0.0).then_some(v? / self.secs)
    }

    /// COMMIT and ROLLBACK statements the server executed (HammerDB's TPM counts these).
    pub fn server_transactions(&self) -> Option<f64> {
        Some(self.status("com_commit")? + self.status("com_rollback")?)
    }

    /// Server CPU seconds (user + system).
    pub fn server_cpu_s(&self) -> Option<f64> {
        self.process.map(|p| p.user_s + p.sys_s)
    }

    /// Redo bytes written.
    pub fn redo_bytes(&self) -> Option<f64> {
        self.counter(&[
            "innodb_os_log_written",
            "innodb:log_lsn_current",
            "pg_wal_bytes",
        ])
    }

    /// B-tree page splits.
    pub fn page_splits(&self) -> Option<f64> {
        self.counter(&["innodb:index_page_splits", "innodb_buffer_pool_pages_split"])
    }

    /// B-tree page reorganisations: a record that grew no longer fits the page's contiguous
    /// free space, so the page is rebuilt (the step before a split).
    pub fn page_reorgs(&self) -> Option<f64> {
        self.counter(&["innodb:index_page_reorg_attempts"])
    }
}

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
    /// Whether the difference is within `allowed`.
    pub agrees: bool,
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
                self.allowed
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
    /// What could not be recorded, and why.
    #[serde(default)]
    pub not_recorded: Vec<String>,
    /// The wait events that waited longest in the measured phase (performance_schema on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_waits: Vec<super::waits::TopWait>,
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
        let figures: [(&str, Option<f64>); 11] = [
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
        ];
        for (name, v) in figures {
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
        s.top_waits = super::waits::top(&measured.waits, measured.secs, transactions, TOP_WAITS);
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

#[cfg(test)]
mod tests;
