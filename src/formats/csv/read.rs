//! Reading a table: the delimiter and the moves column settled from the
//! header, then one game a row.

use std::io::{self, Chain, Cursor, Read};

use crate::formats::csv::header::{move_rank, sniff_delimiter, MOVE_COLUMNS};
use crate::formats::format::ReadOptions;
use crate::formats::transcript::{parse_line, LineContext};
use crate::record::{GameRecord, RecordedResult, ResultValue};
use crate::source::{ParseError, ReadError, Span};
use crate::table::{Column, Start, RECORDED_DATE, TAG_NAMES};
use crate::Winner;

/// The longest header line looked at to choose the delimiter: a line
/// longer than this is no header of a table of games.
const MAX_HEADER: usize = 1 << 20;

/// Where each field the reader takes is in a row.
#[derive(Debug)]
struct Columns {
    delimiter: u8,
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

/// An error about the header, which is the first line.
fn header_error(message: String) -> ParseError {
    ParseError::at(Span::new(0, 1, 1, 1), message)
}

/// The moves column of a header: the one `named`, else the one whose name
/// ranks best in [`MOVE_COLUMNS`]. The error says why there is none.
fn moves_column(header: &[&str], named: Option<&str>) -> Result<usize, ParseError> {
    let listed = |columns: &mut dyn Iterator<Item = usize>| {
        columns
            .map(|i| header[i].trim())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(name) = named {
        let name = name.trim();
        let exact: Vec<usize> = (0..header.len())
            .filter(|&i| header[i].trim() == name)
            .collect();
        let alike: Vec<usize> = (0..header.len())
            .filter(|&i| header[i].trim().eq_ignore_ascii_case(name))
            .collect();
        let message = match (&exact[..], &alike[..]) {
            ([one], _) | ([], [one]) => return Ok(*one),
            (_, []) => format!(
                "no column named {name:?} in the CSV header (its columns: {})",
                listed(&mut (0..header.len()))
            ),
            _ => format!(
                "several columns are named {name:?} (ignoring case): {}",
                listed(&mut alike.iter().copied())
            ),
        };
        return Err(header_error(message));
    }
    let ranks: Vec<Option<usize>> = header.iter().map(|h| move_rank(h)).collect();
    let Some(best) = ranks.iter().flatten().min().copied() else {
        return Err(header_error(format!(
            "no moves column in the CSV header (its columns: {}): expected one named {}, \
             or name it with --moves-column",
            listed(&mut (0..header.len())),
            MOVE_COLUMNS.join(", ")
        )));
    };
    let candidates: Vec<usize> = (0..header.len())
        .filter(|&i| ranks[i] == Some(best))
        .collect();
    match candidates[..] {
        [one] => Ok(one),
        _ => Err(header_error(format!(
            "several columns could hold the moves: {}: name one with --moves-column",
            listed(&mut candidates.iter().copied())
        ))),
    }
}

impl Columns {
    fn from_header(
        header: &[&str],
        named: Option<&str>,
        delimiter: u8,
    ) -> Result<Columns, ParseError> {
        let moves = moves_column(header, named)?;
        let find = |names: &[&str]| {
            header.iter().enumerate().position(|(i, h)| {
                i != moves && names.iter().any(|n| h.trim().eq_ignore_ascii_case(n))
            })
        };
        let mut cols = Columns {
            delimiter,
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
                cols.extra.push((i, (*name).to_owned()));
            }
        }
        Ok(cols)
    }
}

/// The input once its header line has been looked at: that line, then
/// the rest.
type Rows<R> = ::csv::Reader<Chain<Cursor<Vec<u8>>, R>>;

enum State<R: Read> {
    /// Nothing read yet.
    Start(R),
    /// The header read: the rows follow.
    Rows(Box<(Rows<R>, Columns)>),
    /// The input ended or failed.
    Done,
}

/// Streams games from a CSV table, one per data row.
pub struct Reader<R: Read> {
    state: State<R>,
    options: ReadOptions,
    row: ::csv::StringRecord,
    games: u64,
}

impl<R: Read> Reader<R> {
    /// Reads from `input`; the first row is the header, its delimiter and
    /// moves column found as the module says.
    pub fn new(input: R) -> Reader<R> {
        Reader::with_options(input, &ReadOptions::default())
    }

    /// Reads from `input` with the moves column or delimiter `options`
    /// name.
    pub fn with_options(input: R, options: &ReadOptions) -> Reader<R> {
        Reader {
            state: State::Start(input),
            options: options.clone(),
            row: ::csv::StringRecord::new(),
            games: 0,
        }
    }

    /// Reads the header: `None` when the input is empty.
    fn open(&self, mut input: R) -> Result<Option<(Rows<R>, Columns)>, ReadError> {
        let head = header_line(&mut input)?;
        let delimiter = self
            .options
            .delimiter
            .unwrap_or_else(|| sniff_delimiter(&head, self.options.moves_column.as_deref()));
        let mut rows = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(Cursor::new(head).chain(input));
        let mut header = ::csv::StringRecord::new();
        if !rows.read_record(&mut header).map_err(csv_error)? {
            return Ok(None);
        }
        // A UTF-8 byte order mark before the first name.
        let names: Vec<&str> = header
            .iter()
            .map(|h| h.trim_start_matches('\u{feff}'))
            .collect();
        let columns = Columns::from_header(&names, self.options.moves_column.as_deref(), delimiter)
            .map_err(ReadError::Syntax)?;
        Ok(Some((rows, columns)))
    }
}

/// The input up to its first line break (or [`MAX_HEADER`] bytes), and
/// perhaps some more: what the delimiter is chosen from.
fn header_line<R: Read>(input: &mut R) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 4096];
    while head.len() < MAX_HEADER {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&chunk[..n]);
        if chunk[..n].contains(&b'\n') {
            break;
        }
    }
    Ok(head)
}

fn csv_error(err: ::csv::Error) -> ReadError {
    let pos = err
        .position()
        .map(|p| Span::new(p.byte(), p.line() as u32, 1, 0));
    match err.into_kind() {
        ::csv::ErrorKind::Io(e) => ReadError::Io(e),
        ::csv::ErrorKind::Utf8 { err, .. } => ReadError::Syntax(ParseError::at(
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

/// Read game by game (not parsed in the workers).
impl<R: Read + Send> crate::formats::format::GameReader for Reader<R> {}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let State::Start(_) = self.state {
            let State::Start(input) = std::mem::replace(&mut self.state, State::Done) else {
                return None;
            };
            match self.open(input) {
                Ok(Some(table)) => self.state = State::Rows(Box::new(table)),
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
        let State::Rows(table) = &mut self.state else {
            return None;
        };
        let (rows, columns) = &mut **table;
        loop {
            match rows.read_record(&mut self.row) {
                Ok(false) => {
                    self.state = State::Done;
                    return None;
                }
                Ok(true) => {}
                Err(e) => {
                    self.state = State::Done;
                    return Some(Err(csv_error(e)));
                }
            }
            if self.row.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            self.games += 1;
            let pos = self
                .row
                .position()
                .cloned()
                .unwrap_or_else(::csv::Position::new);
            return Some(Ok(build(&self.row, columns, &pos, self.games)));
        }
    }
}

fn build(
    row: &::csv::StringRecord,
    cols: &Columns,
    pos: &::csv::Position,
    index: u64,
) -> GameRecord {
    // Text is kept as the cell holds it (spaces too: a name may have
    // them); an empty cell is no value.
    let get = |i: Option<usize>| i.and_then(|i| row.get(i)).filter(|s| !s.is_empty());
    let number = |i: Option<usize>| get(i).map(str::trim);
    let moves_text = row.get(cols.moves).unwrap_or("");
    // Columns before the moves, with their delimiters: where the moves
    // start on the line when no field is quoted.
    let offset: usize = (0..cols.moves)
        .map(|i| row.get(i).map_or(0, str::len) + 1)
        .sum();
    let line_text = row
        .iter()
        .collect::<Vec<_>>()
        .join(&char::from(cols.delimiter).to_string());
    let ctx = LineContext {
        line: pos.line() as u32,
        byte: pos.byte() + offset as u64,
        index,
    };
    let mut record = parse_line(moves_text.as_bytes(), ctx).unwrap_or_default();
    let column_shift = line_text
        .get(..offset.min(line_text.len()))
        .map_or(0, |before| before.chars().count()) as u32;
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
            let [site, round, black_rating, white_rating] = TAG_NAMES;
            match name.as_str() {
                n if n == site => tags.site = Some(value),
                n if n == round => tags.round = Some(value),
                n if n == black_rating => tags.black_rating = Some(value),
                n if n == white_rating => tags.white_rating = Some(value),
                n if n == RECORDED_DATE => tags.date = Some(value),
                _ => tags.extra.push((name, value)),
            }
        }
    }
    for (i, name) in &cols.extra {
        if let Some(v) = get(Some(*i)) {
            tags.extra.push((name.clone(), v.to_owned()));
        }
    }
    record.result = if let Some(text) = number(cols.recorded_result) {
        text.parse::<RecordedResult>().ok()
    } else if let Some(b) = number(cols.recorded_black_score).and_then(|t| t.parse::<u8>().ok()) {
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
    record.theoretical_black_score = number(cols.theoretical).and_then(|t| t.parse().ok());
    match get(cols.start).and_then(Start::parse) {
        Some(Start::Position(start)) => record.start = start,
        Some(Start::Other(board)) => record.other_board = Some(board),
        None => {}
    }
    record
}
