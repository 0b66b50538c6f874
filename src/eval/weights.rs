//! The weights: a table of `i16` by phase and pattern index, the
//! evaluation that sums them, the file form and the file this crate
//! embeds.

use std::sync::{LazyLock, OnceLock};

use super::features::{Features, START};
use super::patterns::{
    fold, for_each_first_index, for_each_index, phase, FIRST_COUNT, PHASES, PHASE_WEIGHTS,
};

/// The value a weight is counted in: 1/64 of a disc.
pub const SCALE: i32 = 64;

/// The file's first bytes (the layout's version: 2 is 12 base patterns
/// and 30 phases of two empties).
const MAGIC: &[u8; 8] = b"KIFUEVL2";

/// The weights compiled into the crate (zstd-compressed), made by
/// `kifu train-eval` as `manifest.json` beside it records.
pub(crate) static EMBEDDED: &[u8] = include_bytes!("eval.zst");

static BUILTIN: LazyLock<Option<Weights>> = LazyLock::new(|| {
    let raw = zstd::decode_all(EMBEDDED).ok()?;
    Weights::from_bytes(&raw)
});

/// Pattern weights by phase, in 1/64 disc: the evaluation's data.
#[derive(Clone)]
pub struct Weights {
    /// `PHASES * PHASE_WEIGHTS` weights, phase after phase.
    table: Box<[i16]>,
    /// Each phase's weights folded ([`fold`]) when first evaluated: what
    /// [`Weights::evaluate`] reads, in half the look-ups; `None` if a
    /// folded weight would not fit.
    folded: Box<[Folded]>,
}

/// One phase's folded weights, made at its first evaluation.
type Folded = OnceLock<Option<Box<[i16]>>>;

impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        self.table == other.table
    }
}

impl Eq for Weights {}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weights")
            .field("phases", &PHASES)
            .field("weights", &self.table.len())
            .finish()
    }
}

impl Weights {
    /// The weights this crate ships, if they read (the solver works
    /// without them).
    pub fn builtin() -> Option<&'static Weights> {
        BUILTIN.as_ref()
    }

    /// Weights from a table of `PHASES * PHASE_WEIGHTS` values.
    pub(crate) fn from_table(table: Box<[i16]>) -> Weights {
        assert_eq!(table.len(), PHASES * PHASE_WEIGHTS);
        Weights {
            table,
            folded: (0..PHASES).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Phase `phase`'s folded weights, folded at the first call.
    #[inline(always)]
    fn folded(&self, phase: usize) -> Option<&[i16]> {
        self.folded[phase]
            .get_or_init(|| {
                let start = phase * PHASE_WEIGHTS;
                fold(&self.table[start..start + PHASE_WEIGHTS]).map(Vec::into_boxed_slice)
            })
            .as_deref()
    }

    /// The position's value as the weights guess it, in 1/64 disc
    /// ([`SCALE`]), from the side to move's view: `player`'s discs against
    /// `opponent`'s. An estimate, never an exact value.
    #[inline(always)]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        let phase = phase(empties);
        let mut sum = 0i32;
        match self.folded(phase) {
            Some(table) => {
                for_each_first_index(player, opponent, |i| sum += i32::from(table[i]));
            }
            None => self.evaluate_unfolded(player, opponent, phase * PHASE_WEIGHTS, &mut sum),
        }
        sum
    }

    /// [`Weights::evaluate`] with the position's pattern indices already
    /// at hand ([`Features`] of the same position, kept by a search as
    /// it moves): the same value, without reading the indices afresh.
    #[inline(always)]
    pub fn evaluate_features(&self, player: u64, opponent: u64, features: &Features) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        let phase = phase(empties);
        match self.folded(phase) {
            Some(table) => {
                let mut sum = 0i32;
                let mine = features.mine();
                for n in 0..FIRST_COUNT {
                    sum += i32::from(table[START[n] as usize + usize::from(mine[n])]);
                }
                sum
            }
            None => self.evaluate(player, opponent),
        }
    }

    /// The evaluation's definition: every instance's weight, summed.
    #[inline(never)]
    fn evaluate_unfolded(&self, player: u64, opponent: u64, start: usize, sum: &mut i32) {
        let table = &self.table[start..start + PHASE_WEIGHTS];
        for_each_index(player, opponent, |i| *sum += i32::from(table[i]));
    }

    /// The file form: the magic, the phase count and the weights per phase
    /// (little-endian `u32`s), then every weight as a little-endian `i16`,
    /// phase after phase.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(PHASES as u32).to_le_bytes());
        out.extend_from_slice(&(PHASE_WEIGHTS as u32).to_le_bytes());
        out.reserve(self.table.len() * 2);
        for w in self.table.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads [`Weights::to_bytes`]'s form; `None` if it is not the layout
    /// this code evaluates.
    pub fn from_bytes(bytes: &[u8]) -> Option<Weights> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let word = |at: usize| -> Option<usize> {
            Some(u32::from_le_bytes(rest.get(at..at + 4)?.try_into().ok()?) as usize)
        };
        let (count, size) = (word(0)?, word(4)?);
        if count != PHASES || size != PHASE_WEIGHTS {
            return None;
        }
        let data = rest.get(8..)?;
        if data.len() != count * size * 2 {
            return None;
        }
        let table = data
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        Some(Weights::from_table(table))
    }

    /// The zstd-compressed file form, as the crate embeds it.
    ///
    /// # Errors
    ///
    /// Whatever zstd reports.
    pub fn to_compressed(&self) -> std::io::Result<Vec<u8>> {
        zstd::encode_all(&self.to_bytes()[..], 19)
    }

    /// Reads [`Weights::to_compressed`]'s form.
    pub fn from_compressed(bytes: &[u8]) -> Option<Weights> {
        Weights::from_bytes(&zstd::decode_all(bytes).ok()?)
    }

    /// Reads a file of [`Weights::to_compressed`]'s form, as `kifu
    /// train-eval` writes it; returns its bytes too (for a digest).
    ///
    /// # Errors
    ///
    /// The file cannot be read, or is not weights of this layout.
    pub fn read_file(path: &std::path::Path) -> Result<(Weights, Vec<u8>), WeightsFileError> {
        let data = std::fs::read(path).map_err(|source| WeightsFileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        match Weights::from_compressed(&data) {
            Some(weights) => Ok((weights, data)),
            None => Err(WeightsFileError::Layout {
                path: path.display().to_string(),
            }),
        }
    }
}

/// Why [`Weights::read_file`] failed.
#[derive(Debug, thiserror::Error)]
pub enum WeightsFileError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file, as named.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not weights of the layout this code evaluates.
    #[error("{path}: not kifu weights of this layout (as `kifu train-eval` writes them)")]
    Layout {
        /// The file, as named.
        path: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_read_back() {
        let w = Weights::from_table(
            (0..PHASES * PHASE_WEIGHTS)
                .map(|i| (i % 7) as i16 - 3)
                .collect(),
        );
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).as_ref(), Some(&w));
        assert!(Weights::from_bytes(&bytes[1..]).is_none());
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 1]).is_none());
        let packed = w.to_compressed().unwrap();
        assert_eq!(Weights::from_compressed(&packed).as_ref(), Some(&w));
    }

    #[test]
    fn a_weights_file_reads_back_and_a_bad_one_is_named() {
        let dir = std::env::temp_dir().join(format!("kifu-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let w = Weights::from_table(
            (0..PHASES * PHASE_WEIGHTS)
                .map(|i| (i % 5) as i16)
                .collect(),
        );
        let good = dir.join("good.zst");
        std::fs::write(&good, w.to_compressed().unwrap()).unwrap();
        let (read, bytes) = Weights::read_file(&good).unwrap();
        assert_eq!(read, w);
        assert_eq!(bytes, std::fs::read(&good).unwrap());
        let bad = dir.join("bad.zst");
        std::fs::write(&bad, b"not weights").unwrap();
        let err = Weights::read_file(&bad).unwrap_err();
        assert!(matches!(err, WeightsFileError::Layout { .. }));
        assert!(err.to_string().contains("bad.zst"), "{err}");
        let err = Weights::read_file(&dir.join("missing.zst")).unwrap_err();
        assert!(matches!(err, WeightsFileError::Io { .. }));
        assert!(err.to_string().starts_with("cannot read "), "{err}");
        assert!(err.to_string().contains("missing.zst"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_builtin_weights_read() {
        let w = Weights::builtin().unwrap();
        assert!((0..PHASES).all(|p| w.folded(p).is_some()));
    }

    /// Weights whose folded sums do not fit 16 bits: evaluated unfolded.
    fn huge_weights(rng: &mut crate::testkit::Rng) -> Weights {
        Weights::from_table(
            (0..PHASES * PHASE_WEIGHTS)
                .map(|i| {
                    if i % 3 == 0 {
                        30_000
                    } else {
                        -(rng.below(30_000) as i16)
                    }
                })
                .collect(),
        )
    }

    /// With indices kept by [`Features`], the evaluation is the same to
    /// the unit, folded or not.
    #[test]
    fn features_evaluate_as_a_fresh_read() {
        let mut rng = crate::testkit::Rng::new(11);
        let huge = huge_weights(&mut rng);
        for w in [Weights::builtin().unwrap(), &huge] {
            for _ in 0..2000 {
                let p = rng.next() & rng.next();
                let o = rng.next() & !p;
                let f = Features::new(p, o);
                assert_eq!(w.evaluate_features(p, o, &f), w.evaluate(p, o));
                assert_eq!(w.evaluate_features(o, p, &f.passed()), w.evaluate(o, p));
            }
        }
    }

    /// The folded evaluation is the sum of every instance's weight, to the
    /// unit, for the shipped weights and for random ones; weights whose
    /// folded sums would not fit are evaluated unfolded, alike.
    #[test]
    fn folded_weights_evaluate_as_every_instance_summed() {
        let mut rng = crate::testkit::Rng::new(4);
        let random = Weights::from_table(
            (0..PHASES * PHASE_WEIGHTS)
                .map(|_| rng.below(2001) as i16 - 1000)
                .collect(),
        );
        let huge = huge_weights(&mut rng);
        assert!((0..PHASES).all(|p| random.folded(p).is_some() && huge.folded(p).is_none()));
        let builtin = Weights::builtin().unwrap();
        for w in [builtin, &random, &huge] {
            for n in 0..3000 {
                // Boards of every density, legal or not.
                let mut p = rng.next();
                let mut o = rng.next() & !p;
                for _ in 0..n % 4 {
                    p &= rng.next();
                    o &= rng.next();
                }
                let empties = (!(p | o)).count_ones();
                let start = phase(empties) * PHASE_WEIGHTS;
                let mut sum = 0;
                w.evaluate_unfolded(p, o, start, &mut sum);
                assert_eq!(w.evaluate(p, o), sum, "{p:#x} {o:#x}");
                assert_eq!(w.evaluate(o, p), {
                    let mut s = 0;
                    w.evaluate_unfolded(o, p, start, &mut s);
                    s
                });
            }
        }
    }
}
