//! What tells one CPU from another (issue 41): vendor, family, model and stepping as
//! `/proc/cpuinfo` names them, the microarchitecture they stand for, the flags that change the
//! measured code's path, the cache sizes and the clock the bench measured.
//!
//! Cloud machines often hide the part number: a Zen 3 and a Zen 5 core both say `AMD EPYC`, a
//! Rocket Lake and a Sapphire Rapids both `Intel(R) Xeon(R) Processor`. The model string alone
//! made them one machine, and one machine's run overwrote the other's file. The bench now names a
//! machine with a generic model string by its microarchitecture ([`microarchitecture`]), records
//! these facts in `machine.cpu`, and refuses to overwrite a file whose facts differ from its own
//! ([`differences`]).
//!
//! Files written before `machine.cpu` existed record the facts only in words: the instruction
//! check's width source names vendor, family and (mostly) model. [`recover`] reads them back from
//! there, and `native-bench migrate-ids` writes them into the file.

use serde::{Deserialize, Serialize};

use crate::bound::{
    AMD_1AH, AMD_17H, AMD_19H, CLOCK_MEASURED, CLOCK_MEASURED_NOMINAL, CLOCK_NOMINAL_FASTER, INTEL,
    OLD_AMD, OLD_ASSUMED, OLD_SKYLAKE, OLD_SUNNY, WIDTH, WIDTH_ASSUMED, shape_n,
};
use crate::{Machine, RunFile};

/// `/proc/cpuinfo`'s `vendor_id` of AMD's cores.
pub const AMD: &str = "AuthenticAMD";
/// `/proc/cpuinfo`'s `vendor_id` of Intel's cores.
pub const INTEL_VENDOR: &str = "GenuineIntel";

/// The CPU flags the data records: those that change which code the measured operations run.
/// glibc's `memcpy`/`memset` (clearing, zeroing, copying chunks) pick their variant by `avx2`,
/// `avx512f`/`avx512bw` and `erms`, and use `rep movsb`/`rep stosb` for short copies when the
/// core has fast short ones (`fsrm`, `fzrm`, `fsrs`); `bmi2` is what a `target-cpu=native`
/// build would use for the pool's bucket arithmetic; `hypervisor` says the core is a virtual
/// machine's (its clock and caches are shared with neighbours).
pub const FLAGS: &[&str] = &[
    "avx2",
    "avx512f",
    "avx512bw",
    "bmi2",
    "erms",
    "fsrm",
    "fzrm",
    "fsrs",
    "hypervisor",
];

/// The facts of one CPU, read from `/proc/cpuinfo` and `/sys/devices/system/cpu/cpu0/cache`, or
/// recovered from what an older file recorded ([`recover`]; `source` says which).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpuFacts {
    /// `vendor_id`: `AuthenticAMD`, `GenuineIntel`, …
    pub vendor: String,
    /// `cpu family`, as displayed (AMD's 17h is 23, 19h is 25, 1Ah is 26).
    pub family: u32,
    /// `model`, as displayed; none when only the family is known (a recovered file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stepping: Option<u32>,
    /// The short name of the microarchitecture ([`microarchitecture`]: `zen3`, `icelake-sp`),
    /// none when the table does not know the core.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub microarchitecture: Option<String>,
    /// Which of [`FLAGS`] the core has, in that order; none when not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<Vec<String>>,
    /// The first core's level 1 data, level 2 and level 3 cache, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1d_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l3_bytes: Option<u64>,
    /// The clock dependent adds ran at during this run, GHz: the instruction check's (`run.clock`)
    /// when it ran, else measured for this record alone; none where nothing was measured (a file
    /// whose facts were recovered from a run without a measured clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_ghz: Option<f64>,
    /// Where these facts come from, in words.
    pub source: String,
}

impl CpuFacts {
    /// A CPU of these numbers, nothing else known yet.
    pub fn new(vendor: &str, family: u32, model: Option<u32>, source: String) -> CpuFacts {
        CpuFacts {
            vendor: vendor.to_string(),
            family,
            model,
            stepping: None,
            microarchitecture: microarchitecture(vendor, family, model).map(str::to_string),
            flags: None,
            l1d_bytes: None,
            l2_bytes: None,
            l3_bytes: None,
            measured_ghz: None,
            source,
        }
    }

    /// `AuthenticAMD family 25 model 1 stepping 1 (zen3)`: what tells this CPU apart, in words.
    pub fn describe(&self) -> String {
        let mut s = format!("{} family {}", self.vendor, self.family);
        if let Some(m) = self.model {
            s.push_str(&format!(" model {m}"));
        }
        if let Some(st) = self.stepping {
            s.push_str(&format!(" stepping {st}"));
        }
        if let Some(u) = &self.microarchitecture {
            s.push_str(&format!(" ({u})"));
        }
        s
    }
}

struct Core {
    vendor: &'static str,
    family: u32,
    /// Inclusive model ranges; [`ALL`] for every model, even an unknown one.
    models: &'static [(u32, u32)],
    name: &'static str,
}

const ALL: &[(u32, u32)] = &[(0, u32::MAX)];

/// The microarchitectures the bench names, by vendor, displayed family and model ranges (AMD's
/// as Linux's `arch/x86/kernel/cpu/amd.c` sorts them into Zen generations; Intel's family 6
/// models as `arch/x86/include/asm/intel-family.h` names them). A model of no entry gets no
/// name: the machine id then carries the numbers.
const CORES: &[Core] = &[
    Core {
        vendor: AMD,
        family: 23,
        models: &[(0x00, 0x2f), (0x50, 0x5f)],
        name: "zen",
    },
    Core {
        vendor: AMD,
        family: 23,
        models: &[(0x30, 0x4f), (0x60, 0x7f), (0x90, 0x91), (0xa0, 0xaf)],
        name: "zen2",
    },
    Core {
        vendor: AMD,
        family: 25,
        models: &[(0x00, 0x0f), (0x20, 0x5f)],
        name: "zen3",
    },
    Core {
        vendor: AMD,
        family: 25,
        models: &[(0x10, 0x1f), (0x60, 0x7f), (0xa0, 0xaf)],
        name: "zen4",
    },
    // Every family 1Ah core so far is a Zen 5 (the instruction check's table says so too), so a
    // file that recorded only the family is named zen5. When another core shares the family,
    // give it model ranges here: a file without a model then keeps the numbers.
    Core {
        vendor: AMD,
        family: 26,
        models: ALL,
        name: "zen5",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(60, 60), (63, 63), (69, 70)],
        name: "haswell",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(61, 61), (71, 71), (79, 79), (86, 86)],
        name: "broadwell",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(78, 78), (94, 94)],
        name: "skylake",
    },
    // Skylake-SP, Cascade Lake and Cooper Lake are all model 85 (the stepping, recorded, tells
    // them apart): one core, one name.
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(85, 85)],
        name: "skylake-sp",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(165, 166)],
        name: "comet-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(106, 106), (108, 108)],
        name: "icelake-sp",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(125, 126)],
        name: "icelake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(140, 141)],
        name: "tiger-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(167, 167)],
        name: "rocket-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(151, 151), (154, 154)],
        name: "alder-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(183, 183), (186, 186), (191, 191)],
        name: "raptor-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(170, 170), (172, 172)],
        name: "meteor-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(143, 143)],
        name: "sapphire-rapids",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(207, 207)],
        name: "emerald-rapids",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(173, 174)],
        name: "granite-rapids",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(175, 175)],
        name: "sierra-forest",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(189, 189)],
        name: "lunar-lake",
    },
    Core {
        vendor: INTEL_VENDOR,
        family: 6,
        models: &[(197, 198)],
        name: "arrow-lake",
    },
];

/// The short name of the core of this vendor, family and model (`zen3`, `sapphire-rapids`), or
/// none when the table does not know it. An unknown model matches only a family-wide entry.
pub fn microarchitecture(vendor: &str, family: u32, model: Option<u32>) -> Option<&'static str> {
    CORES
        .iter()
        .find(|c| {
            c.vendor == vendor
                && c.family == family
                && (c.models == ALL
                    || model
                        .is_some_and(|m| c.models.iter().any(|(lo, hi)| (*lo..=*hi).contains(&m))))
        })
        .map(|c| c.name)
}

/// The vendor as a machine id starts: `amd`, `intel`, or the `vendor_id` in lower case.
pub fn vendor_short(vendor: &str) -> String {
    match vendor {
        AMD => "amd".into(),
        INTEL_VENDOR => "intel".into(),
        "HygonGenuine" => "hygon".into(),
        "CentaurHauls" | "  Shanghai  " => "zhaoxin".into(),
        other => {
            let s: String = other
                .to_ascii_lowercase()
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            if s.is_empty() { "cpu".into() } else { s }
        }
    }
}

/// Vendor, family and model as an instruction check's width source (`run.clock
/// .sustained_width_source`, or a schema 3 file's `max_ipc_source`) names them, in any shape
/// the bench has written ([`crate::bound`]). None for another text, an unknown vendor or a
/// family of 0 (the bench wrote 0 when it could not read one).
pub fn from_width_source(text: &str) -> Option<(&'static str, u32, Option<u32>)> {
    let number = |s: &str| s.parse::<u32>().ok();
    let vendor = |s: &str| match s {
        AMD => Some(AMD),
        INTEL_VENDOR => Some(INTEL_VENDOR),
        _ => None,
    };
    let found = if let Some(f) = shape_n(WIDTH, text, 5) {
        let v = if f[4] == INTEL {
            INTEL_VENDOR
        } else if [AMD_17H, AMD_19H, AMD_1AH].contains(&f[4]) {
            AMD
        } else {
            return None;
        };
        (v, number(f[1])?, Some(number(f[2])?))
    } else if let Some(f) =
        shape_n(WIDTH_ASSUMED, text, 4).or_else(|| shape_n(OLD_ASSUMED, text, 3))
    {
        (vendor(f[0])?, number(f[1])?, Some(number(f[2])?))
    } else if let Some(f) = shape_n(OLD_AMD, text, 2) {
        (AMD, number(f[0])?, None)
    } else if let Some(f) = shape_n(OLD_SKYLAKE, text, 1).or_else(|| shape_n(OLD_SUNNY, text, 1)) {
        // The bench wrote these two for family 6 only.
        (INTEL_VENDOR, 6, Some(number(f[0])?))
    } else {
        return None;
    };
    (found.1 != 0).then_some(found)
}

/// The clock a run measured by dependent adds, from its clock's source and highest clock
/// (`run.clock.source`, `run.clock.max_ghz`): the highest clock when it is the measured one,
/// the measured one in the text when `/proc/cpuinfo`'s was higher, none when nothing was
/// measured.
pub fn measured_ghz(source: &str, max_ghz: f64) -> Option<f64> {
    if source == CLOCK_MEASURED || shape_n(CLOCK_MEASURED_NOMINAL, source, 1).is_some() {
        return Some(max_ghz);
    }
    shape_n(CLOCK_NOMINAL_FASTER, source, 2).and_then(|f| f[1].parse().ok())
}

/// The facts an older file records without `machine.cpu`: vendor, family and model from its
/// instruction check's width source, the measured clock from its clock. None when its clock
/// names no CPU (no clock, or a text of another shape).
pub fn recover(file: &RunFile) -> Option<CpuFacts> {
    let clock = file.run.clock.as_ref()?;
    let (vendor, family, model) = from_width_source(&clock.sustained_width_source)?;
    let mut facts = CpuFacts::new(
        vendor,
        family,
        model,
        format!(
            "recovered from the file's run.clock, whose core says {:?}",
            clock.sustained_width_source
        ),
    );
    facts.measured_ghz = measured_ghz(&clock.source, clock.max_ghz);
    Some(facts)
}

/// The facts of the CPU that measured `file`: recorded, or else recovered ([`recover`]).
pub fn facts_of(file: &RunFile) -> Option<CpuFacts> {
    file.machine.cpu.clone().or_else(|| recover(file))
}

/// Whether a model string names the part (`AMD EPYC 7B13`, `Intel(R) Xeon(R) Platinum 8375C
/// CPU @ 2.90GHz`) rather than only a brand (`AMD EPYC`, `Intel(R) Xeon(R) Processor`, `Intel(R)
/// Xeon(R) CPU @ 2.20GHz`, `Common KVM processor`, `QEMU Virtual CPU version 2.5+`): some word
/// has a digit, leaving out the clock (`@ 2.20GHz`, `3.1GHz`) and a version.
pub fn names_the_part(cpu_model: &str) -> bool {
    for word in cpu_model.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        if lower == "@" || lower == "version" {
            // The clock or a version follows, then nothing that names a part.
            break;
        }
        if lower.ends_with("ghz") || lower.ends_with("mhz") {
            continue;
        }
        if lower.chars().any(|c| c.is_ascii_digit()) {
            return true;
        }
    }
    false
}

/// What differs between the CPU that measured a file (`there`) and this one (`here`), each as
/// `family 26 in the file, 25 here`; empty when nothing tells them apart. The model string and
/// the core count are compared as written; vendor and family always; model, stepping and
/// microarchitecture where both sides know them. A file that records no facts and whose model
/// string does not name the part cannot be told apart from another CPU of the same brand: that
/// is a difference too.
pub fn differences(
    there: &Machine,
    there_cpu: Option<&CpuFacts>,
    here: &Machine,
    here_cpu: Option<&CpuFacts>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut differ = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{what} {a} in the file, {b} here"));
        }
    };
    differ(
        "model string",
        format!("{:?}", there.cpu_model),
        format!("{:?}", here.cpu_model),
    );
    differ(
        "logical cores",
        there.logical_cores.to_string(),
        here.logical_cores.to_string(),
    );
    match (there_cpu, here_cpu) {
        (Some(a), Some(b)) => {
            differ("vendor", a.vendor.clone(), b.vendor.clone());
            differ("family", a.family.to_string(), b.family.to_string());
            let both = |x: Option<u32>, y: Option<u32>| x.zip(y).map(|(x, y)| (x.to_string(), y.to_string()));
            if let Some((x, y)) = both(a.model, b.model) {
                differ("model", x, y);
            }
            if let Some((x, y)) = both(a.stepping, b.stepping) {
                differ("stepping", x, y);
            }
            if let (Some(x), Some(y)) = (&a.microarchitecture, &b.microarchitecture) {
                differ("microarchitecture", x.clone(), y.clone());
            }
        }
        (None, Some(_)) if !names_the_part(&there.cpu_model) => out.push(format!(
            "the file records no CPU family or model, and its model string {:?} does not name the part, so it may be any {0} CPU",
            there.cpu_model
        )),
        (Some(a), None) => out.push(format!(
            "the file's CPU is {}, and this machine's family and model cannot be read",
            a.describe()
        )),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lab_text::tr::fill;

    #[test]
    fn the_table_names_amd_generations_by_model_range() {
        let name = |f, m| microarchitecture(AMD, f, Some(m));
        assert_eq!(name(23, 0x01), Some("zen"));
        assert_eq!(name(23, 0x08), Some("zen"));
        assert_eq!(name(23, 0x31), Some("zen2"));
        assert_eq!(name(23, 0x71), Some("zen2"));
        // This machine: an AMD EPYC of family 25 model 1 (Milan).
        assert_eq!(name(25, 0x01), Some("zen3"));
        assert_eq!(name(25, 0x21), Some("zen3"));
        assert_eq!(name(25, 0x50), Some("zen3"));
        for m in [0x10, 0x11, 0x61, 0x74, 0xa0, 0xaf] {
            assert_eq!(name(25, m), Some("zen4"), "model {m:#x}");
        }
        assert_eq!(name(25, 0x90), None, "a family 19h model of neither range");
        assert_eq!(name(26, 0x02), Some("zen5"));
        assert_eq!(name(26, 0x44), Some("zen5"));
        // Only a family-wide entry matches an unknown model.
        assert_eq!(microarchitecture(AMD, 26, None), Some("zen5"));
        assert_eq!(microarchitecture(AMD, 25, None), None);
        assert_eq!(name(24, 0), None);
        assert_eq!(microarchitecture(INTEL_VENDOR, 26, Some(2)), None);
    }

    #[test]
    fn the_table_names_intel_cores_by_model() {
        let name = |m| microarchitecture(INTEL_VENDOR, 6, Some(m));
        assert_eq!(name(63), Some("haswell"));
        assert_eq!(name(79), Some("broadwell"));
        assert_eq!(name(85), Some("skylake-sp"));
        assert_eq!(name(106), Some("icelake-sp"));
        assert_eq!(name(108), Some("icelake-sp"));
        assert_eq!(name(143), Some("sapphire-rapids"));
        assert_eq!(name(207), Some("emerald-rapids"));
        assert_eq!(name(173), Some("granite-rapids"));
        assert_eq!(name(167), Some("rocket-lake"));
        assert_eq!(name(183), Some("raptor-lake"));
        // Kaby Lake's model numbers also went to Coffee, Whiskey and Comet Lake parts: no name.
        assert_eq!(name(142), None);
        assert_eq!(name(158), None);
        assert_eq!(microarchitecture(INTEL_VENDOR, 6, None), None);
        assert_eq!(microarchitecture(INTEL_VENDOR, 15, Some(6)), None);
        assert_eq!(microarchitecture(AMD, 6, Some(85)), None);
    }

    #[test]
    fn every_name_is_an_id_part_and_ranges_do_not_overlap() {
        for c in CORES {
            assert!(
                c.name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'),
                "{}",
                c.name
            );
            for d in CORES {
                if std::ptr::eq(c, d) || c.vendor != d.vendor || c.family != d.family {
                    continue;
                }
                for (a, b) in c.models {
                    for (x, y) in d.models {
                        assert!(b < x || y < a, "{} and {} overlap", c.name, d.name);
                    }
                }
            }
        }
    }

    #[test]
    fn vendors_shorten() {
        assert_eq!(vendor_short(AMD), "amd");
        assert_eq!(vendor_short(INTEL_VENDOR), "intel");
        assert_eq!(vendor_short("HygonGenuine"), "hygon");
        assert_eq!(vendor_short("Some Vendor!"), "somevendor");
        assert_eq!(vendor_short("!!"), "cpu");
    }

    #[test]
    fn width_sources_name_vendor_family_and_model() {
        // What the committed Zen 5 files say (schema 3): a family, no model.
        assert_eq!(
            from_width_source("AMD Zen (family 26): retires up to 8 macro-ops per cycle"),
            Some((AMD, 26, None))
        );
        // What the committed Intel files say.
        assert_eq!(
            from_width_source(
                "GenuineIntel family 6 model 167: 8 per cycle assumed (the widest x86 core)"
            ),
            Some((INTEL_VENDOR, 6, Some(167)))
        );
        assert_eq!(
            from_width_source("Intel Skylake-SP class (model 85): retires 4 fused µops per cycle"),
            Some((INTEL_VENDOR, 6, Some(85)))
        );
        assert_eq!(
            from_width_source("Intel Sunny/Willow Cove (model 106): 5 per cycle"),
            Some((INTEL_VENDOR, 6, Some(106)))
        );
        // What the bench writes now (schema 4).
        let zen3 = fill(WIDTH, &[&"AMD Zen 3", &25, &1, &6, &AMD_19H]);
        assert_eq!(from_width_source(&zen3), Some((AMD, 25, Some(1))));
        let golden = fill(
            WIDTH,
            &[&"Intel Golden/Raptor/Redwood Cove", &6, &143, &6, &INTEL],
        );
        assert_eq!(
            from_width_source(&golden),
            Some((INTEL_VENDOR, 6, Some(143)))
        );
        let assumed = fill(WIDTH_ASSUMED, &[&"HygonGenuine", &24, &1, &8]);
        assert_eq!(
            from_width_source(&assumed),
            None,
            "a vendor the table does not know"
        );
        let assumed = fill(WIDTH_ASSUMED, &[&AMD, &27, &3, &8]);
        assert_eq!(from_width_source(&assumed), Some((AMD, 27, Some(3))));
        // What names no CPU.
        let unknown = fill(WIDTH_ASSUMED, &[&"unknown vendor", &0, &0, &8]);
        assert_eq!(from_width_source(&unknown), None);
        let other = fill(WIDTH, &[&"AMD Zen 3", &25, &1, &6, &"a blog"]);
        assert_eq!(from_width_source(&other), None);
        assert_eq!(from_width_source(""), None);
        assert_eq!(
            from_width_source("AMD Zen (family x): retires up to 8 macro-ops per cycle"),
            None
        );
    }

    #[test]
    fn the_measured_clock_is_read_from_the_clock_source() {
        let nominal =
            "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.60 GHz";
        assert_eq!(measured_ghz(nominal, 3.89), Some(3.89));
        assert_eq!(measured_ghz(CLOCK_MEASURED, 3.5), Some(3.5));
        let faster = fill(CLOCK_NOMINAL_FASTER, &[&"3.50", &"3.21"]);
        assert_eq!(measured_ghz(&faster, 3.5), Some(3.21));
        assert_eq!(measured_ghz("/proc/cpuinfo's cpu MHz", 2.6), None);
        assert_eq!(measured_ghz("unknown: 5 GHz assumed", 5.0), None);
    }

    #[test]
    fn model_strings_that_name_the_part() {
        for named in [
            "AMD EPYC 7B13",
            "AMD EPYC 9R14 96-Core Processor",
            "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
            "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz",
            "AMD Ryzen 9 7950X 16-Core Processor",
        ] {
            assert!(names_the_part(named), "{named}");
        }
        for generic in [
            "AMD EPYC",
            "AMD EPYC Processor",
            "AMD EPYC-Rome Processor",
            "Intel(R) Xeon(R) Processor",
            "Intel(R) Xeon(R) CPU @ 2.20GHz",
            "Intel Xeon Processor (Icelake)",
            "Common KVM processor",
            "QEMU Virtual CPU version 2.5+",
            "unknown",
            "",
        ] {
            assert!(!names_the_part(generic), "{generic}");
        }
    }

    fn machine(cpu_model: &str, cores: u32) -> Machine {
        let mut m = crate::tests::sample().machine;
        m.cpu_model = cpu_model.into();
        m.logical_cores = cores;
        m
    }

    #[test]
    fn differences_name_what_tells_two_cpus_apart() {
        let m = machine("AMD EPYC", 2);
        let zen5 = CpuFacts::new(AMD, 26, None, "recovered".into());
        let mut zen3 = CpuFacts::new(AMD, 25, Some(1), "/proc/cpuinfo".into());
        zen3.stepping = Some(1);
        let d = differences(&m, Some(&zen5), &m, Some(&zen3));
        assert_eq!(
            d,
            [
                "family 26 in the file, 25 here",
                "microarchitecture zen5 in the file, zen3 here"
            ]
        );
        // The same CPU: a model known on one side only is no difference.
        assert!(differences(&m, Some(&zen3), &m, Some(&zen3)).is_empty());
        let mut milan = zen3.clone();
        milan.model = None;
        assert!(differences(&m, Some(&milan), &m, Some(&zen3)).is_empty());
        // Another model, stepping or core count is.
        let mut vermeer = zen3.clone();
        vermeer.model = Some(0x21);
        assert_eq!(
            differences(&m, Some(&vermeer), &m, Some(&zen3)),
            ["model 33 in the file, 1 here"]
        );
        let mut b2 = zen3.clone();
        b2.stepping = Some(2);
        assert_eq!(
            differences(&m, Some(&b2), &m, Some(&zen3)),
            ["stepping 2 in the file, 1 here"]
        );
        assert_eq!(
            differences(&machine("AMD EPYC", 4), Some(&zen3), &m, Some(&zen3)),
            ["logical cores 4 in the file, 2 here"]
        );
        // A file without facts: a generic brand could be any CPU; a named part is itself.
        let d = differences(&m, None, &m, Some(&zen3));
        assert_eq!(d.len(), 1);
        assert!(d[0].contains("no CPU family or model"), "{d:?}");
        let named = machine("AMD EPYC 7B13", 2);
        assert!(differences(&named, None, &named, Some(&zen3)).is_empty());
        assert!(differences(&m, None, &m, None).is_empty());
        let d = differences(&m, Some(&zen3), &m, None);
        assert!(d[0].contains("cannot be read"), "{d:?}");
        let intel = machine("Intel(R) Xeon(R) Processor", 2);
        let d = differences(&intel, None, &m, None);
        assert_eq!(
            d,
            [r#"model string "Intel(R) Xeon(R) Processor" in the file, "AMD EPYC" here"#]
        );
    }

    #[test]
    fn facts_are_recovered_from_an_older_file() {
        let mut f = crate::tests::sample();
        assert_eq!(recover(&f), None, "no clock");
        f.run.clock = Some(crate::Clock {
            max_ghz: 3.8876621155102167,
            source:
                "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.60 GHz"
                    .into(),
            sustained_width: 8.0,
            sustained_width_source: "AMD Zen (family 26): retires up to 8 macro-ops per cycle"
                .into(),
            fusion: None,
        });
        let r = recover(&f).unwrap();
        assert_eq!((r.vendor.as_str(), r.family, r.model), (AMD, 26, None));
        assert_eq!(r.microarchitecture.as_deref(), Some("zen5"));
        assert_eq!(r.measured_ghz, Some(3.8876621155102167));
        assert_eq!(r.flags, None);
        assert!(r.source.contains("family 26"), "{}", r.source);
        assert_eq!(r.describe(), "AuthenticAMD family 26 (zen5)");
        assert_eq!(facts_of(&f), Some(r));
        // Recorded facts win.
        let recorded = CpuFacts::new(AMD, 25, Some(1), "/proc/cpuinfo".into());
        f.machine.cpu = Some(recorded.clone());
        assert_eq!(facts_of(&f), Some(recorded));
    }
}
