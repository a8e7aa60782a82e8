#![allow(
    unused_variables,
    reason = "the skeleton's bodies are todo!(): your code uses them"
)]
// ANCHOR: exercise
//! # Exercise 5: checked mode, double and foreign returns
//!
//! Chapter: The return contract (`book/src/return-contract.md`).
//!
//! The handle API shares buffers the way C# shares arrays: a `Handle` is a reference, and its
//! clones are the same buffer. .NET's pool trusts every return whose length is a bucket length:
//! return twice and two later renters get the same buffer; return a buffer the pool never gave
//! out and it is kept. Write the pool, with a checked mode that refuses both:
//!
//! - `rent(len)` hands out a kept buffer of `capacity_for(len)` bytes, or a new zeroed one.
//! - `give_back(handle)`: a length that is not a bucket length (a power of two, at least 16) is
//!   `WrongLength`, in both modes. Unchecked, every other return is accepted, as in .NET.
//!   Checked, only a buffer this pool handed out and that is still out is accepted; one already
//!   given back is `Double`, any other is `Foreign`.
//!
//! Grade it: `cargo xtask exercises` (or `cargo test -p exercises --test ex05_checked`).

use std::cell::RefCell;
use std::rc::Rc;

/// The buffer length that serves a request of `len` bytes: a power of two, at least 16.
pub fn capacity_for(len: usize) -> usize {
    len.next_power_of_two().max(16)
}

/// A shared buffer, like a C# array reference: clones are the same buffer.
#[derive(Clone, Debug)]
pub struct Handle {
    buffer: Rc<RefCell<Vec<u8>>>,
}

impl Handle {
    /// A buffer the pool never saw.
    pub fn from_vec(data: Vec<u8>) -> Handle {
        Handle {
            buffer: Rc::new(RefCell::new(data)),
        }
    }

    /// The buffer's length.
    pub fn len(&self) -> usize {
        self.buffer.borrow().len()
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether both handles are the same buffer.
    pub fn same_buffer(&self, other: &Handle) -> bool {
        Rc::ptr_eq(&self.buffer, &other.buffer)
    }
}

/// Why a return was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnError {
    /// Not a bucket length: "not associated with this pool".
    WrongLength { len: usize },
    /// Checked mode: this buffer was given back already.
    Double,
    /// Checked mode: this pool never handed this buffer out.
    Foreign,
}

/// A pool of shared buffers, unchecked (.NET) or checked.
pub struct HandlePool {
    checked: bool,
    /// Buffers waiting for the next renter.
    free: RefCell<Vec<Handle>>,
    /// Checked mode: the buffers handed out and not given back yet.
    out: RefCell<Vec<Handle>>,
}

impl HandlePool {
    /// An empty pool; `checked` turns on the checks.
    pub fn new(checked: bool) -> HandlePool {
        HandlePool {
            checked,
            free: RefCell::new(Vec::new()),
            out: RefCell::new(Vec::new()),
        }
    }

    /// A buffer of `capacity_for(len)` bytes, kept or new.
    pub fn rent(&self, len: usize) -> Handle {
        todo!()
    }

    /// Gives `handle`'s buffer back, or says why not.
    pub fn give_back(&self, handle: &Handle) -> Result<(), ReturnError> {
        todo!()
    }
}
// ANCHOR_END: exercise
