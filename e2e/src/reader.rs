//! Using widgets and quizzes as a reader does: clicks that scroll first, and quizzes answered
//! wrong then right, graded against the lab computed natively in the test.

use anyhow::{Result, anyhow, ensure};
use thirtyfour::prelude::*;
use wasm_lab::quiz::Question;

use crate::Browser;

/// Clicks like a reader: the element is first scrolled to the middle of the window, so mdBook's
/// sticky menu bar never covers it.
pub async fn click(e: &WebElement) -> Result<()> {
    e.scroll_into_view().await?;
    e.click().await?;
    Ok(())
}

/// Answers one question wrong, then right, checking the feedback each time.
pub async fn answer(quiz: &str, q: &WebElement, mention: Option<&str>) -> Result<()> {
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
        if let Some(word) = mention {
            ensure!(
                feedback.contains(word),
                "{name}: feedback does not mention {word:?}: {feedback:?}"
            );
        }
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

/// Answers every question of the quiz `id` wrong then right, checks the score line, draws fresh
/// values for every question (the feedback clears), and answers the first one again.
pub async fn take_quiz(b: &Browser, id: &str) -> Result<()> {
    take_quiz_mentioning(b, id, None).await
}

/// [`take_quiz`], also requiring every feedback to contain `mention` (e.g. that the lab ran it).
pub async fn take_quiz_mentioning(b: &Browser, id: &str, mention: Option<&str>) -> Result<()> {
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
        answer(id, q, mention).await?;
    }
    let n = questions.len();
    let score = Browser::text(&quiz, "quiz-score").await?;
    ensure!(
        score == format!("Solved {n} of {n} · {} attempts", 2 * n),
        "{id}: score {score:?}"
    );
    for q in &questions {
        click(&Browser::find(q, "next").await?).await?;
        ensure!(
            Browser::text(q, "feedback").await?.is_empty(),
            "{id}: feedback kept after a new draw"
        );
    }
    answer(id, &questions[0], mention).await
}
