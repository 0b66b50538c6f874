//! Score sheets: an 8×8 grid of move numbers, the way games are written
//! down at the board.
//!
//! ```text
//! # optional comment lines, and tags before the grid
//! Black: Ann
//! Result: 39-25
//!    a  b  c  d  e  f  g  h
//! 1 56 21 59 42 35 46 58  -
//! 2 53 32 14 24 28  8 50 37
//! 3 43 17  3 19 15  5 11 55
//! 4 40 31 10  O  X  2 16 20
//! 5 27  9  6  X  O  1 51 39
//! 6 12 38 52  7 26 13  4 44
//! 7 47 36 22 30 23 29 18 41
//! 8 54 25 57 34 45 33 48 49
//! ```
//!
//! Read: each square holds the number (1–60) of the move played there;
//! a square nobody played is blank, `0`, `-`, `.` or `·`. The start discs
//! are blank, `0` or marked: `X`, `B`, `●` black and `O`, `W`, `○` white
//! give the start position (any position, Black to move unless a `To
//! move: white` tag says otherwise); marks without colours (`*`, or one
//! colour only) are allowed on the four centre squares and mean the
//! standard start. Column labels `a`–`h` above or below the grid and row
//! labels `1`–`8` before or after each row are optional. Squares are
//! separated by spaces or tabs; with tabs an empty field is a blank
//! square, with spaces a blank square is found by lining the row up with
//! the column labels or the full rows. Sheets are separated by blank
//! lines; `#` and `%` lines are comments; `Key: value` lines before the
//! grid are tags (`Black`, `White`, `Event`, `Site`, `Date`, `Round`,
//! `Black rating`, `White rating`, `Result`, `Theoretical black score`,
//! `Rules`, `To move`; others are kept as they are).
//!
//! A sheet gives no passes and no colours: the replay inserts the passes.
//! Numbers on two squares, numbers missing below the highest one, and
//! cells that are neither a number nor a disc are reported together as
//! the record's defect, at the first of them; the moves before the first
//! missing or doubled number are kept.
//!
//! Write: the layout above with `X`/`O` start discs and `-` for squares
//! nobody played, tags first, one blank line after each sheet.

use crate::engine::game::Move;
use crate::formats::features::{Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo};
use crate::record::Token;

mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{sniff, Reader};
pub use write::write_record;

use write::{named_tags, writable_tag, writable_value, SheetFormat};

/// The score sheet row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    aliases: &["score-sheet"],
    extensions: &["sheet"],
    text: Some(&SheetFormat),
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::ExplicitPasses,
        Feature::UnreadableMoves,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[
        Check {
            loss: "moves on squares already taken",
            applies: |g| {
                let record = g.record;
                let mut seen = record.start.board().black().0 | record.start.board().white().0;
                record.moves.iter().any(|m| match m.token {
                    Token::Move(Move::Play(sq)) => {
                        let repeated = seen & sq.mask() != 0;
                        seen |= sq.mask();
                        repeated
                    }
                    _ => false,
                })
            },
        },
        Check {
            loss: "tags that are not one line without spaces around it",
            applies: |g| {
                let tags = &g.record.tags;
                named_tags(tags)
                    .iter()
                    .any(|(_, v)| v.as_deref().is_some_and(|v| !writable_value(v)))
                    || tags.extra.iter().any(|(k, v)| !writable_tag(k, v))
            },
        },
    ],
    ..FormatInfo::new(
        Format::Sheet,
        "sheet",
        "2-D score sheets: move numbers in an 8x8 grid, as players write",
        sniff,
        |input, _| Box::new(Reader::new(input)),
    )
};
