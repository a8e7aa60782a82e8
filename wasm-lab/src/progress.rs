//! A student's quiz progress as the browser keeps it, with a strict reader.
//!
//! Progress lives in `localStorage` as JSON. Anything that does not read back as exactly this
//! shape (hand-edited, truncated, from a future version) is reported as [`Corrupt`] so the page
//! can keep a copy aside and start fresh, instead of showing wrong scores or losing the raw text.
//!
//! ```
//! use wasm_lab::progress::Progress;
//! let mut p = Progress::default();
//! p.record("bucket-rounding", "bucket-index", true);
//! let text = p.to_json();
//! assert_eq!(Progress::from_json(&text).unwrap(), p);
//! assert!(Progress::from_json("{\"version\":1,\"quizzes\":").is_err());
//! ```

use lab_text::tf;
use litemap::LiteMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Version of the stored shape; a stored version this code does not know is refused.
/// Version 1 had no `revealed` count; it reads as 0.
pub const VERSION: u32 = 2;

/// The `localStorage` key progress is kept under.
pub const STORAGE_KEY: &str = "pools-and-chunks/progress";

/// The record a quiz mount keeps its tallies under: a chapter's quiz under its id, a short check
/// inside the chapter (a mount with `kinds=`, beside a widget) under `ID/check`. So answering the
/// short check neither solves the chapter's question of the same kind nor adds to its attempts.
///
/// ```
/// use wasm_lab::progress::{Progress, record_key};
/// let mut p = Progress::default();
/// p.record(&record_key("chunking", true), "first-chunk-arrays", true);
/// assert!(!p.tally(&record_key("chunking", false), "first-chunk-arrays").solved());
/// ```
pub fn record_key(quiz: &str, short_check: bool) -> String {
    if short_check {
        format!("{quiz}/check")
    } else {
        quiz.to_string()
    }
}

/// Attempts and right answers per question kind, per quiz.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    version: u32,
    #[serde(
        serialize_with = "crate::maps::object::write_maps",
        deserialize_with = "crate::maps::object::map_of_maps"
    )]
    quizzes: LiteMap<String, LiteMap<String, Tally>>,
}

/// How often one question was answered, how often right, and how often its answer was shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    pub attempts: u32,
    pub correct: u32,
    #[serde(default)]
    pub revealed: u32,
}

impl Tally {
    pub fn solved(&self) -> bool {
        self.correct > 0
    }
}

/// Stored progress that cannot be trusted, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corrupt(pub String);

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tf!("saved quiz progress is unreadable ({})", self.0))
    }
}

impl std::error::Error for Corrupt {}

impl Progress {
    /// Reads stored progress; refuses anything malformed or inconsistent.
    ///
    /// Natively with `serde_json`; in wasm with the browser's `JSON.parse` and a walk as strict
    /// as the derived `Deserialize` (`web/json.rs`; `lab-text`'s `json.rs` says what that saves).
    pub fn from_json(text: &str) -> Result<Progress, Corrupt> {
        #[cfg(not(target_arch = "wasm32"))]
        let p: Progress = {
            objects_all_the_way(text)?;
            serde_json::from_str(text).map_err(|e| Corrupt(e.to_string()))?
        };
        #[cfg(target_arch = "wasm32")]
        let p = crate::web::json::progress(text).map_err(Corrupt)?;
        if !(1..=VERSION).contains(&p.version) {
            return Err(Corrupt(tf!(
                "version {} where {} was expected",
                p.version,
                VERSION
            )));
        }
        for (quiz, kinds) in &p.quizzes {
            for (kind, t) in kinds {
                if t.correct > t.attempts {
                    return Err(Corrupt(tf!(
                        "{}/{}: {} right out of {} attempts",
                        quiz,
                        kind,
                        t.correct,
                        t.attempts
                    )));
                }
            }
        }
        Ok(p)
    }

    /// Progress of this `version` with these tallies, unchecked: for the wasm build's walk
    /// (`web/json.rs`), whose result [`Progress::from_json`] then checks.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn from_parts(
        version: u32,
        quizzes: LiteMap<String, LiteMap<String, Tally>>,
    ) -> Progress {
        Progress { version, quizzes }
    }

    /// The text [`Progress::from_json`] reads, on every target with `lab_text::json::to_string`
    /// (what `serde_json` writes, without it in the wasm build).
    pub fn to_json(&self) -> String {
        // Plain maps of integers: always writable.
        lab_text::json::to_string(&Progress {
            version: VERSION,
            ..self.clone()
        })
        .unwrap_or_default()
    }

    /// Counts one answer.
    pub fn record(&mut self, quiz: &str, kind: &str, correct: bool) {
        let t = self.tally_mut(quiz, kind);
        t.attempts = t.attempts.saturating_add(1);
        t.correct = t.correct.saturating_add(u32::from(correct));
    }

    /// Counts one shown answer.
    pub fn reveal(&mut self, quiz: &str, kind: &str) {
        let t = self.tally_mut(quiz, kind);
        t.revealed = t.revealed.saturating_add(1);
    }

    /// The tally of `quiz`/`kind`, made if new; what is written is the current version.
    fn tally_mut(&mut self, quiz: &str, kind: &str) -> &mut Tally {
        self.version = VERSION;
        self.quizzes
            .entry(quiz.into())
            .or_default()
            .entry(kind.into())
            .or_default()
    }

    pub fn tally(&self, quiz: &str, kind: &str) -> Tally {
        self.quizzes
            .get(quiz)
            .and_then(|k| k.get(kind))
            .copied()
            .unwrap_or_default()
    }

    /// Forgets one quiz.
    pub fn reset(&mut self, quiz: &str) {
        self.quizzes.remove(quiz);
    }

    /// Forgets every quiz.
    pub fn reset_all(&mut self) {
        self.quizzes.clear();
    }
}

/// Refuses a stored text whose progress, quizzes or tallies are not JSON objects. Serde's derived
/// readers also take a struct written as an array (`[1,{}]` read as version 1 with no quizzes,
/// found by the `progress` fuzz target), which the browser's reader never does: both refuse it.
#[cfg(not(target_arch = "wasm32"))]
fn objects_all_the_way(text: &str) -> Result<(), Corrupt> {
    use serde_json::{Map, Value};
    fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, Corrupt> {
        v.as_object()
            .ok_or_else(|| Corrupt(tf!("{} is not an object", what)))
    }
    let v: Value = serde_json::from_str(text).map_err(|e| Corrupt(e.to_string()))?;
    if let Some(quizzes) = object(&v, &lab_text::t!("the stored progress"))?.get("quizzes") {
        for (quiz, kinds) in object(quizzes, "quizzes")? {
            for (kind, tally) in object(kinds, quiz)? {
                object(tally, &format!("{quiz}/{kind}"))?;
            }
        }
    }
    Ok(())
}

/// Stored texts [`Progress::from_json`] must refuse, for the native tests and the browser's
/// (which read with a different parser).
#[doc(hidden)]
pub const UNTRUSTED: &[&str] = &[
    "",
    "null",
    "[]",
    "7",
    "\"progress\"",
    "{\"version\":1,\"quizzes\":",
    "{\"quizzes\":{}}",
    "{\"version\":1}",
    "{\"version\":0,\"quizzes\":{}}",
    "{\"version\":3,\"quizzes\":{}}",
    "{\"version\":\"1\",\"quizzes\":{}}",
    "{\"version\":1.5,\"quizzes\":{}}",
    "{\"version\":1,\"quizzes\":7}",
    "{\"version\":1,\"quizzes\":[]}",
    "{\"version\":1,\"quizzes\":null}",
    "{\"version\":1,\"quizzes\":{\"q\":[]}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":1,\"correct\":2}}}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":-1,\"correct\":0}}}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":4294967296,\"correct\":0}}}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":1e400,\"correct\":0}}}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":1}}}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":1,\"correct\":0,\"revealed\":null}}}}",
    "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":1,\"correct\":0,\"x\":0}}}}",
    "{\"version\":1,\"quizzes\":{},\"extra\":1}",
    // Structs written as arrays, which serde's derived readers take (found by fuzzing).
    "[1,{}]",
    "[2,{\"q\":{\"k\":{\"attempts\":1,\"correct\":1}}}]",
    "{\"version\":2,\"quizzes\":{\"q\":{\"k\":[1,1,0]}}}",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_it_cannot_trust() {
        for bad in UNTRUSTED {
            assert!(Progress::from_json(bad).is_err(), "accepted {bad:?}");
        }
    }

    /// A quiz or kind written twice is refused (and so kept aside by the page), never read as
    /// its last copy, which lost the first one's answers (found by the `progress` fuzz target).
    /// Natively only: the browser's `JSON.parse` keeps the last copy before the lab sees it.
    #[test]
    fn refuses_a_key_written_twice() {
        let t = "{\"attempts\":1,\"correct\":1}";
        for text in [
            format!("{{\"version\":2,\"quizzes\":{{\"q\":{{\"k\":{t}}},\"q\":{{\"j\":{t}}}}}}}"),
            format!("{{\"version\":2,\"quizzes\":{{\"q\":{{\"k\":{t},\"k\":{t}}}}}}}"),
        ] {
            let e = Progress::from_json(&text).expect_err(&text);
            assert!(e.0.contains("twice"), "{e}");
        }
    }

    /// The writer that replaces `serde_json` in the wasm build writes the same text.
    #[test]
    fn writes_what_serde_json_writes() {
        let mut p = Progress::default();
        p.record("q", "k", true);
        p.reveal("q", "k");
        p.record("r\"", "é", false);
        let expected = serde_json::to_string(&p).unwrap();
        assert_eq!(p.to_json(), expected);
    }

    /// A question answered wrong, then right: what both tests below expect to read back.
    const TWO_TRIES_ONE_RIGHT: Tally = Tally {
        attempts: 2,
        correct: 1,
        revealed: 0,
    };

    #[test]
    fn counts_and_resets() {
        let mut p = Progress::default();
        p.record("q", "k", false);
        p.record("q", "k", true);
        assert_eq!(p.tally("q", "k"), TWO_TRIES_ONE_RIGHT);
        p.reveal("q", "k");
        assert_eq!(p.tally("q", "k").revealed, 1);
        let back = Progress::from_json(&p.to_json()).unwrap();
        assert_eq!(back.tally("q", "k").revealed, 1);
        p.reset("q");
        assert_eq!(p.tally("q", "k"), Tally::default());
        p.record("r", "k", true);
        p.reset_all();
        assert_eq!(p.tally("r", "k"), Tally::default());
    }

    /// Progress saved before answers could be revealed still reads.
    #[test]
    fn reads_version_one() {
        let p = Progress::from_json(
            "{\"version\":1,\"quizzes\":{\"q\":{\"k\":{\"attempts\":2,\"correct\":1}}}}",
        )
        .unwrap();
        assert_eq!(p.tally("q", "k"), TWO_TRIES_ONE_RIGHT);
    }
}
