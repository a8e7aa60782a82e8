//! Exercise 5, the reference solution: checked mode, double and foreign returns.

// ANCHOR: solution
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
    /// Checked mode: the buffers handed out and not given back yet. The pool holds a clone of
    /// each, so a buffer's identity (its address) cannot be reused while it is tracked.
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
        let capacity = capacity_for(len);
        let mut free = self.free.borrow_mut();
        let handle = match free.iter().rposition(|h| h.len() == capacity) {
            Some(i) => free.remove(i),
            None => Handle::from_vec(vec![0; capacity]),
        };
        if self.checked {
            self.out.borrow_mut().push(handle.clone());
        }
        handle
    }

    /// Gives `handle`'s buffer back, or says why not.
    pub fn give_back(&self, handle: &Handle) -> Result<(), ReturnError> {
        let len = handle.len();
        if len < 16 || !len.is_power_of_two() {
            return Err(ReturnError::WrongLength { len });
        }
        if self.checked {
            let mut out = self.out.borrow_mut();
            match out.iter().position(|h| h.same_buffer(handle)) {
                Some(i) => {
                    out.swap_remove(i);
                }
                None if self.free.borrow().iter().any(|h| h.same_buffer(handle)) => {
                    return Err(ReturnError::Double);
                }
                None => return Err(ReturnError::Foreign),
            }
        }
        self.free.borrow_mut().push(handle.clone());
        Ok(())
    }
}
// ANCHOR_END: solution
