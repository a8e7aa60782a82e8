//! Chapter 2, `bucket-rounding`: which bucket serves a request (the calculator and its quiz).

pub mod quiz;
pub mod view;
