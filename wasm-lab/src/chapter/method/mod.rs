//! Method, `method`: the bench's paired-round method on the wasm pool, timed in the reader's browser (its widget's DOM side is `web/method.rs`).
//!
//! - [`scenario`]: the runs of the real pool, chunker or counting allocator for the chapter's
//!   story, shared by its widget, its quiz and the tests.
//! - [`quiz`]: the chapter's quiz, graded by the lab.

pub mod quiz;
pub mod scenario;

use super::{Chapter, live};

/// The chapter in [`super::CHAPTERS`].
pub const CHAPTER: Chapter = Chapter {
    name: "method",
    widget: Some("method"),
    view: None,
    quiz: live!("method", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "paired-ratio",
            "citable",
            "peer-less-time",
            "after-free-mmapped",
        ],
    )),
};
