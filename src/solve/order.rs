//! Move ordering: the move most likely to cut the search off first.
//!
//! A cut-off needs a good move, and good moves leave the opponent few
//! replies (fastest first), so a move's key is mostly the opponent's
//! mobility after it (corners counted twice) and its potential mobility,
//! then the discs made sure by corners, the parity of the move's quadrant
//! (the last move in a region is worth having) and the square's type. The
//! table's best move and a move that wipes the opponent out come first.

use std::mem::MaybeUninit;

use super::geometry::{CORNERS, QUADRANTS};
use super::kernel::Kernel;
use super::stable::corner_stability;
use crate::eval::{Features, Weights};

/// How much a disc of the evaluation's guess counts in a key, beside
/// `MOBILITY` for each reply left to the opponent.
const EVAL_WEIGHT: i32 = 64;

/// A key's weight of each reply the move leaves the opponent (corners
/// twice).
const MOBILITY: i32 = 90;

/// From this many empty squares on, moves are sorted by the evaluation
/// (12 before the selective pass; with its moves in the table, 14 costs
/// fewer nodes and less time on FFO #20–#49).
pub(super) const EVAL_MIN: u32 = 14;

/// From this many empty squares on, the evaluation is searched a move
/// deep, and a move deeper every `EVAL_STEP` more.
const EVAL_DEEP: u32 = 15;
const EVAL_STEP: u32 = 3;

/// A shallow alpha-beta search with the evaluation at its leaves, for
/// ordering only (its value is never reported): the side to move's
/// guess in 1/64 disc. `features` are the position's pattern indices,
/// kept move by move down the probe (a leaf then reads its indices
/// instead of working them out from the discs).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn probe<K: Kernel>(
    k: K,
    w: &Weights,
    player: u64,
    opponent: u64,
    features: &Features,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return w.evaluate_features(player, opponent, features);
    }
    let mut legal = moves(player, opponent);
    if legal == 0 {
        if moves(opponent, player) == 0 {
            let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
            return diff * crate::eval::SCALE;
        }
        let passed = features.passed();
        return -k.probe(
            w,
            opponent,
            player,
            &passed,
            depth - 1,
            -beta,
            -alpha,
            nodes,
        );
    }
    let mut best = i32::MIN;
    while legal != 0 {
        let x = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = flips_at(player, opponent, x);
        let (p, o) = (opponent ^ f, player | f | (1 << x));
        let next = features.after(x, f);
        let v = if depth == 1 {
            // A leaf, read here rather than through a call.
            *nodes += 1;
            -w.evaluate_features(p, o, &next)
        } else {
            -k.probe(w, p, o, &next, depth - 1, -beta, -alpha, nodes)
        };
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}
use crate::engine::board::{flips_at, moves};

/// One legal move and what it does.
#[derive(Clone, Copy, Default)]
pub(super) struct Candidate {
    /// The square index.
    pub square: u8,
    /// The discs it flips.
    pub flips: u64,
    /// Its ordering key, larger first.
    pub key: i32,
}

impl Candidate {
    /// The position after the move, from the opponent's side: its discs,
    /// then the mover's.
    #[inline(always)]
    pub fn next(&self, player: u64, opponent: u64) -> (u64, u64) {
        (
            opponent ^ self.flips,
            player | self.flips | (1u64 << self.square),
        )
    }
}

/// The legal moves of a position; never more than the empty squares.
///
/// Only the first `len` entries are written: the array is left
/// uninitialised beyond them, since clearing 1 KiB a node costs more than
/// many nodes' ordering.
pub(super) struct MoveList {
    moves: [MaybeUninit<Candidate>; 64],
    len: usize,
}

/// Static square values: corners good, the squares next to an empty
/// corner bad (they hand it over), the rest in between.
const SQUARE_VALUE: [i32; 64] = {
    const ROW: [[i32; 8]; 4] = [
        [18, 4, 16, 12, 12, 16, 4, 18],
        [4, 2, 6, 8, 8, 6, 2, 4],
        [16, 6, 14, 10, 10, 14, 6, 16],
        [12, 8, 10, 0, 0, 10, 8, 12],
    ];
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        let r = s / 8;
        t[s] = ROW[if r < 4 { r } else { 7 - r }][s % 8];
        s += 1;
    }
    t
};

/// The replies of `player` (the side to move after a move), corners
/// counted twice: the mobility part of every key.
#[inline(always)]
fn replies(player: u64, opponent: u64) -> i32 {
    let legal = moves(player, opponent);
    (legal.count_ones() + (legal & CORNERS).count_ones()) as i32
}

/// The empty squares next to `discs` (one step in any direction).
#[inline(always)]
fn frontier(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let horizontal = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let around = horizontal | discs;
    (horizontal | (around << 8) | (around >> 8)) & empty
}

impl MoveList {
    /// No move yet: fill it with [`MoveList::fill`]. Its array is left
    /// as it was on the stack. (A constant list with the array written
    /// `[MaybeUninit::uninit(); 64]` was compiled to a 1 KiB `memset` at
    /// every node: 1–2 % of a solve's time.)
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            // SAFETY: an array of `MaybeUninit` is valid uninitialised.
            moves: unsafe { MaybeUninit::<[MaybeUninit<Candidate>; 64]>::uninit().assume_init() },
            len: 0,
        }
    }

    /// Sets the list to the moves of `player` in `legal` (its legal
    /// moves), unsorted.
    #[inline(always)]
    pub fn fill(&mut self, player: u64, opponent: u64, mut legal: u64) {
        self.len = 0;
        // At most 64 bits are set: `len` stays within the array.
        while legal != 0 {
            let x = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            self.moves[self.len & 63].write(Candidate {
                square: x as u8,
                flips: flips_at(player, opponent, x),
                key: 0,
            });
            self.len += 1;
        }
    }

    /// How many moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The moves, in their current order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Candidate] {
        let written = &self.moves[..self.len];
        // SAFETY: the first `len` entries were written by `new`, and
        // `MaybeUninit<T>` has the layout of `T`.
        unsafe { &*(written as *const [MaybeUninit<Candidate>] as *const [Candidate]) }
    }

    /// The moves, to set their keys.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate] {
        let written = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`.
        unsafe { &mut *(written as *mut [MaybeUninit<Candidate>] as *mut [Candidate]) }
    }

    /// Gives each move its key (see the module's doc); `best` is the
    /// table's best move, `parity` the quadrants holding an odd number of
    /// empty squares. Returns the positions the evaluation's searches
    /// looked at.
    #[inline(always)]
    pub fn order<K: Kernel>(
        &mut self,
        k: K,
        player: u64,
        opponent: u64,
        best: Option<u8>,
        parity: u8,
        eval: Option<&Weights>,
    ) -> u64 {
        let odd = QUADRANTS[parity as usize];
        let mut probed = 0;
        // The pattern indices of the position, for the children's.
        let features = eval.map(|_| Features::new(player, opponent));
        for m in self.as_mut_slice() {
            let (p, o) = m.next(player, opponent);
            m.key = if Some(m.square) == best {
                1 << 30
            } else if p == 0 {
                1 << 29
            } else {
                let mobility = replies(p, o);
                let empty = !(p | o);
                let potential = frontier(o, empty).count_ones() as i32;
                let mut key = SQUARE_VALUE[m.square as usize];
                if odd & (1 << m.square) != 0 {
                    key += 24;
                }
                key += corner_stability(o) as i32 * 40;
                if let (Some(w), Some(features)) = (eval, &features) {
                    let n = (!(p | o)).count_ones();
                    let depth = if n >= EVAL_DEEP {
                        1 + (n - EVAL_DEEP) / EVAL_STEP
                    } else {
                        0
                    };
                    let next = features.after(usize::from(m.square), m.flips);
                    let guess = k.probe(w, p, o, &next, depth, -1 << 20, 1 << 20, &mut probed);
                    key -= guess * EVAL_WEIGHT / 64;
                }
                key - mobility * MOBILITY - potential * 8
            };
        }
        probed
    }

    /// Keys for the last moves before the leaves, cheap: the table's
    /// best move (`best`) first, then the fewer replies a move leaves the
    /// opponent (corners twice) the better, and among equals a move in a
    /// quadrant with an odd number of empty squares (`parity`).
    #[inline(always)]
    pub fn fastest_first(&mut self, player: u64, opponent: u64, best: Option<u8>, parity: u8) {
        let odd = QUADRANTS[parity as usize];
        for m in self.as_mut_slice() {
            let (p, o) = m.next(player, opponent);
            m.key = if Some(m.square) == best {
                1 << 30
            } else {
                -4 * replies(p, o) + i32::from(odd & (1 << m.square) != 0)
            };
        }
    }

    /// Moves the best of the moves from `i` on to `i` (a selection sort
    /// done as the search goes, since a cut-off often comes first).
    #[inline(always)]
    pub fn bring_best(&mut self, i: usize) {
        let moves = self.as_mut_slice();
        let mut best = i;
        for j in i + 1..moves.len() {
            if moves[j].key > moves[best].key {
                best = j;
            }
        }
        moves.swap(i, best);
    }

    /// The move at `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Candidate {
        self.as_slice()[i]
    }

    /// Takes move `i` out, the last move taking its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        let last = self.get(self.len - 1);
        self.as_mut_slice()[i] = last;
        self.len -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::flips;
    use crate::solve::kernel::Plain;
    use crate::testkit::Rng;
    use crate::Square;

    /// Random positions: random discs, the side to move with a move.
    fn positions(seed: u64, count: usize) -> Vec<(u64, u64)> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let filled = rng.next() | rng.next();
            let player = filled & rng.next();
            let opponent = filled & !player;
            if moves(player, opponent) != 0 {
                out.push((player, opponent));
            }
        }
        out
    }

    #[test]
    fn the_list_holds_every_legal_move_and_its_flips() {
        for (p, o) in positions(1, 2000) {
            let legal = moves(p, o);
            let mut list = MoveList::new();
            list.fill(p, o, legal);
            assert_eq!(list.len(), legal.count_ones() as usize);
            let mut seen = 0;
            for m in list.as_slice() {
                let square = Square::new(m.square).unwrap();
                assert_eq!(m.flips, flips(p, o, square));
                assert_ne!(m.flips, 0);
                seen |= 1 << m.square;
                let (np, no) = m.next(p, o);
                assert_eq!(np, o & !m.flips);
                assert_eq!(no, p | m.flips | 1 << m.square);
            }
            assert_eq!(seen, legal);
        }
    }

    /// The table's move first, then a wipe-out, then by key, largest
    /// first; every move once.
    #[test]
    fn the_table_move_then_a_wipe_out_come_first() {
        let w = Weights::builtin();
        for (i, (p, o)) in positions(2, 500).into_iter().enumerate() {
            let mut list = MoveList::new();
            list.fill(p, o, moves(p, o));
            let squares: Vec<u8> = list.as_slice().iter().map(|m| m.square).collect();
            let hint = (i % 2 == 0).then(|| squares[i % squares.len()]);
            let eval = if i % 3 == 0 { w } else { None };
            list.order(Plain, p, o, hint, 0b0101, eval);
            for j in 0..list.len() {
                list.bring_best(j);
            }
            let sorted = list.as_slice();
            assert!(sorted.windows(2).all(|w| w[0].key >= w[1].key));
            let mut after: Vec<u8> = sorted.iter().map(|m| m.square).collect();
            after.sort_unstable();
            let mut before = squares.clone();
            before.sort_unstable();
            assert_eq!(after, before, "every move once");
            if let Some(h) = hint {
                assert_eq!(sorted[0].square, h);
            }
            let wipe = sorted.iter().position(|m| m.next(p, o).0 == 0);
            if let Some(at) = wipe {
                assert!(at <= usize::from(hint.is_some() && hint != Some(sorted[at].square)));
            }
        }
    }

    /// Fastest first: the table's move first when there is one, then the
    /// moves in order of the opponent's replies (corners twice), fewest
    /// first; among equals, the odd quadrants'.
    #[test]
    fn fastest_first_leaves_the_fewest_replies_first() {
        for (i, (p, o)) in positions(4, 1000).into_iter().enumerate() {
            let parity = (i % 16) as u8;
            let legal = moves(p, o);
            // Every other position has a table move: its last legal move.
            let best = (i % 2 == 1).then(|| 63 - legal.leading_zeros() as u8);
            let mut list = MoveList::new();
            list.fill(p, o, legal);
            list.fastest_first(p, o, best, parity);
            for j in 0..list.len() {
                list.bring_best(j);
            }
            if let Some(b) = best {
                assert_eq!(list.get(0).square, b);
                list.swap_remove(0);
                for j in 0..list.len() {
                    list.bring_best(j);
                }
            }
            let rank = |m: &Candidate| {
                let (np, no) = m.next(p, o);
                let replies = moves(np, no);
                let odd = QUADRANTS[parity as usize] & (1 << m.square) != 0;
                (
                    replies.count_ones() + (replies & CORNERS).count_ones(),
                    !odd,
                )
            };
            let ranks: Vec<_> = list.as_slice().iter().map(rank).collect();
            assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
            // Every legal move once (the table's move taken out above).
            assert_eq!(
                list.len() + usize::from(best.is_some()),
                legal.count_ones() as usize
            );
        }
    }

    /// The evaluation searched by a plain negamax, every leaf read
    /// afresh from the discs.
    fn negamax(w: &Weights, p: u64, o: u64, depth: u32) -> i32 {
        if depth == 0 {
            return w.evaluate(p, o);
        }
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return (p.count_ones() as i32 - o.count_ones() as i32) * crate::eval::SCALE;
            }
            return -negamax(w, o, p, depth - 1);
        }
        (0..64)
            .filter(|x| legal >> x & 1 != 0)
            .map(|x| {
                let f = flips_at(p, o, x);
                -negamax(w, o ^ f, p | f | 1 << x, depth - 1)
            })
            .max()
            .unwrap()
    }

    /// The probe, its pattern indices kept move by move (passes and ends
    /// of game too), finds the value a plain negamax of the evaluation
    /// finds, at every depth up to 3.
    #[test]
    fn the_probe_with_kept_indices_is_the_negamax_of_the_evaluation() {
        let Some(w) = Weights::builtin() else {
            return;
        };
        // Positions of random games from 14 empties on, where passes and
        // ends of game are common, and random boards.
        let mut rng = Rng::new(5);
        let mut boards = positions(6, 100);
        let mut passes = 0;
        while boards.len() < 2000 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                if (p | o).count_ones() >= 50 {
                    boards.push((p, o));
                }
                let legal = moves(p, o);
                if legal == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    passes += 1;
                    (p, o) = (o, p);
                    continue;
                }
                let all: Vec<usize> = (0..64).filter(|x| legal >> x & 1 != 0).collect();
                let x = all[rng.below(all.len())];
                let f = flips_at(p, o, x);
                (p, o) = (o ^ f, p | f | 1 << x);
            }
        }
        assert!(passes > 10, "{passes} passes");
        for (p, o) in boards {
            let f = Features::new(p, o);
            for depth in 0..=3 {
                let mut nodes = 0;
                let v = probe(Plain, w, p, o, &f, depth, -1 << 20, 1 << 20, &mut nodes);
                assert_eq!(v, negamax(w, p, o, depth), "{p:#x} {o:#x} depth {depth}");
            }
        }
    }

    /// The probe is an alpha-beta search: any window gives the value of a
    /// full-window search when it lies inside, a bound on the right side
    /// when not.
    #[test]
    fn the_probe_is_alpha_beta() {
        let Some(w) = Weights::builtin() else {
            return;
        };
        for (p, o) in positions(3, 200) {
            let mut nodes = 0;
            let f = Features::new(p, o);
            let full = probe(Plain, w, p, o, &f, 2, -1 << 20, 1 << 20, &mut nodes);
            assert!(nodes > 0);
            for (alpha, beta) in [(full - 1, full + 1), (full, full + 64), (full - 64, full)] {
                let v = probe(Plain, w, p, o, &f, 2, alpha, beta, &mut nodes);
                if alpha < full && full < beta {
                    assert_eq!(v, full);
                } else if full <= alpha {
                    assert!(v <= alpha);
                } else {
                    assert!(v >= beta);
                }
            }
        }
    }
}
