//! The GGF writer: one game a line.

use std::borrow::Cow;

use crate::engine::game::{Move, Status};
use crate::formats::ggf::syntax::{GameType, MAX_NAME};
use crate::record::date::RecordDate;
use crate::record::row::Game;
use crate::record::{OtherBoard, ResultKind, ResultValue, Rules, Token};
use crate::{Color, GameRecord, Position, Score, Square};

/// Tags the writer produces itself; an extra tag of that name cannot be
/// written without changing its meaning.
const RESERVED: [&str; 11] = [
    "GM", "PC", "DT", "EV", "PB", "PW", "RB", "RW", "BO", "B", "W",
];

/// Writes a tag value, escaping what the reader would take for the end of
/// the value or of the game.
fn push_value(out: &mut String, value: &str) {
    let mut prev = '\0';
    for c in value.chars() {
        match c {
            '\\' | '[' | ']' => out.push('\\'),
            ';' if prev == '(' => out.push('\\'),
            _ => {}
        }
        out.push(c);
        prev = c;
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push_str(name);
    out.push('[');
    push_value(out, value);
    out.push(']');
}

/// Whether an extra tag of this name can be written as it is.
pub(super) fn writable_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|c| c.is_ascii_alphanumeric())
        && !RESERVED.contains(&name)
}

/// The `TY` value to write: the kept one, with the anti flag made to agree
/// with the record's rules.
fn type_for(record: &GameRecord, kept: Option<&str>) -> Option<String> {
    let anti = record.rules == Rules::Anti;
    match kept {
        Some(text) => match GameType::parse(text) {
            Some(ty) if ty.anti == anti => Some(text.to_owned()),
            Some(mut ty) => {
                ty.anti = anti;
                Some(ty.to_string())
            }
            None => Some(text.to_owned()),
        },
        None => {
            let other = record.other_board.as_ref();
            let size = other.map_or(8, |b| u32::from(b.size));
            // The `BO` written says the size, unless it is missing or in
            // another notation.
            let said = other.is_none_or(|b| board_size(b) == Some(size));
            (anti || !said).then(|| {
                GameType {
                    size,
                    anti,
                    ..GameType::default()
                }
                .to_string()
            })
        }
    }
}

/// The size a kept `BO` value of a board kifu does not play starts with.
fn board_size(other: &OtherBoard) -> Option<u32> {
    other.start.split_ascii_whitespace().next()?.parse().ok()
}

/// Whether the start of a board kifu does not play is a `BO` value (a
/// GGF record's, written back as it was) rather than another format's
/// notation, which GGF cannot write.
pub(super) fn is_ggf_board(other: &OtherBoard) -> bool {
    board_size(other).is_some()
}

/// Black's margin for a raw disc difference, and whether it is exact: it
/// is when the record's replay ends the game with that difference.
pub(super) fn raw_margin(game: &Game<'_>, raw: i32) -> (f64, bool) {
    let report = game.report;
    if report.status() == Status::Complete {
        let s = report.finish.score;
        if i32::from(s.black_discs) - i32::from(s.white_discs) == raw {
            return (f64::from(s.black_score) * 2.0 - 64.0, true);
        }
    }
    (f64::from(raw), false)
}

/// The `RE` text of the record's result, when GGF can hold it.
fn result_text(game: &Game<'_>) -> Option<String> {
    let record = game.record;
    let result = record.result?;
    let margin = match result.value {
        ResultValue::Margin(m) => m,
        ResultValue::Discs { black, white } => {
            if u16::from(black) + u16::from(white) > 64 {
                return None;
            }
            let score = match record.rules {
                Rules::Standard => Score::from_discs(black, white),
                Rules::Anti => Score::anti(black, white),
            };
            f64::from(score.black_score) * 2.0 - 64.0
        }
        ResultValue::RawMargin(raw) => raw_margin(game, raw).0,
        ResultValue::Winner(_) => return None,
    };
    if !margin.is_finite() || margin.abs() > 64.0 {
        return None;
    }
    let mut text = format!("{margin:+.3}");
    if text.parse::<f64>().ok() != Some(margin) {
        text = format!("{margin:+}");
    }
    text.push_str(match result.kind {
        ResultKind::Score => "",
        ResultKind::Resigned => ":r",
        ResultKind::Time => ":t",
        ResultKind::Mutual => ":s",
    });
    Some(text)
}

/// The `DT` value of a date as a record writes it: a form no GGF reader
/// takes for another date. A bare number is Unix seconds to GGF readers,
/// so a year alone is written `2004.??.??`, a month `2004.05.??`, a day
/// `2004.05.12`, a time in GGS's form `2003.12.15_12:33:18.MST` (the zone
/// as recorded, a numeric offset turned to UTC). Unix seconds, GGF's own
/// other form, and a date in no known form stay as written.
fn date_text(text: &str) -> Cow<'_, str> {
    let trimmed = text.trim();
    if trimmed.len() >= 9 && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Cow::Borrowed(text);
    }
    let Some(date) = RecordDate::parse(text) else {
        return Cow::Borrowed(text);
    };
    let name = zone_name(trimmed);
    let date = if date.offset.is_some() && name.is_none() {
        let utc = date.to_utc();
        if utc.offset != Some(0) {
            // Past year 9999 in UTC: no form but the record's own.
            return Cow::Borrowed(text);
        }
        utc
    } else {
        date
    };
    let y = date.year;
    Cow::Owned(match (date.month, date.day, date.time) {
        (None, _, _) => format!("{y:04}.??.??"),
        (Some(mo), None, _) => format!("{y:04}.{mo:02}.??"),
        (Some(mo), Some(d), None) => format!("{y:04}.{mo:02}.{d:02}"),
        (Some(mo), Some(d), Some((h, mi, s))) => {
            let zone = match date.offset {
                Some(_) => format!(".{}", name.unwrap_or("UTC")),
                None => String::new(),
            };
            format!("{y:04}.{mo:02}.{d:02}_{h:02}:{mi:02}:{s:02}{zone}")
        }
    })
}

/// The zone name a date ends with (`MST`, `GMT`); not `Z`, UTC's letter.
fn zone_name(date: &str) -> Option<&str> {
    let start = date
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .len();
    let name = date.get(start..)?;
    (!name.is_empty() && !name.eq_ignore_ascii_case("z")).then_some(name)
}

/// Writes the `BO` value of a position.
fn push_board(out: &mut String, position: &Position) {
    out.push_str("BO[8");
    for (i, square) in Square::all().enumerate() {
        if i % 8 == 0 {
            out.push(' ');
        }
        out.push(match position.board().get(square) {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        });
    }
    out.push_str(match position.side_to_move() {
        Color::Black => " *]",
        Color::White => " O]",
    });
}

/// Writes one game as a GGF line (see the module documentation).
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying).
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    let tags = &record.tags;
    out.push_str("(;GM[Othello]");
    if let Some(site) = &tags.site {
        push_tag(out, "PC", site);
    }
    if let Some(date) = &tags.date {
        push_tag(out, "DT", &date_text(date));
    }
    for (name, value) in [
        ("EV", &tags.event),
        ("PB", &tags.black),
        ("PW", &tags.white),
        ("RB", &tags.black_rating),
        ("RW", &tags.white_rating),
    ] {
        if let Some(value) = value {
            push_tag(out, name, value);
        }
    }
    let mut wrote_type = false;
    let mut kept_result = None;
    for (name, value) in &tags.extra {
        match name.as_str() {
            "TY" if !wrote_type => {
                if let Some(ty) = type_for(record, Some(value)) {
                    push_tag(out, "TY", &ty);
                }
                wrote_type = true;
            }
            "TY" => {}
            "RE" => {
                kept_result.get_or_insert(value.as_str());
            }
            _ if writable_name(name) => push_tag(out, name, value),
            _ => {}
        }
    }
    if !wrote_type {
        if let Some(ty) = type_for(record, None) {
            push_tag(out, "TY", &ty);
        }
    }
    match (result_text(game), kept_result) {
        (Some(text), _) => push_tag(out, "RE", &text),
        (None, Some(kept)) => push_tag(out, "RE", kept),
        (None, None) => out.push_str("RE[?]"),
    }
    match &record.other_board {
        None => push_board(out, &record.start),
        Some(other) if is_ggf_board(other) => push_tag(out, "BO", &other.start),
        Some(_) => {}
    }
    let mut next = record.start.side_to_move();
    for turn in record.plies(game.report) {
        let i = turn.index;
        // Nothing replays a board kifu does not play: its colours are the
        // record's own, as GGF writes them.
        let color = match (&record.other_board, record.moves.get(i)) {
            (Some(_), Some(m)) => m.color.unwrap_or(next),
            _ => turn.color,
        };
        next = color.opponent();
        if turn.pass_before {
            out.push_str(match color {
                Color::Black => "W[PA]",
                Color::White => "B[PA]",
            });
        }
        out.push_str(match color {
            Color::Black => "B[",
            Color::White => "W[",
        });
        match turn.token {
            Token::Move(Move::Play(square)) => {
                let [c, r] = square.to_ascii();
                out.push(char::from(c));
                out.push(char::from(r));
            }
            Token::Move(Move::Pass) => out.push_str("PA"),
            Token::Unreadable => push_value(out, &record.token_text(i)),
        }
        if let Some(note) = record.notes.get(i) {
            if note.eval.is_some() || note.time.is_some() {
                out.push('/');
                if let Some(eval) = note.eval {
                    out.push_str(&eval.to_string());
                }
                if let Some(time) = note.time {
                    out.push('/');
                    out.push_str(&time.to_string());
                }
            }
        }
        out.push(']');
    }
    out.push_str(";)\n");
}
