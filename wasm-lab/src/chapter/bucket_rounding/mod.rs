//! Chapter 2, `bucket-rounding`: which bucket serves a request (the calculator and its quiz).
//!
//! - [`view`]: the widget's view model (its form, and what it shows for the reader's inputs).
//! - [`quiz`]: the chapter's quiz, graded by the lab.

pub mod quiz;
pub mod view;

use super::{Chapter, live};

/// The chapter in [`super::CHAPTERS`].
pub const CHAPTER: Chapter = Chapter {
    name: "bucket-rounding",
    widget: Some("bucket-rounding"),
    view: live!("bucket-rounding", &view::WIDGET),
    quiz: live!("bucket-rounding", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "bucket-index",
            "buffer-length",
            "wasted-bytes",
            "length-is-request",
        ],
    )),
};
