//! Unit tests of `report/experiment.rs`: the section of a constructed experiment, no server.

use super::*;
use crate::experiment::plan;
use std::path::Path;

/// Two variants at 2 and 4 threads, 3 blocks: b about 8 % faster at 4 threads, no
/// different at 2.
fn experiment() -> Experiment {
    let text = r#"
baseline = "a"
threads = "2,4"
repetitions = 3
[[variant]]
name = "a"
[[variant]]
name = "b"
[[workload]]
name = "oltp_point_select"
"#;
    let f = Path::new("t.toml");
    let p = plan::parse(f, text).unwrap().expand(f, None).unwrap();
    let mut e = Experiment::new("t".into(), None, String::new(), p, 1, String::new());
    // A name a plan refuses, as a hand-edited experiment.json may hold.
    e.plan.variants[1] = "b<i>".into();
    for c in &mut e.cells {
        if c.variant == "b" {
            c.variant = "b<i>".into();
        }
        c.status = CellStatus::Done;
        let k = f64::from(c.repetition);
        let base = 100.0 * f64::from(c.threads) + 3.0 * k;
        let b = if c.threads == 4 { 1.1 } else { 1.02 } - 0.01 * k;
        c.tps = Some(if c.variant == "a" { base } else { base * b });
        c.p95_ms = Some(1.0);
    }
    e
}

/// The `points` of every polyline in an SVG.
fn polylines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polyline")
        .skip(1)
        .map(|p| {
            let at = p.find("points=\"").unwrap() + 8;
            p[at..at + p[at..].find('"').unwrap()]
                .split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_deviation_is_drawn_at_the_measured_levels_only() {
    let e = experiment();
    let t = &tables(&e)[0];
    let c = deviation_chart("w", &e, t, Curves::of(&e, t).dev);
    let svg = super::super::charts::svg(&c).unwrap();
    // No segment joins two levels: every polyline is a vertical bar, a horizontal cap, or
    // the legend's sample (horizontal).
    for line in polylines(&svg) {
        let vertical = line.iter().all(|p| p.0 == line[0].0);
        let horizontal = line.iter().all(|p| p.1 == line[0].1);
        assert!(vertical || horizontal, "a line across levels: {line:?}");
    }
    // The x axis marks 2 and 4 and nothing between them.
    let texts: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| Some(t[t.find('>')? + 1..t.find("</text>")?].trim()))
        .collect();
    assert!(texts.contains(&"2") && texts.contains(&"4"), "{texts:?}");
    assert!(
        !texts.contains(&"3") && !texts.contains(&"2.5"),
        "{texts:?}"
    );
}

#[test]
fn the_section_opens_with_its_summary_and_folds_its_cells() {
    let e = experiment();
    let (mut h, mut charts) = (String::new(), Vec::new());
    let at = CellsAt {
        anchor: &|o| Some(format!("run-{o}")),
        run_dir: &|_| None,
    };
    section(&mut h, &mut charts, 1, &e, &at).unwrap();
    let story = h
        .find("<ul class=\"story\"><li>b&lt;i&gt; is ")
        .expect(&h[..400]);
    assert!(h.starts_with("<h2>Experiment t</h2>"), "{}", &h[..200]);
    assert!(
        story < h.find("<table").unwrap(),
        "the summary before the tables"
    );
    assert!(
        h[story..].contains("faster than a at 4 threads (tps +")
            && h[story..].contains("; no difference decided at 2 threads (tps "),
        "{}",
        &h[story..story + 300]
    );
    assert!(h.contains("<details class=\"cells\"><summary><h3>Cells</h3>"));
    // The page's header: the experiment and what it compared, names escaped.
    let head = compared(&e);
    assert!(
        head.contains("<b>b&lt;i&gt;</b> against the baseline <b>a</b>, on <b>oltp_point_select</b>, at 2, 4 threads, 3 repetition(s) each"),
        "{head}"
    );
}

#[test]
fn the_costs_are_drawn_with_their_intervals_one_row_per_cost_and_level() {
    let mut e = experiment();
    for c in &mut e.cells {
        let rep = f64::from(c.repetition);
        // Seed 000's shape: one cost more than triples, another moves ×150, one holds.
        let b = c.variant != "a";
        let figures: std::collections::BTreeMap<String, f64> = [
            (
                "redo_bytes".to_string(),
                if b { 3580.0 } else { 1000.0 } + rep,
            ),
            (
                "page_reorgs".to_string(),
                if b { 2.24 } else { 0.015 } + 0.001 * rep,
            ),
            ("server_cpu_ms".to_string(), 2.0 + 0.01 * rep),
        ]
        .into();
        c.per_transaction = figures;
    }
    let t = &tables(&e)[0];
    let svg = costs::chart(&e, t, "w-costs").expect("a costs chart");
    assert!(svg.starts_with("<figure class=\"chart costs\" id=\"w-costs\">"));
    // Three costs at two levels, each a row with its label; the variant's name escaped.
    for label in [
        "redo_bytes · 2 threads",
        "page_reorgs · 4 threads",
        "server_cpu_ms · 4 threads",
    ] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}: {svg}");
    }
    assert_eq!(
        svg.matches("<circle").count(),
        6,
        "a mark per cost and level"
    );
    assert!(svg.contains("b&lt;i&gt; vs a</text>"), "{svg}");
    // Each mark's figures beside it as the tables print them; multiples past +1000 %.
    assert!(svg.contains(">+257.5 % [+256.8, +258.1]</text>"), "{svg}");
    assert!(svg.contains(">×132 [×114, ×153]</text>"), "{svg}");
    assert!(svg.contains("costs per transaction, each variant's change from a"));
    // The axis runs from below ×1 to past ×150: log ticks 1, 10, 100 among them.
    for tick in [">×1</text>", ">×10</text>", ">×100</text>"] {
        assert!(svg.contains(tick), "{tick}");
    }
    // Without costs, no chart.
    assert!(costs::chart(&experiment(), &tables(&experiment())[0], "x").is_none());
}

#[test]
fn a_cost_interval_open_to_infinity_is_drawn_to_the_axis_end() {
    let mut e = experiment();
    for c in &mut e.cells {
        let rep = f64::from(c.repetition);
        c.per_transaction = [("redo_bytes".to_string(), 1000.0 + rep)].into();
    }
    let mut t = tables(&e).remove(0);
    // An early look's interval: its upper end overflows to infinity, its lower is no number.
    for r in &mut t.rows {
        for (_, costs) in &mut r.costs {
            for c in costs.iter_mut() {
                let d = c.deviation.as_mut().expect("an interval");
                d.ci_pct = (-50.0, f64::INFINITY);
            }
        }
    }
    let svg = costs::chart(&e, &t, "w-costs").expect("a chart");
    assert!(
        svg.contains(">×10000</text>"),
        "the axis ends at ×10,000: {svg}"
    );
    assert!(!svg.contains("inf") && !svg.contains("NaN"), "{svg}");
    t.rows[0].costs[0].1[0].deviation.as_mut().unwrap().pct = f64::NAN;
    let svg = costs::chart(&e, &t, "w-costs").expect("the other level's row");
    assert_eq!(
        svg.matches("<circle").count(),
        1,
        "a mark that is no number is left out"
    );
}
