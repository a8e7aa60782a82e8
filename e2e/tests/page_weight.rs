//! What a chapter costs a phone's first load (issue 40), in what does not depend on the machine:
//! the requests a story chapter makes and, when the server sends gzip as a static host does
//! (`cargo xtask serve` and `cargo xtask test` do), the bytes: at most 15 requests and 200 kB,
//! nothing of highlight.js, mdBook's search or its web fonts, and the page's own wasm module
//! asked for from the head. Times are `cargo xtask bench-site`'s, never a test's.

use anyhow::{Result, ensure};

/// The issue's budget per story chapter.
const MAX_REQUESTS: u64 = 15;
const MAX_BYTES: u64 = 200_000;

/// Files a chapter must not load on its own.
const NOT_LOADED: &[&str] = &[
    "highlight-",
    "elasticlunr",
    "mark-",
    "searcher-",
    "searchindex",
    "open-sans",
    "source-code-pro",
];

#[tokio::test]
async fn each_story_chapter_stays_within_the_phone_budget() -> Result<()> {
    let b = e2e::session().await?;
    // Every load cold, as a first visit: nothing from the cache.
    b.devtools("Network.enable", serde_json::json!({})).await?;
    b.devtools(
        "Network.setCacheDisabled",
        serde_json::json!({ "cacheDisabled": true }),
    )
    .await?;
    let pages: Vec<String> = e2e::chapters()?
        .into_iter()
        .filter(|p| {
            let md = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../book/src")
                .join(p.replace(".html", ".md"));
            std::fs::read_to_string(md).is_ok_and(|t| t.contains("{{#lab-widget"))
        })
        .collect();
    ensure!(pages.len() >= 9, "story chapters found: {pages:?}");
    for page in &pages {
        b.open(page).await?;
        let v = b
            .driver
            .execute(
                r#"const nav = performance.getEntriesByType("navigation")[0];
                   const res = performance.getEntriesByType("resource");
                   return {
                     requests: 1 + res.length,
                     bytes: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),
                     gzip: nav.encodedBodySize < nav.decodedBodySize,
                     files: res.map(r => new URL(r.name).pathname),
                     preloaded: [...document.querySelectorAll('head link[rel="modulepreload"]')]
                       .map(l => new URL(l.href).pathname),
                     modules: [...document.querySelectorAll("[data-lab-widget]")]
                       .map(e => e.getAttribute("data-lab-widget")),
                   };"#,
                vec![],
            )
            .await?
            .json()
            .clone();
        let requests = v["requests"].as_u64().unwrap_or(u64::MAX);
        ensure!(
            requests <= MAX_REQUESTS,
            "{page}: {requests} requests: {}",
            v["files"]
        );
        let files: Vec<&str> = v["files"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str())
            .collect();
        for bad in NOT_LOADED {
            ensure!(
                !files.iter().any(|f| f.contains(bad)),
                "{page} loads {bad}…: {files:?}"
            );
        }
        let preloaded = v["preloaded"].to_string();
        for module in v["modules"].as_array().into_iter().flatten() {
            let own = format!("/wasm/{}/wasm_lab.js", module.as_str().unwrap_or_default());
            ensure!(
                preloaded.contains(&own),
                "{page} does not preload {own}: {preloaded}"
            );
        }
        if v["gzip"] == true {
            let bytes = v["bytes"].as_u64().unwrap_or(u64::MAX);
            ensure!(bytes <= MAX_BYTES, "{page}: {bytes} B transferred");
        }
        b.assert_no_errors().await?;
    }
    b.finish().await
}
