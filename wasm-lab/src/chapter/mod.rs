//! The chapters with a live part, one folder each: a chapter's scenario runs, its widget's view
//! model and its quiz live in `chapter/<name>/`, and [`CHAPTERS`] lists them once.
//!
//! Every registry of the lab is derived from [`CHAPTERS`]: the shipped wasm modules
//! ([`crate::modules`]), the widget names the book may mount ([`crate::widget_names`]), the view
//! models ([`crate::view::widgets`]), the quizzes ([`crate::quiz::quizzes`]) and the progress
//! page's listing ([`crate::quiz::listing`]). Cargo cannot derive its features from a list, so a
//! test (`lib.rs`) checks that every chapter has its feature line and its `all-chapters` entry.
//!
//! A chapter's module is built with its own feature only (`xtask/src/site.rs`), so a page
//! downloads its own chapter's code: [`Chapter::view`] and [`Chapter::quiz`] are `None` in another
//! chapter's build, and the linker drops that chapter's code. Its name, widget name and quiz
//! listing are plain strings, present in every build.
//!
//! To add a chapter: a folder here with `mod.rs` (its [`Chapter`] constant) and the parts it has
//! (`scenario.rs`, `view.rs`, `quiz.rs`), one line in [`CHAPTERS`], its feature in
//! `wasm-lab/Cargo.toml`, then `book/src/<name>.md` and its e2e test.

use crate::quiz::{Listed, Quiz};
use crate::view::Widget;

pub mod bucket_rounding;
pub mod capacity;
pub mod chunking;
pub mod cliff;
pub mod method;
pub mod return_contract;
pub mod size_specialized;
pub mod stale_data;
pub mod why_pool;

/// A chapter with a live part.
pub struct Chapter {
    /// The chapter's name: its page `book/src/<name>.md`, its Cargo feature, its wasm module, and
    /// the name in `{{#lab-widget NAME}}` and `{{#lab-quiz NAME}}`.
    pub name: &'static str,
    /// The name of its widget, in every build.
    pub widget: Option<&'static str>,
    /// Its widget's view model, in a build with this chapter (`None` for the reader-timing widget
    /// of Method, which is `web/method.rs`).
    pub view: Option<&'static Widget>,
    /// Its quiz, in a build with this chapter.
    pub quiz: Option<&'static Quiz>,
    /// Its quiz as the progress page lists it, in every build.
    pub listed: Option<Listed>,
}

/// `Some(part)` in a build with the chapter `feature`, else `None` (the part is then not linked).
macro_rules! live {
    ($feature:literal, $part:expr) => {
        if cfg!(feature = $feature) {
            Some($part)
        } else {
            None
        }
    };
}
use live;

/// Every chapter with a live part, in the book's order.
pub const CHAPTERS: &[Chapter] = &[
    why_pool::CHAPTER,
    bucket_rounding::CHAPTER,
    stale_data::CHAPTER,
    return_contract::CHAPTER,
    capacity::CHAPTER,
    cliff::CHAPTER,
    chunking::CHAPTER,
    size_specialized::CHAPTER,
    method::CHAPTER,
];

/// The chapter called `name`.
pub fn chapter(name: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|c| c.name == name)
}
