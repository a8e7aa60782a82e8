//! Chapter 6, `cliff`: .NET's large-object heap and glibc's mmap threshold for one request.

pub mod quiz;
pub mod scenario;
pub mod view;
