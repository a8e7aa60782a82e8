//! The stale-data quiz (chapter 3): fresh order lines, write lengths and sizes, graded by running
//! the chapter's scenario. Every answer comes from [`crate::scenario::stale_data`], the same runs the
//! `stale-data` widget shows.

use super::{Kind, Quiz, Rng};
use crate::calc::calculate;
use crate::input::group_digits;
use crate::scenario::stale_data::{ORDER_LINE, SECOND_LINE, Scenario, payload_alive, run, visible};

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
    title: "Stale data",
    kinds: &[
        &LeakedBytes,
        &NonZeroOnArrival,
        &SameBucketSeesOld,
        &PayloadAlive,
    ],
};

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

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
    fn name(&self) -> &'static str {
        "leaked-bytes"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        1 + rng.below(40)
    }
    fn prompt(&self, k: u64) -> String {
        format!(
            "The previous renter wrote the 41-byte order line {} into a 64-byte buffer and returned it without clearing. You rent 64 bytes, write {k} bytes of your own, then read 41 bytes. How many of those 41 bytes are the previous renter's?",
            visible(ORDER_LINE.as_bytes())
        )
    }
    fn expected(&self, k: u64) -> String {
        run(&leaked_scenario(k)).map_or_else(|e| e.to_string(), |o| o.leaked.to_string())
    }
    fn explain(&self, k: u64) -> String {
        match run(&leaked_scenario(k)) {
            Ok(o) => format!(
                "The lab ran it on the pool: you got {} buffer, your {k} bytes cover offsets 0..{k}, and offsets {k}..41 still hold “{}” from the previous order — 41 − {k} = {} bytes nobody cleared.",
                if o.same_buffer {
                    "the same"
                } else {
                    "a different"
                },
                o.leaked_text(),
                o.leaked
            ),
            Err(e) => e.to_string(),
        }
    }
}

fn arrival_scenario(v: u64) -> Scenario {
    let line = LINES[(v >> 1) as usize % LINES.len()];
    Scenario {
        first: line.as_bytes().to_vec(),
        clear: v & 1 == 1,
        second: Vec::new(),
        read: 0,
        ..Scenario::default()
    }
}

impl Kind for NonZeroOnArrival {
    fn name(&self) -> &'static str {
        "non-zero-on-arrival"
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.below(LINES.len() as u64) << 1 | rng.below(2)
    }
    fn prompt(&self, v: u64) -> String {
        let s = arrival_scenario(v);
        format!(
            "A renter writes the order line {} ({} bytes of UTF-8) into a 64-byte buffer and returns it with clearArray: {}. The next renter rents 64 bytes. How many non-zero bytes does its buffer hold before it writes anything?",
            visible(&s.first),
            s.first.len(),
            s.clear
        )
    }
    fn expected(&self, v: u64) -> String {
        run(&arrival_scenario(v))
            .map_or_else(|e| e.to_string(), |o| o.nonzero_on_arrival.to_string())
    }
    fn explain(&self, v: u64) -> String {
        let s = arrival_scenario(v);
        match run(&s) {
            Ok(o) if s.clear => format!(
                "The lab ran it: the next renter got {} buffer, and the cleared return zeroed all {} bytes of it before it went back, so it holds {} non-zero bytes.",
                if o.same_buffer {
                    "the same"
                } else {
                    "a different"
                },
                o.second_length,
                o.nonzero_on_arrival
            ),
            Ok(o) => format!(
                "The lab ran it: the next renter got {} buffer, and without clearing every byte of the old line is still there — {} non-zero bytes (bytes of UTF-8, not characters).",
                if o.same_buffer {
                    "the same"
                } else {
                    "a different"
                },
                o.nonzero_on_arrival
            ),
            Err(e) => e.to_string(),
        }
    }
}

fn bucket_scenario(v: u64) -> Scenario {
    Scenario {
        first_size: v >> 32,
        second_size: v & 0xFFFF_FFFF,
        second: Vec::new(),
        read: 0,
        ..Scenario::default()
    }
}

impl Kind for SameBucketSeesOld {
    fn name(&self) -> &'static str {
        "same-bucket-sees-old"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        let a = 41 + rng.below(2048 - 41);
        let length = calculate(a).length;
        let b = if rng.below(2) == 0 {
            // The same bucket: anything from just above half the length up to the length.
            length / 2 + 1 + rng.below(length / 2)
        } else {
            1 + rng.below(4096)
        };
        a << 32 | b
    }
    fn prompt(&self, v: u64) -> String {
        let s = bucket_scenario(v);
        format!(
            "A renter rents {} bytes, writes the 41-byte order line and returns the buffer without clearing. The next renter rents {} bytes. Does the buffer it gets hold the old order line?",
            group_digits(s.first_size),
            group_digits(s.second_size)
        )
    }
    fn expected(&self, v: u64) -> String {
        run(&bucket_scenario(v)).map_or_else(
            |e| e.to_string(),
            |o| yes_no(o.same_buffer && o.nonzero_on_arrival > 0),
        )
    }
    fn explain(&self, v: u64) -> String {
        let s = bucket_scenario(v);
        let (a, b) = (calculate(s.first_size), calculate(s.second_size));
        let bucket = |c: &crate::calc::Calculation| {
            c.index
                .map_or("no bucket".into(), |i| format!("bucket {i}"))
        };
        match run(&s) {
            Ok(o) if o.same_buffer => format!(
                "Both requests round to {} ({} bytes), so the lab's pool handed the returned buffer to the next renter with all {} bytes of the old line in it — whatever size it asked for.",
                bucket(&a),
                group_digits(a.length),
                o.nonzero_on_arrival
            ),
            Ok(_) => format!(
                "{} bytes round to {} ({} bytes) but {} bytes to {} ({} bytes): a different bucket, so the lab's pool gave the next renter another buffer, without the old line.",
                group_digits(s.first_size),
                bucket(&a),
                group_digits(a.length),
                group_digits(s.second_size),
                bucket(&b),
                group_digits(b.length)
            ),
            Err(e) => e.to_string(),
        }
    }
}

impl Kind for PayloadAlive {
    fn name(&self) -> &'static str {
        "payload-alive"
    }
    fn choices(&self) -> &'static [&'static str] {
        &["yes", "no"]
    }
    fn draw(&self, rng: &mut Rng) -> u64 {
        rng.below(2)
    }
    fn prompt(&self, v: u64) -> String {
        format!(
            "A pool of Option<Arc<[u8]>>: arr[0] holds the only Arc to a 4,096-byte payload, and arr is returned with clear = {}. Your code drops every other reference. Is the payload still alive?",
            v == 1
        )
    }
    fn expected(&self, v: u64) -> String {
        payload_alive(v == 1).map_or_else(|e| e.to_string(), yes_no)
    }
    fn explain(&self, v: u64) -> String {
        if v == 1 {
            "The lab ran it: clearing overwrote arr[0] with None, which dropped the last Arc and freed the payload (.NET: IsAlive = False).".into()
        } else {
            "The lab ran it: the returned buffer sits in the pool with arr[0] still holding the Arc, so the payload stays alive until the buffer is cleared or dropped (.NET: IsAlive = True).".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Question;

    #[test]
    fn quiz_answers_come_from_runs() {
        assert!(Question::new(&LeakedBytes, 25).check("16").correct);
        assert!(Question::new(&NonZeroOnArrival, 0).check("41").correct);
        assert!(Question::new(&NonZeroOnArrival, 1).check("0").correct);
        assert!(
            Question::new(&SameBucketSeesOld, 64 << 32 | 33)
                .check("yes")
                .correct
        );
        assert!(
            Question::new(&SameBucketSeesOld, 64 << 32 | 65)
                .check("no")
                .correct
        );
        assert!(Question::new(&PayloadAlive, 0).check("yes").correct);
        let f = Question::new(&LeakedBytes, 10).check("41");
        assert!(!f.correct && f.expected == "31", "{f:?}");
        assert!(f.explanation.contains("41 − 10 = 31"), "{}", f.explanation);
    }
}
