//! Chapter "The return contract", used as a reader uses it: each breach in the widget against the
//! lab run natively, checked mode, bad input, the live quiz, and no browser errors.

mod common;

use anyhow::{Context, Result, ensure};
use common::{absent, drawn_pool, error_says, no_error, predict, reveal, shows_step};
use e2e::thirtyfour::prelude::*;
use e2e::{Browser, number};
use wasm_lab::chapter::return_contract::scenario::{
    double_return, foreign_return, forgotten_return, use_after_return,
};

const PAGE: &str = "return-contract.html";

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// A message with its buffer ids (`#1068`, different in every process) blanked.
fn without_ids(message: &str) -> String {
    let mut out = String::new();
    let mut in_id = false;
    for c in message.chars() {
        in_id = (in_id && c.is_ascii_digit()) || c == '#';
        if !in_id || c == '#' {
            out.push(c);
        }
    }
    out
}

/// What the widget shows for the current fields, checked against the lab run natively.
async fn check_all(
    w: &WebElement,
    checked: bool,
    values: (u8, u8, u8, usize, u8, u64),
) -> Result<()> {
    let (v, fresh, stale, length, mine, rounds) = values;
    let dr = double_return(v, true, checked)?;
    ensure!(Browser::text(w, "dr-same").await? == yes_no(dr.same_buffer));
    ensure!(number(&Browser::text(w, "dr-r2").await?) == Some(dr.r2_reads.into()));
    let second = Browser::text(w, "dr-second").await?;
    match &dr.second_return {
        None => ensure!(second == "accepted, no error", "{second:?}"),
        Some(e) => ensure!(without_ids(&second).contains(&without_ids(e)), "{second:?}"),
    }
    let uar = use_after_return(fresh, stale, checked)?;
    // Each misuse asks first; the lab's own answer reveals it.
    let landed = uar.same_buffer && uar.stale_write.is_none();
    reveal(w, "uar-predict", if landed { "stale" } else { "fresh" }).await?;
    ensure!(Browser::text(w, "uar-same").await? == yes_no(uar.same_buffer));
    ensure!(number(&Browser::text(w, "uar-reads").await?) == Some(uar.fresh_reads.into()));
    let fr = foreign_return(length, mine, checked)?;
    reveal(w, "fr-predict", yes_no(fr.refused.is_none())).await?;
    let shown = Browser::text(w, "fr-return").await?;
    match &fr.refused {
        None => ensure!(shown == "accepted, no error", "{shown:?}"),
        Some(e) => ensure!(without_ids(&shown).contains(&without_ids(e)), "{shown:?}"),
    }
    ensure!(Browser::text(w, "fr-same").await? == yes_no(fr.next_is_mine));
    if let Some(x) = fr.next_reads {
        ensure!(number(&Browser::text(w, "fr-reads").await?) == Some(x.into()));
    }
    let with = forgotten_return(rounds, true)?;
    let without = forgotten_return(rounds, false)?;
    reveal(w, "mf-predict", &without.new_buffers.to_string()).await?;
    ensure!(number(&Browser::text(w, "mf-stock").await?) == Some(with.stock as u64));
    ensure!(number(&Browser::text(w, "mf-with").await?) == Some(with.new_buffers));
    ensure!(number(&Browser::text(w, "mf-without").await?) == Some(without.new_buffers));
    Ok(())
}

#[tokio::test]
async fn widget_shows_each_breach_live() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "return-contract").await?;
    predict(&w, "dr-predict", "yes").await?;
    // The chapter's defaults are the article's values.
    check_all(&w, false, (11, 200, 99, 128, 77, 100)).await?;
    ensure!(Browser::text(&w, "dr-r2").await? == "11");
    ensure!(Browser::text(&w, "uar-reads").await? == "99");
    ensure!(Browser::text(&w, "fr-reads").await? == "77");
    // The missing finally opens past the pool's stock of 33, where the forgotten return costs.
    ensure!(
        Browser::text(&w, "mf-without").await? == "67",
        "100 rounds against a stock of 33"
    );

    // Fresh values, as a reader would try them.
    let mut rng = common::fresh_rng("values");
    // Never the default 11: the same value would be the same setting, with its prediction kept.
    let v = 12 + rng.below(244) as u8;
    let length = [100usize, 256, 1000, 1024][rng.below(4) as usize];
    let rounds = 34 + rng.below(5000);
    Browser::type_into(&w, "dr-value", &v.to_string()).await?;
    Browser::type_into(&w, "fr-length", &length.to_string()).await?;
    Browser::type_into(&w, "mf-rounds", &rounds.to_string()).await?;
    // A new r1[0] is a new setting: the double return asks for a new prediction.
    ensure!(
        absent(&w, "dr-same").await?,
        "an old prediction graded a new setting"
    );
    predict(&w, "dr-predict", "yes").await?;
    check_all(&w, false, (v, 200, 99, length, 77, rounds)).await?;
    ensure!(Browser::text(&w, "mf-with").await? == "0");

    // Checked mode reports every breach as an error.
    let checked = Browser::find(&w, "contract-checked").await?;
    // Bring it to the middle of the window: at the top edge mdBook's menu bar covers it.
    b.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![checked.to_json()?],
        )
        .await?;
    checked.click().await?;
    // Checked mode is another setting too: predict again (two buffers, now).
    ensure!(
        absent(&w, "dr-verdict").await?,
        "checked mode re-graded the old prediction"
    );
    common::text_says(&w, "dr-predict-problem", "setting changed").await?;
    predict(&w, "dr-predict", "no").await?;
    check_all(&w, true, (v, 200, 99, length, 77, rounds)).await?;
    common::text_says(&w, "dr-second", "returned twice").await?;
    common::text_says(&w, "uar-write", "used after it was returned").await?;
    b.finish().await
}

#[tokio::test]
async fn widget_explains_bad_input() -> Result<()> {
    let (b, w) = common::shared_widget(PAGE, "return-contract").await?;
    predict(&w, "dr-predict", "yes").await?;
    for (id, error, typed, says) in [
        ("dr-value", "dr-error", "300", "does not fit in a byte"),
        ("uar-fresh", "uar-error", "-2", "is negative"),
        (
            "fr-length",
            "fr-error",
            "3000000000",
            "larger than any .NET array",
        ),
        ("fr-length", "fr-error", "2000000", "at most 1,048,576"),
        ("mf-rounds", "mf-error", "many", "not a number"),
    ] {
        Browser::type_into(&w, id, typed).await?;
        error_says(&w, error, says)
            .await
            .with_context(|| format!("{id}={typed}"))?;
        Browser::type_into(&w, id, "16").await?;
        no_error(&w, error).await?;
    }
    b.finish().await
}

#[tokio::test]
async fn double_return_predicted_then_stepped() -> Result<()> {
    let b = Browser::start().await?;
    let w = b.open_widget(PAGE, "return-contract").await?;
    ensure!(
        absent(&w, "dr-same").await?,
        "the outcome shows before a prediction"
    );
    // A wrong first try: a nudge and a second try, the outcome still hidden.
    predict(&w, "dr-predict", "no").await?;
    ensure!(absent(&w, "dr-verdict").await? && absent(&w, "dr-same").await?);
    ensure!(!Browser::text(&w, "dr-predict-nudge").await?.is_empty());
    predict(&w, "dr-predict", "no").await?;
    let v = Browser::find(&w, "dr-verdict").await?;
    ensure!(v.attr("data-held").await?.as_deref() == Some("false"));
    common::click(&Browser::find(&w, "dr-verdict-again").await?).await?;
    predict(&w, "dr-predict", "yes").await?;
    let v = Browser::find(&w, "dr-verdict").await?;
    ensure!(v.attr("data-held").await?.as_deref() == Some("true"));
    let (_, snaps) =
        wasm_lab::chapter::return_contract::scenario::double_return_traced(11, true, false)?;
    let want: Vec<String> = wasm_lab::chapter::return_contract::view::steps(&snaps)
        .iter()
        .map(|s| s.pool.as_ref().map(|p| p.signature()).unwrap_or_default())
        .collect();
    // The same buffer twice in the pool, then in two renters' hands.
    ensure!(want[2] == "64: slot A | p0 [A] ; x=A", "{want:?}");
    ensure!(want[4] == "64: slot - | p0 [] ; x=A r1=A r2=A", "{want:?}");
    for (i, native) in want.iter().enumerate() {
        shows_step(&w, "dr-steps", i, native).await?;
        if i == 2 {
            let dr = Browser::find(&w, "dr-result").await?;
            common::screenshot(&dr, "double-return-step-3").await?;
        }
        if i + 1 < want.len() {
            Browser::find(&w, "dr-steps")
                .await?
                .send_keys(Key::Right)
                .await?;
        }
    }
    for i in (0..want.len() - 1).rev() {
        common::click(&Browser::find(&w, "dr-steps-prev").await?).await?;
        ensure!(drawn_pool(&w).await?.1 == want[i], "back to step {i}");
    }
    b.finish().await
}
