//! Building the site: the lab to wasm, bound for the web, then the book around it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::{cmd, tools};

/// Builds the wasm lab and the book; returns the directory to serve.
pub fn build(root: &Path) -> Result<PathBuf> {
    build_wasm(root)?;
    step("packing the exercises' download");
    crate::download::write(root)?;
    build_book(root)
}

/// Compiles the lab for wasm32 with the profile readers get (`wasm-release`), with only `module`'s
/// feature (wasm-lab/Cargo.toml); a no-op when up to date. Cargo keeps each feature set's
/// build apart, so switching between modules recompiles nothing that did not change.
pub fn compile_wasm(module: &str) -> Result<()> {
    cmd::cargo(&[
        "build",
        "--package",
        "wasm-lab",
        "--lib",
        "--target",
        tools::WASM_TARGET,
        "--profile",
        "wasm-release",
        "--no-default-features",
        "--features",
        module,
    ])
    .run()
}

/// Where each module's compiled artifact is kept before wasm-bindgen (`<module>.wasm`): cargo
/// writes every feature set's build to the same path, and the bench reads chapter 8's code sizes
/// from the size-specialized module (`native-bench/src/wasm_code.rs`).
pub fn modules_dir(root: &Path) -> PathBuf {
    target_dir(root).join("wasm-modules")
}

/// The lab as readers download it: one module per page kind ([`wasm_lab::modules`]: a chapter's
/// widget and quiz, or the progress page), each compiled with only its chapter's code, bound for
/// the web into `book/src/wasm/<module>/` (the name and producers sections left out: nothing in a
/// page reads them, and the name section alone was a fifth of the module), then shrunk by
/// `wasm-opt -Oz` when binaryen is available ([`tools::wasm_opt`]). A page loads only the modules
/// its mount points name (`theme/lab-loader.js`). The bench reads the sizes of what this writes
/// (`wasm_size.*`).
pub fn build_wasm(root: &Path) -> Result<()> {
    tools::wasm_target()?;
    tools::wasm_bindgen_cli(root)?;
    let artifact = target_dir(root)
        .join(tools::WASM_TARGET)
        .join("wasm-release")
        .join("wasm_lab.wasm");
    let out = root.join("book/src/wasm");
    clear_all_but_modules(&out)?;
    let kept = modules_dir(root);
    std::fs::create_dir_all(&kept)?;
    let wasm_opt = tools::wasm_opt(root);
    if wasm_opt.is_none() {
        eprintln!(
            "wasm-opt is not available (npm binaryen); the lab ships without its last size pass"
        );
    }
    let newest = newest_input(root, wasm_opt.as_deref());
    let mut largest = (0, "");
    let mut all = 0;
    for module in wasm_lab::modules() {
        let raw = kept.join(format!("{module}.wasm"));
        let dir = out.join(module);
        let shipped = [
            raw.clone(),
            dir.join("wasm_lab_bg.wasm"),
            dir.join("wasm_lab.js"),
        ];
        if shipped.iter().all(|p| newer_than(p, newest)) {
            step(&format!("the lab's {module} module is up to date"));
        } else {
            step(&format!("building the lab's {module} module for wasm32"));
            compile_wasm(module)?;
            std::fs::copy(&artifact, &raw)
                .with_context(|| format!("cannot keep {}", artifact.display()))?;
            bind_and_shrink(&raw, &dir, "wasm_lab", wasm_opt.as_deref())?;
        }
        let size = |name: &str| std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
        let page = size("wasm_lab_bg.wasm") + size("wasm_lab.js");
        largest = largest.max((page, module));
        all += page;
    }
    for (lang, largest) in crate::i18n::lab::write_strings(root, &out)? {
        println!("the lab's {lang} strings: the largest module's are {largest} B");
    }
    println!(
        "the lab ships {} modules: the largest page downloads {} B of wasm and JS ({}), all \
         modules together are {} B",
        wasm_lab::modules().count(),
        largest.0,
        largest.1,
        all
    );
    Ok(())
}

/// Removes everything in `out` but the directories of [`wasm_lab::modules`]: nothing from an
/// earlier layout, or a module that no longer exists, may linger and be served.
fn clear_all_but_modules(out: &Path) -> Result<()> {
    std::fs::create_dir_all(out)?;
    for entry in std::fs::read_dir(out)? {
        let entry = entry?;
        let keep = entry.file_type()?.is_dir()
            && wasm_lab::modules().any(|m| m == entry.file_name().to_string_lossy());
        if !keep {
            let path = entry.path();
            let gone = if path.is_dir() {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            gone.with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    Ok(())
}

/// The newest modification time among what a module's build reads: the lab's files, the
/// workspace's manifest, lock file, toolchain and cargo config, xtask's `site.rs` and `tools.rs`
/// (the build's flags and tools) and wasm-opt. Why xtask checks this itself: every module's build writes the same
/// unhashed `wasm_lab.wasm` (a cdylib), so cargo rebuilds each one on every run (8 s each, ten
/// modules) even when nothing changed. Not the xtask binary: it is relinked whenever another
/// native build of the lab replaces the lab's unhashed native cdylib, which says nothing about
/// the wasm. `None` (something unreadable) means "rebuild".
fn newest_input(root: &Path, wasm_opt: Option<&Path>) -> Option<std::time::SystemTime> {
    let mut files = vec![
        root.join("Cargo.toml"),
        root.join("Cargo.lock"),
        root.join("rust-toolchain.toml"),
        root.join(".cargo/config.toml"),
    ];
    files.extend(wasm_opt.map(Path::to_path_buf));
    let mut newest = std::time::SystemTime::UNIX_EPOCH;
    for f in files.iter().filter(|f| f.exists()) {
        newest = newest.max(std::fs::metadata(f).ok()?.modified().ok()?);
    }
    // Of xtask's sources, the two that say how a module is built (this file's flags, the pinned
    // tools): a change to the book's post-build steps must not rebuild every module.
    for f in [
        root.join("xtask/src/site.rs"),
        root.join("xtask/src/tools.rs"),
    ] {
        newest = newest.max(std::fs::metadata(f).ok()?.modified().ok()?);
    }
    let mut dirs = vec![
        root.join("bufpool"),
        root.join("course-pool"),
        root.join("wasm-lab"),
    ];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).ok()? {
            let entry = entry.ok()?;
            let meta = entry.metadata().ok()?;
            newest = newest.max(meta.modified().ok()?);
            if meta.is_dir() {
                dirs.push(entry.path());
            }
        }
    }
    Some(newest)
}

/// Whether `path` exists and was written after `newest`.
fn newer_than(path: &Path, newest: Option<std::time::SystemTime>) -> bool {
    let written = std::fs::metadata(path).and_then(|m| m.modified());
    matches!((written, newest), (Ok(w), Some(n)) if w > n)
}

/// Binds the compiled module `raw` for the web into `dir` as `<name>.js` and `<name>_bg.wasm`, and
/// shrinks it with wasm-opt.
pub fn bind_and_shrink(raw: &Path, dir: &Path, name: &str, wasm_opt: Option<&Path>) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    cmd::new(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            "--no-typescript",
            "--remove-name-section",
            "--remove-producers-section",
            "--out-name",
            name,
            "--out-dir",
            &dir.to_string_lossy(),
            &raw.to_string_lossy(),
        ],
    )
    .run()?;
    if let Some(wasm_opt) = wasm_opt {
        let path = dir.join(format!("{name}_bg.wasm"));
        let path = path.to_string_lossy();
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
    Ok(())
}

/// The book in every language ([`lab_text::lang::LANGUAGES`]): English in `book/build/` (built
/// first: mdBook empties its output folder), each translation in `book/build/<code>/`, translated
/// by the preprocessor from `book/po/<code>.po`; then the translation report.
fn build_book(root: &Path) -> Result<PathBuf> {
    step("building the book");
    // The preprocessor runs as `cargo run -p mdbook-lab` (book.toml); build it first so its
    // compile errors show here, not inside mdBook's log.
    cmd::cargo(&["build", "--quiet", "--package", "mdbook-lab"]).run()?;
    let site = root.join("book/build");
    for language in lab_text::lang::LANGUAGES {
        let mut book =
            mdbook_driver::MDBook::load(root.join("book")).context("cannot load book/book.toml")?;
        language_settings(&mut book, language, &site)?;
        book.build()
            .with_context(|| format!("the book did not build in {}", language.name))?;
        if language.code != "en" {
            chrome(&site.join(language.code), language.code)?;
            let sections = crate::search::write(&site.join(language.code))?;
            println!("{}: {sections} sections in its search", language.code);
        }
    }
    // What a static host would serve: code highlighted, scripts and fonts a page needs, files
    // precompressed (`pages.rs`).
    crate::pages::finish(&site)?;
    // The report; an untranslated message shows in English and warns here (`cargo xtask test`
    // fails on it, in its lint step).
    let report = crate::i18n::report(root)?;
    print!("{}", report.text());
    if let Err(e) = report.check() {
        eprintln!("warning: {e:#}");
    }
    println!(
        "built the book in {} ({})",
        site.display(),
        lab_text::lang::LANGUAGES
            .iter()
            .map(|l| if l.code == "en" {
                "en".to_string()
            } else {
                format!("{}/", l.code)
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(site)
}

/// mdBook's own words (its template's labels, tooltips, theme names, help and 404 page, and its
/// script's code-block buttons) in a translated site's language, written into each of its pages
/// and its `book-<hash>.js` (`mdbook_lab::chrome`), so the template's read right without scripts. A text the template no longer writes is an error: mdBook changed
/// its words, and the list must follow.
fn chrome(dir: &Path, code: &str) -> Result<()> {
    lab_text::tr::set_catalogs(mdbook_lab::translate::CATALOGS);
    lab_text::tr::set_language(code);
    let result = chrome_pages(dir);
    lab_text::tr::set_language("en");
    let (found, found_in_script) = result?;
    let missing: Vec<&str> = mdbook_lab::chrome::texts()
        .zip(&found)
        .chain(mdbook_lab::chrome::script_texts().zip(&found_in_script))
        .filter(|(_, n)| **n == 0)
        .map(|(t, _)| t)
        .collect();
    if !missing.is_empty() {
        bail!(
            "mdBook's template no longer writes {missing:?} in {}: update \
             book/preprocessor/src/chrome.rs",
            dir.display()
        );
    }
    Ok(())
}

fn chrome_pages(dir: &Path) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut found = vec![0; mdbook_lab::chrome::texts().count()];
    let mut found_in_script = vec![0; mdbook_lab::chrome::script_texts().count()];
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.extension().is_some_and(|x| x == "html") {
            pages.push(path);
        } else if name.starts_with("book-") && name.ends_with(".js") {
            // mdBook's script, named by its hash: one per site.
            let js =
                std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
            let translated = mdbook_lab::chrome::script(&js, &mut found_in_script);
            std::fs::write(&path, translated).with_context(|| format!("{}", path.display()))?;
        }
    }
    for path in pages {
        let html = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
        let translated = mdbook_lab::chrome::page(&html, &mut found);
        if translated != html {
            std::fs::write(&path, translated).with_context(|| format!("{}", path.display()))?;
        }
    }
    Ok((found, found_in_script))
}

/// One language's build: its `book.language` (which the preprocessor translates into and mdBook
/// writes as `<html lang>`) and its folder. mdBook's own search keeps only ASCII letters of a
/// word, so a Russian or Thai page would find nothing: the translations use the lab's search
/// (`theme/lab-search.js`, over `search-text.json`, which the preprocessor writes per language).
pub fn language_settings(
    book: &mut mdbook_driver::MDBook,
    language: &lab_text::lang::Language,
    site: &Path,
) -> Result<()> {
    book.config.book.language = Some(language.code.into());
    if language.code != "en" {
        book.config.build.build_dir = site.join(language.code);
        book.config.set("output.html.search.enable", false)?;
    }
    Ok(())
}

/// The book's chapter files, `book/src/*.md`, sorted (the prose lint and the translations read
/// them).
pub fn chapters(root: &Path) -> Result<Vec<PathBuf>> {
    let src = root.join("book/src");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&src)
        .with_context(|| format!("cannot list {}", src.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    Ok(pages)
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
