//! Helpers shared by the chapters' end-to-end tests: widgets, selects, and answering a live
//! quiz as a reader would (wrong, then right), graded against the lab computed natively here.
#![allow(dead_code)]

use anyhow::{Result, anyhow, ensure};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::quiz::Rng;

/// A seed that differs on every run, printed so a failure can be replayed.
pub fn fresh_rng(what: &str) -> Rng {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    eprintln!("{what}: drawn with seed {seed}");
    Rng::new(seed)
}

pub async fn widget(b: &Browser, name: &str) -> Result<WebElement> {
    Ok(b.driver
        .find(By::Css(format!("[data-testid=\"widget-{name}\"]")))
        .await?)
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

/// Asserts the widget shows `says` in its error element, visibly.
pub async fn error_says(root: &WebElement, id: &str, says: &str) -> Result<()> {
    let e = Browser::find(root, id).await?;
    ensure!(
        e.is_displayed().await?,
        "{id}: no message shown (wanted {says:?})"
    );
    let t = e.text().await?;
    ensure!(t.contains(says), "{id}: {t:?} does not say {says:?}");
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
