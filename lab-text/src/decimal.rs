//! Floats as fixed-point text (`12.3`, `0.875`) for what the lab shows readers.
//!
//! Why not `format!("{x:.1}")`: the first float that reaches `core::fmt` links its whole float
//! formatter (Grisu and Dragon with their tables, 14 KB in one function plus their helpers) into
//! the wasm module every page downloads, for a handful of ratios and percentages. Scaling by a
//! power of ten and printing an integer needs no float formatter at all. No crate does
//! fixed-precision formatting without that formatter or a larger one (`ryu`/`dtoa` print the
//! shortest form only; `lexical` is bigger than what it would replace).
//!
//! The rounding is half away from zero on the scaled value, where `core::fmt` rounds the exact
//! decimal half to even: they differ only on ties and near-ties (`0.25` to one decimal: `0.3`
//! here, `0.2` there; `2.675`, stored as 2.67499…, scales to exactly 267.5: `2.68` here, `2.67`
//! there), a last-digit difference no figure the lab shows depends on.
//!
//! ```
//! use lab_text::decimal::fixed;
//! assert_eq!(fixed(99.8046875, 1), "99.8");
//! assert_eq!(fixed(-0.004, 2), "0.00");
//! assert_eq!(fixed(1234.5, 0), "1235");
//! ```

/// `x` with exactly `decimals` digits after the point (none, and no point, for 0); the point is
/// the page's language's ([`crate::tr::decimal_separator`]: a comma in Russian).
///
/// Non-finite values print as `NaN`, `inf` and `-inf`, as `core::fmt` does. Values too large to
/// scale exactly (beyond 2^53 after scaling) print their integer part only, padded with zeros.
pub fn fixed(x: f64, decimals: u32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let decimals = decimals.min(9);
    let scale = 10u64.pow(decimals);
    let scaled = (x.abs() * scale as f64).round();
    // 2^53: beyond it, f64 has no fractional digits to show.
    let (int, frac) = if scaled < 9_007_199_254_740_992.0 {
        let n = scaled as u64;
        (n / scale, n % scale)
    } else {
        (x.abs().round() as u64, 0)
    };
    let mut out = String::new();
    if x.is_sign_negative() && (int, frac) != (0, 0) {
        out.push('-');
    }
    out.push_str(&int.to_string());
    if decimals > 0 {
        out.push(crate::tr::decimal_separator());
        let digits = frac.to_string();
        for _ in digits.len()..decimals as usize {
            out.push('0');
        }
        out.push_str(&digits);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fixed;

    #[test]
    fn matches_core_fmt_away_from_ties() {
        for &x in &[
            0.0,
            1.0,
            0.05,
            0.1234,
            12.3456,
            99.8046875,
            1.005,
            1e-9,
            123_456.789,
            0.999,
            9.96,
            -3.0625 * 1.01,
            -0.5001,
        ] {
            for d in 0..=3 {
                let want = format!("{x:.*}", d as usize);
                // Ties and near-ties may round differently (documented); these inputs are neither.
                assert_eq!(fixed(x, d), want, "{x} to {d} decimals");
            }
        }
    }

    #[test]
    fn negative_zero_and_non_finite() {
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-0.01, 1), "0.0");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
        assert_eq!(fixed(f64::INFINITY, 2), "inf");
        assert_eq!(fixed(f64::NEG_INFINITY, 0), "-inf");
    }

    #[test]
    fn huge_values_keep_their_integer_part() {
        assert_eq!(fixed(1e17, 2), "100000000000000000.00");
        assert_eq!(fixed(12_345_678.0, 3), "12345678.000");
    }
}
