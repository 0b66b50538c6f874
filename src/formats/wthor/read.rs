//! Reading `.wtb` game files.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use crate::engine::game::Move;
use crate::formats::chunk::{Carry, ChunkParser, Chunker, RawChunk};
use crate::formats::format::GameReader;
use crate::formats::lines::Spares;
use crate::formats::wthor::header::{
    binary_error, count_mismatch, Header, HEADER_LEN, MOVES_AT, RECORD_LEN,
};
use crate::formats::wthor::names::{find_name_files, Names};
use crate::record::source::{MoveSpans, ReadError, Span};
use crate::record::{Origin, Quirk, RecordedMove, RecordedResult, ResultValue, Token};
use crate::{GameRecord, Position, Square};

/// The square of a move byte `10 * row + column`, both 1–8.
pub(crate) fn square_of_byte(b: u8) -> Option<Square> {
    let (row, column) = (b / 10, b % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&column) {
        Square::from_coords(column - 1, row - 1)
    } else {
        None
    }
}

/// The token of each move byte: the square `10 * row + column` names
/// (both 1 to 8), else unreadable.
pub(crate) const TOKENS: [Token; 256] = {
    let mut table = [Token::Unreadable; 256];
    let mut b = 0;
    while b < 256 {
        let (row, column) = (b / 10, b % 10);
        if row >= 1 && row <= 8 && column >= 1 && column <= 8 {
            if let Some(square) = Square::from_coords((column - 1) as u8, (row - 1) as u8) {
                table[b] = Token::Move(Move::Play(square));
            }
        }
        b += 1;
    }
    table
};

/// The move byte of a square.
pub(crate) fn byte_of_square(square: Square) -> u8 {
    10 * (square.row() + 1) + square.column() + 1
}

/// The byte Edax pads a short move list with.
const EDAX_PAD: u8 = 92;

/// The length of a record's move list: the bytes before the first zero or
/// Edax's padding. Eight bytes at a time: in `has_zero`, the lowest byte
/// flagged is always a zero byte (a borrow only runs upwards from one).
pub(super) fn moves_end(moves: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let mut words = moves.chunks_exact(8);
    for (i, word) in (&mut words).enumerate() {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(word);
        let x = u64::from_le_bytes(bytes);
        let found = has_zero(x) | has_zero(x ^ (ONES * u64::from(EDAX_PAD)));
        if found != 0 {
            return i * 8 + (found.trailing_zeros() / 8) as usize;
        }
    }
    let done = moves.len() - words.remainder().len();
    words
        .remainder()
        .iter()
        .position(|&b| b == 0 || b == EDAX_PAD)
        .map_or(moves.len(), |i| done + i)
}

/// A name from the name files, or `#N` when the number is past their end
/// (`missing` is called then).
fn name_or_number(name: Option<&str>, id: u16, missing: impl FnOnce()) -> Option<String> {
    match name {
        Some(name) => Some(name.to_owned()),
        None => {
            missing();
            Some(format!("#{id}"))
        }
    }
}

/// Decodes one game record.
///
/// `index` is the 1-based record number and `byte` the record's offset in
/// the file; the header gives the year (the `date` tag) and `names` the
/// tournament and player names. A move byte after the end of the moves is
/// the record's `defect`; what real writers do that reads without harm is
/// a [`Quirk`]: Edax's padding with byte 92 after the last move, a score
/// byte over 64 (read as no recorded score), a player or tournament
/// number past the end of the name files (the name reads `#N`).
#[must_use]
pub fn parse_record(
    bytes: &[u8; RECORD_LEN],
    index: u64,
    byte: u64,
    header: &Header,
    names: Option<&Names>,
) -> GameRecord {
    let mut record = GameRecord::new(Position::start());
    fill_record(&mut record, bytes, index, byte, header, names);
    record
}

/// [`parse_record`] into a new record from [`GameRecord::new`], where it
/// stands (the record is 520 bytes: a batch's vector holds it in place
/// instead of receiving a copy).
fn fill_record(
    record: &mut GameRecord,
    bytes: &[u8; RECORD_LEN],
    index: u64,
    byte: u64,
    header: &Header,
    names: Option<&Names>,
) {
    record.origin = Origin {
        index,
        line: None,
        byte,
        text: None,
    };
    record.spans = MoveSpans::Every {
        first: Span::binary(byte + MOVES_AT as u64, 1),
        stride: 1,
    };
    let tournament = u16::from_le_bytes([bytes[0], bytes[1]]);
    let black = u16::from_le_bytes([bytes[2], bytes[3]]);
    let white = u16::from_le_bytes([bytes[4], bytes[5]]);
    if let Some(names) = names {
        record.tags.event = name_or_number(names.tournament(tournament), tournament, || {
            record.quirks.insert(Quirk::EventUnnamed);
        });
        record.tags.black = name_or_number(names.player(black), black, || {
            record.quirks.insert(Quirk::BlackUnnamed);
        });
        record.tags.white = name_or_number(names.player(white), white, || {
            record.quirks.insert(Quirk::WhiteUnnamed);
        });
    }
    if header.year != 0 {
        record.tags.date = Some(itoa::Buffer::new().format(header.year).to_owned());
    }
    let score = bytes[6];
    if score <= 64 {
        record.result = Some(RecordedResult::new(ResultValue::Discs {
            black: score,
            white: 64 - score,
        }));
    } else {
        record.quirks.insert(Quirk::ScoreOver64);
    }
    let theoretical = bytes[7];
    if theoretical <= 64 {
        record.theoretical_black_score = Some(theoretical);
        record.theoretical_depth = Some(header.depth);
    } else {
        record.quirks.insert(Quirk::TheoreticalOver64);
    }
    // Constant indices below RECORD_LEN into a fixed-size array: cannot fail.
    let moves = &bytes[MOVES_AT..];
    let count = moves_end(moves);
    let played = moves.get(..count).unwrap_or(moves);
    // One table lookup a byte, written without a capacity check a move;
    // the rare unreadable bytes are named afterwards.
    let mut unreadable = false;
    record.moves.extend(played.iter().map(|&b| {
        let token = TOKENS[usize::from(b)];
        unreadable |= token == Token::Unreadable;
        RecordedMove { token, color: None }
    }));
    if unreadable {
        record.unreadable = played
            .iter()
            .enumerate()
            .filter(|&(_, &b)| TOKENS[usize::from(b)] == Token::Unreadable)
            .map(|(i, &b)| (i, format!("byte {b}").into()))
            .collect();
    }
    // After the moves: zeros, or Edax's padding (92) then zeros.
    let rest = moves.get(count..).unwrap_or(&[]);
    let padded = rest.iter().take_while(|&&b| b == EDAX_PAD).count();
    if padded > 0 {
        record.quirks.insert(Quirk::PaddedWith92);
    }
    if let Some(after) = rest
        .iter()
        .skip(padded)
        .position(|&b| b != 0)
        .map(|i| i + count + padded)
    {
        let b = moves.get(after).copied().unwrap_or(0);
        let pos = byte + (MOVES_AT + after) as u64;
        record.defect = Some(binary_error(
            pos,
            1,
            format!("move byte {b} after the end of the moves (record {index}, byte {pos})"),
        ));
    }
}

/// Fills `buf` from `input` until it is full or the input ends; returns
/// the bytes read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    fill_counted(input, buf).map_err(|(_, e)| e)
}

/// [`fill`], telling on failure how many bytes were read before it.
fn fill_counted(input: &mut impl Read, buf: &mut [u8]) -> Result<usize, (usize, io::Error)> {
    let mut n = 0;
    while n < buf.len() {
        // `n < buf.len()`, so the slice is in bounds.
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err((n, e)),
        }
    }
    Ok(n)
}

/// Streams the games of a `.wtb` file, one 68-byte record at a time.
///
/// The header is read and checked on the first call to [`Iterator::next`]
/// (or [`Reader::read_header`]); a header it cannot go on from is the
/// first and only item, an error. Reading does no buffering of its own:
/// give it a buffered input (a `BufReader` over a file).
///
/// ```
/// use kifu::formats::wthor::Reader;
/// let mut file = vec![20, 26, 2, 16, 1, 0, 0, 0, 0, 0, 0xb9, 7, 8, 0, 24, 0];
/// let mut record = [0u8; 68];
/// record[6] = 64;
/// record[7] = 64;
/// record[8..17].copy_from_slice(&[56, 64, 53, 66, 75, 46, 57, 65, 35]);
/// file.extend_from_slice(&record);
/// let mut reader = Reader::new(&file[..], None).with_size(file.len() as u64);
/// let game = reader.next().unwrap()?;
/// assert_eq!(game.move_string(), "f5d6c5f6e7f4g5e6e3");
/// assert_eq!(game.replay().final_score().unwrap().black_score, 64);
/// assert_eq!(reader.header().unwrap().year, 1977);
/// assert!(reader.next().is_none());
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub struct Reader<R: Read> {
    input: R,
    names: Option<Arc<Names>>,
    size: Option<u64>,
    header: Option<Header>,
    read: u32,
    done: bool,
    /// What stops the input after the chunk just handed out.
    pending: Option<ReadError>,
    /// The parser of this input's chunks, once the header is read.
    parser: Option<Arc<dyn ChunkParser>>,
    /// Buffers handed back to read chunks into again.
    spares: Spares,
}

impl Reader<BufReader<File>> {
    /// Opens a `.wtb` file with the name files found next to it
    /// ([`find_name_files`]) and its size checked against the header.
    /// Name-file oddities are in `reader.names()`'s warnings; several
    /// candidate name files and no rule to choose is an error.
    pub fn open(path: &Path) -> io::Result<Reader<BufReader<File>>> {
        let file = File::open(path)?;
        let meta = file.metadata()?;
        let found = find_name_files(path).map_err(io::Error::other)?;
        let names = if found.players.is_some() || found.tournaments.is_some() {
            Some(Arc::new(Names::load(
                found.players.as_deref(),
                found.tournaments.as_deref(),
            )?))
        } else {
            None
        };
        let reader = Reader::new(BufReader::with_capacity(1 << 16, file), names);
        // Only a regular file has a size worth checking (not a pipe).
        Ok(if meta.is_file() {
            reader.with_size(meta.len())
        } else {
            reader
        })
    }
}

impl<R: Read> Reader<R> {
    /// Reads games from `input`, naming players and tournaments from
    /// `names` when given.
    pub fn new(input: R, names: Option<Arc<Names>>) -> Reader<R> {
        Reader {
            input,
            names,
            size: None,
            header: None,
            read: 0,
            done: false,
            pending: None,
            parser: None,
            spares: Spares::default(),
        }
    }

    /// Tells the reader the file's size, so that bytes past the games the
    /// header counts are reported without reading them. Either way every
    /// whole record is read before a count that disagrees with the data is
    /// reported.
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Reader<R> {
        self.size = Some(size);
        self
    }

    /// The header, once read.
    #[must_use]
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// The names the games are labelled with.
    #[must_use]
    pub fn names(&self) -> Option<&Names> {
        self.names.as_deref()
    }

    /// Reads and checks the header if not done yet.
    pub fn read_header(&mut self) -> Result<Header, ReadError> {
        if let Some(header) = self.header {
            return Ok(header);
        }
        if self.done {
            return Err(ReadError::Syntax(binary_error(
                0,
                0,
                "the header could not be read".into(),
            )));
        }
        match self.header_inner() {
            Ok(header) => {
                self.header = Some(header);
                Ok(header)
            }
            Err(e) => {
                self.done = true;
                Err(e)
            }
        }
    }

    fn header_inner(&mut self) -> Result<Header, ReadError> {
        let mut buf = [0u8; HEADER_LEN];
        let n = fill(&mut self.input, &mut buf)?;
        if n < HEADER_LEN {
            return Err(binary_error(
                0,
                n as u32,
                format!("truncated header: {n} of {HEADER_LEN} bytes"),
            )
            .into());
        }
        let header = Header::from_bytes(&buf);
        header.check_games()?;
        Ok(header)
    }

    /// After the last game the header promised: anything more is an error
    /// (the games before it were all read).
    fn check_end(&mut self, header: &Header) -> Option<ReadError> {
        let games = u64::from(header.games);
        let at = HEADER_LEN as u64 + games * RECORD_LEN as u64;
        let extra = match self.size {
            Some(size) => size.saturating_sub(at),
            None => match io::copy(&mut self.input, &mut io::sink()) {
                Ok(extra) => extra,
                Err(e) => return Some(e.into()),
            },
        };
        if extra == 0 {
            return None;
        }
        let whole = games + extra / RECORD_LEN as u64;
        let rest = extra % RECORD_LEN as u64;
        let message = count_mismatch("game", games, whole, rest);
        Some(binary_error(at, 1, message).into())
    }
}

/// The error of record `read + 1` when only `n` of its bytes are there.
fn short_record(header: &Header, read: u32, n: usize) -> ReadError {
    {
        let index = u64::from(read) + 1;
        let at = HEADER_LEN as u64 + u64::from(read) * RECORD_LEN as u64;
        let message = if n == 0 {
            format!(
                "{}: record {index} at byte {at} is missing",
                count_mismatch("game", u64::from(header.games), u64::from(read), 0)
            )
        } else {
            format!(
                "record {index} at byte {at} is truncated: {n} of {RECORD_LEN} bytes \
                 (header says {} games)",
                header.games
            )
        };
        binary_error(at, n as u32, message).into()
    }
}

impl<R: Read + Send> GameReader for Reader<R> {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        if self.read == 0 && !self.done {
            Some(self)
        } else {
            None
        }
    }
}

impl<R: Read + Send> Chunker for Reader<R> {
    /// Whole records, as many as fit in `size` (at least one); what stops
    /// the sequential reader comes after the records before it.
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        if let Some(err) = self.pending.take() {
            self.done = true;
            return Some(Err(err));
        }
        if self.done {
            return None;
        }
        let header = match self.read_header() {
            Ok(h) => h,
            Err(e) => return Some(Err(e)),
        };
        let left = header.games.saturating_sub(self.read) as usize;
        if left == 0 {
            self.done = true;
            return self.check_end(&header).map(Err);
        }
        let want = (size / RECORD_LEN).clamp(1, left);
        let mut bytes = self.spares.take(want * RECORD_LEN);
        bytes.resize(want * RECORD_LEN, 0);
        let (n, failed) = match fill_counted(&mut self.input, &mut bytes) {
            Ok(n) => (n, None),
            Err((n, e)) => (n, Some(ReadError::from(e))),
        };
        let whole = n / RECORD_LEN;
        let byte = HEADER_LEN as u64 + u64::from(self.read) * RECORD_LEN as u64;
        let stop = match failed {
            Some(e) => Some(e),
            None if whole < want => {
                let read = self.read + u32::try_from(whole).unwrap_or(u32::MAX);
                Some(short_record(&header, read, n % RECORD_LEN))
            }
            None => None,
        };
        if whole == 0 {
            self.done = true;
            return stop.map(Err);
        }
        self.pending = stop;
        bytes.truncate(whole * RECORD_LEN);
        // At most `header.games` records: the sum fits in u32.
        self.read += u32::try_from(whole).unwrap_or(u32::MAX);
        let parser = match &self.parser {
            Some(parser) => Arc::clone(parser),
            None => {
                let parser: Arc<dyn ChunkParser> = Arc::new(Records {
                    header,
                    names: self.names.clone(),
                });
                self.parser = Some(Arc::clone(&parser));
                parser
            }
        };
        let mut chunk = RawChunk::new(bytes, byte, 0, parser);
        chunk.games_before = Some(u64::from(self.read) - whole as u64);
        Some(Ok(chunk))
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        self.spares.keep(bytes);
    }
}

/// Parses the records of a chunk as [`Reader`] does.
struct Records {
    header: Header,
    names: Option<Arc<Names>>,
}

impl ChunkParser for Records {
    fn games_in(&self, bytes: usize) -> usize {
        bytes / RECORD_LEN
    }

    fn parse(
        &self,
        chunk: &RawChunk,
        _: Option<Carry>,
        out: &mut Vec<GameRecord>,
    ) -> Option<Carry> {
        let first = (chunk.byte.saturating_sub(HEADER_LEN as u64)) / RECORD_LEN as u64;
        for (i, record) in chunk.bytes.chunks_exact(RECORD_LEN).enumerate() {
            if let Ok(record) = <&[u8; RECORD_LEN]>::try_from(record) {
                let at = chunk.byte + (i * RECORD_LEN) as u64;
                out.push(GameRecord::new(Position::start()));
                if let Some(game) = out.last_mut() {
                    let names = self.names.as_deref();
                    fill_record(game, record, first + i as u64 + 1, at, &self.header, names);
                }
            }
        }
        None
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let header = match self.read_header() {
            Ok(h) => h,
            Err(e) => return Some(Err(e)),
        };
        if self.read >= header.games {
            self.done = true;
            return self.check_end(&header).map(Err);
        }
        let index = u64::from(self.read) + 1;
        let at = HEADER_LEN as u64 + u64::from(self.read) * RECORD_LEN as u64;
        let mut buf = [0u8; RECORD_LEN];
        let n = match fill(&mut self.input, &mut buf) {
            Ok(n) => n,
            Err(e) => {
                self.done = true;
                return Some(Err(e.into()));
            }
        };
        if n < RECORD_LEN {
            self.done = true;
            return Some(Err(short_record(&header, self.read, n)));
        }
        self.read += 1;
        Some(Ok(parse_record(
            &buf,
            index,
            at,
            &header,
            self.names.as_deref(),
        )))
    }
}

/// Whether the first bytes look like a `.wtb` file: a plausible creation
/// date, an 8×8 or 10×10 board size, a game type of 0 or 1, and when the
/// first record is there, a score of at most 64 and a first move byte
/// that is a square or 0.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let Some(bytes) = head.first_chunk::<HEADER_LEN>() else {
        return false;
    };
    let h = Header::from_bytes(bytes);
    let (century, year, month, day) = h.created;
    let plausible = century <= 99
        && year <= 99
        && (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && matches!(h.board_size, 0 | 8 | 10)
        && h.kind <= 1
        && h.names == 0;
    if !plausible {
        return false;
    }
    if h.board_size == 10 || h.games == 0 {
        return true;
    }
    match head.get(HEADER_LEN..HEADER_LEN + RECORD_LEN) {
        Some(record) => {
            let first = record.get(MOVES_AT).copied().unwrap_or(0);
            record.get(6).is_some_and(|&s| s <= 64)
                && (first == 0 || square_of_byte(first).is_some())
        }
        None => true,
    }
}
