//! The bench data the book cites: every machine's file, and which one is the primary.
//!
//! Files accumulate in `book/data` (one per machine and runtime); the fingerprint of the measured
//! code (`bench_data::fingerprint`) says which are current. The primary is the newest file of the
//! system allocator measured at the current fingerprint (or `LAB_MACHINE`); the book's columns are
//! the files at the primary's fingerprint, and every other file is *older code*: listed on the
//! machines table with its fingerprint, left out of tables, charts and claims, and named in the
//! build's warnings. When no file is current (the pool changed since the last bench), the newest
//! system file is the primary anyway and the build warns that its figures are of older code.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use bench_data::{Figure, RunFile};

use crate::claims::Site;
use crate::ledger::Cite;

pub struct Data {
    dir: PathBuf,
    /// The files at the primary's fingerprint: the book's columns.
    files: Vec<RunFile>,
    /// Files of other code, with why they are left out.
    older: Vec<(RunFile, String)>,
    /// The fingerprint of the code this book is built with (None: could not be computed).
    current: Option<String>,
    primary: Option<usize>,
    warnings: RefCell<Vec<String>>,
    /// The chapter being rendered, named in warnings.
    chapter: RefCell<String>,
    /// Every claim of the book (with its chapter and sentence), gathered before rendering so the
    /// instructors' page can list them all and the build can end with their table.
    sites: RefCell<Vec<Site>>,
    /// Numbers the popovers of one build (their ids must be unique on a page).
    next_id: Cell<usize>,
    /// Every figure the story chapters cite, gathered before rendering for the ledger.
    cites: RefCell<Vec<Cite>>,
    /// The chapter and figure of each citation rendered so far (the first one carries the id
    /// the ledger's back link returns to).
    cited: RefCell<HashSet<(String, String)>>,
}

impl Data {
    /// Loads `dir` with the workspace above it (or above the working directory) as the current
    /// code; see [`Data::load_with_root`].
    pub fn load(dir: &Path, machine: Option<&str>) -> Result<Data> {
        let root = bench_data::fingerprint::workspace_root(dir).or_else(|| {
            std::env::current_dir()
                .ok()
                .and_then(|d| bench_data::fingerprint::workspace_root(&d))
        });
        Data::load_with_root(dir, machine, root.as_deref())
    }

    /// Loads `dir`; the primary machine is `machine` when given, else the most recent current
    /// run of the system allocator. `root` is the workspace whose code is current.
    pub fn load_with_root(dir: &Path, machine: Option<&str>, root: Option<&Path>) -> Result<Data> {
        let all = if dir.exists() {
            bench_data::load_dir(dir)?
        } else {
            Vec::new()
        };
        let current = root.and_then(|r| bench_data::fingerprint::compute(r).ok());
        Data::choose(dir, all, machine, current)
    }

    /// The choice of the primary and the columns among files already read (`all`, from `dir`),
    /// with `current` the fingerprint of the code the book is built with: no reading, no hashing,
    /// so the `lab_machine` fuzz target can run it millions of times.
    pub fn choose(
        dir: &Path,
        all: Vec<RunFile>,
        machine: Option<&str>,
        current: Option<String>,
    ) -> Result<Data> {
        let mut warnings = Vec::new();
        let is_current = |f: &RunFile| current.is_some() && f.run.fingerprint == current;
        let newest = |pick: &dyn Fn(&RunFile) -> bool| {
            (0..all.len())
                .filter(|&i| pick(&all[i]))
                .max_by(|&a, &b| all[a].run.date.cmp(&all[b].run.date))
        };
        let system = |f: &RunFile| f.run.runtime == bench_data::SYSTEM_RUNTIME;
        let primary = match machine {
            Some(id) => match all.iter().position(|f| f.stem() == id) {
                Some(i) => Some(i),
                None => bail!("LAB_MACHINE={id}, but {} has no {id}.json", dir.display()),
            },
            None => newest(&|f| system(f) && is_current(f))
                .or_else(|| newest(&system))
                .or_else(|| newest(&|_| true)),
        };
        if let Some(p) = primary
            && !is_current(&all[p])
        {
            warnings.push(format!(
                "{}.json measured older code (fingerprint {}; the code is now {}): its figures are cited, but rerun `cargo xtask bench` to measure this code",
                all[p].stem(),
                all[p].run.fingerprint.as_deref().unwrap_or("none, schema 2"),
                current.as_deref().unwrap_or("unknown")
            ));
        }
        let shown_print = primary.map(|p| all[p].run.fingerprint.clone());
        let (mut files, mut older) = (Vec::new(), Vec::new());
        let mut primary_at = None;
        for (i, f) in all.into_iter().enumerate() {
            if Some(&f.run.fingerprint) == shown_print.as_ref() {
                if Some(i) == primary {
                    primary_at = Some(files.len());
                }
                files.push(f);
            } else {
                let why = format!(
                    "older code: fingerprint {}, not {}",
                    f.run.fingerprint.as_deref().unwrap_or("none (schema 2)"),
                    shown_print
                        .clone()
                        .flatten()
                        .unwrap_or_else(|| "none".into())
                );
                warnings.push(format!(
                    "{}.json left out of the book's columns ({why}): rerun `cargo xtask bench` on that machine",
                    f.stem()
                ));
                older.push((f, why));
            }
        }
        let mut data = Data::new(dir, files, primary_at);
        data.older = older;
        data.current = current;
        data.warnings = RefCell::new(warnings);
        Ok(data)
    }

    /// An in-memory data set, for tests.
    pub fn from_files(files: Vec<RunFile>) -> Data {
        let primary = if files.is_empty() { None } else { Some(0) };
        Data::new(Path::new("book/data"), files, primary)
    }

    fn new(dir: &Path, files: Vec<RunFile>, primary: Option<usize>) -> Data {
        Data {
            dir: dir.to_path_buf(),
            files,
            older: Vec::new(),
            current: None,
            primary,
            warnings: RefCell::default(),
            chapter: RefCell::default(),
            sites: RefCell::default(),
            next_id: Cell::default(),
            cites: RefCell::default(),
            cited: RefCell::default(),
        }
    }

    /// The files the book shows side by side (the primary's fingerprint).
    pub fn files(&self) -> &[RunFile] {
        &self.files
    }

    /// Files of other code, left out, with why.
    pub fn older(&self) -> &[(RunFile, String)] {
        &self.older
    }

    /// The fingerprint of the code this book is built with, when known.
    pub fn current(&self) -> Option<&str> {
        self.current.as_deref()
    }

    pub fn primary(&self) -> Result<&RunFile, String> {
        self.primary.map(|i| &self.files[i]).ok_or_else(|| {
            format!(
                "{} holds no bench data: run `cargo xtask bench` to measure this machine",
                self.dir.display()
            )
        })
    }

    /// The primary machine's figure `key`, or an error naming the file it is missing from.
    pub fn figure(&self, key: &str) -> Result<(&RunFile, &Figure), String> {
        self.figure_in(self.primary()?, key)
    }

    /// Figure `key` of the runtime `on` (`None`: the primary file) on the primary's machine.
    pub fn figure_on(&self, on: Option<&str>, key: &str) -> Result<(&RunFile, &Figure), String> {
        let primary = self.primary()?;
        let claim = bench_data::claim::Direction::Same.claim(key).on(on);
        match claim.file(primary, &self.files) {
            Some(file) => self.figure_in(file, key),
            None => Err(format!(
                "{} has no {} data of {}: run `cargo xtask bench` on it",
                self.dir.display(),
                on.unwrap_or("?"),
                primary.machine.id
            )),
        }
    }

    /// `file`'s figure `key`, or an error naming the file it is missing from.
    pub fn figure_in<'a>(
        &self,
        file: &'a RunFile,
        key: &str,
    ) -> Result<(&'a RunFile, &'a Figure), String> {
        match file.figures.get(key) {
            Some(f) => Ok((file, f)),
            None => Err(format!(
                "figure `{key}` is not in {}: rerun `cargo xtask bench`, or fix the key",
                self.dir.join(format!("{}.json", file.stem())).display()
            )),
        }
    }

    /// Names the chapter that later warnings are about.
    pub fn set_chapter(&self, chapter: &str) {
        *self.chapter.borrow_mut() = chapter.to_string();
    }

    pub fn warn(&self, message: String) {
        let chapter = self.chapter.borrow();
        let message = if chapter.is_empty() {
            message
        } else {
            format!("{chapter}: {message}")
        };
        self.warnings.borrow_mut().push(message);
    }

    pub fn warnings(&self) -> Vec<String> {
        self.warnings.borrow().clone()
    }

    pub fn add_sites(&self, sites: Vec<Site>) {
        self.sites.borrow_mut().extend(sites);
    }

    /// Every claim of the book, in chapter order.
    pub fn sites(&self) -> Vec<Site> {
        self.sites.borrow().clone()
    }

    /// The chapter being rendered (its source path), empty outside a chapter.
    pub fn chapter(&self) -> String {
        self.chapter.borrow().clone()
    }

    /// Whether the chapter being rendered is a story chapter (`ledger::STORY`): its figures are
    /// links into the ledger, not popovers.
    pub fn story(&self) -> bool {
        crate::ledger::is_story(&self.chapter.borrow())
    }

    pub fn add_cites(&self, cites: Vec<Cite>) {
        self.cites.borrow_mut().extend(cites);
    }

    /// Every figure the story chapters cite, in chapter order.
    pub fn cites(&self) -> Vec<Cite> {
        self.cites.borrow().clone()
    }

    /// Whether this is the current chapter's first citation of `key` (and notes it).
    pub fn first_citation(&self, key: &str) -> bool {
        let chapter = self.chapter.borrow().clone();
        self.cited.borrow_mut().insert((chapter, key.to_string()))
    }

    /// A fresh id for a popover (`lab-pop-1`, `lab-pop-2`, …).
    pub fn next_id(&self) -> String {
        let n = self.next_id.get() + 1;
        self.next_id.set(n);
        format!("lab-pop-{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files accumulate: the one at the current fingerprint is the primary and a column, one of
    /// other code is listed as older, and a build with no current file still cites the newest.
    #[test]
    fn older_code_is_listed_not_shown() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = bench_data::fingerprint::workspace_root(here).unwrap();
        let current = bench_data::fingerprint::compute(&root).unwrap();
        let committed = bench_data::load_dir(&here.join("../data")).unwrap();
        let mut a = committed[0].clone();
        a.machine.id = "now-2c".into();
        a.run.runtime = bench_data::SYSTEM_RUNTIME.into();
        a.run.fingerprint = Some(current.clone());
        a.run.date = "2026-01-01T00:00:00Z".into();
        let mut b = a.clone();
        b.machine.id = "old-2c".into();
        b.run.fingerprint = Some("fnv1a64:00000000deadbeef".into());
        b.run.date = "2026-06-01T00:00:00Z".into();
        let mut c = a.clone();
        c.run.runtime = "mimalloc".into();
        let dir = std::env::temp_dir().join(format!("lab-older-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for f in [&a, &b, &c] {
            std::fs::write(dir.join(format!("{}.json", f.stem())), f.to_json()).unwrap();
        }
        let data = Data::load_with_root(&dir, None, Some(&root)).unwrap();
        assert_eq!(data.primary().unwrap().stem(), "now-2c");
        let shown: Vec<String> = data.files().iter().map(RunFile::label).collect();
        assert_eq!(shown, ["now-2c", "now-2c · mimalloc"]);
        assert_eq!(data.older().len(), 1);
        assert!(data.older()[0].1.contains("older code"));
        assert!(data.warnings().iter().any(|w| w.contains("old-2c.json")));
        // Without the current code's file, the newest one is cited, with a warning.
        std::fs::remove_file(dir.join("now-2c.json")).unwrap();
        std::fs::remove_file(dir.join("now-2c.mimalloc.json")).unwrap();
        let data = Data::load_with_root(&dir, None, Some(&root)).unwrap();
        assert_eq!(data.primary().unwrap().stem(), "old-2c");
        assert!(
            data.warnings()
                .iter()
                .any(|w| w.contains("measured older code"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
