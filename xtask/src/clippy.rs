//! The lint step of `cargo xtask test`: clippy on every target with warnings denied, as the
//! developers' guide asks of every commit; natively for the whole workspace (and the exercises'
//! reference solutions, behind their feature), then for wasm32,
//! where `wasm-lab`'s web bindings (`src/web/`) and its browser tests compile, and `wasm-bench`'s
//! page bindings.

use anyhow::Result;

use crate::{cmd, tools};

pub fn clippy() -> Result<()> {
    cmd::cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])
    .run()?;
    // The exercises' reference solutions compile only with their feature.
    cmd::cargo(&[
        "clippy",
        "--package",
        "exercises",
        "--all-targets",
        "--features",
        "solutions",
        "--",
        "-D",
        "warnings",
    ])
    .run()?;
    tools::wasm_target()?;
    cmd::cargo(&[
        "clippy",
        "--package",
        "wasm-lab",
        "--all-targets",
        // The browser tests replay a drawn question from its parameters (as `cargo xtask test`
        // runs them); the shipped build leaves that code out.
        "--features",
        "replay",
        "--target",
        tools::WASM_TARGET,
        "--",
        "-D",
        "warnings",
    ])
    .run()?;
    cmd::cargo(&[
        "clippy",
        "--package",
        "wasm-bench",
        "--lib",
        "--target",
        tools::WASM_TARGET,
        "--",
        "-D",
        "warnings",
    ])
    .run()
}
