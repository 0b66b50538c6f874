//! Helpers shared by the unit tests: the corpus folder and a seeded
//! generator, so random tests repeat exactly.

use std::path::PathBuf;

/// The shared corpus folder: `KIFU_CORPUS` or `../shared/corpus`.
///
/// `None` (with a printed notice) when it is absent outside CI; in CI
/// (`CI=true`) a missing corpus fails the test.
pub(crate) fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    if dir.is_dir() {
        return Some(dir);
    }
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !in_ci,
        "the corpus is required in CI but {} is missing (set KIFU_CORPUS)",
        dir.display()
    );
    eprintln!(
        "note: corpus not found at {}; skipping (set KIFU_CORPUS)",
        dir.display()
    );
    None
}

/// Xorshift64: small, seeded, the same stream on every machine.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A generator from any seed (zero included).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}
