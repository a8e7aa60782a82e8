//! The handle API: buffers as shared references, like arrays in C#.
//!
//! A [`Handle`] is a clonable reference to one buffer. Returning it does not take it away from
//! you, exactly as `ArrayPool.Return(array)` leaves `array` in your variable — which is how the
//! course reproduces the .NET hazards live: return twice and two later renters share one buffer;
//! keep a handle after return and your writes land in the next renter's data.

mod checked;

use bufpool::pool::engine::{
    self as element, ConfigurableEngine, Engine, Place, Plan, Put, SharedEngine, next_pool_id,
};
use bufpool::pool::{
    BucketLayout, ConfigurableConfig, Element, MemoryPressure, PoolError, PoolStats, SharedConfig,
};
use checked::Lease;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Locks `m`, ignoring poisoning: a handle's buffer is plain data, never left half-updated by
/// the pool across a call into user code.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The next id of `counter`, from 1.
fn next_id(counter: &std::sync::atomic::AtomicU64) -> u64 {
    counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
}

static BUFFER_IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The buffer behind one or more handles.
pub(crate) struct BufferCell<T> {
    id: u64,
    /// Id of the pool that allocated it; 0 for a foreign buffer ([`Handle::from_vec`]).
    origin: u64,
    len: usize,
    lease: Lease,
    data: Mutex<Box<[T]>>,
}

/// A reference to a pooled buffer, clonable like a C# array reference.
///
/// Every access returns a `Result`: out-of-range indices are [`PoolError::OutOfBounds`], and in a
/// checked pool ([`HandlePool::with_checked`]) a handle whose lease ended is
/// [`PoolError::UseAfterReturn`]. Without checking, a stale handle reads and writes whatever the
/// buffer holds now — the .NET behaviour.
///
/// ```
/// use course_pool::handle::HandlePool;
/// let pool = HandlePool::<i32>::new();
/// let stale = pool.rent(64).unwrap();
/// pool.return_handle(&stale, false).unwrap();
/// let fresh = pool.rent(64).unwrap();
/// fresh.write(0, 200).unwrap();   // the new renter writes a price
/// stale.write(0, 99).unwrap();    // old code keeps writing through its handle
/// assert_eq!(fresh.read(0), Ok(99));
/// assert!(fresh.ptr_eq(&stale));
/// ```
pub struct Handle<T> {
    cell: Arc<BufferCell<T>>,
    /// The lease this handle was rented under (checked mode).
    ticket: u64,
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        Self {
            cell: self.cell.clone(),
            ticket: self.ticket,
        }
    }
}

impl<T: Element> Handle<T> {
    fn new_cell(origin: u64, data: Box<[T]>, checked: bool) -> Arc<BufferCell<T>> {
        Arc::new(BufferCell {
            id: next_id(&BUFFER_IDS),
            origin,
            len: data.len(),
            lease: Lease::new(checked),
            data: Mutex::new(data),
        })
    }

    /// A buffer that never came from any pool (C#'s `new T[n]`), to return to one.
    ///
    /// ```
    /// use course_pool::handle::{Handle, HandlePool};
    /// let pool = HandlePool::<u8>::new();
    /// let mine = Handle::from_vec(vec![0u8; 128]);
    /// mine.write(0, 77).unwrap();
    /// pool.return_handle(&mine, false).unwrap();      // accepted: 128 is a bucket length
    /// let got = pool.rent(128).unwrap();
    /// assert!(got.ptr_eq(&mine) && got.read(0) == Ok(77));
    /// ```
    pub fn from_vec(data: Vec<T>) -> Self {
        Self {
            cell: Self::new_cell(0, data.into_boxed_slice(), false),
            ticket: 0,
        }
    }

    /// Length of the buffer (the bucket length, not the requested length).
    pub fn len(&self) -> usize {
        self.cell.len
    }

    /// Whether the buffer has no elements (`rent(0)`).
    pub fn is_empty(&self) -> bool {
        self.cell.len == 0
    }

    /// A process-unique id of the buffer (not of the handle): equal ids, same buffer.
    pub fn id(&self) -> u64 {
        self.cell.id
    }

    /// Whether two handles reference the same buffer (C#'s `ReferenceEquals`).
    pub fn ptr_eq(&self, other: &Handle<T>) -> bool {
        Arc::ptr_eq(&self.cell, &other.cell)
    }

    /// Whether this buffer came from no pool ([`Handle::from_vec`]).
    pub fn is_foreign(&self) -> bool {
        self.cell.origin == 0
    }

    fn check(&self) -> Result<(), PoolError> {
        self.cell.lease.check_use(self.ticket, self.cell.id)
    }

    fn range(&self, start: usize, count: usize) -> Result<std::ops::Range<usize>, PoolError> {
        start
            .checked_add(count)
            .filter(|&end| end <= self.cell.len)
            .map(|end| start..end)
            .ok_or(PoolError::OutOfBounds {
                start,
                count,
                length: self.cell.len,
            })
    }

    /// Runs `f` on the whole buffer.
    pub fn with<R>(&self, f: impl FnOnce(&[T]) -> R) -> Result<R, PoolError> {
        self.check()?;
        Ok(f(&lock(&self.cell.data)))
    }

    /// Runs `f` on the whole buffer, mutably.
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut [T]) -> R) -> Result<R, PoolError> {
        self.check()?;
        Ok(f(&mut lock(&self.cell.data)))
    }

    /// Element `index`.
    pub fn read(&self, index: usize) -> Result<T, PoolError> {
        let r = self.range(index, 1)?;
        self.with(|d| d[r.start].clone())
    }

    /// Sets element `index`.
    pub fn write(&self, index: usize, value: T) -> Result<(), PoolError> {
        let r = self.range(index, 1)?;
        self.with_mut(|d| d[r.start] = value)
    }

    /// `count` elements from `start`.
    pub fn read_range(&self, start: usize, count: usize) -> Result<Vec<T>, PoolError> {
        let r = self.range(start, count)?;
        self.with(|d| d[r].to_vec())
    }

    /// Copies `data` into the buffer at `start`.
    pub fn write_slice(&self, start: usize, data: &[T]) -> Result<(), PoolError> {
        let r = self.range(start, data.len())?;
        self.with_mut(|d| d[r].clone_from_slice(data))
    }

    /// The whole buffer, copied.
    pub fn to_vec(&self) -> Result<Vec<T>, PoolError> {
        self.with(|d| d.to_vec())
    }
}

impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handle")
            .field("id", &self.cell.id)
            .field("len", &self.cell.len)
            .finish_non_exhaustive()
    }
}

impl<T> PartialEq for Handle<T> {
    /// Reference equality: same buffer.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.cell, &other.cell)
    }
}

impl<T> Eq for Handle<T> {}

type Slot<T> = Arc<BufferCell<T>>;

/// A pool whose buffers are [`Handle`]s: the API the live quizzes and widgets run.
///
/// It runs either engine: the shared pool's ([`HandlePool::new`], [`HandlePool::with_shared`])
/// or the configurable pool's ([`HandlePool::with_configurable`]), with the same rules as
/// [`SharedPool`](bufpool::pool::SharedPool) and
/// [`ConfigurablePool`](bufpool::pool::ConfigurablePool).
///
/// Double return, reproduced (the Thai article's `r1[0].V = 11` read through `r2`):
///
/// ```
/// use course_pool::handle::HandlePool;
/// let pool = HandlePool::<u8>::new();
/// let x = pool.rent(64).unwrap();
/// pool.return_handle(&x, false).unwrap();
/// pool.return_handle(&x, false).unwrap(); // no error: .NET does not notice either
/// let r1 = pool.rent(64).unwrap();
/// let r2 = pool.rent(64).unwrap();
/// assert!(r1.ptr_eq(&r2));
/// r1.write(0, 11).unwrap();
/// assert_eq!(r2.read(0), Ok(11));
/// ```
///
/// In checked mode the same misuse is an error:
///
/// ```
/// use bufpool::pool::PoolError;
/// use course_pool::handle::HandlePool;
/// let pool = HandlePool::<u8>::new().with_checked(true);
/// let x = pool.rent(64).unwrap();
/// pool.return_handle(&x, false).unwrap();
/// assert_eq!(pool.return_handle(&x, false), Err(PoolError::DoubleReturn { buffer: x.id() }));
/// assert_eq!(x.read(0), Err(PoolError::UseAfterReturn { buffer: x.id() }));
/// ```
pub struct HandlePool<T: Element> {
    id: u64,
    engine: Box<dyn Engine<Slot<T>>>,
    empty: Slot<T>,
    checked: bool,
    kind: &'static str,
}

impl<T: Element> Default for HandlePool<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Element> HandlePool<T> {
    fn build(engine: Box<dyn Engine<Slot<T>>>, kind: &'static str) -> Self {
        let id = next_pool_id();
        Self {
            id,
            engine,
            empty: Handle::new_cell(id, Box::default(), false),
            checked: false,
            kind,
        }
    }

    /// A handle pool over the shared engine with the default settings.
    pub fn new() -> Self {
        let mut config = SharedConfig::default();
        config.partitions = config.partitions.clamp(1, bufpool::pool::MAX_PARTITIONS);
        Self::with_shared(config).unwrap_or_else(|_| unreachable!("default settings are valid"))
    }

    /// A handle pool over the shared engine.
    pub fn with_shared(config: SharedConfig) -> Result<Self, PoolError> {
        Ok(Self::build(Box::new(SharedEngine::new(config)?), "shared"))
    }

    /// A handle pool over the configurable engine (`ArrayPool.Create()`).
    pub fn with_configurable(config: ConfigurableConfig) -> Result<Self, PoolError> {
        Ok(Self::build(
            Box::new(ConfigurableEngine::new(config)?),
            "configurable",
        ))
    }

    /// Turns checked mode on or off (beyond .NET; off by default). Set it before renting: it
    /// applies to buffers this pool allocates from then on.
    pub fn with_checked(mut self, checked: bool) -> Self {
        self.checked = checked;
        self
    }

    /// Whether checked mode is on.
    pub fn is_checked(&self) -> bool {
        self.checked
    }

    /// `"shared"` or `"configurable"`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// A process-unique id of this pool.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Rents a buffer of at least `len` elements (.NET's `Rent`). `rent(0)` is always the same
    /// empty buffer.
    pub fn rent(&self, len: usize) -> Result<Handle<T>, PoolError> {
        let cell = match self.engine.plan(len) {
            Plan::Empty => {
                return Ok(Handle {
                    cell: self.empty.clone(),
                    ticket: 0,
                });
            }
            Plan::Hit(cell) => cell,
            Plan::Exact(n) => {
                let data = element::alloc(n)?;
                self.engine.note_alloc(None);
                Handle::new_cell(self.id, data, self.checked)
            }
            Plan::Alloc { bucket, length } => {
                let data = element::alloc(length)?;
                self.engine.note_alloc(Some(bucket));
                Handle::new_cell(self.id, data, self.checked)
            }
        };
        let ticket = cell.lease.begin();
        Ok(Handle { cell, ticket })
    }

    /// Returns a buffer (.NET's `Return(array, clearArray)`); the handle stays usable, as in C#.
    ///
    /// Unchecked (the .NET rules): a buffer of any bucket length is accepted, even a foreign
    /// one; with `clear` the buffer is cleared first, then a wrong length is refused with
    /// [`PoolError::NotAssociated`]; length 0 or oversize is ignored.
    ///
    /// Checked: a foreign buffer is [`PoolError::NotRented`], a second return (or a return
    /// through a handle of an earlier lease) is [`PoolError::DoubleReturn`]; nothing is cleared
    /// or kept in either case.
    pub fn return_handle(&self, handle: &Handle<T>, clear: bool) -> Result<(), PoolError> {
        let cell = &handle.cell;
        if self.checked && cell.len != 0 {
            if cell.origin != self.id {
                return Err(PoolError::NotRented { buffer: cell.id });
            }
            cell.lease.end(handle.ticket, cell.id)?;
        }
        let len = cell.len;
        if clear && self.engine.clears(len) {
            element::clear(&mut lock(&cell.data));
        }
        match self.engine.put(len, cell.clone()) {
            Put::Kept | Put::Dropped(_) | Put::Ignored(_) => Ok(()),
            Put::NotAssociated(_) => Err(PoolError::NotAssociated { length: len }),
        }
    }

    /// One trim pass (shared engine only; see [`SharedPool::trim`](bufpool::pool::SharedPool::trim)).
    pub fn trim(&self, pressure: MemoryPressure, now: Duration) {
        drop(self.engine.trim(pressure, element::millis(now)));
    }

    /// Drops every buffer the pool keeps that the calling thread can reach.
    pub fn trim_all(&self) {
        drop(self.engine.trim_all());
    }

    /// What the pool keeps and has allocated.
    pub fn stats(&self) -> PoolStats {
        self.engine.stats(std::mem::size_of::<T>())
    }

    /// Where bucket `bucket`'s kept buffers sit (the calling thread's slot, each partition), as
    /// buffer ids ([`Handle::id`]): for drawing the pool. A buffer returned twice appears twice.
    pub fn layout(&self, bucket: usize) -> BucketLayout<u64> {
        let mut out = BucketLayout::new(self.engine.partitions());
        self.engine
            .layout(bucket, &mut |place: Place, b: &Slot<T>| {
                out.put(place, b.id)
            });
        out
    }
}

impl<T: Element> fmt::Debug for HandlePool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandlePool")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("checked", &self.checked)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
