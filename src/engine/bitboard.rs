//! A set of squares in one `u64`: bit `i` is the square with index `i`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use crate::Square;

/// A set of squares, one bit per square (`a1` = bit 0, `h8` = bit 63).
///
/// ```
/// use kifu::{Bitboard, Square};
/// let corners = Bitboard::CORNERS;
/// assert_eq!(corners.count(), 4);
/// assert!(corners.contains("h8".parse::<Square>()?));
/// assert_eq!(corners.into_iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["a1", "h1", "a8", "h8"]);
/// # Ok::<(), kifu::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(u64::MAX);
    /// a1, h1, a8 and h8.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// Whether the set holds no square.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `square` is in the set.
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.mask() != 0
    }

    /// The set with `square` added.
    #[must_use]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | square.mask())
    }

    /// The lowest-index square, if any.
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(self.0.trailing_zeros() as u8)
        }
    }
}

impl From<Square> for Bitboard {
    fn from(square: Square) -> Bitboard {
        Bitboard(square.mask())
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterates over the squares of a set in index order.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::new(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as an 8×8 grid, `a1` top left.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for row in 0..8 {
            for column in 0..8 {
                let bit = 1u64 << (row * 8 + column);
                f.write_str(if self.0 & bit != 0 { " x" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_index_order_and_counts() {
        let set: Bitboard = ["h8", "a1", "e4"]
            .iter()
            .map(|s| s.parse::<Square>().unwrap())
            .collect();
        let names: Vec<String> = set.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "e4", "h8"]);
        assert_eq!(set.count(), 3);
        assert_eq!(set.into_iter().len(), 3);
        assert_eq!(set.first().unwrap().to_string(), "a1");
        assert_eq!(Bitboard::EMPTY.first(), None);
    }

    #[test]
    fn debug_draws_the_grid() {
        let text = format!("{:?}", Bitboard(1 | 1 << 63));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], " x . . . . . . .");
        assert_eq!(lines[8], " . . . . . . . x");
    }
}
