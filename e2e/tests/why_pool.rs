//! Chapter "Why pool at all", used as a reader uses it: the why-pool widget's counts against the
//! lab run natively (fresh bytes, pool buffers, break-even from the shown first use), bad input,
//! the live quiz, the cited figures, and no browser errors.

mod common;

use anyhow::{Context, Result, anyhow, ensure};
use common::{error_says, no_error, widget};
use e2e::thirtyfour::prelude::*;
use e2e::{Browser, number};
use wasm_lab::chapter::why_pool::scenario::{break_even, run};

const PAGE: &str = "why-pool.html";

/// "128,000 B" → 128000.
async fn bytes(w: &WebElement, id: &str) -> Result<u64> {
    let shown = Browser::text(w, id).await?;
    number(shown.trim_end_matches(" B")).ok_or_else(|| anyhow!("{id} shows {shown:?}"))
}

#[tokio::test]
async fn widget_counts_like_the_lab() -> Result<()> {
    let b = e2e::session().await?;
    b.open(PAGE).await?;
    let w = widget(&b, "why-pool").await?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    eprintln!("values drawn with seed {seed}");
    let mut rng = wasm_lab::quiz::Rng::new(seed);
    let mut cases = vec![(1_000, 128), (1, 128), (10, 128), (1_000_000, 128)];
    cases.push((1 + rng.below(50_000), 1 + rng.below(4_096)));
    for (i, (rounds, size)) in cases.into_iter().enumerate() {
        // The chapter starts the widget at 1,000 rounds of 128 bytes.
        if i > 0 {
            Browser::type_into(&w, "why-rounds", &rounds.to_string()).await?;
            Browser::type_into(&w, "why-size", &size.to_string()).await?;
        }
        let want = run(rounds, size)?;
        let fresh_allocs = number(&Browser::text(&w, "why-fresh-allocs").await?);
        ensure!(
            fresh_allocs == Some(want.fresh.allocations),
            "{rounds}×{size}: {fresh_allocs:?}"
        );
        ensure!(
            bytes(&w, "why-fresh-bytes").await? == want.fresh.bytes,
            "{rounds}×{size}"
        );
        ensure!(number(&Browser::text(&w, "why-later-allocs").await?) == Some(0));
        ensure!(bytes(&w, "why-later-bytes").await? == 0);
        ensure!(number(&Browser::text(&w, "why-pool-buffers").await?) == Some(want.pool_buffers));
        // First use as measured in the page; the break-even follows from it by the lab's rule.
        let first = bytes(&w, "why-setup-bytes").await? + bytes(&w, "why-first-bytes").await?;
        ensure!(
            first >= want.pool_buffer_bytes,
            "first use {first} < one buffer"
        );
        ensure!(bytes(&w, "why-pool-bytes").await? == first);
        let even = break_even(first, size).ok_or_else(|| anyhow!("no break-even"))?;
        let shown = Browser::text(&w, "why-break-even").await?;
        ensure!(
            shown.starts_with(&format!("{} ", wasm_lab::input::group_digits(even))),
            "{shown:?}"
        );
        ensure!(!Browser::find(&w, "why-error").await?.is_displayed().await?);
    }
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn widget_explains_bad_input() -> Result<()> {
    let b = e2e::session().await?;
    b.open(PAGE).await?;
    let w = widget(&b, "why-pool").await?;
    for (id, typed, says, fix) in [
        ("why-rounds", "-1", "is negative", "10"),
        ("why-rounds", "5000000", "at most 1,000,000", "10"),
        ("why-size", "1.5", "not a whole number", "128"),
        ("why-size", "70000", "at most 65,536", "128"),
        ("why-rounds", "", "type a whole number", "10"),
    ] {
        Browser::type_into(&w, id, typed).await?;
        error_says(&w, "why-error", says)
            .await
            .with_context(|| format!("{id}={typed}"))?;
        ensure!(
            common::absent(&w, "why-fresh-bytes").await?,
            "an old result is still shown"
        );
        Browser::type_into(&w, id, fix).await?;
        no_error(&w, "why-error").await?;
    }
    ensure!(bytes(&w, "why-fresh-bytes").await? == 1_280);
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn cited_figures_come_from_the_data() -> Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data");
    let data = mdbook_lab::Data::load(&root, std::env::var("LAB_MACHINE").ok().as_deref())?;
    let b = e2e::session().await?;
    b.open(PAGE).await?;
    let (figs, _claims) = e2e::check_figures(&b, &data).await?;
    ensure!(figs > 0, "the chapter cites no figure");
    b.assert_no_errors().await?;
    b.quit().await
}
