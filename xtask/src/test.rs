//! `cargo xtask test`: every test the project has, in one command, with a summary at the end.
//!
//! The steps are ordered so that builds are shared where the flags allow: rustdoc and clippy
//! reuse the dependencies' metadata (`check` builds, same profile and flags), and loom and Miri
//! build only `bufpool` (loom also `course-pool`) and their few dependencies (loom in a
//! quick-to-compile profile). Tools are installed first, in a step of their own, so that a fresh machine's one-time installs (minutes:
//! see `tools.rs`) are not mistaken for a test step growing.
//!
//! The native tests and the end-to-end tests run in one `cargo test --workspace` (without the
//! exercises, which a step of their own grades both ways), after the book
//! is built and served: cargo unifies dependency features over the packages it is asked for, so
//! a separate `cargo test -p e2e` compiled again what the native build had just compiled with
//! other features (in a cold run: the lab, the preprocessor, mdbook's core, serde, bench-data, …)
//! and every crate depending on them. The e2e tests share one browser per test file
//! (`e2e::session`), so they need no `--test-threads 1`.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::serve::Server;
use crate::{clippy, cmd, lint, site, tools};

/// Each step's time budget on a cold 2-core machine (seconds; the whole run: under 25 minutes).
/// A step over its budget is named in the summary as a warning: the run still passes. Set from a
/// cold run of 2026-12-03 (1,056 s in all: docs 66 s, native and end to end 783 s with the
/// Russian and Thai smoke set and a 72-s fuzz replay since cut to 20 s, Miri 32 s, wasm 59 s).
///
/// Issue 40 added the download's check to "exercises" (its offline build shares the registry
/// crates the exercises' own build compiled; about 70 s here, warm), paid for by Miri and docs,
/// whose cold runs took 32 s and 66 s. Issue 39 added the MSRV check (`bufpool` checked with the
/// toolchain of its `rust-version`: 20 s cold at nice 19 beside a bench, a no-op warm), paid for
/// by Miri again.
const BUDGETS: &[(&str, u64)] = &[
    ("tools", 30),
    ("formatting", 10),
    ("lint", 60),
    ("docs", 80),
    ("clippy", 120),
    ("native and end to end", 800),
    ("exercises", 150),
    ("loom", 90),
    ("Miri", 40),
    ("MSRV", 20),
    ("wasm", 100),
];

/// One step of the test run: its short name (a key of [`BUDGETS`]), what it checks, and what it
/// does.
type Step<'a> = (
    &'static str,
    &'static str,
    Box<dyn FnOnce() -> Result<()> + 'a>,
);

pub fn all(root: &Path) -> Result<()> {
    let steps: Vec<Step<'_>> = vec![
        (
            "tools",
            "install what the tests need (a check when present; minutes on a fresh machine)",
            Box::new(|| {
                tools::wasm_target()?;
                tools::wasm_bindgen_cli(root)?;
                tools::chromium()?;
                tools::miri()?;
                tools::msrv_toolchain(root).map(drop)
            }),
        ),
        (
            "formatting",
            "rustfmt check",
            Box::new(|| cmd::cargo(&["fmt", "--all", "--check"]).run()),
        ),
        (
            "lint",
            "comparing sentences carry claims; every shipped language fully translated; strict build of the committed data",
            Box::new(|| lint::run(root)),
        ),
        (
            "docs",
            "rustdoc with warnings denied (broken intra-doc links fail)",
            Box::new(|| {
                cmd::cargo(&["doc", "--workspace", "--no-deps"])
                    .env("RUSTDOCFLAGS", "-D warnings")
                    .run()
            }),
        ),
        (
            "clippy",
            "every target, warnings denied, natively and for wasm32",
            Box::new(clippy::clippy),
        ),
        (
            "native and end to end",
            "unit, property and doc tests (incl. compile_fail), the replay of every committed fuzz input (fuzz-contracts), every internal link and anchor of the built book, and the book in headless Chromium",
            Box::new(|| native_and_end_to_end(root)),
        ),
        (
            "exercises",
            "the reference solutions pass every grading test; each untouched skeleton fails every one, for its intended reason; the same for the site's download, unpacked into an empty folder and graded offline",
            Box::new(|| {
                exercises_grader::run(root, &["verify"])?;
                crate::download::check(root)
            }),
        ),
        (
            "loom",
            "the pool's partitions and thread slots under every interleaving",
            Box::new(|| {
                // Its own target dir: `--cfg loom` would otherwise rebuild everything twice.
                // Profile `loom`: optimized like release, without its slow LTO and single
                // codegen unit (see Cargo.toml).
                // The shared engine driven through the owned guard (`bufpool`) and through the
                // course's handles (`course-pool`), in one build.
                let dir = site::target_dir(root).join("loom");
                cmd::cargo(&[
                    "test",
                    "--package",
                    "bufpool",
                    "--test",
                    "pool_loom",
                    "--package",
                    "course-pool",
                    "--test",
                    "handle_loom",
                    "--profile",
                    "loom",
                ])
                .env("RUSTFLAGS", "--cfg loom")
                .env("CARGO_TARGET_DIR", dir)
                .run()
            }),
        ),
        (
            "Miri",
            "the pool's unit tests (incl. the thread-exit stress test) under the interpreter",
            Box::new(|| {
                tools::miri()?;
                // The rustup proxy, not `$CARGO`: only the proxy understands `+nightly`.
                // `pool` selects every test under `bufpool::pool`: the unit tests, the
                // thread-local assumptions (`pool::sync::tests`) and the stress test of threads
                // exiting while others rent and return (`pool::tests::threads`).
                cmd::new(
                    "cargo",
                    &[
                        "+nightly",
                        "miri",
                        "test",
                        "--package",
                        "bufpool",
                        "--lib",
                        "pool",
                    ],
                )
                .env("RUSTUP_TOOLCHAIN", "nightly")
                .run()
            }),
        ),
        (
            "wasm",
            "the lab's tests in headless Chromium",
            Box::new(wasm_tests),
        ),
        (
            "MSRV",
            "bufpool builds with the toolchain of the rust-version it states",
            Box::new(|| tools::check_msrv(root)),
        ),
    ];
    let total = steps.len();
    let mut done = Vec::new();
    for (i, (name, what, step)) in steps.into_iter().enumerate() {
        site::step(&format!("test {}/{total}: {name}: {what}", i + 1));
        let started = Instant::now();
        let result = step().with_context(|| format!("test step “{name}” failed"));
        done.push((name, started.elapsed().as_secs_f64(), result.is_ok()));
        if let Err(e) = result {
            summary(&done);
            return Err(e);
        }
    }
    summary(&done);
    Ok(())
}

fn budget(name: &str) -> Option<u64> {
    BUDGETS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

fn summary(done: &[(&str, f64, bool)]) {
    eprintln!("\n== summary");
    let mut total = 0.0;
    for (name, secs, ok) in done {
        total += secs;
        let over = budget(name).filter(|b| *secs > *b as f64);
        eprintln!(
            "  {} {secs:>6.1} s  {name}{}",
            if *ok { "ok  " } else { "FAIL" },
            over.map_or_else(String::new, |b| format!("  (over its budget of {b} s)"))
        );
    }
    eprintln!("       {total:>6.1} s  in all");
    for (name, secs, _) in done {
        if let Some(b) = budget(name).filter(|b| *secs > *b as f64) {
            eprintln!(
                "warning: step “{name}” took {secs:.0} s, over its budget of {b} s (xtask/src/test.rs BUDGETS): \
                 find what grew before the whole run passes 25 minutes"
            );
        }
    }
}

fn wasm_tests() -> Result<()> {
    tools::wasm_target()?;
    tools::wasm_bindgen_cli(&crate::root())?;
    tools::chromium()?;
    // `--tests`: doc tests run natively (the wasm build registers its own global allocator).
    cmd::cargo(&[
        "test",
        "--package",
        "wasm-lab",
        "--package",
        "wasm-bench",
        "--tests",
        "--features",
        "wasm-lab/replay",
        "--target",
        tools::WASM_TARGET,
    ])
    .env("CHROMEDRIVER", tools::CHROMEDRIVER)
    .env("WASM_BINDGEN_TEST_TIMEOUT", "120")
    .env("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "30")
    .run()
}

/// Builds and serves the book, then runs every native test and the end-to-end tests against it,
/// in one invocation (see the module's doc for why).
fn native_and_end_to_end(root: &Path) -> Result<()> {
    tools::chromium()?;
    let site = site::build(root)?;
    site::step("every internal link and anchor of the built book");
    crate::links::check(&site)?;
    let server = Server::bind(&site, 0)?;
    let url = server.url();
    std::thread::spawn(move || server.run());
    site::step("native and end-to-end tests");
    // `--exclude exercises`: `--workspace` means every member, default or not, and the
    // exercises' untouched skeletons fail their tests by design; the "exercises" step grades
    // them (solutions must pass, skeletons must fail as intended).
    cmd::cargo(&["test", "--workspace", "--exclude", "exercises"])
        .env("BOOK_URL", &url)
        .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budgets_fit_in_25_minutes() {
        let total: u64 = BUDGETS.iter().map(|(_, b)| b).sum();
        assert!(total <= 25 * 60, "budgets add up to {total} s");
    }
}
