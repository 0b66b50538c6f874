//! Discs on the board, legal moves and flips.
//!
//! The hot functions work on a side-to-move-relative pair of `u64`s
//! (`player`, `opponent`); the public types keep absolute colours.

use std::fmt;

use crate::{Bitboard, Square};

/// A side: Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The first player (`X`, `*`, ●).
    Black,
    /// The second player (`O`, ○).
    White,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"black"` or `"white"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Discs on the board, by absolute colour.
///
/// Stored as the discs of one side (`first`), those of the other and the
/// colour of the first: a [`Position`] keeps the side to move first, so
/// playing a move never has to pick the discs by colour. Equality and
/// hashing look at the colours only.
#[derive(Clone, Copy)]
pub struct Board {
    first: u64,
    second: u64,
    first_color: Color,
}

impl Board {
    /// d5 and e4 Black, d4 and e5 White.
    pub const START: Board = Board {
        first: 0x0000_0008_1000_0000,
        second: 0x0000_0010_0800_0000,
        first_color: Color::Black,
    };

    /// A board from two disjoint sets of discs; `None` if they overlap.
    #[must_use]
    pub const fn new(black: Bitboard, white: Bitboard) -> Option<Board> {
        if black.0 & white.0 == 0 {
            Some(Board {
                first: black.0,
                second: white.0,
                first_color: Color::Black,
            })
        } else {
            None
        }
    }

    /// Black's discs.
    #[inline]
    #[must_use]
    pub const fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    /// White's discs.
    #[inline]
    #[must_use]
    pub const fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// The discs of one side.
    #[inline]
    #[must_use]
    pub const fn discs(&self, color: Color) -> Bitboard {
        match (color, self.first_color) {
            (Color::Black, Color::Black) | (Color::White, Color::White) => Bitboard(self.first),
            _ => Bitboard(self.second),
        }
    }

    /// Squares without a disc.
    #[inline]
    #[must_use]
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!(self.first | self.second))
    }

    /// The colour of the disc on `square`, if any.
    #[must_use]
    pub const fn get(&self, square: Square) -> Option<Color> {
        if self.first & square.mask() != 0 {
            Some(self.first_color)
        } else if self.second & square.mask() != 0 {
            Some(self.first_color.opponent())
        } else {
            None
        }
    }

    /// The board with the colours swapped.
    #[must_use]
    pub const fn swapped(&self) -> Board {
        Board {
            first: self.first,
            second: self.second,
            first_color: self.first_color.opponent(),
        }
    }

    /// The board under a symmetry.
    #[must_use]
    pub fn transform(&self, symmetry: crate::Symmetry) -> Board {
        Board {
            first: symmetry.apply(self.first),
            second: symmetry.apply(self.second),
            first_color: self.first_color,
        }
    }

    /// The same discs stored with `color` first.
    #[inline]
    const fn oriented(self, color: Color) -> Board {
        match (color, self.first_color) {
            (Color::Black, Color::Black) | (Color::White, Color::White) => self,
            _ => Board {
                first: self.second,
                second: self.first,
                first_color: color,
            },
        }
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.black() == other.black() && self.white() == other.white()
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.black().hash(state);
        self.white().hash(state);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("black", &self.black())
            .field("white", &self.white())
            .finish()
    }
}

/// A board and the side to move.
///
/// ```
/// use kifu::{Color, Position, Square};
/// let mut pos = Position::start();
/// let f5: Square = "f5".parse()?;
/// assert_eq!(pos.legal_moves().count(), 4);
/// pos.play(f5).unwrap();
/// assert_eq!(pos.side_to_move(), Color::White);
/// assert_eq!(pos.board().black().count(), 4);
/// # Ok::<(), kifu::ParseSquareError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Position {
    /// Always stored with the side to move first: its `first_color` is the
    /// side to move.
    board: Board,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.side_to_move() == other.side_to_move()
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.side_to_move().hash(state);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("board", &self.board)
            .field("side_to_move", &self.side_to_move())
            .finish()
    }
}

impl fmt::Display for Position {
    /// The board text of transcripts and the CSV `start` column: 64
    /// squares a1…h8 as `X` (Black), `O` (White) or `-`, a space, and the
    /// side to move, `X` or `O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; 66];
        for (cell, sq) in text.iter_mut().zip(Square::all()) {
            *cell = match self.board.get(sq) {
                Some(Color::Black) => b'X',
                Some(Color::White) => b'O',
                None => b'-',
            };
        }
        text[64] = b' ';
        text[65] = match self.side_to_move() {
            Color::Black => b'X',
            Color::White => b'O',
        };
        // Every byte written above is ASCII.
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// The text is not a board and side to move.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ParsePositionError {
    /// The board does not have 64 squares.
    #[error("the board has {0} squares, not 64")]
    Squares(usize),
    /// A character of the board is not a square.
    #[error("square {square} of the board is {found:?}, not x, o or -")]
    NotASquare {
        /// 1-based number of the square (a1 = 1, h8 = 64).
        square: usize,
        /// What stands there.
        found: char,
    },
    /// The board ends without the side to move.
    #[error("the side to move is missing after the board (x or o)")]
    MissingSide,
    /// The character after the board is not a side.
    #[error("the side to move is {0:?}, not x or o")]
    NotASide(char),
    /// Text follows the side to move.
    #[error("text follows the side to move: {0:?}")]
    AfterSide(String),
}

impl std::str::FromStr for Position {
    type Err = ParsePositionError;

    /// Reads what `Display` writes, more freely: 64 squares from a1 to h8
    /// row by row (`X` or `*` Black, `O` White, `-` or `.` empty, in either
    /// case, spaces and line breaks ignored), then `X` or `O` (or `B`,
    /// `W`) for the side to move and an optional `;`.
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        let chars = chars.strip_suffix(&[';']).unwrap_or(&chars);
        let is_side = |c: char| matches!(c, 'X' | 'x' | '*' | 'B' | 'b' | 'O' | 'o' | 'W' | 'w');
        let mut black = 0u64;
        let mut white = 0u64;
        for (i, &c) in chars.iter().take(64).enumerate() {
            match c {
                'X' | 'x' | '*' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' | '.' => {}
                _ if i + 1 == chars.len() && is_side(c) => {
                    return Err(ParsePositionError::Squares(i))
                }
                found => {
                    return Err(ParsePositionError::NotASquare {
                        square: i + 1,
                        found,
                    })
                }
            }
        }
        let side = match chars.get(64..) {
            None => {
                // A short board, with or without the side to move.
                let last_is_side = chars.last().is_some_and(|&c| is_side(c));
                return Err(ParsePositionError::Squares(
                    chars.len() - usize::from(last_is_side),
                ));
            }
            Some([]) => {
                // 64 characters: 63 squares and a side set apart by a
                // space, or a board without its side to move.
                let body = text.trim_end();
                let body = body.strip_suffix(';').unwrap_or(body).trim_end();
                let mut tail = body.chars().rev();
                let spaced = tail.next().is_some_and(is_side)
                    && tail.next().is_some_and(char::is_whitespace);
                return Err(if spaced {
                    ParsePositionError::Squares(63)
                } else {
                    ParsePositionError::MissingSide
                });
            }
            Some([side, rest @ ..]) => {
                if !rest.is_empty() {
                    return Err(ParsePositionError::AfterSide(rest.iter().collect()));
                }
                match side {
                    'X' | 'x' | '*' | 'B' | 'b' => Color::Black,
                    'O' | 'o' | 'W' | 'w' => Color::White,
                    &other => return Err(ParsePositionError::NotASide(other)),
                }
            }
        };
        // Each square sets one bit at most, so the two sets are disjoint.
        let board = Board::new(Bitboard(black), Bitboard(white)).unwrap_or(Board::START);
        Ok(Position::new(board, side))
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    /// The square already holds a disc.
    #[error("square occupied")]
    Occupied,
    /// The disc would bracket no opponent disc.
    #[error("flips nothing")]
    FlipsNothing,
}

impl Position {
    /// The standard start, Black to move.
    #[must_use]
    pub const fn start() -> Position {
        Position::new(Board::START, Color::Black)
    }

    /// A position from a board and the side to move.
    #[inline]
    #[must_use]
    pub const fn new(board: Board, side_to_move: Color) -> Position {
        Position {
            board: board.oriented(side_to_move),
        }
    }

    /// The discs.
    #[inline]
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.board.first_color
    }

    /// Discs of the side to move and of its opponent.
    #[inline]
    #[must_use]
    pub const fn relative(&self) -> (u64, u64) {
        (self.board.first, self.board.second)
    }

    /// Sets the discs after a move of the side to move (relative to it)
    /// and hands the turn over. The caller guarantees the sets are disjoint.
    #[inline]
    pub(crate) fn apply_relative(&mut self, player: u64, opponent: u64) {
        debug_assert_eq!(player & opponent, 0);
        self.board = Board {
            first: opponent,
            second: player,
            first_color: self.board.first_color.opponent(),
        };
    }

    /// Squares where the side to move may play.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Bitboard {
        let (p, o) = self.relative();
        Bitboard(moves(p, o))
    }

    /// Whether the side to move has a legal move.
    #[inline]
    #[must_use]
    pub fn has_moves(&self) -> bool {
        let (p, o) = self.relative();
        moves(p, o) != 0
    }

    /// Squares where whoever plays next may play: the side to move, or
    /// its opponent when the side to move must pass.
    #[must_use]
    pub fn next_moves(&self) -> Bitboard {
        let (p, o) = self.relative();
        match moves(p, o) {
            0 => Bitboard(moves(o, p)),
            legal => Bitboard(legal),
        }
    }

    /// Whether the opponent of the side to move has a legal move.
    #[inline]
    #[must_use]
    pub fn opponent_has_moves(&self) -> bool {
        let (p, o) = self.relative();
        moves(o, p) != 0
    }

    /// Whether neither side can move.
    #[must_use]
    #[inline]
    pub fn is_game_over(&self) -> bool {
        let (p, o) = self.relative();
        // Most games end on a full board: no need for the move generator.
        (p | o) == u64::MAX || (moves(p, o) == 0 && moves(o, p) == 0)
    }

    /// The discs a move on `square` would flip (empty if illegal).
    #[must_use]
    pub fn flips(&self, square: Square) -> Bitboard {
        let (p, o) = self.relative();
        if (p | o) & square.mask() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(flips(p, o, square))
    }

    /// Plays a disc for the side to move and hands the turn over.
    ///
    /// On error the position is unchanged.
    #[inline]
    pub fn play(&mut self, square: Square) -> Result<Bitboard, IllegalMove> {
        let (p, o) = self.relative();
        let bit = square_bit(square);
        if (p | o) & bit != 0 {
            return Err(IllegalMove::Occupied);
        }
        let f = flips(p, o, square);
        if f == 0 {
            return Err(IllegalMove::FlipsNothing);
        }
        self.apply_relative(p | f | bit, o ^ f);
        Ok(Bitboard(f))
    }

    /// Hands the turn over without a move (no legality check).
    #[inline]
    pub fn pass(&mut self) {
        self.board = self.board.oriented(self.side_to_move().opponent());
    }

    /// The position with the colours of discs and side to move swapped.
    #[must_use]
    pub const fn swapped(&self) -> Position {
        // The side to move keeps its discs, under the other colour.
        Position {
            board: self.board.swapped(),
        }
    }
}

/// The squares where `player` may move against `opponent`.
///
/// Each direction is a shift with the opponent discs masked so that runs do
/// not wrap from one edge column to the other.
#[inline(always)]
#[must_use]
pub fn moves(player: u64, opponent: u64) -> u64 {
    // A run of opponent discs next to the player's, grown two squares at
    // a time once it holds two: `pairs` marks opponent discs whose
    // neighbour (back towards the player) is one too, so a shift by two
    // squares through `pairs` extends the run by two. Six squares long
    // at most, in four steps instead of six.
    #[inline(always)]
    fn run(p: u64, o: u64, shift: u32, left: bool) -> u64 {
        let sh = |x: u64, by: u32| if left { x << by } else { x >> by };
        let mut f = o & sh(p, shift);
        f |= o & sh(f, shift);
        let pairs = o & sh(o, shift);
        f |= pairs & sh(f, 2 * shift);
        f |= pairs & sh(f, 2 * shift);
        sh(f, shift)
    }
    let empty = !(player | opponent);
    let inner = opponent & 0x7e7e_7e7e_7e7e_7e7e;
    let m = run(player, inner, 1, true)
        | run(player, inner, 1, false)
        | run(player, opponent, 8, true)
        | run(player, opponent, 8, false)
        | run(player, inner, 7, true)
        | run(player, inner, 7, false)
        | run(player, inner, 9, true)
        | run(player, inner, 9, false);
    m & empty
}

/// Tables for [`flips`], laid out so that one base register and the square
/// index reach all of them (`base + 8 * square + constant`).
#[repr(C, align(64))]
struct Tables {
    /// `rays[d][s]`: the squares from `s` in direction `d`, excluding `s`.
    /// Directions 0–3 go towards higher indices (E, SW, S, SE), 4–7
    /// towards lower ones (W, NE, N, NW).
    rays: [[u64; 64]; 8],
    /// `bits[s]`: the square `s` itself.
    bits: [u64; 64],
    /// `doubled[i]`: `2 << i` for a bit index `i` below 64, zero for the
    /// other indices (127 stands for "no bit").
    doubled: [u64; 128],
}

const TABLES: Tables = Tables {
    rays: build_rays(),
    bits: build_bits(1),
    doubled: build_doubled(),
};

const fn build_bits(unit: u64) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = unit << i;
        i += 1;
    }
    t
}

const fn build_doubled() -> [u64; 128] {
    let mut t = [0u64; 128];
    let bits = build_bits(2);
    let mut i = 0;
    while i < 64 {
        t[i] = bits[i];
        i += 1;
    }
    t
}

/// The eight directions, as (column, row) steps, in the order of the
/// rays' table.
const STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (dc, dr) = STEPS[d];
        let mut sq = 0;
        while sq < 64 {
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut mask = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[d][sq] = mask;
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// The single-bit mask of `square`, from the table [`flips`] reads anyway
/// (a load is cheaper than a shift by a variable on the hot path).
#[inline(always)]
pub(crate) fn square_bit(square: Square) -> u64 {
    TABLES.bits[square.index() & 63]
}

/// The discs of `opponent` that `player` flips by playing on the empty
/// `square` (zero when the move is illegal).
///
/// Along each ray the first square that is not an opponent disc decides:
/// if it holds a player disc (the outflank), the opponent discs before it
/// flip. Branch-free: towards higher indices the first such square is the
/// lowest set bit of `ray & !opponent`, towards lower ones the highest.
#[inline(always)]
#[must_use]
pub fn flips(player: u64, opponent: u64, square: Square) -> u64 {
    flips_at(player, opponent, square.index())
}

/// [`flips`] on a square index (`0..64`; higher bits are ignored), for
/// the solver's loops over bit indices.
#[inline(always)]
#[must_use]
pub(crate) fn flips_at(player: u64, opponent: u64, index: usize) -> u64 {
    let s = index & 63;
    let rays = &TABLES.rays;
    // Towards higher indices: the lowest blocker is the lowest bit of `b`.
    // `-b` keeps that bit, clears the ones below and, above it, is `!b`,
    // which within the ray means opponent discs: `-b & ray & player` is
    // the outflank, or zero. An outflank `x` flips the ray below it,
    // `x - 1`, and nothing when `x` is zero.
    let up = |ray: u64| {
        let blockers = ray & !opponent;
        let outflank = scalar(blockers.wrapping_neg() & ray) & player;
        scalar(outflank.wrapping_sub(u64::from(outflank != 0)) & ray)
    };
    // Towards lower indices: the highest blocker; an outflank `x` flips the
    // ray above it, `-2x`. With `2x` looked up by the blocker's index
    // (`63 ^ lz` is what `bsr` gives, 127 without a blocker, whose entry is
    // zero) and tested against the player's discs shifted alike.
    let doubled_player = player << 1;
    let down = |ray: u64| {
        let blockers = ray & !opponent;
        let index = (63 ^ blockers.leading_zeros()) as usize;
        let outflank2 = TABLES.doubled[index] & doubled_player;
        scalar(outflank2.wrapping_neg() & ray)
    };
    (up(rays[0][s]) | down(rays[4][s]))
        | (up(rays[1][s]) | down(rays[5][s]))
        | ((up(rays[2][s]) | down(rays[6][s])) | (up(rays[3][s]) | down(rays[7][s])))
}

/// The rays of [`flips`] by square, for [`flips_avx512`]: `[s][0]` holds
/// the four directions towards higher indices, `[s][1]` the four towards
/// lower ones, each a 256-bit vector (one cache line a square).
#[cfg(target_arch = "x86_64")]
#[repr(C, align(64))]
struct Lanes([[[u64; 4]; 2]; 64]);

#[cfg(target_arch = "x86_64")]
static LANES: Lanes = {
    let rays = build_rays();
    let mut lanes = [[[0u64; 4]; 2]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 4 {
            lanes[s][0][d] = rays[d][s];
            lanes[s][1][d] = rays[d + 4][s];
            d += 1;
        }
        s += 1;
    }
    Lanes(lanes)
};

/// Whether this processor runs [`flips_avx512`] (AVX-512 F, VL and CD;
/// the answer is cached after the first call).
#[cfg(target_arch = "x86_64")]
#[inline]
#[must_use]
pub(crate) fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512cd")
}

/// Whether this processor has LZCNT (the answer is cached after the
/// first call): a replay compiled with it finds the flips towards lower
/// squares sooner where `bsr` is slow.
#[cfg(target_arch = "x86_64")]
#[inline]
#[must_use]
pub(crate) fn has_lzcnt() -> bool {
    std::is_x86_feature_detected!("lzcnt")
}

/// [`flips`] with the eight rays in two 256-bit vectors: the same
/// arithmetic, a lane a direction, in a third of the instructions. Its
/// path from the discs to the flips is longer (a broadcast in, a
/// reduction and a transfer out), so it pays where two replays are
/// interleaved ([`crate::engine::game::Replay::place_two`]) and not in a single
/// chain of moves, where [`flips`] is faster.
///
/// # Safety
///
/// The processor must have AVX-512 F, VL and CD ([`has_avx512`]). Only
/// inlined into a function compiled with those features does it become
/// vector instructions.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[must_use]
pub(crate) unsafe fn flips_avx512(player: u64, opponent: u64, square: Square) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128,
        _mm256_extracti128_si256, _mm256_load_si256, _mm256_lzcnt_epi64, _mm256_maskz_and_epi64,
        _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_srlv_epi64,
        _mm256_sub_epi64, _mm256_test_epi64_mask, _mm_cvtsi128_si64, _mm_or_si128,
        _mm_unpackhi_epi64,
    };
    // The casts only reinterpret bits: a bitboard as a lane's i64.
    let p = _mm256_set1_epi64x(player as i64);
    let o = _mm256_set1_epi64x(opponent as i64);
    let lanes = &LANES.0[square.index() & 63];
    // SAFETY: `Lanes` is aligned to 64 bytes and each half of an entry is
    // 32 bytes at a multiple of 32: aligned loads in bounds.
    let (up, down) = unsafe {
        (
            _mm256_load_si256(lanes[0].as_ptr().cast::<__m256i>()),
            _mm256_load_si256(lanes[1].as_ptr().cast::<__m256i>()),
        )
    };
    let zero = _mm256_setzero_si256();
    // Towards higher indices, as in `flips`: the lowest square that is not
    // the opponent's is `b & -b`; with a player disc there, the ray below
    // it flips (`x - 1`), and nothing without (the lane mask).
    let blockers = _mm256_andnot_si256(o, up);
    let lowest = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
    let outflank = _mm256_and_si256(lowest, p);
    let some = _mm256_test_epi64_mask(outflank, outflank);
    let below = _mm256_add_epi64(outflank, _mm256_set1_epi64x(-1));
    let flips_up = _mm256_maskz_and_epi64(some, below, up);
    // Towards lower indices: the highest such square, by its leading
    // zeros (64 for none shifts the top bit out); with a player disc
    // there, the ray above it flips, `-2x`.
    let blockers = _mm256_andnot_si256(o, down);
    let highest = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(blockers));
    let outflank = _mm256_and_si256(highest, p);
    let above = _mm256_sub_epi64(zero, _mm256_add_epi64(outflank, outflank));
    let flips_down = _mm256_and_si256(above, down);
    let both = _mm256_or_si256(flips_up, flips_down);
    let half = _mm_or_si128(
        _mm256_castsi256_si128(both),
        _mm256_extracti128_si256(both, 1),
    );
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// Keeps `x` in a general-purpose register, opaque to the optimiser.
///
/// The eight rays of [`flips`] look alike, and with AVX2 (or even SSE2)
/// enabled the compiler packs them into vector registers. That saves
/// instructions but puts transfers and shuffles between the scalar and
/// vector units on the path from one move to the next, which more than
/// doubles the time of a replay. Hiding the flips of each ray from the
/// optimiser keeps every ray scalar. It emits no instruction.
#[inline(always)]
fn scalar(mut x: u64) -> u64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: an empty assembly block that reads and writes one register;
    // it touches no memory, stack or flags.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

#[cfg(test)]
mod tests;
