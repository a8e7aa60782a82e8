//! Building the site: the lab to wasm, bound for the web, then the book around it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::{cmd, tools};

/// Builds the wasm lab and the book; returns the directory to serve.
pub fn build(root: &Path) -> Result<PathBuf> {
    build_wasm(root)?;
    build_book(root)
}

/// Compiles the lab for wasm32 with the profile readers get (`wasm-release`); a no-op when up to
/// date.
pub fn compile_wasm() -> Result<()> {
    cmd::cargo(&[
        "build",
        "--package",
        "wasm-lab",
        "--lib",
        "--target",
        tools::WASM_TARGET,
        "--profile",
        "wasm-release",
    ])
    .run()
}

/// The lab as readers download it: compiled, bound for the web into `book/src/wasm/` (the name
/// and producers sections left out: nothing in a page reads them, and the name section alone was
/// a fifth of the module), then shrunk by `wasm-opt -Oz` when binaryen is available
/// ([`tools::wasm_opt`]). The bench reads the sizes of what this writes (`wasm_size.*`).
pub fn build_wasm(root: &Path) -> Result<()> {
    tools::wasm_target()?;
    tools::wasm_bindgen_cli(root)?;
    step("building the lab for wasm32");
    compile_wasm()?;
    let wasm = target_dir(root)
        .join(tools::WASM_TARGET)
        .join("wasm-release")
        .join("wasm_lab.wasm");
    let out = root.join("book/src/wasm");
    std::fs::create_dir_all(&out)?;
    cmd::new(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            "--no-typescript",
            "--remove-name-section",
            "--remove-producers-section",
            "--out-dir",
            &out.to_string_lossy(),
            &wasm.to_string_lossy(),
        ],
    )
    .run()?;
    let shipped = out.join("wasm_lab_bg.wasm");
    match tools::wasm_opt(root) {
        Some(wasm_opt) => {
            step("shrinking the lab with wasm-opt -Oz");
            let path = shipped.to_string_lossy();
            cmd::new(
                &wasm_opt.to_string_lossy(),
                &[
                    "-Oz",
                    "--strip-debug",
                    "--strip-producers",
                    &path,
                    "-o",
                    &path,
                ],
            )
            .run()?;
        }
        None => eprintln!(
            "wasm-opt is not available (npm binaryen); the lab ships without its last size pass"
        ),
    }
    let size = |name: &str| std::fs::metadata(out.join(name)).map_or(0, |m| m.len());
    println!(
        "the lab ships {} B of wasm and {} B of JS",
        size("wasm_lab_bg.wasm"),
        size("wasm_lab.js")
    );
    Ok(())
}

fn build_book(root: &Path) -> Result<PathBuf> {
    step("building the book");
    // The preprocessor runs as `cargo run -p mdbook-lab` (book.toml); build it first so its
    // compile errors show here, not inside mdBook's log.
    cmd::cargo(&["build", "--quiet", "--package", "mdbook-lab"]).run()?;
    let book =
        mdbook_driver::MDBook::load(root.join("book")).context("cannot load book/book.toml")?;
    book.build().context("the book did not build")?;
    let site = root.join("book/build");
    println!("built the book in {}", site.display());
    Ok(site)
}

pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// When this xtask started: every step line shows the time since (a first run takes many
/// minutes, and a reader should see it moving).
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Starts the clock of the step lines.
pub fn start_clock() {
    STARTED.get_or_init(std::time::Instant::now);
}

/// Minutes and seconds since the xtask started, as `12:05`.
pub fn elapsed() -> String {
    let s = STARTED
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Announces a step, with the time since the xtask started.
pub fn step(what: &str) {
    eprintln!("\n== [{}] {what}", elapsed());
}
