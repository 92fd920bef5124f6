//! `txbench experiment run | resume | results | list | show`: a plan's cells run one at a time
//! on sandboxes (one server running at a time), each started from the snapshot of its
//! prepared data, each cell a normal run directory written by a `txbench run` child process
//! (its output in the cell's `run.log`), experiment.json rewritten after every step.

use super::{Output, print_json};
use crate::engine::{self, TargetUrl};
use crate::error::{EXIT_INTERRUPTED, EXIT_OK, Failure};
use crate::experiment::plan::{self, Plan, Reset, Variant};
use crate::experiment::{self, CellStatus, Experiment, Prepared, builtin};
use crate::results::RunStatus;
use crate::server::{self, StateDir, cluster, snapshot};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

/// A plan's text and where it came from.
struct Source {
    name: String,
    file: Option<PathBuf>,
    text: String,
}

/// `PLAN` is a file, else a built-in plan's name.
fn read_plan(arg: &str) -> Result<Source> {
    let path = Path::new(arg);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read it", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into());
        return Ok(Source {
            name,
            file: Some(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())),
            text,
        });
    }
    if let Some(text) = builtin::get(arg) {
        return Ok(Source {
            name: arg.to_string(),
            file: None,
            text: text.to_string(),
        });
    }
    Err(Failure::Usage(format!(
        "{arg}: no such plan file, and no built-in plan of that name (see `txbench experiment list`)"
    ))
    .into())
}

fn plan_label(s: &Source) -> PathBuf {
    s.file
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("built-in plan {}", s.name)))
}

/// The prepare and run options of every pair parse as `txbench prepare` and `run` would.
fn check_options(file: &Path, plan: &Plan, e: &plan::Expanded) -> Result<()> {
    for p in &e.pairs {
        let w = plan
            .workload(&p.workload)
            .context("a pair names an unknown workload")?;
        let mut argv = vec!["txbench".to_string(), "prepare".into(), w.name.clone()];
        argv.extend(p.prepare.iter().cloned());
        let mut run = vec!["txbench".to_string(), "run".into(), w.name.clone()];
        run.extend(p.run.iter().cloned());
        for (what, args) in [("prepare", argv), ("run", run)] {
            if let Err(err) = <crate::cli::Cli as clap::Parser>::try_parse_from(&args) {
                let first = err
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim_start_matches("error: ")
                    .to_string();
                return Err(Failure::Usage(format!(
                    "{}: workload '{}', variant '{}': {what} options {}: {first}",
                    file.display(),
                    p.workload,
                    p.variant,
                    args[3..].join(" ")
                ))
                .into());
            }
        }
    }
    Ok(())
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// `txbench experiment run PLAN`.
pub fn run(
    out: &Output,
    plan_arg: &str,
    dir: Option<&Path>,
    scale: Option<&str>,
    seed: Option<u64>,
) -> Result<i32> {
    let src = read_plan(plan_arg)?;
    let label = plan_label(&src);
    let plan = plan::parse(&label, &src.text)?;
    let expanded = plan.expand(&label, scale)?;
    check_options(&label, &plan, &expanded)?;
    let dir = dir.map(Path::to_path_buf).unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace([':', '-'], "");
        PathBuf::from("experiments").join(format!("{}-{}", src.name, stamp.trim_end_matches('Z')))
    });
    if dir.join(experiment::FILE).exists() {
        return Err(Failure::Usage(format!(
            "--out {}: holds an experiment already; continue it with `txbench experiment resume {}`",
            dir.display(),
            dir.display()
        ))
        .into());
    }
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("--out {}: cannot create it", dir.display()))?;
    let seed = seed.or(plan.seed).unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    // Stored with every URL's password redacted; the children get the URLs through their
    // environment.
    let text = crate::engine::redact_urls_in(&src.text);
    let mut e = Experiment::new(src.name, src.file, text, expanded, seed, now());
    e.write(&dir)?;
    out.note(&format!(
        "experiment {}: {} variant(s) × {} workload(s) × {} level(s) × {} repetition(s) = {} cells of {} s (+{} s warm-up), reset {:?}, seed {seed}; in {}",
        e.name,
        e.plan.variants.len(),
        e.plan.workloads.len(),
        e.plan.threads.len(),
        e.plan.repetitions,
        e.cells.len(),
        e.plan.duration,
        e.plan.warmup,
        e.plan.reset,
        dir.display()
    ));
    execute(out, &dir, &mut e, &plan)
}

/// `txbench experiment resume DIR`: the cells not finished run; finished ones are kept as
/// they are. The plan file is read again when it still exists, so a setting that stopped
/// the experiment can be fixed; its matrix must not change.
pub fn resume(out: &Output, dir: &Path) -> Result<i32> {
    if !dir.join(experiment::FILE).is_file() {
        return Err(
            Failure::Usage(format!("{}: no {} there", dir.display(), experiment::FILE)).into(),
        );
    }
    let mut e = Experiment::load(dir)?;
    let (label, text) = match &e.plan_file {
        Some(f) if f.is_file() => (
            f.clone(),
            std::fs::read_to_string(f)
                .with_context(|| format!("{}: cannot read it", f.display()))?,
        ),
        _ => (
            PathBuf::from(format!("{} (as recorded)", e.name)),
            e.plan_text.clone(),
        ),
    };
    let plan = plan::parse(&label, &text)?;
    let scale = (!e.plan.scale.is_empty()).then(|| e.plan.scale.clone());
    let expanded = plan.expand(&label, scale.as_deref())?;
    check_options(&label, &plan, &expanded)?;
    if let Some(what) = resume_conflict(&e, &plan, &expanded) {
        return Err(Failure::Usage(format!(
            "{}: {what} changed since the experiment began: cells measured before and after would not compare; start a new one",
            label.display()
        ))
        .into());
    }
    let text = crate::engine::redact_urls_in(&text);
    if text != e.plan_text {
        out.note(&format!(
            "{}: changed since the experiment began; its settings apply to the cells still to run",
            label.display()
        ));
        e.plan_text = text;
    }
    e.plan = expanded;
    let left = e.remaining();
    out.note(&format!(
        "resuming experiment {} in {}: {} of {} cells done, {left} to run",
        e.name,
        dir.display(),
        e.cells.len() - left,
        e.cells.len()
    ));
    execute(out, dir, &mut e, &plan)
}

/// What of the plan changed that a resume cannot take, or None. What may change: the
/// settings, options and builds of variant × workload pairs not prepared yet and without a
/// finished cell (the plan fixed after a variant failed to start).
fn resume_conflict(e: &Experiment, plan: &Plan, new: &plan::Expanded) -> Option<String> {
    let old = &e.plan;
    let fixed: [(&str, bool); 8] = [
        ("its variants", new.variants == old.variants),
        ("its workloads", new.workloads == old.workloads),
        ("threads", new.threads == old.threads),
        ("repetitions", new.repetitions == old.repetitions),
        ("baseline", new.baseline == old.baseline),
        ("warmup", new.warmup == old.warmup),
        ("duration", new.duration == old.duration),
        ("reset", new.reset == old.reset),
    ];
    if let Some((what, _)) = fixed.iter().find(|(_, same)| !same) {
        return Some((*what).to_string());
    }
    let before = plan::parse(Path::new("recorded"), &e.plan_text).ok();
    for pair in &old.pairs {
        let (v, w) = (&pair.variant, &pair.workload);
        let prepared = e.prepared(v, w).is_some();
        let measured = e.cells.iter().any(|c| {
            &c.variant == v
                && &c.workload == w
                && matches!(c.status, CellStatus::Done | CellStatus::Invalid)
        });
        if !prepared && !measured {
            continue;
        }
        let Some(now) = new.pair(v, w) else {
            return Some(format!("variant '{v}' × workload '{w}'"));
        };
        if now.prepare != pair.prepare || now.run != pair.run {
            return Some(format!("the options of variant '{v}' × workload '{w}'"));
        }
        // The recorded plan's URLs are redacted: compared as shown.
        let shown = |p: &Plan| {
            p.variant(v).cloned().map(|mut x| {
                x.url = x.url.map(|u| crate::engine::redact_url(&u));
                x
            })
        };
        if let Some(before) = &before
            && shown(before) != shown(plan)
        {
            return Some(format!("variant '{v}' (its server)"));
        }
    }
    None
}

/// The sandbox of variant `vi` × workload `wi` of the experiment in `dir`: a name stable
/// across builds (SHA-256 of the directory's path, not std's hasher, which may change).
fn sandbox_name(dir: &Path, vi: usize, wi: usize) -> String {
    use sha2::Digest;
    let path = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let digest = sha2::Sha256::digest(path.as_os_str().as_encoded_bytes());
    let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("xp-{hex}-v{vi}-w{wi}")
}

/// What `server start` gets for a variant.
fn start_options(
    name: &str,
    v: &Variant,
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
        .cpus
        .as_deref()
        .map(|c| server::placement::parse_cpus(c, "cpus"))
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
fn normal(v: &str) -> String {
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
fn verify_settings(conn: &mut engine::Conn, v: &Variant) -> Result<Vec<String>> {
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

/// A `txbench` child process: its stdout and stderr go to `log`.
/// Runs txbench with `args` on `targets`, its output into `log`. The targets go through
/// the environment (TXBENCH_URL, one per line), never the command line, which every local
/// user can read: a URL's password reaches the child and nobody else.
fn child(targets: &[TargetUrl], args: &[String], log: &Path) -> Result<std::process::ExitStatus> {
    let exe = std::env::current_exe().context("finding the txbench program")?;
    let f = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let urls: Vec<String> = targets.iter().map(TargetUrl::with_secret).collect();
    let status = Command::new(exe)
        .args(args)
        .env("TXBENCH_URL", urls.join("\n"))
        .stdin(Stdio::null())
        .stdout(f.try_clone()?)
        .stderr(f)
        .status()
        .context("starting txbench")?;
    Ok(status)
}

/// The last `Error:` line of a child's log.
fn log_error(log: &Path) -> String {
    std::fs::read_to_string(log)
        .ok()
        .and_then(|t| {
            t.lines()
                .rev()
                .find(|l| l.starts_with("Error: "))
                .map(|l| l.trim_start_matches("Error: ").to_string())
        })
        .unwrap_or_else(|| format!("see {}", log.display()))
}

/// The targets of a variant's running servers: the first, or every Galera node.
fn targets(started: &[server::Started]) -> Vec<TargetUrl> {
    match started.first().map(|s| &s.record.role) {
        Some(cluster::Role::Galera { .. }) => {
            started.iter().map(|s| s.record.login_url()).collect()
        }
        _ => started
            .iter()
            .take(1)
            .map(|s| s.record.login_url())
            .collect(),
    }
}

/// Every member of the topology that `name` heads.
fn members(home: &StateDir, name: &str) -> Result<Vec<server::ServerRecord>> {
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

struct Runner<'a> {
    out: &'a Output,
    dir: &'a Path,
    home: StateDir,
    plan: &'a Plan,
    plan_dir: PathBuf,
}

impl Runner<'_> {
    fn variant(&self, name: &str) -> Result<&Variant> {
        self.plan
            .variant(name)
            .with_context(|| format!("the plan has no variant '{name}'"))
    }

    /// The sandbox of `variant` × `workload`: the one recorded when it was prepared (so a
    /// moved experiment directory still finds it), else a new name.
    fn sandbox(&self, e: &Experiment, variant: &str, workload: &str) -> String {
        if let Some(name) = e.prepared(variant, workload).and_then(|p| p.server.clone()) {
            return name;
        }
        let index = |list: &[String], name: &str| list.iter().position(|n| n == name).unwrap_or(0);
        sandbox_name(
            self.dir,
            index(&e.plan.variants, variant),
            index(&e.plan.workloads, workload),
        )
    }

    /// Starts the variant's servers (or names its url); returns the run's targets.
    fn start(&self, e: &Experiment, variant: &str, workload: &str) -> Result<Vec<TargetUrl>> {
        let v = self.variant(variant)?;
        if let Some(url) = &v.url {
            let t = TargetUrl::parse(url).with_context(|| format!("variant '{variant}': url"))?;
            if t.password.as_deref() == Some(crate::engine::REDACTED) {
                bail!(
                    "variant '{variant}': its url's password is not stored in {}: resume with the plan file",
                    experiment::FILE
                );
            }
            return Ok(vec![
                super::sandbox_login(t).with_context(|| format!("variant '{variant}': url"))?,
            ]);
        }
        let name = self.sandbox(e, variant, workload);
        let (opts, req) = start_options(&name, v, &self.plan_dir)?;
        // One left running by an interrupted experiment is started afresh with the plan's
        // settings (a running server refuses new ones).
        if server::get(&self.home, &name).is_ok() {
            cluster::stop(&self.home, &name, false)?;
        }
        let started = cluster::start(&self.home, &opts, req)
            .with_context(|| format!("variant '{variant}': its server did not start"))?;
        Ok(targets(&started))
    }

    fn stop(&self, e: &Experiment, variant: &str, workload: &str) -> Result<()> {
        if self.variant(variant)?.url.is_some() {
            return Ok(());
        }
        cluster::stop(&self.home, &self.sandbox(e, variant, workload), false)?;
        Ok(())
    }

    fn workload_name(&self, label: &str) -> Result<String> {
        Ok(self
            .plan
            .workload(label)
            .with_context(|| format!("the plan has no workload '{label}'"))?
            .name
            .clone())
    }

    fn prepare(
        &self,
        e: &Experiment,
        variant: &str,
        workload: &str,
        t: &[TargetUrl],
        log: &Path,
    ) -> Result<()> {
        let pair = e
            .plan
            .pair(variant, workload)
            .context("no such variant and workload")?;
        let mut args = vec!["prepare".to_string(), self.workload_name(workload)?];
        args.extend(pair.prepare.iter().cloned());
        if !child(&t[..1], &args, log)?.success() {
            bail!(
                "variant '{variant}', workload '{workload}': prepare failed: {}",
                log_error(log)
            );
        }
        Ok(())
    }

    /// Prepares every variant × workload not prepared yet; with snapshots, saves one.
    fn prepare_all(&self, e: &mut Experiment) -> Result<()> {
        let pairs: Vec<(String, String)> = e
            .plan
            .pairs
            .iter()
            .map(|p| (p.variant.clone(), p.workload.clone()))
            .collect();
        for (variant, workload) in pairs {
            if e.prepared(&variant, &workload).is_some() {
                continue;
            }
            let v = self.variant(&variant)?.clone();
            self.out.note(&format!(
                "preparing {workload} for variant {variant}{}",
                if v.url.is_some() {
                    ""
                } else {
                    " (a sandbox of its own)"
                }
            ));
            // A sandbox left by an interrupted or failed prepare holds part of the data
            // (oltp's prepare refuses tables that exist): prepare on a new one.
            let name = self.sandbox(e, &variant, &workload);
            if v.url.is_none() && server::get(&self.home, &name).is_ok() {
                cluster::stop(&self.home, &name, true)
                    .with_context(|| format!("removing the half-prepared sandbox {name}"))?;
            }
            let targets = self.start(e, &variant, &workload)?;
            let reported =
                engine::connect(&targets[0]).and_then(|mut c| verify_settings(&mut c, &v));
            let reported = match reported {
                Ok(r) => r,
                Err(err) => {
                    let _ = self.stop(e, &variant, &workload);
                    return Err(err);
                }
            };
            if !reported.is_empty() {
                e.notes.push(format!(
                    "variant {variant}: the server reports {}",
                    reported.join(", ")
                ));
            }
            let logs = self.dir.join("prepare");
            std::fs::create_dir_all(&logs)?;
            let t = Instant::now();
            if let Err(err) = self.prepare(
                e,
                &variant,
                &workload,
                &targets,
                &logs.join(format!("{variant}-{workload}.log")),
            ) {
                let _ = self.stop(e, &variant, &workload);
                return Err(err);
            }
            let prepare_s = t.elapsed().as_secs_f64();
            let mut p = Prepared {
                variant: variant.clone(),
                workload: workload.clone(),
                server: None,
                prepare_s,
                snapshot_s: None,
                snapshot_bytes: None,
            };
            if v.url.is_none() {
                let name = self.sandbox(e, &variant, &workload);
                self.stop(e, &variant, &workload)?;
                if e.plan.reset == Reset::Snapshot {
                    let (mut secs, mut bytes) = (0.0, 0);
                    for m in members(&self.home, &name)? {
                        let (s, b) = snapshot::save(&m)?;
                        secs += s;
                        bytes += b;
                    }
                    p.snapshot_s = Some(secs);
                    p.snapshot_bytes = Some(bytes);
                }
                p.server = Some(name);
            }
            e.prepared.push(p);
            e.write(self.dir)?;
        }
        Ok(())
    }

    /// Brings the data of `variant` × `workload` to its prepared state as the plan says;
    /// returns the targets (servers running) and the seconds the reset took.
    fn reset(
        &self,
        e: &Experiment,
        variant: &str,
        workload: &str,
        log: &Path,
    ) -> Result<(Vec<TargetUrl>, f64)> {
        let t = Instant::now();
        match e.plan.reset {
            Reset::Snapshot => {
                let name = e
                    .prepared(variant, workload)
                    .and_then(|p| p.server.clone())
                    .context("the variant was not prepared")?;
                // Stopped already, unless an interrupted cell left it running.
                cluster::stop(&self.home, &name, false)?;
                for m in members(&self.home, &name)? {
                    snapshot::restore(&m)?;
                }
                let targets = self.start(e, variant, workload)?;
                Ok((targets, t.elapsed().as_secs_f64()))
            }
            Reset::Reload => {
                let targets = self.start(e, variant, workload)?;
                let args = vec!["cleanup".to_string(), self.workload_name(workload)?];
                if !child(&targets[..1], &args, log)?.success() {
                    bail!("cleanup before reloading failed: {}", log_error(log));
                }
                self.prepare(e, variant, workload, &targets, log)?;
                Ok((targets, t.elapsed().as_secs_f64()))
            }
            Reset::None => {
                let targets = self.start(e, variant, workload)?;
                Ok((targets, t.elapsed().as_secs_f64()))
            }
        }
    }
}

fn execute(out: &Output, dir: &Path, e: &mut Experiment, plan: &Plan) -> Result<i32> {
    crate::driver::install_signal_handler();
    let r = Runner {
        out,
        dir,
        home: StateDir::from_env()?,
        plan,
        plan_dir: e
            .plan_file
            .as_ref()
            .and_then(|f| f.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    e.status = RunStatus::Running;
    e.write(dir)?;
    let result = execute_cells(&r, e);
    match result {
        Ok(code) => Ok(code),
        // Ctrl-C reaches the children too (a prepare, a snapshot copy, a server start): their
        // failure is the interruption, not a fault of the plan.
        Err(_) if crate::driver::interrupted() => {
            for c in e.cells.iter_mut() {
                if c.status == CellStatus::Running {
                    c.status = CellStatus::Pending;
                }
            }
            interrupted(&r, e)
        }
        Err(err) => {
            e.status = RunStatus::Aborted;
            e.write(dir)?;
            Err(err.context(format!(
                "the experiment stopped; fix the cause and continue it with `txbench experiment resume {}`",
                dir.display()
            )))
        }
    }
}

fn execute_cells(r: &Runner<'_>, e: &mut Experiment) -> Result<i32> {
    r.prepare_all(e)?;
    let total = e.cells.len();
    let began = Instant::now();
    let mut ran = 0usize;
    for i in 0..total {
        if !matches!(e.cells[i].status, CellStatus::Pending | CellStatus::Running) {
            continue;
        }
        if crate::driver::interrupted() {
            return interrupted(r, e);
        }
        let (variant, workload, threads) = (
            e.cells[i].variant.clone(),
            e.cells[i].workload.clone(),
            e.cells[i].threads,
        );
        let cell_dir = r.dir.join(&e.cells[i].dir);
        if cell_dir.exists() {
            std::fs::remove_dir_all(&cell_dir)
                .with_context(|| format!("removing the unfinished {}", cell_dir.display()))?;
        }
        std::fs::create_dir_all(&cell_dir)?;
        e.cells[i].status = CellStatus::Running;
        e.write(r.dir)?;
        let t = Instant::now();
        let log = cell_dir.join("run.log");
        let (targets, reset_s) = r.reset(e, &variant, &workload, &log)?;
        let pair = e
            .plan
            .pair(&variant, &workload)
            .context("no such variant and workload")?
            .clone();
        let mut args = vec!["run".to_string(), r.workload_name(&workload)?];
        args.extend(pair.run.iter().cloned());
        args.extend([
            "--threads".into(),
            threads.to_string(),
            "--time".into(),
            e.plan.duration.to_string(),
            "--warmup".into(),
            e.plan.warmup.to_string(),
            "--out".into(),
            cell_dir.join("run").display().to_string(),
        ]);
        let status = child(&targets, &args, &log)?;
        r.stop(e, &variant, &workload)?;
        let code = status.code();
        if code == Some(EXIT_INTERRUPTED) || crate::driver::interrupted() {
            // Run again on resume, from the start.
            e.cells[i].status = CellStatus::Pending;
            return interrupted(r, e);
        }
        let run_dir = cell_dir.join("run");
        let stored = crate::results::RunResult::load(&run_dir).ok();
        let cell = &mut e.cells[i];
        cell.reset_s = Some(reset_s);
        cell.elapsed_s = Some(t.elapsed().as_secs_f64());
        match (code, stored) {
            (Some(0) | Some(3), Some(res)) => {
                let stability = crate::results::Stability::of_run(&res);
                cell.tps = stability
                    .map(|s| s.mean_tps)
                    .or_else(|| res.summary.as_ref().map(|s| s.tps));
                cell.p95_ms = res.summary.as_ref().map(|s| s.response.p95_ms);
                if let Some(srv) = res.summary.as_ref().and_then(|s| s.server.as_ref()) {
                    cell.per_transaction = srv.per_transaction.clone();
                    cell.per_new_order = srv.per_new_order.clone();
                }
                if res.validity.valid {
                    cell.status = CellStatus::Done;
                } else {
                    cell.status = CellStatus::Invalid;
                    cell.reasons = res.validity.reasons.clone();
                }
            }
            _ => {
                cell.status = CellStatus::Pending;
                e.write(r.dir)?;
                bail!(
                    "cell {} ({variant}, {workload}, {threads} threads) failed: {}",
                    e.cells[i].order,
                    log_error(&log)
                );
            }
        }
        ran += 1;
        let left = e.remaining();
        let per = began.elapsed().as_secs_f64() / ran as f64;
        let c = &e.cells[i];
        r.out.note(&format!(
            "cell {}/{total}: {variant} {workload} {threads} threads, repetition {}: {}{} (reset {:.1} s; about {} left)",
            c.order,
            c.repetition,
            c.tps.map_or("-".into(), |v| format!("{v:.1} tps")),
            if c.status == CellStatus::Invalid {
                format!(", INVALID: {}", c.reasons.join("; "))
            } else {
                String::new()
            },
            reset_s,
            humantime::format_duration(std::time::Duration::from_secs((per * left as f64) as u64))
        ));
        e.write(r.dir)?;
    }
    e.status = RunStatus::Completed;
    e.write(r.dir)?;
    // Every cell ran: the sandboxes and their snapshots (gigabytes each) are not needed.
    let mut freed = 0u64;
    for p in &e.prepared {
        if let Some(name) = p
            .server
            .as_ref()
            .filter(|n| server::get(&r.home, n).is_ok())
        {
            for m in members(&r.home, name).unwrap_or_default() {
                freed += snapshot::size(&m.dir);
            }
            cluster::stop(&r.home, name, true)
                .with_context(|| format!("removing the experiment's server '{name}'"))?;
        }
    }
    if freed > 0 {
        r.out.note(&format!(
            "removed the experiment's sandboxes and snapshots ({:.1} GiB)",
            freed as f64 / f64::from(1u32 << 30)
        ));
    }
    print_results(r.out, e, r.dir, Format::Text)?;
    let invalid = e
        .cells
        .iter()
        .filter(|c| c.status == CellStatus::Invalid)
        .count();
    if invalid > 0 {
        return Err(Failure::Invalid(format!(
            "{invalid} of {total} cells INVALID (kept in {}, left out of the deviations)",
            r.dir.display()
        ))
        .into());
    }
    Ok(EXIT_OK)
}

fn interrupted(r: &Runner<'_>, e: &mut Experiment) -> Result<i32> {
    e.status = RunStatus::Interrupted;
    e.write(r.dir)?;
    r.out.note(&format!(
        "experiment interrupted: continue it with `txbench experiment resume {}`",
        r.dir.display()
    ));
    Ok(EXIT_INTERRUPTED)
}

/// How `results` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned text.
    Text,
    /// Markdown tables.
    Markdown,
    /// CSV.
    Csv,
}

fn print_results(out: &Output, e: &Experiment, dir: &Path, format: Format) -> Result<()> {
    let tables = experiment::tables(e);
    let why = experiment::why_tables(e);
    if out.json {
        print_json(&serde_json::json!({
            "type": "experiment", "dir": dir, "name": e.name, "status": e.status,
            "scale": e.plan.scale, "seed": e.seed, "method": experiment::METHOD,
            "tables": tables, "why": why, "cells": e.cells.len(),
            "invalid_cells": e.cells.iter().filter(|c| c.status == CellStatus::Invalid).count(),
        }));
        return Ok(());
    }
    match format {
        Format::Text => {
            print!("{}", experiment::text(e, &tables));
            if !out.quiet {
                print!("{}", experiment::why_text(e, &why));
            }
        }
        Format::Markdown => print!("{}", experiment::markdown(e, &tables)),
        Format::Csv => print!("{}", experiment::csv(&tables)),
    }
    if format == Format::Text && !out.quiet {
        let secs: f64 = e.cells.iter().filter_map(|c| c.elapsed_s).sum::<f64>()
            + e.prepared
                .iter()
                .map(|p| p.prepare_s + p.snapshot_s.unwrap_or(0.0))
                .sum::<f64>();
        println!(
            "experiment: {} ({} cells, {} INVALID; {:.0} s of prepare, snapshots and cells)",
            dir.display(),
            e.cells.len(),
            e.cells
                .iter()
                .filter(|c| c.status == CellStatus::Invalid)
                .count(),
            secs
        );
    }
    Ok(())
}

/// Cells recorded without the server's per-transaction figures (by an older txbench) get
/// them from their result.json.
pub fn fill_server_figures(e: &mut Experiment, dir: &Path) {
    for c in &mut e.cells {
        if c.status != CellStatus::Done || !c.per_transaction.is_empty() {
            continue;
        }
        let Ok(r) = crate::results::RunResult::load(&dir.join(&c.dir).join("run")) else {
            continue;
        };
        if let Some(srv) = r.summary.as_ref().and_then(|s| s.server.as_ref()) {
            c.per_transaction = srv.per_transaction.clone();
            c.per_new_order = srv.per_new_order.clone();
        }
    }
}

/// `txbench experiment results DIR`.
pub fn results(out: &Output, dir: &Path, format: Format) -> Result<i32> {
    let mut e = Experiment::load(dir)?;
    fill_server_figures(&mut e, dir);
    print_results(out, &e, dir, format)?;
    Ok(EXIT_OK)
}

/// `txbench experiment list`.
pub fn list(out: &Output) -> Result<i32> {
    let rows: Vec<(String, String)> = builtin::PLANS
        .iter()
        .map(|(name, text)| {
            let d = plan::parse(Path::new(name), text)
                .ok()
                .and_then(|p| p.description)
                .unwrap_or_default();
            (name.to_string(), d)
        })
        .collect();
    if out.json {
        print_json(&serde_json::json!(
            rows.iter()
                .map(|(n, d)| serde_json::json!({"name": n, "description": d}))
                .collect::<Vec<_>>()
        ));
    } else {
        for (n, d) in rows {
            println!("{n:<12} {d}");
        }
    }
    Ok(EXIT_OK)
}

/// `txbench experiment show NAME`.
pub fn show(name: &str) -> Result<i32> {
    match builtin::get(name) {
        Some(text) => {
            print!("{text}");
            Ok(EXIT_OK)
        }
        None => Err(Failure::Usage(format!(
            "{name}: no built-in plan of that name (see `txbench experiment list`)"
        ))
        .into()),
    }
}
