//! Charts drawn by plotters into SVG strings (inlined in the HTML report), and the same SVG
//! rasterised to PNG by resvg for `report --png`.

use anyhow::{Context, Result, anyhow};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A line through the points.
    Line,
    /// Points with a line through them (measured sweep levels).
    Points,
    /// A dashed line (a fitted model).
    Dashed,
    /// Points only (repetitions of one measurement).
    Scatter,
    /// A vertical bar with caps for each pair of points `(x, low), (x, high)`: an interval
    /// at each x measured, nothing drawn between them.
    Interval,
}

/// One series of a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// (x, y) points.
    pub points: Vec<(f64, f64)>,
    /// How it is drawn.
    pub style: Style,
    /// Palette index (default: the series' position), so a fit takes its data's colour.
    pub color: Option<usize>,
}

/// A chart with an x and a y axis.
#[derive(Debug, Clone)]
pub struct Chart {
    /// File-name-safe identifier (for `--png`).
    pub id: String,
    /// Caption.
    pub title: String,
    /// X axis description.
    pub x_label: String,
    /// Y axis description.
    pub y_label: String,
    /// The series.
    pub series: Vec<Series>,
    /// A logarithmic x axis.
    pub log_x: bool,
    /// The legend in the upper left corner (for curves that rise to the right).
    pub legend_left: bool,
    /// One of a row of small multiples ([`SMALL_SIZE`]).
    pub small: bool,
    /// The x axis from..to (small multiples share one time axis); None: the data's range.
    pub x_range: Option<(f64, f64)>,
    /// The x axis counts threads: whole numbers only, and a log-2 axis with a mark at each
    /// level when the levels double (1, 2, 4, 8…).
    pub threads_x: bool,
    /// The x axis marked only at the x values the series hold, with room at both ends:
    /// levels compared one by one (nothing implied between them).
    pub measured_x: bool,
}

/// The whole, positive x values of `c`'s series (thread levels), in order.
fn levels(c: &Chart) -> Vec<f64> {
    let mut xs: Vec<f64> = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| x.is_finite() && *x > 0.0 && x.fract() == 0.0)
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs
}

/// The levels on a thread axis when they double from one to the next (three or more),
/// else None.
pub fn doubling_levels(c: &Chart) -> Option<Vec<f64>> {
    let xs = levels(c);
    (xs.len() >= 3 && xs.windows(2).all(|w| w[1] == 2.0 * w[0])).then_some(xs)
}

/// A linear axis marked at the given values only (the levels measured).
struct Marked {
    inner: RangedCoordf64,
    marks: Vec<f64>,
}

impl Ranged for Marked {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.marks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

/// Width and height of every chart, pixels.
pub const SIZE: (u32, u32) = (960, 380);
/// Width and height of a small multiple, pixels.
pub const SMALL_SIZE: (u32, u32) = (440, 210);

impl Series {
    /// A line in the palette's colour for its position.
    pub fn line(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            style: Style::Line,
            color: None,
        }
    }
}

impl Chart {
    /// A full-size chart with linear axes over the data's range and the legend at the upper
    /// right; the other fields are changed with `..Chart::new(…)`.
    pub fn new(
        id: String,
        title: impl Into<String>,
        x: &str,
        y: &str,
        series: Vec<Series>,
    ) -> Chart {
        Chart {
            id,
            title: title.into(),
            x_label: x.into(),
            y_label: y.into(),
            series,
            log_x: false,
            legend_left: false,
            small: false,
            x_range: None,
            threads_x: false,
            measured_x: false,
        }
    }

    /// A chart over threads (a doubling axis where the levels double), the legend at the
    /// upper left, where curves rise to the right.
    pub fn against_threads(
        id: String,
        title: impl Into<String>,
        y: &str,
        series: Vec<Series>,
    ) -> Chart {
        Chart {
            legend_left: true,
            threads_x: true,
            ..Chart::new(id, title, "threads", y, series)
        }
    }

    /// Pixels wide and high.
    pub fn size(&self) -> (u32, u32) {
        if self.small { SMALL_SIZE } else { SIZE }
    }
}

fn bounds(c: &Chart) -> ((f64, f64), (f64, f64)) {
    let pts = c.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64, 0.0f64);
    for &(x, y) in pts {
        if x.is_finite() && y.is_finite() {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    if let Some((a, b)) = c.x_range {
        (x0, x1) = (a, b);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    // A margin at both ends, so marks at the first and last x (and a last interval that
    // ends a few milliseconds after the run's nominal end) are drawn whole.
    if c.log_x {
        x0 = x0.max(1e-3) / 1.04;
        x1 = x1.max(x0 * 10.0) * 1.04;
    } else {
        let pad = (x1 - x0) * 0.015;
        (x0, x1) = (x0 - pad, x1 + pad);
    }
    // From zero, or below it for negative values (deviations).
    let y0 = if y0 < 0.0 { y0 * 1.08 } else { 0.0 };
    let y1 = if y1 > 0.0 {
        y1 * 1.08
    } else if y0 < 0.0 {
        -y0 * 0.05
    } else {
        1.0
    };
    // A sliver below zero so a line or mark at zero is drawn above the x axis, not on it.
    let y0 = if y0 == 0.0 { -0.03 * y1 } else { y0 };
    ((x0, x1), (y0, y1))
}

/// A chart's plotting area: x linear, logarithmic or doubling, y linear.
type Axes<'a, DB, X> = ChartContext<'a, DB, Cartesian2d<X, RangedCoordf64>>;

/// A drawing error made into one that names the chart.
type DrawingError<'e, DB> =
    &'e dyn Fn(DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>) -> anyhow::Error;

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, c: &Chart) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow!("drawing chart {}: {e:?}", c.id);
    root.fill(&WHITE).map_err(err)?;
    let ((x0, x1), (y0, y1)) = bounds(c);
    let mut builder = ChartBuilder::on(&root);
    frame(&mut builder, c);
    if let Some(levels) = doubling_levels(c).filter(|_| c.threads_x) {
        let (x0, x1) = (levels[0] / 1.15, levels[levels.len() - 1] * 1.15);
        plot(
            builder
                .build_cartesian_2d((x0..x1).log_scale().with_key_points(levels), y0..y1)
                .map_err(err)?,
            c,
            &err,
        )?;
    } else if c.measured_x && !levels(c).is_empty() {
        let marks = levels(c);
        let (lo, hi) = (marks[0], marks[marks.len() - 1]);
        let pad = ((hi - lo) * 0.1).max(0.5);
        let x = Marked {
            inner: (lo - pad..hi + pad).into(),
            marks,
        };
        plot(builder.build_cartesian_2d(x, y0..y1).map_err(err)?, c, &err)?;
    } else if c.log_x {
        plot(
            builder
                .build_cartesian_2d((x0..x1).log_scale(), y0..y1)
                .map_err(err)?,
            c,
            &err,
        )?;
    } else {
        plot(
            builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?,
            c,
            &err,
        )?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// The caption and the room for the axes' labels, smaller on a small multiple.
fn frame<DB: DrawingBackend>(builder: &mut ChartBuilder<'_, '_, DB>, c: &Chart) {
    if c.small {
        builder
            .caption(&c.title, ("sans-serif", 14))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(56);
    } else {
        builder
            .caption(&c.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70);
    }
}

/// The mesh, every series and the legend on `chart`.
fn plot<'a, DB, X>(mut chart: Axes<'a, DB, X>, c: &Chart, err: DrawingError<'_, DB>) -> Result<()>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    mesh(&mut chart, c, err)?;
    for (i, s) in c.series.iter().enumerate() {
        one_series(&mut chart, c, i, s, err)?;
    }
    if c.series.len() > 1 || c.series.iter().any(|s| !s.name.is_empty()) {
        chart
            .configure_series_labels()
            .position(if c.legend_left {
                SeriesLabelPosition::UpperLeft
            } else {
                SeriesLabelPosition::UpperRight
            })
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// The grid and the axes' descriptions (whole numbers only on a thread axis).
fn mesh<DB, X>(chart: &mut Axes<'_, DB, X>, c: &Chart, err: DrawingError<'_, DB>) -> Result<()>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let whole = |x: &f64| {
        if (x - x.round()).abs() < 1e-9 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .light_line_style(RGBColor(235, 235, 235));
    if c.threads_x {
        mesh.x_label_formatter(&whole);
    }
    mesh.draw().map_err(err)?;
    Ok(())
}

/// Series `s`, the `i`th, in its style and colour, with its legend entry.
fn one_series<DB, X>(
    chart: &mut Axes<'_, DB, X>,
    c: &Chart,
    i: usize,
    s: &Series,
    err: DrawingError<'_, DB>,
) -> Result<()>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let color = Palette99::pick(s.color.unwrap_or(i)).to_rgba();
    let pts: Vec<(f64, f64)> = s
        .points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite() && (!c.log_x || *x > 0.0))
        .collect();
    let style = ShapeStyle::from(&color).stroke_width(2);
    // A line through one point draws nothing: mark it (a figure recorded in one
    // interval only, such as fsync time in a read-only run).
    if pts.len() == 1 && matches!(s.style, Style::Line | Style::Dashed) {
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
            .map_err(err)?;
    }
    let anno = match s.style {
        Style::Line => chart
            .draw_series(LineSeries::new(pts, style))
            .map_err(err)?,
        Style::Points => {
            chart
                .draw_series(LineSeries::new(pts.clone(), style))
                .map_err(err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(err)?
        }
        Style::Dashed => chart
            .draw_series(DashedLineSeries::new(pts, 6, 4, style))
            .map_err(err)?,
        Style::Scatter => chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
            .map_err(err)?,
        Style::Interval => {
            // Pairs of the series' own points: a bound dropped above would pair the wrong ends.
            let bars: Vec<[(f64, f64); 2]> = s
                .points
                .chunks_exact(2)
                .map(|b| [b[0], b[1]])
                .filter(|b| b.iter().all(|p| pts.contains(p)))
                .collect();
            let cap =
                |p: (f64, f64)| EmptyElement::at(p) + PathElement::new([(-6, 0), (6, 0)], style);
            chart
                .draw_series(bars.iter().map(|b| PathElement::new(*b, style)))
                .map_err(err)?;
            chart
                .draw_series(bars.iter().flatten().map(|&p| cap(p)))
                .map_err(err)?
        }
    };
    anno.label(s.name.as_str())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    Ok(())
}

/// The chart as an SVG document.
pub fn svg(c: &Chart) -> Result<String> {
    let mut buf = String::new();
    draw(
        SVGBackend::with_string(&mut buf, c.size()).into_drawing_area(),
        c,
    )?;
    Ok(buf)
}

/// An SVG document rasterised to PNG (text in the system's sans-serif font).
pub fn png(svg: &str, fonts: &std::sync::Arc<resvg::usvg::fontdb::Database>) -> Result<Vec<u8>> {
    let opt = resvg::usvg::Options {
        fontdb: fonts.clone(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &opt).context("reading a chart's SVG")?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .context("allocating a chart image")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().context("encoding a chart as PNG")
}

/// The system's fonts, for [`png`]; an error when there are none (text would vanish).
pub fn system_fonts() -> Result<std::sync::Arc<resvg::usvg::fontdb::Database>> {
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_system_fonts();
    if db.is_empty() {
        anyhow::bail!(
            "--png: no fonts found on this system for the charts' text: install fonts-dejavu-core"
        );
    }
    db.set_sans_serif_family("DejaVu Sans");
    Ok(std::sync::Arc::new(db))
}

#[cfg(test)]
mod tests;
