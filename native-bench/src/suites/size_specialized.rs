//! Chapter 8: choosing the bucket at compile time (`rent_const::<N>()`) against at run time
//! (`rent(n)`), the Rust analogue of Go 1.27's size-specialized allocation. Time, and the code
//! size it costs: each `rent_const::<N>` is its own copy of the rent path, one per size.
//!
//! Code size is read from this very binary's symbol table (`nm -S`): small `#[no_mangle]`
//! functions that do one rent + return each, never inlined. The wasm side is read the same way
//! from the wasm-release build of the lab (`wasm_lab.wasm`, made by `cargo xtask build`, `serve`
//! or `bench`): the twin probes in `wasm-lab/src/code_probe.rs`, found by export name in the
//! code section. A negative result is reported as plainly as a positive one.

use anyhow::{Context, Result, bail};
use bench_data::Unit;
use bufpool::pool::SharedPool;

use crate::measure::Session;
use crate::paired::Group;

pub const SIZES: &[usize] = &[16, 4096, 81_920];
pub const STEPS: usize = SIZES.len();

/// Rent + return with the size known only at run time.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn nb_probe_rent_runtime(pool: &SharedPool<u8>, n: usize) -> usize {
    pool.try_rent(n).map_or(0, |b| b.capacity())
}

/// Rent + return of 16 elements, bucket chosen at compile time.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn nb_probe_rent_const_16(pool: &SharedPool<u8>) -> usize {
    pool.try_rent_const::<16>().map_or(0, |b| b.capacity())
}

/// Rent + return of 4,096 elements, bucket chosen at compile time.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn nb_probe_rent_const_4096(pool: &SharedPool<u8>) -> usize {
    pool.try_rent_const::<4096>().map_or(0, |b| b.capacity())
}

/// Rent + return of 81,920 elements, bucket chosen at compile time.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn nb_probe_rent_const_81920(pool: &SharedPool<u8>) -> usize {
    pool.try_rent_const::<81_920>().map_or(0, |b| b.capacity())
}

/// Sizes (bytes) of the symbols named `names` in `nm -S` output (`addr size type name`).
pub fn symbol_sizes(nm_output: &str, names: &[&str]) -> Vec<Option<u64>> {
    names
        .iter()
        .map(|want| {
            nm_output.lines().find_map(|line| {
                let f: Vec<&str> = line.split_whitespace().collect();
                match f.as_slice() {
                    [_, size, kind, name] if name == want && kind.eq_ignore_ascii_case("t") => {
                        u64::from_str_radix(size, 16).ok()
                    }
                    _ => None,
                }
            })
        })
        .collect()
}

/// Code bytes of the runtime probe and of each const probe, read from this binary.
pub fn code_sizes() -> Result<(u64, Vec<u64>)> {
    let exe = std::env::current_exe().context("cannot find the bench binary")?;
    let out = std::process::Command::new("nm")
        .arg("-S")
        .arg("--defined-only")
        .arg(&exe)
        .output()
        .context("cannot run `nm` (binutils) to read code sizes")?;
    if !out.status.success() {
        bail!("nm failed on {}", exe.display());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let names = [
        "nb_probe_rent_runtime",
        "nb_probe_rent_const_16",
        "nb_probe_rent_const_4096",
        "nb_probe_rent_const_81920",
    ];
    let sizes = symbol_sizes(&text, &names);
    let mut got = Vec::new();
    for (name, size) in names.iter().zip(sizes) {
        got.push(size.with_context(|| format!("symbol {name} not in {}", exe.display()))?);
    }
    Ok((got[0], got[1..].to_vec()))
}

/// A size the optimizer cannot know: `n` as if read from input.
#[inline(never)]
fn runtime_size(n: usize) -> usize {
    std::hint::black_box(n)
}

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    for &n in SIZES {
        let key = |v: &str| format!("size_specialized.{n}.{v}");
        let mut g = Group::new(format!("size_specialized.{n}"));
        // Both arms as a user writes them. The run-time size comes from the run (here read once
        // through `black_box`, as from input or a table): the optimizer cannot fold it, and it
        // may do with it what it would in a user's loop (the closure holds it by value). No arm
        // has a `black_box` in its loop.
        let n_at_run_time = runtime_size(n);
        let p = &pool;
        g.time(
            &key("runtime"),
            &format!("rent(n) + return with n = {n} read at run time, bucket chosen at run time"),
            move || drop(p.rent(n_at_run_time)),
        );
        let literal = format!(
            "rent({n}) + return with the literal {n}: what LLVM folds when rent is inlined"
        );
        match n {
            16 => g.time(&key("literal"), &literal, move || drop(p.rent(16))),
            4096 => g.time(&key("literal"), &literal, move || drop(p.rent(4096))),
            _ => g.time(&key("literal"), &literal, move || drop(p.rent(81_920))),
        }
        let title = format!("rent_const::<{n}>() + return, bucket chosen at compile time");
        match n {
            16 => g.time(&key("const"), &title, || drop(pool.rent_const::<16>())),
            4096 => g.time(&key("const"), &title, || drop(pool.rent_const::<4096>())),
            _ => g.time(&key("const"), &title, || drop(pool.rent_const::<81_920>())),
        }
        s.compare(g)?;
        s.ratio_of(
            &key("literal_vs_runtime"),
            &format!("rent with a literal size ÷ with a run-time size, rent+return of {n} B"),
            &key("literal"),
            &key("runtime"),
        );
        s.ratio_of(
            &key("const_vs_literal"),
            &format!("rent_const ÷ rent with a literal size, rent+return of {n} B"),
            &key("const"),
            &key("literal"),
        );
        s.ratio_of(
            &key("const_vs_runtime"),
            &format!("compile-time ÷ run-time bucket selection, rent+return of {n} B"),
            &key("const"),
            &key("runtime"),
        );
    }
    // Keep the probes in the binary (and check they agree with each other).
    let caps = [
        nb_probe_rent_runtime(&pool, 16),
        nb_probe_rent_const_16(&pool),
        nb_probe_rent_const_4096(&pool),
        nb_probe_rent_const_81920(&pool),
    ];
    if caps != [16, 16, 4096, 131_072] {
        bail!("rent_const disagrees with rent: capacities {caps:?}");
    }
    match code_sizes() {
        Ok((runtime, consts)) => {
            s.exact(
                "size_specialized.code.runtime_fn.bytes",
                "machine code of one rent + return with the size known at run time (any size)",
                Unit::Bytes,
                runtime as f64,
            )?;
            for (n, b) in [16, 4096, 81_920].iter().zip(&consts) {
                s.exact(
                    &format!("size_specialized.code.const_{n}_fn.bytes"),
                    &format!("machine code of rent_const::<{n}>() + return (one size)"),
                    Unit::Bytes,
                    *b as f64,
                )?;
            }
            s.exact(
                "size_specialized.code.const_3_sizes.bytes",
                "machine code of rent_const + return for 3 sizes (one copy per size)",
                Unit::Bytes,
                consts.iter().sum::<u64>() as f64,
            )?;
        }
        Err(e) => eprintln!("    code size not measured: {e:#}"),
    }
    wasm_code_sizes(s)
}

/// The wasm probes' export names: run-time rent, then `rent_const` for each of [`SIZES`].
pub const WASM_PROBES: [&str; 4] = [
    "wl_probe_rent_runtime",
    "wl_probe_rent_const_16",
    "wl_probe_rent_const_4096",
    "wl_probe_rent_const_81920",
];

/// Records the wasm probes' body bytes, or says plainly why it cannot (never a made-up number).
fn wasm_code_sizes(s: &mut Session) -> Result<()> {
    let path = crate::wasm_code::artifact(&crate::wasm_code::target_dir());
    let wasm = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!(
                "    wasm code size not measured: cannot read {} ({e}); build it with \
                 `cargo xtask bench` (or `cargo xtask build`) and rerun",
                path.display()
            );
            return Ok(());
        }
    };
    let code = crate::wasm_code::body_sizes(&wasm, &WASM_PROBES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let sizes = code.named;
    let missing: Vec<&str> = WASM_PROBES
        .iter()
        .zip(&sizes)
        .filter(|(_, size)| size.is_none())
        .map(|(name, _)| *name)
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "    wasm code size not measured: {} has no function {} (an old build? rebuild it \
             with `cargo xtask bench` or `cargo xtask build`)",
            path.display(),
            missing.join(", ")
        );
        return Ok(());
    }
    let sizes: Vec<u64> = sizes.into_iter().flatten().collect();
    eprintln!("    wasm code size read from {}", path.display());
    s.exact(
        "size_specialized.wasm.runtime_fn.bytes",
        "wasm code of one rent + return with the size known at run time (any size)",
        Unit::Bytes,
        sizes[0] as f64,
    )?;
    for (n, b) in SIZES.iter().zip(&sizes[1..]) {
        s.exact(
            &format!("size_specialized.wasm.const_{n}_fn.bytes"),
            &format!("wasm code of rent_const::<{n}>() + return (one size)"),
            Unit::Bytes,
            *b as f64,
        )?;
    }
    s.exact(
        "size_specialized.wasm.const_3_sizes.bytes",
        "wasm code of rent_const + return for 3 sizes (one copy per size)",
        Unit::Bytes,
        sizes[1..].iter().sum::<u64>() as f64,
    )?;
    s.exact(
        "size_specialized.wasm.all_fns.bytes",
        "wasm code of every function of the lab's module together (its code section's bodies)",
        Unit::Bytes,
        code.all_bodies as f64,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nm_lines() {
        let out = "\
0000000000012340 0000000000000042 T nb_probe_rent_runtime
0000000000012400 0000000000000030 t nb_probe_rent_const_16
                 U malloc
0000000000012500 0000000000000010 D nb_probe_rent_const_4096
";
        let got = symbol_sizes(
            out,
            &[
                "nb_probe_rent_runtime",
                "nb_probe_rent_const_16",
                "nb_probe_rent_const_4096",
            ],
        );
        assert_eq!(got, [Some(0x42), Some(0x30), None]);
    }
}
