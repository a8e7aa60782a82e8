//! The bench suites, one per story of the book. Each records figures under its own key prefix.

use anyhow::Result;

use crate::measure::Session;

mod rent_return;

/// A suite: its name (also its key prefix) and the function that measures it.
pub struct Suite {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&mut Session) -> Result<()>,
}

pub const SUITES: &[Suite] = &[Suite {
    name: "rent_return",
    about: "rent+return through the pool vs a fresh allocation (chapter 2)",
    run: rent_return::run,
}];
