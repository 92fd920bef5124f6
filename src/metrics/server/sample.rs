//! Raw samples of the server's counters and of the host it runs on (/proc), and their
//! deltas between two samples: counters as differences, gauges as they were.

use super::*;

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
    /// Seconds since the run started, when the reading was taken (its answer arrived).
    pub t: f64,
    /// Seconds since the run started when the status query was sent: the server read its
    /// counters between this and `t` (a slow answer on a busy host can take 0.1 s).
    pub sent: f64,
    /// SHOW GLOBAL STATUS, numeric values (ON/OFF as 1/0, wsrep_cluster_status Primary as
    /// 1), names lower case; and the replication gauges the sampler measures itself,
    /// prefixed `txbench_` ([`REPLICA_LAG`], [`REPLICA_GTID_BEHIND`], [`REPLICAS_RUNNING`]).
    pub status: BTreeMap<String, f64>,
    /// INFORMATION_SCHEMA.INNODB_METRICS, enabled rows: name → COUNT.
    pub innodb: BTreeMap<String, f64>,
    /// Counts the workload reads from its own tables (TPC-C: `new_orders` = SUM(D_NEXT_O_ID)).
    pub workload: BTreeMap<String, f64>,
    /// Seconds since the run started when the workload's counts were answered: after the
    /// status, and much later where each statement queues (a thread pool with many users).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload_t: Option<f64>,
    /// The server process, when it runs on this host.
    pub process: Option<ProcessStat>,
    /// This host's CPUs, when the server runs on it.
    pub host: Option<HostStat>,
    /// The data directory's disk, when the server runs on this host and the device has
    /// statistics.
    pub disk: Option<DiskStat>,
    /// performance_schema wait events, when it is on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub waits: crate::metrics::waits::Waits,
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
            pub(super) fn combine(self, o: $t, op: impl Fn(f64, f64) -> f64) -> $t {
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
    pub waits: crate::metrics::waits::Waits,
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
    /// When the last of the counts the cross-checks read was answered: the workload's, or
    /// else the status's.
    pub fn counted_by(&self) -> f64 {
        self.workload_t.map_or(self.t, |w| w.max(self.t))
    }

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
            waits: crate::metrics::waits::delta(&a.waits, &b.waits),
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
        crate::metrics::waits::add(&mut self.waits, &o.waits);
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
    pub(super) fn counter(&self, names: &[&str]) -> Option<f64> {
        names.iter().find_map(|n| match n.strip_prefix("innodb:") {
            Some(m) => self.innodb.get(m).copied(),
            None => self.status.get(*n).copied(),
        })
    }

    /// Like [`Delta::counter`] for gauges.
    pub(super) fn gauge(&self, names: &[&str]) -> Option<f64> {
        names.iter().find_map(|n| match n.strip_prefix("innodb:") {
            Some(m) => self.innodb_gauges.get(m).copied(),
            None => self.status_gauges.get(*n).copied(),
        })
    }

    pub(super) fn rate(&self, v: Option<f64>) -> Option<f64> {
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
