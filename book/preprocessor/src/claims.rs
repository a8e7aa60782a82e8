//! The book's claims as a whole: where each one is (chapter, line, sentence), the table a build
//! ends with, and what a strict build refuses.
//!
//! A claim is a `{{#claim …}}`, or a `{{#verdict KEY expect=…}}` (a verdict that states which way
//! the sentence around it goes). The check itself is `bench_data::claim`'s, shared with the
//! end-to-end tests.

use bench_data::RunFile;
use bench_data::claim::{Check, Claim, Direction, Mark};

use crate::directive;

/// One claim of the book and the sentence that relies on it.
#[derive(Clone, Debug)]
pub struct Site {
    /// The chapter's source file, e.g. `size-specialized.md`.
    pub chapter: String,
    pub line: usize,
    /// The sentence around the directive, without directives, shortened.
    pub sentence: String,
    pub claim: Claim,
}

impl Site {
    /// The claim's check with `file` as the primary file, on every machine of `files` the claim
    /// speaks for (`bench_data::claim::Claim::check_machines`): on each machine's file of the
    /// primary's runtime, or of the claim's runtime (`on=`).
    pub fn check(&self, file: &RunFile, files: &[RunFile]) -> Check {
        self.claim
            .check_machines(file, files)
            .unwrap_or_else(|e| Check {
                mark: Mark::Contradicted,
                shows: e,
            })
    }

    /// The claim on `file`'s machine alone (or its `on=` runtime's file): one column of the
    /// instructors' report, one column of `mdbook-lab marks`. A claim naming another machine
    /// (`machine=ID`) is not this machine's to decide: [`Mark::Missing`].
    pub fn check_on(&self, file: &RunFile, files: &[RunFile]) -> Check {
        if let bench_data::claim::Scope::Machine(id) = &self.claim.scope
            && *id != file.machine.id
        {
            return Check {
                mark: Mark::Missing,
                shows: lab_text::tf!("the sentence speaks for {} only", id),
            };
        }
        self.claim
            .check_among(file, files)
            .unwrap_or_else(|e| Check {
                mark: Mark::Contradicted,
                shows: e,
            })
    }

    /// `size-specialized.md:61`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.chapter, self.line)
    }
}

/// The claims of one chapter. Malformed ones are skipped here: rendering reports them.
pub fn collect(chapter: &str, content: &str) -> Vec<Site> {
    let mut out = Vec::new();
    for d in directive::find(content) {
        let claim = match (d.name, d.args.as_slice()) {
            ("claim", words) => Claim::parse(words).ok(),
            ("verdict", [key, options @ ..]) => options
                .iter()
                .find_map(|o| o.strip_prefix("expect="))
                .and_then(|w| Direction::parse(w).ok())
                .map(|dir| {
                    dir.claim(key)
                        .on(options.iter().find_map(|o| o.strip_prefix("on=")))
                }),
            _ => None,
        };
        if let Some(claim) = claim {
            out.push(Site {
                chapter: chapter.to_string(),
                line: content[..d.start].matches('\n').count() + 1,
                sentence: sentence_at(content, d.start),
                claim,
            });
        }
    }
    out
}

/// The sentence of `content` around byte `at`: its paragraph (or list item) cut at sentence ends
/// (`. `, `? `, `! `), with directives removed and at most 100 characters.
pub fn sentence_at(content: &str, at: usize) -> String {
    let para_start = ["\n\n", "\n- ", "\n#"]
        .iter()
        .filter_map(|sep| content[..at].rfind(sep).map(|i| i + sep.len()))
        .max()
        .unwrap_or(0);
    let para_end = ["\n\n", "\n- ", "\n#"]
        .iter()
        .filter_map(|sep| content[at..].find(sep).map(|i| at + i))
        .min()
        .unwrap_or(content.len());
    // Sentence ends are searched in the text with directives blanked out (keeping byte offsets),
    // so the dots inside `{{#claim a.b < 1.1}}` do not cut sentences.
    let mut blank = content[para_start..para_end].to_string();
    for d in directive::find(&content[para_start..para_end]).iter().rev() {
        blank.replace_range(d.start..d.end, &" ".repeat(d.end - d.start));
    }
    let rel = at - para_start;
    let ends: Vec<usize> = blank
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, '.' | '?' | '!')
                && blank[i + 1..]
                    .chars()
                    .next()
                    .is_none_or(|n| n.is_whitespace())
        })
        .map(|(i, _)| i + 1)
        .collect();
    let start = ends.iter().rev().find(|&&e| e <= rel).copied().unwrap_or(0);
    let end = ends
        .iter()
        .find(|&&e| e > rel)
        .copied()
        .unwrap_or(blank.len());
    // The sentence as a reader sees its words: claims vanish, cited values become "…".
    let raw = &content[para_start + start..para_start + end];
    let mut shown = String::new();
    let mut last = 0;
    for d in directive::find(raw) {
        shown.push_str(&raw[last..d.start]);
        if d.name != "claim" {
            shown.push('…');
        }
        last = d.end;
    }
    shown.push_str(&raw[last..]);
    let text = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    // A removed claim leaves a space before the punctuation after it (but ".NET" keeps its own).
    let mut text = text
        .replace(" . ", ". ")
        .replace(" , ", ", ")
        .replace(" ; ", "; ");
    if text.ends_with(" .") {
        text.replace_range(text.len() - 2.., ".");
    }
    let text = text.trim_start_matches("- ").replace("**", "");
    shorten(&text, 100)
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max - 1).collect();
        format!("{}…", cut.trim_end())
    }
}

/// The table a build ends with: every claim, its chapter and sentence, what `file` (the primary;
/// `files`, the book's columns, for claims on another runtime) shows.
pub fn table(sites: &[Site], file: &RunFile, files: &[RunFile]) -> String {
    let mut rows = vec![[
        "".to_string(),
        "chapter".to_string(),
        "sentence".to_string(),
        "what the data shows".to_string(),
    ]];
    for site in sites {
        let check = site.check(file, files);
        rows.push([
            check.mark.symbol().to_string(),
            site.place(),
            shorten(&site.sentence, 60),
            format!("{}: {}", site.claim, check.shows),
        ]);
    }
    let width = |col: usize| {
        rows.iter()
            .map(|r| r[col].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w1, w2) = (width(1), width(2));
    let mut out = format!(
        "claims of the book on {} (✓ holds, ⚠ contradicted, ? too noisy or not measured)\n",
        machine_ids(file, files)
    );
    for r in &rows {
        out.push_str(&format!(
            "  {:<1}  {:<w1$}  {:<w2$}  {}\n",
            r[0], r[1], r[2], r[3]
        ));
    }
    let count = |m: Mark| {
        sites
            .iter()
            .filter(|s| s.check(file, files).mark == m)
            .count()
    };
    out.push_str(&format!(
        "  {} claims: {} ✓, {} ⚠, {} ? (noisy), {} ? (not measured)\n",
        sites.len(),
        count(Mark::Holds),
        count(Mark::Contradicted),
        count(Mark::Open),
        count(Mark::Missing)
    ));
    out
}

/// The machines the claims are checked on, primary first: `amd-zen3-2c, amd-zen5-2c`.
pub fn machine_ids(file: &RunFile, files: &[RunFile]) -> String {
    bench_data::claim::machines(file, files)
        .iter()
        .map(|f| f.machine.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a strict build refuses: each claim contradicted on a machine it speaks for, naming
/// chapter, line and sentence.
pub fn contradicted(sites: &[Site], file: &RunFile, files: &[RunFile]) -> Vec<String> {
    sites
        .iter()
        .filter_map(|site| {
            let check = site.check(file, files);
            (check.mark == Mark::Contradicted).then(|| {
                format!(
                    "{}: “{}” relies on `{}`, but {} shows {}",
                    site.place(),
                    site.sentence,
                    site.claim,
                    machine_ids(file, files),
                    check.shows
                )
            })
        })
        .collect()
}

/// One repetition of a run as a file of its own: every figure as that repetition measured it,
/// its verdict re-decided by the noise gate (and the instruction check) on that repetition's
/// noise. A run of one repetition gives itself.
pub fn repetition(file: &RunFile, i: usize) -> RunFile {
    let load = file.run.load_before[0].max(file.run.load_after[0])
        / f64::from(file.machine.logical_cores.max(1));
    let mut out = file.clone();
    for f in out.figures.values_mut() {
        let reps = f.repetitions();
        let mut r = reps.get(i).unwrap_or(&reps[0]).clone();
        if !f.repeats.is_empty() {
            let (mut verdict, note) = bench_data::gate(r.unit, r.cv, load);
            if r.over_bound(file.run.clock.as_ref()) {
                verdict = verdict.min(bench_data::Verdict::RatioOnly);
            }
            (r.verdict, r.gate_note) = (verdict, note);
        }
        *f = r;
    }
    out.run.repetitions = 1;
    out
}

/// `mdbook-lab marks SRC FILE…`: every claim of the chapters in `SRC` with its mark on each data
/// file and on each repetition of it, then the claims whose mark is not the same everywhere.
pub fn marks(src: &std::path::Path, files: &[RunFile]) -> String {
    let mut chapters: Vec<_> = std::fs::read_dir(src)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_else(|_| Vec::new());
    chapters.retain(|p| p.extension().is_some_and(|x| x == "md"));
    chapters.sort();
    let mut sites = Vec::new();
    for p in &chapters {
        let name = p
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        sites.extend(collect(
            &name,
            &std::fs::read_to_string(p).unwrap_or_default(),
        ));
    }
    let mut columns: Vec<(String, RunFile)> = Vec::new();
    for f in files {
        columns.push((f.label(), f.clone()));
        for i in 0..f.run.repetitions.max(1) as usize {
            if f.run.repetitions > 1 {
                columns.push((format!("{} rep {}", f.label(), i + 1), repetition(f, i)));
            }
        }
    }
    let mut out = format!(
        "claim\t{}\n",
        columns
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join("\t")
    );
    let mut changed = String::from("\nclaims whose mark changed across runtimes or repetitions:\n");
    for site in &sites {
        let marks: Vec<Mark> = columns
            .iter()
            .map(|(_, f)| site.check_on(f, files).mark)
            .collect();
        let line = format!(
            "{} {}\t{}\n",
            site.place(),
            site.claim,
            marks
                .iter()
                .map(|m| m.symbol())
                .collect::<Vec<_>>()
                .join("\t")
        );
        out.push_str(&line);
        // Missing (a runtime that does not run the suite) is not a change of mark.
        let present: Vec<&Mark> = marks.iter().filter(|m| **m != Mark::Missing).collect();
        if present.windows(2).any(|w| w[0] != w[1]) {
            changed.push_str(&line);
        }
    }
    out + &changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_are_cut_at_their_ends_not_inside_directives() {
        let text = "# T\n\nFirst one. The pool took {{#fig a.b}}, faster than .NET {{#claim a.b < 1.1}}, here.\nStill. Next\n\n- item one {{#claim c.d citable}}.\n";
        let at = text.find("{{#claim a.b").unwrap();
        assert_eq!(
            sentence_at(text, at),
            "The pool took …, faster than .NET, here."
        );
        let at = text.find("{{#claim c.d").unwrap();
        assert_eq!(sentence_at(text, at), "item one.");
        let sites = collect("x.md", text);
        assert_eq!(sites.len(), 2);
        assert_eq!((sites[0].line, sites[1].line), (3, 6));
    }

    #[test]
    fn verdicts_with_an_expectation_are_claims() {
        let sites = collect(
            "x.md",
            "A {{#verdict a.b expect=less}} B {{#verdict a.c}} {{#verdict a.d expect=sideways}}",
        );
        assert_eq!(sites.len(), 1);
        assert_eq!(sites[0].claim.to_string(), "a.b less");
    }
}
