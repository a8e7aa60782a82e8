//! Live quizzes whose answers the lab computes: nothing here is an answer key.
//!
//! A question is a *kind* plus a freshly drawn request size; [`Question::check`] grades a reader's
//! answer by asking [`crate::calc`], so every attempt can use a size nobody has seen before and
//! the grading can never drift from the pool's real rounding.
//!
//! ```
//! use wasm_lab::quiz::{Kind, Question};
//! let q = Question::new(Kind::BucketIndex, 100);
//! assert!(q.check("3").correct);
//! assert!(!q.check("4").correct);
//! ```

use serde::Serialize;

use crate::calc::{Calculation, calculate};
use crate::input::{group_digits, parse_size};

/// The quizzes the book can mount, by id (the id used in `{{#lab-quiz ID}}`).
pub const QUIZZES: &[(&str, &[Kind])] = &[(
    "bucket-rounding",
    &[
        Kind::BucketIndex,
        Kind::BufferLength,
        Kind::WastedBytes,
        Kind::LengthIsRequest,
    ],
)];

/// The question kinds of a quiz, or `None` for an unknown quiz id.
pub fn quiz(id: &str) -> Option<&'static [Kind]> {
    QUIZZES
        .iter()
        .find(|(q, _)| *q == id)
        .map(|(_, kinds)| *kinds)
}

/// What a question asks about a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// "Which bucket index serves N?" — a number.
    BucketIndex,
    /// "How long is the buffer you get for N?" — a number.
    BufferLength,
    /// "How many bytes of it are not your data?" — a number.
    WastedBytes,
    /// "Is `buffer.len()` equal to N?" — yes or no.
    LengthIsRequest,
}

impl Kind {
    /// Stable name used in the page (`data-kind`) and in saved progress.
    pub fn name(self) -> &'static str {
        match self {
            Kind::BucketIndex => "bucket-index",
            Kind::BufferLength => "buffer-length",
            Kind::WastedBytes => "wasted-bytes",
            Kind::LengthIsRequest => "length-is-request",
        }
    }

    /// The choices offered, for a multiple-choice kind; empty for a numeric one.
    pub fn choices(self) -> &'static [&'static str] {
        match self {
            Kind::LengthIsRequest => &["yes", "no"],
            _ => &[],
        }
    }
}

/// One attempt at a question: the kind and the request size drawn for it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Question {
    pub kind: Kind,
    pub request: u64,
    pub prompt: String,
}

/// The grade of one answer, with the explanation shown to the reader.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feedback {
    pub correct: bool,
    /// The right answer, as the reader would type or pick it.
    pub expected: String,
    /// Why, in one or two sentences; also says what the reader's answer was if it was unreadable.
    pub explanation: String,
}

impl Question {
    /// A question of `kind` about a request of `request` bytes.
    pub fn new(kind: Kind, request: u64) -> Question {
        let n = group_digits(request);
        let prompt = match kind {
            Kind::BucketIndex => format!("Which bucket index serves a request of {n} bytes?"),
            Kind::BufferLength => {
                format!("You rent {n} bytes from the shared pool. How long is the buffer you get?")
            }
            Kind::WastedBytes => {
                format!("You rent {n} bytes. How many bytes of the buffer are not your data?")
            }
            Kind::LengthIsRequest => {
                format!("You rent {n} bytes. Is the buffer's length exactly {n}?")
            }
        };
        Question {
            kind,
            request,
            prompt,
        }
    }

    /// A question of `kind` about a request drawn from `rng`.
    pub fn draw(kind: Kind, rng: &mut Rng) -> Question {
        let request = match kind {
            // Half the time a power of two, so "yes" is a live possibility.
            Kind::LengthIsRequest if rng.below(2) == 0 => 1 << (4 + rng.below(17)),
            _ => rng.request(),
        };
        Question::new(kind, request)
    }

    /// The right answer, computed by the lab.
    pub fn expected(&self) -> String {
        let c = calculate(self.request);
        match self.kind {
            Kind::BucketIndex => c.index.map_or("none".into(), |i| i.to_string()),
            Kind::BufferLength => c.length.to_string(),
            Kind::WastedBytes => c.wasted.to_string(),
            Kind::LengthIsRequest => if c.length == self.request {
                "yes"
            } else {
                "no"
            }
            .into(),
        }
    }

    /// Grades `answer` (as typed or picked) against the lab's computation.
    pub fn check(&self, answer: &str) -> Feedback {
        let c = calculate(self.request);
        let expected = self.expected();
        let (correct, unreadable) = match self.kind {
            Kind::LengthIsRequest => {
                let a = answer.trim().to_ascii_lowercase();
                (a == expected, None)
            }
            _ => match parse_size(answer) {
                Ok(n) => (n.to_string() == expected, None),
                Err(e) => (false, Some(e.to_string())),
            },
        };
        let mut explanation = match unreadable {
            Some(e) => format!("Your answer could not be read: {e}. "),
            None => String::new(),
        };
        explanation.push_str(&self.why(&c));
        Feedback {
            correct,
            expected: pretty(&expected),
            explanation,
        }
    }

    fn why(&self, c: &Calculation) -> String {
        let n = group_digits(self.request);
        let length = group_digits(c.length);
        match self.kind {
            Kind::BucketIndex | Kind::BufferLength => format!("{}.", c.why),
            Kind::WastedBytes => format!(
                "The buffer is {length} long, so {length} − {n} = {} bytes ({:.1} %) are not yours: {}.",
                group_digits(c.wasted),
                c.wasted_percent,
                c.why
            ),
            Kind::LengthIsRequest if c.length == self.request => format!(
                "{n} is itself a bucket length, so here the length matches; for any other size it would not ({})",
                c.why
            ),
            Kind::LengthIsRequest => format!(
                "The buffer is {length} long, not {n}: the length is the bucket's, never your data's. Carry how much you wrote separately ({})",
                c.why
            ),
        }
    }
}

fn pretty(expected: &str) -> String {
    expected
        .parse::<u64>()
        .map_or_else(|_| expected.to_string(), group_digits)
}

/// A small deterministic generator (SplitMix64), seeded by the page, so quizzes need no crate
/// and tests can replay any draw.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A request size worth asking about: near a power of two, or anywhere up to 2^21.
    pub fn request(&mut self) -> u64 {
        let power = 1u64 << (4 + self.below(17));
        match self.below(4) {
            0 => power + 1,
            1 => power - 1 - self.below(power / 4),
            2 => power + 1 + self.below(power / 2),
            _ => 1 + self.below(1 << 21),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_accepts_the_labs_answer_and_rejects_another() {
        let mut rng = Rng::new(7);
        for &kind in quiz("bucket-rounding").unwrap() {
            for _ in 0..200 {
                let q = Question::draw(kind, &mut rng);
                let right = q.expected();
                assert!(q.check(&right).correct, "{q:?} {right}");
                let wrong = match kind {
                    Kind::LengthIsRequest if right == "yes" => "no".to_string(),
                    Kind::LengthIsRequest => "yes".to_string(),
                    _ => (right.parse::<u64>().unwrap() + 1).to_string(),
                };
                let f = q.check(&wrong);
                assert!(!f.correct, "{q:?} accepted {wrong}");
                assert!(!f.explanation.is_empty());
            }
        }
    }

    #[test]
    fn grades_with_the_formula() {
        let q = Question::new(Kind::BufferLength, 1_025);
        assert!(q.check("2,048").correct);
        let f = q.check("1025");
        assert!(!f.correct);
        assert_eq!(f.expected, "2,048");
        assert!(
            f.explanation.contains("16 << 7 = 2,048"),
            "{}",
            f.explanation
        );
        let w = Question::new(Kind::WastedBytes, 100);
        assert!(w.check("28").correct);
        assert!(
            w.check("abc")
                .explanation
                .starts_with("Your answer could not be read")
        );
        let y = Question::new(Kind::LengthIsRequest, 4096);
        assert!(y.check("Yes").correct);
        assert!(
            Question::new(Kind::LengthIsRequest, 4095)
                .check("no")
                .correct
        );
    }

    #[test]
    fn draws_vary_and_stay_in_range() {
        let mut rng = Rng::new(1);
        let draws: Vec<u64> = (0..100).map(|_| rng.request()).collect();
        assert!(
            draws
                .iter()
                .all(|&n| (1..=(1 << 21) + (1 << 20) + 1).contains(&n))
        );
        let distinct: std::collections::BTreeSet<_> = draws.iter().collect();
        assert!(distinct.len() > 80);
    }

    #[test]
    fn unknown_quiz_is_none() {
        assert!(quiz("no-such-quiz").is_none());
    }
}
