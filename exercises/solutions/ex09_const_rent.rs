//! Exercise 9, the reference solution: a rent whose bucket is chosen at compile time.

// ANCHOR: solution
/// Number of buckets: 16, 32, …, 2^30 bytes.
pub const BUCKET_COUNT: usize = 27;
/// The largest bucket's length.
pub const MAX_BUCKET_LEN: usize = 1 << 30;

/// The bucket index of a request of `n >= 1` bytes, computable at compile time.
pub const fn select_bucket_index(n: usize) -> usize {
    ((n - 1) | 15).ilog2() as usize - 3
}

/// One free list per bucket.
pub struct Pool {
    buckets: Vec<Vec<Box<[u8]>>>,
}

impl Pool {
    /// An empty pool.
    pub fn new() -> Pool {
        Pool {
            buckets: vec![Vec::new(); BUCKET_COUNT],
        }
    }

    /// The run-time rent: `None` for 0 or over the largest bucket.
    pub fn rent(&mut self, n: usize) -> Option<Box<[u8]>> {
        if n == 0 || n > MAX_BUCKET_LEN {
            return None;
        }
        Some(self.take(select_bucket_index(n)))
    }

    /// The rent for a size known at compile time.
    pub fn rent_const<const N: usize>(&mut self) -> Box<[u8]> {
        // Evaluated when `rent_const::<N>` is instantiated: a bad `N` is a compile error
        // (E0080), and the index is a constant in the compiled code.
        let index = const {
            assert!(N >= 1, "rent_const::<0>: no bucket serves 0 bytes");
            assert!(
                N <= MAX_BUCKET_LEN,
                "rent_const::<N>: over the largest bucket"
            );
            select_bucket_index(N)
        };
        self.take(index)
    }

    /// Keeps `buffer` if its length is a bucket's.
    pub fn give_back(&mut self, buffer: Box<[u8]>) {
        let len = buffer.len();
        if len.is_power_of_two() && (16..=MAX_BUCKET_LEN).contains(&len) {
            self.buckets[select_bucket_index(len)].push(buffer);
        }
    }

    /// A kept buffer of bucket `index`, or a new zeroed one.
    fn take(&mut self, index: usize) -> Box<[u8]> {
        self.buckets[index]
            .pop()
            .unwrap_or_else(|| vec![0; 16 << index].into_boxed_slice())
    }
}

impl Default for Pool {
    fn default() -> Pool {
        Pool::new()
    }
}
// ANCHOR_END: solution
