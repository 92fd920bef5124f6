//! A warm experiment's servers (`reset = "warm"`): every variant × workload's started once
//! on its data and driven once for `warm_start` seconds before the first cell of an
//! execution (a resumed one too: a restart cools them), kept running between cells, and
//! stopped when the execution ends, however it ends.

use super::{Runner, child, log_error};
use crate::engine::TargetUrl;
use crate::experiment::Experiment;
use anyhow::{Context, Result, bail};

impl Runner<'_> {
    /// Starts and drives every variant × workload's servers once; keeps their targets for
    /// the cells. The warm-up runs are recorded in a store of their own under `warm-start/`
    /// (they are not measurements, and the user's history should not hold them).
    pub(super) fn warm_start(&self, e: &mut Experiment) -> Result<()> {
        let Some(secs) = e.plan.warm_start else {
            return Ok(());
        };
        let began = std::time::Instant::now();
        let dir = self.dir.join("warm-start");
        std::fs::create_dir_all(&dir)?;
        let threads = e.plan.threads.iter().max().copied().unwrap_or(1);
        for p in &e.plan.pairs {
            let targets = self.start(e, &p.variant, &p.workload)?;
            self.warm
                .borrow_mut()
                .insert((p.variant.clone(), p.workload.clone()), targets.clone());
            if secs <= 0.0 {
                continue;
            }
            (self.note)(&format!(
                "warm start: driving variant {} ({}) for {secs} s at {threads} threads",
                p.variant, p.workload
            ));
            let name = format!("{}-{}", p.variant, p.workload);
            // A resumed experiment warms again: the run directory is this execution's.
            let out = dir.join(&name);
            if out.exists() {
                std::fs::remove_dir_all(&out)
                    .with_context(|| format!("removing the earlier {}", out.display()))?;
            }
            let mut args = vec!["run".to_string(), self.workload_name(&p.workload)?];
            args.extend(p.run.iter().cloned());
            args.extend([
                "--threads".into(),
                threads.to_string(),
                "--time".into(),
                secs.to_string(),
                "--warmup".into(),
                "0".into(),
                "--out".into(),
                out.display().to_string(),
                "--store".into(),
                dir.join("store.sqlite").display().to_string(),
            ]);
            let log = dir.join(format!("{name}.log"));
            // An INVALID warm-up (exit 3) still warmed the server; any other failure is the
            // variant's.
            let status = child(&targets, &args, &log)?;
            if !matches!(status.code(), Some(0 | 3)) {
                bail!(
                    "variant '{}', workload '{}': its warm start failed: {}",
                    p.variant,
                    p.workload,
                    log_error(&log)
                );
            }
        }
        // Counted against max_time, as the prepares are.
        e.warm_start_s += began.elapsed().as_secs_f64();
        e.write(self.dir)?;
        Ok(())
    }

    /// The targets of `variant` × `workload`'s running servers.
    pub(super) fn warm_targets(&self, variant: &str, workload: &str) -> Result<Vec<TargetUrl>> {
        self.warm
            .borrow()
            .get(&(variant.to_string(), workload.to_string()))
            .cloned()
            .with_context(|| {
                format!("variant '{variant}', workload '{workload}': its servers were not started")
            })
    }

    /// Shuts down, cleanly, the servers the warm start started (after the last cell, on
    /// Ctrl-C, after a failure); the first failure is returned after every one was tried.
    pub(super) fn warm_stop(&self, e: &Experiment) -> Result<()> {
        let started = std::mem::take(&mut *self.warm.borrow_mut());
        let mut first = Ok(());
        for (variant, workload) in started.into_keys() {
            if let Err(err) = self.stop(e, &variant, &workload, false) {
                first = first.and(Err(err));
            }
        }
        first
    }
}
