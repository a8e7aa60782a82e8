//! One word per term (issue 38): a terms file per language, `book/po/terms.<lang>.tsv`, gives for
//! each English term the one translation both catalogs use, the other renderings a message may
//! not use, and the usage that chose it (the source articles', the catalogs', a review's). The
//! translation report lists every message that uses another rendering of a listed term, and the
//! lint fails on it.
//!
//! A line is five tab-separated columns (`#` starts a comment):
//!
//! 1. the English term, matched in a message's English at the start of a word (`peer` matches
//!    `peers`; `-` matches a space);
//! 2. the translation: one or more patterns separated by `; `, the first as the report shows it;
//! 3. the other renderings, patterns separated by `; `: a message whose English says the term
//!    may not use them;
//! 4. `only` when the translation renders this term and nothing else (a message that uses it
//!    must say the term in English), else `-`;
//! 5. why: the articles' and the catalogs' usage that chose the translation.
//!
//! A pattern is matched case-insensitively at the start of a word: `бок о бок` a whole phrase,
//! `соперник*` any word starting so, `раздел[,а,у,ом]` the stem with one of the endings, a whole
//! word. Thai writes no spaces between words, so a Thai pattern matches anywhere in the text.
//!
//! A term that is itself a message of the lab (a button's label, `Show answer`) must have that
//! message's translation as its own, so feedback names a button the way the button reads.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// One line of a terms file.
#[derive(Debug, Clone)]
pub struct Term {
    pub english: String,
    pub translation: Vec<Pattern>,
    pub others: Vec<Pattern>,
    pub only: bool,
}

/// A rendering as the terms file writes it (see the module's documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    pub text: String,
    /// The fixed part, lowercase.
    fixed: String,
    ending: Ending,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Ending {
    /// A whole word (or phrase).
    Word,
    /// Any continuation of the word (`*`).
    Any,
    /// One of these endings, then the end of the word.
    OneOf(Vec<String>),
    /// Anywhere in the text (Thai).
    Substring,
}

impl Pattern {
    pub fn parse(text: &str) -> Result<Pattern> {
        let text = text.trim();
        if text.is_empty() {
            bail!("an empty pattern");
        }
        let lower = text.to_lowercase();
        let (fixed, ending) = if lower.chars().any(super::thai::is_thai) {
            (lower, Ending::Substring)
        } else if let Some(stem) = lower.strip_suffix('*') {
            (stem.to_string(), Ending::Any)
        } else if let Some((stem, ends)) = lower.strip_suffix(']').and_then(|p| p.split_once('[')) {
            let ends = ends.split(',').map(|e| e.trim().to_string()).collect();
            (stem.to_string(), Ending::OneOf(ends))
        } else {
            (lower, Ending::Word)
        };
        Ok(Pattern {
            text: text.to_string(),
            fixed,
            ending,
        })
    }

    /// The places `self` matches in `text`: each match as written.
    pub fn find<'a>(&self, text: &'a str) -> Vec<&'a str> {
        let lower = text.to_lowercase();
        // Lowercasing keeps the lengths of the scripts used here; if it did not, match nothing
        // rather than slice at a wrong place.
        if lower.len() != text.len() {
            return Vec::new();
        }
        let letter = |c: char| c.is_alphanumeric() || c == '_';
        let mut out = Vec::new();
        for (at, _) in lower.match_indices(&self.fixed) {
            if self.ending != Ending::Substring
                && lower[..at].chars().next_back().is_some_and(letter)
            {
                continue;
            }
            let rest = &lower[at + self.fixed.len()..];
            let word_end = rest.find(|c: char| !letter(c)).unwrap_or(rest.len());
            let len = match &self.ending {
                Ending::Substring => Some(0),
                Ending::Any => Some(word_end),
                Ending::Word => (word_end == 0).then_some(0),
                Ending::OneOf(ends) => ends
                    .iter()
                    .find(|e| rest[..word_end] == **e)
                    .map(String::len),
            };
            if let Some(len) = len {
                out.push(&text[at..at + self.fixed.len() + len]);
            }
        }
        out
    }
}

/// Whether `english` (a message's English) says `term`: at the start of a word, any ending,
/// case-insensitively, a hyphen read as a space.
pub fn says(english: &str, term: &str) -> bool {
    let english = english.to_lowercase().replace('-', " ");
    let term = term.to_lowercase().replace('-', " ");
    english.match_indices(&term).any(|(at, _)| {
        !english[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    })
}

/// The terms file of language `code`.
pub fn path(root: &Path, code: &str) -> PathBuf {
    super::po_dir(root).join(format!("terms.{code}.tsv"))
}

/// The terms of language `code` (none when it has no terms file).
pub fn load(root: &Path, code: &str) -> Result<Vec<Term>> {
    let path = path(root, code);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}", path.display()))?;
    parse(&text).with_context(|| format!("{}", path.display()))
}

/// A terms file's lines.
pub fn parse(text: &str) -> Result<Vec<Term>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [english, translation, others, only, why] = cols[..] else {
            bail!(
                "line {}: {} columns, a term has 5 (english, translation, others, only, why)",
                n + 1,
                cols.len()
            );
        };
        let patterns = |s: &str| -> Result<Vec<Pattern>> {
            s.split("; ")
                .filter(|p| !p.trim().is_empty() && p.trim() != "-")
                .map(Pattern::parse)
                .collect()
        };
        let translation = patterns(translation)?;
        if translation.is_empty() {
            bail!("line {}: the term {english:?} has no translation", n + 1);
        }
        if why.trim().is_empty() {
            bail!("line {}: the term {english:?} does not say why", n + 1);
        }
        out.push(Term {
            english: english.trim().to_string(),
            translation,
            others: patterns(others)?,
            only: match only.trim() {
                "only" => true,
                "-" | "" => false,
                other => bail!(
                    "line {}: the 4th column is `only` or `-`, not {other:?}",
                    n + 1
                ),
            },
        });
    }
    Ok(out)
}

/// The ways a message (its English and its translation's texts) renders a listed term otherwise:
/// another rendering where the English says the term, or a term's `only` translation where the
/// English does not say it.
pub fn splits(terms: &[Term], msgid: &str, texts: &[String]) -> Vec<String> {
    let english = super::numbers::prose_keeping_placeholders(msgid);
    // A rendering that is the translation of another term the English says renders that term
    // («раздел» in a message that says both section and partition).
    let said: Vec<&Term> = terms
        .iter()
        .filter(|t| says(&english, &t.english))
        .collect();
    let renders_said = |text: &str, found: &str, this: &Term| {
        said.iter().any(|t| {
            !std::ptr::eq(*t, this) && t.translation.iter().any(|p| p.find(text).contains(&found))
        })
    };
    let mut out = Vec::new();
    for term in terms {
        let says = says(&english, &term.english);
        for text in texts {
            let text = super::numbers::prose_keeping_placeholders(text);
            if says {
                for other in &term.others {
                    for found in other.find(&text) {
                        if renders_said(&text, found, term) {
                            continue;
                        }
                        out.push(format!(
                            "«{found}» for “{}” (the terms file: «{}»)",
                            term.english, term.translation[0].text
                        ));
                    }
                }
            } else if term.only {
                for t in &term.translation {
                    for found in t.find(&text) {
                        out.push(format!(
                            "«{found}», the rendering of “{}”, where the English does not say it",
                            term.english
                        ));
                    }
                }
            }
        }
    }
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# comment\n\
        peer\tаналог\tсоперник*\t-\tthe book's word\n\
        partition\tраздел[,а,у,ом,е,ы,ов,ам,ами,ах]\tпартици*\tonly\tthe catalogs' word\n\
        side by side\tв парных раундах\tбок о бок\t-\tthe glossary's paired rounds\n\
        claim\tclaim\tข้ออ้าง\t-\tkept in English\n";

    #[test]
    fn patterns_match_words_stems_and_endings() {
        let p = Pattern::parse("соперник*").unwrap();
        assert_eq!(
            p.find("Соперника и соперники, не Несоперник"),
            ["Соперника", "соперники"]
        );
        let p = Pattern::parse("раздел[,а,ов]").unwrap();
        assert_eq!(
            p.find("раздел, 2 раздела, разделять, разделов"),
            ["раздел", "раздела", "разделов"]
        );
        let p = Pattern::parse("бок о бок").unwrap();
        assert_eq!(p.find("замерены бок о бок."), ["бок о бок"]);
        assert!(p.find("бок о боком").is_empty());
        let p = Pattern::parse("ข้ออ้าง").unwrap();
        assert_eq!(p.find("ทุกข้ออ้างทุกเครื่อง"), ["ข้ออ้าง"]);
    }

    #[test]
    fn the_english_is_matched_at_word_starts() {
        assert!(says("against its peers", "peer"));
        assert!(says("the side-by-side ratios", "side by side"));
        assert!(!says("a contest", "test"));
        assert!(says("Show answer", "show answer"));
    }

    #[test]
    fn other_renderings_are_found() {
        let terms = parse(FILE).unwrap();
        assert_eq!(terms.len(), 4);
        let t = |s: &str| vec![s.to_string()];
        assert_eq!(
            splits(&terms, "pool ÷ peer", &t("пул ÷ соперник")),
            ["«соперник» for “peer” (the terms file: «аналог»)"]
        );
        assert!(splits(&terms, "pool ÷ peer", &t("пул ÷ аналог")).is_empty());
        // `only`: the partition's word for a section.
        assert_eq!(
            splits(&terms, "in the next section", &t("в следующем разделе")),
            ["«разделе», the rendering of “partition”, where the English does not say it"]
        );
        assert!(splits(&terms, "2 partitions", &t("2 раздела")).is_empty());
        // A message that says both: «раздел» renders the partition it also says.
        let both = format!("{FILE}section\tсекция\tраздел[,а,е]\t-\tthe widget's word\n");
        let terms = parse(&both).unwrap();
        assert!(
            splits(
                &terms,
                "the last section (one partition)",
                &t("последняя секция (один раздел)")
            )
            .is_empty()
        );
        assert_eq!(
            splits(&terms, "the last section", &t("последний раздел")).len(),
            2
        );
        assert!(splits(&terms, "timed side by side", &t("в парных раундах")).is_empty());
        assert_eq!(splits(&terms, "every claim", &t("ทุกข้ออ้าง")).len(), 1);
        assert!(parse("a\tb\tc\n").is_err());
        assert!(parse("a\tb\tc\tmaybe\twhy\n").is_err());
    }
}
