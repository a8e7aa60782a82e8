//! Machine facts for a data file, read from std and `/proc` (no sysinfo: its API churns and it
//! pins rustc versions). A fact that cannot be read is recorded as `unknown`, never guessed.

use std::process::Command;

use bench_data::Machine;

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

/// A stable id for one kind of machine: its CPU model and logical core count, as a file stem.
pub fn machine_id(cpu_model: &str, cores: u32) -> String {
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
    Machine {
        id: id_override.map_or_else(|| machine_id(&cpu_model, logical_cores), str::to_string),
        cpu_model,
        logical_cores,
        memory_bytes: memory_bytes(),
        os: os(),
        kernel: read("/proc/sys/kernel/osrelease")
            .map_or_else(|| UNKNOWN.into(), |s| s.trim().into()),
        libc: libc(),
        cpu: None,
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

    #[test]
    fn ids_are_file_stems() {
        assert_eq!(machine_id("AMD EPYC 7B13", 2), "amd-epyc-7b13-2c");
        assert_eq!(
            machine_id("Intel(R) Xeon(R) CPU @ 2.20GHz", 8),
            "intel-xeon-2-20ghz-8c"
        );
        assert_eq!(machine_id("", 1), "unknown-cpu-1c");
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

    #[test]
    fn dates_are_rfc3339() {
        let d = now_rfc3339();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'), "{d}");
    }
}
