//! Square tables the search shares: neighbours, quadrants, lines.

/// `NEIGHBOURS[s]`: the up to eight squares next to `s`. A move on `s`
/// can only flip if one of them holds an opponent disc.
pub(super) const NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (c, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    m |= 1 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        t[s] = m;
        s += 1;
    }
    t
};

/// The quadrant of each square as one bit of a 4-bit parity word:
/// a1–d4 1, e1–h4 2, a5–d8 4, e5–h8 8.
pub(super) const QUADRANT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = 1 << ((s % 8 >= 4) as u8 + 2 * (s / 8 >= 4) as u8);
        s += 1;
    }
    t
};

/// `QUADRANTS[parity]`: the squares of the quadrants whose bit is set.
pub(super) const QUADRANTS: [u64; 16] = {
    const Q: [u64; 4] = [
        0x0000_0000_0f0f_0f0f,
        0x0000_0000_f0f0_f0f0,
        0x0f0f_0f0f_0000_0000,
        0xf0f0_f0f0_0000_0000,
    ];
    let mut t = [0u64; 16];
    let mut p = 0;
    while p < 16 {
        let mut q = 0;
        while q < 4 {
            if p & (1 << q) != 0 {
                t[p] |= Q[q];
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// The parity word of a set of empty squares: a quadrant's bit is set
/// when it holds an odd number of them.
#[inline(always)]
pub(super) fn parity(empty: u64) -> u8 {
    let mut parity = 0;
    let mut e = empty;
    while e != 0 {
        parity ^= QUADRANT[e.trailing_zeros() as usize];
        e &= e - 1;
    }
    parity
}

/// The four corners.
pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_cover_the_board_once() {
        assert_eq!(QUADRANTS[15], u64::MAX);
        for (s, &q) in QUADRANT.iter().enumerate() {
            assert_eq!(QUADRANTS[q as usize] & (1 << s), 1 << s);
            assert_eq!(q.count_ones(), 1);
        }
        assert_eq!(parity(u64::MAX), 0);
        assert_eq!(parity(1), 1);
        assert_eq!(parity(1 << 63), 8);
    }

    #[test]
    fn neighbours_count() {
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[1].count_ones(), 5);
        assert_eq!(NEIGHBOURS[9].count_ones(), 8);
        assert_eq!(NEIGHBOURS[63], (1 << 62) | (1 << 55) | (1 << 54));
    }
}
