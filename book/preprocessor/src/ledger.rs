//! The story and the ledger (issue 36): a story chapter reads like a story, its evidence is one
//! click away.
//!
//! In the eight story chapters ([`STORY`]) a figure renders as a plain number in the reader's
//! units, a link to its row in the ledger (`{{#ledger}}`, on the instructors' page), which holds
//! what the chapter no longer shows: each figure on every machine file with its interval,
//! repetitions, gate decision, runtime and machine. A figure's first citation in a chapter carries
//! an id ([`back_id`]) that the row's back link returns to. The chapter names where its numbers
//! come from once, in a line at its end ([`footer`]), instead of a banner. Method and the other
//! pages keep the popovers: there the statistics are the subject.
//!
//! A sentence that cannot cite its number is written in forms the data chooses between
//! ([`choose_forms`]): `{{#when KEY…}}` the form with the numbers `{{#or-when KEY…}}` a form with
//! fewer (the ratio only) `{{#otherwise}}` a form that needs none `{{#end-when}}`. The first form
//! whose keys the noise gate lets the book print (on the primary machine, or on its file of the
//! runtime an `on=RUNTIME` among the keys names) is kept; the gate's
//! reason goes to the ledger, never into the sentence.

use std::collections::BTreeMap;

use bench_data::{Figure, RunFile};
use lab_text::html::escape;

use crate::data::Data;
use crate::directive;

/// The story chapters (their file stems), in reading order: the pages whose figures are links
/// into the ledger instead of popovers.
pub const STORY: [&str; 8] = [
    "why-pool",
    "bucket-rounding",
    "stale-data",
    "return-contract",
    "capacity",
    "cliff",
    "chunking",
    "size-specialized",
];

/// The page that holds the ledger (`{{#ledger}}`), relative to a chapter.
pub const PAGE: &str = "instructors.html";

/// The file stem of a chapter's source path (`why-pool.md` → `why-pool`).
pub fn stem(source: &str) -> &str {
    let name = source.rsplit('/').next().unwrap_or(source);
    name.strip_suffix(".md").unwrap_or(name)
}

/// Whether the chapter (its source path) is one of the story chapters.
pub fn is_story(source: &str) -> bool {
    STORY.contains(&stem(source))
}

/// One figure a chapter cites (in prose, a table or a verdict), gathered before rendering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cite {
    /// The chapter's file stem (`why-pool`).
    pub chapter: String,
    /// The chapter's title, in the page's language (its first heading).
    pub title: String,
    pub key: String,
    /// Whether the chapter prints it: a figure only a form the data did not choose cites (its
    /// `{{#when}}` keys) still has its row, with no way back.
    pub shown: bool,
}

/// The figures a story chapter cites, in order and each once, in all its sentence forms (`shown`
/// says whether the form the data chooses prints it); other chapters cite none here.
pub fn collect_chosen(source: &str, content: &str, data: &Data) -> Vec<Cite> {
    let chosen = choose_forms(content, data).unwrap_or_else(|_| content.to_string());
    let shown: Vec<String> = collect(source, &chosen)
        .into_iter()
        .map(|c| c.key)
        .collect();
    let mut all = collect(source, content);
    for cite in &mut all {
        cite.shown = shown.contains(&cite.key);
    }
    all
}

/// The figures of `content`, each once and marked shown (see [`collect_chosen`]).
pub fn collect(source: &str, content: &str) -> Vec<Cite> {
    if !is_story(source) {
        return Vec::new();
    }
    let chapter = stem(source).to_string();
    let title = content
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or(&chapter)
        .trim()
        .to_string();
    let mut out: Vec<Cite> = Vec::new();
    for d in directive::find(content) {
        let keys: Vec<&str> = match (d.name, d.args.as_slice()) {
            ("fig" | "verdict", [key, ..]) => vec![key],
            ("fig-table", keys) => keys.to_vec(),
            _ => continue,
        };
        for key in keys {
            if !out.iter().any(|c| c.key == key) {
                out.push(Cite {
                    chapter: chapter.clone(),
                    title: title.clone(),
                    key: key.to_string(),
                    shown: true,
                });
            }
        }
    }
    out
}

/// The id of a figure's row in the ledger: the chapter and the key (`why-pool:why_pool.1.pool.bytes`;
/// a key has no colon), so a link names its figure and the tests read the key back from it.
pub fn row_id(chapter: &str, key: &str) -> String {
    format!("{chapter}:{key}")
}

/// The id a chapter's first citation of `key` carries, for the ledger's back link.
pub fn back_id(key: &str) -> String {
    format!("r-{key}")
}

/// The link from the chapter being rendered to `key`'s row, and the back id when this is the
/// chapter's first citation of it.
pub fn link(data: &Data, key: &str) -> (String, Option<String>) {
    let chapter = data.chapter();
    let chapter = stem(&chapter);
    let href = format!("{PAGE}#{}", row_id(chapter, key));
    let id = data.first_citation(key).then(|| back_id(key));
    (href, id)
}

/// A figure of a story chapter: its value as a link to its ledger row. `shown` is already
/// HTML (escaped). The link is kept short (a chapter cites up to a hundred figures): the key is
/// in the href, the column in `data-machine` only when it is not the primary's.
pub fn figure_link(data: &Data, key: &str, file: &RunFile, f: &Figure, shown: &str) -> String {
    let (href, id) = link(data, key);
    let id = id
        .map(|id| format!(" id=\"{}\"", escape(&id)))
        .unwrap_or_default();
    let machine = match data.primary() {
        Ok(p) if p.stem() == file.stem() => String::new(),
        _ => format!(" data-machine=\"{}\"", escape(&file.stem())),
    };
    format!(
        "<a class=\"lab-fig{}\" href=\"{}\"{id}{machine}>{shown}</a>",
        if crate::render::citable(f) {
            ""
        } else {
            " lab-unfit"
        },
        escape(&href),
    )
}

/// The short name of a column of the book's data in a story chapter: the allocator when the
/// machine is the primary's, else the machine and the runtime (`amd-zen5-2c · mimalloc`).
pub fn column_name(file: &RunFile, primary: &RunFile) -> String {
    if file.machine.id != primary.machine.id {
        return file.label();
    }
    match file.run.runtime.as_str() {
        bench_data::SYSTEM_RUNTIME => lab_text::t!("the C library's malloc").into_owned(),
        "wasm32" => lab_text::t!("WebAssembly in the browser").into_owned(),
        other => other.to_string(),
    }
}

/// Names joined as a reader reads a list ("mimalloc and jemalloc", "a, b and c").
pub fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => lab_text::tf!("{} and {}", init.join(", "), last),
    }
}

/// The line a story chapter ends with: where its numbers come from, and the way to the ledger.
pub fn footer(data: &Data) -> String {
    let Ok(file) = data.primary() else {
        return String::new();
    };
    let chapter = data.chapter();
    let chapter = stem(&chapter);
    format!(
        "\n\n<p class=\"lab-prov lab-provenance\" data-machine=\"{}\">{}</p>\n",
        escape(&file.stem()),
        lab_text::tf!(
            "The Rust numbers on this page were measured on {} ({} logical cores, {}); each one links to its row in <a href=\"{}\">the ledger</a>, with its spread and how it was measured.",
            escape(&file.machine.cpu_model),
            file.machine.logical_cores,
            escape(&column_name(file, file)),
            escape(&format!("{PAGE}#ledger-{chapter}"))
        )
    )
}

/// Resolves `{{#when KEY…}} … {{#or-when KEY…}} … {{#otherwise}} … {{#end-when}}`: the first
/// form whose keys are all citable on the primary machine is kept, the others dropped (the last
/// form, after `otherwise`, needs no key). An unknown key or an unclosed block is an error.
pub fn choose_forms(content: &str, data: &Data) -> Result<String, String> {
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(start) = find_directive(rest, "when") {
        out.push_str(&rest[..start.0]);
        let mut forms: Vec<(Option<Vec<String>>, &str)> = Vec::new();
        let mut keys = Some(start.2);
        let mut at = start.1;
        loop {
            let next = ["or-when", "otherwise", "end-when"]
                .iter()
                .filter_map(|name| find_directive(&rest[at..], name).map(|d| (*name, d)))
                .min_by_key(|(_, d)| d.0)
                .ok_or("`{{#when}}` without its `{{#end-when}}`")?;
            let (name, (from, to, args)) = next;
            if find_directive(&rest[at..at + from], "when").is_some() {
                return Err("`{{#when}}` inside another `{{#when}}`".into());
            }
            forms.push((keys.take(), &rest[at..at + from]));
            at += to;
            match name {
                "or-when" => keys = Some(args),
                "otherwise" => keys = None,
                _ => break,
            }
        }
        let mut chosen = None;
        for (keys, text) in &forms {
            let fits = match keys {
                Some(keys) => {
                    // `on=RUNTIME` reads the keys from that runtime's file of the primary's
                    // machine; a machine without one cannot print them.
                    let on = keys.iter().find_map(|k| k.strip_prefix("on="));
                    let mut all = true;
                    for key in keys.iter().filter(|k| !k.starts_with("on=")) {
                        all &= match data.figure_on(on, key) {
                            Ok((_, f)) => crate::render::citable(f),
                            Err(_) if on.is_some() => false,
                            Err(e) => return Err(e),
                        };
                    }
                    all
                }
                None => true,
            };
            if fits {
                chosen = Some(*text);
                break;
            }
        }
        let chosen = chosen.unwrap_or("");
        if chosen.trim().is_empty() && crate::render::starts_with_punctuation(&rest[at..]) {
            out.truncate(out.trim_end().len());
        }
        out.push_str(chosen);
        rest = &rest[at..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The first `{{#name args}}` in `text`: its start, its end and its arguments.
fn find_directive(text: &str, name: &str) -> Option<(usize, usize, Vec<String>)> {
    directive::find(text)
        .into_iter()
        .find(|d| d.name == name)
        .map(|d| {
            (
                d.start,
                d.end,
                d.args.iter().map(|a| a.to_string()).collect(),
            )
        })
}

/// `{{#ledger}}`: every figure the story chapters cite, a table per chapter, a row per figure
/// with every column of the book's data (value, interval, repetitions, gate, runtime, machine)
/// and a link back to the figure in its chapter.
pub fn ledger(data: &Data) -> Result<String, String> {
    let primary = data.primary()?;
    let mut chapters: BTreeMap<usize, (String, Vec<Cite>)> = BTreeMap::new();
    for cite in data.cites() {
        let order = STORY
            .iter()
            .position(|s| *s == cite.chapter)
            .unwrap_or(STORY.len());
        chapters
            .entry(order)
            .or_insert_with(|| (cite.title.clone(), Vec::new()))
            .1
            .push(cite);
    }
    let mut html = String::from("\n\n");
    for (title, cites) in chapters.values() {
        let chapter = &cites[0].chapter;
        html.push_str(&format!(
            "<table class=\"lab-ledger\" id=\"ledger-{c}\"><caption><a href=\"{c}.html\">{}</a></caption>\
             <thead><tr><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead><tbody>",
            escape(title),
            escape(&lab_text::t!("figure")),
            escape(&lab_text::tf!("on {}", primary.label())),
            escape(&lab_text::t!("how it was measured, and the other columns")),
            c = escape(chapter),
        ));
        for cite in cites {
            html.push_str(&row(cite, primary, data));
        }
        html.push_str("</tbody></table>\n\n");
    }
    Ok(html)
}

fn row(cite: &Cite, primary: &RunFile, data: &Data) -> String {
    let files: Vec<&RunFile> = data
        .files()
        .iter()
        .filter(|f| f.figures.contains_key(&cite.key))
        .collect();
    let title = files
        .first()
        .and_then(|f| f.figures.get(&cite.key))
        .map(|f| lab_text::tr::get_dynamic(&f.title))
        .unwrap_or_default();
    let value = |f: &Figure| {
        if crate::render::citable(f) {
            lab_text::tr::localize_figure(&bench_data::format_value(f.unit, f.value))
        } else {
            lab_text::t!("not citable").into_owned()
        }
    };
    let shown = primary
        .figures
        .get(&cite.key)
        .map(|f| escape(&value(f)))
        .unwrap_or_else(|| escape(&lab_text::t!("not measured")));
    // The primary's statistics in full (they include the range across the columns), then each
    // other column's value and what the gate said of it.
    let mut how = String::new();
    for file in &files {
        let f = &file.figures[&cite.key];
        if file.stem() == primary.stem() {
            let details = crate::render::details(&cite.key, f, file, data);
            how.insert_str(0, &format!("<p>{details}</p>"));
        } else {
            let note = lab_text::tr::localize_figure(&bench_data::note_words(&f.gate_note));
            how.push_str(&format!(
                "<p><strong>{}: {}</strong> ({})</p>",
                escape(&file.label()),
                escape(&value(f)),
                escape(&note)
            ));
        }
    }
    // A figure the chapter's chosen sentence does not print has no place to go back to.
    let back = if cite.shown {
        format!(
            "<a class=\"lab-back\" href=\"{}.html#{}\" aria-label=\"{}\">↩</a>",
            escape(&cite.chapter),
            escape(&back_id(&cite.key)),
            escape(&lab_text::tf!("back to {}", cite.title)),
        )
    } else {
        String::new()
    };
    format!(
        "<tr id=\"{}\"><td>{}<br><code>{}</code></td><td>{shown}</td><td>{how}</td>\
         <td>{back}</td></tr>",
        escape(&row_id(&cite.chapter, &cite.key)),
        escape(&title),
        escape(&cite.key),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn story_chapters_are_known_by_their_stem() {
        assert!(is_story("why-pool.md"));
        assert!(is_story("src/chunking.md"));
        assert!(!is_story("method.md"));
        assert_eq!(stem("a/b/cliff.md"), "cliff");
    }

    #[test]
    fn collect_lists_each_key_once_with_the_title() {
        let text =
            "# Why pool\n{{#fig a.b}} {{#fig-table a.b c.d}} {{#verdict e.f}} {{#claim a.b < 1}}";
        let cites = collect("why-pool.md", text);
        let keys: Vec<&str> = cites.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["a.b", "c.d", "e.f"]);
        assert_eq!(cites[0].title, "Why pool");
        assert!(collect("method.md", text).is_empty());
    }

    #[test]
    fn and_list_reads_as_a_list() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(and_list(&names(&["a"])), "a");
        assert_eq!(and_list(&names(&["a", "b"])), "a and b");
        assert_eq!(and_list(&names(&["a", "b", "c"])), "a, b and c");
    }
}
