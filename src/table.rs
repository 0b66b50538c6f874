//! One summary row per game: the CSV table of SPEC section 4, shared by
//! the CSV and JSON Lines writers and by `kifu score`.

use crate::record::{GameRecord, Report};
use crate::{Status, Winner};

/// A column of the game table: SPEC section 4's, in its order, then the
/// ones kifu adds at the end. This list is the one place the table's
/// columns are named; the CSV, JSON Lines and Parquet writers, the CSV
/// reader and `kifu score` all go through it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Column {
    /// The input path as given (`-` for standard input).
    Source,
    /// 1-based game number within its input.
    Index,
    /// Tournament or event.
    Event,
    /// Date as recorded.
    Date,
    /// Black's name.
    BlackPlayer,
    /// White's name.
    WhitePlayer,
    /// Every move as recorded, lowercase, concatenated, passes left out.
    Moves,
    /// Discs placed.
    MoveCount,
    /// Passes played, implicit and explicit.
    Passes,
    /// Black discs on the final (or last legal) board.
    BlackDiscs,
    /// White discs on it.
    WhiteDiscs,
    /// Empty squares on it.
    Empties,
    /// Black's score with empties to the winner (complete games).
    BlackScore,
    /// White's score likewise.
    WhiteScore,
    /// `black`, `white` or `draw`.
    Winner,
    /// Black's score as the record states it.
    RecordedBlackScore,
    /// `complete`, `incomplete` or `invalid`.
    Status,
    /// 1-based number of the first offending move token.
    ErrorMove,
    /// Why the game is invalid.
    Error,
    /// Black's theoretical score (WTHOR).
    TheoreticalBlackScore,
    /// The result as the record states it (`34-30`, `+2`, `1-0 (resigned)`).
    RecordedResult,
    /// A non-standard start: 64 squares `X`/`O`/`-`, a space, `X` or `O`.
    Start,
    /// Every other tag, as a JSON array of `[name, value]` pairs.
    Tags,
}

/// What a column holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Text (empty or null when absent).
    Text,
    /// A whole number (empty or null when absent).
    Integer,
}

/// The value of a column for one game.
#[derive(Clone, PartialEq, Debug)]
pub enum Value<'a> {
    /// Nothing: an empty CSV field, a JSON or Parquet null.
    Null,
    /// A whole number.
    Int(u64),
    /// Text borrowed from the record.
    Str(&'a str),
    /// Text made for the table.
    Text(String),
}

impl Value<'_> {
    /// The text of the value (`""` for null).
    #[must_use]
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Value::Null => "".into(),
            Value::Int(n) => n.to_string().into(),
            Value::Str(s) => (*s).into(),
            Value::Text(s) => s.as_str().into(),
        }
    }
}

impl Column {
    /// Every column, in table order.
    pub const ALL: [Column; 23] = [
        Column::Source,
        Column::Index,
        Column::Event,
        Column::Date,
        Column::BlackPlayer,
        Column::WhitePlayer,
        Column::Moves,
        Column::MoveCount,
        Column::Passes,
        Column::BlackDiscs,
        Column::WhiteDiscs,
        Column::Empties,
        Column::BlackScore,
        Column::WhiteScore,
        Column::Winner,
        Column::RecordedBlackScore,
        Column::Status,
        Column::ErrorMove,
        Column::Error,
        Column::TheoreticalBlackScore,
        Column::RecordedResult,
        Column::Start,
        Column::Tags,
    ];

    /// The header name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Column::Source => "source",
            Column::Index => "index",
            Column::Event => "event",
            Column::Date => "date",
            Column::BlackPlayer => "black_player",
            Column::WhitePlayer => "white_player",
            Column::Moves => "moves",
            Column::MoveCount => "move_count",
            Column::Passes => "passes",
            Column::BlackDiscs => "black_discs",
            Column::WhiteDiscs => "white_discs",
            Column::Empties => "empties",
            Column::BlackScore => "black_score",
            Column::WhiteScore => "white_score",
            Column::Winner => "winner",
            Column::RecordedBlackScore => "recorded_black_score",
            Column::Status => "status",
            Column::ErrorMove => "error_move",
            Column::Error => "error",
            Column::TheoreticalBlackScore => "theoretical_black_score",
            Column::RecordedResult => "recorded_result",
            Column::Start => "start",
            Column::Tags => "tags",
        }
    }

    /// The column of a header name (exact, ignoring case and spaces
    /// around it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Column> {
        let name = name.trim();
        Column::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// Whether the replay decides the value (the readers recompute it).
    #[must_use]
    pub const fn is_derived(self) -> bool {
        !matches!(
            self,
            Column::Event
                | Column::Date
                | Column::BlackPlayer
                | Column::WhitePlayer
                | Column::Moves
                | Column::RecordedBlackScore
                | Column::TheoreticalBlackScore
                | Column::RecordedResult
                | Column::Start
                | Column::Tags
        )
    }

    /// What the column holds.
    #[must_use]
    pub const fn kind(self) -> Kind {
        match self {
            Column::Index
            | Column::MoveCount
            | Column::Passes
            | Column::BlackDiscs
            | Column::WhiteDiscs
            | Column::Empties
            | Column::BlackScore
            | Column::WhiteScore
            | Column::RecordedBlackScore
            | Column::ErrorMove
            | Column::TheoreticalBlackScore => Kind::Integer,
            _ => Kind::Text,
        }
    }

    /// The value of this column for `game`.
    #[must_use]
    pub fn value<'a>(self, game: &Game<'a>) -> Value<'a> {
        let record = game.record;
        let finish = &game.report.finish;
        let text = |t: &'a Option<String>| t.as_deref().map_or(Value::Null, Value::Str);
        let int = |n: Option<u64>| n.map_or(Value::Null, Value::Int);
        match self {
            Column::Source => Value::Str(game.source),
            Column::Index => Value::Int(record.origin.index),
            Column::Event => text(&record.tags.event),
            Column::Date => text(&record.tags.date),
            Column::BlackPlayer => text(&record.tags.black),
            Column::WhitePlayer => text(&record.tags.white),
            Column::Moves => Value::Text(record.move_string()),
            Column::MoveCount => Value::Int(u64::from(finish.placed)),
            Column::Passes => Value::Int(u64::from(finish.passes)),
            Column::BlackDiscs => Value::Int(u64::from(finish.score.black_discs)),
            Column::WhiteDiscs => Value::Int(u64::from(finish.score.white_discs)),
            Column::Empties => Value::Int(u64::from(finish.score.empties)),
            Column::BlackScore => int(game.scores().map(|(b, _)| u64::from(b))),
            Column::WhiteScore => int(game.scores().map(|(_, w)| u64::from(w))),
            Column::Winner => game.winner().map_or(Value::Null, |w| Value::Str(w.name())),
            Column::RecordedBlackScore => int(game.recorded_black_score().map(u64::from)),
            Column::Status => Value::Str(game.status().name()),
            Column::ErrorMove => int(game.error_move().map(|n| n as u64)),
            Column::Error => game.error().map_or(Value::Null, Value::Text),
            Column::TheoreticalBlackScore => int(record.theoretical_black_score.map(u64::from)),
            Column::RecordedResult => record
                .result
                .map_or(Value::Null, |r| Value::Text(r.to_string())),
            Column::Start => game.start().map_or(Value::Null, Value::Text),
            Column::Tags => {
                let tags = game.tags();
                if tags.is_empty() {
                    Value::Null
                } else {
                    Value::Text(tags)
                }
            }
        }
    }
}

/// Names under which the `tags` column keeps the tag fields that have no
/// column of their own.
pub const TAG_NAMES: [&str; 4] = ["site", "round", "black_rating", "white_rating"];

/// The summary of one replayed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game<'a> {
    /// The input path as given (`-` for stdin).
    pub source: &'a str,
    /// The record.
    pub record: &'a GameRecord,
    /// Its replay.
    pub report: &'a Report,
}

impl<'a> Game<'a> {
    /// A row for `record` read from `source`.
    #[must_use]
    pub fn new(source: &'a str, record: &'a GameRecord, report: &'a Report) -> Game<'a> {
        Game {
            source,
            record,
            report,
        }
    }

    /// Complete, incomplete or invalid.
    #[must_use]
    pub fn status(&self) -> Status {
        self.report.status()
    }

    /// Black's and White's scores (empties to the winner), for a complete
    /// game only.
    #[must_use]
    pub fn scores(&self) -> Option<(u8, u8)> {
        self.report
            .final_score()
            .map(|s| (s.black_score, s.white_score))
    }

    /// The winner: from the board for a complete game, from the recorded
    /// result for an incomplete one, none for an invalid one.
    #[must_use]
    pub fn winner(&self) -> Option<Winner> {
        match self.status() {
            Status::Complete => Some(self.report.finish.score.winner),
            Status::Incomplete => self.record.result.and_then(|r| r.winner()),
            Status::Invalid => None,
        }
    }

    /// What the record claims as Black's score, if it gives one.
    #[must_use]
    pub fn recorded_black_score(&self) -> Option<u8> {
        self.record.result.and_then(|r| r.black_score())
    }

    /// Whether a recorded result disagrees with the replay of a complete
    /// game (`None` when there is nothing to compare).
    #[must_use]
    pub fn disagrees(&self) -> Option<bool> {
        let score = self.report.final_score()?;
        let result = self.record.result?;
        Some(!result.agrees_with(&score))
    }

    /// The 1-based number of the first offending move token.
    #[must_use]
    pub fn error_move(&self) -> Option<usize> {
        self.report.error.as_ref().and_then(|e| e.move_number())
    }

    /// The reason a game is invalid.
    #[must_use]
    pub fn error(&self) -> Option<String> {
        self.report.error.as_ref().map(|e| e.reason())
    }

    /// The start as a board string (`X`/`O`/`-`, a space, `X` or `O`),
    /// only when it is not the standard one.
    #[must_use]
    pub fn start(&self) -> Option<String> {
        if self.record.has_standard_start() {
            return None;
        }
        Some(self.record.start.to_string())
    }

    /// The tags without a column of their own, as a JSON array of
    /// `[name, value]` pairs (empty text when there are none).
    #[must_use]
    pub fn tags(&self) -> String {
        let t = &self.record.tags;
        let fixed = [&t.site, &t.round, &t.black_rating, &t.white_rating];
        let pairs: Vec<(&str, &str)> = TAG_NAMES
            .iter()
            .zip(fixed)
            .filter_map(|(name, value)| value.as_deref().map(|v| (*name, v)))
            .chain(t.extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .collect();
        if pairs.is_empty() {
            String::new()
        } else {
            serde_json::to_string(&pairs).unwrap_or_default()
        }
    }
}
