//! The eight symmetries on whole boards: fast bitboard transforms, the
//! images of a position and its canonical key.
//!
//! A symmetry maps square `(column, row)` as [`Square::transform`] says.
//! On a bitboard (`a1` = bit 0, `h1` = bit 7, `a8` = bit 56) the row
//! reflection is a byte swap, the column reflection reverses the bits of
//! every byte and the diagonal reflection is three delta swaps; the
//! other five are compositions of those.

use crate::engine::square::images;
use crate::{Color, Position, Square, Symmetry};

impl Position {
    /// The position under a symmetry: the discs move, the side to move
    /// stays.
    ///
    /// ```
    /// use kifu::{Position, Symmetry};
    /// let mut pos = Position::start();
    /// pos.play("f5".parse()?).unwrap();
    /// let mut turned = Position::start();
    /// turned.play("c4".parse()?).unwrap();
    /// assert_eq!(pos.transform(Symmetry::Rotate180), turned);
    /// # Ok::<(), kifu::ParseSquareError>(())
    /// ```
    #[must_use]
    pub fn transform(&self, symmetry: Symmetry) -> Position {
        Position::new(self.board().transform(symmetry), self.side_to_move())
    }

    /// The key of the position's class under the eight symmetries: equal
    /// for two positions exactly when one is an image of the other with
    /// the same side to move. See [`CanonicalKey`].
    #[inline]
    #[must_use]
    pub fn canonical_key(&self) -> CanonicalKey {
        self.canonical().0
    }

    /// The canonical key and the symmetry that maps this position to its
    /// canonical image (the first in [`Symmetry::ALL`] order when several
    /// do, so [`Symmetry::Identity`] when the position is its own
    /// canonical image).
    ///
    /// ```
    /// use kifu::{Position, Symmetry};
    /// let mut a = Position::start();
    /// a.play("f5".parse()?).unwrap();
    /// let mut b = Position::start();
    /// b.play("d3".parse()?).unwrap();
    /// let (key_a, to_a) = a.canonical();
    /// let (key_b, to_b) = b.canonical();
    /// assert_eq!(key_a, key_b);
    /// assert_eq!(a.transform(to_a), b.transform(to_b));
    /// # Ok::<(), kifu::ParseSquareError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn canonical(&self) -> (CanonicalKey, Symmetry) {
        let (x, y) = encode(self);
        let (xs, ys) = (images(x), images(y));
        let mut best = pair(xs[0], ys[0]);
        let mut at = 0;
        let mut i = 1;
        while i < 8 {
            let key = pair(xs[i], ys[i]);
            if key < best {
                best = key;
                at = i;
            }
            i += 1;
        }
        (CanonicalKey(best), Symmetry::ALL[at])
    }
}

/// A position's class under the eight symmetries, in 128 bits.
///
/// The smallest, over the eight images of the position, of an injective
/// code of (discs, side to move), so two positions share a key exactly
/// when one is an image of the other with the same side to move; the
/// same discs with the other side to move always give another key. The
/// code gives every square two bits (high word, low word):
///
/// - Black to move: empty `00`, Black `10`, White `01` (the high word
///   is Black's discs, the low word White's);
/// - White to move, some square empty: empty `11`, Black `10`, White
///   `01`;
/// - White to move, full board: Black `11`, White `00`; the two boards
///   of one colour, which would read as one of the codes above, get
///   two fixed values that no other position has (`a1` = `11` and `b1`
///   or `c1` = `01`, the rest `00`).
///
/// Computing it takes two transposes, four mirrors, byte swaps and seven
/// comparisons, without allocation.
///
/// ```
/// use kifu::{Color, Position};
/// let start = Position::start();
/// let other_side = Position::new(*start.board(), Color::White);
/// assert_ne!(start.canonical_key(), other_side.canonical_key());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct CanonicalKey(pub u128);

#[inline(always)]
const fn pair(high: u64, low: u64) -> u128 {
    ((high as u128) << 64) | low as u128
}

/// The two words of a position's code (see [`CanonicalKey`]). Every case
/// but the two one-coloured full boards is a code square by square, so
/// it commutes with the symmetries; those two boards are their own
/// images.
#[inline(always)]
fn encode(position: &Position) -> (u64, u64) {
    let board = position.board();
    let (black, white) = (board.black().0, board.white().0);
    match position.side_to_move() {
        Color::Black => (black, white),
        Color::White if black | white != u64::MAX => (!white, !black),
        Color::White => match black {
            0 => (1, 0b011),
            u64::MAX => (1, 0b101),
            _ => (black, black),
        },
    }
}

/// The images of every square under every symmetry, by
/// `[symmetry][square]`, in the order of [`Symmetry::ALL`].
const SQUARE_IMAGES: [[u8; 64]; 8] = {
    let mut table = [[0u8; 64]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 64 {
            if let Some(square) = Square::new(i as u8) {
                table[s][i] = square.transform(Symmetry::ALL[s]).index() as u8;
            }
            i += 1;
        }
        s += 1;
    }
    table
};

/// A key of a move list under the eight symmetries, for leaving out
/// duplicate games: two lists get the same key when one, mapped square
/// by square by a symmetry, equals the other.
///
/// Fed one square at a time (passes left out), it follows the
/// orientation in which the list is smallest move by move, so it hashes
/// one image of the list rather than eight; usually one orientation is
/// left after the first move or two, and a square costs a table look-up
/// and a shift. The key is 128 bits. Whether two games also share their
/// start position is the caller's to check.
///
/// ```
/// use kifu::{MoveListKey, Square};
/// fn key(moves: &str) -> u128 {
///     let mut key = MoveListKey::new();
///     for pair in moves.as_bytes().chunks(2) {
///         key.push(Square::from_ascii(pair).unwrap());
///     }
///     key.finish()
/// }
/// // c4 e3 is f5 d6 turned half way round.
/// assert_eq!(key("f5d6"), key("c4e3"));
/// assert_ne!(key("f5d6"), key("f5f6"));
/// ```
#[derive(Clone, Debug)]
pub struct MoveListKey {
    /// The symmetries (bits in [`Symmetry::ALL`] order) under which the
    /// list so far maps to its smallest image.
    candidates: u8,
    len: u32,
    /// The last squares of the smallest image, 6 bits each, up to ten.
    pending: u64,
    /// The earlier squares, hashed ten at a time.
    hash: (u64, u64),
}

impl Default for MoveListKey {
    fn default() -> MoveListKey {
        MoveListKey::new()
    }
}

impl MoveListKey {
    /// The key of an empty list.
    #[must_use]
    pub const fn new() -> MoveListKey {
        MoveListKey {
            candidates: 0xff,
            len: 0,
            pending: 0,
            hash: (0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344),
        }
    }

    /// Adds the next square of the list.
    #[inline]
    pub fn push(&mut self, square: Square) {
        let index = square.index() & 63;
        let image = if self.candidates.is_power_of_two() {
            // One orientation left, as after the first move or two of
            // most games.
            SQUARE_IMAGES[self.candidates.trailing_zeros() as usize & 7][index]
        } else {
            self.narrow(index)
        };
        self.pending = (self.pending << 6) | u64::from(image);
        self.len += 1;
        if self.len.is_multiple_of(10) {
            self.fold();
        }
    }

    /// Keeps the orientations in which the square is smallest; returns
    /// its image.
    fn narrow(&mut self, index: usize) -> u8 {
        let mut rest = self.candidates;
        let mut smallest = u8::MAX;
        let mut keep = 0u8;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let image = SQUARE_IMAGES[s & 7][index];
            if image < smallest {
                smallest = image;
                keep = 0;
            }
            if image == smallest {
                keep |= 1 << s;
            }
        }
        self.candidates = keep;
        smallest
    }

    fn fold(&mut self) {
        let (high, low) = self.hash;
        let high = mix(high ^ self.pending);
        self.hash = (high, mix(low.rotate_left(23) ^ self.pending ^ high));
        self.pending = 0;
    }

    /// The 128-bit key of the list so far.
    #[must_use]
    pub fn finish(&self) -> u128 {
        // The length tells a1 (0) from no square.
        let mut last = self.clone();
        last.pending ^= u64::from(self.len) << 54;
        last.fold();
        pair(last.hash.0, last.hash.1)
    }
}

/// A 64-bit finaliser (splitmix64's).
#[inline]
const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::square::transform_bits;
    use crate::testkit::Rng;
    use crate::{Bitboard, Board, Move, Replay};

    /// The image of a bitboard square by square.
    fn slow(bits: u64, symmetry: Symmetry) -> u64 {
        Bitboard(bits)
            .into_iter()
            .fold(0, |out, sq| out | sq.transform(symmetry).mask())
    }

    #[test]
    fn transforms_agree_with_square_transform_on_random_bitboards() {
        let mut rng = Rng::new(8);
        let mut boards = vec![0, u64::MAX, 1, 1 << 63, 0x8100_0000_0000_0081];
        boards.extend((0..5000).map(|i| match i % 3 {
            0 => rng.next(),
            1 => rng.next() & rng.next(),
            _ => 1 << rng.below(64),
        }));
        for bits in boards {
            let all = images(bits);
            for (i, s) in Symmetry::ALL.into_iter().enumerate() {
                let expected = slow(bits, s);
                assert_eq!(transform_bits(bits, s), expected, "{s:?} {bits:#x}");
                assert_eq!(all[i], expected, "{s:?} {bits:#x}");
                assert_eq!(s.apply(bits), expected, "{s:?} {bits:#x}");
                assert_eq!(transform_bits(expected, s.inverse()), bits, "{s:?}");
            }
        }
    }

    /// Random legal positions: every prefix of seeded random games.
    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut replay = Replay::new(Position::start());
            loop {
                out.push(*replay.position());
                let pos = *replay.position();
                let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
                let mv = if moves.is_empty() {
                    if !pos.opponent_has_moves() {
                        break;
                    }
                    Move::Pass
                } else {
                    Move::Play(moves[rng.below(moves.len())])
                };
                if replay.play(mv, None).is_err() {
                    break;
                }
            }
        }
        out
    }

    /// The key by brute force: the smallest code over the eight images.
    fn slow_key(position: &Position) -> u128 {
        Symmetry::ALL
            .iter()
            .map(|&s| {
                let (x, y) = encode(&position.transform(s));
                pair(x, y)
            })
            .min()
            .unwrap()
    }

    #[test]
    fn canonical_key_is_the_smallest_image_and_names_its_symmetry() {
        for pos in random_positions(11, 200) {
            let (key, s) = pos.canonical();
            assert_eq!(key, pos.canonical_key());
            assert_eq!(key.0, slow_key(&pos), "{pos:?}");
            let (x, y) = encode(&pos.transform(s));
            assert_eq!(pair(x, y), key.0, "{pos:?} {s:?}");
            for t in Symmetry::ALL {
                assert_eq!(pos.transform(t).canonical_key(), key, "{pos:?} {t:?}");
            }
        }
    }

    #[test]
    fn canonical_key_prefers_the_identity_on_a_canonical_image() {
        let (key, s) = Position::start().canonical();
        let (again, t) = Position::start().transform(s).canonical();
        assert_eq!((again, t), (key, Symmetry::Identity));
    }

    /// Every board of a few squares in each state, both sides to move:
    /// the code is injective, full and one-coloured boards included.
    #[test]
    fn the_code_never_shares_a_value_between_positions() {
        let mut seen = std::collections::HashMap::new();
        let mut boards = Vec::new();
        // All 3^4 colourings of a1, b1, c1, h8 over an empty, a half and a
        // full board of each colour.
        let corners = [0usize, 1, 2, 63];
        for background in [(0, 0), (u64::MAX, 0), (0, u64::MAX), (0xff, 0xff00)] {
            for code in 0..81 {
                let (mut black, mut white) = background;
                let mut c = code;
                for &sq in &corners {
                    let bit = 1u64 << sq;
                    black &= !bit;
                    white &= !bit;
                    match c % 3 {
                        1 => black |= bit,
                        2 => white |= bit,
                        _ => {}
                    }
                    c /= 3;
                }
                boards.push((black, white));
            }
        }
        for (black, white) in boards {
            let board = Board::new(Bitboard(black), Bitboard(white)).unwrap();
            for side in [Color::Black, Color::White] {
                let pos = Position::new(board, side);
                let (x, y) = encode(&pos);
                if let Some(other) = seen.insert(pair(x, y), pos) {
                    assert_eq!(other, pos, "two positions share a code");
                }
            }
        }
        assert!(seen.len() > 600, "{}", seen.len());
    }

    #[test]
    fn the_side_to_move_changes_the_key() {
        for pos in random_positions(5, 50) {
            let mut other = pos;
            other.pass();
            assert_ne!(pos.canonical_key(), other.canonical_key(), "{pos:?}");
        }
        // The start is its colour-swapped twin turned a quarter.
        let start = Position::start();
        let swapped = start.swapped();
        assert_eq!(start.transform(Symmetry::Rotate90).board(), swapped.board());
        assert_ne!(start.canonical_key(), swapped.canonical_key());
    }

    fn list_key(squares: &[Square]) -> u128 {
        let mut key = MoveListKey::new();
        for &sq in squares {
            key.push(sq);
        }
        key.finish()
    }

    #[test]
    fn move_list_key_is_the_same_for_every_image_of_a_list() {
        let mut rng = Rng::new(17);
        let mut keys = std::collections::HashSet::new();
        let mut classes = std::collections::HashSet::new();
        for n in 0..300 {
            let len = n % 65;
            let list: Vec<Square> = (0..len)
                .map(|_| Square::new(rng.below(64) as u8).unwrap())
                .collect();
            let key = list_key(&list);
            let mut smallest = list.clone();
            for s in Symmetry::ALL {
                let image: Vec<Square> = list.iter().map(|sq| sq.transform(s)).collect();
                assert_eq!(list_key(&image), key, "{s:?} {list:?}");
                smallest = smallest.min(image);
            }
            keys.insert(key);
            classes.insert(smallest);
            // A change of one square changes the key, unless the lists
            // are images of each other.
            if len > 0 {
                let mut other = list.clone();
                let at = rng.below(len);
                other[at] = Square::new((other[at].index() as u8 + 1) % 64).unwrap();
                let same_class = Symmetry::ALL
                    .iter()
                    .any(|&s| list.iter().zip(&other).all(|(a, b)| a.transform(s) == *b));
                assert_eq!(list_key(&other) == key, same_class, "{list:?}");
            }
        }
        assert_eq!(keys.len(), classes.len());
    }

    #[test]
    fn move_list_key_keeps_a_prefix_apart() {
        let f5: Square = "f5".parse().unwrap();
        let d6: Square = "d6".parse().unwrap();
        assert_ne!(list_key(&[f5]), list_key(&[f5, d6]));
        assert_ne!(list_key(&[]), list_key(&[Square::new(0).unwrap()]));
    }
}
