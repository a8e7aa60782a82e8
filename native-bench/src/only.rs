//! `run --only`: a partial run must never drop the figures of the suites it did not run.
//!
//! Merging is not offered: a data file has one run record (date, commit, rustc, mode, load before
//! and after), and the schema (`bench-data`) has no place to say which suites ran when. A merged
//! file would date old figures with the new run. So a partial run writes its own file and refuses
//! to replace one that holds other suites' figures; `--out` sends it elsewhere.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Result, bail};
use bench_data::RunFile;

/// The suite a figure key belongs to: its first segment (`rent_return.16.pool` → `rent_return`).
pub fn suite_of(key: &str) -> &str {
    key.split('.').next().unwrap_or(key)
}

/// Figures per suite in `existing` that a run of only `chosen` would drop.
pub fn dropped(existing: &RunFile, chosen: &[&str]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for key in existing.figures.keys() {
        let suite = suite_of(key);
        if !chosen.contains(&suite) {
            *out.entry(suite.to_string()).or_insert(0) += 1;
        }
    }
    out
}

/// Whether a run of only `chosen` may write `path`: yes when there is no file yet or the file
/// holds only figures of the chosen suites; otherwise an error saying what would be lost and
/// what to do. Checked before measuring, so a refusal costs nothing.
pub fn check(path: &Path, chosen: &[&str]) -> Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => bail!(
            "cannot read {} to check what --only would replace: {e}",
            path.display()
        ),
    };
    let existing = RunFile::parse(&text).map_err(|e| {
        anyhow::anyhow!(
            "--only would replace {}, which cannot be read ({e}); write the partial run \
             elsewhere with --out DIR (e.g. --out target/bench-only)",
            path.display()
        )
    })?;
    let lost = dropped(&existing, chosen);
    if lost.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = lost.iter().map(|(s, n)| format!("{s} ({n})")).collect();
    bail!(
        "--only would replace {} and drop {} figures of suites it does not run: {}. The bench \
         does not merge (a data file has one run record, so it could not say which suites ran \
         when). Write the partial run elsewhere with --out DIR (e.g. --out target/bench-only), \
         or run every suite",
        path.display(),
        lost.values().sum::<usize>(),
        list.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(keys: &[&str]) -> RunFile {
        let json = format!(
            r#"{{"schema_version": {v},
            "machine": {{"id": "m", "cpu_model": "c", "logical_cores": 2, "memory_bytes": 1,
                "os": "o", "kernel": "k", "libc": "l"}},
            "run": {{"date": "2026-01-01T00:00:00Z", "rustc": "r", "commit": "c",
                "allocator": "a", "mode": "quick", "load_before": [0, 0, 0],
                "load_after": [0, 0, 0], "duration_seconds": 1}},
            "figures": {{{figures}}}}}"#,
            v = bench_data::SCHEMA_VERSION,
            figures = keys
                .iter()
                .map(|k| format!(
                    r#""{k}": {{"title": "t", "unit": "bytes", "value": 1, "low": 1, "high": 1,
                    "samples": 1, "cv": 0, "cv_plain": 0, "verdict": "absolute", "gate_note": ""}}"#
                ))
                .collect::<Vec<_>>()
                .join(",")
        );
        RunFile::parse(&json).unwrap()
    }

    #[test]
    fn counts_what_a_partial_run_would_drop() {
        let f = file(&[
            "size_specialized.16.runtime",
            "size_specialized.code.runtime_fn.bytes",
            "peers.16.pool",
            "why_pool.break_even_round",
            "why_pool.1.pool.bytes",
        ]);
        let lost = dropped(&f, &["size_specialized"]);
        assert_eq!(
            lost,
            BTreeMap::from([("peers".to_string(), 1), ("why_pool".to_string(), 2)])
        );
        assert!(dropped(&f, &["size_specialized", "peers", "why_pool"]).is_empty());
    }

    #[test]
    fn refuses_to_replace_other_suites_figures_and_allows_the_rest() {
        let dir = std::env::temp_dir().join(format!("nb-only-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.json");
        // No file yet: a partial run may write.
        assert!(check(&path, &["peers"]).is_ok());
        std::fs::write(
            &path,
            file(&["peers.16.pool", "threads.1.ns_per_op"]).to_json(),
        )
        .unwrap();
        let err = check(&path, &["peers"]).unwrap_err().to_string();
        assert!(err.contains("threads (1)"), "{err}");
        assert!(err.contains("--out"), "{err}");
        // A file of only the chosen suites is replaced.
        assert!(check(&path, &["peers", "threads"]).is_ok());
        // An unreadable file is not silently replaced either.
        std::fs::write(&path, "{").unwrap();
        assert!(check(&path, &["peers"]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
