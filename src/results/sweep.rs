//! A sweep's record (sweep.json, one level per thread count) and what a directory holds: a run
//! or a sweep.

use super::*;

/// One level of a sweep, as sweep.json lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepLevel {
    /// Virtual users.
    pub threads: u32,
    /// The level's run directory, relative to the sweep directory.
    pub dir: String,
    /// How the level's run ended.
    pub status: RunStatus,
    /// Whether its numbers can be trusted.
    pub valid: bool,
    /// Why not.
    pub reasons: Vec<String>,
    /// Transactions per second.
    pub tps: f64,
    /// TPC-C: New-Orders per minute over the measured phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nopm: Option<f64>,
    /// TPC-C: transactions per minute over the measured phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpm: Option<f64>,
    /// Response-time 95th percentile, all kinds.
    pub p95_ms: f64,
    /// Response-time 99th percentile, all kinds.
    pub p99_ms: f64,
    /// Failed transactions.
    pub errors: u64,
}

impl SweepLevel {
    /// The line for a level's run.
    pub fn of(r: &RunResult, dir: &str) -> SweepLevel {
        let s = r.summary.as_ref();
        SweepLevel {
            threads: r.config.threads,
            dir: dir.to_string(),
            status: r.status,
            valid: r.validity.valid,
            reasons: r.validity.reasons.clone(),
            tps: s.map_or(0.0, |s| s.tps),
            nopm: r.throughput().rate.map(|r| r.per_minute),
            tpm: r.throughput().rate.map(|r| r.all_per_minute),
            p95_ms: s.map_or(0.0, |s| s.response.p95_ms),
            p99_ms: s.map_or(0.0, |s| s.response.p99_ms),
            errors: s.map_or(0, |s| s.errors),
        }
    }
}

/// sweep.json: a run per thread count, on the same data, rewritten after every level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The workload.
    pub workload: String,
    /// Its options (a resumed sweep must have the same).
    pub workload_options: serde_json::Value,
    /// Thread counts, in the order they run.
    pub levels: Vec<u32>,
    /// UTC, RFC 3339.
    pub started_at: String,
    /// Running until every level ran; interrupted or aborted when one was.
    pub status: RunStatus,
    /// The `run` arguments (workload and options, without --url, --out and output flags),
    /// so `--resume` runs the remaining levels exactly as the sweep began.
    #[serde(default)]
    pub args: Vec<String>,
    /// The levels that ran, in order.
    pub runs: Vec<SweepLevel>,
}

impl Sweep {
    /// The file in a sweep directory.
    pub const FILE: &str = "sweep.json";

    /// Reads `dir`/sweep.json, refusing newer schema versions clearly.
    pub fn load(dir: &Path) -> Result<Sweep> {
        let path = dir.join(Self::FILE);
        let s: Sweep = read_versioned(&path, "sweep")?;
        for level in &s.runs {
            super::files::check_inside(&level.dir, &path)?;
        }
        Ok(s)
    }

    /// Rewrites `dir`/sweep.json atomically.
    pub fn write(&self, dir: &Path) -> Result<()> {
        write_json_atomic(&dir.join(Self::FILE), self).map(|_| ())
    }
}

/// What a directory given to `report` or `compare` holds.
#[derive(Debug, Clone)]
pub enum Stored {
    /// One run.
    Run(Box<RunResult>),
    /// A sweep and the runs of its levels that have a result.json.
    Sweep(Box<Sweep>, Vec<RunResult>),
}

impl Stored {
    /// Reads a run directory or a sweep directory; anything else is an error naming it.
    pub fn load(dir: &Path) -> Result<Stored> {
        if dir.join(Sweep::FILE).is_file() {
            let sweep = Sweep::load(dir)?;
            let mut runs = Vec::new();
            for level in &sweep.runs {
                runs.push(RunResult::load(&dir.join(&level.dir))?);
            }
            if runs.is_empty() {
                bail!(
                    "{} is a sweep with no completed level: nothing to show",
                    dir.display()
                );
            }
            return Ok(Stored::Sweep(Box::new(sweep), runs));
        }
        if !dir.is_dir() {
            bail!("{}: no such directory", dir.display());
        }
        if !dir.join("result.json").is_file() {
            bail!(
                "{} is not a run or sweep directory (no result.json or sweep.json)",
                dir.display()
            );
        }
        Ok(Stored::Run(Box::new(RunResult::load(dir)?)))
    }

    /// The runs, one per thread count.
    pub fn runs(&self) -> Vec<&RunResult> {
        match self {
            Stored::Run(r) => vec![r.as_ref()],
            Stored::Sweep(_, runs) => runs.iter().collect(),
        }
    }

    /// The workload.
    pub fn workload(&self) -> &str {
        match self {
            Stored::Run(r) => &r.config.workload,
            Stored::Sweep(s, _) => &s.workload,
        }
    }
}
