//! Chapter 6: glibc's mmap threshold, the Rust analogue of .NET's large-object heap.
//!
//! Every measurement here runs in fresh processes ([`crate::child`]): the threshold moves after
//! the first free of an mmapped chunk, so a process that already did that cannot show the edge.
//! "Cost" is malloc + a full write + free of a `Vec<u8>`: the page faults of fresh mmapped pages
//! are paid on first touch, so a buffer that is never written would hide them.

use anyhow::{Result, bail};
use bench_data::Unit;

use crate::child;
use crate::glibc::{self, CostProbe, ThresholdRow};
use crate::measure::Session;

pub const ELEMENTS: &[&str] = &["u8", "i32", "u64"];

/// The `threshold` report's rows: one fresh process per element type, with extra `env`.
pub fn rows(env: &[(&str, &str)]) -> Result<Vec<ThresholdRow>> {
    ELEMENTS
        .iter()
        .map(|t| child::run::<ThresholdRow>("threshold", &[t], env))
        .collect()
}

pub fn run(s: &mut Session) -> Result<()> {
    if !glibc::SUPPORTED {
        eprintln!("    skipped: the IS_MMAPPED probe needs 64-bit Linux with glibc");
        return Ok(());
    }
    let rows = rows(&[])?;
    for r in &rows {
        let Some(first_len) = r.first_len else {
            bail!(
                "no {} buffer up to 64 MiB was mmapped: is this glibc?",
                r.element
            );
        };
        let t = &r.element;
        s.exact(
            &format!("cliff.{t}.first_len"),
            &format!("first Vec<{t}> length served by mmap (IS_MMAPPED bit, fresh process)"),
            Unit::Count,
            first_len as f64,
        )?;
        s.exact(
            &format!("cliff.{t}.first_bytes"),
            &format!("bytes of the first Vec<{t}> served by mmap"),
            Unit::Bytes,
            r.first_bytes.unwrap_or(0) as f64,
        )?;
        s.exact(
            &format!("cliff.{t}.chunk_bytes"),
            &format!("glibc chunk size of the first mmapped Vec<{t}> (header + page rounding)"),
            Unit::Bytes,
            r.chunk_bytes.unwrap_or(0) as f64,
        )?;
    }
    let (processes, batches, per_batch) = if s.quick() { (4, 8, 10) } else { (12, 20, 20) };
    for (mode, env) in [
        ("dynamic", None),
        ("fixed", Some(("GLIBC_TUNABLES", glibc::FIXED_TUNABLES))),
    ] {
        let env: Vec<(&str, &str)> = env.into_iter().collect();
        let args = [batches.to_string(), per_batch.to_string()];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut all = Vec::new();
        for i in 0..processes {
            s.step(&format!("cliff.{mode} process {}/{processes}", i + 1));
            all.push(child::run::<CostProbe>("threshold-cost", &args, &env)?);
        }
        if let Some(p) = all.iter().find(|p| p.edge == 0) {
            bail!("threshold-cost probe found no mmapped buffer ({p:?})");
        }
        let below = all.iter().map(|p| p.below).min().unwrap_or(0);
        let edge = all.iter().map(|p| p.edge).min().unwrap_or(0);
        let edge_max = all.iter().map(|p| p.edge).max().unwrap_or(0);
        let edge = if edge == edge_max {
            format!("{edge}")
        } else {
            format!("{edge}–{edge_max}")
        };
        let how = if mode == "fixed" {
            "threshold fixed by GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072"
        } else {
            "default dynamic threshold"
        };
        let below_ns: Vec<f64> = all.iter().flat_map(|p| p.below_ns.clone()).collect();
        let first: Vec<f64> = all.iter().map(|p| p.first_above_ns).collect();
        let after: Vec<f64> = all.iter().flat_map(|p| p.after_free_ns.clone()).collect();
        let b = s.sampled(
            &format!("cliff.{mode}.below"),
            &format!(
                "malloc + write + free of {below} B, the largest request under the default 128 KiB threshold ({how})"
            ),
            &below_ns,
        )?;
        let f = s.sampled(
            &format!("cliff.{mode}.first_above"),
            &format!(
                "the first malloc + write + free at the process's edge ({edge} B), one per fresh process ({how})"
            ),
            &first,
        )?;
        let a = s.sampled(
            &format!("cliff.{mode}.after_free"),
            &format!(
                "malloc + write + free at the edge ({edge} B) after the first one was freed ({how})"
            ),
            &after,
        )?;
        s.ratio(
            &format!("cliff.{mode}.first_above_vs_below"),
            &format!("first allocation at the edge ÷ just below it ({how})"),
            f,
            b,
        );
        s.ratio(
            &format!("cliff.{mode}.after_free_vs_below"),
            &format!("allocation at the edge after the first free ÷ just below it ({how})"),
            a,
            b,
        );
        let count = |pick: fn(&CostProbe) -> bool| all.iter().filter(|p| pick(p)).count() as f64;
        s.exact(
            &format!("cliff.{mode}.first_above_mmapped"),
            &format!(
                "processes (of {processes}) whose first buffer at the edge was mmapped ({how})"
            ),
            Unit::Count,
            count(|p| p.first_above_mmapped),
        )?;
        s.exact(
            &format!("cliff.{mode}.after_free_mmapped"),
            &format!(
                "processes (of {processes}) whose buffer at the edge after the first free was still mmapped ({how})"
            ),
            Unit::Count,
            count(|p| p.after_free_mmapped),
        )?;
    }
    s.exact(
        "cliff.processes",
        "fresh processes per threshold cost measurement",
        Unit::Count,
        processes as f64,
    )?;
    Ok(())
}
