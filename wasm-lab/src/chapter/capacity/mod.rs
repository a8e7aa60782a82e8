//! Chapter 5, `capacity`: rounds of `K` rents on a pool of `1 + P × M`.
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
    name: "capacity",
    widget: Some("capacity"),
    view: live!("capacity", &view::WIDGET),
    quiz: live!("capacity", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "capacity",
            "bytes-per-round",
            "create-keeps",
            "override",
            "big-machine",
        ],
    )),
};
