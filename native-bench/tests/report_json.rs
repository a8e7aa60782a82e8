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
    let row = |scenario: &str, api: &str| -> (String, String) {
        let found: Vec<&Value> = rows
            .iter()
            .filter(|r| r["scenario"] == scenario && r["api"] == api)
            .collect();
        assert_eq!(found.len(), 1, "{scenario} on {api}: {found:?}");
        let text = |k: &str| found[0][k].as_str().unwrap_or_default().to_string();
        (text("outcome"), text("detail"))
    };
    let apis = ["handle", "handle_checked", "ownership"];
    let scenarios = [
        "stale_data",
        "double_return",
        "use_after_return",
        "foreign_bucket_len",
        "foreign_other_len",
    ];
    assert_eq!(rows.len(), apis.len() * scenarios.len());
    // What each API does with each misuse: .NET's behaviour, checked mode's errors, and what the
    // ownership API does not let compile.
    let expect = [
        ["allowed", "allowed", "allowed"],
        ["allowed", "error", "no_compile"],
        ["allowed", "error", "no_compile"],
        ["allowed", "error", "allowed"],
        ["error", "error", "error"],
    ];
    for (scenario, outcomes) in scenarios.iter().zip(expect) {
        for (api, outcome) in apis.iter().zip(outcomes) {
            assert_eq!(row(scenario, api).0, outcome, "{scenario} on {api}");
        }
    }
    // The details say what happened, as the chapters tell it.
    for api in apis {
        let (_, detail) = row("stale_data", api);
        assert!(detail.contains("sees 41 of"), "{api}: {detail}");
    }
    // .NET's length check, and checked mode's origin check before it.
    for api in ["handle", "ownership"] {
        let (_, detail) = row("foreign_other_len", api);
        assert!(
            detail.starts_with("The buffer is not associated with this pool"),
            "{api}: {detail}"
        );
    }
    for scenario in ["foreign_bucket_len", "foreign_other_len"] {
        let (_, detail) = row(scenario, "handle_checked");
        assert!(
            detail.contains("was never rented from this pool"),
            "{detail}"
        );
    }
    assert!(
        row("double_return", "handle")
            .1
            .contains("share one buffer")
    );
    assert!(
        row("use_after_return", "handle")
            .1
            .contains("(it reads 99)")
    );
    for scenario in ["double_return", "use_after_return", "foreign_bucket_len"] {
        let (_, detail) = row(scenario, "handle_checked");
        assert!(
            !detail.is_empty() && !detail.ends_with('.'),
            "{scenario}: {detail}"
        );
    }
    assert!(row("double_return", "ownership").1.contains("E0382"));
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
