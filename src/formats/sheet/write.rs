//! Writing score sheets: tags, then the grid `show --sheet` draws.

use crate::engine::game::Move;
use crate::formats::format::TextFormat;
use crate::formats::sheet::read::tag_line;
use crate::record::row::Game;
use crate::record::Token;
use crate::render::text::{sheet, Sheet, TextStyle};
use crate::{Color, GameRecord, Rules};

/// Writes score sheets.
pub(super) struct SheetFormat;

impl TextFormat for SheetFormat {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_record(game.record, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}

/// The keys the reader takes for fields of the record: an extra tag of
/// that name would not read back as itself.
const KNOWN_TAGS: [&str; 12] = [
    "black",
    "white",
    "event",
    "site",
    "date",
    "round",
    "black rating",
    "white rating",
    "result",
    "theoretical black score",
    "rules",
    "to move",
];

/// Whether an extra tag writes as a `Key: value` line that reads back as
/// the same tag.
pub(super) fn writable_tag(key: &str, value: &str) -> bool {
    let line = format!("{key}: {value}");
    tag_line(&line).is_some_and(|(k, v)| k == key && v == value)
        && !KNOWN_TAGS.contains(&key.to_ascii_lowercase().as_str())
        && writable_value(value)
}

/// Whether a tag's value reads back as itself from a `Key: value` line:
/// one line, no spaces around it (the reader trims them).
pub(super) fn writable_value(value: &str) -> bool {
    !value.contains(['\n', '\r']) && value.trim() == value
}

/// The named tags of a record, with their keys on a sheet.
pub(super) fn named_tags(tags: &crate::record::Tags) -> [(&'static str, &Option<String>); 8] {
    [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
        ("Black", &tags.black),
        ("White", &tags.white),
        ("Black rating", &tags.black_rating),
        ("White rating", &tags.white_rating),
    ]
}

/// Writes one game as a sheet: tags, the grid, and a blank line.
pub fn write_record(record: &GameRecord, out: &mut String) {
    let tags = &record.tags;
    // A value on several lines is left out, one with spaces around it
    // trimmed; both are named as lost (the format's checks).
    for (key, value) in named_tags(tags) {
        if let Some(v) = value {
            if !v.contains(['\n', '\r']) {
                out.push_str(&format!("{key}: {}\n", v.trim()));
            }
        }
    }
    for (key, value) in &tags.extra {
        if writable_tag(key, value) {
            out.push_str(&format!("{key}: {value}\n"));
        }
    }
    if let Some(result) = &record.result {
        out.push_str(&format!("Result: {result}\n"));
    }
    if let Some(n) = record.theoretical_black_score {
        out.push_str(&format!("Theoretical black score: {n}\n"));
    }
    if record.rules == Rules::Anti {
        out.push_str("Rules: anti\n");
    }
    if record.start.side_to_move() == Color::White {
        out.push_str("To move: white\n");
    }
    let colors = record.move_colors();
    let mut taken = record.start.board().black().0 | record.start.board().white().0;
    let mut number = 0u8;
    let mut moves = [None; 64];
    for (m, color) in record.moves.iter().zip(colors) {
        match m.token {
            Token::Move(Move::Pass) => {}
            Token::Unreadable => number = number.saturating_add(1),
            Token::Move(Move::Play(sq)) => {
                number = number.saturating_add(1);
                if taken & sq.mask() == 0 {
                    taken |= sq.mask();
                    moves[sq.index()] = Some((number, color));
                }
            }
        }
    }
    let style = TextStyle {
        ascii: true,
        ..TextStyle::default()
    };
    out.push_str(&sheet(
        &Sheet {
            moves,
            start: record.start,
        },
        &style,
    ));
    out.push('\n');
}
