//! Chapter "Size-specialized rent" as a reader uses it.

mod common;

use anyhow::{Result, ensure};
use common::{absent, explains, fresh_rng, no_error, reveal};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::chapter::size_specialized::scenario::{go_specializes, monomorphize};

const PAGE: &str = "size-specialized.html";

#[tokio::test]
async fn const_rent_widget_matches_the_lab() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "size-specialized").await?;
    // The count waits for the reader's.
    ensure!(absent(&w, "spec-buckets").await? && !absent(&w, "spec-predict").await?);
    let mut rng = fresh_rng("size-specialized sizes");
    for _ in 0..3 {
        let sizes: Vec<u64> = (0..2 + rng.below(8)).map(|_| rng.request()).collect();
        let typed: Vec<String> = sizes.iter().map(u64::to_string).collect();
        Browser::type_into(&w, "spec-input", &typed.join("; ")).await?;
        no_error(&w, "spec-error").await?;
        let m = monomorphize(&sizes).map_err(anyhow::Error::msg)?;
        reveal(&w, "spec-predict", &m.distinct_buckets.to_string()).await?;
        ensure!(Browser::text(&w, "spec-sizes").await? == m.distinct_sizes.to_string());
        ensure!(Browser::text(&w, "spec-buckets").await? == m.distinct_buckets.to_string());
        let rows = w.find_all(By::Css("[data-testid=\"spec-row\"]")).await?;
        ensure!(rows.len() == sizes.len());
        for (row, want) in rows.iter().zip(&m.rows) {
            let index = Browser::text(row, "spec-index").await?;
            let expect = want
                .index
                .map_or("none (run time)".to_string(), |i| i.to_string());
            ensure!(index == expect, "{}: {index}", want.size);
            let go = Browser::text(row, "spec-go").await?;
            ensure!(
                go == if go_specializes(want.size) {
                    "yes"
                } else {
                    "no"
                }
            );
        }
    }
    for (typed, says) in [
        ("", "Type one or more"),
        ("8; -8", "negative"),
        ("8;x", "not a number"),
    ] {
        Browser::type_into(&w, "spec-input", typed).await?;
        explains(&w, "spec-error", says, "spec-buckets").await?;
    }
    b.finish().await
}
