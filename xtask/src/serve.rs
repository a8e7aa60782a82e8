//! A small static file server for the built book, on 127.0.0.1 only.
//!
//! `file://` pages cannot load WebAssembly, so the book must be served; this is all it takes
//! (GET and HEAD, the right content types, no directory listing, nothing outside the site).
//! It serves as a static host does (issue 40), so what a reader waits for locally is what a
//! host sends: a file's precompressed `.gz` sibling (written by `cargo xtask build`,
//! `pages.rs`) with `Content-Encoding: gzip` when the request accepts gzip. And no client can
//! hold it: a fixed number of worker threads ([`WORKERS`]) answer connections from a bounded
//! queue (a full queue is answered 503 at once), and a request's line and headers must arrive
//! within [`HEADER_TIMEOUT`] and [`MAX_HEADER`] bytes, so an idle or slow connection frees its
//! worker.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{Receiver, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// Worker threads: a browser opens six connections to a host; a few more for a second tab.
pub const WORKERS: usize = 8;
/// Connections accepted but not yet answered, beyond which a connection is answered 503.
const QUEUE: usize = 64;
/// How long a client has to send its request line and headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most bytes of request line and headers read.
const MAX_HEADER: u64 = 16 * 1024;

pub struct Server {
    listener: TcpListener,
    site: PathBuf,
    workers: usize,
    header_timeout: Duration,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0 picks a free port).
    pub fn bind(site: &Path, port: u16) -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .with_context(|| format!("cannot listen on 127.0.0.1:{port} (in use? try --port)"))?;
        Ok(Server {
            listener,
            site: site.to_path_buf(),
            workers: WORKERS,
            header_timeout: HEADER_TIMEOUT,
        })
    }

    /// The same with `workers` threads and `header_timeout` (the tests make both small).
    #[cfg(test)]
    fn with_limits(mut self, workers: usize, header_timeout: Duration) -> Server {
        self.workers = workers;
        self.header_timeout = header_timeout;
        self
    }

    pub fn url(&self) -> String {
        let port = self.listener.local_addr().map_or(0, |a| a.port());
        format!("http://127.0.0.1:{port}/")
    }

    /// Serves until the process ends.
    pub fn run(self) -> Result<()> {
        let (queue, connections) = sync_channel::<TcpStream>(QUEUE);
        let connections = Arc::new(Mutex::new(connections));
        for _ in 0..self.workers {
            let connections = Arc::clone(&connections);
            let site = self.site.clone();
            let timeout = self.header_timeout;
            std::thread::spawn(move || work(&connections, &site, timeout));
        }
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            if let Err(TrySendError::Full(mut stream)) = queue.try_send(stream) {
                let _ = send(
                    &mut stream,
                    "503 Service Unavailable",
                    "text/plain",
                    None,
                    b"busy: try again\n",
                    true,
                );
            }
        }
        Ok(())
    }
}

/// A worker: answers one connection after another from the queue.
fn work(connections: &Mutex<Receiver<TcpStream>>, site: &Path, timeout: Duration) {
    loop {
        let next = match connections.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(stream) = next else { return };
        let _ = respond(stream, site, timeout);
    }
}

/// The request line and headers, read within `timeout` in all (a client sending a byte at a
/// time gets no more time than one sending nothing) and [`MAX_HEADER`] bytes; `None` when the
/// client did not send them in time.
fn read_head(stream: &TcpStream, timeout: Duration) -> std::io::Result<Option<Vec<String>>> {
    let deadline = Instant::now() + timeout;
    let mut reader = BufReader::new(stream.try_clone()?.take(MAX_HEADER));
    let mut lines = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        stream.set_read_timeout(Some(left))?;
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return Ok(None),
            Ok(_) if line.ends_with('\n') && line.trim().is_empty() => return Ok(Some(lines)),
            Ok(_) if !line.ends_with('\n') => return Ok(None),
            Ok(_) => lines.push(line.trim_end().to_string()),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e),
        }
    }
}

fn respond(mut stream: TcpStream, site: &Path, timeout: Duration) -> std::io::Result<()> {
    let Some(head) = read_head(&stream, timeout)? else {
        return send(
            &mut stream,
            "408 Request Timeout",
            "text/plain",
            None,
            b"the request did not arrive in time\n",
            true,
        );
    };
    let request_line = head.first().cloned().unwrap_or_default();
    let accepts_gzip = head.iter().skip(1).any(|h| {
        h.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("accept-encoding")
                && value
                    .split(',')
                    .any(|c| c.split(';').next().unwrap_or("").trim() == "gzip")
        })
    });
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return send(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            None,
            b"GET or HEAD only\n",
            true,
        );
    }
    let (status, path) = match resolve(site, target) {
        Some(path) => ("200 OK", path),
        None => ("404 Not Found", site.join("404.html")),
    };
    let gz = compressed_sibling(&path).filter(|_| accepts_gzip);
    let body =
        std::fs::read(gz.as_ref().unwrap_or(&path)).unwrap_or_else(|_| b"not found\n".to_vec());
    send(
        &mut stream,
        status,
        content_type(&path),
        gz.is_some().then_some("gzip"),
        &body,
        method == "GET",
    )
}

/// `path`'s precompressed `.gz` sibling, when the build wrote one.
fn compressed_sibling(path: &Path) -> Option<PathBuf> {
    let mut name = path.file_name()?.to_os_string();
    name.push(".gz");
    let gz = path.with_file_name(name);
    gz.is_file().then_some(gz)
}

fn send(
    stream: &mut TcpStream,
    status: &str,
    kind: &str,
    encoding: Option<&str>,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    let encoding = encoding.map_or_else(String::new, |e| format!("Content-Encoding: {e}\r\n"));
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\n{encoding}Vary: Accept-Encoding\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

/// The file for a request target, if it is inside the site and exists.
fn resolve(site: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let decoded = percent_decode(path)?;
    let mut file = site.to_path_buf();
    for part in Path::new(decoded.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "gz" => "application/gzip",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_inside_the_site() {
        let site = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        std::fs::create_dir_all(site.join("wasm")).unwrap();
        std::fs::write(site.join("index.html"), "x").unwrap();
        std::fs::write(site.join("wasm/a b.wasm"), "x").unwrap();
        assert_eq!(resolve(&site, "/"), Some(site.join("index.html")));
        assert_eq!(
            resolve(&site, "/wasm/a%20b.wasm?v=1"),
            Some(site.join("wasm/a b.wasm"))
        );
        assert_eq!(resolve(&site, "/../etc/passwd"), None);
        assert_eq!(resolve(&site, "/%2e%2e/etc/passwd"), None);
        assert_eq!(resolve(&site, "/missing.html"), None);
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        std::fs::remove_dir_all(&site).unwrap();
    }

    /// A served site of one page (and its `.gz` sibling) in a folder of the test's own.
    fn site(name: &str) -> PathBuf {
        let site = std::env::temp_dir().join(format!("xtask-serve-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(site.join("index.html"), "plain").unwrap();
        std::fs::write(site.join("index.html.gz"), "zipped").unwrap();
        site
    }

    /// Starts a server with `workers` threads and `timeout`; returns its address.
    fn start(site: &Path, workers: usize, timeout: Duration) -> std::net::SocketAddr {
        let server = Server::bind(site, 0).unwrap().with_limits(workers, timeout);
        let addr = server.listener.local_addr().unwrap();
        std::thread::spawn(move || server.run());
        addr
    }

    /// Sends `request` and reads the whole response (the server closes the connection).
    fn get(addr: std::net::SocketAddr, request: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        // Only so that a broken server fails the test instead of hanging it.
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn serves_the_gzip_sibling_to_a_client_that_accepts_it() {
        let site = site("gzip");
        let addr = start(&site, 2, HEADER_TIMEOUT);
        let zipped = get(
            addr,
            "GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: deflate, gzip;q=1.0\r\n\r\n",
        );
        assert!(zipped.contains("Content-Encoding: gzip\r\n"), "{zipped}");
        assert!(zipped.contains("Content-Type: text/html"), "{zipped}");
        assert!(zipped.ends_with("\r\n\r\nzipped"), "{zipped}");
        let plain = get(addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(!plain.contains("Content-Encoding"), "{plain}");
        assert!(plain.ends_with("\r\n\r\nplain"), "{plain}");
        std::fs::remove_dir_all(&site).unwrap();
    }

    #[test]
    fn an_idle_connection_does_not_block_another_request() {
        // One worker: the idle connection holds it until its header timeout; the second
        // request is answered after that, and the idle one is told why it was dropped.
        let site = site("idle");
        let addr = start(&site, 1, Duration::from_millis(300));
        let mut idle = TcpStream::connect(addr).unwrap();
        let response = get(addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
        idle.set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut answer = String::new();
        idle.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        std::fs::remove_dir_all(&site).unwrap();
    }

    #[test]
    fn a_client_sending_a_byte_at_a_time_is_cut_off() {
        // A byte every 20 ms, forever: a timeout per read would never fire. The header timeout
        // counts from the first byte, so the one worker is freed and the next request answered.
        let site = site("slow");
        let addr = start(&site, 1, Duration::from_millis(300));
        let mut slow = TcpStream::connect(addr).unwrap();
        let mut trickle = slow.try_clone().unwrap();
        std::thread::spawn(move || {
            for b in b"GET / HTTP/1.1\r\nX-Slow: "
                .iter()
                .chain(std::iter::repeat(&b'a'))
            {
                if trickle.write_all(&[*b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let response = get(addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
        slow.set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut answer = String::new();
        let _ = slow.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        std::fs::remove_dir_all(&site).unwrap();
    }
}
