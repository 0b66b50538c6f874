//! Reading one object a game: the table's columns by their names, then
//! what only JSON keeps.

use serde::Deserialize;
use serde_json::{Map, Value as Json};

use crate::engine::game::Move;
use crate::formats::jsonl::shapes::{AnnotationJson, OtherBoardJson, PlyJson};
use crate::formats::per_line::{LineFormat, LineReader};
use crate::formats::transcript::{parse_line, LineContext};
use crate::record::row::{Column, Start};
use crate::record::source::{ParseError, Span};
use crate::record::{
    GameRecord, MoveNote, Origin, RecordedMove, RecordedResult, ResultValue, Rules, Token,
};
use crate::{Color, Square};

/// The fields only JSON has (the table's are read by [`Column`] name).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Extras {
    rules: Option<String>,
    site: Option<String>,
    round: Option<String>,
    black_rating: Option<String>,
    white_rating: Option<String>,
    tags: Vec<(String, String)>,
    // The name of `table::RECORDED_DATE`, which CSV's tags use too.
    recorded_date: Option<String>,
    theoretical_depth: Option<u8>,
    annotations: Vec<AnnotationJson>,
    other_board: Option<OtherBoardJson>,
    plies: Vec<PlyJson>,
}

/// What a JSON value is, for a message.
fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "text",
        Json::Array(_) => "a list",
        Json::Object(_) => "an object",
    }
}

/// A line that holds no game, at its start.
fn bad(ctx: LineContext, message: impl std::fmt::Display) -> ParseError {
    ParseError::at(
        Span::new(ctx.byte, ctx.line, 1, 1),
        format!("bad JSON: {message}"),
    )
}

/// The text of a table field; absent or null is none.
fn text(
    object: &mut Map<String, Json>,
    column: Column,
    ctx: LineContext,
) -> Result<Option<String>, ParseError> {
    match object.remove(column.name()) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(text)) => Ok(Some(text)),
        Some(other) => Err(bad(
            ctx,
            format_args!("{} is {}, not text", column.name(), kind(&other)),
        )),
    }
}

/// The whole number of a table field, at most `u8::MAX`; absent or null
/// is none.
fn small(
    object: &mut Map<String, Json>,
    column: Column,
    ctx: LineContext,
) -> Result<Option<u8>, ParseError> {
    match object.remove(column.name()) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Number(n)) => n
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| {
                bad(
                    ctx,
                    format_args!("{} is {n}, not a whole number 0-255", column.name()),
                )
            }),
        Some(other) => Err(bad(
            ctx,
            format_args!("{} is {}, not a number", column.name(), kind(&other)),
        )),
    }
}

/// Whether a move written alone is a pass (the transcript's spellings,
/// and `-` as Othello Quest writes it).
fn is_pass(text: &str) -> bool {
    ["pass", "pa", "ps"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(text))
        || (!text.is_empty() && text.bytes().all(|b| b == b'-'))
        || text == "@@"
        || text == "@@@@"
}

/// Adds the move written `text` to `record`.
fn push_move(record: &mut GameRecord, text: &str, color: Option<Color>) {
    let trimmed = text.trim();
    let token = if is_pass(trimmed) {
        Token::Move(Move::Pass)
    } else if let Some(sq) = Square::from_ascii(trimmed.as_bytes()) {
        Token::Move(Move::Play(sq))
    } else {
        record.unreadable.push((record.moves.len(), text.into()));
        Token::Unreadable
    };
    record.moves.push(RecordedMove { token, color });
}

/// The `moves` field: a transcript or a list of moves.
fn read_moves(record: &mut GameRecord, moves: Json, ctx: LineContext) -> Result<(), ParseError> {
    match moves {
        Json::Null => {}
        Json::String(text) => {
            if let Some(parsed) = parse_line(text.as_bytes(), ctx) {
                record.moves = parsed.moves;
                record.unreadable = parsed.unreadable;
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let Json::String(text) = item else {
                    return Err(bad(
                        ctx,
                        format_args!("move {} is {}, not text", i + 1, kind(item)),
                    ));
                };
                push_move(record, text, None);
            }
        }
        other => {
            return Err(bad(
                ctx,
                format_args!("moves is {}, not text or a list", kind(&other)),
            ))
        }
    }
    Ok(())
}

/// The record of one object, or why it is none.
fn record_of(mut object: Map<String, Json>, ctx: LineContext) -> Result<GameRecord, ParseError> {
    let mut record = GameRecord::default();
    let start = text(&mut object, Column::Start, ctx)?;
    let moves = object.remove(Column::Moves.name()).unwrap_or(Json::Null);
    let event = text(&mut object, Column::Event, ctx)?;
    let date = text(&mut object, Column::Date, ctx)?;
    let black = text(&mut object, Column::BlackPlayer, ctx)?;
    let white = text(&mut object, Column::WhitePlayer, ctx)?;
    let result = text(&mut object, Column::RecordedResult, ctx)?;
    let black_score = small(&mut object, Column::RecordedBlackScore, ctx)?;
    let theoretical = small(&mut object, Column::TheoreticalBlackScore, ctx)?;
    let extras: Extras = serde_json::from_value(Json::Object(object)).map_err(|e| bad(ctx, e))?;
    match start.as_deref().and_then(Start::parse) {
        Some(Start::Position(position)) => record.start = position,
        Some(Start::Other(board)) => record.other_board = Some(board),
        None => {}
    }
    if let Some(board) = extras.other_board {
        record.other_board = Some(board.into());
    }
    if extras.plies.is_empty() {
        read_moves(&mut record, moves, ctx)?;
    } else {
        let with_notes = extras
            .plies
            .iter()
            .any(|p| !p.implicit && (p.eval.is_some() || p.time.is_some()));
        for ply in extras.plies.iter().filter(|p| !p.implicit) {
            push_move(&mut record, &ply.mv, ply.color);
            if with_notes {
                record.notes.push(MoveNote {
                    eval: ply.eval,
                    time: ply.time,
                });
            }
        }
    }
    let t = &mut record.tags;
    t.event = event;
    t.date = extras.recorded_date.or(date);
    t.black = black;
    t.white = white;
    t.site = extras.site;
    t.round = extras.round;
    t.black_rating = extras.black_rating;
    t.white_rating = extras.white_rating;
    t.extra = extras.tags;
    record.result = match result {
        Some(text) => text.parse::<RecordedResult>().ok(),
        None => black_score.filter(|&b| b <= 64).map(|b| {
            RecordedResult::new(ResultValue::Discs {
                black: b,
                white: 64 - b,
            })
        }),
    };
    record.theoretical_black_score = theoretical;
    record.theoretical_depth = extras.theoretical_depth;
    if extras.rules.as_deref() == Some("anti") {
        record.rules = Rules::Anti;
    }
    record.annotations = extras.annotations.into_iter().map(Into::into).collect();
    record.origin = Origin {
        index: ctx.index,
        line: Some(ctx.line),
        byte: ctx.byte,
        text: None,
    };
    Ok(record)
}

/// Streams games from JSON Lines, one object per non-blank line (a line
/// over 1 MiB is an invalid game).
pub type Reader<R> = LineReader<R, JsonLine>;

/// A line of JSON Lines as a game: a blank line is none; any other is
/// one, invalid (with where) when it is not an object of a game.
#[derive(Clone, Copy, Default, Debug)]
pub struct JsonLine;

impl LineFormat for JsonLine {
    fn game(self, text: &[u8], ctx: LineContext) -> Option<GameRecord> {
        let trimmed = text.trim_ascii();
        if trimmed.is_empty() {
            return None;
        }
        // The game is still counted: invalid, with where.
        Some(match serde_json::from_slice::<Map<String, Json>>(trimmed) {
            Ok(object) => record_of(object, ctx).unwrap_or_else(|e| bad_line(ctx, Some(text), e)),
            Err(e) => {
                let column = (e.column() as u32).max(1);
                let span = Span::new(ctx.byte + u64::from(column - 1), ctx.line, column, 1);
                let defect = ParseError::at(span, format!("bad JSON: {e}"));
                bad_line(ctx, Some(text), defect)
            }
        })
    }
}

/// The game of a line that holds none: invalid, with why.
fn bad_line(ctx: LineContext, text: Option<&[u8]>, defect: ParseError) -> GameRecord {
    GameRecord {
        origin: Origin {
            index: ctx.index,
            line: Some(ctx.line),
            byte: ctx.byte,
            text: text.map(|t| String::from_utf8_lossy(t).into()),
        },
        defect: Some(defect),
        ..GameRecord::default()
    }
}
