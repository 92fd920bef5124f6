//! Sandbox topologies: a primary with N replicas (GTID replication, optionally
//! semi-synchronous) or an N-node Galera cluster, each member a sandbox of its own, started,
//! stopped and removed together under the name of the first.
//!
//! Members are named `NAME-r1…` (replicas) and `NAME-g2…` (Galera nodes after the first,
//! which is `NAME`). Each member's `server.json` records its [`Role`]; the settings a role
//! needs are rendered last into its my.cnf.

use super::{ServerRecord, StartOptions, Started, StateDir};
use crate::engine;
use crate::server::cnf::Setting;
use anyhow::{Context, Result, bail};
#[cfg(feature = "mysql")]
use mysql::prelude::Queryable;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
#[cfg(feature = "mysql")]
use std::time::{Duration, Instant};

/// Where Debian's galera-4 package puts the provider library.
pub const GALERA_LIBRARY: &str = "/usr/lib/galera/libgalera_smm.so";
/// How long a replica may take to start replicating, and a Galera node to join.
#[cfg(feature = "mysql")]
const JOIN_TIMEOUT: Duration = Duration::from_secs(120);

/// A sandbox's place in a topology.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Role {
    /// A server on its own.
    #[default]
    Standalone,
    /// A primary: writes a binary log its replicas follow.
    Primary {
        /// The replicas' sandbox names.
        replicas: Vec<String>,
        /// Semi-synchronous replication.
        semisync: bool,
    },
    /// A replica of `primary` (GTID, slave_pos).
    Replica {
        /// The primary's sandbox name.
        primary: String,
        /// Its number, from 1.
        index: u32,
        /// Semi-synchronous replication.
        semisync: bool,
    },
    /// Node `index` (from 1) of the Galera cluster `cluster`.
    Galera {
        /// The cluster's name (the first node's sandbox name).
        cluster: String,
        /// This node's number.
        index: u32,
        /// Every node's sandbox name, in order.
        nodes: Vec<String>,
        /// Every node's group-communication port, in order (IST is +1, SST +2).
        gcomm_ports: Vec<u16>,
    },
}

impl Role {
    /// How many servers the topology has (each one's memory defaults are divided by it).
    pub fn members(&self) -> u64 {
        match self {
            Role::Standalone => 1,
            Role::Primary { replicas, .. } => 1 + replicas.len() as u64,
            Role::Replica { .. } => 2,
            Role::Galera { nodes, .. } => nodes.len() as u64,
        }
    }

    /// One phrase for `status` and `list`.
    pub fn describe(&self) -> String {
        match self {
            Role::Standalone => "standalone".into(),
            Role::Primary { replicas, semisync } => format!(
                "primary of {} ({})",
                replicas.join(", "),
                if *semisync { "semi-sync" } else { "async" }
            ),
            Role::Replica {
                primary, semisync, ..
            } => format!(
                "replica of {primary} ({})",
                if *semisync { "semi-sync" } else { "async" }
            ),
            Role::Galera {
                cluster,
                index,
                nodes,
                ..
            } => format!("galera node {index}/{} of {cluster}", nodes.len()),
        }
    }
}

/// The my.cnf lines `record`'s role needs.
pub fn role_settings(record: &ServerRecord) -> Vec<Setting> {
    let s = |k: &str, v: String| Setting {
        key: k.into(),
        value: v,
    };
    match &record.role {
        Role::Standalone => Vec::new(),
        Role::Primary { semisync, .. } => {
            let mut v = vec![
                s("server_id", "1".into()),
                s("log_bin", "binlog".into()),
                s("binlog_format", "ROW".into()),
                s("sync_binlog", "1".into()),
                s("report_host", "127.0.0.1".into()),
            ];
            if *semisync {
                v.push(s("rpl_semi_sync_master_enabled", "ON".into()));
            }
            v
        }
        Role::Replica {
            index, semisync, ..
        } => {
            let mut v = vec![
                s("server_id", (100 + index).to_string()),
                s("relay_log", "relay-bin".into()),
                s("read_only", "ON".into()),
                s("report_host", "127.0.0.1".into()),
                s("report_port", record.port.to_string()),
            ];
            if *semisync {
                v.push(s("rpl_semi_sync_slave_enabled", "ON".into()));
            }
            v
        }
        Role::Galera {
            cluster,
            index,
            gcomm_ports,
            ..
        } => {
            let own = gcomm_ports[(*index - 1) as usize];
            let peers = gcomm_ports
                .iter()
                .map(|p| format!("127.0.0.1:{p}"))
                .collect::<Vec<_>>()
                .join(",");
            vec![
                s("wsrep_on", "ON".into()),
                s("wsrep_provider", GALERA_LIBRARY.into()),
                s("wsrep_cluster_name", cluster.clone()),
                s("wsrep_cluster_address", format!("gcomm://{peers}")),
                s("wsrep_node_name", record.name.clone()),
                s("wsrep_node_address", format!("127.0.0.1:{own}")),
                s(
                    "wsrep_provider_options",
                    format!(
                        "\"gmcast.listen_addr=tcp://127.0.0.1:{own};ist.recv_addr=127.0.0.1:{};gcache.size=256M\"",
                        own + 1
                    ),
                ),
                s("wsrep_sst_method", "mariabackup".into()),
                s(
                    "wsrep_sst_receive_address",
                    format!("127.0.0.1:{}", own + 2),
                ),
                s("binlog_format", "ROW".into()),
                s("innodb_autoinc_lock_mode", "2".into()),
                s("wsrep_slave_threads", "2".into()),
            ]
        }
    }
}

/// What `server start` asks of the topology.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    /// `--replicas N`.
    pub replicas: Option<u32>,
    /// `--semisync`.
    pub semisync: bool,
    /// `--galera N`.
    pub galera: Option<u32>,
}

impl Request {
    fn check(&self) -> Result<()> {
        if self.replicas == Some(0) {
            bail!("--replicas 0: give 1 or more replicas (a server alone is `server start NAME`)");
        }
        if self.semisync && self.replicas.is_none() {
            bail!("--semisync: it needs --replicas N");
        }
        if let Some(n) = self.galera {
            if n < 2 {
                bail!(
                    "--galera {n}: a Galera cluster needs 2 nodes or more (3 to survive losing one)"
                );
            }
            galera_available(Path::new(GALERA_LIBRARY), n)?;
        }
        Ok(())
    }
    fn role_for(&self, name: &str) -> Role {
        match (self.replicas, self.galera) {
            (Some(n), _) => Role::Primary {
                replicas: (1..=n).map(|i| format!("{name}-r{i}")).collect(),
                semisync: self.semisync,
            },
            (None, Some(n)) => Role::Galera {
                cluster: name.into(),
                index: 1,
                nodes: galera_names(name, n),
                gcomm_ports: Vec::new(),
            },
            (None, None) => Role::Standalone,
        }
    }
}

fn galera_names(name: &str, n: u32) -> Vec<String> {
    std::iter::once(name.to_string())
        .chain((2..=n).map(|i| format!("{name}-g{i}")))
        .collect()
}

fn galera_available(library: &Path, n: u32) -> Result<()> {
    if !library.is_file() {
        bail!(
            "--galera {n}: the Galera library {} is not installed: install the Debian package galera-4 (apt-get install galera-4)",
            library.display()
        );
    }
    for (program, package) in [("mariabackup", "mariadb-backup"), ("socat", "socat")] {
        if super::find_program(&[program]).is_none() {
            bail!(
                "--galera {n}: {program} (which copies a node's data to a joining node) is not installed: install the Debian package {package}"
            );
        }
    }
    Ok(())
}

/// Starts the sandbox `opts.name` and, when it heads a topology (now asked for, or
/// recorded), every member: replicas attached to the primary, Galera nodes joined. The
/// first element is the primary or first node.
pub fn start(home: &StateDir, opts: &StartOptions, req: Request) -> Result<Vec<Started>> {
    req.check()?;
    super::validate_name(&opts.name)?;
    let existing = super::ServerRecord::path(&home.server_dir(&opts.name))
        .exists()
        .then(|| super::get(home, &opts.name))
        .transpose()?;
    let wanted = req.role_for(&opts.name);
    let role = match &existing {
        Some(s) => {
            let has = &s.record.role;
            let asked = req.replicas.is_some() || req.galera.is_some();
            if asked && !same_shape(has, &wanted) {
                bail!(
                    "server '{}' exists as {}: {} needs a new server (remove it with `txbench server stop --rm {}`)",
                    opts.name,
                    has.describe(),
                    if req.galera.is_some() {
                        "--galera"
                    } else {
                        "--replicas"
                    },
                    opts.name
                );
            }
            match has {
                Role::Replica { primary, .. } => bail!(
                    "server '{}' is a replica of '{primary}': start the topology with `txbench server start {primary}`",
                    opts.name
                ),
                Role::Galera { cluster, index, .. } if *index != 1 => bail!(
                    "server '{}' is a node of the Galera cluster '{cluster}': start it with `txbench server start {cluster}`",
                    opts.name
                ),
                r => r.clone(),
            }
        }
        None => wanted,
    };
    if let Some(names) = member_names(&role) {
        for n in &names {
            super::validate_name(n)
                .with_context(|| format!("the member {n} of '{}'", opts.name))?;
        }
    }
    match role {
        Role::Standalone => Ok(vec![super::start(home, opts)?]),
        Role::Primary { replicas, semisync } => {
            let primary = super::start(
                home,
                &StartOptions {
                    role: Some(Role::Primary {
                        replicas: replicas.clone(),
                        semisync,
                    }),
                    ..opts.clone()
                },
            )?;
            let mut out = vec![primary];
            for (i, name) in replicas.iter().enumerate() {
                let member = member_options(opts, name);
                let started = super::start(
                    home,
                    &StartOptions {
                        role: Some(Role::Replica {
                            primary: opts.name.clone(),
                            index: i as u32 + 1,
                            semisync,
                        }),
                        ..member
                    },
                )?;
                attach(&started.record, &out[0].record)?;
                out.push(started);
            }
            Ok(out)
        }
        Role::Galera {
            nodes, gcomm_ports, ..
        } => start_galera(home, opts, &nodes, gcomm_ports),
        Role::Replica { .. } => unreachable!("refused above"),
    }
}

fn same_shape(a: &Role, b: &Role) -> bool {
    match (a, b) {
        (
            Role::Primary {
                replicas: r1,
                semisync: s1,
            },
            Role::Primary {
                replicas: r2,
                semisync: s2,
            },
        ) => r1 == r2 && s1 == s2,
        (Role::Galera { nodes: n1, .. }, Role::Galera { nodes: n2, .. }) => n1 == n2,
        (Role::Standalone, Role::Standalone) => true,
        _ => false,
    }
}

/// The names of every member after the first.
fn member_names(role: &Role) -> Option<Vec<String>> {
    match role {
        Role::Primary { replicas, .. } => Some(replicas.clone()),
        Role::Galera { nodes, .. } => Some(nodes[1..].to_vec()),
        _ => None,
    }
}

/// A member's options: the first's settings and build, a port of its own.
fn member_options(opts: &StartOptions, name: &str) -> StartOptions {
    StartOptions {
        name: name.into(),
        port: None,
        ..opts.clone()
    }
}

/// Points a replica at its primary (when it is not already) and waits until both
/// replication threads run.
#[cfg(feature = "mysql")]
fn attach(replica: &ServerRecord, primary: &ServerRecord) -> Result<()> {
    let mut conn = engine::mysql::connect(&replica.admin_url())?;
    let status = crate::topology::replica_status(&mut conn)?;
    let port: Option<u16> = conn
        .query_first::<mysql::Row, _>("SHOW SLAVE STATUS")?
        .and_then(|r| r.get_opt("Master_Port").and_then(|v| v.ok()));
    if status.is_none() || port != Some(primary.port) {
        conn.query_drop("STOP SLAVE")?;
        conn.query_drop(format!(
            "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT={}, MASTER_USER='{}', \
             MASTER_PASSWORD='{}', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1",
            primary.port,
            super::BENCH_USER,
            primary.login_url().password.unwrap_or_default()
        ))
        .with_context(|| format!("pointing replica '{}' at '{}'", replica.name, primary.name))?;
        conn.query_drop("START SLAVE")?;
    }
    let t = Instant::now();
    loop {
        match crate::topology::replica_status(&mut conn)? {
            Some(s) if s.running() => return Ok(()),
            Some(s)
                if t.elapsed() >= JOIN_TIMEOUT
                    || !s.last_error.is_empty() && t.elapsed() > Duration::from_secs(10) =>
            {
                bail!(
                    "replica '{}' did not start replicating from '{}' within {} s: {}",
                    replica.name,
                    primary.name,
                    t.elapsed().as_secs(),
                    if s.last_error.is_empty() {
                        "no error reported".to_string()
                    } else {
                        s.last_error
                    }
                )
            }
            None => bail!("replica '{}' lost its replication settings", replica.name),
            _ => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// Replication needs the MySQL client: a build without it refuses, naming the feature.
#[cfg(not(feature = "mysql"))]
fn attach(_: &ServerRecord, _: &ServerRecord) -> Result<()> {
    Err(engine::not_built(engine::Engine::Mysql))
}

fn free_ports(n: usize) -> Result<Vec<u16>> {
    // Three consecutive free ports per node (group communication, IST, SST).
    let mut out = Vec::new();
    let mut listeners = Vec::new();
    let mut candidate = 20000u16 + (std::process::id() % 20000) as u16;
    while out.len() < n {
        let ok: Vec<_> = (0..3)
            .map(|i| std::net::TcpListener::bind(("127.0.0.1", candidate + i)))
            .collect();
        if ok.iter().all(|l| l.is_ok()) {
            out.push(candidate);
            listeners.extend(ok.into_iter().flatten());
        }
        candidate = candidate
            .checked_add(3)
            .context("no free ports for Galera")?;
    }
    Ok(out)
}

fn start_galera(
    home: &StateDir,
    opts: &StartOptions,
    nodes: &[String],
    ports: Vec<u16>,
) -> Result<Vec<Started>> {
    let ports = if ports.is_empty() {
        free_ports(nodes.len())?
    } else {
        ports
    };
    let mut out = Vec::new();
    for (i, name) in nodes.iter().enumerate() {
        let role = Role::Galera {
            cluster: nodes[0].clone(),
            index: i as u32 + 1,
            nodes: nodes.to_vec(),
            gcomm_ports: ports.clone(),
        };
        let member = if i == 0 {
            opts.clone()
        } else {
            member_options(opts, name)
        };
        let dir = home.server_dir(name);
        // The first node starts a new cluster: it is the last stopped, so its state is the
        // newest, and Galera must be told it may bootstrap from it.
        let bootstrap = i == 0;
        if bootstrap {
            allow_bootstrap(&dir.join("data"))?;
        }
        let started = super::start(
            home,
            &StartOptions {
                role: Some(role),
                galera_new_cluster: bootstrap,
                ..member
            },
        )?;
        wait_synced(&started.record, i + 1)?;
        out.push(started);
    }
    Ok(out)
}

/// Sets `safe_to_bootstrap: 1` in grastate.dat (there when the node ran before).
fn allow_bootstrap(datadir: &Path) -> Result<()> {
    let path: PathBuf = datadir.join("grastate.dat");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let text = text.replace("safe_to_bootstrap: 0", "safe_to_bootstrap: 1");
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// Waits until the node is ready (wsrep_ready) and sees `size` nodes.
#[cfg(feature = "mysql")]
fn wait_synced(record: &ServerRecord, size: usize) -> Result<()> {
    let t = Instant::now();
    let mut last = None;
    while t.elapsed() < JOIN_TIMEOUT {
        if let Ok(mut c) = engine::mysql::connect(&record.socket_url())
            && let Ok(Some(g)) = crate::topology::galera_state(&mut c)
        {
            if g.ready && g.cluster_size as usize >= size && g.status == "Primary" {
                return Ok(());
            }
            last = Some(g);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    bail!(
        "Galera node '{}' did not join within {} s ({}); see `txbench server logs {}`",
        record.name,
        JOIN_TIMEOUT.as_secs(),
        last.map_or("no wsrep status".into(), |g| format!(
            "cluster size {}, {}, {}",
            g.cluster_size, g.status, g.state
        )),
        record.name
    )
}

/// Galera needs the MySQL client: a build without it refuses, naming the feature.
#[cfg(not(feature = "mysql"))]
fn wait_synced(_: &ServerRecord, _: usize) -> Result<()> {
    Err(engine::not_built(engine::Engine::Mysql))
}

/// The replicas of the sandbox primary listening at `url` (a loopback URL whose port is
/// a sandbox's): what `check` expects to find, even when one has died.
pub fn sandbox_replicas(
    home: &StateDir,
    url: &crate::engine::TargetUrl,
) -> Vec<crate::topology::ReplicaAddr> {
    if !url.is_local() {
        return Vec::new();
    }
    let Ok(all) = super::list(home) else {
        return Vec::new();
    };
    let Some(primary) = all
        .iter()
        .find(|s| s.record.port == url.port && matches!(s.record.role, Role::Primary { .. }))
    else {
        return Vec::new();
    };
    let Role::Primary { replicas, .. } = &primary.record.role else {
        return Vec::new();
    };
    all.iter()
        .filter(|s| replicas.contains(&s.record.name))
        .map(|s| crate::topology::ReplicaAddr {
            server_id: 0,
            host: "127.0.0.1".into(),
            port: s.record.port,
        })
        .collect()
}

/// Stops `name` and, when it heads a topology, every member (replicas before the primary,
/// Galera nodes before the first, which must be the last to stop). A member alone may be
/// stopped (a fault to study), not removed.
pub fn stop(home: &StateDir, name: &str, rm: bool) -> Result<Vec<super::Stopped>> {
    let server = super::get(home, name)?;
    let members: Vec<String> = match &server.record.role {
        Role::Primary { replicas, .. } => replicas.clone(),
        Role::Galera {
            nodes, index: 1, ..
        } => nodes[1..].iter().rev().cloned().collect(),
        Role::Replica { primary, .. }
        | Role::Galera {
            cluster: primary, ..
        } if rm => bail!(
            "server '{name}' belongs to '{primary}': remove them together with `txbench server stop --rm {primary}`"
        ),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for m in members {
        if super::ServerRecord::path(&home.server_dir(&m)).exists() {
            out.push(super::stop(home, &m, rm)?);
        }
    }
    out.push(super::stop(home, name, rm)?);
    Ok(out)
}

#[cfg(test)]
mod tests;
