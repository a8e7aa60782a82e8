//! The grader as a program: what `cargo xtask exercises …` runs in the exercises' download, where
//! `cargo xtask` is an alias for this binary (`.cargo/config.toml` there). The repository's own
//! `cargo xtask exercises` calls the library directly.

#![forbid(unsafe_code)]

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // This crate sits two levels below the workspace's root (`exercises/grader`).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let result = match args.as_slice() {
        ["exercises", rest @ ..] => exercises_grader::run(&root, rest),
        _ => Err(anyhow::anyhow!(
            "this folder has one command: cargo xtask exercises [check [N] | list | hint N]"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nerror: {e:#}");
            ExitCode::FAILURE
        }
    }
}
