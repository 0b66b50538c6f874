//! The last four empty squares: no move list, no table, no sorting beyond
//! the quadrants' parity; the last move's score from its flip count alone.
//!
//! Every function here is a null-window search: it takes `alpha` (the
//! window is `alpha, alpha + 1`) and returns the exact value, or a bound on
//! the side of the window it fails to (at most `alpha` when failing low, more
//! than `alpha` when failing high). Values are from the side to move's
//! view: its discs minus the other side's at the end, empties to the
//! winner (always even).

use super::geometry::{NEIGHBOURS, QUADRANT};
use super::kernel::Kernel;
use crate::engine::board::flips_at;

/// `FLIP_COUNT[pos << 8 | line]`: the discs a move on `pos` of a full
/// line of eight squares flips, where `line`'s set bits are the mover's
/// discs and its clear bits the other side's (`pos` itself ignored).
/// Running off the end of the line flips nothing in that direction.
static FLIP_COUNT: [u8; 8 * 256] = {
    let mut t = [0u8; 8 * 256];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher bits.
            let mut i = pos + 1;
            while i < 8 && line & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - pos - 1;
            }
            // Towards lower bits.
            let mut i = pos as i32 - 1;
            while i >= 0 && line & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += pos - i as usize - 1;
            }
            t[pos << 8 | line] = count as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// For each square, the two diagonals through it (a1–h8 direction and
/// h1–a8 direction). Bytes of a diagonal's discs summed (a multiplication
/// by `0x0101…01`) give its squares by column, each at its own bit, since
/// a diagonal holds one square a column.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut s = 0;
    while s < 64 {
        let (c, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (oc, or) = (other % 8, other / 8);
            if oc - or == c - r {
                t[s][0] |= 1 << other;
            }
            if oc + or == c + r {
                t[s][1] |= 1 << other;
            }
            other += 1;
        }
        s += 1;
    }
    t
};

/// The column `c` of `bits` as a byte, rank 1 in bit 0.
#[inline(always)]
fn column_byte(bits: u64, c: usize) -> usize {
    // The eight bits sit 8 apart; the multiplier moves the bit of rank r
    // to bit 56 + r, and no two products overlap (no carries).
    ((((bits >> c) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as usize
}

/// The discs that the side owning `player` flips by playing on `x`, the
/// board's one empty square: every other square is the other side's.
#[inline(always)]
pub(super) fn count_last_flips(player: u64, x: usize) -> i32 {
    let (c, r) = (x & 7, x >> 3);
    let row = ((player >> (r * 8)) & 0xff) as usize;
    let column = column_byte(player, c);
    let diagonals = &DIAGONALS[x];
    let d1 = ((player & diagonals[0]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    let d2 = ((player & diagonals[1]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    i32::from(FLIP_COUNT[c << 8 | row])
        + i32::from(FLIP_COUNT[r << 8 | column])
        + i32::from(FLIP_COUNT[c << 8 | d1])
        + i32::from(FLIP_COUNT[c << 8 | d2])
}

/// The value of a finished game for the side owning `player`, with
/// `empties` squares left empty.
#[inline(always)]
pub(super) fn final_value(player: u64, empties: i32) -> i32 {
    let diff = 2 * player.count_ones() as i32 + empties - 64;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// One empty square `x`: the side owning `player` moves there if it can,
/// else the other side does, else the game ends.
#[inline(always)]
pub(super) fn solve_1(player: u64, alpha: i32, x: usize) -> i32 {
    let discs = player.count_ones() as i32;
    let flipped = count_last_flips(player, x);
    if flipped != 0 {
        return 2 * (discs + flipped) - 62;
    }
    // The mover passes. If it is behind, the game ending now (the empty
    // square to the other side) is the best it can get; if it is ahead,
    // the game ending is what it gets when the other side cannot move
    // either, and less when it can.
    let ended = if 2 * discs > 63 {
        2 * discs - 62
    } else {
        2 * discs - 64
    };
    if ended <= alpha {
        // A move by the other side only lowers the value: already a fail low.
        return ended;
    }
    let other = !(player | (1u64 << x));
    let flipped = count_last_flips(other, x);
    if flipped != 0 {
        2 * (discs - flipped) - 64
    } else {
        ended
    }
}

/// A legal move of `player` on `x`: the discs it flips, if any.
#[inline(always)]
fn try_move(player: u64, opponent: u64, x: usize) -> u64 {
    if NEIGHBOURS[x] & opponent == 0 {
        0
    } else {
        flips_at(player, opponent, x)
    }
}

/// Two empty squares.
#[inline(always)]
pub(super) fn solve_2(
    player: u64,
    opponent: u64,
    alpha: i32,
    x1: usize,
    x2: usize,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let beta = alpha + 1;
    let f = try_move(player, opponent, x1);
    if f != 0 {
        *nodes += 1;
        let best = -solve_1(opponent ^ f, -beta, x2);
        if best > alpha {
            return best;
        }
        let f = try_move(player, opponent, x2);
        if f != 0 {
            *nodes += 1;
            return best.max(-solve_1(opponent ^ f, -beta, x1));
        }
        return best;
    }
    let f = try_move(player, opponent, x2);
    if f != 0 {
        *nodes += 1;
        return -solve_1(opponent ^ f, -beta, x1);
    }
    // The mover passes: the other side moves, then the mover has the last
    // square. Values stay from the mover's view (the other side minimises).
    let f = try_move(opponent, player, x1);
    if f != 0 {
        *nodes += 1;
        let worst = solve_1(player ^ f, alpha, x2);
        if worst <= alpha {
            return worst;
        }
        let f = try_move(opponent, player, x2);
        if f != 0 {
            *nodes += 1;
            return worst.min(solve_1(player ^ f, alpha, x1));
        }
        return worst;
    }
    let f = try_move(opponent, player, x2);
    if f != 0 {
        *nodes += 1;
        return solve_1(player ^ f, alpha, x1);
    }
    final_value(player, 2)
}

/// Three empty squares, those alone in their quadrant tried first.
#[inline(always)]
pub(super) fn solve_3(
    nodes: &mut u64,
    player: u64,
    opponent: u64,
    alpha: i32,
    squares: [usize; 3],
) -> i32 {
    *nodes += 1;
    let beta = alpha + 1;
    let [a, b, c] = squares;
    let order = [(a, b, c), (b, a, c), (c, a, b)];
    let mut best = i32::MIN;
    for (x, y, z) in order {
        let f = try_move(player, opponent, x);
        if f != 0 {
            let v = -solve_2(opponent ^ f, player | f | (1 << x), -beta, y, z, nodes);
            if v > best {
                if v > alpha {
                    return v;
                }
                best = v;
            }
        }
    }
    if best != i32::MIN {
        return best;
    }
    let mut worst = i32::MAX;
    for (x, y, z) in order {
        let f = try_move(opponent, player, x);
        if f != 0 {
            let v = solve_2(player ^ f, opponent | f | (1 << x), alpha, y, z, nodes);
            if v < worst {
                if v <= alpha {
                    return v;
                }
                worst = v;
            }
        }
    }
    if worst != i32::MAX {
        return worst;
    }
    final_value(player, 3)
}

/// Four empty squares, those in quadrants with an odd number of empties
/// tried first.
#[inline(always)]
pub(super) fn solve_4<K: Kernel>(
    k: K,
    nodes: &mut u64,
    player: u64,
    opponent: u64,
    alpha: i32,
    squares: [usize; 4],
) -> i32 {
    *nodes += 1;
    let beta = alpha + 1;
    let [a, b, c, d] = squares;
    let order = [
        (a, [b, c, d]),
        (b, [a, c, d]),
        (c, [a, b, d]),
        (d, [a, b, c]),
    ];
    let mut best = i32::MIN;
    for (x, rest) in order {
        let f = try_move(player, opponent, x);
        if f != 0 {
            let v = -k.solve_3(
                nodes,
                opponent ^ f,
                player | f | (1 << x),
                -beta,
                sort_3(rest),
            );
            if v > best {
                if v > alpha {
                    return v;
                }
                best = v;
            }
        }
    }
    if best != i32::MIN {
        return best;
    }
    let mut worst = i32::MAX;
    for (x, rest) in order {
        let f = try_move(opponent, player, x);
        if f != 0 {
            let v = k.solve_3(
                nodes,
                player ^ f,
                opponent | f | (1 << x),
                alpha,
                sort_3(rest),
            );
            if v < worst {
                if v <= alpha {
                    return v;
                }
                worst = v;
            }
        }
    }
    if worst != i32::MAX {
        return worst;
    }
    final_value(player, 4)
}

/// Three squares with one alone in its quadrant first (of three, one is
/// alone unless all share a quadrant or none does).
#[inline(always)]
fn sort_3([a, b, c]: [usize; 3]) -> [usize; 3] {
    let (qa, qb, qc) = (QUADRANT[a], QUADRANT[b], QUADRANT[c]);
    if qa == qb && qa != qc {
        [c, a, b]
    } else if qa == qc && qa != qb {
        [b, a, c]
    } else {
        [a, b, c]
    }
}

/// Four empty squares in search order: those in a quadrant with an odd
/// number of the four first.
#[inline(always)]
pub(super) fn sort_4(empty: u64) -> [usize; 4] {
    let mut e = empty;
    let mut squares = [0usize; 4];
    for s in &mut squares {
        *s = e.trailing_zeros() as usize;
        e &= e.wrapping_sub(1);
    }
    let parity = squares.iter().fold(0u8, |p, &s| p ^ QUADRANT[s]);
    let mut out = [0usize; 4];
    let mut n = 0;
    for &s in &squares {
        if parity & QUADRANT[s] != 0 {
            out[n] = s;
            n += 1;
        }
    }
    for &s in &squares {
        if parity & QUADRANT[s] == 0 {
            out[n] = s;
            n += 1;
        }
    }
    out
}

/// Three empty squares in search order.
#[inline(always)]
pub(super) fn squares_3(empty: u64) -> [usize; 3] {
    let a = empty.trailing_zeros() as usize;
    let e = empty & empty.wrapping_sub(1);
    let b = e.trailing_zeros() as usize;
    let e = e & e.wrapping_sub(1);
    sort_3([a, b, e.trailing_zeros() as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::{flips, moves};
    use crate::testkit::Rng;
    use crate::Square;

    #[test]
    fn last_flip_count_is_the_flips_of_a_full_board() {
        let mut rng = Rng::new(7);
        for _ in 0..20_000 {
            let x = (rng.next() % 64) as usize;
            let player = rng.next() & !(1 << x);
            let opponent = !player & !(1 << x);
            let square = Square::new(x as u8).unwrap();
            assert_eq!(
                count_last_flips(player, x),
                flips(player, opponent, square).count_ones() as i32,
                "square {square}, player {player:#x}"
            );
        }
    }

    #[test]
    fn one_square_left() {
        let mut rng = Rng::new(8);
        for _ in 0..20_000 {
            let x = (rng.next() % 64) as usize;
            let player = rng.next() & !(1 << x);
            let opponent = !player & !(1 << x);
            let square = Square::new(x as u8).unwrap();
            let mine = flips(player, opponent, square);
            let theirs = flips(opponent, player, square);
            let expected = if mine != 0 {
                final_value(player | mine | (1 << x), 0)
            } else if theirs != 0 {
                final_value(player ^ theirs, 0)
            } else {
                assert_eq!(moves(player, opponent) | moves(opponent, player), 0);
                final_value(player, 1)
            };
            for alpha in [-65, expected - 1, expected, 64] {
                let got = solve_1(player, alpha, x);
                if alpha < expected {
                    assert!(got > alpha, "fail high expected");
                }
                if got > alpha && got < alpha + 1 {
                    assert_eq!(got, expected);
                }
                if alpha == -65 {
                    assert_eq!(got, expected);
                }
                if got <= alpha {
                    assert!(expected <= got);
                }
            }
        }
    }

    #[test]
    fn final_values() {
        assert_eq!(final_value(u64::MAX, 0), 64);
        assert_eq!(final_value(0, 0), -64);
        assert_eq!(final_value(0xffff_ffff, 0), 0);
        // 30 discs to 31, 3 empties: behind by one, the empties to the winner.
        assert_eq!(final_value((1 << 30) - 1, 3), -4);
    }
}
