//! `native-bench migrate-ids`: data files written before the machine id named the CPU (issue 41)
//! get their CPU facts and the id this bench gives that CPU. `cargo xtask bench` runs it on its
//! output folder before measuring, so a rerun lands beside (or on) its own CPU's renamed file.
//!
//! For every file without `machine.cpu`:
//! - its facts are recovered from what it records ([`bench_data::cpu::recover`]: the instruction
//!   check's width source names vendor, family and, mostly, model; its clock the measured GHz);
//! - a file that records none (a wasm32 run has no clock) takes them from a sibling of its id
//!   written by the same `cargo xtask bench`: the same machine record, commit and code
//!   fingerprint. Otherwise its facts stay unknown and it keeps its id;
//! - its new id is [`machine_id`] of those facts, but only when its id is the one the bench gave
//!   it ([`legacy_id`]): an id chosen with `--machine-id` is kept.
//!
//! The file is then renamed to `<new-id>[.<runtime>].json` with only `machine.id` and
//! `machine.cpu` rewritten, in place in its text: every other byte, figures included, stays as
//! it was, and the result is checked to differ from the original in those two fields alone. A
//! rename never replaces an existing file.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use bench_data::cpu::{self, CpuFacts};
use bench_data::{RunFile, SYSTEM_RUNTIME};

use crate::machine::{legacy_id, machine_id};

/// One file's migration.
#[derive(Debug, PartialEq)]
pub struct Change {
    /// The file's name now and after (equal when only the facts are filled in).
    pub from: String,
    pub to: String,
    pub facts: CpuFacts,
    /// The new text.
    pub text: String,
}

/// A file that keeps its id without facts, and why.
pub type Kept = (String, String);

/// Migrates `dir` (or, with `dry_run`, says what it would do).
pub fn run(dir: &Path, dry_run: bool) -> Result<()> {
    let (changes, kept) = plan(dir)?;
    for (name, why) in &kept {
        eprintln!("migrate-ids: {name} keeps its id and records no CPU facts: {why}");
    }
    if changes.is_empty() {
        eprintln!(
            "migrate-ids: nothing to migrate in {} (every file records its CPU or names none)",
            dir.display()
        );
        return Ok(());
    }
    for c in &changes {
        let verb = if dry_run { "would" } else { "will" };
        if c.from == c.to {
            eprintln!(
                "migrate-ids: {} {verb} keep its name, with its CPU recorded: {}",
                c.from,
                c.facts.describe()
            );
        } else {
            eprintln!("migrate-ids: {} → {}: {}", c.from, c.to, c.facts.describe());
        }
    }
    if dry_run {
        return Ok(());
    }
    apply(dir, &changes)
}

/// Writes each change's text under its new name, then removes the old file.
pub fn apply(dir: &Path, changes: &[Change]) -> Result<()> {
    for c in changes {
        let to = dir.join(&c.to);
        if c.from != c.to && to.exists() {
            bail!(
                "migrate-ids: {} appeared meanwhile; nothing more renamed",
                to.display()
            );
        }
        std::fs::write(&to, &c.text).with_context(|| format!("cannot write {}", to.display()))?;
        if c.from != c.to {
            let from = dir.join(&c.from);
            std::fs::remove_file(&from)
                .with_context(|| format!("cannot remove {}", from.display()))?;
        }
    }
    eprintln!(
        "migrate-ids: {} file(s) migrated in {dir}; commit the renames (git add -A {dir})",
        changes.len(),
        dir = dir.display()
    );
    Ok(())
}

/// What migrating `dir` changes, and the files without facts that keep their id (with why).
/// Reads every data file strictly; refuses, changing nothing, when a file cannot be read, when
/// the files of one id name different CPUs, or when a new name is taken.
pub fn plan(dir: &Path) -> Result<(Vec<Change>, Vec<Kept>)> {
    let mut files: Vec<(String, String, RunFile)> = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    for name in names {
        let path = dir.join(&name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let file = RunFile::parse(&text).map_err(|e| {
            anyhow::anyhow!(
                "migrate-ids reads every file first: {}: {e}",
                path.display()
            )
        })?;
        files.push((name, text, file));
    }
    // Each file's own facts: recorded (nothing to do) or recovered.
    let own: Vec<Option<CpuFacts>> = files
        .iter()
        .map(|(_, _, f)| match &f.machine.cpu {
            Some(_) => None,
            None => cpu::recover(f).map(|mut c| {
                c.source = format!("native-bench migrate-ids: {}", c.source);
                c
            }),
        })
        .collect();
    let mut by_id: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (_, _, f)) in files.iter().enumerate() {
        by_id.entry(f.machine.id.as_str()).or_default().push(i);
    }
    for (id, members) in &by_id {
        let facts: Vec<(usize, &CpuFacts)> = members
            .iter()
            .filter_map(|&i| {
                own[i]
                    .as_ref()
                    .or(files[i].2.machine.cpu.as_ref())
                    .map(|c| (i, c))
            })
            .collect();
        for w in facts.windows(2) {
            let ((a, fa), (b, fb)) = (w[0], w[1]);
            let m = &files[a].2.machine;
            let differ = cpu::differences(m, Some(fa), m, Some(fb));
            if !differ.is_empty() {
                bail!(
                    "migrate-ids: the files of id {id} name different CPUs ({} says {}, {} says {}: {}); \
                     nothing renamed. Give one machine's files another id by rerunning its bench \
                     with --machine-id, then migrate",
                    files[a].0,
                    fa.describe(),
                    files[b].0,
                    fb.describe(),
                    differ.join("; ")
                );
            }
        }
    }
    let mut changes = Vec::new();
    let mut kept = Vec::new();
    for (i, (name, text, file)) in files.iter().enumerate() {
        if file.machine.cpu.is_some() {
            continue;
        }
        let (mut facts, sibling) = match (&own[i], sibling_facts(&files, &own, i)) {
            (Some(f), _) => (f.clone(), None),
            (None, Some((f, j))) => (f, Some(j)),
            (None, None) => {
                kept.push((
                    name.clone(),
                    "nothing it records names its CPU (no instruction check's clock, and no \
                     sibling of the same bench run has one)"
                        .to_string(),
                ));
                continue;
            }
        };
        let m = &file.machine;
        let id = if m.id == legacy_id(&m.cpu_model, m.logical_cores) {
            machine_id(&m.cpu_model, m.logical_cores, Some(&facts))
        } else {
            m.id.clone()
        };
        if let Some(j) = sibling {
            // The sibling has this file's machine and these facts: it gets the same id.
            let (old, g) = (&files[j].0, &files[j].2);
            facts.source = format!(
                "native-bench migrate-ids: recovered from {} ({old} before the migration), \
                 written by the same bench run (machine, commit and code fingerprint alike), \
                 whose run.clock's core says {:?}",
                file_name(&id, &g.run.runtime),
                g.run
                    .clock
                    .as_ref()
                    .map_or("", |c| c.sustained_width_source.as_str())
            );
        }
        let to = file_name(&id, &file.run.runtime);
        let text =
            rewrite(text, &id, &facts).map_err(|e| anyhow::anyhow!("migrate-ids: {name}: {e}"))?;
        changes.push(Change {
            from: name.clone(),
            to,
            facts,
            text,
        });
    }
    for c in &changes {
        let moved_away = |n: &str| changes.iter().any(|d| d.from == n && d.from != d.to);
        let taken = c.from != c.to && dir.join(&c.to).exists() && !moved_away(&c.to);
        let twice = changes.iter().filter(|d| d.to == c.to).count() > 1;
        if taken || twice {
            bail!(
                "migrate-ids: {} would become {}, which {}; nothing renamed. Move one of them \
                 away, or rerun that machine's bench",
                c.from,
                c.to,
                if taken {
                    "exists"
                } else {
                    "another file would become too"
                }
            );
        }
    }
    Ok((changes, kept))
}

/// The facts a file that records none takes from a sibling of its id written by the same bench
/// run: the same machine record, commit (`-dirty` aside) and code fingerprint.
fn sibling_facts(
    files: &[(String, String, RunFile)],
    own: &[Option<CpuFacts>],
    i: usize,
) -> Option<(CpuFacts, usize)> {
    let f = &files[i].2;
    let base = |c: &str| c.trim_end_matches("-dirty").to_string();
    let mut order: Vec<usize> = (0..files.len()).collect();
    // The system allocator's file first: the run every other runtime's file accompanies.
    order.sort_by_key(|&j| files[j].2.run.runtime != SYSTEM_RUNTIME);
    order.into_iter().find_map(|j| {
        let g = &files[j].2;
        let same_run = j != i
            && g.machine == f.machine
            && base(&g.run.commit) == base(&f.run.commit)
            && g.run.fingerprint == f.run.fingerprint;
        let mut facts = own[j].clone().filter(|_| same_run)?;
        facts.measured_ghz = None;
        Some((facts, j))
    })
}

/// A file's name in a data folder: its id, and its runtime unless it is the system allocator.
fn file_name(id: &str, runtime: &str) -> String {
    if runtime == SYSTEM_RUNTIME {
        format!("{id}.json")
    } else {
        format!("{id}.{runtime}.json")
    }
}

/// `text` (a data file as the bench writes it) with `machine.id` set to `id` and
/// `machine.cpu` added; every other byte as it was. Checked: the result reads as a data file, and
/// as JSON it is the original with those two fields changed and nothing else.
pub fn rewrite(text: &str, id: &str, facts: &CpuFacts) -> Result<String, String> {
    const OPEN: &str = "\n  \"machine\": {\n";
    let start = text
        .find(OPEN)
        .ok_or("no `machine` object where the bench writes it")?
        + OPEN.len();
    let len = text[start..]
        .find("\n  }")
        .ok_or("the `machine` object does not end where the bench writes it")?;
    let mut lines: Vec<String> = text[start..start + len].lines().map(String::from).collect();
    if lines.iter().any(|l| l.starts_with("    \"cpu\": ")) {
        return Err("it already records `machine.cpu`".into());
    }
    let id_line = lines
        .iter()
        .position(|l| l.starts_with("    \"id\": ") && l.ends_with(','))
        .ok_or("no `machine.id` line where the bench writes it")?;
    let quoted = |v: &str| serde_json::to_string(v).map_err(|e| e.to_string());
    lines[id_line] = format!("    \"id\": {},", quoted(id)?);
    let cpu = serde_json::to_string_pretty(facts).map_err(|e| e.to_string())?;
    lines
        .last_mut()
        .ok_or("the `machine` object is empty")?
        .push(',');
    lines.push(format!("    \"cpu\": {}", cpu.replace('\n', "\n    ")));
    let out = format!(
        "{}{}{}",
        &text[..start],
        lines.join("\n"),
        &text[start + len..]
    );
    let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).map_err(|e| e.to_string());
    let mut expected = json(text)?;
    expected["machine"]["id"] = serde_json::Value::String(id.to_string());
    expected["machine"]["cpu"] = serde_json::to_value(facts).map_err(|e| e.to_string())?;
    if json(&out)? != expected {
        return Err("the rewrite would change more than machine.id and machine.cpu".into());
    }
    RunFile::parse(&out).map_err(|e| format!("the rewritten file does not read: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A data file as the bench wrote it before issue 41: `runtime`, the Zen 5 files' clock
    /// (`None`: no clock, as a wasm32 run), written by the bench's own `to_json`.
    fn old_file(id: &str, cpu_model: &str, runtime: &str, width: Option<&str>) -> String {
        let mut f = crate::tests::sample_file();
        f.machine.id = id.into();
        f.machine.cpu_model = cpu_model.into();
        f.run.runtime = runtime.into();
        f.run.commit = "ba4680db".into();
        f.run.fingerprint = Some("fnv1a64:67175cd55e26a3f6".into());
        f.run.clock = width.map(|w| bench_data::Clock {
            max_ghz: 3.8876621155102167,
            source:
                "measured: dependent register adds, best of 200 tries; /proc/cpuinfo says 2.60 GHz"
                    .into(),
            sustained_width: 8.0,
            sustained_width_source: w.into(),
            fusion: None,
        });
        f.to_json()
    }

    const ZEN5: &str = "AMD Zen (family 26): retires up to 8 macro-ops per cycle";
    const ROCKET: &str =
        "GenuineIntel family 6 model 167: 8 per cycle assumed (the widest x86 core)";

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("nb-migrate-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    }

    #[test]
    fn old_files_get_their_cpu_and_its_id() {
        let dir = temp("ids");
        let write = |name: &str, text: String| std::fs::write(dir.join(name), text).unwrap();
        write(
            "amd-epyc-2c.json",
            old_file("amd-epyc-2c", "AMD EPYC", "system", Some(ZEN5)),
        );
        write(
            "amd-epyc-2c.mimalloc.json",
            old_file("amd-epyc-2c", "AMD EPYC", "mimalloc", Some(ZEN5)),
        );
        // No clock of its own: its facts come from its siblings of the same run.
        write(
            "amd-epyc-2c.wasm32.json",
            old_file("amd-epyc-2c", "AMD EPYC", "wasm32", None),
        );
        write(
            "intel-xeon-2c.json",
            old_file(
                "intel-xeon-2c",
                "Intel(R) Xeon(R) Processor",
                "system",
                Some(ROCKET),
            ),
        );
        // A model string that names the part keeps its id; its facts are filled in.
        write(
            "amd-epyc-7b13-2c.json",
            old_file(
                "amd-epyc-7b13-2c",
                "AMD EPYC 7B13",
                "system",
                Some(&lab_text::tr::fill(
                    bench_data::bound::WIDTH,
                    &[&"AMD Zen 3", &25, &1, &6, &bench_data::bound::AMD_19H],
                )),
            ),
        );
        // An id chosen with --machine-id is kept too.
        write(
            "lab-box.json",
            old_file("lab-box", "AMD EPYC", "system", Some(ZEN5)),
        );
        // Nothing names this one's CPU: it stays as it is.
        write(
            "amd-epyc-4c.json",
            old_file("amd-epyc-4c", "AMD EPYC", "system", None),
        );
        let (changes, kept) = plan(&dir).unwrap();
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(kept[0].0, "amd-epyc-4c.json");
        let before: Vec<(String, String, RunFile)> = changes
            .iter()
            .map(|c| {
                (
                    c.from.clone(),
                    c.to.clone(),
                    RunFile::load(&dir.join(&c.from)).unwrap(),
                )
            })
            .collect();
        run(&dir, false).unwrap();
        assert_eq!(
            names(&dir),
            [
                "amd-epyc-4c.json",
                "amd-epyc-7b13-2c.json",
                "amd-zen5-2c.json",
                "amd-zen5-2c.mimalloc.json",
                "amd-zen5-2c.wasm32.json",
                "intel-rocket-lake-2c.json",
                "lab-box.json",
            ]
        );
        // The book reads the folder: every file is named by its machine and runtime.
        let after = bench_data::load_dir(&dir).unwrap();
        let find = |stem: &str| after.iter().find(|f| f.stem() == stem).unwrap();
        let zen5 = find("amd-zen5-2c").machine.cpu.clone().unwrap();
        assert_eq!(
            (zen5.vendor.as_str(), zen5.family, zen5.model),
            (cpu::AMD, 26, None)
        );
        assert_eq!(zen5.microarchitecture.as_deref(), Some("zen5"));
        assert_eq!(zen5.measured_ghz, Some(3.8876621155102167));
        let wasm = find("amd-zen5-2c.wasm32").machine.cpu.clone().unwrap();
        assert_eq!((wasm.family, wasm.measured_ghz), (26, None));
        assert!(
            wasm.source.contains(
                "recovered from amd-zen5-2c.json (amd-epyc-2c.json before the migration)"
            ),
            "{}",
            wasm.source
        );
        let intel = find("intel-rocket-lake-2c").machine.cpu.clone().unwrap();
        assert_eq!((intel.family, intel.model), (6, Some(167)));
        assert_eq!(
            find("amd-epyc-7b13-2c").machine.cpu.as_ref().unwrap().model,
            Some(1)
        );
        assert_eq!(find("lab-box").machine.cpu.as_ref().unwrap().family, 26);
        assert_eq!(find("amd-epyc-4c").machine.cpu, None);
        // Nothing but the id and the facts changed: every figure, the run, the rest of the machine.
        assert_eq!(before.len(), 6);
        for (from, to, old) in &before {
            let new = RunFile::load(&dir.join(to)).unwrap();
            let mut expected = old.clone();
            expected.machine.id = new.machine.id.clone();
            expected.machine.cpu = new.machine.cpu.clone();
            assert_eq!(new, expected, "{from} → {to}");
            assert!(new.machine.cpu.is_some(), "{to}");
        }
        // Migrating again changes nothing.
        let (changes, _) = plan(&dir).unwrap();
        assert!(changes.is_empty(), "{changes:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rename_never_replaces_a_file_and_one_id_names_one_cpu() {
        let dir = temp("refuse");
        std::fs::write(
            dir.join("amd-epyc-2c.json"),
            old_file("amd-epyc-2c", "AMD EPYC", "system", Some(ZEN5)),
        )
        .unwrap();
        let mut newer = crate::tests::sample_file();
        newer.machine.id = "amd-zen5-2c".into();
        newer.machine.cpu = Some(CpuFacts::new(cpu::AMD, 26, Some(2), "/proc/cpuinfo".into()));
        std::fs::write(dir.join("amd-zen5-2c.json"), newer.to_json()).unwrap();
        let err = run(&dir, false).unwrap_err().to_string();
        assert!(err.contains("which exists"), "{err}");
        assert_eq!(names(&dir), ["amd-epyc-2c.json", "amd-zen5-2c.json"]);
        std::fs::remove_file(dir.join("amd-zen5-2c.json")).unwrap();
        // Two files of one id that name two CPUs: nothing is renamed.
        let zen3 = lab_text::tr::fill(
            bench_data::bound::WIDTH,
            &[&"AMD Zen 3", &25, &1, &6, &bench_data::bound::AMD_19H],
        );
        std::fs::write(
            dir.join("amd-epyc-2c.mimalloc.json"),
            old_file("amd-epyc-2c", "AMD EPYC", "mimalloc", Some(&zen3)),
        )
        .unwrap();
        let err = run(&dir, false).unwrap_err().to_string();
        assert!(err.contains("name different CPUs"), "{err}");
        assert!(err.contains("family 26 in the file, 25 here"), "{err}");
        assert_eq!(
            names(&dir),
            ["amd-epyc-2c.json", "amd-epyc-2c.mimalloc.json"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_rewrite_touches_only_the_id_and_the_facts() {
        let text = old_file("amd-epyc-2c", "AMD EPYC", "system", Some(ZEN5));
        let facts = CpuFacts::new(cpu::AMD, 26, None, "test".into());
        let out = rewrite(&text, "amd-zen5-2c", &facts).unwrap();
        let expected = text
            .replace(r#"    "id": "amd-epyc-2c","#, r#"    "id": "amd-zen5-2c","#)
            .replace(
                "    \"libc\": \"l\"\n  },",
                "    \"libc\": \"l\",\n    \"cpu\": {\n      \"vendor\": \"AuthenticAMD\",\n      \"family\": 26,\n      \"microarchitecture\": \"zen5\",\n      \"source\": \"test\"\n    }\n  },",
            );
        assert_eq!(out, expected);
        // Twice is refused, as is a text not laid out as the bench writes.
        assert!(
            rewrite(&out, "x", &facts)
                .unwrap_err()
                .contains("already records")
        );
        let flat =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&text).unwrap())
                .unwrap();
        assert!(rewrite(&flat, "x", &facts).is_err());
    }
}
