//! Unit tests of `report/charts.rs`, beside it so the subject stays readable.

use super::*;

fn chart(log_x: bool) -> Chart {
    Chart {
        id: "t".into(),
        title: "Throughput <over> time".into(),
        x_label: "seconds".into(),
        y_label: "tps".into(),
        series: vec![
            Series {
                name: "total".into(),
                points: vec![(1.0, 10.0), (2.0, 12.0), (4.0, 11.0)],
                style: Style::Line,
                color: None,
            },
            Series {
                name: "fit".into(),
                points: vec![(1.0, 9.0), (4.0, 13.0)],
                style: Style::Dashed,
                color: Some(0),
            },
        ],
        log_x,
        legend_left: false,
        small: false,
        x_range: None,
        threads_x: false,
        measured_x: false,
    }
}

#[test]
fn charts_render_to_svg_with_their_text_escaped() {
    for log_x in [false, true] {
        let s = svg(&chart(log_x)).unwrap();
        assert!(s.starts_with("<svg"), "{}", &s[..80]);
        assert!(s.contains("Throughput &lt;over&gt; time"));
        assert!(s.contains("<polyline") || s.contains("<path"));
        assert!(s.contains("seconds") && s.contains("fit"));
    }
}

#[test]
fn thread_axes_show_whole_counts_on_a_log_2_axis_when_levels_double() {
    // The x labels of an SVG chart: the <text> elements under the plotting area.
    let labels = |c: &Chart| -> Vec<String> {
        let s = svg(c).unwrap();
        s.split("<text")
            .skip(1)
            .filter_map(|t| Some(t[t.find('>')? + 1..t.find("</text>")?].trim().to_string()))
            .collect()
    };
    let mut c = chart(false);
    c.threads_x = true;
    c.series[0].points = vec![
        (1.0, 10.0),
        (2.0, 12.0),
        (4.0, 11.0),
        (8.0, 9.0),
        (16.0, 8.0),
    ];
    c.series[1].points = vec![(1.0, 9.0), (16.0, 13.0)];
    assert_eq!(doubling_levels(&c), Some(vec![1.0, 2.0, 4.0, 8.0, 16.0]));
    let l = labels(&c);
    for want in ["1", "2", "4", "8", "16"] {
        assert!(l.iter().any(|x| x == want), "{want} not among {l:?}");
    }
    // Marks at the levels only, not between them (a linear axis's 6, 10, 12, 14).
    assert!(!l.iter().any(|x| x == "6" || x == "10"), "{l:?}");
    // Levels that do not double: a linear axis, whole numbers only.
    c.series[0].points = vec![(1.0, 10.0), (3.0, 12.0), (5.0, 11.0)];
    c.series[1].points = vec![(1.0, 9.0), (5.0, 13.0)];
    assert_eq!(doubling_levels(&c), None);
    let l = labels(&c);
    assert!(l.iter().any(|x| x == "3"), "{l:?}");
    assert!(
        !l.iter()
            .any(|x| ["1.5", "2.5", "3.5", "4.5"].contains(&x.as_str())),
        "{l:?}"
    );
}

#[test]
fn empty_and_flat_series_still_render() {
    let mut c = chart(false);
    c.series[0].points.clear();
    c.series[1].points = vec![(5.0, 0.0)];
    assert!(svg(&c).unwrap().starts_with("<svg"));
}

/// Pixels of a rendered chart that carry colour (the series, not the black axes or grey mesh).
fn coloured(c: &Chart) -> usize {
    let png = png(&svg(c).unwrap(), &system_fonts().unwrap()).unwrap();
    let img = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    img.pixels()
        .iter()
        .filter(|p| {
            let (r, g, b) = (p.red() as i32, p.green() as i32, p.blue() as i32);
            r.max(g).max(b) - r.min(g).min(b) > 80
        })
        .count()
}

#[test]
fn a_series_of_one_point_is_drawn() {
    // fsync time is recorded only for intervals with an fsync: a read-only level may
    // have one, of 0 ms; a line through one point draws nothing, and a mark at zero was
    // half hidden by the axis (the report test's PNG check found a chart without a mark).
    let mut c = chart(false);
    c.small = true;
    c.x_range = Some((0.0, 4.0));
    c.series.truncate(1);
    // One unnamed series, as a server panel draws it: no legend box over the corner.
    c.series[0].name = String::new();
    c.series[0].points = vec![(2.0, 0.0)];
    let one = coloured(&c);
    c.series[0].points = vec![(1.0, 0.5), (2.0, 0.5), (3.0, 0.5), (4.0, 0.5)];
    let line = coloured(&c);
    assert!(
        one > 40,
        "one point: {one} coloured pixels (a line: {line})"
    );
    // At the end of the shared time axis, or a few ms past it (the last interval's end).
    for x in [4.0, 4.006] {
        c.series[0].points = vec![(x, 0.2)];
        let edge = coloured(&c);
        assert!(edge > 40, "one point at x {x}: {edge} coloured pixels");
    }
}
