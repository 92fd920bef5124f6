//! `run`'s levels: one level (level.rs: pre-flight, the workload, its RunConfig, the driver,
//! the checks after it), or a sweep, each level in turn on the same data with a run directory
//! per level and sweep.json rewritten after each. Its configuration is read once from the
//! command line by `commands` into a [`Plan`]; what it shows goes through [`Show`], which
//! `commands` implements (nothing here prints or sees clap).

mod after;
mod growth;
mod level;
mod part;

pub use level::{level, lua_general};

use crate::config::RunConfig;
use crate::engine::TargetUrl;
use crate::results::{RunResult, RunStatus, SCHEMA_VERSION, Sweep, SweepLevel};
use crate::workload::oltp::{OltpKind, OltpOptions};
use crate::workload::{tpcb, tpcc};
use anyhow::{Context, Result};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// The workload `run` runs, with its run options.
#[derive(Debug, Clone)]
pub enum Choice {
    /// An oltp_* workload.
    Oltp(OltpKind, OltpOptions),
    /// TPC-C: over `warehouses` (None: every prepared one), `check` after the run.
    Tpcc {
        /// --warehouses.
        warehouses: Option<u32>,
        /// --check.
        check: bool,
        /// --table-sets (None: every prepared one).
        table_sets: Option<u32>,
        /// The rest of its options.
        options: tpcc::run::RunOptions,
    },
    /// TPC-B: at `scale` (None: the prepared one), `check` after the run.
    Tpcb {
        /// --scale.
        scale: Option<u32>,
        /// --check.
        check: bool,
        /// The rest of its options.
        options: tpcb::RunOptions,
    },
    /// A sysbench Lua script with its options.
    Lua {
        /// The script, loaded.
        script: std::sync::Arc<crate::workload::lua::Script>,
        /// Its options' values.
        given: std::sync::Arc<crate::workload::lua::options::Given>,
    },
    /// pgbench scripts.
    Script(crate::workload::script::ScriptSet),
}

impl Choice {
    /// The workload's name.
    pub fn name(&self) -> &'static str {
        match self {
            Choice::Oltp(k, _) => k.name(),
            Choice::Tpcc { .. } => "tpcc",
            Choice::Tpcb { .. } => "tpcb",
            Choice::Lua { .. } => "lua",
            Choice::Script(_) => "script",
        }
    }
}

/// `run`'s configuration, read once from the command line and validated there: every level
/// of a sweep derives its RunConfig from `driver` (its targets, thread count, seed, workload
/// options and start added), never patching one after it is made.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The workload.
    pub choice: Choice,
    /// The driver's options as each level records them; the fields a level fills are left
    /// empty here (url, targets, threads, seed, workload_options, start_at).
    pub driver: RunConfig,
    /// --seed (None: from the clock, or from --start-at for shards).
    pub seed: Option<u64>,
    /// --start-at, in the server's clock.
    pub start_at: Option<SystemTime>,
    /// The command line's run options, as sweep.json records them for --resume.
    pub args: Vec<String>,
}

/// What a level and a sweep show as they go; `commands` prints.
pub trait Show {
    /// A line for people.
    fn note(&self, line: &str);
    /// The live display of a level's intervals and progress: `prefix` names the level of a
    /// sweep (`level` its number), `secs` its planned length.
    fn level_display(
        &self,
        prefix: String,
        level: Option<usize>,
        secs: u64,
    ) -> Box<dyn crate::driver::Display>;
    /// A level ended with `result` in `dir`.
    fn level_done(&self, result: &RunResult, dir: &Path, level: Option<usize>);
}

/// The pause between a sharded sweep's levels: each level starts this long after the
/// previous one's planned end, time for its last transactions, checks and deferred work.
const LEVEL_GAP: Duration = Duration::from_secs(10);

/// A seed from the clock.
pub fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// A sweep in `dir` at `levels` of threads, or (None) the sweep already there resumed: every
/// recorded level is kept, INVALID ones too (a result, not a failure to finish); an
/// interrupted or failed level was never recorded and runs again. Returns the sweep as it
/// ended (completed, or interrupted at a level).
pub fn sweep(
    plan: &Plan,
    targets: &[TargetUrl],
    dir: &Path,
    levels: Option<&[u32]>,
    show: &dyn Show,
) -> Result<Sweep> {
    let mut sw = match levels {
        None => {
            if !dir.join(Sweep::FILE).is_file() {
                anyhow::bail!("--resume {}: no sweep.json there", dir.display());
            }
            Sweep::load(dir)?
        }
        Some(l) => {
            if dir.join(Sweep::FILE).exists() {
                anyhow::bail!(
                    "--out {}: holds a sweep already; resume it with --resume {}",
                    dir.display(),
                    dir.display()
                );
            }
            crate::owned::make_dir(dir, "--out")?;
            Sweep {
                schema_version: SCHEMA_VERSION,
                workload: plan.choice.name().to_string(),
                workload_options: serde_json::Value::Null,
                levels: l.to_vec(),
                started_at: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
                status: RunStatus::Running,
                args: plan.args.clone(),
                runs: Vec::new(),
            }
        }
    };
    if levels.is_none() {
        show.note(&format!(
            "resuming the sweep in {}: {} of {} level(s) kept",
            dir.display(),
            sw.runs.len(),
            sw.levels.len()
        ));
    }
    sw.status = RunStatus::Running;
    sw.write(dir)?;
    let all = sw.levels.clone();
    for (i, &threads) in all.iter().enumerate() {
        if sw.runs.iter().any(|l| l.threads == threads) {
            continue;
        }
        let name = format!("t{threads:05}");
        let level_dir = dir.join(&name);
        if level_dir.exists() {
            std::fs::remove_dir_all(&level_dir)
                .with_context(|| format!("removing the unfinished {}", level_dir.display()))?;
        }
        let result = match level(
            plan,
            targets,
            threads,
            &level_dir,
            Some((i + 1, all.len())),
            Some(&sw.workload_options),
            show,
        ) {
            Ok(r) => r,
            Err(e) => {
                sw.status = RunStatus::Aborted;
                sw.write(dir)?;
                return Err(e.context(format!(
                    "the level of {threads} threads failed; resume the sweep with --resume {}",
                    dir.display()
                )));
            }
        };
        if sw.workload_options.is_null() {
            sw.workload_options = result.config.workload_options.clone();
        }
        if result.status == RunStatus::Interrupted {
            sw.status = RunStatus::Interrupted;
            sw.write(dir)?;
            show.note(&format!(
                "sweep interrupted at {threads} threads: resume it with `txbench run {} --resume {}`",
                plan.choice.name(),
                dir.display()
            ));
            return Ok(sw);
        }
        sw.runs.push(SweepLevel::of(&result, &name));
        sw.runs
            .sort_by_key(|l| all.iter().position(|&t| t == l.threads));
        sw.write(dir)?;
    }
    sw.status = RunStatus::Completed;
    sw.write(dir)?;
    Ok(sw)
}
