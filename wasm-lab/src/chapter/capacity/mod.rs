//! Chapter 5, `capacity`: rounds of `K` rents on a pool of `1 + P × M`.

pub mod quiz;
pub mod scenario;
pub mod view;
