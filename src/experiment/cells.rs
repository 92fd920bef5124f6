//! Running an experiment's cells one at a time: each variant's sandboxes prepared once and
//! snapshotted, every cell started from its snapshot, run by a `txbench run` child process
//! (its output in the cell's run.log), experiment.json rewritten after every step; the
//! sandboxes and snapshots removed when every cell has run. A warm experiment (warm.rs)
//! starts every server once instead and keeps it running between cells.

use super::plan::{Plan, Reset, Variant};
use super::sandboxes::{members, sandbox_name, start_options, targets, verify_settings};
use super::{CellStatus, Experiment, Prepared};
use crate::engine::{self, TargetUrl};
use crate::results::RunStatus;
use crate::server::{self, StateDir, cluster, snapshot};
use anyhow::{Context, Result, bail};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

mod cell;
mod replay;
mod warm;
use cell::{block_done, note_cell, record_result, run_args, sequential_stops, start_cell};

/// How an experiment's execution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every cell ran (some may be INVALID).
    Completed,
    /// Ctrl-C: continue it with `experiment resume`.
    Interrupted,
}

/// Runs txbench with `args` on `targets`, its output into `log`. The targets go through
/// the environment (TXBENCH_URL, one per line), never the command line, which every local
/// user can read: a URL's password reaches the child and nobody else.
pub(crate) fn child(
    targets: &[TargetUrl],
    args: &[String],
    log: &Path,
) -> Result<std::process::ExitStatus> {
    let exe = std::env::current_exe().context("finding the txbench program")?;
    let f = crate::owned::replace(log)?;
    let urls: Vec<String> = targets.iter().map(TargetUrl::with_secret).collect();
    let mut cmd = Command::new(exe);
    cmd.args(args);
    // No targets: the child names its sandbox itself (replay's --server), and a
    // TXBENCH_URL of the user's must not reach it.
    if urls.is_empty() {
        cmd.env_remove("TXBENCH_URL");
    } else {
        cmd.env("TXBENCH_URL", urls.join("\n"));
    }
    let status = cmd
        .stdin(Stdio::null())
        .stdout(f.try_clone()?)
        .stderr(f)
        .status()
        .context("starting txbench")?;
    Ok(status)
}

/// The last `Error:` line of a child's log.
pub(crate) fn log_error(log: &Path) -> String {
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

struct Runner<'a> {
    /// Where notes for people go.
    note: &'a dyn Fn(&str),
    dir: &'a Path,
    home: StateDir,
    plan: &'a Plan,
    plan_dir: PathBuf,
    /// A warm experiment's running servers, by variant and workload.
    warm: RefCell<BTreeMap<(String, String), Vec<TargetUrl>>>,
}

impl Runner<'_> {
    fn variant(&self, name: &str) -> Result<&Variant> {
        self.plan
            .variant(name)
            .with_context(|| format!("the plan has no variant '{name}'"))
    }

    /// The sandboxes of `variant` × `workload` (one, or a co-location's instances): those
    /// recorded when it was prepared (so a moved experiment directory still finds them),
    /// else new names.
    fn sandboxes(&self, e: &Experiment, variant: &str, workload: &str) -> Vec<String> {
        if let Some(p) = e.prepared(variant, workload) {
            if !p.instances.is_empty() {
                return p.instances.clone();
            }
            if let Some(name) = &p.server {
                return vec![name.clone()];
            }
        }
        let index = |list: &[String], name: &str| list.iter().position(|n| n == name).unwrap_or(0);
        let first = sandbox_name(
            self.dir,
            index(&e.plan.variants, variant),
            index(&e.plan.workloads, workload),
        );
        let more = (2..=e.plan.instances.unwrap_or(1)).map(|k| format!("{first}-i{k}"));
        std::iter::once(first.clone()).chain(more).collect()
    }

    /// Starts the variant's servers (or names its url); returns the run's targets.
    fn start(&self, e: &Experiment, variant: &str, workload: &str) -> Result<Vec<TargetUrl>> {
        let v = self.variant(variant)?;
        if let Some(url) = &v.url {
            let t = TargetUrl::parse(url).with_context(|| format!("variant '{variant}': url"))?;
            if t.password.as_deref() == Some(crate::engine::REDACTED) {
                bail!(
                    "variant '{variant}': its url's password is not stored in {}: resume with the plan file",
                    super::FILE
                );
            }
            return Ok(vec![
                crate::server::secret::sandbox_login(t)
                    .with_context(|| format!("variant '{variant}': url"))?,
            ]);
        }
        let mut all = Vec::new();
        for (k, name) in self.sandboxes(e, variant, workload).iter().enumerate() {
            let (opts, req) = start_options(name, v, k, &self.plan_dir)?;
            // One left running by an interrupted experiment is started afresh with the
            // plan's settings (a running server refuses new ones).
            if server::get(&self.home, name).is_ok() {
                cluster::stop(&self.home, name, false)?;
            }
            let started = cluster::start(&self.home, &opts, req)
                .with_context(|| format!("variant '{variant}': its server did not start"))?;
            all.extend(targets(&started, v.writers));
        }
        Ok(all)
    }

    /// Stops the servers of `variant` × `workload`: shut down cleanly (before a snapshot is
    /// saved, or when the next cell runs on what this one left), or, after a cell whose data
    /// the next restores from a snapshot, killed (`discard`: a clean shutdown would flush
    /// pages that are about to be thrown away).
    fn stop(
        &self,
        e: &Experiment,
        variant: &str,
        workload: &str,
        discard: bool,
    ) -> Result<Vec<server::Stopped>> {
        if self.variant(variant)?.url.is_some() {
            return Ok(Vec::new());
        }
        let mut stopped = Vec::new();
        for name in self.sandboxes(e, variant, workload) {
            if discard {
                for m in members(&self.home, &name)? {
                    stopped.push(server::discard(&self.home, &m.name)?);
                }
            } else {
                stopped.extend(cluster::stop(&self.home, &name, false)?);
            }
        }
        Ok(stopped)
    }

    /// What `prepare`, `cleanup` and `run` name for the workload labelled `label` (a
    /// replay's data is TPC-C's).
    fn workload_name(&self, label: &str) -> Result<String> {
        Ok(self
            .plan
            .workload(label)
            .with_context(|| format!("the plan has no workload '{label}'"))?
            .data_name()
            .to_string())
    }

    /// Whether the workload labelled `label` is a replay (cells/replay.rs).
    fn is_replay(&self, label: &str) -> bool {
        self.plan
            .workload(label)
            .is_some_and(|w| w.name == super::plan::REPLAY)
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
            (self.note)(&format!(
                "preparing {workload} for variant {variant}{}",
                match (&v.url, e.plan.instances) {
                    (Some(_), _) => String::new(),
                    (None, Some(n)) => format!(" ({n} sandboxes of its own, one per instance)"),
                    (None, None) => " (a sandbox of its own)".into(),
                }
            ));
            // A sandbox left by an interrupted or failed prepare holds part of the data
            // (oltp's prepare refuses tables that exist): prepare on a new one.
            for name in self.sandboxes(e, &variant, &workload) {
                if v.url.is_none() && server::get(&self.home, &name).is_ok() {
                    cluster::stop(&self.home, &name, true)
                        .with_context(|| format!("removing the half-prepared sandbox {name}"))?;
                }
            }
            let targets = self.start(e, &variant, &workload)?;
            let t = Instant::now();
            if let Err(err) = self.load(e, &v, &workload, &targets) {
                let _ = self.stop(e, &variant, &workload, false);
                return Err(err);
            }
            let mut p = Prepared {
                variant: variant.clone(),
                workload: workload.clone(),
                server: None,
                prepare_s: t.elapsed().as_secs_f64(),
                snapshot_s: None,
                snapshot_bytes: None,
                instances: Vec::new(),
            };
            if v.url.is_none() {
                self.save(e, &mut p)?;
            }
            e.prepared.push(p);
            e.write(self.dir)?;
        }
        Ok(())
    }

    /// The servers that hold data of their own among `targets`: the first (a topology's
    /// head), or every co-located instance.
    fn heads(e: &Experiment, targets: &[TargetUrl]) -> Vec<TargetUrl> {
        match e.plan.instances {
            Some(_) => targets.to_vec(),
            None => targets[..1].to_vec(),
        }
    }

    /// Checks the variant's settings on every server holding data, and prepares each.
    fn load(
        &self,
        e: &mut Experiment,
        v: &Variant,
        workload: &str,
        targets: &[TargetUrl],
    ) -> Result<()> {
        let variant = &v.name;
        let heads = Self::heads(e, targets);
        for (k, head) in heads.iter().enumerate() {
            let reported = engine::connect(head).and_then(|mut c| verify_settings(&mut c, v))?;
            if !reported.is_empty() && k == 0 {
                e.notes.push(format!(
                    "variant {variant}: the server reports {}",
                    reported.join(", ")
                ));
            }
        }
        let logs = self.dir.join("prepare");
        std::fs::create_dir_all(&logs)?;
        for (k, head) in heads.iter().enumerate() {
            let log = match e.plan.instances {
                Some(_) => format!("{variant}-{workload}-i{}.log", k + 1),
                None => format!("{variant}-{workload}.log"),
            };
            self.prepare(
                e,
                variant,
                workload,
                std::slice::from_ref(head),
                &logs.join(log),
            )?;
        }
        Ok(())
    }

    /// Shuts the prepared sandboxes down cleanly and, with snapshots, saves one of each;
    /// records them in `p`.
    fn save(&self, e: &Experiment, p: &mut Prepared) -> Result<()> {
        let (variant, workload) = (p.variant.as_str(), p.workload.as_str());
        let names = self.sandboxes(e, variant, workload);
        let stopped = self.stop(e, variant, workload, false)?;
        if let Some(s) = stopped
            .iter()
            .find(|s| s.method == server::StopMethod::Sigkill)
        {
            bail!(
                "variant '{variant}', workload '{workload}': server '{}' did not shut down and was killed: a snapshot of it would make every cell recover it first; look at `txbench server logs {}`",
                s.name,
                s.name
            );
        }
        if e.plan.reset == Reset::Snapshot {
            let (mut secs, mut bytes) = (0.0, 0);
            for name in &names {
                for m in members(&self.home, name)? {
                    let (s, b) = snapshot::save(&m)?;
                    secs += s;
                    bytes += b;
                }
            }
            p.snapshot_s = Some(secs);
            p.snapshot_bytes = Some(bytes);
        }
        p.server = names.first().cloned();
        if e.plan.instances.is_some() {
            p.instances = names;
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
    ) -> Result<(Vec<TargetUrl>, f64, Option<f64>)> {
        let t = Instant::now();
        match e.plan.reset {
            Reset::Snapshot => {
                e.prepared(variant, workload)
                    .and_then(|p| p.server.as_ref())
                    .context("the variant was not prepared")?;
                for name in self.sandboxes(e, variant, workload) {
                    // Stopped already, unless an interrupted cell left it running.
                    cluster::stop(&self.home, &name, false)?;
                    for m in members(&self.home, &name)? {
                        snapshot::restore(&m)?;
                    }
                }
                let restore_s = t.elapsed().as_secs_f64();
                let targets = self.start(e, variant, workload)?;
                Ok((targets, t.elapsed().as_secs_f64(), Some(restore_s)))
            }
            Reset::Reload => {
                let targets = self.start(e, variant, workload)?;
                let args = vec!["cleanup".to_string(), self.workload_name(workload)?];
                for head in Self::heads(e, &targets) {
                    let head = std::slice::from_ref(&head);
                    if !child(head, &args, log)?.success() {
                        bail!("cleanup before reloading failed: {}", log_error(log));
                    }
                    self.prepare(e, variant, workload, head, log)?;
                }
                Ok((targets, t.elapsed().as_secs_f64(), None))
            }
            Reset::None => {
                let targets = self.start(e, variant, workload)?;
                Ok((targets, t.elapsed().as_secs_f64(), None))
            }
            Reset::Warm => Ok((
                self.warm_targets(variant, workload)?,
                t.elapsed().as_secs_f64(),
                None,
            )),
        }
    }
}

pub fn execute(
    note: &dyn Fn(&str),
    dir: &Path,
    e: &mut Experiment,
    plan: &Plan,
) -> Result<Outcome> {
    crate::driver::install_signal_handler();
    let r = Runner {
        note,
        dir,
        home: StateDir::from_env()?,
        plan,
        plan_dir: e
            .plan_file
            .as_ref()
            .and_then(|f| f.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| PathBuf::from(".")),
        warm: RefCell::default(),
    };
    e.status = RunStatus::Running;
    e.write(dir)?;
    let result = execute_cells(&r, e);
    match result {
        Ok(outcome) => Ok(outcome),
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
            // Best effort: the failure to report is the first one.
            let _ = r.warm_stop(e);
            e.status = RunStatus::Aborted;
            e.write(dir)?;
            Err(err.context(format!(
                "the experiment stopped; fix the cause and continue it with `txbench experiment resume {}`",
                dir.display()
            )))
        }
    }
}

/// Prepares what is not prepared yet, runs every cell still to run in order (a sequential
/// experiment stopping after the block that answers it), then removes the sandboxes.
fn execute_cells(r: &Runner<'_>, e: &mut Experiment) -> Result<Outcome> {
    r.prepare_all(e)?;
    r.warm_start(e)?;
    let mut progress = Progress {
        total: e.cells.len(),
        began: Instant::now(),
        ran: 0,
    };
    for i in 0..progress.total {
        if !matches!(e.cells[i].status, CellStatus::Pending | CellStatus::Running) {
            continue;
        }
        if crate::driver::interrupted() {
            return interrupted(r, e);
        }
        let cell = start_cell(r, e, i)?;
        let args = run_args(r, e, &cell)?;
        let status = child(&cell.targets, &args, &cell.log)?;
        if e.plan.reset != Reset::Warm {
            r.stop(
                e,
                &cell.variant,
                &cell.workload,
                e.plan.reset == Reset::Snapshot,
            )?;
        }
        let code = status.code();
        if code == Some(crate::error::EXIT_INTERRUPTED) || crate::driver::interrupted() {
            // Run again on resume, from the start.
            e.cells[i].status = CellStatus::Pending;
            return interrupted(r, e);
        }
        record_result(r, e, &cell, code)?;
        progress.ran += 1;
        note_cell(r, e, &cell, &progress);
        e.write(r.dir)?;
        if block_done(e, i) && sequential_stops(r, e)? {
            break;
        }
    }
    r.warm_stop(e)?;
    finish(r, e)
}

/// How far the cells of this execution have got, for the time left.
struct Progress {
    /// Cells in all.
    total: usize,
    /// When the cells began (every variant prepared).
    began: Instant,
    /// Cells run so far.
    ran: usize,
}

/// Marks the experiment completed and removes its sandboxes and snapshots.
fn finish(r: &Runner<'_>, e: &mut Experiment) -> Result<Outcome> {
    e.status = RunStatus::Completed;
    e.write(r.dir)?;
    // Every cell ran: the sandboxes and their snapshots (gigabytes each) are not needed.
    remove_sandboxes(r, e)?;
    Ok(Outcome::Completed)
}

/// Removes the experiment's sandboxes and their snapshots; says how much that freed.
fn remove_sandboxes(r: &Runner<'_>, e: &Experiment) -> Result<()> {
    let mut freed = 0u64;
    for p in &e.prepared {
        let names = if p.instances.is_empty() {
            p.server.iter().cloned().collect()
        } else {
            p.instances.clone()
        };
        for name in names.iter().filter(|n| server::get(&r.home, n).is_ok()) {
            for m in members(&r.home, name).unwrap_or_default() {
                freed += snapshot::size(&m.dir);
            }
            cluster::stop(&r.home, name, true)
                .with_context(|| format!("removing the experiment's server '{name}'"))?;
        }
    }
    if freed > 0 {
        (r.note)(&format!(
            "removed the experiment's sandboxes and snapshots ({:.1} GiB)",
            freed as f64 / f64::from(1u32 << 30)
        ));
    }
    Ok(())
}

fn interrupted(r: &Runner<'_>, e: &mut Experiment) -> Result<Outcome> {
    r.warm_stop(e)?;
    e.status = RunStatus::Interrupted;
    e.write(r.dir)?;
    (r.note)(&format!(
        "experiment interrupted: continue it with `txbench experiment resume {}`",
        r.dir.display()
    ));
    Ok(Outcome::Interrupted)
}
