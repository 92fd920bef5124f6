//! The opening of a run, once its virtual users are connected: the clock starts, a sampler
//! per target, the --rate schedule, and the result every interval fills in.

use super::{Part, Targets, pacer, users::Users};
use crate::config::RunConfig;
use crate::results::{Client, RunResult, RunStatus, SCHEMA_VERSION, Tool, Validity};
use crate::sampler::Sampler;
use crate::workload::Workload;
use anyhow::Result;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

/// The run's clock: when it started, and its phases' lengths.
pub(super) struct Clock {
    pub(super) t0: Instant,
    pub(super) started_at: SystemTime,
    pub(super) warmup: Duration,
    pub(super) interval: Duration,
    /// Warm-up and measured phase.
    pub(super) total: Duration,
}

impl Clock {
    /// Starts the run's clock now.
    pub(super) fn start(cfg: &RunConfig) -> Clock {
        let warmup = Duration::from_secs_f64(cfg.warmup_s);
        Clock {
            t0: Instant::now(),
            started_at: SystemTime::now(),
            warmup,
            interval: Duration::from_secs_f64(cfg.report_interval_s),
            total: warmup + Duration::from_secs_f64(cfg.time_s),
        }
    }
}

/// A sampler per target, each taking its baseline sample before the virtual users start
/// (without a warm-up that sample opens the measured phase): the first's files in the run
/// directory, the others' in target-2/, target-3/…
pub(super) fn start_samplers(
    cfg: &RunConfig,
    part: &Part,
    targets: &Targets,
    workload: &dyn Workload,
    clock: &Clock,
    out: &Path,
) -> Result<Vec<Sampler>> {
    let mut samplers = Vec::new();
    for (i, u) in targets.urls.iter().enumerate() {
        let dir = if i == 0 {
            out.to_path_buf()
        } else {
            out.join(format!("target-{}", i + 1))
        };
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("creating {}: {e}", dir.display()))?;
        samplers.push(Sampler::start(crate::sampler::Options {
            url: u.clone(),
            t0: clock.t0,
            dir,
            workload_counts: workload.server_counts(),
            measure_start: clock.warmup.is_zero().then_some(0.0),
            // Of a sharded run, one shard samples the server's counters; the others
            // watch it only for a restart, a freeze or its loss.
            metrics: cfg.server_metrics && part.shard.as_ref().is_none_or(|s| s.index == 1),
            profile: if i == 0 {
                cfg.profile
            } else {
                crate::config::Profiling::Off
            },
        })?);
    }
    Ok(samplers)
}

/// The --rate schedule, if there is one.
pub(super) fn start_pacer(
    cfg: &RunConfig,
    part: &Part,
    clock: &Clock,
    users: &Users,
) -> Result<Option<pacer::Pacer>> {
    part.rate
        .map(|rate| {
            pacer::Pacer::start(
                rate,
                cfg.rate_dist,
                // Each shard its own arrivals: the same seed would put N shards' arrivals at
                // the same instants (independent Poisson streams add up to one).
                cfg.seed
                    ^ part.shard.as_ref().map_or(0, |s| {
                        u64::from(s.index).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    }),
                clock.t0,
                pacer::queue_capacity(rate),
                users.stop_flag.clone(),
                users.overflow.clone(),
            )
            .map_err(|e| anyhow::anyhow!("starting the --rate schedule: {e}"))
        })
        .transpose()
}

/// The result as the run starts, its notes saying how to read it; the intervals fill it in.
pub(super) fn new_result(
    cfg: &RunConfig,
    part: &Part,
    clock: &Clock,
    preflight: crate::preflight::Preflight,
    workload: &dyn Workload,
    names: &[String],
    users: usize,
) -> RunResult {
    let mut result = RunResult {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "txbench".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        status: RunStatus::Running,
        started_at: humantime::format_rfc3339_seconds(clock.started_at).to_string(),
        ended_at: None,
        config: cfg.clone(),
        loop_kind: if cfg.rate.is_some() { "open" } else { "closed" }.into(),
        client: Client::this(),
        server: preflight,
        kinds: names.to_vec(),
        notes: workload.notes(),
        intervals: Vec::new(),
        summary: None,
        workload_report: None,
        profiles: Vec::new(),
        stability: None,
        findings: Vec::new(),
        events: Vec::new(),
        shard: part.shard.clone().map(|mut s| {
            s.start_unix_s = crate::shard::unix_s(clock.started_at);
            s
        }),
        merged: None,
        database_growth: Vec::new(),
        periods: None,
        validity: Validity {
            valid: true,
            reasons: vec![],
        },
    };
    if let Some(s) = &part.shard {
        result.notes.push(format!(
            "shard {}/{}: {} of the run's {} virtual users; these figures are this process's part, `txbench merge` combines the shards (server figures per transaction and the cross-checks are the merge's)",
            s.index,
            s.count,
            users,
            cfg.threads
        ));
    }
    if cfg.rate.is_none() {
        result.notes.push(
            "closed loop: each virtual user starts its next transaction when the last one ends, so response time equals service time".into(),
        );
    }
    result
}
