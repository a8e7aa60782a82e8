//! The course's exercises: what each one is, where the book teaches it, and its hint.
//!
//! Each exercise is three files, named by its stem (`ex02_bucket`):
//!
//! - `src/<stem>.rs` — **the student's file**: the task (its `//!` docs) and a skeleton that
//!   compiles, with `todo!()` where the student's code goes. The book shows it, included between
//!   its `// ANCHOR: exercise` marks, so the page and the crate cannot drift.
//! - `solutions/<stem>.rs` — the reference solution, with the same public API.
//! - `tests/<stem>.rs` — the grading tests, one test binary per exercise (so one unfinished or
//!   broken exercise never stops the others from being graded). They use only the skeleton's
//!   public API, and the course's library (`bufpool`) as the oracle. Their names start with
//!   `stepN_`, the order to make them pass in. Ownership and `const` rules are graded by
//!   compiling small programs against the student's file (`tests/support/mod.rs`), which must
//!   fail with the intended error code.
//!
//! This library does not compile the student's files: it is the list below, read by
//! `cargo xtask exercises` (which grades, prints hints and says what to do next) and by the
//! end-to-end test that checks each chapter shows the skeleton the crate holds.

#![forbid(unsafe_code)]

/// One exercise of the course.
#[derive(Clone, Copy, Debug)]
pub struct Exercise {
    /// Its number, the order of the book.
    pub number: usize,
    /// The file stem of its three files (`src/`, `solutions/`, `tests/`).
    pub stem: &'static str,
    /// What the student builds, in a few words.
    pub title: &'static str,
    /// The chapter that teaches it (the book page's stem: `book/src/<chapter>.md`).
    pub chapter: &'static str,
    /// The hint `cargo xtask exercises hint N` prints (`hints/<stem>.md`).
    pub hint: &'static str,
    /// Besides a `todo!()` ("not yet implemented"), the messages with which the untouched
    /// skeleton's tests may fail (a compile-fail test's "compiled, but must not"); `cargo xtask
    /// test` checks each skeleton failure is one of these.
    pub skeleton_fails_with: &'static [&'static str],
}

impl Exercise {
    /// The student's file, relative to the workspace root.
    pub fn student_file(&self) -> String {
        format!("exercises/src/{}.rs", self.stem)
    }

    /// The reference solution, relative to the workspace root.
    pub fn solution_file(&self) -> String {
        format!("exercises/solutions/{}.rs", self.stem)
    }

    /// The chapter's page in the built book.
    pub fn page(&self) -> String {
        format!("{}.html", self.chapter)
    }
}

/// What a `todo!()` panics with: the message of an exercise not yet done.
pub const TODO: &str = "not yet implemented";

/// The message of a compile-fail test whose program compiled (the skeleton's receiver allows it).
pub const COMPILED_BUT_MUST_NOT: &str = "compiled, but must not";

macro_rules! exercise {
    ($number:expr, $stem:literal, $chapter:literal, $title:literal $(, $fails:expr)?) => {
        Exercise {
            number: $number,
            stem: $stem,
            title: $title,
            chapter: $chapter,
            hint: include_str!(concat!("../hints/", $stem, ".md")),
            skeleton_fails_with: &[$($fails)?],
        }
    };
}

/// Every exercise, in the book's order.
pub const EXERCISES: &[Exercise] = &[
    exercise!(
        1,
        "ex01_why_pool",
        "why-pool",
        "a pool of one size that allocates once"
    ),
    exercise!(
        2,
        "ex02_bucket",
        "bucket-rounding",
        "bucket index, length and waste"
    ),
    exercise!(
        3,
        "ex03_stale_data",
        "stale-data",
        "clearing on return, and what it costs"
    ),
    exercise!(
        4,
        "ex04_guard",
        "return-contract",
        "a guard that returns itself on drop",
        COMPILED_BUT_MUST_NOT
    ),
    exercise!(
        5,
        "ex05_checked",
        "return-contract",
        "checked mode: double and foreign returns"
    ),
    exercise!(
        6,
        "ex06_capacity",
        "capacity",
        "the capacity rule under the partition model"
    ),
    exercise!(
        7,
        "ex07_cliff",
        "cliff",
        "where the allocator's path changes"
    ),
    exercise!(
        8,
        "ex08_chunking",
        "chunking",
        "the enumerable chunker's growth, counted"
    ),
    exercise!(
        9,
        "ex09_const_rent",
        "size-specialized",
        "a rent whose bucket is chosen at compile time",
        COMPILED_BUT_MUST_NOT
    ),
    exercise!(
        10,
        "ex10_method",
        "method",
        "the median, the noise and the gate"
    ),
];

/// The exercise with this number or stem (`2`, `02`, `ex02_bucket`).
pub fn find(key: &str) -> Option<&'static Exercise> {
    let key = key.trim();
    EXERCISES.iter().find(|e| {
        key.parse::<usize>().is_ok_and(|n| n == e.number)
            || e.stem == key
            || e.stem.split_once('_').is_some_and(|(_, name)| name == key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_the_order_and_stems_match() {
        for (i, e) in EXERCISES.iter().enumerate() {
            assert_eq!(e.number, i + 1);
            assert!(
                e.stem.starts_with(&format!("ex{:02}_", e.number)),
                "{}",
                e.stem
            );
            assert!(!e.hint.trim().is_empty(), "{} has no hint", e.stem);
        }
    }

    #[test]
    fn find_by_number_stem_or_name() {
        assert_eq!(find("2").map(|e| e.stem), Some("ex02_bucket"));
        assert_eq!(find("02").map(|e| e.stem), Some("ex02_bucket"));
        assert_eq!(find("ex04_guard").map(|e| e.number), Some(4));
        assert_eq!(find("guard").map(|e| e.number), Some(4));
        assert!(find("11").is_none());
    }
}
