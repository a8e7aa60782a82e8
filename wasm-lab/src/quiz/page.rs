//! What the book's page gives a quiz beyond the lab itself: the bench figures its data questions
//! are graded from and rustc's verdicts on the "does this compile?" snippets, both written by the
//! preprocessor at build time into the mount point's `data-page` attribute (JSON). An
//! instructor's rerun of the bench therefore changes the answers together with the text.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything a quiz's mount point carries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// The machine the figures were measured on (`book/data/<machine>.json`).
    #[serde(default)]
    pub machine: String,
    #[serde(default)]
    pub figures: BTreeMap<String, Fig>,
    /// rustc's verdict per snippet name ([`super::snippets::SNIPPETS`]).
    #[serde(default)]
    pub compiled: BTreeMap<String, Compiled>,
}

/// One bench figure as the data file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fig {
    pub title: String,
    /// `nanoseconds`, `bytes`, `count` or `ratio`.
    pub unit: String,
    pub value: f64,
    /// The 95 % interval of the median.
    pub low: f64,
    pub high: f64,
    /// The noise the gate judged, as a fraction (0.05 = 5 %).
    pub noise: f64,
    pub gate: Gate,
    /// The gate's reason, as the data file words it.
    pub note: String,
}

/// The noise gate's verdict on a figure (`bench_data::Verdict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    Absolute,
    RatioOnly,
    Unfit,
}

/// What rustc said about one snippet, compiled against the lab at build time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compiled {
    pub compiles: bool,
    /// rustc's error lines (`error[E0382]: use of moved value: ...`), first first.
    pub errors: Vec<String>,
}

impl Page {
    /// A page with made-up figures for every key a quiz lists (spread so that every verdict and
    /// every direction occurs) and rustc's verdicts as the snippets expect them.
    #[doc(hidden)]
    pub fn sample() -> Page {
        let mut page = Page {
            machine: "test-machine".into(),
            ..Page::default()
        };
        let gates = [Gate::Absolute, Gate::RatioOnly, Gate::Unfit];
        for (i, key) in super::QUIZZES.iter().flat_map(|q| q.figures).enumerate() {
            let ratio = key.contains("_vs_");
            let (value, low, high) = if ratio {
                [(0.8, 0.78, 0.82), (1.3, 1.2, 1.4), (1.0, 0.97, 1.03)][i % 3]
            } else {
                let v = 100_000.0 + i as f64;
                (v, v, v)
            };
            let gate = if ratio && i % 5 != 0 {
                Gate::RatioOnly
            } else {
                gates[i % 3]
            };
            page.figures.insert(
                key.to_string(),
                Fig {
                    title: format!("figure {key}"),
                    unit: if ratio { "ratio" } else { "nanoseconds" }.into(),
                    value,
                    low,
                    high,
                    noise: 0.03,
                    gate,
                    note: "a note".into(),
                },
            );
        }
        for s in super::snippets::SNIPPETS {
            page.compiled.insert(
                s.name.into(),
                Compiled {
                    compiles: s.compiles,
                    errors: if s.compiles {
                        Vec::new()
                    } else {
                        vec!["error[E0382]: use of moved value".into()]
                    },
                },
            );
        }
        page
    }

    /// Reads a mount point's `data-page`; an absent attribute is an empty page.
    pub fn from_json(text: &str) -> Result<Page, String> {
        if text.trim().is_empty() {
            return Ok(Page::default());
        }
        serde_json::from_str(text).map_err(|e| format!("the page's quiz data is unreadable: {e}"))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The figure `key`, or a message saying the page lacks it.
    pub fn figure(&self, key: &str) -> Result<&Fig, String> {
        self.figures
            .get(key)
            .ok_or_else(|| format!("this page carries no bench figure `{key}` (rebuild the book)"))
    }

    /// rustc's verdict on the snippet `name`, or a message saying the page lacks it.
    pub fn compiled(&self, name: &str) -> Result<&Compiled, String> {
        self.compiled.get(name).ok_or_else(|| {
            format!(
                "this page carries no compiler verdict for the snippet `{name}` (rebuild the book)"
            )
        })
    }
}
