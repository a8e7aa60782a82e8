//! `{{#machine FACT}}`: a fact about the primary machine (its C library, core count, CPU, …) in
//! running prose, from its data file, so a sentence about "this machine" describes the machine the
//! figures come from, whoever reran the bench.

use super::escape;
use crate::data::Data;
use bench_data::RunFile;

/// The facts a chapter may cite.
pub const FACTS: &[&str] = &["libc", "cores", "cpu", "os", "kernel", "id", "rustc"];

pub fn fact(fact: &str, data: &Data) -> Result<String, String> {
    let file = data.primary()?;
    let m = &file.machine;
    let text = match fact {
        "libc" => m.libc.clone(),
        "cores" => m.logical_cores.to_string(),
        "cpu" => m.cpu_model.clone(),
        "os" => m.os.clone(),
        "kernel" => m.kernel.clone(),
        "id" => m.id.clone(),
        "rustc" => file.run.rustc.clone(),
        _ => {
            return Err(format!(
                "`{fact}` is not a machine fact (known: {})",
                FACTS.join(", ")
            ));
        }
    };
    Ok(format!(
        "<span class=\"lab-machine-fact\" data-machine-fact=\"{fact}\" data-machine=\"{}\">{}</span>",
        escape(&m.id),
        escape(&text)
    ))
}

/// `{{#machines}}`: every data file's machine and run, the current ones first, then those of
/// older code with why they are left out. The facts a bench records in words (the mode, the
/// runtime's allocator, the status) are written in the page's language where the lab knows them
/// ([`mode_words`], [`runtime_words`]); anything else is shown as recorded.
pub fn table(data: &Data) -> String {
    let mut html = String::from("\n\n<table class=\"lab-machines\"><thead><tr>");
    for heading in [
        lab_text::t!("machine"),
        lab_text::t!("CPU"),
        lab_text::t!("cores"),
        lab_text::t!("memory"),
        lab_text::t!("OS, kernel, libc"),
        lab_text::t!("rustc"),
        lab_text::t!("commit"),
        lab_text::t!("date"),
        lab_text::t!("load before → after"),
        lab_text::t!("mode"),
        lab_text::t!("runtime"),
        lab_text::t!("repetitions"),
        lab_text::t!("code"),
    ] {
        html.push_str(&format!("<th>{}</th>", escape(&heading)));
    }
    html.push_str("</tr></thead><tbody>");
    let rows = data
        .files()
        .iter()
        .map(|f| (f, lab_text::t!("current").into_owned()))
        .chain(data.older().iter().map(|(f, _)| (f, older_words(f, data))));
    for (f, status) in rows {
        let (m, r) = (&f.machine, &f.run);
        let code = format!(
            "{} ({status})",
            r.fingerprint
                .clone()
                .unwrap_or_else(|| lab_text::t!("no fingerprint").into_owned())
        );
        html.push_str(&format!(
            "<tr data-machine=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}, {}, {}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&f.stem()),
            escape(&m.id),
            escape(&m.cpu_model),
            m.logical_cores,
            lab_text::tr::localize_figure(&format!(
                "{:.1} GiB",
                m.memory_bytes as f64 / (1u64 << 30) as f64
            )),
            escape(&m.os),
            escape(&m.kernel),
            escape(&m.libc),
            escape(&r.rustc),
            escape(r.commit.get(..10).unwrap_or(&r.commit)),
            escape(&r.date),
            lab_text::tr::localize_figure(&format!(
                "{:.2} → {:.2}",
                r.load_before[0], r.load_after[0]
            )),
            escape(&mode_words(&r.mode)),
            escape(&runtime_words(&r.runtime, &r.allocator)),
            r.repetitions,
            escape(&code),
        ));
    }
    if data.files().is_empty() {
        html.push_str(&format!(
            "<tr><td colspan=\"13\">{}</td></tr>",
            lab_text::tf!(
                "No bench data yet: run {}.",
                "<code>cargo xtask bench</code>"
            )
        ));
    }
    html.push_str("</tbody></table>\n\n");
    html
}

/// A run's mode in the page's language (`full` or `quick`, as `native-bench` writes it).
fn mode_words(mode: &str) -> String {
    match mode {
        "full" => lab_text::t!("full").into_owned(),
        "quick" => lab_text::t!("quick").into_owned(),
        other => other.to_string(),
    }
}

/// The runtime and its allocator, as `native-bench` describes them (`measure.rs`, `main.rs`,
/// `wasm32.rs`), in the page's language: `system (Rust's System: …)`, or wasm32 with the browser
/// and the clock step its run saw. A description the lab does not know is shown as recorded.
fn runtime_words(runtime: &str, allocator: &str) -> String {
    format!("{runtime} ({})", allocator_words(allocator))
}

/// A run's allocator description in the page's language (as recorded when the lab does not know
/// it): the machines table and each page's provenance line say it.
pub(super) fn allocator_words(allocator: &str) -> String {
    let known = match allocator {
        "system (Rust's System: the C library's malloc)" => Some(lab_text::t!(
            "system (Rust's System: the C library's malloc)"
        )),
        "mimalloc (the mimalloc crate's global allocator)" => Some(lab_text::t!(
            "mimalloc (the mimalloc crate's global allocator)"
        )),
        "jemalloc (tikv-jemallocator's global allocator)" => Some(lab_text::t!(
            "jemalloc (tikv-jemallocator's global allocator)"
        )),
        _ => None,
    };
    known
        .map(|w| w.into_owned())
        .or_else(|| wasm32_words(allocator))
        .unwrap_or_else(|| allocator.to_string())
}

/// The wasm32 runtime's description, its browser and clock step kept.
fn wasm32_words(allocator: &str) -> Option<String> {
    let rest = allocator.strip_prefix(
        "wasm32-unknown-unknown, Rust's default allocator (dlmalloc over the module's linear \
         memory), the lab's wasm-release build in ",
    )?;
    let (browser, rest) = rest.split_once("; performance.now() steps of ")?;
    let (step, isolated) = rest.split_once(" µs")?;
    let step = lab_text::tr::localize_figure(step);
    Some(match isolated {
        " (cross-origin isolated)" => lab_text::tf!(
            "wasm32-unknown-unknown, Rust's default allocator (dlmalloc over the module's linear memory), the lab's wasm-release build in {}; performance.now() steps of {} µs (cross-origin isolated)",
            browser,
            step
        ),
        "" => lab_text::tf!(
            "wasm32-unknown-unknown, Rust's default allocator (dlmalloc over the module's linear memory), the lab's wasm-release build in {}; performance.now() steps of {} µs",
            browser,
            step
        ),
        _ => return None,
    })
}

/// Why a file of older code is left out of the book's columns, in the page's language.
fn older_words(f: &RunFile, data: &Data) -> String {
    let shown = data
        .files()
        .first()
        .and_then(|p| p.run.fingerprint.clone())
        .unwrap_or_else(|| lab_text::t!("none").into_owned());
    let this = f
        .run
        .fingerprint
        .clone()
        .unwrap_or_else(|| lab_text::t!("none (schema 2)").into_owned());
    lab_text::tf!("older code: fingerprint {}, not {}", this, shown)
}
