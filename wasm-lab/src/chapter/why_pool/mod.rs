//! Chapter 1, `why-pool`: fresh `Vec`s against rent + return, counted.

pub mod quiz;
pub mod scenario;
pub mod view;
