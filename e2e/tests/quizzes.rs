//! Every chapter's live quiz taken as a reader takes it, graded against the lab computed natively
//! here from each question's parameters and the page's data: a mistake gets a hint and not the
//! answer, a second miss shows it, progress shows on the progress page and survives a reload,
//! the order changes across loads, and a keyboard alone is enough.

use anyhow::{Context, Result, ensure};
use e2e::Browser;
use e2e::reader::{click, give, page_data, quiz_root, replay, take_quiz};
use e2e::thirtyfour::prelude::*;

const PROGRESS: &str = "progress.html";

#[tokio::test]
async fn every_quiz_is_graded_by_the_lab() -> Result<()> {
    let b = e2e::session().await?;
    for quiz in wasm_lab::quiz::quizzes() {
        let page = format!("{}.html", quiz.id);
        b.open(&page).await?;
        take_quiz(&b, quiz.id)
            .await
            .with_context(|| format!("the {} quiz on {page}", quiz.id))?;
        b.assert_no_errors().await?;
    }
    b.quit().await
}

#[tokio::test]
async fn a_second_miss_shows_the_answer() -> Result<()> {
    let b = e2e::session().await?;
    b.open("capacity.html").await?;
    let root = quiz_root(&b, "capacity").await?;
    let page = page_data(&root).await?;
    let q = root
        .find(By::Css(
            "[data-testid=\"question\"][data-kind=\"bytes-per-round\"]",
        ))
        .await?;
    let question = replay("capacity", &q, &page).await?;
    let right: u64 = question.right_answer().parse()?;
    let unreadable = give(&q, &question, "abc").await?;
    ensure!(unreadable.contains("could not be read"), "{unreadable:?}");
    let first = give(&q, &question, &(right + 1).to_string()).await?;
    ensure!(
        first.starts_with("✘ Not quite") && !first.contains(&question.solution.shown()),
        "{first:?}"
    );
    let second = give(&q, &question, &(right + 2).to_string()).await?;
    ensure!(
        second.contains(&format!("The answer is {}", question.solution.shown())),
        "{second:?}"
    );
    let score = Browser::text(&root, "quiz-score").await?;
    ensure!(score.contains("2 attempts · 1 answer shown"), "{score:?}");
    b.assert_no_errors().await?;
    b.quit().await
}

/// The score cell of `quiz` on the progress page.
async fn progress_row(b: &Browser, quiz: &str) -> Result<(String, String, String)> {
    let row = b.by_testid(&format!("progress-{quiz}")).await?;
    Ok((
        Browser::text(&row, "solved").await?,
        Browser::text(&row, "attempts").await?,
        Browser::text(&row, "revealed").await?,
    ))
}

#[tokio::test]
async fn progress_page_reflects_chapter_answers_and_survives_a_reload() -> Result<()> {
    let b = e2e::session().await?;
    b.open("cliff.html").await?;
    let root = quiz_root(&b, "cliff").await?;
    let page = page_data(&root).await?;
    let q = root
        .find(By::Css(
            "[data-testid=\"question\"][data-kind=\"glibc-chunk\"]",
        ))
        .await?;
    let question = replay("cliff", &q, &page).await?;
    give(&q, &question, &question.wrong_answer()).await?;
    give(&q, &question, &question.right_answer()).await?;
    let other = root
        .find(By::Css(
            "[data-testid=\"question\"][data-kind=\"new-in-loh\"]",
        ))
        .await?;
    click(&Browser::find(&other, "reveal").await?).await?;
    let kinds = wasm_lab::quiz::quiz("cliff").unwrap().kinds.len();
    let want = (format!("1 of {kinds}"), "2".to_string(), "1".to_string());

    b.open(PROGRESS).await?;
    ensure!(
        progress_row(&b, "cliff").await? == want,
        "{:?}",
        progress_row(&b, "cliff").await?
    );
    b.reload().await?;
    ensure!(progress_row(&b, "cliff").await? == want, "after a reload");

    // Back on the chapter, the solved question says so after the reload.
    b.open("cliff.html").await?;
    let root = quiz_root(&b, "cliff").await?;
    let q = root
        .find(By::Css(
            "[data-testid=\"question\"][data-kind=\"glibc-chunk\"]",
        ))
        .await?;
    ensure!(q.attr("data-solved").await?.as_deref() == Some("true"));
    ensure!(
        Browser::text(&q, "solved-mark")
            .await?
            .contains("solved this question before")
    );

    // Resetting asks first.
    b.open(PROGRESS).await?;
    let row = b.by_testid("progress-cliff").await?;
    click(&Browser::find(&row, "reset").await?).await?;
    ensure!(
        progress_row(&b, "cliff").await? == want,
        "reset without confirmation"
    );
    click(&Browser::find(&row, "reset-yes").await?).await?;
    ensure!(progress_row(&b, "cliff").await?.1 == "0");
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn corrupt_progress_is_set_aside_with_a_notice() -> Result<()> {
    let b = e2e::session().await?;
    b.open("bucket-rounding.html").await?;
    b.driver
        .execute("localStorage.setItem('pools-and-chunks/progress', '{\"version\":1,\"quizzes\":{\"bucket-rounding\":{\"bucket-index\":{\"attempts\":1,\"correct\":5}}}}');", vec![])
        .await?;
    b.reload().await?;
    let quiz = quiz_root(&b, "bucket-rounding").await?;
    let notice = Browser::find(&quiz, "quiz-notice").await?;
    ensure!(
        notice.is_displayed().await?,
        "no notice for corrupt progress"
    );
    let text = notice.text().await?;
    ensure!(
        text.contains("could not be read") && !text.contains("expected"),
        "{text:?}"
    );
    let score = Browser::text(&quiz, "quiz-score").await?;
    ensure!(score.starts_with("Solved 0 of"), "{score:?}");
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn shuffling_changes_the_order_across_loads() -> Result<()> {
    let b = e2e::session().await?;
    let mut orders = std::collections::BTreeSet::new();
    for _ in 0..6 {
        b.open("why-pool.html").await?;
        let root = quiz_root(&b, "why-pool").await?;
        let mut order = Vec::new();
        for q in root.find_all(By::Css("[data-testid=\"question\"]")).await? {
            order.push(q.attr("data-kind").await?.unwrap_or_default());
        }
        orders.insert(order);
        if orders.len() > 1 {
            break;
        }
    }
    ensure!(orders.len() > 1, "the same order on six loads: {orders:?}");
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn a_keyboard_alone_answers() -> Result<()> {
    let b = e2e::session().await?;
    b.open("bucket-rounding.html").await?;
    let root = quiz_root(&b, "bucket-rounding").await?;
    let page = page_data(&root).await?;
    // A typed answer: type it and press Enter.
    let q = root
        .find(By::Css(
            "[data-testid=\"question\"][data-kind=\"wasted-bytes\"]",
        ))
        .await?;
    let question = replay("bucket-rounding", &q, &page).await?;
    let input = Browser::find(&q, "answer").await?;
    input.send_keys(question.right_answer()).await?;
    input.send_keys(Key::Enter).await?;
    let feedback = Browser::text(&q, "feedback").await?;
    ensure!(feedback.starts_with("✔ Correct"), "{feedback:?}");
    // Options: Space picks the focused one, arrows move through them, Tab reaches Check.
    let q = root
        .find(By::Css(
            "[data-testid=\"question\"][data-kind=\"buffer-length\"]",
        ))
        .await?;
    let question = replay("bucket-rounding", &q, &page).await?;
    let radios = q.find_all(By::Css("input[type=radio]")).await?;
    radios[0].send_keys(Key::Space).await?;
    for _ in 0..radios.len() {
        let active = b.driver.active_element().await?;
        if active.attr("value").await?.as_deref() == Some(question.right_answer().as_str()) {
            break;
        }
        active.send_keys(Key::Down).await?;
    }
    let active = b.driver.active_element().await?;
    ensure!(
        active.is_selected().await?,
        "the arrows did not pick an option"
    );
    active.send_keys(Key::Tab).await?;
    let check = b.driver.active_element().await?;
    ensure!(
        check.attr("data-testid").await?.as_deref() == Some("check"),
        "Tab did not reach Check"
    );
    check.send_keys(Key::Enter).await?;
    let feedback = Browser::text(&q, "feedback").await?;
    ensure!(feedback.starts_with("✔ Correct"), "{feedback:?}");
    b.assert_no_errors().await?;
    b.quit().await
}

#[tokio::test]
async fn print_page_prints_questions_and_an_answer_key() -> Result<()> {
    let b = e2e::session().await?;
    b.open("print.html").await?;
    let printed = b.driver.find_all(By::Css(".lab-quiz-print")).await?;
    let quizzes = wasm_lab::quiz::quizzes().count();
    ensure!(
        printed.len() >= quizzes,
        "{} printed quizzes",
        printed.len()
    );
    let keys = b
        .driver
        .find_all(By::Css("[data-testid=\"answer-key\"]"))
        .await?;
    ensure!(
        keys.len() == quizzes,
        "{} answer keys for {quizzes} quizzes",
        keys.len()
    );
    // On screen the printed form is hidden; in print the live quiz is.
    ensure!(!printed[0].is_displayed().await?);
    let live = b.driver.find(By::Css(".lab-quiz")).await?;
    ensure!(live.is_displayed().await?);
    b.driver
        .cdp()
        .send_raw(
            "Emulation.setEmulatedMedia",
            serde_json::json!({ "media": "print" }),
        )
        .await?;
    ensure!(
        printed[0].is_displayed().await?,
        "printed questions hidden in print"
    );
    ensure!(keys[0].is_displayed().await?, "answer key hidden in print");
    ensure!(
        !live.is_displayed().await?,
        "the live quiz prints its empty fields"
    );
    b.assert_no_errors().await?;
    b.quit().await
}
