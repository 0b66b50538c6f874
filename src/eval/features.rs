//! The evaluation's pattern indices kept up to date move by move, as a
//! search walks the tree, instead of read afresh from the bitboards at
//! every leaf (as Edax and NTest keep theirs).
//!
//! [`Features`] holds the index of every instance the folded evaluation
//! reads ([`FIRST_READS`](super::patterns::FIRST_READS)), from both
//! sides' view: `mine` with the side to move's discs as digit 1 and the
//! other's as 2 (what [`Weights::evaluate`](super::Weights::evaluate)
//! sums), `theirs` the other way round. A move changes the digits of the
//! squares it fills and flips and nothing else, so each index changes by
//! those squares' powers of 3; the two views trade places with the turn.
//! The sums are plain vector additions of one row of [`POWERS`] a square,
//! which compilers turn into a few SIMD instructions.

use super::patterns::{first_reads, FIRST_COUNT, OFFSETS};

/// Lanes of a view: the instances read, padded to a multiple of 32 so
/// that each view is whole vector registers.
pub(crate) const LANES: usize = FIRST_COUNT.div_ceil(32) * 32;

/// `POWERS[sq][n]`: the power of 3 of the digit instance `n` reads on
/// square `sq` (0 when it does not read the square).
static POWERS: [[u16; LANES]; 64] = {
    let reads = first_reads();
    let mut t = [[0u16; LANES]; 64];
    let mut n = 0;
    while n < FIRST_COUNT {
        let (_, squares, size) = reads[n];
        let mut j = 0;
        let mut power = 1u16;
        while j < size {
            t[squares[j] as usize][n] = power;
            power = power.wrapping_mul(3);
            j += 1;
        }
        n += 1;
    }
    t
};

/// `START[n]`: where instance `n`'s pattern starts in a phase's weights.
pub(crate) static START: [u32; LANES] = {
    let reads = first_reads();
    let mut t = [0u32; LANES];
    let mut n = 0;
    while n < FIRST_COUNT {
        t[n] = OFFSETS[reads[n].0] as u32;
        n += 1;
    }
    t
};

/// The pattern indices of a position from both sides' view (see the
/// module's doc). Its value depends on the position alone, however it was
/// reached.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Features {
    /// The side to move's view: its discs digit 1, the other's 2.
    mine: [u16; LANES],
    /// The other side's view.
    theirs: [u16; LANES],
}

impl std::fmt::Debug for Features {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Features")
            .field("mine", &&self.mine[..FIRST_COUNT])
            .field("theirs", &&self.theirs[..FIRST_COUNT])
            .finish()
    }
}

/// `a += POWERS[sq]` for every square of `set`.
#[inline(always)]
fn add_squares(a: &mut [u16; LANES], mut set: u64) {
    while set != 0 {
        let row = &POWERS[set.trailing_zeros() as usize];
        set &= set - 1;
        for (x, &p) in a.iter_mut().zip(row) {
            *x = x.wrapping_add(p);
        }
    }
}

impl Features {
    /// The indices of `player` (to move) against `opponent`, read afresh.
    pub fn new(player: u64, opponent: u64) -> Features {
        let (mut p, mut o) = ([0u16; LANES], [0u16; LANES]);
        add_squares(&mut p, player);
        add_squares(&mut o, opponent);
        let mut f = Features {
            mine: [0; LANES],
            theirs: [0; LANES],
        };
        for n in 0..LANES {
            f.mine[n] = p[n].wrapping_add(o[n].wrapping_mul(2));
            f.theirs[n] = o[n].wrapping_add(p[n].wrapping_mul(2));
        }
        f
    }

    /// The indices after the side to move plays `square`, flipping
    /// `flips`; the other side is then to move.
    #[inline(always)]
    pub fn after(&self, square: usize, flips: u64) -> Features {
        let mut turned = [0u16; LANES];
        add_squares(&mut turned, flips);
        let placed = &POWERS[square];
        let mut next = Features {
            mine: [0; LANES],
            theirs: [0; LANES],
        };
        for n in 0..LANES {
            // The new mover's view: the square and the flipped discs
            // become the other side's (digit 2; flipped ones were 1).
            next.mine[n] = self.theirs[n]
                .wrapping_add(placed[n].wrapping_mul(2))
                .wrapping_add(turned[n]);
            // The old mover's: the square becomes its own (1), the
            // flipped discs too (they were 2).
            next.theirs[n] = self.mine[n].wrapping_add(placed[n]).wrapping_sub(turned[n]);
        }
        next
    }

    /// The indices after a pass: the same discs, the other side to move.
    #[inline(always)]
    pub fn passed(&self) -> Features {
        Features {
            mine: self.theirs,
            theirs: self.mine,
        }
    }

    /// The side to move's indices, one a read instance.
    #[inline(always)]
    pub(crate) fn mine(&self) -> &[u16; LANES] {
        &self.mine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::{flips_at, moves};
    use crate::eval::patterns::for_each_first_index;

    /// The indices read afresh, in [`for_each_first_index`]'s order,
    /// without the patterns' offsets.
    fn fresh(player: u64, opponent: u64) -> Vec<u16> {
        let mut out = Vec::new();
        for_each_first_index(player, opponent, |i| {
            out.push((i - START[out.len()] as usize) as u16);
        });
        out
    }

    #[test]
    fn fresh_features_are_the_evaluations_indices() {
        let mut rng = crate::testkit::Rng::new(9);
        for _ in 0..2000 {
            let p = rng.next() & rng.next();
            let o = rng.next() & !p;
            let f = Features::new(p, o);
            assert_eq!(&f.mine[..FIRST_COUNT], &fresh(p, o)[..], "{p:#x} {o:#x}");
            assert_eq!(&f.theirs[..FIRST_COUNT], &fresh(o, p)[..]);
            assert!(f.mine[FIRST_COUNT..].iter().all(|&x| x == 0));
        }
    }

    /// Along random games, passes included, the indices kept move by move
    /// equal those read afresh at every position.
    #[test]
    fn kept_features_equal_fresh_ones_along_random_games() {
        let mut rng = crate::testkit::Rng::new(17);
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut f = Features::new(p, o);
            loop {
                let legal = moves(p, o);
                if legal == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    f = f.passed();
                    (p, o) = (o, p);
                } else {
                    let all: Vec<usize> = (0..64).filter(|x| legal >> x & 1 != 0).collect();
                    let x = all[rng.below(all.len())];
                    let flips = flips_at(p, o, x);
                    f = f.after(x, flips);
                    (p, o) = (o ^ flips, p | flips | 1 << x);
                }
                assert_eq!(f, Features::new(p, o));
            }
        }
    }
}
