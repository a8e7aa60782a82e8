//! The size-specialized rent quiz (chapter 8): fresh sizes and call-site lists. Every answer comes
//! from [`crate::chapter::size_specialized::scenario`], the same functions the `size-specialized` widget
//! shows; Go's rule is the compiler's constant quoted by the Russian article (the lab cannot run
//! Go), applied to fresh sizes.

use crate::chapter::size_specialized::scenario::{
    GO_SPECIALIZED_MALLOC_MAX, const_bucket_index, go_specializes, monomorphize,
};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution, yes_no};
use lab_text::{group_digits, n, t, tf};

pub const QUIZ: Quiz = Quiz {
    id: "size-specialized",
    title: n!("Size-specialized rent"),
    kinds: &[
        &CompileTimeBucket,
        &BucketRoutines,
        &SharedPath,
        &GoSpecializes,
    ],
    figures: &[],
    snippets: false,
};

/// "`rent::<N>()`: which bucket index does the compiler resolve?" — a number.
pub struct CompileTimeBucket;
/// "These call sites: how many bucket-specialized copies are compiled?" — a number.
pub struct BucketRoutines;
/// "`rent::<A>()` and `rent::<B>()`: one compiled path or two?" — yes or no.
pub struct SharedPath;
/// "Does Go 1.27 specialize `new(T)` of N bytes?" — yes or no, by the compiler's rule.
pub struct GoSpecializes;

fn index(n: u64) -> Option<usize> {
    usize::try_from(n).ok().and_then(const_bucket_index)
}

impl Kind for CompileTimeBucket {
    type Params = u64;
    fn name(&self) -> &'static str {
        "compile-time-bucket"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(rng.request())
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "A const-generic rent::<{}>() on a pool of u8: which bucket index does the compiler put in the code?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let i = index(n).ok_or_else(|| tf!("{} is not pooled", group_digits(n)))? as u64;
        Ok(Solution::number(
            i,
            tf!(
                "The same formula, evaluated once by the compiler instead of at every rent: {}",
                crate::calc::calculate(n).why
            ),
        )
        .hint(t!(
            "The compiler evaluates the same bucket formula as the run-time rent, just earlier"
        ))
        .mistake(
            n.next_power_of_two().trailing_zeros(),
            t!("That is log2 of the buffer length; the first bucket already holds 16 bytes, so the index is smaller"),
        ))
    }
}

/// The sizes a [`BucketRoutines`] question lists.
pub fn routine_sizes(rng: &mut Rng) -> Vec<u64> {
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
    type Params = Vec<u64>;
    fn name(&self) -> &'static str {
        "bucket-routines"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Vec<u64>, String> {
        Ok(routine_sizes(rng))
    }
    fn prompt(&self, sizes: &Vec<u64>) -> String {
        let sizes: Vec<String> = sizes.iter().copied().map(group_digits).collect();
        tf!(
            "A program calls rent::<N>() with N = {}. If the const-generic rent forwards to one specialized path per bucket, how many copies of that path are compiled?",
            sizes.join("; ")
        )
    }
    fn solve(&self, sizes: &Vec<u64>, _: &Page) -> Result<Solution, String> {
        let m = monomorphize(sizes)?;
        let pairs: Vec<String> = m
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} → {}",
                    group_digits(r.size),
                    r.index.map_or(t!("none").into_owned(), |i| i.to_string())
                )
            })
            .collect();
        Ok(Solution::number(
            m.distinct_buckets as u64,
            tf!(
                "One copy per distinct bucket ({}): {} distinct sizes, {} distinct buckets. A run-time rent compiles one path for all",
                pairs.join(", "),
                m.distinct_sizes,
                m.distinct_buckets
            ),
        )
        .hint(t!("Map every size to its bucket first: sizes that share a bucket share a copy"))
        .mistake(m.distinct_sizes as u64, t!("That counts sizes; several sizes can round to the same bucket and share its copy"))
        .mistake(1, t!("One path is the run-time rent; the const-generic one is compiled once per bucket it is used with")))
    }
}

/// Two sizes of a [`SharedPath`] question.
pub type TwoSizes = (u64, u64);

impl Kind for SharedPath {
    type Params = TwoSizes;
    fn name(&self) -> &'static str {
        "shared-path"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<TwoSizes, String> {
        let a = 17 + rng.below(8192);
        let b = match rng.below(2) {
            0 => a.next_power_of_two() / 2 + 1 + rng.below(a.next_power_of_two() / 2),
            _ => 17 + rng.below(8192),
        };
        Ok((a, b))
    }
    fn prompt(&self, &(a, b): &TwoSizes) -> String {
        tf!(
            "A program calls rent::<{}>() and rent::<{}>(), and rent forwards to one specialized path per bucket. Do the two calls share one compiled copy?",
            group_digits(a),
            group_digits(b)
        )
    }
    fn solve(&self, &(a, b): &TwoSizes, _: &Page) -> Result<Solution, String> {
        let (ia, ib) = (index(a), index(b));
        let show = |i: Option<usize>| i.map_or(t!("none").into_owned(), |i| i.to_string());
        let why = if ia == ib {
            tf!(
                "{} is in bucket {} and {} in bucket {}: the same bucket, one copy",
                group_digits(a),
                show(ia),
                group_digits(b),
                show(ib)
            )
        } else {
            tf!(
                "{} is in bucket {} and {} in bucket {}: two buckets, two copies",
                group_digits(a),
                show(ia),
                group_digits(b),
                show(ib)
            )
        };
        Ok(Solution::yes_no(
            ia == ib,
            why,
            t!("The copies are per bucket, not per size: which bucket does each size land in"),
        ))
    }
}

impl Kind for GoSpecializes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "go-specializes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(match rng.below(2) {
            0 => 72 + rng.below(17),
            _ => 1 + rng.below(160),
        })
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "Go 1.27: does p = new(T) with a {}-byte T call a size-specialized allocation routine?",
            n
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let yes = go_specializes(n);
        Ok(Solution::yes_no(
            yes,
            if yes {
                tf!(
                    "The compiler specializes sizes up to specializedMallocMax = {} bytes; {} is within it, so the call site names the routine of its size class (Go reference: the Russian article on Go 1.27 quotes the compiler source)",
                    GO_SPECIALIZED_MALLOC_MAX,
                    n
                )
            } else {
                tf!(
                    "The compiler specializes sizes up to specializedMallocMax = {} bytes; {} is over it, so the call goes through the generic mallocgc tree (Go reference: the Russian article on Go 1.27 quotes the compiler source)",
                    GO_SPECIALIZED_MALLOC_MAX,
                    n
                )
            },
            t!(
                "Go specializes only small sizes: compare this one with the compiler's limit in the chapter"
            ),
        ))
    }
}

/// "yes" when two sizes share a bucket, for tests.
pub fn same_bucket(a: u64, b: u64) -> &'static str {
    yes_no(index(a) == index(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Ask;

    /// The widget's table and the quiz resolve the same sizes alike: the compile-time bucket,
    /// the number of bucket-specialized copies, whether two sizes share one, and Go's rule.
    #[test]
    fn widget_and_quiz_agree_on_every_size_list() {
        use crate::view::view_with;
        let page = Page::default();
        let listed = |sizes: &[u64]| {
            let typed: Vec<String> = sizes.iter().map(u64::to_string).collect();
            view_with("size-specialized", &[("spec-input", &typed.join("; "))])
        };
        for seed in 0..500 {
            let mut rng = Rng::new(seed);
            let q = CompileTimeBucket.pose(&mut rng, &page).unwrap();
            let v = listed(&[q.params.parse().unwrap()]);
            assert_eq!(
                v.value("spec-index"),
                Some(q.right_answer().as_str()),
                "{q:?}"
            );

            let q = BucketRoutines.pose(&mut rng, &page).unwrap();
            let sizes: Vec<u64> = serde_json::from_str(&q.params).unwrap();
            let v = listed(&sizes);
            assert_eq!(
                v.value("spec-buckets"),
                Some(q.right_answer().as_str()),
                "{q:?}"
            );

            let q = SharedPath.pose(&mut rng, &page).unwrap();
            let (a, b): TwoSizes = serde_json::from_str(&q.params).unwrap();
            let v = listed(&[a, b]);
            let one = v.value("spec-buckets") == Some("1");
            assert_eq!(yes_no(one), q.right_answer(), "{q:?}");

            let q = GoSpecializes.pose(&mut rng, &page).unwrap();
            let v = listed(&[q.params.parse().unwrap()]);
            assert_eq!(v.value("spec-go"), Some(q.right_answer().as_str()), "{q:?}");
        }
    }

    #[test]
    fn copies_per_bucket() {
        let page = Page::default();
        let q = BucketRoutines.replay("[100,128,129,4096]", &page).unwrap();
        assert!(q.accepts("3"));
        assert!(q.solution.hint_for("4").contains("counts sizes"));
        assert!(
            SharedPath
                .replay("[100,120]", &page)
                .unwrap()
                .accepts("yes")
        );
        assert_eq!(same_bucket(128, 129), "no");
        assert!(GoSpecializes.replay("80", &page).unwrap().accepts("yes"));
    }
}
