//! Chapter "The large-allocation cliff" as a reader uses it.

mod common;

use anyhow::{Result, ensure};
use common::{absent, choose, explains, fresh_rng, no_error, num, reveal};
use e2e::Browser;
use lab_text::group_digits;
use wasm_lab::chapter::cliff::scenario::{Elem, cliff};

const PAGE: &str = "cliff.html";

#[tokio::test]
async fn cliff_widget_matches_the_lab() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "cliff").await?;
    // Nothing shows before the reader predicts; 81,920 is the reader's to type.
    ensure!(absent(&w, "cliff-pool-loh").await? && !absent(&w, "cliff-predict").await?);
    Browser::enter_into(&w, "cliff-input", "81920").await?;
    let yes = |b: bool| if b { "yes" } else { "no" };
    reveal(
        &w,
        "cliff-predict",
        yes(cliff(81_920, Elem::Byte).pool_in_loh),
    )
    .await?;
    ensure!(Browser::text(&w, "cliff-pool-bucket").await? == "13, 131,072");
    ensure!(
        Browser::text(&w, "cliff-pool-loh")
            .await?
            .starts_with("yes — pushed")
    );
    let mut rng = fresh_rng("cliff sizes");
    let mut cases = vec![
        (84_975, Elem::Byte),
        (84_976, Elem::Byte),
        (65_537, Elem::Byte),
        (21_244, Elem::Int),
        (10_621, Elem::Reference),
        (131_049, Elem::Byte),
    ];
    for _ in 0..5 {
        let elem = Elem::ALL[rng.below(3) as usize];
        cases.push((1 + rng.below(300_000), elem));
    }
    for (n, elem) in cases {
        choose(&w, "cliff-elem", elem.key()).await?;
        Browser::enter_into(&w, "cliff-input", &n.to_string()).await?;
        let c = cliff(n, elem);
        no_error(&w, "cliff-error").await?;
        reveal(&w, "cliff-predict", yes(c.pool_in_loh)).await?;
        ensure!(num(&Browser::text(&w, "cliff-dotnet-bytes").await?)? == c.dotnet_bytes);
        ensure!(
            Browser::text(&w, "cliff-dotnet-loh").await? == yes(c.dotnet_new_in_loh),
            "{n} {elem:?}"
        );
        ensure!(num(&Browser::text(&w, "cliff-first-loh").await?)? == c.first_loh_length);
        let pool = Browser::text(&w, "cliff-pool-loh").await?;
        ensure!(pool.starts_with(yes(c.pool_in_loh)), "{n} {elem:?}: {pool}");
        // The chapter's rule: the heap's chunk under the threshold, whole pages when mapped
        // (the quiz's glibc-chunk answer for the same request).
        let chunk = Browser::text(&w, "cliff-glibc-chunk").await?;
        let served = chunk.split(' ').next().unwrap_or_default();
        ensure!(num(served)? == c.glibc_served.chunk(), "{n}: {chunk}");
        if c.glibc_at_threshold {
            ensure!(chunk.contains(&group_digits(c.glibc_chunk)), "{n}: {chunk}");
        }
        let mmap = Browser::text(&w, "cliff-glibc-mmap").await?;
        ensure!(mmap.starts_with(yes(c.glibc_at_threshold)), "{n}: {mmap}");
        let wasm = Browser::text(&w, "cliff-wasm").await?;
        ensure!(wasm.contains("pages of 64 KiB"), "{n}: {wasm}");
    }
    for (typed, says) in [
        ("", "type a whole number"),
        ("-1", "negative"),
        ("2.5", "whole"),
        ("81 920", "has a space inside"),
    ] {
        Browser::enter_into(&w, "cliff-input", typed).await?;
        explains(&w, "cliff-error", says, "cliff-glibc-chunk").await?;
    }
    Browser::enter_into(&w, "cliff-input", "2,000,000,000").await?;
    no_error(&w, "cliff-error").await?;
    reveal(
        &w,
        "cliff-predict",
        yes(cliff(2_000_000_000, Elem::Byte).pool_in_loh),
    )
    .await?;
    ensure!(
        Browser::text(&w, "cliff-wasm")
            .await?
            .starts_with("not tried")
    );
    b.finish().await
}

/// The drawing moves with the request: a block over glibc's threshold shows the threshold
/// raised after the free, one under it does not, and in the browser it draws this page's memory.
#[tokio::test]
async fn drawing_shows_the_borders_the_request_meets() -> Result<()> {
    use e2e::thirtyfour::prelude::*;
    let (b, w) = common::shared_widget(PAGE, "cliff").await?;
    for (n, raised) in [(200_000, true), (1_000, false), (40_000_000, false)] {
        Browser::enter_into(&w, "cliff-input", &n.to_string()).await?;
        let loh = if cliff(n, Elem::Byte).pool_in_loh {
            "yes"
        } else {
            "no"
        };
        common::reveal(&w, "cliff-predict", loh).await?;
        let d = Browser::find(&w, "cliff-drawing").await?;
        let marks = d
            .find_all(By::Css("[data-testid=\"cliff-draw-raised\"]"))
            .await?;
        ensure!(
            marks.len() == usize::from(raised),
            "{n} B: {} raised-threshold marks",
            marks.len()
        );
        let title = d
            .find(By::Css("title"))
            .await?
            .prop("textContent")
            .await?
            .unwrap_or_default();
        ensure!(
            title.contains(&lab_text::group_digits(n)) && title.contains("pages"),
            "{n} B: {title:?}"
        );
        // The bench's limit for glibc: 32 MiB, the most a free raises the threshold to.
        ensure!(
            raised == cliff(n, Elem::Byte).glibc_threshold_after_free.is_some(),
            "{n} B"
        );
    }
    b.finish().await
}
