//! Drawings: a widget's picture as a few shapes in a fixed box, rendered to SVG.
//!
//! A widget that shows *how much* or *where* (bytes over rounds, a request against the heap's
//! borders) draws it as well as listing it: the table keeps the exact numbers, the drawing carries
//! the lesson. Coordinates are whole units of a `width × height` view box, so rendering formats
//! only integers (the wasm build keeps the float formatter out, see `contributors.md`). Every shape
//! is coloured by its [`Ink`], a class the book's CSS (`widgets.css`, `lab-ink-*`) sets per theme,
//! so a drawing follows light and coal like the text around it. The drawing's title is its
//! accessible name: what it shows, in words.

use lab_text::{f, html::escape};

/// One picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    /// Its `data-testid`.
    pub id: &'static str,
    /// What it shows, in words (the SVG's `<title>`, read by screen readers).
    pub title: String,
    pub width: u32,
    pub height: u32,
    pub shapes: Vec<Shape>,
}

/// What a shape stands for, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// Axes and ticks.
    Axis,
    /// Allocating fresh, or the large-object / mmap side of a border.
    Fresh,
    /// The pool, or the heap side of a border.
    Pool,
    /// What the reader asked for (a request, a break-even round).
    Mark,
    /// Context: a border, a band in the background.
    Muted,
    /// Labels.
    Text,
}

impl Ink {
    fn class(self) -> &'static str {
        match self {
            Ink::Axis => "lab-ink-axis",
            Ink::Fresh => "lab-ink-fresh",
            Ink::Pool => "lab-ink-pool",
            Ink::Mark => "lab-ink-mark",
            Ink::Muted => "lab-ink-muted",
            Ink::Text => "lab-ink-text",
        }
    }
}

/// Where a label's point is: its start, middle or end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A filled box; `id` becomes its `data-testid`.
    Rect {
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        ink: Ink,
        id: Option<&'static str>,
    },
    Line {
        from: (u32, u32),
        to: (u32, u32),
        ink: Ink,
        dashed: bool,
    },
    /// An open line through `points`; `id` becomes its `data-testid`.
    Path {
        points: Vec<(u32, u32)>,
        ink: Ink,
        id: Option<&'static str>,
    },
    Label {
        at: (u32, u32),
        text: String,
        ink: Ink,
        anchor: Anchor,
    },
}

/// A label at `at`.
pub fn label(at: (u32, u32), text: impl Into<String>, anchor: Anchor) -> Shape {
    Shape::Label {
        at,
        text: text.into(),
        ink: Ink::Text,
        anchor,
    }
}

/// A solid line from `from` to `to`.
pub fn line(from: (u32, u32), to: (u32, u32), ink: Ink) -> Shape {
    Shape::Line {
        from,
        to,
        ink,
        dashed: false,
    }
}

/// A dashed line from `from` to `to`.
pub fn dashed(from: (u32, u32), to: (u32, u32), ink: Ink) -> Shape {
    Shape::Line {
        from,
        to,
        ink,
        dashed: true,
    }
}

/// Maps `value` in `0..=max` onto `from..=to` (either direction), in whole units.
pub fn scale(value: u64, max: u64, from: u32, to: u32) -> u32 {
    let max = max.max(1);
    let v = value.min(max) as u128;
    let span = (to as i64 - from as i64).unsigned_abs() as u128;
    let d = (v * span + max as u128 / 2) / max as u128;
    if to >= from {
        from + d as u32
    } else {
        from - d as u32
    }
}

/// `log2(v)` in sixteenths of a doubling, in integers (0 for 0 and 1): the floor of log2, then
/// the fraction from the four bits below the top one. For log-scale axes and sliders, without
/// floats.
pub fn log2_16ths(v: u64) -> u32 {
    let v = v.max(1);
    let whole = 63 - v.leading_zeros();
    let frac = if whole >= 4 {
        (v >> (whole - 4)) & 15
    } else {
        (v << (4 - whole)) & 15
    };
    whole * 16 + frac as u32
}

/// The inverse of [`log2_16ths`] (exact from 16 up; below, the nearest whole number down).
pub fn exp2_16ths(p: u32) -> u64 {
    let (whole, frac) = (p / 16, (p % 16) as u128);
    let v = ((16 + frac) << whole.min(63)) >> 4;
    u64::try_from(v).unwrap_or(u64::MAX)
}

/// The SVG of `d`.
pub fn svg(d: &Drawing) -> String {
    let mut out = f!(
        "<figure class=\"lab-drawing\"><svg viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{}-title\" data-testid=\"{}\"><title id=\"{}-title\">{}</title>",
        d.width,
        d.height,
        d.id,
        d.id,
        d.id,
        escape(&d.title)
    );
    for s in &d.shapes {
        out.push_str(&shape(s));
    }
    out + "</svg></figure>"
}

fn testid(id: &Option<&'static str>) -> String {
    id.map_or(String::new(), |id| f!(" data-testid=\"{id}\""))
}

fn shape(s: &Shape) -> String {
    match s {
        Shape::Rect {
            x,
            y,
            w,
            h,
            ink,
            id,
        } => f!(
            "<rect class=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\"{}/>",
            ink.class(),
            testid(id)
        ),
        Shape::Line {
            from,
            to,
            ink,
            dashed,
        } => f!(
            "<line class=\"{}{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            ink.class(),
            if *dashed { " lab-dashed" } else { "" },
            from.0,
            from.1,
            to.0,
            to.1
        ),
        Shape::Path { points, ink, id } => {
            let pts: Vec<String> = points.iter().map(|(x, y)| f!("{x},{y}")).collect();
            f!(
                "<polyline class=\"{} lab-line\" points=\"{}\"{}/>",
                ink.class(),
                pts.join(" "),
                testid(id)
            )
        }
        Shape::Label {
            at,
            text,
            ink,
            anchor,
        } => f!(
            "<text class=\"{}\" x=\"{}\" y=\"{}\" text-anchor=\"{}\">{}</text>",
            ink.class(),
            at.0,
            at.1,
            match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
                Anchor::End => "end",
            },
            escape(text)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_maps_both_ways_and_clamps() {
        assert_eq!(scale(0, 10, 50, 150), 50);
        assert_eq!(scale(5, 10, 50, 150), 100);
        assert_eq!(scale(99, 10, 50, 150), 150);
        assert_eq!(scale(5, 10, 160, 20), 90);
        assert_eq!(scale(3, 0, 0, 10), 10);
    }

    #[test]
    fn log_scale_in_sixteenths() {
        assert_eq!(log2_16ths(1), 0);
        assert_eq!(log2_16ths(1024), 160);
        assert_eq!(log2_16ths(1536), 168);
        for p in 64..600 {
            assert_eq!(log2_16ths(exp2_16ths(p)), p, "{p}");
        }
        assert_eq!(exp2_16ths(160), 1024);
        assert!(exp2_16ths(10_000) > 1 << 62, "no overflow past 64 bits");
    }

    #[test]
    fn svg_escapes_text_and_names_itself() {
        let d = Drawing {
            id: "t",
            title: "a < b".into(),
            width: 10,
            height: 5,
            shapes: vec![
                label((1, 2), "x & y", Anchor::Middle),
                Shape::Path {
                    points: vec![(0, 5), (10, 0)],
                    ink: Ink::Pool,
                    id: Some("t-pool"),
                },
            ],
        };
        let s = svg(&d);
        assert!(s.contains("<title id=\"t-title\">a &lt; b</title>"), "{s}");
        assert!(s.contains(">x &amp; y</text>"), "{s}");
        assert!(
            s.contains("points=\"0,5 10,0\" data-testid=\"t-pool\""),
            "{s}"
        );
    }
}
