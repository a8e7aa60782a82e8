//! The bucket-rounding quiz (chapter 2): fresh request sizes, graded by [`crate::calc`].

use super::{Kind, Quiz, Rng};
use crate::calc::calculate;
use crate::input::group_digits;

pub const QUIZ: Quiz = Quiz {
    id: "bucket-rounding",
    title: "Bucket rounding",
    kinds: &[&BucketIndex, &BufferLength, &WastedBytes, &LengthIsRequest],
};

/// "Which bucket index serves N?" — a number.
pub struct BucketIndex;
/// "How long is the buffer you get for N?" — a number.
pub struct BufferLength;
/// "How many bytes of it are not your data?" — a number.
pub struct WastedBytes;
/// "Is `buffer.len()` equal to N?" — yes or no.
pub struct LengthIsRequest;

impl Kind for BucketIndex {
    fn name(&self) -> &'static str {
        "bucket-index"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.request()
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "Which bucket index serves a request of {} bytes?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        calculate(n).index.map_or("none".into(), |i| i.to_string())
    }
    fn explain(&self, n: u64) -> String {
        format!("{}.", calculate(n).why)
    }
}

impl Kind for BufferLength {
    fn name(&self) -> &'static str {
        "buffer-length"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.request()
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "You rent {} bytes from the shared pool. How long is the buffer you get?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        calculate(n).length.to_string()
    }
    fn explain(&self, n: u64) -> String {
        format!("{}.", calculate(n).why)
    }
}

impl Kind for WastedBytes {
    fn name(&self) -> &'static str {
        "wasted-bytes"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.request()
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "You rent {} bytes. How many bytes of the buffer are not your data?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        calculate(n).wasted.to_string()
    }
    fn explain(&self, n: u64) -> String {
        let c = calculate(n);
        let length = group_digits(c.length);
        format!(
            "The buffer is {length} long, so {length} − {} = {} bytes ({:.1} % of it) are not yours: {}.",
            group_digits(n),
            group_digits(c.wasted),
            c.wasted_percent,
            c.why
        )
    }
}

impl Kind for LengthIsRequest {
    fn name(&self) -> &'static str {
        "length-is-request"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        // Half the time a power of two, so "yes" is a live possibility.
        if rng.below(2) == 0 {
            1 << (4 + rng.below(17))
        } else {
            rng.request()
        }
    }
    fn prompt(&self, n: u64) -> String {
        let n = group_digits(n);
        format!("You rent {n} bytes. Is the buffer's length exactly {n}?")
    }
    fn expected(&self, n: u64) -> String {
        if calculate(n).length == n {
            "yes"
        } else {
            "no"
        }
        .into()
    }
    fn explain(&self, n: u64) -> String {
        let c = calculate(n);
        let (shown, length) = (group_digits(n), group_digits(c.length));
        if c.length == n {
            format!(
                "{shown} is itself a bucket length, so here the length matches; for any other size it would not ({})",
                c.why
            )
        } else {
            format!(
                "The buffer is {length} long, not {shown}: the length is the bucket's, never your data's. Carry how much you wrote separately ({})",
                c.why
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Question;

    #[test]
    fn grades_with_the_formula() {
        let q = Question::new(&BufferLength, 1_025);
        assert!(q.check("2,048").correct);
        let f = q.check("1025");
        assert!(!f.correct);
        assert_eq!(f.expected, "2,048");
        assert!(
            f.explanation.contains("16 << 7 = 2,048"),
            "{}",
            f.explanation
        );
        let w = Question::new(&WastedBytes, 100);
        assert!(w.check("28").correct);
        assert!(
            w.check("abc")
                .explanation
                .starts_with("Your answer could not be read")
        );
        assert!(Question::new(&LengthIsRequest, 4096).check("Yes").correct);
        assert!(Question::new(&LengthIsRequest, 4095).check("no").correct);
    }
}
