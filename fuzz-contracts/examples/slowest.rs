//! Times every committed input of each target through its contract (build it with `--release`):
//! the mean and the slowest inputs, to see where a slow fuzz target spends its time.
//! `cargo run --release -p fuzz-contracts --example slowest [TARGET]`

use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let only = std::env::args().nth(1);
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    for (name, check) in fuzz_contracts::TARGETS {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let mut times: Vec<(Duration, usize, String)> = Vec::new();
        for dir in ["corpus", "artifacts"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(name)) else {
                continue;
            };
            for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
                let bytes = std::fs::read(&path).unwrap();
                let start = Instant::now();
                check(&bytes);
                times.push((start.elapsed(), bytes.len(), path.display().to_string()));
            }
        }
        let total: Duration = times.iter().map(|t| t.0).sum();
        times.sort_by_key(|t| std::cmp::Reverse(t.0));
        println!(
            "{name}: {} inputs, {:?} in all, {:?} each on average",
            times.len(),
            total,
            total / times.len().max(1) as u32
        );
        for (t, len, path) in times.iter().take(5) {
            println!("  {t:?}  {len} bytes  {path}");
        }
    }
}
