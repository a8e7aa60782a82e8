//! The book's preprocessor: the one place where bench data and the lab meet the chapter text.
//!
//! It replaces directives in chapter Markdown:
//!
//! | directive | becomes |
//! |---|---|
//! | `{{#fig KEY}}` | the figure `KEY` from the primary machine's data, with its provenance |
//! | `{{#fig-table KEY …}}` | a table of those figures, one column per machine in `book/data/` |
//! | `{{#claim KEY OP VALUE}}` | (VALUE: a number or another figure's key) ✓ when the primary machine's figure supports the sentence (`<`, `<=`, `>`, `>=`), else a visible warning and a build warning |
//! | `{{#machines}}` | the machines the data comes from, with their facts |
//! | `{{#bucket-table N …}}` | the shared pool's rounding of each request, computed by the lab |
//! | `{{#chart NAME}}` | a chart of figures from every machine in `book/data` (inline SVG, a table mirror; charts in `render/chart/specs.rs`) |
//! | `{{#lab-widget NAME [initial=…]}}` | a mount point the wasm build brings to life |
//! | `{{#lab-quiz ID}}` | a live quiz mount point |
//!
//! A directive that names a figure, widget or quiz that does not exist fails the build with a
//! message naming the chapter and the missing name: a book never ships a silently wrong number.
//! A figure the noise gate rejected is rendered as "not citable", never as a fact.
//! Write `\{{#fig …}}` to show a directive literally.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

mod data;
mod directive;
mod render;

pub use data::Data;
pub use render::chart::names as chart_names;
pub use render::{citable, format_value};

/// The preprocessor, named `lab` in `book.toml`.
pub struct Lab;

impl Preprocessor for Lab {
    fn name(&self) -> &str {
        "lab"
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let dir = std::env::var_os("LAB_DATA_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| ctx.root.join("data"));
        let data = Data::load(&dir, std::env::var("LAB_MACHINE").ok().as_deref())?;
        let mut problems = Vec::new();
        book.for_each_chapter_mut(|chapter| {
            let source = chapter
                .source_path
                .as_ref()
                .map_or_else(|| chapter.name.clone(), |p| p.display().to_string());
            match render_chapter(&source, &chapter.content, &data) {
                Ok(content) => chapter.content = content,
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
        Ok(book)
    }

    fn supports_renderer(&self, renderer: &str) -> Result<bool> {
        Ok(renderer == "html")
    }
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
