//! Where the records of a table end, found without reading its fields:
//! the cuts of chunked reading.
//!
//! A record ends where csv-core's reader (which reads the rows) ends it:
//! just after the first `\n` or `\r` past the record's last field, outside
//! a quoted field. A quote opens a quoted field only at the start of a
//! field (elsewhere it is a character); inside one, `""` is a quote. Line
//! ends between records are skipped: a chunk may start with them (the
//! `\n` of a CRLF), and the record after starts after them
//! (`fields::read_records`).

use memchr::{memchr, memchr3};

/// Where the scan is, as csv-core's reader would be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Between records: line ends are skipped.
    Record,
    /// At the start of a field: a quote opens a quoted field.
    Field,
    /// Inside a field that is not quoted: a quote is a character.
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// Just after a quote inside a quoted field: a second one is a quote
    /// character, anything else ends the quoting.
    Quote,
}

/// Finds the ends of records, a slice after another.
#[derive(Clone, Debug)]
pub(super) struct Scan {
    state: State,
    delimiter: u8,
    /// Whether the delimiter is none of `"`, `\r`, `\n`, so the plain
    /// bytes between them can be skipped.
    fast: bool,
}

impl Scan {
    /// A scan at the start of a record, of fields split at `delimiter`.
    pub(super) fn new(delimiter: u8) -> Scan {
        Scan {
            state: State::Record,
            delimiter,
            fast: !matches!(delimiter, b'"' | b'\r' | b'\n'),
        }
    }

    /// Starts again at the start of a record.
    pub(super) fn reset(&mut self) {
        self.state = State::Record;
    }

    /// Whether the scan is between records (only line ends since the last
    /// record's end).
    pub(super) fn between(&self) -> bool {
        self.state == State::Record
    }

    /// Takes one byte as csv-core's reader does (its checks in its order).
    fn step(&mut self, c: u8) {
        let end = c == b'\r' || c == b'\n';
        let delimiter = self.delimiter;
        self.state = match self.state {
            State::Record if end => State::Record,
            State::Record | State::Field => {
                if c == b'"' {
                    State::Quoted
                } else if c == delimiter {
                    State::Field
                } else if end {
                    State::Record
                } else {
                    State::Unquoted
                }
            }
            State::Quote if c == b'"' => State::Quoted,
            State::Unquoted | State::Quote if c == delimiter => State::Field,
            State::Unquoted | State::Quote if end => State::Record,
            State::Unquoted | State::Quote => State::Unquoted,
            State::Quoted if c == b'"' => State::Quote,
            State::Quoted => State::Quoted,
        };
    }

    /// Scans `bytes` from `*pos` to the next end of a record, and returns
    /// the offset just after it; `None` when `bytes` hold none (the scan
    /// goes on in the next slice).
    pub(super) fn next_end(&mut self, bytes: &[u8], pos: &mut usize) -> Option<usize> {
        while let Some(&c) = bytes.get(*pos) {
            match self.state {
                State::Quoted if self.fast => {
                    let rest = bytes.get(*pos..).unwrap_or_default();
                    match memchr(b'"', rest) {
                        Some(k) => {
                            *pos += k + 1;
                            self.state = State::Quote;
                        }
                        None => *pos = bytes.len(),
                    }
                }
                State::Field | State::Unquoted if self.fast => {
                    let from = *pos;
                    let rest = bytes.get(from..).unwrap_or_default();
                    let Some(k) = memchr3(b'"', b'\r', b'\n', rest) else {
                        // Plain bytes to the end: only the last one says
                        // whether a field starts next.
                        if bytes.last() == Some(&self.delimiter) {
                            self.state = State::Field;
                        } else if !rest.is_empty() {
                            self.state = State::Unquoted;
                        }
                        *pos = bytes.len();
                        continue;
                    };
                    let at = from + k;
                    if k > 0 {
                        self.state = if bytes.get(at - 1) == Some(&self.delimiter) {
                            State::Field
                        } else {
                            State::Unquoted
                        };
                    }
                    *pos = at + 1;
                    let byte = bytes.get(at).copied().unwrap_or_default();
                    if self.ends(byte) {
                        return Some(*pos);
                    }
                }
                _ => {
                    *pos += 1;
                    if self.ends(c) {
                        return Some(*pos);
                    }
                }
            }
        }
        None
    }

    /// [`Scan::step`], true when `c` ends a record (a line end that is not
    /// between records).
    fn ends(&mut self, c: u8) -> bool {
        let between = self.state == State::Record;
        self.step(c);
        !between && self.state == State::Record
    }
}

/// The `\n`s in `bytes`: lines as csv-core counts them (a lone `\r` ends
/// a record but no line).
pub(super) fn newlines(bytes: &[u8]) -> u32 {
    u32::try_from(memchr::memchr_iter(b'\n', bytes).count()).unwrap_or(u32::MAX)
}
