//! The instruction check's bound: the most macro-ops per cycle a core sustains, by vendor, family
//! and model as `/proc/cpuinfo` names them, and the pairs it fuses into one macro-op.
//!
//! The width is the narrowest stage every instruction passes: AMD's dispatch (Zen 1 to 4 six
//! macro-ops per cycle, Zen 5 eight), Intel's rename and allocation (Skylake four, Sunny Cove
//! five, Golden Cove six, Lion Cove eight). Retiring is wider on these cores, so it is not the
//! bound. Every choice here leans towards calling a time possible: a core's widest published
//! stage, and an unknown core as wide as the widest known (8). The words come from
//! [`bench_data::bound`], so the book reads them in the page's language.

use bench_data::bound::{
    AMD_1AH, AMD_17H, AMD_19H, FUSION_ALU, FUSION_CMP_TEST, INTEL, WIDTH, WIDTH_ASSUMED,
};
use lab_text::tr::fill;

/// Which instruction directly followed by a conditional jump the core fuses with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// `cmp` and `test` (AMD from Bulldozer to Zen 2).
    CmpTest,
    /// Also `add`, `sub`, `and`, `inc` and `dec` (Intel since Sandy Bridge, AMD since Zen 3).
    /// Not every core fuses each of them with every jump (Ice Lake dropped `inc` and `dec`), so
    /// this counts at most one pair too many where it errs: towards a possible time.
    Alu,
}

impl Fusion {
    /// Whether `mnemonic` (Intel syntax, no size suffix) fuses with a conditional jump after it.
    pub fn fuses(self, mnemonic: &str) -> bool {
        match self {
            Fusion::CmpTest => matches!(mnemonic, "cmp" | "test"),
            Fusion::Alu => matches!(
                mnemonic,
                "cmp" | "test" | "add" | "sub" | "and" | "inc" | "dec"
            ),
        }
    }

    /// The rule in words, as the data records it.
    pub fn words(self) -> &'static str {
        match self {
            Fusion::CmpTest => FUSION_CMP_TEST,
            Fusion::Alu => FUSION_ALU,
        }
    }
}

/// A core's bound: macro-ops per cycle, where that comes from, and what it fuses.
#[derive(Clone, Debug, PartialEq)]
pub struct Width {
    pub width: f64,
    pub source: String,
    pub fusion: Fusion,
}

struct Core {
    vendor: &'static str,
    family: u32,
    /// Inclusive model ranges.
    models: &'static [(u32, u32)],
    name: &'static str,
    width: f64,
    reference: &'static str,
    fusion: Fusion,
}

const ALL: &[(u32, u32)] = &[(0, u32::MAX)];
const AMD: &str = "AuthenticAMD";
const INTEL_ID: &str = "GenuineIntel";

/// The cores the bench knows. Intel's models are family 6's; AMD's families are the displayed
/// ones (23 = 17h, 25 = 19h, 26 = 1Ah).
const CORES: &[Core] = &[
    Core {
        vendor: AMD,
        family: 23,
        models: &[(0x00, 0x2f)],
        name: "AMD Zen/Zen+",
        width: 6.0,
        reference: AMD_17H,
        fusion: Fusion::CmpTest,
    },
    Core {
        vendor: AMD,
        family: 23,
        models: &[(0x30, u32::MAX)],
        name: "AMD Zen 2",
        width: 6.0,
        reference: AMD_17H,
        fusion: Fusion::CmpTest,
    },
    Core {
        vendor: AMD,
        family: 25,
        models: &[(0x00, 0x0f), (0x20, 0x5f)],
        name: "AMD Zen 3",
        width: 6.0,
        reference: AMD_19H,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: AMD,
        family: 25,
        models: &[(0x10, 0x1f), (0x60, 0x7f), (0xa0, 0xaf)],
        name: "AMD Zen 4",
        width: 6.0,
        reference: AMD_19H,
        fusion: Fusion::Alu,
    },
    // Another family 19h model is a Zen 3 or a Zen 4: six either way.
    Core {
        vendor: AMD,
        family: 25,
        models: ALL,
        name: "AMD Zen 3 or Zen 4",
        width: 6.0,
        reference: AMD_19H,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: AMD,
        family: 26,
        models: ALL,
        name: "AMD Zen 5",
        width: 8.0,
        reference: AMD_1AH,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: INTEL_ID,
        family: 6,
        models: &[(42, 42), (45, 45), (58, 58), (62, 62)],
        name: "Intel Sandy Bridge/Ivy Bridge",
        width: 4.0,
        reference: INTEL,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: INTEL_ID,
        family: 6,
        models: &[(60, 61), (63, 63), (69, 71), (79, 79), (86, 86)],
        name: "Intel Haswell/Broadwell",
        width: 4.0,
        reference: INTEL,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: INTEL_ID,
        family: 6,
        models: &[
            (78, 78),
            (85, 85),
            (94, 94),
            (142, 142),
            (158, 158),
            (165, 166),
        ],
        name: "Intel Skylake/Cascade Lake",
        width: 4.0,
        reference: INTEL,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: INTEL_ID,
        family: 6,
        models: &[(106, 106), (108, 108), (125, 126), (140, 141), (167, 167)],
        name: "Intel Sunny/Willow/Cypress Cove",
        width: 5.0,
        reference: INTEL,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: INTEL_ID,
        family: 6,
        models: &[
            (143, 143),
            (151, 151),
            (154, 154),
            (170, 170),
            (172, 174),
            (183, 183),
            (186, 186),
            (191, 191),
            (207, 207),
        ],
        name: "Intel Golden/Raptor/Redwood Cove",
        width: 6.0,
        reference: INTEL,
        fusion: Fusion::Alu,
    },
    Core {
        vendor: INTEL_ID,
        family: 6,
        models: &[(189, 189), (197, 198)],
        name: "Intel Lion Cove",
        width: 8.0,
        reference: INTEL,
        fusion: Fusion::Alu,
    },
];

/// The width a core of no table entry is given: the widest known.
pub const ASSUMED: f64 = 8.0;

/// The bound of the CPU `/proc/cpuinfo` (its text) describes, from its first processor's
/// `vendor_id`, `cpu family` and `model`.
pub fn sustained_width(cpuinfo: &str) -> Width {
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let vendor = field("vendor_id");
    let family: u32 = field("cpu family").parse().unwrap_or(0);
    let model: u32 = field("model").parse().unwrap_or(0);
    let known = CORES.iter().find(|c| {
        c.vendor == vendor
            && c.family == family
            && c.models.iter().any(|(lo, hi)| (*lo..=*hi).contains(&model))
    });
    match known {
        Some(c) => Width {
            width: c.width,
            source: fill(WIDTH, &[&c.name, &family, &model, &c.width, &c.reference]),
            fusion: c.fusion,
        },
        None => {
            let vendor = if vendor.is_empty() {
                "unknown vendor".to_string()
            } else {
                vendor
            };
            Width {
                width: ASSUMED,
                source: fill(WIDTH_ASSUMED, &[&vendor, &family, &model, &ASSUMED]),
                // The most fusion any core does: the count errs towards a possible time.
                fusion: Fusion::Alu,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(vendor: &str, family: u32, model: u32) -> Width {
        sustained_width(&format!(
            "processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model}\nmodel name\t: X\n"
        ))
    }

    #[track_caller]
    fn is(w: &Width, width: f64, says: &str, fusion: Fusion) {
        assert_eq!(w.width, width, "{w:?}");
        assert!(w.source.contains(says), "{w:?} does not say {says:?}");
        assert_eq!(w.fusion, fusion, "{w:?}");
    }

    #[test]
    fn amd_zen_1_and_2_dispatch_six_and_fuse_compares() {
        is(
            &cpu(AMD, 23, 1),
            6.0,
            "AMD Zen/Zen+ (family 23 model 1)",
            Fusion::CmpTest,
        );
        is(
            &cpu(AMD, 23, 0x31),
            6.0,
            "AMD Zen 2 (family 23 model 49)",
            Fusion::CmpTest,
        );
        assert!(cpu(AMD, 23, 0x71).source.contains("family 17h"));
    }

    /// This machine's kind: family 25 model 1 is a Zen 3.
    #[test]
    fn amd_zen_3_and_4_dispatch_six() {
        let zen3 = cpu(AMD, 25, 1);
        assert_eq!(
            zen3.source,
            "AMD Zen 3 (family 25 model 1): at most 6 macro-ops per cycle, its dispatch width in AMD's Software Optimization Guide for family 19h"
        );
        is(&zen3, 6.0, "Zen 3", Fusion::Alu);
        is(&cpu(AMD, 25, 0x21), 6.0, "AMD Zen 3 (", Fusion::Alu);
        is(&cpu(AMD, 25, 0x50), 6.0, "AMD Zen 3 (", Fusion::Alu);
        for model in [0x11, 0x61, 0x74, 0xa0] {
            is(&cpu(AMD, 25, model), 6.0, "AMD Zen 4 (", Fusion::Alu);
        }
        is(&cpu(AMD, 25, 0x90), 6.0, "Zen 3 or Zen 4", Fusion::Alu);
    }

    #[test]
    fn amd_zen_5_dispatches_eight() {
        is(
            &cpu(AMD, 26, 2),
            8.0,
            "AMD Zen 5 (family 26 model 2)",
            Fusion::Alu,
        );
        assert!(cpu(AMD, 26, 0x44).source.contains("family 1Ah"));
    }

    #[test]
    fn intel_cores_by_model() {
        for model in [85, 94, 78, 142, 158] {
            is(&cpu(INTEL_ID, 6, model), 4.0, "Skylake", Fusion::Alu);
        }
        is(&cpu(INTEL_ID, 6, 63), 4.0, "Haswell", Fusion::Alu);
        for model in [106, 108, 125, 126, 140, 141, 167] {
            is(&cpu(INTEL_ID, 6, model), 5.0, "Cove", Fusion::Alu);
        }
        for model in [143, 151, 154, 183] {
            is(&cpu(INTEL_ID, 6, model), 6.0, "Golden", Fusion::Alu);
        }
        is(&cpu(INTEL_ID, 6, 197), 8.0, "Lion Cove", Fusion::Alu);
        assert!(
            cpu(INTEL_ID, 6, 85)
                .source
                .contains("rename and allocation")
        );
    }

    /// A core the table does not know gets the widest width, and says it is assumed.
    #[test]
    fn unknown_cores_get_the_widest_width_in_words() {
        is(
            &cpu(INTEL_ID, 6, 250),
            8.0,
            "GenuineIntel family 6 model 250: not in the bench's table, so 8 macro-ops per cycle are assumed",
            Fusion::Alu,
        );
        is(&cpu("HygonGenuine", 24, 1), 8.0, "assumed", Fusion::Alu);
        is(&cpu(AMD, 21, 2), 8.0, "assumed", Fusion::Alu);
        is(
            &sustained_width(""),
            8.0,
            "unknown vendor family 0 model 0",
            Fusion::Alu,
        );
    }

    /// The book reads every source this table writes (`bench_data::bound::width_words`).
    #[test]
    fn every_source_has_a_shape_the_book_reads() {
        use lab_text::tr;
        tr::set_language("ru");
        let entries = [(tr::key(WIDTH), vec!["ШИРИНА {} {} {} {} {}".to_string()])];
        tr::install_file(&tr::strings_file(&entries).unwrap());
        for c in CORES {
            for (lo, _) in c.models {
                let w = cpu(c.vendor, c.family, *lo);
                let words = bench_data::bound::width_words(&w.source);
                assert!(words.starts_with("ШИРИНА"), "{}", w.source);
            }
        }
        tr::install_file("");
        tr::set_language("en");
    }

    #[test]
    fn fusion_rules() {
        assert!(Fusion::CmpTest.fuses("cmp") && Fusion::CmpTest.fuses("test"));
        assert!(!Fusion::CmpTest.fuses("dec") && !Fusion::CmpTest.fuses("cmpxchg"));
        assert!(Fusion::Alu.fuses("dec") && Fusion::Alu.fuses("add"));
        assert!(!Fusion::Alu.fuses("mov") && !Fusion::Alu.fuses("or"));
    }
}
