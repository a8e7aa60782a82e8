//! `cargo xtask bench-site` runs this (issue 40): each chapter with a widget loaded cold (a fresh
//! browser profile) at 390 × 844 over an emulated Slow 4G link (150 ms round trip, 1.6 Mbit/s
//! down, 750 kbit/s up: DevTools' `Network.emulateNetworkConditions`), from the server at
//! `BOOK_URL`. Per page: the bytes transferred (the document and every resource, headers
//! included, as Resource Timing's `transferSize` reports them), the requests, and the time from
//! navigation to the first widget going live (`data-lab-live`, set by the lab's `mountAll`).
//! Prints the report as JSON on stdout. A bench, not a test: the times are never judged here.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use e2e::Browser;
use serde_json::json;

/// The emulated link: Chrome DevTools' "Slow 4G" preset.
const LATENCY_MS: u64 = 150;
const DOWN_BITS: u64 = 1_600_000;
const UP_BITS: u64 = 750_000;
const WIDTH: u64 = 390;
const HEIGHT: u64 = 844;

/// Installed before the page's scripts: the time the first widget goes live.
const LIVE_HOOK: &str = r#"
window.__labLiveAt = null;
new MutationObserver(function (_, observer) {
  if (document.querySelector("[data-lab-widget][data-lab-live]")) {
    window.__labLiveAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-lab-live"] });
"#;

/// What the page loaded, once the lab is ready and the load event has fired.
const READ: &str = r#"
const nav = performance.getEntriesByType("navigation")[0];
const res = performance.getEntriesByType("resource");
const files = res.map(r => [new URL(r.name).pathname, r.transferSize]);
return {
  bytes: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),
  requests: 1 + res.length,
  live_ms: window.__labLiveAt,
  complete: document.readyState === "complete",
  files: files,
};
"#;

#[tokio::main]
async fn main() -> Result<()> {
    let pages: Vec<String> = e2e::chapters()?
        .into_iter()
        .filter(|p| {
            let md = p.replace(".html", ".md");
            std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../book/src")
                    .join(md),
            )
            .is_ok_and(|t| t.contains("{{#lab-widget"))
        })
        .collect();
    let mut rows = Vec::new();
    for page in &pages {
        eprintln!("bench-site: {page}");
        rows.push(load_cold(page).await.with_context(|| page.clone())?);
    }
    let report = json!({
        "link": {
            "latency_ms": LATENCY_MS,
            "down_bits_per_s": DOWN_BITS,
            "up_bits_per_s": UP_BITS,
            "viewport": [WIDTH, HEIGHT],
        },
        "pages": rows,
    });
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

async fn load_cold(page: &str) -> Result<serde_json::Value> {
    let b = Browser::start().await?;
    b.before_every_page(LIVE_HOOK).await?;
    b.devtools("Network.enable", json!({})).await?;
    b.devtools("Network.setCacheDisabled", json!({ "cacheDisabled": true }))
        .await?;
    b.devtools(
        "Network.emulateNetworkConditions",
        json!({
            "offline": false,
            "latency": LATENCY_MS,
            "downloadThroughput": DOWN_BITS / 8,
            "uploadThroughput": UP_BITS / 8,
        }),
    )
    .await?;
    b.devtools(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": true }),
    )
    .await?;
    b.open(page).await?;
    // Fonts and late requests settle after the lab is ready: read once the load event has fired
    // and two reads a second apart agree.
    let mut last = serde_json::Value::Null;
    for _ in 0..60 {
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let v = b.driver.execute(READ, vec![]).await?.json().clone();
        let settled = v["complete"] == true
            && !v["live_ms"].is_null()
            && v["requests"] == last["requests"]
            && v["bytes"] == last["bytes"];
        last = v;
        if settled {
            b.quit().await?;
            return Ok(json!({
                "page": page,
                "bytes": last["bytes"],
                "requests": last["requests"],
                "live_ms": last["live_ms"].as_f64().map(f64::round),
                "files": last["files"],
            }));
        }
    }
    b.quit().await?;
    bail!("{page} did not settle within a minute: {last}")
}
