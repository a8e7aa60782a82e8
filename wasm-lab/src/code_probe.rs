//! Code-size probes for chapter 8 (wasm build only): one rent + return with the size known at run
//! time, and `rent_const::<N>` + return for the sizes `native-bench` times (16, 4,096, 81,920).
//!
//! They are exported under fixed names so `native-bench` can find each function's body in the
//! built `wasm_lab.wasm` and report its bytes (`size_specialized.wasm.*`), as it reads the native
//! probes' machine code with `nm`. Nothing in the book calls them; they cost the shipped module a
//! few hundred bytes, which is the price of measuring the module readers actually get.

use bufpool::pool::SharedPool;

/// Rent + return with the size known only at run time; the capacity it got (0 on error).
#[inline(never)]
#[unsafe(no_mangle)]
pub extern "C" fn wl_probe_rent_runtime(pool: &SharedPool<u8>, n: usize) -> usize {
    pool.try_rent(n).map_or(0, |b| b.capacity())
}

/// Rent + return of 16 elements, bucket chosen at compile time.
#[inline(never)]
#[unsafe(no_mangle)]
pub extern "C" fn wl_probe_rent_const_16(pool: &SharedPool<u8>) -> usize {
    pool.try_rent_const::<16>().map_or(0, |b| b.capacity())
}

/// Rent + return of 4,096 elements, bucket chosen at compile time.
#[inline(never)]
#[unsafe(no_mangle)]
pub extern "C" fn wl_probe_rent_const_4096(pool: &SharedPool<u8>) -> usize {
    pool.try_rent_const::<4096>().map_or(0, |b| b.capacity())
}

/// Rent + return of 81,920 elements, bucket chosen at compile time.
#[inline(never)]
#[unsafe(no_mangle)]
pub extern "C" fn wl_probe_rent_const_81920(pool: &SharedPool<u8>) -> usize {
    pool.try_rent_const::<81_920>().map_or(0, |b| b.capacity())
}
