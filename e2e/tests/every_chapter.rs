//! Every chapter of the book, opened as a reader opens it: the lab mounts every widget and quiz,
//! every cited figure and claim agrees with `book/data`, and the browser reports no error.

use anyhow::{Result, ensure};
use e2e::thirtyfour::prelude::*;

#[tokio::test]
async fn every_chapter_mounts_its_lab_and_cites_its_data() -> Result<()> {
    let data = e2e::book_data()?;
    let chapters = e2e::chapters()?;
    ensure!(chapters.len() >= 10, "SUMMARY.md lists only {chapters:?}");
    let b = e2e::session().await?;
    let (mut figures, mut claims) = (0, 0);
    for page in &chapters {
        b.open(page).await?;
        b.assert_all_mounted(page).await?;
        b.assert_no_directive_text(page).await?;
        let failures = b
            .driver
            .find_all(By::Css("[data-testid=\"lab-failure\"]"))
            .await?;
        ensure!(
            failures.is_empty(),
            "{page}: {} widget(s) failed to start",
            failures.len()
        );
        let is_story = !matches!(
            page.as_str(),
            "introduction.html"
                | "method.html"
                | "instructors.html"
                | "contributors.html"
                | "progress.html"
                | "checklist.html"
                | "exercises.html"
                | "solutions.html"
                | "glossary.html"
                | "sources.html"
        );
        if is_story {
            let widgets = b.driver.find_all(By::Css("[data-lab-widget]")).await?;
            ensure!(!widgets.is_empty(), "{page} has no live widget");
            // The chapter's full quiz (short checks after widgets carry `data-kinds`).
            let quiz = b
                .driver
                .find(By::Css("[data-lab-quiz]:not([data-kinds])"))
                .await?;
            let questions = quiz.find_all(By::Css("[data-testid=\"question\"]")).await?;
            ensure!(
                questions.len() >= 3,
                "{page}: quiz has {} questions",
                questions.len()
            );
        }
        let (f, c) = e2e::check_figures(&b, &data).await?;
        figures += f;
        claims += c;
        b.assert_no_errors().await?;
    }
    // The print page holds every chapter once more, rendered the same way.
    b.open("print.html").await?;
    b.assert_no_directive_text("print.html").await?;
    eprintln!(
        "{} chapters, {figures} figures and {claims} claims checked",
        chapters.len()
    );
    b.quit().await
}
