//! Reading Parquet: a row group at a time, each row a game.
//!
//! Two kinds of tables are read. A column that is a list of integers
//! (`tokens`, `input_ids` or `games`, or the one `--moves-column` names)
//! holds Othello-GPT tokens ([`crate::ml::tokens`]): each row is a game from
//! the standard start. Any other table is a game table like the CSV one
//! (kifu's own `convert --to parquet` included): its flat columns are
//! turned into CSV records a row group at a time and read by the CSV
//! reader, so both tables read alike (the moves column chosen by the same
//! names, the same tags and results).
//!
//! A row's place is its number in the file (`origin.index`); Parquet has
//! no lines.
//!
//! A token column is read a few hundred rows at a time and handed to the
//! batch pipeline as raw chunks of packed rows (`rows.rs`), turned into
//! games in its workers; a game table a row group at a time.

use std::fs::File;
use std::io::{self, BufRead, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parquet::basic::Type as PhysicalType;
use parquet::column::reader::{get_typed_column_reader, ColumnReader, ColumnReaderImpl};
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DataType, DoubleType, FloatType, Int32Type, Int64Type,
};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescriptor;

use crate::formats::chunk::{ChunkParser, Chunker, RawChunk};
use crate::formats::csv;
use crate::formats::format::{step, GameReader, ReadOptions};
use crate::formats::parquet::rows::{self, Levels, TokenParser};
use crate::ml::tokens;
use crate::record::row::push_csv_field;
use crate::record::source::{MoveSpans, ParseError, ReadError, Span};
use crate::record::{GameRecord, Origin};

/// The names of a token column, best first (compared ignoring case).
pub const TOKEN_COLUMNS: [&str; 3] = ["tokens", "input_ids", "games"];

/// Rows decoded at a time from a game table's column.
const BATCH: usize = 4096;

/// Packed bytes a token chunk is cut at when read game by game (not by
/// the pipeline, which asks for its own size).
const CHUNK_BYTES: usize = 64 << 10;

/// Whether the input starts as a Parquet file does.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    head.starts_with(b"PAR1")
}

pub(super) fn error(message: impl Into<String>) -> ReadError {
    ReadError::Syntax(ParseError::at(Span::binary(0, 0), message.into()))
}

fn parquet_error(e: parquet::errors::ParquetError) -> ReadError {
    error(format!("cannot read Parquet: {e}"))
}

/// What the rows hold.
enum Kind {
    /// Tokens in the leaf column `column`.
    Tokens {
        column: usize,
        physical: PhysicalType,
        max_def: i16,
        /// The level of a null element, when elements may be null.
        null_def: Option<i16>,
    },
    /// A game table: its flat columns (leaf index and name); the moves
    /// column as named, if it was.
    Table {
        columns: Vec<(usize, String, i16)>,
        moves: Option<String>,
    },
}

/// The column reader of the row group being read, with its values'
/// buffer.
enum Open {
    Int32(ColumnReaderImpl<Int32Type>, Vec<i32>),
    Int64(ColumnReaderImpl<Int64Type>, Vec<i64>),
}

/// Reads the games of a Parquet file: a token column a chunk of rows at a
/// time, a game table a row group at a time.
pub struct Reader {
    file: SerializedFileReader<File>,
    kind: Kind,
    /// The next row group to open.
    group: usize,
    /// Rows read so far.
    rows: u64,
    games: std::vec::IntoIter<GameRecord>,
    done: bool,
    /// The token column of the row group being read.
    open: Option<Open>,
    levels: Levels,
    parser: Arc<dyn ChunkParser>,
    /// Bytes of chunks worked on, to pack the next ones into.
    spares: Vec<Vec<u8>>,
}

/// Copies a stream into an unnamed temporary file: Parquet's footer is
/// read first, so a pipe or a compressed input is read through a file.
fn spill(mut input: impl BufRead) -> io::Result<File> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(".kifu-parquet-{}-{n}.tmp", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    // Unnamed from now on: it goes when the reader drops it.
    let _ = std::fs::remove_file(&path);
    io::copy(&mut input, &mut file)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(file)
}

/// Opens a reader over any input (a stream is copied to a temporary file
/// first); an error comes as the reader's only item.
pub fn open<'a>(
    input: Box<dyn BufRead + Send + 'a>,
    options: &ReadOptions,
) -> Box<dyn GameReader + 'a> {
    let reader = spill(input)
        .map_err(ReadError::Io)
        .and_then(|file| Reader::from_file(file, options));
    match reader {
        Ok(reader) => Box::new(reader),
        Err(err) => Box::new(crate::formats::format::Games(std::iter::once(Err(err)))),
    }
}

/// Whether a leaf is a list of integers: repeated once, INT32 or INT64.
fn is_token_list(leaf: &ColumnDescriptor) -> bool {
    leaf.max_rep_level() == 1
        && matches!(
            leaf.physical_type(),
            PhysicalType::INT32 | PhysicalType::INT64
        )
}

fn top_name(leaf: &ColumnDescriptor) -> &str {
    leaf.path().parts().first().map_or("", String::as_str)
}

impl Reader {
    /// Reads the footer of `file` and settles which column holds the
    /// games.
    pub fn from_file(file: File, options: &ReadOptions) -> Result<Reader, ReadError> {
        let file = SerializedFileReader::new(file).map_err(parquet_error)?;
        let schema = file.metadata().file_metadata().schema_descr_ptr();
        let leaves = schema.columns();
        let named = options.moves_column.as_deref().map(str::trim);
        let listed = || {
            let mut names: Vec<&str> = leaves.iter().map(|l| top_name(l)).collect();
            names.dedup();
            names.join(", ")
        };
        let find = |name: &str| {
            let exact = leaves.iter().position(|l| top_name(l) == name);
            exact.or_else(|| {
                leaves
                    .iter()
                    .position(|l| top_name(l).eq_ignore_ascii_case(name))
            })
        };
        let tokens_at = |i: usize| Kind::Tokens {
            column: i,
            physical: leaves[i].physical_type(),
            max_def: leaves[i].max_def_level(),
            null_def: leaves[i]
                .self_type()
                .is_optional()
                .then(|| leaves[i].max_def_level() - 1),
        };
        let kind = match named {
            Some(name) => match find(name) {
                Some(i) if is_token_list(&leaves[i]) => tokens_at(i),
                Some(i) if leaves[i].max_rep_level() > 0 => {
                    return Err(error(format!(
                        "the column {name:?} is a list of {}, not of integer tokens",
                        leaves[i].physical_type()
                    )))
                }
                Some(_) => table_kind(leaves, Some(name.to_owned())),
                None => {
                    return Err(error(format!(
                        "no column named {name:?} in the Parquet file (its columns: {})",
                        listed()
                    )))
                }
            },
            None => match TOKEN_COLUMNS
                .iter()
                .find_map(|n| find(n).filter(|&i| is_token_list(&leaves[i])))
            {
                Some(i) => tokens_at(i),
                None => {
                    let has_moves = leaves.iter().any(|l| {
                        l.max_rep_level() == 0
                            && csv::MOVE_COLUMNS
                                .iter()
                                .any(|m| top_name(l).trim().eq_ignore_ascii_case(m))
                    });
                    if !has_moves {
                        return Err(error(format!(
                            "no games in the Parquet file (its columns: {}): expected a list of \
                             integer tokens named {}, or a text column of moves named {}; or \
                             name the column with --moves-column",
                            listed(),
                            TOKEN_COLUMNS.join(", "),
                            csv::MOVE_COLUMNS.join(", ")
                        )));
                    }
                    table_kind(leaves, None)
                }
            },
        };
        Ok(Reader {
            file,
            kind,
            group: 0,
            rows: 0,
            games: Vec::new().into_iter(),
            done: false,
            open: None,
            levels: Levels::default(),
            parser: Arc::new(TokenParser),
            spares: Vec::new(),
        })
    }

    /// Rows in the file, as its footer says.
    #[must_use]
    pub fn rows(&self) -> u64 {
        u64::try_from(self.file.metadata().file_metadata().num_rows()).unwrap_or(0)
    }

    /// The games of the next row group of a game table.
    fn next_group(&mut self) -> Result<Option<Vec<GameRecord>>, ReadError> {
        if self.group >= self.file.num_row_groups() {
            return Ok(None);
        }
        let group = self.file.get_row_group(self.group).map_err(parquet_error)?;
        self.group += 1;
        let base = self.rows;
        let games = match &self.kind {
            Kind::Tokens { .. } => return Ok(None),
            Kind::Table { columns, moves } => {
                let rows = usize::try_from(group.metadata().num_rows()).unwrap_or(0);
                let mut cells: Vec<Vec<Option<String>>> = Vec::with_capacity(columns.len());
                for (leaf, _, max_def) in columns {
                    let reader = group.get_column_reader(*leaf).map_err(parquet_error)?;
                    cells.push(text_cells(reader, rows, *max_def)?);
                }
                let mut bytes = Vec::with_capacity(rows * 256);
                for (k, (_, name, _)) in columns.iter().enumerate() {
                    if k > 0 {
                        bytes.push(b',');
                    }
                    push_csv_field(&mut bytes, name.as_bytes());
                }
                bytes.push(b'\n');
                for row in 0..rows {
                    for (k, column) in cells.iter().enumerate() {
                        if k > 0 {
                            bytes.push(b',');
                        }
                        if let Some(Some(text)) = column.get(row) {
                            // A cell of spaces alone would read as blank:
                            // quoted, it stays itself.
                            push_csv_field(&mut bytes, text.as_bytes());
                        }
                    }
                    bytes.push(b'\n');
                }
                let options = ReadOptions {
                    moves_column: moves.clone(),
                    delimiter: Some(b','),
                };
                let mut games = Vec::with_capacity(rows);
                for item in csv::Reader::with_options(&bytes[..], &options) {
                    let mut game =
                        item.map_err(|e| error(format!("cannot read the table: {e}")))?;
                    game.origin = Origin {
                        index: base + games.len() as u64 + 1,
                        line: None,
                        byte: 0,
                        text: None,
                    };
                    game.spans = MoveSpans::Unknown;
                    if let Some(defect) = &mut game.defect {
                        defect.span = Span::binary(0, 0);
                    }
                    games.push(game);
                }
                games
            }
        };
        self.rows += games.len() as u64;
        Ok(Some(games))
    }
}

fn table_kind(leaves: &[std::sync::Arc<ColumnDescriptor>], moves: Option<String>) -> Kind {
    let columns = leaves
        .iter()
        .enumerate()
        .filter(|(_, l)| l.max_rep_level() == 0 && l.path().parts().len() == 1)
        .map(|(i, l)| (i, top_name(l).to_owned(), l.max_def_level()))
        .collect();
    Kind::Table { columns, moves }
}

/// The values of a flat column as text, `None` for a null.
fn text_cells(
    reader: ColumnReader,
    rows: usize,
    max_def: i16,
) -> Result<Vec<Option<String>>, ReadError> {
    fn cells<T: DataType>(
        reader: ColumnReader,
        rows: usize,
        max_def: i16,
        text: impl Fn(&T::T) -> String,
    ) -> Result<Vec<Option<String>>, ReadError>
    where
        T::T: Default + Clone,
    {
        let mut reader = get_typed_column_reader::<T>(reader);
        let mut out = Vec::with_capacity(rows);
        let (mut defs, mut values) = (Vec::new(), Vec::new());
        loop {
            defs.clear();
            values.clear();
            let (records, _, levels) = reader
                .read_records(BATCH, Some(&mut defs), None, &mut values)
                .map_err(parquet_error)?;
            if records == 0 {
                break;
            }
            let mut next = values.iter();
            if max_def == 0 || levels == 0 {
                out.extend(values.iter().take(records).map(|v| Some(text(v))));
            } else {
                for &def in defs.iter().take(levels) {
                    out.push(if def == max_def {
                        next.next().map(&text)
                    } else {
                        None
                    });
                }
            }
        }
        Ok(out)
    }
    match reader {
        r @ ColumnReader::ByteArrayColumnReader(_) => {
            cells::<ByteArrayType>(r, rows, max_def, |v: &ByteArray| {
                String::from_utf8_lossy(v.data()).into_owned()
            })
        }
        r @ ColumnReader::Int64ColumnReader(_) => {
            cells::<Int64Type>(r, rows, max_def, i64::to_string)
        }
        r @ ColumnReader::Int32ColumnReader(_) => {
            cells::<Int32Type>(r, rows, max_def, i32::to_string)
        }
        r @ ColumnReader::BoolColumnReader(_) => {
            cells::<BoolType>(r, rows, max_def, bool::to_string)
        }
        r @ ColumnReader::DoubleColumnReader(_) => {
            cells::<DoubleType>(r, rows, max_def, f64::to_string)
        }
        r @ ColumnReader::FloatColumnReader(_) => {
            cells::<FloatType>(r, rows, max_def, f32::to_string)
        }
        // Other types hold nothing a game needs: empty cells.
        _ => Ok(vec![None; rows]),
    }
}

impl Iterator for Reader {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(game) = self.games.next() {
                return Some(Ok(game));
            }
            if self.done {
                return None;
            }
            if let Kind::Tokens { .. } = self.kind {
                match Chunker::next_chunk(self, CHUNK_BYTES)? {
                    Ok(chunk) => {
                        let mut games = Vec::new();
                        self.parser.parse(&chunk, None, &mut games);
                        let first = chunk.games_before.unwrap_or(0);
                        for (i, game) in games.iter_mut().enumerate() {
                            game.origin.index = first + i as u64 + 1;
                        }
                        self.recycle(chunk.bytes);
                        self.games = games.into_iter();
                        continue;
                    }
                    Err(err) => return Some(Err(err)),
                }
            }
            let group = self.next_group();
            match step(&mut self.done, group)? {
                Ok(games) => self.games = games.into_iter(),
                Err(err) => return Some(Err(err)),
            }
        }
    }
}

impl GameReader for Reader {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        let fresh = self.group == 0 && self.rows == 0 && !self.done;
        (fresh && matches!(self.kind, Kind::Tokens { .. })).then_some(self as &mut dyn Chunker)
    }
}

impl Reader {
    /// Opens the token column of the next row group; `false` after the
    /// last.
    fn open_group(&mut self) -> Result<bool, ReadError> {
        let Kind::Tokens {
            column, physical, ..
        } = self.kind
        else {
            return Ok(false);
        };
        if self.group >= self.file.num_row_groups() {
            return Ok(false);
        }
        let group = self.file.get_row_group(self.group).map_err(parquet_error)?;
        self.group += 1;
        let reader = group.get_column_reader(column).map_err(parquet_error)?;
        self.open = Some(match physical {
            PhysicalType::INT32 => Open::Int32(get_typed_column_reader(reader), Vec::new()),
            _ => Open::Int64(get_typed_column_reader(reader), Vec::new()),
        });
        Ok(true)
    }

    /// Packs about `size` bytes of rows of the token column onto `bytes`;
    /// the rows packed, 0 at the end of the file.
    fn pack(&mut self, size: usize, bytes: &mut Vec<u8>) -> Result<usize, ReadError> {
        let Kind::Tokens {
            max_def, null_def, ..
        } = self.kind
        else {
            return Ok(0);
        };
        // A row of 60 tokens packs into 61 bytes.
        let want = (size / (tokens::LENGTH + 1)).max(1);
        loop {
            if self.open.is_none() && !self.open_group()? {
                return Ok(0);
            }
            let packed = match &mut self.open {
                None => return Ok(0),
                Some(Open::Int32(reader, values)) => rows::pack(
                    reader,
                    values,
                    &mut self.levels,
                    want,
                    (max_def, null_def),
                    bytes,
                    |v| i64::from(*v),
                ),
                Some(Open::Int64(reader, values)) => rows::pack(
                    reader,
                    values,
                    &mut self.levels,
                    want,
                    (max_def, null_def),
                    bytes,
                    |v| *v,
                ),
            }
            .map_err(parquet_error)?;
            if packed > 0 {
                return Ok(packed);
            }
            // The end of the row group.
            self.open = None;
        }
    }
}

impl Chunker for Reader {
    /// Whole rows of the token column, about `size` packed bytes of them
    /// (a chunk ends at the end of a row group); the rows before it
    /// numbered.
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        if self.done {
            return None;
        }
        let mut bytes = self.spares.pop().unwrap_or_default();
        rows::start(&mut bytes);
        match self.pack(size, &mut bytes) {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(n) => {
                rows::seal(&mut bytes, n);
                let mut chunk = RawChunk::new(bytes, 0, 0, Arc::clone(&self.parser));
                chunk.games_before = Some(self.rows);
                self.rows += n as u64;
                Some(Ok(chunk))
            }
            Err(err) => {
                self.done = true;
                Some(Err(err))
            }
        }
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        // As many as the pipeline keeps in flight.
        if self.spares.len() < 1024 {
            self.spares.push(bytes);
        }
    }
}
