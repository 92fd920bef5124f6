//! This process's share of a level: its part of the virtual users (every one, or a shard's),
//! the targets and whether they hold the same data, and the placement facts of the
//! pre-flight (the driver's CPUs, the server's CPUs and binary when it runs here).

use super::{Choice, Plan};
use crate::driver;
use crate::engine::{self, TargetUrl};
use crate::error::Failure;
use crate::workload::{oltp, tpcb, tpcc};
use anyhow::{Context, Result};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// This process's part of the run: every virtual user, or shard `shard`'s (its users, its
/// share of --events and --rate, its record); `start_at` in the server's clock, `clock` the
/// server's offset and round trip.
pub(super) fn shard_part(
    workload: &dyn crate::workload::Workload,
    plan: &Plan,
    threads: u32,
    shard: Option<crate::shard::Shard>,
    start_at: Option<SystemTime>,
    clock: Option<(f64, f64)>,
) -> Result<driver::Part> {
    let (offset, rtt) = clock.unwrap_or((0.0, 0.0));
    // The server's clock ahead of ours by `offset`: its start comes that much earlier here.
    let local_start = start_at.map(|t| {
        let o = Duration::from_secs_f64(offset.abs());
        if offset >= 0.0 { t - o } else { t + o }
    });
    let Some(s) = shard else {
        return Ok(driver::Part {
            users: (0..threads).collect(),
            events: plan.driver.events,
            rate: plan.driver.rate,
            start_at: local_start,
            shard: None,
        });
    };
    let users = workload
        .shard_users(threads, s)
        .map_err(|e| Failure::Usage(format!("--shard {s}: {e}")))?;
    let counts: Vec<u32> = (1..=s.count)
        .map(|k| {
            workload
                .shard_users(threads, crate::shard::Shard { index: k, ..s })
                .map(|u| u.len() as u32)
        })
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::Usage(format!("--shard {s}: {e}")))?;
    let events = plan.driver.events.map(|e| s.part_of(e, &counts));
    let rate = plan
        .driver
        .rate
        .map(|r| r * users.len() as f64 / f64::from(threads.max(1)));
    Ok(driver::Part {
        events,
        rate,
        start_at: local_start,
        shard: Some(crate::results::ShardRecord {
            index: s.index,
            count: s.count,
            users: users.clone(),
            events,
            rate,
            start_unix_s: 0.0,
            clock_offset_s: offset,
            clock_rtt_s: rtt,
            server_measured: None,
            opening_lag_s: 0.0,
            in_flight_at_open: 0,
            in_flight_by_kind: Default::default(),
            server_count: None,
            commits: Vec::new(),
            autocommit_statements: Vec::new(),
        }),
        users,
    })
}

/// Checks that every other target holds the first's workload data (TPC-C's warehouses,
/// TPC-B's scale, the oltp tables), as the first was checked; every TPC-C table set of each
/// is made ready as the first's were (no longer in its initial state, its procedures
/// recreated with `--procedures`). Says which targets are Galera nodes, and whether all are
/// nodes of one cluster naming one database (so counts kept in its tables are the
/// cluster's, not each node's).
pub(super) fn other_targets_ready(
    choice: &Choice,
    targets: &[TargetUrl],
) -> Result<driver::Targets> {
    let (first, others) = (&targets[0], &targets[1..]);
    let galera =
        |t: &TargetUrl| -> Result<bool> { crate::topology::is_galera(&mut engine::connect(t)?) };
    let mut out = driver::Targets {
        urls: targets.to_vec(),
        shared_data: false,
        galera: targets.iter().map(galera).collect::<Result<_>>()?,
    };
    if others.is_empty() {
        return Ok(out);
    }
    // Each target described, the others also made ready as the first one was (by the run's
    // level), every table set of it: the targets must hold the same data.
    let shape = |t: &TargetUrl, make_ready: bool| -> Result<String> {
        let mut conn = engine::connect(t)?;
        // A Galera node may still be applying the load: read after it (causal reads).
        crate::topology::causal_reads(&mut conn);
        Ok(match choice {
            Choice::Tpcc {
                warehouses,
                table_sets,
                options,
                ..
            } => {
                let sets = tpcc::sets::resolve(&mut conn, *table_sets)?;
                let states = tpcc::sets::ready_all(t, &sets, *warehouses)?;
                for (k, st) in (1..).zip(&states).filter(|_| make_ready) {
                    let mut conn = sets.connect(t, k)?;
                    crate::topology::causal_reads(&mut conn);
                    tpcc::run::ready_to_run(&mut conn, options, st)
                        .with_context(|| format!("table {}", sets.name(k)))?;
                }
                // The terminals enter set k by the first target's name for it (as the
                // server-side counts do): every target must call it the same.
                let named = if sets.count > 1 {
                    format!(", set 2 in schema {}", sets.schema(2))
                } else {
                    String::new()
                };
                format!(
                    "{} warehouse(s), --null-dates {}, {} table set(s){named}",
                    states[0].warehouses,
                    states[0].null_dates.name(),
                    sets.count
                )
            }
            Choice::Tpcb { scale, .. } => {
                let st = tpcb::ready(&mut conn, *scale)?;
                format!(
                    "scale {}, --history-key {}",
                    st.scale,
                    st.history_key.name()
                )
            }
            Choice::Oltp(_, o) => {
                oltp::ready(&mut conn, o, choice.name())?;
                String::new()
            }
            // A script's data is the script's: txbench cannot describe it.
            Choice::Lua { .. } => String::new(),
            // A script's data is the database's own: nothing to compare.
            Choice::Script(_) => String::new(),
        })
    };
    let want = shape(first, false)?;
    let cluster = crate::topology::cluster_of(&mut engine::connect(first)?);
    let mut shared = cluster.is_some();
    for t in others {
        let has = shape(t, true).with_context(|| format!("target {t}"))?;
        let mut c = engine::connect(t)?;
        if has != want {
            anyhow::bail!(
                "target {t} holds {has}, the first target {want}: every target needs the same data"
            );
        }
        // One database on nodes of one cluster: another database is data of its own.
        shared &= cluster.is_some()
            && t.database == first.database
            && crate::topology::cluster_of(&mut c) == cluster;
    }
    out.shared_data = shared;
    Ok(out)
}

/// The pre-flight's placement facts: the driver's CPUs, and when the server runs on this
/// host (its pid file names a live process) its CPUs and its binary with the SHA-256, so a
/// run records which build it measured. What cannot be read is left out.
pub(super) fn placement_facts(
    conn: &mut crate::engine::Conn,
    url: &TargetUrl,
    p: &mut crate::preflight::Preflight,
) {
    use crate::server::{binary, placement};
    p.host.insert(
        "driver_cpus".into(),
        placement::format_list(&placement::host_cpus()),
    );
    if !url.is_local() {
        return;
    }
    let Ok(Some((pid_file, datadir))) =
        conn.query_first::<(String, String)>(match conn.engine() {
            engine::Engine::Mysql => "SELECT @@pid_file, @@datadir",
            // postmaster.pid in the data directory: its first line is the pid.
            engine::Engine::Postgres => {
                "SELECT current_setting('data_directory') || '/postmaster.pid', current_setting('data_directory')"
            }
        })
    else {
        return;
    };
    let path = if Path::new(&pid_file).is_absolute() {
        std::path::PathBuf::from(&pid_file)
    } else {
        Path::new(&datadir).join(&pid_file)
    };
    let Ok(pid) = crate::sampler::host::server_pid(&path) else {
        return;
    };
    if let Some(c) = placement::cpus_allowed(pid) {
        p.host.insert("server_cpus".into(), c);
    }
    // The build is recorded only for the process clients reach here (it holds the listening
    // socket), as the sampler checks: a pid file can name any process whose name says
    // "mysqld", and the program recorded is the one `history --confirm` runs.
    use crate::sampler::host::{holds_socket, listening_inodes};
    if !holds_socket(pid, &listening_inodes(url)).unwrap_or(false) {
        return;
    }
    // A sandbox's build is the program its `server start --binary` named (a wrapper script
    // that execs the server with other options is a build of its own): that is what
    // `history --confirm` starts again. Its start hashed it (the build that runs, even if
    // the file was replaced since): hashing it again cost each run 13 ms of client CPU.
    let sandbox = crate::server::StateDir::from_env()
        .and_then(|home| crate::server::list(&home))
        .ok()
        .and_then(|all| {
            all.into_iter()
                .find(|s| is_this_sandbox(&s.record, pid, Path::new(&datadir)))
        });
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
    let (binary, sha) = match &sandbox {
        Some(s) => {
            p.host
                .insert("server_sandbox".into(), s.record.name.clone());
            let given = &s.record.binary;
            if let Some(exe) = exe.as_ref().filter(|e| *e != given) {
                p.host
                    .insert("server_exe".into(), exe.display().to_string());
            }
            let sha = s.record.binary_sha256.clone();
            (
                Some(given.clone()),
                sha.or_else(|| binary::sha256(given).ok()),
            )
        }
        None => {
            let sha = exe
                .as_ref()
                .and_then(|_| binary::sha256(Path::new(&format!("/proc/{pid}/exe"))).ok());
            (exe, sha)
        }
    };
    if let Some(binary) = binary {
        p.host
            .insert("server_binary".into(), binary.display().to_string());
    }
    if let Some(sha) = sha {
        p.host.insert("server_binary_sha256".into(), sha);
    }
}

/// Whether `record` is the sandbox of the server that runs as `pid` and says its data
/// directory is `datadir`: a pid alone may be a stale record's, reused by another server
/// since, which would take on the sandbox's build.
fn is_this_sandbox(record: &crate::server::ServerRecord, pid: i32, datadir: &Path) -> bool {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a.components().eq(b.components()),
    };
    record.pid == Some(pid) && same(&record.datadir(), datadir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_is_its_server_by_pid_and_data_directory() {
        let mut r = crate::server::ServerRecord::for_tests();
        r.pid = Some(4242);
        let data = r.datadir();
        assert!(is_this_sandbox(&r, 4242, &data));
        // MariaDB's @@datadir ends with a slash.
        let slashed = format!("{}/", data.display());
        assert!(is_this_sandbox(&r, 4242, Path::new(&slashed)));
        // Its pid reused by another server since it died: another data directory.
        assert!(!is_this_sandbox(&r, 4242, Path::new("/var/lib/mysql")));
        assert!(!is_this_sandbox(&r, 4243, &data));
        r.pid = None;
        assert!(!is_this_sandbox(&r, 4242, &data));
    }
}
