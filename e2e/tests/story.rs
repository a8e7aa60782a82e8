//! The story chapters read as a story, their evidence one click away (issue 36): no machine id
//! more than once, no gate vocabulary, a figure is a link that lands on its ledger row and
//! comes back, and every chart's legend names the lines the reader can see, with no text over
//! another text or a line and none too small to read.

use anyhow::{Result, ensure};
use e2e::thirtyfour::prelude::*;

/// The eight story chapters (`mdbook_lab::ledger::STORY`).
fn pages() -> Vec<String> {
    mdbook_lab::ledger::STORY
        .iter()
        .map(|s| format!("{s}.html"))
        .collect()
}

/// The words of the noise gate a story chapter must not show (Method is where they belong).
const GATE_WORDS: &str = r"not citable|\bnoise\b|\bgate\b|\brepetitions?\b|fingerprint";

#[tokio::test]
async fn story_chapters_name_the_machine_at_most_once_and_no_gate_words() -> Result<()> {
    let data = e2e::book_data()?;
    let mut ids: Vec<String> = data.files().iter().map(|f| f.machine.id.clone()).collect();
    ids.extend(data.older().iter().map(|(f, _)| f.machine.id.clone()));
    ids.sort();
    ids.dedup();
    let b = e2e::session().await?;
    let mut problems = Vec::new();
    for page in pages() {
        b.open(&page).await?;
        // What a reader sees with scripts on and nothing opened: innerText skips closed
        // <details> and popovers.
        let text: String = b
            .driver
            .execute("return document.querySelector('main').innerText;", vec![])
            .await?
            .convert()?;
        for id in &ids {
            let n = text.matches(id.as_str()).count();
            if n > 1 {
                problems.push(format!("{page}: machine id {id} shown {n} times"));
            }
        }
        let gate: Vec<String> = b
            .driver
            .execute(
                "return document.querySelector('main').innerText.match(new RegExp(arguments[0], 'gi')) || [];",
                vec![serde_json::json!(GATE_WORDS)],
            )
            .await?
            .convert()?;
        if !gate.is_empty() {
            problems.push(format!("{page}: gate words {gate:?}"));
        }
        // No figure key in the visible text either (a key is `suite.size.name`).
        let keys: Vec<String> = b
            .driver
            .execute(
                r"return document.querySelector('main').innerText.match(/\b[a-z_]+\.[0-9a-z_]+\.[a-z_]+\b/g) || [];",
                vec![],
            )
            .await?
            .convert()?;
        let keys: Vec<String> = keys
            .into_iter()
            .filter(|k| data.primary().is_ok_and(|p| p.figures.contains_key(k)))
            .collect();
        if !keys.is_empty() {
            problems.push(format!("{page}: figure keys {keys:?}"));
        }
        // Figures are links, not popovers.
        let buttons = b.driver.find_all(By::Css("main button.lab-fig")).await?;
        if !buttons.is_empty() {
            problems.push(format!("{page}: {} figure popovers", buttons.len()));
        }
    }
    ensure!(problems.is_empty(), "{}", problems.join("\n"));
    b.finish().await
}

#[tokio::test]
async fn a_figure_lands_on_its_ledger_row_and_comes_back() -> Result<()> {
    let b = e2e::session_on("why-pool.html").await?;
    let fig = b.driver.find(By::Css("main a.lab-fig[id]")).await?;
    let href = fig.attr("href").await?.unwrap_or_default();
    let back = fig.attr("id").await?.unwrap_or_default();
    let key = e2e::ledger_key(&href);
    ensure!(key.is_some(), "the figure links to {href:?}");
    fig.scroll_into_view().await?;
    fig.click().await?;
    b.wait_for_lab().await?;
    let url = b.driver.current_url().await?;
    ensure!(
        url.as_str().ends_with(&href.replace(':', "%3A")) || url.as_str().ends_with(&href),
        "landed on {url}, not {href}"
    );
    // The row is the page's target, in view, and says the figure's key and statistics.
    let (tag, text, top, bottom, height): (String, String, f64, f64, f64) = b
        .driver
        .execute(
            "const r = document.querySelector(':target'); const box = r.getBoundingClientRect(); \
             return [r.tagName, r.textContent, box.top, box.bottom, window.innerHeight];",
            vec![],
        )
        .await?
        .convert()?;
    ensure!(tag == "TR", "the target is a {tag}");
    ensure!(
        text.contains(key.as_deref().unwrap_or_default()) && text.contains("gate: "),
        "the row says {text:?}"
    );
    ensure!(
        top >= 0.0 && bottom <= height + 1.0,
        "the row is not in view: {top}–{bottom} of {height}"
    );
    // Its back link returns to the figure in the chapter.
    let back_link = b
        .driver
        .find(By::Css("tr:target a.lab-back"))
        .await?
        .attr("href")
        .await?
        .unwrap_or_default();
    ensure!(
        back_link == format!("why-pool.html#{back}"),
        "the back link is {back_link:?}, the figure's id {back:?}"
    );
    b.driver
        .execute(
            "document.querySelector('tr:target a.lab-back').click();",
            vec![],
        )
        .await?;
    b.wait_for_lab().await?;
    let url = b.driver.current_url().await?;
    ensure!(url.as_str().contains("why-pool.html#"), "back on {url}");
    let target: String = b
        .driver
        .execute(
            "const t = document.querySelector(':target'); return t ? t.id : '';",
            vec![],
        )
        .await?
        .convert()?;
    ensure!(target == back, "back on {target:?}, not {back:?}");
    b.finish().await
}

/// Per chart of the open page: legend entries naming a series, the series lines the SVG draws,
/// pairs of text boxes that overlap, mark labels over a series line, text drawn under 11 px,
/// and the legend's and the plot's heights.
const CHART_CHECK: &str = r#"
const out = [];
const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
// Liang–Barsky: whether segment p→q crosses rectangle r.
const crosses = (p, q, r) => {
  let t0 = 0, t1 = 1; const dx = q.x - p.x, dy = q.y - p.y;
  for (const [pp, qq] of [[-dx, p.x - r.left], [dx, r.right - p.x], [-dy, p.y - r.top], [dy, r.bottom - p.y]]) {
    if (pp === 0) { if (qq < 0) return false; continue; }
    const t = qq / pp;
    if (pp < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
  }
  return true;
};
for (const c of document.querySelectorAll('main .lab-chart')) {
  const svg = c.querySelector('svg.lab-chart-svg');
  const m = svg.getScreenCTM();
  const series = (e) => (e.getAttribute('class') || '').match(/lab-s\d+ lab-m\d+/)?.[0];
  const legend = [...c.querySelectorAll('.lab-chart-legend li')].map((li) => li.querySelector('.lab-swatch line')).filter(Boolean).map(series).filter(Boolean);
  const drawn = [...new Set([...svg.querySelectorAll('polyline, circle, path, line')].map(series).filter(Boolean))];
  const texts = [...svg.querySelectorAll('text')].filter((t) => getComputedStyle(t).display !== 'none' && t.textContent.trim());
  const boxes = texts.map((t) => [t, t.getBoundingClientRect()]);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++)
    if (hit(boxes[i][1], boxes[j][1])) overlaps.push(boxes[i][0].textContent + ' / ' + boxes[j][0].textContent);
  const pt = (x, y) => ({ x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f });
  const lines = [...svg.querySelectorAll('polyline[class*="lab-s"]')].map((l) => [...l.points].map((p) => pt(p.x, p.y)));
  const overLine = [];
  for (const [t, r] of boxes.filter(([t]) => t.classList.contains('lab-mark-label')))
    for (const l of lines) for (let k = 1; k < l.length; k++) if (crosses(l[k - 1], l[k], r)) overLine.push(t.textContent);
  const small = texts.filter((t) => parseFloat(getComputedStyle(t).fontSize) * m.a < 11).map((t) => t.textContent);
  const plot = svg.getBoundingClientRect().height;
  const legendHeight = c.querySelector('.lab-chart-legend').getBoundingClientRect().height;
  out.push({ name: c.dataset.chart, legend, drawn, overlaps, overLine: [...new Set(overLine)], small, plot, legendHeight });
}
return out;
"#;

#[tokio::test]
async fn story_charts_name_what_they_draw_and_nothing_overlaps() -> Result<()> {
    let b = e2e::session().await?;
    let mut problems = Vec::new();
    let mut charts = 0;
    for width in [1280, 390] {
        e2e::screen::set_width(&b, width).await?;
        for page in pages() {
            b.open(&page).await?;
            let found: Vec<serde_json::Value> =
                b.driver.execute(CHART_CHECK, vec![]).await?.convert()?;
            for c in found {
                charts += 1;
                let name = format!("{page} {} at {width} px", c["name"]);
                let legend: Vec<String> = serde_json::from_value(c["legend"].clone())?;
                let drawn: Vec<String> = serde_json::from_value(c["drawn"].clone())?;
                let mut unique = legend.clone();
                unique.sort();
                unique.dedup();
                if unique.len() != legend.len() {
                    problems.push(format!("{name}: a line named twice in {legend:?}"));
                }
                if unique.iter().any(|s| !drawn.contains(s)) || drawn.len() != unique.len() {
                    problems.push(format!("{name}: legend {legend:?}, lines drawn {drawn:?}"));
                }
                for (field, what) in [
                    ("overlaps", "texts over each other"),
                    ("overLine", "labels over a line"),
                    ("small", "text under 11 px"),
                ] {
                    let list: Vec<String> = serde_json::from_value(c[field].clone())?;
                    if !list.is_empty() {
                        problems.push(format!("{name}: {what}: {list:?}"));
                    }
                }
                let (plot, legend_height) = (
                    c["plot"].as_f64().unwrap_or(0.0),
                    c["legendHeight"].as_f64().unwrap_or(f64::MAX),
                );
                if legend_height > plot {
                    problems.push(format!(
                        "{name}: legend {legend_height:.0} px taller than its plot {plot:.0} px"
                    ));
                }
            }
        }
    }
    ensure!(charts > 0, "no chart on the story chapters");
    ensure!(problems.is_empty(), "{}", problems.join("\n"));
    b.finish().await
}
