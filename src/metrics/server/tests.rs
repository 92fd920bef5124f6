//! Unit tests of `metrics/server.rs`, beside it so the subject stays readable.

use super::*;
use crate::metrics::Phase;

fn sample(t: f64, status: &[(&str, f64)]) -> RawSample {
    RawSample {
        t,
        status: status.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..RawSample::default()
    }
}

#[test]
fn a_counter_missing_from_one_sample_is_carried_not_reset() {
    let mut a = sample(0.0, &[("com_commit", 100.0), ("threads_running", 3.0)]);
    a.workload.insert("new_orders".into(), 5000.0);
    // The next sample read NULL for the count and lost a status counter.
    let mut b = sample(1.0, &[("threads_running", 4.0)]);
    let carried = b.carry_missing_counters(&a);
    assert_eq!(carried, vec!["com_commit".to_string(), "new_orders".into()]);
    let mut c = sample(2.0, &[("com_commit", 180.0), ("threads_running", 2.0)]);
    c.workload.insert("new_orders".into(), 5100.0);
    assert!(c.carry_missing_counters(&b).is_empty());
    let (ab, bc) = (Delta::between(&a, &b), Delta::between(&b, &c));
    assert_eq!(ab.workload.get("new_orders"), Some(&0.0));
    assert_eq!(bc.workload.get("new_orders"), Some(&100.0));
    assert_eq!(ab.status("com_commit"), Some(0.0));
    assert_eq!(bc.status("com_commit"), Some(80.0));
    // A gauge is not carried: a missing gauge is unknown, not the last value.
    let mut d = sample(3.0, &[]);
    d.carry_missing_counters(&c);
    assert!(!d.status.contains_key("threads_running"));
}

#[test]
fn counters_become_rates_and_gauges_stay_values() {
    let a = sample(
        0.0,
        &[
            ("com_commit", 100.0),
            ("threads_running", 3.0),
            ("innodb_row_lock_waits", 10.0),
            ("innodb_row_lock_time", 50.0),
        ],
    );
    let b = sample(
        2.0,
        &[
            ("com_commit", 300.0),
            ("threads_running", 5.0),
            ("innodb_row_lock_waits", 14.0),
            ("innodb_row_lock_time", 70.0),
        ],
    );
    let d = Delta::between(&a, &b);
    let row = ServerRow::of(Phase::Measure, &d, 2.0);
    assert_eq!(row.get("commits_per_s"), Some(100.0));
    assert_eq!(row.get("threads_running"), Some(5.0));
    assert_eq!(row.get("row_lock_waits_per_s"), Some(2.0));
    assert_eq!(row.get("row_lock_time_ms_avg"), Some(5.0));
    // Nothing of the host was sampled: empty, not zero.
    assert_eq!(row.get("server_cpu_pct"), None);
    assert_eq!(row.get("page_splits_per_s"), None);
}

#[test]
fn every_column_is_documented() {
    let doc = include_str!("../../../docs/server-metrics.md");
    for c in COLUMNS {
        assert!(
            doc.contains(&format!("| `{}` | {} |", c.name, c.doc)),
            "docs/server-metrics.md lacks {}",
            c.name
        );
    }
}

#[test]
fn why_ranks_figures_by_relative_change() {
    let mut a = ServerSummary::default();
    let mut b = ServerSummary::default();
    a.per_transaction.insert("server_cpu_ms".into(), 2.0);
    b.per_transaction.insert("server_cpu_ms".into(), 2.2);
    a.per_transaction.insert("page_splits".into(), 0.1);
    b.per_transaction.insert("page_splits".into(), 0.5);
    a.per_transaction.insert("bp_reads".into(), 0.0);
    b.per_transaction.insert("bp_reads".into(), 3.0);
    a.averages.insert("threads_running".into(), 4.0);
    b.averages.insert("threads_running".into(), 4.0);
    let w = why(&a, &b);
    let names: Vec<&str> = w.iter().map(|r| r.figure.as_str()).collect();
    assert_eq!(
        names,
        [
            "per transaction: bp_reads",
            "per transaction: page_splits",
            "per transaction: server_cpu_ms",
        ],
        "levels (averages) are not per-transaction figures: left out"
    );
    assert!((w[1].change_pct.unwrap() - 400.0).abs() < 1e-9);
    assert_eq!(w[0].change_pct, None);
}

#[test]
fn a_reset_counter_counts_from_zero() {
    let a = sample(0.0, &[("com_commit", 1000.0)]);
    let b = sample(1.0, &[("com_commit", 40.0)]);
    assert_eq!(Delta::between(&a, &b).status("com_commit"), Some(40.0));
}

#[test]
fn process_host_and_disk_figures() {
    let mut a = sample(0.0, &[]);
    let mut b = sample(2.0, &[]);
    a.process = Some(ProcessStat {
        user_s: 1.0,
        sys_s: 1.0,
        rss_bytes: 1.0,
        read_bytes: 0.0,
        write_bytes: 0.0,
    });
    b.process = Some(ProcessStat {
        user_s: 2.0,
        sys_s: 2.0,
        rss_bytes: 104857600.0,
        read_bytes: 0.0,
        write_bytes: 4.0 * 1048576.0,
    });
    a.host = Some(HostStat {
        cpus: 2.0,
        ..HostStat::default()
    });
    b.host = Some(HostStat {
        total_s: 4.0,
        busy_s: 3.0,
        iowait_s: 0.5,
        steal_s: 0.0,
        ctxt: 1000.0,
        cpus: 2.0,
    });
    a.disk = Some(DiskStat::default());
    b.disk = Some(DiskStat {
        flushes: 10.0,
        flush_ms: 25.0,
        write_bytes: 2.0 * 1048576.0,
        ..DiskStat::default()
    });
    let d = Delta::between(&a, &b);
    let row = ServerRow::of(Phase::Measure, &d, 2.0);
    // 2 CPU-seconds over 2 s on 2 CPUs: 50 %.
    assert_eq!(row.get("server_cpu_pct"), Some(50.0));
    assert_eq!(row.get("server_rss_mb"), Some(100.0));
    assert_eq!(row.get("server_write_mb_per_s"), Some(2.0));
    assert_eq!(row.get("host_cpu_busy_pct"), Some(75.0));
    assert_eq!(row.get("host_iowait_pct"), Some(12.5));
    assert_eq!(row.get("context_switches_per_s"), Some(500.0));
    assert_eq!(row.get("fsync_ms_avg"), Some(2.5));
    assert_eq!(row.get("fsyncs_per_s"), Some(5.0));
    assert_eq!(row.get("disk_write_mb_per_s"), Some(1.0));
}

#[test]
fn the_csv_reads_back_by_column_name() {
    let d = Delta::between(
        &sample(0.0, &[("com_commit", 0.0), ("threads_running", 1.0)]),
        &sample(1.0, &[("com_commit", 7.0), ("threads_running", 2.0)]),
    );
    let row = ServerRow::of(Phase::Warmup, &d, 1.0);
    let text = format!("{}{}", ServerRow::csv_header(), row.csv_line());
    let back = ServerRow::parse_csv(&text);
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].phase, Phase::Warmup);
    assert_eq!(back[0].get("commits_per_s"), Some(7.0));
    assert_eq!(back[0].get("threads_running"), Some(2.0));
    assert_eq!(back[0].get("page_splits_per_s"), None);
    // An older file with fewer columns.
    let old = "phase,start_s,end_s,threads_running\nmeasure,0,1,4\n";
    assert_eq!(
        ServerRow::parse_csv(old)[0].get("threads_running"),
        Some(4.0)
    );
}

#[test]
fn checkpoint_age_and_history_from_either_source() {
    let a = sample(0.0, &[]);
    let mut b = sample(
        1.0,
        &[
            ("innodb_checkpoint_age", 75.0),
            ("innodb_checkpoint_max_age", 100.0),
        ],
    );
    b.innodb.insert("trx_rseg_history_len".into(), 1234.0);
    let row = ServerRow::of(Phase::Measure, &Delta::between(&a, &b), 1.0);
    assert_eq!(row.get("checkpoint_age_pct"), Some(75.0));
    assert_eq!(row.get("history_list_length"), Some(1234.0));
}

#[test]
fn summed_deltas_give_per_transaction_figures_and_peaks() {
    let s0 = sample(
        0.0,
        &[("innodb_row_lock_waits", 0.0), ("threads_running", 1.0)],
    );
    let s1 = sample(
        1.0,
        &[("innodb_row_lock_waits", 30.0), ("threads_running", 9.0)],
    );
    let s2 = sample(
        2.0,
        &[("innodb_row_lock_waits", 50.0), ("threads_running", 3.0)],
    );
    let d1 = Delta::between(&s0, &s1);
    let d2 = Delta::between(&s1, &s2);
    let mut m = d1.clone();
    m.add(&d2);
    assert_eq!(m.status("innodb_row_lock_waits"), Some(50.0));
    let rows = vec![
        ServerRow::of(Phase::Measure, &d1, 1.0),
        ServerRow::of(Phase::Measure, &d2, 2.0),
    ];
    let s = ServerSummary::of(&m, &rows, 100, Some(40));
    assert_eq!(s.per_transaction["row_lock_waits"], 0.5);
    assert_eq!(s.per_new_order["row_lock_waits"], 1.25);
    assert_eq!(s.peaks["threads_running"], 9.0);
    assert_eq!(s.averages["threads_running"], 6.0);
    assert_eq!(s.duration_s, 2.0);
    let s = ServerSummary::of(&m, &rows, 100, None);
    assert!(s.per_new_order.is_empty());
}

#[test]
fn cross_check_allows_small_and_explained_differences() {
    // 2 % of 10,000 plus the slack.
    assert!(CrossCheck::new("transactions", 10_150.0, 10_000.0, 0.0).agrees);
    assert!(!CrossCheck::new("transactions", 10_250.0, 10_000.0, 0.0).agrees);
    assert!(CrossCheck::new("transactions", 10_250.0, 10_000.0, 60.0).agrees);
    // Short runs: at least 10.
    assert!(CrossCheck::new("transactions", 58.0, 50.0, 0.0).agrees);
    let c = CrossCheck::new("transactions", 15_000.0, 10_000.0, 0.0);
    let r = c.reason().unwrap();
    assert!(
        r.contains("15000") && r.contains("10000") && r.contains("+50.0 %"),
        "{r}"
    );
    // Fewer on the server is as suspicious as more.
    assert!(!CrossCheck::new("transactions", 5_000.0, 10_000.0, 0.0).agrees);
}
