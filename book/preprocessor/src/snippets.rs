//! rustc's verdicts on the "does this compile?" snippets ([`wasm_lab::quiz::snippets`]),
//! captured at build time so the quiz shows the compiler's real answer and message.
//!
//! Each snippet is a binary of a scratch crate under `target/quiz-snippets/` that depends on
//! the pool library `bufpool` by path; `cargo check --message-format=short` on each gives the verdict and the
//! error lines. The scratch crate has its own target directory (so it never waits on the
//! workspace's lock) and uses a copy of the workspace's `Cargo.lock` offline. Results are cached
//! in `results.json`, keyed by a hash of the snippets, the pool library's sources and `rustc -V`: a book
//! build only recompiles when one of those changed (the first run checks `bufpool` once, about a
//! minute; later ones read the cache).

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use wasm_lab::quiz::Compiled;
use wasm_lab::quiz::snippets::SNIPPETS;

/// The workspace this preprocessor was built in (`LAB_WORKSPACE` overrides it).
pub fn workspace() -> PathBuf {
    std::env::var_os("LAB_WORKSPACE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
        PathBuf::from,
    )
}

/// The verdicts, computed once per process (every chapter that needs them shares them).
pub fn verdicts() -> Result<&'static BTreeMap<String, Compiled>, String> {
    static VERDICTS: OnceLock<Result<BTreeMap<String, Compiled>, String>> = OnceLock::new();
    VERDICTS
        .get_or_init(|| compile_all(&workspace()))
        .as_ref()
        .map_err(Clone::clone)
}

/// Compiles every snippet against the lab in `workspace`, or reads the cached result.
pub fn compile_all(workspace: &Path) -> Result<BTreeMap<String, Compiled>, String> {
    let dir = workspace.join("target/quiz-snippets");
    let key = cache_key(workspace)?;
    let cache = dir.join("results.json");
    if let Ok(text) = std::fs::read_to_string(&cache)
        && let Ok((k, results)) =
            serde_json::from_str::<(String, BTreeMap<String, Compiled>)>(&text)
        && k == key
    {
        return Ok(results);
    }
    write_crate(workspace, &dir)?;
    let mut results = BTreeMap::new();
    for s in SNIPPETS {
        results.insert(s.name.to_string(), check(&dir, s.name)?);
    }
    let text = serde_json::to_string_pretty(&(key, &results)).map_err(|e| e.to_string())?;
    std::fs::write(&cache, text).map_err(|e| format!("cannot write {}: {e}", cache.display()))?;
    Ok(results)
}

fn cache_key(workspace: &Path) -> Result<String, String> {
    let mut h = DefaultHasher::new();
    for s in SNIPPETS {
        (s.name, s.code).hash(&mut h);
    }
    let mut files = Vec::new();
    collect(&workspace.join("bufpool/src"), &mut files);
    files.push(workspace.join("bufpool/Cargo.toml"));
    files.sort();
    for f in files {
        std::fs::read(&f)
            .map_err(|e| format!("cannot read {}: {e}", f.display()))?
            .hash(&mut h);
    }
    let rustc = Command::new("rustc")
        .arg("-V")
        .current_dir(workspace)
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    rustc.stdout.hash(&mut h);
    Ok(format!("{:016x}", h.finish()))
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn write_crate(workspace: &Path, dir: &Path) -> Result<(), String> {
    let bin = dir.join("src/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let lab = workspace
        .join("bufpool")
        .canonicalize()
        .map_err(|e| e.to_string())?;
    let manifest = format!(
        "# Written by mdbook-lab (book/preprocessor/src/snippets.rs): the quiz's snippets.\n\
         [package]\nname = \"quiz-snippets\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nbufpool = {{ path = {:?} }}\n\n[workspace]\n",
        lab.display().to_string()
    );
    let write = |path: PathBuf, text: &str| {
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(dir.join("Cargo.toml"), &manifest)?;
    if let Ok(lock) = std::fs::read_to_string(workspace.join("Cargo.lock")) {
        write(dir.join("Cargo.lock"), &lock)?;
    }
    for s in SNIPPETS {
        write(bin.join(format!("{}.rs", s.name)), &format!("{}\n", s.code))?;
    }
    Ok(())
}

fn check(dir: &Path, name: &str) -> Result<Compiled, String> {
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "check",
            "--offline",
            "--quiet",
            "--message-format=short",
            "--bin",
            name,
        ])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .map_err(|e| format!("cannot run cargo check on the snippet `{name}`: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Short format: `src/bin/NAME.rs:LINE:COL: error[E0382]: message`.
    let errors: Vec<String> = stderr
        .lines()
        .filter_map(|l| l.split_once(": error"))
        .filter(|(at, _)| at.contains(&format!("{name}.rs")))
        .map(|(at, msg)| {
            let line = at.rsplit(".rs:").next().unwrap_or(at);
            format!(
                "line {}: error{msg}",
                line.split(':').next().unwrap_or(line)
            )
        })
        .collect();
    let compiles = out.status.success();
    if !compiles && errors.is_empty() {
        return Err(format!(
            "cargo check failed on the snippet `{name}` without a compiler error (is the toolchain installed?): {stderr}"
        ));
    }
    Ok(Compiled { compiles, errors })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rustc's verdict on every snippet is the one its explanations were written for.
    #[test]
    fn compile_answers_match_rustc() {
        let verdicts = compile_all(&workspace()).unwrap();
        for s in SNIPPETS {
            let c = &verdicts[s.name];
            assert_eq!(
                c.compiles, s.compiles,
                "{}: rustc says {:?}",
                s.name, c.errors
            );
            if !c.compiles {
                assert!(
                    c.errors[0].contains("error[E"),
                    "{}: {:?}",
                    s.name,
                    c.errors
                );
            }
        }
    }
}
