//! The sampler's files in the run directory: server.csv and server-status.jsonl as the run
//! goes, and waits.csv once the first waits arrive.

use crate::metrics::server::{Delta, ServerRow};
use crate::metrics::waits;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// server.csv and server-status.jsonl (and waits.csv, made when the first waits arrive).
pub(super) struct Files {
    pub(super) dir: PathBuf,
    pub(super) csv: File,
    pub(super) jsonl: File,
    pub(super) waits: Option<File>,
    pub(super) failed: bool,
}

impl Files {
    pub(super) fn create(dir: &Path) -> anyhow::Result<Files> {
        let open = |name: &str| crate::owned::create_new(&dir.join(name));
        let mut csv = open("server.csv")?;
        csv.write_all(ServerRow::csv_header().as_bytes())?;
        Ok(Files {
            dir: dir.to_path_buf(),
            csv,
            jsonl: open("server-status.jsonl")?,
            waits: None,
            failed: false,
        })
    }

    /// Appends an interval's wait rows to waits.csv, creating it with its header first.
    pub(super) fn write_waits(&mut self, rows: &[waits::WaitRow]) -> std::io::Result<()> {
        if self.waits.is_none() {
            let mut f = crate::owned::create_new(&self.dir.join("waits.csv"))
                .map_err(std::io::Error::other)?;
            f.write_all(waits::CSV_HEADER.as_bytes())?;
            self.waits = Some(f);
        }
        let text: String = rows.iter().map(waits::WaitRow::csv_line).collect();
        match self.waits.as_mut() {
            Some(f) => f.write_all(text.as_bytes()),
            None => Ok(()),
        }
    }
}

/// A server-status.jsonl line: the interval, the sample's wall time and the raw delta
/// (counters that moved, every gauge).
pub(super) fn json_line(row: &ServerRow, d: &Delta, ms: f64) -> String {
    let nonzero = |m: &BTreeMap<String, f64>| -> BTreeMap<String, f64> {
        m.iter()
            .filter(|(_, v)| **v != 0.0)
            .map(|(k, v)| (k.clone(), *v))
            .collect()
    };
    let v = serde_json::json!({
        "phase": row.phase,
        "start_s": (row.start_s * 1000.0).round() / 1000.0,
        "end_s": (row.end_s * 1000.0).round() / 1000.0,
        "sample_ms": (ms * 1000.0).round() / 1000.0,
        "status": nonzero(&d.status),
        "status_gauges": d.status_gauges,
        "innodb": nonzero(&d.innodb),
        "innodb_gauges": d.innodb_gauges,
        "workload": d.workload,
        "process": d.process,
        "host": d.host,
        "disk": d.disk,
        "waits": d.waits,
    });
    format!("{v}\n")
}
