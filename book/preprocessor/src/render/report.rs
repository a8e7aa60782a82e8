//! `{{#claims-report}}`: the instructors' table — every claim of the book, with its verdict on
//! each machine file in `book/data` (✓ holds, ⚠ contradicted, ? too noisy or not measured), so a
//! rerun shows at a glance which conclusions moved.

use bench_data::claim::Mark;

use super::escape;
use crate::data::Data;

pub fn claims_report(data: &Data) -> String {
    let files = data.files();
    let sites = data.sites();
    let mut html = format!(
        "\n\n<table class=\"lab-claims-report\"><thead><tr><th>{}</th><th>{}</th><th>{}</th>",
        lab_text::t!("chapter"),
        lab_text::t!("sentence"),
        lab_text::t!("claim"),
    );
    for file in files {
        html.push_str(&format!(
            "<th>{} <small>({})</small></th>",
            escape(&file.label()),
            escape(file.run.date.get(..10).unwrap_or(&file.run.date))
        ));
    }
    html.push_str("</tr></thead><tbody>");
    for site in &sites {
        let page = site.chapter.trim_end_matches(".md");
        html.push_str(&format!(
            "<tr><td><a href=\"{}.html\">{}</a></td><td>{}</td><td><code>{}</code></td>",
            escape(page),
            escape(&site.place()),
            escape(&site.sentence),
            escape(&site.claim.to_string())
        ));
        for file in files {
            let check = site.check_on(file, files);
            let class = match check.mark {
                Mark::Holds => "lab-claim-ok",
                Mark::Contradicted => "lab-claim-broken",
                Mark::Open | Mark::Missing => "lab-claim-open",
            };
            html.push_str(&format!(
                "<td class=\"{class}\" data-mark=\"{}\"><strong>{}</strong> <small>{}</small></td>",
                check.mark.symbol(),
                check.mark.symbol(),
                escape(&check.shows)
            ));
        }
        html.push_str("</tr>");
    }
    if sites.is_empty() {
        html.push_str(&format!(
            "<tr><td colspan=\"3\">{}</td></tr>",
            lab_text::t!("The book carries no claim.")
        ));
    }
    html.push_str("</tbody></table>\n\n");
    html
}
