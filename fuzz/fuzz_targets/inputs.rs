//! Fuzz target: every reader of `run`'s inputs on arbitrary bytes (`patchset::probe`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    patchval::patchset::probe::probe(data);
});
