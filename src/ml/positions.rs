//! Positions for training (SPEC section 8): one row per position in which
//! the side to move places a disc, with the discs of both sides as
//! bitboards, the move, and the final score from the mover's side.
//!
//! The rows of a game are gathered by a [`Collector`] watching the game's
//! one replay; [`Collector::finish`] then settles the score (known only at
//! the end) and adds the symmetric images. The encoders write a row
//! straight into a byte buffer: CSV, JSON Lines or a 25-byte NumPy record.
//!
//! ```
//! use kifu::formats::transcript::{parse_line, LineContext};
//! use kifu::positions::{Collector, Options};
//!
//! let ctx = LineContext { line: 1, byte: 0, index: 1 };
//! let game = parse_line(b"f5d6c3", ctx).unwrap();
//! let mut rows = Collector::new(Options { all_games: true, ..Options::default() });
//! let report = game.replay_watched(&mut rows);
//! assert!(rows.finish(&report));
//! // The start position, Black to move: f5 played, no score (unfinished).
//! let first = rows.rows()[0];
//! assert_eq!((first.ply, first.empties, first.square.to_string()), (0, 60, "f5".to_owned()));
//! assert_eq!(first.player, (1 << 28) | (1 << 35)); // d5 and e4
//! assert_eq!(first.score, None);
//! # Ok::<(), kifu::ParseError>(())
//! ```

use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::str::FromStr;

use crate::engine::square::images;
use crate::record::select::FilterError;
use crate::record::{Report, Watch};
use crate::{Color, Move, Position, Square, Status, Symmetry};

/// The CSV header, exactly.
pub const CSV_HEADER: &str = "source,game,ply,empties,side,player,opponent,move,score";

/// Bytes of one NumPy record: `player <u8, opponent <u8, move u1, ply u1,
/// empties u1, side u1, score i1, game <u4`, packed.
pub const NPY_RECORD: usize = 25;

/// The NumPy dtype of a record, as the `.npy` header gives it.
pub const NPY_DESCR: &str = "[('player', '<u8'), ('opponent', '<u8'), ('move', 'u1'), \
     ('ply', 'u1'), ('empties', 'u1'), ('side', 'u1'), ('score', 'i1'), ('game', '<u4')]";

/// The `score` of a NumPy record without one (a row of an unfinished or
/// invalid game under `--all-games`): −128, outside −64..64, as NumPy has
/// no null.
pub const NPY_NO_SCORE: i8 = i8::MIN;

/// One position of a game and the move played from it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Row {
    /// Discs of the side to move: bit *i* is square *i* (a1 = 0, h1 = 7,
    /// a2 = 8, …, h8 = 63).
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// The square played.
    pub square: Square,
    /// Moves and passes played before the position.
    pub ply: u8,
    /// Empty squares.
    pub empties: u8,
    /// The side to move.
    pub side: Color,
    /// The final score of the side to move minus the other's, empties to
    /// the winner; `None` when the game has no final score.
    pub score: Option<i8>,
}

/// A range of empty squares, `A..B` inclusive (`--empties`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Empties {
    /// The fewest.
    pub min: u8,
    /// The most.
    pub max: u8,
}

impl Default for Empties {
    fn default() -> Empties {
        Empties { min: 0, max: 64 }
    }
}

impl Empties {
    /// Whether `n` empty squares are in the range.
    #[inline]
    #[must_use]
    pub const fn contains(self, n: u8) -> bool {
        self.min <= n && n <= self.max
    }
}

impl FromStr for Empties {
    type Err = FilterError;

    /// `A..B`, `A..`, `..B` or `N`, each from 0 to 64.
    fn from_str(text: &str) -> Result<Empties, FilterError> {
        let error = |reason: &str| FilterError {
            flag: "--empties",
            value: text.to_owned(),
            reason: reason.to_owned(),
        };
        let number = |part: &str, default: u8| -> Result<u8, FilterError> {
            let part = part.trim();
            if part.is_empty() {
                return Ok(default);
            }
            match part.parse::<u8>() {
                Ok(n) if n <= 64 => Ok(n),
                Ok(_) => Err(error("a board has 0 to 64 empty squares")),
                Err(_) if part.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(error("a board has 0 to 64 empty squares"))
                }
                Err(_) => Err(error("not a number or a range such as 20..40")),
            }
        };
        let (min, max) = match text.split_once("..") {
            Some((a, b)) => (number(a, 0)?, number(b, 64)?),
            None if text.trim().is_empty() => {
                return Err(error("not a number or a range such as 20..40"))
            }
            None => {
                let n = number(text, 0)?;
                (n, n)
            }
        };
        if min > max {
            return Err(error(&format!(
                "the range runs backwards: {max} comes before {min}"
            )));
        }
        Ok(Empties { min, max })
    }
}

/// Which rows a game gives.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Options {
    /// Keep positions with this many empty squares.
    pub empties: Empties,
    /// Each position's 8 symmetric images (identity first, in the order of
    /// [`Symmetry::ALL`]), the move mapped alike.
    pub symmetries: bool,
    /// Rows of incomplete games (no score) and of invalid ones (up to the
    /// first bad move, no score) too.
    pub all_games: bool,
}

/// Gathers the rows of one game from its replay ([`Watch`]); reused from
/// game to game, so a worker allocates once.
#[derive(Clone, Debug)]
pub struct Collector {
    options: Options,
    rows: Vec<Row>,
    /// Room for the images under `--symmetries`.
    images: Vec<Row>,
}

impl Watch for Collector {
    #[inline]
    fn position(&mut self, position: &Position, ply: u32, next: Move) {
        let Move::Play(square) = next else { return };
        let (player, opponent) = position.relative();
        let empties = 64 - (player | opponent).count_ones() as u8;
        if !self.options.empties.contains(empties) {
            return;
        }
        self.rows.push(Row {
            player,
            opponent,
            square,
            // A legal game has at most 60 moves and 61 passes.
            ply: u8::try_from(ply).unwrap_or(u8::MAX),
            empties,
            side: position.side_to_move(),
            score: None,
        });
    }
}

impl Collector {
    /// A collector with no rows.
    #[must_use]
    pub fn new(options: Options) -> Collector {
        Collector {
            options,
            rows: Vec::with_capacity(if options.symmetries { 8 * 64 } else { 64 }),
            images: Vec::new(),
        }
    }

    /// Forgets the rows of the last game.
    #[inline]
    pub fn clear(&mut self) {
        self.rows.clear();
    }

    /// After the replay `report` of the watched game: whether the game
    /// gives rows (complete, or any game with `all_games`). Settles each
    /// row's score and adds the symmetric images; drops the rows of a game
    /// that gives none.
    pub fn finish(&mut self, report: &Report) -> bool {
        match (report.status(), self.options.all_games) {
            (Status::Complete, _) => {
                let s = report.finish.score;
                let black =
                    i8::try_from(i16::from(s.black_score) - i16::from(s.white_score)).unwrap_or(0);
                for row in &mut self.rows {
                    row.score = Some(match row.side {
                        Color::Black => black,
                        Color::White => -black,
                    });
                }
            }
            (_, true) => {}
            (_, false) => {
                self.rows.clear();
                return false;
            }
        }
        if self.options.symmetries {
            // Each position's images together, identity first.
            self.images.clear();
            for row in &self.rows {
                let players = images(row.player);
                let opponents = images(row.opponent);
                for (k, symmetry) in Symmetry::ALL.iter().enumerate() {
                    self.images.push(Row {
                        player: players[k],
                        opponent: opponents[k],
                        square: row.square.transform(*symmetry),
                        ..*row
                    });
                }
            }
            std::mem::swap(&mut self.rows, &mut self.images);
        }
        true
    }

    /// The rows of the last game.
    #[must_use]
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
}

/// The distinct positions seen so far (`--unique`): a hash set of
/// (player, opponent), 16 bytes and a little room each.
#[derive(Default, Debug)]
pub struct Seen(HashSet<(u64, u64), BuildHasherDefault<PairHasher>>);

impl Seen {
    /// Whether the position is new (and now seen).
    #[inline]
    pub fn first(&mut self, player: u64, opponent: u64) -> bool {
        self.0.insert((player, opponent))
    }

    /// How many distinct positions were seen.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none was.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The seen-set's hasher (see [`crate::engine::hash`]).
pub use crate::engine::hash::PairHasher;

/// The CSV field of a source name, quoted where it must be.
#[must_use]
pub fn csv_source(name: &str) -> Vec<u8> {
    let mut field = Vec::with_capacity(name.len());
    crate::record::row::push_csv_field(&mut field, name.as_bytes());
    field
}

/// The JSON string of a source name, with its quotes.
#[must_use]
pub fn json_source(name: &str) -> Vec<u8> {
    serde_json::Value::from(name).to_string().into_bytes()
}

fn push_number(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// The text around a text row's fields: what comes before each of
/// source, game, ply, empties, side, player, opponent, move and score,
/// what stands for no score, and the row's end.
struct TextRow {
    before: [&'static [u8]; 9],
    no_score: &'static [u8],
    end: &'static [u8],
}

const CSV_ROW: TextRow = TextRow {
    before: [b"", b",", b",", b",", b",", b",", b",", b",", b","],
    no_score: b"",
    end: b"\n",
};

const JSONL_ROW: TextRow = TextRow {
    before: [
        b"{\"source\":",
        b",\"game\":",
        b",\"ply\":",
        b",\"empties\":",
        b",\"side\":\"",
        b"\",\"player\":",
        b",\"opponent\":",
        b",\"move\":\"",
        b"\",\"score\":",
    ],
    no_score: b"null",
    end: b"}\n",
};

/// Appends a row's fields in the text of `text`.
#[inline(always)]
fn push_text_row(out: &mut Vec<u8>, source: &[u8], game: u64, row: &Row, text: &TextRow) {
    let [at_source, at_game, at_ply, at_empties, at_side, at_player, at_opponent, at_move, at_score] =
        text.before;
    out.extend_from_slice(at_source);
    out.extend_from_slice(source);
    out.extend_from_slice(at_game);
    push_number(out, game);
    out.extend_from_slice(at_ply);
    push_number(out, row.ply);
    out.extend_from_slice(at_empties);
    push_number(out, row.empties);
    out.extend_from_slice(at_side);
    out.extend_from_slice(row.side.name().as_bytes());
    out.extend_from_slice(at_player);
    push_number(out, row.player);
    out.extend_from_slice(at_opponent);
    push_number(out, row.opponent);
    out.extend_from_slice(at_move);
    out.extend_from_slice(&row.square.to_ascii());
    out.extend_from_slice(at_score);
    match row.score {
        Some(score) => push_number(out, score),
        None => out.extend_from_slice(text.no_score),
    }
    out.extend_from_slice(text.end);
}

/// Appends a CSV line: `source` as [`csv_source`] gives it, `game` the
/// game's number within its source.
#[inline]
pub fn push_csv(out: &mut Vec<u8>, source: &[u8], game: u64, row: &Row) {
    push_text_row(out, source, game, row, &CSV_ROW);
}

/// Appends a JSON Lines object with the CSV's fields: `source` as
/// [`json_source`] gives it; `player` and `opponent` are JSON numbers,
/// exact up to 2^64 − 1 (read them as unsigned 64-bit integers); `score`
/// is `null` without one.
#[inline]
pub fn push_jsonl(out: &mut Vec<u8>, source: &[u8], game: u64, row: &Row) {
    push_text_row(out, source, game, row, &JSONL_ROW);
}

/// Appends a 25-byte NumPy record; `game` is the game's number among all
/// games of the run, and a row without a score gets [`NPY_NO_SCORE`].
#[inline]
pub fn push_npy(out: &mut Vec<u8>, game: u32, row: &Row) {
    let mut record = [0u8; NPY_RECORD];
    record[0..8].copy_from_slice(&row.player.to_le_bytes());
    record[8..16].copy_from_slice(&row.opponent.to_le_bytes());
    record[16] = row.square.index() as u8;
    record[17] = row.ply;
    record[18] = row.empties;
    record[19] = match row.side {
        Color::Black => 0,
        Color::White => 1,
    };
    record[20] = row.score.unwrap_or(NPY_NO_SCORE).to_le_bytes()[0];
    record[21..25].copy_from_slice(&game.to_le_bytes());
    out.extend_from_slice(&record);
}

/// The `.npy` header (format version 1.0) of `count` records, of the
/// same length for every count ([`crate::ml::npy::header`]).
#[must_use]
pub fn npy_header(count: u64) -> Vec<u8> {
    crate::ml::npy::header(NPY_DESCR, &[], count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::transcript;

    fn rows(moves: &str, options: Options) -> Option<Vec<Row>> {
        let game = transcript(moves);
        let mut collector = Collector::new(options);
        let report = game.replay_watched(&mut collector);
        collector.finish(&report).then(|| collector.rows().to_vec())
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// Bits of the named squares, with the index a1 = 0 … h8 = 63 worked
    /// out by hand from the name.
    fn bits(names: &[&str]) -> u64 {
        names
            .iter()
            .map(|n| {
                let b = n.as_bytes();
                1u64 << ((b[1] - b'1') * 8 + (b[0] - b'a'))
            })
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn the_second_position_of_f5_has_white_to_move() {
        let all = Options {
            all_games: true,
            ..Options::default()
        };
        let rows = rows("f5d6", all).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].player, bits(&["d5", "e4"]));
        assert_eq!(rows[0].opponent, bits(&["d4", "e5"]));
        // After f5 (Black flips e5): White has d4, Black d5 e4 e5 f5.
        let after = rows[1];
        assert_eq!(after.side, Color::White);
        assert_eq!(after.player, bits(&["d4"]));
        assert_eq!(after.opponent, bits(&["d5", "e4", "e5", "f5"]));
        assert_eq!(after.player, 1 << 27);
        assert_eq!((after.ply, after.empties, after.square), (1, 59, sq("d6")));
        assert_eq!(after.score, None);
        // Without --all-games an unfinished game gives nothing.
        assert_eq!(self::rows("f5d6", Options::default()), None);
    }

    #[test]
    fn scores_are_from_the_movers_side() {
        // The shortest game: Black wipes White out after 9 moves, 64-0.
        let rows = rows("f5d6c5f6e7f4g5e6e3", Options::default()).unwrap();
        assert_eq!(rows.len(), 9);
        for row in &rows {
            let expected = if row.side == Color::Black { 64 } else { -64 };
            assert_eq!(row.score, Some(expected), "{row:?}");
        }
    }

    #[test]
    fn symmetries_give_eight_images_with_the_move_alike() {
        let options = Options {
            symmetries: true,
            all_games: true,
            ..Options::default()
        };
        let rows = rows("f5d6c3", options).unwrap();
        assert_eq!(rows.len(), 24);
        for group in rows.chunks(8) {
            let mut seen: Vec<(u64, u64)> = group.iter().map(|r| (r.player, r.opponent)).collect();
            seen.sort_unstable();
            seen.dedup();
            // After f5 d6 the position has no symmetry: 8 distinct images.
            // The first two are their own images under some symmetries.
            assert!(seen.len() == 8 || group[0].ply < 2, "{group:?}");
            assert_eq!(8 % seen.len(), 0);
            for row in group {
                assert_eq!(row.ply, group[0].ply);
                let position = Position::new(
                    crate::Board::new(
                        crate::Bitboard(if row.side == Color::Black {
                            row.player
                        } else {
                            row.opponent
                        }),
                        crate::Bitboard(if row.side == Color::Black {
                            row.opponent
                        } else {
                            row.player
                        }),
                    )
                    .unwrap(),
                    row.side,
                );
                assert!(position.legal_moves().contains(row.square), "{row:?}");
            }
        }
    }

    #[test]
    fn empties_ranges() {
        let parse = |t: &str| t.parse::<Empties>();
        assert_eq!(parse("20..40").unwrap(), Empties { min: 20, max: 40 });
        assert_eq!(parse("20..").unwrap(), Empties { min: 20, max: 64 });
        assert_eq!(parse("..12").unwrap(), Empties { min: 0, max: 12 });
        assert_eq!(parse("7").unwrap(), Empties { min: 7, max: 7 });
        assert_eq!(
            parse("70..80").unwrap_err().to_string(),
            "--empties 70..80: a board has 0 to 64 empty squares"
        );
        assert_eq!(
            parse("40..20").unwrap_err().to_string(),
            "--empties 40..20: the range runs backwards: 20 comes before 40"
        );
        assert!(parse("x")
            .unwrap_err()
            .to_string()
            .starts_with("--empties x: "));
        let kept = rows(
            "f5d6c3d3c4",
            Options {
                empties: parse("57..58").unwrap(),
                all_games: true,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(kept.iter().map(|r| r.empties).collect::<Vec<_>>(), [58, 57]);
    }

    #[test]
    fn encodings_agree() {
        let row = rows(
            "f5d6",
            Options {
                all_games: true,
                ..Options::default()
            },
        )
        .unwrap()[1];
        let mut csv = Vec::new();
        push_csv(&mut csv, &csv_source("a,b.txt"), 3, &row);
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "\"a,b.txt\",3,1,59,white,134217728,240786604032,d6,\n"
        );
        let mut json = Vec::new();
        push_jsonl(&mut json, &json_source("x"), 3, &row);
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(value["opponent"].as_u64(), Some(row.opponent));
        assert_eq!(value["score"], serde_json::Value::Null);
        let mut npy = Vec::new();
        push_npy(&mut npy, 7, &row);
        assert_eq!(npy.len(), NPY_RECORD);
        assert_eq!(npy[16], 43); // d6
        assert_eq!(npy[20] as i8, NPY_NO_SCORE);
        assert_eq!(&npy[21..], &7u32.to_le_bytes());
    }

    #[test]
    fn the_npy_header_keeps_its_length() {
        let small = npy_header(0);
        let big = npy_header(u64::MAX);
        assert_eq!(small.len(), big.len());
        assert_eq!(small.len() % 64, 0);
        assert_eq!(*small.last().unwrap(), b'\n');
        let len = u16::from_le_bytes([small[8], small[9]]) as usize;
        assert_eq!(len + 10, small.len());
    }
}
