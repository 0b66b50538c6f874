//! Helpers shared by the integration tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// The built `kifu` binary, run from the crate root.
pub fn kifu() -> Command {
    let mut cmd = Command::cargo_bin("kifu").expect("the kifu binary is built");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// A fresh, empty folder for one test: `kifu-test-NAME-PID` in the
/// system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kifu-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// The shared corpus folder: `KIFU_CORPUS` or `../shared/corpus`.
///
/// `None` (with a printed notice) when it is absent outside CI; in CI
/// (`CI=true`) a missing corpus fails the test.
pub fn corpus() -> Option<PathBuf> {
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

/// A small seeded xorshift generator, so random tests repeat exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
