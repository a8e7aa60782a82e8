//! "Does this compile?" snippets for the ownership API ([`bufpool::pool::Rented`]).
//!
//! The quiz never decides whether a snippet compiles: the book's preprocessor compiles every
//! snippet against this crate at build time (`book/preprocessor/src/snippets.rs`) and puts
//! rustc's verdict and error lines on the page ([`super::Page::compiled`]). `compiles` here is
//! what the explanations were written for; a native test there fails when rustc disagrees.

use lab_text::n;

/// One program about the guard, with what each answer teaches.
pub struct Snippet {
    /// Stable name (the binary's name in the scratch crate, the key of its verdict).
    pub name: &'static str,
    /// A whole program (`fn main`), compiled as is.
    pub code: &'static str,
    /// What the explanations assume rustc says (checked against rustc by a native test).
    pub compiles: bool,
    /// Why, whatever the reader answered (rustc's own message is shown beside it); marked with
    /// `n!` for the catalog and translated where it is shown.
    pub why: &'static str,
    /// For a reader who said "compiles" when it does not, or the reverse.
    pub hint: &'static str,
}

pub const SNIPPETS: &[Snippet] = &[
    Snippet {
        name: "double_return",
        code: "use bufpool::pool::SharedPool;

fn main() {
    let pool = SharedPool::<u8>::new();
    let buf = pool.rent(64);
    drop(buf); // return it
    drop(buf); // return it again
}",
        compiles: false,
        why: n!(
            "Returning the guard moves it into drop, so the second return names a moved value: the double return .NET accepts silently cannot be written"
        ),
        hint: n!("Look at what drop(buf) does to buf: can a value be used after it was moved"),
    },
    Snippet {
        name: "use_after_return",
        code: "use bufpool::pool::SharedPool;

fn main() {
    let pool = SharedPool::<u8>::new();
    let mut buf = pool.rent(64);
    buf.return_cleared();
    buf[0] = 7; // write after the return
}",
        compiles: false,
        why: n!(
            "return_cleared takes the guard by value, so buf is gone once it returns: the stale write of the .NET story (use after free) is a compile error"
        ),
        hint: n!("Check the signature of return_cleared: does it borrow the guard or take it"),
    },
    Snippet {
        name: "borrow_outlives_return",
        code: "use bufpool::pool::SharedPool;

fn main() {
    let pool = SharedPool::<u8>::new();
    let buf = pool.rent(64);
    let view: &[u8] = &buf;
    drop(buf); // return while view still points into it
    println!(\"{}\", view[0]);
}",
        compiles: false,
        why: n!(
            "view borrows the buffer, and the borrow is still used after the return: the borrow checker refuses to move a borrowed guard, so no reference can outlive the return"
        ),
        hint: n!(
            "view is still used on the last line: can the guard be returned while it is borrowed"
        ),
    },
    Snippet {
        name: "guard_outlives_pool",
        code: "use bufpool::pool::SharedPool;

fn main() {
    let buf;
    {
        let pool = SharedPool::<u8>::new();
        buf = pool.rent(64);
    } // the pool is dropped here
    println!(\"{}\", buf.len());
}",
        compiles: false,
        why: n!(
            "The guard borrows its pool (Rented<'p, …>) so it can return the buffer on drop; a guard cannot outlive the pool it must go back to"
        ),
        hint: n!(
            "The guard has to find its pool when it is dropped: where is the pool at that point"
        ),
    },
    Snippet {
        name: "other_pool",
        code: "use bufpool::pool::{ConfigurablePool, Rented, SharedPool};

fn keep(_buf: Rented<'_, u8, ConfigurablePool<u8>>) {}

fn main() {
    let shared = SharedPool::<u8>::new();
    keep(shared.rent(64)); // a shared pool's buffer where another pool's is expected
}",
        compiles: false,
        why: n!(
            "The pool a guard returns to is part of its type (Rented<'_, u8, SharedPool<u8>>), so a buffer cannot be handed to code that will return it to another pool: .NET accepts any array of the right length"
        ),
        hint: n!("Compare the guard's full type with the parameter's: which pool is named in each"),
    },
    Snippet {
        name: "copy_then_return",
        code: "use bufpool::pool::SharedPool;

fn main() {
    let pool = SharedPool::<u8>::new();
    let mut buf = pool.rent(64);
    buf[0] = 7;
    let copy = buf.to_vec(); // an owned copy
    drop(buf); // return
    println!(\"{}\", copy[0]);
}",
        compiles: true,
        why: n!(
            "The copy owns its bytes, so nothing borrows the guard when it is returned: keeping data past the return means copying it out (or detach, which takes the buffer out of the pool)"
        ),
        hint: n!("Does copy borrow the guard, or own its bytes"),
    },
    Snippet {
        name: "return_in_helper",
        code: "use bufpool::pool::{Rented, SharedPool};

fn finish(buf: Rented<'_, u8>) {
    buf.return_cleared(); // the helper owns the guard and returns it
}

fn main() {
    let pool = SharedPool::<u8>::new();
    let buf = pool.rent(64);
    finish(buf);
}",
        compiles: true,
        why: n!(
            "Moving the guard into a function moves the duty to return it too: finish owns it and returns it once, and main can no longer touch it"
        ),
        hint: n!("Who owns the guard after the call, and how many times is it returned"),
    },
];

/// The snippet with this name.
pub fn snippet(name: &str) -> Option<&'static Snippet> {
    SNIPPETS.iter().find(|s| s.name == name)
}
