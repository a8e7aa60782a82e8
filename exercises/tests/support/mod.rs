//! What the grading tests share: which file is graded (the student's or the reference solution),
//! and compiling small programs against it, for the rules the compiler enforces (a second return
//! or a use after return must not compile; a `const` must be computable at compile time).
//!
//! A program is compiled by `rustc` as a library beside the graded file (`#[path]` module `ex`,
//! its items in scope), into this package's scratch directory; the graded files use only `std`.

#![allow(dead_code, reason = "each test binary uses the part it needs")]

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `src/` (the student's files), or `solutions/` with `--features solutions`.
pub const GRADED_DIR: &str = if cfg!(feature = "solutions") {
    "solutions"
} else {
    "src"
};

/// The graded file of exercise `stem`.
pub fn graded_file(stem: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(GRADED_DIR)
        .join(format!("{stem}.rs"))
}

/// What rustc said about one program.
pub struct Compiled {
    pub ok: bool,
    pub stderr: String,
}

impl Compiled {
    /// The first error, its code line and the lines that point at the program (enough to say why).
    pub fn first_error(&self) -> String {
        let mut out = Vec::new();
        for line in self.stderr.lines() {
            if line.starts_with("error") && !out.is_empty() {
                break;
            }
            if !out.is_empty() || line.starts_with("error") {
                out.push(line);
            }
            if out.len() >= 12 {
                break;
            }
        }
        out.join("\n")
    }
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Compiles `items` (Rust items: `fn`s, `const`s) with exercise `stem`'s graded file in scope
/// as `ex::*`. Codegen included (`--emit link`): `const` blocks in generic functions are checked
/// when the functions are instantiated, which a metadata-only check would skip.
pub fn compile(stem: &str, items: &str) -> Compiled {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile-checks");
    std::fs::create_dir_all(&dir).expect("cannot create the scratch directory");
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = format!("{stem}_{}_{n}", std::process::id());
    let root = dir.join(format!("{name}.rs"));
    let program = format!(
        "#![allow(dead_code, unused)]\n\
         #[path = {path:?}]\n\
         mod ex;\n\
         use ex::*;\n\
         {items}\n",
        path = graded_file(stem),
    );
    std::fs::write(&root, program).expect("cannot write the program");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "rlib",
            "--color",
            "never",
        ])
        .args(["--crate-name", &name, "--emit", "link", "-o"])
        .arg(dir.join(format!("lib{name}.rlib")))
        .arg(&root)
        .output()
        .expect("cannot run rustc");
    let _ = std::fs::remove_file(&root);
    let _ = std::fs::remove_file(dir.join(format!("lib{name}.rlib")));
    Compiled {
        ok: out.status.success(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `items` must compile against the graded file; `what` says what that proves.
#[track_caller]
pub fn must_compile(stem: &str, what: &str, items: &str) {
    let c = compile(stem, items);
    assert!(
        c.ok,
        "{what}: this must compile, but rustc said:\n{}\n\nthe program:\n{items}",
        c.first_error()
    );
}

/// `items` must fail to compile against the graded file with one of `codes` (`E0382`), and
/// `control` (the same use, without the mistake) must compile: so the program fails for the
/// intended reason, not for another error in the file.
#[track_caller]
pub fn must_not_compile(stem: &str, what: &str, control: &str, items: &str, codes: &[&str]) {
    must_compile(stem, &format!("{what} (the correct use)"), control);
    let c = compile(stem, items);
    assert!(
        !c.ok,
        "{what}: this {}:\n{items}",
        exercises::COMPILED_BUT_MUST_NOT
    );
    assert!(
        codes
            .iter()
            .any(|code| c.stderr.contains(&format!("error[{code}]"))),
        "{what}: this must fail with {}, but rustc said:\n{}",
        codes.join(" or "),
        c.first_error()
    );
}
