//! Reading text one line at a time: `\n`, `\r\n` and a lone `\r` all end a
//! line, a UTF-8 byte order mark at the start is skipped, and a line longer
//! than a limit is skipped without being held in memory.

use std::io::{self, BufRead};

/// The longest line kept by default: 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line that fits, without its terminator.
    Text {
        /// 1-based line number.
        number: u32,
        /// Byte offset of its first byte.
        byte: u64,
        /// Its bytes.
        text: &'a [u8],
    },
    /// A line over the limit: its first `max` bytes are kept, the rest
    /// skipped.
    TooLong {
        /// 1-based line number.
        number: u32,
        /// Byte offset of its first byte.
        byte: u64,
        /// Its length in bytes.
        len: u64,
        /// Its first `max` bytes.
        head: &'a [u8],
    },
}

/// Splits a reader into lines with bounded memory.
pub struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    max: usize,
    line: u32,
    byte: u64,
    started: bool,
    skip_lf: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`, each at most `max` bytes.
    pub fn new(input: R, max: usize) -> Lines<R> {
        Lines {
            input,
            buf: Vec::with_capacity(256),
            max,
            line: 0,
            byte: 0,
            started: false,
            skip_lf: false,
        }
    }

    /// Lines read so far.
    #[must_use]
    pub fn line(&self) -> u32 {
        self.line
    }

    /// Bytes consumed so far.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.byte
    }

    fn consume(&mut self, n: usize) {
        self.input.consume(n);
        self.byte += n as u64;
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if !self.started {
            self.started = true;
            if fill(&mut self.input)?.starts_with(b"\xEF\xBB\xBF") {
                self.consume(3);
            }
        }
        if self.skip_lf {
            self.skip_lf = false;
            if fill(&mut self.input)?.first() == Some(&b'\n') {
                self.consume(1);
            }
        }
        self.buf.clear();
        let start = self.byte;
        let mut len: u64 = 0;
        let mut any = false;
        loop {
            let avail = fill(&mut self.input)?;
            if avail.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let end = avail.iter().position(|&c| c == b'\n' || c == b'\r');
            let take = end.unwrap_or(avail.len());
            let room = self.max.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&avail[..take.min(room)]);
            len += take as u64;
            let (used, done) = match end {
                Some(i) => {
                    self.skip_lf = avail[i] == b'\r';
                    (i + 1, true)
                }
                None => (avail.len(), false),
            };
            self.consume(used);
            if done {
                break;
            }
        }
        self.line += 1;
        if len > self.max as u64 {
            return Ok(Some(Line::TooLong {
                number: self.line,
                byte: start,
                len,
                head: &self.buf,
            }));
        }
        Ok(Some(Line::Text {
            number: self.line,
            byte: start,
            text: &self.buf,
        }))
    }
}

fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            // Re-borrow to end the loop's borrow before returning.
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    input.fill_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<String> {
        // A tiny buffer so that lines and terminators straddle reads.
        let mut lines = Lines::new(io::BufReader::with_capacity(3, input), max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(match line {
                Line::Text { number, byte, text } => {
                    format!("{number}@{byte}:{}", String::from_utf8_lossy(text))
                }
                Line::TooLong {
                    number,
                    byte,
                    len,
                    head,
                } => format!(
                    "{number}@{byte}:long {len} {}",
                    String::from_utf8_lossy(head)
                ),
            });
        }
        out
    }

    #[test]
    fn every_line_ending() {
        assert_eq!(
            all(b"a\nbb\r\nc\rd", 100),
            ["1@0:a", "2@2:bb", "3@6:c", "4@8:d"]
        );
        assert_eq!(all(b"a\r\n\r\nb\n", 100), ["1@0:a", "2@3:", "3@5:b"]);
        assert_eq!(all(b"", 100), Vec::<String>::new());
        assert_eq!(all(b"\n", 100), ["1@0:"]);
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(all(b"\xEF\xBB\xBFf5\n", 100), ["1@3:f5"]);
        assert_eq!(all(b"\xEF\xBB\xBF", 100), Vec::<String>::new());
    }

    #[test]
    fn long_lines_are_measured_not_kept() {
        assert_eq!(all(b"abcdefgh\nab\n", 4), ["1@0:long 8 abcd", "2@9:ab"]);
    }
}
