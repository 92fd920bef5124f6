//! The end of a run: the samplers' reports become the summary's server block (through
//! the verdict path a merge shares, analysis::verdict), each target's counts are
//! cross-checked against what its virtual users ran, and what disagrees makes the run
//! INVALID.

use super::{Targets, targets};
use crate::analysis::cross_checks::{Ends, InFlight, PgCosts, cross_checks};
use crate::analysis::verdict::{self, Sampling};
use crate::metrics::Recorder;
use crate::metrics::server::ServerSummary;
use crate::results::{RunResult, Summary};
use crate::workload::Workload;

/// How the workload's `kinds` attempts end on the server, for the cross-checks.
fn ends_of(workload: &dyn Workload, kinds: usize, connections: u64) -> Ends {
    Ends {
        commits: (0..kinds).map(|k| workload.commits(k)).collect(),
        autocommit_statements: (0..kinds)
            .map(|k| workload.autocommit_statements(k))
            .collect(),
        connections,
        pg: None,
        in_flight_at_open: InFlight::default(),
    }
}

/// The server block of the summary, the cross-checks (a disagreement makes the run
/// INVALID) and the findings, from what the samplers saw. The first target's figures are the
/// summary's; with several targets each one's counts are checked against its own share
/// (New-Orders kept in a cluster's tables against the total).
pub(super) fn server_figures(
    result: &mut RunResult,
    reports: Vec<crate::sampler::Report>,
    per_target: &[Summary],
    targets: &Targets,
    client: &ClientEnd,
    workload: &dyn Workload,
) {
    record_profiles(result, &reports);
    for (i, r) in reports.iter().enumerate() {
        for e in &r.events {
            result.events.push(crate::results::Event {
                t_s: e.t_s,
                what: targets::label(targets, i, e.what.clone()),
            });
        }
    }
    let Some(summary) = result.summary.as_mut() else {
        return;
    };
    if let Some(shard) = result.shard.as_mut() {
        let in_flight = client.in_flight();
        shard.in_flight_at_open = in_flight.total;
        shard.in_flight_by_kind = in_flight.by_kind;
        shard_figures(result, &reports, targets, workload);
        return;
    }
    for (t, r) in summary.targets.iter_mut().zip(&reports) {
        t.conflicts = r.measured.as_ref().and_then(|m| m.conflicts());
        // Each co-located server's own CPU (an experiment's together cell, issue 40).
        t.server_cpu_pct = r.measured.as_ref().and_then(|m| {
            let cpu = crate::metrics::server::COLUMNS
                .iter()
                .find(|c| c.name == "server_cpu_pct")?;
            (cpu.value)(m)
        });
    }
    let Some(report) = reports.first() else {
        return;
    };
    let mut s = verdict::server_block(
        report.measured.as_ref(),
        &report.rows,
        summary,
        Sampling::of_report(report),
    );
    let mut ends = ends_of(
        workload,
        summary.kinds.len(),
        u64::from(result.config.threads),
    );
    ends.in_flight_at_open = client.in_flight();
    // PostgreSQL: what connecting costs, measured (the monitor's empty connection and the
    // virtual users' preparation as the protocol counted it).
    ends.pg = report.pg_connect_cost.map(|login| PgCosts {
        per_connection: login + client.pg_setup as f64,
        prepares_alone: client.pg_prepares_alone,
        warmup: result.config.warmup_s > 0.0,
        warmup_tps: result
            .intervals
            .iter()
            .rfind(|i| i.phase == crate::metrics::Phase::Warmup)
            .map_or(0.0, |i| i.tps),
        monitor_unflushed: report.pg_monitor_unflushed,
        cut_connections: client.cut_connections,
    });
    let checking = Checking {
        reports: &reports,
        per_target,
        targets,
        client,
        workload,
        ends: &ends,
    };
    checking.cross_check_targets(&mut s, summary);
    let mut reasons = verdict::reasons(&s);
    if !report.pg_other_clients.is_empty() && !targets.shared_data {
        // Their work reaches pg_stat_database only when they idle or exit: the count
        // cannot show a client still busy at the end, so its presence is the finding.
        reasons.push(format!(
            "another client used the server during the run: {} ran statements (PostgreSQL counts a busy session's transactions only when it idles or exits)",
            report.pg_other_clients.join(", ")
        ));
    }
    verdict::invalidate(result, reasons);
    verdict::conclude(result, s, &report.rows);
}

/// The first target's profiles, each with the finding of how much of the CPU the client
/// took where the server shares its host.
fn record_profiles(result: &mut RunResult, reports: &[crate::sampler::Report]) {
    let Some(r) = reports.first() else {
        return;
    };
    use crate::analysis::profile;
    let durability = result.server.durability();
    result.profiles = r
        .profiles
        .iter()
        .map(|(p, folded)| profile::of(p.clone(), folded, Some(&durability)))
        .collect();
    // The server's CPU is known when it runs on this host.
    let shares_host = r.measured.as_ref().is_some_and(|m| m.process.is_some());
    let client_pct = result.summary.as_ref().map_or(0.0, |s| s.client_cpu_pct);
    for p in &mut result.profiles {
        p.findings
            .extend(profile::client_finding(p, client_pct, shares_host));
    }
}

/// A shard's server figures: only what `merge` needs to divide and cross-check over all
/// shards, recorded by the first shard.
fn shard_figures(
    result: &mut RunResult,
    reports: &[crate::sampler::Report],
    targets: &Targets,
    workload: &dyn Workload,
) {
    let (Some(summary), Some(shard)) = (result.summary.as_mut(), result.shard.as_mut()) else {
        return;
    };
    // The server's counters hold every shard's work: divided by this shard's transactions
    // or compared with its count they would mislead. `merge` does both over all shards.
    let mut mode = workload.server_count();
    mode.statements &= !targets.shared_data;
    shard.server_count = Some(mode);
    let ends = ends_of(workload, summary.kinds.len(), 0);
    shard.commits = ends.commits;
    shard.autocommit_statements = ends.autocommit_statements;
    if let Some(r) = reports.first().filter(|_| shard.index == 1) {
        shard.server_measured = r.measured.clone().filter(|_| r.final_taken);
        // The merge cross-checks this shard's counts: without them it cannot.
        let why = r.checks_not_made();
        shard.opening_lag_s = r.opening_lag_s;
        // Its own block records only how the server was sampled.
        let mut block = crate::metrics::server::ServerSummary {
            duration_s: r.measured.as_ref().map_or(0.0, |m| m.secs),
            ..Default::default()
        };
        Sampling::of_report(r).record(&mut block);
        summary.server = Some(block);
        verdict::invalidate(
            result,
            why.map(|why| format!("the merge's cross-checks cannot be made: {why}")),
        );
    }
}

/// What the cross-checks of every target need.
struct Checking<'a> {
    reports: &'a [crate::sampler::Report],
    per_target: &'a [Summary],
    targets: &'a Targets,
    client: &'a ClientEnd,
    workload: &'a dyn Workload,
    ends: &'a Ends,
}

impl Checking<'_> {
    /// Each target's counts against what its virtual users ran. Only a phase bounded by
    /// samples on both sides, the last after every transaction ended, can be compared with
    /// txbench's count.
    fn cross_check_targets(&self, s: &mut ServerSummary, summary: &Summary) {
        let targets = self.targets;
        for (i, r) in self.reports.iter().enumerate() {
            let Some(m) = r.measured.as_ref().filter(|_| r.final_taken) else {
                if let Some(why) = r.checks_not_made() {
                    let line = targets::label(
                        targets,
                        i,
                        format!("the cross-checks were not made: {why}"),
                    );
                    if self.client.lost.get(i).copied().unwrap_or(false) {
                        // A target lost while others served is an event of the run already.
                        s.not_recorded
                            .push(format!("{line} (the target was lost during the run)"));
                    } else {
                        s.checks_not_made.push(line);
                    }
                }
                continue;
            };
            // Several targets: each its own users, and its own users in flight at the
            // opening (not every target's).
            let target_ends;
            let (own, ends) = if self.per_target.is_empty() {
                (summary, self.ends)
            } else {
                target_ends = Ends {
                    in_flight_at_open: self
                        .client
                        .in_flight_at_open
                        .get(i)
                        .cloned()
                        .unwrap_or_default(),
                    ..self.ends.clone()
                };
                (&self.per_target[i], &target_ends)
            };
            let mut mode = self.workload.server_count();
            if targets.shared_data {
                // A node's appliers count the other nodes' writes as its statements.
                mode.statements = false;
            }
            let mut checks = cross_checks(m, own, mode, ends, r.opening_lag_s);
            if targets.shared_data {
                // Each node's tables hold the whole cluster's New-Orders: the first node's
                // count against every target's.
                checks.retain(|c| !c.what.starts_with("New-Orders"));
                if i == 0 {
                    checks.extend(
                        cross_checks(m, summary, mode, self.ends, r.opening_lag_s)
                            .into_iter()
                            .filter(|c| c.what.starts_with("New-Orders")),
                    );
                }
            }
            for mut c in checks {
                if targets.urls.len() > 1 {
                    c.what = format!("target {}: {}", i + 1, c.what);
                }
                s.cross_checks.push(c);
            }
        }
    }
}

/// Per target (one: the run's), per kind by name: the measured phase's attempts that started
/// before it opened ([`crate::metrics::KindStats::opened_before`]), the kinds with none left
/// out.
pub(super) fn opened_before(
    cumulative: &Recorder,
    per_target: &[Recorder],
    names: &[String],
) -> Vec<InFlight> {
    let of = |r: &Recorder| {
        InFlight::by_kind(
            names
                .iter()
                .zip(&r.kinds)
                .filter(|(_, k)| k.opened_before > 0)
                .map(|(n, k)| (n.clone(), k.opened_before))
                .collect(),
        )
    };
    if per_target.is_empty() {
        vec![of(cumulative)]
    } else {
        per_target.iter().map(of).collect()
    }
}

/// What the client knows at the end of a run that the cross-checks use.
pub(super) struct ClientEnd {
    /// Targets lost during the run (several targets: an event).
    pub(super) lost: Vec<bool>,
    /// PostgreSQL: the most transactions a connection's preparation ended.
    pub(super) pg_setup: u64,
    /// PostgreSQL: statements prepared outside a transaction over the run.
    pub(super) pg_prepares_alone: u64,
    /// Per target, per kind: the measured attempts that started before the measured phase
    /// opened (in flight at the opening sample).
    pub(super) in_flight_at_open: Vec<InFlight>,
    /// Connections the end of the run opened to cut users still inside a transaction.
    pub(super) cut_connections: u64,
}

impl ClientEnd {
    /// Every target's attempts in flight at the opening, by kind.
    fn in_flight(&self) -> InFlight {
        InFlight::sum(&self.in_flight_at_open)
    }
}
