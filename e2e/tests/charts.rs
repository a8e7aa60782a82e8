//! Charts (`{{#chart}}`) as readers see them: on their page in every theme, drawn in the theme's
//! colours, their table mirror equal to `book/data`, and no wider than the column on a phone.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail, ensure};
use e2e::Browser;
use e2e::screen::{self, THEMES};
use e2e::thirtyfour::prelude::*;

/// Which page draws each chart, read from the chapters' `{{#chart NAME}}` lines.
fn pages() -> Result<BTreeMap<String, Vec<String>>> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src");
    let mut pages: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for page in e2e::chapters()? {
        let md = src.join(page.replace(".html", ".md"));
        let text = std::fs::read_to_string(&md).with_context(|| md.display().to_string())?;
        for rest in text.split("{{#chart ").skip(1) {
            let name = rest.split("}}").next().unwrap_or_default().trim();
            pages
                .entry(page.clone())
                .or_default()
                .push(name.to_string());
        }
    }
    Ok(pages)
}

#[tokio::test]
async fn every_chart_is_on_its_page_in_every_theme() -> Result<()> {
    let pages = pages()?;
    let placed: Vec<&String> = pages.values().flatten().collect();
    for name in mdbook_lab::chart_names() {
        ensure!(
            placed.iter().any(|p| *p == name),
            "chart `{name}` is on no page"
        );
    }
    let b = Browser::start().await?;
    for (page, names) in &pages {
        b.open(page).await?;
        let mut strokes: Vec<String> = Vec::new();
        for theme in THEMES {
            screen::set_theme(&b, theme).await?;
            for name in names {
                let chart = b.by_testid(&format!("chart-{name}")).await?;
                chart.scroll_into_view().await?;
                ensure!(
                    chart.is_displayed().await?,
                    "{page} {theme}: chart {name} hidden"
                );
                let svg = chart.find(By::Css("svg.lab-chart-svg")).await?;
                let size = svg.rect().await?;
                ensure!(
                    size.width > 200.0 && size.height > 100.0,
                    "{page} {theme}: chart {name} is {size:?}"
                );
                // Drawn in the theme's colours: text in the page's text colour, nothing baked.
                let colours: Vec<String> = b
                    .driver
                    .execute(
                        r##"const svg = arguments[0].querySelector("svg.lab-chart-svg");
                           const baked = svg.querySelectorAll("[fill^='#'], [stroke^='#']").length;
                           const text = svg.querySelector("text");
                           // The first series as plotted; none when the data left every
                           // point of the plot a gap (then the chart's note must say so).
                           const plotted = svg.querySelector(".lab-s0");
                           const note = arguments[0].querySelector("[data-testid=chart-note]");
                           return [String(baked), getComputedStyle(text).fill,
                                   getComputedStyle(document.body).color,
                                   plotted === null ? "" : getComputedStyle(plotted).stroke,
                                   String(plotted !== null || (note !== null && note.textContent.length > 0))];"##,
                        vec![chart.to_json()?],
                    )
                    .await?
                    .convert()?;
                ensure!(colours[0] == "0", "{page}: chart {name} bakes in colours");
                ensure!(
                    colours[4] == "true",
                    "{page}: chart {name} draws no series and its note does not say why"
                );
                ensure!(
                    colours[1] == colours[2],
                    "{page} {theme}: chart {name} text is {}, the page's text {}",
                    colours[1],
                    colours[2]
                );
                if name == &names[0] && !colours[3].is_empty() {
                    strokes.push(colours[3].clone());
                }
                screen::screenshot(&b, &format!("{name}-{theme}-1280")).await?;
            }
        }
        // (A page whose first chart draws nothing on this data has no series colour to compare.)
        ensure!(
            strokes.len() < THEMES.len() || strokes[0] != strokes[2],
            "{page}: a series is {} in light and coal alike",
            strokes[0]
        );
    }
    b.finish().await
}

#[tokio::test]
async fn every_table_mirror_holds_the_data_files_numbers() -> Result<()> {
    let data = e2e::book_data()?;
    let b = Browser::start().await?;
    let mut rows_checked = 0;
    for page in pages()?.keys() {
        b.open(page).await?;
        let rows: Vec<(String, String, String)> = b
            .driver
            .execute(
                r##"return [...document.querySelectorAll(".lab-chart tr[data-key]")].map((tr) =>
                     [tr.dataset.key, tr.dataset.machine,
                      tr.querySelector(".lab-chart-value").textContent]);"##,
                vec![],
            )
            .await?
            .convert()?;
        ensure!(!rows.is_empty(), "{page}: no chart table rows");
        for (key, machine, shown) in rows {
            let Some(file) = data.files().iter().find(|f| f.stem() == machine) else {
                bail!("{page}: {key} from unknown machine {machine}");
            };
            match file.figures.get(&key) {
                Some(f) if mdbook_lab::citable(f) => ensure!(
                    shown == mdbook_lab::format_value(f.unit, f.value),
                    "{page}: {key} on {machine} shows {shown:?}, the data says {}",
                    f.value
                ),
                Some(f) => ensure!(
                    // A story chapter's mirror says only a dash; the reason is in the ledger.
                    shown.starts_with("not citable") || shown == "—",
                    "{page}: {key} is {:?} but shows {shown:?}",
                    f.verdict
                ),
                None => ensure!(shown == "not measured", "{page}: {key} shows {shown:?}"),
            }
            rows_checked += 1;
        }
    }
    eprintln!("{rows_checked} table rows checked");
    b.finish().await
}

#[tokio::test]
async fn charts_fit_the_column_on_a_phone() -> Result<()> {
    let b = Browser::start().await?;
    screen::set_width(&b, 390).await?;
    for (page, names) in &pages()? {
        b.open(page).await?;
        for theme in ["light", "navy"] {
            screen::set_theme(&b, theme).await?;
            for name in names {
                let svg = b
                    .by_testid(&format!("chart-{name}"))
                    .await?
                    .find(By::Css("svg"))
                    .await?;
                b.driver
                    .execute(
                        "document.querySelectorAll('.lab-chart details').forEach((d) => { d.open = false; });\
                         arguments[0].scrollIntoView({ block: 'center' });",
                        vec![svg.to_json()?],
                    )
                    .await?;
                screen::screenshot(&b, &format!("{name}-{theme}-390")).await?;
            }
            let widths: Vec<(String, f64, f64)> = b
                .driver
                .execute(
                    r##"document.querySelectorAll(".lab-chart details").forEach((d) => { d.open = true; });
                       const col = document.querySelector("main").getBoundingClientRect();
                       return [...document.querySelectorAll(".lab-chart, .lab-chart svg.lab-chart-svg, .lab-chart .lab-scroll, .lab-chart-legend")]
                         .map((e) => [e.className.baseVal ?? e.className, e.getBoundingClientRect().right - col.left, col.width]);"##,
                    vec![],
                )
                .await?
                .convert()?;
            ensure!(widths.len() >= 4 * names.len(), "{page}: {widths:?}");
            for (what, right, column) in &widths {
                ensure!(
                    *right <= column + 1.0,
                    "{page} at 390 px: {what} reaches {right} px in a {column} px column"
                );
            }
            let over = screen::overflow(&b).await?;
            ensure!(over.is_empty(), "{page} at 390 px: {over:#?}");
        }
    }
    b.finish().await
}

#[tokio::test]
async fn charts_print_black_on_white_from_a_dark_theme() -> Result<()> {
    let b = Browser::start().await?;
    b.open("print.html").await?;
    screen::set_theme(&b, "navy").await?;
    b.emulate_media("print").await?;
    let inks: Vec<(String, String, String)> = b
        .driver
        .execute(
            r##"return [...document.querySelectorAll(".lab-chart")].map((c) => [
                 c.dataset.chart,
                 getComputedStyle(c.querySelector("svg text")).fill,
                 getComputedStyle(c.querySelector(".lab-chart-legend li")).color]);"##,
            vec![],
        )
        .await?
        .convert()?;
    ensure!(
        inks.len() == mdbook_lab::chart_names().len(),
        "print.html has {} charts: {inks:?}",
        inks.len()
    );
    for (name, text, legend) in inks {
        ensure!(
            text == "rgb(0, 0, 0)" && legend == "rgb(0, 0, 0)",
            "chart {name} prints its text in {text} and its legend in {legend}"
        );
    }
    b.finish().await
}
