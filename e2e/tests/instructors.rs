//! The instructors' page and the claims as a reader reaches them: the report lists every claim of
//! the book with the mark each machine file gives it, and figure statistics and claim marks open
//! from the keyboard (they are buttons with popovers, not hover tooltips).

use anyhow::{Context, Result, ensure};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;

/// Every claim of the book, collected from the chapters as the preprocessor collects them.
fn sites() -> Result<Vec<mdbook_lab::claims::Site>> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src");
    let mut out = Vec::new();
    for page in e2e::chapters()? {
        let md = page.replace(".html", ".md");
        let text = std::fs::read_to_string(src.join(&md)).with_context(|| md.clone())?;
        out.extend(mdbook_lab::claims::collect(&md, &text));
    }
    Ok(out)
}

#[tokio::test]
async fn the_report_gives_every_claim_its_mark_on_every_machine() -> Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data");
    let data = mdbook_lab::Data::load(&root, None)?;
    let sites = sites()?;
    ensure!(sites.len() >= 50, "only {} claims in the book", sites.len());
    let b = e2e::session_on("instructors.html").await?;
    // One round trip for the whole table: [claim, [mark per machine…]] per row.
    let v = b
        .driver
        .execute(
            "return [...document.querySelectorAll('.lab-claims-report tbody tr')].map(r => \
             [r.querySelector('code').textContent, \
              [...r.querySelectorAll('td[data-mark]')].map(c => c.dataset.mark)]);",
            vec![],
        )
        .await?;
    let rows: Vec<(String, Vec<String>)> = serde_json::from_value(v.json().clone())?;
    ensure!(
        rows.len() == sites.len(),
        "the report has {} rows, the book {} claims",
        rows.len(),
        sites.len()
    );
    for ((code, marks), site) in rows.iter().zip(&sites) {
        ensure!(*code == site.claim.to_string(), "{code} ≠ {}", site.claim);
        ensure!(marks.len() == data.files().len());
        for (shown, file) in marks.iter().zip(data.files()) {
            let want = site.check(file, data.files()).mark.symbol();
            ensure!(
                shown == want,
                "{} on {}: page {shown}, data {want}",
                site.claim,
                file.machine.id
            );
        }
    }
    b.finish().await
}

/// Whether the popover that `button` controls is open.
async fn popover_open(b: &Browser, button: &WebElement) -> Result<(bool, String)> {
    let id = button
        .attr("popovertarget")
        .await?
        .context("no popovertarget")?;
    let v = b
        .driver
        .execute(
            "const p = document.getElementById(arguments[0]); return [p.matches(':popover-open'), p.textContent];",
            vec![serde_json::json!(id)],
        )
        .await?;
    let (open, text): (bool, String) = serde_json::from_value(v.json().clone())?;
    Ok((open, text))
}

#[tokio::test]
async fn statistics_and_claim_marks_open_from_the_keyboard() -> Result<()> {
    // Method keeps the statistics in popovers (a story chapter links to the ledger instead).
    let b = e2e::session_on("method.html").await?;
    for (selector, says) in [
        ("button.lab-fig[data-fig]", "median of"),
        ("button.lab-claim[data-claim]", "on "),
    ] {
        let button = b.driver.find(By::Css(selector)).await?;
        ensure!(
            !popover_open(&b, &button).await?.0,
            "{selector} open at load"
        );
        // Enter on the focused button, as a keyboard reader does (a tap or a click does the same).
        button.send_keys(Key::Enter).await?;
        let focused = b
            .driver
            .execute(
                "return document.activeElement === arguments[0];",
                vec![button.to_json()?],
            )
            .await?;
        ensure!(
            focused.json() == &serde_json::json!(true),
            "{selector} took no focus"
        );
        let (open, text) = popover_open(&b, &button).await?;
        ensure!(open, "{selector}: Enter did not open its popover");
        ensure!(text.contains(says), "{selector}: popover says {text:?}");
        // Enter again closes it.
        button.send_keys(Key::Enter).await?;
        ensure!(
            !popover_open(&b, &button).await?.0,
            "{selector}: a second Enter left it open"
        );
    }
    b.finish().await
}
