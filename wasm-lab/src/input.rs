//! What a reader types into a widget, turned into a request size or a message they understand.
//!
//! Widgets never see a raw `parse` error: every rejection here says what was wrong and what to
//! type instead, because a reader who typed `1e20` or `-5` is exploring, not misusing an API.
//!
//! ```
//! use wasm_lab::input::{parse_size, InputError};
//! assert_eq!(parse_size(" 1,024 "), Ok(1024));
//! assert_eq!(parse_size("24,41,64"), Err(InputError::Grouping("24,41,64".into())));
//! assert_eq!(parse_size("-5"), Err(InputError::Negative("-5".into())));
//! ```

use lab_text::{f, group_digits, n, t, tf};
use std::fmt;

/// The largest length a .NET array may have (`Array.MaxLength`); the lab refuses more, as .NET would.
pub const MAX_ARRAY_LENGTH: u64 = 0x7FFF_FFC7;

/// Why a typed number was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing but whitespace was typed.
    Empty,
    /// A minus sign before a number other than zero.
    Negative(String),
    /// A fraction: sizes and counts are whole numbers.
    NotWhole(String),
    /// Not a number at all.
    NotANumber(String),
    /// More than the field can hold (for a size: more than any .NET array can hold).
    TooLarge(String),
    /// Commas that do not group digits in threes (`24,41,64`): a list typed into one number, or
    /// a typo; never read as one number.
    Grouping(String),
    /// A space inside a number (`1 000`): one number with a space, or two numbers?
    Space(String),
}

/// The grammar every number field follows, as the widgets state it next to their fields.
pub const GRAMMAR: &str = n!("whole numbers; group digits with commas in threes (1,048,576)");

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Empty => f.write_str(&t!("Type a request size, e.g. 100")),
            InputError::Negative(s) => f.write_str(&tf!(
                "A size cannot be negative (“{}”): .NET's Rent throws ArgumentOutOfRangeException",
                s
            )),
            InputError::TooLarge(s) => f.write_str(&tf!(
                "“{}” is larger than any .NET array can be (Array.MaxLength = {})",
                s,
                group_digits(MAX_ARRAY_LENGTH)
            )),
            other => write!(f, "{}", other.grammar()),
        }
    }
}

impl InputError {
    /// The message for any field: about the number, never about sizes or arrays.
    fn grammar(&self) -> String {
        match self {
            InputError::Empty => t!("type a whole number, e.g. 100").into_owned(),
            InputError::Negative(s) => tf!("“{}” is negative: type 0 or more", s),
            InputError::NotWhole(s) => {
                tf!(
                    "“{}” is not a whole number: type it in digits, e.g. 100000",
                    s
                )
            }
            InputError::NotANumber(s) => tf!("“{}” is not a number: type digits, e.g. 4096", s),
            InputError::TooLarge(s) => tf!("“{}” is too large for this field", s),
            InputError::Grouping(s) => {
                tf!(
                    "“{}” is not one number: commas only group digits in threes (1,048,576)",
                    s
                )
            }
            InputError::Space(s) => {
                tf!(
                    "“{}” has a space inside: type one number, grouping digits with commas (1,000)",
                    s
                )
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Parses a request size as a reader types it (the calculator, the quizzes): a number by
/// [`parse_number`], at most [`MAX_ARRAY_LENGTH`].
///
/// Sizes up to [`MAX_ARRAY_LENGTH`] are accepted, including sizes above the largest bucket (the
/// pool serves those unpooled, which the widgets explain).
pub fn parse_size(text: &str) -> Result<u64, InputError> {
    match parse_number(text)? {
        n if n <= MAX_ARRAY_LENGTH => Ok(n),
        _ => Err(InputError::TooLarge(shown(text))),
    }
}

/// What a message quotes of the typed `text`: trimmed, at most 40 characters.
pub(crate) fn shown(text: &str) -> String {
    text.trim().chars().take(40).collect()
}

/// Parses a whole number as a reader types it, exactly: digits, optionally grouped with commas
/// (or Rust's underscores) in threes; a leading `+`; `-0` is zero; an exponent is fine when the
/// value is whole (`1e3` is 1,000, `2.5e1` is 25). Nothing ambiguous is guessed: `24,41,64` and
/// `1 000` are refused with a message, never read as 244,164 or as two numbers.
pub fn parse_number(text: &str) -> Result<u64, InputError> {
    let shown = shown(text);
    if shown.is_empty() {
        return Err(InputError::Empty);
    }
    if text.trim().chars().count() > 40 {
        return Err(InputError::TooLarge(shown + "…"));
    }
    // A Russian page groups with (no-break) spaces, as it prints numbers: read its own way too.
    let shown = if lab_text::tr::russian_numbers() {
        spaced_groups(&shown).unwrap_or(shown)
    } else {
        shown
    };
    if shown.chars().any(|c| c.is_whitespace()) {
        return Err(InputError::Space(shown));
    }
    let (negative, body) = match shown.strip_prefix(['-', '−']) {
        Some(rest) => (true, rest),
        None => (false, shown.strip_prefix('+').unwrap_or(&shown)),
    };
    let value = exact(body).map_err(|e| e.with(&shown))?;
    match value {
        Some(0) => Ok(0),
        Some(_) if negative => Err(InputError::Negative(shown)),
        Some(n) => Ok(n),
        None => Err(InputError::TooLarge(shown)),
    }
}

/// `1 048 576` (space, no-break or narrow no-break space between groups of three) as
/// `1,048,576`; `None` when the spaces are anything else.
fn spaced_groups(text: &str) -> Option<String> {
    let groups: Vec<&str> = text.split([' ', '\u{a0}', '\u{202f}']).collect();
    let digits = |g: &str| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit());
    let ok = groups.len() > 1
        && digits(groups[0])
        && groups[0].len() <= 3
        && groups[1..].iter().all(|g| digits(g) && g.len() == 3);
    ok.then(|| groups.join(","))
}

/// What [`exact`] found wrong, before it knows the whole text.
enum Bad {
    Grouping,
    NotWhole,
    NotANumber,
}

impl Bad {
    fn with(self, shown: &str) -> InputError {
        let s = shown.to_string();
        match self {
            Bad::Grouping => InputError::Grouping(s),
            Bad::NotWhole => InputError::NotWhole(s),
            Bad::NotANumber => InputError::NotANumber(s),
        }
    }
}

/// The value of `digits[.digits][e[+]digits]` with grouped digits; `Ok(None)` when it does not
/// fit in a `u64`.
fn exact(body: &str) -> Result<Option<u64>, Bad> {
    let (mantissa, exponent) = match body.split_once(['e', 'E']) {
        Some((m, e)) => {
            let e = e.strip_prefix('+').unwrap_or(e);
            if e.starts_with('-') {
                // 1e-3 is a fraction; 0e-3 is zero, which nobody types.
                return Err(Bad::NotWhole);
            }
            if e.is_empty() || !e.chars().all(|c| c.is_ascii_digit()) {
                return Err(Bad::NotANumber);
            }
            // At most 40 characters were typed: the exponent's digits fit a u64 or saturate.
            let e = e.bytes().fold(0u64, |v, b| {
                v.saturating_mul(10).saturating_add(u64::from(b - b'0'))
            });
            (m, u32::try_from(e).unwrap_or(u32::MAX))
        }
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let int = ungroup(int)?;
    if int.is_empty() && frac.is_empty() || !frac.chars().all(|c| c.is_ascii_digit()) {
        return Err(Bad::NotANumber);
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() as u64 > u64::from(exponent) {
        return Err(Bad::NotWhole);
    }
    let digits = f!("{int}{frac}");
    let zeros = exponent - frac.len() as u32;
    let mut value: u64 = 0;
    for c in digits.chars() {
        let Some(v) = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(c as u8 - b'0')))
        else {
            return Ok(None);
        };
        value = v;
    }
    if value == 0 {
        return Ok(Some(0));
    }
    Ok(10u64.checked_pow(zeros).and_then(|p| value.checked_mul(p)))
}

/// Digits with their group separators removed, if the groups are threes after the first.
fn ungroup(int: &str) -> Result<String, Bad> {
    for sep in [',', '_'] {
        if int.contains(sep) {
            let groups: Vec<&str> = int.split(sep).collect();
            let ok = groups.iter().all(|g| g.chars().all(|c| c.is_ascii_digit()))
                && (1..=3).contains(&groups[0].len())
                && groups[1..].iter().all(|g| g.len() == 3);
            return if ok {
                Ok(groups.concat())
            } else if groups.iter().all(|g| {
                g.chars()
                    .all(|c| c.is_ascii_digit() || c == ',' || c == '_')
            }) {
                Err(Bad::Grouping)
            } else {
                Err(Bad::NotANumber)
            };
        }
    }
    if int.chars().all(|c| c.is_ascii_digit()) {
        Ok(int.to_string())
    } else {
        Err(Bad::NotANumber)
    }
}

/// A number typed into the field `name`, at most `max`; messages speak of the field.
///
/// ```
/// use wasm_lab::input::field_number;
/// assert_eq!(field_number("Rounds", "1e3", 1_000_000), Ok(1000));
/// assert_eq!(field_number("Rounds", "-5", 10).unwrap_err(), "Rounds: “-5” is negative: type 0 or more");
/// ```
pub fn field_number(name: &str, text: &str, max: u64) -> Result<u64, String> {
    match parse_number(text) {
        Ok(n) if n <= max => Ok(n),
        Ok(_) | Err(InputError::TooLarge(_)) => Err(tf!(
            "{}: “{}” is more than this field takes (at most {})",
            name,
            shown(text),
            group_digits(max)
        )),
        Err(e) => Err(f!("{name}: {}", e.grammar())),
    }
}

/// A request size typed into the field `name` (at most [`MAX_ARRAY_LENGTH`], as .NET).
pub fn field_size(name: &str, text: &str) -> Result<u64, String> {
    match parse_size(text) {
        Ok(n) => Ok(n),
        Err(InputError::Negative(s)) => Err(tf!(
            "{}: a size cannot be negative (“{}”): .NET's Rent throws ArgumentOutOfRangeException",
            name,
            s
        )),
        Err(InputError::TooLarge(s)) => Err(tf!(
            "{}: “{}” is larger than any .NET array can be (Array.MaxLength = {})",
            name,
            s,
            group_digits(MAX_ARRAY_LENGTH)
        )),
        Err(e) => Err(f!("{name}: {}", e.grammar())),
    }
}

/// A byte value typed into the field `name` (0 to 255).
pub fn field_byte(name: &str, text: &str) -> Result<u8, String> {
    match parse_number(text) {
        Ok(n) => u8::try_from(n).map_err(|_| {
            tf!(
                "{}: {} does not fit in a byte (0 to 255)",
                name,
                group_digits(n)
            )
        }),
        Err(InputError::Negative(s)) => {
            Err(tf!("{}: “{}” is negative: a byte holds 0 to 255", name, s))
        }
        Err(InputError::TooLarge(s)) => {
            Err(tf!("{}: “{}” does not fit in a byte (0 to 255)", name, s))
        }
        Err(e) => Err(f!("{name}: {}", e.grammar())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_grouped_digits() {
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("1_048_577"), Ok(1_048_577));
        assert_eq!(parse_size("+16"), Ok(16));
        assert_eq!(parse_size("2147483591"), Ok(MAX_ARRAY_LENGTH));
    }

    #[test]
    fn refuses_what_a_reader_might_type() {
        assert_eq!(parse_size("   "), Err(InputError::Empty));
        assert_eq!(parse_size("-5"), Err(InputError::Negative("-5".into())));
        assert_eq!(parse_size("abc"), Err(InputError::NotANumber("abc".into())));
        assert_eq!(parse_size("1e20"), Err(InputError::TooLarge("1e20".into())));
        assert_eq!(parse_size("12.5"), Err(InputError::NotWhole("12.5".into())));
        assert_eq!(parse_size("NaN"), Err(InputError::NotANumber("NaN".into())));
        assert_eq!(parse_size("inf"), Err(InputError::NotANumber("inf".into())));
        assert_eq!(
            parse_size("2147483592"),
            Err(InputError::TooLarge("2147483592".into()))
        );
        assert_eq!(
            parse_size("99999999999999999999999"),
            Err(InputError::TooLarge("99999999999999999999999".into()))
        );
    }

    #[test]
    fn messages_name_the_input() {
        assert!(parse_size("abc").unwrap_err().to_string().contains("“abc”"));
        assert!(
            parse_size("")
                .unwrap_err()
                .to_string()
                .starts_with("Type a request size")
        );
    }

    #[test]
    fn groups_digits() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(1_073_741_824), "1,073,741,824");
    }
}
