//! Figures from the source articles that charts draw beside Rust's measurements.
//!
//! These are **.NET reference results printed in the articles**, not measurements of this lab:
//! they never go into `book/data`, and every chart that draws one labels it as .NET with its
//! source. They live here, in one place, so a reader of the code can check each against the
//! article (`/work/shared/COURSE.md` §7 restates them).
use lab_text::n;

/// A range the article measured at each x (several machines or runs), drawn as a band.
pub struct Band {
    /// What the band is, as the legend names it.
    pub label: &'static str,
    /// The article, by title (`n!`: the legend writes it in the page's language).
    pub source: &'static str,
    /// `(x, low, high)`.
    pub points: &'static [(f64, f64, f64)],
}

/// A vertical line at a value the article (or the .NET runtime) fixes.
pub struct Edge {
    pub label: &'static str,
    pub source: &'static str,
    pub x: f64,
}

const RUSSIAN_ARRAYPOOL: &str = n!(
    "the Russian article «Бенчмаркая ArrayPool: подстава при копировании потоков — 131 072 байта в LOH»"
);

/// Rent + return with clearing ÷ without, four machines, .NET 10.
pub const DOTNET_CLEARING: Band = Band {
    label: n!(".NET reference range"),
    source: RUSSIAN_ARRAYPOOL,
    points: &[
        (1_024.0, 1.56, 1.65),
        (16_384.0, 9.51, 14.46),
        (81_920.0, 95.20, 221.24),
        (1_048_576.0, 1_014.69, 3_002.97),
    ],
};

/// Rent + write + return ÷ writing a ready buffer (PoolTouchBench), eight measurements, two runs.
pub const DOTNET_LOWER_BOUND: Band = Band {
    label: n!(".NET reference range"),
    source: RUSSIAN_ARRAYPOOL,
    points: &[(81_920.0, 0.985, 1.035), (1_048_576.0, 0.985, 1.035)],
};

/// .NET puts an array of 85,000 bytes or more (its 24-byte header included) in the LOH.
pub const DOTNET_LOH: Edge = Edge {
    label: n!(".NET LOH edge 85,000"),
    source: n!(
        "the .NET runtime's large-object threshold, as the Russian article on Enumerable.Chunk with large batches states it"
    ),
    x: 85_000.0,
};
