//! `lua`: sysbench 1.0 Lua scripts run unchanged (oltp_*.lua, sysbench-tpcc) under
//! txbench's driver. Each virtual user has a Lua state of its own (sysbench: one per
//! thread) whose thread_init() runs on its connection and whose event() is one transaction.
//! sysbench's API is rebuilt over txbench's pieces: the Lua half in prelude.lua, the
//! primitives in lua/state.rs (random values from workload::rand) and lua/sql.rs (every
//! statement through engine::Conn, so counts, error classes and cross-checks apply).

mod command;
mod ffi;
pub mod kinds;
pub mod options;
mod report;
mod session;
mod sql;
mod state;
mod worker;

pub use command::run_command;
pub use report::{Reporter, Stat};
pub use state::one_line;

use crate::workload::rand::WorkerRng;
use crate::workload::{Worker, Workload};
use options::{Declared, Given, OptType, OptValue};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where Debian's sysbench keeps its scripts (`require` finds oltp_common there).
pub const SYSBENCH_DIR: &str = "/usr/share/sysbench";

/// The Lua half of sysbench's API (txbench's own).
const PRELUDE: &str = include_str!("lua/prelude.lua");

/// A script, loaded once to read what it declares.
#[derive(Debug, Clone)]
pub struct Script {
    /// As given.
    pub path: PathBuf,
    /// Its directory (first on package.path).
    pub dir: PathBuf,
    /// Its text.
    pub source: String,
    /// SHA-256 of the script and of every file it `require`d, in that order.
    pub sha256: String,
    /// The files it `require`d.
    pub modules: Vec<String>,
    /// `sysbench.cmdline.options`, sorted by name.
    pub declared: Vec<Declared>,
    /// `sysbench.cmdline.commands`: name, and whether it runs on every thread.
    pub commands: Vec<(String, bool)>,
    /// The global functions it defines among event, thread_init, prepare, cleanup, help.
    pub functions: Vec<String>,
    /// It defines sysbench.hooks.before_restart_event.
    pub restart_hook: bool,
    /// Whether it sets `sysbench.hooks.report_intermediate` and `report_cumulative`.
    pub report_hooks: [bool; 2],
    /// Its transaction kinds' global functions and the kinds' names (lua/kinds.rs; empty:
    /// every event is one kind, the script's).
    pub kinds: Vec<(String, String)>,
}

/// An error of the script as one line naming it.
fn load_error(path: &Path, e: &mlua::Error) -> String {
    let line = one_line(e);
    let shown = path.display().to_string();
    if line.starts_with(&shown) {
        line
    } else {
        format!("{shown}: {line}")
    }
}

impl Script {
    /// Reads and loads `path` for `command` (sysbench's scripts refuse to load without
    /// one). Errors are one line naming the file (and the line, for the script's own).
    pub fn load(path: &Path, command: &str) -> Result<Script, String> {
        let source = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the script: {e}", path.display()))?;
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let mut script = Script {
            path: path.to_path_buf(),
            dir,
            source,
            sha256: String::new(),
            modules: Vec::new(),
            declared: Vec::new(),
            commands: Vec::new(),
            functions: Vec::new(),
            restart_hook: false,
            report_hooks: [false; 2],
            kinds: Vec::new(),
        };
        let values = Default::default();
        let session =
            state::Session::new(rand::SeedableRng::seed_from_u64(0), &values, 0, 1, "mysql");
        let made = state::Made {
            command,
            tid: 0,
            values: &values,
            general: &[],
        };
        let lua = state::new_state(&script, &made, session).map_err(|e| load_error(path, &e))?;
        script
            .read_declarations(&lua)
            .map_err(|e| load_error(path, &e))?;
        Ok(script)
    }

    /// What the loaded state `lua` declares, and the hash of what it read.
    fn read_declarations(&mut self, lua: &mlua::Lua) -> mlua::Result<()> {
        let g = lua.globals();
        let sb: mlua::Table = g.get("sysbench")?;
        let cmdline: mlua::Table = sb.get("cmdline")?;
        if let Some(opts) = cmdline.get::<Option<mlua::Table>>("options")? {
            for pair in opts.pairs::<String, mlua::Table>() {
                let (name, def) = pair?;
                self.declared.push(declared(&name, &def)?);
            }
        }
        self.declared.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(cmds) = cmdline.get::<Option<mlua::Table>>("commands")? {
            for pair in cmds.pairs::<String, mlua::Table>() {
                let (name, def) = pair?;
                let parallel = def.get::<Option<bool>>(2)?.unwrap_or(false);
                self.commands.push((name, parallel));
            }
        }
        self.commands.sort();
        for f in [
            "event",
            "thread_init",
            "thread_done",
            "prepare",
            "cleanup",
            "help",
        ] {
            if matches!(g.get::<mlua::Value>(f)?, mlua::Value::Function(_)) {
                self.functions.push(f.to_string());
            }
        }
        self.kinds =
            kinds::detect(|f| matches!(g.get::<mlua::Value>(f), Ok(mlua::Value::Function(_))));
        let hooks: mlua::Table = sb.get("hooks")?;
        let set = |name: &str| -> mlua::Result<bool> {
            Ok(matches!(
                hooks.get::<mlua::Value>(name)?,
                mlua::Value::Function(_)
            ))
        };
        self.restart_hook = set("before_restart_event")?;
        self.report_hooks = [set("report_intermediate")?, set("report_cumulative")?];
        let mut h = Sha256::new();
        h.update(self.source.as_bytes());
        let package: mlua::Table = g.get("package")?;
        let loaded: mlua::Table = package.get("loaded")?;
        let search: mlua::Function = package.get("searchpath")?;
        let path: String = package.get("path")?;
        let mut names: Vec<String> = loaded
            .pairs::<String, mlua::Value>()
            .filter_map(|p| p.ok().map(|(k, _)| k))
            .collect();
        names.sort();
        for name in names {
            if let Some(file) = search.call::<Option<String>>((name, path.as_str()))?
                && let Ok(text) = std::fs::read(&file)
            {
                h.update(&text);
                self.modules.push(file);
            }
        }
        self.sha256 = format!("{:x}", h.finalize());
        Ok(())
    }

    /// The script's options and sysbench's that txbench reads.
    pub fn all_options(&self) -> Vec<Declared> {
        let mut all = self.declared.clone();
        all.extend(
            options::builtins()
                .into_iter()
                .filter(|b| !self.declared.iter().any(|d| d.name == b.name)),
        );
        all
    }

    /// `args` read against the options; errors name the option and the file.
    pub fn parse(&self, args: &[String]) -> Result<Given, String> {
        options::parse(&self.all_options(), args, &self.path.display().to_string())
    }

    /// `--help`'s listing: the options, then the commands.
    pub fn help(&self) -> String {
        let mut s = options::help(&self.declared, &self.path.display().to_string());
        let cmds: Vec<&str> = self.commands.iter().map(|(n, _)| n.as_str()).collect();
        s.push_str(&format!(
            "commands (txbench lua-command {} NAME): {}\n",
            self.path.display(),
            if cmds.is_empty() {
                "none".to_string()
            } else {
                cmds.join(", ")
            }
        ));
        s
    }

    /// Whether it defines the global function `name`.
    pub fn defines(&self, name: &str) -> bool {
        self.functions.iter().any(|f| f == name)
    }

    /// The transaction kind's name: the script's file name without `.lua`.
    pub fn kind(&self) -> String {
        self.path
            .file_stem()
            .map_or_else(|| "event".into(), |s| s.to_string_lossy().into_owned())
    }

    /// Every kind's name, in the order workers report them: the kind functions' (if any),
    /// then the script's own, for events that called none of them.
    pub fn kind_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.kinds.iter().map(|(_, k)| k.clone()).collect();
        let own = self.kind();
        names.push(if names.contains(&own) {
            format!("{own}_other")
        } else {
            own
        });
        names
    }

    /// What a run records (result.json's workload options, part of the benchmark's
    /// identity): the script, its hash (and its modules') and every option's value.
    pub fn recorded(&self, given: &Given) -> serde_json::Value {
        // A run's threads are the driver's (recorded with it), not the commands' --threads.
        let mut options = given.values.clone();
        options.remove("threads");
        serde_json::json!({
            "script": self.path.display().to_string(),
            "sha256": self.sha256,
            "modules": self.modules,
            "options": options,
        })
    }
}

/// One entry of sysbench.cmdline.options: {description, default, type}.
fn declared(name: &str, def: &mlua::Table) -> mlua::Result<Declared> {
    let desc: String = def.get::<Option<String>>(1)?.unwrap_or_default();
    let default = match def.get::<mlua::Value>(2)? {
        mlua::Value::Boolean(b) => Some(OptValue::Bool(b)),
        mlua::Value::Integer(n) => Some(OptValue::Number(n as f64)),
        mlua::Value::Number(n) => Some(OptValue::Number(n)),
        mlua::Value::String(s) => Some(OptValue::Text(s.to_str()?.to_string())),
        mlua::Value::Table(t) => Some(OptValue::List(
            t.sequence_values::<String>().collect::<mlua::Result<_>>()?,
        )),
        _ => None,
    };
    let ty = match def
        .get::<Option<f64>>(3)?
        .and_then(|n| OptType::from_arg(n as i64))
    {
        Some(t) => t,
        None => match &default {
            Some(OptValue::Bool(_)) => OptType::Bool,
            Some(OptValue::Number(_)) => OptType::Number,
            Some(OptValue::List(_)) => OptType::List,
            _ => OptType::Text,
        },
    };
    Ok(Declared {
        name: name.to_string(),
        desc,
        ty,
        default,
    })
}

/// What the workers saw, for the cross-checks: events, the COMMITs and ROLLBACKs they
/// sent, and their statements.
#[derive(Debug, Default)]
struct Seen {
    events: AtomicU64,
    ends: AtomicU64,
    stmts: AtomicU64,
}

/// A script ready to run.
pub struct LuaWorkload {
    script: Arc<Script>,
    given: Arc<Given>,
    /// sysbench.opt's threads, time, events, rate, report_interval.
    general: Arc<Vec<(&'static str, f64)>>,
    seen: Arc<Seen>,
}

impl LuaWorkload {
    /// `script` with the options `given`, for a run whose sysbench.opt general options
    /// are `general` (threads, time, events, rate, report_interval).
    pub fn new(script: Arc<Script>, given: Arc<Given>, general: Vec<(&'static str, f64)>) -> Self {
        LuaWorkload {
            script,
            given,
            general: Arc::new(general),
            seen: Arc::default(),
        }
    }
}

impl Workload for LuaWorkload {
    fn kinds(&self) -> Vec<String> {
        self.script.kind_names()
    }

    fn worker(&self, id: u32, rng: WorkerRng) -> Box<dyn Worker> {
        Box::new(worker::LuaWorker::new(
            self.script.clone(),
            self.given.clone(),
            self.general.clone(),
            id,
            rng,
            self.seen.clone(),
        ))
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "sysbench Lua script {} (sha256 {}), run by txbench's driver",
            self.script.path.display(),
            &self.script.sha256[..12.min(self.script.sha256.len())]
        )]
    }

    /// An event commits when the events sent at least one COMMIT or ROLLBACK each (the
    /// oltp scripts' BEGIN..COMMIT, sysbench-tpcc's transactions); otherwise they
    /// autocommit (--skip_trx, oltp_point_select).
    fn commits(&self, _kind: usize) -> bool {
        let events = self.seen.events.load(Ordering::Relaxed);
        events == 0 || self.seen.ends.load(Ordering::Relaxed) >= events
    }

    fn autocommit_statements(&self, _kind: usize) -> u64 {
        let events = self.seen.events.load(Ordering::Relaxed).max(1);
        (self.seen.stmts.load(Ordering::Relaxed) as f64 / events as f64)
            .round()
            .max(1.0) as u64
    }

    /// A TPC-C script's New-Orders, counted in its districts (lua/kinds.rs).
    fn server_counts(&self) -> Vec<(String, String)> {
        if !self.script.kinds.iter().any(|(_, k)| k == kinds::NEW_ORDER) {
            return Vec::new();
        }
        let tables = match self.given.values.get("tables") {
            Some(OptValue::Number(n)) if *n >= 1.0 => *n as u32,
            _ => 1,
        };
        vec![("new_orders".into(), kinds::new_orders_sql(tables))]
    }

    /// A TPC-C script's NOPM (lua/kinds.rs).
    fn report(&self, s: &crate::results::Summary) -> Option<crate::results::WorkloadReport> {
        if self.script.kinds.is_empty() {
            return None;
        }
        kinds::report(s)
    }

    fn server_count(&self) -> crate::metrics::server::ServerCount {
        crate::metrics::server::ServerCount {
            transactions: true,
            statements: true,
            // A restart's hook may roll back before the driver does (sysbench-tpcc's).
            double_rollback: self.script.restart_hook,
            // Its events' transactions are known from what the workers saw (commits).
            pg_transactions: true,
        }
    }
}

#[cfg(test)]
mod tests;
