//! An experiment's sandboxes: one per variant × workload, named stably from the experiment's
//! directory, started with the variant's settings (each read back and compared), and the
//! members of a topology.

use super::plan::{self, Variant};
use crate::engine::{self, TargetUrl};
use crate::server::{self, StateDir, cluster};
use anyhow::{Context, Result, bail};
use std::path::Path;

/// The sandbox of variant `vi` × workload `wi` of the experiment in `dir`: a name stable
/// across builds (SHA-256 of the directory's path, not std's hasher, which may change).
pub(super) fn sandbox_name(dir: &Path, vi: usize, wi: usize) -> String {
    use sha2::Digest;
    let path = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let digest = sha2::Sha256::digest(path.as_os_str().as_encoded_bytes());
    let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("xp-{hex}-v{vi}-w{wi}")
}

/// What `server start` gets for a variant's sandbox `name`, its `instance`th from 0 (a
/// co-located instance is pinned to its own `instance_cpus` entry when the plan gives them).
pub(super) fn start_options(
    name: &str,
    v: &Variant,
    instance: usize,
    plan_dir: &Path,
) -> Result<(server::StartOptions, cluster::Request)> {
    let sets = v
        .set
        .iter()
        .map(|(k, val)| {
            server::cnf::Setting::parse(&format!("{k}={}", plan::set_value(val)))
                .with_context(|| format!("variant '{}'", v.name))
        })
        .collect::<Result<Vec<_>>>()?;
    let cpus = v
        .instance_cpus
        .get(instance)
        .map(|c| (c.as_str(), "instance_cpus"))
        .or(v.cpus.as_deref().map(|c| (c, "cpus")))
        .map(|(c, key)| server::placement::parse_cpus(c, key))
        .transpose()
        .with_context(|| format!("variant '{}'", v.name))?;
    Ok((
        server::StartOptions {
            name: name.into(),
            sets,
            config: v.config.as_ref().map(|c| plan_dir.join(c)),
            binary: v.binary.clone(),
            cpus,
            numa_node: v.numa_node,
            ..Default::default()
        },
        cluster::Request {
            replicas: v.replicas,
            semisync: v.semisync,
            galera: v.galera,
        },
    ))
}

/// A setting's value as the server would report it, for comparison: ON/OFF for booleans,
/// bytes for sizes, lower case otherwise.
pub(super) fn normal(v: &str) -> String {
    let t = v.trim().trim_matches('\'').trim_matches('"');
    match t.to_ascii_uppercase().as_str() {
        "ON" | "TRUE" => return "ON".into(),
        "OFF" | "FALSE" => return "OFF".into(),
        _ => {}
    }
    if let Some(b) = server::cnf::parse_size(t) {
        return b.to_string();
    }
    t.to_ascii_lowercase().replace('_', "-")
}

/// Each requested setting as the server reports it: one that it does not report, or
/// reports with another value, stops the experiment naming it.
pub(super) fn verify_settings(conn: &mut engine::Conn, v: &Variant) -> Result<Vec<String>> {
    let mut seen = Vec::new();
    for (key, val) in &v.set {
        let name = key.replace('-', "_").to_ascii_lowercase();
        let name = name.strip_prefix("loose_").unwrap_or(&name).to_string();
        // Options whose variable has another name on some servers (MariaDB before 11.1
        // reports transaction_isolation as tx_isolation).
        let aliases: &[&str] = match name.as_str() {
            "transaction_isolation" => &["tx_isolation"],
            "tx_isolation" => &["transaction_isolation"],
            "transaction_read_only" => &["tx_read_only"],
            "tx_read_only" => &["transaction_read_only"],
            _ => &[],
        };
        let mut got: Option<(String, String)> = None;
        for n in std::iter::once(name.as_str()).chain(aliases.iter().copied()) {
            got = conn
                .exec_first("SHOW GLOBAL VARIABLES WHERE Variable_name = ?", (n,))
                .with_context(|| format!("reading {n}"))?;
            if got.is_some() {
                break;
            }
        }
        let want = plan::set_value(val);
        let Some((_, got)) = got else {
            bail!(
                "variant '{}': set {key} = {want}: the server reports no variable {name} (misspelt, or not a server variable)",
                v.name
            );
        };
        // Booleans come back as ON/OFF or 1/0 depending on the variable.
        let (a, b) = (normal(&want), normal(&got));
        let same = a == b
            || matches!(
                (a.as_str(), b.as_str()),
                ("ON", "1") | ("1", "ON") | ("OFF", "0") | ("0", "OFF")
            );
        if !same {
            bail!(
                "variant '{}': set {key} = {want}, but the server reports {name} = {got} (ignored or overridden)",
                v.name
            );
        }
        seen.push(format!("{name}={got}"));
    }
    Ok(seen)
}

/// The targets of a variant's running servers: the first, or every Galera node (the first
/// `writers` of them when the variant says).
pub(super) fn targets(started: &[server::Started], writers: Option<u32>) -> Vec<TargetUrl> {
    match started.first().map(|s| &s.record.role) {
        Some(cluster::Role::Galera { .. }) => started
            .iter()
            .take(writers.map_or(started.len(), |w| w as usize))
            .map(|s| s.record.login_url())
            .collect(),
        _ => started
            .iter()
            .take(1)
            .map(|s| s.record.login_url())
            .collect(),
    }
}

/// Every member of the topology that `name` heads.
pub(super) fn members(home: &StateDir, name: &str) -> Result<Vec<server::ServerRecord>> {
    let head = server::get(home, name)?.record;
    let mut out = vec![head.clone()];
    let rest = match &head.role {
        cluster::Role::Primary { replicas, .. } => replicas.clone(),
        cluster::Role::Galera { nodes, .. } => nodes[1..].to_vec(),
        _ => Vec::new(),
    };
    for r in rest {
        out.push(server::get(home, &r)?.record);
    }
    Ok(out)
}
