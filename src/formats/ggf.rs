//! GGF, the Generic Game Format of the GGS server.
//!
//! A game is `(;` tags `;)`, each tag `NAME[value]`. Games may share a
//! line (GGS archives prefix a match count: `1 (;…;)`, and a synchro match
//! `2 (;…;)(;…;)` holds two games) or span several lines; blanks between
//! tags are allowed.
//!
//! Read:
//! - `GM`: `Othello` in any case; any other game is a defect.
//! - `PC` site, `DT` date (verbatim: GGS dates, Unix seconds, …), `PB`/`PW`
//!   players, `RB`/`RW` ratings (verbatim), `EV` the event (kifu's own tag:
//!   GGF has none, kifu writes and reads `EV`).
//! - `TY` game type `[s]8[k][r[<n>]][a][b|w]`, kept verbatim in
//!   `tags.extra` so it is written back; a size other than 8 is a defect
//!   (`unsupported board size 4x4`), `a` selects [`Rules::Anti`].
//! - `BO[8 <64 squares> <side>]`: the start position, `-` empty, `*` Black,
//!   `O` White, the squares in 8 groups or one string, side `*` or `O`.
//! - `B[..]`/`W[..]`: a move `sq[/eval[/time]]` in any case, or a pass `PA`
//!   or `pass` (any case), with the colour the tag names; evaluations and
//!   times go to [`GameRecord::notes`].
//! - `RE[+6.000]` Black's margin with an optional `:r` (resigned), `:t`
//!   (time) or `:s` (mutual score); `RE[?]` is no result. A value that is
//!   not a margin within ±64 (Edax writes `RE[-127.000]` for "no result")
//!   is no result and stays verbatim in `tags.extra` to be written back.
//! - Every other tag (`TI`, `TB`, `TW`, `KM`, `KB`, `KW`, …) verbatim in
//!   `tags.extra`, in source order.
//!
//! The GGS specification defines no escapes and GGS never needs one; kifu
//! reads a backslash as escaping the next character (as SGF does) so that
//! its writer can keep `[`, `]` or `(;` inside a value.
//!
//! Write: one game per line, `(;GM[Othello]PC[..]DT[..]EV[..]PB[..]PW[..]
//! RB[..]RW[..]<other tags>TY[..]RE[..]BO[8 …]B[f5//0.01]W[d6]…;)`: moves
//! in lowercase with the colour the replay gives them, passes as `PA`,
//! notes as `/eval/time`, the result as a margin with three decimals as
//! GGS writes it (`+2.000`, `-22.870:r`). Passes a record leaves out (a
//! transcript, WTHOR) are written too, as GGS does: GGF readers such as
//! NBoard's play each move for the side to move whatever its tag says.

use std::io::BufRead;

use crate::formats::features::{Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::game::{Move, Status};
use crate::record::{
    MoveNote, Origin, RecordedMove, RecordedResult, ResultKind, ResultValue, Rules, Token,
};
use crate::source::{MoveSpans, ParseError, ReadError, Span};
use crate::table::Game;
use crate::{Bitboard, Board, Color, GameRecord, Position, Score, Square};

/// The longest game the reader takes, in bytes from `(;`; a longer one
/// gets a defect and is skipped up to its `;)`.
pub const MAX_GAME_BYTES: u64 = 1 << 20;

/// The most source text kept per game for diagnostics.
const MAX_TEXT: usize = 64 * 1024;

/// The longest tag name.
const MAX_NAME: usize = 32;

/// Tags the writer produces itself; an extra tag of that name cannot be
/// written without changing its meaning.
const RESERVED: [&str; 11] = [
    "GM", "PC", "DT", "EV", "PB", "PW", "RB", "RW", "BO", "B", "W",
];

/// A GGF game type, the value of a `TY` tag: `[s]<size>[k][r[<n>]][a][b|w]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameType {
    /// `s`: one game of a synchro pair.
    pub synchro: bool,
    /// Board size (8 for standard Othello).
    pub size: u32,
    /// `k`: komi game.
    pub komi: bool,
    /// `r` or `r<n>`: random start, with the number of discs when given.
    pub random: Option<Option<u32>>,
    /// `a`: anti Othello (fewer discs win).
    pub anti: bool,
    /// `b` or `w`: the colour the game was set up for.
    pub color: Option<Color>,
}

impl GameType {
    /// Parses a `TY` value; `None` when it does not follow the grammar.
    #[must_use]
    pub fn parse(text: &str) -> Option<GameType> {
        let mut rest = text.trim().as_bytes();
        let mut ty = GameType::default();
        if let Some(after) = rest.strip_prefix(b"s") {
            ty.synchro = true;
            rest = after;
        }
        let (size, after) = digits(rest);
        ty.size = size?;
        rest = after;
        while let Some((&c, after)) = rest.split_first() {
            rest = after;
            match c {
                b'k' if !ty.komi => ty.komi = true,
                b'a' if !ty.anti => ty.anti = true,
                b'r' if ty.random.is_none() => {
                    let (n, after) = digits(rest);
                    if n.is_none() && rest.first().is_some_and(u8::is_ascii_digit) {
                        return None;
                    }
                    ty.random = Some(n);
                    rest = after;
                }
                b'b' if ty.color.is_none() => ty.color = Some(Color::Black),
                b'w' if ty.color.is_none() => ty.color = Some(Color::White),
                _ => return None,
            }
        }
        Some(ty)
    }
}

impl std::fmt::Display for GameType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.synchro {
            f.write_str("s")?;
        }
        write!(f, "{}", self.size)?;
        if self.komi {
            f.write_str("k")?;
        }
        match self.random {
            Some(Some(n)) => write!(f, "r{n}")?,
            Some(None) => f.write_str("r")?,
            None => {}
        }
        if self.anti {
            f.write_str("a")?;
        }
        match self.color {
            Some(Color::Black) => f.write_str("b"),
            Some(Color::White) => f.write_str("w"),
            None => Ok(()),
        }
    }
}

/// A leading run of digits as a number (`None` if empty or too large) and
/// the rest.
fn digits(text: &[u8]) -> (Option<u32>, &[u8]) {
    let n = text.iter().take_while(|c| c.is_ascii_digit()).count();
    let (number, rest) = text.split_at(n);
    let value = std::str::from_utf8(number)
        .ok()
        .and_then(|s| s.parse().ok());
    (value, rest)
}

/// Text from source bytes: UTF-8, or Latin-1 when the bytes are not UTF-8.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

fn error(pos: Span, len: usize, message: impl Into<String>) -> ParseError {
    ParseError::at(
        pos.with_len(u32::try_from(len).unwrap_or(u32::MAX)),
        message.into(),
    )
}

/// The position `n` ASCII bytes after `pos` on the same line.
fn advance(pos: Span, n: usize) -> Span {
    let n32 = u32::try_from(n).unwrap_or(u32::MAX);
    Span::new(
        pos.byte + n as u64,
        pos.line,
        pos.column.saturating_add(n32),
        0,
    )
}

/// How a byte reads in a message.
fn shown(b: u8) -> String {
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

/// Parses a `BO` value: size, 64 squares, side to move.
fn parse_board(value: &str) -> Result<Position, String> {
    let mut fields = value.split_ascii_whitespace();
    let size_text = fields.next().ok_or("empty board")?;
    let size: u32 = size_text
        .parse()
        .map_err(|_| format!("unreadable board size {size_text}"))?;
    if size != 8 {
        return Err(format!("unsupported board size {size}x{size}"));
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
    Ok(Position::new(board, side))
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
    let margin: f64 = number.parse().ok()?;
    if !margin.is_finite() || margin.abs() > 64.0 {
        return None;
    }
    Some(RecordedResult {
        value: ResultValue::Margin(margin),
        kind,
    })
}

/// An optional number of a move value (`2.39`, empty).
fn note_number(part: &[u8]) -> Result<Option<f64>, ()> {
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
fn plain_decimal(text: &[u8]) -> Option<f64> {
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
        return advance(start, offset);
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
        return Err(error(
            pos,
            value.len(),
            format!("move {} has more than two `/`", decode(value)),
        ));
    }
    let lead = raw.len() - raw.trim_ascii_start().len();
    let word = raw.trim_ascii();
    let span = if escapes.is_empty() && !raw.contains(&b'\n') {
        // The common case: the source bytes are the value's bytes, and
        // only ASCII blanks come before the token.
        let p = advance(start, lead);
        Span {
            byte: p.byte,
            line: p.line,
            column: p.column,
            len: u32::try_from(word.len()).unwrap_or(u32::MAX),
        }
    } else {
        let p = at(lead);
        // Up to the token's last byte, not to the next value byte, which
        // may follow a backslash.
        let len = match word.len().checked_sub(1).map(|last| at(lead + last)) {
            Some(last) if last.line == p.line => last.byte + 1 - p.byte,
            _ => word.len() as u64,
        };
        Span {
            byte: p.byte,
            line: p.line,
            column: p.column,
            len: u32::try_from(len).unwrap_or(u32::MAX),
        }
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
                error(
                    at(offset),
                    part.len().max(1),
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

/// A game (or a run of stray text) being read.
struct Draft {
    record: GameRecord,
    start: Span,
    text: Vec<u8>,
    text_ok: bool,
    any_note: bool,
    stray: bool,
    name: Vec<u8>,
    name_pos: Span,
    value: Vec<u8>,
    value_pos: Span,
    /// Offsets in `value` of the characters that followed a backslash.
    escapes: Vec<usize>,
}

impl Draft {
    fn set_defect(&mut self, defect: ParseError) {
        if self.record.defect.is_none() {
            self.record.defect = Some(defect);
        }
    }

    fn name_str(&self) -> String {
        decode(&self.name)
    }

    fn unclosed_value(&mut self) {
        let message = format!("tag {} not closed: missing `]`", self.name_str());
        let len = self.name.len() + 1;
        self.set_defect(error(self.name_pos, len, message));
    }

    /// Interprets the tag just closed.
    fn end_tag(&mut self) -> Result<(), ParseError> {
        let value = std::mem::take(&mut self.value);
        let result = self.apply_tag(&value);
        self.value = value;
        result
    }

    fn apply_tag(&mut self, value: &[u8]) -> Result<(), ParseError> {
        let pos = self.value_pos;
        let record = &mut self.record;
        let tags = &mut record.tags;
        match self.name.as_slice() {
            b"B" | b"W" => {
                let color = if self.name == b"B" {
                    Color::Black
                } else {
                    Color::White
                };
                let mv = parse_move(value, pos, &self.escapes)?;
                if let Some(text) = mv.text {
                    record.unreadable.push((record.moves.len(), text));
                }
                record.moves.push(RecordedMove {
                    token: mv.token,
                    color: Some(color),
                });
                self.any_note |= mv.note != MoveNote::default();
                record.notes.push(mv.note);
                record.spans.push(mv.span);
            }
            b"GM" => {
                let game = decode(value);
                if !game.trim().eq_ignore_ascii_case("othello") {
                    return Err(error(
                        pos,
                        value.len(),
                        format!("not an Othello game: GM[{game}]"),
                    ));
                }
            }
            b"PC" => tags.site = Some(decode(value)),
            b"DT" => tags.date = Some(decode(value)),
            b"EV" => tags.event = Some(decode(value)),
            b"PB" => tags.black = Some(decode(value)),
            b"PW" => tags.white = Some(decode(value)),
            b"RB" => tags.black_rating = Some(decode(value)),
            b"RW" => tags.white_rating = Some(decode(value)),
            b"TY" => {
                let text = decode(value);
                let ty = GameType::parse(&text);
                tags.extra.push(("TY".into(), text.clone()));
                let ty = ty.ok_or_else(|| {
                    error(pos, value.len(), format!("unreadable game type TY[{text}]"))
                })?;
                if ty.size != 8 {
                    let n = ty.size;
                    return Err(error(
                        pos,
                        value.len(),
                        format!("unsupported board size {n}x{n}"),
                    ));
                }
                if ty.anti {
                    record.rules = Rules::Anti;
                }
            }
            b"BO" => {
                record.start =
                    parse_board(&decode(value)).map_err(|m| error(pos, value.len(), m))?;
            }
            b"RE" => {
                let text = decode(value);
                record.result = parse_result(&text);
                if record.result.is_none() && text.trim() != "?" {
                    tags.extra.push(("RE".into(), text));
                }
            }
            _ => tags.extra.push((decode(&self.name), decode(value))),
        }
        Ok(())
    }

    fn finish(mut self) -> GameRecord {
        if !self.any_note {
            self.record.notes.clear();
        }
        if self.text_ok {
            while self.text.last().is_some_and(|c| matches!(c, b'\r' | b'\n')) {
                self.text.pop();
            }
            let text = match String::from_utf8(self.text) {
                Ok(text) => text,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            };
            self.record.origin.text = Some(text.into_boxed_str());
        }
        self.record
    }
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
    /// A completed game not yet handed out.
    ready: Option<GameRecord>,
    /// Name and value buffers of the last game, reused by the next.
    spare: (Vec<u8>, Vec<u8>),
}

/// Bytes that end a run of plain value text.
fn value_special(b: u8) -> bool {
    matches!(b, b']' | b'\\' | b'(' | b'[' | b'\n')
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
            ready: None,
            spare: (Vec::new(), Vec::new()),
        }
    }

    /// Reads bytes from `chunk` until a game is complete (it is then in
    /// `ready`) or the chunk ends; returns how many bytes were read.
    fn feed(&mut self, chunk: &[u8]) -> usize {
        let mut used = 0;
        while let Some(rest) = chunk.get(used..) {
            if matches!(self.state, State::Tags) {
                let taken = self.whole_tag(rest);
                if taken > 0 {
                    used += taken;
                    continue;
                }
            } else if matches!(self.state, State::Value) {
                let run = rest
                    .iter()
                    .position(|&b| value_special(b))
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
            if self.ready.is_some() {
                break;
            }
        }
        used
    }

    /// Reads a whole tag `NAME[value]` at the start of `rest` in one step
    /// when it is all there and plain (no escapes, no newline); returns the
    /// bytes taken, 0 to leave it to the byte-by-byte path.
    fn whole_tag(&mut self, rest: &[u8]) -> usize {
        let Some(game) = &mut self.game else {
            return 0;
        };
        let name_len = rest
            .iter()
            .take(MAX_NAME + 1)
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if name_len == 0 || name_len > MAX_NAME || rest.get(name_len) != Some(&b'[') {
            return 0;
        }
        let Some(after) = rest.get(name_len + 1..) else {
            return 0;
        };
        let Some(value_len) = after.iter().position(|&b| value_special(b)) else {
            return 0;
        };
        if after.get(value_len) != Some(&b']') {
            return 0;
        }
        let total = name_len + value_len + 2;
        if self.pos.byte + total as u64 - game.start.byte >= MAX_GAME_BYTES {
            return 0;
        }
        let (Some(name), Some(value), Some(taken)) = (
            rest.get(..name_len),
            after.get(..value_len),
            rest.get(..total),
        ) else {
            return 0;
        };
        game.name.clear();
        game.name.extend_from_slice(name);
        game.name_pos = self.pos;
        game.value_pos = advance(self.pos, name_len + 1);
        game.escapes.clear();
        let applied = game.apply_tag(value);
        let room = MAX_TEXT.saturating_sub(game.text.len());
        game.text
            .extend_from_slice(taken.get(..room.min(total)).unwrap_or_default());
        if let Err(defect) = applied {
            self.fail(defect);
        }
        self.advance_over(taken);
        total
    }

    /// Moves the position over `bytes` (no newline among them) and keeps
    /// them as part of the current line.
    fn advance_over(&mut self, bytes: &[u8]) {
        let room = MAX_TEXT.saturating_sub(self.line.len());
        if room < bytes.len() {
            self.line_ok = false;
        }
        self.line
            .extend_from_slice(bytes.get(..room.min(bytes.len())).unwrap_or_default());
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
        let mut text = Vec::with_capacity(if stray { 64 } else { 1024 });
        if same_line && self.line_ok {
            text.extend_from_slice(&self.line);
            text.push(b);
        }
        let capacity = if stray { 0 } else { 64 };
        let record = GameRecord {
            moves: Vec::with_capacity(capacity),
            notes: Vec::with_capacity(capacity),
            spans: MoveSpans::Each(Vec::with_capacity(capacity)),
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
            name: std::mem::take(&mut self.spare.0),
            name_pos: start,
            value: std::mem::take(&mut self.spare.1),
            value_pos: start,
            escapes: Vec::new(),
        });
    }

    fn finish(&mut self) {
        if let Some(mut game) = self.game.take() {
            self.spare = (
                std::mem::take(&mut game.name),
                std::mem::take(&mut game.value),
            );
            self.ready = Some(game.finish());
        }
    }

    /// Ends a stray run whose last byte is just before `end`.
    fn finish_stray(&mut self, end: Span) {
        if let Some(game) = &mut self.game {
            let len = end.byte.saturating_sub(game.start.byte);
            let len = usize::try_from(len).unwrap_or(usize::MAX);
            game.set_defect(error(game.start, len, "text outside a game"));
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
                self.fail(error(pos, 1, "game longer than 1 MiB"));
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
                    _ => self.fail(error(
                        pos,
                        1,
                        format!("unexpected {} between tags", shown(b)),
                    )),
                },
                State::TagsSemi(p) => {
                    if b == b')' {
                        self.finish();
                        self.state = State::Outside;
                    } else {
                        self.fail(error(p, 1, "`;` not followed by `)`"));
                        continue;
                    }
                }
                State::TagsParen(p) => {
                    if b == b';' {
                        self.unclosed_game();
                        self.start(p, b, false);
                        self.state = State::Tags;
                    } else {
                        self.fail(error(p, 1, "unexpected `(` between tags"));
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
                        game.value_pos = advance(pos, 1);
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
                        self.fail(error(pos, 1, message));
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
            game.set_defect(error(game.start, 2, "game not closed: missing `;)`"));
        }
        self.finish();
    }

    /// The end of the input: completes what is open.
    fn end(&mut self) -> Option<GameRecord> {
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
        self.ready.take()
    }
}

/// Streams games from GGF text, chunk by chunk: memory stays bounded by
/// one game ([`MAX_GAME_BYTES`]) whatever the size of the input.
pub struct Reader<R> {
    input: R,
    lexer: Lexer,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            lexer: Lexer::new(),
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
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
                return self.lexer.end().map(Ok);
            }
            let used = self.lexer.feed(chunk);
            self.input.consume(used);
            if let Some(record) = self.lexer.ready.take() {
                return Some(Ok(record));
            }
        }
    }
}

/// Whether the first bytes look like GGF: optional blanks and a match
/// count, then `(;`, and a `GM[Othello]` tag in the head (SGF also opens
/// with `(;`).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let rest = head.trim_ascii_start();
    let count = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = rest.get(count..).unwrap_or_default().trim_ascii_start();
    rest.starts_with(b"(;")
        && head
            .windows(11)
            .any(|w| w.eq_ignore_ascii_case(b"GM[othello]"))
}

/// Writes a tag value, escaping what the reader would take for the end of
/// the value or of the game.
fn push_value(out: &mut String, value: &str) {
    let mut prev = '\0';
    for c in value.chars() {
        match c {
            '\\' | '[' | ']' => out.push('\\'),
            ';' if prev == '(' => out.push('\\'),
            _ => {}
        }
        out.push(c);
        prev = c;
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push_str(name);
    out.push('[');
    push_value(out, value);
    out.push(']');
}

/// Whether an extra tag of this name can be written as it is.
fn writable_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|c| c.is_ascii_alphanumeric())
        && !RESERVED.contains(&name)
}

/// The `TY` value to write: the kept one, with the anti flag made to agree
/// with the record's rules.
fn type_for(record: &GameRecord, kept: Option<&str>) -> Option<String> {
    let anti = record.rules == Rules::Anti;
    match kept {
        Some(text) => match GameType::parse(text) {
            Some(ty) if ty.anti == anti => Some(text.to_owned()),
            Some(mut ty) => {
                ty.anti = anti;
                Some(ty.to_string())
            }
            None => Some(text.to_owned()),
        },
        None => anti.then(|| "8a".to_owned()),
    }
}

/// Black's margin for a raw disc difference, and whether it is exact: it
/// is when the record's replay ends the game with that difference.
fn raw_margin(game: &Game<'_>, raw: i32) -> (f64, bool) {
    let report = game.report;
    if report.status() == Status::Complete {
        let s = report.finish.score;
        if i32::from(s.black_discs) - i32::from(s.white_discs) == raw {
            return (f64::from(s.black_score) * 2.0 - 64.0, true);
        }
    }
    (f64::from(raw), false)
}

/// The `RE` text of the record's result, when GGF can hold it.
fn result_text(game: &Game<'_>) -> Option<String> {
    let record = game.record;
    let result = record.result?;
    let margin = match result.value {
        ResultValue::Margin(m) => m,
        ResultValue::Discs { black, white } => {
            if u16::from(black) + u16::from(white) > 64 {
                return None;
            }
            let score = match record.rules {
                Rules::Standard => Score::from_discs(black, white),
                Rules::Anti => Score::anti(black, white),
            };
            f64::from(score.black_score) * 2.0 - 64.0
        }
        ResultValue::RawMargin(raw) => raw_margin(game, raw).0,
        ResultValue::Winner(_) => return None,
    };
    if !margin.is_finite() || margin.abs() > 64.0 {
        return None;
    }
    let mut text = format!("{margin:+.3}");
    if text.parse::<f64>().ok() != Some(margin) {
        text = format!("{margin:+}");
    }
    text.push_str(match result.kind {
        ResultKind::Score => "",
        ResultKind::Resigned => ":r",
        ResultKind::Time => ":t",
        ResultKind::Mutual => ":s",
    });
    Some(text)
}

/// Writes the `BO` value of a position.
fn push_board(out: &mut String, position: &Position) {
    out.push_str("BO[8");
    for (i, square) in Square::all().enumerate() {
        if i % 8 == 0 {
            out.push(' ');
        }
        out.push(match position.board().get(square) {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        });
    }
    out.push_str(match position.side_to_move() {
        Color::Black => " *]",
        Color::White => " O]",
    });
}

/// Writes one game as a GGF line (see the module documentation).
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying).
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    let tags = &record.tags;
    out.push_str("(;GM[Othello]");
    for (name, value) in [
        ("PC", &tags.site),
        ("DT", &tags.date),
        ("EV", &tags.event),
        ("PB", &tags.black),
        ("PW", &tags.white),
        ("RB", &tags.black_rating),
        ("RW", &tags.white_rating),
    ] {
        if let Some(value) = value {
            push_tag(out, name, value);
        }
    }
    let mut wrote_type = false;
    let mut kept_result = None;
    for (name, value) in &tags.extra {
        match name.as_str() {
            "TY" if !wrote_type => {
                if let Some(ty) = type_for(record, Some(value)) {
                    push_tag(out, "TY", &ty);
                }
                wrote_type = true;
            }
            "TY" => {}
            "RE" => {
                kept_result.get_or_insert(value.as_str());
            }
            _ if writable_name(name) => push_tag(out, name, value),
            _ => {}
        }
    }
    if !wrote_type {
        if let Some(ty) = type_for(record, None) {
            push_tag(out, "TY", &ty);
        }
    }
    match (result_text(game), kept_result) {
        (Some(text), _) => push_tag(out, "RE", &text),
        (None, Some(kept)) => push_tag(out, "RE", kept),
        (None, None) => out.push_str("RE[?]"),
    }
    push_board(out, &record.start);
    for turn in record.plies(game.report) {
        let (i, color) = (turn.index, turn.color);
        if turn.pass_before {
            out.push_str(match color {
                Color::Black => "W[PA]",
                Color::White => "B[PA]",
            });
        }
        out.push_str(match color {
            Color::Black => "B[",
            Color::White => "W[",
        });
        match turn.token {
            Token::Move(Move::Play(square)) => {
                let [c, r] = square.to_ascii();
                out.push(char::from(c));
                out.push(char::from(r));
            }
            Token::Move(Move::Pass) => out.push_str("PA"),
            Token::Unreadable => push_value(out, &record.token_text(i)),
        }
        if let Some(note) = record.notes.get(i) {
            if note.eval.is_some() || note.time.is_some() {
                out.push('/');
                if let Some(eval) = note.eval {
                    out.push_str(&eval.to_string());
                }
                if let Some(time) = note.time {
                    out.push('/');
                    out.push_str(&time.to_string());
                }
            }
        }
        out.push(']');
    }
    out.push_str(";)\n");
}

/// The GGF row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Ggf,
    name: "ggf",
    aliases: &[],
    extensions: &["ggf"],
    summary: "Generic Game Format of the GGS server: several games a file",
    sniff,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&Ggf),
    writable: true,
    carries_status: false,
    loses: Features::of_list(&[
        Feature::Round,
        Feature::TheoreticalScore,
        Feature::WinnerOnlyResult,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[
        Check {
            loss: "results with more than 64 discs",
            applies: |g| disc_total(g).is_some_and(|n| n > 64),
        },
        Check {
            loss: "disc counts of results with empty squares",
            applies: |g| disc_total(g).is_some_and(|n| n < 64),
        },
        Check {
            loss: "raw disc differences of unfinished games",
            applies: |g| match g.record.result.map(|r| r.value) {
                Some(ResultValue::RawMargin(raw)) => !raw_margin(g, raw).1,
                _ => false,
            },
        },
        Check {
            loss: "results beyond 64 discs",
            applies: |g| match g.record.result.map(|r| r.value) {
                Some(ResultValue::Margin(m)) => !m.is_finite() || m.abs() > 64.0,
                _ => false,
            },
        },
        Check {
            loss: "tags GGF cannot name",
            applies: |g| {
                g.record
                    .tags
                    .extra
                    .iter()
                    .any(|(name, _)| name != "TY" && name != "RE" && !writable_name(name))
            },
        },
    ],
};

/// Black's and White's discs together, when the result is a disc count.
fn disc_total(game: &Game<'_>) -> Option<u16> {
    match game.record.result?.value {
        ResultValue::Discs { black, white } => Some(u16::from(black) + u16::from(white)),
        _ => None,
    }
}

/// Writes GGF.
struct Ggf;

impl TextFormat for Ggf {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut line = String::new();
        write_game(game, &mut line);
        out.extend_from_slice(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::game::Winner;

    const STD_BO: &str =
        "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";
    const VARIANTS: &str = include_str!("../../fixtures/ggf/variants.ggf");
    const BROKEN: &str = include_str!("../../fixtures/ggf/broken.ggf");

    fn read(text: &str) -> Vec<GameRecord> {
        Reader::new(text.as_bytes())
            .map(|g| g.expect("no i/o error"))
            .collect()
    }

    fn one(text: &str) -> GameRecord {
        let mut games = read(text);
        assert_eq!(games.len(), 1, "{text}");
        games.remove(0)
    }

    fn moves(record: &GameRecord) -> String {
        (0..record.moves.len())
            .map(|i| record.token_text(i))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn colors(record: &GameRecord) -> String {
        record
            .moves
            .iter()
            .map(|m| match m.color {
                Some(Color::Black) => 'B',
                Some(Color::White) => 'W',
                None => '?',
            })
            .collect()
    }

    fn written(record: &GameRecord) -> String {
        let mut out = String::new();
        write_record(record, &mut out);
        out
    }

    fn defect(record: &GameRecord) -> (u32, u32, &str) {
        let d = record.defect.as_ref().expect("a defect");
        (d.span.line, d.span.column, d.message.as_str())
    }

    fn extra(record: &GameRecord) -> Vec<(&str, &str)> {
        record
            .tags
            .extra
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    /// Parse -> write -> parse keeps everything but positions.
    fn assert_round_trip(record: &GameRecord) {
        let text = written(record);
        assert!(
            text.ends_with(";)\n") && text.matches('\n').count() == 1,
            "{text}"
        );
        let back = one(&text);
        assert_eq!(back.moves, record.moves, "{text}");
        assert_eq!(back.unreadable, record.unreadable, "{text}");
        assert_eq!(back.notes, record.notes, "{text}");
        assert_eq!(back.tags, record.tags, "{text}");
        assert_eq!(back.result, record.result, "{text}");
        assert_eq!(back.start, record.start, "{text}");
        assert_eq!(back.rules, record.rules, "{text}");
        assert_eq!(back.defect, None, "{text}");
        assert_eq!(written(&back), text);
    }

    /// The source text under every move span is the move as written.
    fn assert_spans_match_source(record: &GameRecord) {
        assert_eq!(record.spans.each().len(), record.moves.len());
        for (i, span) in record.spans.each().iter().enumerate() {
            let line = record
                .origin
                .line_text(span.line)
                .expect("the line is kept");
            let start = span.column as usize - 1;
            let found = &line[start..start + span.len as usize];
            let expected = match record.moves[i].token {
                Token::Move(Move::Pass) => {
                    assert!(["pa", "pass"].contains(&found.to_ascii_lowercase().as_str()));
                    continue;
                }
                _ => record.token_text(i),
            };
            assert!(
                found.eq_ignore_ascii_case(&expected),
                "{found} vs {expected}"
            );
        }
    }

    use crate::testkit::corpus;

    fn corpus_games(dir: &std::path::Path, name: &str) -> Vec<GameRecord> {
        let file = std::fs::File::open(dir.join(name)).expect("corpus file");
        Reader::new(std::io::BufReader::new(file))
            .map(|g| g.expect("no i/o error"))
            .collect()
    }

    #[test]
    fn tags_moves_and_notes_of_a_ggs_game() {
        let g = one(&format!(
            "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]\
             RB[2196.37]RW[2200]TI[05:00//02:00]TY[8]RE[+6.000]{STD_BO}\
             B[d3//0.01]W[C5/-2.39/1.5]B[f6/3];)"
        ));
        assert_eq!(g.tags.site.as_deref(), Some("GGS/os"));
        assert_eq!(g.tags.date.as_deref(), Some("2003.12.15_12:33:18.MST"));
        assert_eq!(g.tags.black.as_deref(), Some("Saio1200"));
        assert_eq!(g.tags.white.as_deref(), Some("Saio3000"));
        assert_eq!(g.tags.black_rating.as_deref(), Some("2196.37"));
        assert_eq!(g.tags.white_rating.as_deref(), Some("2200"));
        assert_eq!(g.tags.event, None);
        assert_eq!(extra(&g), [("TI", "05:00//02:00"), ("TY", "8")]);
        assert_eq!(
            g.result,
            Some(RecordedResult::new(ResultValue::Margin(6.0)))
        );
        assert_eq!(moves(&g), "d3 c5 f6");
        assert_eq!(colors(&g), "BWB");
        let note = |eval, time| MoveNote { eval, time };
        assert_eq!(
            g.notes,
            [
                note(None, Some(0.01)),
                note(Some(-2.39), Some(1.5)),
                note(Some(3.0), None)
            ]
        );
        assert!(g.has_standard_start());
        assert_eq!(g.rules, Rules::Standard);
        assert_eq!(g.defect, None);
        assert_eq!(
            (g.origin.index, g.origin.line, g.origin.byte),
            (1, Some(1), 2)
        );
        assert_eq!(
            g.span(1).unwrap(),
            Span {
                byte: 218,
                line: 1,
                column: 219,
                len: 2
            }
        );
        assert_spans_match_source(&g);
    }

    #[test]
    fn plain_decimals_read_as_the_general_parser_does() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..100_000 {
            let digits = 1 + rng.below(15);
            let mut text: String = (0..digits)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            if rng.below(4) > 0 {
                text.insert(rng.below(digits + 1), '.');
            }
            if rng.below(2) > 0 {
                text.insert(0, '-');
            }
            let fast = plain_decimal(text.as_bytes());
            let general = text.parse::<f64>().ok();
            if text.trim_start_matches('-') == "." {
                assert_eq!(fast, None);
                continue;
            }
            assert_eq!(fast.map(f64::to_bits), general.map(f64::to_bits), "{text}");
        }
        for text in ["1e5", "1.2.3", "", "-", "+.5", "1234567890123456", "0x1"] {
            let expected = (text == "+.5").then_some(0.5);
            assert_eq!(plain_decimal(text.as_bytes()), expected, "{text}");
        }
        assert_eq!(note_number(b" 1e-3 "), Ok(Some(0.001)));
        assert_eq!(note_number(b"inf"), Err(()));
    }

    #[test]
    fn notes_are_empty_when_no_move_has_one() {
        let g = one(&format!("(;GM[Othello]{STD_BO}B[f5]W[d6//]B[c3];)"));
        assert_eq!(moves(&g), "f5 d6 c3");
        assert!(g.notes.is_empty());
    }

    #[test]
    fn archive_count_and_synchro_pair_on_one_line() {
        let line = "2 (;GM[Othello]PB[a]TY[s8]B[f5];)(;GM[Othello]PB[b]TY[s8]B[d3];)\n\
                    1 (;GM[Othello]PB[c]B[c4];)\n";
        let games = read(line);
        assert_eq!(games.len(), 3);
        let names: Vec<_> = games.iter().map(|g| g.tags.black.as_deref()).collect();
        assert_eq!(names, [Some("a"), Some("b"), Some("c")]);
        let origins: Vec<_> = games
            .iter()
            .map(|g| (g.origin.index, g.origin.line, g.origin.byte))
            .collect();
        assert_eq!(
            origins,
            [(1, Some(1), 2), (2, Some(1), 33), (3, Some(2), 67)]
        );
        // The text starts at the line start so that columns point into it.
        assert_eq!(
            games[1].origin.text.as_deref(),
            Some(line.lines().next().unwrap())
        );
        assert_eq!(games[1].span(0).unwrap().column, 60);
        assert_spans_match_source(&games[1]);
    }

    #[test]
    fn several_games_per_line_without_count_and_one_game_over_lines() {
        let games =
            read("(;GM[Othello]B[f5];) (;GM[Othello]B[e6];)\n(;GM[Othello]\n  B[d3]\r\n  W[c5] ;)");
        assert_eq!(games.len(), 3);
        assert_eq!(moves(&games[2]), "d3 c5");
        assert_eq!(games[2].origin.line, Some(2));
        assert_eq!(
            games[2].origin.text.as_deref(),
            Some("(;GM[Othello]\n  B[d3]\r\n  W[c5] ;)")
        );
        assert_eq!(
            (
                games[2].span(1).unwrap().line,
                games[2].span(1).unwrap().column
            ),
            (4, 5)
        );
        assert_spans_match_source(&games[2]);
    }

    #[test]
    fn game_must_be_othello_in_any_case() {
        let g = one("(;GM[othello]B[f5];)");
        assert_eq!((moves(&g), g.defect), ("f5".into(), None));
        let g = one("(;GM[OTHELLO]B[f5];)");
        assert_eq!(g.defect, None);
        let g = one("(;GM[Amazons]B[f5];)");
        assert_eq!(defect(&g), (1, 6, "not an Othello game: GM[Amazons]"));
        assert_eq!(g.defect.unwrap().span.len, 7);
        assert!(g.moves.is_empty());
    }

    #[test]
    fn game_type_grammar() {
        let ty = |s: &str| GameType::parse(s);
        assert_eq!(
            ty("8"),
            Some(GameType {
                size: 8,
                ..GameType::default()
            })
        );
        assert_eq!(
            ty("s8kr20ab"),
            Some(GameType {
                synchro: true,
                size: 8,
                komi: true,
                random: Some(Some(20)),
                anti: true,
                color: Some(Color::Black),
            })
        );
        assert_eq!(ty("8kr").map(|t| t.random), Some(Some(None)));
        assert_eq!(
            ty("10w").map(|t| (t.size, t.color)),
            Some((10, Some(Color::White)))
        );
        for bad in ["", "s", "x8", "8q", "8kk", "8bw", "8r99999999999"] {
            assert_eq!(ty(bad), None, "{bad}");
        }
        for text in ["8", "s8kr20ab", "8kr", "s10a", "8r8w"] {
            assert_eq!(ty(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn anti_type_sets_the_rules_and_is_kept_verbatim() {
        let g = one(&format!("(;GM[Othello]TY[8a]{STD_BO}B[f5];)"));
        assert_eq!(g.rules, Rules::Anti);
        assert_eq!(extra(&g), [("TY", "8a")]);
        let g = one("(;GM[Othello]TY[s8kr12]B[f5];)");
        assert_eq!((g.rules, &g.defect), (Rules::Standard, &None));
        assert_eq!(extra(&g), [("TY", "s8kr12")]);
    }

    #[test]
    fn other_board_sizes_are_unsupported() {
        let g = one("(;GM[Othello]PB[x]TY[4]BO[4 ---- -O*- -*O- ---- *]B[a2];)");
        assert_eq!(defect(&g), (1, 22, "unsupported board size 4x4"));
        assert_eq!(g.tags.black.as_deref(), Some("x"));
        assert!(g.moves.is_empty());
        let g = one("(;GM[Othello]BO[10 ---------- *]B[a2];)");
        assert_eq!(defect(&g), (1, 17, "unsupported board size 10x10"));
        let g = one("(;GM[Othello]TY[8x]B[a2];)");
        assert_eq!(defect(&g), (1, 17, "unreadable game type TY[8x]"));
        assert_eq!(
            g.replay().error.unwrap().reason(),
            "unreadable game type TY[8x]"
        );
    }

    #[test]
    fn board_in_groups_or_one_string_with_either_side() {
        let grouped = one("(;GM[Othello]BO[8 -------- -------- --*----- ---**O-- ---OO--- ---O*--- -------- -------- O];)");
        let flat = one("(;GM[Othello]BO[8 ------------------*--------**O-----OO------O*------------------- O];)");
        assert_eq!(grouped.start, flat.start);
        assert_eq!(grouped.start.side_to_move(), Color::White);
        let board = grouped.start.board();
        assert_eq!((board.black().count(), board.white().count()), (4, 4));
        assert_eq!(board.get("c3".parse().unwrap()), Some(Color::Black));
        assert_eq!(board.get("f4".parse().unwrap()), Some(Color::White));
        let standard = one(&format!("(;GM[Othello]{STD_BO};)"));
        assert!(standard.has_standard_start());
    }

    #[test]
    fn bad_boards_are_defects() {
        let cases = [
            ("BO[8 -------- *]", "board has 8 squares, expected 64"),
            (
                "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- --------]",
                "missing the side to move after the board",
            ),
            (
                "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- X]",
                "",
            ),
            (
                "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- +]",
                "expected the side to move (* or O), found `+`",
            ),
            (
                "BO[8 -------- -------- -------- ---O*--- ---*Q--- -------- -------- -------- *]",
                "unreadable board square `Q` at e5",
            ),
            ("BO[eight]", "unreadable board size eight"),
        ];
        for (tag, message) in cases {
            let g = one(&format!("(;GM[Othello]{tag}B[f5];)"));
            if message.is_empty() {
                assert_eq!(g.defect, None, "{tag}");
                continue;
            }
            assert_eq!(defect(&g), (1, 17, message), "{tag}");
            assert!(g.moves.is_empty());
        }
    }

    #[test]
    fn moves_in_any_case_with_passes_and_unreadable_tokens() {
        let g = one(&format!(
            "(;GM[Othello]{STD_BO}B[F5]W[d6]B[pass]W[PA//3.107]B[Pass/1/2]W[pa]B[PASS]W[z9/1.5]B[];)"
        ));
        assert_eq!(moves(&g), "f5 d6 pass pass pass pass pass z9 ");
        assert_eq!(colors(&g), "BWBWBWBWB");
        assert_eq!(g.moves[7].token, Token::Unreadable);
        assert_eq!(g.moves[8].token, Token::Unreadable);
        assert_eq!(g.unreadable, [(7, "z9".into()), (8, "".into())]);
        assert_eq!(g.notes[3].time, Some(3.107));
        assert_eq!((g.notes[4].eval, g.notes[4].time), (Some(1.0), Some(2.0)));
        assert_eq!(g.notes[7].eval, Some(1.5));
        assert_spans_match_source(&g);
        let report = g.replay();
        assert_eq!(report.error.unwrap().move_number(), Some(3));
    }

    #[test]
    fn unreadable_notes_are_defects_at_the_number() {
        let g = one("(;GM[Othello]B[f5]W[d6/x/1]B[c3];)");
        assert_eq!(defect(&g), (1, 24, "unreadable evaluation x in move d6"));
        assert_eq!(moves(&g), "f5");
        let g = one("(;GM[Othello]B[f5]W[d6/1/1s];)");
        assert_eq!(defect(&g), (1, 26, "unreadable time 1s in move d6"));
        let g = one("(;GM[Othello]B[f5/1/2/3];)");
        assert_eq!(defect(&g), (1, 16, "move f5/1/2/3 has more than two `/`"));
    }

    #[test]
    fn results_with_kinds_unknown_and_out_of_range() {
        let re = |v: &str| {
            let g = one(&format!("(;GM[Othello]RE[{v}];)"));
            (
                g.result,
                extra(&g)
                    .iter()
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect::<Vec<_>>(),
            )
        };
        let margin = |m, kind| {
            Some(RecordedResult {
                value: ResultValue::Margin(m),
                kind,
            })
        };
        assert_eq!(re("+6.000"), (margin(6.0, ResultKind::Score), vec![]));
        assert_eq!(re("-2.00"), (margin(-2.0, ResultKind::Score), vec![]));
        assert_eq!(re("-22.87"), (margin(-22.87, ResultKind::Score), vec![]));
        assert_eq!(
            re("+64.000:r"),
            (margin(64.0, ResultKind::Resigned), vec![])
        );
        assert_eq!(re("-10.000:t"), (margin(-10.0, ResultKind::Time), vec![]));
        assert_eq!(re("+0.000:s"), (margin(0.0, ResultKind::Mutual), vec![]));
        assert_eq!(re("?"), (None, vec![]));
        assert_eq!(re("-127.000"), (None, vec!["RE=-127.000".to_owned()]));
        assert_eq!(re("+70"), (None, vec!["RE=+70".to_owned()]));
        assert_eq!(re("won"), (None, vec!["RE=won".to_owned()]));
        assert_eq!(re("+2:x"), (None, vec!["RE=+2:x".to_owned()]));
        assert_eq!(re("nan"), (None, vec!["RE=nan".to_owned()]));
    }

    #[test]
    fn komi_event_and_unknown_tags_in_source_order() {
        let g = one("(;GM[Othello]KB[B3/2.00/27.23]EV[cup]XY[1]KW[B3/-8.27]KM[-3.133]TB[1]TW[2];)");
        assert_eq!(g.tags.event.as_deref(), Some("cup"));
        assert_eq!(
            extra(&g),
            [
                ("KB", "B3/2.00/27.23"),
                ("XY", "1"),
                ("KW", "B3/-8.27"),
                ("KM", "-3.133"),
                ("TB", "1"),
                ("TW", "2")
            ]
        );
    }

    #[test]
    fn backslash_escapes_the_next_character() {
        let g = one(r"(;GM[Othello]PB[a\]b]PW[c:\\x\y]PC[(\;];)");
        assert_eq!(g.tags.black.as_deref(), Some("a]b"));
        assert_eq!(g.tags.white.as_deref(), Some(r"c:\xy"));
        assert_eq!(g.tags.site.as_deref(), Some("(;"));
        assert_eq!(g.defect, None);
    }

    #[test]
    fn latin1_values_are_decoded() {
        let mut bytes = b"(;GM[Othello]PB[Pr".to_vec();
        bytes.extend_from_slice(&[0xE9]);
        bytes.extend_from_slice(b"]B[f5];)");
        let games: Vec<_> = Reader::new(&bytes[..]).map(Result::unwrap).collect();
        assert_eq!(games[0].tags.black.as_deref(), Some("Pr\u{e9}"));
    }

    #[test]
    fn broken_fixture_defects_and_resynchronisation() {
        let games = read(BROKEN);
        let summary: Vec<_> = games
            .iter()
            .map(|g| {
                let d = g.defect.as_ref();
                (
                    g.origin.index,
                    g.origin.line,
                    moves(g),
                    d.map(|d| (d.span.line, d.span.column, d.span.len, d.message.clone())),
                )
            })
            .collect();
        let d = |l, c, n, m: &str| Some((l, c, n, m.to_owned()));
        assert_eq!(
            summary,
            [
                (
                    1,
                    Some(1),
                    "f5 d6".into(),
                    d(1, 1, 2, "game not closed: missing `;)`")
                ),
                (
                    2,
                    Some(2),
                    "f5".into(),
                    d(2, 24, 2, "tag W not closed: missing `]`")
                ),
                (3, Some(3), "f5 d6 c3 d3".into(), None),
                (
                    4,
                    Some(4),
                    String::new(),
                    d(4, 1, 15, "text outside a game")
                ),
                (
                    5,
                    Some(5),
                    String::new(),
                    d(5, 6, 5, "not an Othello game: GM[Chess]")
                ),
                (
                    6,
                    Some(6),
                    String::new(),
                    d(6, 17, 1, "unsupported board size 4x4")
                ),
                (
                    7,
                    Some(7),
                    String::new(),
                    d(7, 24, 1, "unreadable evaluation x in move f5")
                ),
                (
                    8,
                    Some(8),
                    "f5 d6".into(),
                    d(8, 31, 1, "unexpected `]` between tags")
                ),
                (
                    9,
                    Some(8),
                    "f5 d6 c3".into(),
                    d(8, 39, 2, "game not closed: missing `;)`")
                ),
            ]
        );
        // Byte offsets agree with lines and columns.
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(BROKEN.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        for g in games.iter().filter(|g| g.defect.is_some()) {
            let p = g.defect.as_ref().unwrap().span;
            let expected = line_starts[p.line as usize - 1] + p.column as usize - 1;
            assert_eq!(p.byte, expected as u64);
        }
        assert_eq!(games[8].origin.text.as_deref(), BROKEN.lines().nth(7));
        // The replay reports the defect after the moves before it.
        let report = games[0].replay();
        assert_eq!(
            report.error.unwrap().reason(),
            "game not closed: missing `;)`"
        );
    }

    #[test]
    fn a_line_of_a_missing_bracket_points_at_the_tag() {
        let g = &read("(;GM[Othello]B[f5]W[d6 B[c3];)\n(;GM[Othello]B[f5];)")[..];
        assert_eq!(g.len(), 2);
        assert_eq!(defect(&g[0]), (1, 19, "tag W not closed: missing `]`"));
        assert_eq!(moves(&g[0]), "f5");
        assert_eq!((moves(&g[1]), g[1].defect.clone()), ("f5".into(), None));
        let g = one("(;GM[Othello]B[f5];x)");
        assert_eq!(defect(&g), (1, 19, "`;` not followed by `)`"));
        let g = one("(;GM[Othello]B[f5](x;)");
        assert_eq!(defect(&g), (1, 19, "unexpected `(` between tags"));
        let g = one("(;GM[Othello]B[f5]PB x[y];)");
        assert_eq!(
            defect(&g),
            (1, 21, "expected `[` after tag PB, found a space")
        );
        let g = one("(;GM[Othello]B[f5]W[d6");
        assert_eq!(defect(&g), (1, 19, "tag W not closed: missing `]`"));
        let g = one(&format!("(;GM[Othello]{}[1];)", "A".repeat(40)));
        assert_eq!(defect(&g), (1, 46, "tag name longer than 32 characters"));
    }

    #[test]
    fn stray_text_and_lone_parens() {
        let games = read("junk (;GM[Othello]B[f5];) )\n(");
        assert_eq!(games.len(), 4);
        assert_eq!(defect(&games[0]), (1, 1, "text outside a game"));
        assert_eq!(games[0].defect.as_ref().unwrap().span.len, 5);
        assert_eq!(
            (moves(&games[1]), games[1].defect.clone()),
            ("f5".into(), None)
        );
        assert_eq!(defect(&games[2]), (1, 27, "text outside a game"));
        assert_eq!(games[2].defect.as_ref().unwrap().span.len, 1);
        assert_eq!(defect(&games[3]), (2, 1, "text outside a game"));
        assert_eq!(games[3].origin.text.as_deref(), Some("("));
        let games = read("(x\n\u{feff}");
        assert_eq!(games.len(), 2);
        assert_eq!(defect(&games[0]), (1, 1, "text outside a game"));
        assert_eq!(defect(&games[1]), (2, 1, "text outside a game"));
        assert!(read("\u{feff}  12 \r\n\n").is_empty());
        let games = read("\u{feff}(;GM[Othello]B[f5];)");
        assert_eq!(games[0].origin.byte, 3);
    }

    #[test]
    fn games_longer_than_the_cap_get_a_defect() {
        let big = "x".repeat(MAX_GAME_BYTES as usize + 10);
        let text = format!("(;GM[Othello]B[f5]PB[{big}]W[d6];)(;GM[Othello]B[e6];)");
        let games = read(&text);
        assert_eq!(games.len(), 2);
        let d = games[0].defect.as_ref().unwrap();
        assert_eq!(d.message, "game longer than 1 MiB");
        assert_eq!(d.span.byte, MAX_GAME_BYTES);
        assert_eq!(moves(&games[0]), "f5");
        assert_eq!(games[0].tags.black, None);
        assert!(games[0].origin.text.as_ref().unwrap().len() <= MAX_TEXT);
        assert_eq!(
            (moves(&games[1]), games[1].defect.clone()),
            ("e6".into(), None)
        );
    }

    #[test]
    fn tiny_buffers_read_the_same_games() {
        for text in [VARIANTS, BROKEN] {
            let whole = read(text);
            for cap in [1, 2, 3, 7] {
                let reader = std::io::BufReader::with_capacity(cap, text.as_bytes());
                let chunked: Vec<_> = Reader::new(reader).map(Result::unwrap).collect();
                assert_eq!(chunked, whole, "capacity {cap}");
            }
        }
    }

    #[test]
    fn variants_fixture_reads_as_written() {
        let games = read(VARIANTS);
        assert_eq!(games.len(), 7);
        let summary: Vec<_> = games
            .iter()
            .map(|g| {
                let r = g.replay();
                let s = r.finish.score;
                (
                    g.origin.line.unwrap(),
                    g.moves.len(),
                    r.status(),
                    (s.black_discs, s.white_discs),
                    g.result.map(|r| r.agrees_with(&s)),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (1, 60, Status::Complete, (12, 52), Some(true)),
                (1, 60, Status::Complete, (27, 37), Some(true)),
                (2, 62, Status::Complete, (26, 38), Some(true)),
                (6, 60, Status::Complete, (18, 45), Some(true)),
                (8, 6, Status::Incomplete, (4, 6), None),
                (9, 56, Status::Complete, (12, 52), Some(true)),
                (10, 61, Status::Complete, (40, 24), None),
            ]
        );
        assert_eq!(games[1].result.unwrap().kind, ResultKind::Time);
        assert_eq!(games[2].result.unwrap().kind, ResultKind::Mutual);
        assert_eq!(games[2].notes.len(), 62);
        assert_eq!(games[2].moves[58].token, Token::Move(Move::Pass));
        assert_eq!(
            games[3].notes[56],
            MoveNote {
                eval: Some(-3.5),
                time: Some(0.38)
            }
        );
        assert_eq!(
            extra(&games[3]),
            [("TY", "8"), ("XX", "custom value"), ("ZZ", "after moves")]
        );
        assert_eq!(extra(&games[4]), [("RE", "-127.000")]);
        assert!(!games[5].has_standard_start());
        assert_eq!(games[6].rules, Rules::Anti);
        assert_eq!(games[6].tags.event.as_deref(), Some("kifu test cup"));
        assert_eq!(games[6].tags.black.as_deref(), Some("ivan]s"));
        // Anti: White has fewer discs... no, Black has 40: White wins.
        assert_eq!(games[6].replay().finish.score.winner, Winner::White);
        for g in &games {
            assert_spans_match_source(g);
            assert_round_trip(g);
        }
    }

    #[test]
    fn writer_output_is_exact() {
        let mut g = one(&format!("(;GM[Othello]{STD_BO}B[f5/0.5]W[d6//1.25]B[c3];)"));
        g.tags.site = Some("GGS/os".into());
        g.tags.date = Some("2003.12.15".into());
        g.tags.event = Some("Cup".into());
        g.tags.black = Some("a".into());
        g.tags.white = Some("b".into());
        g.tags.black_rating = Some("1.5".into());
        g.tags.white_rating = Some("2".into());
        g.tags.extra = vec![
            ("TI".into(), "05:00//02:00".into()),
            ("TY".into(), "8".into()),
        ];
        g.result = Some(RecordedResult {
            value: ResultValue::Discs {
                black: 33,
                white: 30,
            },
            kind: ResultKind::Resigned,
        });
        assert_eq!(
            written(&g),
            format!(
                "(;GM[Othello]PC[GGS/os]DT[2003.12.15]EV[Cup]PB[a]PW[b]RB[1.5]RW[2]\
                 TI[05:00//02:00]TY[8]RE[+4.000:r]{STD_BO}B[f5/0.5]W[d6//1.25]B[c3];)\n"
            )
        );
        let mut losses_found = Vec::new();
        losses_found.extend(crate::formats::Format::Ggf.losses_of(&g));
        assert_eq!(losses_found, ["disc counts of results with empty squares"]);
    }

    #[test]
    fn writer_colours_passes_and_unreadable_tokens() {
        // Colours come from the replay: the record below has none.
        let mut g = GameRecord::default();
        for name in ["f5", "d6", "c3"] {
            g.moves
                .push(RecordedMove::new(Move::Play(name.parse().unwrap())));
        }
        g.moves.push(RecordedMove::new(Move::Pass));
        g.moves.push(RecordedMove {
            token: Token::Unreadable,
            color: None,
        });
        g.unreadable.push((4, "zz]".into()));
        assert_eq!(
            written(&g),
            format!("(;GM[Othello]RE[?]{STD_BO}B[f5]W[d6]B[c3]W[PA]B[zz\\]];)\n")
        );
        let back = one(&written(&g));
        assert_eq!(moves(&back), "f5 d6 c3 pass zz]");
        assert_eq!(colors(&back), "BWBWB");
        assert!(back.notes.is_empty());
    }

    #[test]
    fn writer_results() {
        let re = |value, kind, moves: &str| {
            let mut g = GameRecord::default();
            for c in moves.as_bytes().chunks(2) {
                g.moves.push(RecordedMove::new(Move::Play(
                    Square::from_ascii(c).unwrap(),
                )));
            }
            g.result = Some(RecordedResult { value, kind });
            let text = written(&g);
            let at = text.find("RE[").unwrap();
            let mut found = Vec::new();
            found.extend(crate::formats::Format::Ggf.losses_of(&g));
            (
                text[at..at + text[at..].find(']').unwrap() + 1].to_owned(),
                found,
            )
        };
        let k = ResultKind::Score;
        assert_eq!(
            re(ResultValue::Margin(2.0), k, ""),
            ("RE[+2.000]".into(), vec![])
        );
        assert_eq!(
            re(ResultValue::Margin(-22.87), k, ""),
            ("RE[-22.870]".into(), vec![])
        );
        assert_eq!(
            re(ResultValue::Margin(0.1234), k, ""),
            ("RE[+0.1234]".into(), vec![])
        );
        assert_eq!(
            re(ResultValue::Margin(0.0), ResultKind::Mutual, ""),
            ("RE[+0.000:s]".into(), vec![])
        );
        assert_eq!(
            re(ResultValue::Margin(-8.0), ResultKind::Time, ""),
            ("RE[-8.000:t]".into(), vec![])
        );
        assert_eq!(
            re(
                ResultValue::Discs {
                    black: 20,
                    white: 44
                },
                k,
                ""
            ),
            ("RE[-24.000]".into(), vec![])
        );
        assert_eq!(
            re(
                ResultValue::Discs {
                    black: 40,
                    white: 40
                },
                k,
                ""
            ),
            ("RE[?]".into(), vec!["results with more than 64 discs"])
        );
        assert_eq!(
            re(ResultValue::RawMargin(13), k, "f5d6c5f6e7f4g5e6e3"),
            ("RE[+64.000]".into(), vec![])
        );
        assert_eq!(
            re(ResultValue::RawMargin(5), k, "f5d6"),
            (
                "RE[+5.000]".into(),
                vec!["raw disc differences of unfinished games"]
            )
        );
        assert_eq!(
            re(ResultValue::Winner(Winner::Black), k, ""),
            ("RE[?]".into(), vec!["results that name only the winner"])
        );
        assert_eq!(
            re(ResultValue::Margin(70.0), k, ""),
            ("RE[?]".into(), vec!["results beyond 64 discs"])
        );
    }

    #[test]
    fn writer_type_follows_the_rules() {
        let mut g = GameRecord {
            rules: Rules::Anti,
            ..GameRecord::default()
        };
        assert!(written(&g).contains("TY[8a]"));
        g.tags.extra = vec![("TY".into(), "s8kr".into())];
        assert!(written(&g).contains("TY[s8kra]"));
        g.rules = Rules::Standard;
        assert!(written(&g).contains("TY[s8kr]"));
        g.tags.extra = vec![("TY".into(), "8ra".into())];
        assert!(written(&g).contains("TY[8r]"));
        g.tags.extra.clear();
        assert!(!written(&g).contains("TY["));
        assert_eq!(one(&written(&g)).tags.extra, []);
    }

    #[test]
    fn writer_escapes_and_skips_unwritable_tags() {
        let mut g = GameRecord::default();
        g.tags.black = Some(r"a]b\c(;d[e".into());
        g.tags.round = Some("3".into());
        g.theoretical_black_score = Some(40);
        g.tags.extra = vec![
            ("B".into(), "f5".into()),
            ("White Elo".into(), "2000".into()),
            ("KM".into(), "1.5".into()),
        ];
        let text = written(&g);
        assert_eq!(
            text,
            format!("(;GM[Othello]PB[a\\]b\\\\c(\\;d\\[e]KM[1.5]RE[?]{STD_BO};)\n")
        );
        let back = one(&text);
        assert_eq!(back.tags.black, g.tags.black);
        assert!(back.moves.is_empty());
        let mut found = Vec::new();
        found.extend(crate::formats::Format::Ggf.losses_of(&g));
        assert_eq!(
            found,
            ["the round", "the theoretical score", "tags GGF cannot name"]
        );
    }

    #[test]
    fn sniffs_ggf_but_not_sgf() {
        assert!(sniff(b"1 (;GM[Othello]PC[GGS/os]"));
        assert!(sniff(b"(;GM[othello]PC[Edax]"));
        assert!(sniff(b"\xEF\xBB\xBF\r\n  2 (;GM[Othello]"));
        assert!(sniff(b"(;\nGM[Othello]"));
        assert!(!sniff(b"(;FF[4]GM[2]SZ[8]"));
        assert!(!sniff(b"f5d6c3d3c4"));
        assert!(!sniff(b"GM[Othello]"));
        assert!(!sniff(b""));
    }

    /// A small seeded xorshift generator.
    use crate::testkit::Rng;

    /// A legal random game from `start`, explicit passes as GGS writes them.
    fn random_game(rng: &mut Rng, start: Position, limit: usize) -> Vec<(Move, Color)> {
        let mut position = start;
        let mut out = Vec::new();
        while !position.is_game_over() && out.len() < limit {
            let mover = position.side_to_move();
            let legal: Vec<Square> = position.legal_moves().into_iter().collect();
            if legal.is_empty() {
                position.pass();
                out.push((Move::Pass, mover));
                continue;
            }
            let square = legal[rng.below(legal.len())];
            position.play(square).unwrap();
            out.push((Move::Play(square), mover));
        }
        out
    }

    fn random_text(rng: &mut Rng) -> String {
        const PIECES: [&str; 10] = ["a", "Z", "]", "\\", "(;", " ", "é", "[", ";)", "7"];
        (0..rng.below(6))
            .map(|_| PIECES[rng.below(PIECES.len())])
            .collect()
    }

    #[test]
    fn random_games_round_trip() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for n in 0..300 {
            let start = if n % 5 == 0 {
                let mut p = Position::start();
                for (mv, _) in random_game(&mut rng, Position::start(), 10) {
                    match mv {
                        Move::Play(sq) => drop(p.play(sq)),
                        Move::Pass => p.pass(),
                    }
                }
                p
            } else {
                Position::start()
            };
            let mut g = GameRecord::new(start);
            let with_notes = n % 3 == 0;
            for (mv, color) in random_game(&mut rng, start, 60 + n % 7) {
                g.moves.push(RecordedMove {
                    token: Token::Move(mv),
                    color: Some(color),
                });
                if with_notes {
                    let eval =
                        (rng.below(3) > 0).then(|| (rng.below(12_801) as f64 - 6400.0) / 100.0);
                    let time = (rng.below(2) > 0).then(|| rng.below(100_000) as f64 / 1000.0);
                    g.notes.push(MoveNote { eval, time });
                }
            }
            if g.notes.iter().all(|n| *n == MoveNote::default()) {
                g.notes.clear();
            }
            g.tags.black = Some(random_text(&mut rng));
            g.tags.white = Some(random_text(&mut rng));
            g.tags.event = (n % 2 == 0).then(|| random_text(&mut rng));
            g.tags.extra.push(("TI".into(), random_text(&mut rng)));
            if n % 4 == 0 {
                g.rules = Rules::Anti;
                g.tags.extra.push(("TY".into(), "8a".into()));
            }
            let score = g.replay().finish.score;
            g.result = match n % 4 {
                0 => None,
                1 => Some(RecordedResult::new(ResultValue::Margin(
                    f64::from(score.black_score) * 2.0 - 64.0,
                ))),
                2 => Some(RecordedResult {
                    value: ResultValue::Margin(rng.below(129) as f64 - 64.0),
                    kind: ResultKind::Resigned,
                }),
                _ => Some(RecordedResult {
                    value: ResultValue::Margin((rng.below(12_801) as f64 - 6400.0) / 100.0),
                    kind: ResultKind::Mutual,
                }),
            };
            assert_eq!(g.replay().error, None);
            assert_round_trip(&g);
        }
    }

    #[test]
    fn passes_left_out_are_written() {
        // A record without its passes (a transcript, WTHOR) gets them
        // written as GGS writes them, and reads back as the full game.
        let mut rng = Rng(77);
        let mut tested = 0;
        for _ in 0..200 {
            let game = random_game(&mut rng, Position::start(), 60);
            if !game.iter().any(|(m, _)| *m == Move::Pass) {
                continue;
            }
            let mut g = GameRecord::default();
            for (mv, _) in game.iter().filter(|(m, _)| *m != Move::Pass) {
                g.moves.push(RecordedMove::new(*mv));
            }
            let back = one(&written(&g));
            let got: Vec<_> = back.moves.iter().map(|m| (m.token, m.color)).collect();
            // A pass with no move after it is not written.
            let mut expected: Vec<_> = game
                .iter()
                .map(|&(mv, color)| (Token::Move(mv), Some(color)))
                .collect();
            while expected
                .last()
                .is_some_and(|m| m.0 == Token::Move(Move::Pass))
            {
                expected.pop();
            }
            assert_eq!(got, expected);
            assert_eq!(back.replay().finish, g.replay().finish);
            assert_eq!(back.replay().error, None);
            tested += 1;
        }
        assert!(tested > 10, "{tested}");
        // Past an illegal move nothing is inserted: colours follow the record.
        let mut g = GameRecord::default();
        for name in ["f5", "f5", "d6"] {
            g.moves
                .push(RecordedMove::new(Move::Play(name.parse().unwrap())));
        }
        assert!(written(&g).ends_with("B[f5]W[f5]B[d6];)\n"));
    }

    #[test]
    fn random_bytes_keep_positions_and_write_back() {
        const PIECES: [&str; 24] = [
            "(;",
            ";)",
            "GM[Othello]",
            "B[",
            "W[",
            "]",
            "f5",
            "d6",
            "/",
            "//0.01",
            "\\",
            "(",
            "[",
            "\n",
            "PA",
            "pass",
            " ",
            "1 ",
            "RE[+2.000]",
            "TY[8a]",
            "é",
            "\r\n",
            ";",
            "PB[x",
        ];
        let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
        let (mut with_moves, mut with_defects, mut rewritten) = (0, 0, 0);
        for _ in 0..2000 {
            // A few plausible games, then a few mutations.
            let mut input: Vec<u8> = Vec::new();
            for _ in 0..1 + rng.below(3) {
                input.extend_from_slice(b"(;GM[Othello]");
                for _ in 0..rng.below(12) {
                    let piece = match rng.below(4) {
                        0 => "W[d6//0.5]",
                        1 => "B[f5]",
                        2 => "PB[é]",
                        _ => PIECES[rng.below(PIECES.len())],
                    };
                    input.extend_from_slice(piece.as_bytes());
                }
                input.extend_from_slice(if rng.below(5) > 0 { b";)\n" } else { b"\n" });
            }
            for _ in 0..rng.below(4) {
                let at = rng.below(input.len() + 1);
                if rng.below(3) == 0 && at < input.len() {
                    input.remove(at);
                } else if rng.below(2) == 0 {
                    input.insert(at, rng.next() as u8);
                } else {
                    let piece = PIECES[rng.below(PIECES.len())].as_bytes();
                    input.splice(at..at, piece.iter().copied());
                }
            }
            let games: Vec<_> = Reader::new(&input[..]).map(Result::unwrap).collect();
            let chunked: Vec<_> = Reader::new(std::io::BufReader::with_capacity(
                1 + rng.below(5),
                &input[..],
            ))
            .map(Result::unwrap)
            .collect();
            assert_eq!(chunked, games);
            let mut last_byte = None;
            for (i, g) in games.iter().enumerate() {
                assert_eq!(g.origin.index, i as u64 + 1);
                assert!(last_byte < Some(g.origin.byte));
                last_byte = Some(g.origin.byte);
                if let Some(d) = &g.defect {
                    assert!(d.span.byte <= input.len() as u64);
                }
                for (m, span) in g.moves.iter().zip(g.spans.each()) {
                    let at = &input[span.byte as usize..(span.byte + u64::from(span.len)) as usize];
                    // The token as written, escapes and all.
                    let at: Vec<u8> = at.iter().copied().filter(|&b| b != b'\\').collect();
                    if let Token::Move(Move::Play(sq)) = m.token {
                        assert!(
                            at.eq_ignore_ascii_case(&sq.to_ascii()),
                            "{:?} {span:?}",
                            String::from_utf8_lossy(&input)
                        );
                    }
                }
                with_moves += usize::from(!g.moves.is_empty());
                with_defects += usize::from(g.defect.is_some());
                // A defect may come from a kept tag (an unreadable `TY`),
                // which the writer gives back as it was.
                if g.defect.is_some() || g.unreadable.iter().any(|(_, t)| t.contains('/')) {
                    continue;
                }
                rewritten += 1;
                let back = one(&written(g));
                assert_eq!(back.defect, None, "{}", written(g));
                assert_eq!(
                    back.moves.iter().map(|m| m.token).collect::<Vec<_>>(),
                    g.moves.iter().map(|m| m.token).collect::<Vec<_>>()
                );
                assert_eq!(back.unreadable, g.unreadable);
            }
        }
        // The seed exercises games with moves, with defects and clean ones.
        assert_eq!((with_moves, with_defects, rewritten), (2129, 3335, 1190));
    }

    #[test]
    fn corpus_files_read_replay_and_round_trip() {
        let Some(dir) = corpus() else { return };
        let files = [
            ("ggf/ntest-TestGames.ggf", 12),
            ("ggf/nboard-test.ggf", 1),
            ("ggf/nboard-test2.ggf", 3),
            ("ggf/ntest-base.ggf", 1),
            ("ggf/ntest-f5.ggf", 1),
            ("snippets/edax-manual-example.ggf", 1),
        ];
        let mut total = 0;
        for (name, count) in files {
            let games = corpus_games(&dir, name);
            assert_eq!(games.len(), count, "{name}");
            for g in &games {
                total += 1;
                assert_spans_match_source(g);
                let report = g.replay();
                if g.extra_type() == Some("4") {
                    continue;
                }
                assert_eq!(report.error, None, "{name} #{}", g.origin.index);
                if let Some(result) = g.result {
                    assert!(
                        result.agrees_with(&report.finish.score),
                        "{name} #{}",
                        g.origin.index
                    );
                }
                assert_round_trip(g);
            }
        }
        assert_eq!(total, 19);
    }

    #[test]
    fn corpus_ntest_test_games() {
        let Some(dir) = corpus() else { return };
        let games = corpus_games(&dir, "ggf/ntest-TestGames.ggf");
        let lengths: Vec<_> = games.iter().map(|g| g.moves.len()).collect();
        assert_eq!(lengths, [60, 60, 61, 60, 61, 60, 60, 60, 61, 61, 60, 61]);
        let with_pass = games
            .iter()
            .filter(|g| g.moves.iter().any(|m| m.token == Token::Move(Move::Pass)))
            .count();
        assert_eq!(with_pass, 5);
        // MANIFEST says six; the replay finds five, all written explicitly.
        let passes: Vec<u32> = games.iter().map(|g| g.replay().finish.passes).collect();
        assert_eq!(passes, [0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1]);
        for g in &games {
            let report = g.replay();
            assert_eq!(report.status(), Status::Complete);
            assert_eq!(g.notes.len(), g.moves.len());
            assert_eq!(g.tags.site.as_deref(), Some("GGS/os"));
            assert!(g.tags.date.as_deref().unwrap().starts_with("2003.12.1"));
        }
        let results: Vec<_> = games.iter().map(|g| g.result.unwrap().value).collect();
        let mut expected = vec![ResultValue::Margin(0.0); 12];
        expected[6] = ResultValue::Margin(2.0);
        assert_eq!(results, expected);
        let s = games[6].replay().finish.score;
        assert_eq!((s.black_discs, s.white_discs), (33, 31));
        assert_eq!(games[0].tags.black.as_deref(), Some("Saio1200"));
        assert_eq!(
            games[0].notes[7],
            MoveNote {
                eval: Some(2.39),
                time: Some(0.01)
            }
        );
    }

    #[test]
    fn corpus_nboard_test2_sizes_and_komi() {
        let Some(dir) = corpus() else { return };
        let games = corpus_games(&dir, "ggf/nboard-test2.ggf");
        let four = &games[0];
        assert_eq!(defect(four), (1, 90, "unsupported board size 4x4"));
        assert_eq!(four.replay().status(), Status::Invalid);
        assert_eq!(four.tags.date.as_deref(), Some("947375357"));
        let komi = &games[1];
        assert_eq!(komi.defect, None);
        assert!(!komi.has_standard_start());
        assert_eq!(
            komi.start.board().black().count() + komi.start.board().white().count(),
            20
        );
        assert_eq!(
            extra(komi),
            [
                ("TI", "15:00//02:00"),
                ("TY", "8kr20"),
                ("KB", "B3/2.00/27.23"),
                ("KW", "B3/-8.27"),
                ("KM", "-3.133")
            ]
        );
        let report = komi.replay();
        assert_eq!(report.status(), Status::Complete);
        let s = report.finish.score;
        assert_eq!((s.black_discs, s.white_discs), (19, 45));
        assert_eq!(komi.result.unwrap().value, ResultValue::Margin(-22.87));
        assert_eq!(games[2].replay().status(), Status::Complete);
    }

    #[test]
    fn corpus_unfinished_nboard_and_edax_games() {
        let Some(dir) = corpus() else { return };
        let base = &corpus_games(&dir, "ggf/ntest-base.ggf")[0];
        assert_eq!(moves(base), "f5 f6 e6 d6 e7 g5 g6");
        assert_eq!((base.result, base.tags.site.as_deref()), (None, Some("")));
        assert_eq!(base.replay().status(), Status::Incomplete);
        let edax = &corpus_games(&dir, "snippets/edax-manual-example.ggf")[0];
        assert_eq!(moves(edax), "f5 d6 c3 d3 c4");
        assert_eq!((edax.result, extra(edax)), (None, vec![("RE", "-127.000")]));
        assert!(written(edax).contains("RE[-127.000]"));
    }

    trait TypeTag {
        fn extra_type(&self) -> Option<&str>;
    }

    impl TypeTag for GameRecord {
        fn extra_type(&self) -> Option<&str> {
            self.tags
                .extra
                .iter()
                .find(|(n, _)| n == "TY")
                .map(|(_, v)| v.as_str())
        }
    }
}
