//! Chapter 6, `cliff`: .NET's large-object heap and glibc's mmap threshold for one request.
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
    name: "cliff",
    widget: Some("cliff"),
    view: live!("cliff", &view::WIDGET),
    quiz: live!("cliff", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "new-in-loh",
            "pool-in-loh",
            "first-loh-length",
            "glibc-chunk",
            "glibc-mmap",
            "fresh-edge",
            "after-free",
        ],
    )),
};
