//! Stable discs: discs no sequence of moves can flip. The other side's
//! stable discs bound the mover's value from above, which cuts a search
//! off when that bound is already at most the window's `alpha`.

use std::sync::LazyLock;

/// Column a and column h.
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;

/// The squares off every edge (b2–g7).
const INNER: u64 = 0x007e_7e7e_7e7e_7e00;

/// `EDGES[mine << 8 | theirs]`: of an edge's eight squares holding `mine`
/// and `theirs`, the discs of `mine` that no sequence of moves on the edge
/// (by either side, filling its empty squares in any order) can flip. An
/// edge disc flips only along its edge, so these are exactly its stable
/// discs. Entries where the two overlap are unused.
pub(super) static EDGES: LazyLock<Box<[u8; 65536]>> = LazyLock::new(|| {
    let mut memo = vec![None; 65536];
    let mut table = Box::new([0u8; 65536]);
    for mine in 0..256usize {
        for theirs in 0..256usize {
            if mine & theirs == 0 {
                table[mine << 8 | theirs] = edge_stable(mine as u8, theirs as u8, &mut memo);
            }
        }
    }
    table
});

/// The discs a move by the owner of `mine` on `x` flips along a line of
/// eight squares.
fn line_flips(mine: u8, theirs: u8, x: u32) -> u8 {
    let mut flips = 0u8;
    for step in [1i32, -1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) && theirs & (1 << i) != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && mine & (1 << i) != 0 {
            flips |= run;
        }
    }
    flips
}

fn edge_stable(mine: u8, theirs: u8, memo: &mut [Option<u8>]) -> u8 {
    let key = usize::from(mine) << 8 | usize::from(theirs);
    if let Some(known) = memo[key] {
        return known;
    }
    let mut stable = mine;
    let empty = !(mine | theirs);
    for x in 0..8 {
        if empty & (1 << x) == 0 {
            continue;
        }
        // Either side may fill the square (a move legal through another
        // line flips nothing here), flipping along the edge if it can.
        let f = line_flips(mine, theirs, x);
        stable &= edge_stable(mine | f | (1 << x), theirs & !f, memo);
        let f = line_flips(theirs, mine, x);
        stable &= edge_stable(mine & !f, theirs | f | (1 << x), memo);
        if stable == 0 {
            break;
        }
    }
    memo[key] = Some(stable);
    stable
}

/// `SPREAD[byte]`: bit `r` of `byte` moved to bit `8 r` (column a).
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        while r < 8 {
            if b & (1 << r) != 0 {
                t[b] |= 1 << (8 * r);
            }
            r += 1;
        }
        b += 1;
    }
    t
};

/// Column `c` of `bits` as a byte, rank 1 in bit 0.
#[inline(always)]
fn column_byte(bits: u64, c: u32) -> usize {
    ((((bits >> c) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as usize
}

/// `OFF[d][j]`: the squares from which 2^j steps in direction `d` leave
/// the board; the directions are (column, row) steps of (1, 1), (−1, −1),
/// (−1, 1) and (1, −1).
const OFF: [[u64; 3]; 4] = {
    const STEPS: [(i32, i32); 4] = [(1, 1), (-1, -1), (-1, 1), (1, -1)];
    let mut t = [[0u64; 3]; 4];
    let mut d = 0;
    while d < 4 {
        let mut j = 0;
        while j < 3 {
            let k = 1 << j;
            let mut s = 0;
            while s < 64 {
                let c = s % 8 + k * STEPS[d].0;
                let r = s / 8 + k * STEPS[d].1;
                if c < 0 || c > 7 || r < 0 || r > 7 {
                    t[d][j] |= 1 << s;
                }
                s += 1;
            }
            j += 1;
        }
        d += 1;
    }
    t
};

/// The squares of `filled` whose whole line in one diagonal direction is
/// filled: `shift` is a step's index distance (9 or 7), `up` and `down`
/// the [`OFF`] masks of the steps towards higher and lower indices. Each
/// square learns, in three doubling steps, that the next 1, 2–3 and 4–7
/// squares towards each end are filled or off the board.
#[inline(always)]
fn full_along(filled: u64, shift: u32, up: &[u64; 3], down: &[u64; 3]) -> u64 {
    let mut higher = filled;
    higher &= (higher >> shift) | up[0];
    higher &= (higher >> (2 * shift)) | up[1];
    higher &= (higher >> (4 * shift)) | up[2];
    let mut lower = filled;
    lower &= (lower << shift) | down[0];
    lower &= (lower << (2 * shift)) | down[1];
    lower &= (lower << (4 * shift)) | down[2];
    higher & lower
}

/// The squares on full lines, one mask a direction: rows, columns, and
/// the two diagonal directions.
#[inline(always)]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut x = filled;
    x &= x >> 1;
    x &= x >> 2;
    x &= x >> 4;
    let rows = (x & COLUMN_A).wrapping_mul(0xff);
    let mut y = filled;
    y &= y >> 8;
    y &= y >> 16;
    y &= y >> 32;
    let columns = (y & 0xff).wrapping_mul(COLUMN_A);
    let d1 = full_along(filled, 9, &OFF[0], &OFF[1]);
    let d2 = full_along(filled, 7, &OFF[2], &OFF[3]);
    [rows, columns, d1, d2]
}

/// The stable discs of `mine` (against `theirs`), as far as edges, full
/// lines and stable neighbours prove: every disc returned is stable (some
/// stable discs may be missed).
#[inline(always)]
pub(super) fn stable_discs(edges: &[u8; 65536], mine: u64, theirs: u64) -> u64 {
    let edge = |m: usize, t: usize| u64::from(edges[(m & 0xff) << 8 | (t & 0xff)]);
    let mut stable = edge(mine as usize, theirs as usize)
        | edge((mine >> 56) as usize, (theirs >> 56) as usize) << 56
        | SPREAD[edges[column_byte(mine, 0) << 8 | column_byte(theirs, 0)] as usize]
        | SPREAD[edges[column_byte(mine, 7) << 8 | column_byte(theirs, 7)] as usize] << 7;
    let [rows, columns, d1, d2] = full_lines(mine | theirs);
    let inner = mine & INNER;
    stable |= inner & rows & columns & d1 & d2;
    if stable == 0 {
        return 0;
    }
    // A disc is stable along a line when the line is full or a neighbour
    // on it is a stable disc of the same side: a flip along the line would
    // flip that neighbour too.
    loop {
        let horizontal = rows | ((stable << 1) & !COLUMN_A) | ((stable >> 1) & !COLUMN_H);
        let vertical = columns | (stable << 8) | (stable >> 8);
        let diagonal = d1 | ((stable << 9) & !COLUMN_A) | ((stable >> 9) & !COLUMN_H);
        let anti = d2 | ((stable << 7) & !COLUMN_H) | ((stable >> 7) & !COLUMN_A);
        let more = stable | (inner & horizontal & vertical & diagonal & anti);
        if more == stable {
            return stable;
        }
        stable = more;
    }
}

/// The corners of `mine` and the edge squares next to those corners that
/// `mine` holds: a quick count of sure discs for move ordering.
#[inline(always)]
pub(super) fn corner_stability(mine: u64) -> u32 {
    let corners = mine & 0x8100_0000_0000_0081;
    let next = ((corners & 0x0100_0000_0000_0001) << 1)
        | ((corners & 0x8000_0000_0000_0080) >> 1)
        | ((corners & 0x0000_0000_0000_0081) << 8)
        | ((corners & 0x8100_0000_0000_0000) >> 8);
    (corners | (next & mine)).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::{flips, moves};
    use crate::testkit::Rng;
    use crate::Square;

    /// Every position reachable in `depth` plies (passes included): the
    /// discs of `mine` that are still `mine` in all of them.
    fn never_flipped(mine: u64, theirs: u64, depth: u32, mover_is_mine: bool) -> u64 {
        if depth == 0 {
            return mine;
        }
        let (p, o) = if mover_is_mine {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        let mut m = moves(p, o);
        let mut kept = mine;
        if m == 0 {
            if moves(o, p) == 0 {
                return mine;
            }
            return never_flipped(mine, theirs, depth - 1, !mover_is_mine);
        }
        while m != 0 {
            let x = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, Square::new(x as u8).unwrap());
            let (np, no) = (p | f | (1 << x), o & !f);
            let (nm, nt) = if mover_is_mine { (np, no) } else { (no, np) };
            kept &= never_flipped(nm, nt, depth - 1, !mover_is_mine);
        }
        kept
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = Rng::new(11);
        let mut found = 0;
        for _ in 0..300 {
            // Nearly full boards, so that the game tree is small.
            let empty_count = 3 + rng.next() % 4;
            let mut empty = 0u64;
            while empty.count_ones() < empty_count as u32 {
                empty |= 1 << (rng.next() % 64);
            }
            let mine = rng.next() & !empty;
            let theirs = !mine & !empty;
            let stable = stable_discs(&EDGES, mine, theirs);
            assert_eq!(stable & !mine, 0);
            found += stable.count_ones();
            for first in [true, false] {
                let kept = never_flipped(mine, theirs, 8, first);
                assert_eq!(stable & !kept, 0, "mine {mine:#x} theirs {theirs:#x}");
            }
        }
        assert!(found > 1000, "only {found} stable discs found");
    }

    #[test]
    fn full_diagonals_by_doubling_match_the_diagonals_one_by_one() {
        let mut rng = Rng::new(21);
        for i in 0..3_000 {
            // Dense boards, where diagonals are often full.
            let filled = match i % 3 {
                0 => !(rng.next() & rng.next() & rng.next()),
                1 => !(rng.next() & rng.next() & rng.next() & rng.next() & rng.next()),
                _ => rng.next() | rng.next(),
            };
            let [_, _, d1, d2] = full_lines(filled);
            let (mut e1, mut e2) = (0, 0);
            for s in 0..64 {
                let (c, r) = (s % 8, s / 8);
                let on = |f: &dyn Fn(i32, i32) -> bool| {
                    (0..64)
                        .filter(|&t| f(t % 8, t / 8))
                        .all(|t| filled >> t & 1 == 1)
                };
                if on(&|tc, tr| tc - tr == c - r) {
                    e1 |= 1u64 << s;
                }
                if on(&|tc, tr| tc + tr == c + r) {
                    e2 |= 1u64 << s;
                }
            }
            assert_eq!((d1, d2), (e1, e2), "{filled:#x}");
        }
    }

    #[test]
    fn a_full_board_is_stable() {
        let mine = 0x1234_5678_9abc_def0;
        assert_eq!(stable_discs(&EDGES, mine, !mine), mine);
    }

    #[test]
    fn edges() {
        // A corner is always stable; a lone disc beside an empty corner is not.
        assert_eq!(EDGES[0b0000_0001 << 8], 1);
        assert_eq!(EDGES[0b0000_0010 << 8], 0);
        // x x x o - … : the corner run of mine is stable.
        assert_eq!(EDGES[0b0000_0111 << 8 | 0b0000_1000], 0b111);
        assert_eq!(corner_stability(0x0000_0000_0000_0103), 3);
    }
}
