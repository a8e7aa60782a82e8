//! Reading callgrind's output: the self cost (instructions executed) of every instruction, or of
//! every line when the output has no instruction positions.
//!
//! The format (callgrind's `callgrind-format` documentation): a `positions:` line names the
//! position columns (`instr line` with `--dump-instr=yes`, else `line`), `events:` the cost
//! columns (here `Ir`, instructions executed). `ob=`, `fn=` set the object and function of the
//! cost lines that follow; a name is compressed as `(id) name` the first time and `(id)` after,
//! one numbering per kind (`ob`/`cob`, `fl`/`fi`/`fe`/`cfi`, `fn`/`cfn`). A cost line is its
//! positions then its costs; a position is absolute (`0x1a2b`, `42`), relative to the previous
//! cost line's (`+3`, `-14`) or the same (`*`). A `calls=` line makes the next cost line the
//! inclusive cost of a call (its callee's work): not this instruction's own, but it still moves
//! the position.

use std::collections::{BTreeMap, HashMap};

/// The instructions one instruction (or line) executed, in one function of one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cost {
    /// The object file, as callgrind names it (a path, or e.g. `[vdso]`).
    pub object: String,
    /// The function, mangled (`--demangle=no`).
    pub function: String,
    /// The instruction's address relative to its object (0 when the output has no `instr`
    /// positions).
    pub address: u64,
    /// Times executed (self cost, `Ir`).
    pub count: u64,
}

/// Every self cost of a callgrind output file, merged per object, function and address, in
/// that order.
pub fn costs(text: &str) -> Vec<Cost> {
    let mut positions: Vec<String> = vec!["line".into()];
    let mut names: HashMap<(&'static str, String), String> = HashMap::new();
    let (mut object, mut function) = (String::new(), String::new());
    let mut last: Vec<u64> = Vec::new();
    let mut call = false;
    let mut out: BTreeMap<(String, String, u64), u64> = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("positions:") {
            positions = rest.split_whitespace().map(str::to_string).collect();
            continue;
        }
        if let Some((key, rest)) = line.split_once('=')
            && key.bytes().all(|b| b.is_ascii_lowercase())
            && !key.is_empty()
        {
            match key {
                "ob" => object = name("ob", rest, &mut names),
                "fn" => function = name("fn", rest, &mut names),
                "cob" => drop(name("ob", rest, &mut names)),
                "cfn" => drop(name("fn", rest, &mut names)),
                "fl" | "fi" | "fe" | "cfi" | "cfl" => drop(name("fl", rest, &mut names)),
                "calls" => call = true,
                _ => {}
            }
            continue;
        }
        let first = line.bytes().next();
        if !matches!(first, Some(b'0'..=b'9' | b'+' | b'-' | b'*')) {
            continue;
        }
        let mut words = line.split_whitespace();
        let mut here = Vec::with_capacity(positions.len());
        for i in 0..positions.len() {
            let previous = last.get(i).copied().unwrap_or(0);
            here.push(position(words.next().unwrap_or("*"), previous));
        }
        last = here;
        let count: u64 = words.next().and_then(|c| c.parse().ok()).unwrap_or(0);
        if std::mem::take(&mut call) || count == 0 {
            continue;
        }
        let address = positions
            .iter()
            .position(|p| p == "instr")
            .map_or(0, |i| last[i]);
        *out.entry((object.clone(), function.clone(), address))
            .or_default() += count;
    }
    out.into_iter()
        .map(|((object, function, address), count)| Cost {
            object,
            function,
            address,
            count,
        })
        .collect()
}

/// Self cost per function (summed over objects), the functions with any.
pub fn per_function(costs: &[Cost]) -> Vec<(String, u64)> {
    let mut out: BTreeMap<&str, u64> = BTreeMap::new();
    for c in costs {
        *out.entry(&c.function).or_default() += c.count;
    }
    out.into_iter()
        .filter(|(_, c)| *c > 0)
        .map(|(f, c)| (f.to_string(), c))
        .collect()
}

/// One position column: `0x…` hex or decimal absolute, `+n`/`-n` relative (decimal), `*` same.
fn position(word: &str, previous: u64) -> u64 {
    let number = |s: &str| match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse::<u64>().ok(),
    };
    if word == "*" {
        previous
    } else if let Some(n) = word.strip_prefix('+') {
        previous.wrapping_add(number(n).unwrap_or(0))
    } else if let Some(n) = word.strip_prefix('-') {
        previous.wrapping_sub(number(n).unwrap_or(0))
    } else {
        number(word).unwrap_or(previous)
    }
}

/// `(12) name` defines id 12 of `kind`; `(12)` refers to it; an uncompressed name is itself.
fn name(
    kind: &'static str,
    field: &str,
    names: &mut HashMap<(&'static str, String), String>,
) -> String {
    let field = field.trim();
    match field.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((id, name)) if !name.trim().is_empty() => {
            let name = name.trim().to_string();
            names.insert((kind, id.to_string()), name.clone());
            name
        }
        Some((id, _)) => names
            .get(&(kind, id.to_string()))
            .cloned()
            .unwrap_or_default(),
        None => field.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(object: &str, function: &str, address: u64, count: u64) -> Cost {
        Cost {
            object: object.into(),
            function: function.into(),
            address,
            count,
        }
    }

    /// Line positions only (callgrind's default): one cost per line, the calls' inclusive cost
    /// left out.
    #[test]
    fn self_costs_without_instruction_positions() {
        let text = "events: Ir\nfn=(1) outer\n0 10\ncfn=(2) inner\ncalls=1 0\n0 500\n+2 5\nfn=(2)\n* 500\nfn=(1)\n0 1\n";
        assert_eq!(
            per_function(&costs(text)),
            vec![("inner".into(), 500), ("outer".into(), 16)]
        );
    }

    /// `--dump-instr=yes`: per instruction, with relative and repeated addresses; the call's
    /// line moves the position but is not the call instruction's own cost; `ob` and `fn` ids are
    /// numbered apart.
    #[test]
    fn per_instruction_costs() {
        let text = "\
positions: instr line
events: Ir
ob=(1) /bin/bench
fl=(1) ???
fn=(1) loop
0x100 0 1
+3 0 200
cfn=(2) clock
calls=2 0x400 0
* 0 86
+2 0 200
-5 0 199
+5 0 1
ob=(2) /lib/libc.so.6
fn=(2)
0x400 0 40
+4 0 3
ob=(1)
fn=(1)
0x105 0 1
totals: 1000
";
        assert_eq!(
            costs(text),
            vec![
                cost("/bin/bench", "loop", 0x100, 200),
                cost("/bin/bench", "loop", 0x103, 200),
                cost("/bin/bench", "loop", 0x105, 202),
                cost("/lib/libc.so.6", "clock", 0x400, 40),
                cost("/lib/libc.so.6", "clock", 0x404, 3),
            ]
        );
        assert_eq!(
            per_function(&costs(text)),
            vec![("clock".into(), 43), ("loop".into(), 602)]
        );
    }
}
