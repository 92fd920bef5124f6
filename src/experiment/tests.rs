//! Unit tests of `experiment/mod.rs`, beside it so the subject stays readable.

use super::*;
use crate::analysis::stats::Verdict;

fn expanded() -> plan::Expanded {
    let text = r#"
baseline = "a"
threads = "1,2"
repetitions = 3
[[variant]]
name = "a"
[[variant]]
name = "b"
[[workload]]
name = "oltp_point_select"
"#;
    let f = Path::new("t.toml");
    plan::parse(f, text).unwrap().expand(f, None).unwrap()
}

#[test]
fn each_repetition_is_a_block_holding_every_cell_once_in_a_seeded_order() {
    let p = expanded();
    let s = schedule(&p, 7);
    assert_eq!(s.len(), 2 * 2 * 3);
    for rep in 1..=3 {
        let block: Vec<_> = s.iter().filter(|c| c.repetition == rep).collect();
        assert_eq!(block.len(), 4);
        let mut keys: Vec<_> = block.iter().map(|c| (&c.variant, c.threads)).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 4);
    }
    assert_eq!(schedule(&p, 7), s, "the seed decides the order");
    let orders: Vec<Vec<(String, u32)>> = (0..8)
        .map(|seed| {
            schedule(&p, seed)
                .iter()
                .map(|c| (c.variant.clone(), c.threads))
                .collect()
        })
        .collect();
    assert!(
        orders.iter().any(|o| *o != orders[0]),
        "orders vary with the seed"
    );
    assert!(s.iter().all(|c| c.dir.starts_with("cells/")));
}

#[test]
fn the_table_compares_repetitions_and_leaves_invalid_cells_out() {
    let p = expanded();
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    for c in &mut e.cells {
        c.status = CellStatus::Done;
        let base = if c.variant == "a" { 100.0 } else { 120.0 };
        c.tps = Some(base * f64::from(c.threads) + f64::from(c.repetition));
        c.p95_ms = Some(1.0);
    }
    // One INVALID cell of b at 2 threads, with an absurd figure that must not count.
    let bad = e
        .cells
        .iter_mut()
        .find(|c| c.variant == "b" && c.threads == 2)
        .unwrap();
    bad.status = CellStatus::Invalid;
    bad.tps = Some(1e9);
    let t = tables(&e);
    assert_eq!(t.len(), 1);
    let r1 = &t[0].rows[0];
    assert_eq!(r1.columns[0].mean, Some(102.0));
    assert_eq!(r1.columns[1].min, Some(121.0));
    // Every block complete: the mean of the blocks' log ratios.
    let d = r1.deviations[0].1.as_ref().unwrap();
    let logs: f64 = (1..=3)
        .map(|k| ((120.0 + f64::from(k)) / (100.0 + f64::from(k))).ln())
        .sum();
    assert!(
        (d.pct - (logs / 3.0).exp_m1() * 100.0).abs() < 1e-9,
        "{d:?}"
    );
    assert_eq!((d.method.as_str(), d.n), ("paired", 3));
    assert_eq!(d.verdict, Verdict::Faster);
    // A block with an INVALID cell: Welch on the valid repetitions, and said.
    let d2 = t[0].rows[1].deviations[0].1.as_ref().unwrap();
    assert_eq!((d2.method.as_str(), d2.n), ("welch", 2));
    let r2 = &t[0].rows[1];
    assert_eq!(r2.columns[1].invalid, 1);
    assert_eq!(r2.columns[1].n, 2);
    assert!(r2.columns[1].max.unwrap() < 1e6);
    use crate::report::export::{Format, exporter};
    let text = exporter(Format::Text).experiment(&e, &t);
    assert!(text.contains("[1 INVALID]"), "{text}");
    assert!(text.contains("faster"), "{text}");
    assert!(text.contains("(Welch)"), "{text}");
    assert!(exporter(Format::Csv).experiment(&e, &t).lines().count() == 1 + 4);
    assert!(
        exporter(Format::Markdown)
            .experiment(&e, &t)
            .contains("| threads | a tps | b tps | b vs a |")
    );
}

#[test]
fn costs_per_new_order_are_compared_within_blocks_and_the_changed_ones_named() {
    let p = expanded();
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    for c in &mut e.cells {
        let rep = f64::from(c.repetition);
        c.status = CellStatus::Done;
        c.tps = Some(100.0 + rep);
        // Seed 000: redo per New-Order more than triples; server CPU is the same.
        let redo = if c.variant == "a" { 1000.0 } else { 3480.0 } + rep;
        let figures: BTreeMap<String, f64> = [
            ("redo_bytes".to_string(), redo),
            ("server_cpu_ms".to_string(), 2.0 + 0.01 * rep),
        ]
        .into();
        c.per_new_order = figures.clone();
        c.per_transaction = figures;
    }
    let t = tables(&e);
    let (variant, costs) = &t[0].rows[0].costs[0];
    assert_eq!(variant, "b");
    assert!(costs.iter().all(|c| c.per == "New-Order"));
    let redo = costs.iter().find(|c| c.figure == "redo_bytes").unwrap();
    let d = redo.deviation.as_ref().unwrap();
    assert!((d.pct - 247.6).abs() < 0.5, "{d:?}");
    assert_ne!(d.verdict, Verdict::NoSignificantDifference);
    let cpu = costs.iter().find(|c| c.figure == "server_cpu_ms").unwrap();
    assert_eq!(
        cpu.deviation.as_ref().unwrap().verdict,
        Verdict::NoSignificantDifference
    );
    let line = costs_text(costs);
    assert!(line.starts_with("redo_bytes +247."), "{line}");
    assert!(
        line.ends_with("no significant change: server_cpu_ms"),
        "{line}"
    );
    use crate::report::export::{Format, exporter};
    let text = exporter(Format::Text).experiment(&e, &t);
    assert!(
        text.contains("costs per New-Order, b vs a, 1 threads: redo_bytes +247."),
        "{text}"
    );
}

#[test]
fn a_replication_wait_the_baseline_lacks_is_compared_as_0_and_said_as_appeared() {
    let p = expanded();
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    for c in &mut e.cells {
        c.status = CellStatus::Done;
        c.tps = Some(100.0 + f64::from(c.repetition));
        // A server alone records no acknowledgement wait; a semi-sync primary does.
        let mut figures: BTreeMap<String, f64> = [("server_cpu_ms".to_string(), 2.0)].into();
        if c.variant == "b" {
            figures.insert("ack_wait_ms".into(), 0.25);
        }
        c.per_new_order = figures.clone();
        c.per_transaction = figures;
    }
    let t = tables(&e);
    let (_, costs) = &t[0].rows[0].costs[0];
    let wait = costs.iter().find(|c| c.figure == "ack_wait_ms").unwrap();
    assert_eq!((wait.base, wait.new), (0.0, 0.25));
    // No ratio from 0, and not "no significant change" either.
    assert!(wait.deviation.is_none());
    let line = costs_text(costs);
    assert!(
        line.starts_with("ack_wait_ms 0 → 0.250 (none in the baseline)"),
        "{line}"
    );
    assert!(
        !line.contains("no significant change: ack_wait_ms"),
        "{line}"
    );
    assert!(
        !line.contains("no significant change: server_cpu_ms, ack"),
        "{line}"
    );
}

#[test]
fn one_disturbed_block_of_six_does_not_carry_the_tables_verdict() {
    // b is 40 % faster in five blocks; in one, b's cell ran beside a neighbour's build.
    let mut p = expanded();
    p.repetitions = 6;
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    for c in &mut e.cells {
        c.status = CellStatus::Done;
        let r = f64::from(c.repetition);
        c.tps = Some(match (c.variant.as_str(), c.repetition) {
            ("a", _) => 100.0 + r,
            (_, 4) => 40.0,
            _ => (100.0 + r) * (1.38 + 0.01 * r),
        });
    }
    assert_eq!(e.plan.estimator, Estimator::Trimmed);
    let d = tables(&e)[0].rows[0].deviations[0].1.clone().unwrap();
    assert_eq!(d.verdict, Verdict::Faster, "{d:?}");
    assert!((d.pct - 41.0).abs() < 2.0, "{d:?}");
    // The mean of the same blocks (a version 1 experiment's analysis) is carried off.
    e.plan.estimator = Estimator::Mean;
    let m = tables(&e)[0].rows[0].deviations[0].1.clone().unwrap();
    assert_eq!(m.verdict, Verdict::NoSignificantDifference, "{m:?}");
    assert!(method_lines(&e)[0].contains("the mean of the blocks' log"));
}

#[test]
fn a_version_1_file_keeps_its_mean_and_bonferroni_looks() {
    let dir = tempfile::tempdir().unwrap();
    let f = Path::new("t.toml");
    let text = "baseline = \"a\"\nthreads = \"1\"\nrepetitions = 3\nprecision = 3\nmax_repetitions = 5\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\n[[workload]]\nname = \"oltp_point_select\"\n";
    let p = plan::parse(f, text).unwrap().expand(f, None).unwrap();
    let e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    assert_eq!(e.schema_version, 2);
    let rule = e.plan.sequential.clone().unwrap();
    assert_eq!(rule.spending, sequential::Spending::ObrienFleming);
    e.write(dir.path()).unwrap();
    let again = Experiment::load(dir.path()).unwrap();
    assert_eq!(again, e);
    // As written before issue 41: version 1, neither key.
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(FILE)).unwrap()).unwrap();
    v["schema_version"] = 1.into();
    v["plan"].as_object_mut().unwrap().remove("estimator");
    v["plan"]["sequential"]
        .as_object_mut()
        .unwrap()
        .remove("spending");
    std::fs::write(dir.path().join(FILE), v.to_string()).unwrap();
    let old = Experiment::load(dir.path()).unwrap();
    assert_eq!(old.plan.estimator, Estimator::Mean);
    let s = old.plan.sequential.unwrap();
    assert_eq!(s.spending, sequential::Spending::Bonferroni);
    assert!((s.alpha(5) - 0.05 * 16.0 / 29.0).abs() < 1e-12);
}

#[test]
fn the_method_text_names_the_blocks_trimming_starts_at() {
    let from = format!("from {} blocks", crate::analysis::robust::TRIM_FROM);
    assert!(super::tables::METHOD_TRIMMED.contains(&from), "{from}");
}

#[test]
fn a_stop_on_the_time_cap_spends_what_is_left_and_an_answered_look_keeps_its_own() {
    let f = Path::new("t.toml");
    let text = "baseline = \"a\"\nthreads = \"1\"\nrepetitions = 2\nprecision = 0.001\nmax_repetitions = 5\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\n[[workload]]\nname = \"oltp_point_select\"\n";
    let p = plan::parse(f, text).unwrap().expand(f, None).unwrap();
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    for c in e.cells.iter_mut().filter(|c| c.repetition <= 2) {
        c.status = CellStatus::Done;
        c.tps = Some(if c.variant == "a" { 100.0 } else { 105.0 } + f64::from(c.repetition));
    }
    assert_eq!(e.complete_blocks(), 2);
    let rule = e.plan.sequential.clone().unwrap();
    // Going on, or answered at the first look: that look's small error rate.
    let first = rule.confidence_at(2, false);
    assert!(first > 0.99, "{first}");
    assert_eq!(e.confidence(), first);
    let stop = |reason| Stopped {
        reason,
        blocks: 2,
        open: 0,
        widest_pct: 0.0,
        without: 0,
    };
    e.stopped = Some(stop(sequential::Stop::Answered));
    assert_eq!(e.confidence(), first);
    // Stopped by the cap, that look was the last: it spends all of the 5 %.
    e.stopped = Some(stop(sequential::Stop::MaxTime));
    assert!((e.confidence() - 0.95).abs() < 1e-9, "{}", e.confidence());
    let d = tables(&e)[0].rows[0].deviations[0].1.clone().unwrap();
    assert!((d.confidence - 0.95).abs() < 1e-9, "{d:?}");
}
