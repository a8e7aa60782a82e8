//! The exercises' download (issue 40) as a reader reaches it: the Exercises page and every
//! chapter with an exercise link the archive that `cargo xtask build` wrote into the site, in
//! every language, and the browser gets it whole (a gzip stream of the built file's length).
//! That the archive builds and grades in an empty folder, offline, is checked by `cargo xtask
//! exercises verify` (`xtask/src/download.rs`), a step of `cargo xtask test`.

use anyhow::{Context, Result, ensure};
use e2e::thirtyfour::prelude::*;
use exercises::EXERCISES;

/// The archive's name, as `xtask/src/download.rs` writes it.
const ARCHIVE: &str = "pools-and-chunks-exercises.tar.gz";

/// The archive as the build wrote it (`book/build/download/`), for its length.
fn built_length() -> Result<u64> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../book/build/download")
        .join(ARCHIVE);
    Ok(std::fs::metadata(&path)
        .with_context(|| format!("{} (run cargo xtask build)", path.display()))?
        .len())
}

/// Fetches the open page's download link in the page: its absolute URL, HTTP status, length
/// and first two bytes.
async fn fetch_link(b: &e2e::Browser) -> Result<(String, u64, u64, Vec<u64>)> {
    let got = b
        .driver
        .execute_async(
            &format!(
                r#"const done = arguments[arguments.length - 1];
                const a = document.querySelector('main a[href$="{ARCHIVE}"]');
                if (!a) {{ done(null); return; }}
                fetch(a.href).then(r => r.arrayBuffer().then(buf => {{
                  const bytes = new Uint8Array(buf);
                  done([a.href, r.status, bytes.length, bytes[0], bytes[1]]);
                }})).catch(e => done([a.href, 0, 0, 0, 0]));"#
            ),
            vec![],
        )
        .await?;
    let v = got.json();
    ensure!(!v.is_null(), "the page has no link to {ARCHIVE}");
    let n = |i: usize| v[i].as_u64().unwrap_or_default();
    Ok((
        v[0].as_str().unwrap_or_default().to_string(),
        n(1),
        n(2),
        vec![n(3), n(4)],
    ))
}

#[tokio::test]
async fn the_exercises_page_links_the_download_in_every_language() -> Result<()> {
    let length = built_length()?;
    let b = e2e::session().await?;
    for prefix in ["", "ru/", "th/"] {
        b.open(&format!("{prefix}exercises.html")).await?;
        let (url, status, len, magic) = fetch_link(&b).await?;
        ensure!(
            url.ends_with(&format!("/{prefix}download/{ARCHIVE}")),
            "{prefix}exercises.html links {url}"
        );
        ensure!(status == 200, "{url}: HTTP {status}");
        ensure!(magic == [0x1f, 0x8b], "{url} is not gzip: {magic:?}");
        ensure!(len == length, "{url}: {len} B, the build wrote {length} B");
        // The two commands to start are on the page, in a code block.
        let commands = b
            .driver
            .execute(
                "return [...document.querySelectorAll('main pre code')].map(c => c.textContent).join('\\n');",
                vec![],
            )
            .await?;
        let commands = commands.json().as_str().unwrap_or_default().to_string();
        ensure!(
            commands.contains(&format!("tar -xzf {ARCHIVE}"))
                && commands.contains("cargo xtask exercises"),
            "{prefix}exercises.html does not show the commands to start"
        );
        b.assert_no_errors().await?;
    }
    b.finish().await
}

#[tokio::test]
async fn each_chapter_with_an_exercise_links_the_download() -> Result<()> {
    let b = e2e::session().await?;
    let mut pages: Vec<String> = EXERCISES.iter().map(|e| e.page()).collect();
    pages.dedup();
    for page in pages {
        b.open(&page).await?;
        let (url, status, _, magic) = fetch_link(&b).await?;
        ensure!(
            status == 200 && magic == [0x1f, 0x8b],
            "{page}: {url} answered {status}"
        );
        let section = b
            .driver
            .find(By::Css(format!("main a[href$='{ARCHIVE}']")))
            .await?
            .find(By::XPath("./preceding::h2[1]"))
            .await?
            .text()
            .await?;
        ensure!(
            section.starts_with("Exercise"),
            "{page}: the download link is under “{section}”, not the exercise section"
        );
    }
    b.finish().await
}
