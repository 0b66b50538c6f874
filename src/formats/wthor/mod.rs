//! WTHOR, the French federation's binary game database.
//!
//! A `.wtb` file is a 16-byte header and one 68-byte record per game:
//! tournament, Black and White ids (u16 little-endian each), Black's score
//! (discs, empties to the winner), Black's theoretical score, and 60 move
//! bytes `10 * row + column` (`a1` = 11, `f5` = 56, `h8` = 88) with 0
//! after the last move. Passes are not stored. Names live in two side
//! files with the same header: `.JOU` (players, 20-byte records) and
//! `.TRN` (tournaments, 26-byte records), NUL-padded Latin-1 text.
//!
//! Read: [`Reader`] streams one record at a time and checks the header
//! (8×8 boards only, no solitaire files, the game count against the data).
//! Each record becomes a [`GameRecord`] from the standard start: the score
//! byte is the result (`Discs`), the theoretical score is kept, the file's
//! game year is the `date` tag, names are looked up by id (an id past the
//! table gives no name; placeholders such as `???` are kept as written).
//! Positions are byte offsets: `origin.byte` is the record's, each span's
//! `byte` its move byte's (line and column 0).
//!
//! [`Names`] reads the name files (Latin-1, tolerant of a header count
//! that disagrees with the body, reported as a warning) and
//! [`find_name_files`] finds them next to a `.wtb`.
//!
//! Write: [`Writer`] stores valid games from the standard start, turned by
//! a symmetry so that each starts with f5 (see [`encode`] for the score
//! bytes), and collects the names to write with [`write_names`]; id 0 is
//! the unknown name `?`.

use crate::game::Move;
use crate::record::{ResultKind, Token};
use crate::source::{ParseError, Span};
use crate::{GameRecord, Square, Status};

mod names;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use names::{
    archive_name_files, find_name_files, find_name_files_in, load_list, read_name_records,
    AmbiguousNames, ArchiveNames, NameFiles, NameList, Names,
};
pub(crate) use names::{decode_latin1, encode_latin1};
pub(crate) use read::{byte_of_square, square_of_byte};
pub use read::{parse_record, Reader};
pub(crate) use write::year_of;
pub use write::{
    encode, write_name_file, EncodedGame, Ids, NameBook, Refusal, WriteError, WriteStats, Writer,
    WriterOptions,
};

/// Length of the header of every WTHOR file.
pub const HEADER_LEN: usize = 16;
/// Length of one game record of a `.wtb` file.
pub const RECORD_LEN: usize = 68;
/// Length of one player record of a `.JOU` file (19 useful bytes).
pub const PLAYER_RECORD_LEN: usize = 20;
/// Length of one tournament record of a `.TRN` file (25 useful bytes).
pub const TOURNAMENT_RECORD_LEN: usize = 26;
/// Move bytes in a game record.
const MOVE_BYTES: usize = 60;
/// Offset of the first move byte in a game record.
const MOVES_AT: usize = 8;

/// The 16-byte header shared by game and name files.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Header {
    /// Creation date: century, year in the century, month, day.
    pub created: (u8, u8, u8, u8),
    /// N1: number of games (0 in name files).
    pub games: u32,
    /// N2: number of names (0 in game files).
    pub names: u16,
    /// The year the games were played (0 when not given).
    pub year: u16,
    /// P1: board size, 0 or 8 for 8×8, 10 for 10×10.
    pub board_size: u8,
    /// P2: 0 for games, 1 for solitaires.
    pub kind: u8,
    /// P3: depth of the theoretical score (empties solved perfectly).
    pub depth: u8,
}

impl Header {
    /// Decodes the 16 header bytes (no checks).
    #[must_use]
    pub fn from_bytes(b: &[u8; HEADER_LEN]) -> Header {
        Header {
            created: (b[0], b[1], b[2], b[3]),
            games: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            names: u16::from_le_bytes([b[8], b[9]]),
            year: u16::from_le_bytes([b[10], b[11]]),
            board_size: b[12],
            kind: b[13],
            depth: b[14],
        }
    }

    /// Encodes the header; the reserved last byte is 0.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let (c, y, m, d) = self.created;
        let [g0, g1, g2, g3] = self.games.to_le_bytes();
        let [n0, n1] = self.names.to_le_bytes();
        let [y0, y1] = self.year.to_le_bytes();
        [
            c,
            y,
            m,
            d,
            g0,
            g1,
            g2,
            g3,
            n0,
            n1,
            y0,
            y1,
            self.board_size,
            self.kind,
            self.depth,
            0,
        ]
    }

    /// The creation date as (year, month, day).
    #[must_use]
    pub fn created_date(&self) -> (u16, u8, u8) {
        let (c, y, m, d) = self.created;
        (u16::from(c) * 100 + u16::from(y), m, d)
    }

    /// Checks that a game file holds 8×8 games this reader can read.
    fn check_games(&self) -> Result<(), ParseError> {
        match self.board_size {
            0 | 8 => {}
            10 => return Err(binary_error(12, 1, "unsupported board size 10x10".into())),
            other => {
                return Err(binary_error(
                    12,
                    1,
                    format!("unsupported board size byte {other} (expected 0 or 8)"),
                ))
            }
        }
        // Other game types than 1 are tolerated: the records read the same.
        if self.kind == 1 {
            return Err(binary_error(
                13,
                1,
                "solitaire files are unsupported (game type 1)".into(),
            ));
        }
        Ok(())
    }
}

/// A syntax error at a byte offset of a binary file (no lines there).
fn binary_error(byte: u64, len: u32, message: String) -> ParseError {
    ParseError::at(Span::binary(byte, len), message)
}

/// `1 game`, `2 games`.
fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// What a file holds against what its header says, for error messages.
fn count_mismatch(what: &str, said: u64, whole: u64, rest: u64) -> String {
    let said = counted(said, what);
    if rest == 0 {
        format!("header says {said} but the file holds {whole}")
    } else {
        let whole = counted(whole, what);
        format!("header says {said} but the file holds {whole} and {rest} more bytes")
    }
}

/// Pushes what a WTHOR file cannot keep from `record` (non-standard
/// starts, anti games and invalid games are refused, not lost).
pub fn losses(record: &GameRecord, out: &mut Vec<&'static str>) {
    let mut push = |what: &'static str| {
        if !out.contains(&what) {
            out.push(what);
        }
    };
    if record.notes.iter().any(|n| n.eval.is_some()) {
        push("per-move evaluations");
    }
    if record.notes.iter().any(|n| n.time.is_some()) {
        push("per-move times");
    }
    if record.tags.site.is_some() {
        push("the site");
    }
    if record.tags.round.is_some() {
        push("the round");
    }
    if record.tags.black_rating.is_some() || record.tags.white_rating.is_some() {
        push("player ratings");
    }
    if record
        .tags
        .date
        .as_deref()
        .is_some_and(|d| d.trim().len() != 4 || year_of(d).is_none())
    {
        push("the exact date (only the year of the file)");
    }
    if !record.tags.extra.is_empty() {
        push("other tags");
    }
    if record
        .moves
        .iter()
        .any(|m| m.token == Token::Move(Move::Pass))
    {
        push("explicit passes");
    }
    let first = record.moves.iter().find_map(|m| match m.token {
        Token::Move(Move::Play(sq)) => Some(sq),
        _ => None,
    });
    if first.is_some_and(|sq| Some(sq) != Square::from_coords(5, 4)) {
        push("the orientation of games not opening with f5");
    }
    let names = [&record.tags.black, &record.tags.white];
    if names
        .iter()
        .any(|n| n.as_deref().is_some_and(|n| too_long(n, PLAYER_RECORD_LEN)))
    {
        push("player names over 19 bytes");
    }
    if record
        .tags
        .event
        .as_deref()
        .is_some_and(|n| too_long(n, TOURNAMENT_RECORD_LEN))
    {
        push("event names over 25 bytes");
    }
    let all = [&record.tags.black, &record.tags.white, &record.tags.event];
    if all.iter().any(|n| {
        n.as_deref()
            .is_some_and(|n| n.chars().any(|c| u32::from(c) > 0xFF || c == '\0'))
    }) {
        push("characters outside Latin-1 in names");
    }
    if let Some(result) = record.result {
        if result.kind != ResultKind::Score {
            push("how the game ended (resignation, time, agreement)");
        }
        if result.black_score().is_none() && record.replay().status() == Status::Incomplete {
            push("a result that is not a disc count");
        }
    }
}

fn too_long(name: &str, record_len: usize) -> bool {
    name.chars().count() > record_len - 1
}

/// Whether the first bytes look like a `.wtb` file: a plausible creation
/// date, an 8×8 or 10×10 board size, a game type of 0 or 1, and when the
/// first record is there, a score of at most 64 and a first move byte
/// that is a square or 0.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let Some(bytes) = head.first_chunk::<HEADER_LEN>() else {
        return false;
    };
    let h = Header::from_bytes(bytes);
    let (century, year, month, day) = h.created;
    let plausible = century <= 99
        && year <= 99
        && (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && matches!(h.board_size, 0 | 8 | 10)
        && h.kind <= 1
        && h.names == 0;
    if !plausible {
        return false;
    }
    if h.board_size == 10 || h.games == 0 {
        return true;
    }
    match head.get(HEADER_LEN..HEADER_LEN + RECORD_LEN) {
        Some(record) => {
            let first = record.get(MOVES_AT).copied().unwrap_or(0);
            record.get(6).is_some_and(|&s| s <= 64)
                && (first == 0 || square_of_byte(first).is_some())
        }
        None => true,
    }
}
