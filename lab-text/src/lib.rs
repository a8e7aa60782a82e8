//! The course's text helpers, in one leaf crate that the lab (`wasm-lab`), the bench data
//! (`bench-data`) and the book's preprocessor share, so every number and every escaped string
//! reads the same wherever it is printed.
//!
//! - [`group_digits`]: `1048576` → `1,048,576`, the way the course prints counts.
//! - [`f!`]: `format!` through one shared, non-inlined call (small code in the shipped wasm).
//! - [`decimal`]: floats as fixed-point text, without core's float formatter.
//! - [`html`]: the one HTML escaper (text and attribute values).
//! - [`json`]: a small JSON writer for the lab's own values, without `serde_json`.
//! - [`lang`]: the languages the course ships; [`tr`]: the lab's words in the page's language
//!   ([`t!`], [`tf!`], [`tp!`]), and the language's digit grouping and decimal separator.
//! - [`verdict`]: the verdict rule (a ratio against 1 and the ±5 % band), which the book's text and
//!   the lab's quizzes both read ratios with.
//!
//! Nothing here depends on the pool, the course or the browser.

#![forbid(unsafe_code)]

pub mod decimal;
pub mod html;
pub mod json;
pub mod lang;
pub mod tr;
pub mod verdict;

/// `format!` through one shared, non-inlined call: `format!` inlines its fast path at every
/// call site, and the wasm build is shipped to every reader.
///
/// ```
/// assert_eq!(lab_text::f!("{} B", 128), "128 B");
/// ```
#[macro_export]
macro_rules! f {
    ($($t:tt)*) => {
        $crate::fmt(format_args!($($t)*))
    };
}

#[doc(hidden)]
#[inline(never)]
pub fn fmt(args: std::fmt::Arguments<'_>) -> String {
    std::fmt::format(args)
}

/// Formats a count with thousands separators, the way the course prints numbers: `1,048,576`
/// (in Russian, with no-break spaces: [`tr::group_separator`]).
///
/// ```
/// assert_eq!(lab_text::group_digits(1048576), "1,048,576");
/// assert_eq!(lab_text::group_digits(999), "999");
/// ```
pub fn group_digits(n: u64) -> String {
    if let Some(grouped) = tr::grouped_by_rules(n) {
        return grouped;
    }
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(tr::group_separator());
        }
        out.push(c);
    }
    out
}
