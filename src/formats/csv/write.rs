//! Writing the table: [`Column::ALL`] in order, each field quoted where
//! it must be ([`push_csv_field`]) straight into the slice's buffer.

use crate::formats::format::TextFormat;
use crate::game::Move;
use crate::record::Token;
use crate::table::{push_csv_field, Column, Game, Value};

/// Writes the table as CSV.
pub(super) struct Table;

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

    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut num = itoa::Buffer::new();
        for (i, column) in Column::ALL.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            match column {
                Column::Moves if plain_moves(game, out) => continue,
                // Digits, signs, `-`, `/`, spaces and words: never quoted.
                Column::RecordedResult => {
                    if let Some(result) = &game.record.result {
                        result.push_to(out);
                    }
                    continue;
                }
                _ => {}
            }
            match column.value(game) {
                Value::Null => {}
                Value::Int(n) => out.extend_from_slice(num.format(n).as_bytes()),
                Value::Str(text) => push_csv_field(out, text.as_bytes()),
                Value::Text(text) => push_csv_field(out, text.as_bytes()),
            }
        }
        out.push(b'\n');
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
