//! Stale data (chapter 3), the scenario: the runs the `stale-data` widget (`web/stale_data.rs`) shows
//! on the handle API; the chapter's quiz ([`crate::chapter::stale_data::quiz`]) grades its answers with the
//! same runs.
//!
//! The scenario is the Thai article's: a renter writes an order line into a rented buffer and
//! returns it (cleared or not); the next renter rents, writes its own line and reads a number of
//! bytes. Every number here comes from a real [`HandlePool`] run, never from a formula.
//!
//! ```
//! use wasm_lab::chapter::stale_data::scenario::{run, Scenario};
//! let out = run(&Scenario::default()).unwrap();
//! assert!(out.same_buffer);
//! assert_eq!(out.nonzero_on_arrival, 41); // the previous order, all of it
//! assert_eq!(out.leaked, 16);             // 41 read − 25 written: the tail of the old line
//! assert_eq!(out.leaked_text(), "\u{FFFD}้ง|2|18000⏎");
//! ```

use std::fmt;
use std::sync::{Arc, Weak};

use serde::Serialize;

use bufpool::pool::{BucketLayout, PoolError, SharedConfig};
use course_pool::handle::{Handle, HandlePool};
use lab_text::group_digits;
use lab_text::{t, tf};

/// The Thai article's order line: 41 bytes of UTF-8.
pub const ORDER_LINE: &str = "1042|ต้มยำกุ้ง|2|18000\n";
/// The second renter's line in the article: 25 bytes of UTF-8.
pub const SECOND_LINE: &str = "7|ส้มตำ|1|6000\n";
/// The largest buffer the widget rents (it runs in the reader's browser tab).
pub const MAX_RENT: u64 = 1 << 20;
/// The most bytes the widget reads and shows.
pub const MAX_READ: u64 = 4096;

/// One run of the stale-data story.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scenario {
    /// What the first renter asks for.
    pub first_size: u64,
    /// What the first renter writes at offset 0.
    pub first: Vec<u8>,
    /// Whether the first renter returns with `clear` (.NET's `clearArray: true`).
    pub clear: bool,
    /// What the next renter asks for.
    pub second_size: u64,
    /// What the next renter writes at offset 0.
    pub second: Vec<u8>,
    /// How many bytes the next renter then reads from offset 0.
    pub read: u64,
}

impl Default for Scenario {
    /// The article's run: rent 64, write the 41-byte order, return without clearing, rent 64,
    /// write the 25-byte order, read 41.
    fn default() -> Self {
        Scenario {
            first_size: 64,
            first: ORDER_LINE.as_bytes().to_vec(),
            clear: false,
            second_size: 64,
            second: SECOND_LINE.as_bytes().to_vec(),
            read: 41,
        }
    }
}

/// What the next renter found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Length of the first renter's buffer (the bucket length).
    pub first_length: usize,
    /// Length of the next renter's buffer.
    pub second_length: usize,
    /// Whether the next renter got the very buffer the first one returned (`ReferenceEquals`).
    pub same_buffer: bool,
    /// Non-zero bytes in the whole buffer when the next renter got it, before it wrote.
    pub nonzero_on_arrival: usize,
    /// The bytes read.
    pub bytes: Vec<u8>,
    /// How many of the bytes read the next renter wrote itself (from offset 0).
    pub own: usize,
    /// Non-zero bytes read past what the next renter wrote: someone else's data.
    pub leaked: usize,
    /// Non-zero bytes among all the bytes read.
    pub nonzero_read: usize,
    /// What happened, one line per pool call.
    pub steps: Vec<String>,
}

impl Outcome {
    /// The bytes the next renter wrote and read back, as text.
    pub fn own_text(&self) -> String {
        visible(&self.bytes[..self.own])
    }

    /// The bytes read past the next renter's own write, as text (stale data, then zeros).
    pub fn leaked_text(&self) -> String {
        let tail = &self.bytes[self.own..];
        let end = tail.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        visible(&tail[..end])
    }

    /// Zero bytes read after the last leaked byte.
    pub fn trailing_zeros(&self) -> usize {
        let tail = &self.bytes[self.own..];
        tail.len() - tail.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)
    }
}

/// Why a scenario cannot run, in words a reader understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// A rent larger than the widget allows.
    RentTooLarge { who: &'static str, size: u64 },
    /// A line that does not fit the buffer the renter got.
    LineTooLong {
        who: &'static str,
        line: usize,
        length: usize,
    },
    /// Reading more than the widget shows.
    ReadTooMany { read: u64 },
    /// Reading past the end of the buffer.
    ReadPastEnd { read: u64, length: usize },
    /// The pool refused (allocation failure).
    Pool(PoolError),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScenarioError::RentTooLarge { who, size } => {
                let (size, max) = (group_digits(size), group_digits(MAX_RENT));
                f.write_str(&if who == FIRST {
                    tf!(
                        "The first renter rents {} bytes: this widget rents at most {} bytes in your browser",
                        size,
                        max
                    )
                } else {
                    tf!(
                        "The next renter rents {} bytes: this widget rents at most {} bytes in your browser",
                        size,
                        max
                    )
                })
            }
            ScenarioError::LineTooLong { who, line, length } => {
                let (line, length) = (group_digits(line as u64), group_digits(length as u64));
                f.write_str(&if who == FIRST {
                    tf!(
                        "The first renter's line is {} bytes but its buffer is only {} bytes long: rent at least {} bytes (in C#, the write would throw)",
                        line,
                        length,
                        line
                    )
                } else {
                    tf!(
                        "The next renter's line is {} bytes but its buffer is only {} bytes long: rent at least {} bytes (in C#, the write would throw)",
                        line,
                        length,
                        line
                    )
                })
            }
            ScenarioError::ReadTooMany { read } => f.write_str(&tf!(
                "Reading {} bytes: this widget shows at most {} bytes",
                group_digits(read),
                group_digits(MAX_READ)
            )),
            ScenarioError::ReadPastEnd { read, length } => f.write_str(&tf!(
                "Reading {} bytes runs past the end of the next renter's buffer of {} bytes: read at most {}",
                group_digits(read),
                group_digits(length as u64),
                group_digits(length as u64)
            )),
            ScenarioError::Pool(ref e) => f.write_str(&crate::pool_words::pool_error(e)),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// The renters as [`ScenarioError`] names them (each error has a whole sentence per renter).
const FIRST: &str = "first renter";
const NEXT: &str = "next renter";

impl From<PoolError> for ScenarioError {
    fn from(e: PoolError) -> Self {
        ScenarioError::Pool(e)
    }
}

/// The shared pool's settings in the lab's stories: one partition, so that a story runs the same
/// natively and in wasm whatever the machine's core count (the drawings and the quizzes count on
/// it).
pub fn lab_config() -> SharedConfig {
    SharedConfig::new().with_partitions(1)
}

/// `Encoding.UTF8.GetBytes(line, buf)`: `line` written at the start of `buf`, or the error saying
/// that `who`'s line does not fit the buffer the pool handed out.
fn write_line(buf: &Handle<u8>, line: &[u8], who: &'static str) -> Result<(), ScenarioError> {
    if line.len() > buf.len() {
        return Err(ScenarioError::LineTooLong {
            who,
            line: line.len(),
            length: buf.len(),
        });
    }
    buf.write_slice(0, line)?;
    Ok(())
}

/// A fresh shared-engine handle pool that behaves the same natively and in wasm ([`lab_config`]).
pub fn lab_pool<T: bufpool::pool::Element>() -> Result<HandlePool<T>, PoolError> {
    HandlePool::with_shared(lab_config())
}

/// The pool after one step of the story, for drawing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snap {
    /// The C# line of the step.
    pub code: String,
    /// What happened (the line of [`Outcome::steps`]).
    pub text: String,
    /// The buckets in play: `(bucket length, layout by buffer id)`.
    pub buckets: Vec<(u64, BucketLayout<u64>)>,
    /// `a1`, `a2` and the buffer id each points at (`None`: not rented yet), and whether it
    /// was returned.
    pub holders: Vec<(&'static str, Option<u64>, bool)>,
    /// The buffers in play: id, the renter holding it now (if any), its first bytes.
    pub bytes: Vec<(u64, Option<&'static str>, Vec<u8>)>,
    /// Bytes each renter wrote (from offset 0): `a1`'s then `a2`'s.
    pub written: [usize; 2],
}

/// Bytes of a buffer the step-through draws.
pub const SHOWN_BYTES: usize = 64;

/// Runs the scenario on a fresh handle pool.
pub fn run(s: &Scenario) -> Result<Outcome, ScenarioError> {
    run_in(&lab_pool::<u8>()?, s)
}

/// Runs the scenario on `pool` (e.g. a [`lab_pool`] in checked mode: the contract report runs
/// it per API).
pub fn run_in(pool: &HandlePool<u8>, s: &Scenario) -> Result<Outcome, ScenarioError> {
    run_with(pool, s, false).map(|(o, _)| o)
}

/// Runs the scenario on a fresh handle pool and records the pool after every step (what the
/// step-through draws).
pub fn run_traced(s: &Scenario) -> Result<(Outcome, Vec<Snap>), ScenarioError> {
    run_with(&lab_pool::<u8>()?, s, true)
}

/// The run on `pool`, recording the pool after every step when `trace` is set. Tracing reads
/// every buffer in play, returned ones too, which a checked pool refuses: [`run_in`] does not
/// trace.
fn run_with(
    pool: &HandlePool<u8>,
    s: &Scenario,
    trace: bool,
) -> Result<(Outcome, Vec<Snap>), ScenarioError> {
    for (who, size) in [(FIRST, s.first_size), (NEXT, s.second_size)] {
        if size > MAX_RENT {
            return Err(ScenarioError::RentTooLarge { who, size });
        }
    }
    if s.read > MAX_READ {
        return Err(ScenarioError::ReadTooMany { read: s.read });
    }
    let buckets: Vec<usize> = {
        let mut b: Vec<usize> = [s.first_size, s.second_size]
            .iter()
            .filter_map(|&n| match bufpool::bucket::round(n as usize) {
                bufpool::bucket::Rounding::Bucket { index, .. } => Some(index),
                _ => None,
            })
            .collect();
        b.dedup();
        b
    };
    let mut snaps: Vec<Snap> = Vec::new();
    let mut steps = Vec::new();
    let mut holders: Vec<(&'static str, Option<u64>, bool)> =
        vec![("a1", None, false), ("a2", None, false)];
    let mut in_play: Vec<Handle<u8>> = Vec::new();
    let mut written = [0usize; 2];
    let mut snap = |code: String,
                    text: &str,
                    holders: &[(&'static str, Option<u64>, bool)],
                    in_play: &[Handle<u8>],
                    written: [usize; 2]|
     -> Result<(), ScenarioError> {
        if !trace {
            return Ok(());
        }
        let mut bytes = Vec::new();
        for h in in_play {
            let holder = holders
                .iter()
                .rev()
                .find(|(_, id, returned)| *id == Some(h.id()) && !returned)
                .map(|(name, _, _)| *name);
            bytes.push((h.id(), holder, h.read_range(0, h.len().min(SHOWN_BYTES))?));
        }
        snaps.push(Snap {
            code,
            text: text.to_string(),
            buckets: buckets
                .iter()
                .map(|&i| (bufpool::bucket::bucket_length(i) as u64, pool.layout(i)))
                .collect(),
            holders: holders.to_vec(),
            bytes,
            written,
        });
        Ok(())
    };
    let a1 = pool.rent(s.first_size as usize)?;
    steps.push(tf!(
        "a1 = pool.Rent({}) → a buffer of {} bytes",
        group_digits(s.first_size),
        group_digits(a1.len() as u64)
    ));
    holders[0].1 = Some(a1.id());
    if !a1.is_empty() {
        in_play.push(a1.clone());
    }
    snap(
        format!("byte[] a1 = pool.Rent({});", s.first_size),
        &steps[0],
        &holders,
        &in_play,
        written,
    )?;
    write_line(&a1, &s.first, FIRST)?;
    written[0] = s.first.len();
    steps.push(tf!("a1 ← {} bytes: {}", s.first.len(), visible(&s.first)));
    snap(
        "Encoding.UTF8.GetBytes(line1, a1);".into(),
        &steps[1],
        &holders,
        &in_play,
        written,
    )?;
    pool.return_handle(&a1, s.clear)?;
    steps.push(format!(
        "pool.Return(a1, clearArray: {})",
        if s.clear { "true" } else { "false" }
    ));
    holders[0].2 = true;
    snap(
        format!(
            "pool.Return(a1, clearArray: {});",
            if s.clear { "true" } else { "false" }
        ),
        &steps[2],
        &holders,
        &in_play,
        written,
    )?;
    let a2 = pool.rent(s.second_size as usize)?;
    let same_buffer = a2.ptr_eq(&a1);
    let nonzero_on_arrival = a2.with(|d| d.iter().filter(|&&b| b != 0).count())?;
    let (asked, got) = (group_digits(s.second_size), group_digits(a2.len() as u64));
    steps.push(if same_buffer {
        tf!(
            "a2 = pool.Rent({}) → a buffer of {} bytes, the same buffer (ReferenceEquals(a1, a2) = True), holding {} non-zero bytes",
            asked,
            got,
            nonzero_on_arrival
        )
    } else {
        tf!(
            "a2 = pool.Rent({}) → a buffer of {} bytes, a different buffer (ReferenceEquals(a1, a2) = False), holding {} non-zero bytes",
            asked,
            got,
            nonzero_on_arrival
        )
    });
    holders[1].1 = Some(a2.id());
    if !a2.is_empty() && !in_play.iter().any(|h| h.ptr_eq(&a2)) {
        in_play.push(a2.clone());
    }
    snap(
        format!("byte[] a2 = pool.Rent({});", s.second_size),
        &steps[3],
        &holders,
        &in_play,
        written,
    )?;
    write_line(&a2, &s.second, NEXT)?;
    written[1] = s.second.len();
    steps.push(tf!("a2 ← {} bytes: {}", s.second.len(), visible(&s.second)));
    snap(
        "Encoding.UTF8.GetBytes(line2, a2);".into(),
        &steps[4],
        &holders,
        &in_play,
        written,
    )?;
    if s.read > a2.len() as u64 {
        return Err(ScenarioError::ReadPastEnd {
            read: s.read,
            length: a2.len(),
        });
    }
    let bytes = a2.read_range(0, s.read as usize)?;
    steps.push(tf!("read a2[0..{}]", s.read));
    snap(
        format!("Encoding.UTF8.GetString(a2, 0, {});", s.read),
        &steps[5],
        &holders,
        &in_play,
        written,
    )?;
    let own = s.second.len().min(bytes.len());
    let leaked = bytes[own..].iter().filter(|&&b| b != 0).count();
    let nonzero_read = bytes.iter().filter(|&&b| b != 0).count();
    let outcome = Outcome {
        first_length: a1.len(),
        second_length: a2.len(),
        same_buffer,
        nonzero_on_arrival,
        bytes,
        own,
        leaked,
        nonzero_read,
        steps,
    };
    Ok((outcome, snaps))
}

/// Bytes as text a reader can see: UTF-8 (a cut character shows as `�`), with `⏎` for a line
/// break, `⇥` for a tab and `␀` for a zero byte.
pub fn visible(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| match c {
            '\n' => '⏎',
            '\t' => '⇥',
            '\0' => '␀',
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// A line as the widget's text field shows it: a line break as `\n`, a backslash as `\\`.
pub fn escape_line(line: &str) -> String {
    line.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\t', "\\t")
}

/// A line as typed into the widget: `\n` is a line break, `\t` a tab, `\\` a backslash.
pub fn parse_line(typed: &str) -> Result<Vec<u8>, String> {
    let mut out = String::with_capacity(typed.len());
    let mut chars = typed.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                return Err(tf!(
                    "“\\{}” is not an escape the widget knows: type \\n for a line break, \\t for a tab or \\\\ for a backslash",
                    other
                ));
            }
            None => {
                return Err(t!(
                    "The line ends with a lone backslash: type \\n for a line break or \\\\ for a backslash"
                )
                .into_owned());
            }
        }
    }
    if out.len() as u64 > MAX_READ {
        return Err(tf!(
            "The line is {} bytes: this widget writes at most {} bytes",
            group_digits(out.len() as u64),
            group_digits(MAX_READ)
        ));
    }
    Ok(out.into_bytes())
}

/// Whether a pool of owning values keeps a returned value alive: a 4,096-byte payload is stored
/// in a rented buffer, which is returned with or without clearing, and every other reference to
/// the payload is dropped. `true` if the payload is still alive (the pool holds it).
pub fn payload_alive(clear: bool) -> Result<bool, PoolError> {
    let pool = lab_pool::<Option<Arc<[u8]>>>()?;
    let arr = pool.rent(16)?;
    let payload: Arc<[u8]> = Arc::from(vec![1u8; 4096]);
    let weak: Weak<[u8]> = Arc::downgrade(&payload);
    arr.write(0, Some(payload))?;
    pool.return_handle(&arr, clear)?;
    drop(arr);
    let alive = weak.upgrade().is_some();
    drop(pool);
    Ok(alive)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_run() {
        assert_eq!(ORDER_LINE.len(), 41);
        assert_eq!(SECOND_LINE.len(), 25);
        let o = run(&Scenario::default()).unwrap();
        assert_eq!((o.first_length, o.second_length), (64, 64));
        assert!(o.same_buffer);
        assert_eq!(o.nonzero_on_arrival, 41);
        assert_eq!((o.own, o.leaked, o.nonzero_read), (25, 16, 41));
        assert_eq!(o.own_text(), "7|ส้มตำ|1|6000⏎");
        assert_eq!(o.leaked_text(), "\u{FFFD}้ง|2|18000⏎");
        assert_eq!(o.trailing_zeros(), 0);
        assert_eq!(o.steps.len(), 6);
        let cleared = run(&Scenario {
            clear: true,
            ..Scenario::default()
        })
        .unwrap();
        assert!(cleared.same_buffer);
        assert_eq!((cleared.nonzero_on_arrival, cleared.leaked), (0, 0));
        assert_eq!(cleared.trailing_zeros(), 16);
    }

    #[test]
    fn other_bucket_other_buffer() {
        let o = run(&Scenario {
            second_size: 200,
            read: 64,
            ..Scenario::default()
        })
        .unwrap();
        assert!(!o.same_buffer);
        assert_eq!(
            (o.second_length, o.nonzero_on_arrival, o.leaked),
            (256, 0, 0)
        );
        let o = run(&Scenario {
            second_size: 33,
            ..Scenario::default()
        })
        .unwrap();
        assert!(o.same_buffer, "33 rounds to 64 too");
    }

    #[test]
    fn bad_runs_are_errors() {
        let e = |s: Scenario| run(&s).unwrap_err().to_string();
        assert!(
            e(Scenario {
                first_size: 16,
                ..Scenario::default()
            })
            .contains("line is 41 bytes but its buffer is only 16 bytes")
        );
        assert!(
            e(Scenario {
                read: 65,
                ..Scenario::default()
            })
            .contains("runs past the end")
        );
        assert!(
            e(Scenario {
                read: 5000,
                ..Scenario::default()
            })
            .contains("at most 4,096")
        );
        assert!(
            e(Scenario {
                second_size: 1 << 30,
                ..Scenario::default()
            })
            .contains("at most 1,048,576")
        );
        assert!(
            e(Scenario {
                first_size: 0,
                ..Scenario::default()
            })
            .contains("only 0 bytes")
        );
    }

    #[test]
    fn lines_round_trip() {
        assert_eq!(
            parse_line(&escape_line(ORDER_LINE)).unwrap(),
            ORDER_LINE.as_bytes()
        );
        assert_eq!(escape_line(SECOND_LINE), "7|ส้มตำ|1|6000\\n");
        assert_eq!(parse_line("a\\\\b\\tc").unwrap(), b"a\\b\tc");
        assert!(parse_line("x\\q").unwrap_err().contains("\\q"));
        assert!(parse_line("x\\").unwrap_err().contains("lone backslash"));
        assert!(
            parse_line(&"x".repeat(5000))
                .unwrap_err()
                .contains("at most")
        );
    }

    #[test]
    fn owning_values_stay_alive_until_cleared() {
        assert_eq!(payload_alive(false), Ok(true));
        assert_eq!(payload_alive(true), Ok(false));
    }
}
