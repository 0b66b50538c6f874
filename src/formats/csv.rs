//! CSV: the toolkit's own table (SPEC section 4) and foreign tables with a
//! moves column, such as Kaggle's `eOthello_game_id,winner,game_moves`.
//!
//! The writer writes one row per game with the exact header of the
//! contract, then `theoretical_black_score`, `recorded_result` (the result
//! as the record states it: `34-30`, `+2`, `1-0`, with ` (resigned)` or
//! ` (time)`) and `start` (a non-standard start position). The reader
//! takes the moves, names, event, date, result and start back; the other
//! columns of our table are derived from the replay and are recomputed.
//! Columns it does not know are kept as tags.

use std::io::Read;

use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::formats::transcript::{parse_line, LineContext};
use crate::record::{GameRecord, RecordedResult, ResultValue};
use crate::source::{ParseError, ReadError, Span};
use crate::table::{Column, Game, Value};
use crate::Winner;

/// The CSV row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Csv,
    name: "csv",
    aliases: &[],
    extensions: &["csv"],
    summary: "the game table (one row a game); foreign tables with a moves column",
    sniff,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&Table),
    writable: true,
    carries_status: true,
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::ExplicitPasses,
        Feature::AntiRules,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[],
};

/// Writes the table as CSV.
struct Table;

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

/// Whether the first bytes look like a CSV table with a moves column.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let first = head.split(|&c| c == b'\n').next().unwrap_or(head);
    let first = String::from_utf8_lossy(first).to_ascii_lowercase();
    first.contains(',')
        && first
            .split(',')
            .any(|c| MOVE_COLUMNS.contains(&c.trim().trim_matches('"')))
}

const MOVE_COLUMNS: [&str; 5] = ["moves", "game_moves", "transcript", "game", "movelist"];

#[derive(Default)]
struct Columns {
    moves: usize,
    event: Option<usize>,
    date: Option<usize>,
    black: Option<usize>,
    white: Option<usize>,
    recorded_result: Option<usize>,
    recorded_black_score: Option<usize>,
    winner: Option<usize>,
    theoretical: Option<usize>,
    start: Option<usize>,
    tags: Option<usize>,
    extra: Vec<(usize, String)>,
}

impl Columns {
    fn from_header(header: &csv::StringRecord) -> Option<Columns> {
        let find = |names: &[&str]| {
            header
                .iter()
                .position(|h| names.iter().any(|n| h.trim().eq_ignore_ascii_case(n)))
        };
        let moves = find(&MOVE_COLUMNS)?;
        let mut cols = Columns {
            moves,
            event: find(&[Column::Event.name(), "tournament"]),
            date: find(&[Column::Date.name()]),
            black: find(&[Column::BlackPlayer.name(), "black"]),
            white: find(&[Column::WhitePlayer.name(), "white"]),
            recorded_result: find(&[Column::RecordedResult.name()]),
            recorded_black_score: find(&[Column::RecordedBlackScore.name()]),
            winner: find(&[Column::Winner.name()]),
            theoretical: find(&[Column::TheoreticalBlackScore.name()]),
            start: find(&[Column::Start.name()]),
            tags: find(&[Column::Tags.name()]),
            extra: Vec::new(),
        };
        let known = [
            Some(cols.moves),
            cols.event,
            cols.date,
            cols.black,
            cols.white,
            cols.recorded_result,
            cols.recorded_black_score,
            cols.winner,
            cols.theoretical,
            cols.start,
            cols.tags,
        ];
        for (i, name) in header.iter().enumerate() {
            let derived = Column::from_name(name).is_some_and(Column::is_derived);
            if !known.contains(&Some(i)) && !derived {
                cols.extra.push((i, name.to_owned()));
            }
        }
        Some(cols)
    }
}

/// Streams games from a CSV table, one per data row.
pub struct Reader<R: Read> {
    inner: csv::Reader<R>,
    columns: Option<Columns>,
    row: csv::StringRecord,
    games: u64,
    failed: bool,
}

impl<R: Read> Reader<R> {
    /// Reads from `input`; the first row is the header.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            inner: csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(input),
            columns: None,
            row: csv::StringRecord::new(),
            games: 0,
            failed: false,
        }
    }

    fn fail(&mut self, err: ReadError) -> Option<Result<GameRecord, ReadError>> {
        self.failed = true;
        Some(Err(err))
    }
}

fn csv_error(err: csv::Error) -> ReadError {
    let pos = err
        .position()
        .map(|p| Span::new(p.byte(), p.line() as u32, 1, 0));
    match err.into_kind() {
        csv::ErrorKind::Io(e) => ReadError::Io(e),
        csv::ErrorKind::Utf8 { err, .. } => ReadError::Syntax(ParseError::at(
            pos.unwrap_or_default().with_len(1),
            format!("invalid UTF-8 in field {}", err.field() + 1),
        )),
        other => ReadError::Syntax(ParseError::at(
            pos.unwrap_or_default().with_len(1),
            format!("malformed CSV: {other:?}"),
        )),
    }
}

fn parse_winner(text: &str) -> Option<Winner> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "black" | "b" => Some(Winner::Black),
        "-1" | "white" | "w" => Some(Winner::White),
        "0" | "draw" | "d" => Some(Winner::Draw),
        _ => None,
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if self.columns.is_none() {
            let mut header = csv::StringRecord::new();
            match self.inner.read_record(&mut header) {
                Ok(false) => return None,
                Ok(true) => {}
                Err(e) => return self.fail(csv_error(e)),
            }
            // A UTF-8 byte order mark before the first name.
            let cleaned: csv::StringRecord = header
                .iter()
                .map(|h| h.trim_start_matches('\u{feff}'))
                .collect();
            match Columns::from_header(&cleaned) {
                Some(c) => self.columns = Some(c),
                None => {
                    return self.fail(ReadError::Syntax(ParseError::at(
                        Span::new(0, 1, 1, 1),
                        "no moves column in the CSV header (expected moves or game_moves)",
                    )))
                }
            }
        }
        loop {
            match self.inner.read_record(&mut self.row) {
                Ok(false) => return None,
                Ok(true) => {}
                Err(e) => return self.fail(csv_error(e)),
            }
            if self.row.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            self.games += 1;
            let pos = self
                .row
                .position()
                .cloned()
                .unwrap_or_else(csv::Position::new);
            let cols = self.columns.as_ref()?;
            return Some(Ok(build(&self.row, cols, &pos, self.games)));
        }
    }
}

fn build(row: &csv::StringRecord, cols: &Columns, pos: &csv::Position, index: u64) -> GameRecord {
    let get = |i: Option<usize>| {
        i.and_then(|i| row.get(i))
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let moves_text = row.get(cols.moves).unwrap_or("");
    // Columns before the moves, with their commas: where the moves start
    // on the line when no field is quoted.
    let offset: usize = (0..cols.moves)
        .map(|i| row.get(i).map_or(0, str::len) + 1)
        .sum();
    let line_text = row.iter().collect::<Vec<_>>().join(",");
    let ctx = LineContext {
        line: pos.line() as u32,
        byte: pos.byte() + offset as u64,
        index,
    };
    let mut record = parse_line(moves_text.as_bytes(), ctx).unwrap_or_default();
    let column_shift = line_text[..offset.min(line_text.len())].chars().count() as u32;
    // The moves were read as a line of their own: their spans start
    // from the line's start, the field's bytes already counted.
    record.spans.shift(0, column_shift);
    if let Some(defect) = &mut record.defect {
        defect.span.column += column_shift;
    }
    record.origin.index = index;
    record.origin.line = Some(pos.line() as u32);
    record.origin.byte = pos.byte();
    record.origin.text = Some(line_text.into());
    let tags = &mut record.tags;
    tags.event = get(cols.event).map(str::to_owned);
    tags.date = get(cols.date).map(str::to_owned);
    tags.black = get(cols.black).map(str::to_owned);
    tags.white = get(cols.white).map(str::to_owned);
    if let Some(pairs) =
        get(cols.tags).and_then(|text| serde_json::from_str::<Vec<(String, String)>>(text).ok())
    {
        for (name, value) in pairs {
            match name.as_str() {
                "site" => tags.site = Some(value),
                "round" => tags.round = Some(value),
                "black_rating" => tags.black_rating = Some(value),
                "white_rating" => tags.white_rating = Some(value),
                _ => tags.extra.push((name, value)),
            }
        }
    }
    for (i, name) in &cols.extra {
        if let Some(v) = get(Some(*i)) {
            tags.extra.push((name.clone(), v.to_owned()));
        }
    }
    record.result = if let Some(text) = get(cols.recorded_result) {
        text.parse::<RecordedResult>().ok()
    } else if let Some(b) = get(cols.recorded_black_score).and_then(|t| t.parse::<u8>().ok()) {
        (b <= 64).then(|| {
            RecordedResult::new(ResultValue::Discs {
                black: b,
                white: 64 - b,
            })
        })
    } else if cols.recorded_black_score.is_none() {
        // A foreign table's winner column is what the record claims.
        get(cols.winner)
            .and_then(parse_winner)
            .map(|w| RecordedResult::new(ResultValue::Winner(w)))
    } else {
        None
    };
    record.theoretical_black_score = get(cols.theoretical).and_then(|t| t.parse().ok());
    if let Some(start) = get(cols.start).and_then(|t| t.parse().ok()) {
        record.start = start;
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<GameRecord> {
        Reader::new(text.as_bytes()).map(|g| g.unwrap()).collect()
    }

    fn write(records: &[GameRecord]) -> String {
        let mut out = Vec::new();
        Table.header(&mut out);
        for r in records {
            let report = r.replay();
            Table.write(&Game::new("in.txt", r, &report), &mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header_is_the_contract_then_ours() {
        let text = write(&[]);
        assert_eq!(
            text,
            "source,index,event,date,black_player,white_player,moves,move_count,passes,\
black_discs,white_discs,empties,black_score,white_score,winner,recorded_black_score,\
status,error_move,error,theoretical_black_score,recorded_result,start,tags\n"
        );
    }

    #[test]
    fn rows_for_complete_incomplete_and_invalid_games() {
        let games = read("moves,winner\nf5d6c5f6e7f4g5e6e3,1\nf5d6,-1\nf5d6c5f4e3f6d3f3d7,\n");
        let text = write(&games);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            "in.txt,1,,,,,f5d6c5f6e7f4g5e6e3,9,0,13,0,51,64,0,black,,complete,,,,1-0,,"
        );
        assert_eq!(
            lines[2],
            "in.txt,2,,,,,f5d6,2,0,3,3,58,,,white,,incomplete,,,,0-1,,"
        );
        assert_eq!(
            lines[3],
            "in.txt,3,,,,,f5d6c5f4e3f6d3f3d7,6,0,4,6,54,,,,,invalid,7,flips nothing,,,,"
        );
    }

    #[test]
    fn kaggle_columns_read_with_winner_as_result_and_id_as_tag() {
        let games = read("eOthello_game_id,winner,game_moves\n1056798,-1,f5d6c3\n");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].move_string(), "f5d6c3");
        assert_eq!(
            games[0].result.unwrap().value,
            ResultValue::Winner(Winner::White)
        );
        assert_eq!(
            games[0].tags.extra,
            [("eOthello_game_id".to_string(), "1056798".to_string())]
        );
        assert_eq!(games[0].span(0).unwrap().column, 12);
    }

    #[test]
    fn own_table_round_trips_names_result_and_start() {
        let mut g = crate::formats::transcript::parse_line(
            b"---------------------------OX------XO--------------------------- O; e6 f4",
            LineContext {
                line: 1,
                byte: 0,
                index: 1,
            },
        )
        .unwrap();
        g.tags.event = Some("Open, \"Paris\"".into());
        g.tags.black = Some("Tastet Marc".into());
        g.tags.white = Some("Shaman".into());
        g.tags.date = Some("1999".into());
        g.result = Some(RecordedResult {
            value: ResultValue::Margin(2.0),
            kind: crate::ResultKind::Resigned,
        });
        g.theoretical_black_score = Some(30);
        g.tags.site = Some("Paris".into());
        g.tags.white_rating = Some("2100".into());
        g.tags.extra = vec![("eOthello_game_id".into(), "12".into())];
        let text = write(std::slice::from_ref(&g));
        let back = read(&text);
        assert_eq!(back.len(), 1);
        let b = &back[0];
        assert_eq!(b.tags.event, g.tags.event);
        assert_eq!(b.tags.black, g.tags.black);
        assert_eq!(b.tags.white, g.tags.white);
        assert_eq!(b.tags.date, g.tags.date);
        assert_eq!(b.result, g.result);
        assert_eq!(b.theoretical_black_score, Some(30));
        assert_eq!(b.start, g.start);
        assert_eq!(b.moves, g.moves);
        assert_eq!(b.tags, g.tags, "derived columns are not tags");
    }

    #[test]
    fn a_table_without_moves_is_an_error() {
        let mut r = Reader::new("a,b\n1,2\n".as_bytes());
        let err = r.next().unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "1:1: no moves column in the CSV header (expected moves or game_moves)"
        );
        assert!(r.next().is_none());
    }
}
