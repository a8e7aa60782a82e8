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
    refused(&v.to_string(), "this book reads versions 2 to 3");
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
