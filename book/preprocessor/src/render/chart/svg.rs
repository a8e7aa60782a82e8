//! Drawing a chart with plotters' SVG backend, then recolouring it for the reader's theme.
//!
//! plotters bakes colours into `fill`/`stroke` attributes. We draw with *sentinel* colours that
//! encode a role (ink, grid, band, mark, level, series i on machine j) and rewrite each one to
//! `currentColor` plus a CSS class (`book/theme/lab-charts.css` gives the classes their colours
//! from the theme), so the same SVG reads well in all five themes and on the print page. Text
//! stays SVG `<text>` in the page's font; nothing needs a font file at build time.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::specs::{Axis, Chart, Scale};
use super::{Line, Point, VLine};
use lab_text::group_digits;

/// The drawing's size in SVG units; the page scales it to the column's width.
const WIDTH: u32 = 600;
const HEIGHT: u32 = 400;
/// plotters divides font sizes by 1.24; 19 comes out as about 15 units.
const FONT: f64 = 19.0;

const INK: RGBColor = RGBColor(1, 1, 1);
const GRID: RGBColor = RGBColor(2, 2, 2);
const BAND: RGBColor = RGBColor(3, 3, 3);
const MARK: RGBColor = RGBColor(4, 4, 4);
const LEVEL: RGBColor = RGBColor(6, 6, 6);
/// Text that a phone's screen leaves out (the legend and the caption say it too).
const MARK_LABEL: RGBColor = RGBColor(7, 7, 7);
const AXIS_TITLE: RGBColor = RGBColor(8, 8, 8);

/// Series `s` on machine `m`: red channel 5, then the two indices.
fn series_colour(s: usize, m: usize) -> RGBColor {
    RGBColor(5, s as u8, m as u8)
}

/// The CSS class a sentinel colour stands for, or `None` for a colour that is not ours.
fn class_of(hex: &str) -> Option<String> {
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    let (r, g, b) = (byte(0)?, byte(2)?, byte(4)?);
    match r {
        1 => Some("lab-ink".into()),
        2 => Some("lab-grid".into()),
        3 => Some("lab-band".into()),
        4 => Some("lab-mark".into()),
        5 => Some(format!("lab-s{g} lab-m{b}")),
        6 => Some("lab-level".into()),
        7 => Some("lab-mark-label".into()),
        8 => Some("lab-axis-title".into()),
        _ => None,
    }
}

/// How a value reads on the axis, in the page's language's numbers and units (`0,5×`, `16 Б`
/// on a Russian page: `lab_text::tr::localize_figure`, as the figures themselves).
pub(super) fn tick(scale: Scale, v: f64) -> String {
    lab_text::tr::localize_figure(&tick_in_english(scale, v))
}

fn tick_in_english(scale: Scale, v: f64) -> String {
    match scale {
        Scale::Bytes => {
            let units = [
                (1_073_741_824.0, "GiB"),
                (1_048_576.0, "MiB"),
                (1_024.0, "KiB"),
            ];
            for (size, unit) in units {
                if v >= size && (v / size).fract() == 0.0 {
                    return format!("{} {unit}", v / size);
                }
            }
            let decimal = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")];
            for (size, unit) in decimal {
                if v >= size && (v / size).fract() == 0.0 {
                    return format!("{} {unit}", v / size);
                }
            }
            format!("{} B", group_digits(v.round() as u64))
        }
        Scale::Ratio if v < 1.0 && v > 0.0 => format!("{}×", trim(v)),
        Scale::Ratio => format!("{}×", group_or_decimal(v)),
        Scale::Count => group_or_decimal(v),
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn group_or_decimal(v: f64) -> String {
    if v.fract() == 0.0 {
        group_digits(v as u64)
    } else {
        trim(v)
    }
}

/// One axis in drawing space: log axes are drawn in log10 of the value.
struct Span {
    log: bool,
    lo: f64,
    hi: f64,
    /// Tick positions in drawing space, with their labels.
    ticks: Vec<(f64, String)>,
    /// Where a 0 goes on a log axis (its bottom line), when the data has zeros.
    zero: Option<f64>,
}

impl Span {
    fn to(&self, v: f64) -> f64 {
        match (self.log, self.zero) {
            (true, Some(z)) if v <= 0.0 => z,
            (true, _) => v.log10(),
            (false, _) => v,
        }
    }
}

/// The y span: decades on a log axis (0 on a line of its own below them), nice steps from 0 on
/// a linear one.
fn y_span(axis: &Axis, values: &[f64]) -> Result<Span, String> {
    if axis.log {
        let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
        let (Some(min), Some(max)) = (
            positive.iter().copied().reduce(f64::min),
            positive.iter().copied().reduce(f64::max),
        ) else {
            return Err("nothing to draw: every figure of this chart is 0 or a gap".into());
        };
        let mut lo = (min.log10() + 1e-9).floor();
        let mut hi = (max.log10() - 1e-9).ceil();
        if hi <= lo {
            hi = lo + 1.0;
        }
        let zero = values.iter().any(|v| *v <= 0.0).then(|| {
            lo -= 1.0;
            lo
        });
        let decades = (hi - lo) as i32;
        let step = if decades > 6 { 2 } else { 1 };
        let mut ticks = Vec::new();
        for d in (lo as i32..=hi as i32).step_by(step) {
            let label = if zero == Some(f64::from(d)) {
                "0".to_string()
            } else {
                tick(axis.scale, 10f64.powi(d))
            };
            ticks.push((f64::from(d), label));
        }
        let pad = 0.04 * (hi - lo);
        Ok(Span {
            log: true,
            lo: lo - pad,
            hi: hi + pad,
            ticks,
            zero,
        })
    } else {
        let max = values.iter().copied().fold(0.0, f64::max);
        let max = if max > 0.0 { max } else { 1.0 };
        let raw = max / 5.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 2.5, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        let top = (max / step).ceil() * step;
        let ticks = (0..=((top / step).round() as usize))
            .map(|i| {
                let v = i as f64 * step;
                (v, tick(axis.scale, (v * 1e6).round() / 1e6))
            })
            .collect();
        Ok(Span {
            log: false,
            lo: 0.0,
            hi: top * 1.04,
            ticks,
            zero: None,
        })
    }
}

/// The x span: ticks at the chart's x positions (the sizes measured), marks inside the range.
fn x_span(spec: &Chart, extra: &[f64]) -> Span {
    let log = spec.x.log;
    let t = |v: f64| if log { v.log10() } else { v };
    let mut at: Vec<f64> = spec.xs.iter().map(|x| t(x.at)).collect();
    at.extend(extra.iter().copied().filter(|v| !log || *v > 0.0).map(t));
    let lo = at.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = at.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Named positions need room for their names at the edges.
    let named = spec.xs.iter().any(|x| !x.name.is_empty());
    let pad = if hi > lo && !named {
        0.08 * (hi - lo)
    } else {
        0.5
    };
    // Crowded axes (the 13 counts of buffers held) name every other position.
    let every = if spec.xs.len() > 8 { 2 } else { 1 };
    let ticks = spec
        .xs
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let label = if x.name.is_empty() {
                match spec.x.scale {
                    Scale::Bytes if !log => group_digits(x.at as u64),
                    scale => tick(scale, x.at),
                }
            } else {
                lab_text::tr::get_dynamic(x.name)
            };
            (t(x.at), if i % every == 0 { label } else { String::new() })
        })
        .collect::<Vec<_>>();
    // The origin's position (one thread) is named too.
    let mut ticks = ticks;
    if let Some((x, _, _)) = spec.origin {
        ticks.insert(0, (t(x), tick(spec.x.scale, x)));
    }
    Span {
        log,
        lo: lo - pad,
        hi: hi + pad,
        ticks,
        zero: None,
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A linear axis in drawing space whose ticks are exactly ours (the sizes measured, whole
/// decades), not plotters' round numbers.
struct Keyed {
    lo: f64,
    hi: f64,
    keys: Vec<f64>,
}

impl Keyed {
    fn new(span: &Span) -> Keyed {
        Keyed {
            lo: span.lo,
            hi: span.hi,
            keys: span.ticks.iter().map(|t| t.0).collect(),
        }
    }
}

impl Ranged for Keyed {
    type ValueType = f64;
    type FormatOption = DefaultFormatting;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (f * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.keys.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// A text's box in the drawing's pixels.
#[derive(Clone, Copy, Debug)]
struct Rect {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Rect {
    fn meets(&self, other: &Rect) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    /// Whether the segment `a`–`b` passes through the box (Liang–Barsky clipping).
    fn crossed_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-dx, a.0 - self.left),
            (dx, self.right - a.0),
            (-dy, a.1 - self.top),
            (dy, self.bottom - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
                continue;
            }
            let t = q / p;
            if p < 0.0 {
                if t > t1 {
                    return false;
                }
                t0 = t0.max(t);
            } else {
                if t < t0 {
                    return false;
                }
                t1 = t1.min(t);
            }
        }
        true
    }
}

/// The chart as one line of SVG markup, colours replaced by classes.
pub(super) fn draw(spec: &Chart, lines: &[Line<'_>], vlines: &[VLine]) -> Result<String, String> {
    let mut ys = Vec::new();
    for l in lines {
        for (_, _, p) in &l.points {
            if let Point::Value { v, low, high } = p {
                ys.extend([*v, *low, *high]);
            }
        }
    }
    if let Some(band) = spec.band {
        ys.extend(band.points.iter().flat_map(|(_, lo, hi)| [*lo, *hi]));
    }
    if let Some((y, _)) = spec.level {
        ys.push(y);
    }
    if let Some((_, y, _)) = spec.origin {
        ys.push(y);
    }
    let mut xs_extra: Vec<f64> = vlines.iter().map(|v| v.x).collect();
    if let Some((x, _, _)) = spec.origin {
        xs_extra.push(x);
    }
    let xspan = x_span(spec, &xs_extra);
    let yspan = y_span(&spec.y, &ys)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        plot(&root, spec, lines, vlines, &xspan, &yspan)
            .map_err(|e| format!("cannot draw chart `{}`: {e}", spec.name))?;
        root.present()
            .map_err(|e| format!("cannot draw chart `{}`: {e}", spec.name))?;
    }
    Ok(recolour(&svg, &lab_text::tr::get_dynamic(spec.title)))
}

/// The axis titles' font: [`FONT`], or smaller when the rotated y title would run past the
/// drawing's height (a Russian title is half again as long as the English one, and ran over the
/// caption above the chart). Estimated at 0.55 em a character, plotters' 1.24 included.
pub(super) fn title_font(y_title: &str) -> f64 {
    let room = f64::from(HEIGHT) - 20.0;
    let width = y_title.chars().count() as f64 * 0.55 * FONT / 1.24;
    if width > room {
        FONT * room / width
    } else {
        FONT
    }
}

fn plot(
    root: &Area<'_>,
    spec: &Chart,
    lines: &[Line<'_>],
    vlines: &[VLine],
    xspan: &Span,
    yspan: &Span,
) -> Result<(), Box<dyn std::error::Error>> {
    let font = || ("sans-serif", FONT).into_font().color(&INK);
    // The y labels' area holds six characters ("100 kB") beside the axis title; a longer label
    // ("10,000×") widens it by its extra characters and a little air, or it runs into the title.
    let longest = yspan
        .ticks
        .iter()
        .map(|(_, l)| l.chars().count())
        .max()
        .unwrap_or(0);
    let y_area = if longest > 6 {
        78 + ((longest - 6) as f64 * 0.55 * FONT + 6.0).ceil() as u32
    } else {
        78
    };
    let mut chart = ChartBuilder::on(root)
        .margin_top(12)
        .margin_right(24)
        .margin_left(6)
        .margin_bottom(6)
        .x_label_area_size(58)
        .y_label_area_size(y_area)
        .build_cartesian_2d(Keyed::new(xspan), Keyed::new(yspan))?;
    let xlabels = xspan.ticks.clone();
    let ylabels = yspan.ticks.clone();
    let label = move |ticks: &Vec<(f64, String)>, v: f64| {
        ticks
            .iter()
            .find(|(at, _)| (at - v).abs() < 1e-9)
            .map(|(_, l)| l.clone())
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .axis_style(INK)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .label_style(font())
        .axis_desc_style(
            (
                "sans-serif",
                title_font(&lab_text::tr::get_dynamic(spec.y.label)),
            )
                .into_font()
                .color(&AXIS_TITLE),
        )
        .x_desc(lab_text::tr::get_dynamic(spec.x.label))
        .y_desc(lab_text::tr::get_dynamic(spec.y.label))
        .x_label_formatter(&|v| label(&xlabels, *v))
        .y_label_formatter(&|v| label(&ylabels, *v))
        .draw()?;
    let (ylo, yhi) = (yspan.lo, yspan.hi);
    if let Some(band) = spec.band {
        let upper = band
            .points
            .iter()
            .map(|(x, _, hi)| (xspan.to(*x), yspan.to(*hi)));
        let lower = band
            .points
            .iter()
            .rev()
            .map(|(x, lo, _)| (xspan.to(*x), yspan.to(*lo)));
        chart.draw_series(std::iter::once(Polygon::new(
            upper.chain(lower).collect::<Vec<_>>(),
            BAND.filled(),
        )))?;
    }
    if let Some((y, _)) = spec.level {
        let y = yspan.to(y);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(xspan.lo, y), (xspan.hi, y)],
            LEVEL.stroke_width(2),
        )))?;
    }
    // What a mark's label must not cover: every series' segments and every mark's line, in
    // the drawing's pixels.
    let mut obstacles: Vec<((f64, f64), (f64, f64))> = Vec::new();
    let px = |x: f64, y: f64| {
        let (a, b) = chart.backend_coord(&(x, y));
        (f64::from(a), f64::from(b))
    };
    for l in lines {
        let mut last: Option<(f64, f64)> = None;
        for ((_, _, p), x) in l.points.iter().zip(spec.xs) {
            match p {
                Point::Value { v, .. } => {
                    let here = px(xspan.to(x.at), yspan.to(*v));
                    if let Some(from) = last {
                        obstacles.push((from, here));
                    }
                    last = Some(here);
                }
                _ => last = None,
            }
        }
    }
    for v in vlines {
        let x = xspan.to(v.x);
        obstacles.push((px(x, ylo), px(x, yhi)));
    }
    let anchors: Vec<(f64, f64)> = vlines.iter().map(|v| px(xspan.to(v.x), yhi)).collect();
    let mut placed: Vec<Rect> = Vec::new();
    for (i, v) in vlines.iter().enumerate() {
        let x = xspan.to(v.x);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, ylo), (x, yhi)],
            MARK.stroke_width(2),
        )))?;
        // The label beside the line, on the first row from the top where it covers no other
        // label and no line; on the right of the line unless the line is in the right half.
        let right = (x - xspan.lo) / (xspan.hi - xspan.lo) > 0.55;
        let anchor = if right {
            Pos::new(HPos::Right, VPos::Top)
        } else {
            Pos::new(HPos::Left, VPos::Top)
        };
        let dx = if right { -6 } else { 6 };
        let (ax, ay) = anchors[i];
        let width = v.label.chars().count() as f64 * 0.6 * FONT / 1.24;
        let height = FONT / 1.24 + 2.0;
        let rect_at = |row: i32| {
            let left = if right {
                ax + f64::from(dx) - width
            } else {
                ax + f64::from(dx)
            };
            let top = ay + f64::from(6 + 22 * row);
            Rect {
                left,
                top,
                right: left + width,
                bottom: top + height,
            }
        };
        let free = |r: &Rect| {
            placed.iter().all(|p| !p.meets(r))
                && obstacles.iter().all(|(a, b)| !r.crossed_by(*a, *b))
        };
        let row = (0..12).find(|row| free(&rect_at(*row))).unwrap_or(i as i32);
        placed.push(rect_at(row));
        chart.draw_series(std::iter::once(
            EmptyElement::at((x, yhi))
                + Text::new(
                    v.label.clone(),
                    (dx, 6 + 22 * row),
                    ("sans-serif", FONT)
                        .into_font()
                        .color(&MARK_LABEL)
                        .pos(anchor),
                ),
        ))?;
    }
    for l in lines {
        let colour = series_colour(l.series, l.machine);
        let mut run: Vec<(f64, f64)> = Vec::new();
        if let Some((x, y, _)) = spec.origin {
            run.push((xspan.to(x), yspan.to(y)));
        }
        let mut runs = Vec::new();
        for ((_, _, p), x) in l.points.iter().zip(spec.xs) {
            match p {
                Point::Value { v, low, high } => {
                    let at = xspan.to(x.at);
                    run.push((at, yspan.to(*v)));
                    if high > low {
                        let (lo, hi) = (yspan.to(*low), yspan.to(*high));
                        chart.draw_series(std::iter::once(PathElement::new(
                            vec![(at, lo), (at, hi)],
                            colour.stroke_width(2),
                        )))?;
                        for y in [lo, hi] {
                            chart.draw_series(std::iter::once(
                                EmptyElement::at((at, y))
                                    + PathElement::new(
                                        vec![(-5, 0), (5, 0)],
                                        colour.stroke_width(2),
                                    ),
                            ))?;
                        }
                    }
                }
                // A gap: the line stops here and starts again after it.
                Point::Gated(_) | Point::Missing => runs.push(std::mem::take(&mut run)),
            }
        }
        runs.push(run);
        for run in runs {
            if run.len() > 1 {
                chart.draw_series(LineSeries::new(run.iter().copied(), colour.stroke_width(3)))?;
            }
            chart.draw_series(
                run.iter()
                    .map(|p| Circle::new(*p, 5, colour.filled().stroke_width(2))),
            )?;
        }
    }
    Ok(())
}

/// Rewrites plotters' output: sentinel colours become `currentColor` and a class, the fixed size
/// becomes a scalable `viewBox`, newlines go (the SVG sits in a Markdown HTML block, which a
/// blank line would end).
fn recolour(svg: &str, title: &str) -> String {
    let svg = &svg[svg.find("<svg").unwrap_or(0)..];
    let mut out = String::with_capacity(svg.len());
    for (i, piece) in svg.split('<').enumerate() {
        if i == 0 {
            out.push_str(piece);
            continue;
        }
        out.push('<');
        if piece.starts_with("svg ") {
            let rest = piece.find('>').map_or("", |end| &piece[end + 1..]);
            out.push_str(&format!(
                "svg class=\"lab-chart-svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
                 xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{}\">{}",
                super::escape(title),
                rest.trim()
            ));
            continue;
        }
        let end = piece.find('>').unwrap_or(piece.len());
        let (tag, rest) = piece.split_at(end);
        let mut tag = tag.to_string();
        let mut classes = Vec::new();
        for attr in ["fill", "stroke"] {
            let pattern = format!("{attr}=\"#");
            if let Some(at) = tag.find(&pattern) {
                let start = at + pattern.len();
                if let Some(class) = tag.get(start..start + 6).and_then(class_of) {
                    tag.replace_range(start - 1..start + 6, "currentColor");
                    if !classes.contains(&class) {
                        classes.push(class);
                    }
                }
            }
        }
        // Opacity comes from the stylesheet for our colours; plotters writes opacity="1". The
        // font family is the page's (`lab-charts.css`), a stroke's width 1 is SVG's default, and
        // a font size needs no fourteen decimals: a chapter carries several charts.
        let tag = tag
            .replace(" opacity=\"1\"", "")
            .replace(" font-family=\"sans-serif\"", "")
            .replace(" stroke-width=\"1\"", "");
        let tag = round_font_size(&tag);
        if let Some(space) = tag.find(' ').filter(|_| !classes.is_empty()) {
            out.push_str(&tag[..space]);
            out.push_str(&format!(" class=\"{}\"", classes.join(" ")));
            out.push_str(&tag[space..]);
        } else {
            out.push_str(&tag);
        }
        // plotters puts a newline after each tag and around text: drop it, or a text would
        // start with a space.
        if let Some(rest) = rest.strip_prefix('>') {
            out.push('>');
            out.push_str(rest.trim());
        } else {
            out.push_str(rest);
        }
    }
    out.replace('\n', " ")
}

/// `font-size="15.32258064516129"` → `font-size="15.3"`.
fn round_font_size(tag: &str) -> String {
    let pattern = "font-size=\"";
    let Some(at) = tag.find(pattern) else {
        return tag.to_string();
    };
    let start = at + pattern.len();
    let Some(len) = tag[start..].find('"') else {
        return tag.to_string();
    };
    match tag[start..start + len].parse::<f64>() {
        Ok(size) => format!(
            "{}{}{}",
            &tag[..start],
            format!("{size:.1}").trim_end_matches(".0"),
            &tag[start + len..]
        ),
        Err(_) => tag.to_string(),
    }
}
