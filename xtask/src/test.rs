//! `cargo xtask test`: every test the project has, in one command, with a summary at the end.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::serve::Server;
use crate::{cmd, lint, site, tools};

/// One step of the test run: a name and what it does.
type Step<'a> = (&'static str, Box<dyn FnOnce() -> Result<()> + 'a>);

pub fn all(root: &Path) -> Result<()> {
    let steps: Vec<Step<'_>> = vec![
        (
            "formatting",
            Box::new(|| cmd::cargo(&["fmt", "--all", "--check"]).run()),
        ),
        (
            "lint: comparing sentences carry claims; strict build of the committed data",
            Box::new(|| lint::run(root)),
        ),
        (
            "docs: rustdoc with warnings denied (broken intra-doc links fail)",
            Box::new(|| {
                cmd::cargo(&["doc", "--workspace", "--no-deps"])
                    .env("RUSTDOCFLAGS", "-D warnings")
                    .run()
            }),
        ),
        (
            "native: unit, property and doc tests (incl. compile_fail)",
            Box::new(|| cmd::cargo(&["test", "--workspace", "--exclude", "e2e"]).run()),
        ),
        (
            "loom: the pool's partitions and thread slots under every interleaving",
            Box::new(|| {
                // Its own target dir: `--cfg loom` would otherwise rebuild everything twice.
                let dir = site::target_dir(root).join("loom");
                cmd::cargo(&[
                    "test",
                    "--package",
                    "wasm-lab",
                    "--test",
                    "pool_loom",
                    "--release",
                ])
                .env("RUSTFLAGS", "--cfg loom")
                .env("CARGO_TARGET_DIR", dir)
                .run()
            }),
        ),
        (
            "Miri: the pool's unit tests under the interpreter",
            Box::new(|| {
                tools::miri()?;
                // The rustup proxy, not `$CARGO`: only the proxy understands `+nightly`.
                cmd::new(
                    "cargo",
                    &[
                        "+nightly",
                        "miri",
                        "test",
                        "--package",
                        "wasm-lab",
                        "--lib",
                        "pool",
                    ],
                )
                .env("RUSTUP_TOOLCHAIN", "nightly")
                .run()
            }),
        ),
        (
            "wasm: the lab's tests in headless Chromium",
            Box::new(wasm_tests),
        ),
        (
            "links: every internal link and anchor of the built book",
            Box::new(|| crate::links::check(&site::build(root)?)),
        ),
        (
            "end to end: the built book in headless Chromium",
            Box::new(|| end_to_end(root)),
        ),
    ];
    let total = steps.len();
    let mut done = Vec::new();
    for (i, (name, step)) in steps.into_iter().enumerate() {
        site::step(&format!("test {}/{total}: {name}", i + 1));
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

fn summary(done: &[(&str, f64, bool)]) {
    eprintln!("\n== summary");
    for (name, secs, ok) in done {
        eprintln!(
            "  {} {secs:>6.1} s  {name}",
            if *ok { "ok  " } else { "FAIL" }
        );
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
        "--tests",
        "--features",
        "replay",
        "--target",
        tools::WASM_TARGET,
    ])
    .env("CHROMEDRIVER", tools::CHROMEDRIVER)
    .env("WASM_BINDGEN_TEST_TIMEOUT", "120")
    .env("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "30")
    .run()
}

fn end_to_end(root: &Path) -> Result<()> {
    tools::chromium()?;
    let site = site::build(root)?;
    let server = Server::bind(&site, 0)?;
    let url = server.url();
    std::thread::spawn(move || server.run());
    cmd::cargo(&["test", "--package", "e2e", "--", "--test-threads", "1"])
        .env("BOOK_URL", &url)
        .run()
}
