//! Writing PGN: the tags, then the numbered move text.

use crate::formats::features::Check;
use crate::formats::format::TextFormat;
use crate::formats::pgn::fen::write_fen;
use crate::formats::pgn::lex::{classify, Lexeme};
use crate::game::{Move, Winner};
use crate::record::{MoveNote, RecordedResult, ResultKind, ResultValue, Rules, Token};
use crate::table::Game;
use crate::{Color, GameRecord};

fn termination_text(kind: ResultKind) -> Option<&'static str> {
    match kind {
        ResultKind::Score => None,
        ResultKind::Resigned => Some("resignation"),
        ResultKind::Time => Some("time forfeit"),
        ResultKind::Mutual => Some("agreement"),
    }
}

/// The comment carrying a move's evaluation and time.
fn note_comment(note: &MoveNote) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(eval) = note.eval {
        parts.push(format!("[%eval {eval}]"));
    }
    if let Some(time) = note.time {
        parts.push(format!("[%emt {time}]"));
    }
    (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(" ")))
}

/// The text of a result: disc counts when known, else the winner.
fn result_text(result: Option<&RecordedResult>) -> String {
    let Some(result) = result else {
        return "*".to_owned();
    };
    let winner = || match result.winner() {
        Some(Winner::Black) => "1-0".to_owned(),
        Some(Winner::White) => "0-1".to_owned(),
        Some(Winner::Draw) => "1/2-1/2".to_owned(),
        None => "*".to_owned(),
    };
    match result.value {
        ResultValue::Discs { black, white } if u16::from(black) + u16::from(white) <= 64 => {
            format!("{black}-{white}")
        }
        ResultValue::Discs { .. } => winner(),
        ResultValue::Margin(_) => match result.black_score() {
            Some(b) => format!("{b}-{}", 64 - b),
            None => winner(),
        },
        ResultValue::RawMargin(_) | ResultValue::Winner(_) => winner(),
    }
}

/// A tag name PGN can hold: letters, digits and `_`.
fn tag_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        "Tag".to_owned()
    } else {
        clean
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// An unreadable token as written: one word that reads back unreadable.
fn unreadable_word(text: &str) -> String {
    let mut word: String = text
        .chars()
        .map(|c| {
            if c.is_whitespace() || "{}()[];\"%$".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    if word.is_empty() {
        word.push('?');
    }
    if classify(word.as_bytes()) != Lexeme::Unreadable {
        word.insert(0, '_');
    }
    word
}

/// Writes one game: tags, a blank line, the moves, the result.
///
/// ```
/// use kifu::formats::pgn::{write_record, Reader};
///
/// let game = Reader::new(&b"[Event \"Cup\"]\n1. f5 d6 1-0\n"[..]).next().unwrap()?;
/// let mut out = String::new();
/// write_record(&game, &mut out);
/// assert!(out.starts_with("[Event \"Cup\"]\n[Site \"?\"]\n"));
/// assert!(out.ends_with("[Result \"1-0\"]\n\n1. f5 d6 1-0\n\n"));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying).
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    let t = &record.tags;
    let result = result_text(record.result.as_ref());
    let or = |v: &Option<String>, d: &'static str| v.clone().unwrap_or_else(|| d.to_owned());
    push_tag(out, "Event", &or(&t.event, "?"));
    push_tag(out, "Site", &or(&t.site, "?"));
    push_tag(out, "Date", &or(&t.date, "????.??.??"));
    push_tag(out, "Round", &or(&t.round, "?"));
    push_tag(out, "Black", &or(&t.black, "?"));
    push_tag(out, "White", &or(&t.white, "?"));
    push_tag(out, "Result", &result);
    if let Some(r) = &t.black_rating {
        push_tag(out, "BlackElo", r);
    }
    if let Some(r) = &t.white_rating {
        push_tag(out, "WhiteElo", r);
    }
    if let Some(b) = record.theoretical_black_score.filter(|&b| b <= 64) {
        push_tag(out, "TheoreticalScore", &format!("{b}-{}", 64 - b));
    }
    if record.rules == Rules::Anti {
        push_tag(out, "Variant", "anti");
    }
    if let Some(text) = record.result.and_then(|r| termination_text(r.kind)) {
        push_tag(out, "Termination", text);
    }
    if !record.has_standard_start() {
        let mut fen = String::new();
        write_fen(&record.start, &mut fen);
        push_tag(out, "FEN", &fen);
    }
    for (name, value) in &t.extra {
        if name.eq_ignore_ascii_case("fen") || name.eq_ignore_ascii_case("setup") {
            continue;
        }
        push_tag(out, &tag_name(name), value);
    }
    out.push('\n');
    let colors: Vec<Color> = record.plies(game.report).map(|t| t.color).collect();
    let mut words: Vec<String> = Vec::with_capacity(record.moves.len() * 3 / 2 + 1);
    let mut number = 0u32;
    let mut after_black = false;
    for (i, m) in record.moves.iter().enumerate() {
        let color = colors.get(i).copied().unwrap_or(Color::Black);
        if color == Color::Black {
            number += 1;
            words.push(format!("{number}."));
        } else if !after_black {
            number += 1;
            words.push(format!("{number}..."));
        }
        after_black = color == Color::Black;
        words.push(match m.token {
            Token::Move(Move::Play(sq)) => sq.to_string(),
            Token::Move(Move::Pass) => "pass".to_owned(),
            Token::Unreadable => unreadable_word(&record.token_text(i)),
        });
        if let Some(comment) = record.notes.get(i).and_then(note_comment) {
            words.push(comment);
        }
    }
    words.push(result);
    let mut width = 0;
    for word in &words {
        let len = word.chars().count();
        if width > 0 && width + 1 + len > 80 {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += len;
    }
    out.push_str("\n\n");
}

/// What PGN's own syntax cannot hold.
pub(super) const CHECKS: &[Check] = &[
    Check {
        loss: "move colours after an illegal move",
        applies: colours_after_an_error,
    },
    Check {
        loss: "results with more than 64 discs",
        applies: |g| {
            matches!(g.record.result.map(|r| r.value),
                    Some(ResultValue::Discs { black, white }) if u16::from(black) + u16::from(white) > 64)
        },
    },
    Check {
        loss: "result margins that are not disc counts",
        applies: |g| {
            g.record.result.is_some_and(|r| {
                matches!(r.value, ResultValue::Margin(_)) && r.black_score().is_none()
            })
        },
    },
    Check {
        loss: "line breaks in tag values",
        applies: |g| {
            let t = &g.record.tags;
            [
                &t.event,
                &t.site,
                &t.date,
                &t.round,
                &t.black,
                &t.white,
                &t.black_rating,
                &t.white_rating,
            ]
            .iter()
            .filter_map(|v| v.as_deref())
            .chain(t.extra.iter().map(|(_, v)| v.as_str()))
            .any(|v| v.contains(['\n', '\r']))
        },
    },
    Check {
        loss: "tag names that are not PGN tag names",
        applies: |g| {
            g.record
                .tags
                .extra
                .iter()
                .any(|(name, _)| tag_name(name) != *name)
        },
    },
    Check {
        loss: "the spelling of unreadable moves",
        applies: |g| {
            g.record
                .unreadable
                .iter()
                .any(|(_, text)| unreadable_word(text) != **text)
        },
    },
];

/// Whether the record gives moves after an illegal one colours that PGN,
/// which numbers moves and keeps no colours, would not give back.
fn colours_after_an_error(game: &Game<'_>) -> bool {
    let mut plain = None;
    for turn in game.record.plies(game.report) {
        let expected = plain.unwrap_or(turn.color);
        if !turn.legal && turn.color != expected {
            return true;
        }
        plain = Some(expected.opponent());
    }
    false
}

/// Writes PGN.
pub(super) struct Pgn;

impl TextFormat for Pgn {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_game(game, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}
