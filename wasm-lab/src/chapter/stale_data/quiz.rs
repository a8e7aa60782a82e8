//! The stale-data quiz (chapter 3): fresh order lines, write lengths and sizes, graded by running
//! the chapter's scenario. Every answer comes from [`crate::chapter::stale_data::scenario`], the same runs the
//! `stale-data` widget shows.

use serde::{Deserialize, Serialize};

use crate::calc::calculate;
use crate::chapter::stale_data::scenario::{
    ORDER_LINE, SECOND_LINE, Scenario, payload_alive, run, visible,
};
use crate::quiz::{Kind, Page, Quiz, Rng, Solution};
use lab_text::group_digits;
use lab_text::{n, t, tf};

/// A few order lines for the quiz (ASCII and Thai, so byte and character counts differ).
const LINES: &[&str] = &[
    ORDER_LINE,
    SECOND_LINE,
    "88|ข้าวผัด|3|4500\n",
    "5|ผัดไทย|2|12000\n",
    "12|coffee|1|9000\n",
    "301|แกงเขียวหวาน|1|15000\n",
];

pub const QUIZ: Quiz = Quiz {
    id: "stale-data",
    title: n!("Stale data"),
    kinds: &[
        &LeakedBytes,
        &NonZeroOnArrival,
        &SameBucketSeesOld,
        &PayloadAlive,
    ],
    figures: &[],
    snippets: false,
};

/// "You write K bytes and read 41: how many are the previous order's?"
pub struct LeakedBytes;
/// "How many non-zero bytes does the next renter find, after a return with or without clear?"
pub struct NonZeroOnArrival;
/// "The next renter asks for another size: does it get the old line?"
pub struct SameBucketSeesOld;
/// "Is the payload a returned buffer held still alive?"
pub struct PayloadAlive;

fn leaked_scenario(k: u64) -> Scenario {
    Scenario {
        second: vec![b'#'; k as usize],
        ..Scenario::default()
    }
}

impl Kind for LeakedBytes {
    type Params = u64;
    fn name(&self) -> &'static str {
        "leaked-bytes"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<u64, String> {
        Ok(1 + rng.below(40))
    }
    fn prompt(&self, &k: &u64) -> String {
        tf!(
            "The previous renter wrote the 41-byte order line {} into a 64-byte buffer and returned it without clearing. You rent 64 bytes, write {} bytes of your own, then read 41 bytes. How many of those 41 bytes are the previous renter's?",
            visible(ORDER_LINE.as_bytes()),
            k
        )
    }
    fn solve(&self, &k: &u64, _: &Page) -> Result<Solution, String> {
        let o = run(&leaked_scenario(k)).map_err(|e| e.to_string())?;
        let why = if o.same_buffer {
            tf!(
                "The lab ran it on the pool: you got the same buffer, your {} bytes cover offsets 0..{}, and offsets {}..41 still hold “{}” from the previous order — 41 − {} = {} bytes nobody cleared",
                k,
                k,
                k,
                o.leaked_text(),
                k,
                o.leaked
            )
        } else {
            tf!(
                "The lab ran it on the pool: you got a different buffer, your {} bytes cover offsets 0..{}, and offsets {}..41 still hold “{}” from the previous order — 41 − {} = {} bytes nobody cleared",
                k,
                k,
                k,
                o.leaked_text(),
                k,
                o.leaked
            )
        };
        Ok(Solution::number(o.leaked as u64, why)
        .hint(t!("Your write covers the start of the buffer; what is left in the part of the 41 bytes you did not overwrite"))
        .mistake(0, t!("Returning without clearing leaves the bytes where they were, and renting does not zero them either"))
        .mistake(41, t!("Your own write replaced the first bytes: only the rest of the 41 can be the previous renter's"))
        .mistake(k, t!("That is how many bytes you wrote: count the ones you did not overwrite")))
    }
}

/// Which order line a [`NonZeroOnArrival`] question writes, and whether the return clears.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Arrival {
    pub line: usize,
    pub clear: bool,
}

fn arrival_scenario(a: &Arrival) -> Scenario {
    Scenario {
        first: LINES[a.line % LINES.len()].as_bytes().to_vec(),
        clear: a.clear,
        second: Vec::new(),
        read: 0,
        ..Scenario::default()
    }
}

impl Kind for NonZeroOnArrival {
    type Params = Arrival;
    fn name(&self) -> &'static str {
        "non-zero-on-arrival"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<Arrival, String> {
        Ok(Arrival {
            line: rng.below(LINES.len() as u64) as usize,
            clear: rng.below(2) == 1,
        })
    }
    fn prompt(&self, a: &Arrival) -> String {
        let s = arrival_scenario(a);
        tf!(
            "A renter writes the order line {} into a 64-byte buffer and returns it with clearArray: {}. The next renter rents 64 bytes. How many non-zero bytes does its buffer hold before it writes anything?",
            visible(&s.first),
            s.clear
        )
    }
    fn solve(&self, a: &Arrival, _: &Page) -> Result<Solution, String> {
        let s = arrival_scenario(a);
        let o = run(&s).map_err(|e| e.to_string())?;
        let why = match (s.clear, o.same_buffer) {
            (true, true) => tf!(
                "The lab ran it: the next renter got the same buffer, and the cleared return zeroed all {} bytes of it before it went back, so it holds {} non-zero bytes",
                o.second_length,
                o.nonzero_on_arrival
            ),
            (true, false) => tf!(
                "The lab ran it: the next renter got a different buffer, and the cleared return zeroed all {} bytes of it before it went back, so it holds {} non-zero bytes",
                o.second_length,
                o.nonzero_on_arrival
            ),
            (false, true) => tf!(
                "The lab ran it: the next renter got the same buffer, and without clearing every byte of the old line is still there — {} non-zero bytes (bytes of UTF-8, not characters)",
                o.nonzero_on_arrival
            ),
            (false, false) => tf!(
                "The lab ran it: the next renter got a different buffer, and without clearing every byte of the old line is still there — {} non-zero bytes (bytes of UTF-8, not characters)",
                o.nonzero_on_arrival
            ),
        };
        let text = LINES[a.line % LINES.len()];
        Ok(Solution::number(o.nonzero_on_arrival as u64, why)
            .hint(t!("Ask two things: did the return clear the buffer, and does the next renter get the same one"))
            .mistake(
                text.chars().count(),
                t!("That counts characters; the buffer holds bytes of UTF-8, and a Thai character takes three"),
            )
            .mistake(
                if s.clear { s.first.len() } else { 0 },
                if s.clear {
                    t!("clearArray: true zeroes the buffer on return, before anyone else can rent it")
                } else {
                    t!("Renting does not zero a buffer: whatever the last renter left is still there")
                },
            )
            .mistake(64, t!("Only the bytes the previous renter wrote are non-zero, not the whole buffer")))
    }
}

/// The two request sizes of a [`SameBucketSeesOld`] question.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct TwoSizes {
    pub first: u64,
    pub second: u64,
}

fn bucket_scenario(t: &TwoSizes) -> Scenario {
    Scenario {
        first_size: t.first,
        second_size: t.second,
        second: Vec::new(),
        read: 0,
        ..Scenario::default()
    }
}

impl Kind for SameBucketSeesOld {
    type Params = TwoSizes;
    fn name(&self) -> &'static str {
        "same-bucket-sees-old"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<TwoSizes, String> {
        let first = 41 + rng.below(2048 - 41);
        let length = calculate(first).length;
        let second = if rng.below(2) == 0 {
            // The same bucket: anything from just above half the length up to the length.
            length / 2 + 1 + rng.below(length / 2)
        } else {
            1 + rng.below(4096)
        };
        Ok(TwoSizes { first, second })
    }
    fn prompt(&self, t: &TwoSizes) -> String {
        tf!(
            "A renter rents {} bytes, writes the 41-byte order line and returns the buffer without clearing. The next renter rents {} bytes. Does the buffer it gets hold the old order line?",
            group_digits(t.first),
            group_digits(t.second)
        )
    }
    fn solve(&self, t: &TwoSizes, _: &Page) -> Result<Solution, String> {
        let s = bucket_scenario(t);
        let (a, b) = (calculate(t.first), calculate(t.second));
        let bucket = |c: &crate::calc::Calculation| {
            c.index
                .map_or_else(|| t!("no bucket").into_owned(), |i| tf!("bucket {}", i))
        };
        let o = run(&s).map_err(|e| e.to_string())?;
        let sees = o.same_buffer && o.nonzero_on_arrival > 0;
        let why = if o.same_buffer {
            tf!(
                "Both requests round to {} ({} bytes), so the lab's pool handed the returned buffer to the next renter with all {} bytes of the old line in it — whatever size it asked for",
                bucket(&a),
                group_digits(a.length),
                o.nonzero_on_arrival
            )
        } else {
            tf!(
                "{} bytes round to {} ({} bytes) but {} bytes to {} ({} bytes): a different bucket, so the lab's pool gave the next renter another buffer, without the old line",
                group_digits(t.first),
                bucket(&a),
                group_digits(a.length),
                group_digits(t.second),
                bucket(&b),
                group_digits(b.length)
            )
        };
        Ok(Solution::yes_no(
            sees,
            why,
            t!(
                "Sizes do not have to match: round both requests to their buckets and compare the buckets"
            ),
        ))
    }
}

impl Kind for PayloadAlive {
    type Params = bool;
    fn name(&self) -> &'static str {
        "payload-alive"
    }
    fn draw(&self, rng: &mut Rng, _: &Page) -> Result<bool, String> {
        Ok(rng.below(2) == 1)
    }
    fn prompt(&self, clear: &bool) -> String {
        tf!(
            "A pool of Option<Arc<[u8]>>: arr[0] holds the only Arc to a {}-byte payload, and arr is returned with clear = {}. Your code drops every other reference. Is the payload still alive?",
            group_digits(4096),
            clear
        )
    }
    fn solve(&self, &clear: &bool, _: &Page) -> Result<Solution, String> {
        let alive = payload_alive(clear).map_err(|e| e.to_string())?;
        let why = if clear {
            t!(
                "The lab ran it: clearing overwrote arr[0] with None, which dropped the last Arc and freed the payload (.NET: IsAlive = False)"
            )
        } else {
            t!(
                "The lab ran it: the returned buffer sits in the pool with arr[0] still holding the Arc, so the payload stays alive until the buffer is cleared or dropped (.NET: IsAlive = True)"
            )
        };
        Ok(Solution::yes_no(
            alive,
            why,
            t!(
                "Who still holds the last Arc once the array is back in the pool, and what does clearing write over it"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Ask;

    /// The widget's story and the quiz's runs agree for the same renters: the bytes the next
    /// renter reads but did not write, the non-zero bytes it finds, and whether it finds the old
    /// line after renting another size. (Whether an `Arc` payload lives is the quiz's alone: the
    /// widget holds bytes.)
    #[test]
    fn widget_and_quiz_agree_on_what_the_next_renter_finds() {
        use crate::chapter::stale_data::scenario::escape_line;
        use crate::view::view_with;
        let page = Page::default();
        let number = |v: &crate::view::View, id: &str| -> u64 {
            let shown = v.value(id).unwrap_or_else(|| panic!("{id}: {}", v.text()));
            shown.replace(',', "").parse().unwrap()
        };
        for seed in 0..500 {
            let mut rng = Rng::new(seed);
            let q = LeakedBytes.pose(&mut rng, &page).unwrap();
            let k: usize = q.params.parse().unwrap();
            let v = view_with("stale-data", &[("stale-line2", &"#".repeat(k))]);
            assert_eq!(
                number(&v, "stale-leaked").to_string(),
                q.right_answer(),
                "{k}"
            );

            let q = NonZeroOnArrival.pose(&mut rng, &page).unwrap();
            let a: Arrival = serde_json::from_str(&q.params).unwrap();
            let v = view_with(
                "stale-data",
                &[
                    ("stale-line1", &escape_line(LINES[a.line % LINES.len()])),
                    ("stale-clear", &a.clear.to_string()),
                    ("stale-line2", ""),
                    ("stale-read", "0"),
                ],
            );
            assert_eq!(
                number(&v, "stale-arrival").to_string(),
                q.right_answer(),
                "{a:?}"
            );

            let q = SameBucketSeesOld.pose(&mut rng, &page).unwrap();
            let t: TwoSizes = serde_json::from_str(&q.params).unwrap();
            let v = view_with(
                "stale-data",
                &[
                    ("stale-size1", &t.first.to_string()),
                    ("stale-size2", &t.second.to_string()),
                    ("stale-line2", ""),
                    ("stale-read", "0"),
                ],
            );
            let sees = v.value("stale-same") == Some("yes") && number(&v, "stale-arrival") > 0;
            assert_eq!(crate::quiz::yes_no(sees), q.right_answer(), "{t:?}");
        }
    }

    #[test]
    fn quiz_answers_come_from_runs() {
        let page = Page::default();
        let q = |k: &dyn Ask, p: &str| k.replay(p, &page).unwrap();
        assert!(q(&LeakedBytes, "25").accepts("16"));
        assert!(q(&NonZeroOnArrival, r#"{"line":0,"clear":false}"#).accepts("41"));
        assert!(q(&NonZeroOnArrival, r#"{"line":0,"clear":true}"#).accepts("0"));
        assert!(q(&SameBucketSeesOld, r#"{"first":64,"second":33}"#).accepts("yes"));
        assert!(q(&SameBucketSeesOld, r#"{"first":64,"second":65}"#).accepts("no"));
        assert!(q(&PayloadAlive, "false").accepts("yes"));
        let f = q(&LeakedBytes, "10");
        assert_eq!(f.right_answer(), "31");
        assert!(
            f.solution.why.contains("41 − 10 = 31"),
            "{}",
            f.solution.why
        );
        // A Thai line: characters are not bytes, and the hint says so.
        let thai = q(&NonZeroOnArrival, r#"{"line":3,"clear":false}"#);
        let chars = LINES[3].chars().count().to_string();
        assert!(thai.solution.hint_for(&chars).contains("characters"));
    }
}
