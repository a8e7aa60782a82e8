use super::*;

pub(crate) fn sample() -> RunFile {
    let mut figures = BTreeMap::new();
    figures.insert(
        "spine.pool_ns".to_string(),
        Figure {
            title: "rent+return".into(),
            unit: Unit::Nanoseconds,
            value: 10.0,
            low: 9.5,
            high: 10.5,
            samples: 100,
            cv: 0.02,
            cv_plain: 0.03,
            verdict: Verdict::Absolute,
            gate_note: "noise 2.0 %".into(),
            repeats: Vec::new(),
            instructions: None,
        },
    );
    RunFile {
        schema_version: SCHEMA_VERSION,
        machine: Machine {
            id: "test-cpu-2c".into(),
            cpu_model: "Test CPU".into(),
            logical_cores: 2,
            memory_bytes: 1 << 30,
            os: "Linux".into(),
            kernel: "6.1".into(),
            libc: "glibc 2.36".into(),
            cpu: None,
        },
        run: Run {
            date: "2026-11-30T12:00:00Z".into(),
            rustc: "rustc 1.95.0".into(),
            commit: "abc".into(),
            allocator: "system".into(),
            mode: "full".into(),
            load_before: [0.1, 0.1, 0.1],
            load_after: [0.2, 0.1, 0.1],
            duration_seconds: 1.0,
            fingerprint: Some("fnv1a64:0000000000000001".into()),
            runtime: "system".into(),
            repetitions: 1,
            clock: None,
        },
        figures,
        listings: BTreeMap::new(),
    }
}

#[track_caller]
fn refused(text: &str, says: &str) {
    let e = RunFile::parse(text).expect_err("accepted bad data");
    assert!(e.contains(says), "{e:?} does not say {says:?}");
}

#[test]
fn round_trips() {
    let f = sample();
    assert_eq!(RunFile::parse(&f.to_json()).unwrap(), f);
}

#[test]
fn truncated_file_is_refused() {
    let text = sample().to_json();
    refused(&text[..text.len() / 2], "not valid JSON");
}

#[test]
fn missing_field_is_named() {
    let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    v["figures"]["spine.pool_ns"]
        .as_object_mut()
        .unwrap()
        .remove("cv");
    refused(&v.to_string(), "figures.spine.pool_ns");
    refused(&v.to_string(), "missing field `cv`");
    let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    v["machine"]["logical_cores"] = serde_json::json!("two");
    refused(&v.to_string(), "field `machine.logical_cores`");
}

#[test]
fn schema_versions_are_checked() {
    let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    v["schema_version"] = serde_json::json!(SCHEMA_VERSION + 1);
    refused(&v.to_string(), "newer than this book understands");
    v["schema_version"] = serde_json::json!(0);
    refused(&v.to_string(), "rerun `cargo xtask bench`");
    // Version 1 gated on the plain CV: its verdicts mean something else, so it is not read.
    v["schema_version"] = serde_json::json!(1);
    refused(&v.to_string(), "this book reads versions 2 to 4");
    v.as_object_mut().unwrap().remove("schema_version");
    refused(&v.to_string(), "missing field `schema_version`");
}

#[test]
fn verdict_above_the_gate_is_refused() {
    let mut f = sample();
    f.figures.get_mut("spine.pool_ns").unwrap().cv = 0.5;
    refused(&f.to_json(), "noise gate allows at most Unfit");
    let mut f = sample();
    f.run.load_before = [3.0, 3.0, 3.0];
    refused(&f.to_json(), "allows at most RatioOnly");
}

#[test]
fn value_outside_its_interval_is_refused() {
    let mut f = sample();
    f.figures.get_mut("spine.pool_ns").unwrap().value = 11.0;
    refused(&f.to_json(), "outside its interval");
}

#[test]
fn directory_files_must_match_their_machine() {
    let dir = std::env::temp_dir().join(format!("bench-data-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("other-machine.json"), sample().to_json()).unwrap();
    let e = load_dir(&dir).unwrap_err();
    assert!(e.to_string().contains("other-machine.json"), "{e}");
    std::fs::remove_file(dir.join("other-machine.json")).unwrap();
    std::fs::write(dir.join("test-cpu-2c.json"), sample().to_json()).unwrap();
    assert_eq!(load_dir(&dir).unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A schema 2 file (no fingerprint, runtime or repetitions) is read as it is: older code.
#[test]
fn schema_2_files_still_load_as_older_code() {
    let mut v: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
    v["schema_version"] = serde_json::json!(2);
    let run = v["run"].as_object_mut().unwrap();
    for field in ["fingerprint", "runtime", "repetitions"] {
        run.remove(field);
    }
    let f = RunFile::parse(&v.to_string()).unwrap();
    assert_eq!(f.run.fingerprint, None);
    assert_eq!(f.run.runtime, SYSTEM_RUNTIME);
    assert_eq!(f.run.repetitions, 1);
    assert_eq!(f.stem(), "test-cpu-2c");
}

/// The committed data of this book loads.
#[test]
fn the_committed_data_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/data");
    assert!(!load_dir(&dir).unwrap().is_empty());
}

/// Numbers read back exactly as written, so a data file survives a read and a write unchanged
/// (`serde_json`'s `float_roundtrip`; found by fuzzing `bench_data`).
#[test]
fn figures_round_trip_to_the_last_digit() {
    let mut file = sample();
    let f = file.figures.values_mut().next().unwrap();
    f.cv = 0.019955351812099477;
    f.cv_plain = 0.019955351812099477;
    let again = RunFile::parse(&file.to_json()).unwrap();
    assert_eq!(again, file);
    assert_eq!(RunFile::parse(&again.to_json()).unwrap(), file);
}

fn hot(f: &mut RunFile, per_iteration: f64, macro_ops: Option<f64>) {
    f.run.clock = Some(Clock {
        max_ghz: 4.0,
        source: bound::CLOCK_MEASURED.into(),
        sustained_width: 6.0,
        sustained_width_source: "a core".into(),
        fusion: Some(bound::FUSION_CMP_TEST.into()),
    });
    let fig = f.figures.get_mut("spine.pool_ns").unwrap();
    (fig.value, fig.low, fig.high) = (1.0, 0.95, 1.05);
    fig.instructions = Some(Instructions {
        per_iteration,
        implied_ipc: per_iteration / 4.0,
        macro_ops_per_iteration: macro_ops,
        implied_mops_per_cycle: macro_ops.map(|m| m / 4.0),
    });
}

/// The bound is the sustained width, checked with macro-ops when counted: 28 instructions in
/// 1 ns at 4 GHz are 7 per cycle, over 6; their 23 macro-ops are 5.75, under it.
#[test]
fn the_bound_is_checked_with_macro_ops() {
    let mut f = sample();
    hot(&mut f, 28.0, Some(23.0));
    let again = RunFile::parse(&f.to_json()).unwrap();
    assert_eq!(again, f);
    let fig = &again.figures["spine.pool_ns"];
    assert_eq!(fig.implied_rate(again.run.clock.as_ref()), Some(5.75));
    assert!(!fig.over_bound(again.run.clock.as_ref()));
    // Without the fusion count (an older file), the instructions are checked: over the bound, so
    // an absolute verdict is refused and a ratio-only one accepted.
    let mut f = sample();
    hot(&mut f, 28.0, None);
    assert!(f.figures["spine.pool_ns"].over_bound(f.run.clock.as_ref()));
    refused(&f.to_json(), "allows at most RatioOnly");
    f.figures.get_mut("spine.pool_ns").unwrap().verdict = Verdict::RatioOnly;
    assert!(RunFile::parse(&f.to_json()).is_ok());
    // More macro-ops than instructions cannot be.
    let mut f = sample();
    hot(&mut f, 20.0, Some(21.0));
    refused(
        &f.to_json(),
        "field `figures.spine.pool_ns.instructions.macro_ops_per_iteration` is 21",
    );
    let mut f = sample();
    hot(&mut f, 20.0, Some(10.0));
    f.run.clock.as_mut().unwrap().sustained_width = 0.0;
    refused(&f.to_json(), "field `run.clock.sustained_width` is 0");
}

/// A schema 3 file's clock (`max_ipc`, the retire width it assumed) reads as its bound; the
/// figures have no macro-ops. Written again, it uses this version's names.
#[test]
fn schema_3_clocks_still_load() {
    let mut f = sample();
    hot(&mut f, 28.0, None);
    f.figures.get_mut("spine.pool_ns").unwrap().verdict = Verdict::RatioOnly;
    let mut v: serde_json::Value = serde_json::from_str(&f.to_json()).unwrap();
    v["schema_version"] = serde_json::json!(3);
    let clock = v["run"]["clock"].as_object_mut().unwrap();
    clock.remove("fusion");
    let width = clock.remove("sustained_width").unwrap();
    let source = clock.remove("sustained_width_source").unwrap();
    clock.insert("max_ipc".into(), serde_json::json!(8.0));
    clock.insert("max_ipc_source".into(), source);
    let text = v.to_string();
    let old = RunFile::parse(&text).unwrap();
    let c = old.run.clock.as_ref().unwrap();
    assert_eq!((c.sustained_width, c.fusion.as_deref()), (8.0, None));
    // Against 8, the 7 instructions per cycle are within the bound.
    assert!(!old.figures["spine.pool_ns"].over_bound(Some(c)));
    assert!(!old.to_json().contains("max_ipc"));
    assert_eq!(RunFile::parse(&old.to_json()).unwrap(), old);
    // Both names at once are refused, naming the field.
    let both = text.replace(
        "\"max_ipc\":8.0",
        &format!("\"max_ipc\":8.0,\"sustained_width\":{width}"),
    );
    assert_ne!(both, text);
    refused(&both, "field `run.clock");
}

#[test]
fn cpu_facts_are_optional_and_checked() {
    // A file without them (every file before issue 41) reads, and writes none.
    let f = sample();
    assert!(!f.to_json().contains("\"cpu\""));
    let mut f = sample();
    let mut cpu = CpuFacts::new(cpu::AMD, 25, Some(1), "/proc/cpuinfo".into());
    cpu.stepping = Some(1);
    cpu.flags = Some(vec!["avx2".into(), "erms".into(), "fsrm".into()]);
    cpu.l1d_bytes = Some(32 << 10);
    cpu.l2_bytes = Some(512 << 10);
    cpu.l3_bytes = Some(32 << 20);
    cpu.measured_ghz = Some(3.517_240_512_001_2);
    f.machine.cpu = Some(cpu);
    assert_eq!(RunFile::parse(&f.to_json()).unwrap(), f);
    let mut v: serde_json::Value = serde_json::from_str(&f.to_json()).unwrap();
    v["machine"]["cpu"]["measured_ghz"] = serde_json::json!(0.0);
    refused(&v.to_string(), "field `machine.cpu.measured_ghz` is 0");
    v["machine"]["cpu"]["vendor"] = serde_json::json!("");
    refused(&v.to_string(), "field `machine.cpu.vendor` is empty");
    let mut v: serde_json::Value = serde_json::from_str(&f.to_json()).unwrap();
    v["machine"]["cpu"]["socket"] = serde_json::json!(1);
    refused(&v.to_string(), "field `machine.cpu.socket`");
    let mut v: serde_json::Value = serde_json::from_str(&f.to_json()).unwrap();
    v["machine"]["cpu"]
        .as_object_mut()
        .unwrap()
        .remove("family");
    refused(&v.to_string(), "missing field `family`");
}
