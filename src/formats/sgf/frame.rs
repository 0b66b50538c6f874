//! The game trees of an SGF input, found as bytes: each game's text,
//! where it starts and the line before it, cut where a new game starts
//! inside a broken one so that one game cannot swallow the rest.

use std::io::{BufRead, ErrorKind};

use crate::record::source::Span;

/// Bytes of one game beyond which the rest of it is skipped (with a
/// defect): it bounds the memory a game can take.
pub const GAME_CAP: usize = 1 << 20;
/// Bytes of source text kept per game for diagnostics.
pub(super) const TEXT_CAP: usize = 64 << 10;
/// Bytes of the line before a game kept so that columns line up in
/// diagnostics; on a longer line the game keeps no text.
pub(super) const PREFIX_CAP: usize = 4 << 10;
/// Bytes looked ahead after a `(` to decide what it starts.
const LOOKAHEAD_CAP: usize = 256;
/// Bytes read from the input at a time.
const CHUNK: usize = 64 << 10;

/// A place in the input with the current line's text up to it.
#[derive(Clone, Debug)]
struct Mark {
    pos: Span,
    prefix: Vec<u8>,
    prefix_full: bool,
}

/// The input as bytes, with positions, and the ability to push back bytes
/// that a look-ahead read too far.
struct Source<R> {
    input: R,
    buf: Vec<u8>,
    at: usize,
    eof: bool,
    pos: Span,
    prefix: Vec<u8>,
    prefix_full: bool,
}

impl<R: BufRead> Source<R> {
    fn new(input: R) -> Source<R> {
        Source {
            input,
            buf: Vec::new(),
            at: 0,
            eof: false,
            pos: Span::new(0, 1, 1, 0),
            prefix: Vec::new(),
            prefix_full: false,
        }
    }

    /// Makes sure a byte is buffered; `false` at the end of the input.
    #[inline]
    fn fill(&mut self) -> std::io::Result<bool> {
        if self.at < self.buf.len() {
            return Ok(true);
        }
        if self.eof {
            return Ok(false);
        }
        self.buf.clear();
        self.at = 0;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                self.eof = true;
                return Ok(false);
            }
            let n = chunk.len().min(CHUNK);
            self.buf.extend_from_slice(&chunk[..n]);
            self.input.consume(n);
            return Ok(true);
        }
    }

    #[inline]
    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        Ok(if self.fill()? {
            self.buf.get(self.at).copied()
        } else {
            None
        })
    }

    #[inline]
    fn next(&mut self) -> std::io::Result<Option<u8>> {
        let Some(b) = self.peek()? else {
            return Ok(None);
        };
        self.at += 1;
        self.pos.byte += 1;
        if b == b'\n' {
            self.pos.line = self.pos.line.saturating_add(1);
            self.pos.column = 1;
            self.prefix.clear();
            self.prefix_full = false;
        } else {
            if b & 0xC0 != 0x80 {
                self.pos.column = self.pos.column.saturating_add(1);
            }
            if self.prefix.len() < PREFIX_CAP {
                self.prefix.push(b);
            } else {
                self.prefix_full = true;
            }
        }
        Ok(Some(b))
    }

    /// Consumes the bytes before the first one `stop` accepts (none of
    /// them a line break), keeping them in `out` while it is shorter than
    /// `cap`. Returns how many, and whether any was not white space.
    fn run(
        &mut self,
        stop: impl Fn(u8) -> bool,
        out: &mut Vec<u8>,
        cap: usize,
    ) -> std::io::Result<(usize, bool)> {
        let mut total = 0;
        let mut graphic = false;
        while self.fill()? {
            let avail = self.buf.get(self.at..).unwrap_or_default();
            let k = avail.iter().position(|&b| stop(b)).unwrap_or(avail.len());
            let chunk = avail.get(..k).unwrap_or_default();
            let room = cap.saturating_sub(out.len()).min(k);
            out.extend_from_slice(chunk.get(..room).unwrap_or_default());
            graphic |= chunk.iter().any(|b| !b.is_ascii_whitespace());
            let chars = chunk.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            self.pos.column = self
                .pos
                .column
                .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
            self.pos.byte += k as u64;
            let keep = PREFIX_CAP.saturating_sub(self.prefix.len()).min(k);
            self.prefix
                .extend_from_slice(chunk.get(..keep).unwrap_or_default());
            self.prefix_full |= keep < k;
            self.at += k;
            total += k;
            if self.at < self.buf.len() {
                break;
            }
        }
        Ok((total, graphic))
    }

    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            prefix: self.prefix.clone(),
            prefix_full: self.prefix_full,
        }
    }

    /// Puts `bytes` back in front of the input, as read from `mark`.
    fn unread(&mut self, bytes: &[u8], mark: Mark) {
        let mut buf = Vec::with_capacity(bytes.len() + self.buf.len() - self.at);
        buf.extend_from_slice(bytes);
        buf.extend_from_slice(self.buf.get(self.at..).unwrap_or_default());
        self.buf = buf;
        self.at = 0;
        self.pos = mark.pos;
        self.prefix = mark.prefix;
        self.prefix_full = mark.prefix_full;
    }
}

/// The bytes of one game tree as found in the input.
pub(super) struct Frame {
    pub(super) start: Span,
    /// The text of the line before the game, when short enough.
    pub(super) prefix: Option<Vec<u8>>,
    /// Whether the game went on past [`GAME_CAP`].
    pub(super) overflow: bool,
}

/// Whether the bytes after a top-level `(` start a game tree: `;`, or a
/// property (a missing `;`, reported by the parser). `None`: need more.
fn game_head(head: &[u8]) -> Option<bool> {
    let mut i = 0;
    while head.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    match head.get(i) {
        None => return None,
        Some(b';') => return Some(true),
        Some(c) if c.is_ascii_uppercase() => {}
        Some(_) => return Some(false),
    }
    while head.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    while head.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    match head.get(i) {
        None => None,
        Some(b'[') => Some(true),
        Some(_) => Some(false),
    }
}

/// Whether bytes from a `(` inside a game are the root of a new game
/// (`(;GM[` or `(;FF[`, spaces allowed). `None`: need more.
pub(super) fn new_game_head(bytes: &[u8]) -> Option<bool> {
    let skip = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut i = skip(1);
    match bytes.get(i) {
        None => return None,
        Some(b';') => i += 1,
        Some(_) => return Some(false),
    }
    i = skip(i);
    let start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_uppercase) {
        i += 1;
    }
    if i == bytes.len() {
        return None;
    }
    let ident = bytes.get(start..i).unwrap_or_default();
    i = skip(i);
    match bytes.get(i) {
        None => None,
        Some(b'[') => Some(ident == b"GM" || ident == b"FF"),
        Some(_) => Some(false),
    }
}

/// A `(` inside a game that might start the next game.
struct Candidate {
    mark: Mark,
    bytes: Vec<u8>,
    offset: usize,
}

/// Finds the game trees of an input one after another.
pub(super) struct Frames<R> {
    src: Source<R>,
    /// The current game's bytes, reused from game to game.
    pub(super) text: Vec<u8>,
}

impl<R: BufRead> Frames<R> {
    pub(super) fn new(input: R) -> Frames<R> {
        Frames {
            src: Source::new(input),
            text: Vec::new(),
        }
    }

    /// Finds the next game tree and returns its bytes.
    pub(super) fn next_frame(&mut self) -> std::io::Result<Option<Frame>> {
        let (start, prefix) = loop {
            let mut none = Vec::new();
            self.src.run(|b| b == b'(' || b == b'\n', &mut none, 0)?;
            match self.src.peek()? {
                None => return Ok(None),
                Some(b'(') => {}
                Some(_) => {
                    self.src.next()?;
                    continue;
                }
            }
            let mark = self.src.mark();
            self.src.next()?;
            let after = self.src.mark();
            let mut head = Vec::new();
            let verdict = loop {
                let Some(c) = self.src.next()? else {
                    break false;
                };
                head.push(c);
                match game_head(&head) {
                    Some(v) => break v,
                    None if head.len() >= LOOKAHEAD_CAP => break false,
                    None => {}
                }
            };
            // The game's own bytes are read again below.
            self.src.unread(&head, after);
            if verdict {
                let prefix = (!mark.prefix_full).then_some(mark.prefix);
                break (mark.pos, prefix);
            }
        };
        let text = &mut self.text;
        text.clear();
        text.push(b'(');
        // Bytes of the game so far, kept or not.
        let mut real = 1usize;
        let mut overflow = false;
        let mut depth = 1usize;
        let mut in_value = false;
        let mut escape = false;
        let mut blank_line = false;
        let mut candidate: Option<Candidate> = None;
        loop {
            if candidate.is_none() && !escape {
                // Ordinary bytes in bulk: nothing in them changes the state.
                let (n, graphic) = if in_value {
                    self.src
                        .run(|b| matches!(b, b']' | b'\\' | b'(' | b'\n'), text, GAME_CAP)?
                } else {
                    self.src
                        .run(|b| matches!(b, b'[' | b'(' | b')' | b'\n'), text, GAME_CAP)?
                };
                real += n;
                overflow |= real > text.len();
                blank_line &= !graphic;
            }
            let Some(next) = self.src.peek()? else {
                break;
            };
            if next == b'(' && candidate.is_none() && (!in_value || (!escape && blank_line)) {
                candidate = Some(Candidate {
                    mark: self.src.mark(),
                    bytes: Vec::new(),
                    offset: real,
                });
            }
            let Some(b) = self.src.next()? else {
                break;
            };
            real += 1;
            if !overflow {
                if text.len() < GAME_CAP {
                    text.push(b);
                } else {
                    overflow = true;
                }
            }
            let mut cut = false;
            if let Some(c) = &mut candidate {
                c.bytes.push(b);
                match new_game_head(&c.bytes) {
                    Some(true) => cut = true,
                    Some(false) => candidate = None,
                    None if c.bytes.len() >= LOOKAHEAD_CAP => candidate = None,
                    None => {}
                }
            }
            if cut {
                if let Some(c) = candidate.take() {
                    // The game ends before the new root; its bytes are
                    // read again as the next game.
                    overflow = c.offset > text.len();
                    text.truncate(c.offset);
                    self.src.unread(&c.bytes, c.mark);
                    return Ok(Some(Frame {
                        start,
                        prefix,
                        overflow,
                    }));
                }
            }
            if in_value {
                if escape {
                    escape = false;
                } else if b == b'\\' {
                    escape = true;
                } else if b == b']' {
                    in_value = false;
                }
                if b == b'\n' {
                    blank_line = true;
                } else if !b.is_ascii_whitespace() {
                    blank_line = false;
                }
            } else {
                match b {
                    b'[' => {
                        in_value = true;
                        escape = false;
                        blank_line = false;
                    }
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(Some(Frame {
            start,
            prefix,
            overflow,
        }))
    }
}
