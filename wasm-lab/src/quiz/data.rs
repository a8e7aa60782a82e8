//! Questions the bench data answers, graded from the figures the page carries ([`Page`]), which
//! the preprocessor copies from the `book/data` file the chapter cites. Nothing here knows
//! today's numbers: rerun the bench and the answers change with the text.

use lab_text::decimal::fixed;
use lab_text::tr::get_dynamic;
use lab_text::verdict::{EQUIVALENCE_BAND, Reading, reading};
use lab_text::{n, t, tf};
use serde::{Deserialize, Serialize};

use super::{Fig, Gate, Kind, Page, Rng, Solution};

/// A ratio of two paired timings, `a ÷ b`, and what each side is.
pub struct Ratio {
    pub key: &'static str,
    /// The operation on top of the ratio, as the prompt names it (marked with `n!`: it is
    /// translated where shown).
    pub a: &'static str,
    /// The operation under it.
    pub b: &'static str,
    /// Where it was measured ("at 1 MiB", marked with `n!`).
    pub at: &'static str,
}

/// "Which took less time on this machine?" — decided by the book's verdict rule
/// ([`lab_text::verdict`]: the ratio's 95 % interval against 1 and the ±5 % band), the rule the
/// text's `{{#verdict}}` and `{{#claim}}` read the same figure with.
pub struct LessTime {
    pub name: &'static str,
    pub ratios: &'static [Ratio],
}

/// Which ratio a [`LessTime`] question asks about.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RatioParams {
    pub key: String,
}

// Answers to pick, translated where used (`get_dynamic`).
const NO_DIFFERENCE: &str = n!("no measurable difference");
const SAME_FOR_PRACTICE: &str =
    n!("the same for practice: a measurable difference inside the ±5 % band");
const TOO_NOISY: &str = n!("the bench cannot tell: the figure is too noisy to cite");

fn interval(f: &Fig) -> String {
    format!(
        "{}× [{}–{}]",
        fixed(f.value, 3),
        fixed(f.low, 3),
        fixed(f.high, 3)
    )
}

impl LessTime {
    fn ratio(&self, key: &str) -> Result<&Ratio, String> {
        self.ratios
            .iter()
            .find(|r| r.key == key)
            .ok_or_else(|| tf!("no ratio `{}` in this question", key))
    }

    /// The figure keys the page must carry.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.ratios.iter().map(|r| r.key)
    }
}

impl Kind for LessTime {
    type Params = RatioParams;
    fn name(&self) -> &'static str {
        self.name
    }
    fn draw(&self, rng: &mut Rng, page: &Page) -> Result<RatioParams, String> {
        let r = &self.ratios[rng.below(self.ratios.len() as u64) as usize];
        page.figure(r.key)?;
        Ok(RatioParams { key: r.key.into() })
    }
    fn prompt(&self, p: &RatioParams) -> String {
        match self.ratio(&p.key) {
            Ok(r) => tf!(
                "On the machine this book's data comes from, which took less time {}: {}, or {}? (The bench measured them side by side, in paired rounds.)",
                get_dynamic(r.at),
                get_dynamic(r.a),
                get_dynamic(r.b)
            ),
            Err(e) => e,
        }
    }
    fn solve(&self, p: &RatioParams, page: &Page) -> Result<Solution, String> {
        let r = self.ratio(&p.key)?;
        let f = page.figure(r.key)?;
        let (a, b) = (get_dynamic(r.a), get_dynamic(r.b));
        let a_less = tf!("{} took less time", a);
        let b_less = tf!("{} took less time", b);
        let shown = interval(f);
        let band = fixed(EQUIVALENCE_BAND * 100.0, 0);
        let (right, why) = if f.gate == Gate::Unfit {
            (
                get_dynamic(TOO_NOISY),
                tf!(
                    "the first of the two took {} the time of the second on {}, but the noise gate rejected the measurement ({}): no conclusion either way",
                    shown,
                    page.machine,
                    f.note
                ),
            )
        } else {
            match reading(f.value, f.low, f.high, 1.0) {
                Reading::Less => (
                    a_less.clone(),
                    tf!(
                        "measured side by side on {}, it took {} the time of the other, {}; the whole 95 % interval lies below 1 and the median more than {} % below it",
                        page.machine,
                        shown,
                        b,
                        band
                    ),
                ),
                Reading::More => (
                    b_less.clone(),
                    tf!(
                        "measured side by side on {}, {} took {} the time of this one; the whole 95 % interval lies above 1 and the median more than {} % above it",
                        page.machine,
                        a,
                        shown,
                        band
                    ),
                ),
                Reading::WithinBand => (
                    get_dynamic(SAME_FOR_PRACTICE),
                    tf!(
                        "measured side by side on {}, the first of the two took {} the time of the second: the 95 % interval excludes 1, so the difference is measurable, but the median is within {} % of 1, and the book calls such a pair the same for practice",
                        page.machine,
                        shown,
                        band
                    ),
                ),
                Reading::NoDifference => (
                    get_dynamic(NO_DIFFERENCE),
                    tf!(
                        "measured side by side on {}, the first of the two took {} the time of the second; the 95 % interval includes 1, so the bench cannot tell them apart",
                        page.machine,
                        shown
                    ),
                ),
            }
        };
        Ok(Solution::choice(right, why)
            .mistake(
                a_less,
                t!("Check which side of the ratio is on top, whether its interval lies wholly below 1, and whether the difference is larger than the book's band"),
            )
            .mistake(
                b_less,
                t!("A ratio above 1 means the top operation took longer: does the interval lie wholly above 1, and is the difference larger than the book's band"),
            )
            .mistake(
                get_dynamic(SAME_FOR_PRACTICE),
                t!("The same for practice means a measurable difference that is small: check whether the interval excludes 1, then how far the median is from it"),
            )
            .mistake(
                get_dynamic(NO_DIFFERENCE),
                t!("A difference is measurable when the 95 % interval of the paired ratio excludes 1: look at both ends"),
            )
            .mistake(
                get_dynamic(TOO_NOISY),
                t!("This ratio passed the noise gate: read its interval"),
            ))
    }
}

/// "What does the noise gate let the book do with this figure?" — graded from its verdict.
pub struct Citable {
    pub name: &'static str,
    pub keys: &'static [&'static str],
}

/// Which figure a [`Citable`] question asks about.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FigureParams {
    pub key: String,
}

// Answers to pick, translated where used (`get_dynamic`).
const AS_VALUE: &str = n!("print it as a value");
const AS_RATIO: &str = n!("cite only ratios or directions built on it, not the time itself");
const NOT_AT_ALL: &str = n!("nothing: it is too noisy to cite");

impl Kind for Citable {
    type Params = FigureParams;
    fn name(&self) -> &'static str {
        self.name
    }
    fn draw(&self, rng: &mut Rng, page: &Page) -> Result<FigureParams, String> {
        let key = self.keys[rng.below(self.keys.len() as u64) as usize];
        page.figure(key)?;
        Ok(FigureParams { key: key.into() })
    }
    fn prompt(&self, p: &FigureParams) -> String {
        tf!(
            "The bench recorded the figure `{}`. Under the noise gate, what may the book do with it?",
            p.key
        )
    }
    fn solve(&self, p: &FigureParams, page: &Page) -> Result<Solution, String> {
        let f = page.figure(&p.key)?;
        let noise = format!("{} %", fixed(f.noise * 100.0, 1));
        let right = match (f.gate, f.unit.as_str()) {
            (Gate::Absolute, _) | (Gate::RatioOnly, "ratio") => AS_VALUE,
            (Gate::RatioOnly, _) => AS_RATIO,
            (Gate::Unfit, _) => NOT_AT_ALL,
        };
        let why = tf!(
            "“{}”: noise {} on {}; the gate says: {}. Times are printed as values only under 5 % noise; a ratio of paired rounds survives a busier machine because load slows both sides alike, and anything over 25 % is not cited at all",
            f.title,
            noise,
            page.machine,
            f.note
        );
        Ok(Solution::choice(get_dynamic(right), why)
            .mistake(
                get_dynamic(AS_VALUE),
                t!("Look at the figure's noise: is it low enough for a time to be printed as a value"),
            )
            .mistake(
                get_dynamic(AS_RATIO),
                t!("Compare the noise with both of the gate's limits, and mind whether the figure is itself a ratio"),
            )
            .mistake(
                get_dynamic(NOT_AT_ALL),
                t!("Only figures noisier than the gate's upper limit are dropped: is this one"),
            ))
    }
}
