//! Writing the table: [`Column::ALL`] in order, each field quoted where
//! it must be ([`push_csv_field`]) straight into the slice's buffer.

use crate::formats::format::TextFormat;
use crate::record::row::{push_csv_field, Column, Game, Value};

/// Writes the table as CSV.
pub(super) struct Table;

/// Room a row takes besides its moves: a WTHOR row with long names is
/// about 200 bytes, so one reservation covers nearly every row.
const ROW_ROOM: usize = 256;

impl TextFormat for Table {
    fn header(&self, out: &mut Vec<u8>) {
        for (i, column) in Column::ALL.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            push_csv_field(out, column.name().as_bytes());
        }
        out.push(b'\n');
    }

    /// The row, written column by column with each column a constant, so
    /// that only its own arm of [`Column::value`] is compiled in (a loop
    /// over [`Column::ALL`] would match every column against all 24).
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        out.reserve(ROW_ROOM + 2 * game.record.moves.len());
        macro_rules! row {
            ($first:literal $($i:literal)*) => {
                field(Column::ALL[$first], game, out);
                $(
                    out.push(b',');
                    field(Column::ALL[$i], game, out);
                )*
            };
        }
        row!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
        out.push(b'\n');
    }
}

// The row above names every column once.
const _: () = assert!(Column::ALL.len() == 24);

/// One field of the row.
#[inline(always)]
fn field(column: Column, game: &Game<'_>, out: &mut Vec<u8>) {
    match column {
        Column::Moves if plain_moves(game, out) => return,
        // Digits, signs, `-`, `/`, spaces and words: never quoted.
        Column::RecordedResult => {
            if let Some(result) = &game.record.result {
                result.push_to(out);
            }
            return;
        }
        _ => {}
    }
    match column.value_inlined(game) {
        Value::Null => {}
        Value::Int(n) => push_uint(out, n),
        Value::Str(text) => push_csv_field(out, text.as_bytes()),
        Value::Text(text) => push_csv_field(out, text.as_bytes()),
    }
}

/// The decimal digits of `n`; the counts and scores of a row (below 100)
/// from a table.
#[inline(always)]
fn push_uint(out: &mut Vec<u8>, n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
    } else if n < 100 {
        out.extend_from_slice(&[b'0' + (n / 10) as u8, b'0' + (n % 10) as u8]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }
}

/// The moves column of a valid game written straight into `out` (squares
/// only: nothing to quote), as [`Game::moves`] writes it; `false` for a
/// game whose column needs more (an invalid game, unreadable tokens).
fn plain_moves(game: &Game<'_>, out: &mut Vec<u8>) -> bool {
    game.report.error.is_none() && game.record.push_squares(out)
}
