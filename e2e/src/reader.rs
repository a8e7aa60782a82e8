//! Using widgets and quizzes as a reader does: clicks that scroll first, and quizzes answered
//! with a mistake, then right, graded against the lab computed natively in the test from the
//! parameters each question carries (`data-params`) and the page's data (`data-page`).

use anyhow::{Context, Result, anyhow, ensure};
use thirtyfour::prelude::*;
use wasm_lab::quiz::{Page, Question};

use crate::Browser;

/// Clicks like a reader: the element is first scrolled to the middle of the window, so mdBook's
/// sticky menu bar never covers it.
pub async fn click(e: &WebElement) -> Result<()> {
    e.scroll_into_view().await?;
    e.click().await?;
    Ok(())
}

/// The mounted quiz `id` on the open page.
pub async fn quiz_root(b: &Browser, id: &str) -> Result<WebElement> {
    b.by_testid(&format!("quiz-{id}")).await
}

/// The question of kind `kind` (`data-kind`) in the quiz `root`.
pub async fn find_question(root: &WebElement, kind: &str) -> Result<WebElement> {
    root.find(By::Css(format!(
        "[data-testid=\"question\"][data-kind=\"{kind}\"]"
    )))
    .await
    .with_context(|| format!("no {kind} question"))
}

/// The data the page gave the quiz (figures, rustc's verdicts).
pub async fn page_data(root: &WebElement) -> Result<Page> {
    let json = root.attr("data-page").await?.unwrap_or_default();
    Page::from_json(&json).map_err(anyhow::Error::msg)
}

/// The question shown in `q`, replayed natively from its parameters.
pub async fn replay(quiz: &str, q: &WebElement, page: &Page) -> Result<Question> {
    let spec = wasm_lab::quiz::quiz(quiz).ok_or_else(|| anyhow!("no quiz {quiz}"))?;
    let name = q.attr("data-kind").await?.unwrap_or_default();
    let kind = spec
        .kind(&name)
        .ok_or_else(|| anyhow!("unknown question kind {name:?}"))?;
    let params = q.attr("data-params").await?.unwrap_or_default();
    kind.replay(&params, page).map_err(anyhow::Error::msg)
}

/// A mounted quiz of the open page with the data the page gave it: where a test picks a question
/// of one kind and replays it natively.
pub struct OpenQuiz {
    pub id: String,
    pub root: WebElement,
    pub page: Page,
}

impl OpenQuiz {
    /// The quiz `id` on the open page.
    pub async fn of(b: &Browser, id: &str) -> Result<OpenQuiz> {
        let root = quiz_root(b, id).await?;
        let page = page_data(&root).await?;
        Ok(OpenQuiz {
            id: id.to_string(),
            root,
            page,
        })
    }

    /// Its question of kind `kind`, as shown and as the lab computes it from its parameters.
    pub async fn question(&self, kind: &str) -> Result<(WebElement, Question)> {
        let q = find_question(&self.root, kind).await?;
        let question = replay(&self.id, &q, &self.page).await?;
        Ok((q, question))
    }
}

/// Types or picks `given` and clicks Check; returns the feedback.
pub async fn give(q: &WebElement, question: &Question, given: &str) -> Result<String> {
    if question.solution.numeric {
        Browser::type_into(q, "answer", given).await?;
    } else {
        let mut found = false;
        for radio in q.find_all(By::Css("input[type=radio]")).await? {
            if radio.attr("value").await?.as_deref() == Some(given) {
                click(&radio).await?;
                found = true;
            }
        }
        ensure!(found, "{}: no option {given:?}", question.kind);
    }
    click(&Browser::find(q, "check").await?).await?;
    Browser::text(q, "feedback").await
}

/// Answers one question with a mistake (a hint, not the answer), then right.
pub async fn answer(quiz: &str, q: &WebElement, page: &Page) -> Result<()> {
    let question = replay(quiz, q, page).await?;
    let wrong = question.wrong_answer();
    let hint = give(q, &question, &wrong).await?;
    ensure!(
        hint.starts_with("✘ Not quite"),
        "{quiz}/{} answered {wrong}: {hint:?}",
        question.kind
    );
    let shown = question.solution.shown();
    ensure!(
        !hint.contains("The answer is")
            && (shown.len() < 3 || question.prompt.contains(&shown) || !hint.contains(&shown)),
        "{quiz}/{}: the first miss gives the answer away: {hint:?}",
        question.kind
    );
    let right = give(q, &question, &question.right_answer()).await?;
    ensure!(
        right.starts_with("✔ Correct") && right.len() > 40,
        "{quiz}/{}: {right:?}",
        question.kind
    );
    Ok(())
}

/// Answers every question of the quiz `id` with a mistake then right, checks the score line,
/// draws fresh values for every question (the feedback clears), and answers the first again.
pub async fn take_quiz(b: &Browser, id: &str) -> Result<()> {
    let quiz = quiz_root(b, id).await?;
    let page = page_data(&quiz).await?;
    let questions = quiz.find_all(By::Css("[data-testid=\"question\"]")).await?;
    ensure!(
        questions.len() >= 3,
        "{id}: only {} questions",
        questions.len()
    );
    for q in &questions {
        answer(id, q, &page).await?;
    }
    let n = questions.len();
    let score = Browser::text(&quiz, "quiz-score").await?;
    ensure!(
        score == format!("Solved {n} of {n} · {} attempts · 0 answers shown", 2 * n),
        "{id}: score {score:?}"
    );
    for q in &questions {
        click(&Browser::find(q, "next").await?).await?;
        ensure!(
            Browser::text(q, "feedback").await?.is_empty(),
            "{id}: feedback kept after a new draw"
        );
    }
    answer(id, &questions[0], &page).await
}
