//! The course's content around the lab, checked in the built book as a reader gets it: every
//! chapter opens with a question, every glossary term a chapter uses links to the glossary, no
//! internal link or anchor is broken, and the instructor notes are closed until a reader opens
//! them, which the keyboard alone can do.

use anyhow::{Result, bail, ensure};
use e2e::thirtyfour::prelude::*;

/// The glossary's terms: the id of the term in `glossary.html`, and the JavaScript regular
/// expression (case-insensitive) that finds a use of it in a chapter's prose.
const TERMS: &[(&str, &str)] = &[
    ("bucket", r"\bbuckets?\b"),
    ("slot", r"\bthread(?:'s)?\s+(?:own\s+)?slots?\b"),
    ("partition", r"\bpartitions?\b"),
    ("trimming", r"\btrim(?:s|med|ming)?\b"),
    ("loh", r"\bLOH\b|\blarge[-\s]+object\s+heap\b"),
    ("gen2", r"\bgeneration[-\s]+2\b|\bgen2\b"),
    ("mmap", r"\bmmap(?:ped|ed)?\b"),
    ("size-class", r"\bsize[-\s]+class(?:es)?\b"),
    ("monomorphization", r"\bmonomorphi[sz]ation\b"),
    ("icache", r"\bicache\b|\binstruction[-\s]+cache\b"),
    (
        "counting-allocator",
        r"\bcounting\s+(?:global\s+)?allocator\b",
    ),
    ("paired-rounds", r"\bpaired\s+rounds?\b"),
    ("noise-gate", r"\bnoise\s+gate\b"),
    ("lower-bound", r"\blower\s+bound\b"),
    ("checked-mode", r"\bchecked\s+mode\b"),
];

/// The prose of `main`: what a reader reads as text, without code, headings, emphasis (titles of
/// articles are set in italics), the flowchart, and what the lab or the preprocessor generates
/// (widgets, quizzes, figure tables, whose labels are figure titles).
const PROSE: &str = r#"
const main = document.querySelector('main').cloneNode(true);
main.querySelectorAll('pre, code, h1, h2, h3, h4, h5, h6, em, svg, [data-lab-widget], [data-lab-quiz], .lab-fig-table, .lab-chart, .lab-quiz-print, .lab-answer-key, .lab-print-note, .lab-machines, .lab-bucket-table, .lab-fig, .lab-prov, .lab-claim').forEach((e) => e.remove());
const prose = main.textContent;
"#;

fn pages_but_glossary() -> Result<Vec<String>> {
    Ok(e2e::chapters()?
        .into_iter()
        .filter(|p| {
            !matches!(
                p.as_str(),
                "glossary.html" | "instructors.html" | "progress.html"
            )
        })
        .collect())
}

/// The strings a page's script found wrong (a JSON array), each prefixed with the page.
fn on_page(page: &str, found: &serde_json::Value) -> Vec<String> {
    let found = found.as_array().into_iter().flatten();
    found
        .map(|p| format!("{page}: {}", p.as_str().unwrap_or_default()))
        .collect()
}

/// Fails with every problem, one a line under `what`, unless there is none.
fn none(what: &str, problems: &[String]) -> Result<()> {
    ensure!(problems.is_empty(), "{what}:\n  {}", problems.join("\n  "));
    Ok(())
}

#[tokio::test]
async fn every_chapter_opens_with_a_question() -> Result<()> {
    let chapters = e2e::chapters()?;
    ensure!(chapters.len() >= 13, "SUMMARY.md lists only {chapters:?}");
    let b = e2e::session().await?;
    for page in &chapters {
        b.open(page).await?;
        let found = b
            .driver
            .execute(
                r#"
                const main = document.querySelector('main');
                const p = main.querySelector('p');
                const h2 = main.querySelector('h2');
                if (!p) return {text: null, first: false};
                const first = !h2 || !!(p.compareDocumentPosition(h2) & Node.DOCUMENT_POSITION_FOLLOWING);
                return {text: p.textContent.trim(), first};
                "#,
                vec![],
            )
            .await?;
        let v = found.json();
        let text = v["text"].as_str().unwrap_or_default();
        ensure!(
            v["first"].as_bool() == Some(true) && text.ends_with('?'),
            "{page}: the first paragraph, before any section, must be the chapter's question \
             (ending with “?”); it is {text:?}"
        );
        b.assert_no_errors().await?;
    }
    b.quit().await
}

#[tokio::test]
async fn every_glossary_term_a_chapter_uses_links_to_the_glossary() -> Result<()> {
    let b = e2e::session_on("glossary.html").await?;
    for (id, _) in TERMS {
        let found = b.driver.find_all(By::Id(*id)).await?;
        ensure!(
            found.len() == 1,
            "glossary.html has no entry with id {id:?}"
        );
    }
    let terms: Vec<serde_json::Value> = TERMS
        .iter()
        .map(|(id, re)| serde_json::json!([id, re]))
        .collect();
    let script = format!(
        r#"{PROSE}
        const terms = arguments[0];
        const links = new Set([...document.querySelectorAll('main a[href]')]
            .map((a) => new URL(a.href).pathname.split('/').pop() + new URL(a.href).hash));
        const used = [], missing = [];
        for (const [id, re] of terms) {{
            const m = new RegExp(re, 'i').exec(prose);
            if (!m) continue;
            used.push(id);
            if (!links.has('glossary.html#' + id)) {{
                missing.push(id + ' (“' + prose.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ') + '”)');
            }}
        }}
        return {{used, missing}};
        "#
    );
    let mut uses = 0;
    let mut problems = Vec::new();
    for page in pages_but_glossary()? {
        b.open(&page).await?;
        let ret = b
            .driver
            .execute(&script, vec![serde_json::Value::Array(terms.clone())])
            .await?;
        let v = ret.json();
        uses += v["used"].as_array().map_or(0, Vec::len);
        problems.extend(on_page(&page, &v["missing"]));
    }
    none(
        "glossary terms used without a link to glossary.html#<term>",
        &problems,
    )?;
    // The check is not vacuous: the chapters do use the glossary's words.
    ensure!(
        uses >= 40,
        "only {uses} term uses found: is the prose selector right?"
    );
    b.finish().await
}

#[tokio::test]
async fn no_internal_link_or_anchor_is_broken() -> Result<()> {
    let b = e2e::session().await?;
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in e2e::chapters()? {
        b.open(&page).await?;
        let ret = b
            .driver
            .execute_async(
                r#"
                const done = arguments[arguments.length - 1];
                (async () => {
                    const here = new URL(location.href);
                    const targets = new Map();
                    for (const a of document.querySelectorAll('a[href]')) {
                        const raw = a.getAttribute('href');
                        const url = new URL(a.href);
                        if (url.origin !== here.origin || raw.startsWith('javascript:')) continue;
                        const page = url.origin + url.pathname;
                        if (!targets.has(page)) targets.set(page, new Set());
                        targets.get(page).add(decodeURIComponent(url.hash.slice(1)));
                    }
                    const problems = [];
                    let checked = 0;
                    for (const [page, ids] of targets) {
                        let doc = document;
                        if (page !== here.origin + here.pathname) {
                            const r = await fetch(page);
                            if (!r.ok) { problems.push(page + ' (HTTP ' + r.status + ')'); continue; }
                            doc = new DOMParser().parseFromString(await r.text(), 'text/html');
                        }
                        for (const id of ids) {
                            checked++;
                            if (id && !doc.getElementById(id) && !doc.getElementsByName(id).length) {
                                problems.push(page + '#' + id + ' (no such anchor)');
                            }
                        }
                    }
                    return {problems, checked};
                })().then(done, (e) => done({problems: ['script failed: ' + e], checked: 0}));
                "#,
                vec![],
            )
            .await?;
        let v = ret.json();
        checked += v["checked"].as_u64().unwrap_or(0);
        problems.extend(on_page(&page, &v["problems"]));
    }
    none("broken internal links", &problems)?;
    ensure!(checked >= 100, "only {checked} internal links found");
    b.finish().await
}

#[tokio::test]
async fn instructor_notes_are_closed_and_open_from_the_keyboard() -> Result<()> {
    let b = e2e::session().await?;
    for page in e2e::chapters()? {
        if matches!(
            page.as_str(),
            "glossary.html" | "sources.html" | "instructors.html" | "progress.html"
        ) {
            continue;
        }
        b.open(&page).await?;
        let notes = b
            .driver
            .find_all(By::Css("details.instructor-notes"))
            .await?;
        ensure!(notes.len() == 1, "{page}: {} instructor notes", notes.len());
        let details = &notes[0];
        let summary = details.find(By::Css(":scope > summary")).await?;
        ensure!(
            summary.text().await?.contains("Instructor notes"),
            "{page}: the notes' summary does not say what they are"
        );
        let is_open = || async {
            let r = b
                .driver
                .execute("return arguments[0].open;", vec![details.to_json()?])
                .await?;
            Ok::<_, anyhow::Error>(r.json().as_bool() == Some(true))
        };
        if is_open().await? {
            bail!("{page}: the instructor notes are open before the reader opens them");
        }
        ensure!(
            !details.find(By::Css("ul, p")).await?.is_displayed().await?,
            "{page}: closed notes are still shown"
        );
        // Focus the summary as a Tab would, then press keys: no click anywhere.
        b.driver
            .execute("arguments[0].focus();", vec![summary.to_json()?])
            .await?;
        b.driver
            .action_chain()
            .send_keys(Key::Enter)
            .perform()
            .await?;
        ensure!(
            is_open().await?,
            "{page}: Enter on the summary did not open the notes"
        );
        ensure!(
            details.find(By::Css("ul, p")).await?.is_displayed().await?,
            "{page}: open notes are not shown"
        );
        b.driver.action_chain().send_keys(" ").perform().await?;
        ensure!(
            !is_open().await?,
            "{page}: Space on the summary did not close the notes"
        );
        b.assert_no_errors().await?;
    }
    b.quit().await
}
