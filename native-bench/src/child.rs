//! The separate-process runner: measurements that must start fresh (first-use costs, allocator
//! thresholds that move after the first free) re-execute this binary with the hidden subcommand
//! `__child <probe>` and read one JSON object from its stdout.
//!
//! Protocol: the child prints exactly one line starting with [`MARKER`] followed by a JSON
//! object, and exits 0. Anything else on stdout is ignored; a missing or second marker line, bad
//! JSON or a non-zero exit is an error naming the probe.

use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Start of the one line of stdout that carries the child's result.
pub const MARKER: &str = "NATIVE-BENCH-RESULT ";

/// Prints a child's result in the protocol's form (call once, from the child).
pub fn emit<T: Serialize>(value: &T) -> Result<()> {
    println!("{MARKER}{}", serde_json::to_string(value)?);
    Ok(())
}

/// Extracts the result of probe `probe` from a child's stdout.
pub fn parse_output<T: DeserializeOwned>(probe: &str, stdout: &str) -> Result<T> {
    let mut lines = stdout.lines().filter_map(|l| l.strip_prefix(MARKER));
    let Some(line) = lines.next() else {
        bail!(
            "child probe {probe:?} printed no result line (`{}…`)",
            MARKER.trim()
        );
    };
    if lines.next().is_some() {
        bail!("child probe {probe:?} printed more than one result line");
    }
    serde_json::from_str(line).with_context(|| format!("child probe {probe:?}: bad result JSON"))
}

/// Runs `native-bench __child <probe> <args…>` in a fresh process with extra environment
/// variables, and returns its parsed result.
pub fn run<T: DeserializeOwned>(probe: &str, args: &[&str], env: &[(&str, &str)]) -> Result<T> {
    let exe = std::env::current_exe().context("cannot find the bench binary to re-execute")?;
    let out = Command::new(&exe)
        .arg("__child")
        .arg(probe)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .with_context(|| format!("cannot start child probe {probe:?} ({})", exe.display()))?;
    if !out.status.success() {
        bail!(
            "child probe {probe:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    parse_output(probe, &String::from_utf8_lossy(&out.stdout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct R {
        bytes: u64,
    }

    #[test]
    fn protocol() {
        let ok = format!("noise\n{MARKER}{{\"bytes\":608}}\nmore noise\n");
        assert_eq!(parse_output::<R>("p", &ok).unwrap(), R { bytes: 608 });
        let none = parse_output::<R>("p", "hello\n").unwrap_err().to_string();
        assert!(none.contains("no result line"), "{none}");
        let two = format!("{MARKER}{{\"bytes\":1}}\n{MARKER}{{\"bytes\":2}}\n");
        assert!(parse_output::<R>("p", &two).is_err());
        let bad = format!("{MARKER}{{\"bytes\":\"x\"}}\n");
        let e = format!("{:#}", parse_output::<R>("p", &bad).unwrap_err());
        assert!(e.contains("bad result JSON"), "{e}");
    }
}
