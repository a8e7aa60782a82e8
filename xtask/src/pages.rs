//! The built site as a static host serves it (issue 40: a chapter live in two seconds on a
//! phone): what runs over every page after mdBook, and each language's build settings.
//!
//! - [`compress`]: a `.gz` sibling for every text asset (HTML, CSS, JS, JSON, SVG, text) and the
//!   wasm modules, which `cargo xtask serve` (`serve.rs`) sends with `Content-Encoding: gzip`, as
//!   static hosts do. No `.br`: the brotli crate is not in the lock file, and gzip is what the
//!   issue's target is measured with.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Runs every step over the built `site` (all languages).
pub fn finish(site: &Path) -> Result<()> {
    let (files, raw, zipped) = compress(site)?;
    println!("precompressed {files} files: {raw} B → {zipped} B gzipped");
    Ok(())
}

/// A language's build settings beyond its language and folder ([`crate::site::language_settings`]).
pub fn language_settings(
    _book: &mut mdbook_driver::MDBook,
    _language: &lab_text::lang::Language,
) -> Result<()> {
    Ok(())
}

/// Extensions of the files worth compressing.
const COMPRESSED: &[&str] = &["html", "css", "js", "json", "svg", "txt", "wasm", "map"];

/// Writes `<file>.gz` beside every file of [`COMPRESSED`] kinds under `dir` whose gzip is
/// smaller; returns (files, bytes before, bytes after).
pub fn compress(dir: &Path) -> Result<(usize, u64, u64)> {
    let mut totals = (0, 0, 0);
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            let (f, r, z) = compress(&path)?;
            totals = (totals.0 + f, totals.1 + r, totals.2 + z);
            continue;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !COMPRESSED.contains(&ext) {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        let zipped = gzip(&bytes)?;
        let mut name = path.file_name().context("no name")?.to_os_string();
        name.push(".gz");
        let gz = path.with_file_name(name);
        if zipped.len() < bytes.len() {
            std::fs::write(&gz, &zipped).with_context(|| format!("{}", gz.display()))?;
            totals = (
                totals.0 + 1,
                totals.1 + bytes.len() as u64,
                totals.2 + zipped.len() as u64,
            );
        } else if gz.exists() {
            std::fs::remove_file(&gz)?;
        }
    }
    Ok(totals)
}

/// `bytes` gzipped at the best level, without a time in the header (the same input gives the
/// same file).
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?)
}
