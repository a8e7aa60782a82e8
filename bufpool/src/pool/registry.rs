//! The process-wide pools of [`SharedPool::shared`](super::SharedPool::shared), one per element
//! type, found without a lock.
//!
//! Rust has no generic statics, so the pools live in one table keyed by [`TypeId`]. The table is
//! copy-on-write: a reader loads one atomic pointer (a plain load on x86-64 and AArch64) and
//! compares the few type ids it holds, so `SharedPool::<T>::shared().rent(n)` in a loop costs
//! about what a held reference does (the bench's `shared_accessor` suite). The first call for a
//! new type takes a lock, copies the table with one more entry and publishes the copy, which
//! links to the one it replaced. Neither the tables nor the pools are ever freed: a reader may
//! still be scanning an old table, and a `&'static` pool must live for the whole process. Both
//! are as many as the element types the program uses.

use std::any::TypeId;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Mutex, PoisonError};

/// One item: a leaked value and the type it was made as.
#[derive(Clone, Copy)]
struct Entry {
    type_id: TypeId,
    item: *const (),
}

/// A published table: replaced, never changed or freed.
struct Table {
    /// The first type's entry, beside the table's header: a program that asks for one element
    /// type (or mostly one, made first) finds it without following `entries` to the heap and
    /// scanning, one dependent load fewer per `shared()`.
    first: Entry,
    entries: Vec<Entry>,
    /// The table this one replaced, which a reader may still be scanning: kept reachable, so
    /// that nothing is lost track of (Miri's leak check sees every table).
    _replaced: *const Table,
}

/// The current table, null before the first pool.
static TABLE: AtomicPtr<Table> = AtomicPtr::new(std::ptr::null_mut());
/// Serializes the writers (a first call per type).
static WRITER: Mutex<()> = Mutex::new(());

/// The item made for type `T`, if any.
#[inline]
pub(crate) fn find<T: Send + Sync + 'static>() -> Option<&'static T> {
    let table = TABLE.load(Ordering::Acquire);
    // SAFETY: a non-null pointer is a `Box<Table>` leaked by `get_or_insert`, published with a
    // release store after it was filled, and never changed or freed after that.
    let table = unsafe { table.as_ref() }?;
    let id = TypeId::of::<T>();
    let entry = if table.first.type_id == id {
        &table.first
    } else {
        table.entries.iter().find(|e| e.type_id == id)?
    };
    // SAFETY: an entry of `TypeId::of::<T>()` points to a `T` leaked by `get_or_insert` (so
    // valid for `'static`, never mutated), and `T: Sync` lets any thread share it.
    Some(unsafe { &*entry.item.cast::<T>() })
}

/// The item for type `T`, made by `make` on the first call for `T`.
#[cold]
#[inline(never)]
pub(crate) fn get_or_insert<T: Send + Sync + 'static>(make: impl FnOnce() -> T) -> &'static T {
    insert(make).unwrap_or_else(|existing| existing)
}

/// Makes the item for type `T` with `make` and publishes it, or gives back the one made before
/// (and does not call `make`).
pub(crate) fn insert<T: Send + Sync + 'static>(
    make: impl FnOnce() -> T,
) -> Result<&'static T, &'static T> {
    // Poisoning: a `make` that panicked published nothing, so the table is whole.
    let _writer = WRITER.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(item) = find::<T>() {
        return Err(item);
    }
    let item: &'static T = Box::leak(Box::new(make()));
    let old = TABLE.load(Ordering::Acquire);
    // SAFETY: as in `find`: a published table is never changed or freed.
    let old_table = unsafe { old.as_ref() };
    let mut entries = old_table.map_or_else(Vec::new, |t| t.entries.clone());
    let entry = Entry {
        type_id: TypeId::of::<T>(),
        item: std::ptr::from_ref(item).cast(),
    };
    entries.push(entry);
    let table = Table {
        first: old_table.map_or(entry, |t| t.first),
        entries,
        _replaced: old,
    };
    TABLE.store(Box::into_raw(Box::new(table)), Ordering::Release);
    Ok(item)
}
