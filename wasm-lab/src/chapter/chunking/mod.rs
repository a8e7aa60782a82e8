//! Chapter 7, `chunking`: what each chunk costs, by strategy and source kind.
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
    name: "chunking",
    widget: Some("chunking"),
    view: live!("chunking", &view::WIDGET),
    quiz: live!("chunking", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "first-chunk-arrays",
            "first-chunk-bytes",
            "later-chunk-bytes",
            "chunk-path",
            "pooled-first-bytes",
        ],
    )),
};
