//! Helpers shared by the chapter 5–8 end-to-end tests: widgets, selects, and answering a live
//! quiz as a reader would (wrong, then right), graded against the lab computed natively here.
#![allow(dead_code)]

use anyhow::{Result, anyhow, ensure};
use e2e::Browser;
use e2e::thirtyfour::prelude::*;
use wasm_lab::quiz::{Question, Rng};

/// A seed that differs on every run, printed so a failure can be replayed.
pub fn fresh_rng(what: &str) -> Rng {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    eprintln!("{what}: drawn with seed {seed}");
    Rng::new(seed)
}

pub async fn widget(b: &Browser, name: &str) -> Result<WebElement> {
    Ok(b.driver
        .find(By::Css(format!("[data-testid=\"widget-{name}\"]")))
        .await?)
}

/// Clicks like a reader: the element is first scrolled to the middle of the window, so mdBook's
/// sticky menu bar never covers it.
pub async fn click(e: &WebElement) -> Result<()> {
    e.scroll_into_view().await?;
    e.click().await?;
    Ok(())
}

/// Picks an option of a `<select>` by clicking it, as a reader does.
pub async fn choose(root: &WebElement, id: &str, value: &str) -> Result<()> {
    let select = Browser::find(root, id).await?;
    click(&select).await?;
    let option = select
        .find(By::Css(format!("option[value=\"{value}\"]")))
        .await?;
    option.click().await?;
    Ok(())
}

/// Asserts the widget shows `says` in its error element, visibly.
pub async fn error_says(root: &WebElement, id: &str, says: &str) -> Result<()> {
    let e = Browser::find(root, id).await?;
    ensure!(
        e.is_displayed().await?,
        "{id}: no message shown (wanted {says:?})"
    );
    let t = e.text().await?;
    ensure!(t.contains(says), "{id}: {t:?} does not say {says:?}");
    Ok(())
}

pub async fn no_error(root: &WebElement, id: &str) -> Result<()> {
    let e = Browser::find(root, id).await?;
    ensure!(!e.is_displayed().await?, "{id} shows {:?}", e.text().await?);
    Ok(())
}

/// Answers one question wrong, then right, checking the feedback each time.
async fn answer(quiz: &str, q: &WebElement) -> Result<()> {
    let spec = wasm_lab::quiz::quiz(quiz).ok_or_else(|| anyhow!("no quiz {quiz}"))?;
    let name = q.attr("data-kind").await?.unwrap_or_default();
    let kind = spec
        .kind(&name)
        .ok_or_else(|| anyhow!("unknown question kind {name:?}"))?;
    let value: u64 = q.attr("data-value").await?.unwrap_or_default().parse()?;
    let right = Question::new(kind, value).expected();
    let wrong = if kind.choices().is_empty() {
        (right.parse::<u64>()? + 1).to_string()
    } else {
        kind.choices()
            .iter()
            .find(|c| **c != right)
            .ok_or_else(|| anyhow!("{name}: one choice only"))?
            .to_string()
    };
    for (given, correct) in [(&wrong, false), (&right, true)] {
        if kind.choices().is_empty() {
            Browser::type_into(q, "answer", given).await?;
        } else {
            click(&Browser::find(q, &format!("choice-{given}")).await?).await?;
        }
        click(&Browser::find(q, "check").await?).await?;
        let feedback = Browser::text(q, "feedback").await?;
        let prefix = if correct {
            "✔ Correct"
        } else {
            "✘ Not quite"
        };
        ensure!(
            feedback.starts_with(prefix),
            "{quiz}/{name} for {value}, answered {given}: {feedback:?}"
        );
        ensure!(feedback.len() > 40, "{name}: no explanation: {feedback:?}");
        if !correct {
            let shown = right
                .parse::<u64>()
                .map_or(right.clone(), wasm_lab::input::group_digits);
            ensure!(
                feedback.contains(&shown),
                "{name}: feedback does not give the answer {shown}"
            );
        }
    }
    Ok(())
}

/// Answers every question of the quiz `id`, draws a fresh value for the first and answers it
/// again, and checks the score line.
pub async fn take_quiz(b: &Browser, id: &str) -> Result<()> {
    let quiz = b
        .driver
        .find(By::Css(format!("[data-testid=\"quiz-{id}\"]")))
        .await?;
    let questions = quiz.find_all(By::Css("[data-testid=\"question\"]")).await?;
    ensure!(
        questions.len() >= 3,
        "{id}: only {} questions",
        questions.len()
    );
    for q in &questions {
        answer(id, q).await?;
    }
    let n = questions.len();
    let score = Browser::text(&quiz, "quiz-score").await?;
    ensure!(
        score == format!("Solved {n} of {n} · {} attempts", 2 * n),
        "{id}: score {score:?}"
    );
    click(&Browser::find(&questions[0], "next").await?).await?;
    ensure!(Browser::text(&questions[0], "feedback").await?.is_empty());
    answer(id, &questions[0]).await
}

/// Numbers as shown ("1,048,576") back to integers.
pub fn num(text: &str) -> Result<u64> {
    e2e::number(text).ok_or_else(|| anyhow!("not a number: {text:?}"))
}
