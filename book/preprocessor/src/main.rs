//! `mdbook-lab`: run by mdBook (see `book/book.toml`). Thin on purpose: the work is in the library.

#![forbid(unsafe_code)]

use std::io;
use std::process::ExitCode;

use mdbook_lab::Lab;
use mdbook_preprocessor::Preprocessor;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [supports, renderer] = args.as_slice()
        && supports == "supports"
    {
        return match Lab.supports_renderer(renderer) {
            Ok(true) => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        };
    }
    // For instructors and reviews: every claim's mark on each data file and each repetition.
    if let [marks, src, files @ ..] = args.as_slice()
        && marks == "marks"
    {
        let mut loaded = Vec::new();
        for f in files {
            match bench_data::RunFile::load(std::path::Path::new(f)) {
                Ok(file) => loaded.push(file),
                Err(e) => {
                    eprintln!("mdbook-lab: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        print!(
            "{}",
            mdbook_lab::claims::marks(std::path::Path::new(src), &loaded)
        );
        return ExitCode::SUCCESS;
    }
    match mdbook_lab::run(io::stdin(), io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mdbook-lab: {e:#}");
            ExitCode::FAILURE
        }
    }
}

// The static widgets are computed here at build time; the why-pool and chunking widgets count
// allocations, as they do in the browser, so the counting allocator is the global one.
#[global_allocator]
static GLOBAL: course_pool::alloc_count::CountingAlloc<std::alloc::System> =
    course_pool::alloc_count::CountingAlloc::new(std::alloc::System);
