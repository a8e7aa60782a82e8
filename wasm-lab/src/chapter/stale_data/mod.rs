//! Chapter 3, `stale-data`: the previous renter's bytes, on the handle API.
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
    name: "stale-data",
    widget: Some("stale-data"),
    view: live!("stale-data", &view::WIDGET),
    quiz: live!("stale-data", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "leaked-bytes",
            "non-zero-on-arrival",
            "same-bucket-sees-old",
            "payload-alive",
        ],
    )),
};
