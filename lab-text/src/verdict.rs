//! The verdict rule, once: what a ratio of paired timings says against a reference (1 for "the
//! same"), from its median and its 95 % interval.
//!
//! The book's text reads its ratios with it (`bench_data::claim::direction` and `verdict_words`,
//! behind `{{#verdict}}` and `{{#claim KEY less|more|same}}`), and so do the lab's quizzes
//! (`wasm_lab::quiz::data`): a quiz that called a ratio "less time" where the text says "the same
//! for practice" would teach another rule than the book's. It lives here, in the leaf both
//! depend on, because the shipped wasm does not carry `bench-data`.
//!
//! [`Reading::Less`] needs both: the whole interval under the reference (the difference is
//! measurable) *and* the median more than [`EQUIVALENCE_BAND`] (5 %) under it (it is large enough
//! to matter); [`Reading::More`] likewise above. Otherwise the two are the same: measurably
//! different but inside the band ([`Reading::WithinBand`], "the same for practice"), or not
//! measurably different at all ([`Reading::NoDifference`], the interval includes the reference).
//! A median alone never decides a difference: 0.90 with an interval of 0.85–1.03 is no measurable
//! difference.

/// The band of practical equivalence: a ratio whose median is within ±5 % of the reference reads
/// "the same for practice" even when its interval excludes the reference.
pub const EQUIVALENCE_BAND: f64 = 0.05;

/// What a ratio says against its reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The whole interval under the reference, the median more than the band under it.
    Less,
    /// The whole interval over the reference, the median more than the band over it.
    More,
    /// The interval excludes the reference, but the median is inside the band: the same for
    /// practice.
    WithinBand,
    /// The interval includes the reference: no measurable difference.
    NoDifference,
}

impl Reading {
    /// Whether the two sides are the same by the rule ([`Reading::WithinBand`] or
    /// [`Reading::NoDifference`]).
    pub fn same(self) -> bool {
        matches!(self, Reading::WithinBand | Reading::NoDifference)
    }
}

/// The verdict rule for a ratio with median `value` and 95 % interval `low`–`high`, against
/// `reference`.
///
/// ```
/// use lab_text::verdict::{reading, Reading};
/// assert_eq!(reading(0.865, 0.864, 0.871, 1.0), Reading::Less);
/// assert_eq!(reading(0.865, 0.80, 1.01, 1.0), Reading::NoDifference);
/// // Measurably less, but by 1.1 %: the same for practice.
/// assert_eq!(reading(0.989, 0.985, 0.993, 1.0), Reading::WithinBand);
/// assert_eq!(reading(1.051, 1.05, 1.052, 1.0), Reading::More);
/// ```
pub fn reading(value: f64, low: f64, high: f64, reference: f64) -> Reading {
    if high < reference && value < reference * (1.0 - EQUIVALENCE_BAND) {
        Reading::Less
    } else if low > reference && value > reference * (1.0 + EQUIVALENCE_BAND) {
        Reading::More
    } else if high < reference || low > reference {
        Reading::WithinBand
    } else {
        Reading::NoDifference
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_s_edges() {
        let tight = |v: f64| reading(v, v - 0.0005, v + 0.0005, 1.0);
        assert_eq!(tight(0.949), Reading::Less);
        assert_eq!(tight(0.951), Reading::WithinBand);
        assert_eq!(tight(0.989), Reading::WithinBand);
        assert_eq!(tight(1.0), Reading::NoDifference);
        assert_eq!(tight(1.049), Reading::WithinBand);
        assert_eq!(tight(1.051), Reading::More);
        // A wide interval that includes 1 decides nothing, however far the median is.
        assert_eq!(reading(0.5, 0.2, 1.1, 1.0), Reading::NoDifference);
        assert!(Reading::WithinBand.same() && !Reading::Less.same());
    }
}
