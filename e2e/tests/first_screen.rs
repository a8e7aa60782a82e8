//! The first screen of every story chapter (issue 21): the chapter's question and its live
//! experiment. At 1280 × 900 and on a phone's 390 × 844, the page as it opens shows the top of the
//! first live mount point (a widget or a quiz), so the reader can predict and run without
//! scrolling; the conclusions come after it. Screenshots of both first screens, in the light and
//! the coal theme, are saved when `E2E_SCREENSHOTS` names a directory.

use anyhow::{Result, ensure};
use e2e::Browser;
use e2e::screen;
use serde_json::json;

/// The pages that open on an experiment: the story chapters, Method and the introduction.
const STORY: &[&str] = &[
    "introduction.html",
    "why-pool.html",
    "bucket-rounding.html",
    "stale-data.html",
    "return-contract.html",
    "capacity.html",
    "cliff.html",
    "chunking.html",
    "size-specialized.html",
    "method.html",
];

/// Where the first live mount point starts, from the top of the page, and the window's height.
const FIRST_MOUNT: &str = r#"
const m = document.querySelector("main [data-lab-widget], main [data-lab-quiz]");
if (!m) return {top: null, height: innerHeight};
return {top: m.getBoundingClientRect().top + scrollY, height: innerHeight};
"#;

async fn window(b: &Browser, width: u32, height: u32) -> Result<()> {
    b.devtools(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600 }),
    )
    .await
}

#[tokio::test]
async fn every_story_chapter_shows_its_experiment_on_the_first_screen() -> Result<()> {
    let b = Browser::start().await?;
    let mut problems = Vec::new();
    for (width, height) in [(1280, 900), (390, 844)] {
        window(&b, width, height).await?;
        for page in STORY {
            b.open(page).await?;
            let v = b.driver.execute(FIRST_MOUNT, vec![]).await?.json().clone();
            match v["top"].as_f64() {
                None => problems.push(format!("{page}: no live mount point")),
                Some(top) => {
                    let screen = v["height"].as_f64().unwrap_or(f64::from(height));
                    if top >= screen - 40.0 {
                        problems.push(format!(
                            "{page} at {width}×{height}: the first experiment starts at {top:.0} px, below the first screen ({screen:.0} px)"
                        ));
                    }
                }
            }
            let stem = page.trim_end_matches(".html");
            for theme in ["light", "coal"] {
                if std::env::var_os("E2E_SCREENSHOTS").is_some() {
                    screen::set_theme(&b, theme).await?;
                    b.driver.execute("window.scrollTo(0, 0);", vec![]).await?;
                    screen::screenshot(&b, &format!("first-{stem}-{width}-{theme}")).await?;
                }
            }
        }
    }
    ensure!(problems.is_empty(), "{problems:#?}");
    b.finish().await
}
