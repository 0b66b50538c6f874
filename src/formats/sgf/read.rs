//! Reading SGF: each game tree's text, found by [`Frames`], parsed into a
//! [`GameRecord`] along its main line.

use std::borrow::Cow;
use std::io::BufRead;

use crate::engine::game::{Move, Winner};
use crate::formats::sgf::frame::{Frame, Frames, GAME_CAP, TEXT_CAP};
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::{
    Annotation, AnnotationKind, Origin, RecordedMove, RecordedResult, ResultKind, ResultValue,
    Token,
};
use crate::{Bitboard, Board, Color, GameRecord, Position, Square};

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
    frames: Frames<R>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            frames: Frames::new(input),
            games: 0,
            failed: false,
        }
    }
}

/// Read game by game (not parsed in the workers).
impl<R: BufRead + Send> crate::formats::format::GameReader for Reader<R> {}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.frames.next_frame() {
            Ok(Some(frame)) => {
                self.games += 1;
                Some(Ok(parse_frame(&self.frames.text, &frame, self.games)))
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
        branches: Vec::new(),
    };
    // A defect is recorded in the record; the moves before it are kept.
    let _ = parser.run();
    if !parser.started {
        parser.start(None);
    }
    let mut rec = parser.rec;
    // Comments come in move order, variations from the innermost branch
    // out: in move order, each branch's variations after the comments
    // of the node they branch from, as the writer puts them back.
    rec.annotations.sort_by_key(|a| a.after);
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
    /// Moves of the main line before each open `(` inside the game: where
    /// the variations beside it branch off.
    branches: Vec<usize>,
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
pub(super) fn parse_result(text: &str) -> Result<Option<RecordedResult>, ()> {
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
                    self.branches.push(self.rec.moves.len());
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

    /// After the main line's innermost tree closed: keeps the other
    /// variations of each branch, as written, up to the game's last `)`.
    fn close(&mut self, mut depth: usize) -> Step {
        let mut after = self.branches.pop().unwrap_or_default();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'(') => {
                    let open = self.i;
                    self.skip_tree()?;
                    let text = self.text.get(open..self.i).unwrap_or_default();
                    let text = decode(text, self.latin1);
                    self.rec.annotations.push(Annotation {
                        after,
                        kind: AnnotationKind::Variation(text),
                    });
                }
                Some(b')') => {
                    self.i += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                    after = self.branches.pop().unwrap_or_default();
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
                b"GM" | b"SZ" | b"CA" | b"FF" | b"AP" | b"AB" | b"AW" | b"AE" | b"PL" | b"C" => {}
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
        // A comment is on its node: after the node's move, wherever the
        // node writes it; the root's are about the game, before any move
        // (also when the root holds the first move, as Edax writes it).
        let after = if first { 0 } else { self.rec.moves.len() };
        for p in props.iter().filter(|p| p.id.bytes() == b"C") {
            for v in p.values() {
                let text = self.text_of(v);
                self.rec.annotations.push(Annotation {
                    after,
                    kind: AnnotationKind::Comment(text),
                });
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
