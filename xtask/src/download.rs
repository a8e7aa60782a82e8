//! The exercises as a download on the site (issue 40): a reader of the hosted book has no
//! repository, so `cargo xtask build` packs a self-contained Cargo project, `ARCHIVE`, into
//! `book/src/download/` (mdBook copies it into every language's site) for the Exercises page and
//! each chapter's exercise section to link.
//!
//! What it holds: the exercise skeletons and their grading tests and hints (`exercises`), the
//! grader (`exercises/grader`, so `cargo xtask exercises` works there as here, through an alias),
//! and the crates they build on, with a workspace manifest, the pinned toolchain and the lock
//! file, so it builds offline from a registry cache that has built the course. Not in it: the
//! reference solutions (the book's Solutions page has them), the crates' own tests, examples and
//! benches, and everything else of the course.
//!
//! **Which crates:** the path dependencies of the grader and of the exercises (their tests' too),
//! read from `cargo metadata` ([`crates`]): the one place the list comes from is the exercises'
//! own manifest, so a crate split or added there follows without a change here. What of each crate
//! is carried is [`PARTS`] (and [`EXERCISE_PARTS`]).
//!
//! The archive is byte-for-byte the same for the same sources (sorted entries, fixed times and
//! owners, gzip without a time), so a rebuild does not change the site.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail, ensure};

/// The archive's file name on the site, and the folder it unpacks into.
pub const ARCHIVE: &str = "pools-and-chunks-exercises.tar.gz";
/// The folder the archive unpacks into.
pub const FOLDER: &str = "pools-and-chunks-exercises";
/// Where on the site the archive is (relative to a language's root).
pub const SITE_PATH: &str = "download/pools-and-chunks-exercises.tar.gz";

/// What of each crate the download carries: its manifest and sources, and the files its docs
/// include at compile time (`bufpool`'s README and `doc/` snippets); a part a crate lacks is
/// skipped.
pub const PARTS: &[&str] = &["Cargo.toml", "src", "README.md", "doc"];
/// What the exercises crate carries besides [`PARTS`]: the grading tests and the hints.
pub const EXERCISE_PARTS: &[&str] = &["tests", "hints"];

/// The packages whose dev-dependencies are followed too (the grading tests' oracle).
const ROOTS: &[&str] = &["exercises-grader", "exercises"];

/// Packs the download into `book/src/download/` and returns its path.
pub fn write(root: &Path) -> Result<PathBuf> {
    let staged = stage(
        root,
        &crate::site::target_dir(root).join("exercises-download"),
    )?;
    let bytes = archive(&staged)?;
    let out = root.join("book/src").join(SITE_PATH);
    std::fs::create_dir_all(out.parent().context("no parent")?)?;
    if std::fs::read(&out).ok().as_deref() != Some(&bytes[..]) {
        std::fs::write(&out, &bytes).with_context(|| format!("cannot write {}", out.display()))?;
    }
    println!(
        "the exercises' download: {} ({} B)",
        out.strip_prefix(root).unwrap_or(&out).display(),
        bytes.len()
    );
    Ok(out)
}

/// One crate of the download: its package name and its folder relative to the workspace root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Crate {
    pub name: String,
    pub dir: PathBuf,
}

/// The crates the download carries: [`ROOTS`] and every path dependency they reach (normal and
/// build dependencies, and the dev-dependencies of the roots), from `cargo metadata`.
pub fn crates(root: &Path) -> Result<Vec<Crate>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    ensure!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let packages = meta["packages"].as_array().context("no packages")?;
    let by_name = |name: &str| packages.iter().find(|p| p["name"] == name);
    let mut todo: Vec<String> = ROOTS.iter().map(|s| s.to_string()).collect();
    let mut found: Vec<Crate> = Vec::new();
    while let Some(name) = todo.pop() {
        if found.iter().any(|c| c.name == name) {
            continue;
        }
        let package = by_name(&name)
            .with_context(|| format!("the workspace has no package {name:?} (cargo metadata)"))?;
        let manifest = Path::new(package["manifest_path"].as_str().context("no manifest")?);
        let dir = manifest
            .parent()
            .and_then(|d| d.strip_prefix(root).ok())
            .with_context(|| format!("{name} is not inside the workspace"))?;
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dev = dep["kind"] == "dev";
            if dep["path"].is_string() && (!dev || ROOTS.contains(&name.as_str())) {
                todo.push(dep["name"].as_str().unwrap_or_default().to_string());
            }
        }
        found.push(Crate {
            name,
            dir: dir.to_path_buf(),
        });
    }
    found.sort();
    Ok(found)
}

/// Writes the download's folder under `scratch` (emptied first) and returns it.
pub fn stage(root: &Path, scratch: &Path) -> Result<PathBuf> {
    let crates = crates(root)?;
    let dir = scratch.join(FOLDER);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("cannot empty {}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir)?;
    for c in &crates {
        let parts = PARTS.iter().chain(if c.name == "exercises" {
            EXERCISE_PARTS
        } else {
            &[]
        });
        for part in parts {
            let from = root.join(&c.dir).join(part);
            if from.exists() {
                copy(&from, &dir.join(&c.dir).join(part))?;
            }
        }
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))?;
    std::fs::write(dir.join("Cargo.toml"), manifest_for(&manifest, &crates))?;
    std::fs::write(
        dir.join("rust-toolchain.toml"),
        toolchain_for(&std::fs::read_to_string(root.join("rust-toolchain.toml"))?)?,
    )?;
    std::fs::create_dir_all(dir.join(".cargo"))?;
    std::fs::write(dir.join(".cargo/config.toml"), CARGO_CONFIG)?;
    std::fs::write(dir.join("README.md"), README)?;
    // The lock file: the course's, pruned by cargo to what this workspace uses (no network:
    // every version is the course's, already in the registry cache).
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["update", "--workspace", "--offline", "--quiet"])
        .current_dir(&dir)
        .output()
        .context("cannot run cargo update")?;
    ensure!(
        out.status.success(),
        "the download's workspace does not resolve offline: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let course = locked(&std::fs::read_to_string(root.join("Cargo.lock"))?);
    let pruned = locked(&std::fs::read_to_string(dir.join("Cargo.lock"))?);
    let new: Vec<_> = pruned.difference(&course).collect();
    ensure!(
        new.is_empty(),
        "the download's lock file has packages the course's has not: {new:?}"
    );
    Ok(dir)
}

/// The `(name, version)` pairs of a lock file.
fn locked(lock: &str) -> std::collections::BTreeSet<(String, String)> {
    let mut pairs = std::collections::BTreeSet::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            pairs.insert((n, v.trim_matches('"').to_string()));
        }
    }
    pairs
}

const CARGO_CONFIG: &str = "\
# `cargo xtask exercises` grades the exercises here as in the course's repository.
[alias]
xtask = \"run --quiet --package exercises-grader --\"
";

const README: &str = "\
# Pools & Chunks: the exercises

The exercises of the course *Pools & Chunks*, graded on your machine, offline. Each chapter's
exercise is a file in `exercises/src/`: its task in the file's docs, a skeleton with `todo!()`
where your code goes.

    cargo xtask exercises            # grade all: which pass, why the others fail, what is next
    cargo xtask exercises check 4    # every test of exercise 4, with its message
    cargo xtask exercises hint 4     # a hint for exercise 4
    cargo xtask exercises list       # the exercises and their chapters

The tests are in `exercises/tests/`; they compare your answers with the course's own library
(`bufpool/`). The reference solutions are on the book's Solutions page.
";

/// The download's workspace manifest: its members, the exercises as the default one (a plain
/// `cargo test` grades them), and the course's workspace settings they inherit (package fields,
/// dependency versions without the crates the download leaves out, lints).
pub fn manifest_for(course: &str, crates: &[Crate]) -> String {
    let mut out = String::from(
        "# The exercises of Pools & Chunks, packed by `cargo xtask build` from the course's\n\
         # repository: grade them with `cargo xtask exercises`.\n[workspace]\nresolver = \"3\"\nmembers = [\n",
    );
    for c in crates {
        out.push_str(&format!("    \"{}\",\n", slash(&c.dir)));
    }
    out.push_str("]\ndefault-members = [\"exercises\"]\n");
    let kept = ["[workspace.package]", "[workspace.dependencies]"];
    let mut keep = false;
    for line in course.lines() {
        if line.starts_with('[') {
            keep = kept.contains(&line.trim()) || line.starts_with("[workspace.lints");
            if keep {
                out.push('\n');
            }
        }
        if !keep {
            continue;
        }
        // A path dependency the download does not carry would not resolve.
        if let Some((name, rest)) = line.split_once(" = ")
            && rest.contains("path = ")
            && !crates.iter().any(|c| c.name == name.trim())
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The course's toolchain channel alone (not its wasm target, which the exercises do not use).
fn toolchain_for(course: &str) -> Result<String> {
    let channel = course
        .lines()
        .find(|l| l.trim_start().starts_with("channel"))
        .context("rust-toolchain.toml has no channel")?;
    Ok(format!(
        "# The course's toolchain: the compile checks expect its error codes.\n[toolchain]\n{}\n",
        channel.trim()
    ))
}

fn slash(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    if from.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
    } else {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(from, to)
            .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    }
    Ok(())
}

// === the archive ===

/// When every entry of the archive says it was written (2026-01-01): fixed, so the same sources
/// give the same bytes.
const MTIME: u64 = 1_767_225_600;

/// `dir` as a gzipped tar whose entries sit in a folder of `dir`'s name, sorted by path
/// (without `target/`).
pub fn archive(dir: &Path) -> Result<Vec<u8>> {
    let top = dir.file_name().context("no folder name")?.to_string_lossy();
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    files.sort();
    let mut tar = Vec::new();
    for rel in &files {
        let bytes = std::fs::read(dir.join(rel))?;
        tar_entry(&mut tar, &format!("{top}/{rel}"), &bytes)?;
    }
    // Two zero blocks end a tar.
    tar.extend_from_slice(&[0; 1024]);
    let mut gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::best());
    gz.write_all(&tar)?;
    Ok(gz.finish()?)
}

fn walk(base: &Path, dir: &Path, files: &mut Vec<String>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.file_name().is_some_and(|n| n == "target") {
            continue;
        }
        if path.is_dir() {
            walk(base, &path, files)?;
        } else {
            files.push(slash(path.strip_prefix(base)?));
        }
    }
    Ok(())
}

/// One file in the POSIX ustar format: a 512-byte header, then the bytes padded to 512.
fn tar_entry(tar: &mut Vec<u8>, path: &str, bytes: &[u8]) -> Result<()> {
    let mut header = [0u8; 512];
    // A path over 100 bytes is split into prefix (up to 155) and name at a '/'.
    let (prefix, name) = if path.len() <= 100 {
        ("", path)
    } else {
        let cut = path[..path.len().min(156)]
            .rfind('/')
            .filter(|&i| path.len() - i - 1 <= 100)
            .with_context(|| format!("{path} is too long for a tar entry"))?;
        (&path[..cut], &path[cut + 1..])
    };
    header[..name.len()].copy_from_slice(name.as_bytes());
    let octal = |field: &mut [u8], value: u64| {
        let text = format!("{value:0width$o}", width = field.len() - 1);
        field[..text.len()].copy_from_slice(text.as_bytes());
    };
    octal(&mut header[100..108], 0o644);
    octal(&mut header[108..116], 0);
    octal(&mut header[116..124], 0);
    octal(&mut header[124..136], bytes.len() as u64);
    octal(&mut header[136..148], MTIME);
    header[156] = b'0';
    header[257..263].copy_from_slice(b"ustar\0");
    header[263..265].copy_from_slice(b"00");
    header[345..345 + prefix.len()].copy_from_slice(prefix.as_bytes());
    // The checksum is computed with its own field as spaces.
    header[148..156].copy_from_slice(b"        ");
    let sum: u64 = header.iter().map(|&b| u64::from(b)).sum();
    let text = format!("{sum:06o}\0 ");
    header[148..156].copy_from_slice(text.as_bytes());
    tar.extend_from_slice(&header);
    tar.extend_from_slice(bytes);
    tar.resize(tar.len().next_multiple_of(512), 0);
    Ok(())
}

// === the check ===

/// The test of the download (a step of `cargo xtask test`, with `cargo xtask exercises verify`):
/// packs it, unpacks it with `tar` into an empty folder and grades it there offline with its own
/// `cargo xtask exercises`: every untouched skeleton fails, each for its exercise's intended
/// reason (a `todo!()` in its own file, or its declared compile-check message); with the
/// reference solutions copied over the skeletons, every exercise passes.
pub fn check(root: &Path) -> Result<()> {
    let scratch = crate::site::target_dir(root).join("exercises-download");
    let staged = stage(root, &scratch)?;
    let bytes = archive(&staged)?;
    let unpacked = scratch.join("unpacked");
    if unpacked.exists() {
        std::fs::remove_dir_all(&unpacked)?;
    }
    std::fs::create_dir_all(&unpacked)?;
    std::fs::write(scratch.join(ARCHIVE), &bytes)?;
    // `-m`: the files get the time of unpacking, so cargo sees sources newer than an earlier
    // build of the same folder.
    crate::cmd::new(
        "tar",
        &[
            "-xzmf",
            &scratch.join(ARCHIVE).to_string_lossy(),
            "-C",
            &unpacked.to_string_lossy(),
        ],
    )
    .run()?;
    let folder = unpacked.join(FOLDER);
    ensure!(
        !folder.join("exercises/solutions").exists(),
        "the download carries the reference solutions"
    );
    let skeletons = grade(root, &folder)?;
    let mut problems = Vec::new();
    for e in exercises::EXERCISES {
        let Some(line) = skeletons.lines().find(|l| {
            l.trim_start()
                .starts_with(&format!("✗ {:>2}  {}", e.number, e.chapter))
        }) else {
            problems.push(format!(
                "exercise {} is not graded failing:\n{skeletons}",
                e.number
            ));
            continue;
        };
        let why = skeletons
            .lines()
            .skip_while(|l| *l != line)
            .nth(1)
            .unwrap_or_default();
        let own_todo = why.contains(&format!("still todo!() at {}", e.student_file()));
        let declared = e.skeleton_fails_with.iter().any(|m| why.contains(m));
        if !own_todo && !declared {
            problems.push(format!(
                "exercise {}'s skeleton fails for another reason: {why}",
                e.number
            ));
        }
    }
    ensure!(
        skeletons.contains(&format!(
            "0 of {} exercises pass.",
            exercises::EXERCISES.len()
        )),
        "the untouched download does not grade as 0 passing:\n{skeletons}"
    );
    for e in exercises::EXERCISES {
        std::fs::copy(root.join(e.solution_file()), folder.join(e.student_file()))?;
    }
    let solved = grade(root, &folder)?;
    let all = exercises::EXERCISES.len();
    if !solved.contains(&format!("{all} of {all} exercises pass.")) {
        problems.push(format!("with the reference solutions:\n{solved}"));
    }
    if !problems.is_empty() {
        bail!(
            "the download does not grade as intended:\n{}",
            problems.join("\n")
        );
    }
    println!(
        "the download: unpacked into an empty folder and graded offline: {all} skeletons fail, \
         each for its reason; with the reference solutions, {all} of {all} pass"
    );
    Ok(())
}

/// Runs `cargo xtask exercises` in the unpacked `folder`, offline, and returns what it printed.
/// Its build shares the course's target folder: the registry crates the exercises' own build
/// compiled are reused (the unpacked crates are others, by their path).
fn grade(root: &Path, folder: &Path) -> Result<String> {
    eprintln!(
        "$ cargo xtask exercises   (in {}, offline)",
        folder.display()
    );
    let out = Command::new("cargo")
        .args(["xtask", "exercises"])
        .current_dir(folder)
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TARGET_DIR", crate::site::target_dir(root))
        // The rustup proxy picks the download's own toolchain file, as it would for a reader.
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .output()
        .context("cannot run cargo")?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(
        out.status.success(),
        "`cargo xtask exercises` failed in the download ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_download_carries_the_exercises_and_what_they_build_on() {
        let names: Vec<String> = crates(&crate::root())
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        for needed in ["exercises", "exercises-grader", "bufpool", "course-pool"] {
            assert!(names.iter().any(|n| n == needed), "{names:?}");
        }
        for left_out in ["xtask", "wasm-lab", "mdbook-lab", "native-bench", "e2e"] {
            assert!(!names.iter().any(|n| n == left_out), "{names:?}");
        }
    }

    #[test]
    fn the_manifest_drops_path_dependencies_it_does_not_carry() {
        let course = "[workspace]\nmembers = [\"x\"]\n\n[workspace.package]\nedition = \"2024\"\n\n\
                      [workspace.dependencies]\nbufpool = { path = \"bufpool\" }\nwasm-lab = { path = \"wasm-lab\" }\nserde = \"1\"\n\n\
                      [profile.release]\nlto = true\n\n[workspace.lints.rust]\nx = \"deny\"\n";
        let crates = [Crate {
            name: "bufpool".into(),
            dir: "bufpool".into(),
        }];
        let m = manifest_for(course, &crates);
        assert!(m.contains("bufpool = { path"), "{m}");
        assert!(!m.contains("wasm-lab"), "{m}");
        assert!(m.contains("serde = \"1\""), "{m}");
        assert!(m.contains("[workspace.lints.rust]\nx = \"deny\""), "{m}");
        assert!(!m.contains("profile"), "{m}");
        assert!(m.contains("edition = \"2024\""), "{m}");
    }

    #[test]
    fn tar_headers_have_their_checksum_and_padding() {
        let mut tar = Vec::new();
        tar_entry(&mut tar, "a/b.txt", b"hello").unwrap();
        assert_eq!(tar.len(), 1024);
        let header = &tar[..512];
        let stored =
            u64::from_str_radix(std::str::from_utf8(&header[148..154]).unwrap().trim(), 8).unwrap();
        let mut blank = header.to_vec();
        blank[148..156].copy_from_slice(b"        ");
        assert_eq!(stored, blank.iter().map(|&b| u64::from(b)).sum::<u64>());
        assert_eq!(&tar[512..517], b"hello");
        let long = format!("{}/{}", "d".repeat(90), "f".repeat(40));
        let mut tar = Vec::new();
        tar_entry(&mut tar, &long, b"").unwrap();
        assert_eq!(&tar[345..435], "d".repeat(90).as_bytes());
    }
}
