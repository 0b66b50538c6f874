//! Othello-GPT token arrays (`.npy`): one row of tokens a game (see
//! [`crate::ml::tokens`] for the vocabulary).
//!
//! Read: a NumPy array of shape `[games, n]` of any integer type (`i1`
//! to `i8`, `u1` to `u8`, either byte order), row-major, streamed a row at
//! a time; each row is a game from the standard start, checked by the
//! replay like any other. A row's place is its record number and byte
//! offset. Parquet token columns are read by the Parquet reader
//! ([`crate::formats::parquet`]).
//!
//! Write: [`Writer`] writes `int8` rows of 60 tokens, 0-padded, and the
//! game count into the header at the end (the output must be seekable).
//! A game from another start, or with a move the vocabulary has no token
//! for, is refused and named.

use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};

use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo, GameReader, GameWriter, Games, WriteError};
use crate::ml::tokens::{self, LENGTH};
use crate::record::row::Game;
use crate::record::source::{MoveSpans, ParseError, ReadError, Span};
use crate::record::{GameRecord, Origin};

/// The tokens row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    aliases: &["othello-gpt", "npy"],
    extensions: &["npy"],
    // Only the moves: what the moves cannot hold is all it keeps.
    loses: Features::ALL.without(&[
        Feature::UnreadableMoves,
        Feature::AntiRules,
        Feature::Orientation,
        Feature::LongPlayerNames,
        Feature::LongEventNames,
        Feature::NonLatin1Names,
        Feature::OtherBoard,
    ]),
    ..FormatInfo::new(
        Format::Tokens,
        "tokens",
        "Othello-GPT tokens: an int8 NumPy array [games, 60], 0-padded",
        sniff,
        |input, _| match Reader::new(input) {
            Ok(reader) => Box::new(reader),
            Err(err) => Box::new(Games(std::iter::once(Err(err)))),
        },
    )
};

/// The magic of every `.npy` file.
const MAGIC: &[u8] = b"\x93NUMPY";

/// Whether the input starts as a NumPy array does.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// An integer dtype of an array: its size and how to read one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Dtype {
    size: usize,
    signed: bool,
    big_endian: bool,
}

impl Dtype {
    fn read(self, bytes: &[u8]) -> i64 {
        let mut buf = [0u8; 8];
        if self.big_endian {
            buf[8 - self.size..].copy_from_slice(bytes);
            let v = u64::from_be_bytes(buf);
            Self::extend(v, self.size, self.signed)
        } else {
            buf[..self.size].copy_from_slice(bytes);
            Self::extend(u64::from_le_bytes(buf), self.size, self.signed)
        }
    }

    fn extend(v: u64, size: usize, signed: bool) -> i64 {
        let bits = size * 8;
        if signed && bits < 64 {
            let shift = 64 - bits;
            ((v << shift) as i64) >> shift
        } else {
            // A u8 over i64::MAX is no token either way.
            i64::try_from(v).unwrap_or(i64::MAX)
        }
    }
}

/// The parts of a `.npy` header this reader needs.
#[derive(Debug, PartialEq, Eq)]
struct Header {
    dtype: Dtype,
    rows: u64,
    columns: usize,
    /// Bytes before the data.
    len: u64,
}

fn header_error(message: impl Into<String>) -> ReadError {
    ReadError::Syntax(ParseError::at(Span::binary(0, 0), message.into()))
}

/// Reads and checks the header: an array of integers, two dimensions,
/// rows one after another.
fn read_header(input: &mut dyn Read) -> Result<Header, ReadError> {
    let mut pre = [0u8; 8];
    input
        .read_exact(&mut pre)
        .map_err(|_| header_error("not a NumPy array: the file is shorter than an npy header"))?;
    if &pre[..6] != MAGIC {
        return Err(header_error("not a NumPy array: no \\x93NUMPY magic"));
    }
    let (len, at) = match pre[6] {
        1 => {
            let mut n = [0u8; 2];
            input.read_exact(&mut n)?;
            (u64::from(u16::from_le_bytes(n)), 10)
        }
        2 | 3 => {
            let mut n = [0u8; 4];
            input.read_exact(&mut n)?;
            (u64::from(u32::from_le_bytes(n)), 12)
        }
        v => return Err(header_error(format!("npy format version {v} is not read"))),
    };
    if len > 1 << 20 {
        return Err(header_error(format!(
            "npy header of {len} bytes is too long"
        )));
    }
    let mut text = vec![0u8; len as usize];
    input
        .read_exact(&mut text)
        .map_err(|_| header_error("the npy header is cut short"))?;
    let text = String::from_utf8_lossy(&text);
    let value = |key: &str| -> Option<&str> {
        let start = text.find(&format!("'{key}'"))? + key.len() + 2;
        let rest = text[start..].trim_start().strip_prefix(':')?.trim_start();
        Some(rest)
    };
    let descr = value("descr")
        .and_then(|v| v.strip_prefix('\''))
        .and_then(|v| v.split('\'').next())
        .ok_or_else(|| header_error("the npy header has no 'descr'"))?;
    let dtype = parse_descr(descr).ok_or_else(|| {
        header_error(format!(
            "an array of {descr} is no token array: tokens are integers (int8 to int64, uint8 \
             to uint64)"
        ))
    })?;
    if value("fortran_order").is_some_and(|v| v.starts_with("True")) {
        return Err(header_error(
            "a Fortran-order array is not read: save it with numpy.ascontiguousarray",
        ));
    }
    let shape = value("shape")
        .and_then(|v| v.strip_prefix('('))
        .and_then(|v| v.split(')').next())
        .ok_or_else(|| header_error("the npy header has no 'shape'"))?;
    let dims: Vec<&str> = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let parse = |s: &str| {
        s.trim_end_matches('L')
            .parse::<u64>()
            .map_err(|_| header_error(format!("the npy shape ({shape}) is not read")))
    };
    let (rows, columns) = match dims[..] {
        [rows, columns] => (parse(rows)?, parse(columns)?),
        _ => {
            return Err(header_error(format!(
                "a token array has two dimensions [games, moves]; this one has shape ({shape})"
            )))
        }
    };
    let columns = usize::try_from(columns)
        .ok()
        .filter(|&c| c <= 1 << 16)
        .ok_or_else(|| header_error(format!("{columns} tokens a row is no game")))?;
    Ok(Header {
        dtype,
        rows,
        columns,
        len: at + len,
    })
}

/// `<i8`, `|u1`, `>i4`, `i2`…: an integer type.
fn parse_descr(descr: &str) -> Option<Dtype> {
    let b = descr.as_bytes();
    let (order, rest) = match b.first()? {
        b'<' | b'|' | b'=' => (false, &b[1..]),
        b'>' => (true, &b[1..]),
        _ => (false, b),
    };
    let (kind, size) = match rest {
        [k, s] => (*k, usize::from(s.wrapping_sub(b'0'))),
        _ => return None,
    };
    let signed = match kind {
        b'i' => true,
        b'u' => false,
        _ => return None,
    };
    matches!(size, 1 | 2 | 4 | 8).then_some(Dtype {
        size,
        signed,
        big_endian: order && size > 1,
    })
}

/// Reads a token array a row at a time.
pub struct Reader<R> {
    input: R,
    header: Header,
    row: u64,
    bytes: Vec<u8>,
    values: Vec<i64>,
}

impl<R: Read> Reader<R> {
    /// Reads the header; an error says why the input is no token array.
    pub fn new(mut input: R) -> Result<Reader<R>, ReadError> {
        let header = read_header(&mut input)?;
        Ok(Reader {
            bytes: vec![0; header.columns * header.dtype.size],
            values: vec![0; header.columns],
            input,
            header,
            row: 0,
        })
    }

    /// Games in the array, as its header says.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.header.rows
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.row >= self.header.rows {
            return None;
        }
        let size = self.header.dtype.size;
        let row_len = self.bytes.len() as u64;
        let byte = self.header.len + self.row * row_len;
        self.row += 1;
        if let Err(e) = self.input.read_exact(&mut self.bytes) {
            let missing = self.row;
            self.row = self.header.rows;
            return Some(Err(if e.kind() == io::ErrorKind::UnexpectedEof {
                ReadError::Syntax(ParseError::at(
                    Span::binary(byte, 0),
                    format!(
                        "the array is cut short: its header says {} rows, row {} is missing \
                         (byte {byte})",
                        self.header.rows, missing
                    ),
                ))
            } else {
                ReadError::Io(e)
            }));
        }
        for (v, b) in self.values.iter_mut().zip(self.bytes.chunks_exact(size)) {
            *v = self.header.dtype.read(b);
        }
        let origin = Origin {
            index: self.row,
            line: None,
            byte,
            text: None,
        };
        let size = u32::try_from(size).unwrap_or(1);
        let spans = MoveSpans::Every {
            first: Span::binary(byte, size),
            stride: size,
        };
        Some(Ok(tokens::decode(&self.values, origin, spans)))
    }
}

impl<R: Read + Send> GameReader for Reader<R> {}

/// Reads every row of a token array held in `input` (tests, small
/// arrays).
pub fn read_all(input: impl BufRead + Send) -> Result<Vec<GameRecord>, ReadError> {
    Reader::new(input)?.collect()
}

/// Writes games as rows of 60 int8 tokens, the count patched into the
/// header when done.
pub struct Writer<W: Write + Seek> {
    out: W,
    rows: u64,
}

impl<W: Write + Seek> Writer<W> {
    /// Starts the array at the output's current place (its start).
    pub fn new(mut out: W) -> io::Result<Writer<W>> {
        out.write_all(&tokens::npy_header(0))?;
        Ok(Writer { out, rows: 0 })
    }

    /// Games written so far.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write + Seek> GameWriter for Writer<W> {
    fn write(&mut self, game: &Game<'_>) -> Result<(), WriteError> {
        let row = tokens::encode(game.record)?;
        self.out.write_all(&row.map(|t| t.to_le_bytes()[0]))?;
        self.rows += 1;
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let end = self.out.stream_position()?;
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&tokens::npy_header(self.rows))?;
        self.out.seek(SeekFrom::Start(end))?;
        self.out.flush()
    }
}

/// The bytes of a row of [`LENGTH`] tokens as written.
pub const ROW_BYTES: usize = LENGTH;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Refusal;
    use crate::testkit::transcript;
    use crate::Status;
    use std::io::Cursor;

    fn array(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        let mut text = dict.into_bytes();
        while (10 + text.len() + 1) % 64 != 0 {
            text.push(b' ');
        }
        text.push(b'\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(text.len() as u16).to_le_bytes());
        out.extend_from_slice(&text);
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn a_token_file_round_trips() {
        let games = [
            transcript("f5d6c3d3c4f4c5b3c2e6c6b4"),
            transcript("f5f6e6f4e3"),
            transcript("c4c3"),
        ];
        let mut writer = Writer::new(Cursor::new(Vec::new())).unwrap();
        for record in &games {
            let report = record.replay();
            writer.write(&Game::new("-", record, &report)).unwrap();
        }
        writer.finish().unwrap();
        let bytes = writer.into_inner().into_inner();
        assert_eq!(bytes.len(), tokens::npy_header(0).len() + 3 * ROW_BYTES);
        let back = read_all(&bytes[..]).unwrap();
        assert_eq!(back.len(), 3);
        for (a, b) in games.iter().zip(&back) {
            assert_eq!(a.moves, b.moves);
        }
        assert_eq!(back[1].origin.index, 2);
        assert_eq!(back[1].origin.byte, 128 + 60);
    }

    #[test]
    fn any_integer_type_is_read() {
        let row: [i64; 4] = [41, 28, 19, 0];
        for descr in ["|i1", "|u1", "<i2", ">i2", "<u4", "<i8", ">u8", "i8"] {
            let dtype = parse_descr(descr).unwrap();
            let mut data = Vec::new();
            for v in row {
                let le = v.to_le_bytes();
                let be = v.to_be_bytes();
                if dtype.big_endian {
                    data.extend_from_slice(&be[8 - dtype.size..]);
                } else {
                    data.extend_from_slice(&le[..dtype.size]);
                }
            }
            let games = read_all(&array(descr, "(1, 4)", &data)[..]).unwrap();
            assert_eq!(games[0].move_string(), "f5d6c3", "{descr}");
        }
        let negative = array("<i2", "(1, 2)", &[41, 0, 0xff, 0xff]);
        let games = read_all(&negative[..]).unwrap();
        assert_eq!(games[0].token_text(1), "token -1");
        assert_eq!(games[0].replay().status(), Status::Invalid);
    }

    #[test]
    fn arrays_that_hold_no_tokens_are_errors_that_say_why() {
        let cases: [(Vec<u8>, &str); 6] = [
            (b"\x93NUMPY".to_vec(), "shorter than an npy header"),
            (b"PK\x03\x04xxxxxxxxxx".to_vec(), "no \\x93NUMPY magic"),
            (array("<f8", "(1, 60)", &[]), "<f8 is no token array"),
            (array("|i1", "(60,)", &[]), "two dimensions"),
            (array("|b1", "(2, 60)", &[]), "|b1 is no token array"),
            (
                array("|i1", "(2, 3)", &[41, 0, 0]),
                "cut short: its header says 2 rows, row 2 is missing",
            ),
        ];
        for (bytes, expected) in cases {
            let err = read_all(&bytes[..]).unwrap_err().to_string();
            assert!(err.contains(expected), "{err} / {expected}");
        }
    }

    #[test]
    fn games_tokens_cannot_hold_are_refused() {
        let mut writer = Writer::new(Cursor::new(Vec::new())).unwrap();
        let mut other = transcript("f5");
        other.start.pass();
        let report = other.replay();
        let err = writer.write(&Game::new("-", &other, &report)).unwrap_err();
        assert!(matches!(
            err,
            WriteError::Refused(Refusal::NonStandardStart)
        ));
        assert_eq!(writer.rows(), 0);
    }
}
