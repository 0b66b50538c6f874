//! One summary row per game: the CSV table of SPEC section 4, shared by
//! the CSV and JSON Lines writers and by `kifu score`.

use std::borrow::Cow;

use crate::engine::game::Move;
use crate::engine::openings::Opening;
use crate::record::date::RecordDate;
use crate::record::{GameRecord, OtherBoard, Report, Token};
use crate::{Position, Status, Winner};

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
    /// The date in ISO 8601 (`2004`, `2004-05-12`,
    /// `2003-12-15T19:33:18Z`), or as recorded when it is in no known form.
    Date,
    /// Black's name.
    BlackPlayer,
    /// White's name.
    WhitePlayer,
    /// Every move as recorded, lowercase, concatenated: passes left out of
    /// a valid game, written `pass` in an invalid one (see
    /// [`Game::moves`]).
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
    /// A non-standard start: 64 squares `X`/`O`/`-`, a space, `X` or `O`;
    /// on another board, its size and the source's start text
    /// (`4x4 ---- -O*- -*O- ---- *`).
    Start,
    /// Every other tag, as a JSON array of `[name, value]` pairs (see
    /// [`Game::tags`]).
    Tags,
    /// The name of the longest entry of the opening table
    /// ([`Openings::builtin`](crate::Openings::builtin)) the game reached, under any symmetry and by
    /// any move order; empty when it reached none.
    Opening,
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
    pub const ALL: [Column; 24] = [
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
        Column::Opening,
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
            Column::Opening => "opening",
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
        self.value_inlined(game)
    }

    /// [`Column::value`], inlined: called with a constant column, only
    /// that column's arm is left (the CSV writer's row, column by column).
    #[inline(always)]
    pub(crate) fn value_inlined<'a>(self, game: &Game<'a>) -> Value<'a> {
        let record = game.record;
        let finish = &game.report.finish;
        let text = |t: &'a Option<String>| t.as_deref().map_or(Value::Null, Value::Str);
        let int = |n: Option<u64>| n.map_or(Value::Null, Value::Int);
        match self {
            Column::Source => Value::Str(game.source),
            Column::Index => Value::Int(record.origin.index),
            Column::Event => text(&record.tags.event),
            Column::Date => match game.date() {
                Some(Cow::Borrowed(date)) => Value::Str(date),
                Some(Cow::Owned(date)) => Value::Text(date),
                None => Value::Null,
            },
            Column::BlackPlayer => text(&record.tags.black),
            Column::WhitePlayer => text(&record.tags.white),
            Column::Moves => Value::Text(game.moves()),
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
            Column::Opening => game.opening.map_or(Value::Null, |o| Value::Str(o.name())),
        }
    }
}

/// Names under which the `tags` column keeps the tag fields that have no
/// column of their own.
pub const TAG_NAMES: [&str; 4] = ["site", "round", "black_rating", "white_rating"];

/// Appends a CSV field, in quotes (its quotes doubled) when it holds a
/// comma, a quote or a line break, as the table always writes them.
#[inline]
pub fn push_csv_field(out: &mut Vec<u8>, field: &[u8]) {
    if !needs_quotes(field) {
        out.extend_from_slice(field);
        return;
    }
    out.reserve(field.len() + 2);
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// Whether a field holds a comma, a quote or a line break: eight bytes at
/// a time, each compared with the four at once (a byte of `x ^ c` is zero
/// where `x` has the byte `c`).
#[inline]
fn needs_quotes(field: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS != 0;
    let special = |x: u64| {
        has_zero(x ^ (ONES * u64::from(b',')))
            | has_zero(x ^ (ONES * u64::from(b'"')))
            | has_zero(x ^ (ONES * u64::from(b'\n')))
            | has_zero(x ^ (ONES * u64::from(b'\r')))
    };
    let word = |at: usize| {
        let mut bytes = [0u8; 8];
        if let Some(eight) = field.get(at..at + 8) {
            bytes.copy_from_slice(eight);
        }
        u64::from_le_bytes(bytes)
    };
    let len = field.len();
    if len < 8 {
        // Zero bytes are not special: a short field padded with them.
        let mut bytes = [0u8; 8];
        for (b, &f) in bytes.iter_mut().zip(field) {
            *b = f;
        }
        return special(u64::from_le_bytes(bytes));
    }
    // Whole words, then the last eight bytes (overlapping the words
    // before them) for the rest.
    let mut at = 0;
    while at + 8 <= len {
        if special(word(at)) {
            return true;
        }
        at += 8;
    }
    at < len && special(word(len - 8))
}

/// The name under which the table keeps a date as the record wrote it,
/// when the `date` column gives it in another form (a pair of the `tags`
/// column, a field of JSON Lines).
pub const RECORDED_DATE: &str = "recorded_date";

/// How an invalid game's `moves` column writes an explicit pass: a
/// spelling the transcript reader takes for a pass inside a concatenated
/// line (`f5passd6`), one token per pass (`--` would merge two).
pub const PASS_IN_MOVES: &str = "pass";

/// What a table's `start` column holds: see [`Column::Start`].
#[derive(Clone, PartialEq, Debug)]
pub enum Start {
    /// A position of the 8×8 board.
    Position(Position),
    /// Another board.
    Other(OtherBoard),
}

impl Start {
    /// Reads a `start` column: `NxN` and the start text of another board,
    /// else a board and side to move (`None` when it is neither).
    #[must_use]
    pub fn parse(text: &str) -> Option<Start> {
        let text = text.trim();
        let (size, rest) = text.split_once(' ').unwrap_or((text, ""));
        if let Some((a, b)) = size.split_once(['x', 'X']) {
            if let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) {
                return (a == b).then(|| {
                    Start::Other(OtherBoard {
                        size: a,
                        start: rest.trim_start().to_owned(),
                    })
                });
            }
        }
        text.parse().ok().map(Start::Position)
    }
}

/// The summary of one replayed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game<'a> {
    /// The input path as given (`-` for stdin).
    pub source: &'a str,
    /// The record.
    pub record: &'a GameRecord,
    /// Its replay.
    pub report: &'a Report,
    /// Its opening, when it was named (see [`Game::with_opening`]).
    pub opening: Option<&'static Opening>,
}

impl<'a> Game<'a> {
    /// A row for `record` read from `source`, its opening not named.
    #[must_use]
    pub fn new(source: &'a str, record: &'a GameRecord, report: &'a Report) -> Game<'a> {
        Game {
            source,
            record,
            report,
            opening: None,
        }
    }

    /// The row with its opening named, as the replay that made `report`
    /// found it (`kifu::select::Selection::replay` with openings asked
    /// for).
    #[must_use]
    pub fn with_opening(mut self, opening: Option<&'static Opening>) -> Game<'a> {
        self.opening = opening;
        self
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
    /// only when it is not the standard one; on another board, its size
    /// and the start as its source wrote it (`4x4 ---- -O*- -*O- ---- *`),
    /// which [`Start::parse`] reads back.
    #[must_use]
    pub fn start(&self) -> Option<String> {
        if let Some(board) = &self.record.other_board {
            return Some(format!("{0}x{0} {1}", board.size, board.start));
        }
        if self.record.has_standard_start() {
            return None;
        }
        Some(self.record.start.to_string())
    }

    /// The moves column: every token as recorded, lowercase and
    /// concatenated. A valid game leaves its passes out (SPEC section 4);
    /// an invalid one writes each explicit pass as [`PASS_IN_MOVES`], so
    /// that `error_move` counts into the column and the column read again
    /// gives the same error.
    #[must_use]
    pub fn moves(&self) -> String {
        let record = self.record;
        if self.report.error.is_none() {
            return record.move_string();
        }
        let mut out = String::with_capacity(record.moves.len() * 2 + 8);
        for (i, m) in record.moves.iter().enumerate() {
            match m.token {
                Token::Move(Move::Play(sq)) => {
                    let [a, b] = sq.to_ascii();
                    out.push(a as char);
                    out.push(b as char);
                }
                Token::Move(Move::Pass) => out.push_str(PASS_IN_MOVES),
                Token::Unreadable => out.push_str(&record.token_text(i)),
            }
        }
        out
    }

    /// The date in ISO 8601 (`2004`, `2004-05-12`,
    /// `2003-12-15T19:33:18Z`), or as recorded when it is in no known
    /// form; borrowed when that is the text as recorded.
    #[must_use]
    pub fn date(&self) -> Option<Cow<'a, str>> {
        let date = self.record.tags.date.as_deref()?;
        // A bare year, WTHOR's only date, is its own ISO form.
        if date.len() == 4 && date.bytes().all(|b| b.is_ascii_digit()) {
            return Some(Cow::Borrowed(date));
        }
        Some(match RecordDate::parse(date) {
            Some(parsed) => {
                let iso = parsed.to_string();
                if iso == date {
                    Cow::Borrowed(date)
                } else {
                    Cow::Owned(iso)
                }
            }
            None => Cow::Borrowed(date),
        })
    }

    /// The date as the record wrote it, when [`Game::date`] gives it in
    /// another form (kept under [`RECORDED_DATE`], so nothing is lost).
    #[must_use]
    pub fn recorded_date(&self) -> Option<&'a str> {
        match self.date()? {
            Cow::Owned(_) => self.record.tags.date.as_deref(),
            Cow::Borrowed(_) => None,
        }
    }

    /// The tags without a column of their own, as a JSON array of
    /// `[name, value]` pairs (empty text when there are none): the named
    /// fields ([`TAG_NAMES`]), the date as recorded when the `date` column
    /// changed its form ([`RECORDED_DATE`]), then every other tag.
    #[must_use]
    pub fn tags(&self) -> String {
        let t = &self.record.tags;
        let fixed = [&t.site, &t.round, &t.black_rating, &t.white_rating];
        let pairs: Vec<(&str, &str)> = TAG_NAMES
            .iter()
            .zip(fixed)
            .filter_map(|(name, value)| value.as_deref().map(|v| (*name, v)))
            .chain(self.recorded_date().map(|d| (RECORDED_DATE, d)))
            .chain(t.extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .collect();
        if pairs.is_empty() {
            String::new()
        } else {
            serde_json::to_string(&pairs).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::push_csv_field;
    use crate::record::{RecordedResult, ResultKind, ResultValue};
    use crate::testkit::Rng;
    use crate::Winner;

    #[test]
    fn fields_are_quoted_as_the_csv_crate_quotes_them() {
        let mut rng = Rng::new(7);
        // The special bytes and their neighbours.
        let alphabet = [
            b'a', b' ', b',', b'"', b'\n', b'\r', b'+', b'-', b'!', b'#', 0x0b, 0x0c, 0x0e, 0x80,
            0xc3, 0xa9, 0xff,
        ];
        for _ in 0..4000 {
            let len = rng.below(30);
            let field: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            // A row of two fields, so that an empty one is not quoted alone.
            let mut expected = csv::WriterBuilder::new().from_writer(Vec::new());
            expected.write_record([&field[..], b"x"]).unwrap();
            let mut ours = Vec::new();
            push_csv_field(&mut ours, &field);
            ours.extend_from_slice(b",x\n");
            assert_eq!(ours, expected.into_inner().unwrap(), "{field:?}");
        }
    }

    #[test]
    fn results_are_pushed_as_they_display() {
        let values = [
            ResultValue::Discs {
                black: 34,
                white: 30,
            },
            ResultValue::Discs {
                black: 0,
                white: 64,
            },
            ResultValue::Margin(2.0),
            ResultValue::Margin(-3.5),
            // Whole and halves are written without `Display`; the rest
            // with it.
            ResultValue::Margin(0.0),
            ResultValue::Margin(-0.0),
            ResultValue::Margin(0.5),
            ResultValue::Margin(-0.5),
            ResultValue::Margin(64.0),
            ResultValue::Margin(0.25),
            ResultValue::Margin(-1.75),
            ResultValue::Margin(1e-9),
            ResultValue::Margin(2f64.powi(51) - 0.5),
            ResultValue::Margin(2f64.powi(51)),
            ResultValue::Margin(-2f64.powi(52)),
            ResultValue::Margin(1e300),
            ResultValue::Margin(f64::NAN),
            ResultValue::Margin(f64::INFINITY),
            ResultValue::Margin(f64::NEG_INFINITY),
            ResultValue::RawMargin(-7),
            ResultValue::RawMargin(0),
            ResultValue::RawMargin(12),
            ResultValue::RawMargin(i32::MIN),
            ResultValue::RawMargin(i32::MAX),
            ResultValue::Winner(Winner::Black),
            ResultValue::Winner(Winner::Draw),
        ];
        let kinds = [
            ResultKind::Score,
            ResultKind::Resigned,
            ResultKind::Time,
            ResultKind::Mutual,
        ];
        for value in values {
            for kind in kinds {
                let result = RecordedResult { value, kind };
                let mut pushed = Vec::new();
                result.push_to(&mut pushed);
                assert_eq!(String::from_utf8(pushed).unwrap(), result.to_string());
            }
        }
    }
}
