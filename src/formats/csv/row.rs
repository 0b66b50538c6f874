//! One row of a table, a game: the columns settled from the header, the
//! rows of a chunk read as csv reads them ([`fields`]), each made a
//! [`GameRecord`].
//! Shared by the sequential [`Reader`](super::Reader) and the workers
//! (through [`Rows`], the table's [`ChunkParser`]).

use crate::formats::chunk::{Carry, ChunkParser, RawChunk};
use crate::formats::csv::fields::{self, At, Fields};
use crate::formats::csv::header::{move_rank, MOVE_COLUMNS};
use crate::formats::transcript::{parse_line, LineContext};
use crate::record::row::{Column, Start, RECORDED_DATE, TAG_NAMES};
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::{GameRecord, Origin, RecordedResult, ResultValue};
use crate::Winner;

/// The longest header line looked at to choose the delimiter, and the
/// longest header record: a longer one is no header of a table of games.
pub(super) const MAX_HEADER: usize = 1 << 20;

/// The longest record read by default: 1 MiB, from the end of the record
/// before (blank lines before it count). A longer one is an invalid game,
/// `record too long`, never held in memory.
pub const MAX_RECORD: usize = 1 << 20;

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
pub(super) fn header_error(message: String) -> ParseError {
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

/// A table's rows once its header is read: the columns, shared by every
/// chunk; the table's [`ChunkParser`].
#[derive(Debug)]
pub(super) struct Rows {
    columns: Columns,
    /// The longest record ([`MAX_RECORD`] unless a test says).
    max: usize,
}

impl Rows {
    /// The columns of the header record `header` (the input's first
    /// bytes, up to the end of its first record), its fields split at
    /// `delimiter`, the moves column `named` or found by name: `None`
    /// when it holds no record.
    pub(super) fn from_header(
        header: &[u8],
        delimiter: u8,
        named: Option<&str>,
        max: usize,
    ) -> Result<Option<Rows>, ReadError> {
        // At byte 0: csv skips a byte order mark here, as it did when it
        // read the whole input.
        let mut names = None;
        let start = At { byte: 0, line: 1 };
        fields::with_parser(delimiter, |parser| {
            fields::read_records(parser, header, start, true, |record, _| {
                names = Some(
                    record
                        .iter()
                        // A UTF-8 byte order mark before the first name.
                        .map(|h| h.trim_start_matches('\u{feff}').to_owned())
                        .collect::<Vec<String>>(),
                );
                false
            })
        })
        .map_err(|(_, err)| err)?;
        let Some(names) = names else {
            return Ok(None);
        };
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let columns = Columns::from_header(&names, named, delimiter).map_err(ReadError::Syntax)?;
        Ok(Some(Rows { columns, max }))
    }

    /// The delimiter the header settled.
    pub(super) fn delimiter(&self) -> u8 {
        self.columns.delimiter
    }

    /// Reads the records of `bytes`, which start at a record's start `at`
    /// (past the header), and gives each that is not blank to `each` with
    /// where it starts. Stops at the first record that is not UTF-8, with
    /// where it starts and the error csv gives there.
    pub(super) fn each_row(
        &self,
        bytes: &[u8],
        at: At,
        mut each: impl FnMut(&Fields<'_>, At),
    ) -> Result<(), (At, ReadError)> {
        fields::with_parser(self.columns.delimiter, |parser| {
            fields::read_records(parser, bytes, at, false, |record, pos| {
                if !record.iter().all(|f| f.trim().is_empty()) {
                    each(record, pos);
                }
                true
            })
        })
    }
}

impl ChunkParser for Rows {
    fn parse(
        &self,
        chunk: &RawChunk,
        _: Option<Carry>,
        out: &mut Vec<GameRecord>,
    ) -> Option<Carry> {
        let at = At {
            byte: chunk.byte,
            line: chunk.lines.saturating_add(1),
        };
        if let Some(len) = chunk.long_line {
            out.push(too_long(at, len, self.max));
            return None;
        }
        let mut index = 0;
        // The reader thread checked that every record is UTF-8; were one
        // not, the games stop before it.
        let _ = self.each_row(&chunk.bytes, at, |row, pos| {
            index += 1;
            out.push(build(row, &self.columns, pos, index));
        });
        None
    }
}

/// The game of a record over `max` bytes: invalid, with its length.
fn too_long(at: At, len: u64, max: usize) -> GameRecord {
    GameRecord {
        origin: Origin {
            index: 1,
            line: Some(at.line),
            byte: at.byte,
            text: None,
        },
        defect: Some(ParseError::at(
            Span::new(at.byte, at.line, 1, 1),
            format!("record too long: {len} bytes (the limit is {max} bytes)"),
        )),
        ..GameRecord::default()
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

fn build(row: &Fields<'_>, cols: &Columns, pos: At, index: u64) -> GameRecord {
    // Text is kept as the cell holds it (spaces too: a name may have
    // them); an empty cell is no value.
    let get = |i: Option<usize>| i.and_then(|i| row.get(i)).filter(|s| !s.is_empty());
    let number = |i: Option<usize>| get(i).map(str::trim);
    let moves_text = row.get(cols.moves).unwrap_or("");
    // Where the moves field starts as written: after the fields before it
    // (quoted ones with their quotes and line breaks) and its own quote.
    let raw = row.raw();
    let (offset, quoted) = row
        .raw_start(cols.moves, cols.delimiter)
        .unwrap_or((0, false));
    let before = raw.get(..offset).unwrap_or_default();
    let newlines = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |k| k + 1);
    let column_shift = String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
        .chars()
        .count()
        + usize::from(quoted);
    let ctx = LineContext {
        line: pos
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX)),
        byte: pos.byte + (offset + usize::from(quoted)) as u64,
        index,
    };
    let mut record = parse_line(moves_text.as_bytes(), ctx).unwrap_or_default();
    let column_shift = u32::try_from(column_shift).unwrap_or(u32::MAX);
    // The moves were read as a line of their own: their spans start
    // from the line's start, the field's bytes already counted.
    record.spans.shift(0, column_shift);
    if let Some(defect) = &mut record.defect {
        defect.span.column += column_shift;
    }
    record.origin.index = index;
    record.origin.line = Some(pos.line);
    record.origin.byte = pos.byte;
    record.origin.text = Some(String::from_utf8_lossy(raw).into());
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
