//! The 16-byte header every WTHOR file starts with, the sizes of its
//! records, and the errors of a binary file.

use crate::record::source::{ParseError, Span};

/// Length of the header of every WTHOR file.
pub const HEADER_LEN: usize = 16;
/// Length of one game record of a `.wtb` file.
pub const RECORD_LEN: usize = 68;
/// Length of one player record of a `.JOU` file (19 useful bytes).
pub const PLAYER_RECORD_LEN: usize = 20;
/// Length of one tournament record of a `.TRN` file (25 useful bytes).
pub const TOURNAMENT_RECORD_LEN: usize = 26;
/// Move bytes in a game record.
pub(crate) const MOVE_BYTES: usize = 60;
/// Offset of the first move byte in a game record.
pub(crate) const MOVES_AT: usize = 8;

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
    pub(crate) fn check_games(&self) -> Result<(), ParseError> {
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
pub(crate) fn binary_error(byte: u64, len: u32, message: String) -> ParseError {
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
pub(crate) fn count_mismatch(what: &str, said: u64, whole: u64, rest: u64) -> String {
    let said = counted(said, what);
    if rest == 0 {
        format!("header says {said} but the file holds {whole}")
    } else {
        let whole = counted(whole, what);
        format!("header says {said} but the file holds {whole} and {rest} more bytes")
    }
}
