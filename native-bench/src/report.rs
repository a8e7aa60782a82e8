//! Report modes: what the lab computes (or, for `threshold` and `capacity`, what this machine's
//! allocator does), printed as a table or as JSON.

use anyhow::{Result, anyhow, bail};
use bufpool::pool::{PoolError, SharedConfig, SharedPool};
use clap::Subcommand;
use course_pool::chunk::{SourceKind, blocks};
use lab_text::group_digits;
use serde::Serialize;
use wasm_lab::chapter::return_contract::scenario as return_contract;
use wasm_lab::chapter::stale_data::scenario as stale_data;
use wasm_lab::input::parse_size;

use crate::suites;

#[derive(Subcommand)]
pub enum Report {
    /// Request → bucket index, buffer length and waste, for each size.
    Buckets {
        /// Request sizes (elements); default: the course's 18 requests.
        sizes: Vec<String>,
    },
    /// First length per element type (u8, i32, u64) that glibc serves with mmap (fresh processes).
    Threshold {
        /// Fix the threshold as GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 would.
        #[arg(long)]
        fixed: bool,
    },
    /// Blocks and bytes for the first and a later chunk, per strategy and source.
    Blocks {
        /// Chunk size in i32 elements.
        #[arg(long, default_value = "20000")]
        chunk: String,
        /// Only this source kind: slice, vec or iter.
        #[arg(long)]
        source: Option<String>,
    },
    /// Bytes allocated per round versus buffers held at once.
    Capacity {
        /// Only this many buffers held at once (default: 1, 2, 4, …, 4,096).
        #[arg(long)]
        held: Option<String>,
        /// Buffer size in bytes.
        #[arg(long, default_value = "1024")]
        size: String,
        /// Partitions P (default: logical cores).
        #[arg(long)]
        partitions: Option<String>,
        /// Buffers per partition M (default 32).
        #[arg(long)]
        per_partition: Option<String>,
    },
    /// The return contract: stale data, double return, use after return, foreign return, per API.
    Contract,
}

/// The 18 requests of the Thai article's table.
pub const COURSE_REQUESTS: &[u64] = &[
    0, 1, 7, 15, 16, 17, 100, 128, 129, 1_000, 1_024, 1_025, 10_000, 65_536, 100_000, 1_000_000,
    1_048_576, 1_048_577,
];

fn size_arg(what: &str, s: &str) -> Result<usize> {
    let n = parse_size(s).map_err(|e| anyhow!("{what}: {e}"))?;
    usize::try_from(n).map_err(|_| anyhow!("{what}: {s} is too large"))
}

fn json<T: Serialize>(v: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

pub fn print(report: &Report, as_json: bool) -> Result<()> {
    match report {
        Report::Buckets { sizes } => buckets(sizes, as_json),
        Report::Threshold { fixed } => threshold(*fixed, as_json),
        Report::Blocks { chunk, source } => blocks_report(chunk, source.as_deref(), as_json),
        Report::Capacity {
            held,
            size,
            partitions,
            per_partition,
        } => capacity(
            held.as_deref(),
            size,
            partitions.as_deref(),
            per_partition.as_deref(),
            as_json,
        ),
        Report::Contract => {
            let rows = contract()?;
            if as_json {
                return json(&rows);
            }
            println!("{:<18} {:<16} {:<10} detail", "scenario", "api", "outcome");
            for r in rows {
                println!(
                    "{:<18} {:<16} {:<10} {}",
                    r.scenario, r.api, r.outcome, r.detail
                );
            }
            Ok(())
        }
    }
}

fn buckets(sizes: &[String], as_json: bool) -> Result<()> {
    let requests: Vec<u64> = if sizes.is_empty() {
        COURSE_REQUESTS.to_vec()
    } else {
        sizes
            .iter()
            .map(|s| parse_size(s).map_err(|e| anyhow!("{e}")))
            .collect::<Result<_>>()?
    };
    let rows: Vec<_> = requests
        .iter()
        .map(|&r| wasm_lab::calc::calculate(r))
        .collect();
    if as_json {
        return json(&rows);
    }
    println!(
        "{:>15} {:>6} {:>15} {:>15} {:>9}",
        "request", "bucket", "length", "excess", "excess %"
    );
    for c in rows {
        let index = c.index.map_or("—".into(), |i| i.to_string());
        println!(
            "{:>15} {:>6} {:>15} {:>15} {:>8.1}%",
            group_digits(c.request),
            index,
            group_digits(c.length),
            group_digits(c.wasted),
            c.excess_percent
        );
    }
    Ok(())
}

fn threshold(fixed: bool, as_json: bool) -> Result<()> {
    if !crate::glibc::SUPPORTED {
        bail!("the threshold report reads glibc's chunk headers: it needs 64-bit Linux with glibc");
    }
    let env: Vec<(&str, &str)> = if fixed {
        vec![("GLIBC_TUNABLES", crate::glibc::FIXED_TUNABLES)]
    } else {
        Vec::new()
    };
    let rows = suites::threshold_rows(&env)?;
    if as_json {
        return json(&rows);
    }
    let opt = |x: Option<usize>| x.map_or("none".into(), |v| group_digits(v as u64));
    println!(
        "{:<8} {:>12} {:>12} {:>12} {:>14}",
        "element", "first len", "bytes", "chunk", "rule predicts"
    );
    for r in rows {
        println!(
            "{:<8} {:>12} {:>12} {:>12} {:>14}",
            r.element,
            opt(r.first_len),
            opt(r.first_bytes),
            opt(r.chunk_bytes),
            group_digits(r.predicted_len as u64)
        );
    }
    Ok(())
}

fn blocks_report(chunk: &str, source: Option<&str>, as_json: bool) -> Result<()> {
    let size = size_arg("--chunk", chunk)?;
    if size == 0 {
        bail!("--chunk: a chunk size must be at least 1");
    }
    let only = match source {
        None => None,
        Some("slice") => Some(SourceKind::Slice),
        Some("vec") => Some(SourceKind::Vec),
        Some("iter") => Some(SourceKind::Yielded),
        Some(other) => bail!("--source: {other:?} is not slice, vec or iter"),
    };
    let len = size
        .checked_mul(2)
        .ok_or_else(|| anyhow!("--chunk: {size} is too large"))?;
    let mut report = blocks::<i32>(len, size).map_err(|e| anyhow!("{e}"))?;
    if let Some(kind) = only {
        report.rows.retain(|r| r.source == kind);
    }
    if as_json {
        return json(&report);
    }
    println!(
        "{} {} elements in chunks of {} ({} B each)",
        group_digits(report.len as u64),
        report.element,
        group_digits(report.size as u64),
        report.element_size
    );
    println!(
        "{:<26} {:<8} {:>7} {:>12} {:>7} {:>12} {:>12}",
        "strategy", "source", "first", "first B", "later", "later B", ".NET first B"
    );
    let source_name = |k: SourceKind| match k {
        SourceKind::Slice => "slice",
        SourceKind::Vec => "vec",
        SourceKind::Yielded => "iter",
    };
    for r in &report.rows {
        let later = r.later.unwrap_or_default();
        println!(
            "{:<26} {:<8} {:>7} {:>12} {:>7} {:>12} {:>12}",
            r.strategy.name(),
            source_name(r.source),
            r.first.allocations + r.first.reallocations,
            group_digits(r.first.bytes),
            later.allocations + later.reallocations,
            group_digits(later.bytes),
            r.dotnet_first_bytes.map_or("—".into(), group_digits)
        );
    }
    Ok(())
}

fn capacity(
    held: Option<&str>,
    size: &str,
    partitions: Option<&str>,
    per_partition: Option<&str>,
    as_json: bool,
) -> Result<()> {
    let size = size_arg("--size", size)?;
    let mut config = SharedConfig::default();
    if let Some(p) = partitions {
        config.partitions = size_arg("--partitions", p)?;
    }
    if let Some(m) = per_partition {
        config.arrays_per_partition = size_arg("--per-partition", m)?;
    }
    SharedPool::<u8>::with_config(config).map_err(|e| anyhow!("{e}"))?;
    let helds: Vec<usize> = match held {
        Some(k) => vec![size_arg("--held", k)?],
        None => suites::CAPACITY_HELD.to_vec(),
    };
    if let Some(&k) = helds.iter().find(|&&k| k > 1 << 16) {
        bail!("--held: {k} buffers at once is more than this report allows (65,536)");
    }
    let rows = helds
        .iter()
        .map(|&k| suites::capacity_round(size, k, config))
        .collect::<Result<Vec<_>>>()?;
    if as_json {
        return json(&rows);
    }
    println!(
        "{} B buffers, {} partitions × {} = {} kept at most",
        group_digits(size as u64),
        config.partitions,
        config.arrays_per_partition,
        group_digits(config.capacity_per_bucket() as u64)
    );
    println!(
        "{:>8} {:>16} {:>12} {:>8}",
        "held", "bytes/round", "allocs", "kept"
    );
    for r in rows {
        println!(
            "{:>8} {:>16} {:>12} {:>8}",
            group_digits(r.held as u64),
            group_digits(r.bytes_per_round),
            group_digits(r.allocations_per_round),
            r.kept_after_round
        );
    }
    Ok(())
}

/// One outcome of the return contract on one API.
#[derive(Clone, Debug, Serialize)]
pub struct ContractRow {
    pub scenario: &'static str,
    pub api: &'static str,
    /// `allowed`, `error` or `no_compile`.
    pub outcome: &'static str,
    pub detail: String,
}

fn row(
    scenario: &'static str,
    api: &'static str,
    outcome: &'static str,
    detail: String,
) -> ContractRow {
    ContractRow {
        scenario,
        api,
        outcome,
        detail,
    }
}

/// The stale-data run the report shows: the order line written into a 41-element rent, returned
/// without clearing, then a rent of 41 that writes nothing and reads all 41.
fn stale_run() -> stale_data::Scenario {
    stale_data::Scenario {
        first_size: 41,
        second_size: 41,
        second: Vec::new(),
        read: 41,
        ..stale_data::Scenario::default()
    }
}

/// The handle API's rows, each computed by the chapter's scenario run (`wasm_lab::scenario`),
/// the same code the widgets, quizzes and tests run.
fn handle_rows(checked: bool) -> Result<Vec<ContractRow>> {
    let api = if checked { "handle_checked" } else { "handle" };
    let e = |e: PoolError| anyhow!("{e}");
    let mut out = Vec::new();

    let pool = stale_data::lab_pool::<u8>()
        .map_err(e)?
        .with_checked(checked);
    let stale = stale_data::run_in(&pool, &stale_run()).map_err(|e| anyhow!("{e}"))?;
    out.push(row(
        "stale_data",
        api,
        "allowed",
        format!(
            "the next renter sees {} of the previous renter's 41 bytes",
            stale.leaked
        ),
    ));

    let double = return_contract::double_return(7, true, checked).map_err(e)?;
    out.push(match double.second_return {
        Some(err) => row("double_return", api, "error", err),
        None => row(
            "double_return",
            api,
            "allowed",
            format!(
                "second return accepted; the next two renters {}",
                if double.same_buffer {
                    "share one buffer"
                } else {
                    "get different buffers"
                }
            ),
        ),
    });

    let late = return_contract::use_after_return(1, 99, checked).map_err(e)?;
    out.push(match late.stale_write {
        Some(err) => row("use_after_return", api, "error", err),
        None => row(
            "use_after_return",
            api,
            "allowed",
            format!(
                "the write through the returned handle lands in the next renter's data (it reads {})",
                late.fresh_reads
            ),
        ),
    });

    for (len, scenario) in [(128, "foreign_bucket_len"), (100, "foreign_other_len")] {
        let foreign = return_contract::foreign_return(len, 7, checked).map_err(e)?;
        out.push(match foreign.refused {
            Some(err) => row(scenario, api, "error", err),
            None => row(
                scenario,
                api,
                "allowed",
                format!("a foreign buffer of {len} elements is accepted"),
            ),
        });
    }
    Ok(out)
}

/// Runs every contract scenario on the handle API, checked mode and the ownership API.
pub fn contract() -> Result<Vec<ContractRow>> {
    let mut out = handle_rows(false)?;
    out.extend(handle_rows(true)?);
    let api = "ownership";
    let pool = SharedPool::<u8>::new();
    // The ownership API has no handle to run the chapter's scenario on: the same run, by guard.
    let order = stale_data::ORDER_LINE.as_bytes();
    let mut a = pool.try_rent(order.len()).map_err(|e| anyhow!("{e}"))?;
    a.append(order).map_err(|e| anyhow!("{e}"))?;
    drop(a);
    let b = pool.try_rent(order.len()).map_err(|e| anyhow!("{e}"))?;
    let stale = b.iter().zip(order).filter(|(x, y)| x == y).count();
    out.push(row(
        "stale_data",
        api,
        "allowed",
        format!("the next renter sees {stale} of the previous renter's 41 bytes"),
    ));
    drop(b);
    out.push(row(
        "double_return",
        api,
        "no_compile",
        "returning consumes the guard: a second drop is error E0382 (use of moved value)".into(),
    ));
    out.push(row(
        "use_after_return",
        api,
        "no_compile",
        "the guard is moved by its return: a later use is error E0382; a live borrow blocks the return (E0505)".into(),
    ));
    for (len, scenario) in [(128, "foreign_bucket_len"), (100, "foreign_other_len")] {
        match pool.return_boxed(vec![0u8; len].into_boxed_slice(), false) {
            Ok(()) => out.push(row(
                scenario,
                api,
                "allowed",
                format!("return_boxed accepts a foreign buffer of {len} elements"),
            )),
            // The chapters' wording, as the handle rows above have it (bufpool's own message
            // speaks to a programmer).
            Err(rej) => out.push(row(
                scenario,
                api,
                "error",
                wasm_lab::pool_words::pool_error(&rej.error),
            )),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_outcomes() {
        let rows = contract().unwrap();
        let get = |s: &str, a: &str| {
            rows.iter()
                .find(|r| r.scenario == s && r.api == a)
                .unwrap_or_else(|| panic!("{s}/{a}"))
                .outcome
        };
        for api in ["handle", "handle_checked", "ownership"] {
            assert_eq!(get("stale_data", api), "allowed");
            assert_eq!(get("foreign_other_len", api), "error");
        }
        assert_eq!(get("double_return", "handle"), "allowed");
        assert_eq!(get("double_return", "handle_checked"), "error");
        assert_eq!(get("double_return", "ownership"), "no_compile");
        assert_eq!(get("use_after_return", "handle"), "allowed");
        assert_eq!(get("use_after_return", "handle_checked"), "error");
        assert_eq!(get("foreign_bucket_len", "handle"), "allowed");
        assert_eq!(get("foreign_bucket_len", "handle_checked"), "error");
        assert_eq!(get("foreign_bucket_len", "ownership"), "allowed");
        let stale = rows.iter().find(|r| r.scenario == "stale_data").unwrap();
        assert!(stale.detail.contains("41 of"), "{}", stale.detail);
        // The JSON shape the book and scripts read.
        let v = serde_json::to_value(&rows).unwrap();
        for key in ["scenario", "api", "outcome", "detail"] {
            assert!(v[0].get(key).is_some(), "{key}");
        }
    }

    #[test]
    fn capacity_rows_follow_one_plus_p_times_m() {
        let config = SharedConfig::new()
            .with_partitions(1)
            .with_arrays_per_partition(2)
            .with_clear_on_return(false);
        // Capacity 1 + 1 × 2 = 3: holding 5 allocates 2 per round.
        let r = suites::capacity_round(1024, 5, config).unwrap();
        assert_eq!(r.capacity, 3);
        assert_eq!(r.bytes_per_round, 2 * 1024);
        assert_eq!(r.kept_after_round, 3);
        let r = suites::capacity_round(1024, 3, config).unwrap();
        assert_eq!(r.bytes_per_round, 0);
        let v = serde_json::to_value(&r).unwrap();
        for key in [
            "size",
            "held",
            "partitions",
            "per_partition",
            "capacity",
            "bytes_per_round",
        ] {
            assert!(v.get(key).is_some(), "{key}");
        }
    }
}
