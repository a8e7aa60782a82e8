//! Machine facts for a data file, read from std, `/proc` and `/sys` (no sysinfo: its API churns
//! and it pins rustc versions). A fact that cannot be read is recorded as `unknown` (or left
//! out), never guessed.
//!
//! The CPU's facts (`bench_data::cpu`) come from `/proc/cpuinfo`'s first processor (vendor,
//! family, model, stepping, the flags of `bench_data::cpu::FLAGS`) and from
//! `/sys/devices/system/cpu/cpu0/cache/index*/` (level, type, size); the machine id names the
//! CPU by them when its model string does not ([`machine_id`]).

use std::path::Path;
use std::process::Command;

use bench_data::Machine;
use bench_data::cpu::{self, CpuFacts};

const UNKNOWN: &str = "unknown";

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

fn command(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

pub fn logical_cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// `/proc/cpuinfo`'s first `model name`.
pub fn parse_cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The first processor's vendor, family, model, stepping and the flags of
/// [`cpu::FLAGS`] it has, from `/proc/cpuinfo`'s text; none without a `vendor_id` and a
/// `cpu family` (not an x86 core, or not Linux's format).
pub fn parse_cpu_facts(cpuinfo: &str) -> Option<CpuFacts> {
    let first = cpuinfo.split("\n\n").next().unwrap_or("");
    let field = |name: &str| {
        first
            .lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim())
    };
    let number = |name: &str| field(name).and_then(|v| v.parse::<u32>().ok());
    let vendor = field("vendor_id").filter(|v| !v.is_empty())?;
    let family = number("cpu family")?;
    let mut facts = CpuFacts::new(vendor, family, number("model"), CPU_SOURCE.into());
    facts.stepping = number("stepping");
    let has: Vec<&str> = field("flags").unwrap_or("").split_whitespace().collect();
    facts.flags = Some(
        cpu::FLAGS
            .iter()
            .filter(|f| has.contains(f))
            .map(|f| f.to_string())
            .collect(),
    );
    Some(facts)
}

/// Where a machine's CPU facts come from.
const CPU_SOURCE: &str =
    "/proc/cpuinfo (the first processor) and /sys/devices/system/cpu/cpu0/cache";

/// A cache's `size` in sysfs (`32K`, `32768K`, `1M`, or bytes), in bytes.
pub fn parse_cache_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale: u64 = match unit.trim() {
        "" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// The level 1 data, level 2 and level 3 cache sizes of a core, from its caches' `level`,
/// `type` and `size` as sysfs writes them (`1`, `Data`, `32K`); the first of each kind counts.
pub fn cache_sizes<'a>(
    caches: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> [Option<u64>; 3] {
    let mut out = [None; 3];
    for (level, kind, size) in caches {
        let slot = match (level.trim(), kind.trim()) {
            ("1", "Data") => 0,
            ("2", "Unified" | "Data") => 1,
            ("3", "Unified" | "Data") => 2,
            _ => continue,
        };
        if out[slot].is_none() {
            out[slot] = parse_cache_size(size);
        }
    }
    out
}

/// This machine's CPU facts (no measured clock yet: the run adds it when it measures one).
pub fn cpu_facts() -> Option<CpuFacts> {
    let mut facts = read("/proc/cpuinfo").and_then(|t| parse_cpu_facts(&t))?;
    let dir = Path::new("/sys/devices/system/cpu/cpu0/cache");
    let mut caches = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let file = |name: &str| std::fs::read_to_string(entry.path().join(name)).ok();
        if let (Some(level), Some(kind), Some(size)) = (file("level"), file("type"), file("size")) {
            caches.push((entry.file_name(), level, kind, size));
        }
    }
    // index0, index1, …: the order sysfs numbers them.
    caches.sort_by(|a, b| a.0.cmp(&b.0));
    let [l1d, l2, l3] = cache_sizes(
        caches
            .iter()
            .map(|(_, l, k, s)| (l.as_str(), k.as_str(), s.as_str())),
    );
    (facts.l1d_bytes, facts.l2_bytes, facts.l3_bytes) = (l1d, l2, l3);
    Some(facts)
}

/// `/proc/meminfo`'s `MemTotal`, in bytes.
pub fn parse_mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `/etc/os-release`'s `PRETTY_NAME`.
pub fn parse_os_release(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_string())
}

/// `ldd --version`'s first line, as `glibc 2.36` when it is glibc.
pub fn parse_ldd_version(first_line: &str) -> String {
    match first_line.rsplit_once(' ') {
        Some((name, version)) if name.contains("GLIBC") || name.contains("GNU libc") => {
            format!("glibc {version}")
        }
        _ => first_line.to_string(),
    }
}

/// `/proc/loadavg`'s three averages (zeros for fields that are missing or not numbers).
pub fn parse_loadavg(text: &str) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (slot, field) in out.iter_mut().zip(text.split_whitespace()) {
        *slot = field.parse().unwrap_or(0.0);
    }
    out
}

fn cpu_model() -> String {
    read("/proc/cpuinfo")
        .and_then(|t| parse_cpu_model(&t))
        .unwrap_or_else(|| UNKNOWN.into())
}

fn memory_bytes() -> u64 {
    read("/proc/meminfo")
        .and_then(|t| parse_mem_total(&t))
        .unwrap_or(0)
}

fn os() -> String {
    read("/etc/os-release")
        .and_then(|t| parse_os_release(&t))
        .unwrap_or_else(|| std::env::consts::OS.into())
}

fn libc() -> String {
    command("ldd", &["--version"])
        .and_then(|s| s.lines().next().map(parse_ldd_version))
        .unwrap_or_else(|| UNKNOWN.into())
}

/// A stable id for one kind of machine, as a file stem: its CPU and logical core count. When the
/// model string names the part (`AMD EPYC 7B13` → `amd-epyc-7b13-2c`) it is the model string's
/// slug, as it always was; when it is only a brand (`AMD EPYC`, `Intel(R) Xeon(R) Processor`,
/// as cloud machines say), it is the vendor and the microarchitecture (`amd-zen3-2c`), or, for a
/// core the table does not name, vendor, family and model (`amd-f25m144-2c`; `amd-f25-2c` when
/// only the family is known), so two cores of one brand get two files.
pub fn machine_id(cpu_model: &str, cores: u32, cpu: Option<&CpuFacts>) -> String {
    match cpu {
        Some(c) if !cpu::names_the_part(cpu_model) => {
            let core = match (&c.microarchitecture, c.model) {
                (Some(name), _) => name.clone(),
                (None, Some(m)) => format!("f{}m{m}", c.family),
                (None, None) => format!("f{}", c.family),
            };
            format!("{}-{core}-{cores}c", cpu::vendor_short(&c.vendor))
        }
        _ => legacy_id(cpu_model, cores),
    }
}

/// The id the bench gave every machine before issue 41: the model string's slug and the core
/// count. Still the id of a machine whose model string names the part; `migrate-ids` renames a
/// file only when its id is this one.
pub fn legacy_id(cpu_model: &str, cores: u32) -> String {
    let mut slug = String::new();
    for c in cpu_model.to_ascii_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug: String = slug
        .split('-')
        .filter(|w| {
            !matches!(
                *w,
                "" | "r" | "tm" | "cpu" | "processor" | "with" | "radeon" | "graphics"
            )
        })
        .collect::<Vec<_>>()
        .join("-");
    let slug = if slug.is_empty() {
        "unknown-cpu".to_string()
    } else {
        slug
    };
    format!("{slug}-{cores}c")
}

pub fn machine(id_override: Option<&str>) -> Machine {
    let cpu_model = cpu_model();
    let logical_cores = logical_cores();
    let cpu = cpu_facts();
    Machine {
        id: id_override.map_or_else(
            || machine_id(&cpu_model, logical_cores, cpu.as_ref()),
            str::to_string,
        ),
        cpu_model,
        logical_cores,
        memory_bytes: memory_bytes(),
        os: os(),
        kernel: read("/proc/sys/kernel/osrelease")
            .map_or_else(|| UNKNOWN.into(), |s| s.trim().into()),
        libc: libc(),
        cpu,
    }
}

/// `/proc/loadavg`'s three averages (zeros where unavailable).
pub fn load_average() -> [f64; 3] {
    read("/proc/loadavg").map_or([0.0; 3], |t| parse_loadavg(&t))
}

/// The commit the bench was built from, `-dirty` when the tree has uncommitted changes.
pub fn commit() -> String {
    let Some(head) = command("git", &["rev-parse", "HEAD"]) else {
        return UNKNOWN.into();
    };
    let dirty = command("git", &["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty());
    if dirty { format!("{head}-dirty") } else { head }
}

/// Now, as RFC 3339 UTC, without a date crate.
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(vendor: &str, family: u32, model: Option<u32>) -> CpuFacts {
        CpuFacts::new(vendor, family, model, "test".into())
    }

    #[test]
    fn ids_are_file_stems() {
        let zen3 = facts(cpu::AMD, 25, Some(1));
        // A model string that names the part keeps its slug, whatever the facts.
        assert_eq!(
            machine_id("AMD EPYC 7B13", 2, Some(&zen3)),
            "amd-epyc-7b13-2c"
        );
        assert_eq!(machine_id("AMD EPYC 7B13", 2, None), "amd-epyc-7b13-2c");
        assert_eq!(
            machine_id(
                "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
                4,
                Some(&facts(cpu::INTEL_VENDOR, 6, Some(106)))
            ),
            "intel-xeon-platinum-8375c-2-90ghz-4c"
        );
        assert_eq!(machine_id("", 1, None), "unknown-cpu-1c");
        assert_eq!(
            legacy_id("Intel(R) Xeon(R) CPU @ 2.20GHz", 8),
            "intel-xeon-2-20ghz-8c"
        );
    }

    /// Issue 41: a Zen 3 and a Zen 5 core both say `AMD EPYC`; they get two ids.
    #[test]
    fn a_generic_model_string_is_named_by_its_core() {
        let zen3 = facts(cpu::AMD, 25, Some(1));
        let zen5 = facts(cpu::AMD, 26, Some(2));
        assert_eq!(machine_id("AMD EPYC", 2, Some(&zen3)), "amd-zen3-2c");
        assert_eq!(machine_id("AMD EPYC", 2, Some(&zen5)), "amd-zen5-2c");
        assert_eq!(
            machine_id("AMD EPYC", 2, Some(&facts(cpu::AMD, 26, None))),
            "amd-zen5-2c"
        );
        let rocket = facts(cpu::INTEL_VENDOR, 6, Some(167));
        assert_eq!(
            machine_id("Intel(R) Xeon(R) Processor", 2, Some(&rocket)),
            "intel-rocket-lake-2c"
        );
        let cascade = facts(cpu::INTEL_VENDOR, 6, Some(85));
        assert_eq!(
            machine_id("Intel(R) Xeon(R) CPU @ 2.20GHz", 8, Some(&cascade)),
            "intel-skylake-sp-8c"
        );
        // A core the table does not name: the numbers.
        assert_eq!(
            machine_id("AMD EPYC", 2, Some(&facts(cpu::AMD, 25, Some(0x90)))),
            "amd-f25m144-2c"
        );
        assert_eq!(
            machine_id("AMD EPYC", 2, Some(&facts(cpu::AMD, 25, None))),
            "amd-f25-2c"
        );
        assert_eq!(
            machine_id(
                "Common KVM processor",
                4,
                Some(&facts("HygonGenuine", 24, Some(2)))
            ),
            "hygon-f24m2-4c"
        );
        // No facts (not x86, or /proc unreadable): the slug, as before.
        assert_eq!(machine_id("AMD EPYC", 2, None), "amd-epyc-2c");
    }

    /// What this machine's `/proc/cpuinfo` says (two processors; the first is read).
    const CPUINFO: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\nstepping\t: 1\nmicrocode\t: 0x1000065\ncpu MHz\t\t: 2445.418\nflags\t\t: fpu vme sse2 ht syscall nx hypervisor lahf_lm abm bmi1 avx2 smep bmi2 erms invpcid vaes rdpid fsrm\nbogomips\t: 4890.83\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n";

    #[test]
    fn cpu_facts_are_read_from_cpuinfo() {
        let f = parse_cpu_facts(CPUINFO).unwrap();
        assert_eq!(f.vendor, "AuthenticAMD");
        assert_eq!((f.family, f.model, f.stepping), (25, Some(1), Some(1)));
        assert_eq!(f.microarchitecture.as_deref(), Some("zen3"));
        assert_eq!(
            f.flags.as_deref(),
            Some(&["avx2", "bmi2", "erms", "fsrm", "hypervisor"].map(String::from)[..])
        );
        assert_eq!(f.measured_ghz, None);
        assert_eq!(
            f.describe(),
            "AuthenticAMD family 25 model 1 stepping 1 (zen3)"
        );
        // `model name` is not `model`.
        let no_model = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel name\t: Intel(R) Xeon(R) Processor\n";
        let f = parse_cpu_facts(no_model).unwrap();
        assert_eq!(
            (f.model, f.stepping, f.microarchitecture),
            (None, None, None)
        );
        assert_eq!(f.flags, Some(Vec::new()));
        // An arm64 cpuinfo has neither a vendor_id nor a cpu family.
        let arm = "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
        assert_eq!(parse_cpu_facts(arm), None);
        assert_eq!(
            parse_cpu_facts("vendor_id\t: AuthenticAMD\ncpu family\t: x\n"),
            None
        );
    }

    #[test]
    fn cache_sizes_are_read_from_sysfs() {
        assert_eq!(parse_cache_size("32K\n"), Some(32 << 10));
        assert_eq!(parse_cache_size("32768K"), Some(32 << 20));
        assert_eq!(parse_cache_size("1M"), Some(1 << 20));
        assert_eq!(parse_cache_size("4096"), Some(4096));
        assert_eq!(parse_cache_size("lots"), None);
        assert_eq!(parse_cache_size("12Q"), None);
        // This machine's cpu0: index0 to index3.
        let caches = [
            ("1\n", "Data\n", "32K\n"),
            ("1", "Instruction", "32K"),
            ("2", "Unified", "512K"),
            ("3", "Unified", "32768K"),
        ];
        assert_eq!(
            cache_sizes(caches),
            [Some(32 << 10), Some(512 << 10), Some(32 << 20)]
        );
        assert_eq!(cache_sizes([("1", "Instruction", "64K")]), [None; 3]);
    }

    #[test]
    fn proc_parsers() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n";
        assert_eq!(parse_cpu_model(cpuinfo).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(parse_cpu_model("processor: 0\n"), None);
        assert_eq!(parse_cpu_model("model name\t:   \n"), None);
        let meminfo = "MemTotal:       24683652 kB\nMemFree:         1000 kB\n";
        assert_eq!(parse_mem_total(meminfo), Some(24_683_652 * 1024));
        assert_eq!(parse_mem_total("MemTotal: lots kB\n"), None);
        assert_eq!(
            parse_loadavg("2.32 2.74 1.78 3/412 9999\n"),
            [2.32, 2.74, 1.78]
        );
        assert_eq!(parse_loadavg("0.5 x\n"), [0.5, 0.0, 0.0]);
        assert_eq!(parse_loadavg(""), [0.0; 3]);
        let os = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n";
        assert_eq!(
            parse_os_release(os).as_deref(),
            Some("Debian GNU/Linux 12 (bookworm)")
        );
        assert_eq!(
            parse_ldd_version("ldd (Debian GLIBC 2.36-9+deb12u13) 2.36"),
            "glibc 2.36"
        );
        assert_eq!(
            parse_ldd_version("musl libc (x86_64)"),
            "musl libc (x86_64)"
        );
    }

    /// This machine's facts read as the bench reads them (what they are depends on the machine).
    #[test]
    fn this_machine_is_read() {
        let m = machine(None);
        eprintln!("this machine: {} {:?}", m.id, m.cpu);
        assert!(
            m.id.ends_with(&format!("-{}c", m.logical_cores)),
            "{}",
            m.id
        );
        if let Some(c) = &m.cpu {
            assert!(c.flags.is_some());
            assert_eq!(m.id, machine_id(&m.cpu_model, m.logical_cores, Some(c)));
        }
    }

    #[test]
    fn dates_are_rfc3339() {
        let d = now_rfc3339();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'), "{d}");
    }
}
