//! SGF (`GM[2]`) Othello records.
//!
//! There is no official Othello profile of the Smart Game Format; this
//! module reads what Othello programs write and writes what they read.
//! Edax writes `(;FF[4]GM[2]AP[edax:…]PC[Edax]DT[…]PB[..]PW[..]SZ[8]
//! AB[e4][d5]AW[d4][e5]PL[B]RE[B+12]B[f5];W[d6];…;)`: the first move in
//! the setup node, passes as `B[PA]`, an empty node at the end. Cassio
//! writes one move per node after the setup and no passes.
//!
//! Read:
//! - one or more game trees `(;…)` per file; text between them is skipped;
//! - properties `ID[value]` with the escapes `\]`, `\\` (any `\x` is `x`,
//!   `\` before a line break removes it), several values `AB[e4][d5]`;
//!   identifiers in lower case (`;b[f5]`, written by some GTP match
//!   runners) are upper-cased, and in mixed case (FF\[3\] `PlayerBlack`)
//!   only their capitals count;
//! - `GM` must be `2` and `SZ` must be `8` (or `8:8`), else the game has a
//!   defect; `FF`, `CA` and `AP` are structural and not kept (`CA` naming
//!   ISO-8859-1 or Windows-1252 decodes the texts as Latin-1; otherwise
//!   texts are UTF-8, falling back to Latin-1 when invalid);
//! - coordinates are a letter and a digit in either case (`f5`, `F5`).
//!   Go-style two-letter points (`fe`) are not read as squares: no
//!   Othello program found writes them (Edax, Cassio and GTP match
//!   runners all write `f5`); such a move is an unreadable token;
//! - passes `B[]`, `B[PA]`, `B[tt]`, `B[pass]` (any case);
//! - setup `AB`/`AW`/`AE`/`PL` in any node before the first move (also in
//!   the node of the first move, as Edax writes it). Without `AB`/`AW`
//!   the board is the standard one (`AE` alone edits it); with them it is
//!   built from an empty board. Without `PL` the side to move is the
//!   colour of the first move, else Black. Setup after the first move is
//!   a defect (a record cannot hold it);
//! - moves `B[..]`/`W[..]` carry their colour; one move per node (a second
//!   one is a defect: a missing `;`);
//! - `RE`: `B+12` is [`ResultValue::Margin`]`(12.0)`, `W+4` is
//!   `Margin(-4.0)` (fractions kept), `0`/`Draw`/`D` is `Margin(0.0)`,
//!   `B+R`/`B+Resign` is [`ResultKind::Resigned`] with
//!   [`ResultValue::Winner`], `B+T`/`B+Time` is [`ResultKind::Time`],
//!   `B+` names the winner only, `Void`/`?`/empty is no result; any other
//!   value (`B+F`) stays in `tags.extra` under `RE`. Cassio writes `B+n`
//!   even when White wins: the replay flags that disagreement;
//! - `PB`/`PW`/`EV`/`DT`/`PC`/`RO`/`BR`/`WR` fill the tags (verbatim; `?`
//!   or empty means unknown); every other property of the root node is
//!   kept in `tags.extra` under its (upper-case) name, one entry per
//!   value, in source order, the root comment `C` included;
//! - variations: the main line (the first child at each branch) is read,
//!   the other variations are skipped. Comments and other properties of
//!   later nodes (`C`, `BL`, `WL`, `N`…) are not kept either. A reader
//!   cannot report these, so they are stated here;
//! - broken structure (an unclosed `[` or `(`, a missing `;`, a stray
//!   character) gives the game a defect with its line and column, keeping
//!   the moves before it. A new game tree `(;GM[`/`(;FF[` inside an
//!   unclosed game (or on a new line inside an unclosed value) starts the
//!   next game, so one broken game does not swallow the rest of the file;
//! - a game longer than [`GAME_CAP`] bytes keeps what fits and gets a
//!   defect.
//!
//! Write: `(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:…]` then the tags and the
//! extra properties (names reduced to upper-case letters; values with
//! `]`, `\\` and a `(` that starts a line escaped); `AB`/`AW` only for a
//! board other than the standard one (`AE[a1:h8]` for an empty one), `PL`
//! when that board is not standard, when White is to move, or when the
//! first move is not by the side to move (a reader without `PL` takes the
//! first move's colour). Then one move per node `;B[f5];W[d6]…`
//! (lowercase, ten per line, colours from [`GameRecord::move_colors`]),
//! explicit passes as `B[PA]` (Edax's spelling, which Edax reads back;
//! some readers take an empty value for "no move") and no pass where the
//! record has none; an unreadable token that would read as a pass or a
//! square is prefixed with `?`. `RE` is `B+n`, `W+n` or `0` from a margin
//! or disc counts (empties to the winner), `B+`/`W+` for a winner only,
//! `B+R`/`B+T` for a resignation or a time loss.

use std::borrow::Cow;
use std::io::{BufRead, ErrorKind};

use crate::formats::features::{Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::game::{Move, Winner};
use crate::record::{Origin, RecordedMove, RecordedResult, ResultKind, ResultValue, Token};
use crate::source::{ParseError, ReadError, Span};
use crate::table::Game;
use crate::{Bitboard, Board, Color, GameRecord, Position, Square};

/// Bytes of one game beyond which the rest of it is skipped (with a
/// defect): it bounds the memory a game can take.
pub const GAME_CAP: usize = 1 << 20;
/// Bytes of source text kept per game for diagnostics.
const TEXT_CAP: usize = 64 << 10;
/// Bytes of the line before a game kept so that columns line up in
/// diagnostics; on a longer line the game keeps no text.
const PREFIX_CAP: usize = 4 << 10;
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
struct Frame {
    start: Span,
    /// The text of the line before the game, when short enough.
    prefix: Option<Vec<u8>>,
    /// Whether the game went on past [`GAME_CAP`].
    overflow: bool,
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
fn new_game_head(bytes: &[u8]) -> Option<bool> {
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

/// Streams games from an SGF file, one [`GameRecord`] per game tree.
///
/// ```
/// use kifu::formats::sgf::Reader;
/// use kifu::{Color, ResultValue};
///
/// let text = "(;GM[2]SZ[8]PB[Ann]PW[Bo]RE[W+4];B[f5];W[d6];B[c3])";
/// let game = Reader::new(text.as_bytes()).next().unwrap()?;
/// assert_eq!(game.move_string(), "f5d6c3");
/// assert_eq!(game.moves[1].color, Some(Color::White));
/// assert_eq!(game.tags.black.as_deref(), Some("Ann"));
/// assert_eq!(game.result.unwrap().value, ResultValue::Margin(-4.0));
/// assert_eq!((game.span(2).unwrap().line, game.span(2).unwrap().column), (1, 48));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub struct Reader<R> {
    src: Source<R>,
    /// The current game's bytes, reused from game to game.
    text: Vec<u8>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            src: Source::new(input),
            text: Vec::new(),
            games: 0,
            failed: false,
        }
    }

    /// Finds the next game tree and returns its bytes.
    fn frame(&mut self) -> std::io::Result<Option<Frame>> {
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

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.frame() {
            Ok(Some(frame)) => {
                self.games += 1;
                Some(Ok(parse_frame(&self.text, &frame, self.games)))
            }
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(ReadError::Io(e)))
            }
        }
    }
}

fn parse_frame(text: &[u8], frame: &Frame, index: u64) -> GameRecord {
    let mut parser = Parser {
        text,
        i: 0,
        loc: Locator::new(text, frame.start),
        overflow: frame.overflow,
        rec: GameRecord::default(),
        latin1: false,
        setup: None,
        to_move: None,
        started: false,
        props: Vec::new(),
    };
    // A defect is recorded in the record; the moves before it are kept.
    let _ = parser.run();
    if !parser.started {
        parser.start(None);
    }
    let mut rec = parser.rec;
    let source = frame.prefix.as_ref().map(|prefix| {
        let room = TEXT_CAP.saturating_sub(prefix.len());
        let mut bytes = prefix.clone();
        bytes.extend_from_slice(text.get(..room.min(text.len())).unwrap_or_default());
        String::from_utf8_lossy(&bytes)
            .into_owned()
            .into_boxed_str()
    });
    rec.origin = Origin {
        index,
        line: Some(frame.start.line),
        byte: frame.start.byte,
        text: source,
    };
    rec
}

/// Turns offsets in a game's text into source positions.
struct Locator<'a> {
    text: &'a [u8],
    base: Span,
    at: usize,
    pos: Span,
}

impl<'a> Locator<'a> {
    fn new(text: &'a [u8], base: Span) -> Locator<'a> {
        Locator {
            text,
            base,
            at: 0,
            pos: base,
        }
    }

    fn pos(&mut self, offset: usize) -> Span {
        let offset = offset.min(self.text.len());
        if offset < self.at {
            self.at = 0;
            self.pos = self.base;
        }
        for &b in self.text.get(self.at..offset).unwrap_or_default() {
            if b == b'\n' {
                self.pos.line = self.pos.line.saturating_add(1);
                self.pos.column = 1;
            } else if b & 0xC0 != 0x80 {
                self.pos.column = self.pos.column.saturating_add(1);
            }
        }
        self.at = offset;
        self.pos.byte = self.base.byte + offset as u64;
        self.pos
    }
}

/// A property value: its unescaped bytes and where its text is.
struct Value<'a> {
    raw: Cow<'a, [u8]>,
    start: usize,
    end: usize,
}

/// A property identifier, upper case; short ones need no allocation.
#[derive(Clone)]
enum Id {
    Short([u8; 15], u8),
    Long(String),
}

impl Id {
    /// Upper-case letters of an identifier; all of it upper-cased when it
    /// has none (FF\[3\] mixed case, lower-case writers).
    fn new(raw: &[u8]) -> Id {
        let has_upper = raw.iter().any(u8::is_ascii_uppercase);
        let letters = raw
            .iter()
            .filter(|c| !has_upper || c.is_ascii_uppercase())
            .map(u8::to_ascii_uppercase);
        let mut buf = [0u8; 15];
        let mut len = 0usize;
        for c in letters.clone() {
            match buf.get_mut(len) {
                Some(slot) => *slot = c,
                None => return Id::Long(letters.map(char::from).collect()),
            }
            len += 1;
        }
        Id::Short(buf, len as u8)
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Id::Short(buf, len) => buf.get(..usize::from(*len)).unwrap_or_default(),
            Id::Long(s) => s.as_bytes(),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            Id::Short(buf, len) => buf
                .get(..usize::from(*len))
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or_default(),
            Id::Long(s) => s,
        }
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A property as written in a node.
struct Prop<'a> {
    id: Id,
    at: usize,
    len: usize,
    first: Value<'a>,
    more: Vec<Value<'a>>,
}

impl<'a> Prop<'a> {
    fn values(&self) -> impl Iterator<Item = &Value<'a>> {
        std::iter::once(&self.first).chain(&self.more)
    }
}

/// The bytes of an escaped value: `\x` is `x`, `\` and a line break
/// vanish.
fn unescape(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        i += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        match raw.get(i) {
            None => {}
            Some(b'\n') => {
                i += 1;
                if raw.get(i) == Some(&b'\r') {
                    i += 1;
                }
            }
            Some(b'\r') => {
                i += 1;
                if raw.get(i) == Some(&b'\n') {
                    i += 1;
                }
            }
            Some(&c) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Reading stopped at a defect (recorded in the record).
struct Stop;

type Step = Result<(), Stop>;

struct Parser<'a> {
    text: &'a [u8],
    i: usize,
    loc: Locator<'a>,
    overflow: bool,
    rec: GameRecord,
    latin1: bool,
    setup: Option<(u64, u64)>,
    to_move: Option<Color>,
    started: bool,
    /// Reused for each node.
    props: Vec<Prop<'a>>,
}

/// A byte for a message: `'x'`, or a description.
fn show(c: u8) -> String {
    if c.is_ascii_graphic() {
        format!("'{}'", c as char)
    } else if c.is_ascii() {
        format!("byte 0x{c:02x}")
    } else {
        "a non-ASCII character".to_owned()
    }
}

fn is_latin1(charset: &[u8]) -> bool {
    let name = String::from_utf8_lossy(charset).trim().to_ascii_lowercase();
    matches!(
        name.as_str(),
        "iso-8859-1"
            | "iso8859-1"
            | "iso_8859-1"
            | "latin1"
            | "latin-1"
            | "windows-1252"
            | "cp1252"
    )
}

/// Text from bytes: UTF-8, or Latin-1 when asked or when not UTF-8.
fn decode(raw: &[u8], latin1: bool) -> String {
    if !latin1 {
        if let Ok(s) = std::str::from_utf8(raw) {
            return s.to_owned();
        }
    }
    raw.iter().map(|&b| b as char).collect()
}

/// The squares of a point value: `f5`, or a rectangle `a1:c3`.
fn points(text: &str) -> Option<Vec<Square>> {
    let text = text.trim();
    let (from, to) = match text.split_once(':') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text, text),
    };
    let from = Square::from_ascii(from.as_bytes())?;
    let to = Square::from_ascii(to.as_bytes())?;
    let (c0, c1) = (
        from.column().min(to.column()),
        from.column().max(to.column()),
    );
    let (r0, r1) = (from.row().min(to.row()), from.row().max(to.row()));
    let mut squares = Vec::new();
    for r in r0..=r1 {
        for c in c0..=c1 {
            squares.extend(Square::from_coords(c, r));
        }
    }
    Some(squares)
}

/// Reads an `RE` value: `Ok(None)` for "no result", `Err` for a form
/// this module does not know.
fn parse_result(text: &str) -> Result<Option<RecordedResult>, ()> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "" | "?" | "void" => return Ok(None),
        "draw" | "d" | "jigo" => return Ok(Some(RecordedResult::new(ResultValue::Margin(0.0)))),
        _ => {}
    }
    if t.parse::<f64>() == Ok(0.0) {
        return Ok(Some(RecordedResult::new(ResultValue::Margin(0.0))));
    }
    let (winner, sign, rest) = match lower.split_once('+') {
        Some(("b", rest)) => (Winner::Black, 1.0, rest),
        Some(("w", rest)) => (Winner::White, -1.0, rest),
        _ => return Err(()),
    };
    let (value, kind) = match rest {
        "" => (ResultValue::Winner(winner), ResultKind::Score),
        "r" | "resign" => (ResultValue::Winner(winner), ResultKind::Resigned),
        "t" | "time" => (ResultValue::Winner(winner), ResultKind::Time),
        n => {
            let m: f64 = n.parse().map_err(|_| ())?;
            if !(m.is_finite() && (0.0..=64.0).contains(&m)) {
                return Err(());
            }
            (ResultValue::Margin(sign * m), ResultKind::Score)
        }
    };
    Ok(Some(RecordedResult { value, kind }))
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn fail(&mut self, at: usize, len: usize, message: String) -> Stop {
        if self.rec.defect.is_none() {
            let pos = self.loc.pos(at);
            self.rec.defect = Some(ParseError::at(
                pos.with_len(u32::try_from(len.max(1)).unwrap_or(u32::MAX)),
                message,
            ));
        }
        Stop
    }

    /// A failure found at the end of the text: when the game was cut at
    /// [`GAME_CAP`], the cut is the reason.
    fn fail_end(&mut self, at: usize, len: usize, message: &str) -> Stop {
        if self.overflow {
            let end = self.text.len();
            self.fail(
                end,
                1,
                format!("game exceeds {GAME_CAP} bytes; the rest is skipped"),
            )
        } else {
            self.fail(at, len, message.to_owned())
        }
    }

    fn run(&mut self) -> Step {
        self.i = 1;
        self.expect_node_start()?;
        let mut depth = 1usize;
        let mut first = true;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b';') => {
                    self.i += 1;
                    self.node(first)?;
                    first = false;
                }
                Some(b'(') => {
                    self.i += 1;
                    depth += 1;
                    self.expect_node_start()?;
                }
                Some(b')') => {
                    self.i += 1;
                    depth -= 1;
                    return if depth == 0 {
                        Ok(())
                    } else {
                        self.close(depth)
                    };
                }
                None => {
                    let end = self.text.len();
                    return Err(self.fail_end(end, 1, "missing ')' at the end of the game"));
                }
                Some(c) => {
                    let at = self.i;
                    return Err(self.fail(at, 1, format!("unexpected {} between nodes", show(c))));
                }
            }
        }
    }

    fn expect_node_start(&mut self) -> Step {
        self.skip_ws();
        let at = self.i;
        match self.peek() {
            Some(b';') => Ok(()),
            None => Err(self.fail_end(at, 1, "expected ';' after '('")),
            Some(_) => Err(self.fail(at, 1, "expected ';' after '('".to_owned())),
        }
    }

    /// After the main line's innermost tree closed: skips the other
    /// variations of each branch up to the game's last `)`.
    fn close(&mut self, mut depth: usize) -> Step {
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'(') => self.skip_tree()?,
                Some(b')') => {
                    self.i += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                None => {
                    let end = self.text.len();
                    return Err(self.fail_end(end, 1, "missing ')' at the end of the game"));
                }
                Some(c) => {
                    let at = self.i;
                    return Err(self.fail(
                        at,
                        1,
                        format!("unexpected {} after a variation", show(c)),
                    ));
                }
            }
        }
    }

    fn skip_tree(&mut self) -> Step {
        let open = self.i;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'[' => {
                    self.value()?;
                    continue;
                }
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        Err(self.fail_end(open, 1, "unclosed '(' variation"))
    }

    fn value(&mut self) -> Result<Value<'a>, Stop> {
        let open = self.i;
        self.i += 1;
        let start = self.i;
        let mut escaped = false;
        loop {
            match self.peek() {
                None => return Err(self.fail_end(open, 1, "unclosed '[' value")),
                Some(b']') => {
                    let end = self.i;
                    self.i += 1;
                    let text: &'a [u8] = self.text;
                    let raw = text.get(start..end).unwrap_or_default();
                    let raw = if escaped {
                        Cow::Owned(unescape(raw))
                    } else {
                        Cow::Borrowed(raw)
                    };
                    return Ok(Value { raw, start, end });
                }
                Some(b'\\') => {
                    escaped = true;
                    self.i += 2;
                }
                Some(_) => self.i += 1,
            }
        }
    }

    fn node(&mut self, first: bool) -> Step {
        let mut props = std::mem::take(&mut self.props);
        props.clear();
        let read = self.read_props(&mut props);
        // Properties read before a syntax error still count.
        let processed = self.process(&props, first);
        self.props = props;
        read.and(processed)
    }

    fn read_props(&mut self, props: &mut Vec<Prop<'a>>) -> Step {
        loop {
            self.skip_ws();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    let at = self.i;
                    while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                        self.i += 1;
                    }
                    let len = self.i - at;
                    let id = Id::new(self.text.get(at..self.i).unwrap_or_default());
                    self.skip_ws();
                    match self.peek() {
                        Some(b'[') => {}
                        None => return Err(self.fail_end(at, len, "property has no value")),
                        Some(_) => {
                            return Err(self.fail(at, len, format!("property {id} has no value")))
                        }
                    }
                    let first = self.value()?;
                    self.skip_ws();
                    let mut more = Vec::new();
                    while self.peek() == Some(b'[') {
                        more.push(self.value()?);
                        self.skip_ws();
                    }
                    props.push(Prop {
                        id,
                        at,
                        len,
                        first,
                        more,
                    });
                }
                Some(b';' | b'(' | b')') | None => break,
                Some(c) => {
                    let at = self.i;
                    return Err(self.fail(at, 1, format!("unexpected {} in a node", show(c))));
                }
            }
        }
        Ok(())
    }

    fn text_of(&self, value: &Value<'_>) -> String {
        decode(&value.raw, self.latin1)
    }

    fn fail_value(&mut self, value: &Value<'_>, message: String) -> Stop {
        self.fail(value.start, value.end - value.start, message)
    }

    fn process(&mut self, props: &[Prop<'a>], first: bool) -> Step {
        for p in props {
            let v = &p.first;
            match p.id.bytes() {
                b"CA" => self.latin1 = is_latin1(&v.raw),
                b"GM" => {
                    let text = self.text_of(v);
                    if text.trim() != "2" {
                        let message =
                            format!("game type GM[{}] is not Othello (GM[2])", text.trim());
                        return Err(self.fail_value(v, message));
                    }
                }
                b"SZ" => {
                    let text = self.text_of(v);
                    let size = text.trim();
                    if size != "8" && size.replace(' ', "") != "8:8" {
                        return Err(self.fail_value(v, format!("unsupported board size {size}")));
                    }
                }
                _ => {}
            }
        }
        for p in props {
            if matches!(p.id.bytes(), b"AB" | b"AW" | b"AE" | b"PL") {
                self.setup(p)?;
            }
        }
        let mut moved = false;
        for p in props {
            match p.id.bytes() {
                b"GM" | b"SZ" | b"CA" | b"FF" | b"AP" | b"AB" | b"AW" | b"AE" | b"PL" => {}
                b"B" | b"W" => {
                    if moved {
                        return Err(self.fail(
                            p.at,
                            p.len,
                            "two moves in one node (missing ';')".to_owned(),
                        ));
                    }
                    moved = true;
                    let color = if p.id.bytes() == b"B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    self.play(p, color)?;
                }
                b"PB" | b"PW" | b"EV" | b"DT" | b"PC" | b"RO" | b"BR" | b"WR" | b"RE" => {
                    self.info(p, first)
                }
                _ if first => {
                    for v in p.values() {
                        let text = self.text_of(v);
                        self.rec.tags.extra.push((p.id.as_str().to_owned(), text));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn setup(&mut self, p: &Prop<'a>) -> Step {
        if self.started {
            let message = format!(
                "setup property {} after the first move is not supported",
                p.id
            );
            return Err(self.fail(p.at, p.len, message));
        }
        if p.id.bytes() == b"PL" {
            let v = &p.first;
            let text = self.text_of(v);
            self.to_move = match text.trim().to_ascii_lowercase().as_str() {
                "b" | "black" => Some(Color::Black),
                "w" | "white" => Some(Color::White),
                _ => return Err(self.fail_value(v, format!("not a colour: {}", text.trim()))),
            };
            return Ok(());
        }
        let standard = (Board::START.black().0, Board::START.white().0);
        let (mut black, mut white) = self.setup.unwrap_or(if p.id.bytes() == b"AE" {
            standard
        } else {
            (0, 0)
        });
        for v in p.values() {
            let text = self.text_of(v);
            let Some(squares) = points(&text) else {
                return Err(self.fail_value(v, format!("not a square: {}", text.trim())));
            };
            for sq in squares {
                let m = sq.mask();
                match p.id.bytes() {
                    b"AB" => {
                        black |= m;
                        white &= !m;
                    }
                    b"AW" => {
                        white |= m;
                        black &= !m;
                    }
                    _ => {
                        black &= !m;
                        white &= !m;
                    }
                }
            }
        }
        self.setup = Some((black, white));
        Ok(())
    }

    /// Fixes the start position at the first move (or the game's end).
    fn start(&mut self, first: Option<Color>) {
        let (black, white) = self
            .setup
            .unwrap_or((Board::START.black().0, Board::START.white().0));
        let side = self.to_move.or(first).unwrap_or(Color::Black);
        if let Some(board) = Board::new(Bitboard(black), Bitboard(white)) {
            self.rec.start = Position::new(board, side);
        }
        self.started = true;
    }

    fn play(&mut self, p: &Prop<'a>, color: Color) -> Step {
        if !self.started {
            self.start(Some(color));
        }
        if !p.more.is_empty() {
            let message = format!("move {} has {} values", p.id, p.more.len() + 1);
            return Err(self.fail(p.at, p.len, message));
        }
        let v = &p.first;
        let name = v.raw.trim_ascii();
        let token = if name.is_empty()
            || name.eq_ignore_ascii_case(b"pa")
            || name.eq_ignore_ascii_case(b"pass")
            || name.eq_ignore_ascii_case(b"tt")
        {
            Token::Move(Move::Pass)
        } else if let Some(sq) = Square::from_ascii(name) {
            Token::Move(Move::Play(sq))
        } else {
            Token::Unreadable
        };
        if token == Token::Unreadable {
            let index = self.rec.moves.len();
            let text = decode(name, self.latin1);
            self.rec.unreadable.push((index, text.into()));
        }
        let (at, len) = if v.end > v.start {
            (v.start, v.end - v.start)
        } else {
            (v.start - 1, 2)
        };
        let pos = self.loc.pos(at);
        self.rec.moves.push(RecordedMove {
            token,
            color: Some(color),
        });
        self.rec.spans.push(Span {
            byte: pos.byte,
            line: pos.line,
            column: pos.column,
            len: u32::try_from(len).unwrap_or(u32::MAX),
        });
        Ok(())
    }

    fn info(&mut self, p: &Prop<'a>, first: bool) {
        for v in p.values() {
            let text = self.text_of(v);
            let unknown = text.trim().is_empty() || text.trim() == "?";
            let tags = &mut self.rec.tags;
            let field = match p.id.bytes() {
                b"PB" => Some(&mut tags.black),
                b"PW" => Some(&mut tags.white),
                b"EV" => Some(&mut tags.event),
                b"DT" => Some(&mut tags.date),
                b"PC" => Some(&mut tags.site),
                b"RO" => Some(&mut tags.round),
                b"BR" => Some(&mut tags.black_rating),
                b"WR" => Some(&mut tags.white_rating),
                _ => None,
            };
            let kept = match field {
                Some(_) if unknown => true,
                Some(slot) if slot.is_none() => {
                    *slot = Some(text.clone());
                    true
                }
                Some(_) => false,
                None => match parse_result(&text) {
                    Ok(None) => true,
                    Ok(Some(result)) if self.rec.result.is_none() => {
                        self.rec.result = Some(result);
                        true
                    }
                    Ok(Some(_)) | Err(()) => false,
                },
            };
            if !kept && first {
                self.rec.tags.extra.push((p.id.as_str().to_owned(), text));
            }
        }
    }
}

/// Appends `[value]` with `]` and `\` escaped, and a `(` that starts a
/// line too (readers take `\n(;GM[` in an unclosed value for a new game).
fn push_value(out: &mut String, value: &str) {
    out.push('[');
    let mut blank_line = false;
    for c in value.chars() {
        if c == ']' || c == '\\' || (c == '(' && blank_line) {
            out.push('\\');
        }
        out.push(c);
        if c == '\n' {
            blank_line = true;
        } else if !c.is_whitespace() {
            blank_line = false;
        }
    }
    out.push(']');
}

/// Property names the writer produces itself; extras so named are left
/// out.
const STRUCTURAL: [&str; 11] = [
    "B", "W", "AB", "AW", "AE", "PL", "GM", "FF", "SZ", "CA", "AP",
];

/// The SGF identifier for a tag name: its letters, upper-cased.
fn sgf_ident(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn margin_text(m: f64) -> String {
    let fmt = |x: f64| {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            format!("{}", x as i64)
        } else {
            format!("{x}")
        }
    };
    if m > 0.0 {
        format!("B+{}", fmt(m))
    } else if m < 0.0 {
        format!("W+{}", fmt(-m))
    } else {
        "0".to_owned()
    }
}

/// The `RE` value for a result.
fn result_text(result: &RecordedResult) -> String {
    let winner_only = |w: Option<Winner>, suffix: &str| match w {
        Some(Winner::Black) => format!("B+{suffix}"),
        Some(Winner::White) => format!("W+{suffix}"),
        Some(Winner::Draw) | None => "0".to_owned(),
    };
    match result.kind {
        ResultKind::Resigned => winner_only(result.winner(), "R"),
        ResultKind::Time => winner_only(result.winner(), "T"),
        ResultKind::Score | ResultKind::Mutual => match result.value {
            ResultValue::Margin(m) => margin_text(m),
            ResultValue::Discs { .. } => match result.black_score() {
                Some(b) => margin_text(2.0 * f64::from(b) - 64.0),
                None => winner_only(result.winner(), ""),
            },
            ResultValue::RawMargin(_) | ResultValue::Winner(_) => winner_only(result.winner(), ""),
        },
    }
}

/// Writes one game: the root node with the tags, then one move per node.
///
/// ```
/// use kifu::formats::sgf::{write_record, Reader};
///
/// let game = Reader::new(&b"(;GM[2]EV[Cup];B[f5];W[d6])"[..]).next().unwrap()?;
/// let mut out = String::new();
/// write_record(&game, &mut out);
/// assert!(out.starts_with("(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:"));
/// assert!(out.ends_with("]\nEV[Cup]\n;B[f5];W[d6]\n)\n"));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying).
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    out.push_str("(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("]\n");
    let t = &record.tags;
    let mut line = String::new();
    for (id, value) in [
        ("PB", &t.black),
        ("PW", &t.white),
        ("BR", &t.black_rating),
        ("WR", &t.white_rating),
        ("EV", &t.event),
        ("RO", &t.round),
        ("DT", &t.date),
        ("PC", &t.site),
    ] {
        if let Some(value) = value {
            line.push_str(id);
            push_value(&mut line, value);
        }
    }
    if let Some(result) = &record.result {
        line.push_str("RE");
        push_value(&mut line, &result_text(result));
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    line.clear();
    let mut last: Option<String> = None;
    for (name, value) in &t.extra {
        let id = sgf_ident(name);
        if id.is_empty() || STRUCTURAL.contains(&id.as_str()) {
            last = None;
            continue;
        }
        if last.as_deref() != Some(id.as_str()) {
            line.push_str(&id);
        }
        push_value(&mut line, value);
        last = Some(id);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    let colors: Vec<Color> = record.plies(game.report).map(|t| t.color).collect();
    let side = record.start.side_to_move();
    let board = record.start.board();
    if *board != Board::START {
        if board.black().is_empty() && board.white().is_empty() {
            // `AE` edits the standard board: all of it, an empty board.
            out.push_str("AE[a1:h8]");
        }
        for (id, discs) in [("AB", board.black()), ("AW", board.white())] {
            if !discs.is_empty() {
                out.push_str(id);
                for sq in discs {
                    push_value(out, &sq.to_string());
                }
            }
        }
    }
    // Without `PL` a reader takes the first move's colour (or Black).
    if *board != Board::START || colors.first().is_some_and(|&c| c != side) || side == Color::White
    {
        out.push_str(match side {
            Color::Black => "PL[B]\n",
            Color::White => "PL[W]\n",
        });
    }
    for (i, m) in record.moves.iter().enumerate() {
        out.push_str(match colors.get(i) {
            Some(Color::White) => ";W",
            _ => ";B",
        });
        match m.token {
            Token::Move(Move::Play(sq)) => push_value(out, &sq.to_string()),
            Token::Move(Move::Pass) => out.push_str("[PA]"),
            Token::Unreadable => push_value(out, &unreadable_value(&record.token_text(i))),
        }
        if i % 10 == 9 {
            out.push('\n');
        }
    }
    if !record.moves.is_empty() && record.moves.len() % 10 != 0 {
        out.push('\n');
    }
    out.push_str(")\n");
}

/// An unreadable token as a move value that reads back unreadable (not
/// as a pass or a square).
fn unreadable_value(text: &str) -> String {
    let t = text.trim().as_bytes();
    let readable = t.is_empty()
        || t.eq_ignore_ascii_case(b"pa")
        || t.eq_ignore_ascii_case(b"pass")
        || t.eq_ignore_ascii_case(b"tt")
        || Square::from_ascii(t).is_some();
    if readable {
        format!("?{}", text.trim())
    } else {
        text.trim().to_owned()
    }
}

/// The SGF row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Sgf,
    name: "sgf",
    aliases: &[],
    extensions: &["sgf"],
    summary: "Smart Game Format with GM[2]: game trees, main line read",
    sniff,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&Sgf),
    writable: true,
    carries_status: false,
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::AntiRules,
        Feature::TheoreticalScore,
        Feature::RawMargin,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[
        Check {
            loss: "raw disc counts of results",
            applies: |g| {
                matches!(g.record.result.map(|r| r.value),
                    Some(ResultValue::Discs { black, white }) if u16::from(black) + u16::from(white) != 64)
            },
        },
        Check {
            loss: "the margin of a resigned or timed-out game",
            applies: |g| {
                g.record.result.is_some_and(|r| {
                    matches!(r.kind, ResultKind::Resigned | ResultKind::Time)
                        && !matches!(r.value, ResultValue::Winner(_))
                })
            },
        },
        Check {
            loss: "the agreed-score flag of results",
            applies: |g| {
                g.record
                    .result
                    .is_some_and(|r| r.kind == ResultKind::Mutual)
            },
        },
        Check {
            loss: "the spelling of unreadable moves",
            applies: |g| {
                g.record
                    .unreadable
                    .iter()
                    .any(|(_, text)| unreadable_value(text) != **text)
            },
        },
        Check {
            loss: "tag names that are not SGF property names",
            applies: |g| {
                g.record.tags.extra.iter().any(|(name, _)| {
                    let id = sgf_ident(name);
                    id != *name || STRUCTURAL.contains(&id.as_str())
                })
            },
        },
    ],
};

/// Writes SGF.
struct Sgf;

impl TextFormat for Sgf {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_game(game, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}

/// Whether the first bytes look like an SGF game tree: `(;` and, if a
/// `GM` property shows, `GM[2]` (GGF's `GM[Othello]` and Go's `GM[1]`
/// are not).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let head = head.trim_ascii_start();
    let Some(rest) = head.strip_prefix(b"(") else {
        return false;
    };
    if rest.trim_ascii_start().first() != Some(&b';') {
        return false;
    }
    match head.windows(3).position(|w| w == b"GM[") {
        Some(k) => {
            let value = head.get(k + 3..).unwrap_or_default();
            let end = value.iter().position(|&c| c == b']').unwrap_or(value.len());
            value.get(..end).unwrap_or_default().trim_ascii() == b"2"
        }
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MoveNote;
    use crate::Rules;
    use crate::Status;

    fn read(text: &str) -> Vec<GameRecord> {
        Reader::new(text.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .expect("no I/O error")
    }

    fn one(text: &str) -> GameRecord {
        let games = read(text);
        assert_eq!(games.len(), 1, "{text}");
        games.into_iter().next().expect("one game")
    }

    fn tokens(r: &GameRecord) -> String {
        (0..r.moves.len())
            .map(|i| r.token_text(i))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn colors(r: &GameRecord) -> String {
        r.moves
            .iter()
            .map(|m| match m.color {
                Some(Color::Black) => 'B',
                Some(Color::White) => 'W',
                None => '?',
            })
            .collect()
    }

    fn defect(r: &GameRecord) -> (String, u32, u32) {
        let d = r.defect.as_ref().expect("a defect");
        (d.message.clone(), d.span.line, d.span.column)
    }

    fn written(r: &GameRecord) -> String {
        let mut out = String::new();
        write_record(r, &mut out);
        out
    }

    /// The record without what depends on where it was read.
    fn bare(r: &GameRecord) -> GameRecord {
        let mut r = r.clone();
        r.spans = crate::MoveSpans::Unknown;
        r.origin = Origin::default();
        r
    }

    use crate::testkit::corpus;

    const EDAX: &str = include_str!("../../fixtures/sgf/edax-style.sgf");
    const CASSIO: &str = include_str!("../../fixtures/sgf/cassio-style.sgf");
    const COLLECTION: &str = include_str!("../../fixtures/sgf/collection.sgf");
    const BROKEN: &str = include_str!("../../fixtures/sgf/broken.sgf");

    #[test]
    fn corpus_edax_manual_example() {
        let Some(dir) = corpus() else { return };
        let file = std::fs::File::open(dir.join("snippets/edax-manual-example.sgf")).unwrap();
        let games: Vec<GameRecord> = Reader::new(std::io::BufReader::new(file))
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(tokens(g), "f5 d6 c3 d3 c4");
        assert_eq!(colors(g), "BWBWB");
        assert!(g.has_standard_start());
        assert_eq!(g.result, None);
        assert_eq!(g.defect, None);
        assert_eq!(g.tags.site.as_deref(), Some("Edax"));
        assert_eq!(g.tags.date.as_deref(), Some("2026-10-07"));
        assert_eq!(
            (g.tags.black.as_deref(), g.tags.white.as_deref()),
            (None, None)
        );
        assert!(g.tags.extra.is_empty());
        assert_eq!(
            (
                g.span(0).unwrap().line,
                g.span(0).unwrap().column,
                g.span(0).unwrap().byte,
                g.span(0).unwrap().len
            ),
            (6, 3, 103, 2)
        );
        assert_eq!(g.origin.line_text(7), Some("B[c3];W[d3];"));
        let report = g.replay();
        assert_eq!(report.status(), Status::Incomplete);
        assert_eq!(
            (
                report.finish.score.black_discs,
                report.finish.score.white_discs
            ),
            (6, 3)
        );
        let back = one(&written(g));
        assert_eq!(bare(&back), bare(g));
    }

    #[test]
    fn edax_style_fixture_replays_with_its_pass() {
        let g = one(EDAX);
        assert_eq!(g.moves.len(), 61);
        assert_eq!(g.moves[59].token, Token::Move(Move::Pass));
        assert_eq!(g.moves[59].color, Some(Color::White));
        assert_eq!(g.moves[60].color, Some(Color::Black));
        assert_eq!(g.tags.black.as_deref(), Some("Edax (level 10)"));
        assert_eq!(g.tags.white.as_deref(), Some("Human"));
        assert_eq!(
            g.result,
            Some(RecordedResult::new(ResultValue::Margin(-6.0)))
        );
        let report = g.replay();
        assert_eq!(report.error, None);
        let score = report.final_score().unwrap();
        assert_eq!((score.black_discs, score.white_discs), (29, 35));
        assert!(g.result.unwrap().agrees_with(&score));
    }

    #[test]
    fn cassio_style_fixture_has_no_passes_but_replays() {
        let g = one(CASSIO);
        assert_eq!(g.moves.len(), 59);
        assert!(g.moves.iter().all(|m| m.token != Token::Move(Move::Pass)));
        // Two Black moves in a row where White had to pass.
        assert_eq!(&colors(&g)[50..], "BWBBBWBWB");
        assert_eq!(g.tags.event.as_deref(), Some("Open de Test"));
        assert_eq!(g.tags.date.as_deref(), Some("2001"));
        let extra: Vec<&str> = g.tags.extra.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(extra, ["TM", "BL", "WL", "US", "CP"]);
        let report = g.replay();
        assert_eq!(report.error, None);
        let score = report.final_score().unwrap();
        assert_eq!(
            (score.black_discs, score.white_discs, score.black_score),
            (35, 28, 36)
        );
        assert!(g.result.unwrap().agrees_with(&score));
    }

    #[test]
    fn collection_main_lines_tags_and_setups() {
        let games = read(COLLECTION);
        assert_eq!(games.len(), 3);
        let g = &games[0];
        assert_eq!(tokens(g), "f5 d6 c3 d3 c4");
        assert_eq!(g.tags.black.as_deref(), Some("Ann ] Lee"));
        assert_eq!(g.tags.white.as_deref(), Some("Back\\slash"));
        assert_eq!(g.tags.event.as_deref(), Some("Club night"));
        assert_eq!(g.tags.round.as_deref(), Some("3"));
        assert_eq!(g.tags.black_rating.as_deref(), Some("1650"));
        assert_eq!(g.tags.white_rating.as_deref(), Some("1720"));
        assert_eq!(
            g.tags.extra,
            [
                ("GN".to_owned(), "Friendly".to_owned()),
                ("C".to_owned(), "First game\nof the evening".to_owned())
            ]
        );
        assert_eq!(g.replay().error, None);

        let g = &games[1];
        assert_eq!(g.start.side_to_move(), Color::White);
        let black: Vec<String> = g
            .start
            .board()
            .black()
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(black, ["e4", "d5", "e5", "f5"]);
        assert_eq!(g.start.board().white().count(), 1);
        assert_eq!(
            (tokens(g), colors(g)),
            ("d6 c3".to_owned(), "WB".to_owned())
        );
        assert_eq!(g.result, None);
        assert_eq!(g.replay().error, None);
        assert_eq!(g.origin.line, Some(10));

        let g = &games[2];
        assert_eq!(g.tags.black.as_deref(), Some("Old Style"));
        assert_eq!(g.tags.white.as_deref(), Some("Élodie"));
        assert_eq!(
            (tokens(g), colors(g)),
            ("f5 f6 e6 f4".to_owned(), "BWBW".to_owned())
        );
    }

    #[test]
    fn broken_games_have_positioned_defects_and_the_rest_is_read() {
        let games = read(BROKEN);
        let got: Vec<(String, String)> = games
            .iter()
            .map(|g| {
                let d = g.defect.as_ref().map_or(String::new(), |d| {
                    format!("{}:{} {}", d.span.line, d.span.column, d.message)
                });
                (tokens(g), d)
            })
            .collect();
        let want = [
            ("f5 d6", "2:1 missing ')' at the end of the game"),
            ("", "2:20 unclosed '[' value"),
            ("f5 f6", ""),
            ("", "4:6 game type GM[1] is not Othello (GM[2])"),
            ("", "5:16 unsupported board size 10"),
            ("f5", "6:24 two moves in one node (missing ';')"),
            ("", "7:2 expected ';' after '('"),
            ("f5 d6", "8:30 unexpected ']' in a node"),
            ("f5 d6 c3", "10:1 missing ')' at the end of the game"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, want);
        assert_eq!(games[2].tags.black.as_deref(), Some("Fine"));
        assert_eq!(
            games[1].origin.line_text(2),
            Some("(;GM[2]FF[4]SZ[8]PB[Unclosed value")
        );
        let indexes: Vec<u64> = games.iter().map(|g| g.origin.index).collect();
        assert_eq!(indexes, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn escapes_and_soft_line_breaks() {
        let g = one("(;GM[2]PB[a\\]b\\\\c\\:d]PW[long\\\nname]C[x\\\r\ny];B[f5])");
        assert_eq!(g.tags.black.as_deref(), Some("a]b\\c:d"));
        assert_eq!(g.tags.white.as_deref(), Some("longname"));
        assert_eq!(g.tags.extra, [("C".to_owned(), "xy".to_owned())]);
    }

    #[test]
    fn every_pass_spelling() {
        for value in ["", "PA", "pa", "tt", "TT", "pass", "PASS", " PA "] {
            let g = one(&format!("(;GM[2]SZ[8];B[f5];W[{value}];B[d3])"));
            assert_eq!(tokens(&g), "f5 pass d3", "{value:?}");
            assert_eq!(g.moves[1].color, Some(Color::White));
        }
        let g = one("(;GM[2];B[f5];W[])");
        assert_eq!((g.span(1).unwrap().column, g.span(1).unwrap().len), (16, 2));
    }

    #[test]
    fn coordinates_in_either_case_and_two_letter_points_unreadable() {
        let g = one("(;GM[2];B[F5];W[d6];B[fe];W[i9];B[f55])");
        assert_eq!(tokens(&g), "f5 d6 fe i9 f55");
        assert_eq!(g.moves[2].token, Token::Unreadable);
        assert_eq!(g.unreadable.len(), 3);
        assert_eq!(g.span(2).unwrap().column, 23);
    }

    #[test]
    fn lower_case_and_long_identifiers() {
        let g = one("(;gm[2]sz[8]pb[x];b[f5];w[d6])");
        assert_eq!(
            (tokens(&g), colors(&g)),
            ("f5 d6".to_owned(), "BW".to_owned())
        );
        assert_eq!(g.tags.black.as_deref(), Some("x"));
        let g = one("(;GaMe[2]SiZe[8]PlayerBlack[y];Black[f5];White[d6])");
        assert_eq!(g.tags.black.as_deref(), Some("y"));
        assert_eq!(tokens(&g), "f5 d6");
    }

    #[test]
    fn game_type_and_size() {
        assert_eq!(
            defect(&one("(;GM[1];B[f5])")).0,
            "game type GM[1] is not Othello (GM[2])"
        );
        assert_eq!(
            defect(&one("(;SZ[10];B[f5])")).0,
            "unsupported board size 10"
        );
        assert_eq!(
            defect(&one("(;SZ[8:6];B[f5])")).0,
            "unsupported board size 8:6"
        );
        for ok in [
            "(;SZ[8:8];B[f5])",
            "(;SZ[ 8 ];B[f5])",
            "(;B[f5])",
            "(;FF[3]GM[2];B[f5])",
        ] {
            let g = one(ok);
            assert_eq!((tokens(&g), g.defect), ("f5".to_owned(), None), "{ok}");
        }
    }

    #[test]
    fn setup_with_rectangles_and_erasures() {
        let g = one("(;GM[2]AB[a1:b2]AW[h8]AE[b2]PL[W])");
        let black: Vec<String> = g
            .start
            .board()
            .black()
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(black, ["a1", "b1", "a2"]);
        assert_eq!(g.start.board().white().count(), 1);
        assert_eq!(g.start.side_to_move(), Color::White);
        // AE alone edits the standard board.
        let g = one("(;GM[2]AE[d4])");
        assert_eq!(g.start.board().white().count(), 1);
        assert_eq!(g.start.board().black().count(), 2);
        // The standard position with PL[B] is the normal start.
        let g = one("(;GM[2]AB[e4][d5]AW[d4][e5]PL[B];B[f5])");
        assert!(g.has_standard_start());
        // No PL: the first move's colour moves first.
        let g = one("(;GM[2];W[f5])");
        assert_eq!(g.start.side_to_move(), Color::White);
        assert_eq!(defect(&one("(;AB[z9])")).0, "not a square: z9");
        assert_eq!(defect(&one("(;PL[X])")).0, "not a colour: X");
    }

    #[test]
    fn setup_after_the_first_move_is_a_defect() {
        let g = one("(;GM[2];B[f5];AB[a1];W[d6])");
        assert_eq!(
            defect(&g),
            (
                "setup property AB after the first move is not supported".to_owned(),
                1,
                15
            )
        );
        assert_eq!(tokens(&g), "f5");
    }

    #[test]
    fn first_move_in_the_setup_node() {
        let g = one("(;GM[2]SZ[8]AB[e4][d5]AW[d4][e5]PL[B]B[f5];W[d6];)");
        assert_eq!((tokens(&g), g.defect), ("f5 d6".to_owned(), None));
    }

    #[test]
    fn results() {
        let re = |v: &str| one(&format!("(;GM[2]RE[{v}])")).result;
        let plain = |v| Some(RecordedResult::new(v));
        let kind = |value, kind| Some(RecordedResult { value, kind });
        assert_eq!(re("B+12"), plain(ResultValue::Margin(12.0)));
        assert_eq!(re("W+4"), plain(ResultValue::Margin(-4.0)));
        assert_eq!(re("w+2.5"), plain(ResultValue::Margin(-2.5)));
        assert_eq!(re("0"), plain(ResultValue::Margin(0.0)));
        assert_eq!(re("Draw"), plain(ResultValue::Margin(0.0)));
        assert_eq!(re("B+"), plain(ResultValue::Winner(Winner::Black)));
        assert_eq!(
            re("B+R"),
            kind(ResultValue::Winner(Winner::Black), ResultKind::Resigned)
        );
        assert_eq!(
            re("W+Resign"),
            kind(ResultValue::Winner(Winner::White), ResultKind::Resigned)
        );
        assert_eq!(
            re("W+T"),
            kind(ResultValue::Winner(Winner::White), ResultKind::Time)
        );
        assert_eq!(
            re("B+Time"),
            kind(ResultValue::Winner(Winner::Black), ResultKind::Time)
        );
        for none in ["Void", "?", "", "void"] {
            assert_eq!(re(none), None, "{none}");
        }
        let g = one("(;GM[2]RE[B+F])");
        assert_eq!(g.result, None);
        assert_eq!(g.tags.extra, [("RE".to_owned(), "B+F".to_owned())]);
        let g = one("(;GM[2]RE[B+99])");
        assert_eq!(g.tags.extra, [("RE".to_owned(), "B+99".to_owned())]);
    }

    #[test]
    fn variations_follow_the_first_child() {
        let g = one("(;GM[2](;B[f5](;W[d6])(;W[f6];B[e6]))(;B[d3];W[c3]))");
        assert_eq!(tokens(&g), "f5 d6");
        let g = one("(;GM[2];B[f5](;W[d6];B[c3](;W[d3])(;W[e3]))(;W[f4]))");
        assert_eq!(tokens(&g), "f5 d6 c3 d3");
        // Values in skipped variations may hold parentheses.
        let games = read("(;GM[2];B[f5](;W[d6])(;W[f6]C[a ) b ( c]))(;GM[2];B[d3])");
        assert_eq!(games.len(), 2);
        assert_eq!(
            (tokens(&games[0]), &games[0].defect),
            ("f5 d6".to_owned(), &None)
        );
        let g = one("(;GM[2];B[f5](;W[d6]);B[c3])");
        assert_eq!(
            defect(&g),
            ("unexpected ';' after a variation".to_owned(), 1, 22)
        );
    }

    #[test]
    fn comments_in_move_nodes_are_dropped() {
        let g = one("(;GM[2]C[root];B[f5]C[move]BL[30];W[d6]N[name])");
        assert_eq!(g.tags.extra, [("C".to_owned(), "root".to_owned())]);
        assert_eq!(tokens(&g), "f5 d6");
    }

    #[test]
    fn unknown_root_properties_keep_every_value_in_order() {
        let g = one("(;GM[2]XX[a][b]YY[c]KM[0.5])");
        let extra: Vec<(&str, &str)> = g
            .tags
            .extra
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            extra,
            [("XX", "a"), ("XX", "b"), ("YY", "c"), ("KM", "0.5")]
        );
        let back = one(&written(&g));
        assert_eq!(back.tags.extra, g.tags.extra);
        assert!(written(&g).contains("XX[a][b]YY[c]KM[0.5]"));
    }

    #[test]
    fn question_marks_and_empty_names_are_unknown() {
        let g = one("(;GM[2]PB[?]PW[]EV[ ? ]DT[2020-01-02])");
        assert_eq!(
            (g.tags.black, g.tags.white, g.tags.event),
            (None, None, None)
        );
        assert_eq!(g.tags.date.as_deref(), Some("2020-01-02"));
    }

    #[test]
    fn latin1_charset_and_invalid_utf8() {
        let mut bytes = b"(;GM[2]CA[ISO-8859-1]PB[Pr\xe9tendant])".to_vec();
        let g = Reader::new(&bytes[..]).next().unwrap().unwrap();
        assert_eq!(g.tags.black.as_deref(), Some("Prétendant"));
        bytes = b"(;GM[2]PB[Pr\xe9tendant])".to_vec();
        let g = Reader::new(&bytes[..]).next().unwrap().unwrap();
        assert_eq!(g.tags.black.as_deref(), Some("Prétendant"));
    }

    #[test]
    fn structural_errors() {
        let cases = [
            ("(;GM[2];B[f5", "unclosed '[' value", 10),
            ("(;GM[2];B[f5] 5)", "unexpected '5' in a node", 15),
            ("(;GM[2];B[f5] x)", "property X has no value", 15),
            ("(;GM[2];B [f5];W)", "property W has no value", 16),
            ("(;GM[2];B[f5][d6])", "move B has 2 values", 9),
            ("(;GM[2](B[f5]))", "expected ';' after '('", 9),
            (
                "(;GM[2];B[f5](;W[d6]",
                "missing ')' at the end of the game",
                21,
            ),
            ("(;GM[2];B[f5](;W[d6])(;W[e6]", "unclosed '(' variation", 22),
        ];
        for (text, message, column) in cases {
            let g = one(text);
            assert_eq!(defect(&g), (message.to_owned(), 1, column), "{text}");
        }
    }

    #[test]
    fn junk_between_and_before_games_is_skipped() {
        let games = read("Games (two of them):\n(;GM[2];B[f5]) and (;GM[2];B[d3])\n(not a game)");
        let moves: Vec<String> = games.iter().map(tokens).collect();
        assert_eq!(moves, ["f5", "d3"]);
        assert_eq!((games[1].origin.byte, games[1].origin.line), (40, Some(2)));
        assert_eq!(games[1].span(0).unwrap().column, 30);
        assert_eq!(
            games[1].origin.line_text(2),
            Some("(;GM[2];B[f5]) and (;GM[2];B[d3])")
        );
    }

    #[test]
    fn several_games_on_one_line_and_across_lines() {
        let games = read("(;GM[2];B[f5])(;GM[2]\n;B[d3]\n;W[c3])\r\n(;GM[2])");
        assert_eq!(games.len(), 3);
        assert_eq!(tokens(&games[1]), "d3 c3");
        assert_eq!(
            (
                games[1].span(1).unwrap().line,
                games[1].span(1).unwrap().column
            ),
            (3, 4)
        );
        assert_eq!(games[2].moves.len(), 0);
        assert_eq!(games[2].origin.line, Some(4));
    }

    #[test]
    fn a_game_over_the_cap_keeps_what_fits() {
        let mut text = String::from("(;GM[2]C[");
        text.push_str(&"x".repeat(GAME_CAP + 10));
        text.push_str("];B[f5])(;GM[2];B[d3])");
        let games = read(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(
            defect(&games[0]).0,
            format!("game exceeds {GAME_CAP} bytes; the rest is skipped")
        );
        assert_eq!(games[0].defect.as_ref().unwrap().span.byte, GAME_CAP as u64);
        assert!(games[0].origin.text.as_ref().unwrap().len() <= TEXT_CAP);
        assert_eq!(tokens(&games[1]), "d3");
    }

    #[test]
    fn a_long_line_before_a_game_drops_its_text_only() {
        let text = format!("{}(;GM[2];B[f5])", "z".repeat(PREFIX_CAP + 1));
        let g = one(&text);
        assert_eq!(g.origin.text, None);
        assert_eq!(g.span(0).unwrap().column as usize, PREFIX_CAP + 1 + 11);
    }

    #[test]
    fn writer_exact_output() {
        let mut g = one("(;GM[2]PB[Ann]PW[Bo]EV[Cup]DT[2024-01-02]RE[B+12];B[f5];W[d6];B[c3])");
        g.tags.extra.push(("GN".to_owned(), "a]b".to_owned()));
        assert_eq!(
            written(&g),
            concat!(
                "(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:",
                env!("CARGO_PKG_VERSION"),
                "]\n",
                "PB[Ann]PW[Bo]EV[Cup]DT[2024-01-02]RE[B+12]\n",
                "GN[a\\]b]\n",
                ";B[f5];W[d6];B[c3]\n",
                ")\n"
            )
        );
    }

    #[test]
    fn writer_names_passes_and_colours_and_wraps_moves() {
        let g = one(EDAX);
        let out = written(&g);
        assert!(out.contains(";B[g8];W[PA]\n;B[a8]\n)"), "{out}");
        assert_eq!(out.lines().filter(|l| l.starts_with(";B[")).count(), 7);
        // Implicit passes stay implicit: Cassio's consecutive moves.
        let g = one(CASSIO);
        assert!(written(&g).contains(";B[h8];B[h1]"));
    }

    #[test]
    fn writer_setup_only_for_a_non_standard_start() {
        let g = one("(;GM[2]AB[e4][d5]AW[d4][e5]PL[B];B[f5])");
        assert!(!written(&g).contains("AB") && !written(&g).contains("PL"));
        // The standard board with White to move needs PL only.
        let g = one("(;GM[2]AB[e4][d5]AW[d4][e5]PL[W];W[f4])");
        let out = written(&g);
        assert!(
            out.contains("\nPL[W]\n;W[f4]") && !out.contains("AB"),
            "{out}"
        );
        assert_eq!(one(&out).start, g.start);
        // A first move by the side not to move: PL keeps the start.
        let g = one("(;GM[2]PL[B];W[f4])");
        let out = written(&g);
        assert!(out.contains("\nPL[B]\n;W[f4]"), "{out}");
        assert_eq!(one(&out).start, g.start);
        // An empty board.
        let g = one("(;GM[2]AE[a1:h8]PL[W])");
        assert!(g.start.board().empty().count() == 64);
        let out = written(&g);
        assert!(out.contains("AE[a1:h8]PL[W]"), "{out}");
        assert_eq!(one(&out).start, g.start);
        let g = one("(;GM[2]AB[a1][h8]AW[b2];B[c3])");
        assert!(written(&g).contains("AB[a1][h8]AW[b2]PL[B]\n;B[c3]"));
    }

    #[test]
    fn line_start_parentheses_in_values_are_escaped() {
        let mut g = GameRecord::default();
        g.tags.black = Some("a\n(;GM[2] b".to_owned());
        let out = written(&g);
        assert!(out.contains("PB[a\n\\(;GM[2\\] b]"), "{out}");
        assert_eq!(one(&out).tags.black, g.tags.black);
    }

    #[test]
    fn writer_results() {
        let re = |value, kind| {
            let g = GameRecord {
                result: Some(RecordedResult { value, kind }),
                ..GameRecord::default()
            };
            let out = written(&g);
            let start = out.find("RE[").unwrap() + 3;
            out[start..start + out[start..].find(']').unwrap()].to_owned()
        };
        use ResultKind::{Mutual, Resigned, Score, Time};
        use ResultValue::{Discs, Margin, RawMargin};
        assert_eq!(re(Margin(12.0), Score), "B+12");
        assert_eq!(re(Margin(-4.0), Score), "W+4");
        assert_eq!(re(Margin(-2.5), Score), "W+2.5");
        assert_eq!(re(Margin(0.0), Score), "0");
        assert_eq!(
            re(
                Discs {
                    black: 38,
                    white: 26
                },
                Score
            ),
            "B+12"
        );
        assert_eq!(
            re(
                Discs {
                    black: 31,
                    white: 30
                },
                Score
            ),
            "B+4"
        );
        assert_eq!(re(ResultValue::Winner(Winner::White), Score), "W+");
        assert_eq!(re(ResultValue::Winner(Winner::Draw), Score), "0");
        assert_eq!(re(RawMargin(-4), Score), "W+");
        assert_eq!(re(ResultValue::Winner(Winner::Black), Resigned), "B+R");
        assert_eq!(re(Margin(-6.0), Time), "W+T");
        assert_eq!(re(Margin(6.0), Mutual), "B+6");
    }

    #[test]
    fn unreadable_moves_that_would_read_as_moves() {
        let mut g = one("(;GM[2];B[f5];W[zz])");
        for (text, value) in [("tt", "?tt"), ("", "?"), ("d6", "?d6"), ("zz", "zz")] {
            g.unreadable[0].1 = text.into();
            assert!(written(&g).contains(&format!(";W[{value}]")), "{text}");
            let back = one(&written(&g));
            assert_eq!(back.moves[1].token, Token::Unreadable);
            let mut out = Vec::new();
            out.extend(crate::formats::Format::Sgf.losses_of(&g));
            assert_eq!(out.len(), usize::from(text != "zz"), "{text}");
        }
    }

    #[test]
    fn losses_name_what_sgf_cannot_keep() {
        let mut g = GameRecord::default();
        let mut out = Vec::new();
        out.extend(crate::formats::Format::Sgf.losses_of(&g));
        assert!(out.is_empty());
        g.notes = vec![MoveNote {
            eval: Some(1.0),
            time: Some(2.0),
        }];
        g.rules = Rules::Anti;
        g.theoretical_black_score = Some(40);
        g.result = Some(RecordedResult {
            value: ResultValue::Discs {
                black: 31,
                white: 30,
            },
            kind: ResultKind::Resigned,
        });
        g.tags
            .extra
            .push(("TimeControl".to_owned(), "300".to_owned()));
        out.extend(crate::formats::Format::Sgf.losses_of(&g));
        assert_eq!(
            out,
            [
                "the theoretical score",
                "per-move evaluations",
                "per-move times",
                "anti rules",
                "raw disc counts of results",
                "the margin of a resigned or timed-out game",
                "tag names that are not SGF property names"
            ]
        );
        let back = one(&written(&g));
        assert_eq!(
            back.tags.extra,
            [("TIMECONTROL".to_owned(), "300".to_owned())]
        );
    }

    #[test]
    fn sniff_tells_sgf_from_ggf() {
        assert!(sniff(b"(;FF[4]GM[2]SZ[8]"));
        assert!(sniff(b"\xEF\xBB\xBF  (\n;GM[ 2 ]"));
        assert!(sniff(b"(;PB[x];B[f5])"));
        assert!(!sniff(b"(;GM[Othello]PC[GGS/os]"));
        assert!(!sniff(b"(;GM[1]FF[4]SZ[19]"));
        assert!(!sniff(b"1 (;GM[Othello]"));
        assert!(!sniff(b"[Event \"x\"]"));
        assert!(!sniff(b"f5d6c3"));
    }

    #[test]
    fn fixtures_round_trip() {
        for text in [EDAX, CASSIO, COLLECTION, BROKEN] {
            for g in read(text) {
                let back = one(&written(&g));
                let mut expected = bare(&g);
                // A defect is not written; the moves before it are.
                expected.defect = None;
                assert_eq!(bare(&back), expected, "{}", written(&g));
            }
        }
    }

    /// A small seeded xorshift generator, so random tests repeat.
    use crate::testkit::Rng;

    /// Random tag text full of characters that need care.
    trait RandomText {
        fn text(&mut self) -> String;
    }

    impl RandomText for Rng {
        fn text(&mut self) -> String {
            const POOL: [&str; 12] = [
                "a", "Z", " ", "]", "\\", "[", ":", "é", "\n", "(", ";", "名",
            ];
            let n = 1 + self.below(8);
            let s: String = (0..n).map(|_| POOL[self.below(POOL.len())]).collect();
            if s.trim().is_empty() || s.trim() == "?" {
                "x".to_owned()
            } else {
                s
            }
        }
    }

    /// A random legal game, maybe from a non-standard start, maybe with
    /// explicit passes, maybe unfinished.
    fn random_game(rng: &mut Rng) -> GameRecord {
        let mut position = Position::start();
        if rng.chance(30) {
            for _ in 0..rng.below(12) {
                let legal: Vec<Square> = position.legal_moves().into_iter().collect();
                if legal.is_empty() {
                    break;
                }
                let _ = position.play(legal[rng.below(legal.len())]);
            }
        }
        let mut record = GameRecord::new(position);
        loop {
            if position.is_game_over() || rng.chance(2) {
                break;
            }
            let legal: Vec<Square> = position.legal_moves().into_iter().collect();
            if legal.is_empty() {
                position.pass();
                if rng.chance(50) {
                    record.moves.push(RecordedMove::new(Move::Pass));
                }
                continue;
            }
            let sq = legal[rng.below(legal.len())];
            let _ = position.play(sq);
            record.moves.push(RecordedMove::new(Move::Play(sq)));
        }
        let t = &mut record.tags;
        for slot in [
            &mut t.black,
            &mut t.white,
            &mut t.event,
            &mut t.date,
            &mut t.site,
            &mut t.round,
            &mut t.black_rating,
            &mut t.white_rating,
        ] {
            if rng.chance(60) {
                *slot = Some(rng.text());
            }
        }
        for _ in 0..rng.below(3) {
            let name = ["GN", "C", "TM", "US"][rng.below(4)].to_owned();
            t.extra.push((name, rng.text()));
        }
        record.result = match rng.below(6) {
            0 => None,
            1 => Some(RecordedResult::new(ResultValue::Margin(
                2.0 * rng.below(33) as f64 - 32.0,
            ))),
            2 => Some(RecordedResult::new(ResultValue::Margin(-2.5))),
            3 => Some(RecordedResult::new(ResultValue::Winner(
                [Winner::Black, Winner::White][rng.below(2)],
            ))),
            4 => Some(RecordedResult {
                value: ResultValue::Winner([Winner::Black, Winner::White][rng.below(2)]),
                kind: [ResultKind::Resigned, ResultKind::Time][rng.below(2)],
            }),
            _ => Some(RecordedResult::new(ResultValue::Margin(0.0))),
        };
        record
    }

    /// Random edits of the fixtures: whatever comes out is consistent,
    /// and writing it then reading it back is stable.
    #[test]
    fn mutated_inputs_give_consistent_records_that_round_trip() {
        const ALPHABET: &[u8] = b"();[]\\ \nBWGM2SZ8f5d6PAtABAWPL:RE+x\xc3\xa9";
        let sources = [EDAX, CASSIO, COLLECTION, BROKEN];
        let mut rng = Rng(0x5EED_0003);
        let mut defects = 0;
        for _ in 0..400 {
            let mut bytes = sources[rng.below(sources.len())].as_bytes().to_vec();
            for _ in 0..1 + rng.below(6) {
                let at = rng.below(bytes.len() + 1);
                let c = ALPHABET[rng.below(ALPHABET.len())];
                match rng.below(3) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 if at < bytes.len() => bytes[at] = c,
                    _ => bytes.insert(at, c),
                }
            }
            let games: Vec<GameRecord> = Reader::new(&bytes[..]).map(|g| g.unwrap()).collect();
            for (i, g) in games.iter().enumerate() {
                assert_eq!(g.origin.index, i as u64 + 1);
                assert_eq!(g.spans.each().len(), g.moves.len());
                for span in g.spans.each() {
                    assert!(span.byte + u64::from(span.len) <= bytes.len() as u64);
                }
                for (k, _) in &g.unreadable {
                    assert_eq!(g.moves[*k].token, Token::Unreadable);
                }
                if let Some(d) = &g.defect {
                    defects += 1;
                    assert!(d.span.byte <= bytes.len() as u64, "{d:?}");
                }
                let first = one(&written(g));
                assert_eq!(first.defect, None);
                assert_eq!(first.start, g.start);
                assert_eq!(tokens(&first), tokens(g));
                assert_eq!(first.tags, g.tags);
                assert_eq!(first.result, g.result);
                let second = one(&written(&first));
                assert_eq!(bare(&second), bare(&first));
            }
        }
        assert!(defects > 50, "{defects}");
    }

    #[test]
    fn random_games_round_trip() {
        let mut rng = Rng(0x5EED_0001);
        let mut with_passes = 0;
        let mut odd_starts = 0;
        for _ in 0..300 {
            let record = random_game(&mut rng);
            with_passes += usize::from(
                record
                    .moves
                    .iter()
                    .any(|m| m.token == Token::Move(Move::Pass)),
            );
            odd_starts += usize::from(!record.has_standard_start());
            let text = written(&record);
            let first = one(&text);
            assert_eq!(first.defect, None, "{text}");
            assert_eq!(first.start, record.start, "{text}");
            let expected: Vec<RecordedMove> = record
                .moves
                .iter()
                .zip(record.move_colors())
                .map(|(m, c)| RecordedMove {
                    token: m.token,
                    color: Some(c),
                })
                .collect();
            assert_eq!(first.moves, expected, "{text}");
            assert_eq!(first.tags, record.tags, "{text}");
            assert_eq!(first.result, record.result, "{text}");
            assert_eq!(first.replay().error, None, "{text}");
            assert_eq!(first.spans.each().len(), first.moves.len());
            let second = one(&written(&first));
            assert_eq!(bare(&second), bare(&first), "{text}");
        }
        assert!(
            with_passes > 10 && odd_starts > 30,
            "{with_passes} {odd_starts}"
        );
    }

    #[test]
    fn random_games_in_one_stream() {
        let mut rng = Rng(0x5EED_0002);
        let records: Vec<GameRecord> = (0..40).map(|_| random_game(&mut rng)).collect();
        let mut text = String::new();
        for r in &records {
            write_record(r, &mut text);
        }
        let games = read(&text);
        assert_eq!(games.len(), records.len());
        for (i, (g, r)) in games.iter().zip(&records).enumerate() {
            assert_eq!(g.origin.index, i as u64 + 1);
            assert_eq!(g.move_string(), r.move_string());
            for (k, span) in g.spans.each().iter().enumerate() {
                if let Token::Move(Move::Play(sq)) = g.moves[k].token {
                    let text = g.origin.line_text(span.line).unwrap();
                    let col = span.column as usize - 1;
                    assert_eq!(text.get(col..col + 2), Some(sq.to_string().as_str()));
                }
            }
        }
    }
}
