//! Chapter "Bucket rounding", used as a reader uses it: the calculator, the cited figure, and no
//! browser errors along the way (its quiz, with progress across reloads: `quizzes.rs`).

mod common;

use anyhow::{Context, Result, ensure};
use common::{absent, explains, fresh_rng, reveal};
use e2e::thirtyfour::prelude::*;
use e2e::{Browser, number};
use wasm_lab::calc::calculate;

const PAGE: &str = "bucket-rounding.html";

/// Sizes nobody typed into this test before: drawn fresh on every run, plus the edges.
fn sizes() -> Vec<u64> {
    let mut rng = fresh_rng("calculator sizes");
    let mut sizes = vec![1, 16, 17, 1_025, 65_536, 1_048_577, 1 << 30, (1 << 30) + 1];
    sizes.extend((0..6).map(|_| rng.request()));
    sizes
}

#[tokio::test]
async fn calculator_computes_with_the_lab() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "bucket-rounding").await?;
    // The chapter starts the calculator at 100, and asks before it answers.
    ensure!(absent(&w, "calc-length").await? && !absent(&w, "calc-predict").await?);
    reveal(&w, "calc-predict", &calculate(100).length.to_string()).await?;
    ensure!(Browser::text(&w, "calc-index").await? == "3");
    ensure!(Browser::text(&w, "calc-length").await? == "128");
    ensure!(Browser::text(&w, "calc-wasted").await? == "28");
    for n in sizes() {
        Browser::type_into(&w, "calc-input", &n.to_string()).await?;
        let want = calculate(n);
        reveal(&w, "calc-predict", &want.length.to_string()).await?;
        let index = Browser::text(&w, "calc-index").await?;
        let length = number(&Browser::text(&w, "calc-length").await?);
        let wasted = number(&Browser::text(&w, "calc-wasted").await?);
        match want.index {
            Some(i) => ensure!(index == i.to_string(), "{n}: index {index}, want {i}"),
            None => ensure!(index.starts_with("none"), "{n}: index {index}"),
        }
        ensure!(
            length == Some(want.length),
            "{n}: length {length:?}, want {}",
            want.length
        );
        ensure!(
            wasted == Some(want.wasted),
            "{n}: wasted {wasted:?}, want {}",
            want.wasted
        );
        ensure!(
            !Browser::find(&w, "calc-error")
                .await?
                .is_displayed()
                .await?,
            "{n}: error shown"
        );
    }
    b.finish().await
}

#[tokio::test]
async fn calculator_explains_bad_input() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "bucket-rounding").await?;
    for &(typed, says) in wasm_lab::calc::UNREADABLE_REQUESTS {
        Browser::type_into(&w, "calc-input", typed).await?;
        explains(&w, "calc-error", says, "calc-length")
            .await
            .with_context(|| format!("typed {typed:?}"))?;
    }
    // Typing "s" must not have opened mdBook's search: the input keeps the focus.
    let focused = b.driver.active_element().await?;
    ensure!(
        focused.attr("data-testid").await?.as_deref() == Some("calc-input"),
        "focus left the widget"
    );
    // Over the largest bucket is not an error: it is explained.
    Browser::type_into(&w, "calc-input", "1073741825").await?;
    reveal(
        &w,
        "calc-predict",
        &calculate(1_073_741_825).length.to_string(),
    )
    .await?;
    ensure!(Browser::text(&w, "calc-index").await? == "none (not pooled)");
    common::text_says(&w, "calc-why", "over the largest bucket").await?;
    b.finish().await
}

#[tokio::test]
async fn cited_figures_come_from_the_data() -> Result<()> {
    let data = e2e::book_data()?;
    let primary = data.primary().map_err(anyhow::Error::msg)?;
    let b = e2e::session_on(PAGE).await?;
    let (figs, _claims) = e2e::check_figures(&b, &data).await?;
    // The ratio always; the two times behind it only when the data lets the book print them (the
    // sentence's `{{#when}}` form).
    ensure!(figs >= 1, "the chapter cites {figs} figures");
    // Where the numbers come from: one line at the chapter's end, naming the CPU and linking
    // the chapter's part of the ledger (the machine id, the run and the statistics are there).
    let prov = b.driver.find(By::Css(".lab-prov")).await?;
    let text = prov.text().await?;
    let link = prov.find(By::Css("a")).await?.attr("href").await?;
    ensure!(
        text.contains(&primary.machine.cpu_model)
            && link.as_deref() == Some("instructors.html#ledger-bucket-rounding"),
        "{text} {link:?}"
    );
    b.finish().await
}

#[tokio::test]
async fn print_page_loads_the_lab_too() -> Result<()> {
    let (b, w) = common::shared_widget("print.html", "bucket-rounding").await?;
    Browser::type_into(&w, "calc-input", "129").await?;
    reveal(&w, "calc-predict", &calculate(129).length.to_string()).await?;
    ensure!(Browser::text(&w, "calc-length").await? == "256");
    b.finish().await
}

/// The request slider, on a log scale: dragging to its ends sets the field and the result, and a
/// typed request moves the slider to that size.
#[tokio::test]
async fn the_slider_sets_the_request() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "bucket-rounding").await?;
    let slider = Browser::find(&w, "calc-input-slider").await?;
    slider.scroll_into_view().await?;
    slider.click().await?;
    slider.send_keys(Key::End).await?;
    let max = bufpool::bucket::MAX_BUCKET_LEN as u64;
    let field = Browser::find(&w, "calc-input").await?;
    ensure!(
        number(&field.prop("value").await?.unwrap_or_default()) == Some(max),
        "the slider's end set {:?}",
        field.prop("value").await?
    );
    reveal(&w, "calc-predict", &max.to_string()).await?;
    ensure!(number(&Browser::text(&w, "calc-length").await?) == Some(max));
    // The question's choices took the focus: back to the slider.
    let slider = Browser::find(&w, "calc-input-slider").await?;
    slider.scroll_into_view().await?;
    slider.click().await?;
    slider.send_keys(Key::Home).await?;
    reveal(&w, "calc-predict", &calculate(1).length.to_string()).await?;
    ensure!(Browser::text(&w, "calc-length").await? == "16");
    Browser::type_into(&w, "calc-input", "4096").await?;
    let slider = Browser::find(&w, "calc-input-slider").await?;
    let at = slider.prop("value").await?.unwrap_or_default();
    let want = wasm_lab::view::Slider {
        min: 1,
        max,
        log: true,
    }
    .position(4096);
    ensure!(
        at == want.to_string(),
        "slider at {at} for 4,096, not {want}"
    );
    b.finish().await
}
