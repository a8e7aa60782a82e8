//! The return-contract widget (chapter 4): double return, use after return, foreign return and
//! the missing `finally`, each run live on a handle pool, with a switch for checked mode.

use web_sys::Element;

use super::{dom, fields};
use crate::input::{group_digits, parse_size};
use crate::scenario::return_contract::{
    MAX_ROUNDS, check_foreign_length, double_return, foreign_return, forgotten_return,
    use_after_return,
};

const TEMPLATE: &str = r#"
<label class="lab-check"><input type="checkbox" data-testid="contract-checked"> checked mode (beyond .NET: the pool reports misuse as errors)</label>
<div class="lab-section" data-testid="contract-double">
  <h4>Double return</h4>
  <p><code>x = pool.Rent(64); pool.Return(x);</code>
    <label class="lab-check"><input type="checkbox" data-testid="dr-twice" checked> <code>pool.Return(x);</code> again</label>
    <code>r1 = pool.Rent(64); r2 = pool.Rent(64);</code>
    <label class="lab-field"><code>r1[0] =</code> <input type="text" inputmode="numeric" autocomplete="off" data-testid="dr-value"></label></p>
  <dl class="lab-calc-result">
    <dt>Second return</dt><dd data-testid="dr-second"></dd>
    <dt><code>ReferenceEquals(r1, r2)</code></dt><dd data-testid="dr-same"></dd>
    <dt><code>r2[0]</code> reads</dt><dd data-testid="dr-r2"></dd>
  </dl>
  <p class="lab-error" role="alert" data-testid="dr-error" hidden></p>
</div>
<div class="lab-section" data-testid="contract-uar">
  <h4>Use after return</h4>
  <p><code>stale = pool.Rent(64); pool.Return(stale); fresh = pool.Rent(64);</code>
    <label class="lab-field"><code>fresh[0] =</code> <input type="text" inputmode="numeric" autocomplete="off" data-testid="uar-fresh"></label>
    <label class="lab-field"><code>stale[0] =</code> <input type="text" inputmode="numeric" autocomplete="off" data-testid="uar-stale"></label></p>
  <dl class="lab-calc-result">
    <dt><code>ReferenceEquals(fresh, stale)</code></dt><dd data-testid="uar-same"></dd>
    <dt>The stale write</dt><dd data-testid="uar-write"></dd>
    <dt><code>fresh[0]</code> reads</dt><dd data-testid="uar-reads"></dd>
  </dl>
  <p class="lab-error" role="alert" data-testid="uar-error" hidden></p>
</div>
<div class="lab-section" data-testid="contract-foreign">
  <h4>Foreign return</h4>
  <p><label class="lab-field"><code>mine = new byte[</code><input type="text" inputmode="numeric" autocomplete="off" data-testid="fr-length"><code>]</code></label>
    <label class="lab-field"><code>mine[0] =</code> <input type="text" inputmode="numeric" autocomplete="off" data-testid="fr-value"></label>
    <code>pool.Return(mine); got = pool.Rent(mine.Length);</code></p>
  <dl class="lab-calc-result">
    <dt>The return</dt><dd data-testid="fr-return"></dd>
    <dt><code>ReferenceEquals(got, mine)</code></dt><dd data-testid="fr-same"></dd>
    <dt><code>got[0]</code> reads</dt><dd data-testid="fr-reads"></dd>
  </dl>
  <p class="lab-error" role="alert" data-testid="fr-error" hidden></p>
</div>
<div class="lab-section" data-testid="contract-finally">
  <h4>The missing <code>finally</code></h4>
  <p>The pool starts with its full stock of 128-byte buffers; each round rents 128 bytes and fails.
    <label class="lab-field">rounds <input type="text" inputmode="numeric" autocomplete="off" data-testid="mf-rounds"></label></p>
  <dl class="lab-calc-result">
    <dt>Spare buffers at the start</dt><dd data-testid="mf-stock"></dd>
    <dt>New buffers, return in <code>finally</code></dt><dd data-testid="mf-with"></dd>
    <dt>New buffers, return forgotten on the error path</dt><dd data-testid="mf-without"></dd>
    <dt>Bytes allocated, <code>finally</code> / forgotten</dt><dd data-testid="mf-bytes"></dd>
  </dl>
  <p class="lab-error" role="alert" data-testid="mf-error" hidden></p>
</div>
"#;

const INPUTS: [(&str, &str); 6] = [
    ("dr-value", "11"),
    ("uar-fresh", "200"),
    ("uar-stale", "99"),
    ("fr-length", "128"),
    ("fr-value", "77"),
    ("mf-rounds", "10"),
];

pub fn mount(root: &Element) -> Result<(), String> {
    root.set_inner_html(TEMPLATE);
    for (id, value) in INPUTS {
        dom::input(root, id)?.set_value(value);
    }
    fields::live(root, render)
}

/// A byte typed into a field.
fn byte(root: &Element, id: &str, what: &str) -> Result<Result<u8, String>, String> {
    let typed = dom::input(root, id)?.value();
    Ok(match parse_size(&typed) {
        Ok(n) if n <= 255 => Ok(n as u8),
        Ok(n) => Err(format!(
            "{what}: {} does not fit in a byte (0 to 255)",
            group_digits(n)
        )),
        Err(e) => Err(format!("{what}: {e}")),
    })
}

/// A count typed into a field.
fn count(root: &Element, id: &str, what: &str) -> Result<Result<u64, String>, String> {
    let typed = dom::input(root, id)?.value();
    Ok(parse_size(&typed).map_err(|e| format!("{what}: {e}")))
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn accepted(outcome: &Option<String>) -> String {
    outcome
        .as_ref()
        .map_or("accepted, no error".to_string(), |e| format!("error: {e}"))
}

/// Shows `result` in a section: its values, or its error with the values dashed.
fn section(
    root: &Element,
    error_id: &str,
    ids: &[&str],
    result: Result<Vec<String>, String>,
) -> Result<(), String> {
    let error = dom::find(root, error_id)?;
    match result {
        Ok(values) => {
            dom::set_hidden(&error, true);
            for (id, value) in ids.iter().zip(values) {
                dom::set_text(root, id, &value)?;
            }
        }
        Err(message) => {
            error.set_text_content(Some(&message));
            dom::set_hidden(&error, false);
            for id in ids {
                dom::set_text(root, id, "—")?;
            }
        }
    }
    Ok(())
}

fn render(root: &Element) -> Result<(), String> {
    let checked = dom::input(root, "contract-checked")?.checked();
    let twice = dom::input(root, "dr-twice")?.checked();

    let dr = byte(root, "dr-value", "r1[0]")?.and_then(|v| {
        double_return(v, twice, checked)
            .map(|r| {
                vec![
                    if twice {
                        accepted(&r.second_return)
                    } else {
                        "not made".into()
                    },
                    yes_no(r.same_buffer).into(),
                    r.r2_reads.to_string(),
                ]
            })
            .map_err(|e| e.to_string())
    });
    section(root, "dr-error", &["dr-second", "dr-same", "dr-r2"], dr)?;

    let fresh = byte(root, "uar-fresh", "fresh[0]")?;
    let stale = byte(root, "uar-stale", "stale[0]")?;
    let uar = fresh
        .and_then(|f| stale.map(|s| (f, s)))
        .and_then(|(f, s)| {
            use_after_return(f, s, checked)
                .map(|r| {
                    vec![
                        yes_no(r.same_buffer).into(),
                        accepted(&r.stale_write)
                            .replace("accepted, no error", "went through, no error"),
                        r.fresh_reads.to_string(),
                    ]
                })
                .map_err(|e| e.to_string())
        });
    section(
        root,
        "uar-error",
        &["uar-same", "uar-write", "uar-reads"],
        uar,
    )?;

    let length = count(root, "fr-length", "Length")?.and_then(check_foreign_length);
    let value = byte(root, "fr-value", "mine[0]")?;
    let fr = length
        .and_then(|l| value.map(|v| (l, v)))
        .and_then(|(l, v)| {
            foreign_return(l, v, checked)
                .map(|r| {
                    vec![
                        accepted(&r.refused),
                        yes_no(r.next_is_mine).into(),
                        r.next_reads
                            .map_or("nothing (an empty buffer)".into(), |x| x.to_string()),
                    ]
                })
                .map_err(|e| e.to_string())
        });
    section(root, "fr-error", &["fr-return", "fr-same", "fr-reads"], fr)?;

    let rounds = count(root, "mf-rounds", "Rounds")?.and_then(|n| {
        if n > MAX_ROUNDS {
            Err(format!(
                "Rounds: this widget runs at most {} rounds in your browser",
                group_digits(MAX_ROUNDS)
            ))
        } else {
            Ok(n)
        }
    });
    let mf = rounds.and_then(|n| {
        let with = forgotten_return(n, true).map_err(|e| e.to_string())?;
        let without = forgotten_return(n, false).map_err(|e| e.to_string())?;
        let bytes = |f: &crate::scenario::return_contract::Forgotten| {
            f.alloc.map_or("—".into(), |a| {
                format!("{} B", group_digits(a.bytes_allocated))
            })
        };
        Ok(vec![
            with.stock.to_string(),
            group_digits(with.new_buffers),
            group_digits(without.new_buffers),
            format!("{} / {}", bytes(&with), bytes(&without)),
        ])
    });
    section(
        root,
        "mf-error",
        &["mf-stock", "mf-with", "mf-without", "mf-bytes"],
        mf,
    )
}
