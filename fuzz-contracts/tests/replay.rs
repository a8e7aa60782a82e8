//! Every committed fuzz input, replayed through its target's contract with stable Rust: the
//! corpora (`fuzz/corpus/<target>/`) and every input that ever failed (`fuzz/artifacts/<target>/`),
//! so a fixed crash stays fixed. No fuzzing engine: `cargo xtask fuzz` runs that.
//!
//! No time limit: tests check behaviour, and a debug build on a slow machine is no measure of a
//! hang. libFuzzer's `-timeout` finds hangs; each fix has a test of its behaviour (the capacity
//! widget's work bound: `wasm-lab/src/view/tests.rs`), and the slowest input is printed.

use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn every_committed_input_keeps_its_contract() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut total = 0;
    let mut broken = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for (name, check) in fuzz_contracts::TARGETS {
        let mut count = 0;
        for dir in ["corpus", "artifacts"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(name)) else {
                continue;
            };
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for path in paths.iter().filter(|p| p.is_file()) {
                let bytes = std::fs::read(path).unwrap();
                let start = Instant::now();
                if let Err(e) = std::panic::catch_unwind(|| check(&bytes)) {
                    let why = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    broken.push(format!("{name}: {}: {why}", path.display()));
                }
                let took = start.elapsed();
                if took > slowest.0 {
                    slowest = (took, format!("{name}: {}", path.display()));
                }
                count += 1;
            }
        }
        assert!(count > 0, "fuzz/corpus/{name}/ is empty");
        total += count;
    }
    assert!(
        broken.is_empty(),
        "{} inputs break their contract:\n{}",
        broken.len(),
        broken.join("\n")
    );
    eprintln!(
        "replayed {total} committed fuzz inputs; the slowest took {:?} ({})",
        slowest.0, slowest.1
    );
}
