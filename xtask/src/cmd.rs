//! Running commands with their output shown and their failure explained.

use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

pub struct Cmd {
    inner: Command,
    shown: String,
}

pub fn new(program: &str, args: &[&str]) -> Cmd {
    let mut inner = Command::new(program);
    inner.args(args);
    Cmd {
        inner,
        shown: format!("{program} {}", args.join(" ")),
    }
}

/// `cargo` as the one that runs xtask (so the same toolchain builds everything).
pub fn cargo(args: &[&str]) -> Cmd {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut c = new(&cargo, args);
    c.shown = format!("cargo {}", args.join(" "));
    c
}

impl Cmd {
    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Cmd {
        self.shown = format!("{key}={} {}", value.as_ref().to_string_lossy(), self.shown);
        self.inner.env(key, value);
        self
    }

    /// Runs with output shown; an error names the command.
    /// Commands that take longer than a few seconds end with a line saying how long they took.
    pub fn run(mut self) -> Result<()> {
        eprintln!("$ {}", self.shown);
        let started = std::time::Instant::now();
        let status = self
            .inner
            .status()
            .with_context(|| format!("cannot start `{}`", self.shown))?;
        let took = started.elapsed().as_secs();
        if took >= 5 {
            eprintln!(
                "   [{}] took {}:{:02}",
                crate::site::elapsed(),
                took / 60,
                took % 60
            );
        }
        if !status.success() {
            bail!("`{}` failed ({status})", self.shown);
        }
        Ok(())
    }

    /// Runs quietly and returns stdout, or `None` if it cannot run or fails.
    pub fn read(mut self) -> Option<String> {
        let out = self.inner.stderr(Stdio::null()).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}
