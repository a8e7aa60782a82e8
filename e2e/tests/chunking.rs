//! Chapter "Chunking" as a reader uses it: the live blocks table against the chunker's formulas.

mod common;

use anyhow::{Result, ensure};
use common::{absent, choose, error_says, explains, fresh_rng, no_error, num, reveal};
use course_pool::chunk::dotnet::dotnet_array_bytes;
use course_pool::chunk::{SourceKind, Strategy, predict_blocks};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::chapter::chunking::scenario::pooled_first_bytes;

const PAGE: &str = "chunking.html";

/// The first chunk's blocks by the chunker's formulas: the widget's question's answer.
fn blocks(strategy: Strategy, kind: SourceKind, len: usize, size: usize) -> String {
    predict_blocks(strategy, kind, len, size, 4, 0)
        .unwrap()
        .len()
        .to_string()
}

fn bytes(strategy: Strategy, kind: SourceKind, len: usize, size: usize, index: usize) -> u64 {
    predict_blocks(strategy, kind, len, size, 4, index)
        .unwrap()
        .iter()
        .map(|b| b.len() as u64 * 4)
        .sum()
}

#[tokio::test]
async fn blocks_table_is_measured_live() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "chunking").await?;
    // The table waits for the reader's count; the chapter's 20,000 is the reader's to type.
    ensure!(absent(&w, "chunk-rows").await? && !absent(&w, "chunk-predict").await?);
    Browser::type_into(&w, "chunk-size", "20000").await?;
    reveal(
        &w,
        "chunk-predict",
        &blocks(Strategy::DotnetChunk, SourceKind::Vec, 100_000, 20_000),
    )
    .await?;
    ensure!(Browser::text(&w, "chunk-first").await? == "14, 211,056");
    ensure!(Browser::text(&w, "chunk-dotnet").await? == "211,504, 80,024");
    let mut rng = fresh_rng("chunk sizes");
    let mut cases = vec![(100_000, 25_000, "slice"), (1_000, 100, "vec")];
    for _ in 0..3 {
        let size = 1 + rng.below(40_000);
        let len = size + 1 + rng.below(3 * size);
        cases.push((
            len,
            size,
            ["slice", "vec", "iterator"][rng.below(3) as usize],
        ));
    }
    choose(&w, "chunk-strategy", "dotnet-chunk").await?;
    for (len, size, source) in cases {
        Browser::type_into(&w, "chunk-len", &len.to_string()).await?;
        Browser::type_into(&w, "chunk-size", &size.to_string()).await?;
        choose(&w, "chunk-source", source).await?;
        no_error(&w, "chunk-error").await?;
        let kind = match source {
            "slice" => SourceKind::Slice,
            "vec" => SourceKind::Vec,
            _ => SourceKind::Yielded,
        };
        let (l, s) = (len as usize, size as usize);
        reveal(
            &w,
            "chunk-predict",
            &blocks(Strategy::DotnetChunk, kind, l, s),
        )
        .await?;
        for strategy in [
            Strategy::DotnetChunk,
            Strategy::DotnetEnumerablePath,
            Strategy::CollectVec,
            Strategy::ReusedBuffer,
        ] {
            let key = match strategy {
                Strategy::DotnetChunk => "dotnet-chunk",
                Strategy::DotnetEnumerablePath => "dotnet-enumerable-path",
                Strategy::CollectVec => "collect-vec",
                _ => "reused-buffer",
            };
            let row = w
                .find(By::Css(format!("[data-testid=\"row-{key}\"]")))
                .await?;
            let first = num(&Browser::text(&row, "first-bytes").await?)?;
            let later = num(&Browser::text(&row, "later-bytes").await?)?;
            ensure!(
                first == bytes(strategy, kind, l, s, 0),
                "{key} {len}/{size}/{source}: first {first}"
            );
            ensure!(
                later == bytes(strategy, kind, l, s, 1),
                "{key} {len}/{size}/{source}: later {later}"
            );
        }
        let later_dotnet: u64 = predict_blocks(Strategy::DotnetChunk, kind, l, s, 4, 1)
            .unwrap()
            .iter()
            .map(|b| dotnet_array_bytes(b.len(), 4))
            .sum();
        let row = w
            .find(By::Css("[data-testid=\"row-dotnet-chunk\"]"))
            .await?;
        ensure!(num(&Browser::text(&row, "dotnet-later").await?)? == later_dotnet);
    }
    // The pooled row runs the real SharedPool, already used on this page's thread: a
    // bucket-length buffer, the quiz's answer for the same size, then nothing; the pool's first
    // use (its slot table) is a line of its own.
    // From an array: the random cases above may have left an iterator, from which the pooled
    // chunker grows its first chunk bucket by bucket (16 … 32,768 elements: 262,080 B), since it
    // allocates no more than it has read.
    choose(&w, "chunk-source", "slice").await?;
    Browser::type_into(&w, "chunk-len", "100000").await?;
    Browser::type_into(&w, "chunk-size", "20000").await?;
    choose(&w, "chunk-strategy", "pooled").await?;
    // The pooled strategy's first chunk: one bucket-length buffer.
    reveal(&w, "chunk-predict", "1").await?;
    let row = w.find(By::Css("[data-testid=\"row-pooled\"]")).await?;
    let first = num(&Browser::text(&row, "first-bytes").await?)?;
    ensure!(
        first == pooled_first_bytes(20_000)? && first == 32_768 * 4,
        "{first}"
    );
    ensure!(Browser::text(&row, "later-bytes").await? == "0");
    let first_use = Browser::text(&w, "chunk-pool-first-use").await?;
    let slot_table = first_use.rsplit(", ").next().unwrap_or_default();
    ensure!(num(slot_table)? > 0, "{first_use}");
    ensure!(Browser::text(&w, "chunk-blocks").await?.contains("32,768"));
    // Bad settings are explained.
    choose(&w, "chunk-source", "iterator").await?;
    choose(&w, "chunk-strategy", "slice-chunks").await?;
    error_says(&w, "chunk-error", "needs contiguous data").await?;
    choose(&w, "chunk-strategy", "dotnet-chunk").await?;
    no_error(&w, "chunk-error").await?;
    for (id, typed, says) in [
        ("chunk-size", "0", "at least 1"),
        ("chunk-len", "ten", "not a number"),
        ("chunk-len", "9000000", "at most 4,000,000"),
    ] {
        Browser::type_into(&w, "chunk-len", "1000").await?;
        Browser::type_into(&w, "chunk-size", "100").await?;
        Browser::type_into(&w, id, typed).await?;
        explains(&w, "chunk-error", says, "chunk-first").await?;
    }
    b.finish().await
}
