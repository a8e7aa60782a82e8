//! The book's preprocessor: the one place where bench data and the lab meet the chapter text.
//!
//! It replaces directives in chapter Markdown:
//!
//! | directive | becomes |
//! |---|---|
//! | `{{#fig KEY}}` | the figure `KEY` from the primary machine's data (machine, date and statistics in its popover) |
//! | `{{#fig KEY on=RUNTIME}}` | the same from that machine's file of another runtime (`on=wasm32`) |
//! | `{{#provenance}}` | once per page: the machine and run its Rust figures come from |
//! | `{{#fig-table KEY …}}` | a table of those figures, one column per machine in `book/data/` |
//! | `{{#claim KEY OP [VALUE]}}` | ✓ when the data of every machine at the current code supports the sentence, ⚠ when one contradicts it, ? when too noisy (`machines=any`: one machine suffices; `machine=ID`: that one decides); operators in `bench_data::claim` (`<` … `>=`, `==`, `below`, `above`, `includes`, `excludes`, `citable`, `not-citable`; KEY may be a pattern: every figure it names) |
//! | `{{#verdict KEY [expect=…] [less=…] [more=…]}}` | a ratio's conclusion in words the data decides: "0.865× [0.864–0.871]: less time" or "no measurable difference" |
//! | `{{#machine FACT}}` | a fact of the primary machine (`libc`, `cores`, `cpu`, `os`, `kernel`, `id`, `rustc`) |
//! | `{{#ledger}}` | every figure the story chapters cite, with its statistics on every machine file and a link back (`ledger`) |
//! | `{{#when KEY…}} … {{#or-when KEY…}} … {{#otherwise}} … {{#end-when}}` | the first form whose figures the noise gate lets the book print (`ledger::choose_forms`) |
//! | `{{#claims-report}}` | every claim of the book with its mark on each machine file (the instructors' page) |
//! | `{{#machines}}` | the machines the data comes from, with their facts, runtime and code fingerprint (older code listed, not used) |
//! | `{{#instructions}}` | the instruction check: instructions and macro-ops per iteration, time, clock, implied macro-ops per cycle and the bound (the core's sustained width) of every hot-path figure |
//! | `{{#listing KEY}}` | the machine code of the loop behind `KEY`, next to its time |
//! | `{{#instr KEY}}` | the instructions per iteration of the loop behind `KEY` (callgrind) |
//! | `{{#bucket-table N …}}` | the shared pool's rounding of each request, computed by the lab |
//! | `{{#chart NAME}}` | a chart of figures from every machine in `book/data` (inline SVG, a table mirror; charts in `render/chart/specs.rs`) |
//! | `{{#lab-widget NAME [initial=…]}}` | the widget's default state, drawn from the lab's view model (readable without scripts); the wasm build brings it to life |
//! | `{{#lab-quiz ID [kinds=A,B]}}` | a live quiz mount point carrying the figures and compiler verdicts it grades from (`kinds=`: only those questions, e.g. a short check after a widget), its printed form, and an answer key at the chapter's end for print |
//! | `{{#lab-progress}}` | the progress page: every chapter's quiz from the reader's stored progress |
//!
//! A directive that names a figure, widget or quiz that does not exist fails the build with a
//! message naming the chapter and the missing name: a book never ships a silently wrong number.
//! A figure the noise gate rejected is rendered as "not citable", never as a fact.
//! A normal build ends with the table of every claim (chapter, sentence, what the data shows);
//! with `LAB_STRICT=1` (or `[preprocessor.lab] strict = true`, as `cargo xtask test` builds it) a
//! claim contradicted on any current machine it speaks for fails the build, naming its chapter, line and sentence. `LAB_DATA_DIR` (or
//! `data-dir`) reads the data from elsewhere than `book/data`.
//! Write `\{{#fig …}}` to show a directive literally.

#![forbid(unsafe_code)]

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

pub mod chrome;
pub mod claims;
#[doc(hidden)]
pub mod data;
#[doc(hidden)]
pub mod directive;
pub mod ledger;
mod render;
mod snippets;
pub mod translate;

pub use data::Data;

/// Markers around what only the book's print page carries (the printed quizzes and their answer
/// key): `START printed ELSE chapter-page END`. `cargo xtask build` keeps the printed part in
/// `print.html` and the other part in every chapter page (`xtask/src/slim.rs`): a chapter's
/// page does not carry, hidden, questions only a printout shows.
pub const PRINT_ONLY: [&str; 3] = [
    "<!--lab-print-only-->",
    "<!--lab-print-else-->",
    "<!--/lab-print-only-->",
];
pub use render::chart::names as chart_names;
pub use render::{citable, format_value};

/// The preprocessor, named `lab` in `book.toml`.
pub struct Lab;

impl Preprocessor for Lab {
    fn name(&self) -> &str {
        "lab"
    }

    fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
        // First the page's language (po/<lang>.po), then the figures: see `translate`.
        let mut book = translate::translate(ctx, book)?;
        lab_text::tr::set_catalogs(translate::CATALOGS);
        lab_text::tr::set_language(&translate::language(ctx));
        let setting = |name: &str| {
            ctx.config
                .get::<String>(&format!("preprocessor.lab.{name}"))
        };
        let dir = match (std::env::var_os("LAB_DATA_DIR"), setting("data-dir")?) {
            (Some(dir), _) => PathBuf::from(dir),
            (None, Some(dir)) => PathBuf::from(dir),
            (None, None) => ctx.root.join("data"),
        };
        let strict = strict() || ctx.config.get::<bool>("preprocessor.lab.strict")? == Some(true);
        let root = bench_data::fingerprint::workspace_root(&ctx.root);
        let data = Data::load_with_root(
            &dir,
            std::env::var("LAB_MACHINE").ok().as_deref(),
            root.as_deref(),
        )?;
        // First every claim of the book, so the instructors' page can list them all.
        book.for_each_chapter_mut(|chapter| {
            data.add_sites(claims::collect(&source_name(chapter), &chapter.content));
            let source = source_name(chapter);
            data.add_cites(ledger::collect_chosen(&source, &chapter.content, &data));
        });
        let mut problems = Vec::new();
        let language = translate::language(ctx);
        book.for_each_chapter_mut(|chapter| {
            let source = source_name(chapter);
            match render_chapter(&source, &chapter.content, &data) {
                Ok(content) => {
                    chapter.content = match chapter.source_path.as_ref() {
                        Some(path) => {
                            translate::picker(&language, &path.to_string_lossy()) + &content
                        }
                        None => content,
                    }
                }
                Err(errors) => problems.extend(errors),
            }
        });
        if !problems.is_empty() {
            bail!(
                "the book cannot be built: {} directive(s) cannot be resolved\n  {}",
                problems.len(),
                problems.join("\n  ")
            );
        }
        for warning in data.warnings() {
            eprintln!("mdbook-lab: warning: {warning}");
        }
        if let Ok(primary) = data.primary() {
            let sites = data.sites();
            eprint!(
                "mdbook-lab: {}",
                claims::table(&sites, primary, data.files())
            );
            let broken = claims::contradicted(&sites, primary, data.files());
            if strict && !broken.is_empty() {
                bail!(
                    "strict build: {} sentence(s) of the book say what {} does not show\n  {}",
                    broken.len(),
                    claims::machine_ids(primary, data.files()),
                    broken.join("\n  ")
                );
            }
        }
        Ok(book)
    }

    fn supports_renderer(&self, renderer: &str) -> Result<bool> {
        Ok(renderer == "html")
    }
}

/// Whether a contradicted claim fails the build: `LAB_STRICT=1`, or `strict = true` in the
/// book's `[preprocessor.lab]` (how `cargo xtask test` sets it, with `data-dir` for the data).
fn strict() -> bool {
    std::env::var("LAB_STRICT").is_ok_and(|v| v == "1")
}

fn source_name(chapter: &mdbook_preprocessor::book::Chapter) -> String {
    chapter
        .source_path
        .as_ref()
        .map_or_else(|| chapter.name.clone(), |p| p.display().to_string())
}

/// One chapter with its directives replaced, or its problems, each naming the chapter.
fn render_chapter(source: &str, content: &str, data: &Data) -> Result<String, Vec<String>> {
    data.set_chapter(source);
    render::chapter(content, data).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| format!("{source}: {e}"))
            .collect()
    })
}

/// Reads mdBook's JSON from `input`, preprocesses, writes the book JSON to `output`.
pub fn run(input: impl Read, mut output: impl Write) -> Result<()> {
    let (ctx, book) = mdbook_preprocessor::parse_input(input)?;
    let book = Lab.run(&ctx, book)?;
    serde_json::to_writer(&mut output, &book).context("cannot write the book to mdBook")?;
    Ok(())
}
