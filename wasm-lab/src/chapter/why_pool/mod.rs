//! Chapter 1, `why-pool`: fresh `Vec`s against rent + return, counted.
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
    name: "why-pool",
    widget: Some("why-pool"),
    view: live!("why-pool", &view::WIDGET),
    quiz: live!("why-pool", &quiz::QUIZ),
    listed: Some(crate::quiz::Listed::of(
        &quiz::QUIZ,
        &[
            "fresh-bytes",
            "pool-buffer-bytes",
            "break-even",
            "less-time-1mib",
        ],
    )),
};
