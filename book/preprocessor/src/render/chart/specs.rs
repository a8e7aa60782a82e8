//! Every chart the book draws: which figures, on which axes, beside which reference figures.
//!
//! A chart is named in a chapter by `{{#chart NAME}}`. Its figure keys are templates over the x
//! values (`{x}`), expanded for every machine file in `book/data`; the keys are those of
//! `native-bench/FIGURES.md`.

use super::reference::{self, Band, Edge};
use lab_text::n;

/// What an axis measures, which decides its tick labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Bytes, ticks in binary units (16 B, 1 KiB, 80 KiB, 1 MiB).
    Bytes,
    /// A ratio, ticks as `10×`.
    Ratio,
    /// A count, ticks digit-grouped.
    Count,
}

pub struct Axis {
    /// The axis title, unit included.
    pub label: &'static str,
    pub scale: Scale,
    /// Logarithmic: for data spanning decades.
    pub log: bool,
}

/// One x position: where it is drawn, what it puts in the key templates, how it is named.
pub struct X {
    pub at: f64,
    pub key: &'static str,
    /// A name for a categorical axis (`n!`: drawn in the page's language); empty for a numeric
    /// one (the tick shows `at`).
    pub name: &'static str,
}

pub struct Series {
    pub label: &'static str,
    /// A figure key with `{x}` for the x position's key.
    pub key: &'static str,
}

/// A vertical line.
pub enum Mark {
    /// At the value of a figure, per machine (the 1 + P × M knee depends on the core count).
    Figure {
        key: &'static str,
        label: &'static str,
    },
    /// At a value fixed outside this lab (a .NET constant).
    Reference(&'static Edge),
}

pub struct Chart {
    pub name: &'static str,
    pub title: &'static str,
    pub x: Axis,
    pub y: Axis,
    pub xs: &'static [X],
    pub series: &'static [Series],
    /// A point every series starts from by definition (not a measurement), with its reason.
    pub origin: Option<(f64, f64, &'static str)>,
    /// A horizontal line, e.g. the 1× of a ratio, with its meaning.
    pub level: Option<(f64, &'static str)>,
    pub band: Option<&'static Band>,
    pub marks: &'static [Mark],
}

const fn x(at: f64, key: &'static str) -> X {
    X { at, key, name: "" }
}

const SIZES: &[X] = &[
    x(16.0, "16"),
    x(1_024.0, "1024"),
    x(16_384.0, "16384"),
    x(81_920.0, "81920"),
    x(1_048_576.0, "1048576"),
];

const SIZES_WITH_4K: &[X] = &[
    x(16.0, "16"),
    x(1_024.0, "1024"),
    x(4_096.0, "4096"),
    x(16_384.0, "16384"),
    x(81_920.0, "81920"),
    x(1_048_576.0, "1048576"),
];

const HELD: &[X] = &[
    x(1.0, "1"),
    x(2.0, "2"),
    x(4.0, "4"),
    x(8.0, "8"),
    x(16.0, "16"),
    x(32.0, "32"),
    x(64.0, "64"),
    x(128.0, "128"),
    x(256.0, "256"),
    x(512.0, "512"),
    x(1_024.0, "1024"),
    x(2_048.0, "2048"),
    x(4_096.0, "4096"),
];

/// Chunk sizes in bytes (`i32` elements × 4), keyed by element count.
const CHUNKS: &[X] = &[
    x(80_000.0, "20000"),
    x(100_000.0, "25000"),
    x(160_000.0, "40000"),
];

const SIZE_AXIS: Axis = Axis {
    label: n!("buffer size (bytes, log scale)"),
    scale: Scale::Bytes,
    log: true,
};

const PEER_SERIES: &[Series] = &[
    Series {
        label: n!("÷ glibc malloc + free"),
        key: "peers.{x}.pool_vs_system",
    },
    Series {
        label: n!("÷ mimalloc"),
        key: "peers.{x}.pool_vs_mimalloc",
    },
    Series {
        label: n!("÷ object-pool"),
        key: "peers.{x}.pool_vs_object_pool",
    },
    Series {
        label: n!("÷ opool"),
        key: "peers.{x}.pool_vs_opool",
    },
    Series {
        label: n!("÷ lockfree-object-pool"),
        key: "peers.{x}.pool_vs_lockfree_object_pool",
    },
];

const PEER_WRITE_SERIES: &[Series] = &[
    Series {
        label: n!("÷ glibc malloc + free"),
        key: "peers.{x}.pool_vs_system_write",
    },
    Series {
        label: n!("÷ mimalloc"),
        key: "peers.{x}.pool_vs_mimalloc_write",
    },
    Series {
        label: n!("÷ object-pool"),
        key: "peers.{x}.pool_vs_object_pool_write",
    },
    Series {
        label: n!("÷ opool"),
        key: "peers.{x}.pool_vs_opool_write",
    },
    Series {
        label: n!("÷ lockfree-object-pool"),
        key: "peers.{x}.pool_vs_lockfree_object_pool_write",
    },
];

const PEER_LEVEL: Option<(f64, &str)> = Some((
    1.0,
    n!("1×: as fast as the peer; below: the pool is faster"),
));

const CHUNK_SERIES_BYTES: &[Series] = &[
    Series {
        label: n!(".NET Chunk, array path"),
        key: "chunking.{x}.hold.dotnet_array.bytes",
    },
    Series {
        label: n!(".NET Chunk, enumerable path"),
        key: "chunking.{x}.hold.dotnet_enumerable.bytes",
    },
    Series {
        label: n!("collect each chunk into a Vec"),
        key: "chunking.{x}.hold.collect_vec.bytes",
    },
    Series {
        label: n!("slice.chunks (borrowed)"),
        key: "chunking.{x}.hold.slice_chunks.bytes",
    },
    Series {
        label: n!("pooled buffers"),
        key: "chunking.{x}.hold.pooled.bytes",
    },
];

const CHUNK_SERIES_ALLOCATIONS: &[Series] = &[
    Series {
        label: n!(".NET Chunk, array path"),
        key: "chunking.{x}.hold.dotnet_array.allocations",
    },
    Series {
        label: n!(".NET Chunk, enumerable path"),
        key: "chunking.{x}.hold.dotnet_enumerable.allocations",
    },
    Series {
        label: n!("collect each chunk into a Vec"),
        key: "chunking.{x}.hold.collect_vec.allocations",
    },
    Series {
        label: n!("slice.chunks (borrowed)"),
        key: "chunking.{x}.hold.slice_chunks.allocations",
    },
    Series {
        label: n!("pooled buffers"),
        key: "chunking.{x}.hold.pooled.allocations",
    },
];

const CHUNK_AXIS: Axis = Axis {
    label: n!("chunk size (bytes: 20,000, 25,000 and 40,000 i32)"),
    scale: Scale::Bytes,
    log: false,
};

const CHUNK_MARKS: &[Mark] = &[
    Mark::Reference(&reference::DOTNET_LOH),
    Mark::Figure {
        key: "cliff.u8.first_bytes",
        label: n!("glibc mmap edge"),
    },
];

/// Every chart, by name.
pub const CHARTS: &[Chart] = &[
    Chart {
        name: "clearing",
        title: n!("What clearing costs: rent + return with clearing ÷ without, by buffer size"),
        x: SIZE_AXIS,
        y: Axis {
            label: n!("cleared ÷ uncleared (×, log scale)"),
            scale: Scale::Ratio,
            log: true,
        },
        xs: SIZES,
        series: &[Series {
            label: n!("Rust, shared pool"),
            key: "clearing.{x}.cleared_vs_uncleared",
        }],
        origin: None,
        level: Some((1.0, n!("1×: clearing would cost nothing"))),
        band: Some(&reference::DOTNET_CLEARING),
        marks: &[],
    },
    Chart {
        name: "capacity",
        title: n!("Bytes allocated per round against buffers of 1 KiB held at once (default pool)"),
        x: Axis {
            label: n!("buffers held at once (log scale)"),
            scale: Scale::Count,
            log: true,
        },
        y: Axis {
            label: n!("bytes per round (log scale)"),
            scale: Scale::Bytes,
            log: true,
        },
        xs: HELD,
        series: &[Series {
            label: n!("shared pool, 1 KiB buffers"),
            key: "capacity.1024.default.{x}.bytes_per_round",
        }],
        origin: None,
        level: None,
        band: None,
        marks: &[Mark::Figure {
            key: "capacity.default.kept_max",
            label: n!("knee 1 + P × M"),
        }],
    },
    Chart {
        name: "threads",
        title: n!("Thread scaling: throughput of rent + return of 1 KiB against one thread"),
        x: Axis {
            label: n!("threads"),
            scale: Scale::Count,
            log: false,
        },
        y: Axis {
            label: n!("throughput ÷ one thread (×)"),
            scale: Scale::Ratio,
            log: false,
        },
        xs: &[x(2.0, "2")],
        series: &[
            Series {
                label: n!("one shared pool"),
                key: "threads.{x}_vs_1.throughput",
            },
            Series {
                label: n!("a pool per thread (the machine's ceiling)"),
                key: "threads.{x}_private_vs_1.throughput",
            },
        ],
        origin: Some((1.0, 1.0, n!("one thread is 1× by definition"))),
        level: None,
        band: None,
        marks: &[],
    },
    Chart {
        name: "lower-bound",
        title: n!("Rent + full write + return ÷ writing a ready buffer (the lower bound), by size"),
        x: SIZE_AXIS,
        y: Axis {
            label: n!("pool + write ÷ write alone (×)"),
            scale: Scale::Ratio,
            log: false,
        },
        xs: SIZES_WITH_4K,
        series: &[Series {
            label: n!("Rust, shared pool"),
            key: "rent_return.{x}.pool_write_vs_lower_bound",
        }],
        origin: None,
        level: Some((1.0, n!("1×: renting costs nothing beside the write"))),
        band: Some(&reference::DOTNET_LOWER_BOUND),
        marks: &[],
    },
    Chart {
        name: "peers",
        title: n!("Rent + return of the pool ÷ each peer's get + give back, by size"),
        x: SIZE_AXIS,
        y: Axis {
            label: n!("pool ÷ peer (×, log scale)"),
            scale: Scale::Ratio,
            log: true,
        },
        xs: SIZES,
        series: PEER_SERIES,
        origin: None,
        level: PEER_LEVEL,
        band: None,
        marks: &[],
    },
    Chart {
        name: "peers-write",
        title: n!("The same with a full write of the buffer: pool ÷ each peer, by size"),
        x: SIZE_AXIS,
        y: Axis {
            label: n!("pool ÷ peer, with write (×, log)"),
            scale: Scale::Ratio,
            log: true,
        },
        xs: SIZES,
        series: PEER_WRITE_SERIES,
        origin: None,
        level: PEER_LEVEL,
        band: None,
        marks: &[],
    },
    Chart {
        name: "chunking-bytes",
        title: n!("Bytes allocated per run over 200,000 i32, chunks held, against chunk size"),
        x: CHUNK_AXIS,
        y: Axis {
            label: n!("bytes per run (log scale)"),
            scale: Scale::Bytes,
            log: true,
        },
        xs: CHUNKS,
        series: CHUNK_SERIES_BYTES,
        origin: None,
        level: None,
        band: None,
        marks: CHUNK_MARKS,
    },
    Chart {
        name: "chunking-allocations",
        title: n!("Allocations per run over 200,000 i32, chunks held, against chunk size"),
        x: CHUNK_AXIS,
        y: Axis {
            label: n!("allocations per run (log scale)"),
            scale: Scale::Count,
            log: true,
        },
        xs: CHUNKS,
        series: CHUNK_SERIES_ALLOCATIONS,
        origin: None,
        level: None,
        band: None,
        marks: CHUNK_MARKS,
    },
    Chart {
        name: "cliff",
        title: n!(
            "Allocation + write + free at glibc's threshold ÷ just below it, dynamic and fixed threshold"
        ),
        x: Axis {
            label: n!("the allocation at the edge"),
            scale: Scale::Count,
            log: false,
        },
        y: Axis {
            label: n!("cost ÷ just below it (×, log scale)"),
            scale: Scale::Ratio,
            log: true,
        },
        xs: &[
            X {
                at: 0.0,
                key: "first_above",
                name: n!("the first one"),
            },
            X {
                at: 1.0,
                key: "after_free",
                name: n!("again, after a free"),
            },
        ],
        series: &[
            Series {
                label: n!("dynamic threshold (glibc's default)"),
                key: "cliff.dynamic.{x}_vs_below",
            },
            Series {
                label: n!("fixed threshold (GLIBC_TUNABLES)"),
                key: "cliff.fixed.{x}_vs_below",
            },
        ],
        origin: None,
        level: Some((1.0, n!("1×: as cheap as below the threshold"))),
        band: None,
        marks: &[],
    },
];

/// The chart named `name`.
pub fn find(name: &str) -> Option<&'static Chart> {
    CHARTS.iter().find(|c| c.name == name)
}
