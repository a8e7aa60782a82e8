//! The page as different readers see it: mdBook's five themes, a phone-sized window, what is
//! wider than the text column, and the contrast of every text, computed from rendered colours.

use anyhow::{Context, Result, bail};
use serde_json::json;
use thirtyfour::prelude::*;

use crate::Browser;

/// mdBook's themes, by the id of their button (`#mdbook-theme-{id}`).
pub const THEMES: [&str; 5] = ["light", "rust", "coal", "navy", "ayu"];

/// Switches the theme as a reader does: the theme button in the menu bar, then the theme.
pub async fn set_theme(b: &Browser, theme: &str) -> Result<()> {
    // The menu bar is at the top of the page; the theme list stays open after a choice.
    b.driver.execute("window.scrollTo(0, 0);", vec![]).await?;
    let list = b
        .driver
        .find(By::Id("mdbook-theme-list"))
        .await
        .context("no theme list in the menu bar")?;
    if !list.is_displayed().await? {
        b.driver
            .find(By::Id("mdbook-theme-toggle"))
            .await
            .context("no theme button in the menu bar")?
            .click()
            .await?;
    }
    b.driver
        .query(By::Id(format!("mdbook-theme-{theme}")))
        .and_displayed()
        .first()
        .await
        .with_context(|| format!("no {theme} theme in the theme list"))?
        .click()
        .await?;
    let class: String = b
        .driver
        .execute("return document.documentElement.className;", vec![])
        .await?
        .convert()?;
    if !class.split_whitespace().any(|c| c == theme) {
        bail!("the page did not switch to {theme}: <html class={class:?}>");
    }
    Ok(())
}

/// Lays the page out as a window `width` CSS pixels wide (a phone is 390).
pub async fn set_width(b: &Browser, width: u32) -> Result<()> {
    b.devtools(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
    )
    .await
}

const OVERFLOW: &str = r##"
const main = document.querySelector("main");
const col = main.getBoundingClientRect();
const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.getAttribute("class") ? "." + el.getAttribute("class").trim().split(/\s+/).join(".") : "") +
    (el.dataset.testid ? "[" + el.dataset.testid + "]" : "");
const scrolled = (el) => {
    for (let p = el.parentElement; p && p !== main; p = p.parentElement) {
        if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
};
const bad = [];
for (const el of main.querySelectorAll("*")) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if ((r.right > col.right + 1 || r.left < col.left - 1) && !scrolled(el)) {
        bad.push(name(el) + " spans " + Math.round(r.left) + "–" + Math.round(r.right) +
            " px, the column " + Math.round(col.left) + "–" + Math.round(col.right));
    }
}
const page = document.scrollingElement;
if (page.scrollWidth > page.clientWidth + 1) {
    bad.push("the page scrolls sideways: " + page.scrollWidth + " px in a " + page.clientWidth + " px window");
}
return bad.slice(0, 15);
"##;

/// What on the open page is wider than the text column (outside a box that scrolls), and
/// whether the page itself scrolls sideways; empty when the page fits.
pub async fn overflow(b: &Browser) -> Result<Vec<String>> {
    Ok(b.driver.execute(OVERFLOW, vec![]).await?.convert()?)
}

const CONTRAST: &str = r##"
const min = arguments[0];
const rgba = (s) => {
    const m = /rgba?\(([^)]+)\)/.exec(s || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter((x) => x).map(parseFloat);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (t, b) => [0, 1, 2].map((i) => t[i] * t[3] + b[i] * (1 - t[3])).concat([1]);
const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const chain = (el) => { const c = []; for (let e = el; e; e = e.parentElement) c.unshift(e); return c; };
const name = (el) => el.tagName.toLowerCase() + (el.getAttribute("class") ? "." + el.getAttribute("class").trim().split(/\s+/).join(".") : "");
document.querySelectorAll("main details").forEach((d) => { d.open = true; });
// Status colours appear only after a reader's input: probe each where it is shown.
const probes = [];
const probe = (root, html) => {
    if (!root) return;
    const p = document.createElement("p");
    p.dataset.contrastProbe = "";
    p.innerHTML = html;
    root.appendChild(p);
    probes.push(p);
};
const statuses = '<span class="lab-error">error</span> <span class="lab-feedback lab-correct">correct</span> ' +
    '<span class="lab-feedback lab-wrong">wrong</span> <span class="lab-feedback lab-hint">hint</span> ' +
    '<span class="lab-verdict lab-bad">bad</span> <span class="lab-verdict lab-ok">ok</span> ' +
    '<span class="lab-claim lab-claim-ok">ok</span> <span class="lab-claim lab-claim-broken">broken</span> ' +
    '<span class="lab-claim lab-claim-open">open</span> <span class="lab-fig lab-unfit">not citable</span>';
probe(document.querySelector("main [data-lab-widget]"), statuses);
probe(document.querySelector("main [data-lab-quiz]"), statuses);
probe(document.querySelector("main"), statuses);
const bad = [];
let checked = 0;
for (const el of document.querySelectorAll("main *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    // Inactive controls are exempt from WCAG's contrast minimum (1.4.3).
    if (el.closest(':disabled, [aria-disabled="true"]')) continue;
    let bg = [255, 255, 255, 1];
    let opacity = 1;
    for (const e of chain(el)) {
        const s = getComputedStyle(e);
        const c = rgba(s.backgroundColor);
        if (c && c[3] > 0) bg = over(c, bg);
        opacity *= parseFloat(s.opacity);
    }
    const fg = rgba(el instanceof SVGElement ? style.fill : style.color);
    if (!fg) continue;
    fg[3] *= opacity;
    const r = ratio(over(fg, bg), bg);
    checked += 1;
    if (r < min) {
        bad.push(r.toFixed(2) + ":1 " + name(el) + " " + JSON.stringify(el.textContent.trim().slice(0, 40)) +
            " (" + (el instanceof SVGElement ? style.fill : style.color) + " on rgb(" + bg.slice(0, 3).map(Math.round) + "))");
    }
}
probes.forEach((p) => p.remove());
return [checked, bad.slice(0, 12)];
"##;

/// Every text on the open page with less than `min`:1 contrast against the background it is
/// drawn on (colours as rendered, opacity and translucent backgrounds included), and how many
/// texts were checked. Closed `<details>` are opened first, so their text counts too.
pub async fn low_contrast(b: &Browser, min: f64) -> Result<(usize, Vec<String>)> {
    Ok(b.driver
        .execute(CONTRAST, vec![json!(min)])
        .await?
        .convert()?)
}

/// Saves a screenshot as `$E2E_SCREENSHOTS/{name}.png` when that variable names a directory.
pub async fn screenshot(b: &Browser, name: &str) -> Result<()> {
    let Some(dir) = std::env::var_os("E2E_SCREENSHOTS") else {
        return Ok(());
    };
    // mdBook leaves its theme list open after a choice; it would cover the page.
    b.driver
        .execute(
            "document.getElementById('mdbook-theme-list').style.display = 'none';",
            vec![],
        )
        .await?;
    let png = b.driver.screenshot_as_png().await?;
    std::fs::create_dir_all(&dir)?;
    std::fs::write(std::path::Path::new(&dir).join(format!("{name}.png")), png)?;
    Ok(())
}
