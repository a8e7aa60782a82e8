//! Model-based test: random sequences of rent / return / write / clear / trim against a plain
//! reference model of .NET's two pools, comparing every observable after every step: lengths,
//! buffer identity, contents, allocation counts and buffers kept per bucket. The model drives the
//! handle API over both engines, and `SharedPool`'s own ownership API, whose rent and return take
//! the per-thread cached fast path (`ThreadStore::get_cached`, the pool's one unsafe block) —
//! and, after another pool has used the thread's cache, its slow path.
#![cfg(not(target_arch = "wasm32"))]

use bufpool::bucket::{BUCKET_COUNT, bucket_length, bucket_of_length, select_bucket_index};
use bufpool::pool::{
    ConfigurableConfig, MemoryPressure, PoolError, Rented, SharedConfig, SharedPool,
};
use course_pool::handle::{Handle, HandlePool};
use proptest::prelude::*;
use std::time::Duration;

#[derive(Clone, Debug)]
enum Op {
    Rent(usize),
    Return {
        which: usize,
        clear: bool,
    },
    Foreign {
        len: usize,
        value: u8,
        clear: bool,
    },
    Write {
        which: usize,
        index: usize,
        value: u8,
    },
    Trim {
        pressure: MemoryPressure,
        advance_ms: u64,
    },
    TrimAll,
    /// A rent and return on another pool: this thread's cache then points at that pool, so the
    /// next rent or return of the pool under test misses it and takes the slow path.
    OtherPool,
}

fn op() -> impl Strategy<Value = Op> {
    let len = prop_oneof![
        Just(0usize),
        1usize..=40,
        Just(64),
        Just(100),
        Just(128),
        Just(200),
    ];
    let pressure = prop_oneof![
        Just(MemoryPressure::Low),
        Just(MemoryPressure::Medium),
        Just(MemoryPressure::High)
    ];
    prop_oneof![
        4 => len.clone().prop_map(Op::Rent),
        4 => (any::<usize>(), any::<bool>()).prop_map(|(which, clear)| Op::Return { which, clear }),
        1 => (prop_oneof![Just(16usize), Just(32), Just(20), Just(64), Just(0), Just(300)], 1u8.., any::<bool>())
            .prop_map(|(len, value, clear)| Op::Foreign { len, value, clear }),
        2 => (any::<usize>(), any::<usize>(), 1u8..).prop_map(|(which, index, value)| Op::Write { which, index, value }),
        2 => (pressure, prop_oneof![Just(0u64), Just(5_000), Just(15_000), Just(16_000), Just(30_000), Just(61_000)])
            .prop_map(|(pressure, advance_ms)| Op::Trim { pressure, advance_ms }),
        1 => Just(Op::TrimAll),
        1 => Just(Op::OtherPool),
    ]
}

// === the reference model ===

/// Where kept buffers live, by model buffer id.
enum Store {
    Shared {
        home: usize,
        m: usize,
        slot: Vec<Option<(usize, Option<u64>)>>,
        /// `parts[bucket][partition] = (stack, stamp)`
        parts: Vec<Vec<(Vec<usize>, Option<u64>)>>,
    },
    Configurable {
        n: usize,
        /// `(index, kept stack)` per bucket
        buckets: Vec<(usize, Vec<usize>)>,
    },
}

struct Model {
    store: Store,
    /// Contents of every buffer ever seen, by model id.
    data: Vec<Vec<u8>>,
    allocated: Vec<u64>,
    oversize_allocated: u64,
    now: u64,
}

enum Rent {
    Empty,
    Existing(usize),
    New { len: usize },
}

impl Model {
    fn bucket_count(&self) -> usize {
        match &self.store {
            Store::Shared { .. } => BUCKET_COUNT,
            Store::Configurable { buckets, .. } => buckets.len(),
        }
    }

    fn rent(&mut self, len: usize) -> Rent {
        if len == 0 {
            return Rent::Empty;
        }
        let index = select_bucket_index(len);
        let nb = self.bucket_count();
        if index >= nb {
            self.oversize_allocated += 1;
            return Rent::New { len };
        }
        match &mut self.store {
            Store::Shared {
                home, slot, parts, ..
            } => {
                if let Some((id, _)) = slot[index].take() {
                    return Rent::Existing(id);
                }
                let p = parts[index].len();
                for k in 0..p {
                    if let Some(id) = parts[index][(*home + k) % p].0.pop() {
                        return Rent::Existing(id);
                    }
                }
                self.allocated[index] += 1;
                Rent::New {
                    len: bucket_length(index),
                }
            }
            Store::Configurable { n, buckets } => {
                for (i, (idx, kept)) in buckets.iter_mut().enumerate().take(index + 2).skip(index) {
                    if *idx < *n {
                        *idx += 1;
                        if let Some(id) = kept.pop() {
                            return Rent::Existing(id);
                        }
                        self.allocated[i] += 1;
                        return Rent::New {
                            len: bucket_length(i),
                        };
                    }
                }
                self.allocated[index] += 1;
                Rent::New {
                    len: bucket_length(index),
                }
            }
        }
    }

    fn give_back(&mut self, id: usize, clear: bool) -> Result<(), PoolError> {
        let len = self.data[id].len();
        let in_range = len != 0 && select_bucket_index(len) < self.bucket_count();
        if !in_range {
            return Ok(()); // ignored, never cleared
        }
        if clear {
            self.data[id].fill(0);
        }
        let Some(bucket) = bucket_of_length(len) else {
            return Err(PoolError::NotAssociated { length: len });
        };
        match &mut self.store {
            Store::Shared {
                home,
                m,
                slot,
                parts,
            } => {
                if let Some((prev, _)) = slot[bucket].replace((id, None)) {
                    let p = parts[bucket].len();
                    for k in 0..p {
                        let (stack, stamp) = &mut parts[bucket][(*home + k) % p];
                        if stack.len() < *m {
                            if stack.is_empty() {
                                *stamp = None;
                            }
                            stack.push(prev);
                            break;
                        }
                    }
                }
            }
            Store::Configurable { buckets, .. } => {
                let (idx, kept) = &mut buckets[bucket];
                if *idx > 0 {
                    *idx -= 1;
                    kept.push(id);
                }
            }
        }
        Ok(())
    }

    fn trim(&mut self, pressure: MemoryPressure, now: u64) {
        let Store::Shared { slot, parts, .. } = &mut self.store else {
            return;
        };
        let (period, count) = match pressure {
            MemoryPressure::Low => (60_000, 1),
            MemoryPressure::Medium => (60_000, 2),
            MemoryPressure::High => (10_000, usize::MAX),
        };
        for bucket in parts.iter_mut() {
            for (stack, stamp) in bucket.iter_mut() {
                if stack.is_empty() {
                    continue;
                }
                match *stamp {
                    None => *stamp = Some(now),
                    Some(seen) if now - seen > period => {
                        let drop = count.min(stack.len());
                        stack.truncate(stack.len() - drop);
                        *stamp = if stack.is_empty() {
                            None
                        } else {
                            Some(seen + period / 4)
                        };
                    }
                    Some(_) => {}
                }
            }
        }
        let slot_period = match pressure {
            MemoryPressure::Low => Some(30_000),
            MemoryPressure::Medium => Some(15_000),
            MemoryPressure::High => None,
        };
        for s in slot.iter_mut() {
            let Some((_, seen)) = s else { continue };
            match (slot_period, *seen) {
                (None, _) => *s = None,
                (Some(_), None) => *seen = Some(now),
                (Some(p), Some(t)) if now - t >= p => *s = None,
                _ => {}
            }
        }
    }

    fn trim_all(&mut self) {
        match &mut self.store {
            Store::Shared { slot, parts, .. } => {
                slot.iter_mut().for_each(|s| *s = None);
                parts.iter_mut().flatten().for_each(|(s, _)| s.clear());
            }
            Store::Configurable { buckets, .. } => {
                buckets.iter_mut().for_each(|(_, kept)| kept.clear());
            }
        }
    }

    /// Model ids of every buffer alive: `held` by the test, or kept by the pool.
    fn alive(&self, held: impl Iterator<Item = usize>) -> Vec<usize> {
        let mut ids: Vec<usize> = held.collect();
        match &self.store {
            Store::Shared { slot, parts, .. } => {
                ids.extend(slot.iter().flatten().map(|(id, _)| *id));
                ids.extend(parts.iter().flatten().flat_map(|(s, _)| s.iter().copied()));
            }
            Store::Configurable { buckets, .. } => {
                ids.extend(buckets.iter().flat_map(|(_, kept)| kept.iter().copied()));
            }
        }
        ids
    }

    /// (in partitions or bucket, in this thread's slot) per bucket.
    fn kept(&self) -> Vec<(usize, usize)> {
        match &self.store {
            Store::Shared { slot, parts, .. } => (0..BUCKET_COUNT)
                .map(|b| {
                    (
                        parts[b].iter().map(|(s, _)| s.len()).sum(),
                        usize::from(slot[b].is_some()),
                    )
                })
                .collect(),
            Store::Configurable { buckets, .. } => {
                buckets.iter().map(|(_, kept)| (kept.len(), 0)).collect()
            }
        }
    }
}

// === the driver ===

fn run(pool: HandlePool<u8>, mut model: Model, ops: Vec<Op>) -> Result<(), TestCaseError> {
    // `handles[i]` is what the test holds (rented or foreign, returned or not) and its model id.
    let mut handles: Vec<(Handle<u8>, usize)> = Vec::new();
    // One real handle per model id, to check identity.
    let mut by_id: Vec<Handle<u8>> = Vec::new();
    let empty = pool.rent(0).unwrap();
    for op in ops {
        match op {
            Op::Rent(len) => {
                let h = pool.rent(len).unwrap();
                match model.rent(len) {
                    Rent::Empty => {
                        prop_assert!(h.is_empty() && h.ptr_eq(&empty));
                    }
                    Rent::Existing(id) => {
                        prop_assert!(
                            h.ptr_eq(&by_id[id]),
                            "rent({}) should reuse model buffer {}",
                            len,
                            id
                        );
                        handles.push((h, id));
                    }
                    Rent::New { len: expect, .. } => {
                        prop_assert_eq!(h.len(), expect);
                        prop_assert!(
                            by_id.iter().all(|o| !o.ptr_eq(&h)),
                            "rent({}) should allocate",
                            len
                        );
                        model.data.push(vec![0; expect]);
                        by_id.push(h.clone());
                        handles.push((h, model.data.len() - 1));
                    }
                }
            }
            Op::Return { which, clear } => {
                if handles.is_empty() {
                    continue;
                }
                let (h, id) = &handles[which % handles.len()];
                prop_assert_eq!(pool.return_handle(h, clear), model.give_back(*id, clear));
            }
            Op::Foreign { len, value, clear } => {
                let h = Handle::from_vec(vec![value; len]);
                model.data.push(vec![value; len]);
                by_id.push(h.clone());
                let id = model.data.len() - 1;
                prop_assert_eq!(pool.return_handle(&h, clear), model.give_back(id, clear));
                handles.push((h, id));
            }
            Op::Write {
                which,
                index,
                value,
            } => {
                if handles.is_empty() {
                    continue;
                }
                let (h, id) = &handles[which % handles.len()];
                let len = model.data[*id].len();
                if len == 0 {
                    prop_assert!(h.write(index, value).is_err());
                    continue;
                }
                h.write(index % len, value).unwrap();
                model.data[*id][index % len] = value;
            }
            Op::Trim {
                pressure,
                advance_ms,
            } => {
                model.now += advance_ms;
                pool.trim(pressure, Duration::from_millis(model.now));
                model.trim(pressure, model.now);
            }
            Op::TrimAll => {
                pool.trim_all();
                model.trim_all();
            }
            Op::OtherPool => {
                let other = SharedPool::<u8>::new();
                drop(other.rent(16));
            }
        }
        // Every observable, after every step.
        for (h, id) in &handles {
            prop_assert_eq!(&h.to_vec().unwrap(), &model.data[*id]);
        }
        let stats = pool.stats();
        prop_assert_eq!(stats.buckets.len(), model.bucket_count());
        for (b, (parts, slot)) in stats.buckets.iter().zip(model.kept()) {
            prop_assert_eq!(
                (b.in_partitions, b.in_thread_slot),
                (parts, slot),
                "bucket {}",
                b.index
            );
            prop_assert_eq!(
                b.allocated,
                model.allocated[b.index],
                "allocated in bucket {}",
                b.index
            );
        }
        prop_assert_eq!(stats.oversize_allocated, model.oversize_allocated);
    }
    Ok(())
}

/// The ownership API's driver: the same ops on a [`SharedPool`], through [`Rented`] guards.
/// What does not compile there (returning twice, writing after the return) is skipped: a guard
/// once returned is gone. Buffer identity is the buffer's address: a new buffer must not sit at
/// the address of any buffer the model says is alive (held, or kept by the pool).
fn run_owned(pool: &SharedPool<u8>, mut model: Model, ops: Vec<Op>) -> Result<(), TestCaseError> {
    // What the test holds: guards not yet returned (`None` once returned), with their model ids.
    type Held<'p> = Option<(Rented<'p, u8, SharedPool<u8>>, usize)>;
    let mut held: Vec<Held<'_>> = Vec::new();
    // The address of every buffer by model id.
    let mut addr: Vec<usize> = Vec::new();
    for op in ops {
        match op {
            Op::Rent(len) => {
                let r = pool.rent(len);
                prop_assert_eq!(r.len(), len);
                let at = r.as_capacity().as_ptr() as usize;
                match model.rent(len) {
                    Rent::Empty => prop_assert_eq!(r.capacity(), 0),
                    Rent::Existing(id) => {
                        prop_assert_eq!(
                            at,
                            addr[id],
                            "rent({}) should reuse model buffer {}",
                            len,
                            id
                        );
                        held.push(Some((r, id)));
                    }
                    Rent::New { len: expect } => {
                        prop_assert_eq!(r.capacity(), expect);
                        let alive = model.alive(held.iter().flatten().map(|(_, id)| *id));
                        prop_assert!(
                            alive.iter().all(|&id| addr[id] != at),
                            "rent({}) should allocate",
                            len
                        );
                        model.data.push(vec![0; expect]);
                        addr.push(at);
                        held.push(Some((r, model.data.len() - 1)));
                    }
                }
            }
            Op::Return { which, clear } => {
                if held.is_empty() {
                    continue;
                }
                let k = which % held.len();
                let Some((r, id)) = held[k].take() else {
                    continue; // already returned: a second return does not compile
                };
                if clear {
                    r.return_cleared();
                } else {
                    drop(r);
                }
                prop_assert_eq!(model.give_back(id, clear), Ok(()));
            }
            Op::Foreign { len, value, clear } => {
                let b = vec![value; len].into_boxed_slice();
                model.data.push(vec![value; len]);
                addr.push(b.as_ptr() as usize);
                let id = model.data.len() - 1;
                let got = pool.return_boxed(b, clear).map_err(|r| r.error);
                prop_assert_eq!(got, model.give_back(id, clear));
            }
            Op::Write {
                which,
                index,
                value,
            } => {
                if held.is_empty() {
                    continue;
                }
                let k = which % held.len();
                let Some((r, id)) = &mut held[k] else {
                    continue; // returned: a later use does not compile
                };
                let cap = model.data[*id].len();
                if cap == 0 {
                    continue;
                }
                r.as_capacity_mut()[index % cap] = value;
                model.data[*id][index % cap] = value;
            }
            Op::Trim {
                pressure,
                advance_ms,
            } => {
                model.now += advance_ms;
                pool.trim(pressure, Duration::from_millis(model.now));
                model.trim(pressure, model.now);
            }
            Op::TrimAll => {
                pool.trim_all();
                model.trim_all();
            }
            Op::OtherPool => {
                let other = SharedPool::<u8>::new();
                drop(other.rent(16));
            }
        }
        for (r, id) in held.iter().flatten() {
            prop_assert_eq!(r.as_capacity(), &model.data[*id][..]);
        }
        let stats = pool.stats();
        for (b, (parts, slot)) in stats.buckets.iter().zip(model.kept()) {
            prop_assert_eq!(
                (b.in_partitions, b.in_thread_slot),
                (parts, slot),
                "bucket {}",
                b.index
            );
            prop_assert_eq!(
                b.allocated,
                model.allocated[b.index],
                "allocated in bucket {}",
                b.index
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn shared_pool_matches_the_model(p in 1usize..=3, m in 1usize..=3, ops in prop::collection::vec(op(), 1..60)) {
        let pool = HandlePool::<u8>::with_shared(SharedConfig::new().with_partitions(p).with_arrays_per_partition(m).with_clear_on_return(false)).unwrap();
        let home = pool.stats().home_partition.unwrap();
        let model = Model {
            store: Store::Shared {
                home,
                m,
                slot: vec![None; BUCKET_COUNT],
                parts: vec![vec![(Vec::new(), None); p]; BUCKET_COUNT],
            },
            data: Vec::new(),
            allocated: vec![0; BUCKET_COUNT],
            oversize_allocated: 0,
            now: 0,
        };
        run(pool, model, ops)?;
    }

    #[test]
    fn shared_pool_guards_match_the_model(p in 1usize..=3, m in 1usize..=3, ops in prop::collection::vec(op(), 1..60)) {
        let pool = SharedPool::<u8>::with_config(SharedConfig::new().with_partitions(p).with_arrays_per_partition(m).with_clear_on_return(false)).unwrap();
        let home = pool.stats().home_partition.unwrap();
        let model = Model {
            store: Store::Shared {
                home,
                m,
                slot: vec![None; BUCKET_COUNT],
                parts: vec![vec![(Vec::new(), None); p]; BUCKET_COUNT],
            },
            data: Vec::new(),
            allocated: vec![0; BUCKET_COUNT],
            oversize_allocated: 0,
            now: 0,
        };
        run_owned(&pool, model, ops)?;
    }

    #[test]
    fn configurable_pool_matches_the_model(max in prop_oneof![Just(1usize), Just(32), Just(100), Just(128)], n in 1usize..=3, ops in prop::collection::vec(op(), 1..60)) {
        let config = ConfigurableConfig::new().with_max_array_length(max).with_max_arrays_per_bucket(n).with_clear_on_return(false);
        let pool = HandlePool::<u8>::with_configurable(config).unwrap();
        let nb = config.bucket_count();
        let model = Model {
            store: Store::Configurable { n, buckets: vec![(0, Vec::new()); nb] },
            data: Vec::new(),
            allocated: vec![0; nb],
            oversize_allocated: 0,
            now: 0,
        };
        run(pool, model, ops)?;
    }
}
