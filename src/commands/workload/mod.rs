//! `prepare`, `run`, `check` and `cleanup` of a workload: the choice of workload and its
//! options here; preparing in `prepare`, checking in `check`, running and sweeping in `run`.

mod check;
mod lua;
mod prepare;
mod run;

pub use check::check;
pub use lua::lua_command;
pub use prepare::{cleanup, prepare};
pub(crate) use run::default_run_dir;
pub use run::run;

use super::{Output, resolve_target};
use crate::cli::{TpcbArgs, TpccArgs, WorkloadChoice};
use crate::workload::oltp::{OltpKind, OltpOptions};
use crate::workload::tpcc::TpccOptions;
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A workload chosen on the command line, with validated options.
enum Selected {
    Oltp(OltpKind, OltpOptions),
    Tpcc(TpccArgs),
    Tpcb(TpcbArgs),
    Lua(lua::Chosen),
    Script(crate::workload::script::ScriptSet),
}

impl Selected {
    fn name(&self) -> &'static str {
        match self {
            Selected::Oltp(k, _) => k.name(),
            Selected::Tpcc(_) => "tpcc",
            Selected::Tpcb(_) => "tpcb",
            Selected::Lua(_) => "lua",
            Selected::Script(_) => "script",
        }
    }
}

fn tpcc_options(a: &TpccArgs, warehouses: u32) -> TpccOptions {
    TpccOptions {
        warehouses,
        null_dates: a.null_dates,
        partition: a.partition,
        foreign_keys: a.foreign_keys,
        engine: a.engine.clone(),
    }
}

/// The workload of `verb`'s command line (`verb` is the command a sysbench script is
/// loaded for: prepare, run, check, cleanup).
fn select(w: &WorkloadChoice, verb: &str) -> Result<Selected> {
    let (kind, args) = match w {
        WorkloadChoice::Lua(a) => return lua::select(a, verb).map(Selected::Lua),
        WorkloadChoice::Tpcc(a) => {
            if a.warehouses == Some(0) {
                anyhow::bail!("--warehouses must be at least 1");
            }
            return Ok(Selected::Tpcc(a.clone()));
        }
        WorkloadChoice::Tpcb(a) => {
            if a.scale == Some(0) {
                anyhow::bail!("--scale must be at least 1");
            }
            return Ok(Selected::Tpcb(a.clone()));
        }
        WorkloadChoice::Script(a) => {
            let set = crate::workload::script::ScriptSet::load(
                &a.files,
                &a.builtins,
                &a.defines,
                a.protocol,
            )
            .map_err(crate::error::Failure::Usage)?;
            return Ok(Selected::Script(set));
        }
        WorkloadChoice::OltpReadWrite(a) => (OltpKind::ReadWrite, a),
        WorkloadChoice::OltpReadOnly(a) => (OltpKind::ReadOnly, a),
        WorkloadChoice::OltpWriteOnly(a) => (OltpKind::WriteOnly, a),
        WorkloadChoice::OltpPointSelect(a) => (OltpKind::PointSelect, a),
        WorkloadChoice::OltpUpdateIndex(a) => (OltpKind::UpdateIndex, a),
        WorkloadChoice::OltpUpdateNonIndex(a) => (OltpKind::UpdateNonIndex, a),
        WorkloadChoice::OltpInsert(a) => (OltpKind::Insert, a),
        WorkloadChoice::OltpDelete(a) => (OltpKind::Delete, a),
    };
    Ok(Selected::Oltp(kind, args.options()?))
}

/// The refusal of `prepare`, `check` and `cleanup` for the script workload.
fn script_refused(verb: &str) -> anyhow::Error {
    crate::error::Failure::Usage(format!(
        "{verb} script: a script runs on the database's own data, there is nothing to {verb} (the built-in scripts need `txbench prepare tpcb --scale N`)"
    ))
    .into()
}

/// This process's command line after `verb` (`run`, `prepare`): the workload and its
/// options, without the target URL (it may hold a password), the output directory, a
/// sweep's --resume or the output format, as result.json and txbench_meta record it so the
/// command can be repeated on a copy of the data.
fn command_args(verb: &str) -> Vec<String> {
    let argv: Vec<String> = std::env::args().collect();
    let Some(start) = argv.iter().position(|a| a == verb) else {
        return Vec::new();
    };
    crate::config::strip_options(
        &argv[start + 1..],
        &["--url", "--out", "--resume", "--store"],
        &["-q", "--quiet", "--json"],
    )
}

/// Records how the data was made in txbench_meta (see [`command_args`]).
fn record_prepare_args(target: &crate::engine::TargetUrl) -> Result<()> {
    let mut conn = crate::engine::connect(target)?;
    crate::workload::meta::set(
        &mut conn,
        crate::workload::meta::PREPARE_ARGS,
        &serde_json::to_string(&command_args("prepare"))?,
    )
}

fn cpus() -> u32 {
    std::thread::available_parallelism()
        .map(|n| n.get() as u32)
        .unwrap_or(1)
}

fn progress_bar(out: &Output, len: u64, template: &str) -> Option<ProgressBar> {
    if out.quiet || out.json || !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style);
    }
    Some(pb)
}
