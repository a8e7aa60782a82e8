//! Chapter "Why pool at all", used as a reader uses it: the why-pool widget's counts against the
//! lab run natively (fresh bytes, pool buffers, break-even from the shown first use), bad input,
//! the live quiz, the cited figures, and no browser errors.

mod common;

use anyhow::{Result, anyhow, ensure};
use common::{absent, explains_each, predict};
use e2e::thirtyfour::prelude::*;
use e2e::{Browser, number};
use wasm_lab::chapter::why_pool::scenario::{break_even, run};

const PAGE: &str = "why-pool.html";

/// "128,000 B" → 128000.
async fn bytes(w: &WebElement, id: &str) -> Result<u64> {
    let shown = Browser::text(w, id).await?;
    number(shown.trim_end_matches(" B")).ok_or_else(|| anyhow!("{id} shows {shown:?}"))
}

/// Commits predictions until the outcome shows: the widget asks first, and two tries are all a
/// prediction gets. Returns the verdict.
async fn predict_and_see(w: &WebElement) -> Result<String> {
    for _ in 0..2 {
        if !absent(w, "why-predict").await? {
            ensure!(
                absent(w, "why-fresh-bytes").await? && absent(w, "why-drawing").await?,
                "the outcome shows before the prediction"
            );
            predict(w, "why-predict", "same").await?;
        }
    }
    Browser::text(w, "why-verdict").await
}

#[tokio::test]
async fn widget_counts_like_the_lab() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "why-pool").await?;
    let mut rng = common::fresh_rng("values");
    let mut cases = vec![(1_000, 128), (1, 128), (10, 128), (1_000_000, 128)];
    cases.push((1 + rng.below(50_000), 1 + rng.below(4_096)));
    for (i, (rounds, size)) in cases.into_iter().enumerate() {
        // The chapter starts the widget at 1,000 rounds of 128 bytes.
        if i > 0 {
            Browser::type_into(&w, "why-rounds", &rounds.to_string()).await?;
            Browser::type_into(&w, "why-size", &size.to_string()).await?;
        }
        let verdict = predict_and_see(&w).await?;
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
        // The pool-buffer-bytes question's answer for the same rounds and size.
        let buffer_bytes = number(&Browser::text(&w, "why-pool-buffer-bytes").await?);
        ensure!(
            buffer_bytes == Some(want.pool_buffer_bytes),
            "{rounds}×{size}"
        );
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
            shown.starts_with(&format!("{} ", lab_text::group_digits(even))),
            "{shown:?}"
        );
        ensure!(!Browser::find(&w, "why-error").await?.is_displayed().await?);
        // The verdict says what the table shows, and which side allocated less decides it.
        let (fresh, pooled) = (want.fresh.bytes, bytes(&w, "why-pool-bytes").await?);
        ensure!(
            verdict.contains(&format!(
                "fresh buffers allocated {} B",
                lab_text::group_digits(fresh)
            )) && verdict.contains(if fresh == pooled {
                "Your prediction held"
            } else {
                "Your prediction did not hold"
            }),
            "{rounds}×{size}: {verdict:?}"
        );
    }
    b.finish().await
}

#[tokio::test]
async fn widget_explains_bad_input() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "why-pool").await?;
    explains_each(
        &w,
        "why-error",
        "why-fresh-bytes",
        &[
            ("why-rounds", "-1", "is negative", "10"),
            ("why-rounds", "5000000", "at most 1,000,000", "10"),
            ("why-size", "1.5", "not a whole number", "128"),
            ("why-size", "70000", "at most 65,536", "128"),
            ("why-rounds", "", "type a whole number", "10"),
        ],
    )
    .await?;
    predict_and_see(&w).await?;
    ensure!(bytes(&w, "why-fresh-bytes").await? == 1_280);
    b.finish().await
}

#[tokio::test]
async fn cited_figures_come_from_the_data() -> Result<()> {
    let data = e2e::book_data()?;
    let b = e2e::session_on(PAGE).await?;
    let (figs, _claims) = e2e::check_figures(&b, &data).await?;
    ensure!(figs > 0, "the chapter cites no figure");
    b.finish().await
}

/// The drawing carries the table's numbers, at both widths: its title names the break-even round
/// the table shows, its lines move when the rounds change, and it fits the column.
#[tokio::test]
async fn drawing_follows_the_counts() -> Result<()> {
    let b = e2e::session().await?;
    for width in [1280, 390] {
        e2e::screen::set_width(&b, width).await?;
        let w = b.open_widget(PAGE, "why-pool").await?;
        ensure!(
            absent(&w, "why-drawing").await? && absent(&w, "why-fresh-bytes").await?,
            "{width}px: the outcome shows before the prediction"
        );
        predict(&w, "why-predict", "pool").await?;
        let drawing = Browser::find(&w, "why-drawing").await?;
        ensure!(drawing.is_displayed().await?, "{width}px: no drawing");
        let title = |d: &WebElement| {
            let d = d.clone();
            async move {
                let t = d.find(By::Css("title")).await?;
                Ok::<_, anyhow::Error>(t.prop("textContent").await?.unwrap_or_default())
            }
        };
        let shown = Browser::text(&w, "why-break-even").await?;
        let even = shown.split(' ').next().unwrap_or_default().to_string();
        let said = title(&drawing).await?;
        ensure!(
            said.contains(&format!("by round {even}")),
            "{width}px: the table says {shown:?}, the drawing {said:?}"
        );
        let points = |w: &WebElement, id: &'static str| {
            let w = w.clone();
            async move {
                Ok::<_, anyhow::Error>(
                    Browser::find(&w, id)
                        .await?
                        .attr("points")
                        .await?
                        .unwrap_or_default(),
                )
            }
        };
        let before = points(&w, "why-draw-fresh").await?;
        Browser::type_into(&w, "why-rounds", "5").await?;
        predict_and_see(&w).await?;
        let after = points(&w, "why-draw-fresh").await?;
        ensure!(before != after, "{width}px: the fresh line did not move");
        let overflow = e2e::screen::overflow(&b).await?;
        ensure!(overflow.is_empty(), "{width}px: {overflow:?}");
    }
    b.finish().await
}
