//! `cargo xtask`: every set-up, build, test and bench step of the project, from a fresh clone.
//!
//! - `serve [--port N]` — installs what is missing, builds the lab and the book, serves the book.
//! - `build` — the same without serving (output in `book/build/`).
//! - `links` — checks every internal link and anchor of the last build (also a step of `test`).
//! - `lint` — the book's prose lint, then the strict build of the committed data (a step of `test`).
//! - `test` — every check: prose lint, clippy, unit, property, doc, loom, Miri, wasm in Chromium, end-to-end in
//!   Chromium, with each step's time against its budget.
//! - `exercises [check [N] | list | hint N | verify]` — grades the course's exercises (see
//!   `exercises/grader`): which pass, why the first failing test of each fails, what to do next;
//!   `verify` also grades the site's download of them in an empty folder (`download.rs`).
//! - `bench [--quick] [--out DIR] [--machine-id ID] [--runtime R]` — measures this machine under
//!   each global allocator and in Chromium's wasm32 (`bench.rs`), rewrites
//!   `book/data/<machine-id>.json` and `<machine-id>.<runtime>.json` (or writes into `DIR`, e.g.
//!   for a trial run that must not replace the committed data); the id names the CPU, and a file
//!   of another CPU is never overwritten; `--runtime` measures one runtime only. Measuring into
//!   `book/data`, it then rewrites the bench's ratios in `bufpool/README.md` (as `crate-docs`).
//! - `msrv` — checks `bufpool` with the toolchain of the workspace's `rust-version` (installed
//!   with rustup when missing; also a step of `test`).
//! - `crate-docs` — rewrites the block of bench ratios in `bufpool/README.md`, the crate's docs,
//!   from the data the book cites first (`crate_docs.rs`).
//!
//! - `bench-site [--no-build]` — each chapter loaded cold on an emulated phone over Slow 4G
//!   (`bench_site.rs`): bytes, requests, time to the first live widget.
//! - `i18n` — the book's message template and catalogs, with the translation report (`i18n.rs`).
//! - `fuzz [--seconds N] [--fast] [--no-trace-compares] [--minimize] [TARGET]` — the coverage-guided fuzz
//!   targets of `fuzz/` (cargo-fuzz, nightly), N seconds each; crashes are saved minimized in
//!   `fuzz/artifacts/` (`fuzz.rs`).
//!
//! Installs are pinned: the wasm-bindgen CLI is installed at exactly the version in `Cargo.lock`.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};

mod architecture;
mod bench;
mod bench_site;
mod clippy;
mod cmd;
mod crate_docs;
mod download;
mod fuzz;
mod highlight;
mod i18n;
mod links;
mod lint;
mod pages;
mod search;
mod serve;
mod site;
mod slim;
mod test;
mod tools;

const USAGE: &str = "\
usage: cargo xtask <command>

  serve [--port N]   install what is missing, build the lab and the book, serve http://127.0.0.1:3000
  build              the same without serving (output in book/build/)
  links              check every internal link and anchor of the last build (book/build/)
  test               every check: lint, clippy, unit, property, doc, loom, Miri, wasm and end-to-end in Chromium
  lint               the book's prose lint, then the strict build of the committed data
  fuzz [--seconds N] [--fast] [--no-trace-compares] [--minimize] [TARGET]
                     fuzz every parser readers and instructors feed (N s per target, default 20;
                     --fast: no sanitizer, --no-trace-compares: no comparison tracing,
                     --minimize: cmin first)
  i18n               extract the English text into book/po/messages.pot, merge it into every
                     book/po/<lang>.po and print the translation report
  exercises [check [N] | list | hint N | verify]
                     grade the exercises (the default: check all), list them, or print a hint
  bench-site [--no-build]
                     load each chapter cold at 390 x 844 over an emulated Slow 4G link in
                     headless Chromium; write bytes, requests and time to the first live widget
                     to book/data/site/<machine>.json (the contributors' page shows it)
  bench [--quick] [--out DIR] [--machine-id ID] [--runtime system|mimalloc|jemalloc|wasm32]
                     measure this machine and rewrite book/data/<machine-id>.json and
                     <machine-id>.<runtime>.json (or DIR/…; the id names the CPU, e.g.
                     amd-zen3-2c, and another CPU's file is never overwritten);
                     --runtime: that runtime only; then, into book/data, as crate-docs
  crate-docs         rewrite the bench's ratios in bufpool/README.md (the crate's docs) from
                     the data the book cites first
  msrv               check bufpool with the toolchain of the workspace's rust-version (a step
                     of test; installs that toolchain when missing)
";

// `cargo xtask lint` runs the book's preprocessor in-process, and it draws the why-pool and
// chunking widgets' default state by counting allocations, as the browser does: the counting
// allocator must be the global one here too (as in `mdbook-lab`'s own binary).
#[global_allocator]
static GLOBAL: course_pool::alloc_count::CountingAlloc<std::alloc::System> =
    course_pool::alloc_count::CountingAlloc::new(std::alloc::System);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<()> {
    site::start_clock();
    let root = root();
    std::env::set_current_dir(&root)?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["serve"] => serve(&root, 3000),
        ["serve", "--port", port] => serve(&root, port.parse()?),
        ["build"] => site::build(&root).map(|_| ()),
        ["links"] => links::check(&root.join("book").join("build")),
        ["test"] => test::all(&root),
        ["i18n"] => i18n::update(&root),
        ["lint"] => lint::run(&root),
        ["fuzz", rest @ ..] => fuzz::run(&root, rest),
        ["exercises", "verify"] => {
            exercises_grader::run(&root, &["verify"])?;
            download::check(&root)
        }
        ["exercises", rest @ ..] => exercises_grader::run(&root, rest),
        ["bench-site", rest @ ..] => bench_site::run(&root, rest),
        ["bench", rest @ ..] => bench::bench(&root, &bench::Args::parse(rest)?),
        ["crate-docs"] => crate_docs::run(&root),
        ["msrv"] => tools::check_msrv(&root),
        ["help" | "--help" | "-h"] | [] => {
            print!("{USAGE}");
            Ok(())
        }
        _ => bail!("unknown command {:?}\n\n{USAGE}", args.join(" ")),
    }
}

fn serve(root: &Path, port: u16) -> Result<()> {
    let site = site::build(root)?;
    let server = serve::Server::bind(&site, port)?;
    println!("\nPools & Chunks is served at {}", server.url());
    println!("Open it in a browser; stop with Ctrl-C.");
    server.run()
}

/// The workspace root (this crate sits one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
