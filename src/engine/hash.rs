//! A fast hasher for keys that are well spread already.

use std::hash::Hasher;

/// A multiply-and-rotate hash for pairs of bitboards, and for 128-bit
/// keys that are hashes already (`--unique`'s game keys): they are well
/// spread, and no one chooses them to collide, so SipHash's protection is
/// not needed here and its time is.
#[derive(Default, Clone, Copy, Debug)]
pub struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}
