//! How a figure's value is printed: one formatter for the book, its claims and the tests, so a
//! printed number and the number a claim reports cannot differ.

use lab_text::group_digits;

use crate::{Figure, Unit, Verdict};

/// A figure's value as the book prints it: `12.3 ns`, `1,024 B`, `0.98×`.
///
/// ```
/// use bench_data::{format_value, Unit};
/// assert_eq!(format_value(Unit::Ratio, 0.98765), "0.988×");
/// assert_eq!(format_value(Unit::Bytes, 1048576.0), "1,048,576 B");
/// ```
pub fn format_value(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Nanoseconds if v >= 1e6 => format!("{} ms", sig3(v / 1e6)),
        Unit::Nanoseconds if v >= 1e3 => format!("{} µs", sig3(v / 1e3)),
        Unit::Nanoseconds => format!("{} ns", sig3(v)),
        Unit::Bytes => format!("{} B", group_digits(v.round() as u64)),
        Unit::Count => group_digits(v.round() as u64),
        Unit::Ratio if v >= 100.0 => format!("{}×", group_digits(v.round() as u64)),
        Unit::Ratio => format!("{}×", sig3(v)),
    }
}

/// The value with its 95 % interval, `0.865× [0.864–0.871]`; exact figures have no interval.
pub fn format_with_interval(f: &Figure) -> String {
    let value = format_value(f.unit, f.value);
    if f.low == f.high {
        return value;
    }
    let bare = |v: f64| {
        let s = format_value(f.unit, v);
        let s = s.trim_end_matches('×').to_string();
        // A ratio's bound must not print as 1 when it is not (0.9999 → "1.00" would contradict
        // the verdict "less" read from it): add digits until the side of 1 shows.
        if f.unit == Unit::Ratio && v != 1.0 && s.parse::<f64>().is_ok_and(|p| p == 1.0) {
            let digits = (-(v - 1.0).abs().log10()).ceil().clamp(2.0, 9.0) as usize;
            return format!("{v:.digits$}");
        }
        s
    };
    format!("{value} [{}–{}]", bare(f.low), bare(f.high))
}

/// Whether the gate lets this figure be printed as a value: absolute values when the gate says
/// so, ratios unless too noisy.
pub fn citable(f: &Figure) -> bool {
    match f.verdict {
        Verdict::Absolute => true,
        Verdict::RatioOnly => f.unit == Unit::Ratio,
        Verdict::Unfit => false,
    }
}

/// Three significant digits, so a ratio of 0.0042 does not print as "0.00".
fn sig3(v: f64) -> String {
    match v {
        v if v >= 100.0 => format!("{v:.0}"),
        v if v >= 10.0 => format!("{v:.1}"),
        v if v >= 1.0 || v <= 0.0 => format!("{v:.2}"),
        v => {
            let decimals = (2 - v.log10().floor() as i32).clamp(2, 9) as usize;
            format!("{v:.decimals$}")
        }
    }
}
