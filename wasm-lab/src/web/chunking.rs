//! The chunking widget (chapter 7): source length, chunk size, source kind and strategy → the
//! chunker's blocks table, measured live by the counting allocator in this page.

use web_sys::Element;

use super::dom;
use super::fields::{self, yes_no};
use crate::chunk::{ChunkCost, SourceKind, Strategy};
use crate::input::group_digits;
use crate::scenario::chunking::table;

/// A stable key per strategy, for the select and for `data-testid`s.
pub fn strategy_key(s: Strategy) -> &'static str {
    match s {
        Strategy::DotnetChunk => "dotnet-chunk",
        Strategy::DotnetArrayPath => "dotnet-array-path",
        Strategy::DotnetEnumerablePath => "dotnet-enumerable-path",
        Strategy::SliceChunks => "slice-chunks",
        Strategy::CollectVec => "collect-vec",
        Strategy::ReusedBuffer => "reused-buffer",
        Strategy::Pooled => "pooled",
    }
}

pub fn source_key(k: SourceKind) -> &'static str {
    match k {
        SourceKind::Slice => "slice",
        SourceKind::Vec => "vec",
        SourceKind::Yielded => "iterator",
    }
}

const TEMPLATE_HEAD: &str = r#"
<div class="lab-fields">
  <label class="lab-field">Elements (i32) <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="chunk-len"></label>
  <label class="lab-field">Chunk size <input type="text" inputmode="numeric" autocomplete="off" spellcheck="false" data-testid="chunk-size"></label>
  <label class="lab-field">Source <select data-testid="chunk-source">
    <option value="slice">a slice (.NET int[])</option>
    <option value="vec">a Vec (.NET List&lt;int&gt;)</option>
    <option value="iterator">an iterator (.NET yield return)</option>
  </select></label>
  <label class="lab-field">Strategy <select data-testid="chunk-strategy">"#;

const TEMPLATE_TAIL: &str = r#"</select></label>
</div>
<dl class="lab-calc-result">
  <dt>What runs</dt><dd data-testid="chunk-path"></dd>
  <dt>First chunk: blocks (elements)</dt><dd data-testid="chunk-blocks"></dd>
  <dt>First chunk: allocations, bytes</dt><dd data-testid="chunk-first"></dd>
  <dt>Later chunk: allocations, bytes</dt><dd data-testid="chunk-later"></dd>
  <dt>.NET: first, later chunk bytes (headers included)</dt><dd data-testid="chunk-dotnet"></dd>
  <dt>.NET: chunk array in the LOH?</dt><dd data-testid="chunk-loh"></dd>
</dl>
<table class="lab-table">
  <thead><tr><th>Strategy</th><th>Runs as</th><th>1st: allocs</th><th>1st: bytes</th><th>later: allocs</th><th>later: bytes</th><th>.NET 1st</th><th>.NET later</th></tr></thead>
  <tbody data-testid="chunk-rows"></tbody>
</table>
<p class="lab-why">Measured in this page by the lab's counting allocator (bytes requested; reallocations count as allocations here). Rust arrays carry no header.</p>
<p class="lab-error" role="alert" data-testid="chunk-error" hidden></p>
"#;

pub fn mount(root: &Element) -> Result<(), String> {
    // `initial=LEN/SIZE/SOURCE/STRATEGY`, e.g. `initial=100000/20000/vec/dotnet-chunk`.
    let initial = root
        .get_attribute("data-initial")
        .unwrap_or_else(|| "100000/20000/vec/dotnet-chunk".into());
    let mut v: Vec<&str> = initial.split('/').collect();
    v.resize(4, "");
    let strategies: Vec<(&str, &str)> = Strategy::ALL
        .iter()
        .map(|&s| (strategy_key(s), s.name()))
        .collect();
    root.set_inner_html(&format!(
        "{TEMPLATE_HEAD}{}{TEMPLATE_TAIL}",
        fields::options(&strategies)
    ));
    dom::input(root, "chunk-len")?.set_value(v[0].trim());
    dom::input(root, "chunk-size")?.set_value(v[1].trim());
    fields::select(root, "chunk-source", v[2].trim())?;
    fields::select(root, "chunk-strategy", v[3].trim())?;
    fields::live(root, render)
}

fn cost(c: Option<ChunkCost>) -> (String, String) {
    match c {
        Some(c) => (
            group_digits(c.allocations + c.reallocations),
            group_digits(c.bytes),
        ),
        None => ("—".into(), "—".into()),
    }
}

fn render(root: &Element) -> Result<(), String> {
    let source = fields::selected(root, "chunk-source")?;
    let source = SourceKind::ALL
        .into_iter()
        .find(|&k| source_key(k) == source)
        .unwrap_or(SourceKind::Vec);
    let strategy = fields::selected(root, "chunk-strategy")?;
    let strategy = Strategy::ALL
        .into_iter()
        .find(|&s| strategy_key(s) == strategy)
        .unwrap_or(Strategy::DotnetChunk);
    let result = match (
        fields::number(root, "chunk-len", "Elements")?,
        fields::number(root, "chunk-size", "Chunk size")?,
    ) {
        (Ok(len), Ok(size)) => table(len, size, source, strategy),
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    let t = match result {
        Ok(t) => t,
        Err(e) => {
            fields::error(root, "chunk-error", Some(&e))?;
            dom::find(root, "chunk-rows")?.set_inner_html("");
            for id in [
                "chunk-path",
                "chunk-blocks",
                "chunk-first",
                "chunk-later",
                "chunk-dotnet",
                "chunk-loh",
            ] {
                dom::set_text(root, id, "—")?;
            }
            return Ok(());
        }
    };
    fields::error(root, "chunk-error", None)?;
    let mut rows = String::new();
    for r in &t.rows {
        let (fa, fb) = cost(Some(r.first));
        let (la, lb) = cost(r.later);
        let opt = |v: Option<u64>| v.map_or("—".to_string(), group_digits);
        let key = strategy_key(r.strategy);
        let class = if r.strategy == strategy {
            " class=\"lab-selected\""
        } else {
            ""
        };
        rows.push_str(&format!(
            "<tr data-testid=\"row-{key}\"{class}><td>{}</td><td>{}</td>\
             <td data-testid=\"first-allocs\">{fa}</td><td data-testid=\"first-bytes\">{fb}</td>\
             <td data-testid=\"later-allocs\">{la}</td><td data-testid=\"later-bytes\">{lb}</td>\
             <td data-testid=\"dotnet-first\">{}</td><td data-testid=\"dotnet-later\">{}</td></tr>",
            dom::escape(r.strategy.name()),
            dom::escape(r.path),
            opt(r.dotnet_first_bytes),
            opt(r.dotnet_later_bytes),
        ));
    }
    dom::find(root, "chunk-rows")?.set_inner_html(&rows);
    let Some(row) = t.rows.iter().find(|r| r.strategy == strategy) else {
        return Err("the chosen strategy has no row".into());
    };
    let blocks: Vec<String> = t
        .first_blocks
        .iter()
        .map(|b| group_digits(b.len() as u64))
        .collect();
    let blocks = if blocks.is_empty() {
        "none (borrowed, no copy)".to_string()
    } else if blocks.len() > 8 {
        format!(
            "{} blocks: {}, …, {}",
            blocks.len(),
            blocks[..3].join(", "),
            blocks[blocks.len() - 2..].join(", ")
        )
    } else {
        format!(
            "{} block{}: {}",
            blocks.len(),
            if blocks.len() == 1 { "" } else { "s" },
            blocks.join(", ")
        )
    };
    let (fa, fb) = cost(Some(row.first));
    let (la, lb) = cost(row.later);
    let dotnet = match (row.dotnet_first_bytes, row.dotnet_later_bytes) {
        (Some(f), Some(l)) => format!("{}, {}", group_digits(f), group_digits(l)),
        (Some(f), None) => format!("{}, — (one chunk)", group_digits(f)),
        _ => "— (not a .NET path)".to_string(),
    };
    fields::texts(
        root,
        &[
            ("chunk-path", row.path.to_string()),
            ("chunk-blocks", blocks),
            ("chunk-first", format!("{fa}, {fb}")),
            ("chunk-later", format!("{la}, {lb}")),
            ("chunk-dotnet", dotnet),
            (
                "chunk-loh",
                row.dotnet_chunk_in_loh
                    .map_or("—".to_string(), |b| yes_no(b).to_string()),
            ),
        ],
    )
}
