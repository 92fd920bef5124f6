//! `merge` (the shards of a run into one run directory) and `k8s job` (the manifest that runs
//! the shards as a Kubernetes Indexed Job).

use super::Output;
use crate::analysis::merge::Merged;
use crate::cli::K8sJobCmd;
use crate::error::{EXIT_OK, Failure};
use crate::report::text;
use crate::results::{RunResult, Summary, WorkloadReport};
use crate::workload::tpcc::score::{self, ScoreInputs};
use anyhow::Result;
use serde_json::json;
use std::path::{Path, PathBuf};

/// `txbench merge SHARD_DIR... --out DIR`.
pub fn merge(out: &Output, shards: &[PathBuf], dir: &Path) -> Result<i32> {
    let merged = crate::analysis::merge::merge(shards, dir, &scorecard)?;
    if let Some(line) = crate::store::record_dir(out.store.as_deref(), dir) {
        out.note(&line);
    }
    let invalid: Vec<String> = match &merged {
        Merged::Run(r) => {
            if out.json {
                println!(
                    "{}",
                    json!({"type": "summary", "run_dir": dir, "status": r.status,
                           "validity": r.validity, "summary": r.summary,
                           "workload_report": r.workload_report, "merged": r.merged,
                           "notes": r.notes})
                );
            } else {
                // The shards' result.json files may come from anywhere.
                print!("{}", text::shown_lines(&text::summary(r)));
                if !out.quiet {
                    println!("merged: {}", dir.display());
                }
            }
            if r.validity.valid {
                Vec::new()
            } else {
                r.validity.reasons.clone()
            }
        }
        Merged::Sweep(s, runs, stopped) => {
            for line in stopped {
                out.note(line);
            }
            if out.json {
                let mut v = serde_json::to_value(s)?;
                v["type"] = json!("sweep");
                v["sweep_dir"] = json!(dir);
                println!("{v}");
            } else {
                print!("{}", text::shown_lines(&text::sweep_table(s)));
                if !out.quiet {
                    println!("merged sweep: {}", dir.display());
                }
            }
            runs.iter()
                .filter(|r| !r.validity.valid)
                .map(|r| {
                    format!(
                        "{} threads: {}",
                        r.config.threads,
                        r.validity.reasons.join("; ")
                    )
                })
                .collect()
        }
    };
    if !invalid.is_empty() {
        return Err(Failure::Invalid(invalid.join("; ")).into());
    }
    Ok(EXIT_OK)
}

/// The merged run's workload report: TPC-C's scorecard from the shards' input counts summed.
fn scorecard(summary: &Summary, shards: &[&RunResult]) -> (Option<WorkloadReport>, Vec<String>) {
    if shards
        .first()
        .is_some_and(|r| r.config.workload == "script")
    {
        let reports: Vec<&WorkloadReport> = shards
            .iter()
            .filter_map(|r| r.workload_report.as_ref())
            .collect();
        return (crate::workload::script::merged_report(&reports), Vec::new());
    }
    if shards.first().is_none_or(|r| r.config.workload != "tpcc") {
        return (None, Vec::new());
    }
    let inputs: Option<Vec<ScoreInputs>> = shards
        .iter()
        .map(|r| {
            let v = r.workload_report.as_ref()?.inputs.clone()?;
            serde_json::from_value(v).ok()
        })
        .collect();
    match inputs.as_deref().and_then(ScoreInputs::merge) {
        Some((i, note)) => (Some(score::report(summary, &i)), note.into_iter().collect()),
        None => (
            None,
            vec!["a shard has no TPC-C scorecard inputs (it ended before its measured phase, or an older txbench wrote it): the merged run has no scorecard".into()],
        ),
    }
}

/// Flags `k8s job` sets itself, or that have no meaning in a pod.
const SET_BY_THE_JOB: &[&str] = &[
    "--shard",
    "--start-at",
    "--out",
    "--resume",
    "--url",
    "--server",
];

/// `txbench k8s job … -- RUN_ARGS`: prints the manifest.
pub fn k8s_job(out: &Output, url: Option<&str>, job: &K8sJobCmd) -> Result<i32> {
    crate::k8s::check_name(&job.name).map_err(|e| Failure::Usage(format!("--name: {e}")))?;
    if let Some(ns) = &job.namespace {
        crate::k8s::check_name(ns).map_err(|e| Failure::Usage(format!("--namespace: {e}")))?;
    }
    if let Some(s) = &job.url_secret {
        crate::k8s::check_name(s).map_err(|e| Failure::Usage(format!("--url-secret: {e}")))?;
    }
    let url = match (url, &job.url_secret) {
        (None, None) => {
            return Err(Failure::Usage(
                "k8s job: give the target as --url (without a password) or --url-secret SECRET (a Secret whose key `url` holds it)".into(),
            )
            .into());
        }
        (Some(_), Some(_)) => {
            return Err(Failure::Usage(
                "--url and --url-secret: give one (the Secret's URL is the pods' TXBENCH_URL)"
                    .into(),
            )
            .into());
        }
        (Some(u), None) => {
            let parsed = crate::engine::TargetUrl::parse(u)
                .map_err(|e| Failure::Usage(format!("--url: {e}")))?;
            if parsed.password.is_some() {
                return Err(Failure::Usage(format!(
                    "--url {}: has a password, which the manifest would hold in plain text; put the URL in a Secret (kubectl create secret generic NAME --from-literal=url=URL) and give --url-secret NAME",
                    parsed
                ))
                .into());
            }
            if parsed.is_local() {
                return Err(Failure::Usage(format!(
                    "--url {parsed}: a local address or socket names the pod itself, not the database server"
                ))
                .into());
            }
            Some(u.to_string())
        }
        (None, Some(_)) => None,
    };
    for a in &job.run {
        if let Some(f) = SET_BY_THE_JOB
            .iter()
            .find(|f| a == *f || a.starts_with(&format!("{f}=")))
        {
            return Err(Failure::Usage(format!(
                "k8s job: {f} in the run arguments: the Job sets --shard (from the pod's index), --start-at and --out itself, and takes the target as --url or --url-secret before `--`"
            ))
            .into());
        }
    }
    // The pods will run exactly this: refuse here what they would refuse there.
    let mut argv = vec!["txbench".to_string(), "run".to_string()];
    argv.extend(job.run.iter().cloned());
    if let Err(e) = crate::cli::parse_args(argv) {
        return Err(Failure::Usage(format!(
            "k8s job: the run arguments do not parse as `txbench run`: {}",
            e.to_string().lines().next().unwrap_or_default()
        ))
        .into());
    }
    let start = std::time::SystemTime::now() + std::time::Duration::from_secs(job.start_in);
    let spec = crate::k8s::JobSpec {
        name: job.name.clone(),
        namespace: job.namespace.clone(),
        shards: job.shards,
        image: job.image.clone(),
        run_args: job.run.clone(),
        url,
        url_secret: job.url_secret.clone(),
        claim: job.results_claim.clone(),
        start_at: humantime::format_rfc3339_seconds(start).to_string(),
        cpus: job.cpus.clone(),
    };
    print!("{}", spec.render().map_err(|e| anyhow::anyhow!(e))?);
    if !out.quiet {
        eprintln!(
            "the shards start at {} ({} s from now): apply the manifest before then",
            spec.start_at, job.start_in
        );
    }
    Ok(EXIT_OK)
}
