//! Every chapter's live quiz taken as a reader takes it, graded against the lab computed natively
//! here from each question's parameters and the page's data: a mistake gets a hint and not the
//! answer, a second miss shows it, progress shows on the progress page and survives a reload,
//! the order changes across loads, and a keyboard alone is enough.

use anyhow::{Context, Result, ensure};
use e2e::Browser;
use e2e::reader::{OpenQuiz, click, find_question, give, page_data, quiz_root, replay, take_quiz};
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
    let b = e2e::session_on("capacity.html").await?;
    let quiz = OpenQuiz::of(&b, "capacity").await?;
    let (q, question) = quiz.question("bytes-per-round").await?;
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
    let score = Browser::text(&quiz.root, "quiz-score").await?;
    ensure!(score.contains("2 attempts · 1 answer shown"), "{score:?}");
    b.finish().await
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
    let b = e2e::session_on("cliff.html").await?;
    let quiz = OpenQuiz::of(&b, "cliff").await?;
    let (q, question) = quiz.question("glibc-chunk").await?;
    give(&q, &question, &question.wrong_answer()).await?;
    give(&q, &question, &question.right_answer()).await?;
    let other = find_question(&quiz.root, "new-in-loh").await?;
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
    let q = find_question(&root, "glibc-chunk").await?;
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
    b.finish().await
}

#[tokio::test]
async fn corrupt_progress_is_set_aside_with_a_notice() -> Result<()> {
    let b = e2e::session_on("bucket-rounding.html").await?;
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
    b.finish().await
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
    b.finish().await
}

#[tokio::test]
async fn a_keyboard_alone_answers() -> Result<()> {
    let b = e2e::session_on("bucket-rounding.html").await?;
    let quiz = OpenQuiz::of(&b, "bucket-rounding").await?;
    // A typed answer: type it and press Enter.
    let (q, question) = quiz.question("wasted-bytes").await?;
    let input = Browser::find(&q, "answer").await?;
    input.send_keys(question.right_answer()).await?;
    input.send_keys(Key::Enter).await?;
    let feedback = Browser::text(&q, "feedback").await?;
    ensure!(feedback.starts_with("✔ Correct"), "{feedback:?}");
    // Options: Space picks the focused one, arrows move through them, Tab reaches Check.
    let (q, question) = quiz.question("buffer-length").await?;
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
    b.finish().await
}

#[tokio::test]
async fn print_page_prints_questions_and_an_answer_key() -> Result<()> {
    let b = e2e::session_on("print.html").await?;
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
    let notes = b
        .driver
        .find_all(By::Css("[data-testid=\"print-note\"]"))
        .await?;
    ensure!(notes.is_empty(), "the print page points to itself");
    // On screen the printed form is hidden; in print the live quiz is.
    ensure!(!printed[0].is_displayed().await?);
    let live = b.driver.find(By::Css(".lab-quiz")).await?;
    ensure!(live.is_displayed().await?);
    b.emulate_media("print").await?;
    ensure!(
        printed[0].is_displayed().await?,
        "printed questions hidden in print"
    );
    ensure!(keys[0].is_displayed().await?, "answer key hidden in print");
    ensure!(
        !live.is_displayed().await?,
        "the live quiz prints its empty fields"
    );
    b.finish().await
}

/// A chapter's page does not carry the printed quiz (only print.html does, issue 36); printed,
/// it says where the questions and their key are.
#[tokio::test]
async fn a_chapter_page_points_its_printout_to_the_print_page() -> Result<()> {
    let b = e2e::session_on("why-pool.html").await?;
    let printed = b.driver.find_all(By::Css(".lab-quiz-print")).await?;
    ensure!(printed.is_empty(), "{} printed quizzes", printed.len());
    let keys = b
        .driver
        .find_all(By::Css("[data-testid=\"answer-key\"]"))
        .await?;
    ensure!(keys.is_empty(), "{} answer keys", keys.len());
    let source = b.driver.source().await?;
    ensure!(
        !source.contains("lab-print-only"),
        "a marker left in the page"
    );
    let note = b
        .driver
        .find(By::Css("[data-testid=\"print-note\"]"))
        .await?;
    ensure!(
        !note.is_displayed().await?,
        "the print note shows on screen"
    );
    b.emulate_media("print").await?;
    ensure!(note.is_displayed().await?, "the print note does not print");
    let link = note.find(By::Css("a")).await?;
    ensure!(link.attr("href").await?.as_deref() == Some("print.html"));
    b.finish().await
}

/// How a question with code reads on a phone (390 px): its number starts its prompt, its code is
/// highlighted by mdBook's highlight.js and scrolls inside its own box, and nothing on the page
/// is wider than the column.
#[tokio::test]
async fn a_question_with_code_reads_in_order_on_a_phone() -> Result<()> {
    let b = e2e::session().await?;
    e2e::screen::set_width(&b, 390).await?;
    b.open("return-contract.html").await?;
    let root = quiz_root(&b, "return-contract").await?;
    let q = find_question(&root, "does-it-compile").await?;
    q.scroll_into_view().await?;
    let index: usize = q.attr("data-index").await?.unwrap_or_default().parse()?;
    let prompt = Browser::find(&q, "prompt").await?;
    let number = prompt.find(By::Css(".lab-qnum")).await?.text().await?;
    ensure!(number == format!("{}.", index + 1), "{number:?}");
    ensure!(
        prompt.text().await?.starts_with(&number),
        "the number is not the prompt's first word"
    );
    // The number sits beside the prompt: level with it, left of everything under it.
    let (p, options) = (
        prompt.rect().await?,
        q.find(By::Css(".lab-options")).await?.rect().await?,
    );
    let n = prompt.find(By::Css(".lab-qnum")).await?.rect().await?;
    ensure!(
        (n.y - p.y).abs() < 4.0 && n.y < options.y,
        "number at {n:?}, prompt at {p:?}"
    );
    let code = Browser::find(&q, "code").await?;
    let highlighted = code.find_all(By::Css("code [class^=\"hljs-\"]")).await?;
    ensure!(
        !highlighted.is_empty(),
        "the question's code is not highlighted"
    );
    let scrolls: String = b
        .driver
        .execute(
            "const pre = arguments[0]; const code = pre.querySelector('code');
             const main = document.querySelector('main').getBoundingClientRect();
             const r = pre.getBoundingClientRect();
             return [getComputedStyle(pre).overflowX, getComputedStyle(code).overflowX,
                     r.right <= main.right + 1 ? 'inside' : 'wider'].join(' ');",
            vec![code.to_json()?],
        )
        .await?
        .convert()?;
    ensure!(
        scrolls.contains("auto") && scrolls.ends_with("inside"),
        "the code box: {scrolls}"
    );
    let wide = e2e::screen::overflow(&b).await?;
    ensure!(wide.is_empty(), "{wide:#?}");
    b.assert_no_errors().await?;
    b.devtools(
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .await?;
    b.quit().await
}

/// A widget's short check and the chapter's quiz keep separate records: answering the check
/// right neither solves the chapter's question of the same kind nor adds to its attempts, and the
/// stored progress holds the check under its own key.
#[tokio::test]
async fn a_short_check_keeps_its_own_record() -> Result<()> {
    let b = e2e::session_on("chunking.html").await?;
    let check = b.by_testid("quiz-chunking-check").await?;
    let page = page_data(&check).await?;
    let q = check
        .find(By::Css("[data-testid=\"question\"]"))
        .await
        .context("the short check shows no question")?;
    let kind = q.attr("data-kind").await?.unwrap_or_default();
    let question = replay("chunking", &q, &page).await?;
    let said = give(&q, &question, &question.right_answer()).await?;
    ensure!(said.starts_with("✔ Correct"), "{said:?}");
    ensure!(
        Browser::text(&check, "quiz-score").await? == "Solved 1 of 1 · 1 attempt · 0 answers shown",
        "check score: {:?}",
        Browser::text(&check, "quiz-score").await?
    );
    let chapter = quiz_root(&b, "chunking").await?;
    let score = Browser::text(&chapter, "quiz-score").await?;
    ensure!(
        score.starts_with("Solved 0 of"),
        "chapter quiz after the check: {score:?}"
    );
    let stored = b
        .driver
        .execute(
            "return localStorage.getItem('pools-and-chunks/progress');",
            vec![],
        )
        .await?
        .json()
        .as_str()
        .unwrap_or_default()
        .to_string();
    let p = wasm_lab::progress::Progress::from_json(&stored).map_err(anyhow::Error::msg)?;
    ensure!(p.tally("chunking/check", &kind).solved(), "{stored}");
    ensure!(p.tally("chunking", &kind).attempts == 0, "{stored}");
    // The chapter's row on the progress page counts the chapter's quiz only.
    b.open(PROGRESS).await?;
    ensure!(progress_row(&b, "chunking").await?.1 == "0");
    b.finish().await
}
