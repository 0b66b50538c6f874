//! Writing one object a game: the table's columns, then what only JSON
//! keeps.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::formats::format::TextFormat;
use crate::formats::jsonl::shapes::{AnnotationJson, OtherBoardJson, PlyJson};
use crate::record::row::{Column, Game, Value, RECORDED_DATE, TAG_NAMES};
use crate::record::{GameRecord, Report, Rules};

/// One line of the file: the object of one replayed game. It serialises
/// the table's fields from [`Column::ALL`] and the fields only JSON has
/// from the record (see the module).
#[derive(Clone, Debug)]
pub struct GameJson<'a> {
    /// The replayed game.
    pub game: Game<'a>,
    /// Every move with its colour, implicit passes included and marked
    /// (left out of the object when empty).
    pub plies: Vec<PlyJson>,
    /// The final board, 64 squares `X`/`O`/`-` from a1 to h8 (left out
    /// when empty).
    pub final_board: String,
}

fn board_string(position: &crate::Position) -> String {
    let mut out = position.to_string();
    // The squares alone: the side to move is not part of a final board.
    out.truncate(64);
    out
}

impl<'a> GameJson<'a> {
    /// The object for one replayed game.
    #[must_use]
    pub fn from_row(row: &Game<'a>) -> GameJson<'a> {
        GameJson {
            game: row.clone(),
            plies: plies(row.record, row.report),
            final_board: board_string(&row.report.finish.position),
        }
    }
}

impl Serialize for GameJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let game = &self.game;
        let record = game.record;
        let tags = &record.tags;
        let mut map = serializer.serialize_map(None)?;
        for column in Column::ALL {
            // JSON keeps the tags in fields of their own, below.
            if column == Column::Tags {
                continue;
            }
            let name = column.name();
            match column.value(game) {
                Value::Null => map.serialize_entry(name, &())?,
                Value::Int(n) => map.serialize_entry(name, &n)?,
                Value::Str(text) => map.serialize_entry(name, text)?,
                Value::Text(text) => map.serialize_entry(name, &text)?,
            }
        }
        let rules = match record.rules {
            Rules::Standard => "standard",
            Rules::Anti => "anti",
        };
        map.serialize_entry("rules", rules)?;
        let named = [
            &tags.site,
            &tags.round,
            &tags.black_rating,
            &tags.white_rating,
        ];
        for (name, value) in TAG_NAMES.iter().zip(named) {
            map.serialize_entry(name, value)?;
        }
        map.serialize_entry("tags", &tags.extra)?;
        if let Some(date) = game.recorded_date() {
            map.serialize_entry(RECORDED_DATE, date)?;
        }
        if let Some(depth) = record.theoretical_depth {
            map.serialize_entry("theoretical_depth", &depth)?;
        }
        if !record.annotations.is_empty() {
            let annotations: Vec<AnnotationJson> = record
                .annotations
                .iter()
                .map(AnnotationJson::from)
                .collect();
            map.serialize_entry("annotations", &annotations)?;
        }
        if let Some(board) = &record.other_board {
            map.serialize_entry("other_board", &OtherBoardJson::from(board))?;
        }
        if !self.plies.is_empty() {
            map.serialize_entry("plies", &self.plies)?;
        }
        if !self.final_board.is_empty() {
            map.serialize_entry("final_board", &self.final_board)?;
        }
        map.end()
    }
}

/// The moves with colours, implicit passes inserted, notes attached.
fn plies(record: &GameRecord, report: &Report) -> Vec<PlyJson> {
    let mut out = Vec::with_capacity(record.moves.len() + 4);
    for turn in record.plies(report) {
        if turn.pass_before {
            out.push(PlyJson {
                color: Some(turn.color.opponent()),
                mv: "pass".into(),
                implicit: true,
                ..PlyJson::default()
            });
        }
        let note = record.notes.get(turn.index).copied().unwrap_or_default();
        out.push(PlyJson {
            color: Some(turn.color),
            mv: record.token_text(turn.index),
            implicit: false,
            eval: note.eval,
            time: note.time,
        });
    }
    out
}

/// Writes JSON Lines.
pub(super) struct JsonLines;

impl TextFormat for JsonLines {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        // Serialising to memory fails only where a map key is no string,
        // and every key here is one.
        let _ = serde_json::to_writer(&mut *out, &GameJson::from_row(game));
        out.push(b'\n');
    }
}
