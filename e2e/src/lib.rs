//! Driving the built book in headless Chromium, as a reader would.
//!
//! `cargo xtask test` builds the book, serves it on 127.0.0.1 and runs these tests with
//! `BOOK_URL` set. Chromium and ChromeDriver are Debian's (`/usr/bin/chromium`,
//! `/usr/bin/chromedriver`); ChromeDriver is started here on a free port, so nothing is downloaded.
//! Every page gets a hook, installed before its own scripts, that records console errors,
//! uncaught exceptions, failed resource loads and unhandled rejections: a test ends by asserting
//! there were none.
//!
//! A test file shares one browser between its tests ([`session`]): starting Chromium is the
//! slowest part of a short test. Each test still starts from a blank state (no page, no
//! `localStorage`, default window); tests that need a browser of their own use
//! [`Browser::start`].

#![forbid(unsafe_code)]

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::json;
use thirtyfour::prelude::*;

pub mod reader;
pub mod screen;

pub use thirtyfour;

const ERROR_HOOK: &str = r#"
window.__labErrors = [];
(function () {
  const record = (what) => window.__labErrors.push(String(what));
  const original = console.error.bind(console);
  console.error = function (...args) { record("console.error: " + args.map(String).join(" ")); original(...args); };
  window.addEventListener("error", (e) => {
    const t = e.target;
    record(t && t !== window && (t.src || t.href) ? "failed to load " + (t.src || t.href) : "uncaught: " + e.message);
  }, true);
  window.addEventListener("unhandledrejection", (e) => record("unhandled rejection: " + String(e.reason)));
})();
"#;

/// A headless Chromium session with its own ChromeDriver and a fresh profile.
pub struct Browser {
    pub driver: WebDriver,
    chromedriver: Child,
    /// The write end of a pipe whose reader, a shell holding ChromeDriver and Chromium in its
    /// process group, stops them all when it closes: on drop, or when this process exits (the
    /// shared session sits in a static that is never dropped).
    exit_pipe: Option<ChildStdin>,
    base: String,
}

/// The shared browser of this test process, started by the first [`session`].
static SHARED: tokio::sync::Mutex<Option<Browser>> = tokio::sync::Mutex::const_new(None);

/// The shared browser of this test file, for one test: waits until no other test of the file
/// uses it, starts it on first use (or again if it stopped answering), and resets it to a blank
/// state. End the test with [`Session::quit`] (or just drop the session).
///
/// Each `#[tokio::test]` has its own runtime; the shared session's HTTP client keeps no
/// connection between requests, so nothing of one test's runtime is used by the next.
pub async fn session() -> Result<Session> {
    let mut shared = SHARED.lock().await;
    if let Some(b) = shared.as_ref()
        && b.reset().await.is_err()
    {
        // A crashed or hung browser is replaced, not reused.
        *shared = None;
    }
    if shared.is_none() {
        let b = Browser::launch(&[]).await?;
        b.reset().await?;
        *shared = Some(b);
    }
    Ok(Session(shared))
}

/// The shared browser (see [`session`]) with `page` open and its lab mounted.
pub async fn session_on(page: &str) -> Result<Session> {
    let b = session().await?;
    b.open(page).await?;
    Ok(b)
}

/// One test's use of the shared browser (see [`session`]); derefs to [`Browser`].
pub struct Session(tokio::sync::MutexGuard<'static, Option<Browser>>);

impl std::ops::Deref for Session {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        match self.0.as_ref() {
            Some(b) => b,
            None => unreachable!("a session is only made with a started browser"),
        }
    }
}

impl Session {
    /// Ends this test's use of the shared browser; the next test resets it.
    pub async fn quit(self) -> Result<()> {
        Ok(())
    }

    /// How a test ends: the page recorded no error, then the shared browser is left to the next
    /// test ([`Browser::finish`] for a browser of its own).
    pub async fn finish(self) -> Result<()> {
        self.assert_no_errors().await?;
        self.quit().await
    }
}

/// Waits until ChromeDriver says it listens (its own line on stdout; no fixed sleep), then keeps
/// draining its output so that it never blocks on a full pipe.
fn wait_until_listening(chromedriver: &mut Child) -> Result<()> {
    use std::io::BufRead;
    use std::sync::mpsc::RecvTimeoutError;
    let out = chromedriver
        .stdout
        .take()
        .context("ChromeDriver's output is not piped")?;
    let (ready, listening) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut ready = Some(ready);
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if line.contains("started successfully")
                && let Some(ready) = ready.take()
            {
                let _ = ready.send(());
            }
        }
    });
    match listening.recv_timeout(Duration::from_secs(30)) {
        Ok(()) => Ok(()),
        Err(RecvTimeoutError::Disconnected) => bail!("ChromeDriver exited before it listened"),
        Err(RecvTimeoutError::Timeout) => bail!("ChromeDriver did not listen within 30 s"),
    }
}

/// The served book's address, from `BOOK_URL`.
pub fn book_url() -> Result<String> {
    let url = std::env::var("BOOK_URL")
        .context("BOOK_URL is not set: run the end-to-end tests through `cargo xtask test`")?;
    Ok(if url.ends_with('/') {
        url
    } else {
        format!("{url}/")
    })
}

impl Browser {
    /// A browser of this test's own (prefer [`session`], which shares one per test file).
    pub async fn start() -> Result<Browser> {
        Browser::launch(&[]).await
    }

    /// A browser of this test's own with more Chromium flags, e.g.
    /// `--blink-settings=scriptEnabled=false` for a reader without JavaScript.
    pub async fn start_with(extra: &[&str]) -> Result<Browser> {
        Browser::launch(extra).await
    }

    async fn launch(extra: &[&str]) -> Result<Browser> {
        let base = book_url()?;
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let profile =
            std::env::temp_dir().join(format!("e2e-chromium-{}-{port}", std::process::id()));
        // ChromeDriver in the background of a shell, in a process group of their own: when the
        // shell's stdin closes (the browser is dropped, or this process exits, even after a
        // failed test), it stops the whole group — ChromeDriver *and* the Chromium it started,
        // which killing ChromeDriver alone leaves running — and removes the profile.
        let mut chromedriver = Command::new("sh")
            .arg("-c")
            .arg(r#""$0" --port="$1" 2>/dev/null & read _; trap '' TERM; kill -TERM 0; wait; rm -rf "$2""#)
            .arg("/usr/bin/chromedriver")
            .arg(port.to_string())
            .arg(&profile)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .context("cannot start /usr/bin/chromedriver (cargo xtask test installs it)")?;
        let exit_pipe = chromedriver.stdin.take();
        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary("/usr/bin/chromium")?;
        for arg in [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,1000",
        ] {
            caps.add_arg(arg)?;
        }
        for arg in extra {
            caps.add_arg(arg)?;
        }
        caps.add_arg(&format!("--user-data-dir={}", profile.display()))?;
        let url = format!("http://127.0.0.1:{port}");
        if let Err(e) = wait_until_listening(&mut chromedriver) {
            let _ = chromedriver.kill();
            return Err(e);
        }
        // No idle connections kept: the shared session is used from one runtime per test.
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .pool_max_idle_per_host(0)
            .build()?;
        let driver = WebDriver::builder(&url, caps)
            .client(client)
            .await
            .context("ChromeDriver did not start a session")?;
        let b = Browser {
            driver,
            chromedriver,
            exit_pipe,
            base,
        };
        b.before_every_page(ERROR_HOOK).await?;
        Ok(b)
    }

    /// Sends a Chrome DevTools command (`Emulation.…`, `Page.…`) to the open tab.
    pub async fn devtools(&self, method: &str, params: serde_json::Value) -> Result<()> {
        self.driver.cdp().send_raw(method, params).await?;
        Ok(())
    }

    /// Runs `script` in every page from now on, before the page's own scripts.
    pub async fn before_every_page(&self, script: &str) -> Result<()> {
        self.devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": script }),
        )
        .await
    }

    /// Lays pages out for `media` ("print"; "" for the screen again).
    pub async fn emulate_media(&self, media: &str) -> Result<()> {
        self.devtools("Emulation.setEmulatedMedia", json!({ "media": media }))
            .await
    }

    /// Back to a blank state between tests of a shared session: one window of the default size
    /// on a blank page, and nothing stored by the book (`localStorage`, session storage, cookies).
    async fn reset(&self) -> Result<()> {
        let windows = self.driver.windows().await?;
        for extra in windows.iter().skip(1) {
            self.driver.switch_to_window(extra.clone()).await?;
            self.driver.close_window().await?;
        }
        if let Some(first) = windows.into_iter().next() {
            self.driver.switch_to_window(first).await?;
        }
        // The book's storage is cleared from a document of its own origin, by script: done when
        // the script returns. (DevTools' `Storage.clearDataForOrigin` answers before the
        // clearing is done, and a late clearing wiped what the next test had just stored.) The
        // document is mdBook's table of contents for readers without scripts: it runs none.
        self.driver.goto(format!("{}toc.html", self.base)).await?;
        let left: Vec<u64> = self
            .driver
            .execute(
                "localStorage.clear(); sessionStorage.clear(); \
                 return [localStorage.length, sessionStorage.length];",
                vec![],
            )
            .await?
            .convert()?;
        if left != [0, 0] {
            bail!("the book's storage did not clear: {left:?} entries are left");
        }
        self.driver.delete_all_cookies().await?;
        self.driver.goto("about:blank").await?;
        // A test may have emulated print media (the printed quizzes): the next one reads the
        // screen.
        self.emulate_media("").await?;
        self.driver.set_window_rect(0, 0, 1280, 1000).await?;
        Ok(())
    }

    /// Opens a page of the book and waits until the lab has mounted its widgets.
    pub async fn open(&self, page: &str) -> Result<()> {
        self.driver.goto(format!("{}{page}", self.base)).await?;
        self.wait_for_lab().await
    }

    /// Opens a chapter's page and returns its widget, `[data-testid="widget-{name}"]`.
    pub async fn open_widget(&self, page: &str, name: &str) -> Result<WebElement> {
        self.open(page).await?;
        self.by_testid(&format!("widget-{name}")).await
    }

    /// Opens a page without waiting for the lab (a session without JavaScript never loads it).
    pub async fn open_static(&self, page: &str) -> Result<()> {
        self.driver.goto(format!("{}{page}", self.base)).await?;
        Ok(())
    }

    pub async fn reload(&self) -> Result<()> {
        self.driver.refresh().await?;
        self.wait_for_lab().await
    }

    /// Waits until the open page's lab has mounted its widgets and quizzes (after a click that
    /// loaded another page, too).
    pub async fn wait_for_lab(&self) -> Result<()> {
        // Pages without a widget or quiz never load the lab: nothing to wait for.
        let mounts = self
            .driver
            .find_all(By::Css(
                "[data-lab-widget], [data-lab-quiz], [data-lab-progress]",
            ))
            .await?;
        if mounts.is_empty() {
            return Ok(());
        }
        let ready = self
            .driver
            .query(By::Css("html[data-lab-ready]"))
            .wait(Duration::from_secs(30), Duration::from_millis(100))
            .first()
            .await;
        if ready.is_err() {
            let errors = self.errors().await.unwrap_or_default();
            bail!("the lab did not load within 30 s; page errors: {errors:?}");
        }
        Ok(())
    }

    /// What the page recorded as errors so far.
    pub async fn errors(&self) -> Result<Vec<String>> {
        let v = self
            .driver
            .execute(
                "return window.__labErrors || ['error hook missing'];",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(v.json().clone())?)
    }

    /// Fails if the page recorded any error.
    pub async fn assert_no_errors(&self) -> Result<()> {
        let errors = self.errors().await?;
        if !errors.is_empty() {
            bail!("the browser reported errors: {errors:#?}");
        }
        Ok(())
    }

    /// Fails unless every lab mount point of the open page (widget, quiz, progress table) is
    /// live; says how many there are. `page` names the page in the message.
    pub async fn assert_all_mounted(&self, page: &str) -> Result<usize> {
        let mounts = self
            .driver
            .find_all(By::Css(
                "[data-lab-widget], [data-lab-quiz], [data-lab-progress]",
            ))
            .await?;
        for m in &mounts {
            if m.attr("data-lab-live").await?.is_none() {
                let name = m.attr("data-testid").await?.unwrap_or_default();
                bail!("{page}: {name} did not mount");
            }
        }
        Ok(mounts.len())
    }

    /// Fails if the open page's text (what a reader sees, code included) holds `{{#`: a
    /// directive nobody rendered. `page` names the page in the message.
    pub async fn assert_no_directive_text(&self, page: &str) -> Result<()> {
        let found: Vec<String> = self
            .driver
            .execute(
                "const t = document.body.innerText; const out = []; let i = t.indexOf('{{#');\
                 while (i >= 0 && out.length < 5) { out.push(t.slice(i, i + 60).split('\\n')[0]); i = t.indexOf('{{#', i + 3); }\
                 return out;",
                vec![],
            )
            .await?
            .convert()?;
        if !found.is_empty() {
            bail!("{page}: directive text on the page: {found:?}");
        }
        Ok(())
    }

    /// The element of the page with `data-testid="{id}"`.
    pub async fn by_testid(&self, id: &str) -> Result<WebElement> {
        self.driver
            .find(By::Css(format!("[data-testid=\"{id}\"]")))
            .await
            .with_context(|| format!("the page has no [data-testid={id}]"))
    }

    /// The element with `data-testid="{id}"` under `root`.
    pub async fn find(root: &WebElement, id: &str) -> Result<WebElement> {
        root.find(By::Css(format!("[data-testid=\"{id}\"]")))
            .await
            .with_context(|| format!("no [data-testid={id}]"))
    }

    pub async fn text(root: &WebElement, id: &str) -> Result<String> {
        Ok(Browser::find(root, id).await?.text().await?)
    }

    /// Replaces an input's text by typing, as a reader does. Each keystroke goes to the field
    /// as it is found then: a widget redraws after every `input`, and an element found before
    /// a redraw can be gone by the next keystroke (under load, a stale element). A field
    /// replaced mid-way is typed into again from the start (select-all + delete makes that
    /// repeatable), at most a few times.
    pub async fn type_into(root: &WebElement, id: &str, text: &str) -> Result<()> {
        let mut attempts = 0;
        loop {
            match Browser::type_once(root, id, text).await {
                Err(e) if is_stale(&e) && attempts < 4 => attempts += 1,
                done => return done.with_context(|| format!("typing {text:?} into {id}")),
            }
        }
    }

    async fn type_once(root: &WebElement, id: &str, text: &str) -> Result<()> {
        // Select-all + delete, like a reader's keystrokes: it fires `input` (WebDriver's
        // `clear` does not).
        Browser::find(root, id)
            .await?
            .send_keys(Key::Control + "a")
            .await?;
        Browser::find(root, id)
            .await?
            .send_keys(Key::Backspace)
            .await?;
        if !text.is_empty() {
            Browser::find(root, id).await?.send_keys(text).await?;
        }
        Ok(())
    }

    /// Types into an input and commits it with Enter, as a reader does in a field that runs on
    /// commit (the cliff widget's request).
    pub async fn enter_into(root: &WebElement, id: &str, text: &str) -> Result<()> {
        Browser::type_into(root, id, text).await?;
        Browser::find(root, id).await?.send_keys(Key::Enter).await?;
        Ok(())
    }

    /// Ends the session; dropping the browser then stops ChromeDriver and removes the profile.
    pub async fn quit(self) -> Result<()> {
        self.driver.clone().quit().await?;
        Ok(())
    }

    /// How a test with a browser of its own ends: the page recorded no error, then the browser
    /// stops.
    pub async fn finish(self) -> Result<()> {
        self.assert_no_errors().await?;
        self.quit().await
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The shell stops ChromeDriver and Chromium when its stdin closes, then removes the
        // profile; waiting for it leaves nothing behind.
        drop(self.exit_pipe.take());
        let _ = self.chromedriver.wait();
    }
}

/// Whether a WebDriver call failed because its element left the page (a redraw replaced it).
pub fn is_stale(e: &anyhow::Error) -> bool {
    format!("{e:#}").to_lowercase().contains("stale element")
}

/// Checks every cited figure and every claim on the open page against the primary machine's
/// data: a printed value must be the data's, formatted as the book formats it; a figure the noise
/// gate rejects must read "not citable" (or, in a table of many times, "noisy here"; in a story
/// chapter, where a figure is a link to its ledger row, a dash); a claim's mark and a verdict's
/// direction must be what the data decides. Returns how many figures and claims were checked.
pub async fn check_figures(b: &Browser, data: &mdbook_lab::Data) -> Result<(usize, usize)> {
    let primary = data.primary().map_err(anyhow::Error::msg)?;
    let figs = b
        .driver
        .find_all(By::Css(".lab-fig[data-fig], a.lab-fig[href]"))
        .await?;
    for fig in &figs {
        // A story chapter's figure names its key in its link (`instructors.html#chapter:key`)
        // and its column only when it is not the primary's.
        let key = match fig.attr("data-fig").await? {
            Some(key) => key,
            None => ledger_key(&fig.attr("href").await?.unwrap_or_default())
                .with_context(|| "a figure link that names no ledger row")?,
        };
        let machine = fig
            .attr("data-machine")
            .await?
            .unwrap_or_else(|| primary.stem());
        let Some(file) = data.files().iter().find(|f| f.stem() == machine) else {
            bail!("{key}: cited from unknown machine {machine:?}");
        };
        let f = file
            .figures
            .get(&key)
            .with_context(|| format!("{key} is not in {machine}'s data"))?;
        // textContent, not the rendered text: a figure may sit in a closed `<details>`.
        let shown = fig.prop("textContent").await?.unwrap_or_default();
        if mdbook_lab::citable(f) {
            if shown != mdbook_lab::format_value(f.unit, f.value) {
                bail!("{key}: shows {shown:?}, the data says {}", f.value);
            }
        } else if !shown.starts_with("not citable") && shown != "noisy here" && shown != "—" {
            bail!(
                "{key}: the gate says {:?} but the page shows {shown:?}",
                f.verdict
            );
        }
    }
    let claims = b.driver.find_all(By::Css(".lab-claim[data-claim]")).await?;
    for claim in &claims {
        let text = claim.attr("data-claim").await?.unwrap_or_default();
        // The same check the preprocessor made (`bench_data::claim`), from the data file.
        let check = bench_data::claim::Claim::parse_text(&text)
            .and_then(|c| c.check_machines(primary, data.files()))
            .map_err(|e| anyhow::anyhow!("claim {text:?}: {e}"))?;
        let holds = check.mark == bench_data::claim::Mark::Holds;
        let shown = claim.attr("data-holds").await?;
        if shown.as_deref() != Some(holds.to_string().as_str()) {
            bail!("claim {text}: the page says holds={shown:?}, the data says {holds}");
        }
    }
    let verdicts = b
        .driver
        .find_all(By::Css(".lab-data-verdict[data-verdict]"))
        .await?;
    for verdict in &verdicts {
        let key = verdict.attr("data-verdict").await?.unwrap_or_default();
        if verdict.attr("data-direction").await?.as_deref() == Some("missing") {
            // A runtime this machine did not measure: its claim mark says so (checked above).
            continue;
        }
        // A verdict names its file (`on=wasm32` picks the primary machine's wasm32 file).
        let machine = verdict.attr("data-machine").await?;
        let file = match machine {
            Some(m) => data
                .files()
                .iter()
                .find(|f| f.stem() == m)
                .with_context(|| format!("verdict {key}: unknown machine {m:?}"))?,
            None => primary,
        };
        let f = file
            .figures
            .get(&key)
            .with_context(|| format!("verdict on missing {key}"))?;
        let want = bench_data::claim::direction(f, 1.0);
        let shown = verdict.attr("data-direction").await?;
        if shown.as_deref() != Some(want.as_str()) {
            bail!("verdict {key}: the page says {shown:?}, the data says {want:?}");
        }
    }
    Ok((figs.len(), claims.len()))
}

/// The figure key a story chapter's figure link names: `instructors.html#why-pool:why_pool.1.pool.bytes`
/// → `why_pool.1.pool.bytes` (`mdbook_lab::ledger::row_id`).
pub fn ledger_key(href: &str) -> Option<String> {
    let (page, id) = href.split_once('#')?;
    if !page.ends_with(mdbook_lab::ledger::PAGE) {
        return None;
    }
    Some(id.split_once(':')?.1.to_string())
}

/// The bench data the book was built with (`book/data`; the primary machine is `LAB_MACHINE`'s
/// when set, as in the book's build).
pub fn book_data() -> Result<mdbook_lab::Data> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data");
    mdbook_lab::Data::load(&root, std::env::var("LAB_MACHINE").ok().as_deref())
}

/// The chapters of the book, as page names, in the order of `book/src/SUMMARY.md`.
pub fn chapters() -> Result<Vec<String>> {
    let summary = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/SUMMARY.md");
    let text =
        std::fs::read_to_string(&summary).with_context(|| format!("{}", summary.display()))?;
    Ok(text
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter_map(|md| md.strip_suffix(".md"))
        .map(|page| format!("{page}.html"))
        .collect())
}

/// Numbers as the book shows them ("1,048,576") back to integers.
pub fn number(text: &str) -> Option<u64> {
    text.replace(',', "").trim().parse().ok()
}
