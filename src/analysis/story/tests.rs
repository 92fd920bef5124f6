use super::*;
use crate::analysis::changepoint::Change;
use crate::analysis::compare::Side;
use crate::analysis::history::{Point, Step};
use crate::analysis::stats::Difference;

fn side(valid: bool, d: Option<(f64, (f64, f64), Verdict)>) -> Side {
    Side {
        tps: 100.0,
        summary_tps: 100.0,
        figure: 100.0,
        unit: "tps",
        p95_ms: 1.0,
        p99_ms: 2.0,
        intervals: 10,
        valid,
        status: "completed",
        withheld: None,
        vs_base: d.map(|(pct, ci, verdict)| Difference {
            diff: pct,
            ci,
            deviation_pct: pct,
            ci_pct: ci,
            verdict,
        }),
        why: Vec::new(),
    }
}

fn row(threads: u32, new: Side) -> Row {
    Row {
        threads,
        base: side(true, None),
        new: vec![Some(new)],
    }
}

#[test]
fn a_comparison_names_each_verdict_and_the_largest_decided_change() {
    let rows = [
        row(4, side(true, Some((-3.0, (-4.0, -2.0), Verdict::Slower)))),
        row(8, side(true, Some((-9.5, (-12.0, -7.0), Verdict::Slower)))),
        row(
            16,
            side(
                true,
                Some((1.0, (-2.0, 4.0), Verdict::NoSignificantDifference)),
            ),
        ),
        row(32, side(false, Some((50.0, (40.0, 60.0), Verdict::Faster)))),
    ];
    let lines = comparison(&rows, &["NEW1".into()], &[]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let l = &lines[0];
    assert!(
        l.starts_with("NEW1 against BASE: slower at 4, 8 thread(s)"),
        "{l}"
    );
    assert!(
        l.contains("no significant difference at 16 thread(s)"),
        "{l}"
    );
    // An INVALID NEW gives no verdict, however large its change.
    assert!(l.contains("no verdict at 32"), "{l}");
    assert!(
        l.contains("Largest: -9.5 % tps [-12.0, -7.0] at 8 threads"),
        "{l}"
    );
}

#[test]
fn an_invalid_base_is_said_first() {
    let mut r = row(8, side(true, None));
    r.base.valid = false;
    let lines = comparison(&[r], &["NEW1".into()], &[]);
    assert!(
        lines[0].starts_with("BASE is INVALID at 8 thread(s)"),
        "{lines:?}"
    );
    assert!(lines[1].contains("no verdict at 8"), "{lines:?}");
}

fn history_of(values: &[f64], steps: Vec<Step>) -> History {
    History {
        identity: "abc".into(),
        workload: "tpcb".into(),
        threads: 4,
        name: "tpcb".into(),
        options: "{}".into(),
        figure: "tps".into(),
        higher_is_better: true,
        points: values
            .iter()
            .enumerate()
            .map(|(i, v)| Point {
                dir: format!("r{i}"),
                started_at: format!("2026-11-0{}", i + 1),
                label: None,
                value: *v,
            })
            .collect(),
        left_out: vec!["bad".into()],
        steps,
    }
}

#[test]
fn a_history_tells_its_latest_value_and_last_regression() {
    let step = Step {
        change: Change {
            index: 2,
            p_value: 0.004,
            before: 1000.0,
            after: 880.0,
            step_pct: -12.0,
            interval_pct: Some((-15.0, -9.0)),
        },
        first_after: "2026-11-03".into(),
        regression: true,
    };
    let lines = history(&history_of(&[1000.0, 1000.0, 880.0, 880.0], vec![step]));
    assert_eq!(
        lines[0],
        "Latest tps: 880 (2026-11-04), over 4 valid run(s)."
    );
    assert_eq!(
        lines[1],
        "A regression at 2026-11-03: 1000 → 880 (-12.0 % [-15.0, -9.0], p 0.004)."
    );
    assert!(lines[2].starts_with("1 INVALID or unfinished run(s) left out"));
    let flat = history(&history_of(&[5.0, 5.1], Vec::new()));
    assert_eq!(
        flat[1],
        "No change point found: no step stands out of the series' noise."
    );
    assert!(history(&history_of(&[], Vec::new()))[0].starts_with("No valid run has tps"));
}

#[test]
fn the_usl_names_what_limits_the_curve() {
    let contention = Usl {
        lambda: 100.0,
        sigma: 0.2,
        kappa: 0.0,
        peak_n: None,
        peak_x: None,
        r2: 0.99,
    };
    assert!(usl_line(&contention, "tps").contains("contention (serialisation, σ)"));
    let coherency = Usl {
        kappa: 0.05,
        peak_n: Some(4.0),
        peak_x: Some(12_345.0),
        ..contention
    };
    let l = usl_line(&coherency, "tps");
    assert!(l.contains("coherency (crosstalk, κ)"), "{l}");
    assert!(l.contains("its fitted peak 12,345 tps at 4 threads"), "{l}");
}

#[test]
fn rates_are_grouped_and_small_ones_keep_a_decimal() {
    assert_eq!(rate(45_678.4, "NOPM"), "45,678 NOPM");
    assert_eq!(rate(12.34, "tps"), "12.3 tps");
    assert_eq!(
        first_of(&["a".into(), "b".into(), "c".into()], 2),
        "a; b (and 1 more)"
    );
}

fn level(threads: u32, tps: f64, p95: f64, valid: bool) -> SweepLevel {
    SweepLevel {
        threads,
        dir: format!("t{threads:05}"),
        status: crate::results::RunStatus::Completed,
        valid,
        reasons: if valid {
            Vec::new()
        } else {
            vec!["errors 12 %".into()]
        },
        tps,
        nopm: None,
        tpm: None,
        p95_ms: p95,
        p99_ms: p95 * 2.0,
        errors: 0,
    }
}

#[test]
fn a_sweep_tells_its_peak_its_fall_and_its_invalid_levels() {
    let levels = [
        level(1, 1000.0, 1.0, true),
        level(2, 1900.0, 1.1, true),
        level(4, 3400.0, 1.3, true),
        level(8, 3000.0, 3.0, true),
        level(16, 9000.0, 2.0, false),
    ];
    let lines = sweep(&levels);
    assert_eq!(
        lines[0],
        "INVALID levels, left out of what follows: 16 threads (errors 12 %)."
    );
    // The INVALID level's 9,000 tps is not the peak.
    assert_eq!(
        lines[1],
        "Peak: 3,400 tps at 4 threads (p95 1.30 ms), 3.4× the 1,000 tps of 1 thread(s) with 4× the threads."
    );
    assert!(
        lines[2].starts_with(
            "Past the peak, more threads cost throughput: 3,000 tps at 8 threads (-11.8 %)"
        ),
        "{lines:?}"
    );
    assert!(
        lines[3].starts_with("The Universal Scalability Law fits"),
        "{lines:?}"
    );
    let rising = sweep(&[level(4, 100.0, 1.0, true), level(8, 150.0, 2.0, true)]);
    assert_eq!(
        rising[1],
        "The peak is at the most threads measured: more than 8 may go higher."
    );
    let flat = sweep(&[level(4, 100.0, 1.0, true), level(8, 99.0, 2.0, true)]);
    assert!(
        flat[1].contains("throughput holds (-1.0 % at 8 threads)"),
        "{flat:?}"
    );
    assert_eq!(
        sweep(&[level(4, 100.0, 1.0, false)])[1],
        "No valid level: the sweep has no figure to tell."
    );
}

#[test]
fn a_profiled_comparison_names_what_moved_in_the_server() {
    use crate::analysis::profile::{FnDiff, ProfileDiff};
    let row = |name: &str, base: f64, new: f64| FnDiff {
        name: name.into(),
        base_pct: base,
        new_pct: new,
        base_ms: None,
        new_ms: None,
    };
    let moved = ProfileDiff {
        subsystems: vec![row("btr (B-tree)", 12.0, 30.5), row("net", 20.0, 20.4)],
        functions: vec![
            row("btr_page_reorganize_low", 0.1, 6.2),
            row("memcpy", 2.0, 2.3),
        ],
    };
    let still = ProfileDiff {
        subsystems: vec![row("net", 20.0, 20.4)],
        functions: Vec::new(),
    };
    let rows = [row_of(4)];
    let lines = comparison(
        &rows,
        &["NEW1".into(), "NEW2".into()],
        &[("NEW1".into(), moved), ("NEW2".into(), still)],
    );
    assert_eq!(
        lines[2],
        "NEW1's server CPU moved against BASE's: by subsystem btr (B-tree) 12.0 % → 30.5 %; functions (self) btr_page_reorganize_low 0.1 % → 6.2 %."
    );
    assert!(
        lines[3].starts_with("NEW2's server CPU is spread as BASE's"),
        "{lines:?}"
    );
}

fn row_of(threads: u32) -> Row {
    Row {
        threads,
        base: side(true, None),
        new: vec![
            Some(side(
                true,
                Some((1.0, (-1.0, 3.0), Verdict::NoSignificantDifference)),
            )),
            Some(side(
                true,
                Some((1.0, (-1.0, 3.0), Verdict::NoSignificantDifference)),
            )),
        ],
    }
}
