//! Chapter 4, `return-contract`: double return, use after return, foreign return, the missing `finally`.
//!
//! - [`scenario`]: the runs of the real pool, chunker or counting allocator for the chapter's
//!   story, shared by its widget, its quiz and the tests.
//! - [`view`]: the widget's view model (its form, and what it shows for the reader's inputs).
//! - [`quiz`]: the chapter's quiz, graded by the lab.

pub mod quiz;
pub mod scenario;
pub mod view;

use super::{Chapter, live};

/// The chapter in [`super::CHAPTERS`].
pub const CHAPTER: Chapter = Chapter {
    name: "return-contract",
    widget: Some("return-contract"),
    view: live!("return-contract", &view::WIDGET),
    quiz: live!("return-contract", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "shared-after-returns",
            "foreign-accepted",
            "forgotten-return",
            "test-passed",
            "does-it-compile",
        ],
    )),
};
