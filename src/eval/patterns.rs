//! The patterns: which squares the evaluation reads together, how a
//! position's discs become the index of each pattern instance, and the
//! phases (empty squares) that weights differ by.
//!
//! A base pattern is a fixed set of squares read in one orientation of
//! the board; the board's 8 symmetries give its instances (a pattern that
//! is its own mirror image, as a row or a corner's 3×3 block, is read
//! twice, once each way: its weights come out symmetric). An instance's
//! index is its squares' contents as a base-3 number (0 empty, 1 the side
//! to move's, 2 the other side's), the first square the lowest digit.

use crate::engine::square::{flip_rows, mirror_columns, transpose};

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b`.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 10 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p = p.wrapping_mul(3);
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The number of base patterns.
pub(crate) const PATTERNS: usize = 12;

/// The base patterns' sizes in squares; each extractor below reads one
/// side's discs on the pattern as a binary number of that many bits.
pub(crate) const SIZES: [u32; PATTERNS] = [10, 9, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4];

/// The base patterns' names, for reports (in [`SIZES`]'s order).
pub const NAMES: [&str; PATTERNS] = [
    "edge+2X",
    "corner 3x3",
    "corner 2x5",
    "corner triangle",
    "row 2",
    "row 3",
    "row 4",
    "diagonal 8",
    "diagonal 7",
    "diagonal 6",
    "diagonal 5",
    "diagonal 4",
];

/// Pattern instances in a position: every base pattern under the 8
/// symmetries.
pub(crate) const INSTANCES: usize = 8 * PATTERNS;

/// Where each pattern's weights start in a phase's table.
pub(crate) const OFFSETS: [usize; PATTERNS + 1] = {
    let mut t = [0usize; PATTERNS + 1];
    let mut i = 0;
    while i < PATTERNS {
        t[i + 1] = t[i] + 3usize.pow(SIZES[i]);
        i += 1;
    }
    t
};

/// Weights in a phase: every index of every base pattern.
pub(crate) const PHASE_WEIGHTS: usize = OFFSETS[PATTERNS];

/// Empty squares a phase spans: phase `i` holds the positions with
/// `PHASE_SPAN * i` to `PHASE_SPAN * i + PHASE_SPAN - 1` empties.
pub const PHASE_SPAN: u32 = 2;

/// The phases; positions with more empties than the last phase's share
/// its weights (only set-up positions have more than 60).
pub const PHASES: usize = 30;

/// The phase of a position with `empties` empty squares.
#[inline(always)]
pub(crate) fn phase(empties: u32) -> usize {
    ((empties / PHASE_SPAN) as usize).min(PHASES - 1)
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
        // The corner's triangle: a1–d1, a2–c2, a3–b3, a4.
        (x & 0xf) | ((x >> 4) & 0x70) | ((x >> 9) & 0x180) | ((x >> 15) & 0x200),
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
pub(crate) fn images(x: u64) -> [u64; 8] {
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
pub(crate) fn for_each_index(player: u64, opponent: u64, mut each: impl FnMut(usize)) {
    let (ps, os) = (images(player), images(opponent));
    for k in 0..8 {
        let (p, o) = (extract(ps[k]), extract(os[k]));
        for i in 0..PATTERNS {
            let index = usize::from(TERNARY[(p[i] & 0x3ff) as usize])
                + 2 * usize::from(TERNARY[(o[i] & 0x3ff) as usize]);
            each(OFFSETS[i] + index);
        }
    }
}

/// The weight indices of every pattern instance of the position, as
/// [`for_each_index`] visits them.
#[inline]
pub(crate) fn indices(player: u64, opponent: u64) -> [u32; INSTANCES] {
    let mut out = [0u32; INSTANCES];
    let mut n = 0;
    for_each_index(player, opponent, |i| {
        out[n] = i as u32;
        n += 1;
    });
    out
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
        assert_eq!(n, INSTANCES);
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

    #[test]
    fn each_pattern_reads_each_square_once() {
        // A pattern of n squares reads n distinct squares: each square
        // alone sets at most one bit, and together they set all n.
        for (i, &size) in SIZES.iter().enumerate().take(PATTERNS) {
            let mut seen = 0u64;
            for sq in 0..64 {
                let v = extract(1u64 << sq)[i];
                assert!(v.count_ones() <= 1, "pattern {i} square {sq}");
                assert_eq!(seen & v, 0, "pattern {i} reads a bit twice");
                seen |= v;
            }
            assert_eq!(seen.count_ones(), size, "pattern {i}");
        }
    }

    #[test]
    fn the_phases_cover_every_count_of_empties() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(PHASE_SPAN - 1), 0);
        assert_eq!(phase(PHASE_SPAN), 1);
        assert_eq!(phase(60), PHASES - 1);
        assert_eq!(phase(64), PHASES - 1);
        assert!((0..=64).all(|e| phase(e) < PHASES));
    }

    #[test]
    fn an_index_is_its_squares_in_base_3() {
        // Row 2 (pattern 4) with a2 the player's and b2 the opponent's
        // reads 1 + 2·3 in the identity image.
        let (p, o) = (1u64 << 8, 1u64 << 9);
        assert_eq!(indices(p, o)[4] as usize, OFFSETS[4] + 1 + 2 * 3);
    }
}
