//! Every chapter's live quiz taken as a reader takes it: each question answered wrong, then right,
//! graded against the lab computed natively here; fresh values drawn; the score line checked.
//! (Bucket rounding's quiz has its own, longer test: progress across reloads and corruption.)

use anyhow::{Context, Result, ensure};
use e2e::reader::take_quiz_mentioning;

/// Page, quiz id, and a word every feedback must contain (the hazard quizzes say the lab ran it).
const QUIZZES: &[(&str, &str, Option<&str>)] = &[
    ("why-pool.html", "why-pool", Some("lab")),
    ("stale-data.html", "stale-data", Some("lab")),
    ("return-contract.html", "return-contract", Some("lab")),
    ("capacity.html", "capacity", None),
    ("cliff.html", "cliff", None),
    ("chunking.html", "chunking", None),
    ("size-specialized.html", "size-specialized", None),
];

#[tokio::test]
async fn every_quiz_is_graded_by_the_lab() -> Result<()> {
    for quiz in wasm_lab::quiz::QUIZZES {
        let covered = quiz.id == "bucket-rounding" || QUIZZES.iter().any(|q| q.1 == quiz.id);
        ensure!(
            covered,
            "quiz {} is not taken by any end-to-end test",
            quiz.id
        );
    }
    let b = e2e::session().await?;
    for &(page, quiz, mention) in QUIZZES {
        b.open(page).await?;
        take_quiz_mentioning(&b, quiz, mention)
            .await
            .with_context(|| format!("the {quiz} quiz on {page}"))?;
        b.assert_no_errors().await?;
    }
    b.quit().await
}
