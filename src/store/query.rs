//! Which stored runs a listing or a history takes: `--where key=value` on what ran,
//! `--label key=value` on the user's labels, `--since DATE`, the benchmark's identity.

use super::Entry;
use anyhow::{Result, bail};
use rusqlite::{Connection, ToSql};
use std::collections::{BTreeMap, HashMap};

/// The run fields `--where` may name.
pub const FIELDS: &[&str] = &[
    "dir",
    "kind",
    "workload",
    "options",
    "threads",
    "engine",
    "server_version",
    "binary_sha256",
    "host",
    "txbench_version",
    "identity",
    "valid",
    "status",
];

/// A selection of stored runs; every condition must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Run fields and the values they must have (`--where`).
    pub fields: Vec<(String, String)>,
    /// Labels and their values (`--label`).
    pub labels: Vec<(String, String)>,
    /// Runs started at or after this (RFC 3339 or a date, `--since`).
    pub since: Option<String>,
}

impl Filter {
    /// Adds `--where KEY=VALUE`, refusing a key that is not a run field.
    pub fn field(&mut self, kv: &str) -> Result<()> {
        let (k, v) = split(kv, "--where")?;
        if !FIELDS.contains(&k.as_str()) {
            bail!(
                "--where {k}: not a run field (one of {})",
                FIELDS.join(", ")
            );
        }
        let v = if k == "valid" {
            match v.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "valid" => "1".to_string(),
                "0" | "false" | "no" | "invalid" => "0".to_string(),
                _ => bail!("--where valid={v}: say true or false"),
            }
        } else {
            v
        };
        self.fields.push((k, v));
        Ok(())
    }

    /// Adds `--label KEY=VALUE`.
    pub fn label(&mut self, kv: &str) -> Result<()> {
        let (k, v) = split(kv, "--label")?;
        self.labels.push((k, v));
        Ok(())
    }
}

fn split(kv: &str, flag: &str) -> Result<(String, String)> {
    match kv.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
        _ => bail!("{flag} {kv}: expected KEY=VALUE"),
    }
}

/// The runs `f` selects, oldest first, with their labels and figures.
pub(super) fn select(conn: &Connection, f: &Filter) -> Result<Vec<Entry>> {
    let mut cond = Vec::new();
    let mut args: Vec<&dyn ToSql> = Vec::new();
    for (k, v) in &f.fields {
        // The column is one of FIELDS (checked when the filter was made).
        cond.push(format!("r.{k} = ?"));
        args.push(v);
    }
    for (k, v) in &f.labels {
        cond.push(
            "EXISTS (SELECT 1 FROM labels l WHERE l.run = r.id AND l.key = ? AND l.value = ?)"
                .into(),
        );
        args.push(k);
        args.push(v);
    }
    if let Some(s) = &f.since {
        cond.push("r.started_at >= ?".into());
        args.push(s);
    }
    let wh = if cond.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", cond.join(" AND "))
    };
    let mut runs: Vec<(i64, Entry)> = conn
        .prepare(&format!(
            "SELECT r.id, r.dir, r.kind, r.started_at, r.workload, r.options, r.threads,
                r.engine, r.server_version, r.binary_sha256, r.host, r.host_cpus,
                r.txbench_version, r.identity, r.valid, r.status
             FROM runs r {wh} ORDER BY r.started_at, r.id"
        ))?
        .query_map(args.as_slice(), |row| {
            Ok((
                row.get(0)?,
                Entry {
                    dir: row.get(1)?,
                    kind: row.get(2)?,
                    started_at: row.get(3)?,
                    workload: row.get(4)?,
                    options: row.get(5)?,
                    threads: row.get(6)?,
                    engine: row.get(7)?,
                    server_version: row.get(8)?,
                    binary_sha256: row.get(9)?,
                    host: row.get(10)?,
                    host_cpus: row.get(11)?,
                    txbench_version: row.get(12)?,
                    identity: row.get(13)?,
                    valid: row.get(14)?,
                    status: row.get(15)?,
                    labels: BTreeMap::new(),
                    figures: BTreeMap::new(),
                },
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let at: HashMap<i64, usize> = runs.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
    for (table, key) in [("labels", "key"), ("figures", "name")] {
        let sql = format!(
            "SELECT t.run, t.{key}, t.value FROM {table} t
             WHERE t.run IN (SELECT r.id FROM runs r {wh})"
        );
        let mut stmt = conn.prepare(&sql)?;
        let mut rows = stmt.query(args.as_slice())?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let Some(&i) = at.get(&id) else { continue };
            let name: String = row.get(1)?;
            let e = &mut runs[i].1;
            if table == "labels" {
                e.labels.insert(name, row.get(2)?);
            } else {
                e.figures.insert(name, row.get(2)?);
            }
        }
    }
    Ok(runs.into_iter().map(|r| r.1).collect())
}
