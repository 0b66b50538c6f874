//! Squares of the 8×8 board and the eight symmetries of the square.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares, `a1` (top left) to `h8` (bottom right).
///
/// Columns `a`–`h` run left to right and rows `1`–`8` top to bottom, so the
/// index is `8 * row + column` with both counted from zero: `a1` is 0, `h1`
/// is 7, `a8` is 56.
///
/// ```
/// use kifu::Square;
/// let f5: Square = "F5".parse()?;
/// assert_eq!(f5.to_string(), "f5");
/// assert_eq!((f5.column(), f5.row()), (5, 4));
/// # Ok::<(), kifu::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Each square's name, by index: one load where writers name squares.
const NAMES: [[u8; 2]; 64] = {
    let mut names = [[0; 2]; 64];
    let mut i = 0;
    while i < 64 {
        names[i] = [b'a' + (i % 8) as u8, b'1' + (i / 8) as u8];
        i += 1;
    }
    names
};

impl Square {
    /// The square with this index (0–63), or `None` past the board.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at zero-based `column` (a = 0) and `row` (1 = 0).
    #[must_use]
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// The square of index `index % 64`: a constructor with nothing to
    /// check, for loops that check their input another way.
    #[inline(always)]
    pub(crate) const fn from_index_wrapping(index: u8) -> Square {
        Square(index & 63)
    }

    /// Index 0–63 (`8 * row + column`).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based column: `a` = 0 … `h` = 7.
    #[must_use]
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// Zero-based row: `1` = 0 … `8` = 7.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit mask of this square.
    #[must_use]
    pub const fn mask(self) -> u64 {
        1u64 << self.0
    }

    /// Parses a two-byte square name in either case (`f5`, `F5`).
    #[must_use]
    pub const fn from_ascii(name: &[u8]) -> Option<Square> {
        if name.len() != 2 {
            return None;
        }
        let column = name[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = name[1].wrapping_sub(b'1');
        Square::from_coords(column, row)
    }

    /// The lowercase name as two ASCII bytes.
    #[must_use]
    pub const fn to_ascii(self) -> [u8; 2] {
        NAMES[self.index() & 63]
    }

    /// All 64 squares in index order.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0u8..64).map(Square)
    }

    /// The image of this square under a symmetry of the board.
    #[must_use]
    pub const fn transform(self, symmetry: Symmetry) -> Square {
        let (c, r) = (self.column(), self.row());
        let (c, r) = match symmetry {
            Symmetry::Identity => (c, r),
            Symmetry::Rotate90 => (7 - r, c),
            Symmetry::Rotate180 => (7 - c, 7 - r),
            Symmetry::Rotate270 => (r, 7 - c),
            Symmetry::FlipVertical => (7 - c, r),
            Symmetry::FlipHorizontal => (c, 7 - r),
            Symmetry::FlipDiagonal => (r, c),
            Symmetry::FlipAntiDiagonal => (7 - r, 7 - c),
        };
        Square(r * 8 + c)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [c, r] = self.to_ascii();
        write!(f, "{}{}", c as char, r as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not a square name such as `f5`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

/// The eight symmetries of the square board.
///
/// Every symmetry maps the standard start position to itself or to its
/// colour-swapped twin; the four that keep it (identity, 180° rotation and
/// the two diagonal reflections) map the opening move f5 to f5, c4, e6 and
/// d3.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn anticlockwise.
    Rotate270,
    /// Mirror left–right (column a ↔ h).
    FlipVertical,
    /// Mirror top–bottom (row 1 ↔ 8).
    FlipHorizontal,
    /// Mirror on the a1–h8 diagonal (column ↔ row).
    FlipDiagonal,
    /// Mirror on the h1–a8 diagonal.
    FlipAntiDiagonal,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ];

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Maps every square of a bitboard, with a few shifts and masks rather
    /// than a loop over the squares.
    #[must_use]
    pub const fn apply(self, bits: u64) -> u64 {
        transform_bits(bits, self)
    }
}

// Whole-bitboard symmetries: the row reflection is a byte swap, the
// column reflection reverses the bits of every byte and the diagonal
// reflection is three delta swaps; the other five are compositions.

/// Mirrors left–right: column a ↔ h ([`Symmetry::FlipVertical`]).
#[inline]
#[must_use]
pub(crate) const fn mirror_columns(bits: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((bits >> 1) & K1) | ((bits & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirrors top–bottom: row 1 ↔ 8 ([`Symmetry::FlipHorizontal`]).
#[inline]
#[must_use]
pub(crate) const fn flip_rows(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// Mirrors on the a1–h8 diagonal, column ↔ row
/// ([`Symmetry::FlipDiagonal`]).
#[inline]
#[must_use]
pub(crate) const fn transpose(bits: u64) -> u64 {
    // Swap the off-diagonal 4×4 blocks, then the 2×2 blocks, then single
    // squares: each step exchanges the bits under its mask with those
    // 28, 14 or 7 places away.
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut x = bits;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The image of every square of `bits` under `symmetry`, as
/// [`Square::transform`] maps each one.
#[inline]
#[must_use]
pub(crate) const fn transform_bits(bits: u64, symmetry: Symmetry) -> u64 {
    match symmetry {
        Symmetry::Identity => bits,
        Symmetry::Rotate90 => mirror_columns(transpose(bits)),
        Symmetry::Rotate180 => mirror_columns(bits).swap_bytes(),
        Symmetry::Rotate270 => flip_rows(transpose(bits)),
        Symmetry::FlipVertical => mirror_columns(bits),
        Symmetry::FlipHorizontal => flip_rows(bits),
        Symmetry::FlipDiagonal => transpose(bits),
        Symmetry::FlipAntiDiagonal => mirror_columns(transpose(bits)).swap_bytes(),
    }
}

/// The images of `bits` under all eight symmetries, in the order of
/// [`Symmetry::ALL`]. One transpose and two mirrors serve all eight.
#[inline]
#[must_use]
pub(crate) const fn images(bits: u64) -> [u64; 8] {
    let t = transpose(bits);
    let m = mirror_columns(bits);
    let mt = mirror_columns(t);
    [
        bits,
        mt,
        m.swap_bytes(),
        t.swap_bytes(),
        m,
        bits.swap_bytes(),
        t,
        mt.swap_bytes(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_either_case() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>().unwrap(), sq);
            assert_eq!(name.to_uppercase().parse::<Square>().unwrap(), sq);
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a8".parse::<Square>().unwrap().index(), 56);
    }

    #[test]
    fn rejects_names_off_the_board() {
        for bad in ["i9", "z0", "f55", "ff", "a0", "a9", "", "5f", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn symmetries_map_f5_to_the_four_openings() {
        let f5: Square = "f5".parse().unwrap();
        let images: Vec<String> = [
            Symmetry::Identity,
            Symmetry::Rotate180,
            Symmetry::FlipDiagonal,
            Symmetry::FlipAntiDiagonal,
        ]
        .iter()
        .map(|s| f5.transform(*s).to_string())
        .collect();
        assert_eq!(images, ["f5", "c4", "e6", "d3"]);
    }

    #[test]
    fn inverse_undoes_every_symmetry() {
        for s in Symmetry::ALL {
            for sq in Square::all() {
                assert_eq!(sq.transform(s).transform(s.inverse()), sq, "{s:?}");
            }
        }
    }
}
