//! One wasm module per page, as a reader's browser fetches them: a chapter's page downloads its
//! own chapter's module and no other, the progress page only the progress module, and the print
//! version (every chapter on one page) all of them — and each page mounts every mount point it
//! holds. The sizes themselves are the bench's (`wasm_size.*`), not this test's.

use std::collections::BTreeSet;

use anyhow::{Context, Result, ensure};

/// The paths under `wasm/` the page fetched so far.
const LAB_FILES: &str = "return performance.getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname)
    .filter((p) => p.includes('/wasm/'));";

/// The module of each fetched lab file (`…/wasm/<module>/<file>`), and the files.
async fn fetched(b: &e2e::Browser) -> Result<(BTreeSet<String>, Vec<String>)> {
    let v = b.driver.execute(LAB_FILES, vec![]).await?;
    let paths: Vec<String> =
        serde_json::from_value(v.json().clone()).context("resource paths are not strings")?;
    let modules = paths
        .iter()
        .filter_map(|p| p.split("/wasm/").nth(1)?.split('/').next())
        .map(str::to_string)
        .collect();
    Ok((modules, paths))
}

#[tokio::test]
async fn a_page_fetches_its_own_module_only() -> Result<()> {
    let b = e2e::session().await?;
    for (page, module) in [
        ("stale-data.html", "stale-data"),
        ("method.html", "method"),
        ("progress.html", "progress"),
    ] {
        b.open(page).await?;
        let (modules, paths) = fetched(&b).await?;
        ensure!(
            modules == BTreeSet::from([module.to_string()]),
            "{page} fetched the modules {modules:?} ({paths:?}), not just {module}"
        );
        for file in ["wasm_lab.js", "wasm_lab_bg.wasm"] {
            let want = format!("/wasm/{module}/{file}");
            ensure!(
                paths.iter().any(|p| p.ends_with(&want)),
                "{page} did not fetch {want}: {paths:?}"
            );
        }
        ensure!(
            b.assert_all_mounted(page).await? > 0,
            "{page} has no mount point"
        );
        b.assert_no_errors().await?;
    }
    b.quit().await
}

/// The print version holds every chapter: it loads every module and mounts every widget, quiz and
/// the progress table, each by its own module.
#[tokio::test]
async fn the_print_version_loads_every_module() -> Result<()> {
    let b = e2e::session_on("print.html").await?;
    let (modules, paths) = fetched(&b).await?;
    let want: BTreeSet<String> = wasm_lab::modules().map(|m| m.to_string()).collect();
    ensure!(
        modules == want,
        "print.html fetched {modules:?}, not every module {want:?} ({paths:?})"
    );
    let mounted = b.assert_all_mounted("print.html").await?;
    ensure!(
        mounted >= 2 * wasm_lab::modules().count() - 1,
        "print.html has only {mounted} mount points"
    );
    b.finish().await
}
