//! The Russian and Thai sites (issue 24), the smoke set: the full suite runs in English, and
//! each translation gets this. Every page loads in its language with no error and every widget
//! and quiz mounts, with no English of the lab's in it; one quiz per chapter is graded wrong,
//! then right; the language picker lands on the same page (and section) in the other language;
//! the search finds a Russian and a Thai word; a Russian page groups a number the Russian way;
//! mdBook's own buttons, the charts' axes and the instructors' claims report read in the page's
//! language.

mod common;

use anyhow::{Result, ensure};
use e2e::Browser;
use e2e::reader::{click, give, page_data, replay};
use e2e::thirtyfour::prelude::*;

/// The translated languages, as the site's folders.
const LANGUAGES: &[&str] = &["ru", "th"];

#[tokio::test]
async fn every_page_loads_in_its_language_and_each_chapter_grades_a_quiz() -> Result<()> {
    let chapters = e2e::chapters()?;
    let b = e2e::session().await?;
    for lang in LANGUAGES {
        for page in &chapters {
            let path = format!("{lang}/{page}");
            b.open(&path).await?;
            let html_lang = b.driver.find(By::Css("html")).await?.attr("lang").await?;
            ensure!(
                html_lang.as_deref() == Some(*lang),
                "{path}: <html lang={html_lang:?}>"
            );
            b.assert_all_mounted(&path).await?;
            b.assert_no_directive_text(&path).await?;
            let failures = b
                .driver
                .find_all(By::Css("[data-testid=\"lab-failure\"]"))
                .await?;
            ensure!(failures.is_empty(), "{path}: a widget failed to start");
            // The chapter's full quiz: its first question, answered wrong, then right.
            if let Ok(quiz) = b
                .driver
                .find(By::Css("[data-lab-quiz]:not([data-kinds])"))
                .await
            {
                let id = quiz.attr("data-lab-quiz").await?.unwrap_or_default();
                let page_data = page_data(&quiz).await?;
                let q = quiz.find(By::Css("[data-testid=\"question\"]")).await?;
                // The lab computes the question natively in the page's language, as the page
                // does (a choice such as `3,31×` is written the Russian way on a Russian page).
                lab_text::tr::set_catalogs(mdbook_lab::translate::CATALOGS);
                lab_text::tr::set_language(lang);
                let question = replay(&id, &q, &page_data).await;
                lab_text::tr::set_language("en");
                let question = question?;
                give(&q, &question, &question.wrong_answer()).await?;
                let tone = Browser::find(&q, "feedback").await?.attr("class").await?;
                ensure!(
                    tone.as_deref().is_some_and(|c| c.contains("lab-hint")),
                    "{path}: a wrong answer is graded {tone:?}"
                );
                give(&q, &question, &question.right_answer()).await?;
                let tone = Browser::find(&q, "feedback").await?.attr("class").await?;
                ensure!(
                    tone.as_deref().is_some_and(|c| c.contains("lab-correct")),
                    "{path}: the right answer is graded {tone:?}"
                );
            }
            let english: Vec<String> = b
                .driver
                .execute(ENGLISH_IN_THE_LAB, vec![serde_json::json!(lang)])
                .await?
                .convert()?;
            ensure!(
                english.is_empty(),
                "{path}: the lab writes English: {english:?}"
            );
            b.assert_no_errors().await?;
        }
    }
    Ok(())
}

/// The picker's link to `code` on the open page.
async fn picker_link(b: &Browser, code: &str) -> Result<WebElement> {
    Ok(b.driver
        .find(By::Css(format!(
            "[data-testid=\"language-picker\"] a[lang=\"{code}\"]"
        )))
        .await?)
}

/// On an English or Russian page the picker's Thai word is drawn by a face of the book's that has
/// its letters (a system without a Thai font drew boxes), and that face is loaded.
#[tokio::test]
async fn the_pickers_thai_word_has_its_letters_on_every_page() -> Result<()> {
    let b = e2e::session().await?;
    for path in ["why-pool.html", "ru/why-pool.html"] {
        b.open(path).await?;
        let found: Vec<String> = b
            .driver
            .execute(
                r##"const a = document.querySelector('[data-testid="language-picker"] a[lang="th"]');
                   const family = getComputedStyle(a).fontFamily.split(",")[0].trim().replace(/"/g, "");
                   return document.fonts.load('16px "' + family + '"', a.textContent).then((faces) => [
                     family,
                     String(faces.length),
                     String([...document.fonts].some((f) => f.family.replace(/"/g, "") === family
                       && f.status === "loaded" && /E17/i.test(f.unicodeRange))),
                   ]);"##,
                vec![],
            )
            .await?
            .convert()?;
        ensure!(
            found.get(1).is_some_and(|n| n != "0") && found.get(2).is_some_and(|t| t == "true"),
            "{path}: the picker's Thai word has no loaded face with its letters: {found:?}"
        );
    }
    b.finish().await
}

#[tokio::test]
async fn the_picker_lands_on_the_same_page_and_section() -> Result<()> {
    let b = e2e::session().await?;
    b.open("capacity.html").await?;
    click(&picker_link(&b, "ru").await?).await?;
    let url = b.driver.current_url().await?;
    ensure!(
        url.path().ends_with("/ru/capacity.html"),
        "English → Russian: {url}"
    );
    click(&picker_link(&b, "th").await?).await?;
    let url = b.driver.current_url().await?;
    ensure!(
        url.path().ends_with("/th/capacity.html"),
        "Russian → Thai: {url}"
    );
    // A section: headings keep their English ids in every language.
    let section = b
        .driver
        .find(By::Css("main h2[id]"))
        .await?
        .attr("id")
        .await?
        .unwrap_or_default();
    let english = b.driver.current_url().await?;
    b.driver
        .goto(format!(
            "{}#{section}",
            english.as_str().split('#').next().unwrap_or_default()
        ))
        .await?;
    click(&picker_link(&b, "en").await?).await?;
    let url = b.driver.current_url().await?;
    ensure!(
        url.path().ends_with("/capacity.html")
            && !url.path().contains("/th/")
            && url.fragment() == Some(section.as_str()),
        "Thai → English keeps the section #{section}: {url}"
    );
    let current = picker_link(&b, "en").await?.attr("aria-current").await?;
    ensure!(
        current.as_deref() == Some("page"),
        "the picker marks English as current"
    );
    Ok(())
}

/// Searches the open translated site for `query`; returns the result links.
async fn search(b: &Browser, query: &str) -> Result<Vec<String>> {
    let toggle = b.driver.find(By::Id("lab-search-toggle")).await?;
    if b.driver
        .find(By::Id("lab-search"))
        .await?
        .attr("hidden")
        .await?
        .is_some()
    {
        click(&toggle).await?;
    }
    let input = b.by_testid("lab-search-input").await?;
    input.clear().await?;
    input.send_keys(query).await?;
    let results = b.by_testid("lab-search-results").await?;
    let mut links = Vec::new();
    for _ in 0..50 {
        links.clear();
        for a in results.find_all(By::Css("li > a")).await? {
            links.push(a.attr("href").await?.unwrap_or_default());
        }
        if !links.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Ok(links)
}

#[tokio::test]
async fn the_search_finds_russian_and_thai_words() -> Result<()> {
    let b = e2e::session().await?;
    b.open("ru/introduction.html").await?;
    let found = search(&b, "бакет").await?;
    ensure!(
        found.iter().any(|u| u.contains("bucket-rounding.html")),
        "«бакет» finds {found:?}"
    );
    // A stem finds its inflected forms, and ё is folded.
    let found = search(&b, "БАКЕТА").await?;
    ensure!(!found.is_empty(), "«БАКЕТА» finds nothing");
    b.open("th/introduction.html").await?;
    // The Thai article's own word for "return" (คืน), as the Thai chapters use it.
    let found = search(&b, "การคืน").await?;
    ensure!(
        found.iter().any(|u| u.contains("return-contract.html")),
        "การคืน finds {found:?}"
    );
    let nothing = search(&b, "zzqxj").await?;
    ensure!(
        nothing.is_empty(),
        "a word the book lacks finds {nothing:?}"
    );
    b.assert_no_errors().await?;
    Ok(())
}

#[tokio::test]
async fn a_russian_page_groups_numbers_the_russian_way() -> Result<()> {
    let b = e2e::session().await?;
    b.open("ru/bucket-rounding.html").await?;
    let widget = b.by_testid("widget-bucket-rounding").await?;
    Browser::enter_into(&widget, "calc-input", "1048577").await?;
    let lab_length = wasm_lab::calc::calculate(1_048_577).length.to_string();
    common::reveal(&widget, "calc-predict", &lab_length).await?;
    // textContent, not WebDriver's text, which turns no-break spaces into spaces.
    let length: String = Browser::find(&widget, "calc-length")
        .await?
        .prop("textContent")
        .await?
        .unwrap_or_default();
    // The browser's Intl.NumberFormat("ru"): no-break spaces between groups.
    ensure!(
        length == "2\u{a0}097\u{a0}152",
        "ru: the buffer length reads {length:?}"
    );
    b.open("bucket-rounding.html").await?;
    let widget = b.by_testid("widget-bucket-rounding").await?;
    Browser::enter_into(&widget, "calc-input", "1048577").await?;
    common::reveal(&widget, "calc-predict", &lab_length).await?;
    let length = Browser::text(&widget, "calc-length").await?;
    ensure!(
        length == "2,097,152",
        "en: the buffer length reads {length:?}"
    );
    Ok(())
}

/// Every result slot that answers the page's question (issue 37): its page, widget, question
/// and an element of its outcome.
const ASKING_SLOTS: [(&str, &str, &str, &str); 12] = [
    (
        "introduction.html",
        "bucket-rounding",
        "calc-predict",
        "calc-length",
    ),
    (
        "why-pool.html",
        "why-pool",
        "why-predict",
        "why-pool-buffers",
    ),
    (
        "bucket-rounding.html",
        "bucket-rounding",
        "calc-predict",
        "calc-length",
    ),
    (
        "stale-data.html",
        "stale-data",
        "stale-predict",
        "stale-steps",
    ),
    (
        "return-contract.html",
        "return-contract",
        "dr-predict",
        "dr-same",
    ),
    (
        "return-contract.html",
        "return-contract",
        "uar-predict",
        "uar-reads",
    ),
    (
        "return-contract.html",
        "return-contract",
        "fr-predict",
        "fr-return",
    ),
    (
        "return-contract.html",
        "return-contract",
        "mf-predict",
        "mf-without",
    ),
    ("capacity.html", "capacity", "cap-predict", "cap-rounds"),
    ("cliff.html", "cliff", "cliff-predict", "cliff-pool-loh"),
    ("chunking.html", "chunking", "chunk-predict", "chunk-blocks"),
    (
        "size-specialized.html",
        "size-specialized",
        "spec-predict",
        "spec-buckets",
    ),
];

/// In Russian and Thai too, every slot that answers the page's question asks for a prediction
/// first and shows nothing of its outcome on load; the calculator's, committed, is graded in
/// the page's language.
#[tokio::test]
async fn every_asking_slot_shows_no_outcome_on_first_load() -> Result<()> {
    let b = e2e::session().await?;
    for lang in LANGUAGES {
        for (page, widget, question, outcome) in ASKING_SLOTS {
            let path = format!("{lang}/{page}");
            b.open(&path).await?;
            let w = b.by_testid(&format!("widget-{widget}")).await?;
            let q = Browser::find(&w, question).await?;
            ensure!(q.is_displayed().await?, "{path}: {question} not shown");
            ensure!(
                common::absent(&w, outcome).await?,
                "{path}: {outcome} shows before a prediction"
            );
            let asked = q.text().await?;
            ensure!(
                !asked.contains("Predict first") && !asked.contains("Run it"),
                "{path}: {question} in English: {asked:?}"
            );
        }
        b.open(&format!("{lang}/bucket-rounding.html")).await?;
        let w = b.by_testid("widget-bucket-rounding").await?;
        let length = wasm_lab::calc::calculate(100).length.to_string();
        common::predict(&w, "calc-predict", &length).await?;
        let verdict = Browser::find(&w, "calc-verdict").await?;
        ensure!(
            verdict.attr("data-held").await?.as_deref() == Some("true"),
            "{lang}: the lab's own length did not hold"
        );
        let said = verdict.text().await?;
        ensure!(!said.contains("Your prediction"), "{lang}: {said:?}");
        ensure!(
            !common::absent(&w, "calc-length").await?,
            "{lang}: no outcome"
        );
        b.assert_no_errors().await?;
    }
    Ok(())
}

/// The text of the open page's first `selector`, as the DOM holds it (collapsed tables too).
async fn text_of(b: &Browser, selector: &str) -> Result<String> {
    Ok(b.driver
        .find(By::Css(selector))
        .await?
        .prop("textContent")
        .await?
        .unwrap_or_default())
}

/// What a Russian page shows around the prose is Russian too (issue 24): mdBook's buttons (written
/// at build time, so the attributes are the built page's) and its code blocks' copy button, the
/// cliff chart's named positions, a byte axis's decimal units and what the claims report says
/// the data shows.
#[tokio::test]
async fn a_russian_page_has_no_english_from_mdbook_the_charts_or_the_report() -> Result<()> {
    lab_text::tr::set_catalogs(mdbook_lab::translate::CATALOGS);
    lab_text::tr::set_language("ru");
    let words = |e: &str| lab_text::tr::dynamic(e).to_string();
    let (toc, next, light, first, copy) = (
        words("Toggle Table of Contents"),
        words("Next chapter"),
        words("Light"),
        words("the first one"),
        words("Copy to clipboard"),
    );
    lab_text::tr::set_language("en");
    let b = e2e::session().await?;
    b.open("ru/cliff.html").await?;
    let attr = |selector: &'static str, name: &'static str| {
        let b = &b;
        async move {
            let e = b.driver.find(By::Css(selector)).await?;
            Ok::<_, anyhow::Error>(e.attr(name).await?.unwrap_or_default())
        }
    };
    let got = attr("#mdbook-sidebar-toggle", "title").await?;
    ensure!(
        got == toc,
        "the contents button is titled {got:?}, not {toc:?}"
    );
    let got = attr("a.nav-chapters.next", "aria-label").await?;
    ensure!(got == next, "the next-chapter link is labelled {got:?}");
    let got = text_of(&b, "#mdbook-theme-light").await?;
    ensure!(got.trim() == light, "the light theme is named {got:?}");
    // A code block's copy button, which mdBook's script adds.
    let got = attr("main pre .clip-button", "title").await?;
    ensure!(got == copy, "a code block's copy button is titled {got:?}");
    let chart = text_of(&b, "[data-chart=\"cliff\"]").await?;
    for english in ["the first one", "again, after a free"] {
        ensure!(!chart.contains(english), "the cliff chart says {english:?}");
    }
    ensure!(
        chart.contains(&first),
        "the cliff chart does not name {first:?}"
    );
    b.open("ru/chunking.html").await?;
    let chart = text_of(&b, "[data-chart=\"chunking-bytes\"] svg").await?;
    ensure!(
        chart.contains("кБ") || chart.contains("МБ"),
        "the byte axis has no кБ or МБ: {chart:?}"
    );
    ensure!(
        !chart.contains(" kB") && !chart.contains(" MB"),
        "the byte axis writes kB or MB: {chart:?}"
    );
    b.open("ru/instructors.html").await?;
    let report = text_of(&b, ".lab-claims-report tbody").await?;
    for english in [
        "interval wholly",
        " hold",
        "in all ",
        "no figure",
        "too noisy",
    ] {
        ensure!(
            !report.contains(english),
            "the claims report says {english:?}"
        );
    }
    // What the bench records in words (mode, allocator), on the machines table and a page's
    // provenance line; the Solutions page's folded titles, which hold code.
    b.open("ru/method.html").await?;
    let machines = text_of(&b, "table.lab-machines tbody").await?;
    b.open("ru/stale-data.html").await?;
    let provenance = text_of(&b, ".lab-provenance").await?;
    for english in ["Rust's System", "C library", "full", "global allocator"] {
        ensure!(
            !machines.contains(english) && !provenance.contains(english),
            "the machines table or the provenance says {english:?}: {machines:?} {provenance:?}"
        );
    }
    b.open("ru/solutions.html").await?;
    let summary = text_of(&b, "main details summary").await?;
    ensure!(
        !summary.contains("Show the solution") && summary.contains("ex01_why_pool.rs"),
        "a solution is folded under {summary:?}"
    );
    // English is as mdBook writes it.
    b.open("cliff.html").await?;
    let got = attr("#mdbook-sidebar-toggle", "title").await?;
    ensure!(got == "Toggle Table of Contents", "English: {got:?}");
    b.assert_no_errors().await?;
    // Written at build time: a reader without scripts gets the same words.
    let plain = Browser::start_with(&["--blink-settings=scriptEnabled=false"]).await?;
    plain.open_static("ru/cliff.html").await?;
    let got = plain
        .driver
        .find(By::Css("#mdbook-theme-toggle"))
        .await?
        .attr("aria-label")
        .await?
        .unwrap_or_default();
    let theme = {
        lab_text::tr::set_language("ru");
        let w = words("Change theme");
        lab_text::tr::set_language("en");
        w
    };
    ensure!(
        got == theme,
        "without scripts the theme button is labelled {got:?}"
    );
    plain.quit().await
}

/// Three chapters per language: no sideways scroll on a phone (Thai breaks lines between
/// words, long identifiers and mixed Thai/code included), every Thai letter within the shipped
/// font's range; screenshots of both widths and both themes when `E2E_SCREENSHOTS` is set.
#[tokio::test]
async fn translated_pages_fit_a_phone_and_thai_has_its_font() -> Result<()> {
    let b = Browser::start().await?;
    let mut problems = Vec::new();
    for lang in LANGUAGES {
        for page in [
            "bucket-rounding.html",
            "stale-data.html",
            "capacity.html",
            "cliff.html",
        ] {
            let path = format!("{lang}/{page}");
            for width in [1280, 390] {
                e2e::screen::set_width(&b, width).await?;
                b.open(&path).await?;
                let wide = e2e::screen::overflow(&b).await?;
                if !wide.is_empty() {
                    problems.push(format!("{path} at {width} px: {wide:?}"));
                }
                if std::env::var_os("E2E_SCREENSHOTS").is_some() {
                    for theme in ["light", "coal"] {
                        e2e::screen::set_theme(&b, theme).await?;
                        b.driver.execute("window.scrollTo(0, 0);", vec![]).await?;
                        let stem = page.trim_end_matches(".html");
                        e2e::screen::screenshot(&b, &format!("{lang}-{stem}-{width}-{theme}"))
                            .await?;
                        // The first figure's popover (its gate note, opened; a story chapter's
                        // figures are links to the ledger instead) and the first chart (its
                        // axes), where the page has them.
                        for (shot, selector, open) in [
                            ("figure", "button.lab-fig", true),
                            ("chart", ".lab-chart", false),
                        ] {
                            let found: bool = b
                                .driver
                                .execute(
                                    r#"const e = document.querySelector("main " + arguments[0]);
                                       if (!e) return false;
                                       e.scrollIntoView({block: "center"});
                                       if (arguments[1]) e.click();
                                       return true;"#,
                                    vec![serde_json::json!(selector), serde_json::json!(open)],
                                )
                                .await?
                                .convert()?;
                            if found {
                                let name = format!("{lang}-{stem}-{width}-{theme}-{shot}");
                                e2e::screen::screenshot(&b, &name).await?;
                                b.driver.execute("document.body.click();", vec![]).await?;
                            }
                        }
                    }
                }
            }
            if *lang == "th" {
                let outside: Vec<String> = b
                    .driver
                    .execute(
                        r##"const t = document.querySelector("main").textContent;
                           return [...new Set([...t].filter((c) => /[\u0E00-\u0E7F]/.test(c)
                             && !/[\u0E01-\u0E5B]/.test(c)))].map((c) => c.codePointAt(0).toString(16));"##,
                        vec![],
                    )
                    .await?
                    .convert()?;
                if !outside.is_empty() {
                    problems.push(format!(
                        "{path}: Thai code points the font lacks: {outside:?}"
                    ));
                }
                // Every family, weight and style that draws Thai here has a Thai face (a bold
                // code span without one draws boxes).
                let faceless: Vec<String> = b
                    .driver
                    .execute(
                        r##"const faces = new Set([...document.fonts]
                               .filter((f) => /E01/i.test(f.unicodeRange))
                               .map((f) => f.family.replace(/"/g, "") + "|" + f.weight + "|" + f.style));
                           const missing = new Set();
                           const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
                           for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                             if (!/[\u0E01-\u0E5B]/.test(n.textContent)) continue;
                             const cs = getComputedStyle(n.parentElement);
                             const family = cs.fontFamily.split(",")[0].trim().replace(/"/g, "");
                             const weight = parseInt(cs.fontWeight, 10) >= 600 ? "700" : "400";
                             const key = family + "|" + weight + "|" + cs.fontStyle;
                             if (!faces.has(key)) missing.add(key);
                           }
                           return [...missing];"##,
                        vec![],
                    )
                    .await?
                    .convert()?;
                if !faceless.is_empty() {
                    problems.push(format!(
                        "{path}: Thai drawn with no Thai face: {faceless:?}"
                    ));
                }
            }
        }
    }
    ensure!(problems.is_empty(), "{problems:#?}");
    b.assert_no_errors().await?;
    b.quit().await
}

/// English words the lab writes into a mounted widget or quiz on a Russian page: text outside
/// code, figures and claims, with no Cyrillic, and a word that is not a name, an identifier or a
/// unit (the script's `NAMES`). Thai pages keep the Thai article's own English terms (bucket,
/// buffer, byte), so there only the controls are checked: every button of a widget or a quiz
/// carries a Thai word.
const ENGLISH_IN_THE_LAB: &str = r#"
const lang = arguments[0];
const NAMES = new Set(["Rust", "NET", "Go", "glibc", "mmap", "malloc", "free", "mimalloc",
  "jemalloc", "wasm", "LOH", "Arc", "Vec", "Option", "true", "false", "GiB", "MiB", "KiB",
  "ns", "ms", "UTF", "ASCII", "CPU", "AMD", "EPYC", "Intel", "Xeon", "Debian", "GNU", "Linux"]);
const skip = "pre, code, svg, script, style, kbd, var, .lab-fig, .lab-claim, [hidden], [aria-hidden=true]";
const local = lang === "ru" ? /[\u0400-\u04ff]/ : /[\u0e00-\u0e7f]/;
const found = [];
for (const root of document.querySelectorAll("[data-lab-quiz], [data-testid^='widget-']")) {
  if (lang === "th") {
    for (const b of root.querySelectorAll("button")) {
      const t = b.textContent.trim();
      if (/[A-Za-z]{2,}/.test(t) && !local.test(t) && !b.closest(skip)) found.push(t);
    }
    continue;
  }
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = n.textContent.trim();
    if (!t || local.test(t) || n.parentElement.closest(skip)) continue;
    const words = (t.match(/[A-Za-z][A-Za-z']*/g) || []).filter(w =>
      w.length > 1 && !NAMES.has(w) && !/[a-z][A-Z]|^[A-Z]{2,}$/.test(w) && !/::|\(\)|[<_]|[A-Za-z]\.[A-Za-z]/.test(t));
    if (words.length) found.push(t);
  }
}
return found;
"#;
