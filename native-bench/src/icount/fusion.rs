//! Macro-op fusion counted from the loop's own code: a compare (or, on cores that fuse more,
//! an arithmetic instruction) directly followed by a conditional jump enters the core as one
//! macro-op. Each such pair of the disassembly is counted as often as both of its instructions
//! ran (callgrind's per-instruction counts), and the loop's macro-ops are its instructions less
//! those pairs.

use std::collections::HashMap;

use super::width::Fusion;

/// One instruction of a disassembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    pub address: u64,
    /// The mnemonic without prefixes (`cmp`, `jne`), as objdump's Intel syntax writes it.
    pub mnemonic: String,
}

/// objdump's `-d --no-show-raw-insn -M intel` output as runs of adjacent instructions: a new
/// run starts at each symbol and where objdump skipped bytes (`...`), so two instructions are
/// next to each other in a run only if they are in the code.
pub fn parse_objdump(text: &str) -> Vec<Vec<Insn>> {
    let mut runs: Vec<Vec<Insn>> = vec![Vec::new()];
    for line in text.lines() {
        let trimmed = line.trim();
        let gap = trimmed == "..." || trimmed.ends_with(">:");
        if gap {
            if !runs.last().is_some_and(Vec::is_empty) {
                runs.push(Vec::new());
            }
            continue;
        }
        if !line.starts_with(' ') {
            continue;
        }
        let Some((address, rest)) = trimmed.split_once(':') else {
            continue;
        };
        let Ok(address) = u64::from_str_radix(address.trim(), 16) else {
            continue;
        };
        let Some(mnemonic) = rest.split_whitespace().find(|w| !is_prefix(w)) else {
            continue;
        };
        if let Some(run) = runs.last_mut() {
            run.push(Insn {
                address,
                mnemonic: mnemonic.to_string(),
            });
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

fn is_prefix(word: &str) -> bool {
    matches!(
        word,
        "rep"
            | "repz"
            | "repe"
            | "repnz"
            | "repne"
            | "lock"
            | "bnd"
            | "notrack"
            | "data16"
            | "addr32"
            | "cs"
            | "ds"
            | "ss"
            | "es"
            | "fs"
            | "gs"
    ) || word.starts_with("rex")
}

/// A jump on the flags (`jne`, `ja`, …): not `jmp`, nor the jumps on a count register.
pub fn is_conditional_jump(mnemonic: &str) -> bool {
    mnemonic.starts_with('j') && !matches!(mnemonic, "jmp" | "jrcxz" | "jecxz" | "jcxz")
}

/// Executions of fused pairs in `runs`: for each instruction `fusion` fuses that is directly
/// followed by a conditional jump, the times both ran (the lesser count: the jump may also be
/// reached from elsewhere). `counts` holds each instruction's executions by address.
pub fn fused_pairs(runs: &[Vec<Insn>], counts: &HashMap<u64, u64>, fusion: Fusion) -> u64 {
    let ran = |i: &Insn| counts.get(&i.address).copied().unwrap_or(0);
    runs.iter()
        .flat_map(|run| run.windows(2))
        .filter(|pair| fusion.fuses(&pair[0].mnemonic) && is_conditional_jump(&pair[1].mnemonic))
        .map(|pair| ran(&pair[0]).min(ran(&pair[1])))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop as objdump prints it (Intel syntax, no raw bytes), with the four cases: `cmp` +
    /// `jne` (fused), `test` + `je` (fused), `cmp` followed by a non-jump (not), and a jump
    /// after neither (not); then `dec` + `jne`, fused only by cores that fuse arithmetic.
    const LOOP: &str = "
/tmp/bench:     file format elf64-x86-64


Disassembly of section .text:

000000000013d250 <loop>:
  13d250:\tmov    rdx,QWORD PTR [r13+0x0]
  13d254:\tcmp    rcx,QWORD PTR [r12+0x210]
  13d25c:\tjne    13d2d2 <loop+0x82>
  13d25e:\ttest   rsi,rsi
  13d261:\tje     13d2d2 <loop+0x82>
  13d263:\tcmp    rax,0x1a
  13d267:\tmov    edx,0x10
  13d26c:\tmov    rax,QWORD PTR fs:[rbx]
  13d270:\tjne    13d336 <loop+0xe6>
  13d272:\tdec    r15
  13d275:\tjne    13d250 <loop>
  13d277:\tbnd jmp 13d365 <loop+0x115>
\t...
  13d290:\tje     13d250 <loop>
";

    fn counts(pairs: &[(u64, u64)]) -> HashMap<u64, u64> {
        pairs.iter().copied().collect()
    }

    #[test]
    fn objdump_lines_become_runs_of_instructions() {
        let runs = parse_objdump(LOOP);
        assert_eq!(runs.len(), 2, "{runs:?}");
        let names: Vec<&str> = runs[0].iter().map(|i| i.mnemonic.as_str()).collect();
        assert_eq!(
            names,
            [
                "mov", "cmp", "jne", "test", "je", "cmp", "mov", "mov", "jne", "dec", "jne", "jmp"
            ]
        );
        assert_eq!(runs[0][1].address, 0x13d254);
        assert_eq!(runs[1][0].mnemonic, "je");
        assert!(parse_objdump("no code here\n").is_empty());
    }

    #[test]
    fn compare_and_test_pairs_are_fused_the_times_they_ran() {
        let runs = parse_objdump(LOOP);
        let every = |n| {
            counts(&[
                (0x13d250, n),
                (0x13d254, n),
                (0x13d25c, n),
                (0x13d25e, n),
                (0x13d261, n),
                (0x13d263, n),
                (0x13d267, n),
                (0x13d26c, n),
                (0x13d270, n),
                (0x13d272, n),
                (0x13d275, n),
            ])
        };
        // cmp + jne and test + je; not cmp + mov, not mov + jne, not dec + jne.
        assert_eq!(fused_pairs(&runs, &every(100), Fusion::CmpTest), 200);
        // A core that fuses arithmetic also fuses dec + jne.
        assert_eq!(fused_pairs(&runs, &every(100), Fusion::Alu), 300);
        // The jump after the gap is not next to the `jmp` before it; nothing ran, nothing fused.
        assert_eq!(fused_pairs(&runs, &HashMap::new(), Fusion::Alu), 0);
    }

    /// A jump reached from elsewhere as well as after its compare: only the compare's runs are
    /// pairs. A compare that ran without its jump (cannot happen, but a count may be cut) pairs
    /// only as often as the jump ran.
    #[test]
    fn a_pair_runs_as_often_as_its_rarer_half() {
        let runs = parse_objdump(LOOP);
        let c = counts(&[(0x13d254, 10), (0x13d25c, 25), (0x13d25e, 7), (0x13d261, 3)]);
        assert_eq!(fused_pairs(&runs, &c, Fusion::CmpTest), 10 + 3);
    }

    #[test]
    fn conditional_jumps() {
        for j in ["je", "jne", "ja", "jbe", "jl", "jge", "js", "jno", "jp"] {
            assert!(is_conditional_jump(j), "{j}");
        }
        for j in ["jmp", "jrcxz", "call", "cmp"] {
            assert!(!is_conditional_jump(j), "{j}");
        }
    }
}
