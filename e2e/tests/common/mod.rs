//! Helpers shared by the chapters' end-to-end tests: widgets, selects, and answering a live
//! quiz as a reader would (wrong, then right), graded against the lab computed natively here.
#![allow(dead_code)]

use anyhow::{Context, Result, anyhow, ensure};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::quiz::Rng;

/// A seed that differs on every run, printed so a failure can be replayed.
pub fn fresh_rng(what: &str) -> Rng {
    // `E2E_SEED=<seed>` replays a failed run's draw (the seed is printed with every test).
    let seed = std::env::var("E2E_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    eprintln!("{what}: drawn with seed {seed} (replay with E2E_SEED={seed})");
    Rng::new(seed)
}

pub async fn widget(b: &Browser, name: &str) -> Result<WebElement> {
    b.by_testid(&format!("widget-{name}")).await
}

/// The shared browser on a chapter's page, and the chapter's widget: how most chapter tests start.
pub async fn shared_widget(page: &str, name: &str) -> Result<(e2e::Session, WebElement)> {
    let b = e2e::session_on(page).await?;
    let w = widget(&b, name).await?;
    Ok((b, w))
}

pub use e2e::reader::click;

/// Picks an option of a `<select>` by clicking it, as a reader does.
pub async fn choose(root: &WebElement, id: &str, value: &str) -> Result<()> {
    let select = Browser::find(root, id).await?;
    click(&select).await?;
    let option = select
        .find(By::Css(format!("option[value=\"{value}\"]")))
        .await?;
    option.click().await?;
    Ok(())
}

/// Asserts the widget shows `says` in its error element, visibly. The element is found again
/// if a redraw replaced it between the two reads.
pub async fn error_says(root: &WebElement, id: &str, says: &str) -> Result<()> {
    let read = || async {
        let e = Browser::find(root, id).await?;
        let shown = e.is_displayed().await?;
        Ok::<_, anyhow::Error>((shown, e.text().await?))
    };
    let mut attempts = 0;
    let (shown, t) = loop {
        match read().await {
            Err(e) if e2e::is_stale(&e) && attempts < 4 => attempts += 1,
            read => break read?,
        }
    };
    ensure!(shown, "{id}: no message shown (wanted {says:?})");
    ensure!(t.contains(says), "{id}: {t:?} does not say {says:?}");
    Ok(())
}

/// The element `id` under `root` shows a text containing `part`; the failure quotes what it shows.
pub async fn text_says(root: &WebElement, id: &str, part: &str) -> Result<()> {
    let t = Browser::text(root, id).await?;
    ensure!(t.contains(part), "{id} shows {t:?}, not {part:?}");
    Ok(())
}

/// What a widget does with a bad value: `error` says `says`, visibly, and the result `result` is
/// withdrawn (an old result must not stand under a message about the new input).
pub async fn explains(root: &WebElement, error: &str, says: &str, result: &str) -> Result<()> {
    error_says(root, error, says).await?;
    ensure!(
        absent(root, result).await?,
        "{error} says {says:?}, yet an old result is still shown ({result})"
    );
    Ok(())
}

/// Bad values typed as a reader types them, each then fixed: for every `(field, typed, says, fix)`,
/// typing `typed` into `field` makes `error` say `says` and withdraws `result` ([`explains`]), and
/// typing `fix` clears the message.
pub async fn explains_each(
    root: &WebElement,
    error: &str,
    result: &str,
    cases: &[(&str, &str, &str, &str)],
) -> Result<()> {
    for &(field, typed, says, fix) in cases {
        Browser::type_into(root, field, typed).await?;
        explains(root, error, says, result)
            .await
            .with_context(|| format!("{field}={typed}"))?;
        Browser::type_into(root, field, fix).await?;
        no_error(root, error).await?;
    }
    Ok(())
}

pub async fn no_error(root: &WebElement, id: &str) -> Result<()> {
    let e = Browser::find(root, id).await?;
    ensure!(!e.is_displayed().await?, "{id} shows {:?}", e.text().await?);
    Ok(())
}

/// Numbers as shown ("1,048,576") back to integers.
pub fn num(text: &str) -> Result<u64> {
    e2e::number(text).ok_or_else(|| anyhow!("not a number: {text:?}"))
}

/// Whether the widget shows no element `id` (a result withdrawn for an error).
pub async fn absent(root: &WebElement, id: &str) -> Result<bool> {
    Ok(root
        .find_all(By::Css(format!("[data-testid=\"{id}\"]")))
        .await?
        .is_empty())
}

/// Commits a prediction as a reader does: a choice `{id}-{value}`, or a number typed into
/// `{id}-value`; then "Run it".
pub async fn predict(root: &WebElement, id: &str, value: &str) -> Result<()> {
    let choice = format!("{id}-{value}");
    if absent(root, &choice).await? {
        Browser::type_into(root, &format!("{id}-value"), value).await?;
    } else {
        click(&Browser::find(root, &choice).await?).await?;
    }
    click(&Browser::find(root, &format!("{id}-run")).await?).await
}

/// The step a stepper shows.
pub async fn step_at(root: &WebElement, id: &str) -> Result<usize> {
    let s = Browser::find(root, id).await?;
    Ok(s.attr("data-at").await?.unwrap_or_default().parse()?)
}

/// The stepper `steps` stands at step `i`, and its pool, both the state line the widget wrote and
/// the drawing ([`drawn_pool`]), is `native`: the lab's own run of the same step.
pub async fn shows_step(root: &WebElement, steps: &str, i: usize, native: &str) -> Result<()> {
    let at = step_at(root, steps).await?;
    ensure!(at == i, "{steps} is at step {at}, not {i}");
    let (state, drawn) = drawn_pool(root).await?;
    ensure!(
        state == native && drawn == native,
        "step {i}: widget {state:?}, drawn {drawn:?}, lab {native:?}"
    );
    Ok(())
}

/// The pool as drawn: the state line the widget wrote, and the same line rebuilt from the
/// drawn boxes (slot, partitions, holders), so both the data and the drawing are checked.
pub async fn drawn_pool(root: &WebElement) -> Result<(String, String)> {
    let pool = Browser::find(root, "pool").await?;
    let state = pool.attr("data-state").await?.unwrap_or_default();
    let mut parts = Vec::new();
    for bucket in pool
        .find_all(By::Css("[data-testid=\"pool-bucket\"]"))
        .await?
    {
        let length = bucket.attr("data-length").await?.unwrap_or_default();
        let slot = bucket.find(By::Css("[data-testid=\"pool-slot\"]")).await?;
        let in_slot = slot.find_all(By::Css("[data-buf]")).await?;
        let slot = match in_slot.first() {
            Some(b) => b.attr("data-buf").await?.unwrap_or_default(),
            None => "-".into(),
        };
        let mut line = format!("{length}: slot {slot}");
        for (i, p) in bucket
            .find_all(By::Css("[data-testid=\"pool-partition\"]"))
            .await?
            .iter()
            .enumerate()
        {
            let mut names = Vec::new();
            for b in p.find_all(By::Css("[data-buf]")).await? {
                names.push(b.attr("data-buf").await?.unwrap_or_default());
            }
            let more = match p.find_all(By::Css(".lab-more")).await?.first() {
                Some(m) => m.text().await?,
                None => String::new(),
            };
            line.push_str(&format!(" | p{i} [{}]{more}", names.join(" ")));
        }
        parts.push(line);
    }
    let mut holders = Vec::new();
    for h in pool.find_all(By::Css("[data-testid=\"holder\"]")).await? {
        let name = h.attr("data-name").await?.unwrap_or_default();
        let buf = match h.find_all(By::Css("[data-buf]")).await?.first() {
            Some(b) => b.attr("data-buf").await?.unwrap_or_default(),
            None => "-".into(),
        };
        holders.push(format!("{name}={buf}"));
    }
    parts.push(holders.join(" "));
    if let Some(d) = pool
        .find_all(By::Css("[data-testid=\"pool-dropped\"]"))
        .await?
        .first()
    {
        parts.push(d.text().await?);
    }
    Ok((state, parts.join(" ; ")))
}

/// A screenshot of `el` for a human to look at, when `E2E_SCREENSHOTS` names a directory.
pub async fn screenshot(el: &WebElement, name: &str) -> Result<()> {
    if let Ok(dir) = std::env::var("E2E_SCREENSHOTS") {
        el.scroll_into_view().await?;
        el.screenshot(&std::path::Path::new(&dir).join(format!("{name}.png")))
            .await?;
    }
    Ok(())
}

/// Commits `right`, the lab's own answer, when the slot's question `id` is asked, so a test that
/// explores a widget reads its outcome (the gate itself is checked in `predict_first.rs`).
/// A changed input whose answer stays the same keeps the earlier prediction: nothing is asked.
pub async fn reveal(root: &WebElement, id: &str, right: &str) -> Result<()> {
    if !absent(root, id).await? {
        predict(root, id, right).await?;
        ensure!(
            absent(root, id).await?,
            "{id}: still asked after the lab's own answer {right}"
        );
    }
    Ok(())
}
