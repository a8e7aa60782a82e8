//! `cargo xtask exercises`: the student's command. It grades every exercise with its tests (the
//! same tests `cargo test -p exercises` runs), says in plain words why the first failing test
//! of each one fails, names the next exercise to do, and prints a hint on request. Progress is
//! what passes: there is no state to lose.
//!
//! A crate of its own, not a module of `xtask`, because the exercises' download (issue 40:
//! `xtask/src/download.rs` packs it for the site) carries it: there, `cargo xtask` is an alias
//! for this crate's binary, so a reader types the same command as in the repository, and the
//! download needs none of `xtask`'s dependencies. In the repository `cargo xtask exercises`
//! calls [`run`].
//!
//! - `exercises` or `exercises check` — grade all; `check N` — every test of exercise N.
//! - `exercises list` — the exercises and their chapters, without grading.
//! - `exercises hint N` — exercise N's hint.
//! - `exercises verify` — for `cargo xtask test`: the reference solutions pass every test, and
//!   every test of every untouched skeleton fails for the intended reason (a `todo!()`, or the
//!   exercise's declared compile-check message), never for a compile error.
//!
//! Each exercise is its own test binary, built in one `cargo build --tests --keep-going`: an
//! exercise that does not compile is reported as such, and the others are still graded.

#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail, ensure};
use exercises::{EXERCISES, Exercise, TODO};

const USAGE: &str = "\
usage: cargo xtask exercises [check [N] | list | hint N | verify]

  check        grade every exercise (the default): which pass, why the others fail, what is next
  check N      every test of exercise N, with its message
  list         the exercises and the chapters that teach them
  hint N       a hint for exercise N
  verify       the solutions pass and the untouched skeletons fail as intended (cargo xtask test)
";

/// Runs the exercises command `args` (what follows `cargo xtask exercises`) in the workspace at
/// `root` (the repository's, or the download's).
pub fn run(root: &Path, args: &[&str]) -> Result<()> {
    match args {
        [] | ["check"] => check_all(root),
        ["check", n] => check_one(root, find(n)?),
        ["list"] => {
            list();
            Ok(())
        }
        ["hint", n] => {
            hint(find(n)?);
            Ok(())
        }
        ["verify"] => verify(root),
        _ => bail!("unknown exercises command {:?}\n\n{USAGE}", args.join(" ")),
    }
}

fn find(key: &str) -> Result<&'static Exercise> {
    exercises::find(key).with_context(|| {
        format!(
            "no exercise {key:?}: the exercises are 1 to {} (cargo xtask exercises list)",
            EXERCISES.len()
        )
    })
}

// === what a test run says ===

/// One test's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestOutcome {
    pub name: String,
    pub passed: bool,
    /// The panic message of a failed test, as printed (empty for a passed one).
    pub message: String,
}

/// One exercise's grade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grade {
    /// Its test binary ran: every test's outcome, in the order of their names (`stepN_…`).
    Ran(Vec<TestOutcome>),
    /// Its files do not compile: the first error.
    DoesNotCompile(String),
    /// The test binary ran but ended without a result (an abort, e.g. a panic in `Drop` while
    /// another panic unwinds).
    Crashed(String),
}

impl Grade {
    fn passed(&self) -> bool {
        matches!(self, Grade::Ran(tests) if tests.iter().all(|t| t.passed))
    }

    fn counts(&self) -> Option<(usize, usize)> {
        match self {
            Grade::Ran(tests) => Some((tests.iter().filter(|t| t.passed).count(), tests.len())),
            _ => None,
        }
    }

    /// The first failing test's name and its reason in plain words.
    fn first_failure(&self) -> Option<(String, String)> {
        match self {
            Grade::Ran(tests) => tests
                .iter()
                .find(|t| !t.passed)
                .map(|t| (t.name.clone(), plain(&t.message))),
            Grade::DoesNotCompile(e) => Some(("(build)".into(), format!("does not compile: {e}"))),
            Grade::Crashed(why) => Some(("(run)".into(), why.clone())),
        }
    }
}

/// Parses libtest's plain output: `test NAME ... ok|FAILED` lines and the failures' sections.
pub fn parse_libtest(stdout: &str) -> Option<Vec<TestOutcome>> {
    if !stdout.contains("test result:") {
        return None;
    }
    let mut outcomes = BTreeMap::new();
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("test ") else {
            continue;
        };
        if let Some(name) = rest.strip_suffix(" ... ok") {
            outcomes.insert(name.to_string(), (true, String::new()));
        } else if let Some(name) = rest.strip_suffix(" ... FAILED") {
            outcomes.insert(name.to_string(), (false, String::new()));
        }
    }
    // Sections: `---- NAME stdout ----` up to the next section or the `failures:` list.
    let mut current: Option<String> = None;
    for line in stdout.lines() {
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|l| l.strip_suffix(" stdout ----"))
        {
            current = Some(name.to_string());
            continue;
        }
        if line == "failures:" || line.starts_with("test result:") {
            current = None;
            continue;
        }
        if let Some((_, msg)) = current.as_ref().and_then(|n| outcomes.get_mut(n)) {
            msg.push_str(line);
            msg.push('\n');
        }
    }
    Some(
        outcomes
            .into_iter()
            .map(|(name, (passed, message))| TestOutcome {
                name,
                passed,
                message: message.trim().to_string(),
            })
            .collect(),
    )
}

/// A failed test's reason in plain words: where a `todo!()` still is, "got X, expected Y" for
/// an equality, and the message itself otherwise (without the thread line and the backtrace
/// note).
pub fn plain(message: &str) -> String {
    let mut location = None;
    let mut body = Vec::new();
    for line in message.lines() {
        if line.starts_with("thread '") && line.contains("panicked at ") {
            location = line
                .split("panicked at ")
                .nth(1)
                .map(|l| l.trim_end_matches(':').replace("tests/../", ""));
            continue;
        }
        if line.starts_with("note: run with `RUST_BACKTRACE") {
            continue;
        }
        body.push(line);
    }
    let body = body.join("\n").trim().to_string();
    // `path:line:column` → `path:line`.
    let location = location.map(|l| match l.rsplit_once(':') {
        Some((rest, col)) if col.chars().all(|c| c.is_ascii_digit()) => rest.to_string(),
        _ => l,
    });
    if body == TODO {
        return match location {
            Some(at) => format!("still todo!() at {at}"),
            None => "still todo!()".into(),
        };
    }
    if let Some(rest) = body.strip_prefix("assertion `left == right` failed") {
        let rest = rest.strip_prefix(": ").unwrap_or(rest);
        let (what, values) = rest.split_once("\n  left: ").unwrap_or(("", rest));
        if let Some((left, right)) = values.split_once("\n right: ") {
            let what = if what.trim().is_empty() {
                "a value".to_string()
            } else {
                what.trim().to_string()
            };
            return format!("{what}: got {}, expected {}", left.trim(), right.trim());
        }
    }
    body
}

// === building and running ===

/// Builds every exercise's test binary (the student's files, or the solutions), then runs each.
fn grade_all(root: &Path, solutions: bool) -> Result<Vec<(&'static Exercise, Grade)>> {
    let built = build(root, solutions)?;
    let mut grades = Vec::new();
    for e in EXERCISES {
        let grade = match built.get(e.stem) {
            Some(Ok(exe)) => run_binary(root, exe)?,
            Some(Err(error)) => Grade::DoesNotCompile(error.clone()),
            None => Grade::DoesNotCompile(
                "cargo built no test binary for it (is tests/<stem>.rs there?)".into(),
            ),
        };
        grades.push((e, grade));
    }
    Ok(grades)
}

/// Each test target's executable, or its first compile error.
fn build(root: &Path, solutions: bool) -> Result<BTreeMap<String, Result<PathBuf, String>>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut args = vec![
        "build",
        "--package",
        "exercises",
        "--tests",
        "--keep-going",
        "--quiet",
        "--message-format",
        "json",
    ];
    if solutions {
        args.extend(["--features", "solutions"]);
    }
    eprintln!("$ cargo {}", args.join(" "));
    let out = Command::new(&cargo)
        .args(&args)
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run cargo")?;
    let mut targets: BTreeMap<String, Result<PathBuf, String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let name = msg["target"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let is_test = msg["target"]["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k == "test"));
        match msg["reason"].as_str() {
            Some("compiler-artifact") if is_test => {
                if let Some(exe) = msg["executable"].as_str() {
                    targets
                        .entry(name)
                        .or_insert_with(|| Ok(PathBuf::from(exe)));
                }
            }
            Some("compiler-message") if msg["message"]["level"] == "error" => {
                let rendered = msg["message"]["rendered"].as_str().unwrap_or_default();
                match targets.get_mut(&name) {
                    Some(Err(_)) => {}
                    _ => {
                        targets.insert(name, Err(first_lines(rendered, 14)));
                    }
                }
            }
            _ => {}
        }
    }
    // The library (the exercise list) must build, or nothing can be graded.
    if !out.status.success() && targets.values().all(Result::is_ok) {
        bail!("the exercises crate does not build (run `cargo build -p exercises --tests`)");
    }
    Ok(targets)
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines().take(n).collect::<Vec<_>>().join("\n")
}

fn run_binary(root: &Path, exe: &Path) -> Result<Grade> {
    let out = Command::new(exe)
        .args(["--color", "never"])
        .env("RUST_BACKTRACE", "0")
        // The compile checks run `rustc` here, so rustup picks the workspace's toolchain.
        .current_dir(root.join("exercises"))
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    Ok(match parse_libtest(&stdout) {
        Some(tests) => Grade::Ran(tests),
        None => Grade::Crashed(format!(
            "the tests stopped without a result ({}): a panic inside `drop` while another \
             panic unwinds aborts the process\n{}",
            out.status,
            first_lines(String::from_utf8_lossy(&out.stderr).trim(), 8)
        )),
    })
}

// === the commands ===

fn list() {
    println!("The exercises, in the book's order (each file's docs state its task):\n");
    for e in EXERCISES {
        println!(
            "  {:>2}  {:<17} {:<46} {}",
            e.number,
            e.chapter,
            e.title,
            e.student_file()
        );
    }
    println!("\nGrade them: cargo xtask exercises · a hint: cargo xtask exercises hint N");
}

fn hint(e: &Exercise) {
    println!(
        "Exercise {}: {} ({}, chapter: {})\n",
        e.number,
        e.title,
        e.student_file(),
        e.chapter
    );
    println!("{}", e.hint.trim());
}

fn check_all(root: &Path) -> Result<()> {
    let grades = grade_all(root, false)?;
    println!("\nExercises, graded by their tests (progress is what passes):\n");
    for (e, grade) in &grades {
        let mark = if grade.passed() { "✓" } else { "✗" };
        let tests = grade
            .counts()
            .map_or_else(|| "—".to_string(), |(p, t)| format!("{p}/{t}"));
        println!(
            "  {mark} {:>2}  {:<17} {:<46} {tests:>5}",
            e.number, e.chapter, e.title
        );
        if let Some((test, why)) = grade.first_failure().filter(|_| !grade.passed()) {
            let first = why.lines().next().unwrap_or_default();
            println!("          {test}: {first}");
        }
    }
    let done = grades.iter().filter(|(_, g)| g.passed()).count();
    println!("\n{done} of {} exercises pass.", grades.len());
    match grades.iter().find(|(_, g)| !g.passed()) {
        None => println!(
            "All done: every exercise passes. The solutions are on the book's Solutions page."
        ),
        Some((e, grade)) => {
            println!(
                "\nNext: exercise {} — {} ({}; chapter: {})",
                e.number,
                e.title,
                e.student_file(),
                e.chapter
            );
            if let Some((test, why)) = grade.first_failure() {
                println!("  first failing test: {test}");
                for line in why.lines() {
                    println!("    {line}");
                }
            }
            println!(
                "\n  a hint: cargo xtask exercises hint {n}   ·   its tests: cargo xtask exercises check {n}",
                n = e.number
            );
        }
    }
    Ok(())
}

fn check_one(root: &Path, e: &Exercise) -> Result<()> {
    let grades = grade_all(root, false)?;
    let (_, grade) = grades
        .iter()
        .find(|(g, _)| g.number == e.number)
        .context("exercise not graded")?;
    println!(
        "\nExercise {}: {} ({}, chapter: {})\n",
        e.number,
        e.title,
        e.student_file(),
        e.chapter
    );
    match grade {
        Grade::Ran(tests) => {
            for t in tests {
                println!("  {} {}", if t.passed { "✓" } else { "✗" }, t.name);
                if !t.passed {
                    for line in plain(&t.message).lines() {
                        println!("      {line}");
                    }
                }
            }
        }
        other => {
            if let Some((_, why)) = other.first_failure() {
                println!("{why}");
            }
        }
    }
    if !grade.passed() {
        println!("\n  a hint: cargo xtask exercises hint {}", e.number);
    }
    Ok(())
}

/// Whether a failing skeleton test failed for an intended reason: a `todo!()` reached, or one
/// of the exercise's declared compile-check messages.
fn intended(e: &Exercise, message: &str) -> bool {
    message.contains(TODO) || e.skeleton_fails_with.iter().any(|m| message.contains(m))
}

fn verify(root: &Path) -> Result<()> {
    ensure!(
        root.join("exercises/solutions").is_dir(),
        "the reference solutions are not in {} (the download leaves them out: they are on the \
         book's Solutions page)",
        root.display()
    );
    // The exercise list's own tests (numbers, stems, hints), with the features of the build below.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("$ cargo test --package exercises --lib --quiet");
    let status = Command::new(&cargo)
        .args(["test", "--package", "exercises", "--lib", "--quiet"])
        .current_dir(root)
        .status()
        .context("cannot run cargo")?;
    ensure!(status.success(), "the exercise list's own tests failed");
    let mut problems = Vec::new();
    let mut tests = 0;
    for (e, grade) in grade_all(root, true)? {
        match &grade {
            Grade::Ran(outcomes) if !outcomes.is_empty() => {
                tests += outcomes.len();
                for t in outcomes.iter().filter(|t| !t.passed) {
                    problems.push(format!(
                        "solution {}: {} fails: {}",
                        e.stem,
                        t.name,
                        plain(&t.message)
                    ));
                }
            }
            Grade::Ran(_) => problems.push(format!("exercise {} has no tests", e.stem)),
            other => problems.push(format!(
                "solution {}: {}",
                e.stem,
                other.first_failure().map(|f| f.1).unwrap_or_default()
            )),
        }
    }
    for (e, grade) in grade_all(root, false)? {
        match &grade {
            Grade::Ran(outcomes) => {
                for t in outcomes {
                    if t.passed {
                        problems.push(format!(
                            "skeleton {}: {} passes on the untouched skeleton",
                            e.stem, t.name
                        ));
                    } else if !intended(e, &t.message) {
                        problems.push(format!(
                            "skeleton {}: {} fails for another reason than its todo!(): {}",
                            e.stem,
                            t.name,
                            plain(&t.message)
                        ));
                    }
                }
            }
            other => problems.push(format!(
                "skeleton {}: {}",
                e.stem,
                other.first_failure().map(|f| f.1).unwrap_or_default()
            )),
        }
    }
    ensure!(
        problems.is_empty(),
        "the exercises are not graded as intended:\n  {}",
        problems.join("\n  ")
    );
    println!(
        "exercises: {} exercises, {tests} tests: every solution passes all, every untouched \
         skeleton fails each for its intended reason",
        EXERCISES.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = "
running 3 tests
test step2_b ... FAILED
test step1_a ... ok
test step3_c ... FAILED

failures:

---- step2_b stdout ----

thread 'step2_b' (123) panicked at exercises/tests/../src/ex02_bucket.rs:40:5:
not yet implemented
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- step3_c stdout ----

thread 'step3_c' (124) panicked at exercises/tests/ex02_bucket.rs:9:5:
assertion `left == right` failed: bucket_index(17)
  left: 0
 right: 1

failures:
    step2_b
    step3_c

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";

    #[test]
    fn libtest_output_is_read_in_name_order_with_messages() {
        let tests = parse_libtest(OUTPUT).unwrap();
        let names: Vec<_> = tests.iter().map(|t| (t.name.as_str(), t.passed)).collect();
        assert_eq!(
            names,
            [("step1_a", true), ("step2_b", false), ("step3_c", false)]
        );
        assert_eq!(
            plain(&tests[1].message),
            "still todo!() at exercises/src/ex02_bucket.rs:40"
        );
        assert_eq!(
            plain(&tests[2].message),
            "bucket_index(17): got 0, expected 1"
        );
        let grade = Grade::Ran(tests);
        assert_eq!(grade.counts(), Some((1, 3)));
        assert_eq!(grade.first_failure().unwrap().0, "step2_b");
    }

    #[test]
    fn a_run_without_a_result_is_a_crash() {
        assert_eq!(parse_libtest("running 3 tests\ntest a ... "), None);
    }

    #[test]
    fn other_messages_stay_as_they_are() {
        let msg =
            "thread 't' (1) panicked at x.rs:1:2:\nguard: this compiled, but must not:\nfn f() {}";
        assert_eq!(plain(msg), "guard: this compiled, but must not:\nfn f() {}");
    }
}
