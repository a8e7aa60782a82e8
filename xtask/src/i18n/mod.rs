//! The book's translations (issue 24): the message template, the catalogs, the report.
//!
//! The English chapters are the source. `cargo xtask i18n` extracts their text with
//! Comprehensive Rust's `mdbook-xgettext` (run in-process: it is a library) into
//! `book/po/messages.pot`, then brings every catalog `book/po/<lang>.po` up to date with it:
//! a message whose English is unchanged keeps its translation, a new or changed one is added
//! untranslated, a message the English no longer has is dropped. The book's preprocessor
//! (`mdbook-lab`) translates each chapter with these catalogs before it splices in figures, so a
//! new bench run never makes a translation outdated.
//!
//! The lab's own words (widgets, quizzes, verdicts) have their catalog too, `lab-text/po/`
//! (`lab.rs`): `cargo xtask i18n` extracts and merges it the same way.
//!
//! The report counts, per catalog and language, the messages translated, fuzzy and missing; a
//! shipped language must have none fuzzy or missing (`check`, run by `cargo xtask test`).
//!
//! It also checks what a reader of each language notices (issue 38), and the check fails on any
//! of it: a Russian count without plural forms or with wrong ones, and a plain space between a
//! number and its unit (`russian.rs`); a Thai full stop after Thai text (`thai.rs`); a term
//! rendered otherwise than its language's terms file says (`terms.rs`, `book/po/terms.<lang>.tsv`);
//! a series of labels in two wordings (`series.rs`); a label of the pages quoted in English
//! (`labels.rs`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use lab_text::lang::{self, Language};
use polib::catalog::Catalog;
use polib::message::{Message, MessageMutView, MessageView};

pub mod lab;
mod labels;
mod numbers;
mod russian;
mod series;
pub mod terms;
mod thai;

/// Where the catalogs live, relative to the book's root (mdbook-i18n-helpers' default `po`).
pub fn po_dir(root: &Path) -> PathBuf {
    root.join("book/po")
}

/// Extracts the English text into `book/po/messages.pot`.
pub fn template(root: &Path) -> Result<PathBuf> {
    crate::site::step("extracting the book's English text into book/po/messages.pot");
    let mut book =
        mdbook_driver::MDBook::load(root.join("book")).context("cannot load book/book.toml")?;
    // The renderer writes into its build directory: point it at po/, not at the site.
    book.config.build.build_dir = po_dir(root);
    book.config.book.language = Some("en".into());
    book.execute_build_process(&mdbook_i18n_helpers::renderers::Xgettext)
        .context("mdbook-xgettext could not extract the book's text")?;
    let pot = po_dir(root).join("messages.pot");
    add_html_texts(root, &pot)?;
    Ok(pot)
}

/// Adds to the template the texts of the chapters' raw HTML that mdbook-xgettext skips (a
/// folded section's `<summary>`, an inline drawing's `<title>`, `<text>` and `<tspan>`; see
/// `mdbook_lab::translate::html_texts`), each with the place it comes from.
fn add_html_texts(root: &Path, pot: &Path) -> Result<()> {
    let mut catalog = read(pot)?;
    for page in crate::site::chapters(root)? {
        let text = std::fs::read_to_string(&page)?;
        let name = page
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for (range, msgid) in mdbook_lab::translate::html_texts(&text) {
            let line = text[..range.start].matches('\n').count() + 1;
            let place = format!("src/{name}:{line}");
            let source = match catalog.find_message(None, &msgid, None) {
                Some(m) => format!("{} {place}", m.source()),
                None => place,
            };
            catalog.append_or_update(
                Message::build_singular()
                    .with_msgid(msgid)
                    .with_source(source)
                    .with_comments("Text of the chapter's HTML (a folded section's title or a drawing's label)".into())
                    .done(),
            );
        }
    }
    polib::po_file::write(&catalog, pot).with_context(|| format!("cannot write {}", pot.display()))
}

/// `cargo xtask i18n`: both templates, then every catalog merged with them, then the report.
pub fn update(root: &Path) -> Result<()> {
    let pot = template(root)?;
    let book = read(&pot)?;
    merge_all(&book, &po_dir(root))?;
    let lab = lab::template(root)?;
    merge_all(&lab, &lab::po_dir(root))?;
    print!("{}", report_with(root, &book, &lab)?.text());
    Ok(())
}

/// Merges `template` into `<dir>/<lang>.po` for every translated language.
fn merge_all(template: &Catalog, dir: &Path) -> Result<()> {
    for language in lang::translated() {
        let path = dir.join(format!("{}.po", language.code));
        let old = if path.is_file() {
            Some(read(&path)?)
        } else {
            None
        };
        let merged = merge(template, old.as_ref(), language);
        polib::po_file::write(&merged, &path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn read(path: &Path) -> Result<Catalog> {
    polib::po_file::parse(path)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("cannot read {}", path.display()))
}

/// The template's messages in its order, each with the old catalog's translation of the same
/// English (and its fuzzy flag) where there is one.
fn merge(template: &Catalog, old: Option<&Catalog>, language: &Language) -> Catalog {
    // The header as the template has it, with this language's lines; the dates of an existing
    // catalog are kept, so an extraction alone does not change the file.
    let dates = old.map_or(&template.metadata, |c| &c.metadata);
    let header = format!(
        "Project-Id-Version: Pools & Chunks\nPOT-Creation-Date: {}\nPO-Revision-Date: {}\n\
         Last-Translator: {}\nLanguage-Team: {}\nMIME-Version: 1.0\n\
         Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\
         Language: {}\nPlural-Forms: {}\n",
        dates.pot_creation_date,
        dates.po_revision_date,
        dates.last_translator,
        language.name,
        language.code,
        language.plural_forms,
    );
    let metadata = polib::metadata::CatalogMetadata::parse(&header).unwrap_or_default();
    let mut out = Catalog::new(metadata);
    let forms = language
        .plural_forms
        .split_once("nplurals=")
        .and_then(|(_, n)| n.split(';').next()?.trim().parse().ok())
        .unwrap_or(2);
    for message in template.messages() {
        let plural = message.msgid_plural().ok().filter(|p| !p.is_empty());
        let previous = old.and_then(|c| c.find_message(None, message.msgid(), plural));
        let mut new = match plural {
            Some(plural) => {
                let mut texts = previous
                    .and_then(|p| p.msgstr_plural().ok().cloned())
                    .unwrap_or_default();
                texts.resize(forms, String::new());
                Message::build_plural()
                    .with_msgid(message.msgid().to_string())
                    .with_msgid_plural(plural.to_string())
                    .with_msgstr_plural(texts)
                    .with_source(message.source().to_string())
                    .with_comments(message.comments().to_string())
                    .done()
            }
            None => {
                let mut new = Message::build_singular()
                    .with_msgid(message.msgid().to_string())
                    .with_source(message.source().to_string())
                    .with_comments(message.comments().to_string())
                    .with_msgctxt(message.msgctxt().to_string())
                    .done();
                if let Some(text) = previous.and_then(|p| p.msgstr().ok()) {
                    new.set_msgstr(text.to_string()).ok();
                }
                new
            }
        };
        if previous.is_some_and(|p| p.is_fuzzy()) {
            new.flags_mut().add_flag("fuzzy");
        }
        out.append_or_update(new);
    }
    out
}

/// One language's counts.
pub struct Counts {
    /// `book` or `lab`.
    pub catalog: &'static str,
    pub code: &'static str,
    pub translated: usize,
    pub fuzzy: usize,
    pub missing: usize,
    /// Messages whose translation does not carry exactly the English's lab directives
    /// (`{{#fig …}}`, `{{#claim …}}`, …): the claims must be the same claims in every language.
    pub directives_changed: Vec<String>,
    /// Messages whose translation has a number the English does not (`numbers::added`): a
    /// mistyped figure, or a fact the English does not state.
    pub numbers_added: Vec<String>,
    /// What a reader of the language notices (issue 38), per kind.
    pub findings: Vec<(Kind, String)>,
}

/// The kinds of the report's reading checks (issue 38).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A Russian non-plural message puts a count straight before a noun (`russian::count_before_noun`).
    CountWithoutPlural,
    /// A Russian plural message whose forms do not agree with the count (`russian::agreement`).
    PluralForms,
    /// A term rendered otherwise than the terms file says (`terms::splits`).
    TermSplit,
    /// A Thai full stop after Thai text (`thai::full_stops`).
    ThaiFullStop,
    /// A quoted label the page shows otherwise: a button, a mark (`labels::otherwise`).
    LabelOtherwise,
    /// A plain space between a number and its unit in Russian (`russian::unit_spaces`).
    UnitSpace,
    /// One series of labels in several wordings (`series::splits`).
    SeriesSplit,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::CountWithoutPlural,
        Kind::PluralForms,
        Kind::TermSplit,
        Kind::ThaiFullStop,
        Kind::LabelOtherwise,
        Kind::UnitSpace,
        Kind::SeriesSplit,
    ];

    /// How the report counts it: "{n} {name}".
    pub fn name(self) -> &'static str {
        match self {
            Kind::CountWithoutPlural => "with a count before a noun and no plural forms",
            Kind::PluralForms => "with plural forms that do not agree",
            Kind::TermSplit => "with a term rendered otherwise than the terms file",
            Kind::ThaiFullStop => "with a full stop after Thai text",
            Kind::LabelOtherwise => "naming a label otherwise than the page shows it",
            Kind::UnitSpace => "with a plain space between a number and its unit",
            Kind::SeriesSplit => "label series in more than one wording",
        }
    }
}

impl Counts {
    /// The findings of one kind.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &String> {
        self.findings
            .iter()
            .filter(move |(k, _)| *k == kind)
            .map(|(_, f)| f)
    }

    /// How many messages (series, for a series split) have a finding of `kind`: a message's
    /// findings are one line each, starting with its English.
    pub fn messages_with(&self, kind: Kind) -> usize {
        self.of(kind).count()
    }
}

/// The translation report, per translated language.
pub struct Report(pub Vec<Counts>);

impl Report {
    pub fn text(&self) -> String {
        let mut s = String::from("translations (book: book/po, lab: lab-text/po):\n");
        for c in &self.0 {
            s.push_str(&format!(
                "  {} {}: {} translated, {} fuzzy, {} missing, {} with changed directives, \
                 {} with a number the English does not have\n",
                c.catalog,
                c.code,
                c.translated,
                c.fuzzy,
                c.missing,
                c.directives_changed.len(),
                c.numbers_added.len()
            ));
            for n in &c.numbers_added {
                s.push_str(&format!("      {n}\n"));
            }
            let kinds: Vec<String> = Kind::ALL
                .iter()
                .filter(|k| applies(**k, c.code))
                .map(|k| format!("{} {}", c.messages_with(*k), k.name()))
                .collect();
            s.push_str(&format!("      {}\n", kinds.join(", ")));
            for kind in Kind::ALL {
                if c.messages_with(kind) > 0 {
                    s.push_str(&format!("      {}:\n", kind.name()));
                }
                for f in c.of(kind) {
                    s.push_str(&format!("        {f}\n"));
                }
            }
        }
        s
    }

    /// Fails when a shipped language has a fuzzy or missing message or changes a directive.
    pub fn check(&self) -> Result<()> {
        let bad: Vec<String> = self
            .0
            .iter()
            .filter(|c| {
                c.fuzzy
                    + c.missing
                    + c.directives_changed.len()
                    + c.numbers_added.len()
                    + c.findings.len()
                    > 0
            })
            .map(|c| {
                let mut line = format!(
                    "{} {}: {} fuzzy, {} missing",
                    c.catalog, c.code, c.fuzzy, c.missing
                );
                for d in c.directives_changed.iter().take(5) {
                    line.push_str(&format!("\n    directives differ: {d}"));
                }
                for n in c.numbers_added.iter().take(5) {
                    line.push_str(&format!("\n    a number the English does not have: {n}"));
                }
                for kind in Kind::ALL {
                    let n = c.messages_with(kind);
                    if n > 0 {
                        line.push_str(&format!("\n    {n} {}:", kind.name()));
                        for f in c.of(kind).take(5) {
                            line.push_str(&format!("\n      {f}"));
                        }
                    }
                }
                line
            })
            .collect();
        if bad.is_empty() {
            Ok(())
        } else {
            bail!(
                "a shipped language is not fully translated, or its translation reads wrong (run \
                 `cargo xtask i18n` after an English change, then translate book/po/<lang>.po and \
                 lab-text/po/<lang>.po; the checks are in xtask/src/i18n/, the terms in \
                 book/po/terms.<lang>.tsv):\n  {}",
                bad.join("\n  ")
            )
        }
    }
}

/// Counts every catalog against the current templates (extracted afresh, so an English edit
/// that the catalogs do not have yet counts as missing).
pub fn report(root: &Path) -> Result<Report> {
    let book = read(&template(root)?)?;
    let lab = lab::template(root)?;
    report_with(root, &book, &lab)
}

fn report_with(root: &Path, book: &Catalog, lab: &Catalog) -> Result<Report> {
    let mut out = Vec::new();
    for language in lang::translated() {
        let (terms, labels, lab_catalog) = language_checks(root, language)?;
        let checks = Checks {
            terms: &terms,
            labels: &labels,
        };
        for (name, template, dir) in [
            ("book", book, po_dir(root)),
            ("lab", lab, lab::po_dir(root)),
        ] {
            let path = dir.join(format!("{}.po", language.code));
            let catalog = if path.is_file() {
                Some(read(&path)?)
            } else {
                None
            };
            let mut counts = count(name, language, template, catalog.as_ref(), &checks);
            if name == "lab" {
                counts
                    .findings
                    .extend(terms_of_labels(&terms, lab_catalog.as_ref()));
            }
            out.push(counts);
        }
    }
    out.sort_by_key(|c| (c.catalog, c.code));
    Ok(Report(out))
}

/// A language's terms, the labels its pages print, and its lab catalog (if it has one).
fn language_checks(
    root: &Path,
    language: &Language,
) -> Result<(Vec<terms::Term>, labels::Labels, Option<Catalog>)> {
    let lab_path = lab::po_dir(root).join(format!("{}.po", language.code));
    let lab_catalog = if lab_path.is_file() {
        Some(read(&lab_path)?)
    } else {
        None
    };
    let terms = terms::load(root, language.code)?;
    let labels = labels::Labels::new(lab_catalog.iter().flat_map(|c| {
        c.messages()
            .filter(|m| !m.is_plural())
            .map(|m| (m.msgid(), m.source(), m.msgstr().unwrap_or_default()))
    }));
    Ok((terms, labels, lab_catalog))
}

/// What the reading checks of a language need besides the message: its terms, and the labels
/// its pages print.
pub struct Checks<'a> {
    pub terms: &'a [terms::Term],
    pub labels: &'a labels::Labels,
}

/// Which checks read which language.
fn applies(kind: Kind, code: &str) -> bool {
    match kind {
        Kind::CountWithoutPlural | Kind::PluralForms | Kind::UnitSpace => code == "ru",
        Kind::ThaiFullStop => code == "th",
        Kind::TermSplit | Kind::LabelOtherwise | Kind::SeriesSplit => true,
    }
}

/// The reading checks of one translated message (`texts`: its one text, or its plural forms),
/// each finding led by the message's English.
pub fn reading(
    code: &str,
    msgid: &str,
    plural: bool,
    texts: &[String],
    checks: &Checks,
) -> Vec<(Kind, String)> {
    let mut found: Vec<(Kind, Vec<String>)> = Vec::new();
    if code == "ru" {
        if plural {
            found.push((Kind::PluralForms, russian::agreement(texts)));
        } else {
            found.push((
                Kind::CountWithoutPlural,
                texts
                    .iter()
                    .flat_map(|t| russian::count_before_noun(t))
                    .collect(),
            ));
        }
        found.push((
            Kind::UnitSpace,
            texts.iter().flat_map(|t| russian::unit_spaces(t)).collect(),
        ));
    }
    if code == "th" {
        found.push((
            Kind::ThaiFullStop,
            texts.iter().flat_map(|t| thai::full_stops(t)).collect(),
        ));
    }
    found.push((Kind::TermSplit, terms::splits(checks.terms, msgid, texts)));
    found.push((
        Kind::LabelOtherwise,
        labels::otherwise(checks.labels, msgid, texts),
    ));
    found
        .into_iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(kind, list)| (kind, format!("“{}”: {}", short(msgid), list.join("; "))))
        .collect()
}

/// A term that is a message of the lab (a button's label) must read as that message does.
fn terms_of_labels(terms: &[terms::Term], lab: Option<&Catalog>) -> Vec<(Kind, String)> {
    let Some(lab) = lab else {
        return Vec::new();
    };
    terms
        .iter()
        .filter_map(|t| {
            let m = lab.find_message(None, &t.english, None)?;
            let label = m.msgstr().ok()?;
            (label != t.translation[0].text).then(|| {
                (
                    Kind::TermSplit,
                    format!(
                        "the terms file gives “{}” as «{}», but the lab's message reads «{label}»",
                        t.english, t.translation[0].text
                    ),
                )
            })
        })
        .collect()
}

fn count(
    name: &'static str,
    language: &'static Language,
    template: &Catalog,
    catalog: Option<&Catalog>,
    checks: &Checks,
) -> Counts {
    let mut counts = Counts {
        catalog: name,
        code: language.code,
        translated: 0,
        fuzzy: 0,
        missing: 0,
        directives_changed: Vec::new(),
        numbers_added: Vec::new(),
        findings: Vec::new(),
    };
    // The translated non-plural messages, for the series check.
    let mut series = Vec::new();
    for message in template.messages() {
        let plural = message.msgid_plural().ok().filter(|p| !p.is_empty());
        let found = catalog.and_then(|c| c.find_message(None, message.msgid(), plural));
        match found {
            Some(m) if m.is_fuzzy() => counts.fuzzy += 1,
            Some(m) if m.is_translated() => {
                counts.translated += 1;
                if forms(m)
                    .iter()
                    .any(|t| directives(message.msgid()) != directives(t))
                {
                    counts.directives_changed.push(short(message.msgid()));
                }
                let added: Vec<String> = forms(m)
                    .iter()
                    .flat_map(|t| numbers::added(message.msgid(), t, language.code))
                    .collect();
                if !added.is_empty() {
                    counts.numbers_added.push(format!(
                        "{} ({})",
                        short(message.msgid()),
                        added.join(", ")
                    ));
                }
                let texts = forms(m);
                counts.findings.extend(reading(
                    language.code,
                    message.msgid(),
                    plural.is_some(),
                    &texts,
                    checks,
                ));
                if plural.is_none() {
                    series.push((message.msgid().to_string(), texts[0].clone()));
                }
            }
            _ => counts.missing += 1,
        }
    }
    counts.findings.extend(
        series::splits(&series, language.code)
            .into_iter()
            .map(|s| (Kind::SeriesSplit, s)),
    );
    counts
}

/// A translated message's texts: its plural forms, or its one text.
pub fn forms(m: &dyn MessageView) -> Vec<String> {
    if m.is_plural() {
        m.msgstr_plural().cloned().unwrap_or_default()
    } else {
        vec![m.msgstr().unwrap_or_default().to_string()]
    }
}

/// The `{{#…}}` directives of a text, in order.
pub fn directives(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{#") {
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        out.push(&rest[start..start + len + 2]);
        rest = &rest[start + len + 2..];
    }
    out
}

fn short(text: &str) -> String {
    let text = text.trim().replace('\n', " ");
    let mut s: String = text.chars().take(70).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lab's Russian catalog as committed: every plural message, rendered with 1, 2, 5, 11,
    /// 21 and 22, puts the words after the count in the forms Russian gives them, and no other
    /// message puts a count straight before a counted noun.
    #[test]
    fn every_russian_count_agrees_with_its_number() {
        let path = lab::po_dir(&crate::root()).join("ru.po");
        let catalog = read(&path).unwrap();
        let (mut plural, mut problems) = (0, Vec::new());
        for m in catalog.messages() {
            let found = if m.is_plural() {
                plural += 1;
                russian::agreement(&forms(m))
            } else {
                russian::count_before_noun(m.msgstr().unwrap_or_default())
            };
            problems.extend(found.into_iter().map(|p| format!("{:?}: {p}", m.msgid())));
        }
        assert!(
            plural >= 17,
            "only {plural} plural messages: is this the lab's catalog?"
        );
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// The committed catalogs, each read as its own template: every reading check of the
    /// report (counts, units, full stops, terms, quoted labels, series) finds nothing, as the
    /// lint requires.
    #[test]
    fn the_committed_catalogs_read_right() {
        let root = crate::root();
        let mut found = Vec::new();
        for language in lang::translated() {
            let (terms, labels, lab_catalog) = language_checks(&root, language).unwrap();
            let checks = Checks {
                terms: &terms,
                labels: &labels,
            };
            for (name, dir) in [("book", po_dir(&root)), ("lab", lab::po_dir(&root))] {
                let catalog = read(&dir.join(format!("{}.po", language.code))).unwrap();
                let counts = count(name, language, &catalog, Some(&catalog), &checks);
                assert!(counts.translated > 1000, "{name} {}", language.code);
                found.extend(
                    counts
                        .findings
                        .into_iter()
                        .map(|(kind, f)| format!("{name} {}, {}: {f}", language.code, kind.name())),
                );
            }
            found.extend(
                terms_of_labels(&terms, lab_catalog.as_ref())
                    .into_iter()
                    .map(|(_, f)| format!("lab {}: {f}", language.code)),
            );
        }
        assert!(found.is_empty(), "{}", found.join("\n"));
    }

    #[test]
    fn directives_are_found_in_order() {
        let text = "A {{#fig a.b}} and {{#claim x < 1}} but not {{ plain }}.";
        assert_eq!(directives(text), ["{{#fig a.b}}", "{{#claim x < 1}}"]);
        assert!(directives("no directive").is_empty());
        assert_eq!(directives("{{#open"), Vec::<&str>::new());
    }
}
