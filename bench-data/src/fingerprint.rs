//! The fingerprint of the measured code: which data files are current.
//!
//! A data file records the fingerprint of the code its bench measured and of the settings it was
//! built with; the book's build computes the same fingerprint from the workspace it builds and
//! shows files with another one as older code. So files from several machines accumulate: a
//! file is not deleted when the pool changes, it is marked as measuring older code until its
//! machine is measured again.
//!
//! What is hashed ([`INPUTS`]): the sources of the code the bench times (`bufpool/` and
//! `course-pool/`, and the
//! bench itself, `native-bench/`, `wasm-bench/` and their paired rounds `bench-paired/`, whose
//! loops are part of every figure), the
//! build settings (the workspace manifest's `[profile.*]` sections, `rust-toolchain.toml`,
//! `.cargo/config.toml`) and, from `Cargo.lock`, the exact versions of every package the bench
//! builds with (its dependency closure, not the whole lock: a dependency of the end-to-end tests
//! does not change what the bench measures). Not hashed: the chapters, the lab's widgets and
//! quizzes, the preprocessor, and the bench's documentation and tests. The global allocator is
//! not part of it either: it is the run's `runtime`, so files of one fingerprint compare runtimes.
//! In the lock closure a dependency written `"name version"` counts as `"name"` when the closure
//! has one version of it: Cargo adds the version when another part of the workspace brings a
//! second one, which changes nothing the bench builds (this rule, added with the translation
//! tools, changed every fingerprint once).
//! The hash is 64-bit FNV-1a over each input's path and bytes in sorted order: an identity, not a
//! security measure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The files and directories (relative to the workspace root) whose contents are hashed;
/// directories contribute their `.rs` and `.toml` files, recursively.
pub const INPUTS: &[&str] = &[
    "bufpool/Cargo.toml",
    "bufpool/src",
    "course-pool/Cargo.toml",
    "course-pool/src",
    "bench-paired/Cargo.toml",
    "bench-paired/src",
    "native-bench/Cargo.toml",
    "native-bench/build.rs",
    "native-bench/src",
    "wasm-bench/Cargo.toml",
    "wasm-bench/src",
    "rust-toolchain.toml",
    ".cargo/config.toml",
];

/// The packages whose dependency closure in `Cargo.lock` is hashed.
pub const ROOTS: &[&str] = &["native-bench", "wasm-bench"];

/// The fingerprint of the workspace at `root`, e.g. `fnv1a64:0123456789abcdef`.
pub fn compute(root: &Path) -> Result<String, String> {
    let mut hash = Fnv::new();
    let mut files = BTreeSet::new();
    for input in INPUTS {
        let path = root.join(input);
        if path.is_dir() {
            collect(&path, &mut files)?;
        } else if path.is_file() {
            files.insert(path);
        }
    }
    for file in &files {
        let rel = file.strip_prefix(root).unwrap_or(file);
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        hash.write(rel.to_string_lossy().replace('\\', "/").as_bytes());
        hash.write(&[0]);
        hash.write(&bytes);
        hash.write(&[0]);
    }
    let manifest = read(&root.join("Cargo.toml"))?;
    hash.write(b"Cargo.toml [profile.*]\0");
    hash.write(profiles(&manifest).as_bytes());
    let lock = read(&root.join("Cargo.lock"))?;
    hash.write(b"Cargo.lock closure\0");
    hash.write(lock_closure(&lock, ROOTS).as_bytes());
    Ok(format!("fnv1a64:{:016x}", hash.0))
}

/// The workspace root seen from a crate's manifest directory (`CARGO_MANIFEST_DIR`) or from the
/// book's root: the nearest ancestor holding `Cargo.lock`.
pub fn workspace_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("Cargo.lock").is_file())
        .map(Path::to_path_buf)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn collect(dir: &Path, out: &mut BTreeSet<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "rs" || x == "toml") {
            out.insert(path);
        }
    }
    Ok(())
}

/// The `[profile.*]` sections of a manifest, comments and blank lines dropped.
fn profiles(manifest: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            inside = line.starts_with("[profile.");
        }
        if inside && !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The `[[package]]` blocks of `Cargo.lock` reachable from `roots`, in lock order.
fn lock_closure(lock: &str, roots: &[&str]) -> String {
    struct Package<'a> {
        name: &'a str,
        version: &'a str,
        deps: Vec<&'a str>,
        text: &'a str,
    }
    let mut packages = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        let value = |name: &str| {
            block.lines().find_map(|l| {
                l.strip_prefix(name)
                    .and_then(|r| r.trim().strip_prefix('='))
                    .map(|v| v.trim().trim_matches('"'))
            })
        };
        let deps = match block.find("dependencies = [") {
            Some(at) => block[at..]
                .lines()
                .skip(1)
                .take_while(|l| !l.starts_with(']'))
                .map(|l| l.trim().trim_end_matches(',').trim_matches('"'))
                .collect(),
            None => Vec::new(),
        };
        packages.push(Package {
            name: value("name ").unwrap_or(""),
            version: value("version ").unwrap_or(""),
            deps,
            text: block,
        });
    }
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, p) in packages.iter().enumerate() {
        by_name.entry(p.name).or_default().push(i);
    }
    let mut seen = BTreeSet::new();
    let mut todo: Vec<usize> = roots
        .iter()
        .flat_map(|r| by_name.get(r).cloned().unwrap_or_default())
        .collect();
    while let Some(i) = todo.pop() {
        if !seen.insert(i) {
            continue;
        }
        for dep in &packages[i].deps {
            let mut words = dep.split_whitespace();
            let name = words.next().unwrap_or("");
            let version = words.next();
            for &j in by_name.get(name).map_or(&[][..], Vec::as_slice) {
                if version.is_none_or(|v| v == packages[j].version) {
                    todo.push(j);
                }
            }
        }
    }
    // Cargo writes a dependency as `"name version"` only while the lock holds two versions of
    // `name`; a package added elsewhere in the workspace (a tool's dependency) can thus rewrite
    // lines of packages the bench builds without changing what it builds. Within the closure,
    // a name with one version is written without it, so only the closure's own content counts.
    let mut versions: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for &i in &seen {
        versions
            .entry(packages[i].name)
            .or_default()
            .insert(packages[i].version);
    }
    let mut out = String::new();
    for &i in &seen {
        for line in packages[i].text.split_inclusive('\n') {
            let dep = line.trim().trim_end_matches(',').trim_matches('"');
            let mut words = dep.split_whitespace();
            let (name, rest) = (words.next().unwrap_or(""), words.next());
            if line.starts_with(" \"")
                && rest.is_some()
                && versions.get(name).is_some_and(|v| v.len() == 1)
            {
                out.push_str(&format!(" \"{name}\",\n"));
            } else {
                out.push_str(line);
            }
        }
    }
    out
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "a"
version = "1.0.0"
dependencies = [
 "b 2.0.0",
 "c",
]

[[package]]
name = "b"
version = "1.0.0"

[[package]]
name = "b"
version = "2.0.0"

[[package]]
name = "c"
version = "0.1.0"

[[package]]
name = "unrelated"
version = "9.9.9"
"#;

    #[test]
    fn the_lock_closure_follows_exact_versions() {
        let closure = lock_closure(LOCK, &["a"]);
        assert!(closure.contains("\"2.0.0\"") && closure.contains("\"c\""));
        assert!(!closure.contains("\"1.0.0\"\n\n") || closure.contains("name = \"a\""));
        assert!(!closure.contains("unrelated"));
        assert_eq!(closure.matches("name = \"b\"").count(), 1);
    }

    #[test]
    fn a_second_version_outside_the_closure_changes_nothing() {
        // `b 2.0.0` is the closure's only `b`: written with or without its version, the same.
        let unique = LOCK
            .replace(" \"b 2.0.0\",", " \"b\",")
            .replace("[[package]]\nname = \"b\"\nversion = \"1.0.0\"\n\n", "");
        assert_eq!(lock_closure(&unique, &["a"]), lock_closure(LOCK, &["a"]));
        assert!(lock_closure(LOCK, &["a"]).contains(" \"b\",\n"));
    }

    #[test]
    fn only_profile_sections_count() {
        let m = "[workspace]\nmembers = [\"x\"]\n[profile.release]\nlto = true # why\n\n[lints]\nx = 1\n";
        assert_eq!(profiles(m), "[profile.release]\nlto = true\n");
    }

    #[test]
    fn the_workspace_has_a_stable_fingerprint() {
        let root = workspace_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let a = compute(&root).unwrap();
        assert!(a.starts_with("fnv1a64:") && a.len() == 24, "{a}");
        assert_eq!(compute(&root).unwrap(), a);
    }
}
