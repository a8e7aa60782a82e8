//! What readers download: the size of each of the lab's shipped wasm modules (one per chapter
//! page, one for the progress page) with its JS glue, as written by `cargo xtask
//! build`/`serve`/`bench` into `book/src/wasm/<module>/` (after wasm-bindgen and, when available,
//! `wasm-opt`), raw and gzipped — so the book can cite them and a regression shows in
//! the data. Exact figures: they do not depend on the machine's load.
//!
//! Gzip is level 9 through `flate2` (what a static server that precompresses would send; a
//! server compressing on the fly at a lower level sends a few percent more). A missing file is
//! reported plainly and records nothing, never a made-up number.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use bench_data::Unit;
use wasmparser::{Parser, Payload};

use crate::measure::Session;

/// Where the site build writes the lab (relative to the workspace root, where the bench runs).
pub fn shipped_dir() -> PathBuf {
    PathBuf::from("book/src/wasm")
}

/// Bytes after gzip at the best compression level.
pub fn gzip_len(bytes: &[u8]) -> Result<u64> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes)?;
    Ok(enc.finish()?.len() as u64)
}

/// The byte sizes of a module's code and data sections and of its custom sections together.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sections {
    pub code: u64,
    pub data: u64,
    pub custom: u64,
}

/// Reads the section sizes of `wasm`.
pub fn sections(wasm: &[u8]) -> Result<Sections> {
    let mut s = Sections::default();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.context("not a readable wasm module")? {
            Payload::CodeSectionStart { size, .. } => s.code += u64::from(size),
            Payload::DataSection(reader) => s.data += reader.range().len() as u64,
            Payload::CustomSection(c) => s.custom += c.range().len() as u64,
            _ => {}
        }
    }
    Ok(s)
}

pub fn run(s: &mut Session) -> Result<()> {
    record(s, &shipped_dir())
}

/// One module as shipped: its wasm and JS, raw and gzipped.
struct Shipped {
    name: String,
    wasm: u64,
    js: u64,
    wasm_gz: u64,
    js_gz: u64,
    sections: Sections,
}

impl Shipped {
    fn read(dir: &Path, name: &str) -> Result<Shipped> {
        let at = dir.join(name);
        let wasm = std::fs::read(at.join("wasm_lab_bg.wasm"))
            .with_context(|| format!("cannot read {}", at.display()))?;
        let js = std::fs::read(at.join("wasm_lab.js"))
            .with_context(|| format!("cannot read {}", at.display()))?;
        Ok(Shipped {
            name: name.to_string(),
            wasm: wasm.len() as u64,
            js: js.len() as u64,
            wasm_gz: gzip_len(&wasm)?,
            js_gz: gzip_len(&js)?,
            sections: sections(&wasm)?,
        })
    }
    fn total(&self) -> u64 {
        self.wasm + self.js
    }
    fn total_gz(&self) -> u64 {
        self.wasm_gz + self.js_gz
    }
}

/// Records every module's download (`wasm_size.module.<module>.*`, `-` as `_`), the largest page's
/// in detail (`wasm_size.largest.*`: a page loads its own chapter's module only) and all modules
/// together (`wasm_size.all.*`: what a reader of every chapter downloads once, then caches).
fn record(s: &mut Session, dir: &Path) -> Result<()> {
    let mut shipped = Vec::new();
    for name in wasm_lab::modules() {
        match Shipped::read(dir, name) {
            Ok(m) => shipped.push(m),
            Err(e) => {
                eprintln!(
                    "    shipped sizes not measured: {e:#}; build the lab with `cargo xtask build` \
                     (cargo xtask bench does)"
                );
                return Ok(());
            }
        }
    }
    for m in &shipped {
        let key = m.name.replace('-', "_");
        let page = if m.name == "progress" {
            "the progress page".to_string()
        } else {
            format!("the {} chapter's page", m.name)
        };
        s.exact(
            &format!("wasm_size.module.{key}.bytes"),
            &format!("what {page} downloads for the lab: wasm + JS"),
            Unit::Bytes,
            m.total() as f64,
        )?;
        s.exact(
            &format!("wasm_size.module.{key}.gzip_bytes"),
            &format!("what {page} downloads for the lab, gzipped (level 9)"),
            Unit::Bytes,
            m.total_gz() as f64,
        )?;
    }
    let Some(largest) = shipped.iter().max_by_key(|m| m.total()) else {
        return Ok(());
    };
    let of = format!("the largest page's module ({})", largest.name);
    let figures = [
        ("largest.wasm_bytes", format!("{of}: wasm"), largest.wasm),
        ("largest.js_bytes", format!("{of}: JS glue"), largest.js),
        (
            "largest.bytes",
            format!("{of}: wasm + JS, what that page downloads"),
            largest.total(),
        ),
        (
            "largest.gzip_bytes",
            format!("{of}: wasm + JS, each gzipped (level 9)"),
            largest.total_gz(),
        ),
        (
            "largest.code_bytes",
            format!("{of}: the wasm code section"),
            largest.sections.code,
        ),
        (
            "largest.data_bytes",
            format!("{of}: the wasm data section (strings, tables, constants)"),
            largest.sections.data,
        ),
        (
            "largest.custom_bytes",
            format!("{of}: the wasm custom sections (names, producers, debug info)"),
            largest.sections.custom,
        ),
        (
            "all.bytes",
            "every module together: wasm + JS".to_string(),
            shipped.iter().map(Shipped::total).sum(),
        ),
        (
            "all.gzip_bytes",
            "every module together, each file gzipped (level 9)".to_string(),
            shipped.iter().map(Shipped::total_gz).sum(),
        ),
    ];
    for (key, title, value) in figures {
        s.exact(
            &format!("wasm_size.{key}"),
            &title,
            Unit::Bytes,
            value as f64,
        )?;
    }
    eprintln!(
        "    shipped: {} modules; the largest page ({}) downloads {} B ({} B gzipped), from {}",
        shipped.len(),
        largest.name,
        largest.total(),
        largest.total_gz(),
        dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_shrinks_repetition_and_counts_its_header() {
        let zeros = gzip_len(&[0u8; 10_000]).unwrap();
        assert!(zeros < 100, "{zeros}");
        // An empty input still has gzip's header and trailer (18 bytes) plus an empty block.
        assert!(gzip_len(&[]).unwrap() >= 18);
    }

    #[test]
    fn sections_of_a_tiny_module() {
        // Magic + version, then a custom section "n" of 3 bytes (name length 1, "n", one byte).
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend([0, 3, 1, b'n', 7]);
        let s = sections(&m).unwrap();
        assert_eq!(s.custom, 3);
        assert_eq!((s.code, s.data), (0, 0));
        assert!(sections(b"nope").is_err());
    }
}
