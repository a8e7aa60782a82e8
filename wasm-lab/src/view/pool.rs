//! The pool drawn: a snapshot of the real pool's buckets (thread slot, partitions), who holds
//! which buffer, and a buffer's bytes. Built from [`BucketLayout`], so a drawing
//! is the pool's own state after a step, never a model of it.

use bufpool::pool::BucketLayout;
use lab_text::f;

/// Most boxes drawn per partition; the rest are counted.
pub const MAX_BOXES: usize = 40;
/// Most partitions drawn per bucket; the rest are counted.
pub const MAX_PARTITIONS: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolView {
    pub buckets: Vec<BucketView>,
    pub holders: Vec<Holder>,
    /// What was dropped at this step, as a sentence (empty: nothing).
    pub dropped: String,
    /// Buffers' bytes, one row per buffer in play.
    pub bytes: Vec<BytesRow>,
    /// Unnamed buffers counted rather than named (the capacity story): drawn as boxes.
    pub hand: Option<Hand>,
}

/// Buffers a renter holds, those allocated at this step, and those the pool dropped at it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hand {
    pub who: String,
    pub held: u64,
    /// Of `held`, allocated at this step.
    pub fresh: u64,
    pub dropped: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketView {
    /// Buffer length of the bucket, in elements.
    pub length: u64,
    pub slot: Option<BufView>,
    pub partitions: Vec<PartView>,
    /// `M`: the most buffers one partition keeps.
    pub per_partition: u64,
    /// Partitions not drawn.
    pub more_partitions: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartView {
    /// Buffers kept, bottom first (at most [`MAX_BOXES`] drawn).
    pub buffers: Vec<BufView>,
    /// Buffers kept but not drawn.
    pub more: u64,
    /// Buffers kept.
    pub count: u64,
}

/// A buffer's identity as drawn: a label and a colour that follow it everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufView {
    pub label: String,
    pub colour: u8,
}

/// A renter and the buffer it holds (or why it holds none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub name: String,
    pub buf: Option<BufView>,
    pub note: String,
}

/// One buffer's first bytes, each with its class (`lab-own`, `lab-leak`, `lab-zero`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytesRow {
    pub buf: BufView,
    pub cells: Vec<(u8, &'static str)>,
    /// Bytes not drawn.
    pub more: u64,
}

/// Labels buffers by the order the story first meets them: A, B, C, …
#[derive(Clone, Debug, Default)]
pub struct Names(Vec<u64>);

impl Names {
    /// The drawn identity of buffer `id`.
    pub fn of(&mut self, id: u64) -> BufView {
        let i = match self.0.iter().position(|&x| x == id) {
            Some(i) => i,
            None => {
                self.0.push(id);
                self.0.len() - 1
            }
        };
        BufView {
            label: label(i),
            colour: (i % 6) as u8,
        }
    }
}

fn label(i: usize) -> String {
    let letter = char::from(b'A' + (i % 26) as u8);
    if i < 26 {
        letter.to_string()
    } else {
        f!("{letter}{}", i / 26)
    }
}

impl BucketView {
    /// A bucket drawn from the pool's layout, buffers named by `name`.
    pub fn from_layout<B>(
        length: u64,
        per_partition: u64,
        layout: &BucketLayout<B>,
        mut name: impl FnMut(&B) -> BufView,
    ) -> Self {
        let partitions = layout
            .partitions
            .iter()
            .take(MAX_PARTITIONS)
            .map(|p| PartView {
                buffers: p.iter().take(MAX_BOXES).map(&mut name).collect(),
                more: p.len().saturating_sub(MAX_BOXES) as u64,
                count: p.len() as u64,
            })
            .collect();
        BucketView {
            length,
            slot: layout.slot.as_ref().map(&mut name),
            partitions,
            per_partition,
            more_partitions: layout.partitions.len().saturating_sub(MAX_PARTITIONS),
        }
    }
}

impl PoolView {
    /// The state in a line, drawn and native alike: `64: slot A | p0 [A] ; a1=A a2=- ; dropped`.
    /// The end-to-end tests compare the drawn pool with the lab's native run through it.
    pub fn signature(&self) -> String {
        let b = |v: &Option<BufView>| v.as_ref().map_or("-".to_string(), |b| b.label.clone());
        let mut out = Vec::new();
        for bucket in &self.buckets {
            let parts: Vec<String> = bucket
                .partitions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let names: Vec<&str> = p.buffers.iter().map(|b| b.label.as_str()).collect();
                    f!(
                        "p{i} [{}]{}",
                        names.join(" "),
                        if p.more > 0 {
                            f!("+{}", p.more)
                        } else {
                            String::new()
                        }
                    )
                })
                .collect();
            out.push(f!(
                "{}: slot {} | {}",
                bucket.length,
                b(&bucket.slot),
                parts.join(" | ")
            ));
        }
        let holders: Vec<String> = self
            .holders
            .iter()
            .map(|h| f!("{}={}", h.name, b(&h.buf)))
            .collect();
        out.push(holders.join(" "));
        if !self.dropped.is_empty() {
            out.push(self.dropped.clone());
        }
        out.join(" ; ")
    }
}
