//! Report modes: what the lab computes, printed as a table or as JSON.

use anyhow::Result;
use clap::Subcommand;
use wasm_lab::input::{group_digits, parse_size};

#[derive(Subcommand)]
pub enum Report {
    /// Request → bucket index, buffer length and waste, for each size.
    Buckets {
        /// Request sizes (elements); default: the course's 18 requests.
        sizes: Vec<String>,
    },
}

/// The 18 requests of the Thai article's table.
pub const COURSE_REQUESTS: &[u64] = &[
    0, 1, 7, 15, 16, 17, 100, 128, 129, 1_000, 1_024, 1_025, 10_000, 65_536, 100_000, 1_000_000,
    1_048_576, 1_048_577,
];

pub fn print(report: &Report, json: bool) -> Result<()> {
    match report {
        Report::Buckets { sizes } => {
            let requests: Vec<u64> = if sizes.is_empty() {
                COURSE_REQUESTS.to_vec()
            } else {
                sizes
                    .iter()
                    .map(|s| parse_size(s).map_err(|e| anyhow::anyhow!("{e}")))
                    .collect::<Result<_>>()?
            };
            let rows: Vec<_> = requests
                .iter()
                .map(|&r| wasm_lab::calc::calculate(r))
                .collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
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
            }
        }
    }
    Ok(())
}
