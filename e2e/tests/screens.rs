//! Every page on every screen (issue 16): nothing wider than the text column and no sideways
//! page scroll at 1280 and 390 px; every text at 4.5:1 or more in all five themes; Thai text in
//! a web font shipped with the book; links to a section below a widget land on the section.

use anyhow::{Result, ensure};
use e2e::Browser;
use e2e::screen::{self, THEMES};

/// Fields beside their labels; label/value lists side by side when wide, stacked when narrow,
/// each value starting where its label starts.
const LAYOUT: &str = r##"
const narrow = arguments[0];
const bad = [];
for (const label of document.querySelectorAll("main label.lab-field:not(.lab-line):not(.lab-wide)")) {
    const input = label.querySelector("input, select");
    const text = [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
    if (!input || !text || label.getClientRects().length === 0) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const t = range.getClientRects()[0];
    const i = input.getBoundingClientRect();
    if (!(i.top < t.bottom && i.bottom > t.top)) {
        bad.push("field " + JSON.stringify(text.textContent.trim()) + " is not beside its label");
    }
}
for (const dd of document.querySelectorAll("main .lab-calc-result dd")) {
    const dt = dd.previousElementSibling;
    if (!dt || dd.getClientRects().length === 0) continue;
    const [a, b] = [dt.getBoundingClientRect(), dd.getBoundingClientRect()];
    const ok = narrow ? Math.abs(a.left - b.left) < 2 && b.top >= a.bottom - 1
                      : b.left >= a.right - 1 && Math.abs(a.top - b.top) < 2;
    if (!ok) {
        bad.push("value of " + JSON.stringify(dt.textContent.trim().slice(0, 40)) +
            (narrow ? " is not under its label" : " is not beside its label"));
    }
}
return bad.slice(0, 10);
"##;

/// WCAG 2.2 AA for normal text.
const MIN_CONTRAST: f64 = 4.5;

#[tokio::test]
async fn nothing_is_wider_than_the_column_at_1280_and_390_px() -> Result<()> {
    let b = Browser::start().await?;
    let mut problems = Vec::new();
    for width in [1280, 390] {
        screen::set_width(&b, width).await?;
        for page in e2e::chapters()? {
            b.open(&page).await?;
            for over in screen::overflow(&b).await? {
                problems.push(format!("{page} at {width} px: {over}"));
            }
            let misplaced: Vec<String> = b
                .driver
                .execute(LAYOUT, vec![serde_json::json!(width < 600)])
                .await?
                .convert()?;
            problems.extend(
                misplaced
                    .into_iter()
                    .map(|m| format!("{page} at {width} px: {m}")),
            );
        }
    }
    ensure!(problems.is_empty(), "{problems:#?}");
    b.finish().await
}

#[tokio::test]
async fn every_text_has_enough_contrast_in_every_theme() -> Result<()> {
    let b = Browser::start().await?;
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in e2e::chapters()? {
        b.open(&page).await?;
        for theme in THEMES {
            screen::set_theme(&b, theme).await?;
            let (n, low) = screen::low_contrast(&b, MIN_CONTRAST).await?;
            ensure!(n > 20, "{page} {theme}: only {n} texts found");
            checked += n;
            problems.extend(low.into_iter().map(|l| format!("{page} {theme}: {l}")));
        }
    }
    eprintln!("{checked} texts checked");
    ensure!(problems.is_empty(), "{problems:#?}");
    b.finish().await
}

#[tokio::test]
async fn thai_text_is_drawn_with_the_books_thai_font() -> Result<()> {
    let b = Browser::start().await?;
    b.open("stale-data.html").await?;
    let (thai, loaded): (bool, Vec<String>) = b
        .driver
        .execute_async(
            r##"const done = arguments[arguments.length - 1];
               const thai = /[\u0E01-\u0E5B]/.test(document.querySelector("main").textContent);
               document.fonts.ready.then(() => done([thai,
                 [...document.fonts].filter((f) => f.status === "loaded" && /E01/i.test(f.unicodeRange))
                   .map((f) => f.family + " " + f.weight)]));"##,
            vec![],
        )
        .await
        .map(|v| v.convert())??;
    ensure!(thai, "stale-data.html shows no Thai text");
    ensure!(
        !loaded.is_empty(),
        "no Thai font face was loaded for the Thai text"
    );
    let fetched: Vec<String> = b
        .driver
        .execute(
            r##"return performance.getEntriesByType("resource").map((e) => e.name)
                 .filter((n) => n.includes("noto-sans-thai") && n.startsWith(location.origin));"##,
            vec![],
        )
        .await?
        .convert()?;
    ensure!(
        !fetched.is_empty(),
        "the Thai font did not come from this site"
    );
    b.finish().await
}

#[tokio::test]
async fn links_to_a_section_below_a_widget_land_on_it() -> Result<()> {
    let b = Browser::start().await?;
    let mut tried = 0;
    for page in e2e::chapters()? {
        b.open(&page).await?;
        // The first section heading after the first widget.
        let id: Option<String> = b
            .driver
            .execute(
                r##"const w = document.querySelector("[data-lab-widget]");
                   if (!w) return null;
                   const h = [...document.querySelectorAll("main h2[id]")]
                     .find((h) => w.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
                   return h ? h.id : null;"##,
                vec![],
            )
            .await?
            .convert()?;
        let Some(id) = id else { continue };
        // A fresh load straight to the section, as from a link in another page.
        b.driver.goto("about:blank").await?;
        b.open(&format!("{page}#{id}")).await?;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let top: f64 = b
            .driver
            .execute(
                "return document.getElementById(arguments[0]).getBoundingClientRect().top;",
                vec![serde_json::json!(id)],
            )
            .await?
            .convert()?;
        ensure!(
            (-5.0..=120.0).contains(&top),
            "{page}#{id}: the section is {top} px from the top of the window after the lab mounted"
        );
        tried += 1;
    }
    ensure!(
        tried >= 5,
        "only {tried} pages have a section after a widget"
    );
    b.finish().await
}
