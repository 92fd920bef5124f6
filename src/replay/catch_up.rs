//! The catch-up's steps, in order: the replica settled (both threads running, nothing left
//! to apply), its applier stopped, the primary's run, the relay log fetched to the primary's
//! last transaction, the applier started and timed until it holds that transaction.

use super::{Leg, Members, Options, run_primary};
use crate::engine::mysql::{self as my, applier};
use crate::results::replay::{Backlog, CatchUp, PrimaryRun, Replay, per_minute};
use crate::topology::{binlog_gtid, gtid_distance};
use anyhow::{Context, Result, bail};
use mysql::prelude::Queryable;
use std::collections::BTreeMap;
use std::time::{Duration, Instant, SystemTime};

/// How often the applier's position is read while it catches up.
const POLL: Duration = Duration::from_millis(5);
/// How often, meanwhile, its thread is checked for having stopped.
const THREAD_CHECK: Duration = Duration::from_millis(500);

/// The whole measurement (module doc).
pub(super) fn measure(o: &Options, m: &Members, note: &dyn Fn(&str)) -> Result<Replay> {
    let mut p = my::connect(&m.primary.admin_url()).context("the primary")?;
    let mut r = my::connect(&m.replica.admin_url()).context("the replica")?;
    settle(&mut p, &mut r, &m.replica.name, o.timeout)?;
    let started_at = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let primary_before = new_orders(&mut p)?;
    applier::stop(&mut r)?;
    note(&format!(
        "replica {}: applier stopped; the primary runs TPC-C for {} s ({} thread(s){})",
        m.replica.name,
        o.time,
        o.threads,
        o.rate.map_or(String::new(), |r| format!(", --rate {r}"))
    ));
    let leg = Leg {
        dir: "run",
        label: "catch-up",
        rate: o.rate,
    };
    let loaded = run_primary(o, m, &leg).and_then(|run| {
        let target = binlog_gtid(&mut p)?.unwrap_or_default();
        let written = new_orders(&mut p)?.saturating_sub(primary_before);
        let fetch_wait_s = wait_fetched(&mut r, &target, o.timeout)?;
        Ok((run, target, written, fetch_wait_s))
    });
    let (run, target, written, fetch_wait_s) = match loaded {
        Ok(l) => l,
        Err(e) => {
            // The replica is left replicating, whatever became of the run.
            let _ = applier::start(&mut r);
            return Err(e);
        }
    };
    let before = Snapshot::take(&mut r)?;
    let backlog = gtid_distance(&target, &before.applied);
    note(&format!(
        "replica {}: {backlog} transaction(s) to apply; applier started",
        m.replica.name
    ));
    let applied = apply(&mut r, &target, o.timeout)?;
    let after = Snapshot::take(&mut r)?;
    let primary_run = primary_run(&run);
    let catch_up = CatchUp {
        seconds: applied.seconds,
        caught_up: applied.problem.is_none(),
        transactions: backlog.saturating_sub(gtid_distance(&target, &after.applied)),
        new_orders: after.new_orders.saturating_sub(before.new_orders),
        tpm: 0.0,
        nopm: 0.0,
        counters: after.counters_since(&before),
    };
    let mut out = Replay {
        primary: m.primary.name.clone(),
        replica: m.replica.name.clone(),
        started_at,
        run_dir: "run".into(),
        backlog: Backlog {
            transactions: backlog,
            new_orders: written,
            fetch_wait_s,
            written_per_minute: per_minute(backlog, primary_run.seconds),
        },
        primary_run,
        catch_up,
        ratio: None,
        valid: true,
        reasons: applied.problem.into_iter().collect(),
    };
    judge(&mut out, &run);
    Ok(out)
}

/// The run's figures a replay compares with.
pub(super) fn primary_run(run: &crate::results::RunResult) -> PrimaryRun {
    let s = run.summary.as_ref();
    let rate = run.workload_report.as_ref().and_then(|w| w.rate.as_ref());
    PrimaryRun {
        seconds: s.map_or(0.0, |s| s.duration_s),
        new_orders: s
            .and_then(|s| s.kinds.iter().find(|k| k.name == "new_order"))
            .map_or(0, |k| k.committed),
        nopm: rate.map_or(0.0, |r| r.per_minute),
        tpm: rate.map_or(0.0, |r| r.all_per_minute),
        valid: run.validity.valid,
    }
}

/// Rates, the ratio, and what makes the replay INVALID: a run that is, a catch-up that did
/// not finish, or New-Orders on the replica that are not the primary's.
fn judge(out: &mut Replay, run: &crate::results::RunResult) {
    let c = &mut out.catch_up;
    c.tpm = per_minute(c.transactions, c.seconds);
    c.nopm = per_minute(c.new_orders, c.seconds);
    out.ratio =
        (c.nopm > 0.0 && out.primary_run.nopm > 0.0).then_some(c.nopm / out.primary_run.nopm);
    if !run.validity.valid {
        out.reasons.push(format!(
            "the primary's run is INVALID: {}",
            run.validity.reasons.join("; ")
        ));
    }
    if c.caught_up && c.new_orders != out.backlog.new_orders {
        out.reasons.push(format!(
            "the replica applied {} New-Order(s) but the primary committed {}",
            c.new_orders, out.backlog.new_orders
        ));
    }
    if c.caught_up && c.transactions == 0 {
        out.reasons
            .push("the primary's run left the replica nothing to apply".into());
    }
    out.valid = out.reasons.is_empty();
}

/// Every committed New-Order advances its district's D_NEXT_O_ID by one (2.4.2.2).
pub(super) fn new_orders(conn: &mut mysql::Conn) -> Result<u64> {
    let n: Option<Option<i64>> = conn
        .query_first("SELECT CAST(SUM(d_next_o_id) AS SIGNED) FROM district")
        .context(
            "counting New-Orders (SUM(D_NEXT_O_ID)): is TPC-C prepared (`txbench prepare tpcc`)?",
        )?;
    Ok(n.flatten().unwrap_or(0).max(0) as u64)
}

/// Waits until the replica replicates and holds everything the primary wrote, so the
/// backlog is the run's alone.
pub(super) fn settle(
    p: &mut mysql::Conn,
    r: &mut mysql::Conn,
    name: &str,
    timeout: Duration,
) -> Result<()> {
    let target = binlog_gtid(p)?.unwrap_or_default();
    let t = Instant::now();
    loop {
        let s = applier::positions(r).with_context(|| format!("replica {name}"))?;
        if !s.io_running || !s.sql_running {
            bail!(
                "replica {name} is not replicating (IO thread {}, SQL thread {}{}): see `txbench server logs {name}`",
                running(s.io_running),
                running(s.sql_running),
                error_suffix(&s.error)
            );
        }
        let behind = gtid_distance(&target, &s.applied);
        if behind == 0 {
            return Ok(());
        }
        if t.elapsed() >= timeout {
            bail!(
                "replica {name} is still {behind} transaction(s) behind its primary after {} s: it must hold the primary's data before a replay",
                timeout.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until the IO thread has fetched `target` into the relay log: seconds waited.
fn wait_fetched(r: &mut mysql::Conn, target: &str, timeout: Duration) -> Result<f64> {
    let t = Instant::now();
    loop {
        let s = applier::positions(r)?;
        let behind = gtid_distance(target, &s.fetched);
        if behind == 0 {
            return Ok(t.elapsed().as_secs_f64());
        }
        if (!s.io_running && !s.error.is_empty()) || t.elapsed() >= timeout {
            bail!(
                "the replica's IO thread fetched all but {behind} transaction(s) of the primary's run within {:.0} s (IO thread {}{})",
                t.elapsed().as_secs_f64(),
                running(s.io_running),
                error_suffix(&s.error)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How the applier's catch-up went.
pub(super) struct Applied {
    /// Seconds from its start to the target (or to giving up).
    pub(super) seconds: f64,
    /// Why it did not reach the target.
    pub(super) problem: Option<String>,
}

/// Starts the applier and times it until @@gtid_slave_pos reaches `target`; it gives up
/// when the applier stops or after `timeout`.
fn apply(r: &mut mysql::Conn, target: &str, timeout: Duration) -> Result<Applied> {
    applier::start(r)?;
    wait_applied(r, target, timeout)
}

/// Times the running applier until @@gtid_slave_pos reaches `target`; it gives up when the
/// applier stops or after `timeout`.
pub(super) fn wait_applied(
    r: &mut mysql::Conn,
    target: &str,
    timeout: Duration,
) -> Result<Applied> {
    let t = Instant::now();
    let mut checked = Instant::now();
    loop {
        let pos = applier::applied(r)?;
        let seconds = t.elapsed().as_secs_f64();
        let behind = gtid_distance(target, &pos);
        if behind == 0 {
            return Ok(Applied {
                seconds,
                problem: None,
            });
        }
        if checked.elapsed() >= THREAD_CHECK {
            checked = Instant::now();
            let s = applier::positions(r)?;
            if !s.sql_running {
                return Ok(Applied {
                    seconds,
                    problem: Some(format!(
                        "the replica's applier stopped {seconds:.1} s into its catch-up, {behind} transaction(s) short{}",
                        error_suffix(&s.error)
                    )),
                });
            }
        }
        if t.elapsed() >= timeout {
            return Ok(Applied {
                seconds,
                problem: Some(format!(
                    "the replica had not caught up after {} s: {behind} transaction(s) left to apply",
                    timeout.as_secs()
                )),
            });
        }
        std::thread::sleep(POLL);
    }
}

/// The replica's counts at one end of the catch-up.
struct Snapshot {
    applied: String,
    new_orders: u64,
    counters: BTreeMap<String, u64>,
}

impl Snapshot {
    fn take(r: &mut mysql::Conn) -> Result<Snapshot> {
        Ok(Snapshot {
            applied: applier::applied(r)?,
            new_orders: new_orders(r)?,
            counters: applier::counters(r)?,
        })
    }

    fn counters_since(&self, before: &Snapshot) -> BTreeMap<String, u64> {
        self.counters
            .iter()
            .map(|(k, v)| {
                let was = before.counters.get(k).copied().unwrap_or(0);
                (k.clone(), v.saturating_sub(was))
            })
            .collect()
    }
}

fn running(yes: bool) -> &'static str {
    if yes { "running" } else { "stopped" }
}

fn error_suffix(e: &str) -> String {
    if e.is_empty() {
        String::new()
    } else {
        format!(": {e}")
    }
}
