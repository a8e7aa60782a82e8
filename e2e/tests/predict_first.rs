//! Predict, then run (issue 37): every result slot of the introduction and the story chapters
//! that answers a question the page asks holds its outcome until the reader commits a
//! prediction. In each of the twelve: nothing of the outcome on first load; a wrong prediction
//! twice (a nudge, then the verdict repeating it and naming the quiz's mistake it matches);
//! "Predict again"; the right one holds. The answers are the lab's own, computed here natively
//! from the chapter's directive (`initial=…`), never typed in.

mod common;

use anyhow::{Context, Result, ensure};
use common::{absent, click, predict};
use course_pool::alloc_count::CountingAlloc;
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::view::{self, Env, Inputs, View};

// Chunking's and why-pool's outcomes are counted by the counting allocator, natively as in the
// page.
#[global_allocator]
static GLOBAL: CountingAlloc<std::alloc::System> = CountingAlloc::new(std::alloc::System);

/// One result slot that asks first.
pub struct Slot {
    pub page: &'static str,
    pub widget: &'static str,
    /// The question's `data-testid` (its choices `{id}-{value}`, its number `{id}-value`).
    pub id: &'static str,
    pub verdict: &'static str,
    /// An element of the outcome: absent until the reader predicts.
    pub outcome: &'static str,
    /// The lab's answer and a wrong one that is one of the quiz's mistakes (`None`: this slot's
    /// wrong answers get the general hint), read from the lab's own view of the page's default.
    pub answers: fn(&View) -> (String, String, bool),
}

/// The `initial=…` of widget `name` on `page` (the chapter's directive).
fn initial(page: &str, name: &str) -> Result<String> {
    let md = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../book/src")
        .join(page.replace(".html", ".md"));
    let md = std::fs::read_to_string(&md).with_context(|| md.display().to_string())?;
    for line in md.lines() {
        if let Some(args) = line
            .trim()
            .strip_prefix(&format!("{{{{#lab-widget {name}"))
            .and_then(|r| r.strip_suffix("}}"))
        {
            return Ok(args
                .split_whitespace()
                .find_map(|w| w.strip_prefix("initial="))
                .unwrap_or("")
                .to_string());
        }
    }
    anyhow::bail!("{page} has no {name} widget")
}

/// The lab's view of the widget as the page opens it, computed natively with the outcome
/// (the part a page without scripts keeps behind its disclosure).
fn native(page: &str, name: &str) -> Result<View> {
    let w = view::widget(name).context(name.to_string())?;
    let form = (w.form)(&initial(page, name)?);
    Ok((w.view)(&Inputs::from_form(&form), &Env::default()))
}

fn value(v: &View, id: &str) -> String {
    v.value(id).unwrap_or_default().to_string()
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

fn yes_no(yes: bool) -> (String, String, bool) {
    let (r, w) = if yes { ("yes", "no") } else { ("no", "yes") };
    (r.into(), w.into(), true)
}

pub const SLOTS: [Slot; 12] = [
    Slot {
        page: "introduction.html",
        widget: "bucket-rounding",
        id: "calc-predict",
        verdict: "calc-verdict",
        outcome: "calc-length",
        // The request itself, the quiz's first misconception.
        answers: |v| (digits(&value(v, "calc-length")), request(v), true),
    },
    Slot {
        page: "why-pool.html",
        widget: "why-pool",
        id: "why-predict",
        verdict: "why-verdict",
        outcome: "why-pool-buffers",
        answers: |v| {
            let bytes = |id| digits(&value(v, id)).parse::<u64>().unwrap_or(0);
            let (fresh, pool) = (bytes("why-fresh-bytes"), bytes("why-pool-bytes"));
            let right = match pool.cmp(&fresh) {
                std::cmp::Ordering::Less => "pool",
                std::cmp::Ordering::Greater => "fresh",
                std::cmp::Ordering::Equal => "same",
            };
            let wrong = if right == "same" { "fresh" } else { "same" };
            (right.into(), wrong.into(), false)
        },
    },
    Slot {
        page: "bucket-rounding.html",
        widget: "bucket-rounding",
        id: "calc-predict",
        verdict: "calc-verdict",
        outcome: "calc-length",
        answers: |v| (digits(&value(v, "calc-length")), request(v), true),
    },
    Slot {
        page: "stale-data.html",
        widget: "stale-data",
        id: "stale-predict",
        verdict: "stale-verdict",
        outcome: "stale-steps",
        answers: |v| {
            let leaked = digits(&value(v, "stale-leaked"));
            let wrong = if leaked == "0" { "1" } else { "0" };
            (leaked, wrong.into(), false)
        },
    },
    Slot {
        page: "return-contract.html",
        widget: "return-contract",
        id: "dr-predict",
        verdict: "dr-verdict",
        outcome: "dr-same",
        answers: |v| {
            let (r, w, _) = yes_no(value(v, "dr-same") == "yes");
            (r, w, false)
        },
    },
    Slot {
        page: "return-contract.html",
        widget: "return-contract",
        id: "uar-predict",
        verdict: "uar-verdict",
        outcome: "uar-reads",
        answers: |v| {
            let landed = value(v, "uar-reads") == native_input(v, "uar-stale");
            let (r, w) = if landed {
                ("stale", "fresh")
            } else {
                ("fresh", "stale")
            };
            (r.into(), w.into(), true)
        },
    },
    Slot {
        page: "return-contract.html",
        widget: "return-contract",
        id: "fr-predict",
        verdict: "fr-verdict",
        outcome: "fr-return",
        answers: |v| yes_no(!value(v, "fr-return").starts_with("error")),
    },
    Slot {
        page: "return-contract.html",
        widget: "return-contract",
        id: "mf-predict",
        verdict: "mf-verdict",
        outcome: "mf-without",
        // Every round allocating: the quiz's "not every round allocates".
        answers: |v| {
            (
                digits(&value(v, "mf-without")),
                native_input(v, "mf-rounds"),
                true,
            )
        },
    },
    Slot {
        page: "capacity.html",
        widget: "capacity",
        id: "cap-predict",
        verdict: "cap-verdict",
        outcome: "cap-rounds",
        // The thread's own slot forgotten: one buffer of the bucket's length more per round.
        answers: |v| {
            let bytes = e2e::number(&value(v, "cap-r2-bytes")).unwrap_or(0);
            let length = e2e::number(&value(v, "cap-length")).unwrap_or(0);
            (bytes.to_string(), (bytes + length).to_string(), true)
        },
    },
    Slot {
        page: "cliff.html",
        widget: "cliff",
        id: "cliff-predict",
        verdict: "cliff-verdict",
        outcome: "cliff-pool-loh",
        answers: |v| yes_no(value(v, "cliff-pool-loh").starts_with("yes")),
    },
    Slot {
        page: "chunking.html",
        widget: "chunking",
        id: "chunk-predict",
        verdict: "chunk-verdict",
        outcome: "chunk-blocks",
        // One block, the array path's count: the quiz's first mistake for a growing chunk.
        answers: |v| {
            let blocks: String = value(v, "chunk-blocks")
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            (blocks, "1".into(), true)
        },
    },
    Slot {
        page: "size-specialized.html",
        widget: "size-specialized",
        id: "spec-predict",
        verdict: "spec-verdict",
        outcome: "spec-buckets",
        // Counting sizes instead of buckets.
        answers: |v| (value(v, "spec-buckets"), value(v, "spec-sizes"), true),
    },
];

/// The calculator's request as the page opens it.
fn request(_: &View) -> String {
    let form = (view::widget("bucket-rounding").unwrap().form)("");
    form.field("calc-input").unwrap().value.clone()
}

/// A field's starting value in the return-contract widget (its form has no `initial=`).
fn native_input(_: &View, id: &str) -> String {
    let form = (view::widget("return-contract").unwrap().form)("");
    form.field(id).unwrap().value.clone()
}

/// The slot's question is asked and nothing of its outcome shows.
async fn asks(w: &WebElement, s: &Slot) -> Result<()> {
    ensure!(!absent(w, s.id).await?, "{}: {} not asked", s.page, s.id);
    ensure!(
        absent(w, s.outcome).await? && absent(w, s.verdict).await?,
        "{}: {} shows before a prediction",
        s.page,
        s.outcome
    );
    Ok(())
}

/// A prediction as the question offers it: a choice's label, or the number grouped.
async fn offered(w: &WebElement, s: &Slot, value: &str) -> Result<String> {
    let choice = format!("{}-{value}", s.id);
    if absent(w, &choice).await? {
        return Ok(e2e::number(value).map_or(value.to_string(), lab_text::group_digits));
    }
    let label = Browser::find(w, &choice)
        .await?
        .find(By::XPath(".."))
        .await?;
    // One line as the verdict writes it (a narrow window may wrap a long label).
    Ok(label
        .text()
        .await?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" "))
}

/// The verdict: held or not, and what the reader predicted, repeated.
async fn verdict(w: &WebElement, s: &Slot, held: bool, said: &str) -> Result<String> {
    let v = Browser::find(w, s.verdict).await?;
    ensure!(
        v.attr("data-held").await?.as_deref() == Some(if held { "true" } else { "false" }),
        "{}: {} held={:?}, want {held}: {:?}",
        s.page,
        s.verdict,
        v.attr("data-held").await?,
        v.text().await?
    );
    let repeated = Browser::text(w, &format!("{}-said", s.verdict)).await?;
    ensure!(
        repeated.contains(said),
        "{}: the verdict repeats {repeated:?}, not {said:?}",
        s.page
    );
    ensure!(
        !absent(w, s.outcome).await?,
        "{}: no outcome after the verdict",
        s.page
    );
    Ok(v.text().await?)
}

#[tokio::test]
async fn every_slot_asks_first_then_grades_a_wrong_and_a_right_prediction() -> Result<()> {
    let b = e2e::session().await?;
    for s in &SLOTS {
        let v = native(s.page, s.widget)?;
        let (right, wrong, mistake) = (s.answers)(&v);
        ensure!(
            !right.is_empty() && right != wrong,
            "{}: {right:?} {wrong:?}",
            s.page
        );
        b.open(s.page).await?;
        let w = common::widget(&b, s.widget).await?;
        asks(&w, s).await?;
        // A wrong first try: a nudge and a second try, still no outcome.
        predict(&w, s.id, &wrong).await?;
        ensure!(
            !Browser::text(&w, &format!("{}-nudge", s.id))
                .await?
                .is_empty(),
            "{}: no nudge after {wrong}",
            s.page
        );
        asks(&w, s).await?;
        // Wrong again: graded, the prediction repeated, the misconception named.
        let said = offered(&w, s, &wrong).await?;
        predict(&w, s.id, &wrong).await?;
        let text = verdict(&w, s, false, &said).await?;
        ensure!(text.contains("did not hold"), "{}: {text}", s.page);
        if mistake {
            ensure!(text.contains("common mistake"), "{}: {text}", s.page);
        }
        // Predict again, and the lab's answer holds.
        click(&Browser::find(&w, &format!("{}-again", s.verdict)).await?).await?;
        asks(&w, s).await?;
        let said = offered(&w, s, &right).await?;
        predict(&w, s.id, &right).await?;
        let text = verdict(&w, s, true, &said).await?;
        ensure!(text.contains("held"), "{}: {text}", s.page);
        eprintln!(
            "{} {}: asked first; {wrong} did not hold, {right} held",
            s.page, s.id
        );
    }
    b.finish().await
}

/// Without scripts each slot draws its question, then its outcome in a closed "Show the
/// outcome" disclosure: the same order as the live page, and the outcome one click away.
#[tokio::test]
async fn without_javascript_the_outcome_waits_behind_a_disclosure() -> Result<()> {
    let b = Browser::start_with(&["--blink-settings=scriptEnabled=false"]).await?;
    for s in &SLOTS {
        b.open_static(s.page).await?;
        let w = common::widget(&b, s.widget).await?;
        let slot = s.id.trim_end_matches("-predict");
        let details = Browser::find(&w, &format!("{slot}-outcome")).await?;
        let question = Browser::find(&w, s.id).await?;
        ensure!(
            question.is_displayed().await?,
            "{}: {} hidden",
            s.page,
            s.id
        );
        ensure!(
            details.attr("open").await?.is_none(),
            "{}: the outcome is open",
            s.page
        );
        let outcome = Browser::find(&w, s.outcome).await?;
        ensure!(
            !outcome.is_displayed().await?,
            "{}: {} shows",
            s.page,
            s.outcome
        );
        let (q, d) = (question.rect().await?, details.rect().await?);
        ensure!(q.y < d.y, "{}: the outcome is above the question", s.page);
        let summary = details.find(By::Tag("summary")).await?;
        ensure!(summary.text().await? == "Show the outcome", "{}", s.page);
        summary.click().await?;
        ensure!(
            outcome.is_displayed().await?,
            "{}: {} still hidden",
            s.page,
            s.outcome
        );
    }
    b.quit().await
}

/// What a phone must get right in a slot that asks (issue 37), as rendered: each choice on one
/// line (never broken inside an option), every control and ✓ mark at least 24 × 24 px to tap
/// (WCAG 2.2, 2.5.8), and every cell of chunking's table shown inside the column.
const SMALL_SCREEN: &str = r##"
const [slot] = arguments;
const bad = [];
const col = document.querySelector("main").getBoundingClientRect();
const root = document.querySelector(`[data-testid="${slot}-result"]`);
for (const c of root.querySelectorAll(".lab-predict .lab-choice")) {
    const lh = parseFloat(getComputedStyle(c).lineHeight) || 24;
    if (c.getBoundingClientRect().height > 1.6 * Math.max(lh, 24))
        bad.push("a choice breaks: " + c.textContent.trim());
}
const targets = [...document.querySelectorAll("main .lab-widget input, main .lab-widget button, main .lab-widget select, main .lab-widget summary, main button.lab-claim")];
for (const t of targets) {
    const r = t.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue; // not shown
    if (t.type === "range") continue; // a slider: the track is the target
    if (r.width < 24 - 0.5 || r.height < 24 - 0.5)
        bad.push(`${t.dataset.testid || t.className || t.tagName} is ${r.width.toFixed(1)} × ${r.height.toFixed(1)} px`);
}
for (const td of root.querySelectorAll("table td")) {
    const r = td.getBoundingClientRect();
    if (r.width === 0 || r.left < col.left - 1 || r.right > col.right + 1)
        bad.push(`a cell outside the column: ${td.dataset.label || ""} ${td.textContent} (${r.left.toFixed(0)}–${r.right.toFixed(0)})`);
}
return bad;
"##;

/// Each slot before and after the prediction at 1280 and 390 px, light and coal: screenshots
/// for a human (`$E2E_SCREENSHOTS`: `predict-{slot}-{width}-{theme}-{before|after}.png`) and,
/// on a phone, [`SMALL_SCREEN`]'s rules before and after.
#[tokio::test]
async fn slots_fit_a_phone_before_and_after_the_prediction() -> Result<()> {
    let b = Browser::start().await?;
    let mut problems = Vec::new();
    for width in [1280, 390] {
        e2e::screen::set_width(&b, width).await?;
        for theme in ["light", "coal"] {
            for s in &SLOTS {
                let v = native(s.page, s.widget)?;
                let (right, _, _) = (s.answers)(&v);
                let slot = s.id.trim_end_matches("-predict");
                b.open(s.page).await?;
                e2e::screen::set_theme(&b, theme).await?;
                // mdBook leaves its theme list open after a choice; on a phone it covers the
                // widget, and a reader closes it.
                b.driver
                    .execute(
                        "document.getElementById('mdbook-theme-list').style.display = 'none';",
                        vec![],
                    )
                    .await?;
                let w = common::widget(&b, s.widget).await?;
                let name = format!(
                    "predict-{}-{slot}-{width}-{theme}",
                    s.page.trim_end_matches(".html")
                );
                let result = Browser::find(&w, &format!("{slot}-result")).await?;
                common::screenshot(&result, &format!("{name}-before")).await?;
                let rules = |when: &'static str| {
                    let b = &b;
                    async move {
                        let bad: Vec<String> = b
                            .driver
                            .execute(SMALL_SCREEN, vec![serde_json::json!(slot)])
                            .await?
                            .convert()?;
                        Ok::<_, anyhow::Error>(
                            bad.into_iter()
                                .map(|p| format!("{} {slot} at {width} px, {when}: {p}", s.page))
                                .collect::<Vec<_>>(),
                        )
                    }
                };
                if width == 390 && theme == "light" {
                    problems.extend(rules("before").await?);
                }
                predict(&w, s.id, &right).await?;
                ensure!(
                    !absent(&w, s.verdict).await?,
                    "{} at {width} px, {theme}: no verdict after {right}",
                    s.page
                );
                let result = Browser::find(&w, &format!("{slot}-result")).await?;
                common::screenshot(&result, &format!("{name}-after")).await?;
                if width == 390 && theme == "light" {
                    problems.extend(rules("after").await?);
                }
            }
        }
    }
    ensure!(problems.is_empty(), "{problems:#?}");
    b.finish().await
}
