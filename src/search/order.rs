//! Move ordering: the move most likely to be best first, so that the
//! null-window searches after it fail low at once.
//!
//! The table's move (from the last iteration, or a search of another
//! depth) comes first. The others are keyed by what a shallower search
//! thinks of them — the evaluation of the position after the move, or a
//! search one or two moves deep there when much depth is left — and by the
//! replies they leave the opponent (fewer is better: mobility is most of
//! Othello's midgame). The order changes only the time a search takes,
//! never its value.

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

/// The legal moves of a position (no position has more than 33 legal
/// moves; the list holds 40).
pub(super) struct MoveList {
    moves: [Candidate; 40],
    len: usize,
}

/// Static square values: corners good, the squares next to a corner bad,
/// edges fair.
const SQUARE_VALUE: [i32; 64] = {
    const ROW: [[i32; 8]; 4] = [
        [20, -6, 8, 6, 6, 8, -6, 20],
        [-6, -12, -2, -2, -2, -2, -12, -6],
        [8, -2, 2, 1, 1, 2, -2, 8],
        [6, -2, 1, 0, 0, 1, -2, 6],
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

/// Corners, counted twice in the opponent's mobility.
const CORNERS: u64 = 0x8100_0000_0000_0081;

impl MoveList {
    /// The moves of `player` in `legal` (its legal moves), unsorted.
    #[inline(always)]
    pub fn new(player: u64, opponent: u64, mut legal: u64) -> MoveList {
        let mut list = MoveList {
            moves: [Candidate::default(); 40],
            len: 0,
        };
        // No position has more than 33 legal moves, so every move fits;
        // the test keeps the indexing in bounds regardless.
        while legal != 0 {
            let x = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            if list.len < list.moves.len() {
                list.moves[list.len] = Candidate {
                    square: x as u8,
                    flips: flips_at(player, opponent, x),
                    key: 0,
                };
                list.len += 1;
            }
        }
        list
    }

    /// How many moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The moves, in their current order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Candidate] {
        &self.moves[..self.len]
    }

    /// The moves, to set their keys.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate] {
        &mut self.moves[..self.len]
    }

    /// Keys by the opponent's replies and the square alone (cheap: for
    /// nodes with little depth left).
    #[inline(always)]
    pub fn key_by_mobility(&mut self, player: u64, opponent: u64, best: Option<u8>) {
        for m in self.as_mut_slice() {
            let (p, o) = m.next(player, opponent);
            m.key = if Some(m.square) == best {
                1 << 30
            } else {
                let replies = moves(p, o);
                let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                SQUARE_VALUE[m.square as usize] - mobility * 16
            };
        }
    }

    /// Keys by a guess of each move's value, `guess(m, p, o)` being the
    /// value of the position after move `m` from the opponent's side
    /// (1/64 disc), and the opponent's replies.
    #[inline(always)]
    pub fn key_by_value(
        &mut self,
        player: u64,
        opponent: u64,
        best: Option<u8>,
        mut guess: impl FnMut(&Candidate, u64, u64) -> i32,
    ) {
        for m in self.as_mut_slice() {
            let (p, o) = m.next(player, opponent);
            m.key = if Some(m.square) == best {
                1 << 30
            } else {
                let replies = moves(p, o);
                let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                -guess(m, p, o) - mobility * MOBILITY
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

    /// Sorts every move, best first (stable: ties keep square order).
    pub fn sort(&mut self) {
        self.as_mut_slice()
            .sort_by_key(|m| std::cmp::Reverse(m.key));
    }
}

/// A key's weight of each reply a move leaves the opponent, beside its
/// guessed value in 1/64 disc.
const MOBILITY: i32 = 24;
