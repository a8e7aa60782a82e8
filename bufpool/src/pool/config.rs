//! Pool configuration, including .NET's environment overrides for the shared pool.

use super::PoolError;
use crate::bucket::{MAX_BUCKET_LEN, MIN_BUCKET_LEN, bucket_length, select_bucket_index};

/// .NET's override of the shared pool's partition count (capped at the processor count).
pub const ENV_MAX_PARTITION_COUNT: &str = "DOTNET_SYSTEM_BUFFERS_SHAREDARRAYPOOL_MAXPARTITIONCOUNT";
/// .NET's override of the shared pool's buffers per partition per bucket (default 32).
pub const ENV_MAX_ARRAYS_PER_PARTITION: &str =
    "DOTNET_SYSTEM_BUFFERS_SHAREDARRAYPOOL_MAXARRAYSPERPARTITION";

/// Default buffers per partition per bucket of the shared pool.
pub const DEFAULT_ARRAYS_PER_PARTITION: usize = 32;
/// Most partitions a configuration may ask for.
///
/// A pool makes all its partitions when it is made (a mutex and a stack per partition, for each
/// of the 27 buckets), so `P` is memory spent up front whether or not it is used: 4096 is far
/// above any processor count .NET's default of one partition per processor reaches, and keeps a
/// mistaken value (a byte count given as a count) an [`InvalidConfig`](PoolError::InvalidConfig)
/// instead of an allocation of gigabytes.
pub const MAX_PARTITIONS: usize = 4096;
/// Default largest pooled length of the configurable pool (`ArrayPool.Create()`).
pub const DEFAULT_CONFIGURABLE_MAX_LENGTH: usize = 1_048_576;
/// Default buffers per bucket of the configurable pool.
pub const DEFAULT_ARRAYS_PER_BUCKET: usize = 50;

/// Number of logical processors: `available_parallelism`, or 1 where it is unknown (wasm).
pub fn processor_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Parses a .NET pool environment value as .NET's `SharedArrayPool` does
/// (`TryGetInt32EnvironmentVariable`): a value of 1 to 32 characters, trimmed of spaces, that is
/// 1 to 10 ASCII digits whose value fits .NET's `int`; `Some(n)` only for such a value that is
/// not 0 (the pool then uses its default, as .NET does for 0). Anything else means "use the
/// default".
///
/// ```
/// use bufpool::pool::parse_env_count;
/// assert_eq!(parse_env_count(Some("8")), Some(8));
/// assert_eq!(parse_env_count(Some("   1    ")), Some(1));      // spaces trimmed, as .NET does
/// assert_eq!(parse_env_count(Some("0")), None);               // 0 → default
/// assert_eq!(parse_env_count(Some("12345678901")), None);     // 11 digits → default
/// assert_eq!(parse_env_count(Some("2147483648")), None);      // above int.MaxValue → default
/// assert_eq!(parse_env_count(Some("\t4")), None);             // only spaces are trimmed
/// assert_eq!(parse_env_count(Some("-2")), None);
/// assert_eq!(parse_env_count(Some("")), None);
/// assert_eq!(parse_env_count(None), None);
/// ```
pub fn parse_env_count(value: Option<&str>) -> Option<usize> {
    let raw = value?;
    // .NET's limit before trimming: "allows for some spaces around" the 10 digits.
    if raw.is_empty() || raw.chars().count() > 32 {
        return None;
    }
    let s = raw.trim_matches(' ');
    if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = s.parse().ok()?;
    if n == 0 || n > i32::MAX as u64 {
        return None;
    }
    usize::try_from(n).ok()
}

/// Settings of a [`SharedPool`](super::SharedPool) (and of any front end over a
/// [`SharedEngine`](super::engine::SharedEngine)).
///
/// Built from [`SharedConfig::new`] (the defaults) and its `with_*` methods: the struct is
/// `#[non_exhaustive]`, so a setting added later is not a breaking change for code that builds
/// one. Its fields stay public to read.
///
/// ```
/// use bufpool::pool::SharedConfig;
/// // Two partitions of 8: with every buffer held, 1 + 2 × 8 = 17 buffers per size are kept.
/// let cfg = SharedConfig::new().with_partitions(2).with_arrays_per_partition(8);
/// assert_eq!(cfg.capacity_per_bucket(), 17);
/// assert!(!cfg.clear_on_return);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SharedConfig {
    /// Number of partitions (.NET: one per logical processor).
    pub partitions: usize,
    /// Buffers each partition keeps per bucket (.NET: 32).
    pub arrays_per_partition: usize,
    /// Whether returns clear the buffer unless told otherwise (.NET: `clearArray = false`).
    pub clear_on_return: bool,
}

impl Default for SharedConfig {
    /// One partition per logical processor, 32 buffers each, no clearing; the environment is
    /// not read (see [`SharedConfig::from_env`]).
    fn default() -> Self {
        Self {
            partitions: processor_count(),
            arrays_per_partition: DEFAULT_ARRAYS_PER_PARTITION,
            clear_on_return: false,
        }
    }
}

impl SharedConfig {
    /// The defaults ([`SharedConfig::default`]): one partition per logical processor, 32
    /// buffers each, no clearing.
    ///
    /// ```
    /// use bufpool::pool::{SharedConfig, SharedPool, processor_count};
    /// let cfg = SharedConfig::new().with_clear_on_return(true);
    /// assert_eq!((cfg.partitions, cfg.arrays_per_partition), (processor_count(), 32));
    /// let pool = SharedPool::<u8>::with_config(cfg.with_partitions(2)).unwrap();
    /// assert_eq!(pool.config().capacity_per_bucket(), 65);
    /// assert!(SharedPool::<u8>::with_config(cfg.with_arrays_per_partition(0)).is_err());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the number of partitions `P` (1 to [`MAX_PARTITIONS`]; checked when a pool is made).
    #[must_use]
    pub const fn with_partitions(mut self, partitions: usize) -> Self {
        self.partitions = partitions;
        self
    }

    /// Sets the buffers each partition keeps per bucket, `M` (at least 1; checked when a pool is
    /// made).
    #[must_use]
    pub const fn with_arrays_per_partition(mut self, arrays_per_partition: usize) -> Self {
        self.arrays_per_partition = arrays_per_partition;
        self
    }

    /// Sets whether returns clear the buffer unless a guard says otherwise.
    #[must_use]
    pub const fn with_clear_on_return(mut self, clear_on_return: bool) -> Self {
        self.clear_on_return = clear_on_return;
        self
    }

    /// The configuration .NET would use given these two environment values and processor count.
    ///
    /// ```
    /// use bufpool::pool::SharedConfig;
    /// let cfg = SharedConfig::from_env_values(Some("2"), Some("8"), 8);
    /// assert_eq!((cfg.partitions, cfg.arrays_per_partition), (2, 8));
    /// // The partition count is capped at the processor count; junk means the default.
    /// let cfg = SharedConfig::from_env_values(Some("64"), Some("x"), 8);
    /// assert_eq!((cfg.partitions, cfg.arrays_per_partition), (8, 32));
    /// ```
    pub fn from_env_values(
        max_partition_count: Option<&str>,
        max_arrays_per_partition: Option<&str>,
        processors: usize,
    ) -> Self {
        let processors = processors.max(1);
        Self {
            partitions: parse_env_count(max_partition_count)
                .map_or(processors, |n| n.min(processors)),
            arrays_per_partition: parse_env_count(max_arrays_per_partition)
                .unwrap_or(DEFAULT_ARRAYS_PER_PARTITION),
            clear_on_return: false,
        }
    }

    /// The configuration from this process's environment, as .NET reads it at startup.
    pub fn from_env() -> Self {
        let p = std::env::var(ENV_MAX_PARTITION_COUNT).ok();
        let m = std::env::var(ENV_MAX_ARRAYS_PER_PARTITION).ok();
        Self::from_env_values(p.as_deref(), m.as_deref(), processor_count())
    }

    /// Buffers per size the pool can keep with all of them returned: [`kept_per_bucket`] of
    /// this configuration (saturating).
    pub fn capacity_per_bucket(&self) -> usize {
        kept_per_bucket(self.partitions as u64, self.arrays_per_partition as u64)
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    pub(crate) fn validate(&self) -> Result<(), PoolError> {
        if !(1..=MAX_PARTITIONS).contains(&self.partitions) {
            return Err(PoolError::InvalidConfig {
                setting: "partitions",
                value: self.partitions,
                expected: "1 to 4096",
            });
        }
        if self.arrays_per_partition == 0 {
            return Err(PoolError::InvalidConfig {
                setting: "arrays_per_partition",
                value: 0,
                expected: "at least 1",
            });
        }
        Ok(())
    }
}

/// Settings of a [`ConfigurablePool`](super::ConfigurablePool) (.NET `ArrayPool<T>.Create(maxArrayLength,
/// maxArraysPerBucket)`).
///
/// Built from [`ConfigurableConfig::new`] and its `with_*` methods (`#[non_exhaustive]`, as
/// [`SharedConfig`]).
///
/// ```
/// use bufpool::pool::ConfigurableConfig;
/// let cfg = ConfigurableConfig::new().with_max_array_length(1000).with_max_arrays_per_bucket(4);
/// assert_eq!(cfg.effective_max_length(), 1024); // rounded up to a bucket length
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ConfigurableConfig {
    /// Largest pooled length; clamped to 16 … 2^30 and rounded up to a bucket length.
    pub max_array_length: usize,
    /// Buffers per bucket (.NET default 50).
    pub max_arrays_per_bucket: usize,
    /// Whether returns clear the buffer unless told otherwise.
    pub clear_on_return: bool,
}

impl Default for ConfigurableConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl ConfigurableConfig {
    /// .NET's defaults: maximum length 1,048,576, 50 buffers per bucket, no clearing.
    ///
    /// ```
    /// use bufpool::pool::{ConfigurableConfig, ConfigurablePool};
    /// const SMALL: ConfigurableConfig = ConfigurableConfig::new()
    ///     .with_max_array_length(64)
    ///     .with_max_arrays_per_bucket(2)
    ///     .with_clear_on_return(true);
    /// assert_eq!(SMALL.bucket_count(), 3);
    /// let pool = ConfigurablePool::<u8>::with_config(SMALL).unwrap();
    /// assert!(pool.rent(16).clears_on_return());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self {
            max_array_length: DEFAULT_CONFIGURABLE_MAX_LENGTH,
            max_arrays_per_bucket: DEFAULT_ARRAYS_PER_BUCKET,
            clear_on_return: false,
        }
    }

    /// Sets the largest pooled length (at least 1; clamped to 16 … 2^30 and rounded up to a
    /// bucket length by the pool).
    #[must_use]
    pub const fn with_max_array_length(mut self, max_array_length: usize) -> Self {
        self.max_array_length = max_array_length;
        self
    }

    /// Sets the buffers kept per bucket (at least 1; checked when a pool is made).
    #[must_use]
    pub const fn with_max_arrays_per_bucket(mut self, max_arrays_per_bucket: usize) -> Self {
        self.max_arrays_per_bucket = max_arrays_per_bucket;
        self
    }

    /// Sets whether returns clear the buffer unless a guard says otherwise.
    #[must_use]
    pub const fn with_clear_on_return(mut self, clear_on_return: bool) -> Self {
        self.clear_on_return = clear_on_return;
        self
    }

    /// Number of buckets: `select_bucket_index(clamped max) + 1` (17 for the default 1,048,576).
    ///
    /// ```
    /// use bufpool::pool::ConfigurableConfig;
    /// assert_eq!(ConfigurableConfig::default().bucket_count(), 17);
    /// let tiny = ConfigurableConfig::new().with_max_array_length(1);
    /// assert_eq!((tiny.bucket_count(), tiny.effective_max_length()), (1, 16));
    /// ```
    pub fn bucket_count(&self) -> usize {
        let max = self.max_array_length.clamp(MIN_BUCKET_LEN, MAX_BUCKET_LEN);
        select_bucket_index(max) + 1
    }

    /// The largest length the pool keeps: the clamped maximum rounded up to a bucket length.
    pub fn effective_max_length(&self) -> usize {
        bucket_length(self.bucket_count() - 1)
    }

    pub(crate) fn validate(&self) -> Result<(), PoolError> {
        if self.max_array_length == 0 {
            return Err(PoolError::InvalidConfig {
                setting: "max_array_length",
                value: 0,
                expected: "at least 1",
            });
        }
        if self.max_arrays_per_bucket == 0 {
            return Err(PoolError::InvalidConfig {
                setting: "max_arrays_per_bucket",
                value: 0,
                expected: "at least 1",
            });
        }
        Ok(())
    }
}

/// The capacity rule: with every buffer of one size returned, a shared pool of `partitions`
/// partitions holding `arrays_per_partition` each keeps `1 + P × M` of them (the 1 is the
/// returning thread's slot). `None` when the product does not fit in a `u64`.
///
/// The one statement of the rule: the pool's configuration, the course's capacity scenario, its
/// quiz and the end-to-end tests all compute it here.
///
/// ```
/// use bufpool::pool::kept_per_bucket;
/// assert_eq!(kept_per_bucket(8, 32), Some(257)); // the Thai article's 8-core machine
/// assert_eq!(kept_per_bucket(u64::MAX, 2), None);
/// ```
pub const fn kept_per_bucket(partitions: u64, arrays_per_partition: u64) -> Option<u64> {
    match partitions.checked_mul(arrays_per_partition) {
        Some(n) => n.checked_add(1),
        None => None,
    }
}
