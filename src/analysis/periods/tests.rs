use super::*;
use crate::metrics::server::COLUMNS;

fn interval(i: usize, tps: f64, p95: f64) -> IntervalRow {
    let start = i as f64 * 10.0;
    crate::analysis::sim::interval_row(Phase::Measure, start, start + 10.0, tps, p95)
}

fn server(i: usize, vals: &[(&str, f64)]) -> ServerRow {
    ServerRow {
        phase: Phase::Measure,
        start_s: i as f64 * 10.0,
        end_s: (i + 1) as f64 * 10.0,
        values: COLUMNS
            .iter()
            .map(|c| vals.iter().find(|(n, _)| *n == c.name).map(|(_, v)| *v))
            .collect(),
    }
}

fn tps(i: &IntervalRow) -> f64 {
    i.tps
}

fn given(period_s: Option<f64>) -> Given<'static> {
    Given {
        period_s,
        unit: "tps",
        throughput: &tps,
        cpus: 2.0,
    }
}

/// 12 intervals of 10 s: throughput falling from 1000 to 450 tps while the history list
/// grows and disk reads per transaction rise; lock waits per transaction stay.
fn falling() -> (Vec<IntervalRow>, Vec<ServerRow>) {
    let ints = (0..12)
        .map(|i| interval(i, 1000.0 - 50.0 * i as f64, 2.0 + i as f64))
        .collect();
    let rows = (0..12)
        .map(|i| {
            let tps = 1000.0 - 50.0 * i as f64;
            server(
                i,
                &[
                    ("history_list_length", 1000.0 + 2000.0 * i as f64),
                    ("bp_reads_per_s", tps * (0.1 + 0.1 * i as f64)),
                    ("row_lock_waits_per_s", tps * 0.05),
                    ("server_cpu_pct", 50.0),
                ],
            )
        })
        .collect();
    (ints, rows)
}

#[test]
fn a_falling_run_is_cut_into_periods_and_names_what_rose() {
    let (ints, rows) = falling();
    let p = cut(&ints, &rows, &given(Some(30.0))).unwrap();
    assert_eq!(p.periods.len(), 4);
    assert_eq!((p.periods[0].start_s, p.periods[0].end_s), (0.0, 30.0));
    // Intervals 0..3: 1000, 950, 900 tps.
    assert!((p.periods[0].throughput - 950.0).abs() < 1e-9);
    assert!((p.periods[0].p95_ms - 3.0).abs() < 1e-9);
    // Lock waits per transaction: 0.05 in every period.
    assert!((p.periods[3].server["lock_waits"] - 0.05).abs() < 1e-9);
    // Server CPU: 50 % of 2 CPUs is 1 CPU second per second, over 950 tps.
    assert!((p.periods[0].server["server_cpu_ms"] - 1000.0 / 950.0).abs() < 1e-3);
    let names: Vec<&str> = p.moved.iter().map(|m| m.name.as_str()).collect();
    assert!(names.contains(&"history_list_length"), "{names:?}");
    assert!(names.contains(&"disk_reads"), "{names:?}");
    assert!(!names.contains(&"lock_waits"), "{names:?}");
    // Server CPU per transaction rose too (the same CPU over fewer transactions).
    assert!(names.contains(&"server_cpu_ms"), "{names:?}");
    // The largest rise first: the history list ×7 (3,000 → 21,000), disk reads ×5.6.
    assert_eq!(names[0], "history_list_length", "{:?}", p.moved);
}

#[test]
fn no_table_without_a_period_in_a_short_run_or_with_too_few_periods() {
    let (ints, rows) = falling();
    assert!(cut(&ints, &rows, &given(None)).is_none());
    // 120 s in periods of 60 s: two periods.
    assert!(cut(&ints, &rows, &given(Some(60.0))).is_none());
    // Periods of 40 s: three.
    assert_eq!(
        cut(&ints, &rows, &given(Some(40.0))).unwrap().periods.len(),
        3
    );
    // Without server rows: the throughput still, no figures and nothing named.
    let p = cut(&ints, &[], &given(Some(30.0))).unwrap();
    assert!(p.periods.iter().all(|x| x.server.is_empty()) && p.moved.is_empty());
}

#[test]
fn a_run_of_hours_is_cut_into_hours_by_default() {
    // 3 hours of 10-s intervals.
    let ints: Vec<IntervalRow> = (0..1080).map(|i| interval(i, 500.0, 1.0)).collect();
    let p = cut(&ints, &[], &given(None)).unwrap();
    assert_eq!((p.period_s, p.periods.len()), (3600.0, 3));
}

#[test]
fn a_rise_below_the_floor_or_a_short_last_period_is_not_named() {
    // A history list from 10 to 100: ×10, below its floor of 1,000.
    let ints: Vec<IntervalRow> = (0..9).map(|i| interval(i, 100.0, 1.0)).collect();
    let rows: Vec<ServerRow> = (0..9)
        .map(|i| server(i, &[("history_list_length", 10.0 + 11.25 * i as f64)]))
        .collect();
    let p = cut(&ints, &rows, &given(Some(30.0))).unwrap();
    assert!(p.moved.is_empty(), "{:?}", p.moved);
    // 100 s in periods of 30 s: the fourth (10 s) is too short to stand for the end, so
    // the third is compared with the first.
    let ints: Vec<IntervalRow> = (0..10).map(|i| interval(i, 100.0, 1.0)).collect();
    let rows: Vec<ServerRow> = (0..10)
        .map(|i| {
            let h = if i == 9 { 50_000.0 } else { 2000.0 };
            server(i, &[("history_list_length", h)])
        })
        .collect();
    let p = cut(&ints, &rows, &given(Some(30.0))).unwrap();
    assert_eq!(p.periods.len(), 4);
    assert!(p.moved.is_empty(), "{:?}", p.moved);
}
