//! Chapter 7, `chunking`: what each chunk costs, by strategy and source kind.

pub mod quiz;
pub mod scenario;
pub mod view;
