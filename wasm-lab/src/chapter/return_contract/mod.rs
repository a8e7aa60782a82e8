//! Chapter 4, `return-contract`: double return, use after return, foreign return, the missing `finally`.

pub mod quiz;
pub mod scenario;
pub mod view;
