//! The bench data the book cites: every machine's file, and which one is the primary.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use bench_data::{Figure, RunFile};

use crate::claims::Site;

pub struct Data {
    dir: PathBuf,
    files: Vec<RunFile>,
    primary: Option<usize>,
    warnings: RefCell<Vec<String>>,
    /// The chapter being rendered, named in warnings.
    chapter: RefCell<String>,
    /// Every claim of the book (with its chapter and sentence), gathered before rendering so the
    /// instructors' page can list them all and the build can end with their table.
    sites: RefCell<Vec<Site>>,
    /// Numbers the popovers of one build (their ids must be unique on a page).
    next_id: Cell<usize>,
}

impl Data {
    /// Loads `dir`; the primary machine is `machine` when given, else the most recent run.
    pub fn load(dir: &Path, machine: Option<&str>) -> Result<Data> {
        let files = if dir.exists() {
            bench_data::load_dir(dir)?
        } else {
            Vec::new()
        };
        let primary = match machine {
            Some(id) => match files.iter().position(|f| f.machine.id == id) {
                Some(i) => Some(i),
                None => bail!("LAB_MACHINE={id}, but {} has no {id}.json", dir.display()),
            },
            None => (0..files.len()).max_by(|&a, &b| files[a].run.date.cmp(&files[b].run.date)),
        };
        Ok(Data::new(dir, files, primary))
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
            primary,
            warnings: RefCell::default(),
            chapter: RefCell::default(),
            sites: RefCell::default(),
            next_id: Cell::default(),
        }
    }

    pub fn files(&self) -> &[RunFile] {
        &self.files
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
        let file = self.primary()?;
        match file.figures.get(key) {
            Some(f) => Ok((file, f)),
            None => Err(format!(
                "figure `{key}` is not in {}: rerun `cargo xtask bench`, or fix the key",
                self.dir.join(format!("{}.json", file.machine.id)).display()
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

    /// A fresh id for a popover (`lab-pop-1`, `lab-pop-2`, …).
    pub fn next_id(&self) -> String {
        let n = self.next_id.get() + 1;
        self.next_id.set(n);
        format!("lab-pop-{n}")
    }
}
