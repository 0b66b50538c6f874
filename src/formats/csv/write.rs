//! Writing the table: [`Column::ALL`] in order, each field quoted by
//! csv-core straight into the slice's buffer.

use crate::formats::format::TextFormat;
use crate::game::Move;
use crate::record::Token;
use crate::table::{Column, Game, Value};

/// Writes the table as CSV.
pub(super) struct Table;

impl TextFormat for Table {
    fn header(&self, out: &mut Vec<u8>) {
        let mut w = csv_core::Writer::new();
        for (i, column) in Column::ALL.into_iter().enumerate() {
            if i > 0 {
                delimiter(&mut w, out);
            }
            field(&mut w, column.name().as_bytes(), out);
        }
        terminator(&mut w, out);
    }

    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut w = csv_core::Writer::new();
        let mut num = itoa::Buffer::new();
        for (i, column) in Column::ALL.into_iter().enumerate() {
            if i > 0 {
                delimiter(&mut w, out);
            }
            if column == Column::Moves && plain_moves(game, out) {
                continue;
            }
            match column.value(game) {
                Value::Null => {}
                Value::Int(n) => out.extend_from_slice(num.format(n).as_bytes()),
                Value::Str(text) => field(&mut w, text.as_bytes(), out),
                Value::Text(text) => field(&mut w, text.as_bytes(), out),
            }
        }
        terminator(&mut w, out);
    }
}

/// The moves column of a valid game written straight into `out` (squares
/// only: nothing to quote), as [`Game::moves`] writes it; `false` for a
/// game whose column needs more (an invalid game, unreadable tokens).
fn plain_moves(game: &Game<'_>, out: &mut Vec<u8>) -> bool {
    if game.report.error.is_some() || !game.record.unreadable.is_empty() {
        return false;
    }
    out.reserve(game.record.moves.len() * 2);
    for m in &game.record.moves {
        match m.token {
            Token::Move(Move::Play(square)) => out.extend_from_slice(&square.to_ascii()),
            Token::Move(Move::Pass) => {}
            // No unreadable token when the list of their texts is empty.
            Token::Unreadable => return false,
        }
    }
    true
}

/// Appends a field, quoted where it must be, straight into `out`.
fn field(w: &mut csv_core::Writer, mut input: &[u8], out: &mut Vec<u8>) {
    loop {
        let at = out.len();
        // Quoting at most doubles a field, plus its two quotes.
        out.resize(at + input.len() * 2 + 2, 0);
        let (result, read, written) = w.field(input, &mut out[at..]);
        out.truncate(at + written);
        input = &input[read..];
        if result == csv_core::WriteResult::InputEmpty {
            break;
        }
    }
}

/// Appends a comma, closing the quote of the field before if it has one.
fn delimiter(w: &mut csv_core::Writer, out: &mut Vec<u8>) {
    let at = out.len();
    out.resize(at + 4, 0);
    let (_, written) = w.delimiter(&mut out[at..]);
    out.truncate(at + written);
}

/// Ends the row likewise.
fn terminator(w: &mut csv_core::Writer, out: &mut Vec<u8>) {
    let at = out.len();
    out.resize(at + 4, 0);
    let (_, written) = w.terminator(&mut out[at..]);
    out.truncate(at + written);
}
