//! What a reader types into a widget, turned into a request size or a message they understand.
//!
//! Widgets never see a raw `parse` error: every rejection here says what was wrong and what to
//! type instead, because a reader who typed `1e20` or `-5` is exploring, not misusing an API.
//!
//! ```
//! use wasm_lab::input::{parse_size, InputError};
//! assert_eq!(parse_size(" 1,024 "), Ok(1024));
//! assert_eq!(parse_size("-5"), Err(InputError::Negative("-5".into())));
//! ```

use std::fmt;

/// The largest length a .NET array may have (`Array.MaxLength`); the lab refuses more, as .NET would.
pub const MAX_ARRAY_LENGTH: u64 = 0x7FFF_FFC7;

/// Why a typed size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing but whitespace was typed.
    Empty,
    /// A minus sign: sizes cannot be negative (.NET throws `ArgumentOutOfRangeException`).
    Negative(String),
    /// A decimal point or an exponent: sizes are whole numbers.
    NotWhole(String),
    /// Not a number at all.
    NotANumber(String),
    /// More than any .NET array can hold.
    TooLarge(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Empty => write!(f, "Type a request size, e.g. 100"),
            InputError::Negative(s) => write!(
                f,
                "A size cannot be negative (“{s}”): .NET's Rent throws ArgumentOutOfRangeException"
            ),
            InputError::NotWhole(s) => write!(
                f,
                "“{s}” is not a whole number: type the size in digits, e.g. 100000"
            ),
            InputError::NotANumber(s) => write!(f, "“{s}” is not a number: type digits, e.g. 4096"),
            InputError::TooLarge(s) => write!(
                f,
                "“{s}” is larger than any .NET array can be (Array.MaxLength = 2,147,483,591)"
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// Parses a request size as a reader types it: digits, optionally grouped with `,`, `_` or spaces.
///
/// Sizes up to [`MAX_ARRAY_LENGTH`] are accepted, including sizes above the largest bucket (the
/// pool serves those unpooled, which the widgets explain).
pub fn parse_size(text: &str) -> Result<u64, InputError> {
    let shown: String = text.trim().chars().take(40).collect();
    if shown.is_empty() {
        return Err(InputError::Empty);
    }
    if shown.starts_with('-') || shown.starts_with('−') {
        return Err(InputError::Negative(shown));
    }
    let digits: String = shown
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' ' | '\u{a0}' | '\u{202f}'))
        .collect();
    let digits = digits.strip_prefix('+').unwrap_or(&digits);
    if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
        return match digits.parse::<u64>() {
            Ok(n) if n <= MAX_ARRAY_LENGTH => Ok(n),
            _ => Err(InputError::TooLarge(shown)),
        };
    }
    if digits.parse::<f64>().is_ok_and(f64::is_finite) {
        return Err(InputError::NotWhole(shown));
    }
    Err(InputError::NotANumber(shown))
}

/// Formats a count with thousands separators, the way the course prints numbers: `1,048,576`.
///
/// ```
/// assert_eq!(wasm_lab::input::group_digits(1048576), "1,048,576");
/// ```
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
        assert_eq!(parse_size("1e20"), Err(InputError::NotWhole("1e20".into())));
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
