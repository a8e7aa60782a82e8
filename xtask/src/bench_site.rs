//! `cargo xtask bench-site [--no-build]` (issue 40): how each chapter with a widget loads on a
//! phone. Builds the site (unless `--no-build`), serves it with `serve.rs` (precompressed, as a
//! static host), and runs the e2e crate's `bench_site` program, which loads each page cold in
//! headless Chromium at 390 × 844 over an emulated Slow 4G link; writes its report to
//! `book/data/site/<machine>.json` (the contributors' page shows it: `pages.rs`) and prints a
//! table. A bench, not a test: the times depend on the machine and are never judged. The bytes
//! and requests depend only on the site (`e2e/tests/page_weight.rs` checks them).

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};

use crate::serve::Server;
use crate::{site, tools};

pub fn run(root: &Path, args: &[&str]) -> Result<()> {
    let site = if args.contains(&"--no-build") {
        root.join("book/build")
    } else {
        site::build(root)?
    };
    tools::chromium()?;
    let server = Server::bind(&site, 0)?;
    let url = server.url();
    std::thread::spawn(move || server.run());
    site::step("loading each chapter cold over an emulated Slow 4G link");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["run", "--quiet", "--package", "e2e", "--bin", "bench_site"])
        .env("BOOK_URL", &url)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run the e2e crate's bench_site")?;
    ensure!(out.status.success(), "bench_site failed ({})", out.status);
    let mut report: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let (id, cpu) = machine(root);
    report["machine"] = serde_json::json!({ "id": id, "cpu": cpu, "cores": cores() });
    let dir = root.join("book/data/site");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{id}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&report)? + "\n")?;
    println!("\n| page | bytes | requests | first widget live |\n|---|---:|---:|---:|");
    for p in report["pages"].as_array().into_iter().flatten() {
        println!(
            "| {} | {} | {} | {} ms |",
            p["page"].as_str().unwrap_or_default(),
            p["bytes"],
            p["requests"],
            p["live_ms"]
        );
    }
    println!("\nwritten to {}", path.display());
    Ok(())
}

/// The machine's id for the report's file name and its CPU model. The id is the one the native
/// bench gave this CPU (`native-bench/src/machine.rs`, issue 41: `amd-zen3-2c`, not the brand
/// string both Zen 3 and Zen 5 machines print), read from the newest system-allocator file in
/// `book/data` whose recorded CPU is this one (vendor, family, model, cores); a machine the bench
/// has not measured yet gets its model string's slug with the core count.
fn machine(root: &Path) -> (String, String) {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let cpu = field("model name").unwrap_or_else(|| "unknown".into());
    let (vendor, family, model) = (
        field("vendor_id").unwrap_or_default(),
        field("cpu family").and_then(|v| v.parse::<u32>().ok()),
        field("model").and_then(|v| v.parse::<u32>().ok()),
    );
    let measured = bench_data::load_dir(&root.join("book/data"))
        .unwrap_or_default()
        .into_iter()
        .filter(|f| {
            f.run.runtime == bench_data::SYSTEM_RUNTIME
                && f.machine.logical_cores as usize == cores()
                && f.machine.cpu.as_ref().is_some_and(|c| {
                    c.vendor == vendor
                        && Some(c.family) == family
                        && (c.model.is_none() || c.model == model)
                })
        })
        .max_by(|a, b| a.run.date.cmp(&b.run.date))
        .map(|f| f.machine.id);
    if let Some(id) = measured {
        return (id, cpu);
    }
    let mut slug = String::new();
    for c in cpu.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug
        .trim_matches('-')
        .replace("-r-", "-")
        .replace("-tm-", "-");
    (format!("{slug}-{}c", cores()), cpu)
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
