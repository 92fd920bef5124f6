//! Unit tests of `experiment/coloc.rs`: the schedule's alone and together cells, the
//! ratio's arithmetic, the shares, the lines.

use super::*;
use crate::analysis::stats::Verdict;
use crate::experiment::{Experiment, plan};
use std::path::Path;

const PLAN: &str = r#"
description = "two instances alone and together"
baseline = "solo"
threads = "2,4"
repetitions = 3
[[variant]]
name = "solo"
instances = 2
instance_cpus = ["0", "1"]
[[workload]]
name = "oltp_point_select"
"#;

fn experiment() -> Experiment {
    let f = Path::new("c.toml");
    let p = plan::parse(f, PLAN).unwrap().expand(f, None).unwrap();
    Experiment::new("c".into(), None, PLAN.into(), p, 5, "now".into())
}

/// Every cell done with tps `f(cell)`; together cells get shares 60/40 of it.
fn fill(e: &mut Experiment, f: &dyn Fn(&Cell) -> f64) {
    for c in &mut e.cells {
        c.status = CellStatus::Done;
        c.tps = Some(f(c));
        if c.instances.len() > 1 {
            c.shares = vec![
                Share {
                    instance: 1,
                    share_pct: 60.0,
                    tps: c.tps.map(|v| v * 0.6),
                    nopm: None,
                    server_cpu_pct: Some(45.0),
                },
                Share {
                    instance: 2,
                    share_pct: 40.0,
                    tps: c.tps.map(|v| v * 0.4),
                    nopm: None,
                    server_cpu_pct: Some(35.0),
                },
            ];
        }
    }
}

#[test]
fn every_block_runs_each_instance_alone_and_all_together_in_a_seeded_order() {
    let e = experiment();
    assert_eq!(e.plan.instances, Some(2));
    // 2 levels × (2 alone + 1 together) × 3 blocks.
    assert_eq!(e.cells.len(), 18);
    for rep in 1..=3 {
        for t in [2, 4] {
            let mut driven: Vec<Vec<u32>> = e
                .cells
                .iter()
                .filter(|c| c.repetition == rep && c.threads == t)
                .map(|c| c.instances.clone())
                .collect();
            driven.sort();
            assert_eq!(driven, [vec![1], vec![1, 2], vec![2]]);
        }
    }
    assert!(e.cells.iter().any(|c| c.dir.ends_with("-alone2")));
    assert!(e.cells.iter().any(|c| c.dir.ends_with("-together")));
    let order = |seed| {
        crate::experiment::schedule(&e.plan, seed)
            .iter()
            .map(|c| (c.instances.clone(), c.threads))
            .collect::<Vec<_>>()
    };
    assert_ne!(order(1), order(2), "the seed shuffles alone and together");
    assert!(
        crate::experiment::tables(&e).is_empty(),
        "no variants compared"
    );
}

#[test]
fn the_ratio_is_together_against_the_sum_of_alone_within_each_block() {
    let mut e = experiment();
    // Alone: 100 and 80 (block r: × r); together 1.5 × their sum, with a block's wobble.
    let wobble = [0.0, 1.00, 1.04, 0.97];
    fill(&mut e, &|c| {
        let r = f64::from(c.repetition);
        match c.instances.as_slice() {
            [1] => 100.0 * r,
            [2] => 80.0 * r,
            _ => 180.0 * r * 1.5 * wobble[c.repetition as usize],
        }
    });
    let t = &tables(&e)[0];
    assert_eq!((t.unit.as_str(), t.instances), ("tps", 2));
    let row = &t.rows[0];
    assert_eq!(row.blocks, 3);
    let want = (1.5f64.ln() * 3.0 + (1.04f64 * 0.97).ln()) / 3.0;
    let ratio = row.ratio.unwrap();
    assert!((ratio - want.exp()).abs() < 1e-12, "{ratio}");
    let d = row.deviation.as_ref().unwrap();
    assert!((1.0 + d.pct / 100.0 - ratio).abs() < 1e-9);
    assert_eq!(d.verdict, Verdict::Faster);
    assert_eq!(verdict_text(d), "super-linear");
    assert_eq!(row.alone, [Some(200.0), Some(160.0)]);
    assert_eq!(row.shares_pct, [Some(60.0), Some(40.0)]);
    assert_eq!(row.cpu_pct, [Some(45.0), Some(35.0)]);
    let lines = summary_lines(&tables(&e));
    assert!(
        lines[0].starts_with(&format!(
            "together: {ratio:.2}x the sum of alone [{:.2}, {:.2}] at 2 threads per instance (95 %, 3 blocks): super-linear; together shares 60 / 40 %, server CPU 45 / 35 % of the host's",
            1.0 + d.ci_pct.0 / 100.0,
            1.0 + d.ci_pct.1 / 100.0
        )),
        "{lines:#?}"
    );
    let rows = table_rows(t);
    assert_eq!(rows[0][3], "sum of alone tps");
    assert_eq!(rows[1][3], "360.0");
}

#[test]
fn a_block_with_an_invalid_cell_is_left_out_and_one_block_gives_no_interval() {
    let mut e = experiment();
    fill(&mut e, &|c| match c.instances.as_slice() {
        [_] => 100.0,
        _ => 140.0 + 2.0 * f64::from(c.repetition),
    });
    for c in &mut e.cells {
        if c.repetition >= 2 && c.instances == [2] {
            c.status = CellStatus::Invalid;
        }
    }
    let row = &tables(&e)[0].rows[0];
    assert_eq!((row.blocks, row.invalid), (1, 2));
    assert!((row.ratio.unwrap() - 142.0 / 200.0).abs() < 1e-12);
    assert!(row.deviation.is_none(), "a verdict needs 2 blocks");
    let lines = summary_lines(&tables(&e));
    assert!(
        lines[0].contains(
            "0.71x the sum of alone at 2 threads per instance (1 complete block: no interval"
        ),
        "{lines:#?}"
    );
    // Sub-linear when together is steadily below the sum.
    fill(&mut e, &|c| match c.instances.as_slice() {
        [_] => 100.0,
        _ => 140.0 + 2.0 * f64::from(c.repetition),
    });
    let d = tables(&e)[0].rows[1].deviation.clone().unwrap();
    assert_eq!(verdict_text(&d), "sub-linear");
}

#[test]
fn a_together_cell_shares_its_figure_by_each_target_s_transactions() {
    use crate::results::{Summary, TargetSummary};
    let e = experiment();
    let mut c = e
        .cells
        .iter()
        .find(|c| c.instances.len() == 2)
        .unwrap()
        .clone();
    c.tps = Some(300.0);
    let mut s = Summary::of(&crate::metrics::Recorder::new(1), &["t".into()], 10.0);
    let t = |n: u64, cpu: f64| TargetSummary {
        transactions: n,
        server_cpu_pct: Some(cpu),
        ..TargetSummary::of("u".into(), 2, &s)
    };
    let targets = vec![t(750, 40.0), t(250, 20.0)];
    s.targets = targets;
    let shares = shares_of(&c, Some(&s));
    assert_eq!(shares.len(), 2);
    assert_eq!((shares[0].share_pct, shares[1].share_pct), (75.0, 25.0));
    let sum: f64 = shares.iter().filter_map(|s| s.tps).sum();
    assert!((sum - 300.0).abs() < 1e-9);
    assert_eq!(shares[1].server_cpu_pct, Some(20.0));
    c.instances = vec![1];
    assert!(
        shares_of(&c, Some(&s)).is_empty(),
        "an alone cell has no shares"
    );
}
