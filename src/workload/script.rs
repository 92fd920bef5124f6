//! pgbench scripts run unchanged (`run script FILE.sql[@W]... -b NAME[@W] -D name=value`):
//! each script is one transaction kind named after its file stem (a built-in by its name),
//! picked by weight as pgbench's -f and -b do. The language (parse.rs, expr.rs, eval.rs):
//! SQL with `:var` substituted as text (pgbench's simple protocol), `\set` with pgbench's
//! expressions, `\sleep`, `\if`/`\elif`/`\else`/`\endif`, `\gset`/`\aset`. The expression
//! parser is written by hand: its grammar is small and its errors name the column.
//! Per-statement latencies (pgbench -r) go into the workload report.

mod builtin;
pub mod eval;
pub mod expr;
pub mod parse;
mod sql;
mod worker;

use super::rand::WorkerRng;
use super::{Worker, Workload};
use crate::results::{StatementLatency, Summary, WorkloadReport};
use parse::{Body, Command, SqlClass};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use builtin::BUILTINS;

/// One script as read: its kind name, where it came from, its weight and its commands.
#[derive(Debug, Clone)]
pub struct Script {
    /// The transaction kind's name: the file's stem, or the built-in's name.
    pub name: String,
    /// The file as given, or `builtin:NAME`.
    pub origin: String,
    pub weight: u32,
    /// SHA-256 of the text, part of the benchmark's recorded options.
    pub sha256: String,
    pub commands: Vec<Command>,
}

/// How SQL commands reach the server, as pgbench's `-M`: the text with the variables'
/// values in it (simple), or the variables as parameters of a statement prepared each time
/// (extended) or once per connection (prepared). A command that `\gset`s or `\aset`s
/// goes by the simple protocol in every mode (its cells are read as text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum QueryMode {
    #[default]
    Simple,
    Extended,
    Prepared,
}

impl QueryMode {
    /// Its name, as `-M` takes it.
    pub fn name(self) -> &'static str {
        match self {
            QueryMode::Simple => "simple",
            QueryMode::Extended => "extended",
            QueryMode::Prepared => "prepared",
        }
    }
}

/// The scripts of a run, the -D variables and the query mode.
#[derive(Debug, Clone)]
pub struct ScriptSet {
    pub scripts: Vec<Script>,
    pub defines: Vec<(String, String)>,
    pub mode: QueryMode,
}

/// `SPEC@WEIGHT` split; no `@`: weight 1.
fn weighted(spec: &str) -> Result<(&str, u32), String> {
    let Some((what, w)) = spec.rsplit_once('@') else {
        return Ok((spec, 1));
    };
    match w.parse::<u32>() {
        Ok(n) if n <= i32::MAX as u32 => Ok((what, n)),
        _ => Err(format!(
            "{spec}: the weight '{w}' is not a whole number from 0 to {}",
            i32::MAX
        )),
    }
}

impl ScriptSet {
    /// Reads and parses `files` (`FILE[@W]`), `builtins` (`NAME[@W]`) and `defines`
    /// (`name=value`) to run in `mode`: every error one line naming the file, line and what
    /// is wrong.
    pub fn load(
        files: &[String],
        builtins: &[String],
        defines: &[String],
        mode: QueryMode,
    ) -> Result<ScriptSet, String> {
        let mut scripts = Vec::new();
        for spec in files {
            let (file, weight) = weighted(spec)?;
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("{file}: cannot read the script: {e}"))?;
            // The kind's name goes into CSV headers and reports: plain characters only.
            let stem: String = Path::new(file)
                .file_stem()
                .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            scripts.push(Script::parse(&stem, file, weight, &text)?);
        }
        for spec in builtins {
            let (name, weight) = weighted(spec)?;
            let (name, text) =
                builtin::named(name).map_err(|e| format!("--builtin {spec}: {e}"))?;
            scripts.push(Script::parse(
                name,
                &format!("builtin:{name}"),
                weight,
                text,
            )?);
        }
        if scripts.is_empty() {
            return Err("run script needs a script: FILE.sql[@WEIGHT] or --builtin NAME".into());
        }
        if scripts.iter().all(|s| s.weight == 0) {
            return Err("the scripts' weights add up to 0".into());
        }
        // Kind names must differ: a second script with the same stem gets a suffix.
        let mut seen = std::collections::HashSet::new();
        for s in &mut scripts {
            let base = s.name.clone();
            let mut k = 1;
            while !seen.insert(s.name.clone()) {
                k += 1;
                s.name = format!("{base}_{k}");
            }
        }
        let mut out = Vec::new();
        for d in defines {
            let (name, value) = d
                .split_once('=')
                .ok_or_else(|| format!("-D {d}: name=value expected"))?;
            parse::check_name(name).map_err(|e| format!("-D {d}: {e}"))?;
            out.push((name.to_string(), value.to_string()));
        }
        if mode != QueryMode::Simple {
            for s in &scripts {
                parameters_fit(s, mode)?;
            }
        }
        Ok(ScriptSet {
            scripts,
            defines: out,
            mode,
        })
    }

    /// Whether a built-in script runs (then the scale is counted in pgbench_branches).
    pub fn uses_builtin(&self) -> bool {
        self.scripts
            .iter()
            .any(|s| s.origin.starts_with("builtin:"))
    }

    /// A -D variable's value.
    pub fn define(&self, name: &str) -> Option<&str> {
        self.defines
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// What a run records (result.json's `config.workload_options`, the benchmark's
    /// identity): every script's name, origin, weight and content hash, the -D variables and
    /// the scale.
    pub fn recorded(&self, scale: i64) -> serde_json::Value {
        let scripts: Vec<_> = self
            .scripts
            .iter()
            .map(|s| {
                serde_json::json!({"name": s.name, "file": s.origin, "weight": s.weight,
                                   "sha256": s.sha256})
            })
            .collect();
        let defines: serde_json::Map<String, serde_json::Value> = self
            .defines
            .iter()
            .map(|(n, v)| (n.clone(), serde_json::Value::from(v.clone())))
            .collect();
        let mut recorded =
            serde_json::json!({"scripts": scripts, "defines": defines, "scale": scale});
        // Only another mode than pgbench's default: runs recorded before -M existed (simple)
        // keep their history.
        if self.mode != QueryMode::Simple {
            recorded["protocol"] = self.mode.name().into();
        }
        recorded
    }
}

/// With parameters (`-M extended|prepared`), a variable inside a quoted string or identifier
/// cannot be one: refused, naming the file and line (pgbench would put `$n` inside the
/// string).
fn parameters_fit(s: &Script, mode: QueryMode) -> Result<(), String> {
    for c in &s.commands {
        if let parse::Body::Sql {
            segs, store: None, ..
        } = &c.body
            && let Some(name) = segs.iter().find_map(|g| match g {
                parse::Seg::Var { name, quoted: true } => Some(name),
                _ => None,
            })
        {
            return Err(format!(
                "{}:{}: -M {}: :{name} is inside a quoted string or identifier, where it cannot be a parameter (use -M simple)",
                s.origin,
                c.line,
                mode.name()
            ));
        }
    }
    Ok(())
}

impl Script {
    /// Parses `text` (read from `origin`) as the kind `name`.
    pub fn parse(name: &str, origin: &str, weight: u32, text: &str) -> Result<Script, String> {
        let commands = parse::parse(origin, text).map_err(|e| e.to_string())?;
        if commands.is_empty() {
            return Err(format!("{origin}: the script has no commands"));
        }
        Ok(Script {
            name: name.to_string(),
            origin: origin.to_string(),
            weight,
            sha256: format!("{:x}", Sha256::digest(text.as_bytes())),
            commands,
        })
    }

    fn sql(&self) -> impl Iterator<Item = (&Command, SqlClass)> {
        self.commands.iter().filter_map(|c| match c.body {
            Body::Sql { class, .. } => Some((c, class)),
            _ => None,
        })
    }

    /// How the server counts one run of the script, when it always sends the same
    /// statements: Some(true) for BEGIN … COMMIT around every statement (one transaction),
    /// Some(false) with no transaction control (each statement a transaction of its own);
    /// None when it varies or mixes (SQL under `\if`, several transactions).
    pub fn ends(&self) -> Option<bool> {
        let sql: Vec<_> = self.sql().collect();
        if sql.iter().any(|(c, _)| c.conditional) {
            return None;
        }
        let control =
            |k: SqlClass| matches!(k, SqlClass::Begin | SqlClass::Commit | SqlClass::Rollback);
        let inner = sql.len().saturating_sub(2);
        match (sql.first(), sql.last()) {
            _ if !sql.iter().any(|(_, k)| control(*k)) => Some(false),
            (Some((_, SqlClass::Begin)), Some((_, SqlClass::Commit)))
                if !sql.iter().skip(1).take(inner).any(|(_, k)| control(*k)) =>
            {
                Some(true)
            }
            _ => None,
        }
    }
}

/// The shards' reports of one run merged (`txbench merge`): each command's count summed and
/// its mean weighted by count; None when no shard has one.
pub fn merged_report(shards: &[&WorkloadReport]) -> Option<WorkloadReport> {
    let mut statements: Vec<StatementLatency> = Vec::new();
    for st in shards.iter().flat_map(|r| &r.statements) {
        match statements
            .iter_mut()
            .find(|m| m.kind == st.kind && m.line == st.line)
        {
            Some(m) => {
                let count = m.count + st.count;
                if count > 0 {
                    m.mean_ms =
                        (m.mean_ms * m.count as f64 + st.mean_ms * st.count as f64) / count as f64;
                }
                m.count = count;
            }
            None => statements.push(st.clone()),
        }
    }
    (!shards.is_empty()).then_some(WorkloadReport {
        headline: Vec::new(),
        scorecard: Vec::new(),
        inputs: None,
        rate: None,
        statements,
    })
}

/// One command's latency sum and count for one virtual user: written by that user alone,
/// with plain loads and stores (no read-modify-write), read by the report.
#[derive(Debug, Default)]
struct Stat {
    sum_us: AtomicU64,
    count: AtomicU64,
}

impl Stat {
    /// One more run of `us` microseconds (by its user only).
    fn add(&self, us: u64) {
        let add = |a: &AtomicU64, n: u64| a.store(a.load(Ordering::Relaxed) + n, Ordering::Relaxed);
        add(&self.sum_us, us);
        add(&self.count, 1);
    }
}

/// A virtual user's latencies per script and command, each user's its own so no two users
/// write one cache line (shared counters cost every command a line moved between cores),
/// and the measured phase they were counted in.
#[derive(Debug)]
struct UserStats {
    /// The [`Shared::phase`] they belong to.
    phase: AtomicU64,
    /// By script, then command.
    stats: Vec<Vec<Stat>>,
}

impl UserStats {
    fn new(set: &ScriptSet, phase: u64) -> UserStats {
        UserStats {
            phase: AtomicU64::new(phase),
            stats: set
                .scripts
                .iter()
                .map(|s| s.commands.iter().map(|_| Stat::default()).collect())
                .collect(),
        }
    }

    /// The stats of script `kind` in `phase`, cleared first when the phase moved on (the
    /// measured phase began) since this user last counted; by its user only.
    fn of(&self, kind: usize, phase: u64) -> &[Stat] {
        if self.phase.load(Ordering::Relaxed) != phase {
            for st in self.stats.iter().flatten() {
                st.sum_us.store(0, Ordering::Relaxed);
                st.count.store(0, Ordering::Relaxed);
            }
            self.phase.store(phase, Ordering::Relaxed);
        }
        &self.stats[kind]
    }
}

/// What the workers share: the scripts, the variables every user starts with, and every
/// user's latencies with the phase that counts.
struct Shared {
    set: ScriptSet,
    scale: i64,
    seed: u64,
    /// Advanced when the measured phase starts: the users' earlier latencies stop counting.
    phase: AtomicU64,
    users: std::sync::Mutex<Vec<Arc<UserStats>>>,
}

/// A ready-to-run set of pgbench scripts.
pub struct ScriptRun {
    shared: Arc<Shared>,
}

impl ScriptRun {
    /// The workload: `set` at `scale` (`:scale` unless -D sets it), the random inputs and
    /// `:random_seed` from `seed`.
    pub fn new(set: ScriptSet, scale: i64, seed: u64) -> ScriptRun {
        ScriptRun {
            shared: Arc::new(Shared {
                set,
                scale,
                seed,
                phase: AtomicU64::new(0),
                users: std::sync::Mutex::new(Vec::new()),
            }),
        }
    }

    fn countable(&self) -> bool {
        self.shared.set.scripts.iter().all(|s| s.ends().is_some())
    }

    /// Each command's mean latency and count over the measured phase, every user's summed
    /// (pgbench -r).
    fn statements(&self) -> Vec<StatementLatency> {
        let phase = self.shared.phase.load(Ordering::Relaxed);
        let users = self.shared.users.lock().unwrap_or_else(|p| p.into_inner());
        // A user that has not run since the phase began counted nothing in it.
        let current: Vec<&UserStats> = users
            .iter()
            .filter(|u| u.phase.load(Ordering::Relaxed) == phase)
            .map(|u| &**u)
            .collect();
        let total = |kind: usize, pc: usize, f: fn(&Stat) -> &AtomicU64| -> u64 {
            current
                .iter()
                .map(|u| f(&u.stats[kind][pc]).load(Ordering::Relaxed))
                .sum()
        };
        let mut statements = Vec::new();
        for (kind, s) in self.shared.set.scripts.iter().enumerate() {
            for (pc, c) in s.commands.iter().enumerate() {
                let count = total(kind, pc, |st| &st.count);
                let sum = total(kind, pc, |st| &st.sum_us);
                statements.push(StatementLatency {
                    kind: s.name.clone(),
                    line: c.line,
                    command: c.text.chars().take(120).collect(),
                    count,
                    mean_ms: if count > 0 {
                        sum as f64 / count as f64 / 1000.0
                    } else {
                        0.0
                    },
                });
            }
        }
        statements
    }
}

impl Workload for ScriptRun {
    fn kinds(&self) -> Vec<String> {
        self.shared
            .set
            .scripts
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    fn worker(&self, id: u32, rng: WorkerRng) -> Box<dyn Worker> {
        let sh = &self.shared;
        let stats = Arc::new(UserStats::new(&sh.set, sh.phase.load(Ordering::Relaxed)));
        sh.users
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(stats.clone());
        Box::new(worker::ScriptWorker::new(sh.clone(), id, rng, stats))
    }

    fn notes(&self) -> Vec<String> {
        let s = &self.shared.set;
        let mut n = vec![format!(
            "pgbench script(s) {}; :scale {}",
            s.scripts
                .iter()
                .map(|x| format!("{}@{}", x.origin, x.weight))
                .collect::<Vec<_>>()
                .join(", "),
            self.shared.scale
        )];
        for x in s.scripts.iter().filter(|x| x.ends().is_none()) {
            n.push(format!(
                "{}: its statements run conditionally or in several transactions, so the server's count of transactions is not cross-checked",
                x.origin
            ));
        }
        n
    }

    fn measure_started(&self) {
        self.shared.phase.fetch_add(1, Ordering::Relaxed);
    }

    fn report(&self, _summary: &Summary) -> Option<WorkloadReport> {
        let statements = self.statements();
        Some(WorkloadReport {
            headline: Vec::new(),
            scorecard: Vec::new(),
            inputs: None,
            rate: None,
            statements,
        })
    }

    fn server_count(&self) -> crate::metrics::server::ServerCount {
        let scripts = &self.shared.set.scripts;
        let countable = self.countable();
        crate::metrics::server::ServerCount {
            // Com_commit + Com_rollback: only when every kind is known to commit once or
            // autocommit, and one does commit.
            transactions: countable && scripts.iter().any(|s| s.ends() == Some(true)),
            statements: scripts
                .iter()
                .flat_map(|s| s.sql())
                .all(|(_, k)| k != SqlClass::Unsure),
            double_rollback: false,
            pg_transactions: countable,
        }
    }

    fn commits(&self, kind: usize) -> bool {
        self.shared.set.scripts[kind].ends() != Some(false)
    }

    fn autocommit_statements(&self, kind: usize) -> u64 {
        self.shared.set.scripts[kind].sql().count() as u64
    }
}

#[cfg(test)]
mod tests;
