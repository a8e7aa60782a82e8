//! `native-bench wasm32 DIR`: the `wasm32` runtime — `wasm-bench` (the lab's wasm build) timed in
//! headless Chromium, turned into figures with this bench's statistics and noise gate, written
//! as `book/data/<machine-id>.wasm32.json`.
//!
//! `cargo xtask bench` builds `wasm-bench` for `wasm32-unknown-unknown` with the readers'
//! profile, binds it for the web into DIR and calls this. Here: a page is written into DIR and
//! served on 127.0.0.1 with the headers that make it cross-origin isolated (so `performance.now()`
//! ticks in 5 µs, not 100 µs); each repetition is a fresh Chromium process (a fresh module, as
//! each native repetition is a fresh pass over the suites) that runs every group, yielding to
//! the browser between groups, and posts the samples back. Chromium is Debian's
//! (`/usr/bin/chromium`, or `$CHROMIUM`), headless, with a fresh profile.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use wasm_bench::GroupSamples;

use crate::measure::{Mode, Session};

/// The runtime's name in the data (`run.runtime`) and the file's suffix.
pub const RUNTIME: &str = "wasm32";

/// What the page posts at the end of a repetition.
#[derive(Deserialize)]
struct PageResult {
    user_agent: String,
    isolated: bool,
    /// The smallest step of `performance.now()` the page saw, in milliseconds.
    tick_ms: f64,
    groups: Vec<GroupSamples>,
}

/// What the server hands the driver.
enum Message {
    Progress(String),
    Result(String),
    Error(String),
}

const PAGE: &str = r#"<!doctype html>
<meta charset="utf-8">
<title>wasm-bench</title>
<pre id="log"></pre>
<script type="module">
import init, { group_count, group_name, run_group } from "./wasm_bench.js";
const quick = new URLSearchParams(location.search).get("quick") === "1";
const post = (path, body) => fetch(path, { method: "POST", body });
try {
  await init();
  // The timer's step: the smallest positive difference between two reads.
  let tick = Infinity;
  for (let i = 0, last = performance.now(); i < 200000; i++) {
    const t = performance.now();
    if (t > last) { tick = Math.min(tick, t - last); last = t; }
  }
  const groups = [];
  const n = group_count();
  for (let i = 0; i < n; i++) {
    await post("/progress", `${i + 1}/${n} ${group_name(i)}`);
    await new Promise((r) => setTimeout(r, 0));
    groups.push(JSON.parse(run_group(i, quick)));
  }
  await post("/result", JSON.stringify({
    user_agent: navigator.userAgent, isolated: crossOriginIsolated, tick_ms: tick, groups,
  }));
} catch (e) {
  await post("/error", String((e && e.stack) || e));
}
</script>
"#;

/// Runs the browser's groups `repetitions` times and writes the runtime's data file; returns
/// its path.
pub fn run(
    dir: &Path,
    mode: Mode,
    out: &Path,
    machine_id: Option<&str>,
    repetitions: u32,
) -> Result<PathBuf> {
    for f in ["wasm_bench.js", "wasm_bench_bg.wasm"] {
        if !dir.join(f).is_file() {
            bail!(
                "{} has no {f}: build wasm-bench for wasm32 and bind it there (`cargo xtask bench` does)",
                dir.display()
            );
        }
    }
    std::fs::write(dir.join("index.html"), PAGE)?;
    let listener = TcpListener::bind(("127.0.0.1", 0)).context("cannot listen on 127.0.0.1")?;
    let url = format!(
        "http://127.0.0.1:{}/index.html{}",
        listener.local_addr()?.port(),
        if mode == Mode::Quick { "?quick=1" } else { "" }
    );
    let (tx, rx) = mpsc::channel();
    let site = dir.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (tx, site) = (tx.clone(), site.clone());
            std::thread::spawn(move || respond(stream, &site, &tx));
        }
    });
    let machine = crate::machine::machine(machine_id);
    let path = out.join(format!("{}.{RUNTIME}.json", machine.id));
    crate::overwrite::check(&path, &machine)?;
    let mut runs = Vec::new();
    let mut browser = String::new();
    for rep in 1..=repetitions {
        eprintln!("[wasm32 repetition {rep}/{repetitions}] {url}");
        let mut session = Session::new(mode);
        let page = one_repetition(&url, &rx, mode)?;
        if !page.isolated {
            eprintln!(
                "    warning: the page was not cross-origin isolated; performance.now() is coarser"
            );
        }
        let step = page.tick_ms * 1e3;
        let isolated = if page.isolated {
            " (cross-origin isolated)"
        } else {
            ""
        };
        browser = format!(
            "wasm32-unknown-unknown, Rust's default allocator (dlmalloc over the module's linear memory), the lab's wasm-release build in {}; performance.now() steps of {step:.1} µs{isolated}",
            installed_chromium().unwrap_or_else(|| chromium_version(&page.user_agent)),
        );
        session.begin_suite(1, 1, "wasm32", page.groups.len());
        for g in page.groups {
            session.begin_step(&format!("{} ({} side by side)", g.name, g.members.len()));
            let members = g
                .members
                .into_iter()
                .map(|m| (m.key, m.title, m.samples))
                .collect();
            session.record_group(&g.name, members)?;
            for r in g.ratios {
                session.ratio_of(&r.key, &r.title, &r.numerator, &r.denominator);
            }
        }
        runs.push(session.finish(machine.clone()));
    }
    let mut file = crate::measure::merge(runs).context("no repetition ran")?;
    file.run.fingerprint = Some(crate::measure::fingerprint()?);
    file.run.runtime = RUNTIME.into();
    file.run.allocator = browser;
    crate::record_clock(&mut file);
    crate::measure::write(&file, &path)?;
    Ok(path)
}

/// One fresh Chromium on the page, until it posts its result (or an error, or the time is up).
fn one_repetition(url: &str, rx: &mpsc::Receiver<Message>, mode: Mode) -> Result<PageResult> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let profile = std::env::temp_dir().join(format!("wasm-bench-profile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = std::process::Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding",
            &format!("--user-data-dir={}", profile.display()),
            url,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {chromium} (install Debian's chromium)"))?;
    let limit = match mode {
        Mode::Quick => Duration::from_secs(300),
        Mode::Full => Duration::from_secs(1800),
    };
    let started = std::time::Instant::now();
    let outcome = loop {
        let left = limit.saturating_sub(started.elapsed());
        match rx.recv_timeout(left) {
            Ok(Message::Progress(p)) => eprintln!("    {p}"),
            Ok(Message::Result(body)) => {
                break serde_json::from_str::<PageResult>(&body)
                    .context("the page posted a result this bench cannot read");
            }
            Ok(Message::Error(e)) => break Err(anyhow::anyhow!("the page failed: {e}")),
            Err(_) => {
                break Err(anyhow::anyhow!(
                    "no result from the page within {} s",
                    limit.as_secs()
                ));
            }
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&profile);
    outcome
}

/// What `chromium --version` says (`Chromium 156.0.8078.73 built on Debian …`), up to its
/// version: the user agent hides all but the major version.
fn installed_chromium() -> Option<String> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let out = std::process::Command::new(chromium)
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let mut words = text.split_whitespace();
    let (name, version) = (words.next()?, words.next()?);
    Some(format!("{name} {version}"))
}

/// `Chromium 156.0.8078.73` from a user agent (`… Chrome/156.0.8078.73 …`; headless says
/// `HeadlessChrome/…`).
fn chromium_version(user_agent: &str) -> String {
    user_agent
        .split_whitespace()
        .find_map(|w| {
            w.strip_prefix("HeadlessChrome/")
                .or_else(|| w.strip_prefix("Chrome/"))
        })
        .map_or_else(|| "a browser".into(), |v| format!("Chromium {v}"))
}

/// One request: a file of `site` (GET), or a message from the page (POST /progress, /result,
/// /error). Every response carries the headers of a cross-origin isolated page.
fn respond(mut stream: TcpStream, site: &Path, tx: &mpsc::Sender<Message>) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut parts = request.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split('?').next().unwrap_or("/");
    if method == "POST" {
        let mut body = vec![0; length.min(256 << 20)];
        reader.read_exact(&mut body)?;
        let body = String::from_utf8_lossy(&body).into_owned();
        let message = match path {
            "/progress" => Message::Progress(body),
            "/result" => Message::Result(body),
            _ => Message::Error(body),
        };
        let _ = tx.send(message);
        return send(&mut stream, "204 No Content", "text/plain", &[]);
    }
    let name = path.trim_start_matches('/');
    let file = (!name.contains("..") && !name.contains('/'))
        .then(|| std::fs::read(site.join(name)).ok())
        .flatten();
    match file {
        Some(bytes) => {
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            send(&mut stream, "200 OK", kind, &bytes)
        }
        None => send(&mut stream, "404 Not Found", "text/plain", b"not found"),
    }
}

fn send(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(body)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_is_named_from_its_user_agent() {
        let ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.8078.73 Safari/537.36";
        assert_eq!(chromium_version(ua), "Chromium 156.0.8078.73");
        assert_eq!(chromium_version("curl/8"), "a browser");
    }
}
