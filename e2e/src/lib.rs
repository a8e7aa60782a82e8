//! Driving the built book in headless Chromium, as a reader would.
//!
//! `cargo xtask test` builds the book, serves it on 127.0.0.1 and runs these tests with
//! `BOOK_URL` set. Chromium and ChromeDriver are Debian's (`/usr/bin/chromium`,
//! `/usr/bin/chromedriver`); ChromeDriver is started here on a free port, so nothing is downloaded.
//! Every page gets a hook, installed before its own scripts, that records console errors,
//! uncaught exceptions, failed resource loads and unhandled rejections: a test ends by asserting
//! there were none.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
    profile: std::path::PathBuf,
    base: String,
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
    pub async fn start() -> Result<Browser> {
        let base = book_url()?;
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let chromedriver = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start /usr/bin/chromedriver (cargo xtask test installs it)")?;
        let profile =
            std::env::temp_dir().join(format!("e2e-chromium-{}-{port}", std::process::id()));
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
        caps.add_arg(&format!("--user-data-dir={}", profile.display()))?;
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        let driver = loop {
            match WebDriver::new(&url, caps.clone()).await {
                Ok(d) => break d,
                Err(e) if Instant::now() > deadline => {
                    bail!("ChromeDriver did not start a session: {e}")
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        driver
            .cdp()
            .send_raw(
                "Page.addScriptToEvaluateOnNewDocument",
                json!({ "source": ERROR_HOOK }),
            )
            .await?;
        Ok(Browser {
            driver,
            chromedriver,
            profile,
            base,
        })
    }

    /// Opens a page of the book and waits until the lab has mounted its widgets.
    pub async fn open(&self, page: &str) -> Result<()> {
        self.driver.goto(format!("{}{page}", self.base)).await?;
        self.wait_for_lab().await
    }

    pub async fn reload(&self) -> Result<()> {
        self.driver.refresh().await?;
        self.wait_for_lab().await
    }

    async fn wait_for_lab(&self) -> Result<()> {
        // Pages without a widget or quiz never load the lab: nothing to wait for.
        let mounts = self
            .driver
            .find_all(By::Css("[data-lab-widget], [data-lab-quiz]"))
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

    /// Replaces an input's text by typing, as a reader does.
    pub async fn type_into(root: &WebElement, id: &str, text: &str) -> Result<()> {
        let input = Browser::find(root, id).await?;
        // Select-all + delete, like a reader's keystrokes: it fires `input` (WebDriver's
        // `clear` does not).
        input.send_keys(Key::Control + "a").await?;
        input.send_keys(Key::Backspace).await?;
        if !text.is_empty() {
            input.send_keys(text).await?;
        }
        Ok(())
    }

    pub async fn quit(mut self) -> Result<()> {
        let driver = self.driver.clone();
        driver.quit().await?;
        let _ = self.chromedriver.kill();
        let _ = std::fs::remove_dir_all(&self.profile);
        Ok(())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.chromedriver.kill();
        let _ = self.chromedriver.wait();
    }
}

/// Checks every cited figure and every claim on the open page against the primary machine's
/// data: a printed value must be the data's, formatted as the book formats it; a figure the noise
/// gate rejects must read "not citable"; a claim's mark must match its comparison. Returns how
/// many figures and claims were checked.
pub async fn check_figures(b: &Browser, data: &mdbook_lab::Data) -> Result<(usize, usize)> {
    let primary = data.primary().map_err(anyhow::Error::msg)?;
    let figs = b.driver.find_all(By::Css(".lab-fig[data-fig]")).await?;
    for fig in &figs {
        let key = fig.attr("data-fig").await?.unwrap_or_default();
        let machine = fig.attr("data-machine").await?.unwrap_or_default();
        let Some(file) = data.files().iter().find(|f| f.machine.id == machine) else {
            bail!("{key}: cited from unknown machine {machine:?}");
        };
        let f = file
            .figures
            .get(&key)
            .with_context(|| format!("{key} is not in {machine}'s data"))?;
        let shown = fig.text().await?;
        if mdbook_lab::citable(f) {
            if shown != mdbook_lab::format_value(f.unit, f.value) {
                bail!("{key}: shows {shown:?}, the data says {}", f.value);
            }
        } else if !shown.starts_with("not citable") {
            bail!(
                "{key}: the gate says {:?} but the page shows {shown:?}",
                f.verdict
            );
        }
    }
    let claims = b.driver.find_all(By::Css(".lab-claim[data-claim]")).await?;
    for claim in &claims {
        let text = claim.attr("data-claim").await?.unwrap_or_default();
        let [key, op, bound] = text.split(' ').collect::<Vec<_>>()[..] else {
            bail!("malformed claim {text:?}");
        };
        let f = primary
            .figures
            .get(key)
            .with_context(|| format!("claim on missing {key}"))?;
        let (bound, other_unfit) = match bound.parse::<f64>() {
            Ok(v) => (v, false),
            Err(_) => {
                let other = primary
                    .figures
                    .get(bound)
                    .with_context(|| format!("claim on missing {bound}"))?;
                (other.value, other.verdict == bench_data::Verdict::Unfit)
            }
        };
        let holds = match op {
            "<" => f.value < bound,
            "<=" => f.value <= bound,
            ">" => f.value > bound,
            ">=" => f.value >= bound,
            _ => bail!("claim {text:?}: unknown comparison"),
        } && f.verdict != bench_data::Verdict::Unfit
            && !other_unfit;
        let shown = claim.attr("data-holds").await?;
        if shown.as_deref() != Some(holds.to_string().as_str()) {
            bail!("claim {text}: the page says holds={shown:?}, the data says {holds}");
        }
    }
    Ok((figs.len(), claims.len()))
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
