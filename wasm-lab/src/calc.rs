//! The bucket calculator: one request size in, everything the pool decides about it out.
//!
//! The widget in chapter 2 shows exactly this struct; the quizzes check answers against it. It
//! takes a `u64` so that the answer is the same natively and in wasm32, where `usize` is 32 bits.
//!
//! ```
//! let c = wasm_lab::calc::calculate(100);
//! assert_eq!((c.index, c.length, c.wasted), (Some(3), 128, 28));
//! assert_eq!(c.wasted_percent, 21.875);
//! ```

use serde::Serialize;

use bufpool::bucket::{self, MAX_BUCKET_LEN, Rounding};
use lab_text::{group_digits, t, tf};

/// What the shared pool does with one request, in the terms the course uses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calculation {
    /// The request, in elements (bytes for a pool of `u8`).
    pub request: u64,
    /// `empty`, `bucket` or `oversize`.
    pub kind: &'static str,
    /// The bucket index, when the request is served from a bucket.
    pub index: Option<u32>,
    /// Length of the buffer handed out.
    pub length: u64,
    /// `length - request`: the part of the buffer that is not your data.
    pub wasted: u64,
    /// `wasted` as a percentage of `length` (0 for an empty buffer).
    pub wasted_percent: f64,
    /// `wasted` as a percentage of the request, as the source article prints it (0 for `0`).
    pub excess_percent: f64,
    /// Whether the buffer goes back into the pool on return.
    pub pooled: bool,
    /// One sentence on why, with the formula's steps.
    pub why: String,
}

/// Rounds `request` as the shared pool does and explains the result.
pub fn calculate(request: u64) -> Calculation {
    let rounding = if request > MAX_BUCKET_LEN as u64 {
        None
    } else {
        Some(bucket::round(request as usize))
    };
    let (kind, index, length) = match rounding {
        Some(Rounding::Empty) => ("empty", None, 0),
        Some(Rounding::Bucket { index, length }) => ("bucket", Some(index as u32), length as u64),
        Some(Rounding::Oversize { .. }) | None => ("oversize", None, request),
    };
    let wasted = length - request;
    let wasted_percent = if length == 0 {
        0.0
    } else {
        wasted as f64 * 100.0 / length as f64
    };
    let excess_percent = if request == 0 {
        0.0
    } else {
        wasted as f64 * 100.0 / request as f64
    };
    Calculation {
        request,
        excess_percent,
        kind,
        index,
        length,
        wasted,
        wasted_percent,
        pooled: kind == "bucket",
        why: explain(request, index, length),
    }
}

fn explain(request: u64, index: Option<u32>, length: u64) -> String {
    match index {
        None if request == 0 => t!(
            "rent(0) returns the shared empty buffer: nothing is allocated and nothing is pooled"
        )
        .into_owned(),
        None => tf!(
            "{} is over the largest bucket ({}): the pool allocates exactly {} and drops it on return",
            group_digits(request),
            group_digits(MAX_BUCKET_LEN as u64),
            group_digits(length),
        ),
        Some(index) => {
            let folded = (request - 1) | 15;
            tf!(
                "({} − 1) | 15 = {}, whose highest bit is 2^{}; index = {} − 3 = {}; length = 16 << {} = {}",
                group_digits(request),
                group_digits(folded),
                index + 3,
                index + 3,
                index,
                index,
                group_digits(length),
            )
        }
    }
}

/// What a reader may type into the calculator that it cannot run, each with a phrase of the
/// message the widget answers with: the wasm tests (`tests/web_widgets.rs`) and the browser tests
/// (`e2e/tests/bucket_rounding.rs`) type the same ones. "size" comes last: typed into the field,
/// its "s" must not open mdBook's search.
pub const UNREADABLE_REQUESTS: &[(&str, &str)] = &[
    ("", "type a whole number"),
    ("-5", "cannot be negative"),
    ("abc", "not a number"),
    ("1e20", "larger than any .NET array"),
    ("1.5", "not a whole number"),
    ("24,41,64", "not one number"),
    ("3000000000", "larger than any .NET array"),
    ("99999999999", "larger than any .NET array"),
    ("size", "not a number"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_oversize_and_bucket() {
        let zero = calculate(0);
        assert_eq!((zero.kind, zero.length, zero.pooled), ("empty", 0, false));
        let big = calculate((1 << 30) + 1);
        assert_eq!((big.kind, big.wasted, big.pooled), ("oversize", 0, false));
        assert!(big.why.contains("1,073,741,824"), "{}", big.why);
        let c = calculate(1_048_577);
        assert_eq!(
            (c.index, c.length, c.wasted),
            (Some(17), 2_097_152, 1_048_575)
        );
        assert!(c.why.contains("index = 20 − 3 = 17"), "{}", c.why);
        // The article's "1,023 (99.8%)" is the excess over the request.
        assert_eq!(format!("{:.1}", calculate(1_025).excess_percent), "99.8");
    }
}
