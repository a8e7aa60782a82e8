//! What a pool can hold, and how a buffer is made and cleared.

use super::PoolError;

/// An element type a pool can hold: anything with a "cleared" value ([`Default`]) that can be
/// copied into a new buffer ([`Clone`]) and moved between threads ([`Send`]).
///
/// `u8`, `i32` and owning types such as `String` all qualify. A pool of owning values keeps those
/// values alive while their buffer sits in the pool, until a cleared return overwrites them with
/// `T::default()`.
pub trait Element: Default + Clone + Send + 'static {}

impl<T: Default + Clone + Send + 'static> Element for T {}

/// A new buffer of `len` default elements, or an error instead of an abort when the allocator
/// cannot provide it, so that a `try_` rent can refuse any length instead of aborting the process.
///
/// .NET allocates arrays of 2 KiB and more without references uninitialized; safe Rust cannot
/// hand out uninitialized memory, so every new buffer here is filled with `T::default()`.
pub fn alloc<T: Element>(len: usize) -> Result<Box<[T]>, PoolError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| PoolError::AllocationFailed {
            length: len,
            element_size: std::mem::size_of::<T>(),
        })?;
    v.resize(len, T::default());
    Ok(v.into_boxed_slice())
}

/// Overwrites every element with `T::default()` (zeroes for numbers; drops owned values).
#[inline]
pub fn clear<T: Element>(buf: &mut [T]) {
    buf.fill(T::default());
}
