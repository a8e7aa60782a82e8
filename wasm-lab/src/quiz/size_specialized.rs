//! The size-specialized rent quiz (chapter 8): fresh sizes and call-site lists. Computed answers
//! come from [`crate::scenario::size_specialized`], the same functions the `size-specialized` widget shows;
//! the two Go questions are reference facts quoted from the Russian article on Go 1.27, not
//! computed (the lab cannot run Go).

use super::{Kind, Quiz, Rng};
use crate::input::group_digits;
use crate::scenario::size_specialized::{
    GO_SPECIALIZED_MALLOC_MAX, const_bucket_index, go_specializes, monomorphize,
};

pub const QUIZ: Quiz = Quiz {
    id: "size-specialized",
    title: "Size-specialized rent",
    kinds: &[
        &CompileTimeBucket,
        &BucketRoutines,
        &GoSpecializes,
        &GoGeomean,
        &GoBinaryGrowth,
    ],
};

/// "`rent::<N>()`: which bucket index does the compiler resolve?" — a number.
pub struct CompileTimeBucket;
/// "These call sites: how many bucket-specialized copies are compiled?" — a number.
pub struct BucketRoutines;
/// "Does Go 1.27 specialize `new(T)` of N bytes?" — yes or no, by the compiler's rule.
pub struct GoSpecializes;
/// REFERENCE FACT, not computed: Go 1.27's geomean change on the article's allocation
/// microbenchmarks (Russian article on Go 1.27, Go reference result).
pub struct GoGeomean;
/// REFERENCE FACT, not computed: the binary growth of the article's hello world (Go reference).
pub struct GoBinaryGrowth;

impl Kind for CompileTimeBucket {
    fn name(&self) -> &'static str {
        "compile-time-bucket"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.request()
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "A const-generic rent::<{}>() on a pool of u8: which bucket index does the compiler put in the code?",
            group_digits(n)
        )
    }
    fn expected(&self, n: u64) -> String {
        usize::try_from(n)
            .ok()
            .and_then(const_bucket_index)
            .map_or("none".into(), |i| i.to_string())
    }
    fn explain(&self, n: u64) -> String {
        format!(
            "The same formula, evaluated once by the compiler instead of at every rent: {}",
            crate::calc::calculate(n).why
        )
    }
}

/// The sizes a [`BucketRoutines`] question lists, drawn from its value (a seed).
pub fn routine_sizes(seed: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed);
    let count = 3 + rng.below(5);
    (0..count)
        .map(|_| {
            let power = 1u64 << (4 + rng.below(9));
            match rng.below(3) {
                0 => power,
                1 => power - rng.below(power / 2),
                _ => power + 1 + rng.below(power),
            }
        })
        .collect()
}

impl Kind for BucketRoutines {
    fn name(&self) -> &'static str {
        "bucket-routines"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.next_u64() >> 12
    }
    fn prompt(&self, seed: u64) -> String {
        let sizes: Vec<String> = routine_sizes(seed).into_iter().map(group_digits).collect();
        format!(
            "A program calls rent::<N>() with N = {}. If the const-generic rent forwards to one specialized path per bucket, how many copies of that path are compiled?",
            sizes.join("; ")
        )
    }
    fn expected(&self, seed: u64) -> String {
        monomorphize(&routine_sizes(seed)).map_or_else(|e| e, |m| m.distinct_buckets.to_string())
    }
    fn explain(&self, seed: u64) -> String {
        match monomorphize(&routine_sizes(seed)) {
            Ok(m) => {
                let pairs: Vec<String> = m
                    .rows
                    .iter()
                    .map(|r| {
                        format!(
                            "{} → {}",
                            group_digits(r.size),
                            r.index.map_or("none".into(), |i| i.to_string())
                        )
                    })
                    .collect();
                format!(
                    "One copy per distinct bucket ({}): {} distinct sizes, {} distinct buckets. A run-time rent compiles one path for all",
                    pairs.join(", "),
                    m.distinct_sizes,
                    m.distinct_buckets
                )
            }
            Err(e) => e,
        }
    }
}

impl Kind for GoSpecializes {
    fn name(&self) -> &'static str {
        "go-specializes"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        match rng.below(2) {
            0 => 72 + rng.below(17),
            _ => 1 + rng.below(160),
        }
    }
    fn prompt(&self, n: u64) -> String {
        format!(
            "Go 1.27: does p = new(T) with a {n}-byte T call a size-specialized allocation routine?"
        )
    }
    fn expected(&self, n: u64) -> String {
        if go_specializes(n) { "yes" } else { "no" }.into()
    }
    fn explain(&self, n: u64) -> String {
        format!(
            "The compiler specializes sizes up to specializedMallocMax = {GO_SPECIALIZED_MALLOC_MAX} bytes; {n} is {} (Go reference: the Russian article on Go 1.27 quotes the compiler source)",
            if go_specializes(n) {
                "within it, so the call site names the routine of its size class"
            } else {
                "over it, so the call goes through the generic mallocgc tree"
            }
        )
    }
}

// REFERENCE FACTS below: the lab cannot compute Go's measurements. The right choice is quoted
// from the Russian article on Go 1.27 (Go reference results, AMD Ryzen 9 7940HS).
const GEOMEAN_CHOICES: &[&str] = &["−24.62 %", "−2.46 %", "+24.62 %", "−40.90 %"];
const GEOMEAN_REFERENCE: &str = "−24.62 %";
const GROWTH_CHOICES: &[&str] = &["+4,166 B", "+41,658 B", "+69,241 B", "+416,580 B"];
const GROWTH_REFERENCE: &str = "+41,658 B";

impl Kind for GoGeomean {
    fn name(&self) -> &'static str {
        "go-geomean"
    }
    fn choices(&self) -> &'static [&'static str] {
        GEOMEAN_CHOICES
    }
    fn draw(&self, _rng: &mut Rng) -> u64 {
        0
    }
    fn prompt(&self, _: u64) -> String {
        "Reference fact (Go): on the article's 12 allocation microbenchmarks, what was the geomean change in time per allocation with size-specialized malloc on?".into()
    }
    fn expected(&self, _: u64) -> String {
        GEOMEAN_REFERENCE.into()
    }
    fn explain(&self, _: u64) -> String {
        "Go reference result from the Russian article on Go 1.27: 15.15 ns → 11.42 ns geomean, −24.62 %; up to −40.90 % on types with pointers, and about +2 % (noise) just over 80 bytes. The real-program benchmarks there were within noise except one (TextSplit, −14.95 %)".into()
    }
}

impl Kind for GoBinaryGrowth {
    fn name(&self) -> &'static str {
        "go-binary-growth"
    }
    fn choices(&self) -> &'static [&'static str] {
        GROWTH_CHOICES
    }
    fn draw(&self, _rng: &mut Rng) -> u64 {
        0
    }
    fn prompt(&self, _: u64) -> String {
        "Reference fact (Go): by how much did size-specialized malloc grow the article's hello-world binary?".into()
    }
    fn expected(&self, _: u64) -> String {
        GROWTH_REFERENCE.into()
    }
    fn explain(&self, _: u64) -> String {
        "Go reference result from the Russian article on Go 1.27: +41,658 B for hello world and +69,241 B for a small HTTP service, about a third of it debug info. The feature was once pulled before a release for instruction-cache regressions at scale".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Question;

    #[test]
    fn reference_facts() {
        assert!(Question::new(&GoGeomean, 0).check("−24.62 %").correct);
        assert!(!Question::new(&GoGeomean, 0).check("+24.62 %").correct);
        assert!(Question::new(&GoBinaryGrowth, 0).check("+41,658 B").correct);
        assert!(GEOMEAN_CHOICES.contains(&GEOMEAN_REFERENCE));
        assert!(GROWTH_CHOICES.contains(&GROWTH_REFERENCE));
    }
}
