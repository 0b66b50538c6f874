//! Parquet: reading ([`Reader`], in `read.rs`: token columns and game
//! tables) and writing.
//!
//! Parquet output: a table written as it streams, one row
//! group every [`ROW_GROUP`] rows ([`GAME_ROW_GROUP`] for the game table), with typed columns, for DuckDB,
//! Polars, pandas, pyarrow and Spark.
//!
//! [`Table`] holds one buffer per column and hands full row groups to the
//! `parquet` crate's column writers. On top of it, [`TableWriter`] writes
//! the game table of SPEC section 4 (`convert --to parquet`, a
//! [`GameWriter`]) and [`PositionsWriter`] the positions of section 8.

use std::io::{self, Write};
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{ColumnDescPtr, ColumnPath};

use crate::formats::format::{Format, FormatInfo, GameWriter, WriteError};
use crate::ml::positions::Row;
use crate::record::row::{self, Game, Value};
use crate::Color;

mod read;
mod rows;

pub use read::{open, sniff, Reader, TOKEN_COLUMNS};

/// The Parquet row of the format table: the game table written and read
/// back; token tables read.
pub const INFO: FormatInfo = FormatInfo {
    aliases: &["pq"],
    extensions: &["parquet", "pq"],
    carries_status: true,
    names_openings: true,
    // The CSV table's columns: what the CSV loses, Parquet loses.
    loses: crate::formats::csv::INFO.loses,
    ..FormatInfo::new(Format::Parquet, "parquet", "the game table with typed columns, for DuckDB, Polars, pandas and Spark; token tables read", read::sniff, read::open)
};

/// Rows per row group: memory stays bounded by one group's columns (about
/// 9 MB of positions), and readers get groups of the usual size. With
/// 128 Ki rows, `positions big.wtb --to parquet` peaked at 59–66 MB; with
/// 64 Ki, 54–58 MB, in the same time.
pub const ROW_GROUP: usize = 1 << 16;

/// Rows of a row group from which its columns are encoded in parallel:
/// below it the threads cost more than they save (the game table's 8 Ki
/// rows, 24 columns: 3.3–3.5 CPU-s serial against 3.7–3.9 in parallel,
/// and less memory).
const PARALLEL_ROWS: usize = 1 << 15;

/// A Parquet error, with what was being written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write Parquet: {0}")]
pub struct Error(#[from] ParquetError);

/// One column's values of the current row group; `defs` holds the
/// definition levels of a nullable column (1 present, 0 null).
enum Buffer {
    Int32(Vec<i32>, Option<Vec<i16>>),
    Int64(Vec<i64>, Option<Vec<i16>>),
    Bytes(Vec<ByteArray>, Option<Vec<i16>>),
}

/// What a column holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A 32-bit integer (any narrower logical type rides on it).
    Int32,
    /// A 64-bit integer.
    Int64,
    /// UTF-8 text.
    Text,
}

/// A column of a [`Table`]: its name, physical kind, the logical type
/// annotation of the schema (`INTEGER(8,false)`, `STRING`) and whether it
/// may be null; `dictionary` where few distinct values repeat.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// The name.
    pub name: &'static str,
    /// The physical type.
    pub kind: Kind,
    /// The logical type annotation, as the schema syntax writes it.
    pub logical: &'static str,
    /// Whether a value may be missing.
    pub nullable: bool,
    /// Whether to dictionary-encode it.
    pub dictionary: bool,
}

/// A Parquet file written row group by row group.
pub struct Table<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    buffers: Vec<Buffer>,
    /// Each column's encoded chunk of the last row group, its memory kept
    /// for the next.
    encoded: Vec<Vec<u8>>,
    rows: usize,
    /// Rows per row group: [`ROW_GROUP`] (tests make it small).
    group: usize,
}

impl<W: Write + Send> Table<W> {
    /// Starts a file with these columns, Snappy-compressed.
    pub fn new(out: W, name: &str, columns: &[Column]) -> Result<Table<W>, Error> {
        let mut schema = format!("message {name} {{\n");
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")));
        let mut buffers = Vec::with_capacity(columns.len());
        for c in columns {
            let physical = match c.kind {
                Kind::Int32 => "INT32",
                Kind::Int64 => "INT64",
                Kind::Text => "BYTE_ARRAY",
            };
            let repetition = if c.nullable { "OPTIONAL" } else { "REQUIRED" };
            let logical = if c.logical.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.logical)
            };
            schema.push_str(&format!("  {repetition} {physical} {}{logical};\n", c.name));
            let path = ColumnPath::from(c.name);
            props = props.set_column_dictionary_enabled(path.clone(), c.dictionary);
            if c.kind == Kind::Text {
                // Minimum and maximum of text are little use to a reader
                // and cost a comparison of every value.
                props = props.set_column_statistics_enabled(path, EnabledStatistics::None);
            }
            let defs = c.nullable.then(Vec::new);
            buffers.push(match c.kind {
                Kind::Int32 => Buffer::Int32(Vec::new(), defs),
                Kind::Int64 => Buffer::Int64(Vec::new(), defs),
                Kind::Text => Buffer::Bytes(Vec::new(), defs),
            });
        }
        schema.push('}');
        let schema = Arc::new(parse_message_type(&schema)?);
        let writer = SerializedFileWriter::new(out, schema, Arc::new(props.build()))?;
        Ok(Table {
            writer,
            buffers,
            encoded: Vec::new(),
            rows: 0,
            group: ROW_GROUP,
        })
    }

    /// Rows per row group from now on (at least 1; the default is
    /// [`ROW_GROUP`]): smaller for wide rows, to bound memory.
    #[must_use]
    pub fn with_row_group(mut self, rows: usize) -> Table<W> {
        self.group = rows.max(1);
        self
    }

    /// Sets column `i` of the current row to a 32-bit integer (`None`:
    /// null). Every column is set once a row, in any order.
    #[inline]
    pub fn int32(&mut self, i: usize, value: Option<i32>) {
        if let Some(Buffer::Int32(values, defs)) = self.buffers.get_mut(i) {
            push(values, defs, value);
        }
    }

    /// Sets column `i` to a 64-bit integer.
    #[inline]
    pub fn int64(&mut self, i: usize, value: Option<i64>) {
        if let Some(Buffer::Int64(values, defs)) = self.buffers.get_mut(i) {
            push(values, defs, value);
        }
    }

    /// Sets column `i` to text (a `ByteArray` shares its bytes: clones of
    /// one value cost nothing).
    #[inline]
    pub fn text(&mut self, i: usize, value: Option<ByteArray>) {
        if let Some(Buffer::Bytes(values, defs)) = self.buffers.get_mut(i) {
            push(values, defs, value);
        }
    }

    /// Appends `n` values to 32-bit integer column `i`, as [`Table::int32`]
    /// does one by one; [`Table::end_rows`] then ends the `n` rows.
    #[inline]
    pub fn extend_int32(&mut self, i: usize, values: impl Iterator<Item = Option<i32>>) {
        if let Some(Buffer::Int32(buffer, defs)) = self.buffers.get_mut(i) {
            values.for_each(|v| push(buffer, defs, v));
        }
    }

    /// Appends values to 64-bit integer column `i`.
    #[inline]
    pub fn extend_int64(&mut self, i: usize, values: impl Iterator<Item = Option<i64>>) {
        if let Some(Buffer::Int64(buffer, defs)) = self.buffers.get_mut(i) {
            values.for_each(|v| push(buffer, defs, v));
        }
    }

    /// Appends values to text column `i`.
    #[inline]
    pub fn extend_text(&mut self, i: usize, values: impl Iterator<Item = Option<ByteArray>>) {
        if let Some(Buffer::Bytes(buffer, defs)) = self.buffers.get_mut(i) {
            values.for_each(|v| push(buffer, defs, v));
        }
    }

    /// Rows that still fit the current row group.
    #[must_use]
    pub fn room(&self) -> usize {
        self.group.saturating_sub(self.rows)
    }

    /// Ends `n` rows whose columns were all extended (at most
    /// [`Table::room`]); a full row group is written out.
    pub fn end_rows(&mut self, n: usize) -> Result<(), Error> {
        self.rows += n;
        if self.rows >= self.group {
            self.flush()?;
        }
        Ok(())
    }

    /// Ends the current row; a full row group is written out.
    #[inline]
    pub fn end_row(&mut self) -> Result<(), Error> {
        self.rows += 1;
        if self.rows >= self.group {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the rows so far as a row group. Each column is encoded and
    /// compressed into memory, on a thread of its own (rayon) in a group
    /// of [`PARALLEL_ROWS`] rows or more, then the chunks are appended to
    /// the file in column order.
    fn flush(&mut self) -> Result<(), Error> {
        use rayon::prelude::*;
        if self.rows == 0 {
            return Ok(());
        }
        let schema = self.writer.schema_descr();
        let columns: Vec<_> = (0..self.buffers.len()).map(|i| schema.column(i)).collect();
        let props = self.writer.properties().clone();
        // A Vec per column (a failed flush may have left fewer).
        self.encoded.resize_with(self.buffers.len(), Vec::new);
        let encoded = std::mem::take(&mut self.encoded);
        let encode = |((buffer, mut out), descr): ((&mut Buffer, Vec<u8>), ColumnDescPtr)| {
            out.clear();
            let mut sink = TrackedWrite::new(out);
            let pages = Box::new(SerializedPageWriter::new(&mut sink));
            let mut writer = get_column_writer(descr, props.clone(), pages);
            match (buffer, &mut writer) {
                (Buffer::Int32(values, defs), ColumnWriter::Int32ColumnWriter(w)) => {
                    w.write_batch(values, defs.as_deref(), None)?;
                    values.clear();
                    defs.as_mut().map(Vec::clear);
                }
                (Buffer::Int64(values, defs), ColumnWriter::Int64ColumnWriter(w)) => {
                    w.write_batch(values, defs.as_deref(), None)?;
                    values.clear();
                    defs.as_mut().map(Vec::clear);
                }
                (Buffer::Bytes(values, defs), ColumnWriter::ByteArrayColumnWriter(w)) => {
                    w.write_batch(values, defs.as_deref(), None)?;
                    values.clear();
                    defs.as_mut().map(Vec::clear);
                }
                _ => {
                    return Err(ParquetError::General(
                        "a column's buffer does not match its type".to_owned(),
                    ))
                }
            }
            let close = writer.close()?;
            Ok((bytes::Bytes::from(sink.into_inner()?), close))
        };
        let chunks: Vec<Result<(bytes::Bytes, ColumnCloseResult), ParquetError>> =
            if self.rows >= PARALLEL_ROWS {
                self.buffers
                    .par_iter_mut()
                    .zip(encoded)
                    .zip(columns)
                    .map(encode)
                    .collect()
            } else {
                let buffers = self.buffers.iter_mut().zip(encoded);
                buffers.zip(columns).map(encode).collect()
            };
        let mut group = self.writer.next_row_group()?;
        for chunk in chunks {
            let (bytes, close) = chunk?;
            group.append_column(&bytes, close)?;
            // Back to a Vec, without a copy: nothing else holds it.
            self.encoded
                .push(bytes.try_into_mut().map(Vec::from).unwrap_or_default());
        }
        group.close()?;
        self.rows = 0;
        Ok(())
    }

    /// Writes the last row group and the footer; gives the output back.
    pub fn finish(mut self) -> Result<W, Error> {
        self.flush()?;
        Ok(self.writer.into_inner()?)
    }
}

/// Appends a value (or a null) to a column's buffers.
#[inline]
fn push<T>(values: &mut Vec<T>, defs: &mut Option<Vec<i16>>, value: Option<T>) {
    match (value, defs) {
        (Some(v), Some(defs)) => {
            values.push(v);
            defs.push(1);
        }
        (Some(v), None) => values.push(v),
        (None, Some(defs)) => defs.push(0),
        // A required column never gets a null from this crate's writers.
        (None, None) => {}
    }
}

/// The columns of the positions table: the CSV's, typed. `player` and
/// `opponent` are unsigned 64-bit integers, `move` the square's name as
/// in the CSV, `score` null without one.
pub const POSITION_COLUMNS: [Column; 9] = [
    Column {
        name: "source",
        kind: Kind::Text,
        logical: "STRING",
        nullable: false,
        dictionary: true,
    },
    Column {
        name: "game",
        kind: Kind::Int64,
        logical: "",
        nullable: false,
        dictionary: false,
    },
    Column {
        name: "ply",
        kind: Kind::Int32,
        logical: "INTEGER(8,false)",
        nullable: false,
        dictionary: false,
    },
    Column {
        name: "empties",
        kind: Kind::Int32,
        logical: "INTEGER(8,false)",
        nullable: false,
        dictionary: false,
    },
    Column {
        name: "side",
        kind: Kind::Text,
        logical: "STRING",
        nullable: false,
        dictionary: true,
    },
    Column {
        name: "player",
        kind: Kind::Int64,
        logical: "INTEGER(64,false)",
        nullable: false,
        dictionary: false,
    },
    Column {
        name: "opponent",
        kind: Kind::Int64,
        logical: "INTEGER(64,false)",
        nullable: false,
        dictionary: false,
    },
    Column {
        name: "move",
        kind: Kind::Text,
        logical: "STRING",
        nullable: false,
        dictionary: true,
    },
    Column {
        name: "score",
        kind: Kind::Int32,
        logical: "INTEGER(8,true)",
        nullable: true,
        dictionary: false,
    },
];

/// Rows per row group of the game table: its rows are wide (24 columns,
/// the moves as text), so a group of 65,536 games keeps memory near that
/// of the CSV writer.
pub const GAME_ROW_GROUP: usize = 1 << 13;

/// The game table (`row::Column::ALL`, in order) as Parquet: integer
/// columns as INT64, text as UTF-8 strings, an empty cell as null.
pub struct TableWriter<W: Write + Send> {
    table: Option<Table<W>>,
    kinds: Vec<row::Kind>,
}

impl<W: Write + Send> TableWriter<W> {
    /// Starts the file.
    pub fn new(out: W) -> Result<TableWriter<W>, Error> {
        let columns: Vec<Column> = row::Column::ALL
            .iter()
            .map(|c| {
                let integer = c.kind() == row::Kind::Integer;
                Column {
                    name: c.name(),
                    kind: if integer { Kind::Int64 } else { Kind::Text },
                    logical: if integer { "" } else { "STRING" },
                    nullable: true,
                    // Sources, events, players, statuses, winners and
                    // openings repeat; moves and errors hardly do.
                    dictionary: !matches!(
                        c,
                        row::Column::Moves | row::Column::Error | row::Column::Tags
                    ),
                }
            })
            .collect();
        Ok(TableWriter {
            table: Some(Table::new(out, "games", &columns)?.with_row_group(GAME_ROW_GROUP)),
            kinds: row::Column::ALL.iter().map(|c| c.kind()).collect(),
        })
    }

    /// Writes the footer and gives the output back (`None` when
    /// [`GameWriter::finish`] already did).
    pub fn into_inner(mut self) -> Result<Option<W>, Error> {
        self.table.take().map(Table::finish).transpose()
    }
}

impl<W: Write + Send> GameWriter for TableWriter<W> {
    fn write(&mut self, game: &Game<'_>) -> Result<(), WriteError> {
        let Some(t) = self.table.as_mut() else {
            return Err(io::Error::other("the Parquet file is already finished").into());
        };
        for (i, (column, kind)) in row::Column::ALL.iter().zip(&self.kinds).enumerate() {
            match (kind, column.value(game)) {
                (row::Kind::Integer, Value::Int(n)) => {
                    t.int64(i, Some(i64::try_from(n).unwrap_or(i64::MAX)));
                }
                (row::Kind::Integer, Value::Null) => t.int64(i, None),
                (row::Kind::Integer, other) => {
                    // An integer column holds integers; text there would be
                    // a bug, kept as null rather than as a wrong number.
                    debug_assert!(false, "{column:?}: {other:?}");
                    t.int64(i, None);
                }
                (row::Kind::Text, Value::Null) => t.text(i, None),
                (row::Kind::Text, value) => {
                    t.text(i, Some(ByteArray::from(value.as_text().as_ref())));
                }
            }
        }
        t.end_row().map_err(|e| io::Error::other(e).into())
    }

    fn finish(&mut self) -> io::Result<()> {
        if let Some(table) = self.table.take() {
            let mut out = table.finish().map_err(io::Error::other)?;
            out.flush()?;
        }
        Ok(())
    }
}

/// Text that never goes away, shared by every row at no cost.
fn fixed(text: &'static str) -> ByteArray {
    ByteArray::from(bytes::Bytes::from_static(text.as_bytes()))
}

/// The squares' names by index, as the CSV writes them.
const SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// The positions of SPEC section 8 as Parquet.
pub struct PositionsWriter<W: Write + Send> {
    table: Table<W>,
    source: ByteArray,
    squares: Vec<ByteArray>,
    sides: [ByteArray; 2],
}

impl<W: Write + Send> PositionsWriter<W> {
    /// Starts the file.
    pub fn new(out: W) -> Result<PositionsWriter<W>, Error> {
        Ok(PositionsWriter {
            table: Table::new(out, "positions", &POSITION_COLUMNS)?,
            source: fixed("-"),
            squares: SQUARE_NAMES.iter().map(|name| fixed(name)).collect(),
            sides: [fixed("black"), fixed("white")],
        })
    }

    /// The input the next rows come from.
    pub fn set_source(&mut self, name: &str) {
        // Kept for the rest of the run, a few bytes per input: a value
        // that lives forever is copied into every row without touching a
        // reference count.
        self.source = fixed(Box::leak(name.to_owned().into_boxed_str()));
    }

    /// Writes a row of game number `game` of the source.
    #[inline]
    pub fn push(&mut self, game: u64, row: &Row) -> Result<(), Error> {
        let t = &mut self.table;
        t.text(0, Some(self.source.clone()));
        t.int64(1, Some(i64::try_from(game).unwrap_or(i64::MAX)));
        t.int32(2, Some(i32::from(row.ply)));
        t.int32(3, Some(i32::from(row.empties)));
        let side = usize::from(row.side == Color::White);
        t.text(4, Some(self.sides[side].clone()));
        // The bits as they are: the schema says the column is unsigned.
        t.int64(5, Some(row.player as i64));
        t.int64(6, Some(row.opponent as i64));
        t.text(7, self.squares.get(row.square.index()).cloned());
        t.int32(8, row.score.map(i32::from));
        t.end_row()
    }

    /// Writes rows, each with its game's number within the source, a
    /// column at a time: as [`PositionsWriter::push`] on each, faster.
    pub fn push_rows(&mut self, rows: &[(u64, Row)]) -> Result<(), Error> {
        let mut rest = rows;
        while !rest.is_empty() {
            let (now, later) = rest.split_at(self.table.room().min(rest.len()));
            let t = &mut self.table;
            let source = &self.source;
            t.extend_text(0, now.iter().map(|_| Some(source.clone())));
            t.extend_int64(
                1,
                now.iter()
                    .map(|(game, _)| Some(i64::try_from(*game).unwrap_or(i64::MAX))),
            );
            t.extend_int32(2, now.iter().map(|(_, r)| Some(i32::from(r.ply))));
            t.extend_int32(3, now.iter().map(|(_, r)| Some(i32::from(r.empties))));
            let sides = &self.sides;
            t.extend_text(
                4,
                now.iter()
                    .map(|(_, r)| Some(sides[usize::from(r.side == Color::White)].clone())),
            );
            // The bits as they are: the schema says the column is unsigned.
            t.extend_int64(5, now.iter().map(|(_, r)| Some(r.player as i64)));
            t.extend_int64(6, now.iter().map(|(_, r)| Some(r.opponent as i64)));
            let squares = &self.squares;
            t.extend_text(
                7,
                now.iter()
                    .map(|(_, r)| squares.get(r.square.index()).cloned()),
            );
            t.extend_int32(8, now.iter().map(|(_, r)| r.score.map(i32::from)));
            t.end_rows(now.len())?;
            rest = later;
        }
        Ok(())
    }

    /// Writes the footer; gives the output back.
    pub fn finish(self) -> Result<W, Error> {
        self.table.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ml::positions::{Collector, Options};
    use crate::testkit::transcript;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    /// The positions rows of one short game.
    fn game_rows() -> Vec<Row> {
        let game = transcript("f5d6c5f6e7f4g5e6e3");
        let mut collector = Collector::new(Options::default());
        let report = game.replay_watched(&mut collector);
        assert!(collector.finish(&report));
        collector.rows().to_vec()
    }

    /// The row groups of a Parquet file, and its rows as the reader
    /// prints them.
    fn read_back(out: Vec<u8>) -> (usize, Vec<String>) {
        let file = SerializedFileReader::new(bytes::Bytes::from(out)).unwrap();
        let got = file
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        (file.metadata().num_row_groups(), got)
    }

    #[test]
    fn rows_cross_row_groups_in_order() {
        let rows: Vec<(u64, Row)> = game_rows().into_iter().map(|r| (7, r)).collect();
        let mut out = Vec::new();
        let mut writer = PositionsWriter::new(&mut out).unwrap();
        writer.table.group = 4;
        writer.set_source("a.txt");
        writer.push_rows(&rows[..3]).unwrap();
        writer.push_rows(&rows[3..]).unwrap();
        writer.push(8, &rows[0].1).unwrap();
        writer.finish().unwrap();
        let (groups, got) = read_back(out);
        assert_eq!(groups, 3);
        assert_eq!(got.len(), 10);
        for (i, (text, (_, row))) in got.iter().zip(&rows).enumerate() {
            assert!(
                text.starts_with(&format!("{{source: \"a.txt\", game: 7, ply: {i}, ")),
                "{text}"
            );
            assert!(
                text.contains(&format!("player: {}, ", row.player)),
                "{text}"
            );
        }
        assert!(got[9].starts_with("{source: \"a.txt\", game: 8, ply: 0, "));
    }

    #[test]
    fn columns_encoded_in_parallel_or_not_hold_the_same_rows() {
        // Rows of many games (their numbers tell them apart) in one group
        // past PARALLEL_ROWS, and in groups below it.
        let one = game_rows();
        let rows: Vec<(u64, Row)> = (0..PARALLEL_ROWS as u64 / 8)
            .flat_map(|g| one.iter().map(move |r| (g, *r)))
            .collect();
        assert!(rows.len() > PARALLEL_ROWS);
        let write = |group: usize| {
            let mut out = Vec::new();
            let mut writer = PositionsWriter::new(&mut out).unwrap();
            writer.table.group = group;
            writer.set_source("a.txt");
            writer.push_rows(&rows).unwrap();
            writer.finish().unwrap();
            read_back(out)
        };
        let (groups, parallel) = write(ROW_GROUP);
        assert_eq!(groups, 1);
        let (groups, serial) = write(PARALLEL_ROWS / 4);
        assert_eq!(groups, rows.len().div_ceil(PARALLEL_ROWS / 4));
        assert_eq!(parallel.len(), rows.len());
        assert_eq!(parallel, serial);
        let per_game = one.len();
        let (last, ply) = (rows.len() / per_game - 1, per_game - 1);
        assert!(parallel[rows.len() - 1]
            .starts_with(&format!("{{source: \"a.txt\", game: {last}, ply: {ply}, ")));
    }

    #[test]
    fn square_names_follow_the_square_indices() {
        for square in crate::Square::all() {
            assert_eq!(SQUARE_NAMES[square.index()], square.to_string());
        }
    }
}
