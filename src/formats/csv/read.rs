//! Reading a table: the header read once (the delimiter and the moves
//! column settled), then the rest cut into raw chunks at record ends
//! ([`Scan`]) and each chunk read into games by [`Rows`] — in the
//! pipeline's workers, or here, a chunk after another, by the sequential
//! [`Reader`]. Both read the same chunks the same way, wherever they are
//! cut, so they give the same games.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;

use crate::formats::chunk::{ChunkParser, Chunker, RawChunk};
use crate::formats::csv::fields::At;
use crate::formats::csv::header::sniff_delimiter;
use crate::formats::csv::row::{header_error, Rows, MAX_HEADER, MAX_RECORD};
use crate::formats::csv::scan::{newlines, Scan};
use crate::formats::format::{step, GameReader, ReadOptions};
use crate::formats::lines::{fill, rest, wanted, Spares};
use crate::record::source::ReadError;
use crate::record::GameRecord;

/// Bytes the sequential reader cuts at a time.
const SEQUENTIAL_CHUNK: usize = 16 << 10;

/// Streams games from a CSV table, one per data row that is not blank.
///
/// A record (a row, quoted line ends and all) over 1 MiB is an invalid
/// game, never held in memory; a row that is not UTF-8 stops the reading.
pub struct Reader<R> {
    cutter: Cutter<R>,
    games: VecDeque<GameRecord>,
    count: u64,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`; the first row is the header, its delimiter and
    /// moves column found as the module says.
    pub fn new(input: R) -> Reader<R> {
        Reader::with_options(input, &ReadOptions::default())
    }

    /// Reads from `input` with the moves column or delimiter `options`
    /// name.
    pub fn with_options(input: R, options: &ReadOptions) -> Reader<R> {
        Reader::with_max_record(input, options, MAX_RECORD)
    }

    /// Reads from `input`, a record over `max` bytes an invalid game.
    pub fn with_max_record(input: R, options: &ReadOptions, max: usize) -> Reader<R> {
        Reader {
            cutter: Cutter {
                input,
                options: options.clone(),
                max: max.max(1),
                rows: None,
                scan: Scan::new(b','),
                pending: Vec::new(),
                byte: 0,
                lines: 0,
                error: None,
                done: false,
                started: false,
                spares: Spares::default(),
            },
            games: VecDeque::new(),
            count: 0,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(mut game) = self.games.pop_front() {
                self.count += 1;
                game.origin.index = self.count;
                return Some(Ok(game));
            }
            let chunk = match self.cutter.next(SEQUENTIAL_CHUNK)? {
                Ok(chunk) => chunk,
                Err(err) => return Some(Err(err)),
            };
            let mut games = Vec::new();
            chunk.parser.parse(&chunk, None, &mut games);
            self.games.extend(games);
        }
    }
}

impl<R: BufRead + Send> GameReader for Reader<R> {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        if self.cutter.started || !self.games.is_empty() {
            None
        } else {
            Some(&mut self.cutter)
        }
    }
}

/// Cuts a table into raw chunks of whole records, for [`Rows`] to read.
struct Cutter<R> {
    input: R,
    options: ReadOptions,
    /// The longest record.
    max: usize,
    /// The rows' parser, once the header is read.
    rows: Option<Arc<Rows>>,
    scan: Scan,
    /// Bytes read past the last chunk, from the start of a record.
    pending: Vec<u8>,
    /// Offset of the first pending byte.
    byte: u64,
    /// The `\n`s before it.
    lines: u32,
    /// A failure to give after the chunk of the records before it.
    error: Option<ReadError>,
    /// A failure was given: nothing more.
    done: bool,
    /// Whether anything was read.
    started: bool,
    /// Buffers handed back to cut into again.
    spares: Spares,
}

impl<R: BufRead + Send> Chunker for Cutter<R> {
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        self.next(size)
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        self.spares.keep(bytes);
    }
}

impl<R: BufRead> Cutter<R> {
    /// The next chunk of about `size` bytes of whole records (a record
    /// over the limit alone, as its length), the header read first.
    fn next(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        if self.done {
            return None;
        }
        if let Some(err) = self.error.take() {
            self.done = true;
            return Some(Err(err));
        }
        let rows = match &self.rows {
            Some(rows) => Arc::clone(rows),
            None => {
                let opened = self.open();
                match step(&mut self.done, opened)? {
                    Ok(rows) => rows,
                    Err(err) => return Some(Err(err)),
                }
            }
        };
        let cut = self.cut(size.max(1), &rows);
        step(&mut self.done, cut)
    }

    /// Reads the header record: the columns of every row, `None` for an
    /// input without a record.
    fn open(&mut self) -> Result<Option<Arc<Rows>>, ReadError> {
        self.started = true;
        let mut bytes = Vec::new();
        // The first line (or the first MAX_HEADER bytes): what the
        // delimiter is chosen from.
        while bytes.len() < MAX_HEADER {
            let avail = fill(&mut self.input)?;
            if avail.is_empty() {
                break;
            }
            let n = avail.len().min(MAX_HEADER - bytes.len());
            let piece = avail.get(..n).unwrap_or_default();
            let line_end = piece.contains(&b'\n');
            bytes.extend_from_slice(piece);
            self.input.consume(n);
            if line_end {
                break;
            }
        }
        let named = self.options.moves_column.clone();
        let delimiter = self
            .options
            .delimiter
            .unwrap_or_else(|| sniff_delimiter(&bytes, named.as_deref()));
        // The header record, quoted line ends and all.
        self.scan = Scan::new(delimiter);
        // csv skips a byte order mark at the start, before the first field.
        let mut pos = if bytes.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let end = loop {
            if let Some(end) = self.scan.next_end(&bytes, &mut pos) {
                break end;
            }
            if bytes.len() > MAX_HEADER {
                return Err(ReadError::Syntax(header_error(format!(
                    "the CSV header is longer than {MAX_HEADER} bytes"
                ))));
            }
            let avail = fill(&mut self.input)?;
            if avail.is_empty() {
                break bytes.len();
            }
            let n = avail.len();
            bytes.extend_from_slice(avail);
            self.input.consume(n);
        };
        let header = bytes.get(..end).unwrap_or_default();
        let Some(rows) = Rows::from_header(header, delimiter, named.as_deref(), self.max)? else {
            return Ok(None);
        };
        self.byte = end as u64;
        self.lines = newlines(header);
        self.pending = rest(&mut bytes, end, 0, &mut self.spares);
        let rows = Arc::new(rows);
        self.rows = Some(Arc::clone(&rows));
        Ok(Some(rows))
    }

    /// Cuts the next chunk: the records in the first `size` bytes read
    /// (more when a record is longer), or a record over the limit alone;
    /// `None` at the end of the input.
    fn cut(&mut self, size: usize, rows: &Arc<Rows>) -> Result<Option<RawChunk>, ReadError> {
        let mut bytes = std::mem::take(&mut self.pending);
        self.scan.reset();
        // What was scanned, and where its last record ends.
        let (mut pos, mut end) = (0, 0);
        loop {
            while let Some(next) = self.scan.next_end(&bytes, &mut pos) {
                if next - end > self.max {
                    return if end > 0 {
                        self.chunk(bytes, end, size, rows).map(Some)
                    } else {
                        self.long(bytes, Some(next), size, rows)
                    };
                }
                end = next;
            }
            if bytes.len() - end > self.max {
                return if end > 0 {
                    self.chunk(bytes, end, size, rows).map(Some)
                } else {
                    self.long(bytes, None, size, rows)
                };
            }
            if bytes.len() >= size && end > 0 {
                return self.chunk(bytes, end, size, rows).map(Some);
            }
            let avail = match fill(&mut self.input) {
                Ok(avail) => avail,
                Err(err) if end > 0 => {
                    // The records before the failure, then the failure.
                    self.error = Some(ReadError::Io(err));
                    return self.chunk(bytes, end, size, rows).map(Some);
                }
                Err(err) => return Err(ReadError::Io(err)),
            };
            if avail.is_empty() {
                if bytes.is_empty() {
                    return Ok(None);
                }
                // The last record may have no line end.
                let len = bytes.len();
                return self.chunk(bytes, len, size, rows).map(Some);
            }
            let n = avail.len().min(wanted(bytes.len(), size));
            bytes.extend_from_slice(avail.get(..n).unwrap_or_default());
            self.input.consume(n);
        }
    }

    /// The chunk of the records of `bytes[..end]`, the rest kept for the
    /// next. Should a record not be UTF-8, the chunk ends before it and
    /// the failure comes next.
    fn chunk(
        &mut self,
        mut bytes: Vec<u8>,
        end: usize,
        size: usize,
        rows: &Arc<Rows>,
    ) -> Result<RawChunk, ReadError> {
        self.pending = rest(&mut bytes, end, size, &mut self.spares);
        // Text that is UTF-8 has fields that are (an ASCII delimiter, line
        // end or quote taken out leaves it so); only the rare chunk that is
        // not is read here, to find the record csv stops at.
        if !rows.delimiter().is_ascii() || std::str::from_utf8(&bytes).is_err() {
            let at = At {
                byte: self.byte,
                line: self.lines.saturating_add(1),
            };
            if let Err((bad, err)) = rows.each_row(&bytes, at, |_, _| {}) {
                let keep = usize::try_from(bad.byte.saturating_sub(self.byte)).unwrap_or(0);
                bytes.truncate(keep);
                self.pending = Vec::new();
                if bytes.is_empty() {
                    return Err(err);
                }
                self.error = Some(err);
            }
        }
        let parser: Arc<dyn ChunkParser> = Arc::clone(rows) as _;
        let chunk = RawChunk::new(bytes, self.byte, self.lines, parser);
        self.byte += chunk.bytes.len() as u64;
        self.lines = self.lines.saturating_add(newlines(&chunk.bytes));
        Ok(chunk)
    }

    /// A record over the limit, which starts `bytes`: its length (up to
    /// `end`, or read on to its end without holding it), as a chunk of
    /// its own; `None` when only line ends were left.
    fn long(
        &mut self,
        mut bytes: Vec<u8>,
        end: Option<usize>,
        size: usize,
        rows: &Arc<Rows>,
    ) -> Result<Option<RawChunk>, ReadError> {
        let (len, lines) = match end {
            Some(end) => {
                self.pending = rest(&mut bytes, end, size, &mut self.spares);
                (end as u64, newlines(&bytes))
            }
            None => {
                let (mut len, mut lines) = (bytes.len() as u64, newlines(&bytes));
                drop(bytes);
                loop {
                    let avail = fill(&mut self.input)?;
                    if avail.is_empty() {
                        if self.scan.between() {
                            // Line ends to the end: no record.
                            return Ok(None);
                        }
                        break;
                    }
                    let mut pos = 0;
                    let found = self.scan.next_end(avail, &mut pos);
                    let used = found.unwrap_or(avail.len());
                    len += used as u64;
                    lines = lines.saturating_add(newlines(avail.get(..used).unwrap_or_default()));
                    self.input.consume(used);
                    if found.is_some() {
                        break;
                    }
                }
                (len, lines)
            }
        };
        let chunk = RawChunk {
            long_line: Some(len),
            ..RawChunk::new(Vec::new(), self.byte, self.lines, Arc::clone(rows) as _)
        };
        self.byte += len;
        self.lines = self.lines.saturating_add(lines);
        Ok(Some(chunk))
    }
}
