//! The byte-by-byte reader of GGF text.

use std::io::BufRead;
use std::sync::Arc;

use crate::formats::chunk::{Carry, ChunkParser, Chunker, RawChunk};
use crate::formats::format::GameReader;
use crate::formats::ggf::syntax::{
    is, len32, BLANK, MAX_GAME_BYTES, MAX_NAME, MAX_TEXT, NAME, VALUE_END,
};
use crate::formats::ggf::tags::{shown, Draft, Spare, STANDARD_BOARD};
use crate::formats::lines::{rest, wanted, Spares};
use crate::record::source::{MoveSpans, ParseError, ReadError, Span};
use crate::record::Origin;
use crate::GameRecord;

/// Where the lexer is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Between games.
    Outside,
    /// Between games, after a `(`.
    OutsideParen(Span),
    /// In text outside any game.
    Stray,
    /// In stray text, after a `(`.
    StrayParen(Span),
    /// In a game, between tags.
    Tags,
    /// Between tags, after a `(`.
    TagsParen(Span),
    /// Between tags, after a `;`.
    TagsSemi(Span),
    /// In a tag name.
    Name,
    /// In a tag value.
    Value,
    /// In a value, after a backslash.
    ValueEscape,
    /// In a value, after a `(`.
    ValueParen(Span),
    /// After a defect: looking for `;)` or the next `(;`.
    Skip,
    /// Skipping, after a `;`.
    SkipSemi,
    /// Skipping, after a `(`.
    SkipParen(Span),
}

/// The byte-by-byte reader under [`Reader`], independent of the input.
struct Lexer {
    /// Position of the next byte.
    pos: Span,
    /// The current line so far (for a game's text), up to [`MAX_TEXT`].
    line: Vec<u8>,
    line_ok: bool,
    state: State,
    game: Option<Draft>,
    games: u64,
    /// Completed games not yet handed out, in input order.
    ready: Vec<GameRecord>,
    /// The buffers of the last game, reused by the next.
    spare: Spare,
}

impl Lexer {
    fn new() -> Lexer {
        Lexer {
            pos: Span::new(0, 1, 1, 0),
            line: Vec::with_capacity(1024),
            line_ok: true,
            state: State::Outside,
            game: None,
            games: 0,
            ready: Vec::new(),
            spare: Spare::default(),
        }
    }

    /// Reads bytes from `chunk` until it ends, or with `one` until a game
    /// is complete; the games go to `ready`. Returns how many bytes were
    /// read.
    fn feed(&mut self, chunk: &[u8], one: bool) -> usize {
        let mut used = 0;
        while let Some(rest) = chunk.get(used..) {
            if matches!(self.state, State::Tags) {
                let taken = self.tag_run(rest);
                if taken > 0 {
                    used += taken;
                    continue;
                }
            } else if matches!(self.state, State::Value) {
                let run = rest
                    .iter()
                    .position(|&b| is(b, VALUE_END))
                    .unwrap_or(rest.len());
                let run = self.plain_run(rest.get(..run).unwrap_or_default());
                if run > 0 {
                    used += run;
                    continue;
                }
            }
            let Some(&b) = rest.first() else { break };
            self.byte(b);
            used += 1;
            if one && !self.ready.is_empty() {
                break;
            }
        }
        used
    }

    /// Reads at the start of `rest` a run of whole plain tags
    /// `NAME[value]` (no escape, no newline in the value), and the blanks
    /// between them other than newlines, in one step: each tag is applied
    /// as it comes, the position, the game's text and the line are moved
    /// once for the run. Stops before anything else (a `;`, a newline, a
    /// tag the chunk does not hold whole, the game's size limit) and after
    /// a tag that fails; returns the bytes taken, 0 to leave the next byte
    /// to the byte-by-byte path.
    fn tag_run(&mut self, rest: &[u8]) -> usize {
        let Some(game) = &mut self.game else {
            return 0;
        };
        // Bytes that may still join the game under its size limit.
        let room = MAX_GAME_BYTES.saturating_sub(self.pos.byte - game.start.byte);
        let room = usize::try_from(room).unwrap_or(usize::MAX).min(rest.len());
        let rest = rest.get(..room).unwrap_or_default();
        let mut taken = 0;
        let mut column = self.pos.column;
        let mut failed = None;
        while let Some(tail) = rest.get(taken..) {
            let Some(&first) = tail.first() else { break };
            if is(first, BLANK) {
                taken += 1;
                column = column.saturating_add(1);
                continue;
            }
            if let [b'B' | b'W', b'[', _, _, b']', ..] = *tail {
                // The most common tags by far, `B[f5]W[d6]…`, without the
                // general steps: what `Draft::apply_tag` makes of them.
                let tag = Span::new(self.pos.byte + taken as u64, self.pos.line, column, 0);
                let moves = game.push_plain_run(tail, tag.advanced(2).with_len(2));
                if moves > 0 {
                    taken += moves;
                    column = column.saturating_add(len32(moves));
                    continue;
                }
            }
            let name_len = tail
                .iter()
                .take(MAX_NAME + 1)
                .take_while(|&&b| is(b, NAME))
                .count();
            if name_len == 0 || name_len > MAX_NAME || tail.get(name_len) != Some(&b'[') {
                break;
            }
            let Some(after) = tail.get(name_len + 1..) else {
                break;
            };
            let Some(value_len) = plain_value(after) else {
                break;
            };
            let (Some(name), Some(value)) = (tail.get(..name_len), after.get(..value_len)) else {
                break;
            };
            let tag = Span::new(self.pos.byte + taken as u64, self.pos.line, column, 0);
            let value_pos = tag.advanced(len32(name_len + 1));
            let applied = game.apply_tag(name, value, value_pos, &[]);
            taken += name_len + value_len + 2;
            let chars = if value.is_ascii() {
                value.len()
            } else {
                value.iter().filter(|&&b| b & 0xC0 != 0x80).count()
            };
            column = column.saturating_add(len32(name_len + 2 + chars));
            if let Err(defect) = applied {
                failed = Some(defect);
                break;
            }
        }
        let run = rest.get(..taken).unwrap_or_default();
        let room = MAX_TEXT.saturating_sub(game.text.len());
        game.text
            .extend_from_slice(run.get(..room.min(run.len())).unwrap_or_default());
        self.keep_in_line(run);
        self.pos.column = column;
        self.pos.byte += taken as u64;
        if let Some(defect) = failed {
            self.fail(defect);
        }
        taken
    }

    /// Keeps `bytes` (no newline among them) as part of the current line.
    fn keep_in_line(&mut self, bytes: &[u8]) {
        let room = MAX_TEXT.saturating_sub(self.line.len());
        if room < bytes.len() {
            self.line_ok = false;
        }
        self.line
            .extend_from_slice(bytes.get(..room.min(bytes.len())).unwrap_or_default());
    }

    /// Moves the position over `bytes` (no newline among them) and keeps
    /// them as part of the current line.
    fn advance_over(&mut self, bytes: &[u8]) {
        self.keep_in_line(bytes);
        let chars = bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        self.pos.column = self
            .pos
            .column
            .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
        self.pos.byte += bytes.len() as u64;
    }

    /// Takes at once a run of value bytes without newlines or special
    /// characters, as much of it as stays under the game cap; returns how
    /// many bytes it took.
    fn plain_run(&mut self, run: &[u8]) -> usize {
        let Some(game) = &mut self.game else {
            return 0;
        };
        let room = MAX_GAME_BYTES.saturating_sub(self.pos.byte + 1 - game.start.byte);
        let run = run
            .get(..usize::try_from(room).unwrap_or(usize::MAX).min(run.len()))
            .unwrap_or_default();
        game.value.extend_from_slice(run);
        let room = MAX_TEXT.saturating_sub(game.text.len());
        game.text
            .extend_from_slice(run.get(..room.min(run.len())).unwrap_or_default());
        self.advance_over(run);
        run.len()
    }

    /// Reads one byte; a game it completes goes to `ready`.
    fn byte(&mut self, b: u8) {
        let pos = self.pos;
        if let Some(game) = &mut self.game {
            if game.text.len() < MAX_TEXT {
                game.text.push(b);
            }
        }
        self.step(b, pos);
        if b == b'\n' {
            self.line.clear();
            self.line_ok = true;
            self.pos.line = self.pos.line.saturating_add(1);
            self.pos.column = 1;
        } else {
            if self.line.len() < MAX_TEXT {
                self.line.push(b);
            } else {
                self.line_ok = false;
            }
            if b & 0xC0 != 0x80 {
                self.pos.column = self.pos.column.saturating_add(1);
            }
        }
        self.pos.byte += 1;
    }

    /// Starts a game (or a stray run) at `start`; `b` is the byte being read.
    fn start(&mut self, start: Span, b: u8, stray: bool) {
        self.games += 1;
        let same_line = start.line == self.pos.line;
        let Spare {
            mut name,
            mut value,
            mut text,
            mut escapes,
        } = std::mem::take(&mut self.spare);
        name.clear();
        value.clear();
        text.clear();
        escapes.clear();
        if text.capacity() == 0 {
            text.reserve(1024);
        }
        if same_line && self.line_ok {
            text.extend_from_slice(&self.line);
            text.push(b);
        }
        let capacity = if stray { 0 } else { 64 };
        let record = GameRecord {
            moves: Vec::with_capacity(capacity),
            notes: Vec::new(),
            // Spans at the stride of `B[f5]W[d6]` until one is not.
            spans: MoveSpans::Unknown,
            origin: Origin {
                index: self.games,
                line: Some(start.line),
                byte: start.byte,
                text: None,
            },
            ..GameRecord::default()
        };
        self.game = Some(Draft {
            record,
            start,
            text,
            text_ok: same_line && self.line_ok,
            any_note: false,
            stray,
            name,
            name_pos: start,
            value,
            value_pos: start,
            escapes,
            type_size: None,
            board_size: None,
            board_text: None,
        });
    }

    fn finish(&mut self) {
        if let Some(game) = self.game.take() {
            let (record, spare) = game.finish();
            self.spare = spare;
            self.ready.push(record);
        }
    }

    /// Ends a stray run whose last byte is just before `end`.
    fn finish_stray(&mut self, end: Span) {
        if let Some(game) = &mut self.game {
            let len = end.byte.saturating_sub(game.start.byte);
            let len = u32::try_from(len).unwrap_or(u32::MAX);
            game.set_defect(ParseError::at(
                game.start.with_len(len),
                "text outside a game",
            ));
        }
        self.finish();
    }

    /// Sets a defect on the current game and skips to its end.
    fn fail(&mut self, defect: ParseError) {
        if let Some(game) = &mut self.game {
            game.set_defect(defect);
        }
        self.state = State::Skip;
    }

    fn step(&mut self, b: u8, pos: Span) {
        if let Some(game) = &self.game {
            let skipping = matches!(
                self.state,
                State::Skip | State::SkipSemi | State::SkipParen(_)
            );
            if !game.stray && !skipping && pos.byte - game.start.byte >= MAX_GAME_BYTES {
                self.fail(ParseError::at(pos.with_len(1), "game longer than 1 MiB"));
            }
        }
        loop {
            match self.state {
                State::Outside => match b {
                    b'(' => self.state = State::OutsideParen(pos),
                    b' ' | b'\t' | b'\r' | b'\n' | 0x0c | b'0'..=b'9' => {}
                    0xEF | 0xBB | 0xBF if pos.byte < 3 => {}
                    _ => {
                        self.start(pos, b, true);
                        self.state = State::Stray;
                    }
                },
                State::OutsideParen(p) => {
                    self.start(p, b, b != b';');
                    if b == b';' {
                        self.state = State::Tags;
                    } else {
                        self.state = State::Stray;
                        continue;
                    }
                }
                State::Stray => match b {
                    b'\n' => {
                        self.finish_stray(pos);
                        self.state = State::Outside;
                    }
                    b'(' => self.state = State::StrayParen(pos),
                    _ => {}
                },
                State::StrayParen(p) => {
                    if b == b';' {
                        self.finish_stray(p);
                        self.start(p, b, false);
                        self.state = State::Tags;
                    } else {
                        self.state = State::Stray;
                        continue;
                    }
                }
                State::Tags => match b {
                    b';' => self.state = State::TagsSemi(pos),
                    b'(' => self.state = State::TagsParen(pos),
                    _ if b.is_ascii_whitespace() => {}
                    _ if b.is_ascii_alphanumeric() => {
                        if let Some(game) = &mut self.game {
                            game.name.clear();
                            game.name.push(b);
                            game.name_pos = pos;
                        }
                        self.state = State::Name;
                    }
                    _ => self.fail(ParseError::at(
                        pos.with_len(1),
                        format!("unexpected {} between tags", shown(b)),
                    )),
                },
                State::TagsSemi(p) => {
                    if b == b')' {
                        self.finish();
                        self.state = State::Outside;
                    } else {
                        self.fail(ParseError::at(p.with_len(1), "`;` not followed by `)`"));
                        continue;
                    }
                }
                State::TagsParen(p) => {
                    if b == b';' {
                        self.unclosed_game();
                        self.start(p, b, false);
                        self.state = State::Tags;
                    } else {
                        self.fail(ParseError::at(p.with_len(1), "unexpected `(` between tags"));
                        continue;
                    }
                }
                State::Name => {
                    let Some(game) = &mut self.game else {
                        self.state = State::Outside;
                        continue;
                    };
                    if b == b'[' {
                        game.value.clear();
                        game.escapes.clear();
                        game.value_pos = pos.advanced(1);
                        self.state = State::Value;
                    } else if b.is_ascii_alphanumeric() && game.name.len() < MAX_NAME {
                        game.name.push(b);
                    } else {
                        let message = if b.is_ascii_alphanumeric() {
                            format!("tag name longer than {MAX_NAME} characters")
                        } else {
                            format!(
                                "expected `[` after tag {}, found {}",
                                game.name_str(),
                                shown(b)
                            )
                        };
                        self.fail(ParseError::at(pos.with_len(1), message));
                        continue;
                    }
                }
                State::Value => {
                    let Some(game) = &mut self.game else {
                        self.state = State::Outside;
                        continue;
                    };
                    match b {
                        b']' => match game.end_tag() {
                            Ok(()) => self.state = State::Tags,
                            Err(defect) => self.fail(defect),
                        },
                        b'\\' => {
                            game.escapes.push(game.value.len());
                            self.state = State::ValueEscape;
                        }
                        b'(' => self.state = State::ValueParen(pos),
                        b'[' => {
                            game.unclosed_value();
                            self.state = State::Skip;
                        }
                        _ => game.value.push(b),
                    }
                }
                State::ValueEscape => {
                    if let Some(game) = &mut self.game {
                        game.value.push(b);
                    }
                    self.state = State::Value;
                }
                State::ValueParen(p) => {
                    if b == b';' {
                        if let Some(game) = &mut self.game {
                            game.unclosed_value();
                        }
                        self.finish();
                        self.start(p, b, false);
                        self.state = State::Tags;
                    } else {
                        if let Some(game) = &mut self.game {
                            game.value.push(b'(');
                        }
                        self.state = State::Value;
                        continue;
                    }
                }
                State::Skip => match b {
                    b';' => self.state = State::SkipSemi,
                    b'(' => self.state = State::SkipParen(pos),
                    _ => {}
                },
                State::SkipSemi => {
                    if b == b')' {
                        self.finish();
                        self.state = State::Outside;
                    } else {
                        self.state = State::Skip;
                        continue;
                    }
                }
                State::SkipParen(p) => {
                    if b == b';' {
                        self.finish();
                        self.start(p, b, false);
                        self.state = State::Tags;
                    } else {
                        self.state = State::Skip;
                        continue;
                    }
                }
            }
            return;
        }
    }

    /// Ends the current game for lack of its `;)`.
    fn unclosed_game(&mut self) {
        if let Some(game) = &mut self.game {
            game.set_defect(ParseError::at(
                game.start.with_len(2),
                "game not closed: missing `;)`",
            ));
        }
        self.finish();
    }

    /// The end of the input: completes what is open (into `ready`).
    fn end(&mut self) {
        let state = std::mem::replace(&mut self.state, State::Outside);
        match state {
            State::Outside => {}
            State::OutsideParen(p) => {
                self.start(p, b'(', true);
                if let Some(game) = &mut self.game {
                    game.text.pop();
                }
                self.finish_stray(self.pos)
            }
            State::Stray | State::StrayParen(_) => self.finish_stray(self.pos),
            State::Tags | State::TagsParen(_) | State::TagsSemi(_) | State::Name => {
                self.unclosed_game()
            }
            State::Value | State::ValueEscape | State::ValueParen(_) => {
                if let Some(game) = &mut self.game {
                    game.unclosed_value();
                }
                self.finish()
            }
            State::Skip | State::SkipSemi | State::SkipParen(_) => self.finish(),
        }
    }
}

/// The length of the plain value at the start of `text`, up to its `]`:
/// no backslash, `[` or line break in it, and no `(` but one followed by
/// another byte than `;` (a `(;` starts a game). `None` when `text` does
/// not hold such a value whole.
fn plain_value(text: &[u8]) -> Option<usize> {
    if text.get(..STANDARD_BOARD.len()) == Some(STANDARD_BOARD.as_bytes())
        && text.get(STANDARD_BOARD.len()) == Some(&b']')
    {
        // The usual `BO` value, a fifth of a game as GGS writes it.
        return Some(STANDARD_BOARD.len());
    }
    // A loop over a table rather than `memchr`: the other values are
    // short, and `memchr` costs more to set up than they take to read.
    let mut at = 0;
    while let Some(&b) = text.get(at) {
        if is(b, VALUE_END) {
            match b {
                b']' => return Some(at),
                b'(' if text.get(at + 1).is_some_and(|&next| next != b';') => {}
                _ => return None,
            }
        }
        at += 1;
    }
    None
}

/// Streams games from GGF text, chunk by chunk: memory stays bounded by
/// one game ([`MAX_GAME_BYTES`]) whatever the size of the input.
pub struct Reader<R> {
    input: R,
    lexer: Lexer,
    done: bool,
    cutter: Cutter,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            lexer: Lexer::new(),
            done: false,
            cutter: Cutter::default(),
        }
    }
}

/// Where the chunks of a GGF input are cut: before a `(;`, at a line
/// start when there is one, and what the lexer needs to start there.
#[derive(Default)]
struct Cutter {
    /// Bytes read and not yet handed out.
    pending: Vec<u8>,
    /// Offset of the first pending byte.
    byte: u64,
    /// Newlines before it.
    lines: u32,
    /// Characters of its line before it.
    chars: u32,
    /// The line before it, up to [`MAX_TEXT`] bytes, and whether whole.
    head: Vec<u8>,
    head_cut: bool,
    started: bool,
    /// A read failure to report after the chunk before it.
    failed: Option<std::io::Error>,
    /// Buffers handed back to cut into again.
    spares: Spares,
}

impl Cutter {
    /// Where to cut `bytes` (at least `size` long): before the last `(;`
    /// that starts a line, else before the last `(;`, else (a game longer
    /// than four chunks, or no game at all) anywhere once there is much.
    fn cut_at(bytes: &[u8], size: usize) -> Option<usize> {
        let starts = |i: usize| bytes.get(i..i + 2) == Some(b"(;");
        let mut end = bytes.len();
        for _ in 0..64 {
            let Some(i) = bytes.get(..end).and_then(|b| memchr::memrchr(b'\n', b)) else {
                break;
            };
            if starts(i + 1) {
                return Some(i + 1);
            }
            end = i;
        }
        let anywhere = memchr::memmem::rfind(bytes, b"(;").filter(|&i| i > 0);
        if anywhere.is_some() {
            return anywhere;
        }
        (bytes.len() >= size.saturating_mul(4)).then_some(bytes.len())
    }

    /// Hands out `bytes` as a chunk and moves past them.
    fn chunk(&mut self, bytes: Vec<u8>) -> RawChunk {
        let mut chunk = RawChunk::new(bytes, self.byte, self.lines, Arc::new(Chunks));
        chunk.column = self.chars.saturating_add(1);
        chunk.line_head = (self.head.clone(), !self.head_cut);
        let bytes = &chunk.bytes;
        self.byte += bytes.len() as u64;
        let chars = |b: &[u8]| {
            let n = b.iter().filter(|&&c| c & 0xC0 != 0x80).count();
            u32::try_from(n).unwrap_or(u32::MAX)
        };
        let line = match memchr::memrchr(b'\n', bytes) {
            Some(last) => {
                let newlines = memchr::memchr_iter(b'\n', bytes).count();
                self.lines = self
                    .lines
                    .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
                self.head.clear();
                self.head_cut = false;
                self.chars = 0;
                bytes.get(last + 1..).unwrap_or_default()
            }
            None => bytes,
        };
        self.chars = self.chars.saturating_add(chars(line));
        let room = MAX_TEXT.saturating_sub(self.head.len());
        if room < line.len() {
            self.head_cut = true;
        }
        self.head
            .extend_from_slice(line.get(..room.min(line.len())).unwrap_or_default());
        chunk
    }
}

impl<R: BufRead + Send> GameReader for Reader<R> {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        if self.lexer.pos.byte == 0 && !self.done && !self.cutter.started {
            Some(self)
        } else {
            None
        }
    }
}

impl<R: BufRead + Send> Chunker for Reader<R> {
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        if let Some(e) = self.cutter.failed.take() {
            return Some(Err(ReadError::Io(e)));
        }
        if self.done {
            return None;
        }
        self.cutter.started = true;
        let mut bytes = std::mem::take(&mut self.cutter.pending);
        loop {
            if bytes.len() >= size.max(1) {
                if let Some(at) = Cutter::cut_at(&bytes, size) {
                    self.cutter.pending = rest(&mut bytes, at, size, &mut self.cutter.spares);
                    return Some(Ok(self.cutter.chunk(bytes)));
                }
            }
            let avail = match self.input.fill_buf() {
                Ok(avail) => avail,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    // The games before the failure, then the failure.
                    if bytes.is_empty() {
                        return Some(Err(ReadError::Io(e)));
                    }
                    self.cutter.pending.clear();
                    let chunk = self.cutter.chunk(bytes);
                    self.cutter.failed = Some(e);
                    return Some(Ok(chunk));
                }
            };
            if avail.is_empty() {
                self.done = true;
                return (!bytes.is_empty()).then(|| Ok(self.cutter.chunk(bytes)));
            }
            let n = avail.len().min(wanted(bytes.len(), size));
            bytes.extend_from_slice(avail.get(..n).unwrap_or_default());
            self.input.consume(n);
        }
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        self.cutter.spares.keep(bytes);
    }
}

/// Parses the chunks of a GGF input, as [`Reader`] does.
struct Chunks;

impl ChunkParser for Chunks {
    /// A game of a server's GGF file takes 400–500 bytes (big.ggf: 469),
    /// four times a transcript line.
    fn games_in(&self, bytes: usize) -> usize {
        bytes / 384 + 1
    }

    fn parse(
        &self,
        chunk: &RawChunk,
        carry: Option<Carry>,
        out: &mut Vec<GameRecord>,
    ) -> Option<Carry> {
        let mut lexer = match carry.map(|c| c.0.downcast::<Lexer>()) {
            Some(Ok(lexer)) => *lexer,
            _ => {
                let mut lexer = Lexer::new();
                lexer.pos = Span::new(chunk.byte, chunk.lines.saturating_add(1), chunk.column, 0);
                lexer.line.clone_from(&chunk.line_head.0);
                lexer.line_ok = chunk.line_head.1;
                lexer
            }
        };
        // The games go straight to `out`, not one by one through `ready`.
        std::mem::swap(&mut lexer.ready, out);
        lexer.feed(&chunk.bytes, false);
        std::mem::swap(&mut lexer.ready, out);
        let between = matches!(lexer.state, State::Outside) && lexer.game.is_none();
        (!between).then(|| Carry(Box::new(lexer)))
    }

    fn finish(&self, carry: Carry, out: &mut Vec<GameRecord>) {
        if let Ok(mut lexer) = carry.0.downcast::<Lexer>() {
            lexer.end();
            out.append(&mut lexer.ready);
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if !self.lexer.ready.is_empty() {
                return Some(Ok(self.lexer.ready.remove(0)));
            }
            if self.done {
                return None;
            }
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(ReadError::Io(e)));
                }
            };
            if chunk.is_empty() {
                self.done = true;
                self.lexer.end();
                continue;
            }
            let used = self.lexer.feed(chunk, true);
            self.input.consume(used);
        }
    }
}
