//! The course's live part: each chapter's runs of the pool and chunker (the `bufpool` crate), its
//! widgets and its quizzes.
//!
//! The same code runs in two places. Natively it is tested, and the book's build draws each
//! widget's default state and prints each quiz from it; compiled to `wasm32-unknown-unknown` it
//! powers the widgets and live quizzes in the book (see `web`, present only in the wasm build).
//! Nothing here talks to the outside world, so nothing here can fail for reasons other than its
//! input: every misuse is a typed error, never a panic.
//!
//! - [`chapter`]: one folder per chapter with a live part (its scenario runs, its widget's view
//!   model, its quiz) and [`chapter::CHAPTERS`], the one list every registry is derived from.
//! - [`calc`]: the bucket calculator's full answer for one request, with the formula's steps.
//! - [`input`]: parsing what a reader types into a widget, with messages a reader understands.
//! - [`progress`]: a student's quiz progress as the browser stores it, read strictly.
//! - [`quiz`]: live quiz questions whose answers are computed by the lab itself.

// A chapter page's module (built without `all-chapters`, see `Cargo.toml`) leaves the other
// chapters' code unreached on purpose: the linker drops it, and the compiler need not say so.
#![cfg_attr(not(feature = "all-chapters"), allow(dead_code, unused_imports))]

pub mod calc;
pub mod chapter;
pub mod input;
mod maps;
pub mod pool_words;
pub mod progress;
pub mod quiz;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod code_probe;
#[cfg(target_arch = "wasm32")]
pub mod web;

/// The wasm modules the book ships, one per kind of page, each built with its own Cargo feature
/// only: each chapter with a live part (its widget and quiz) and `progress` (the progress page's
/// table, no chapter's code). `theme/lab-loader.js` imports `wasm/<module>/` for each module the
/// page's mount points name, and `mountAll(module)` mounts that module's own mount points.
pub fn modules() -> impl Iterator<Item = &'static str> {
    chapter::CHAPTERS
        .iter()
        .map(|c| c.name)
        .chain(std::iter::once("progress"))
}

/// The widgets the book can mount, by the name used in `{{#lab-widget NAME}}`, in every build.
pub fn widget_names() -> impl Iterator<Item = &'static str> {
    chapter::CHAPTERS.iter().filter_map(|c| c.widget)
}

// The widgets report allocation counts, so the wasm build counts. Natively, binaries and tests
// register the allocator themselves (see `alloc_count`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static GLOBAL: course_pool::alloc_count::CountingAlloc<std::alloc::System> =
    course_pool::alloc_count::CountingAlloc::new(std::alloc::System);

#[cfg(test)]
mod tests {
    /// Every chapter has the Cargo feature that builds its module, and `all-chapters` includes it:
    /// Cargo cannot derive features from [`super::chapter::CHAPTERS`], so this names the missing line.
    #[test]
    fn every_module_has_its_feature() {
        let manifest = include_str!("../Cargo.toml");
        for module in super::modules() {
            assert!(
                manifest.contains(&format!(
                    "
{module} = []"
                )),
                "wasm-lab/Cargo.toml lacks the line `{module} = []` under [features]"
            );
            assert!(
                manifest.contains(&format!(
                    "    \"{module}\",
"
                )),
                "wasm-lab/Cargo.toml: `all-chapters` lacks the line `    \"{module}\",`"
            );
        }
    }

    /// A chapter's widget and quiz carry the chapter's name (the book mounts them by it).
    #[test]
    fn a_chapter_s_parts_carry_its_name() {
        for c in super::chapter::CHAPTERS {
            assert!(c.widget.is_none_or(|w| w == c.name), "{}", c.name);
            assert!(c.view.is_none_or(|w| w.name == c.name), "{}", c.name);
            assert!(c.quiz.is_none_or(|q| q.id == c.name), "{}", c.name);
            assert!(
                c.listed.as_ref().is_none_or(|l| l.id == c.name),
                "{}",
                c.name
            );
        }
    }
}
