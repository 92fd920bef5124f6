//! Unit tests of `experiment/summary.rs`: the lines built from constructed experiments,
//! no server.

use super::*;
use crate::analysis::profile::ProfileDiff;
use crate::experiment::{plan, tables};
use std::path::Path;

/// Seed 000's experiment: default against null-dates, TPC-C at 2 and 4 threads, 4 blocks.
fn null_dates() -> Experiment {
    null_dates_at("2,4")
}

/// [`null_dates`] at other levels: 4 threads as there, every other level as its 2 threads.
fn null_dates_at(threads: &str) -> Experiment {
    let text = r#"
baseline = "default"
threads = "LEVELS"
repetitions = 4
[[variant]]
name = "default"
[[variant]]
name = "null-dates"
[[workload]]
name = "tpcc"
"#;
    let f = Path::new("null-dates.toml");
    let text = text.replace("LEVELS", threads);
    let p = plan::parse(f, &text).unwrap().expand(f, None).unwrap();
    let mut e = Experiment::new(
        "null-dates".into(),
        None,
        String::new(),
        p,
        1,
        String::new(),
    );
    for c in &mut e.cells {
        let k = (c.repetition - 1) as usize;
        let null = c.variant == "null-dates";
        c.status = CellStatus::Done;
        // 4 threads: null dates ~7.5 % slower in every block; 2 threads: noise both ways.
        c.nopm = Some(match (c.threads, null) {
            (4, false) => [1000.0, 1040.0, 980.0, 1010.0][k],
            (4, true) => [915.0, 972.0, 902.0, 938.0][k],
            (_, false) => [600.0, 540.0, 660.0, 600.0][k],
            (_, true) => [650.0, 520.0, 580.0, 600.0][k],
        });
        c.tps = c.nopm.map(|n| n / 60.0 * 2.2);
        // Per New-Order: redo more than triples, page reorganisations go from 0.014 to 2.24
        // (less so at 2 threads), splits +20 %, rows scanned +3 %, CPU unchanged.
        let r = c.repetition as f64 - 2.5;
        let at4 = c.threads == 4;
        let figures: [(&str, f64); 5] = if null {
            [
                ("redo_bytes", if at4 { 5440.0 } else { 3000.0 } + 3.0 * r),
                ("page_reorgs", if at4 { 2.24 } else { 1.0 } + 0.01 * r),
                ("page_splits", if at4 { 0.108 } else { 0.099 } + 0.001 * r),
                ("rows_scanned", 10.3 + 0.01 * r),
                ("server_cpu_ms", 2.0 + 0.05 * (c.repetition % 2) as f64),
            ]
        } else {
            [
                ("redo_bytes", 1520.0 + r),
                ("page_reorgs", 0.014 + 0.0001 * r),
                ("page_splits", 0.09 + 0.001 * r),
                ("rows_scanned", 10.0 + 0.01 * r),
                (
                    "server_cpu_ms",
                    2.0 + 0.05 * ((c.repetition + 1) % 2) as f64,
                ),
            ]
        };
        c.per_new_order = figures.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        c.per_transaction = c.per_new_order.clone();
    }
    e.status = crate::results::RunStatus::Completed;
    e
}

fn summary(e: &Experiment) -> Vec<String> {
    lines(e, &tables(e), &[])
}

#[test]
fn a_decided_slowdown_and_an_undecided_level_are_one_sentence_with_their_intervals() {
    let l = summary(&null_dates());
    for line in &l {
        eprintln!("{line}");
    }
    let s = &l[0];
    assert!(
        s.starts_with("null-dates is 7.")
            && s.contains(" % slower than default at 4 threads (NOPM -7."),
        "{s}"
    );
    assert!(
        s.contains(", 95 %); no difference decided at 2 threads (NOPM -"),
        "{s}"
    );
    assert!(s.ends_with(", 95 %)."), "{s}");
    // Every cell ran and is valid; the level without a verdict states its noise floor: the
    // smallest effect 4 blocks could decide there, beside its cells' spread.
    assert_eq!(l.len(), 3, "{l:#?}");
    assert!(
        l[2].starts_with("Noise floor: with 4 block(s), only an effect beyond ±")
            && l[2].ends_with(
                " % could be decided at 2 threads (null-dates's cells there ranged 520 to 650 NOPM); at this noise ±5 % about 30 blocks, ±3 % about 82 blocks — or a quieter machine."
            ),
        "{}",
        l[2]
    );
}

#[test]
fn the_costs_that_moved_most_come_first_three_of_them_at_their_largest_level() {
    let l = summary(&null_dates());
    let costs = l
        .iter()
        .find(|l| l.starts_with("Server costs that moved most: "))
        .expect("a costs line");
    let at = |what: &str| {
        costs
            .find(what)
            .unwrap_or_else(|| panic!("{what} not in {costs}"))
    };
    // ×160 before ×3.6 before +20 %; rows scanned (+3 %) is the fourth, CPU did not change.
    let reorgs = at("page reorganisations per New-Order 0.014 → 2.24 (×160 [×");
    let redo = at("redo per New-Order +25");
    let splits = at("page splits per New-Order +");
    assert!(reorgs < redo && redo < splits, "{costs}");
    assert!(
        !costs.contains("rows scanned") && !costs.contains("CPU"),
        "{costs}"
    );
    // Each at the level where it moved most (4 threads, not 2), with its interval.
    assert!(costs.contains("(×1"), "{costs}");
    assert!(costs.contains("[×1"), "{costs}");
    assert!(costs.contains(" (1520 → 5440 B) at 4 threads"), "{costs}");
    assert!(!costs.contains("at 2 threads"), "{costs}");
    assert_eq!(costs.matches("at 4 threads").count(), 3, "{costs}");
}

#[test]
fn no_difference_anywhere_is_said_as_such() {
    let mut e = null_dates();
    no_difference(&mut e);
    let l = summary(&e);
    assert_eq!(l.len(), 2, "no costs recorded, no costs line: {l:#?}");
    assert!(l[1].starts_with("Noise floor: "), "{l:#?}");
    assert!(
        l[0].starts_with("null-dates against default: no difference decided at 2 threads (NOPM ")
            && l[0].contains(", 95 %) and at 4 threads (NOPM "),
        "{}",
        l[0]
    );
    // Many levels without a verdict: their intervals summed up as one range.
    let mut e = null_dates_at("1,2,4,8");
    no_difference(&mut e);
    let l = summary(&e);
    assert!(
        l[0].starts_with("null-dates against default: no difference decided at 1, 2, 4 and 8 threads (NOPM intervals within ["),
        "{}",
        l[0]
    );
}

/// Makes `e`'s variants differ by noise only, and takes its costs away.
fn no_difference(e: &mut Experiment) {
    for c in &mut e.cells {
        c.nopm = Some(
            1000.0
                + [30.0, -20.0, 10.0, -25.0][(c.repetition - 1) as usize]
                    * if c.variant == "null-dates" { -1.0 } else { 1.0 },
        );
        c.per_new_order.clear();
        c.per_transaction.clear();
    }
}

#[test]
fn invalid_cells_cells_not_run_and_missing_verdicts_are_named() {
    let mut e = null_dates();
    let bad = e
        .cells
        .iter_mut()
        .find(|c| c.variant == "null-dates" && c.threads == 4 && c.repetition == 2)
        .unwrap();
    bad.status = CellStatus::Invalid;
    let bad = bad.order;
    // Interrupted: the last block at 2 threads never ran, and of the first three blocks one
    // null-dates cell at 2 threads was INVALID too: fewer than 2 valid repetitions there.
    for c in &mut e.cells {
        if c.threads == 2 && c.repetition >= 3 {
            c.status = CellStatus::Pending;
        }
        if c.threads == 2 && c.repetition == 1 && c.variant == "null-dates" {
            c.status = CellStatus::Invalid;
        }
    }
    e.status = crate::results::RunStatus::Interrupted;
    let l = summary(&e);
    let text = l.join("\n");
    eprintln!("{text}");
    // Which: both, in the schedule's order, the one at 4 threads among them.
    assert!(
        text.contains("2 of 16 cells INVALID, left out of the deviations: #"),
        "{text}"
    );
    assert!(
        text.contains(&format!("#{bad} (null-dates, 4 threads, repetition 2)")),
        "{text}"
    );
    assert!(
        text.contains("4 of 16 cells did not run (the experiment is interrupted)."),
        "{text}"
    );
    assert!(
        text.contains("No verdict (needs 2 valid repetitions each) for null-dates at 2 threads."),
        "{text}"
    );
    // The 4 threads' verdict stands, now by Welch's t (an incomplete block), and says so.
    assert!(
        l[0].contains("slower than default at 4 threads") && l[0].contains(", Welch)"),
        "{}",
        l[0]
    );
    assert!(l.len() <= 6, "{l:#?}");
}

#[test]
fn many_comparisons_are_capped_with_the_decided_first() {
    let mut e = null_dates();
    // Four more variants, copies of the baseline: no difference anywhere.
    for k in 0..4 {
        let name = format!("same{k}");
        e.plan.variants.push(name.clone());
        let copies: Vec<Cell> = e
            .cells
            .iter()
            .filter(|c| c.variant == "default")
            .map(|c| Cell {
                variant: name.clone(),
                nopm: c
                    .nopm
                    .map(|n| n * (1.0 + 0.01 * (c.repetition as f64 - 2.5))),
                ..c.clone()
            })
            .collect();
        e.cells.extend(copies);
    }
    let l = summary(&e);
    assert!(l[0].starts_with("null-dates is "), "decided first: {l:#?}");
    assert!(
        l.iter()
            .any(|s| s == "2 more comparison(s) in the tables, 0 of them with a verdict."),
        "{l:#?}"
    );
    // Several variants: each cost names its own.
    let costs = l.iter().find(|s| s.starts_with("Server costs")).unwrap();
    assert!(costs.contains("for null-dates at 4 threads"), "{costs}");
}

#[test]
fn a_profiled_experiment_names_the_subsystems_and_functions_that_moved() {
    let e = null_dates();
    let f = |name: &str, b: f64, n: f64| FnDiff {
        name: name.into(),
        base_pct: b,
        new_pct: n,
        base_ms: None,
        new_ms: None,
    };
    let profiles = vec![ProfileWhy {
        workload: "tpcc".into(),
        threads: 4,
        variant: "null-dates".into(),
        diff: ProfileDiff {
            subsystems: vec![
                f("btree", 8.0, 19.5),
                f("redo", 4.0, 9.0),
                f("sql", 30.0, 29.5),
            ],
            functions: vec![
                f("btr_page_reorganize_low", 0.1, 6.2),
                f("ut_delay", 2.0, 2.4),
            ],
        },
    }];
    let l = lines(&e, &tables(&e), &profiles);
    let p = l
        .iter()
        .find(|s| s.starts_with("Server CPU that moved"))
        .expect("a profile line");
    assert!(
        p.contains("btree 8.0 % → 19.5 % at 4 threads, redo 4.0 % → 9.0 % at 4 threads; functions (self): btr_page_reorganize_low 0.1 % → 6.2 % at 4 threads."),
        "{p}"
    );
    assert!(!p.contains("sql") && !p.contains("ut_delay"), "{p}");
    // Unprofiled: no line at all.
    assert!(!summary(&e).iter().any(|s| s.starts_with("Server CPU")));
}

#[test]
fn the_summary_renders_as_text_and_markdown_with_names_escaped() {
    use crate::report::export::{Format, exporter};
    let lines = vec![
        "b\u{1b}[2J is 5.0 % faster than a at 1 threads (tps +5.0 % [+1.0, +9.0], 95 %)."
            .to_string(),
    ];
    let text = exporter(Format::Text).summary(&lines);
    assert!(
        text.starts_with("summary:\n  b\\u{1b}[2J is 5.0 % faster"),
        "{text}"
    );
    let md = exporter(Format::Markdown).summary(&lines);
    assert!(md.starts_with("**Summary**\n\n- b\\u{1b}[2J is"), "{md}");
    assert_eq!(exporter(Format::Csv).summary(&lines), "");
    assert_eq!(exporter(Format::Text).summary(&[]), "");
}

#[test]
fn cells_run_beside_other_work_are_named_with_what_else_ran() {
    use crate::experiment::host::HostLoad;
    let mut e = null_dates();
    let quiet = HostLoad {
        others_pct: 3.0,
        steal_pct: 0.0,
        fsync_ms: Some(0.2),
        busy_pct: None,
    };
    for c in &mut e.cells {
        c.host = Some(quiet);
    }
    assert!(
        !summary(&e).iter().any(|l| l.contains("beside other work")),
        "a quiet host names no cell"
    );
    e.cells[2].host = Some(HostLoad {
        others_pct: 41.0,
        ..quiet
    });
    e.cells[5].host = Some(HostLoad {
        steal_pct: 9.5,
        ..quiet
    });
    let (a, b) = (&e.cells[2], &e.cells[5]);
    let want = format!(
        "2 of 16 cells ran beside other work (others ≥ 20 % of the CPUs, or steal ≥ 5 %): #{} ({}, {} threads, {} NOPM, others 41 % CPU, steal 0.0 %, fsync 0.20 ms), #{} ({}, {} threads, {} NOPM, others 3 % CPU, steal 9.5 %, fsync 0.20 ms); their throughput widens the intervals.",
        a.order,
        a.variant,
        a.threads,
        a.nopm.unwrap().round(),
        b.order,
        b.variant,
        b.threads,
        b.nopm.unwrap().round()
    );
    let l = summary(&e);
    assert!(l.contains(&want), "{l:#?}");
}
