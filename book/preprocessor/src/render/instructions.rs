//! `{{#instructions}}` and `{{#listing KEY}}`: the instruction check's evidence.
//!
//! `{{#instructions}}` is a table of every hot-path figure of the primary file that the bench
//! counted (callgrind, on the bench's own loop): instructions per iteration, the time, and the
//! instructions per cycle that time implies at the measured clock, against the core's retire
//! width. `{{#listing KEY}}` shows the machine code of the loop behind `KEY` next to its time.

use bench_data::format_value;

use super::{cell, escape};
use crate::data::Data;

pub fn table(data: &Data) -> Result<String, String> {
    let file = data.primary()?;
    let Some(clock) = &file.run.clock else {
        return Ok(format!(
            "\n\n<p class=\"lab-note\">{} has no instruction counts (valgrind was not installed, or the data predates the check).</p>\n\n",
            escape(&file.label())
        ));
    };
    let mut html = format!(
        "\n\n<p class=\"lab-note\">Clock {:.2} GHz ({}); retire width {} ({}).</p>\n\n\
         <table class=\"lab-instructions\"><thead><tr><th>figure</th><th>instructions per iteration</th>\
         <th>time per iteration</th><th>implied instructions per cycle</th><th>possible?</th></tr></thead><tbody>",
        clock.max_ghz,
        escape(&clock.source),
        clock.max_ipc,
        escape(&clock.max_ipc_source)
    );
    for (key, f) in &file.figures {
        let Some(i) = &f.instructions else { continue };
        let over = i.implied_ipc > clock.max_ipc;
        html.push_str(&format!(
            "<tr data-key=\"{}\"{}><td><code>{}</code></td><td>{:.1}</td><td>{}</td><td>{:.2}</td><td>{}</td></tr>",
            escape(key),
            if over { " class=\"lab-claim-broken\"" } else { "" },
            escape(key),
            i.per_iteration,
            cell(key, f, file, data),
            i.implied_ipc,
            if over {
                "no: over the retire width, not citable as a time"
            } else {
                "yes"
            }
        ));
    }
    html.push_str("</tbody></table>\n\n");
    Ok(html)
}

pub fn listing(key: &str, data: &Data) -> Result<String, String> {
    let (file, f) = data.figure(key)?;
    let Some(l) = file.listings.get(key) else {
        return Err(format!(
            "{}.json has no listing of `{key}` (the bench keeps one, for rent_return.16.pool)",
            file.stem()
        ));
    };
    let counted = f.instructions.as_ref().map_or(String::new(), |i| {
        format!(
            ", {:.1} instructions per iteration (callgrind)",
            i.per_iteration
        )
    });
    Ok(format!(
        "\n\n<figure class=\"lab-listing\" data-key=\"{}\"><figcaption><code>{}</code>: {}{counted}; \
         the function below executes {:.1} % of the loop's instructions: <code>{}</code></figcaption>\
         <pre><code>{}</code></pre></figure>\n\n",
        escape(key),
        escape(key),
        format_value(f.unit, f.value),
        l.share * 100.0,
        escape(&l.function),
        escape(&l.lines.join("\n"))
    ))
}

/// `{{#instr KEY}}`: the instructions per iteration of the loop behind `KEY` (callgrind).
pub fn instr(key: &str, data: &Data) -> Result<String, String> {
    let (file, f) = data.figure(key)?;
    let Some(i) = &f.instructions else {
        return Err(format!(
            "`{key}` on {} has no instruction count (only timings under 5 ns are counted)",
            file.label()
        ));
    };
    Ok(format!(
        "<span class=\"lab-instr\" data-key=\"{}\" data-machine=\"{}\">{:.0} instructions</span>",
        escape(key),
        escape(&file.stem()),
        i.per_iteration
    ))
}
