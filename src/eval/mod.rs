//! A pattern evaluation for move ordering: how good a position looks,
//! learnt from the final scores of archived games.
//!
//! Only the order in which moves are searched uses it: an exact search
//! gives the same value with any order, so the solver is exact with these
//! weights, with other weights, or with none ([`Weights::builtin`] may be
//! `None`). A better guess of which move is best cuts the tree: beyond
//! about 18 empty squares this is most of the solver's speed.
//!
//! The evaluation is a sum of weights, one for each pattern instance: a
//! fixed set of squares (an edge with its two X squares, a corner's 3×3
//! block, a corner's 2×5 block, the second to fourth rows, the diagonals)
//! read under each of the board's 8 symmetries, the squares' contents
//! (empty, mine, theirs) forming the index. Weights differ by phase
//! (empty squares) and are shared by the symmetric instances.
//! `kifu train-eval` fits them by least squares ([`train`]) and writes
//! the file this crate embeds (`src/solve/eval.zst`).

use std::sync::LazyLock;

use crate::engine::square::{flip_rows, mirror_columns, transpose};

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b`.
static TERNARY: [u32; 1024] = {
    let mut t = [0u32; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut v, mut p, mut i) = (0u32, 1u32, 0);
        while i < 10 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The number of base patterns.
const PATTERNS: usize = 11;

/// Squares of each base pattern, as `(cells, index width in bits)`: each
/// extractor below reads a pattern's squares of one side as a small
/// binary number of that width.
const SIZES: [u32; PATTERNS] = [10, 9, 10, 8, 8, 8, 8, 7, 6, 5, 4];

/// Where each pattern's weights start in a phase's table.
const OFFSETS: [usize; PATTERNS + 1] = {
    let mut t = [0usize; PATTERNS + 1];
    let mut i = 0;
    while i < PATTERNS {
        t[i + 1] = t[i] + 3usize.pow(SIZES[i]);
        i += 1;
    }
    t
};

/// Weights in a phase.
const PHASE_WEIGHTS: usize = OFFSETS[PATTERNS];

/// The phases: positions with at most `PHASE_MAX[i]` empties use phase
/// `i` (the last takes the rest).
const PHASE_MAX: [u32; 4] = [17, 23, 29, 64];

/// The phase of a position with `empties` empty squares.
#[inline(always)]
fn phase(empties: u32) -> usize {
    PHASE_MAX.iter().position(|&m| empties <= m).unwrap_or(3)
}

/// A diagonal's squares by column, as a byte: the discs of `x` on the
/// diagonal `mask` (one square a column) moved to bit = column.
#[inline(always)]
fn diagonal(x: u64, mask: u64) -> u64 {
    (x & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// Each base pattern of one side's discs as a binary number (bit i = the
/// pattern's i-th square), for one orientation of the board.
#[inline(always)]
fn extract(x: u64) -> [u64; PATTERNS] {
    [
        // Row 1 and the X squares b2, g2.
        (x & 0xff) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200),
        // a1–c3.
        (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0),
        // a1–e2.
        (x & 0x1f) | ((x >> 3) & 0x3e0),
        // Rows 2, 3 and 4.
        (x >> 8) & 0xff,
        (x >> 16) & 0xff,
        (x >> 24) & 0xff,
        // The a1–h8 diagonal, then those of 7, 6, 5 and 4 squares from
        // b1, c1, d1 and e1 (their columns shifted down to bit 0).
        diagonal(x, 0x8040_2010_0804_0201),
        diagonal(x, 0x0080_4020_1008_0402) >> 1,
        diagonal(x, 0x0000_8040_2010_0804) >> 2,
        diagonal(x, 0x0000_0080_4020_1008) >> 3,
        diagonal(x, 0x0000_0000_8040_2010) >> 4,
    ]
}

/// The 8 images of a bitboard under the board's symmetries.
#[inline(always)]
fn images(x: u64) -> [u64; 8] {
    let m = mirror_columns(x);
    let t = transpose(x);
    let tm = mirror_columns(t);
    [
        x,
        m,
        flip_rows(x),
        flip_rows(m),
        t,
        tm,
        flip_rows(t),
        flip_rows(tm),
    ]
}

/// Calls `each` with the weight index (within a phase) of every pattern
/// instance of the position (`player` to move against `opponent`).
#[inline(always)]
fn for_each_index(player: u64, opponent: u64, mut each: impl FnMut(usize)) {
    let (ps, os) = (images(player), images(opponent));
    for k in 0..8 {
        let (p, o) = (extract(ps[k]), extract(os[k]));
        for i in 0..PATTERNS {
            let index = TERNARY[(p[i] & 0x3ff) as usize] + 2 * TERNARY[(o[i] & 0x3ff) as usize];
            each(OFFSETS[i] + index as usize);
        }
    }
}

/// The fitted weights: per phase, per pattern index, in 1/64 disc.
pub(crate) struct Weights {
    phases: Vec<Box<[i16]>>,
}

/// The value a weight is counted in: 1/64 of a disc.
pub(crate) const SCALE: i32 = 64;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"KIFUEVL1";

/// The weights compiled into the crate (zstd-compressed).
static EMBEDDED: &[u8] = include_bytes!("eval.zst");

static BUILTIN: LazyLock<Option<Weights>> = LazyLock::new(|| {
    let raw = zstd::decode_all(EMBEDDED).ok()?;
    Weights::from_bytes(&raw)
});

impl Weights {
    /// The weights this crate ships, if they read (the solver works
    /// without them).
    pub fn builtin() -> Option<&'static Weights> {
        BUILTIN.as_ref()
    }

    /// The position's value as the weights guess it, in 1/64 disc, from
    /// the side to move's view.
    #[inline(always)]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        let table = &self.phases[phase(empties)];
        let mut sum = 0i32;
        for_each_index(player, opponent, |i| sum += i32::from(table[i]));
        sum
    }

    /// The file form: the magic, the phase count and weights per phase
    /// (little-endian `u32`s), then every weight as a little-endian `i16`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.phases.len() as u32).to_le_bytes());
        out.extend_from_slice(&(PHASE_WEIGHTS as u32).to_le_bytes());
        for phase in &self.phases {
            for w in phase.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Reads [`Weights::to_bytes`]'s form; `None` if it is not one of the
    /// layout this code evaluates.
    pub fn from_bytes(bytes: &[u8]) -> Option<Weights> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let word = |at: usize| -> Option<usize> {
            Some(u32::from_le_bytes(rest.get(at..at + 4)?.try_into().ok()?) as usize)
        };
        let (count, size) = (word(0)?, word(4)?);
        if count != PHASE_MAX.len() || size != PHASE_WEIGHTS {
            return None;
        }
        let data = rest.get(8..)?;
        if data.len() != count * size * 2 {
            return None;
        }
        let phases = data
            .chunks_exact(size * 2)
            .map(|chunk| {
                chunk
                    .chunks_exact(2)
                    .map(|b| i16::from_le_bytes([b[0], b[1]]))
                    .collect()
            })
            .collect();
        Some(Weights { phases })
    }
}

/// How far a round moves the weights: the 88 instances of a position
/// move together, so more than their share of the residual overshoots.
const RATE: f64 = 1.6;

/// A training position: the discs of the side to move and of the other
/// side, and the final score from the side to move's view.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
    /// The final disc difference for the side to move.
    pub score: i8,
}

/// Fits weights to `samples` by least squares: `epochs` rounds, each
/// moving every weight by its mean residual over the samples that use it
/// (damped for rare instances). Deterministic: the same samples give the
/// same weights, on any machine.
/// `progress` hears each round's number and root mean squared error (in
/// discs) before the round's step.
pub fn train(samples: &[Sample], epochs: usize, mut progress: impl FnMut(usize, f64)) -> Vec<u8> {
    let phases = PHASE_MAX.len();
    let mut weights = vec![vec![0f32; PHASE_WEIGHTS]; phases];
    let mut counts = vec![vec![0u32; PHASE_WEIGHTS]; phases];
    for s in samples {
        let ph = phase((!(s.player | s.opponent)).count_ones());
        for_each_index(s.player, s.opponent, |i| counts[ph][i] += 1);
    }
    let mut gradient = vec![vec![0f64; PHASE_WEIGHTS]; phases];
    for epoch in 0..epochs {
        for g in &mut gradient {
            g.iter_mut().for_each(|x| *x = 0.0);
        }
        let mut squares = 0f64;
        for s in samples {
            let ph = phase((!(s.player | s.opponent)).count_ones());
            let w = &weights[ph];
            let mut sum = 0f32;
            for_each_index(s.player, s.opponent, |i| sum += w[i]);
            let residual = f64::from(f32::from(s.score) - sum);
            squares += residual * residual;
            let g = &mut gradient[ph];
            for_each_index(s.player, s.opponent, |i| g[i] += residual);
        }
        progress(epoch, (squares / samples.len().max(1) as f64).sqrt());
        for ph in 0..phases {
            for i in 0..PHASE_WEIGHTS {
                let n = counts[ph][i];
                if n > 0 {
                    // 88 instances share each residual: each moves by a
                    // part of its mean residual, damped below 16 uses.
                    let step = gradient[ph][i] / (f64::from(n) + 16.0) / 88.0 * RATE;
                    weights[ph][i] += step as f32;
                }
            }
        }
    }
    let fitted = Weights {
        phases: weights
            .iter()
            .map(|phase| {
                phase
                    .iter()
                    .map(|&w| (w * SCALE as f32).round().clamp(-32767.0, 32767.0) as i16)
                    .collect()
            })
            .collect(),
    };
    fitted.to_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instance_is_counted_once_a_symmetry() {
        let mut n = 0;
        for_each_index(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, |i| {
            assert!(i < PHASE_WEIGHTS);
            n += 1;
        });
        assert_eq!(n, 8 * PATTERNS);
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        let bytes = train(
            &[Sample {
                player: 0x0000_0018_1c00_0000,
                opponent: 0x0000_0000_0008_0000,
                score: 10,
            }],
            3,
            |_, _| {},
        );
        let w = Weights::from_bytes(&bytes).unwrap();
        let (p, o) = (0x0000_0018_1c00_0000u64, 0x0000_0000_0008_0000u64);
        let base = w.evaluate(p, o);
        assert!(base > 0);
        for (ip, io) in images(p).into_iter().zip(images(o)) {
            assert_eq!(w.evaluate(ip, io), base);
        }
    }

    #[test]
    fn the_bytes_read_back() {
        let bytes = train(&[], 0, |_, _| {});
        assert!(Weights::from_bytes(&bytes).is_some());
        assert!(Weights::from_bytes(&bytes[1..]).is_none());
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 1]).is_none());
    }

    #[test]
    fn patterns_fit_their_widths() {
        for x in [u64::MAX, 0x8100_0000_0000_0081, 0x0042_0000_0000_4200] {
            for (i, v) in extract(x).into_iter().enumerate() {
                assert!(v < 1 << SIZES[i], "pattern {i}: {v:#x}");
            }
        }
        assert_eq!(extract(u64::MAX), SIZES.map(|s| (1u64 << s) - 1));
    }
}
