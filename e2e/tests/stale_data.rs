//! Chapter "Stale data", used as a reader uses it: the stale-data widget against the lab run
//! natively, bad input, the live quiz answered wrong then right, and no browser errors.

mod common;

use anyhow::{Context, Result, anyhow, ensure};
use common::{absent, drawn_pool, error_says, explains_each, predict, shows_step, step_at, widget};
use e2e::thirtyfour::prelude::*;
use e2e::{Browser, number};
use wasm_lab::chapter::stale_data::scenario::{Scenario, run};

const PAGE: &str = "stale-data.html";

/// The shown counts, as numbers.
async fn counts(w: &WebElement) -> Result<[Option<u64>; 3]> {
    Ok([
        number(&Browser::text(w, "stale-arrival").await?),
        number(&Browser::text(w, "stale-nonzero").await?),
        number(&Browser::text(w, "stale-leaked").await?),
    ])
}

#[tokio::test]
async fn widget_shows_what_the_pool_does() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "stale-data").await?;
    predict(&w, "stale-predict", "16").await?;
    // What the next renter reads shows at the story's end.
    ensure!(
        absent(&w, "stale-leaked").await?,
        "the outcome shows at step 1"
    );
    to_the_end(&b, &w).await?;
    let want = run(&Scenario::default()).map_err(|e| anyhow!("{e}"))?;
    ensure!(Browser::text(&w, "stale-same").await? == "yes");
    ensure!(
        counts(&w).await?
            == [
                Some(want.nonzero_on_arrival as u64),
                Some(want.nonzero_read as u64),
                Some(want.leaked as u64)
            ]
    );
    ensure!(want.leaked == 16 && want.nonzero_on_arrival == 41);
    let leak = Browser::text(&w, "stale-leak-text").await?;
    ensure!(leak == want.leaked_text(), "leaked text {leak:?}");
    ensure!(leak.contains("้ง|2|18000"), "{leak:?}");
    let marked = w
        .find_all(By::Css("[data-testid=\"stale-hex\"] span.lab-leak"))
        .await?;
    ensure!(
        marked.len() == 16,
        "{} bytes marked as leaked",
        marked.len()
    );

    // Return with clearing: a new setting, so a new prediction; the same buffer, nothing left.
    Browser::find(&w, "stale-clear").await?.click().await?;
    ensure!(
        absent(&w, "stale-same").await?,
        "the old prediction graded a new setting"
    );
    predict(&w, "stale-predict", "0").await?;
    to_the_end(&b, &w).await?;
    ensure!(Browser::text(&w, "stale-same").await? == "yes");
    ensure!(counts(&w).await? == [Some(0), Some(25), Some(0)]);
    Browser::find(&w, "stale-clear").await?.click().await?;

    // The reader's own sizes and line, checked against the lab natively.
    for (size2, line2, read) in [
        ("40", "7|x\\n", "41"),
        ("65", "hello", "64"),
        ("64", "", "64"),
    ] {
        Browser::type_into(&w, "stale-size2", size2).await?;
        Browser::type_into(&w, "stale-line2", line2).await?;
        Browser::type_into(&w, "stale-read", read).await?;
        let want = run(&Scenario {
            second_size: size2.parse()?,
            second: wasm_lab::chapter::stale_data::scenario::parse_line(line2)
                .map_err(anyhow::Error::msg)?,
            read: read.parse()?,
            ..Scenario::default()
        })
        .map_err(|e| anyhow!("{e}"))?;
        predict(&w, "stale-predict", &want.leaked.to_string()).await?;
        to_the_end(&b, &w).await?;
        let shown = counts(&w).await?;
        ensure!(
            shown
                == [
                    Some(want.nonzero_on_arrival as u64),
                    Some(want.nonzero_read as u64),
                    Some(want.leaked as u64)
                ],
            "{size2}/{line2}/{read}: shows {shown:?}, lab says {want:?}"
        );
        let same = Browser::text(&w, "stale-same").await?;
        ensure!(same == if want.same_buffer { "yes" } else { "no" });
    }
    b.finish().await
}

#[tokio::test]
async fn widget_explains_bad_input() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "stale-data").await?;
    predict(&w, "stale-predict", "16").await?;
    explains_each(
        &w,
        "stale-error",
        "stale-leaked",
        &[
            ("stale-size1", "16", "only 16 bytes long", "64"),
            ("stale-size1", "-4", "cannot be negative", "64"),
            ("stale-read", "100", "runs past the end", "41"),
            ("stale-read", "lots", "not a number", "41"),
            (
                "stale-line1",
                "bad \\q",
                "not an escape",
                "1042|ต้มยำกุ้ง|2|18000\\n",
            ),
            ("stale-size2", "5000000", "at most 1,048,576", "64"),
        ],
    )
    .await?;
    // Typing "s" into the widget must not open mdBook's search.
    let focused = b.driver.active_element().await?;
    ensure!(focused.attr("data-testid").await?.as_deref() == Some("stale-size2"));
    to_the_end(&b, &w).await?;
    ensure!(Browser::text(&w, "stale-leaked").await? == "16");
    b.finish().await
}

/// The story's pool after each step, as the lab runs it natively.
fn native_steps(s: &Scenario) -> Result<Vec<String>> {
    let (_, snaps) =
        wasm_lab::chapter::stale_data::scenario::run_traced(s).map_err(|e| anyhow!("{e}"))?;
    Ok(wasm_lab::chapter::stale_data::view::steps(&snaps, s)
        .iter()
        .map(|st| st.pool.as_ref().map(|p| p.signature()).unwrap_or_default())
        .collect())
}

/// At a desktop's width and a phone's: nothing of the outcome before the commit, a nudge after a
/// wrong try, a new prediction for a new setting, and every step's pool as the lab draws it.
#[tokio::test]
async fn predict_then_step_through_the_pool() -> Result<()> {
    let b = Browser::start().await?;
    for width in [1280, 390] {
        e2e::screen::set_width(&b, width).await?;
        predict_then_step(&b)
            .await
            .with_context(|| format!("at {width} px"))?;
    }
    b.finish().await
}

async fn predict_then_step(b: &Browser) -> Result<()> {
    let w = b.open_widget(PAGE, "stale-data").await?;
    // The outcome is not shown before the reader commits to a prediction.
    ensure!(absent(&w, "stale-leaked").await? && absent(&w, "stale-steps").await?);
    // Wrong: a nudge and a second try, still no outcome.
    predict(&w, "stale-predict", "0").await?;
    ensure!(
        absent(&w, "stale-verdict").await?,
        "graded after one wrong try"
    );
    ensure!(!Browser::text(&w, "stale-predict-nudge").await?.is_empty());
    ensure!(absent(&w, "stale-leaked").await? && absent(&w, "stale-steps").await?);
    predict(&w, "stale-predict", "16").await?;
    let verdict = Browser::find(&w, "stale-verdict").await?;
    ensure!(verdict.attr("data-held").await?.as_deref() == Some("true"));
    common::click(&Browser::find(&w, "stale-verdict-again").await?).await?;
    ensure!(
        absent(&w, "stale-leaked").await? && absent(&w, "stale-steps").await?,
        "the outcome stays after 'Predict again'"
    );
    predict(&w, "stale-predict", "16").await?;
    let verdict = Browser::find(&w, "stale-verdict").await?;
    ensure!(verdict.attr("data-held").await?.as_deref() == Some("true"));
    // A prediction belongs to its setting: ticking clearArray asks again, it does not re-grade.
    let clear = Browser::find(&w, "stale-clear").await?;
    common::click(&clear).await?;
    ensure!(absent(&w, "stale-verdict").await? && absent(&w, "stale-steps").await?);
    common::text_says(&w, "stale-predict-problem", "setting changed").await?;
    common::click(&Browser::find(&w, "stale-clear").await?).await?;
    ensure!(
        !absent(&w, "stale-verdict").await?,
        "the setting's prediction is back"
    );
    // Forward with the button, each step's pool against the lab's native run of the same steps.
    let want = native_steps(&Scenario::default())?;
    ensure!(want.len() == 6);
    for (i, native) in want.iter().enumerate() {
        shows_step(&w, "stale-steps", i, native).await?;
        if i == 4 {
            common::screenshot(&w, "stale-data-step-5").await?;
        }
        if i + 1 < want.len() {
            common::click(&Browser::find(&w, "stale-steps-next").await?).await?;
        }
    }
    // Back with ← while the story has focus; mdBook's ← (previous chapter) must not fire.
    let url = b.driver.current_url().await?;
    for i in (0..want.len() - 1).rev() {
        Browser::find(&w, "stale-steps")
            .await?
            .send_keys(Key::Left)
            .await?;
        ensure!(
            step_at(&w, "stale-steps").await? == i,
            "← did not step back to {i}"
        );
        ensure!(drawn_pool(&w).await?.1 == want[i], "step {i} drawn after ←");
    }
    ensure!(
        b.driver.current_url().await?.path() == url.path(),
        "← left the chapter"
    );
    // The leaked bytes of the last step are marked in the drawn buffer.
    to_the_end(b, &w).await?;
    let leaked = w
        .find_all(By::Css("[data-testid=\"pool-bytes\"] span.lab-leak"))
        .await?;
    ensure!(leaked.len() == 16, "{} bytes marked stale", leaked.len());
    // The announcement is the step's one sentence.
    let said = b.by_testid("stale-data-announce").await?.text().await?;
    ensure!(
        said.is_empty() || said.starts_with("Step 6 of 6"),
        "{said:?}"
    );
    let said = b
        .driver
        .execute(
            "return document.querySelector('[data-testid=stale-data-announce]').textContent",
            vec![],
        )
        .await?;
    let said: String = serde_json::from_value(said.json().clone())?;
    ensure!(said.starts_with("Step 6 of 6: read a2[0..41]"), "{said:?}");
    Ok(())
}

#[tokio::test]
async fn a_link_opens_a_state_and_hostile_links_get_messages() -> Result<()> {
    let b = Browser::start().await?;
    b.open(&format!(
        "{PAGE}#stale-data:stale-clear=true&stale-predict=0&stale-step=3"
    ))
    .await?;
    let w = widget(&b, "stale-data").await?;
    ensure!(step_at(&w, "stale-steps").await? == 3);
    // What the next renter reads shows at the story's end.
    ensure!(
        absent(&w, "stale-leaked").await?,
        "the outcome shows before the end"
    );
    let want = native_steps(&Scenario {
        clear: true,
        ..Scenario::default()
    })?;
    ensure!(drawn_pool(&w).await?.1 == want[3]);
    to_the_end(&b, &w).await?;
    ensure!(Browser::text(&w, "stale-leaked").await? == "0");
    ensure!(
        Browser::find(&w, "stale-clear")
            .await?
            .is_selected()
            .await?
    );
    // Editing puts the state back in the link.
    Browser::type_into(&w, "stale-read", "30").await?;
    let url = b.driver.current_url().await?;
    ensure!(
        url.fragment().is_some_and(|f| f.contains("stale-read=30")),
        "{url}"
    );
    // A hostile link: the field's usual message, shown as text, and nothing runs.
    b.open(&format!(
        "{PAGE}#stale-data:stale-size1=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&stale-step=99999999999999999999"
    ))
    .await?;
    b.reload().await?;
    let w = widget(&b, "stale-data").await?;
    error_says(&w, "stale-error", "First renter's size: “<img src=x").await?;
    ensure!(w.find_all(By::Css("img")).await?.is_empty());
    b.finish().await
}

/// Steps the story to its end with the "last" button, brought to the middle of the window
/// first (at the top edge mdBook's menu bar covers it).
async fn to_the_end(b: &Browser, w: &WebElement) -> Result<()> {
    let last = Browser::find(w, "stale-steps-last").await?;
    b.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![last.to_json()?],
        )
        .await?;
    last.click().await?;
    // The redraw follows the click's event; wait for it rather than race it.
    for _ in 0..50 {
        let s = Browser::find(w, "stale-steps").await?;
        let (at, n) = (s.attr("data-at").await?, s.attr("data-steps").await?);
        let last = n
            .and_then(|n| n.parse::<usize>().ok())
            .map(|n| n.saturating_sub(1));
        if at.and_then(|a| a.parse::<usize>().ok()) == last {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    anyhow::bail!("the story did not reach its end")
}
