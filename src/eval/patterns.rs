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
const fn diagonal(x: u64, mask: u64) -> u64 {
    (x & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// Each base pattern of one side's discs as a binary number (bit i = the
/// pattern's i-th square), for one orientation of the board.
#[inline(always)]
const fn extract(x: u64) -> [u64; PATTERNS] {
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
pub(crate) const fn images(x: u64) -> [u64; 8] {
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
pub(crate) fn for_each_index(player: u64, opponent: u64, each: impl FnMut(usize)) {
    for_each_index_of([0xff; PATTERNS], player, opponent, each);
}

/// [`for_each_index`] for the instances of pattern `i` read in the
/// images `images_read[i]` has a bit for (bit `k` for image `k`).
#[inline(always)]
fn for_each_index_of(
    images_read: [u8; PATTERNS],
    player: u64,
    opponent: u64,
    mut each: impl FnMut(usize),
) {
    let (ps, os) = (images(player), images(opponent));
    for k in 0..8 {
        let (p, o) = (extract(ps[k]), extract(os[k]));
        for i in 0..PATTERNS {
            if images_read[i] & (1 << k) != 0 {
                let index = usize::from(TERNARY[(p[i] & 0x3ff) as usize])
                    + 2 * usize::from(TERNARY[(o[i] & 0x3ff) as usize]);
                each(OFFSETS[i] + index);
            }
        }
    }
}

/// The square (of the board as given, `a1` = 0) that instance `k` of
/// pattern `i` (read in image `k`) reads as its digit `j`:
/// `READS[i][k][j]`, 64 past the pattern's size.
const READS: [[[u8; 10]; 8]; PATTERNS] = {
    let mut t = [[[64u8; 10]; 8]; PATTERNS];
    let mut sq = 0;
    while sq < 64 {
        let imgs = images(1u64 << sq);
        let mut k = 0;
        while k < 8 {
            let bits = extract(imgs[k]);
            let mut i = 0;
            while i < PATTERNS {
                if bits[i] != 0 {
                    t[i][k][bits[i].trailing_zeros() as usize] = sq as u8;
                }
                i += 1;
            }
            k += 1;
        }
        sq += 1;
    }
    t
};

/// The squares instance `k` of pattern `i` reads, as a set.
const fn read_set(i: usize, k: usize) -> u64 {
    let mut set = 0u64;
    let mut j = 0;
    while j < SIZES[i] as usize {
        set |= 1 << READS[i][k][j];
        j += 1;
    }
    set
}

/// For each pattern, the images whose instance reads a set of squares no
/// earlier image's instance reads (bit `k` for image `k`): a pattern that
/// is its own image under some symmetries (a row, a corner's block, the
/// long diagonal) reads each set twice or four times, in other orders.
pub(crate) const FIRST_READS: [u8; PATTERNS] = {
    let mut t = [0u8; PATTERNS];
    let mut i = 0;
    while i < PATTERNS {
        let mut k = 0;
        while k < 8 {
            let mut first = true;
            let mut e = 0;
            while e < k {
                if read_set(i, e) == read_set(i, k) {
                    first = false;
                }
                e += 1;
            }
            if first {
                t[i] |= 1 << k;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// The instances reading the same squares as the first (image 0), each as
/// the order it reads them in: `SAME_READS[i][m][j]` is the digit of
/// image 0's instance that digit `j` of the `m`-th such instance reads
/// (the first is image 0 itself), for `SAME_COUNT[i]` instances. Every
/// set of squares a pattern reads is read in the same orders, so these
/// fold any of them.
pub(crate) const SAME_READS: [[[u8; 10]; 4]; PATTERNS] = {
    let mut t = [[[0u8; 10]; 4]; PATTERNS];
    let mut i = 0;
    while i < PATTERNS {
        let mut m = 0;
        let mut k = 0;
        while k < 8 {
            if read_set(i, k) == read_set(i, 0) {
                let mut j = 0;
                while j < SIZES[i] as usize {
                    let mut l = 0;
                    while READS[i][0][l] != READS[i][k][j] {
                        l += 1;
                    }
                    t[i][m][j] = l as u8;
                    j += 1;
                }
                m += 1;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// How many instances of each pattern read one set of squares.
pub(crate) const SAME_COUNT: [usize; PATTERNS] = {
    let mut t = [0usize; PATTERNS];
    let mut i = 0;
    while i < PATTERNS {
        t[i] = 8 / (FIRST_READS[i].count_ones() as usize);
        i += 1;
    }
    t
};

/// Calls `each` with the weight index (within a phase) of the first
/// instance of each set of squares a pattern reads ([`FIRST_READS`]):
/// with weights folded ([`fold`]) their sum is the evaluation's, in
/// about half the look-ups.
#[inline(always)]
pub(crate) fn for_each_first_index(player: u64, opponent: u64, each: impl FnMut(usize)) {
    for_each_index_of(FIRST_READS, player, opponent, each);
}

/// How many instances [`for_each_first_index`] reads.
pub(crate) const FIRST_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PATTERNS {
        n += FIRST_READS[i].count_ones() as usize;
        i += 1;
    }
    n
};

/// The instances [`for_each_first_index`] reads, in its order: each one's
/// pattern, the squares it reads by digit and how many.
pub(crate) const fn first_reads() -> [(usize, [u8; 10], usize); FIRST_COUNT] {
    let mut t = [(0usize, [64u8; 10], 0usize); FIRST_COUNT];
    let mut n = 0;
    let mut k = 0;
    while k < 8 {
        let mut i = 0;
        while i < PATTERNS {
            if FIRST_READS[i] & (1 << k) != 0 {
                t[n] = (i, READS[i][k], SIZES[i] as usize);
                n += 1;
            }
            i += 1;
        }
        k += 1;
    }
    t
}

/// One phase's weights folded: each index's weight summed over the
/// instances that read the same squares in other orders
/// ([`SAME_READS`]), so that [`for_each_first_index`] sums to what
/// [`for_each_index`] sums. `None` when a sum does not fit an `i16`.
pub(crate) fn fold(phase: &[i16]) -> Option<Vec<i16>> {
    let mut out = Vec::with_capacity(PHASE_WEIGHTS);
    for i in 0..PATTERNS {
        let size = SIZES[i] as usize;
        let table = &phase[OFFSETS[i]..OFFSETS[i + 1]];
        let count = SAME_COUNT[i];
        if count == 1 {
            out.extend_from_slice(table);
            continue;
        }
        // Where each digit of the first instance's index lands in each
        // instance's index: its power of 3 there.
        let mut power = [[0usize; 10]; 4];
        for (m, reads) in SAME_READS[i][..count].iter().enumerate() {
            for (j, &l) in reads[..size].iter().enumerate() {
                power[m][usize::from(l)] = 3usize.pow(j as u32);
            }
        }
        // The digits of `index`, counted up, and each instance's index
        // kept beside.
        let mut digits = [0u8; 10];
        let mut at = [0usize; 4];
        for _ in 0..table.len() {
            let sum: i32 = at[..count].iter().map(|&x| i32::from(table[x])).sum();
            out.push(i16::try_from(sum).ok()?);
            let mut l = 0;
            while l < size {
                if digits[l] < 2 {
                    digits[l] += 1;
                    for m in 0..count {
                        at[m] += power[m][l];
                    }
                    break;
                }
                digits[l] = 0;
                for m in 0..count {
                    at[m] -= 2 * power[m][l];
                }
                l += 1;
            }
        }
    }
    Some(out)
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
    fn instances_that_read_the_same_squares_read_them_in_the_same_orders() {
        // Every set of squares a pattern reads is read by SAME_COUNT
        // instances, in the orders SAME_READS gives for image 0's set.
        for i in 0..PATTERNS {
            let size = SIZES[i] as usize;
            assert_eq!(8 % SAME_COUNT[i], 0);
            let orders = |first: usize| -> Vec<Vec<u8>> {
                let mut v: Vec<Vec<u8>> = (0..8)
                    .filter(|&k| read_set(i, k) == read_set(i, first))
                    .map(|k| {
                        (0..size)
                            .map(|j| {
                                let sq = READS[i][k][j];
                                (0..size).position(|l| READS[i][first][l] == sq).unwrap() as u8
                            })
                            .collect()
                    })
                    .collect();
                v.sort();
                v
            };
            let mut expected: Vec<Vec<u8>> = SAME_READS[i][..SAME_COUNT[i]]
                .iter()
                .map(|r| r[..size].to_vec())
                .collect();
            expected.sort();
            for first in (0..8).filter(|&k| FIRST_READS[i] & (1 << k) != 0) {
                assert_eq!(orders(first), expected, "pattern {i} image {first}");
            }
        }
        // Rows, edges and corner blocks twice, the long diagonal four
        // times, the 2×5 block once.
        assert_eq!(SAME_COUNT, [2, 2, 1, 2, 2, 2, 2, 4, 2, 2, 2, 2]);
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
