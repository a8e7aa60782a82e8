//! Figure titles in words a reader understands: counts with their plural ("1 buffer", "2 buffers")
//! and readable names instead of key ids (`lockfree_object_pool` → `lockfree-object-pool`).

use lab_text::group_digits;

/// `1 buffer`, `1,024 buffers`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group_digits(n), if n == 1 { one } else { many })
}

/// The name a reader knows a peer of the `peers` suite by (its key id otherwise).
pub fn peer(id: &str) -> &str {
    match id {
        "pool" => "this course's pool",
        "system" => "malloc + free (std's System, glibc)",
        "mimalloc" => "mimalloc",
        "object_pool" => "object-pool",
        "opool" => "opool",
        "lockfree_object_pool" => "lockfree-object-pool",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_names() {
        assert_eq!(count(1, "buffer", "buffers"), "1 buffer");
        assert_eq!(count(1024, "buffer", "buffers"), "1,024 buffers");
        assert_eq!(count(0, "order line", "order lines"), "0 order lines");
        assert_eq!(peer("lockfree_object_pool"), "lockfree-object-pool");
    }
}
