//! The return-contract quiz (chapter 4): fresh values, lengths and round counts, graded by
//! running the chapter's scenario ([`crate::chapter::return_contract::scenario`], the same runs the
//! `return-contract` widget shows), and "does this compile?" questions on the ownership API whose
//! verdicts rustc gave at build time ([`crate::quiz::snippets`]).

use serde::{Deserialize, Serialize};

use crate::chapter::return_contract::scenario::{double_return, foreign_return, forgotten_return};
use crate::quiz::snippets::{SNIPPETS, snippet};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use bufpool::bucket::bucket_of_length;
use bufpool::pool::PoolError;
use lab_text::group_digits;
use lab_text::tr::get_dynamic;
use lab_text::{n, t, tf};

pub const QUIZ: Quiz = Quiz {
    id: "return-contract",
    title: n!("The return contract"),
    kinds: &[
        &SharedAfterReturns,
        &ForeignAccepted,
        &ForgottenReturn,
        &TestPassed,
        &DoesItCompile,
    ],
    figures: &[],
    snippets: true,
};

fn err(e: PoolError) -> String {
    tf!(
        "the lab could not run this: {}",
        crate::pool_words::pool_error(&e)
    )
}

/// "Return once / twice (checked or not): do the next two renters share a buffer?"
pub struct SharedAfterReturns;
/// "Is a foreign buffer of length L accepted?"
pub struct ForeignAccepted;
/// "N rounds that forget to return, on a pool with 33 spare buffers: how many new buffers?"
pub struct ForgottenReturn;
/// "Does this snippet compile?" — rustc's verdict, captured when the book was built.
pub struct DoesItCompile;

/// How a [`SharedAfterReturns`] question returns `x`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Returns {
    pub twice: bool,
    pub checked: bool,
}

impl Kind for SharedAfterReturns {
    type Params = Returns;
    fn name(&self) -> &'static str {
        "shared-after-returns"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Returns, String> {
        // Mostly the .NET case.
        Ok(match rng.below(4) {
            0 => Returns {
                twice: false,
                checked: false,
            },
            1 => Returns {
                twice: true,
                checked: true,
            },
            _ => Returns {
                twice: true,
                checked: false,
            },
        })
    }
    fn prompt(&self, r: &Returns) -> String {
        let rules = if r.checked {
            t!("Checked mode is on.")
        } else {
            t!("A pool with .NET's rules.")
        };
        let story = if r.twice {
            t!(
                "You rent 64 bytes as x and return x twice in a row. Then r1 and r2 each rent 64 bytes. Do r1 and r2 hold the same buffer?"
            )
        } else {
            t!(
                "You rent 64 bytes as x and return x once. Then r1 and r2 each rent 64 bytes. Do r1 and r2 hold the same buffer?"
            )
        };
        format!("{rules} {story}")
    }
    fn solve(&self, p: &Returns, _: &Page) -> Result<Solution, String> {
        let r = double_return(1, p.twice, p.checked).map_err(err)?;
        let why: String = match (&r.second_return, p.twice) {
            // Not the error's text: it names the buffer by a number that differs from run to
            // run, and a replayed question must explain itself the same way (found by fuzzing).
            (Some(_), _) => t!("The lab ran it: checked mode refused the second return as a double return (two later renters would have shared x), so x went back once and only r1 got it; r2 got a new buffer").into_owned(),
            (None, true) => t!("The lab ran it: the pool accepted the second return without a word and kept x twice (once in the thread slot, once in a partition), so r1 and r2 both got x — ReferenceEquals(r1, r2) = True").into_owned(),
            (None, false) => t!("The lab ran it: x went back once, r1 got it, and the pool had to allocate a new buffer for r2").into_owned(),
        };
        let hint = if r.same_buffer {
            t!("Does .NET's pool check whether a returned array is already in it")
        } else if p.twice {
            t!("What does checked mode do with a return of a buffer the pool already holds")
        } else {
            t!("One return puts one buffer back: how many renters can it serve")
        };
        Ok(Solution::yes_no(r.same_buffer, why, hint))
    }
}

impl Kind for ForeignAccepted {
    type Params = u64;
    fn name(&self) -> &'static str {
        "foreign-accepted"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(match rng.below(3) {
            0 => 16 << rng.below(13),
            1 => (16 << rng.below(13)) + 1 + rng.below(15),
            _ => 1 + rng.below(65_536),
        })
    }
    fn prompt(&self, l: &u64) -> String {
        tf!(
            "You create a byte buffer of length {} yourself (new byte[{}]: it never came from the pool) and return it to the shared pool. Does the pool accept it?",
            group_digits(*l),
            l
        )
    }
    fn solve(&self, &l: &u64, _: &Page) -> Result<Solution, String> {
        let r = foreign_return(l as usize, 77, false).map_err(err)?;
        let why = match (&r.refused, bucket_of_length(l as usize)) {
            (None, Some(b)) => match r.next_reads {
                Some(x) => tf!(
                    "The lab ran it: {} is the length of bucket {}, and the pool checks only the length, not where the buffer came from — it accepted it, and the next Rent({}) handed out your buffer with your value {} in it",
                    group_digits(l),
                    b,
                    l,
                    x
                ),
                None => tf!(
                    "The lab ran it: {} is the length of bucket {}, and the pool checks only the length, not where the buffer came from — it accepted it, and the next Rent({}) handed out your buffer",
                    group_digits(l),
                    b,
                    l
                ),
            },
            (None, None) => tf!(
                "The lab ran it: a length of {} is not pooled at all, so the return is silently ignored",
                group_digits(l)
            ),
            (Some(e), _) => tf!(
                "The lab ran it: {} is not a bucket length (buckets are 16, 32, 64, … powers of two), so the pool refused it: “{}”",
                group_digits(l),
                e
            ),
        };
        Ok(Solution::yes_no(
            r.refused.is_none(),
            why,
            t!(
                "The pool cannot know where an array came from: what is the one thing it checks on a return"
            ),
        ))
    }
}

impl Kind for ForgottenReturn {
    type Params = u64;
    fn name(&self) -> &'static str {
        "forgotten-return"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(1 + rng.below(120))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "The lab's pool holds its full stock of 33 spare 128-byte buffers (1 + P × 32 with P = 1). A loop rents 128 bytes, hits an error and never reaches its return (no finally) — {} rounds. How many new buffers does the pool allocate?",
            n
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let r = forgotten_return(n, false).map_err(err)?;
        Ok(Solution::number(
            r.new_buffers,
            tf!(
                "The lab ran it: the first {} rounds were served from the stock, so they cost nothing — why a short test on a stocked pool cannot see this bug; each round after that allocated a new buffer: {} in {} rounds. With the return in a finally (or a Rust guard), the answer is 0",
                r.stock.min(n as usize),
                r.new_buffers,
                n
            ),
        )
        .hint(t!("The stock serves rounds for free until it runs out: how many rounds does it cover"))
        .mistake(n, t!("Not every round allocates: the pool first hands out the spare buffers it holds"))
        .mistake(0, t!("A stock runs out: without returns nothing refills it")))
    }
}

/// "A 10-round test passed, production leaks": which explanation do the lab's runs support?
pub struct TestPassed;

/// The right option, in English (the page shows it translated, [`get_dynamic`]).
const STOCK_HID_IT: &str = n!("the pool's stock of spare buffers served the test's rounds");

impl Kind for TestPassed {
    type Params = u64;
    fn name(&self) -> &'static str {
        "test-passed"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(rng.pick(&[200, 1_000, 5_000]) + rng.below(100))
    }
    fn prompt(&self, n: &u64) -> String {
        tf!(
            "A handler rents 128 bytes and returns the buffer on its last line, which an error skips (no finally). Its unit test runs 10 rounds with an error each time on a warmed-up pool and checks that no new buffer was allocated: it passes. In production the same {} rounds make memory grow. Which explanation do the lab's runs support?",
            group_digits(*n)
        )
    }
    fn solve(&self, &n: &u64, _: &Page) -> Result<Solution, String> {
        let test = forgotten_return(10, false).map_err(err)?;
        let prod = forgotten_return(n, false).map_err(err)?;
        Ok(Solution::choice(
            get_dynamic(STOCK_HID_IT),
            tf!(
                "The lab ran both: the warmed-up pool held {} spare buffers, so the 10 test rounds allocated {} new ones, while {} rounds allocated {}. A stock only hides a forgotten return until it runs out; on a fresh pool (no stock) even 10 rounds allocate",
                test.stock,
                test.new_buffers,
                group_digits(n),
                group_digits(prod.new_buffers)
            ),
        )
        .mistake(
            t!("production allocates larger buffers than the test"),
            t!("Both rent 128 bytes: compare how many buffers the pool had in hand when each started"),
        )
        .mistake(
            t!("the leak needs several threads, which the test does not have"),
            t!("The lab's run is single-threaded and still leaks: what did the pool hold when the test began"),
        ))
    }
}

impl Kind for DoesItCompile {
    type Params = String;
    fn name(&self) -> &'static str {
        "does-it-compile"
    }
    fn draw(&self, rng: &mut Rng, page: &Page) -> Result<String, String> {
        let s = &SNIPPETS[rng.below(SNIPPETS.len() as u64) as usize];
        page.compiled(s.name)?;
        Ok(s.name.into())
    }
    fn prompt(&self, _: &String) -> String {
        t!("Does this program compile against the lab's ownership API?").into_owned()
    }
    fn code(&self, name: &String) -> Option<String> {
        snippet(name).map(|s| s.code.to_string())
    }
    fn solve(&self, name: &String, page: &Page) -> Result<Solution, String> {
        let s = snippet(name).ok_or_else(|| tf!("no snippet `{}`", name))?;
        let c = page.compiled(name)?;
        // The snippet's words are marked in `snippets.rs` and translated here.
        let why = get_dynamic(s.why);
        let why = match c.errors.first() {
            Some(e) => tf!("{}. rustc, when the book was built: {}", why, e),
            None if c.compiles => tf!("{}. rustc compiled it when the book was built.", why),
            None => tf!("{}. rustc refused it when the book was built.", why),
        };
        Ok(Solution::compiles(c.compiles, why, get_dynamic(s.hint)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::view::{COMPILES, FAILS};
    use crate::quiz::{Ask, Compiled};

    /// The widget's runs and the quiz's agree for the same settings: whether two renters share
    /// a buffer after one or two returns (checked or not), whether a foreign buffer is accepted,
    /// and what a forgotten return costs on a stocked pool. (The compile questions are rustc's:
    /// the widget runs no compiler.)
    #[test]
    fn widget_and_quiz_agree_on_every_run() {
        use crate::view::view_with;
        let page = Page::default();
        for seed in 0..500 {
            let mut rng = Rng::new(seed);
            let q = SharedAfterReturns.pose(&mut rng, &page).unwrap();
            let r: Returns = serde_json::from_str(&q.params).unwrap();
            let v = view_with(
                "return-contract",
                &[
                    ("dr-twice", &r.twice.to_string()),
                    ("contract-checked", &r.checked.to_string()),
                ],
            );
            assert_eq!(v.value("dr-same"), Some(q.right_answer().as_str()), "{r:?}");

            let q = ForeignAccepted.pose(&mut rng, &page).unwrap();
            let v = view_with("return-contract", &[("fr-length", &q.params)]);
            let accepted = v.value("fr-return") == Some("accepted, no error");
            assert_eq!(
                crate::quiz::yes_no(accepted),
                q.right_answer(),
                "{}",
                q.params
            );

            let q = ForgottenReturn.pose(&mut rng, &page).unwrap();
            let v = view_with("return-contract", &[("mf-rounds", &q.params)]);
            let shown = v.value("mf-without").unwrap().replace(',', "");
            assert_eq!(shown, q.right_answer(), "{} rounds", q.params);

            // The production run's new buffers and the stock, as the explanation quotes them.
            let q = TestPassed.pose(&mut rng, &page).unwrap();
            let v = view_with("return-contract", &[("mf-rounds", &q.params)]);
            let why = &q.solution.why;
            for id in ["mf-without", "mf-stock"] {
                let shown = v.value(id).unwrap();
                assert!(
                    why.contains(shown),
                    "{}: {id} {shown} not in {why}",
                    q.params
                );
            }
        }
    }

    #[test]
    fn quiz_answers_come_from_runs() {
        let page = Page::default();
        let q = |k: &dyn Ask, p: &str| k.replay(p, &page).unwrap();
        assert!(q(&SharedAfterReturns, r#"{"twice":true,"checked":false}"#).accepts("yes"));
        assert!(q(&SharedAfterReturns, r#"{"twice":true,"checked":true}"#).accepts("no"));
        assert!(q(&SharedAfterReturns, r#"{"twice":false,"checked":false}"#).accepts("no"));
        assert!(q(&ForeignAccepted, "128").accepts("yes"));
        let foreign = q(&ForeignAccepted, "100");
        assert!(foreign.accepts("no"));
        assert!(
            foreign.solution.why.contains("not associated"),
            "{}",
            foreign.solution.why
        );
        assert!(q(&ForgottenReturn, "10").accepts("0"));
        assert!(q(&ForgottenReturn, "40").accepts("7"));
        let t = q(&TestPassed, "1000");
        assert!(t.accepts(STOCK_HID_IT));
        assert!(
            t.solution.why.contains("allocated 0 new ones"),
            "{}",
            t.solution.why
        );
        assert!(
            t.solution.why.contains("allocated 967"),
            "{}",
            t.solution.why
        );
    }

    /// The compile answer is rustc's, as the page carries it: flip the verdict, the answer flips.
    #[test]
    fn compile_answers_follow_the_page() {
        let mut page = Page::default();
        page.compiled.insert(
            "double_return".into(),
            Compiled {
                compiles: false,
                errors: vec!["error[E0382]: use of moved value: `buf`".into()],
            },
        );
        let q = DoesItCompile.replay("\"double_return\"", &page).unwrap();
        assert!(q.accepts(FAILS));
        assert!(q.solution.why.contains("E0382"), "{}", q.solution.why);
        assert!(q.code.as_deref().unwrap().contains("drop(buf);"));
        page.compiled.get_mut("double_return").unwrap().compiles = true;
        let q = DoesItCompile.replay("\"double_return\"", &page).unwrap();
        assert!(q.accepts(COMPILES));
        assert!(
            DoesItCompile
                .replay("\"double_return\"", &Page::default())
                .is_err()
        );
    }
}
