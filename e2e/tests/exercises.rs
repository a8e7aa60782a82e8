//! The exercises in the book: each chapter's exercise section shows exactly the skeleton the
//! `exercises` crate holds (the text between its `// ANCHOR: exercise` marks), the Solutions page
//! shows each reference solution folded, and the Exercises page lists every exercise.

use anyhow::{Context, Result, ensure};
use e2e::thirtyfour::prelude::*;
use exercises::EXERCISES;

/// The text of `file` between `// ANCHOR: name` and `// ANCHOR_END: name`, as mdBook includes it.
fn anchored(file: &str, name: &str) -> Result<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(file);
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
    let start = format!("// ANCHOR: {name}");
    let end = format!("// ANCHOR_END: {name}");
    let lines: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != start)
        .skip(1)
        .take_while(|l| l.trim() != end)
        .collect();
    ensure!(!lines.is_empty(), "{file} has no anchor {name:?}");
    Ok(lines.join("\n").trim().to_string())
}

/// The text of every code block of the open page.
async fn code_blocks(b: &e2e::Browser) -> Result<Vec<String>> {
    let mut texts = Vec::new();
    for code in b.driver.find_all(By::Css("main pre code")).await? {
        let text = b
            .driver
            .execute("return arguments[0].textContent;", vec![code.to_json()?])
            .await?;
        texts.push(text.json().as_str().unwrap_or_default().trim().to_string());
    }
    Ok(texts)
}

#[tokio::test]
async fn each_chapter_shows_the_skeleton_the_crate_holds() -> Result<()> {
    let b = e2e::session().await?;
    for e in EXERCISES {
        let skeleton = anchored(&e.student_file(), "exercise")?;
        ensure!(
            skeleton.contains("todo!()"),
            "{}: the anchored skeleton has no todo!()",
            e.stem
        );
        b.open(&e.page()).await?;
        let blocks = code_blocks(&b).await?;
        ensure!(
            blocks.contains(&skeleton),
            "{}: no code block equals the skeleton of {} ({} blocks on the page)",
            e.page(),
            e.student_file(),
            blocks.len()
        );
        b.assert_no_errors().await?;
    }
    b.quit().await
}

#[tokio::test]
async fn the_solutions_page_folds_every_solution() -> Result<()> {
    let b = e2e::session_on("solutions.html").await?;
    let blocks = code_blocks(&b).await?;
    for e in EXERCISES {
        let solution = anchored(&e.solution_file(), "solution")?;
        ensure!(
            blocks.contains(&solution),
            "solutions.html does not show {}",
            e.solution_file()
        );
        let folded = b
            .driver
            .find(By::Css(format!("#exercise-{} ~ details", e.number)))
            .await?;
        let open = b
            .driver
            .execute("return arguments[0].open;", vec![folded.to_json()?])
            .await?;
        ensure!(
            open.json().as_bool() == Some(false),
            "solutions.html: exercise {}'s solution is open before the reader opens it",
            e.number
        );
    }
    b.assert_no_errors().await?;
    b.open("exercises.html").await?;
    let text = b.driver.find(By::Css("main")).await?.text().await?;
    for e in EXERCISES {
        ensure!(
            text.contains(&e.student_file()),
            "exercises.html does not list {}",
            e.student_file()
        );
    }
    b.finish().await
}
