//! Code size in the wasm build: the body bytes of named functions in `wasm_lab.wasm`, read from its
//! code section with `wasmparser`. A function is found by its export name, or failing that by the
//! `name` custom section (function names), so both exported probes and internal functions work.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use wasmparser::{ExternalKind, KnownCustom, Name, Parser, Payload, TypeRef};

/// Cargo's target directory as the bench sees it (run from the workspace root, as xtask does).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// The size-specialized page's module as compiled (before wasm-bindgen), which `cargo xtask
/// build`/`serve`/`bench` keep in `<target>/wasm-modules/` (one artifact per module); the probes
/// are exported from every module, and this is the one whose page cites them.
pub fn artifact(target_dir: &Path) -> PathBuf {
    target_dir
        .join("wasm-modules")
        .join("size-specialized.wasm")
}

/// Function body sizes in a module, in bytes: local declarations + instructions, without the
/// body's own size prefix.
#[derive(Debug, PartialEq, Eq)]
pub struct CodeSizes {
    /// One per asked name; `None` where the name is neither exported nor in the name section.
    pub named: Vec<Option<u64>>,
    /// All of the module's own function bodies together.
    pub all_bodies: u64,
}

/// Reads the code section of `wasm` for the functions named `names`.
pub fn body_sizes(wasm: &[u8], names: &[&str]) -> Result<CodeSizes> {
    let mut imported_funcs: u32 = 0;
    let mut bodies: Vec<u64> = Vec::new();
    let mut exports: HashMap<String, u32> = HashMap::new();
    let mut debug_names: HashMap<String, u32> = HashMap::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.context("not a readable wasm module")? {
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    if matches!(import?.ty, TypeRef::Func(_) | TypeRef::FuncExact(_)) {
                        imported_funcs += 1;
                    }
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader {
                    let export = export?;
                    if export.kind == ExternalKind::Func {
                        exports.insert(export.name.to_string(), export.index);
                    }
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body.range().len() as u64),
            Payload::CustomSection(section) => {
                if let KnownCustom::Name(reader) = section.as_known() {
                    for name in reader {
                        // A malformed name section only costs us the fallback, never the run.
                        let Ok(Name::Function(map)) = name else {
                            continue;
                        };
                        for naming in map.into_iter().flatten() {
                            debug_names.insert(naming.name.to_string(), naming.index);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let named = names
        .iter()
        .map(|name| {
            let index = exports.get(*name).or_else(|| debug_names.get(*name))?;
            // Function indices count imported functions first; the code section holds only
            // the module's own bodies.
            let own = index.checked_sub(imported_funcs)?;
            bodies.get(own as usize).copied()
        })
        .collect();
    Ok(CodeSizes {
        named,
        all_bodies: bodies.iter().sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A section: id, then its contents prefixed by their length (all lengths < 128 here).
    fn section(id: u8, contents: &[u8]) -> Vec<u8> {
        let mut s = vec![id, contents.len() as u8];
        s.extend_from_slice(contents);
        s
    }

    fn name(s: &str) -> Vec<u8> {
        let mut v = vec![s.len() as u8];
        v.extend_from_slice(s.as_bytes());
        v
    }

    /// One imported function (index 0) and three own functions (indices 1, 2, 3) whose bodies are
    /// 4, 2 and 7 bytes; `b` is exported, `a` and `c` only named in the name section.
    fn module() -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        // Type 0: [] -> [i32].
        m.extend(section(1, &[1, 0x60, 0, 1, 0x7f]));
        // Import "env" "f" as a function of type 0.
        let mut import = vec![1];
        import.extend(name("env"));
        import.extend(name("f"));
        import.extend([0x00, 0]);
        m.extend(section(2, &import));
        // Three functions of type 0.
        m.extend(section(3, &[3, 0, 0, 0]));
        // Export function 2 as "b".
        let mut export = vec![1];
        export.extend(name("b"));
        export.extend([0x00, 2]);
        m.extend(section(7, &export));
        // Bodies (no locals): `i32.const 1; end`, `end`, `i32.const 1; drop; i32.const 2; end`.
        // The parser does not validate bodies (the second would not type-check): only sizes count.
        let bodies: [&[u8]; 3] = [
            &[0, 0x41, 1, 0x0b],
            &[0, 0x0b],
            &[0, 0x41, 1, 0x1a, 0x41, 2, 0x0b],
        ];
        let mut code = vec![3];
        for b in bodies {
            code.push(b.len() as u8);
            code.extend_from_slice(b);
        }
        m.extend(section(10, &code));
        // Name section: subsection 1 (function names) naming 1 "a" and 3 "c".
        let mut map = vec![2, 1];
        map.extend(name("a"));
        map.push(3);
        map.extend(name("c"));
        let mut names = name("name");
        names.push(1);
        names.push(map.len() as u8);
        names.extend(map);
        m.extend(section(0, &names));
        m
    }

    #[test]
    fn finds_bodies_by_export_and_by_name_section() {
        let got = body_sizes(&module(), &["a", "b", "c", "f", "missing"]).unwrap();
        // `f` is imported: it has no body here.
        assert_eq!(got.named, [Some(4), Some(2), Some(7), None, None]);
        assert_eq!(got.all_bodies, 4 + 2 + 7);
    }

    #[test]
    fn refuses_what_is_not_wasm() {
        assert!(body_sizes(b"not wasm", &["a"]).is_err());
    }
}
