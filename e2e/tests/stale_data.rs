//! Chapter "Stale data", used as a reader uses it: the stale-data widget against the lab run
//! natively, bad input, the live quiz answered wrong then right, and no browser errors.

mod common;

use anyhow::{Context, Result, anyhow, ensure};
use common::{error_says, no_error, widget};
use e2e::thirtyfour::prelude::*;
use e2e::{Browser, number};
use wasm_lab::scenario::stale_data::{Scenario, run};

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
    let b = e2e::session().await?;
    b.open(PAGE).await?;
    let w = widget(&b, "stale-data").await?;
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

    // Return with clearing: the same buffer, nothing left.
    Browser::find(&w, "stale-clear").await?.click().await?;
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
            second: wasm_lab::scenario::stale_data::parse_line(line2)
                .map_err(anyhow::Error::msg)?,
            read: read.parse()?,
            ..Scenario::default()
        })
        .map_err(|e| anyhow!("{e}"))?;
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
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn widget_explains_bad_input() -> Result<()> {
    let b = e2e::session().await?;
    b.open(PAGE).await?;
    let w = widget(&b, "stale-data").await?;
    for (id, typed, says, fix) in [
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
    ] {
        Browser::type_into(&w, id, typed).await?;
        error_says(&w, "stale-error", says)
            .await
            .with_context(|| format!("{id}={typed}"))?;
        ensure!(
            !Browser::find(&w, "stale-result")
                .await?
                .is_displayed()
                .await?,
            "{id}={typed}: an old result is still shown"
        );
        Browser::type_into(&w, id, fix).await?;
        no_error(&w, "stale-error").await?;
    }
    ensure!(Browser::text(&w, "stale-leaked").await? == "16");
    // Typing "s" into the widget must not open mdBook's search.
    let focused = b.driver.active_element().await?;
    ensure!(focused.attr("data-testid").await?.as_deref() == Some("stale-size2"));
    b.assert_no_errors().await?;
    b.quit().await
}
