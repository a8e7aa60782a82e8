//! The instruction check's bound in words (issue 35). The bench records where its clock comes
//! from, the core's sustained width with its source and the macro-op fusion it counted, each
//! written with the templates below (filled in English); the book reads them back in the page's
//! language. As with the gate's notes (`note.rs`), a text of another shape stays as written.
//!
//! The bound is the most macro-ops a core sustains per cycle: its dispatch width (AMD) or its
//! rename and allocation width (Intel), the narrowest stage every instruction passes. A fused
//! compare-and-jump is one macro-op there. Files of schema 3 recorded a retire width instead
//! (the `OLD_*` shapes); they are read as they are.

use lab_text::{n, tr};

/// The clock: dependent adds ran at least as fast as `/proc/cpuinfo` says.
pub const CLOCK_MEASURED: &str = n!("measured: dependent register adds, best of 200 tries");
/// The same, with `/proc/cpuinfo`'s clock beside it.
pub const CLOCK_MEASURED_NOMINAL: &str =
    n!("measured: dependent register adds, best of 200 tries; /proc/cpuinfo says {} GHz");
/// `/proc/cpuinfo`'s clock, higher than the dependent adds showed (the higher one is kept).
pub const CLOCK_NOMINAL_FASTER: &str = n!("/proc/cpuinfo's {} GHz (dependent adds ran at {} GHz)");
/// Only `/proc/cpuinfo`'s clock.
pub const CLOCK_NOMINAL: &str = n!("/proc/cpuinfo's cpu MHz");
/// No clock at all.
pub const CLOCK_UNKNOWN: &str = n!("unknown: 5 GHz assumed");

/// A core of the bench's table: its name, family, model, width and one of [`REFERENCES`].
pub const WIDTH: &str = n!("{} (family {} model {}): at most {} macro-ops per cycle, {}");
/// A core the bench's table does not know: vendor, family, model and the width assumed.
pub const WIDTH_ASSUMED: &str = n!(
    "{} family {} model {}: not in the bench's table, so {} macro-ops per cycle are assumed, as many as the widest core it knows"
);
pub const AMD_17H: &str =
    n!("its dispatch width in AMD's Software Optimization Guide for family 17h");
pub const AMD_19H: &str =
    n!("its dispatch width in AMD's Software Optimization Guide for family 19h");
pub const AMD_1AH: &str =
    n!("its dispatch width in AMD's Software Optimization Guide for family 1Ah");
pub const INTEL: &str =
    n!("its rename and allocation width in Intel's optimization reference manual");
/// Where a width of [`WIDTH`] comes from.
pub const REFERENCES: &[&str] = &[AMD_17H, AMD_19H, AMD_1AH, INTEL];

/// The pairs counted as one macro-op on a core that fuses only compares with jumps.
pub const FUSION_CMP_TEST: &str =
    n!("a cmp or test directly followed by a conditional jump is one macro-op");
/// The pairs counted as one macro-op on a core that also fuses some arithmetic with jumps.
pub const FUSION_ALU: &str = n!(
    "a cmp, test, add, sub, and, inc or dec directly followed by a conditional jump is one macro-op"
);

// The retire widths schema 3 files recorded (read only; `cpu.rs` reads the CPU they name).
pub(crate) const OLD_AMD: &str = n!("AMD Zen (family {}): retires up to {} macro-ops per cycle");
pub(crate) const OLD_SKYLAKE: &str =
    n!("Intel Skylake-SP class (model {}): retires 4 fused µops per cycle");
pub(crate) const OLD_SUNNY: &str = n!("Intel Sunny/Willow Cove (model {}): 5 per cycle");
pub(crate) const OLD_ASSUMED: &str =
    n!("{} family {} model {}: 8 per cycle assumed (the widest x86 core)");

/// A clock's source (`Clock::source`) in this thread's language.
pub fn clock_words(source: &str) -> String {
    if tr::language().code == "en" {
        return source.to_string();
    }
    for plain in [CLOCK_MEASURED, CLOCK_NOMINAL, CLOCK_UNKNOWN] {
        if source == plain {
            return tr::dynamic(plain).to_string();
        }
    }
    let n = tr::localize_figure;
    if let Some([ghz]) = numbers::<1>(CLOCK_MEASURED_NOMINAL, source) {
        return tr::format(CLOCK_MEASURED_NOMINAL, &[&n(ghz)]);
    }
    if let Some([a, b]) = numbers::<2>(CLOCK_NOMINAL_FASTER, source) {
        return tr::format(CLOCK_NOMINAL_FASTER, &[&n(a), &n(b)]);
    }
    source.to_string()
}

/// A width's source (`Clock::sustained_width_source`, or a schema 3 file's retire width) in
/// this thread's language.
pub fn width_words(source: &str) -> String {
    if tr::language().code == "en" {
        return source.to_string();
    }
    if let Some([core, family, model, width, reference]) = shape::<5>(WIDTH, source)
        && REFERENCES.contains(&reference)
        && [family, model, width].iter().all(|x| number(x))
    {
        return tr::format(
            WIDTH,
            &[&core, &family, &model, &width, &tr::dynamic(reference)],
        );
    }
    for (template, fields) in [(WIDTH_ASSUMED, 4), (OLD_ASSUMED, 3)] {
        if let Some(found) = shape_n(template, source, fields)
            && found[1..].iter().all(|x| number(x))
        {
            let args: Vec<&dyn std::fmt::Display> =
                found.iter().map(|x| x as &dyn std::fmt::Display).collect();
            return tr::format(template, &args);
        }
    }
    if let Some([family, width]) = numbers::<2>(OLD_AMD, source) {
        return tr::format(OLD_AMD, &[&family, &width]);
    }
    for one in [OLD_SKYLAKE, OLD_SUNNY] {
        if let Some([model]) = numbers::<1>(one, source) {
            return tr::format(one, &[&model]);
        }
    }
    source.to_string()
}

/// A fusion rule (`Clock::fusion`) in this thread's language.
pub fn fusion_words(rule: &str) -> String {
    for known in [FUSION_CMP_TEST, FUSION_ALU] {
        if rule == known {
            return tr::dynamic(known).to_string();
        }
    }
    rule.to_string()
}

fn number(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// [`shape`] whose fields are all numbers.
fn numbers<'a, const N: usize>(template: &str, text: &'a str) -> Option<[&'a str; N]> {
    shape::<N>(template, text).filter(|found| found.iter().all(|x| number(x)))
}

fn shape<'a, const N: usize>(template: &str, text: &'a str) -> Option<[&'a str; N]> {
    shape_n(template, text, N)?.try_into().ok()
}

/// The `n` texts standing for `template`'s `{}`s in `text`, if `text` has that shape: each
/// non-empty, ending at the first occurrence of the literal that follows it (the last one at the
/// text's end).
pub(crate) fn shape_n<'a>(template: &str, text: &'a str, n: usize) -> Option<Vec<&'a str>> {
    let literals: Vec<&str> = template.split("{}").collect();
    if literals.len() != n + 1 {
        return None;
    }
    let mut rest = text.strip_prefix(literals[0])?;
    let mut out = Vec::with_capacity(n);
    for (i, literal) in literals[1..].iter().enumerate() {
        let end = if i + 1 == n {
            rest.len()
                .checked_sub(literal.len())
                .filter(|&e| rest.is_char_boundary(e) && rest[e..] == **literal)?
        } else {
            rest.find(literal)?
        };
        if end == 0 {
            return None;
        }
        out.push(&rest[..end]);
        rest = &rest[end + literal.len()..];
    }
    rest.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_read_with_text_and_numbers() {
        let source = lab_text::tr::fill(WIDTH, &[&"AMD Zen 3", &25, &1, &6, &AMD_19H]);
        assert_eq!(
            source,
            "AMD Zen 3 (family 25 model 1): at most 6 macro-ops per cycle, its dispatch width in AMD's Software Optimization Guide for family 19h"
        );
        assert_eq!(
            shape::<5>(WIDTH, &source),
            Some(["AMD Zen 3", "25", "1", "6", AMD_19H])
        );
        assert_eq!(
            numbers::<1>(
                CLOCK_MEASURED_NOMINAL,
                "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.45 GHz"
            ),
            Some(["2.45"])
        );
        assert_eq!(numbers::<1>(CLOCK_MEASURED_NOMINAL, CLOCK_MEASURED), None);
        assert_eq!(shape::<2>("{} and {}", "a and "), None);
    }

    #[test]
    fn a_translated_page_reads_the_bound() {
        let strings = |pairs: &[(&str, &str)]| {
            let entries: Vec<_> = pairs
                .iter()
                .map(|(en, ru)| (tr::key(en), vec![ru.to_string()]))
                .collect();
            tr::strings_file(&entries).unwrap()
        };
        let width = tr::fill(WIDTH, &[&"AMD Zen 3", &25, &1, &6, &AMD_19H]);
        let old = "AMD Zen (family 26): retires up to 8 macro-ops per cycle";
        let clock =
            "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.45 GHz";
        tr::set_language("en");
        assert_eq!(width_words(&width), width);
        tr::set_language("ru");
        tr::install_file(&strings(&[
            (
                WIDTH,
                "{} (семейство {} модель {}): не больше {} макроопераций за такт, {}",
            ),
            (AMD_19H, "ширина диспетчеризации"),
            (OLD_AMD, "AMD Zen (семейство {}): до {} за такт"),
            (
                CLOCK_MEASURED_NOMINAL,
                "измерено; /proc/cpuinfo говорит {} ГГц",
            ),
            (FUSION_CMP_TEST, "cmp или test с переходом: одна"),
        ]));
        assert_eq!(
            width_words(&width),
            "AMD Zen 3 (семейство 25 модель 1): не больше 6 макроопераций за такт, ширина диспетчеризации"
        );
        assert_eq!(width_words(old), "AMD Zen (семейство 26): до 8 за такт");
        assert_eq!(
            clock_words(clock),
            "измерено; /proc/cpuinfo говорит 2,45 ГГц"
        );
        assert_eq!(
            fusion_words(FUSION_CMP_TEST),
            "cmp или test с переходом: одна"
        );
        // Another shape, or an unknown reference, stays as written.
        let other = tr::fill(WIDTH, &[&"AMD Zen 3", &25, &1, &6, &"a blog"]);
        assert_eq!(width_words(&other), other);
        assert_eq!(width_words("something else"), "something else");
        tr::install_file("");
        tr::set_language("en");
    }
}
