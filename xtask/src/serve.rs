//! A small static file server for the built book, on 127.0.0.1 only.
//!
//! `file://` pages cannot load WebAssembly, so the book must be served; this is all it takes
//! (GET and HEAD, the right content types, no directory listing, nothing outside the site).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};

pub struct Server {
    listener: TcpListener,
    site: PathBuf,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0 picks a free port).
    pub fn bind(site: &Path, port: u16) -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .with_context(|| format!("cannot listen on 127.0.0.1:{port} (in use? try --port)"))?;
        Ok(Server {
            listener,
            site: site.to_path_buf(),
        })
    }

    pub fn url(&self) -> String {
        let port = self.listener.local_addr().map_or(0, |a| a.port());
        format!("http://127.0.0.1:{port}/")
    }

    /// Serves until the process ends.
    pub fn run(self) -> Result<()> {
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let site = self.site.clone();
            std::thread::spawn(move || {
                let _ = respond(stream, &site);
            });
        }
        Ok(())
    }
}

fn respond(mut stream: TcpStream, site: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; the body of a GET is empty.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return send(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET or HEAD only\n",
            true,
        );
    }
    let (status, path) = match resolve(site, target) {
        Some(path) => ("200 OK", path),
        None => ("404 Not Found", site.join("404.html")),
    };
    let body = std::fs::read(&path).unwrap_or_else(|_| b"not found\n".to_vec());
    send(
        &mut stream,
        status,
        content_type(&path),
        &body,
        method == "GET",
    )
}

fn send(
    stream: &mut TcpStream,
    status: &str,
    kind: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
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
}
