//! One stored result: what ran and its headline figures, taken from a run directory's
//! result.json (the source of truth: the store is an index of them and can be rebuilt).

use crate::results::RunResult;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A run, a sweep level, a merge or an experiment cell, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// The run directory, absolute.
    pub dir: String,
    /// "run", "merge" (of shards) or "shard".
    pub kind: String,
    /// UTC, RFC 3339.
    pub started_at: String,
    /// The workload.
    pub workload: String,
    /// The workload's options, as canonical JSON.
    pub options: String,
    /// Virtual users.
    pub threads: u32,
    /// "mysql" (MariaDB or MySQL) or "postgres".
    pub engine: String,
    /// The server's version string.
    pub server_version: String,
    /// The server binary's SHA-256 when the server ran on this host (else empty).
    pub binary_sha256: String,
    /// The driver's host and its CPUs.
    pub host: String,
    /// See `host`.
    pub host_cpus: u32,
    /// The txbench that ran it.
    pub txbench_version: String,
    /// The benchmark's identity: workload, options, threads, engine and loop (open-loop
    /// rate): runs with the same identity are one series.
    pub identity: String,
    /// The verdict: VALID or INVALID.
    pub valid: bool,
    /// "completed", "interrupted", …
    pub status: String,
    /// The user's labels (`--label commit=3f2a1c`).
    pub labels: BTreeMap<String, String>,
    /// Headline figures by name (see [`FIGURES`]).
    pub figures: BTreeMap<String, f64>,
}

/// The figures the store keeps for every run, with what each is (all may be missing).
pub const FIGURES: &[(&str, &str)] = &[
    ("tps", "transactions per second, measured phase"),
    ("nopm", "TPC-C New-Orders per minute"),
    ("p95_ms", "response time p95, all kinds, ms"),
    ("p99_ms", "response time p99, all kinds, ms"),
    (
        "client_cpu_ms",
        "the client's CPU per transaction, ms (measured phase)",
    ),
    ("server_cpu_ms", "the server's CPU per transaction, ms"),
];

impl Entry {
    /// The benchmark in words: workload, data size, threads, engine and the options that
    /// differ from their defaults (see [`super::benchmark_name`]).
    pub fn name(&self) -> String {
        super::benchmark_name(
            &self.workload,
            &self.options,
            Some(self.threads),
            &self.engine,
        )
    }

    /// The entry of the run stored in `dir`.
    pub fn of(dir: &Path, r: &RunResult) -> Entry {
        let mut figures = BTreeMap::new();
        if let Some(s) = &r.summary {
            figures.insert("tps".into(), s.tps);
            figures.insert("p95_ms".into(), s.response.p95_ms);
            figures.insert("p99_ms".into(), s.response.p99_ms);
            if s.transactions > 0 {
                figures.insert(
                    "client_cpu_ms".into(),
                    s.client_cpu_s * 1000.0 / s.transactions as f64,
                );
            }
            for k in &s.kinds {
                figures.insert(format!("p95_ms.{}", k.name), k.response.p95_ms);
                figures.insert(format!("p99_ms.{}", k.name), k.response.p99_ms);
            }
            if let Some(srv) = &s.server {
                for (name, v) in &srv.per_transaction {
                    let key = if name == "server_cpu_ms" {
                        name.clone()
                    } else {
                        format!("per_txn.{name}")
                    };
                    figures.insert(key, *v);
                }
            }
        }
        if let Some(rate) = r.workload_report.as_ref().and_then(|w| w.rate.as_ref()) {
            figures.insert(rate.name.to_lowercase(), rate.per_minute);
        }
        figures.retain(|_, v| v.is_finite());
        let options = canonical(&r.config.workload_options);
        let engine = engine_of(r);
        let loop_kind = r
            .config
            .rate
            .map_or("closed".to_string(), |t| format!("rate {t}"));
        let identity = identity(&[
            &r.config.workload,
            &options,
            &r.config.threads.to_string(),
            engine,
            &loop_kind,
        ]);
        let kind = if r.merged.is_some() {
            "merge"
        } else if r.shard.is_some() {
            "shard"
        } else {
            "run"
        };
        Entry {
            dir: dir.display().to_string(),
            kind: kind.into(),
            started_at: r.started_at.clone(),
            workload: r.config.workload.clone(),
            options,
            threads: r.config.threads,
            engine: engine.into(),
            server_version: r.server.server(),
            binary_sha256: r
                .server
                .host
                .get("server_binary_sha256")
                .cloned()
                .unwrap_or_default(),
            host: r.client.host.clone(),
            host_cpus: r.client.cpus as u32,
            txbench_version: r.tool.version.clone(),
            identity,
            valid: r.validity.valid,
            status: serde_json::to_value(r.status)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            labels: r.config.labels.clone(),
            figures,
        }
    }
}

/// The engine a run ran on, as the store names it: "postgres", or "mysql" (MariaDB or MySQL).
pub fn engine_of(r: &RunResult) -> &'static str {
    if r.server.is_postgres() {
        "postgres"
    } else {
        "mysql"
    }
}

/// JSON with its object keys sorted (serde_json's maps are sorted without `preserve_order`).
fn canonical(v: &serde_json::Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The first 12 hex digits of the SHA-256 of `parts`, each ended by a 0 byte.
fn identity(parts: &[&str]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0u8]);
    }
    h.finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}
