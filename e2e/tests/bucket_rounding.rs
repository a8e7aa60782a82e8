//! Chapter "Bucket rounding", used as a reader uses it: the calculator, the live quiz, the cited
//! figure, progress across reloads, and no browser errors along the way.

mod common;

use anyhow::{Context, Result, ensure};
use common::{error_says, fresh_rng};
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
    let b = Browser::start().await?;
    b.open(PAGE).await?;
    let w = b.by_testid("widget-bucket-rounding").await?;
    // The chapter starts the calculator at 100.
    ensure!(Browser::text(&w, "calc-index").await? == "3");
    ensure!(Browser::text(&w, "calc-length").await? == "128");
    ensure!(Browser::text(&w, "calc-wasted").await? == "28");
    for n in sizes() {
        Browser::type_into(&w, "calc-input", &n.to_string()).await?;
        let want = calculate(n);
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
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn calculator_explains_bad_input() -> Result<()> {
    let b = Browser::start().await?;
    b.open(PAGE).await?;
    let w = b.by_testid("widget-bucket-rounding").await?;
    for (typed, says) in [
        ("", "type a whole number"),
        ("-5", "cannot be negative"),
        ("abc", "not a number"),
        ("1e20", "larger than any .NET array"),
        ("1.5", "not a whole number"),
        ("24,41,64", "not one number"),
        ("3000000000", "larger than any .NET array"),
        ("size", "not a number"),
    ] {
        Browser::type_into(&w, "calc-input", typed).await?;
        error_says(&w, "calc-error", says)
            .await
            .with_context(|| format!("typed {typed:?}"))?;
        ensure!(
            common::absent(&w, "calc-length").await?,
            "{typed:?}: stale length shown"
        );
    }
    // Typing "s" must not have opened mdBook's search: the input keeps the focus.
    let focused = b.driver.active_element().await?;
    ensure!(
        focused.attr("data-testid").await?.as_deref() == Some("calc-input"),
        "focus left the widget"
    );
    // Over the largest bucket is not an error: it is explained.
    Browser::type_into(&w, "calc-input", "1073741825").await?;
    ensure!(Browser::text(&w, "calc-index").await? == "none (not pooled)");
    ensure!(
        Browser::text(&w, "calc-why")
            .await?
            .contains("over the largest bucket")
    );
    b.assert_no_errors().await?;
    b.quit().await
}

/// Answers one question wrong, then right, checking the feedback each time.
async fn answer(q: &WebElement) -> Result<()> {
    e2e::reader::answer("bucket-rounding", q, None).await
}

#[tokio::test]
async fn quiz_is_graded_live_and_remembered() -> Result<()> {
    let b = Browser::start().await?;
    b.open(PAGE).await?;
    let quiz = b.by_testid("quiz-bucket-rounding").await?;
    let questions = quiz.find_all(By::Css("[data-testid=\"question\"]")).await?;
    ensure!(questions.len() >= 3, "only {} questions", questions.len());
    for q in &questions {
        answer(q).await?;
    }
    let n = questions.len();
    let score = Browser::text(&quiz, "quiz-score").await?;
    ensure!(
        score == format!("Solved {n} of {n} · {} attempts", 2 * n),
        "score {score:?}"
    );

    // A retry draws a fresh size and clears the feedback; it can be answered again.
    let first = &questions[0];
    let before = first.attr("data-value").await?;
    let mut changed = false;
    for _ in 0..5 {
        Browser::find(first, "next").await?.click().await?;
        changed |= first.attr("data-value").await? != before;
    }
    ensure!(changed, "New values never changed the request");
    ensure!(Browser::text(first, "feedback").await?.is_empty());
    answer(first).await?;

    // Progress survives a reload.
    b.reload().await?;
    let quiz = b.by_testid("quiz-bucket-rounding").await?;
    let score = Browser::text(&quiz, "quiz-score").await?;
    ensure!(
        score == format!("Solved {n} of {n} · {} attempts", 2 * n + 2),
        "after reload {score:?}"
    );

    // Corrupt progress is set aside with a notice, never shown as a score.
    b.driver
        .execute("localStorage.setItem('pools-and-chunks/progress', '{\"version\":1,\"quizzes\":{\"bucket-rounding\":{\"bucket-index\":{\"attempts\":1,\"correct\":5}}}}');", vec![])
        .await?;
    b.reload().await?;
    let quiz = b.by_testid("quiz-bucket-rounding").await?;
    let notice = Browser::find(&quiz, "quiz-notice").await?;
    ensure!(
        notice.is_displayed().await?,
        "no notice for corrupt progress"
    );
    ensure!(notice.text().await?.contains("unreadable"));
    ensure!(Browser::text(&quiz, "quiz-score").await? == format!("Solved 0 of {n} · 0 attempts"));
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn cited_figures_come_from_the_data() -> Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data");
    let data = mdbook_lab::Data::load(&root, std::env::var("LAB_MACHINE").ok().as_deref())?;
    let primary = data.primary().map_err(anyhow::Error::msg)?;
    let b = Browser::start().await?;
    b.open(PAGE).await?;
    let (figs, _claims) = e2e::check_figures(&b, &data).await?;
    ensure!(figs >= 3, "the chapter cites {figs} figures");
    let prov = b.driver.find(By::Css(".lab-prov")).await?.text().await?;
    ensure!(
        prov.contains(&primary.machine.id) && prov.contains(&primary.run.date[..10]),
        "{prov}"
    );
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn print_page_loads_the_lab_too() -> Result<()> {
    let b = Browser::start().await?;
    b.open("print.html").await?;
    let w = b.by_testid("widget-bucket-rounding").await?;
    Browser::type_into(&w, "calc-input", "129").await?;
    ensure!(Browser::text(&w, "calc-length").await? == "256");
    b.assert_no_errors().await?;
    b.quit().await
}
