//! The records of a stretch of a table, read by csv-core as the csv crate
//! reads them (the same fields, positions and UTF-8 check), with a parser
//! kept by each thread: building one costs more than reading a chunk's
//! few records. (A csv-core parser is reset, not cloned: its clone loses
//! most of its tables.)

use std::cell::RefCell;

use csv_core::ReadRecordResult;

use crate::record::source::{ParseError, ReadError, Span};

/// Where a record starts: its first byte, after the line ends and blank
/// lines before it, on the 1-based line counted by `\n` alone (a lone
/// `\r` ends a record but not a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct At {
    pub byte: u64,
    pub line: u32,
}

/// A csv-core parser of fields split at `delimiter`, configured as the
/// csv crate's reader the table was read with (quotes, `""`, any line
/// end).
fn parser(delimiter: u8) -> csv_core::Reader {
    csv_core::ReaderBuilder::new().delimiter(delimiter).build()
}

thread_local! {
    /// This thread's parser and its delimiter.
    static PARSER: RefCell<Option<(u8, csv_core::Reader)>> = const { RefCell::new(None) };
}

/// Runs `read` with a fresh parser of fields split at `delimiter`: this
/// thread's, reset, when it has one for that delimiter.
pub(super) fn with_parser<T>(delimiter: u8, read: impl FnOnce(&mut csv_core::Reader) -> T) -> T {
    PARSER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut kept) => {
            let parser = match &mut *kept {
                Some((d, parser)) if *d == delimiter => {
                    parser.reset();
                    parser
                }
                slot => &mut slot.insert((delimiter, parser(delimiter))).1,
            };
            read(parser)
        }
        // In use further up this thread's stack.
        Err(_) => read(&mut parser(delimiter)),
    })
}

/// One record's fields, all UTF-8, and the record as written.
pub(super) struct Fields<'a> {
    text: &'a str,
    ends: &'a [usize],
    /// The record's bytes from its first to its line end (quotes, doubled
    /// quotes and delimiters as written).
    raw: &'a [u8],
}

impl<'a> Fields<'a> {
    /// The `i`th field.
    pub(super) fn get(&self, i: usize) -> Option<&'a str> {
        let end = *self.ends.get(i)?;
        let start = match i.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// Every field in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &'a str> + '_ {
        (0..self.ends.len()).filter_map(|i| self.get(i))
    }

    /// The record as written.
    pub(super) fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Where the `i`th field starts in the record as written, and whether
    /// it is quoted (its text then starts a byte later). Read as csv-core
    /// reads: a quote opens a quoted field only at a field's start, `""`
    /// inside is a quote, and bytes after the closing quote belong to the
    /// field up to the next delimiter.
    pub(super) fn raw_start(&self, i: usize, delimiter: u8) -> Option<(usize, bool)> {
        let raw = self.raw;
        let mut at = 0;
        for _ in 0..i {
            if raw.get(at) == Some(&b'"') {
                at += 1;
                loop {
                    at += memchr::memchr(b'"', raw.get(at..)?)?;
                    if raw.get(at + 1) == Some(&b'"') {
                        at += 2;
                    } else {
                        at += 1;
                        break;
                    }
                }
            }
            at += memchr::memchr(delimiter, raw.get(at..)?)? + 1;
        }
        Some((at, raw.get(at) == Some(&b'"')))
    }
}

/// Reads the records of `bytes`, which start at a record's start `at`
/// (`parser` fresh, see [`with_parser`]), giving each to `each` with where it starts, until
/// `each` says to stop. `at_start`: the bytes are the input's first, where
/// csv-core skips a byte order mark; elsewhere it is text. Stops at the
/// first record that is not UTF-8, with where it starts and the error csv
/// gives there.
pub(super) fn read_records(
    parser: &mut csv_core::Reader,
    bytes: &[u8],
    at: At,
    at_start: bool,
    mut each: impl FnMut(&Fields<'_>, At) -> bool,
) -> Result<(), (At, ReadError)> {
    let mut out = vec![0u8; 256];
    let mut ends = vec![0usize; 32];
    let mut read = 0;
    let line = |parser: &csv_core::Reader| {
        let line = u32::try_from(parser.line()).unwrap_or(u32::MAX);
        at.line.saturating_add(line - 1)
    };
    loop {
        let start = At {
            byte: at.byte + read as u64,
            line: line(parser),
        };
        let (mut len, mut fields) = (0, 0);
        loop {
            let rest = bytes.get(read..).unwrap_or_default();
            // One byte first, so that a byte order mark is not skipped.
            let input = match (read, at_start) {
                (0, false) => rest.get(..1).unwrap_or_default(),
                _ => rest,
            };
            let room = out.get_mut(len..).unwrap_or_default();
            let end_room = ends.get_mut(fields..).unwrap_or_default();
            let (result, nin, nout, nend) = parser.read_record(input, room, end_room);
            read += nin;
            len += nout;
            fields += nend;
            match result {
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::OutputFull => out.resize(out.len() * 2, 0),
                ReadRecordResult::OutputEndsFull => ends.resize(ends.len() * 2, 0),
                ReadRecordResult::Record => break,
                ReadRecordResult::End => return Ok(()),
            }
        }
        // csv-core ends a record at the first byte of its line end and
        // skips the rest of it, and blank lines, before the next one: the
        // record starts after them.
        let mut start = start;
        let from = usize::try_from(start.byte - at.byte).unwrap_or(usize::MAX);
        let lead = bytes.get(from..read).unwrap_or_default();
        let lead = lead
            .get(
                ..lead
                    .iter()
                    .take_while(|&&b| matches!(b, b'\r' | b'\n'))
                    .count(),
            )
            .unwrap_or_default();
        start.byte += lead.len() as u64;
        let newlines = lead.iter().filter(|&&b| b == b'\n').count();
        start.line = start
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        let ends = ends.get(..fields).unwrap_or_default();
        let used = out
            .get(..ends.last().copied().unwrap_or(0))
            .unwrap_or_default();
        // As csv checks: the whole record if ASCII, else field by field.
        let text = if used.is_ascii() {
            std::str::from_utf8(used).ok()
        } else {
            let mut from = 0;
            for (i, &end) in ends.iter().enumerate() {
                let field = used.get(from..end).unwrap_or_default();
                if std::str::from_utf8(field).is_err() {
                    let span = Span::new(start.byte, start.line, 1, 0).with_len(1);
                    let message = format!("invalid UTF-8 in field {}", i + 1);
                    return Err((start, ReadError::Syntax(ParseError::at(span, message))));
                }
                from = end;
            }
            std::str::from_utf8(used).ok()
        };
        let Some(text) = text else {
            // Fields that are UTF-8 one by one are so together.
            return Ok(());
        };
        // The record as written: from its start to its line end, which
        // csv-core has begun to read.
        let raw = bytes
            .get(usize::try_from(start.byte - at.byte).unwrap_or(usize::MAX)..read)
            .unwrap_or_default();
        let raw = raw
            .get(
                ..raw.len()
                    - raw
                        .iter()
                        .rev()
                        .take_while(|&&b| matches!(b, b'\r' | b'\n'))
                        .count(),
            )
            .unwrap_or_default();
        if !each(&Fields { text, ends, raw }, start) {
            return Ok(());
        }
    }
}
