//! The position index and the popular positions' counts saved to a file
//! and read back ([`Database::save_index`], [`Database::finish_from`]), so
//! that a server over a big archive starts without replaying every game.
//!
//! The file names the games it was built from by a fingerprint of what
//! the index and the counts are made of — each game's start, legal moves,
//! winner and score, in order — and ends with a checksum of all it holds.
//! A file of other games (another archive, other filters, a game changed)
//! or a damaged one is refused, and the caller builds the index as
//! [`Database::finish`] does: a saved index never changes an answer.
//!
//! Layout, little-endian: `KIFU-IDX`, the format's number (`u32`), the
//! fingerprint (`u128`), the number of games (`u64`), the index's bytes
//! (column by column, as [`super::Index`] holds them), the popular
//! positions ([`super::popular::Popular::write`]), the checksum (`u128`).

use std::io::{self, Read, Write};

use rayon::prelude::*;

use super::{popular, Database, Index, CHUNK, COLUMNS};
use crate::{Color, Winner};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"KIFU-IDX";
/// The layout's number, and that of the index's hash: a file of another
/// number is refused.
const FORMAT: u32 = 1;

/// Why a saved index was not used; the database is left as it was.
#[derive(Debug, thiserror::Error)]
pub enum SavedIndexError {
    /// The file is no saved index.
    #[error("not a position index saved by kifu")]
    NotAnIndex,
    /// Saved in another layout (by another version of kifu).
    #[error("saved by another version of kifu (format {found}; this one reads {FORMAT})")]
    Format {
        /// The file's format number.
        found: u32,
    },
    /// Made from other games (other files, other filters, a game changed).
    #[error("made from other games than these (other files or filters, or a file changed)")]
    OtherGames,
    /// Cut short, or some byte changed since it was written.
    #[error("damaged: {0}")]
    Damaged(&'static str),
    /// The file could not be read.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A 128-bit digest of a stream of words, fast (two multiply-rotate lanes
/// and a final mix): it tells apart any two streams that differ by chance,
/// with the odds of a 128-bit collision. It is no cryptographic hash: it
/// guards against mistakes and damage, not against someone who wants a
/// collision (who could as well change the index).
#[derive(Clone, Debug)]
pub(super) struct Digest {
    a: u64,
    b: u64,
    /// Bytes not yet making a whole word, and how many.
    pending: u64,
    filled: u32,
    len: u64,
}

impl Digest {
    pub(super) fn new() -> Digest {
        Digest {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
            pending: 0,
            filled: 0,
            len: 0,
        }
    }

    #[inline]
    pub(super) fn word(&mut self, w: u64) {
        debug_assert_eq!(self.filled, 0, "a word after bytes that make no word");
        self.a = (self.a ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
        self.b =
            (self.b.rotate_left(31).wrapping_add(w) ^ self.a).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.len += 8;
    }

    pub(super) fn bytes(&mut self, mut bytes: &[u8]) {
        while self.filled > 0 && !bytes.is_empty() {
            self.pending |= u64::from(bytes[0]) << (8 * self.filled);
            self.filled += 1;
            bytes = &bytes[1..];
            if self.filled == 8 {
                let w = self.pending;
                (self.pending, self.filled) = (0, 0);
                self.word(w);
            }
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
        for &b in words.remainder() {
            self.pending |= u64::from(b) << (8 * self.filled);
            self.filled += 1;
        }
    }

    /// Ends a run of bytes on a whole word, zeros after them.
    pub(super) fn pad(&mut self) {
        if self.filled > 0 {
            let w = self.pending;
            (self.pending, self.filled) = (0, 0);
            self.word(w);
        }
    }

    pub(super) fn finish(mut self) -> u128 {
        let tail = self.len + u64::from(self.filled);
        self.pad();
        self.word(tail);
        let mix = |mut x: u64| {
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            x ^ (x >> 33)
        };
        let (a, b) = (mix(self.a ^ self.b.rotate_left(17)), mix(self.b));
        (u128::from(a) << 64) | u128::from(b)
    }
}

/// A writer that digests what goes through it.
struct Digesting<W> {
    inner: W,
    digest: Digest,
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.digest.bytes(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that digests what comes through it.
pub(super) struct Checked<R> {
    inner: R,
    digest: Digest,
}

impl<R: Read> Checked<R> {
    fn exact(&mut self, buf: &mut [u8]) -> Result<(), SavedIndexError> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => SavedIndexError::Damaged("it ends early"),
            _ => SavedIndexError::Io(e),
        })?;
        self.digest.bytes(buf);
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, SavedIndexError> {
        let mut b = [0; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub(super) fn u64(&mut self) -> Result<u64, SavedIndexError> {
        let mut b = [0; 8];
        self.exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn u128(&mut self) -> Result<u128, SavedIndexError> {
        let mut b = [0; 16];
        self.exact(&mut b)?;
        Ok(u128::from_le_bytes(b))
    }
}

impl Database {
    /// A fingerprint of what the index and the popular counts are made of:
    /// each game's start, legal moves, winner and Black's score, in order,
    /// with the index's and the counts' settings.
    fn fingerprint(&self) -> u128 {
        let parts: Vec<u128> = self
            .entries
            .par_chunks(CHUNK)
            .map(|entries| {
                let mut d = Digest::new();
                for e in entries {
                    let winner = match e.end.winner {
                        None => 0,
                        Some(Winner::Black) => 1,
                        Some(Winner::White) => 2,
                        Some(Winner::Draw) => 3,
                    };
                    let score = e.end.scores.map_or(0xff, |s| u64::from(s.0));
                    d.word(
                        u64::from(e.played)
                            | u64::from(e.legal) << 8
                            | winner << 16
                            | score << 24
                            | u64::from(e.whole != 0) << 32,
                    );
                    if e.whole != 0 {
                        let start = self.start(e);
                        d.word(start.board().black().0);
                        d.word(start.board().white().0);
                        d.word(u64::from(start.side_to_move() == Color::White));
                    }
                    // The moves (as many as the word above says) end on
                    // a word of their own.
                    d.bytes(self.legal_moves(e));
                    d.pad();
                }
                d.finish()
            })
            .collect();
        let mut d = Digest::new();
        d.word(u64::from(FORMAT));
        d.word(self.entries.len() as u64);
        d.word(self.popular_rule.every as u64);
        d.word(u64::from(self.popular_rule.min));
        for p in parts {
            d.word(p as u64);
            d.word((p >> 64) as u64);
        }
        d.finish()
    }

    /// Writes the position index and the counts of the popular positions
    /// to `out`, for [`Database::finish_from`] to read back over the same
    /// games. The database must be finished ([`Database::finish`]).
    ///
    /// # Errors
    ///
    /// When `out` fails, or the database is not finished.
    pub fn save_index(&self, out: impl Write) -> io::Result<()> {
        if !self.finished {
            return Err(io::Error::other(
                "the database is not finished: no index to save",
            ));
        }
        let mut out = Digesting {
            inner: io::BufWriter::with_capacity(1 << 20, out),
            digest: Digest::new(),
        };
        out.write_all(MAGIC)?;
        out.write_all(&FORMAT.to_le_bytes())?;
        out.write_all(&self.fingerprint().to_le_bytes())?;
        out.write_all(&(self.index.games as u64).to_le_bytes())?;
        out.write_all(&self.index.hashes)?;
        self.popular.write(&mut out)?;
        let sum = out.digest.clone().finish();
        out.inner.write_all(&sum.to_le_bytes())?;
        out.inner.flush()
    }

    /// Readies the games for lookups as [`Database::finish`] does, with the
    /// index and the counts read from `input` (written by
    /// [`Database::save_index`] over the same games) instead of built: no
    /// game is replayed. The answers are the same.
    ///
    /// # Errors
    ///
    /// When `input` is no saved index, was saved over other games or by
    /// another version, is damaged or cannot be read; the database is then
    /// as it was, and [`Database::finish`] builds the index.
    pub fn finish_from(&mut self, input: impl Read) -> Result<(), SavedIndexError> {
        let mut input = Checked {
            inner: io::BufReader::with_capacity(1 << 20, input),
            digest: Digest::new(),
        };
        let mut magic = [0; 8];
        input.exact(&mut magic).map_err(|e| match e {
            SavedIndexError::Damaged(_) => SavedIndexError::NotAnIndex,
            e => e,
        })?;
        if &magic != MAGIC {
            return Err(SavedIndexError::NotAnIndex);
        }
        let format = input.u32()?;
        if format != FORMAT {
            return Err(SavedIndexError::Format { found: format });
        }
        if input.u128()? != self.fingerprint() {
            return Err(SavedIndexError::OtherGames);
        }
        if input.u64()? != self.entries.len() as u64 {
            // The fingerprint counts the games: only damage gets here.
            return Err(SavedIndexError::Damaged("its count of games is wrong"));
        }
        let games = self.entries.len();
        let mut hashes = vec![0u8; if games == 0 { 0 } else { COLUMNS * games }];
        input.exact(&mut hashes)?;
        let popular = popular::Popular::read(&mut input)?;
        let sum = input.digest.clone().finish();
        let mut end = [0; 16];
        input
            .inner
            .read_exact(&mut end)
            .map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => SavedIndexError::Damaged("it ends early"),
                _ => SavedIndexError::Io(e),
            })?;
        if u128::from_le_bytes(end) != sum {
            return Err(SavedIndexError::Damaged("its checksum does not match"));
        }
        if input.inner.read(&mut [0])? != 0 {
            return Err(SavedIndexError::Damaged("it goes on past its end"));
        }
        self.ready();
        self.index = Index { hashes, games };
        self.popular = popular;
        self.finished = true;
        Ok(())
    }
}

/// Writes a word of the saved index.
pub(super) fn put(out: &mut impl Write, w: u64) -> io::Result<()> {
    out.write_all(&w.to_le_bytes())
}

#[cfg(test)]
mod tests {
    use super::Digest;

    fn digest(parts: &[&[u8]]) -> u128 {
        let mut d = Digest::new();
        for p in parts {
            d.bytes(p);
        }
        d.finish()
    }

    #[test]
    fn the_digest_reads_a_stream_whatever_its_pieces() {
        let text: Vec<u8> = (0..200u8).collect();
        let whole = digest(&[&text]);
        for cut in [0, 1, 7, 8, 9, 63, 199, 200] {
            let (a, b) = text.split_at(cut);
            assert_eq!(digest(&[a, b]), whole, "{cut}");
        }
        let (a, rest) = text.split_at(3);
        let (b, c) = rest.split_at(5);
        assert_eq!(digest(&[a, b, c]), whole);
    }

    #[test]
    fn the_digest_tells_apart_streams_that_differ_by_a_bit_or_a_length() {
        let text: Vec<u8> = (0..100u8).collect();
        let whole = digest(&[&text]);
        let mut seen = std::collections::HashSet::new();
        seen.insert(whole);
        for i in 0..text.len() {
            for bit in 0..8 {
                let mut changed = text.clone();
                changed[i] ^= 1 << bit;
                assert!(seen.insert(digest(&[&changed])), "byte {i} bit {bit}");
            }
        }
        for n in 0..text.len() {
            assert!(seen.insert(digest(&[&text[..n]])), "length {n}");
        }
        let mut zeros = vec![0u8; 16];
        assert!(seen.insert(digest(&[&zeros])));
        zeros.push(0);
        assert!(seen.insert(digest(&[&zeros])));
    }
}
