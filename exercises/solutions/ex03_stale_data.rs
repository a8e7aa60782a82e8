//! Exercise 3, the reference solution: clearing on return, and what it costs.

// ANCHOR: solution
/// What a return clears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clear {
    /// Nothing: .NET's default.
    Keep,
    /// Every byte of the buffer.
    Whole,
    /// The bytes the renter says it wrote.
    Written,
}

/// Zeroes what `policy` says of `buffer`; returns how many bytes it zeroed.
pub fn clear_on_return(buffer: &mut [u8], written: usize, policy: Clear) -> usize {
    let n = match policy {
        Clear::Keep => 0,
        Clear::Whole => buffer.len(),
        Clear::Written => written.min(buffer.len()),
    };
    buffer[..n].fill(0);
    n
}

/// How many bytes of `buffer` are not zero.
pub fn leftover(buffer: &[u8]) -> usize {
    buffer.iter().filter(|&&b| b != 0).count()
}

/// The bytes read past a renter's own `written` bytes, when it reads `read` bytes.
pub fn leaked(buffer: &[u8], written: usize, read: usize) -> &[u8] {
    let end = read.min(buffer.len());
    let start = written.min(end);
    &buffer[start..end]
}
// ANCHOR_END: solution
