//! What readers download: the size of the lab's shipped wasm module and its JS glue, as written
//! by `cargo xtask build`/`serve`/`bench` into `book/src/wasm/` (after wasm-bindgen and, when
//! available, `wasm-opt`), raw and gzipped — so the book can cite them and a regression shows in
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

fn record(s: &mut Session, dir: &Path) -> Result<()> {
    let read = |name: &str| std::fs::read(dir.join(name));
    let (wasm, js) = match (read("wasm_lab_bg.wasm"), read("wasm_lab.js")) {
        (Ok(w), Ok(j)) => (w, j),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!(
                "    shipped sizes not measured: cannot read the lab in {} ({e}); build it with \
                 `cargo xtask build` (cargo xtask bench does)",
                dir.display()
            );
            return Ok(());
        }
    };
    let (wasm_gz, js_gz) = (gzip_len(&wasm)?, gzip_len(&js)?);
    let (wasm_len, js_len) = (wasm.len() as u64, js.len() as u64);
    let parts = sections(&wasm)?;
    let figures = [
        ("wasm.bytes", "the lab's wasm module as shipped", wasm_len),
        (
            "js.bytes",
            "the lab's JS glue (wasm-bindgen) as shipped",
            js_len,
        ),
        (
            "total.bytes",
            "what a page with a widget downloads for the lab: wasm + JS",
            wasm_len + js_len,
        ),
        (
            "wasm.gzip_bytes",
            "the wasm module, gzipped (level 9)",
            wasm_gz,
        ),
        ("js.gzip_bytes", "the JS glue, gzipped (level 9)", js_gz),
        (
            "total.gzip_bytes",
            "wasm + JS, each gzipped (level 9)",
            wasm_gz + js_gz,
        ),
        (
            "wasm.code_bytes",
            "the shipped module's code section",
            parts.code,
        ),
        (
            "wasm.data_bytes",
            "the shipped module's data section (strings, tables, constants)",
            parts.data,
        ),
        (
            "wasm.custom_bytes",
            "the shipped module's custom sections (names, producers, debug info)",
            parts.custom,
        ),
    ];
    for (key, title, value) in figures {
        s.exact(
            &format!("wasm_size.{key}"),
            title,
            Unit::Bytes,
            value as f64,
        )?;
    }
    eprintln!(
        "    shipped: {wasm_len} B wasm + {js_len} B JS ({wasm_gz} + {js_gz} B gzipped), from {}",
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
