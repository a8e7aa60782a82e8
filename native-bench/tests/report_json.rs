//! Runs `native-bench report … --json` as a reader would and checks the output parses into the
//! documented shapes. Behaviour only: no timing is asserted anywhere.

use std::process::Command;

use serde_json::Value;

fn report(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_native-bench"))
        .arg("report")
        .args(args)
        .arg("--json")
        .output()
        .expect("run native-bench");
    assert!(
        out.status.success(),
        "report {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "report {args:?} printed no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn rows(v: &Value) -> &Vec<Value> {
    v.as_array().expect("an array of rows")
}

#[test]
fn buckets() {
    let v = report(&["buckets"]);
    assert_eq!(rows(&v).len(), 18);
    let v = report(&["buckets", "100"]);
    assert_eq!(v[0]["length"], 128);
}

#[test]
fn blocks() {
    let v = report(&["blocks", "--chunk", "20000", "--source", "vec"]);
    assert_eq!(v["size"], 20_000);
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["source"] == "vec"));
    let dotnet = rows
        .iter()
        .find(|r| r["strategy"] == "dotnet_enumerable_path")
        .unwrap();
    assert_eq!(dotnet["first"]["bytes"], 211_056);
    assert_eq!(dotnet["first"]["allocations"], 14);
}

#[test]
fn capacity() {
    let v = report(&[
        "capacity",
        "--held",
        "10",
        "--partitions",
        "1",
        "--per-partition",
        "4",
    ]);
    let r = &rows(&v)[0];
    assert_eq!(r["capacity"], 5);
    assert_eq!(r["bytes_per_round"], 5 * 1024);
    assert_eq!(r["kept_after_round"], 5);
}

#[test]
fn contract() {
    let v = report(&["contract"]);
    let rows = rows(&v);
    assert_eq!(rows.len(), 15);
    for r in rows {
        for key in ["scenario", "api", "outcome", "detail"] {
            assert!(r[key].is_string(), "{key} in {r}");
        }
    }
}

#[test]
fn threshold() {
    let v = report(&["threshold"]);
    let rows = rows(&v);
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["element"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["u8", "i32", "u64"]);
    if cfg!(all(target_os = "linux", target_env = "gnu")) {
        for r in rows {
            let bytes = r["first_bytes"].as_u64().expect("glibc mmaps something");
            // At or above the default threshold's smallest request, far below 64 MiB.
            assert!((131_049..64 << 20).contains(&bytes), "{r}");
        }
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_native-bench"))
        .args(["report", "blocks", "--source", "list", "--json"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--source"));
}
