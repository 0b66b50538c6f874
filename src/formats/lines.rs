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
    /// Bytes read ahead by [`Lines::cut`] and not yet handed out.
    pending: Vec<u8>,
    /// A read failure [`Lines::cut`] reports after the lines before it.
    failed: Option<io::Error>,
    /// Buffers handed back to cut into again.
    spares: Spares,
}

/// A run of whole lines cut from an input by [`Lines::cut`].
#[derive(Debug, PartialEq, Eq)]
pub struct Cut {
    /// The bytes: whole lines, or the head of one line over the limit.
    pub bytes: Vec<u8>,
    /// Offset of the first byte.
    pub byte: u64,
    /// Lines before the first.
    pub lines: u32,
    /// The length of a line over the limit, whose head `bytes` holds.
    pub long: Option<u64>,
}

/// How many more bytes to take into a chunk of `len` bytes so far: up
/// to `size`, then `size` more at a time while no boundary is found.
#[must_use]
pub fn wanted(len: usize, size: usize) -> usize {
    if len < size {
        size - len
    } else {
        size.max(1 << 10)
    }
}

/// Splits off the bytes of `bytes` from `at` into a buffer with room for
/// a chunk of `size` (a spare one if there is one), for the next chunk to
/// start with.
pub fn rest(bytes: &mut Vec<u8>, at: usize, size: usize, spares: &mut Spares) -> Vec<u8> {
    let tail = bytes.get(at..).unwrap_or_default();
    let mut next = spares.take(tail.len().max(size) + (size >> 2));
    next.extend_from_slice(tail);
    bytes.truncate(at);
    next
}

/// Buffers of chunks already worked on, kept by a chunker to read the
/// next chunks into: memory the process has touched before, where a fresh
/// buffer may be new pages for the kernel to zero and map. `validate` on
/// big.wtb takes 0.50 s and 24 MB with them, 0.54 s and 31 MB without.
#[derive(Debug, Default)]
pub struct Spares {
    kept: Vec<Vec<u8>>,
    bytes: usize,
}

impl Spares {
    /// The most bytes kept: a few batches of chunks.
    pub const LIMIT: usize = 8 << 20;

    /// An empty buffer with room for `capacity` bytes.
    #[must_use]
    pub fn take(&mut self, capacity: usize) -> Vec<u8> {
        match self.kept.pop() {
            Some(mut spare) => {
                self.bytes -= spare.capacity();
                spare.clear();
                spare.reserve(capacity);
                spare
            }
            None => Vec::with_capacity(capacity),
        }
    }

    /// Keeps `bytes`' buffer for a later chunk, unless [`Spares::LIMIT`]
    /// bytes are kept already.
    pub fn keep(&mut self, bytes: Vec<u8>) {
        let size = bytes.capacity();
        if size > 0 && self.bytes + size <= Self::LIMIT {
            self.bytes += size;
            self.kept.push(bytes);
        }
    }
}

/// Where the last whole line of `bytes` ends: after its last `\n`, or
/// after a last `\r` known not to be followed by `\n`.
fn last_line_end(bytes: &[u8]) -> Option<usize> {
    let i = memchr::memrchr2(b'\n', b'\r', bytes)?;
    if bytes.get(i) == Some(&b'\r') && i + 1 == bytes.len() {
        // The `\n` of a `\r\n` may come next: cut before this line.
        let j = memchr::memrchr2(b'\n', b'\r', bytes.get(..i)?)?;
        return Some(j + 1);
    }
    Some(i + 1)
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
            pending: Vec::new(),
            failed: None,
            spares: Spares::default(),
        }
    }

    /// Lines of `input` that starts at byte `byte` of a larger input,
    /// after `lines` lines (a chunk cut by [`Lines::cut`]): numbers and
    /// offsets are the larger input's. A byte order mark is looked for
    /// only at byte 0.
    pub fn starting_at(input: R, max: usize, lines: u32, byte: u64) -> Lines<R> {
        let mut out = Lines::new(input, max);
        out.line = lines;
        out.byte = byte;
        out.started = byte != 0;
        out
    }

    /// The longest line kept.
    #[must_use]
    pub fn max(&self) -> usize {
        self.max
    }

    /// Whether nothing was read yet.
    #[must_use]
    pub fn untouched(&self) -> bool {
        !self.started && self.byte == 0 && self.pending.is_empty()
    }

    /// Takes back the bytes of a [`Cut`] worked on, to cut into again.
    pub fn recycle(&mut self, bytes: Vec<u8>) {
        self.spares.keep(bytes);
    }

    /// Cuts the next run of whole lines, of at least `size` bytes unless
    /// the input ends, for a worker to read with [`Lines::starting_at`]; a
    /// line over the limit comes alone, as its head and length, the rest
    /// of it never held. Not to be mixed with [`Lines::next_line`].
    pub fn cut(&mut self, size: usize) -> io::Result<Option<Cut>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.started = true;
        let mut bytes = std::mem::take(&mut self.pending);
        loop {
            if bytes.len() >= size.max(1) {
                if let Some(end) = last_line_end(&bytes) {
                    self.pending = rest(&mut bytes, end, size, &mut self.spares);
                    return Ok(Some(self.cut_lines(bytes)));
                }
                if bytes.len() > self.max + 3 {
                    // Over the limit even without a byte order mark.
                    return self.long_line(bytes).map(Some);
                }
            }
            let avail = match fill(&mut self.input) {
                Ok(avail) => avail,
                Err(e) => {
                    // The whole lines before the failure, then the failure.
                    let end = memchr::memrchr2(b'\n', b'\r', &bytes);
                    return match end {
                        Some(end) => {
                            bytes.truncate(end + 1);
                            self.failed = Some(e);
                            Ok(Some(self.cut_lines(bytes)))
                        }
                        None => Err(e),
                    };
                }
            };
            if avail.is_empty() {
                if bytes.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.cut_lines(bytes)));
            }
            let n = avail.len().min(wanted(bytes.len(), size));
            bytes.extend_from_slice(avail.get(..n).unwrap_or_default());
            self.input.consume(n);
        }
    }

    fn cut_lines(&mut self, bytes: Vec<u8>) -> Cut {
        let cut = Cut {
            byte: self.byte,
            lines: self.line,
            long: None,
            bytes,
        };
        self.byte += cut.bytes.len() as u64;
        self.line = self.line.saturating_add(count_lines(&cut.bytes));
        cut
    }

    /// A line over the limit that `bytes` starts and holds no end of:
    /// its head, and its length once its end is found.
    fn long_line(&mut self, mut bytes: Vec<u8>) -> io::Result<Cut> {
        let mut start = self.byte;
        let mut len = bytes.len() as u64;
        let mut terminator = 0;
        if start == 0 && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
            start = 3;
            len -= 3;
            terminator = 3;
        }
        bytes.truncate(self.max);
        loop {
            let avail = fill(&mut self.input)?;
            if avail.is_empty() {
                break;
            }
            match avail.iter().position(|&c| c == b'\n' || c == b'\r') {
                Some(i) => {
                    let cr = avail[i] == b'\r';
                    len += i as u64;
                    terminator += 1;
                    self.input.consume(i + 1);
                    if cr && fill(&mut self.input)?.first() == Some(&b'\n') {
                        self.input.consume(1);
                        terminator += 1;
                    }
                    break;
                }
                None => {
                    len += avail.len() as u64;
                    let n = avail.len();
                    self.input.consume(n);
                }
            }
        }
        let cut = Cut {
            bytes,
            byte: start,
            lines: self.line,
            long: Some(len),
        };
        self.byte += len + terminator;
        self.line = self.line.saturating_add(1);
        Ok(cut)
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

/// The lines of bytes in memory, borrowed in place: what [`Lines`] reads
/// from the same bytes, without copying a line. For a chunk cut by
/// [`Lines::cut`], start it where the chunk starts in its input.
pub struct SliceLines<'a> {
    rest: &'a [u8],
    max: usize,
    line: u32,
    byte: u64,
}

impl<'a> SliceLines<'a> {
    /// The lines of `bytes`, each at most `max` bytes, after `lines` lines
    /// and `byte` bytes of the input they are part of; a byte order mark
    /// is skipped only at byte 0.
    #[must_use]
    pub fn new(bytes: &'a [u8], max: usize, lines: u32, byte: u64) -> SliceLines<'a> {
        let mut out = SliceLines {
            rest: bytes,
            max,
            line: lines,
            byte,
        };
        if byte == 0 {
            if let Some(after) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
                out.rest = after;
                out.byte = 3;
            }
        }
        out
    }
}

impl<'a> Iterator for SliceLines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let (text, used) = match memchr::memchr2(b'\n', b'\r', self.rest) {
            Some(end) => {
                let crlf = self.rest.get(end..end + 2) == Some(b"\r\n");
                (self.rest.get(..end)?, end + 1 + usize::from(crlf))
            }
            None => (self.rest, self.rest.len()),
        };
        let start = self.byte;
        self.rest = self.rest.get(used..).unwrap_or_default();
        self.byte += used as u64;
        self.line += 1;
        if text.len() > self.max {
            return Some(Line::TooLong {
                number: self.line,
                byte: start,
                len: text.len() as u64,
                head: text.get(..self.max).unwrap_or_default(),
            });
        }
        Some(Line::Text {
            number: self.line,
            byte: start,
            text,
        })
    }
}

/// What `input` holds next, read again when a read is interrupted.
pub fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
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

/// The line terminators in `bytes` (`\n`, `\r\n`, a lone `\r`), as
/// [`Lines`] counts them; a `\r` at the very end
/// counts as one.
#[must_use]
pub fn count_lines(bytes: &[u8]) -> u32 {
    let newlines = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count();
    u32::try_from(newlines + lone_cr).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line as the tests write it: number, byte, text or length.
    fn shown(line: Line<'_>) -> String {
        match line {
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
        }
    }

    fn all(input: &[u8], max: usize) -> Vec<String> {
        // A tiny buffer so that lines and terminators straddle reads.
        let mut lines = Lines::new(io::BufReader::with_capacity(3, input), max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(shown(line));
        }
        out
    }

    #[test]
    fn spare_buffers_are_reused_up_to_the_limit() {
        let mut spares = Spares::default();
        let fresh = spares.take(100);
        assert!(fresh.capacity() >= 100 && fresh.is_empty());
        let mut used = fresh;
        used.extend_from_slice(b"f5d6\n");
        let at = used.as_ptr();
        spares.keep(used);
        let again = spares.take(50);
        assert_eq!((again.as_ptr(), again.len()), (at, 0));
        // Grown when the next chunk wants more room.
        spares.keep(again);
        assert!(spares.take(1000).capacity() >= 1000);
        // No more than the limit is kept, and no empty buffer.
        spares.keep(Vec::new());
        spares.keep(Vec::with_capacity(Spares::LIMIT));
        spares.keep(Vec::with_capacity(1));
        assert_eq!(spares.kept.len(), 1);
        assert_eq!(spares.bytes, Spares::LIMIT);
        assert!(spares.take(1).capacity() >= Spares::LIMIT);
        assert_eq!(spares.bytes, 0);
    }

    /// Chunks cut from buffers handed back are the chunks cut from fresh
    /// ones.
    #[test]
    fn cutting_into_recycled_buffers_cuts_the_same() {
        let text: String = (0..2000).map(|i| format!("line {i}\r\n")).collect();
        let cut_all = |recycle: bool| {
            let mut lines = Lines::new(io::BufReader::with_capacity(7, text.as_bytes()), MAX_LINE);
            let mut cuts = Vec::new();
            while let Some(cut) = lines.cut(64).unwrap() {
                cuts.push((cut.byte, cut.lines, cut.bytes.clone()));
                if recycle {
                    lines.recycle(cut.bytes);
                }
            }
            cuts
        };
        let cuts = cut_all(true);
        assert!(cuts.len() > 100);
        assert_eq!(cuts, cut_all(false));
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

    /// What [`SliceLines`] reads of `input` from `byte` on, written as
    /// [`all`] writes it.
    fn in_place(input: &[u8], max: usize, lines: u32, byte: u64) -> Vec<String> {
        SliceLines::new(input, max, lines, byte)
            .map(shown)
            .collect()
    }

    #[test]
    fn lines_in_place_are_the_lines_read() {
        let inputs: [&[u8]; 10] = [
            b"a\nbb\r\nc\rd",
            b"a\r\n\r\nb\n",
            b"",
            b"\n",
            b"\r",
            b"\r\r\n\n",
            b"\xEF\xBB\xBFf5\n",
            b"\xEF\xBB\xBF",
            b"abcdefgh\nab\n",
            b"abcd\rabcde\r\nx",
        ];
        for input in inputs {
            for max in [4, 100] {
                assert_eq!(in_place(input, max, 0, 0), all(input, max), "{input:?}");
            }
        }
        // Inside a larger input: numbers and offsets go on, no byte order
        // mark is looked for.
        assert_eq!(
            in_place(b"\xEF\xBB\xBFa\nb", 100, 7, 40),
            ["8@40:\u{feff}a", "9@45:b"]
        );
    }

    #[test]
    fn long_lines_are_measured_not_kept() {
        assert_eq!(all(b"abcdefgh\nab\n", 4), ["1@0:long 8 abcd", "2@9:ab"]);
    }
}
