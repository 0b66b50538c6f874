//! What the tag values of a game mean: the `Draft` a game is read into,
//! and the readers of `BO`, `RE` and `B`/`W` values.

use std::borrow::Cow;

use crate::engine::game::Move;
use crate::formats::ggf::syntax::{decode, decode_cow, len32, GameType};
use crate::formats::movetext::{COLUMN, ROW};
use crate::record::source::{MoveSpans, ParseError, Span};
use crate::record::{
    MoveNote, OtherBoard, RecordedMove, RecordedResult, ResultKind, ResultValue, Rules, Token,
};
use crate::{Bitboard, Board, Color, GameRecord, Position, Square};

/// How a byte reads in a message.
pub(super) fn shown(b: u8) -> String {
    if b == b' ' {
        "a space".into()
    } else if b == b'\n' || b == b'\r' {
        "the end of the line".into()
    } else if b.is_ascii_graphic() {
        format!("`{}`", char::from(b))
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// What a `BO` value holds.
enum BoardValue {
    /// An 8×8 start position.
    Eight(Position),
    /// Another size: the squares are not read (nothing plays them).
    Other(u8),
}

/// The size of a board kifu does not play, kept as [`OtherBoard::size`];
/// a size beyond what a record holds is an error.
fn other_size(size: u32) -> Result<u8, String> {
    u8::try_from(size).map_err(|_| format!("unsupported board size {size}x{size}"))
}

/// Parses a `BO` value: size, 64 squares, side to move.
fn parse_board(value: &str) -> Result<BoardValue, String> {
    let mut fields = value.split_ascii_whitespace();
    let size_text = fields.next().ok_or("empty board")?;
    let size: u32 = size_text
        .parse()
        .map_err(|_| format!("unreadable board size {size_text}"))?;
    if size != 8 {
        return other_size(size).map(BoardValue::Other);
    }
    let cells: Vec<u8> = fields.flat_map(str::bytes).collect();
    let side_of = |c: u8| match c {
        b'*' | b'X' | b'x' => Some(Color::Black),
        b'O' | b'o' => Some(Color::White),
        _ => None,
    };
    let (board_cells, side) = match cells.split_last() {
        Some((&last, rest)) if rest.len() == 64 => (rest, last),
        _ if cells.len() == 64 => return Err("missing the side to move after the board".into()),
        _ => {
            let n = cells.len().saturating_sub(1);
            return Err(format!("board has {n} squares, expected 64"));
        }
    };
    let side = side_of(side)
        .ok_or_else(|| format!("expected the side to move (* or O), found {}", shown(side)))?;
    let mut black = 0u64;
    let mut white = 0u64;
    for (square, &c) in Square::all().zip(board_cells) {
        match c {
            b'-' | b'.' => {}
            b'*' | b'X' | b'x' => black |= square.mask(),
            b'O' | b'o' => white |= square.mask(),
            _ => return Err(format!("unreadable board square {} at {square}", shown(c))),
        }
    }
    // Each square went to at most one of the two sets.
    let board = Board::new(Bitboard(black), Bitboard(white)).ok_or("overlapping discs")?;
    Ok(BoardValue::Eight(Position::new(board, side)))
}

/// Parses an `RE` value into a result; `None` for `?` and for anything
/// that is not a margin within ±64.
fn parse_result(value: &str) -> Option<RecordedResult> {
    let text = value.trim();
    let (number, flag) = match text.split_once(':') {
        Some((n, f)) => (n, Some(f.trim())),
        None => (text, None),
    };
    let kind = match flag.map(str::to_ascii_lowercase).as_deref() {
        None => ResultKind::Score,
        Some("r") => ResultKind::Resigned,
        Some("t") => ResultKind::Time,
        Some("s") => ResultKind::Mutual,
        Some(_) => return None,
    };
    let number = number.trim();
    if !number.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
        return None;
    }
    let margin: f64 = plain_decimal(number.as_bytes()).or_else(|| number.parse().ok())?;
    if !margin.is_finite() || margin.abs() > 64.0 {
        return None;
    }
    Some(RecordedResult {
        value: ResultValue::Margin(margin),
        kind,
    })
}

/// An optional number of a move value (`2.39`, empty).
pub(super) fn note_number(part: &[u8]) -> Result<Option<f64>, ()> {
    let part = part.trim_ascii();
    if part.is_empty() {
        return Ok(None);
    }
    if let Some(x) = plain_decimal(part) {
        return Ok(Some(x));
    }
    match std::str::from_utf8(part).map(str::parse::<f64>) {
        Ok(Ok(x)) if x.is_finite() => Ok(Some(x)),
        _ => Err(()),
    }
}

/// Exact powers of ten as `f64`.
const POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A signed decimal of at most 15 digits (`-2.39`, `0.01`), the common
/// case of GGF notes, read without the general parser. Both the digits as
/// an integer and the power of ten are exact doubles, so one division
/// rounds correctly: the result is the one `str::parse` gives.
pub(super) fn plain_decimal(text: &[u8]) -> Option<f64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let mut mantissa = 0u64;
    let mut count = 0;
    let mut decimals = 0usize;
    let mut dot = false;
    for &c in digits {
        match c {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(c - b'0');
                count += 1;
                decimals += usize::from(dot);
            }
            b'.' if !dot => dot = true,
            _ => return None,
        }
        if count > 15 {
            return None;
        }
    }
    if count == 0 {
        return None;
    }
    // At most 15 digits: the mantissa is below 2^53, hence exact.
    let value = mantissa as f64 / POWERS_OF_TEN.get(decimals).copied()?;
    Some(if negative { -value } else { value })
}

/// What one `B`/`W` value holds.
struct ParsedMove {
    token: Token,
    /// The text of an unreadable token.
    text: Option<Box<str>>,
    note: MoveNote,
    span: Span,
}

/// The source position of byte `offset` of a value that starts at
/// `start`, going over the backslashes (dropped before the offsets in
/// `escapes`) and newlines before it.
fn value_source(start: Span, escapes: &[usize], value: &[u8], offset: usize) -> Span {
    let simple = escapes.is_empty()
        && value
            .get(..offset)
            .is_some_and(|v| v.iter().all(|&b| b.is_ascii() && b != b'\n'));
    if simple {
        return start.advanced(len32(offset));
    }
    let mut pos = start;
    let mut over = |b: u8| {
        pos.byte += 1;
        if b == b'\n' {
            pos.line = pos.line.saturating_add(1);
            pos.column = 1;
        } else if b & 0xC0 != 0x80 {
            pos.column = pos.column.saturating_add(1);
        }
    };
    let mut escapes = escapes.iter().peekable();
    for (i, &b) in value.iter().enumerate().take(offset) {
        while escapes.next_if(|&&e| e == i).is_some() {
            over(b'\\');
        }
        over(b);
    }
    while escapes.next_if(|&&e| e == offset).is_some() {
        over(b'\\');
    }
    pos
}

/// Reads a `B`/`W` value that starts at `start` in the source; `escapes`
/// are the offsets in `value` of the characters that followed a backslash.
fn parse_move(value: &[u8], start: Span, escapes: &[usize]) -> Result<ParsedMove, ParseError> {
    let at = |offset| value_source(start, escapes, value, offset);
    let pos = start;
    let mut parts = value.split(|&c| c == b'/');
    let raw = parts.next().unwrap_or_default();
    let eval = parts.next();
    let time = parts.next();
    if parts.next().is_some() {
        return Err(ParseError::at(
            pos.with_len(len32(value.len())),
            format!("move {} has more than two `/`", decode(value)),
        ));
    }
    let lead = raw.len() - raw.trim_ascii_start().len();
    let word = raw.trim_ascii();
    let span = if escapes.is_empty() && !raw.contains(&b'\n') {
        // The common case: the source bytes are the value's bytes, and
        // only ASCII blanks come before the token.
        start.advanced(len32(lead)).with_len(len32(word.len()))
    } else {
        let p = at(lead);
        // Up to the token's last byte, not to the next value byte, which
        // may follow a backslash.
        let len = match word.len().checked_sub(1).map(|last| at(lead + last)) {
            Some(last) if last.line == p.line => last.byte + 1 - p.byte,
            _ => word.len() as u64,
        };
        p.with_len(u32::try_from(len).unwrap_or(u32::MAX))
    };
    let token = if let Some(square) = Square::from_ascii(word) {
        Token::Move(Move::Play(square))
    } else if word.eq_ignore_ascii_case(b"pa") || word.eq_ignore_ascii_case(b"pass") {
        Token::Move(Move::Pass)
    } else {
        Token::Unreadable
    };
    let mut note = MoveNote::default();
    let mut offset = raw.len() + 1;
    for (part, slot, what) in [
        (eval, &mut note.eval, "evaluation"),
        (time, &mut note.time, "time"),
    ] {
        if let Some(part) = part {
            *slot = note_number(part).map_err(|()| {
                ParseError::at(
                    at(offset).with_len(len32(part.len().max(1))),
                    format!(
                        "unreadable {what} {} in move {}",
                        decode(part),
                        decode(word)
                    ),
                )
            })?;
            offset += part.len() + 1;
        }
    }
    Ok(ParsedMove {
        token,
        text: (token == Token::Unreadable).then(|| decode(word).into()),
        note,
        span,
    })
}

/// The `BO` value of the standard start, as GGS writes it.
pub(super) const STANDARD_BOARD: &str =
    "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";

/// The token of a `B`/`W` value that is only a square or `PA` (any case)
/// and has no escapes: what [`parse_move`] reads there, with a span of
/// the value's two bytes and no note. `None` for anything else.
pub(super) fn plain_move(value: &[u8], escapes: &[usize]) -> Option<Token> {
    if value.len() != 2 || !escapes.is_empty() {
        return None;
    }
    if let Some(square) = Square::from_ascii(value) {
        Some(Token::Move(Move::Play(square)))
    } else if value.eq_ignore_ascii_case(b"pa") {
        Some(Token::Move(Move::Pass))
    } else {
        None
    }
}

/// Bytes from a move tag to the next in `B[f5]W[d6]`: the stride of
/// the moves of a game written as GGS writes them.
const MOVE_STRIDE: u32 = 5;

/// Adds the span of move `index` to `spans`. Moves at regular intervals
/// (the usual `B[f5]W[d6]…` on one line) keep a first span and a stride,
/// not a span each; the first move off the stride spreads them out.
#[inline]
fn push_span(spans: &mut MoveSpans, index: usize, span: Span) {
    match spans {
        MoveSpans::Every { .. } if spans.get(index) == Some(span) => {}
        MoveSpans::Unknown if index == 0 => {
            *spans = MoveSpans::Every {
                first: span,
                stride: MOVE_STRIDE,
            };
        }
        _ => spread_spans(spans, index, span),
    }
}

/// Adds the spans of `n` moves from move `index` on, the first at
/// `first` and each [`MOVE_STRIDE`] bytes after the one before: what
/// [`push_span`] of each in turn makes, in one step when they keep the
/// stride of the moves before.
fn push_spans(spans: &mut MoveSpans, index: usize, first: Span, n: usize) {
    let regular = match spans {
        MoveSpans::Every { .. } => spans.get(index) == Some(first),
        MoveSpans::Unknown => index == 0,
        MoveSpans::Each(_) => false,
    };
    if regular {
        if n > 0 && index == 0 {
            *spans = MoveSpans::Every {
                first,
                stride: MOVE_STRIDE,
            };
        }
        return;
    }
    for i in 0..n {
        let span = first.advanced(MOVE_STRIDE.saturating_mul(len32(i)));
        push_span(spans, index + i, span);
    }
}

/// [`push_span`] off the stride: a span each from now on.
#[cold]
fn spread_spans(spans: &mut MoveSpans, index: usize, span: Span) {
    if let MoveSpans::Every { .. } = spans {
        let mut each = Vec::with_capacity((index + 1).max(64));
        each.extend((0..index).filter_map(|i| spans.get(i)));
        *spans = MoveSpans::Each(each);
    }
    spans.push(span);
}

/// The buffers a game is read with, handed on from one game to the next
/// so that a game allocates only what its record keeps.
#[derive(Default)]
pub(super) struct Spare {
    pub(super) name: Vec<u8>,
    pub(super) value: Vec<u8>,
    pub(super) text: Vec<u8>,
    pub(super) escapes: Vec<usize>,
}

/// A game (or a run of stray text) being read.
pub(super) struct Draft {
    pub(super) record: GameRecord,
    pub(super) start: Span,
    pub(super) text: Vec<u8>,
    pub(super) text_ok: bool,
    pub(super) any_note: bool,
    pub(super) stray: bool,
    pub(super) name: Vec<u8>,
    pub(super) name_pos: Span,
    pub(super) value: Vec<u8>,
    pub(super) value_pos: Span,
    /// Offsets in `value` of the characters that followed a backslash.
    pub(super) escapes: Vec<usize>,
    /// A board size other than 8 given by `TY`.
    pub(super) type_size: Option<u8>,
    /// A board size other than 8 given by `BO`.
    pub(super) board_size: Option<u8>,
    /// The `BO` value as written: the start of a game on another board.
    pub(super) board_text: Option<Cow<'static, str>>,
}

impl Draft {
    pub(super) fn set_defect(&mut self, defect: ParseError) {
        if self.record.defect.is_none() {
            self.record.defect = Some(defect);
        }
    }

    /// Adds a move; the notes are kept from the first one that is not
    /// empty on (the earlier ones then empty), none while all are empty.
    #[inline]
    pub(super) fn push_move(&mut self, color: Color, token: Token, note: MoveNote, span: Span) {
        if note.eval.is_none() && note.time.is_none() {
            return self.push_plain(color, token, span);
        }
        let record = &mut self.record;
        if !self.any_note {
            self.any_note = true;
            record.notes.resize(record.moves.len(), MoveNote::default());
        }
        record.notes.push(note);
        let index = record.moves.len();
        record.moves.push(RecordedMove {
            token,
            color: Some(color),
        });
        push_span(&mut record.spans, index, span);
    }

    /// Adds a move without a note: [`Draft::push_move`] of an empty note.
    #[inline]
    pub(super) fn push_plain(&mut self, color: Color, token: Token, span: Span) {
        let record = &mut self.record;
        if self.any_note {
            record.notes.push(MoveNote::default());
        }
        let index = record.moves.len();
        record.moves.push(RecordedMove {
            token,
            color: Some(color),
        });
        push_span(&mut record.spans, index, span);
    }

    /// Reads the run of plain move tags (`B[f5]`, `W[PA]`: what
    /// [`plain_move`] reads) at the start of `text`, whose first token is
    /// at `first` in the source; returns the bytes read. The moves are
    /// what [`Draft::apply_tag`] makes of each tag in turn.
    // Not inlined: in the lexer's loop it takes registers the loop needs
    // (callgrind: 10 % more instructions for the whole parse).
    #[inline(never)]
    pub(super) fn push_plain_run(&mut self, text: &[u8], first: Span) -> usize {
        let record = &mut self.record;
        let moves = &mut record.moves;
        let index = moves.len();
        // First the run's length from the tags' shape alone, then every
        // tag of it looked up in tables, without a capacity check a move;
        // the run ends before the first value that is neither a square
        // nor a pass (rare).
        let tags = text
            .chunks_exact(5)
            .take_while(|tag| matches!(tag, [b'B' | b'W', b'[', _, _, b']']))
            .count();
        let run = text.get(..5 * tags).unwrap_or_default();
        let mut first_bad = None;
        moves.extend(run.chunks_exact(5).enumerate().map(|(i, tag)| {
            let (c, r) = (tag[2], tag[3]);
            let (column, row) = (COLUMN[usize::from(c)], ROW[usize::from(r)]);
            let token = if (column | row) < 8 {
                Token::Move(Move::Play(Square::from_index_wrapping(row << 3 | column)))
            } else {
                // `PA`, either case, or no move.
                if !(c | 0x20 == b'p' && r | 0x20 == b'a') {
                    first_bad.get_or_insert(i);
                }
                Token::Move(Move::Pass)
            };
            let color = if tag[0] == b'B' {
                Color::Black
            } else {
                Color::White
            };
            RecordedMove {
                token,
                color: Some(color),
            }
        }));
        if let Some(bad) = first_bad {
            moves.truncate(index + bad);
        }
        let n = moves.len() - index;
        if self.any_note {
            record.notes.resize(moves.len(), MoveNote::default());
        }
        push_spans(&mut record.spans, index, first, n);
        n * 5
    }

    pub(super) fn name_str(&self) -> String {
        decode(&self.name)
    }

    pub(super) fn unclosed_value(&mut self) {
        let message = format!("tag {} not closed: missing `]`", self.name_str());
        let len = self.name.len() + 1;
        self.set_defect(ParseError::at(self.name_pos.with_len(len32(len)), message));
    }

    /// Interprets the tag just closed.
    pub(super) fn end_tag(&mut self) -> Result<(), ParseError> {
        let name = std::mem::take(&mut self.name);
        let value = std::mem::take(&mut self.value);
        let escapes = std::mem::take(&mut self.escapes);
        let result = self.apply_tag(&name, &value, self.value_pos, &escapes);
        self.name = name;
        self.value = value;
        self.escapes = escapes;
        result
    }

    /// Interprets tag `name` of value `value`, which starts at `pos` in
    /// the source; `escapes` are the offsets in `value` of the characters
    /// that followed a backslash.
    pub(super) fn apply_tag(
        &mut self,
        name: &[u8],
        value: &[u8],
        pos: Span,
        escapes: &[usize],
    ) -> Result<(), ParseError> {
        match name {
            b"B" | b"W" => {
                let color = if name == b"B" {
                    Color::Black
                } else {
                    Color::White
                };
                match plain_move(value, escapes) {
                    // The common case, `B[f5]`: what `parse_move` reads
                    // there, without its general steps.
                    Some(token) => self.push_plain(color, token, pos.with_len(2)),
                    None => {
                        let mv = parse_move(value, pos, escapes)?;
                        if let Some(text) = mv.text {
                            let record = &mut self.record;
                            record.unreadable.push((record.moves.len(), text));
                        }
                        self.push_move(color, mv.token, mv.note, mv.span);
                    }
                }
            }
            b"GM" if value.trim_ascii().eq_ignore_ascii_case(b"othello") => {}
            b"GM" => {
                let game = decode(value);
                if !game.trim().eq_ignore_ascii_case("othello") {
                    return Err(ParseError::at(
                        pos.with_len(len32(value.len())),
                        format!("not an Othello game: GM[{game}]"),
                    ));
                }
            }
            b"PC" => self.record.tags.site = Some(decode(value)),
            b"DT" => self.record.tags.date = Some(decode(value)),
            b"EV" => self.record.tags.event = Some(decode(value)),
            b"PB" => self.record.tags.black = Some(decode(value)),
            b"PW" => self.record.tags.white = Some(decode(value)),
            b"RB" => self.record.tags.black_rating = Some(decode(value)),
            b"RW" => self.record.tags.white_rating = Some(decode(value)),
            b"TY" => {
                let text = decode(value);
                let ty = GameType::parse(&text);
                self.record.tags.extra.push(("TY".into(), text.clone()));
                let ty = ty.ok_or_else(|| {
                    ParseError::at(
                        pos.with_len(len32(value.len())),
                        format!("unreadable game type TY[{text}]"),
                    )
                })?;
                if ty.size != 8 {
                    let size = other_size(ty.size)
                        .map_err(|m| ParseError::at(pos.with_len(len32(value.len())), m))?;
                    self.type_size = Some(size);
                }
                if ty.anti {
                    self.record.rules = Rules::Anti;
                }
            }
            b"BO" if value == STANDARD_BOARD.as_bytes() => {
                // The usual start, read once and for all (a test checks
                // that `parse_board` reads it so).
                self.record.start = Position::start();
                self.board_text = Some(Cow::Borrowed(STANDARD_BOARD));
            }
            b"BO" => {
                let text = decode(value);
                match parse_board(&text)
                    .map_err(|m| ParseError::at(pos.with_len(len32(value.len())), m))?
                {
                    BoardValue::Eight(start) => self.record.start = start,
                    BoardValue::Other(size) => self.board_size = Some(size),
                }
                // Kept (it is already made) in case `TY` names another
                // board: that game's start is this value as written.
                self.board_text = Some(Cow::Owned(text));
            }
            b"RE" => {
                // The usual margin (`+4.000`): what `parse_result` reads
                // there, without its general steps.
                if let Some(margin) = plain_decimal(value).filter(|m| m.abs() <= 64.0) {
                    self.record.result = Some(RecordedResult {
                        value: ResultValue::Margin(margin),
                        kind: ResultKind::Score,
                    });
                    return Ok(());
                }
                let text = decode_cow(value);
                self.record.result = parse_result(&text);
                if self.record.result.is_none() && text.trim() != "?" {
                    self.record
                        .tags
                        .extra
                        .push(("RE".into(), text.into_owned()));
                }
            }
            _ => self.record.tags.extra.push((decode(name), decode(value))),
        }
        Ok(())
    }

    /// The record read, and the buffers for the next game.
    pub(super) fn finish(mut self) -> (GameRecord, Spare) {
        if !self.any_note {
            self.record.notes.clear();
        }
        // `BO` is the board played on; `TY` may name another size alone.
        if let Some(size) = self.board_size.or(self.type_size) {
            self.record.other_board = Some(OtherBoard {
                size,
                start: self
                    .board_text
                    .take()
                    .map(Cow::into_owned)
                    .unwrap_or_default(),
            });
        }
        if self.text_ok {
            let mut text = self.text.as_slice();
            while let [rest @ .., b'\r' | b'\n'] = text {
                text = rest;
            }
            // Made to measure: the buffer stays for the next game.
            self.record.origin.text = Some(match std::str::from_utf8(text) {
                Ok(text) => text.into(),
                Err(_) => String::from_utf8_lossy(text).into(),
            });
        }
        let spare = Spare {
            name: self.name,
            value: self.value,
            text: self.text,
            escapes: self.escapes,
        };
        (self.record, spare)
    }
}
