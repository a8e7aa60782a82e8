//! Chapter 8, `size-specialized`: what a const-generic rent resolves at compile time.

pub mod quiz;
pub mod scenario;
pub mod view;
