//! Installs what the project needs when it is missing, at pinned versions, and says what it did.
//!
//! Nothing here downloads a browser build or a prebuilt binary: Rust tools come from crates.io
//! (`cargo install`), Chromium from Debian's packages.

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::cmd;

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The wasm32 target for the toolchain in use.
pub fn wasm_target() -> Result<()> {
    let installed = cmd::new("rustup", &["target", "list", "--installed"]).read();
    if installed.is_some_and(|t| t.lines().any(|l| l == WASM_TARGET)) {
        return Ok(());
    }
    crate::site::step(&format!(
        "installing the {WASM_TARGET} target with rustup (a download of tens of MB; about a minute)"
    ));
    cmd::new("rustup", &["target", "add", WASM_TARGET]).run()
}

/// The wasm-bindgen version the lockfile pins; the CLI must equal it exactly.
pub fn wasm_bindgen_version(root: &Path) -> Result<String> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).context("cannot read Cargo.lock")?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \""))
        {
            return Ok(v.trim_end_matches('"').to_string());
        }
    }
    bail!("Cargo.lock has no wasm-bindgen entry")
}

/// `wasm-bindgen` and `wasm-bindgen-test-runner` at exactly the lockfile's version.
pub fn wasm_bindgen_cli(root: &Path) -> Result<()> {
    let want = wasm_bindgen_version(root)?;
    let has = |tool: &str| {
        cmd::new(tool, &["--version"])
            .read()
            .is_some_and(|v| v.split_whitespace().nth(1) == Some(want.as_str()))
    };
    if has("wasm-bindgen") && has("wasm-bindgen-test-runner") {
        return Ok(());
    }
    // Measured (2026-12-04, fresh clone and empty CARGO_HOME, 2 cores): this compile took 3 min 1 s
    // of a first `cargo xtask serve` of 8 min 40 s.
    crate::site::step(&format!(
        "installing wasm-bindgen-cli {want} (it must equal the wasm-bindgen crate): cargo compiles \
         it from source, once; on a 2-core machine that takes about 3 minutes (cargo's progress \
         follows)"
    ));
    // Not `--locked`: the CLI's lockfile pins `webpki-roots 1.0.11`, which the registry mirror
    // this project is built against lacks; without `--locked` cargo resolves a version it has.
    cmd::cargo(&[
        "install",
        "wasm-bindgen-cli",
        "--version",
        &format!("={want}"),
    ])
    .run()?;
    if !(has("wasm-bindgen") && has("wasm-bindgen-test-runner")) {
        bail!(
            "wasm-bindgen {want} was installed but is not the one on PATH: put ~/.cargo/bin first"
        );
    }
    Ok(())
}

/// The binaryen release whose `wasm-opt` shrinks the shipped module (npm's build of binaryen,
/// which runs on node: Debian's binaryen 108 and the `wasm-opt` crate's 116 are too old for
/// current Rust wasm output).
pub const BINARYEN_NPM: &str = "binaryen@132.0.0";

/// `wasm-opt` from npm's `binaryen` at [`BINARYEN_NPM`], installed once into
/// `target/tools/binaryen` (project-local, nothing global). `None` — and the build goes on
/// without it — when node/npm are missing or the install fails: it is an optimisation, not a
/// requirement.
pub fn wasm_opt(root: &Path) -> Option<std::path::PathBuf> {
    let dir = crate::site::target_dir(root).join("tools/binaryen");
    let bin = dir.join("node_modules/.bin/wasm-opt");
    let version = BINARYEN_NPM.rsplit('@').next().unwrap_or_default();
    let major = version.split('.').next().unwrap_or_default();
    let works = || {
        cmd::new(&bin.to_string_lossy(), &["--version"])
            .read()
            .is_some_and(|v| v.contains(&format!("version {major}")))
    };
    if works() {
        return Some(bin);
    }
    cmd::new("npm", &["--version"]).read()?;
    eprintln!(
        "installing wasm-opt from npm ({BINARYEN_NPM}) into {}",
        dir.display()
    );
    std::fs::create_dir_all(&dir).ok()?;
    let installed = cmd::new(
        "npm",
        &[
            "install",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--prefix",
            &dir.to_string_lossy(),
            BINARYEN_NPM,
        ],
    )
    .run();
    if let Err(e) = installed {
        eprintln!("could not install {BINARYEN_NPM}: {e}");
        return None;
    }
    works().then_some(bin)
}

/// Debian's Chromium and ChromeDriver, installed with apt when missing (needs root).
pub fn chromium() -> Result<()> {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return Ok(());
    }
    let root = cmd::new("id", &["-u"]).read().as_deref() == Some("0");
    if !root {
        bail!(
            "headless tests need Debian's Chromium: run `sudo apt-get update && sudo apt-get install -y chromium chromium-driver` once"
        );
    }
    crate::site::step(
        "installing chromium and chromium-driver from Debian's packages (a download of about 100 MB)",
    );
    cmd::new("apt-get", &["update"]).run()?;
    cmd::new("apt-get", &["install", "-y", "chromium", "chromium-driver"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .run()
}

/// A nightly toolchain with Miri, for the pool's Miri tests.
pub fn miri() -> Result<()> {
    if cmd::new("cargo", &["+nightly", "miri", "--version"])
        .read()
        .is_some()
    {
        return Ok(());
    }
    crate::site::step(
        "installing a nightly toolchain with Miri (a download of a few hundred MB; Miri then \
         builds its standard library once, a few minutes)",
    );
    cmd::new(
        "rustup",
        &[
            "toolchain",
            "install",
            "nightly",
            "--profile",
            "minimal",
            "--component",
            "miri,rust-src",
        ],
    )
    .run()
}

/// The cargo-fuzz release the fuzz targets are run with (`cargo xtask fuzz`).
pub const CARGO_FUZZ: &str = "0.13.2";

/// cargo-fuzz at [`CARGO_FUZZ`], built from crates.io, and the nightly toolchain it drives
/// (libFuzzer's instrumentation needs nightly flags; it is the one Miri uses).
pub fn cargo_fuzz() -> Result<()> {
    if cmd::new("cargo", &["+nightly", "--version"])
        .read()
        .is_none()
    {
        crate::site::step(
            "installing a nightly toolchain for libFuzzer (a download of about 100 MB)",
        );
        cmd::new(
            "rustup",
            &["toolchain", "install", "nightly", "--profile", "minimal"],
        )
        .run()?;
    }
    let has = cmd::new("cargo", &["+nightly", "fuzz", "--version"])
        .read()
        .is_some_and(|v| v.split_whitespace().nth(1) == Some(CARGO_FUZZ));
    if has {
        return Ok(());
    }
    crate::site::step(&format!(
        "installing cargo-fuzz {CARGO_FUZZ}: cargo compiles it from source, once (about a minute)"
    ));
    // `--locked` works here: the registry mirror has every crate of its lockfile.
    cmd::cargo(&[
        "install",
        "cargo-fuzz",
        "--version",
        &format!("={CARGO_FUZZ}"),
        "--locked",
    ])
    .run()
}

/// The toolchain of the workspace's `rust-version` (`[workspace.package]` in `Cargo.toml`): the
/// oldest Rust `bufpool` promises to build with, as rustup names it (`1.88` → `1.88.0`).
pub fn msrv(root: &Path) -> Result<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))
        .context("cannot read the workspace's Cargo.toml")?;
    msrv_in(&manifest).context("Cargo.toml's [workspace.package] states no rust-version")
}

/// The `rust-version` of a workspace manifest's `[workspace.package]`, with its patch number.
pub fn msrv_in(manifest: &str) -> Option<String> {
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            inside = line == "[workspace.package]";
        } else if inside
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "rust-version"
        {
            let v = value.trim().trim_matches('"');
            return Some(if v.matches('.').count() == 1 {
                format!("{v}.0")
            } else {
                v.to_string()
            });
        }
    }
    None
}

/// The MSRV toolchain ([`msrv`]), installed with rustup's minimal profile when missing.
pub fn msrv_toolchain(root: &Path) -> Result<String> {
    let version = msrv(root)?;
    let plus = format!("+{version}");
    if cmd::new("cargo", &[&plus, "--version"]).read().is_some() {
        return Ok(version);
    }
    crate::site::step(&format!(
        "installing Rust {version}, the workspace's rust-version, for the MSRV check (a download \
         of about 70 MB)"
    ));
    cmd::new(
        "rustup",
        &["toolchain", "install", &version, "--profile", "minimal"],
    )
    .run()?;
    Ok(version)
}

/// `cargo xtask msrv`, a step of `cargo xtask test`: `bufpool`, the crate published to
/// crates.io, checked with the toolchain of its stated `rust-version`, every feature on, with
/// the committed lock file, in a target directory of its own (`target/msrv`: another compiler's
/// artifacts would evict the main build's). Clippy's `incompatible_msrv` (on with `-D warnings`)
/// catches a newer std API earlier; this catches language features and dependencies too.
pub fn check_msrv(root: &Path) -> Result<()> {
    let version = msrv_toolchain(root)?;
    let dir = crate::site::target_dir(root).join("msrv");
    let dir = dir.to_string_lossy();
    // The rustup proxy, not `$CARGO`: only the proxy understands `+1.88.0`.
    cmd::new(
        "cargo",
        &[
            &format!("+{version}"),
            "check",
            "--package",
            "bufpool",
            "--lib",
            "--all-features",
            "--locked",
            "--target-dir",
            &dir,
        ],
    )
    .env("RUSTUP_TOOLCHAIN", &version)
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_msrv_is_the_workspace_packages_rust_version() {
        let manifest = "[workspace]\nrust-version = \"1.1\"\n[workspace.package]\nedition = \"2024\"\nrust-version = \"1.88\" # why\n[x]\n";
        assert_eq!(msrv_in(manifest).as_deref(), Some("1.88.0"));
        assert_eq!(
            msrv_in("[workspace.package]\nrust-version = \"1.85.1\"").as_deref(),
            Some("1.85.1")
        );
        assert_eq!(msrv_in("[package]\nrust-version = \"1.88\""), None);
        // The version checked is bufpool's: its manifest inherits the workspace's.
        let bufpool = std::fs::read_to_string(crate::root().join("bufpool/Cargo.toml")).unwrap();
        assert!(
            bufpool
                .lines()
                .any(|l| l.trim() == "rust-version.workspace = true")
        );
        assert!(msrv(&crate::root()).is_ok());
    }
}
