//! Method, `method`: the bench's paired-round method on the wasm pool, timed in the reader's browser (its widget's DOM side is `web/method.rs`).

pub mod quiz;
pub mod scenario;
