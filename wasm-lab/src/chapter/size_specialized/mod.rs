//! Chapter 8, `size-specialized`: what a const-generic rent resolves at compile time.
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
    name: "size-specialized",
    widget: Some("size-specialized"),
    view: live!("size-specialized", &view::WIDGET),
    quiz: live!("size-specialized", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "compile-time-bucket",
            "bucket-routines",
            "shared-path",
            "go-specializes",
        ],
    )),
};
