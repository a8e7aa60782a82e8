#![no_main]
// The contract is `fuzz_contracts::link`; the replay test runs it on this target's corpus.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_contracts::link(data));
