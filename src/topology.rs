//! A server's place in a topology, read over SQL: the replicas of a primary (SHOW SLAVE
//! HOSTS), how far each is behind (seconds and GTID distance), whether they hold the same
//! data as the primary (CHECKSUM TABLE), and a Galera node's view of its cluster. Used by the
//! pre-flight, the sampler (lag per interval) and `check` (replicas converged).
//!
//! Works for any server reached by URL, not only sandboxes: replicas are found from the
//! primary, and reached with the primary's user and password at the address they report
//! (`report_host` / `report_port`, which txbench's sandboxes set).

#[cfg(feature = "mysql")]
use crate::engine;
use crate::engine::{Conn, TargetUrl};
#[cfg(feature = "mysql")]
use anyhow::Context;
use anyhow::Result;
#[cfg(feature = "mysql")]
use mysql::prelude::Queryable;
use std::collections::BTreeMap;
use std::time::Duration;
#[cfg(feature = "mysql")]
use std::time::Instant;

/// The pre-flight's topology facts ([`describe`]) and a primary's replicas, over any
/// engine's connection: replication topologies are MySQL's and MariaDB's (PostgreSQL's
/// standbys are not followed: nothing).
pub fn at_start(conn: &mut Conn, url: &TargetUrl) -> (BTreeMap<String, String>, Vec<ReplicaAddr>) {
    #[cfg(feature = "mysql")]
    if let Some(c) = conn.as_mysql() {
        return (describe(c, url), replicas(c));
    }
    let _ = (conn, url);
    Default::default()
}

/// Whether the server is a Galera node.
pub fn is_galera(conn: &mut Conn) -> Result<bool> {
    #[cfg(feature = "mysql")]
    if let Some(c) = conn.as_mysql() {
        return Ok(galera_state(c)?.is_some());
    }
    let _ = conn;
    Ok(false)
}

/// The Galera cluster this server is a node of ([`cluster_uuid`]); None otherwise.
pub fn cluster_of(conn: &mut Conn) -> Option<String> {
    #[cfg(feature = "mysql")]
    if let Some(c) = conn.as_mysql() {
        return cluster_uuid(c);
    }
    let _ = conn;
    None
}

/// On a Galera node, reads wait for what the cluster committed before them (causal reads);
/// nothing elsewhere.
pub fn causal_reads(conn: &mut Conn) {
    #[cfg(feature = "mysql")]
    if let Some(c) = conn.as_mysql() {
        let _ = c.query_drop("SET SESSION wsrep_sync_wait = 1");
    }
    let _ = conn;
}

/// [`verify_replicas`] over any engine's connection (none on PostgreSQL).
pub fn verify_replicas_of(
    conn: &mut Conn,
    url: &TargetUrl,
    expected: &[ReplicaAddr],
    timeout: Duration,
) -> Result<Vec<ReplicaCheck>> {
    #[cfg(feature = "mysql")]
    if let Some(c) = conn.as_mysql() {
        return verify_replicas(c, url, expected, timeout);
    }
    let _ = (conn, url, expected, timeout);
    Ok(Vec::new())
}

/// A replica as its primary lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaAddr {
    /// Its server_id.
    pub server_id: u32,
    /// report_host.
    pub host: String,
    /// report_port.
    pub port: u16,
}

impl std::fmt::Display for ReplicaAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.host, self.port)
    }
}

#[cfg(feature = "mysql")]
/// The replicas connected to the primary behind `conn` that report an address (others
/// cannot be reached and are left out). Empty when it has none or cannot say.
pub fn replicas(conn: &mut mysql::Conn) -> Vec<ReplicaAddr> {
    let Ok(rows) = conn.query::<mysql::Row, _>("SHOW SLAVE HOSTS") else {
        return Vec::new();
    };
    let mut out: Vec<ReplicaAddr> = rows
        .into_iter()
        .filter_map(|r| {
            let server_id: u32 = r.get_opt("Server_id")?.ok()?;
            let host: String = r.get_opt("Host")?.ok()?;
            let port: u16 = r.get_opt("Port")?.ok()?;
            (!host.is_empty() && port != 0).then_some(ReplicaAddr {
                server_id,
                host,
                port,
            })
        })
        .collect();
    out.sort_by_key(|r| r.server_id);
    out
}

/// The URL of a replica: the primary's user, password and database at the replica's address
/// (which the replica itself reports to its primary). A sandbox login's replica must be
/// served by the account that runs the primary (a program another user started on a stopped
/// replica's port could relay the login to the primary).
pub fn replica_url(primary: &TargetUrl, r: &ReplicaAddr) -> TargetUrl {
    TargetUrl {
        host: r.host.clone(),
        port: r.port,
        socket: None,
        sandbox_pid_file: None,
        sandbox_peer_of: primary
            .sandbox_pid_file
            .clone()
            .or_else(|| primary.sandbox_peer_of.clone()),
        ..primary.clone()
    }
}

/// What a replica says about its replication.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaStatus {
    /// Slave_IO_Running = Yes.
    pub io_running: bool,
    /// Slave_SQL_Running = Yes.
    pub sql_running: bool,
    /// Seconds_Behind_Master (None while a thread is stopped).
    pub seconds_behind: Option<f64>,
    /// @@gtid_slave_pos (MariaDB).
    pub gtid_pos: String,
    /// Last_IO_Error or Last_SQL_Error, when there is one.
    pub last_error: String,
}

impl ReplicaStatus {
    /// Both threads run.
    pub fn running(&self) -> bool {
        self.io_running && self.sql_running
    }
}

#[cfg(feature = "mysql")]
/// The replication status of the replica behind `conn`; None when it replicates from no one.
pub fn replica_status(conn: &mut mysql::Conn) -> Result<Option<ReplicaStatus>, mysql::Error> {
    let Some(row) = conn.query_first::<mysql::Row, _>("SHOW SLAVE STATUS")? else {
        return Ok(None);
    };
    let text = |name: &str| -> String {
        row.get_opt::<Option<String>, _>(name)
            .and_then(|v| v.ok())
            .flatten()
            .unwrap_or_default()
    };
    let gtid_pos = conn
        .query_first::<Option<String>, _>("SELECT @@gtid_slave_pos")
        .ok()
        .flatten()
        .flatten()
        .unwrap_or_default();
    let last_error = [text("Last_IO_Error"), text("Last_SQL_Error")]
        .into_iter()
        .filter(|e| !e.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    Ok(Some(ReplicaStatus {
        io_running: text("Slave_IO_Running") == "Yes",
        sql_running: text("Slave_SQL_Running") == "Yes",
        seconds_behind: text("Seconds_Behind_Master").parse().ok(),
        gtid_pos,
        last_error,
    }))
}

#[cfg(feature = "mysql")]
/// The primary's last binary-log GTIDs (@@gtid_binlog_pos, MariaDB); None where there are
/// none or the server has no such variable. Read with SHOW, which the server counts as
/// Com_show_variables: not one of the statements a run's cross-check sums, so a reader
/// beside a measured run (the sampler, replay's probes) does not count as the workload's.
pub fn binlog_gtid(conn: &mut mysql::Conn) -> Result<Option<String>, mysql::Error> {
    let row: Option<(String, String)> =
        conn.query_first("SHOW GLOBAL VARIABLES LIKE 'gtid_binlog_pos'")?;
    Ok(row.map(|(_, v)| v).filter(|v| !v.is_empty()))
}

/// MariaDB GTID positions (`domain-server-seq`, comma separated) as domain → seq.
fn gtid_seqs(pos: &str) -> BTreeMap<u32, u64> {
    pos.split(',')
        .filter_map(|g| {
            let mut p = g.trim().split('-');
            let domain = p.next()?.parse().ok()?;
            let _server: u32 = p.next()?.parse().ok()?;
            let seq = p.next()?.parse().ok()?;
            Some((domain, seq))
        })
        .collect()
}

/// How many transactions the replica at `replica` still lacks of the primary's `primary`
/// position, summed over the replication domains.
pub fn gtid_distance(primary: &str, replica: &str) -> u64 {
    let have = gtid_seqs(replica);
    gtid_seqs(primary)
        .into_iter()
        .map(|(d, seq)| seq.saturating_sub(have.get(&d).copied().unwrap_or(0)))
        .sum()
}

/// What `check` found on one replica.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaCheck {
    /// Its address.
    pub replica: String,
    /// Seconds until it held everything the primary had written (None: it did not).
    pub caught_up_s: Option<f64>,
    /// Tables compared.
    pub tables: usize,
    /// Tables whose checksum differs from the primary's.
    pub differing: Vec<String>,
    /// Why it could not be checked or did not catch up.
    pub problem: Option<String>,
}

/// How long a check waits for a replica to apply what the primary wrote.
pub const REPLICA_CATCH_UP: std::time::Duration = std::time::Duration::from_secs(120);

impl ReplicaCheck {
    /// Caught up and the same data.
    pub fn ok(&self) -> bool {
        self.problem.is_none() && self.caught_up_s.is_some() && self.differing.is_empty()
    }

    /// The check in words.
    pub fn describe(&self) -> String {
        if let Some(p) = &self.problem {
            return p.clone();
        }
        if !self.differing.is_empty() {
            return format!(
                "caught up, but {} of {} table(s) differ from the primary: {}",
                self.differing.len(),
                self.tables,
                self.differing.join(", ")
            );
        }
        format!(
            "caught up in {:.1} s; all {} table(s) have the primary's checksums",
            self.caught_up_s.unwrap_or_default(),
            self.tables
        )
    }
}

#[cfg(feature = "mysql")]
/// CHECKSUM TABLE of every base table of the current database, by name.
pub fn checksums(conn: &mut mysql::Conn) -> Result<BTreeMap<String, Option<u64>>> {
    let tables: Vec<String> = conn
        .query(
            "SELECT TABLE_NAME FROM information_schema.TABLES \
             WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
        )
        .context("listing the tables to checksum")?;
    let mut out = BTreeMap::new();
    for chunk in tables.chunks(32) {
        let list = chunk
            .iter()
            .map(|t| format!("`{}`", t.replace('`', "``")))
            .collect::<Vec<_>>()
            .join(", ");
        let rows: Vec<(String, Option<u64>)> = conn
            .query(format!("CHECKSUM TABLE {list}"))
            .context("CHECKSUM TABLE")?;
        for (name, sum) in rows {
            // "db.table" → "table"
            let name = name
                .rsplit_once('.')
                .map_or(name.clone(), |(_, t)| t.into());
            out.insert(name, sum);
        }
    }
    Ok(out)
}

#[cfg(feature = "mysql")]
/// Waits (up to `timeout` each) until every replica of the primary behind `conn` holds
/// what the primary has written, then compares every table's checksum with the primary's.
/// Empty when the server has no replicas.
///
/// `expected` are replicas known otherwise (those of the run's start, a sandbox primary's
/// members): one that is gone from SHOW SLAVE HOSTS is checked all the same, and fails,
/// rather than passing unseen.
pub fn verify_replicas(
    conn: &mut mysql::Conn,
    url: &TargetUrl,
    expected: &[ReplicaAddr],
    timeout: Duration,
) -> Result<Vec<ReplicaCheck>> {
    let mut list = replicas(conn);
    for e in expected {
        if !list.iter().any(|r| r.host == e.host && r.port == e.port) {
            list.push(e.clone());
        }
    }
    if list.is_empty() {
        return Ok(Vec::new());
    }
    let target_pos = binlog_gtid(conn)
        .context("reading the primary's @@gtid_binlog_pos")?
        .unwrap_or_default();
    let primary_sums = checksums(conn)?;
    let mut out = Vec::new();
    for r in &list {
        let mut check = ReplicaCheck {
            replica: r.to_string(),
            caught_up_s: None,
            tables: 0,
            differing: Vec::new(),
            problem: None,
        };
        let mut rc = match engine::mysql::connect(&replica_url(url, r)) {
            Ok(c) => c,
            Err(e) => {
                check.problem = Some(format!("{e:#}"));
                out.push(check);
                continue;
            }
        };
        let t = Instant::now();
        loop {
            match replica_status(&mut rc) {
                Ok(Some(s)) if gtid_distance(&target_pos, &s.gtid_pos) == 0 => {
                    check.caught_up_s = Some(t.elapsed().as_secs_f64());
                    break;
                }
                Ok(Some(s)) if t.elapsed() >= timeout => {
                    check.problem = Some(format!(
                        "{} transaction(s) behind after {} s (IO thread {}, SQL thread {}{})",
                        gtid_distance(&target_pos, &s.gtid_pos),
                        timeout.as_secs(),
                        if s.io_running { "running" } else { "stopped" },
                        if s.sql_running { "running" } else { "stopped" },
                        if s.last_error.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", s.last_error)
                        }
                    ));
                    break;
                }
                Ok(Some(_)) => std::thread::sleep(Duration::from_millis(100)),
                Ok(None) => {
                    check.problem = Some("it replicates from no one".into());
                    break;
                }
                Err(e) => {
                    check.problem = Some(engine::mysql::error_message(&e));
                    break;
                }
            }
        }
        if check.caught_up_s.is_some() {
            match checksums(&mut rc) {
                Ok(sums) => {
                    check.tables = primary_sums.len();
                    check.differing = primary_sums
                        .iter()
                        .filter(|(name, sum)| sums.get(*name) != Some(sum))
                        .map(|(name, _)| name.clone())
                        .collect();
                }
                Err(e) => check.problem = Some(format!("{e:#}")),
            }
        }
        out.push(check);
    }
    Ok(out)
}

/// A Galera node's view of its cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct GaleraState {
    /// wsrep_cluster_size.
    pub cluster_size: u32,
    /// wsrep_cluster_status: Primary (has quorum), non-Primary or Disconnected.
    pub status: String,
    /// wsrep_ready = ON.
    pub ready: bool,
    /// wsrep_local_state_comment (Synced, Donor/Desynced, Joining…).
    pub state: String,
}

#[cfg(feature = "mysql")]
/// The Galera state of the node behind `conn`; None when it is not a Galera node.
pub fn galera_state(conn: &mut mysql::Conn) -> Result<Option<GaleraState>, mysql::Error> {
    let rows: Vec<(String, String)> = conn.query(
        "SHOW GLOBAL STATUS WHERE Variable_name IN \
         ('wsrep_cluster_size','wsrep_cluster_status','wsrep_ready','wsrep_local_state_comment','wsrep_on')",
    )?;
    let m: BTreeMap<String, String> = rows
        .into_iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    let on = conn
        .query_first::<Option<String>, _>("SELECT @@wsrep_on")
        .ok()
        .flatten()
        .flatten()
        .is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("ON"));
    if !on || !m.contains_key("wsrep_cluster_status") {
        return Ok(None);
    }
    Ok(Some(GaleraState {
        cluster_size: m
            .get("wsrep_cluster_size")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
        status: m.get("wsrep_cluster_status").cloned().unwrap_or_default(),
        ready: m.get("wsrep_ready").is_some_and(|v| v == "ON"),
        state: m
            .get("wsrep_local_state_comment")
            .cloned()
            .unwrap_or_default(),
    }))
}

#[cfg(feature = "mysql")]
/// The Galera cluster's state UUID (the same on every node of one cluster); None for a
/// server that is not a Galera node.
pub fn cluster_uuid(conn: &mut mysql::Conn) -> Option<String> {
    galera_state(conn).ok().flatten()?;
    conn.query_first::<(String, String), _>("SHOW GLOBAL STATUS LIKE 'wsrep_cluster_state_uuid'")
        .ok()
        .flatten()
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty())
}

#[cfg(feature = "mysql")]
/// The pre-flight's topology facts: a primary's replicas (address, threads, lag) and its
/// semi-synchronous state, a replica's source, a Galera node's cluster. Nothing for a
/// standalone server.
pub fn describe(conn: &mut mysql::Conn, url: &TargetUrl) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Ok(Some(g)) = galera_state(conn) {
        out.insert("role".into(), "galera node".into());
        out.insert(
            "galera".into(),
            format!("{} node(s), {}, {}", g.cluster_size, g.status, g.state),
        );
        return out;
    }
    let list = replicas(conn);
    if !list.is_empty() {
        out.insert("role".into(), "primary".into());
        let primary_pos = binlog_gtid(conn).ok().flatten().unwrap_or_default();
        let described: Vec<String> = list
            .iter()
            .map(|r| {
                let state = engine::mysql::connect(&replica_url(url, r))
                    .ok()
                    .and_then(|mut c| replica_status(&mut c).ok().flatten());
                match state {
                    Some(s) => format!(
                        "{r} ({}, {} s / {} GTID behind)",
                        if s.running() {
                            "replicating"
                        } else {
                            "stopped"
                        },
                        s.seconds_behind.map_or("?".into(), |v| format!("{v:.0}")),
                        gtid_distance(&primary_pos, &s.gtid_pos)
                    ),
                    None => format!("{r} (unreachable)"),
                }
            })
            .collect();
        out.insert("replicas".into(), described.join(", "));
        let semisync: Vec<(String, String)> = conn
            .query(
                "SHOW GLOBAL STATUS WHERE Variable_name IN \
                 ('Rpl_semi_sync_master_status','Rpl_semi_sync_master_clients')",
            )
            .unwrap_or_default();
        let get = |k: &str| {
            semisync
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(k))
                .map(|(_, v)| v.clone())
        };
        if let Some(status) = get("Rpl_semi_sync_master_status") {
            out.insert(
                "semisync".into(),
                format!(
                    "{status} ({} semi-sync replica(s) connected)",
                    get("Rpl_semi_sync_master_clients").unwrap_or("?".into())
                ),
            );
        }
        return out;
    }
    if let Ok(Some(s)) = replica_status(conn) {
        out.insert("role".into(), "replica".into());
        out.insert(
            "replication".into(),
            format!(
                "{}, {} s behind",
                if s.running() {
                    "replicating"
                } else {
                    "stopped"
                },
                s.seconds_behind.map_or("?".into(), |v| format!("{v:.0}"))
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtid_distance_counts_what_the_replica_lacks_per_domain() {
        assert_eq!(gtid_distance("0-1-100", "0-1-100"), 0);
        assert_eq!(gtid_distance("0-1-100", "0-1-90"), 10);
        // A replica ahead (or a failover's other server id) is not negative.
        assert_eq!(gtid_distance("0-1-100", "0-2-120"), 0);
        // Two domains; the replica lacks one entirely.
        assert_eq!(gtid_distance("0-1-100,1-1-7", "0-1-99"), 8);
        assert_eq!(gtid_distance("", "0-1-5"), 0);
        assert_eq!(gtid_distance("0-1-5", ""), 5);
    }
}
