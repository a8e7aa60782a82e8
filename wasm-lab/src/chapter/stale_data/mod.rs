//! Chapter 3, `stale-data`: the previous renter's bytes, on the handle API.

pub mod quiz;
pub mod scenario;
pub mod view;
