//! Peers measured in the same run, doing the same work at the same sizes: get a buffer of `n`
//! bytes, optionally fill it, give it back. The peers: glibc's malloc + free through Rust's
//! `System`, mimalloc as an explicit allocator object (not the global allocator), and three pool
//! crates from crates.io (`object-pool`, `opool`, `lockfree-object-pool`), each keeping `Vec<u8>`s
//! of `n` bytes. All six take turns in one paired group per size ([`crate::paired`]), so the
//! ratios compare batches measured a millisecond apart.

use std::alloc::{GlobalAlloc, Layout, System};

use anyhow::{Context, Result};
use bufpool::pool::SharedPool;

use crate::measure::Session;
use crate::paired::Group;
use crate::words;

pub const SIZES: &[usize] = &[16, 1024, 16_384, 81_920, 1_048_576];
pub const PEERS: &[&str] = &[
    "pool",
    "system",
    "mimalloc",
    "object_pool",
    "opool",
    "lockfree_object_pool",
];
/// One paired group per size, with and without the write.
pub const STEPS: usize = 2 * SIZES.len();

const BYTE: u8 = 0xA5;

/// malloc + (fill) + free through an explicit `GlobalAlloc` object.
fn raw_cycle<A: GlobalAlloc, const WRITE: bool>(a: &A, layout: Layout) {
    // SAFETY: `layout` has a non-zero size (n ≥ 16); the pointer is checked for null, written
    // only within `layout.size()` bytes, and freed once with the same allocator and layout.
    unsafe {
        let p = a.alloc(layout);
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        if WRITE {
            std::ptr::write_bytes(p, BYTE, layout.size());
        }
        std::hint::black_box(p);
        a.dealloc(p, layout);
    }
}

struct VecAlloc(usize);

impl opool::PoolAllocator<Vec<u8>> for VecAlloc {
    fn allocate(&self) -> Vec<u8> {
        vec![0u8; self.0]
    }
}

/// The peers of one size, kept from one paired group to the next.
struct Peers<'a> {
    pool: &'a SharedPool<u8>,
    object_pool: &'a object_pool::Pool<Vec<u8>>,
    opool: &'a opool::Pool<VecAlloc, Vec<u8>>,
    lockfree: &'a lockfree_object_pool::LinearObjectPool<Vec<u8>>,
}

pub fn run(s: &mut Session) -> Result<()> {
    let pool = SharedPool::<u8>::new();
    for &n in SIZES {
        let layout = Layout::from_size_align(n, 8).context("layout")?;
        let object_pool = object_pool::Pool::new(4, || vec![0u8; n]);
        let opool = opool::Pool::new_prefilled(4, VecAlloc(n));
        let lockfree = lockfree_object_pool::LinearObjectPool::new(move || vec![0u8; n], |_| {});
        let peers = Peers {
            pool: &pool,
            object_pool: &object_pool,
            opool: &opool,
            lockfree: &lockfree,
        };
        group::<false>(s, n, layout, &peers)?;
        group::<true>(s, n, layout, &peers)?;
    }
    Ok(())
}

/// One paired group: every peer gets `n` bytes, fills them when `WRITE`, hands the buffer to
/// `black_box`, and gives it back.
///
/// The same work with the same knowledge: the size is opaque to the optimizer on every side, on
/// every call. The pool's `n` and the mallocs' `layout` each pass through `black_box` per call,
/// so no side can take its size arithmetic (the pool's bucket index, a malloc's size class) out
/// of the loop; the three pool crates take no size at all (each keeps `Vec`s of one length).
/// Earlier, each `move` closure held `n` by value with no `black_box`, which let the optimizer
/// keep the pool's bucket arithmetic out of the loop while glibc and mimalloc (C code, not
/// inlined) computed theirs on every call. `WRITE` is a constant, so no peer tests it per call.
/// What goes to `black_box` after the work still differs: the pools' slice (an address and a
/// length, two stores) and the mallocs' pointer (one store).
fn group<const WRITE: bool>(
    s: &mut Session,
    n: usize,
    layout: Layout,
    peers: &Peers<'_>,
) -> Result<()> {
    let Peers {
        pool,
        object_pool,
        opool,
        lockfree,
    } = *peers;
    let w = if WRITE { "_write" } else { "" };
    let what = if WRITE {
        format!("get {n} B, fill it, give it back")
    } else {
        format!("get {n} B and give it back")
    };
    let key = |peer: &str| format!("peers.{n}.{peer}{w}");
    let mut g = Group::new(format!("peers.{n}{w}"));
    g.time(
        &key("pool"),
        &format!("{what}: this course's SharedPool (ownership API)"),
        move || {
            if let Ok(mut b) = pool.try_rent(std::hint::black_box(n)) {
                if WRITE {
                    b.fill(BYTE);
                }
                std::hint::black_box(&*b);
            }
        },
    );
    g.time(
        &key("system"),
        &format!("{what}: System malloc + free (glibc)"),
        move || raw_cycle::<_, WRITE>(&System, std::hint::black_box(layout)),
    );
    g.time(
        &key("mimalloc"),
        &format!("{what}: mimalloc alloc + free (explicit allocator)"),
        move || raw_cycle::<_, WRITE>(&mimalloc::MiMalloc, std::hint::black_box(layout)),
    );
    g.time(
        &key("object_pool"),
        &format!("{what}: object-pool crate (pull + drop)"),
        move || {
            let mut b = object_pool.pull(|| vec![0u8; n]);
            if WRITE {
                b.fill(BYTE);
            }
            std::hint::black_box(&*b);
        },
    );
    g.time(
        &key("opool"),
        &format!("{what}: opool crate (get + drop)"),
        move || {
            let mut b = opool.get();
            if WRITE {
                b.fill(BYTE);
            }
            std::hint::black_box(&*b);
        },
    );
    g.time(
        &key("lockfree_object_pool"),
        &format!("{what}: lockfree-object-pool crate, LinearObjectPool (pull + drop)"),
        move || {
            let mut b = lockfree.pull();
            if WRITE {
                b.fill(BYTE);
            }
            std::hint::black_box(&*b);
        },
    );
    s.compare(g)?;
    for peer in &PEERS[1..] {
        s.ratio_of(
            &format!("peers.{n}.pool_vs_{peer}{w}"),
            &format!("{what}: this pool ÷ {}", words::peer(peer)),
            &key("pool"),
            &key(peer),
        );
    }
    Ok(())
}
