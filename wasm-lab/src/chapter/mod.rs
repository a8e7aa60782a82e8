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
//! To add a chapter: a folder here with `mod.rs` (its doc line and `pub mod` lines) and the parts
//! it has (`scenario.rs`, `view.rs`, `quiz.rs`), one line in [`CHAPTERS`], its feature in
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

/// One chapter's [`Chapter`]: its name, its module, whether its widget is a view model (`view`)
/// or the reader-timing widget of `web/method.rs` (`timing`), and its quiz's kind names.
macro_rules! chapter {
    ($name:literal, $m:ident, view, [$($kind:literal),*]) => {
        Chapter {
            view: live!($name, &$m::view::WIDGET),
            ..chapter!($name, $m, timing, [$($kind),*])
        }
    };
    ($name:literal, $m:ident, timing, [$($kind:literal),*]) => {
        Chapter {
            name: $name,
            widget: Some($name),
            view: None,
            quiz: live!($name, &$m::quiz::QUIZ),
            listed: Some(Listed::of(&$m::quiz::QUIZ, &[$($kind),*])),
        }
    };
}

/// Every chapter with a live part, in the book's order: its name, its module, its kind of widget
/// and its quiz's kind names (as progress stores them; a test checks them against the quiz).
#[rustfmt::skip]
pub const CHAPTERS: &[Chapter] = &[
    chapter!("why-pool", why_pool, view, ["fresh-bytes", "pool-buffer-bytes", "break-even", "less-time-1mib"]),
    chapter!("bucket-rounding", bucket_rounding, view, ["bucket-index", "buffer-length", "wasted-bytes", "length-is-request"]),
    chapter!("stale-data", stale_data, view, ["leaked-bytes", "non-zero-on-arrival", "same-bucket-sees-old", "payload-alive"]),
    chapter!("return-contract", return_contract, view, ["shared-after-returns", "foreign-accepted", "forgotten-return", "test-passed", "does-it-compile"]),
    chapter!("capacity", capacity, view, ["capacity", "bytes-per-round", "create-keeps", "override", "big-machine"]),
    chapter!("cliff", cliff, view, ["new-in-loh", "pool-in-loh", "first-loh-length", "glibc-chunk", "glibc-mmap", "fresh-edge", "after-free"]),
    chapter!("chunking", chunking, view, ["first-chunk-arrays", "first-chunk-bytes", "later-chunk-bytes", "chunk-path", "pooled-first-bytes"]),
    chapter!("size-specialized", size_specialized, view, ["compile-time-bucket", "bucket-routines", "shared-path", "go-specializes"]),
    chapter!("method", method, timing, ["paired-ratio", "citable", "peer-less-time", "after-free-mmapped"]),
];

/// Whether any chapter of this build has a view model. A module without one (`method`,
/// `progress`) then iterates no chapter at all: the compiler sees the list empty and drops the
/// widget layer, which a loop over nine `None`s left linked (40 KB of those modules).
pub const ANY_VIEW: bool = ANY.0;

/// Whether any chapter of this build has its quiz (`progress` has none), as [`ANY_VIEW`].
pub const ANY_QUIZ: bool = ANY.1;

/// Whether any chapter of this build has a view model, and whether any has its quiz: one walk
/// over [`CHAPTERS`] at compile time (a `const` cannot call a closure to pick the field).
const ANY: (bool, bool) = {
    let (mut view, mut quiz) = (false, false);
    let mut i = 0;
    while i < CHAPTERS.len() {
        view |= CHAPTERS[i].view.is_some();
        quiz |= CHAPTERS[i].quiz.is_some();
        i += 1;
    }
    (view, quiz)
};

/// The chapter called `name`.
pub fn chapter(name: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|c| c.name == name)
}
