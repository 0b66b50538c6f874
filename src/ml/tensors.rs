//! Per-move tensors for machine learning (SPEC section 10): for each move
//! of a game, the board before it as the side to move sees it (`mine`,
//! `theirs`, `empty`), the legal moves, the square played and the discs it
//! flips — the side to move taken from the replay, so a pass never shifts
//! them.
//!
//! The rows are those of [`crate::ml::positions`] (one per disc placed,
//! gathered by a [`Collector`](crate::ml::positions::Collector) on the game's
//! one replay); [`Columns`] turns each into the arrays' values: five 8×8
//! boolean planes (index `[row][column]`, `a1` at `[0][0]`, `h1` at
//! `[0][7]`) and the scalars. `positions --to npz` writes them as a NumPy
//! `.npz`, `kifu.tensors` hands them to Python.
//!
//! ```
//! use kifu::formats::transcript::{parse_line, LineContext};
//! use kifu::positions::{Collector, Options};
//! use kifu::tensors::Columns;
//!
//! let ctx = LineContext { line: 1, byte: 0, index: 1 };
//! let game = parse_line(b"f5d6c3", ctx).unwrap();
//! let mut rows = Collector::new(Options { all_games: true, ..Options::default() });
//! let report = game.replay_watched(&mut rows);
//! rows.finish(&report);
//! let mut columns = Columns::default();
//! for row in rows.rows() {
//!     columns.push(1, row);
//! }
//! assert_eq!(columns.len(), 3);
//! // Before f5, Black has 4 legal moves; f5 flips e5 (index 36).
//! assert_eq!(columns.planes[3][..64].iter().filter(|&&b| b == 1).count(), 4);
//! assert_eq!(columns.planes[4][36], 1);
//! # Ok::<(), kifu::ParseError>(())
//! ```

use crate::ml::positions::{Row, NPY_NO_SCORE};
use crate::{flips, moves, Color};

/// The arrays, in order: name and NumPy type; the first five are boards
/// of shape `[n, 8, 8]`, the others of shape `[n]`.
pub const ARRAYS: [(&str, &str); 10] = [
    ("mine", "|b1"),
    ("theirs", "|b1"),
    ("empty", "|b1"),
    ("legal", "|b1"),
    ("flipped", "|b1"),
    ("move", "|u1"),
    ("ply", "|u1"),
    ("side", "|u1"),
    ("score", "|i1"),
    ("game", "<u4"),
];

/// How many of [`ARRAYS`] are boards.
pub const PLANES: usize = 5;

/// The arrays' values, row after row, as bytes in NumPy's layout.
#[derive(Clone, Debug, Default)]
pub struct Columns {
    /// `mine`, `theirs`, `empty`, `legal`, `flipped`: 64 bytes (0 or 1) a
    /// row each.
    pub planes: [Vec<u8>; PLANES],
    /// The square played, 0–63 (a1 = 0, b1 = 1, …).
    pub moves: Vec<u8>,
    /// Moves and passes before the position.
    pub ply: Vec<u8>,
    /// The side to move: 0 Black, 1 White.
    pub side: Vec<u8>,
    /// The final score from the mover's side (−128: none).
    pub score: Vec<i8>,
    /// The game's number.
    pub game: Vec<u32>,
}

fn push_plane(out: &mut Vec<u8>, bits: u64) {
    out.extend((0..64).map(|i| ((bits >> i) & 1) as u8));
}

impl Columns {
    /// Adds one row of game number `game`.
    pub fn push(&mut self, game: u32, row: &Row) {
        let (mine, theirs) = (row.player, row.opponent);
        let [p_mine, p_theirs, p_empty, p_legal, p_flipped] = &mut self.planes;
        push_plane(p_mine, mine);
        push_plane(p_theirs, theirs);
        push_plane(p_empty, !(mine | theirs));
        push_plane(p_legal, moves(mine, theirs));
        push_plane(p_flipped, flips(mine, theirs, row.square));
        // A square index is below 64.
        self.moves.push(row.square.index() as u8);
        self.ply.push(row.ply);
        self.side.push(match row.side {
            Color::Black => 0,
            Color::White => 1,
        });
        self.score.push(row.score.unwrap_or(NPY_NO_SCORE));
        self.game.push(game);
    }

    /// Rows held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no row is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Forgets the rows, keeping the room.
    pub fn clear(&mut self) {
        self.planes.iter_mut().for_each(Vec::clear);
        self.moves.clear();
        self.ply.clear();
        self.side.clear();
        self.score.clear();
        self.game.clear();
    }

    /// Array `k` of [`ARRAYS`] as little-endian bytes, appended to `out`.
    pub fn append_bytes(&self, k: usize, out: &mut Vec<u8>) {
        match k {
            0..PLANES => out.extend_from_slice(&self.planes[k]),
            5 => out.extend_from_slice(&self.moves),
            6 => out.extend_from_slice(&self.ply),
            7 => out.extend_from_slice(&self.side),
            8 => out.extend(self.score.iter().map(|s| s.to_le_bytes()[0])),
            _ => self
                .game
                .iter()
                .for_each(|g| out.extend_from_slice(&g.to_le_bytes())),
        }
    }
}

/// The `.npy` header (version 1.0) of array `k` of [`ARRAYS`] with `rows`
/// rows.
#[must_use]
pub fn npy_header(k: usize, rows: u64) -> Vec<u8> {
    let (_, descr) = ARRAYS[k.min(ARRAYS.len() - 1)];
    let tail: &[usize] = if k < PLANES { &[8, 8] } else { &[] };
    crate::ml::npy::header(&format!("'{descr}'"), tail, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ml::positions::{Collector, Options};
    use crate::testkit::{random_game, transcript, Play, Rng};
    use crate::Position;

    fn columns(moves: &str) -> Columns {
        let game = transcript(moves);
        let mut rows = Collector::new(Options {
            all_games: true,
            ..Options::default()
        });
        let report = game.replay_watched(&mut rows);
        rows.finish(&report);
        let mut out = Columns::default();
        for row in rows.rows() {
            out.push(1, row);
        }
        out
    }

    fn bits(plane: &[u8], row: usize) -> u64 {
        plane[row * 64..row * 64 + 64]
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc | (u64::from(b) << i))
    }

    /// The side to move comes from the replay: after a pass the same
    /// colour moves twice, and the planes follow it, where move parity
    /// would swap them.
    #[test]
    fn a_pass_mid_game_keeps_the_mover_from_the_replay() {
        let mut rng = Rng::new(27);
        let mut checked = 0;
        while checked < 20 {
            let game = random_game(&mut rng, Play::WHOLE);
            let report = game.replay();
            if report.finish.passes == 0 || report.error.is_some() {
                continue;
            }
            let cols = columns(&game.move_string());
            let mut position = Position::start();
            let mut row = 0;
            for m in &game.moves {
                let crate::Token::Move(crate::Move::Play(square)) = m.token else {
                    continue;
                };
                if !position.has_moves() {
                    position.pass();
                }
                let side = u8::from(position.side_to_move() == Color::White);
                assert_eq!(cols.side[row], side, "row {row}");
                let (player, opponent) = position.relative();
                assert_eq!(bits(&cols.planes[0], row), player);
                assert_eq!(bits(&cols.planes[1], row), opponent);
                assert_eq!(bits(&cols.planes[3], row), position.legal_moves().0);
                let flipped = position.play(square).unwrap();
                assert_eq!(bits(&cols.planes[4], row), flipped.0);
                assert_eq!(usize::from(cols.moves[row]), square.index());
                row += 1;
            }
            assert_eq!(row, cols.len());
            // Move parity is wrong after the pass.
            assert!((0..cols.len()).any(|r| usize::from(cols.side[r]) != r % 2));
            checked += 1;
        }
    }

    #[test]
    fn headers_give_the_shapes() {
        let h = String::from_utf8_lossy(&npy_header(0, 7)).into_owned();
        assert!(
            h.contains("'descr': '|b1'") && h.contains("(7, 8, 8)"),
            "{h}"
        );
        let h = String::from_utf8_lossy(&npy_header(9, 7)).into_owned();
        assert!(h.contains("'<u4'") && h.contains("(7,)"), "{h}");
        assert_eq!(npy_header(9, 7).len() % 64, 0);
    }
}
