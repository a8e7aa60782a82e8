//! The bucket-rounding quiz (chapter 2): fresh request sizes, graded by [`crate::calc`]. The wrong
//! options are the mistakes readers make with the formula, each computed for the drawn size.

use crate::calc::calculate;
use crate::quiz::{Kind, Page, Quiz, Rng, Solution, yes_no};
use lab_text::decimal::fixed;
use lab_text::{group_digits, n, t, tf};

pub const QUIZ: Quiz = Quiz {
    id: "bucket-rounding",
    title: n!("Bucket rounding"),
    kinds: &[&BucketIndex, &BufferLength, &WastedBytes, &LengthIsRequest],
    figures: &[],
    snippets: false,
};

/// "Which bucket index serves N?" — a number.
pub struct BucketIndex;
/// "How long is the buffer you get for N?" — misconception choices.
pub struct BufferLength;
/// "How many bytes of it are not your data?" — a number.
pub struct WastedBytes;
/// "Is `buffer.len()` equal to N?" — yes or no.
pub struct LengthIsRequest;

/// A request, sometimes below 16 so the 16-byte floor matters.
fn draw_request(rng: &mut Rng) -> u64 {
    if rng.below(5) == 0 {
        1 + rng.below(15)
    } else {
        rng.request()
    }
}

fn next_power(n: u64) -> u64 {
    n.max(1).next_power_of_two()
}

impl Kind for BucketIndex {
    type Params = u64;
    fn name(&self) -> &'static str {
        "bucket-index"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_request(rng))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "Which bucket index serves a request of {} bytes?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = calculate(n);
        let index = c
            .index
            .ok_or_else(|| tf!("{} is not pooled", group_digits(n)))?;
        Ok(Solution::number(u64::from(index), c.why)
            .hint(t!("Bucket i holds buffers of 16 << i bytes: find the smallest such length that fits the request"))
            .mistake(
                next_power(n).trailing_zeros(),
                t!("That is log2 of the buffer length; the first bucket already holds 16 bytes, so the index is 4 less (and never below 0)"),
            )
            .mistake(
                u64::from(index) + 1,
                t!("One too high: a request of exactly 16 << i bytes still fits bucket i"),
            ))
    }
}

impl Kind for BufferLength {
    type Params = u64;
    fn name(&self) -> &'static str {
        "buffer-length"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_request(rng))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "You rent {} bytes from the shared pool. How long is the buffer you get?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = calculate(n);
        let index = c.index.map_or(0, u64::from);
        Ok(Solution::choice(group_digits(c.length), c.why)
            .mistake(
                group_digits(n),
                t!("That is your request, not the buffer: the pool hands out whole buckets, so the length is the bucket's"),
            )
            .mistake(
                group_digits(next_power(n)),
                t!("Right idea, but there is a floor: the pool has no buffers that short"),
            )
            .mistake(
                group_digits(index),
                t!("That is the bucket's index, not its length: lengths double from one bucket to the next"),
            )
            .mistake(
                group_digits(c.length * 2),
                t!("One bucket too far: a request that fits a bucket exactly stays in it"),
            ))
    }
}

impl Kind for WastedBytes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "wasted-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(draw_request(rng))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "You rent {} bytes. How many bytes of the buffer are not your data?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = calculate(n);
        let length = group_digits(c.length);
        Ok(Solution::number(
            c.wasted,
            tf!(
                "The buffer is {} long, so {} − {} = {} bytes ({} % of it) are not yours: {}",
                length,
                length,
                group_digits(n),
                group_digits(c.wasted),
                fixed(c.wasted_percent, 1),
                c.why
            ),
        )
        .hint(t!(
            "Find the buffer's length first (the bucket's), then subtract your request"
        ))
        .mistake(
            0,
            t!("The buffer is not cut to your request: its length is the bucket's"),
        )
        .mistake(
            next_power(n) - n,
            t!("Mind the floor: the pool has no buffers that short"),
        ))
    }
}

impl Kind for LengthIsRequest {
    type Params = u64;
    fn name(&self) -> &'static str {
        "length-is-request"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        // Half the time a power of two, so "yes" is a live possibility.
        Ok(if rng.below(2) == 0 {
            1 << (4 + rng.below(17))
        } else {
            draw_request(rng)
        })
    }
    fn prompt(&self, n: &u64) -> String {
        let n = group_digits(*n);
        tf!(
            "You rent {} bytes. Is the buffer's length exactly {}?",
            n,
            n
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let c = calculate(n);
        let (shown, length) = (group_digits(n), group_digits(c.length));
        let why = if c.length == n {
            tf!(
                "{} is itself a bucket length, so here the length matches; for any other size it would not ({})",
                shown,
                c.why
            )
        } else {
            tf!(
                "The buffer is {} long, not {}: the length is the bucket's, never your data's. Carry how much you wrote separately ({})",
                length,
                shown,
                c.why
            )
        };
        let hint = if c.length == n {
            t!("Which lengths do the buckets have? Check whether this request is one of them")
        } else {
            t!("The pool does not cut buffers to size: which bucket does this request land in")
        };
        Ok(Solution::yes_no(c.length == n, why, hint))
    }
}

/// The answer for `yes`/`no` kinds, for tests.
pub fn is_bucket_length(n: u64) -> &'static str {
    yes_no(calculate(n).length == n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::{Ask, Attempt, Tone};

    fn q(kind: &dyn Ask, n: u64) -> crate::quiz::Question {
        kind.replay(&n.to_string(), &Page::default()).unwrap()
    }

    #[test]
    fn grades_with_the_formula() {
        let length = q(&BufferLength, 1_025);
        assert!(length.accepts("2,048"));
        assert!(!length.accepts("1,025"));
        assert!(
            length.solution.why.contains("16 << 7 = 2,048"),
            "{:?}",
            length.solution
        );
        assert!(q(&WastedBytes, 100).accepts("28"));
        assert!(q(&LengthIsRequest, 4096).accepts("Yes"));
        assert_eq!(is_bucket_length(4095), "no");
    }

    /// The calculator and the quiz round one request the same way: every kind's answer is the
    /// widget's line for the drawn request (index, length, waste, and whether the length is the
    /// request).
    #[test]
    fn widget_and_quiz_agree_on_every_request() {
        let page = Page::default();
        let digits = |s: &str| s.replace(',', "");
        for seed in 0..500 {
            let mut rng = crate::quiz::Rng::new(seed);
            for kind in [
                &BucketIndex as &dyn Ask,
                &BufferLength,
                &WastedBytes,
                &LengthIsRequest,
            ] {
                let q = kind.pose(&mut rng, &page).unwrap();
                let v = crate::view::view_with("bucket-rounding", &[("calc-input", &q.params)]);
                let line = |id: &str| digits(v.value(id).unwrap());
                let right = digits(&q.right_answer());
                match kind.name() {
                    "bucket-index" => assert_eq!(line("calc-index"), right, "{q:?}"),
                    "buffer-length" => assert_eq!(line("calc-length"), right, "{q:?}"),
                    "wasted-bytes" => assert_eq!(line("calc-wasted"), right, "{q:?}"),
                    "length-is-request" => {
                        assert_eq!(yes_no(line("calc-length") == q.params), right, "{q:?}")
                    }
                    other => panic!("a kind this test does not compare: {other}"),
                }
            }
        }
    }

    /// Each misconception gets its own hint, and none gives the answer away.
    #[test]
    fn buffer_length_misconceptions() {
        let question = q(&BufferLength, 5);
        // 16 is right; 5 (the request), 8 (no floor), 0 (the index), 32 (a bucket too far).
        assert_eq!(question.right_answer(), "16");
        let mut hints = Vec::new();
        for wrong in ["5", "8", "0", "32"] {
            let mut a = Attempt::new(question.clone());
            let r = a.submit(wrong);
            assert_eq!(r.tone, Tone::Hint, "{wrong}: {r:?}");
            assert!(!r.text.contains("16"), "{wrong} reveals: {}", r.text);
            hints.push(r.text);
        }
        hints.dedup();
        assert_eq!(hints.len(), 4, "{hints:?}");
    }
}
