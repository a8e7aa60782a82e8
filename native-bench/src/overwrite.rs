//! Never overwrite another CPU's file (issue 41). A data file holds one machine's figures; before
//! the bench writes `<machine-id>[.<runtime>].json`, a file of that name must be of this CPU:
//! the same model string and core count, and no difference in vendor, family, model, stepping or
//! microarchitecture (`bench_data::cpu::differences`). A file written before `machine.cpu` is
//! judged by what can be recovered from it (`bench_data::cpu::recover`). Checked before
//! measuring, so a refusal costs nothing, and again just before writing.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use bench_data::cpu::{self, CpuFacts};
use bench_data::{Machine, RunFile};

/// Whether this machine's run may be written to `path`: yes when there is no file or the file's
/// machine is this CPU; otherwise an error saying what differs and what to do.
pub fn check(path: &Path, here: &Machine) -> Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => bail!(
            "cannot read {} to check which CPU measured it: {e}",
            path.display()
        ),
    };
    let (there, there_cpu) = machine_of(&text).map_err(|e| {
        anyhow!(
            "{} exists and cannot be read ({e}), so the bench cannot tell which CPU measured it \
             and will not overwrite it. {}",
            path.display(),
            WHAT_TO_DO
        )
    })?;
    let differ = cpu::differences(&there, there_cpu.as_ref(), here, here.cpu.as_ref());
    if differ.is_empty() {
        return Ok(());
    }
    let describe = |m: &Machine, c: Option<&CpuFacts>| {
        format!(
            "{:?}, {} logical cores, {}",
            m.cpu_model,
            m.logical_cores,
            c.map_or_else(|| "family and model unknown".into(), CpuFacts::describe)
        )
    };
    bail!(
        "refusing to overwrite {}: its figures were measured on another CPU ({}), and this \
         machine is {} ({}). Each CPU keeps its own file. {}",
        path.display(),
        describe(&there, there_cpu.as_ref()),
        describe(here, here.cpu.as_ref()),
        differ.join("; "),
        WHAT_TO_DO
    )
}

const WHAT_TO_DO: &str = "Write this run elsewhere with --out DIR (e.g. --out /tmp/bench-try), or \
     give this machine its own name with --machine-id ID (both are options of `cargo xtask bench` \
     and of `native-bench run` and `wasm32`); if the file is this machine's after all, move it \
     away first";

/// The machine of a data file's text and its CPU facts (recorded or recovered). A file the
/// strict loader refuses (an older schema, a bad figure) is still read for its machine: what is
/// at stake here is whose figures would be lost, not whether the book can cite them.
fn machine_of(text: &str) -> Result<(Machine, Option<CpuFacts>), String> {
    if let Ok(file) = RunFile::parse(text) {
        let facts = cpu::facts_of(&file);
        return Ok((file.machine, facts));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
    let machine: Machine =
        serde_json::from_value(value.get("machine").cloned().ok_or("no machine")?)
            .map_err(|e| format!("field `machine`: {e}"))?;
    let clock = &value["run"]["clock"];
    let width = clock["sustained_width_source"]
        .as_str()
        .or_else(|| clock["max_ipc_source"].as_str());
    let facts = machine.cpu.clone().or_else(|| {
        let (vendor, family, model) = cpu::from_width_source(width?)?;
        Some(CpuFacts::new(
            vendor,
            family,
            model,
            "recovered from the file's run.clock".into(),
        ))
    });
    Ok((machine, facts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A data file of `machine` with the clock the committed Zen 5 files have.
    fn zen5_file(machine: Machine) -> String {
        format!(
            r#"{{"schema_version": 3,
            "machine": {machine},
            "run": {{"date": "2026-12-02T15:45:52Z", "rustc": "r", "commit": "c",
                "allocator": "a", "mode": "full", "load_before": [0, 0, 0],
                "load_after": [0, 0, 0], "duration_seconds": 1,
                "clock": {{"max_ghz": 3.8876621155102167,
                    "source": "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.60 GHz",
                    "max_ipc": 8.0,
                    "max_ipc_source": "AMD Zen (family 26): retires up to 8 macro-ops per cycle"}}}},
            "figures": {{}}}}"#,
            machine = serde_json::to_string(&machine).unwrap()
        )
    }

    fn epyc(id: &str, cpu: Option<CpuFacts>) -> Machine {
        Machine {
            id: id.into(),
            cpu_model: "AMD EPYC".into(),
            logical_cores: 2,
            memory_bytes: 25_275_990_016,
            os: "Debian GNU/Linux 12 (bookworm)".into(),
            kernel: "6.18.44-fc-v1045".into(),
            libc: "glibc 2.36".into(),
            cpu,
        }
    }

    fn zen3() -> CpuFacts {
        let mut c = CpuFacts::new(cpu::AMD, 25, Some(1), "/proc/cpuinfo".into());
        c.stepping = Some(1);
        c
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("nb-overwrite-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Issue 41: a Zen 3 machine named `amd-epyc-2c` (by `--machine-id`, or by the bench before
    /// the fix) must not overwrite the Zen 5 file of that name, and the bench's own write path
    /// refuses it, leaving the file as it was.
    #[test]
    fn another_cpus_file_is_never_overwritten() {
        let dir = temp("refuse");
        let path = dir.join("amd-epyc-2c.json");
        let theirs = zen5_file(epyc("amd-epyc-2c", None));
        std::fs::write(&path, &theirs).unwrap();
        let here = epyc("amd-epyc-2c", Some(zen3()));
        let err = check(&path, &here).unwrap_err().to_string();
        for says in [
            "refusing to overwrite",
            "AuthenticAMD family 26 (zen5)",
            "AuthenticAMD family 25 model 1 stepping 1 (zen3)",
            "family 26 in the file, 25 here",
            "--out DIR",
            "--machine-id ID",
        ] {
            assert!(err.contains(says), "{err}\ndoes not say {says:?}");
        }
        // The write itself refuses, and the Zen 5 file is untouched.
        let mut run = crate::tests::sample_file();
        run.machine = here;
        let err = crate::measure::write(&run, &path).unwrap_err().to_string();
        assert!(err.contains("refusing to overwrite"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn this_cpus_file_and_a_new_file_are_written() {
        let dir = temp("allow");
        let path = dir.join("amd-zen3-2c.json");
        let here = epyc("amd-zen3-2c", Some(zen3()));
        // No file yet.
        assert!(check(&path, &here).is_ok());
        let mut run = crate::tests::sample_file();
        run.machine = here.clone();
        crate::measure::write(&run, &path).unwrap();
        // Its own file: rerunning replaces it, also when the measured clock differs.
        let mut again = here.clone();
        again.cpu.as_mut().unwrap().measured_ghz = Some(3.5);
        check(&path, &again).unwrap();
        // A Zen 5 file recorded with its facts is another CPU's.
        let mut zen5 = CpuFacts::new(cpu::AMD, 26, Some(2), "/proc/cpuinfo".into());
        zen5.stepping = Some(1);
        let mut theirs = run.clone();
        theirs.machine.cpu = Some(zen5);
        std::fs::write(&path, theirs.to_json()).unwrap();
        let err = check(&path, &here).unwrap_err().to_string();
        assert!(
            err.contains("microarchitecture zen5 in the file, zen3 here"),
            "{err}"
        );
        // A file nothing can be recovered from, of a brand that names no part: refused.
        std::fs::write(
            &path,
            zen5_file(epyc("amd-zen3-2c", None)).replace("family 26", "family x"),
        )
        .unwrap();
        let err = check(&path, &here).unwrap_err().to_string();
        assert!(err.contains("no CPU family or model"), "{err}");
        // Not a data file at all: refused too, since nobody can say whose it was.
        std::fs::write(&path, "{").unwrap();
        let err = check(&path, &here).unwrap_err().to_string();
        assert!(err.contains("cannot be read"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
