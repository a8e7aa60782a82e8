//! Live quizzes whose answers the lab computes: nothing here is an answer key.
//!
//! A question is a [`Kind`] plus a freshly drawn value (a request size, a write length, …);
//! [`Question::check`] grades a reader's answer by asking the lab (the pool, the calculator, the
//! chunker), so every attempt can use a value nobody has seen before and the grading can never
//! drift from what the code really does.
//!
//! A chapter's module here holds only its quiz: the [`Quiz`] constant and its kinds. The runs that
//! compute the answers live in [`crate::scenario`], where the chapter's widget and the tests call
//! them too (the bucket quiz asks [`crate::calc`] directly).
//!
//! ```
//! use wasm_lab::quiz::{bucket_rounding, Question};
//! let q = Question::new(&bucket_rounding::BucketIndex, 100);
//! assert!(q.check("3").correct);
//! assert!(!q.check("4").correct);
//! ```
//!
//! To add a quiz: a module with unit structs implementing [`Kind`], a [`Quiz`] constant, and an
//! entry in [`QUIZZES`]; the book mounts it with `{{#lab-quiz ID}}`. Code that runs the lab for
//! a chapter's story goes in the chapter's [`crate::scenario`] module, not here.

use std::fmt;

use serde::Serialize;

use crate::input::{group_digits, parse_size};

pub mod bucket_rounding;
pub mod capacity;
pub mod chunking;
pub mod cliff;
pub mod return_contract;
pub mod size_specialized;
pub mod stale_data;
pub mod why_pool;

/// Every quiz the book can mount, in the book's order.
pub const QUIZZES: &[Quiz] = &[
    why_pool::QUIZ,
    bucket_rounding::QUIZ,
    stale_data::QUIZ,
    return_contract::QUIZ,
    capacity::QUIZ,
    cliff::QUIZ,
    chunking::QUIZ,
    size_specialized::QUIZ,
];

/// A quiz: an id (as in `{{#lab-quiz ID}}`), a title, and its questions' kinds.
pub struct Quiz {
    pub id: &'static str,
    pub title: &'static str,
    pub kinds: &'static [&'static dyn Kind],
}

/// The quiz with this id.
pub fn quiz(id: &str) -> Option<&'static Quiz> {
    QUIZZES.iter().find(|q| q.id == id)
}

impl Quiz {
    /// The question kind of this quiz with this name (`data-kind` in the page).
    pub fn kind(&self, name: &str) -> Option<&'static dyn Kind> {
        self.kinds.iter().copied().find(|k| k.name() == name)
    }
}

/// What a question asks. Implementations compute every answer with the lab.
pub trait Kind: Sync {
    /// Stable name used in the page (`data-kind`) and in saved progress.
    fn name(&self) -> &'static str;

    /// The choices offered, for a multiple-choice kind; empty for a numeric one.
    fn choices(&self) -> &'static [&'static str] {
        &[]
    }

    /// A fresh value to ask about.
    fn draw(&self, rng: &mut Rng) -> u64;

    /// The question, for `value`.
    fn prompt(&self, value: u64) -> String;

    /// The right answer for `value`, as the reader would type or pick it, computed by the lab.
    fn expected(&self, value: u64) -> String;

    /// Why the answer is what it is, in a sentence or two.
    fn explain(&self, value: u64) -> String;
}

/// One attempt at a question: its kind and the value drawn for it.
#[derive(Clone)]
pub struct Question {
    pub kind: &'static dyn Kind,
    pub value: u64,
    pub prompt: String,
}

impl fmt::Debug for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Question({} {}: {:?})",
            self.kind.name(),
            self.value,
            self.prompt
        )
    }
}

/// The grade of one answer, with the explanation shown to the reader.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feedback {
    pub correct: bool,
    /// The right answer, as the reader would type or pick it (numbers grouped: `2,048`).
    pub expected: String,
    /// Why; also says so when the reader's answer could not be read.
    pub explanation: String,
}

impl Question {
    pub fn new(kind: &'static dyn Kind, value: u64) -> Question {
        Question {
            kind,
            value,
            prompt: kind.prompt(value),
        }
    }

    pub fn draw(kind: &'static dyn Kind, rng: &mut Rng) -> Question {
        Question::new(kind, kind.draw(rng))
    }

    /// The right answer, computed by the lab.
    pub fn expected(&self) -> String {
        self.kind.expected(self.value)
    }

    /// Grades `answer` (as typed or picked) against the lab's computation.
    pub fn check(&self, answer: &str) -> Feedback {
        let expected = self.expected();
        let (correct, unreadable) = if self.kind.choices().is_empty() {
            match parse_size(answer) {
                Ok(n) => (n.to_string() == expected, None),
                Err(e) => (false, Some(e.to_string())),
            }
        } else {
            (answer.trim().eq_ignore_ascii_case(&expected), None)
        };
        let mut explanation = match unreadable {
            Some(e) => format!("Your answer could not be read: {e}. "),
            None => String::new(),
        };
        explanation.push_str(&self.kind.explain(self.value));
        let expected = expected.parse::<u64>().map_or(expected, group_digits);
        Feedback {
            correct,
            expected,
            explanation,
        }
    }
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

    /// Every kind of every quiz accepts the lab's answer, rejects another, and explains itself.
    #[test]
    fn every_kind_grades_with_the_lab() {
        let mut rng = Rng::new(7);
        for quiz in QUIZZES {
            assert!(
                quiz.kinds.len() >= 3,
                "{} has fewer than three questions",
                quiz.id
            );
            for &kind in quiz.kinds {
                assert_eq!(quiz.kind(kind.name()).map(|k| k.name()), Some(kind.name()));
                for _ in 0..200 {
                    let q = Question::draw(kind, &mut rng);
                    let right = q.expected();
                    assert!(q.check(&right).correct, "{q:?} {right}");
                    let wrong = if kind.choices().is_empty() {
                        (right.parse::<u64>().unwrap() + 1).to_string()
                    } else {
                        let other = kind
                            .choices()
                            .iter()
                            .find(|c| !c.eq_ignore_ascii_case(&right));
                        other.unwrap().to_string()
                    };
                    let f = q.check(&wrong);
                    assert!(!f.correct, "{q:?} accepted {wrong}");
                    assert!(f.explanation.len() > 20, "{q:?}: {}", f.explanation);
                }
            }
        }
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
