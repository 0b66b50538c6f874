//! PGN-style Othello records.
//!
//! There is no Othello PGN standard; this module reads what Othello
//! programs write. Edax: the seven tags plus `Time`, `FEN` for another
//! start, moves `1. f5 d6 2. c3 …` with `pass`, a closing comment
//! `{Name wins 40-24}` and `1-0`/`0-1`/`1/2-1/2`/`*`. Cassio: `Result` and
//! `TheoreticalScore` as disc counts (`34-30`), a `Database` tag, one move
//! pair per line and `--` for the moves after the end of the game. PlayOK:
//! `BlackElo`/`WhiteElo`, `--` for a pass, the disc count repeated after
//! the last move; copies of its move text come without tags. WTHOR dumps
//! (`thor2pgn`): upper-case moves, no blank line after the tags, no
//! result after the moves.
//!
//! Read:
//! - tag pairs `[Name "value"]` (several per line allowed) with `\"` and
//!   `\\`; text is UTF-8, or Latin-1 when it is not valid UTF-8;
//! - `Event`, `Site`, `Date`, `Round`, `Black`, `White` fill the tags
//!   verbatim (`?`, `-` kept, but `?` and `????.??.??` mean unknown);
//!   `BlackElo`/`WhiteElo` the ratings; `Result` the result; `FEN` the
//!   start position; `TheoreticalScore` (also Cassio's `TheoricalScore`)
//!   Black's theoretical score when it is `36-28` or `36`; `Variant
//!   "anti"` the anti rule; `Termination` (`resignation`, `time forfeit`,
//!   `agreement`) the way the game ended when there is a result; `SetUp`
//!   is structural and dropped; every other tag (and a repeated one) is
//!   kept in `tags.extra` in source order;
//! - `FEN` in Edax's form: ranks from row 8 down to row 1 separated by
//!   `/`, `p` a black disc, `P` a white one, digits for empty squares,
//!   then `b` or `w` (`8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1` is the standard
//!   start); `x`/`X`/`b`/`B`/`*` and `o`/`O`/`w`/`W` are also read.
//!   Also a 64-square board `a1…h8` of `-`/`.`/`X`/`O`/`*` and the side;
//! - move text: move numbers `1.`, `1...` (their values are not checked),
//!   squares in either case with optional `!`/`?` suffixes, passes
//!   `pass`, `--`, `PA`, `PS`, `@@`; `{comments}` (over several lines),
//!   `;` comments to the end of the line, `%` escape lines, NAGs `$1` and
//!   variations `( … )` are skipped, so comments are not kept, except
//!   `[%eval x]` and `[%emt t]` (seconds, or `h:mm:ss`) in a comment
//!   right after a move: its evaluation and time ([`MoveNote`]). Trailing
//!   `--` tokens after the last square are Cassio's padding for moves
//!   never played and are dropped. Moves carry no colour (move numbers
//!   are unreliable once passes are left out; the replay finds colours);
//! - results `1-0`, `0-1`, `1/2-1/2` (winner only), `*` (none), disc
//!   counts `34-30` ([`ResultValue::Discs`]), in the `Result` tag and/or
//!   after the moves. The tag wins; a different result after the moves is
//!   kept in `tags.extra` as `MovetextResult`;
//! - games end at a result after the moves, at a blank line after move
//!   text, or at a tag line after move text; several games per file; move
//!   text without tags is a game. Any other text in the move text is an
//!   unreadable move token;
//! - trouble (a malformed tag, a tag pair after move text on the same
//!   line, an unclosed comment or variation, an unmatched `)`/`}`/`]`, a
//!   bad `FEN`) gives the game a defect with its line and
//!   column, keeps the moves before it and skips the rest of the game. A
//!   tag line inside an unclosed comment or variation ends that game;
//! - a game longer than [`GAME_CAP`] bytes keeps what fits and gets a
//!   defect; lines longer than that are read in pieces.
//!
//! Write: `Event`, `Site`, `Date`, `Round`, `Black`, `White`, `Result`
//! (Black before White, as Othello programs write them; `?` and `*` when
//! unknown), then `BlackElo`, `WhiteElo`, `TheoreticalScore`, `Variant`,
//! `Termination`, `FEN` (non-standard start only) when they apply, then
//! the extra tags; a blank line; the moves with numbers (a number at each
//! Black move, `N...` before a White move that follows no Black move)
//! wrapped at 80 columns, each followed by `{[%eval x] [%emt t]}` when the
//! record has an evaluation or time for it (seconds, as GGF keeps them),
//! explicit passes as `pass` (Edax's spelling; `--` would be read back as
//! padding at the end of a game) and no pass where the record has none,
//! unreadable tokens as one word that reads back unreadable; then the
//! result: disc counts for [`ResultValue::Discs`] and for whole margins
//! (empties to the winner), `1-0`/`0-1`/`1/2-1/2` for a winner only, `*`
//! for none. Tag values lose line breaks (PGN has no escape for them).

use std::io::BufRead;
use std::io::Read;

use crate::formats::features::{Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::game::{Move, Winner};
use crate::record::{
    MoveNote, RecordedMove, RecordedResult, ResultKind, ResultValue, Rules, Token,
};
use crate::source::{ParseError, ReadError, Span};
use crate::table::Game;
use crate::{Bitboard, Board, Color, GameRecord, Position, Square};

/// Bytes of one game beyond which the rest of it is skipped (with a
/// defect): it bounds the memory a game can take.
pub const GAME_CAP: usize = 1 << 20;
/// Bytes of source text kept per game for diagnostics.
const TEXT_CAP: usize = 64 << 10;
/// Longest line read at once.
const LINE_CAP: u64 = 1 << 20;

/// Where a piece of a line starts in the input.
#[derive(Clone, Copy, Debug)]
struct LineCtx {
    line: u32,
    byte: u64,
    column: u32,
}

/// Columns within one line, computed forward.
struct LineLoc<'a> {
    line: &'a [u8],
    ctx: LineCtx,
    ascii: bool,
    at: usize,
    column: u32,
}

impl<'a> LineLoc<'a> {
    fn new(line: &'a [u8], ctx: LineCtx) -> LineLoc<'a> {
        LineLoc {
            line,
            ctx,
            ascii: line.is_ascii(),
            at: 0,
            column: ctx.column,
        }
    }

    fn pos(&mut self, offset: usize) -> Span {
        let offset = offset.min(self.line.len());
        let column = if self.ascii {
            self.ctx
                .column
                .saturating_add(u32::try_from(offset).unwrap_or(u32::MAX))
        } else {
            if offset < self.at {
                self.at = 0;
                self.column = self.ctx.column;
            }
            let chars = self
                .line
                .get(self.at..offset)
                .unwrap_or_default()
                .iter()
                .filter(|&&b| b & 0xC0 != 0x80)
                .count();
            self.column = self
                .column
                .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
            self.at = offset;
            self.column
        };
        Span::new(self.ctx.byte + offset as u64, self.ctx.line, column, 0)
    }
}

/// One item of move text.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Lexeme {
    /// A move number of this many bytes (`12.`, `3...`).
    Number(usize),
    /// A result; `None` for `*`.
    Result(Option<ResultValue>),
    Square(Square),
    /// A pass; `true` when spelled with dashes.
    Pass(bool),
    Unreadable,
}

fn small_number(digits: &[u8]) -> Option<u8> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// A result token: `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`, `34-30`.
fn result_token(word: &[u8]) -> Option<Option<ResultValue>> {
    match word {
        b"*" => return Some(None),
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => return Some(Some(ResultValue::Winner(Winner::Draw))),
        _ => {}
    }
    let dash = word.iter().position(|&c| c == b'-')?;
    let (a, b) = (word.get(..dash)?, word.get(dash + 1..)?);
    if a.is_empty() || b.is_empty() || !a.iter().chain(b).all(u8::is_ascii_digit) {
        return None;
    }
    // No position has fewer than four discs, so `1-0` and `0-1` can only
    // name the winner.
    match (small_number(a)?, small_number(b)?) {
        (1, 0) => Some(Some(ResultValue::Winner(Winner::Black))),
        (0, 1) => Some(Some(ResultValue::Winner(Winner::White))),
        (black, white) if u16::from(black) + u16::from(white) <= 64 => {
            Some(Some(ResultValue::Discs { black, white }))
        }
        _ => None,
    }
}

fn classify(word: &[u8]) -> Lexeme {
    if let Some(result) = result_token(word) {
        return Lexeme::Result(result);
    }
    if word.first().is_some_and(u8::is_ascii_digit) {
        let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
        let dots = word
            .get(digits..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| c == b'.')
            .count();
        return if dots > 0 {
            Lexeme::Number(digits + dots)
        } else {
            Lexeme::Unreadable
        };
    }
    if let (Some(name), Some(rest)) = (word.get(..2), word.get(2..)) {
        if let Some(sq) = Square::from_ascii(name) {
            if rest.iter().all(|&c| c == b'!' || c == b'?') {
                return Lexeme::Square(sq);
            }
        }
    }
    if word.len() >= 2 && word.iter().all(|&c| c == b'-') {
        return Lexeme::Pass(true);
    }
    let is = |s: &str| word.eq_ignore_ascii_case(s.as_bytes());
    if is("pass") || is("pa") || is("ps") || word == b"@@" || word == b"@@@@" {
        return Lexeme::Pass(false);
    }
    Lexeme::Unreadable
}

fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';')
}

/// Whether a line starts like a tag pair: `[Name "`.
fn looks_like_tag(line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    let after = rest.get(name..).unwrap_or_default();
    name > 0 && after.trim_ascii_start().first() == Some(&b'"')
}

/// Text from bytes: UTF-8, or Latin-1 when not valid UTF-8.
fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => raw.iter().map(|&b| b as char).collect(),
    }
}

/// A start position from a `FEN` tag value.
fn parse_fen(value: &str) -> Result<Position, String> {
    let mut fields = value.split_ascii_whitespace();
    let Some(board) = fields.next() else {
        return Err("empty FEN".to_owned());
    };
    let mut side = fields.next();
    let (mut black, mut white) = (0u64, 0u64);
    let is_black = |c: char| matches!(c, 'p' | 'x' | 'X' | 'b' | 'B' | '*');
    let is_white = |c: char| matches!(c, 'P' | 'o' | 'O' | 'w' | 'W');
    if board.contains('/') {
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("FEN board has {} ranks, expected 8", ranks.len()));
        }
        for (k, rank) in ranks.iter().enumerate() {
            let row = 7 - k as u8;
            let mut col = 0u8;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    col += d as u8;
                } else if is_black(c) || is_white(c) {
                    if let Some(sq) = Square::from_coords(col, row) {
                        if is_black(c) {
                            black |= sq.mask();
                        } else {
                            white |= sq.mask();
                        }
                    }
                    col += 1;
                } else {
                    return Err(format!("unexpected '{c}' in the FEN board"));
                }
                if col > 8 {
                    break;
                }
            }
            if col != 8 {
                return Err(format!("FEN rank {} has {col} squares, expected 8", 8 - k));
            }
        }
    } else {
        let cells: Vec<char> = board.chars().collect();
        let squares = match cells.len() {
            64 => &cells[..],
            65 if side.is_none() => {
                side = board.get(64..);
                &cells[..64]
            }
            n => return Err(format!("FEN board has {n} squares, expected 64")),
        };
        for (sq, &c) in Square::all().zip(squares) {
            if is_black(c) {
                black |= sq.mask();
            } else if is_white(c) {
                white |= sq.mask();
            } else if c != '-' && c != '.' {
                return Err(format!("unexpected '{c}' in the FEN board"));
            }
        }
    }
    let side = match side.map(|s| s.trim_end_matches(';')) {
        Some("b" | "B" | "x" | "X" | "*") => Color::Black,
        Some("w" | "W" | "o" | "O") => Color::White,
        Some(s) => return Err(format!("FEN side to move {s:?} is not b or w")),
        None => return Err("FEN has no side to move".to_owned()),
    };
    let board = Board::new(Bitboard(black), Bitboard(white))
        .ok_or_else(|| "FEN board has overlapping discs".to_owned())?;
    Ok(Position::new(board, side))
}

/// Edax's FEN for a position.
fn write_fen(position: &Position, out: &mut String) {
    let board = position.board();
    for k in 0..8u8 {
        if k > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for col in 0..8u8 {
            let disc = Square::from_coords(col, 7 - k).and_then(|sq| board.get(sq));
            match disc {
                None => empty += 1,
                Some(color) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(if color == Color::Black { 'p' } else { 'P' });
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
    }
    out.push_str(match position.side_to_move() {
        Color::Black => " b - - 0 1",
        Color::White => " w - - 0 1",
    });
}

fn termination_kind(text: &str) -> Option<ResultKind> {
    match text.trim().to_ascii_lowercase().as_str() {
        "resignation" | "resigned" | "resign" => Some(ResultKind::Resigned),
        "time forfeit" | "time" | "timeout" => Some(ResultKind::Time),
        "agreement" | "mutual agreement" | "agreed" => Some(ResultKind::Mutual),
        _ => None,
    }
}

fn termination_text(kind: ResultKind) -> Option<&'static str> {
    match kind {
        ResultKind::Score => None,
        ResultKind::Resigned => Some("resignation"),
        ResultKind::Time => Some("time forfeit"),
        ResultKind::Mutual => Some("agreement"),
    }
}

/// Black's theoretical score from `36-28` or `36`.
fn theoretical(text: &str) -> Option<u8> {
    let t = text.trim();
    match t.split_once('-') {
        Some((a, b)) => {
            let (a, b): (u8, u8) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            (u16::from(a) + u16::from(b) <= 64).then_some(a)
        }
        None => t.parse().ok().filter(|&a: &u8| a <= 64),
    }
}

/// Whether a tag value means "unknown".
fn unknown(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v.bytes().all(|c| c == b'?' || c == b'.')
}

/// The argument of a `[%name arg]` command in a comment.
fn command<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let start = text.find(&format!("[{name} "))? + name.len() + 2;
    let rest = text.get(start..)?;
    let end = rest.find(']')?;
    Some(rest.get(..end)?.trim())
}

/// Seconds from `1.5` or `h:mm:ss(.f)`.
fn seconds(text: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        total = total * 60.0 + v;
    }
    total.is_finite().then_some(total)
}

/// The comment carrying a move's evaluation and time.
fn note_comment(note: &MoveNote) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(eval) = note.eval {
        parts.push(format!("[%eval {eval}]"));
    }
    if let Some(time) = note.time {
        parts.push(format!("[%emt {time}]"));
    }
    (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(" ")))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Start,
    Tags,
    Moves,
}

/// What a line did to the game being read.
enum Outcome {
    /// The game goes on.
    More,
    /// The game ended; the rest of the line from this offset is not its.
    EndsAt(usize),
    /// The line belongs to the next game.
    EndsBefore,
}

/// The `Result` tag as read.
enum TagResult {
    Parsed(Option<ResultValue>),
    Unparsed,
}

struct Draft {
    rec: GameRecord,
    started: bool,
    phase: Phase,
    blank_after_tags: bool,
    comment: Option<Span>,
    /// The move an open comment follows.
    comment_owner: Option<usize>,
    variation: usize,
    variation_at: Span,
    skipping: bool,
    size: usize,
    text: Vec<u8>,
    tag_result: Option<TagResult>,
    term: Option<(Option<ResultValue>, String)>,
    termination: Option<usize>,
    dashes: usize,
    seen: Vec<&'static str>,
}

impl Draft {
    fn new() -> Draft {
        Draft {
            rec: GameRecord::default(),
            started: false,
            phase: Phase::Start,
            blank_after_tags: false,
            comment: None,
            comment_owner: None,
            variation: 0,
            variation_at: Span::default(),
            skipping: false,
            size: 0,
            text: Vec::new(),
            tag_result: None,
            term: None,
            termination: None,
            dashes: 0,
            seen: Vec::new(),
        }
    }

    fn defect(&mut self, pos: Span, len: usize, message: String) {
        if self.rec.defect.is_none() {
            self.rec.defect = Some(ParseError::at(
                pos.with_len(u32::try_from(len.max(1)).unwrap_or(u32::MAX)),
                message,
            ));
        }
        self.skipping = true;
    }

    fn begin(&mut self, pos: Span) {
        if !self.started {
            self.started = true;
            self.rec.origin.line = Some(pos.line);
            self.rec.origin.byte = pos.byte;
        }
    }

    /// Reads one line (or its rest from `from`).
    fn feed(&mut self, line: &[u8], from: usize, ctx: LineCtx) -> Outcome {
        let was_started = self.started;
        let outcome = self.scan(line, from, ctx);
        if matches!(outcome, Outcome::EndsBefore) || !self.started {
            return outcome;
        }
        // The whole line is kept, from its start, so columns line up.
        let room = TEXT_CAP.saturating_sub(self.text.len());
        self.text
            .extend_from_slice(line.get(..room.min(line.len())).unwrap_or_default());
        let counted = if was_started {
            line.len()
        } else {
            line.len() - from
        };
        self.size = self.size.saturating_add(counted);
        if self.size > GAME_CAP && !self.skipping {
            let pos = LineLoc::new(line, ctx).pos(0);
            self.defect(
                pos,
                1,
                format!("game exceeds {GAME_CAP} bytes; the rest is skipped"),
            );
        }
        outcome
    }

    fn scan(&mut self, line: &[u8], from: usize, ctx: LineCtx) -> Outcome {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let mut loc = LineLoc::new(line, ctx);
        if from == 0 && ctx.column == 1 {
            if self.comment.is_none() && self.variation == 0 {
                if body.first() == Some(&b'%') {
                    return Outcome::More;
                }
                let trimmed = body.trim_ascii_start();
                match trimmed.first() {
                    None => {
                        return match self.phase {
                            Phase::Moves => Outcome::EndsAt(line.len()),
                            Phase::Tags => {
                                self.blank_after_tags = true;
                                Outcome::More
                            }
                            Phase::Start => Outcome::More,
                        };
                    }
                    Some(b'[')
                        if self.phase == Phase::Moves
                            || (self.phase == Phase::Tags && self.blank_after_tags) =>
                    {
                        return Outcome::EndsBefore;
                    }
                    _ => {}
                }
            } else if self.started && looks_like_tag(body) {
                // An unclosed comment or variation would swallow the
                // next game.
                match self.comment {
                    Some(open) => self.defect(open, 1, "unclosed '{' comment".to_owned()),
                    None => {
                        let open = self.variation_at;
                        self.defect(open, 1, "unclosed '(' variation".to_owned());
                    }
                }
                self.comment = None;
                self.variation = 0;
                return Outcome::EndsBefore;
            }
        }
        let n = body.len();
        let mut i = from;
        while i < n {
            let Some(&c) = body.get(i) else { break };
            if self.comment.is_some() {
                let rest = body.get(i..).unwrap_or_default();
                let close = rest.iter().position(|&c| c == b'}');
                let text = rest.get(..close.unwrap_or(rest.len())).unwrap_or_default();
                if let Some(owner) = self.comment_owner {
                    self.annotate(owner, text);
                }
                match close {
                    Some(k) => {
                        i += k + 1;
                        self.comment = None;
                        self.comment_owner = None;
                        continue;
                    }
                    None => return Outcome::More,
                }
            }
            if self.variation > 0 {
                match c {
                    b'(' => self.variation += 1,
                    b')' => self.variation -= 1,
                    b'{' => self.comment = Some(loc.pos(i)),
                    b';' => return Outcome::More,
                    _ => {}
                }
                i += 1;
                continue;
            }
            match c {
                c if c.is_ascii_whitespace() => i += 1,
                b'{' => {
                    self.comment = Some(loc.pos(i));
                    // A comment right after a move may annotate it.
                    self.comment_owner = match self.phase {
                        Phase::Moves if !self.skipping => self.rec.moves.len().checked_sub(1),
                        _ => None,
                    };
                    i += 1;
                }
                b';' => return Outcome::More,
                b'(' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.variation = 1;
                    self.variation_at = pos;
                    i += 1;
                }
                b')' | b'}' | b']' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.defect(pos, 1, format!("unmatched '{}'", char::from(c)));
                    i += 1;
                }
                b'[' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    i = self.tag(body, i, &mut loc);
                }
                b'$' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    i += 1;
                    while body.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                }
                _ => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.phase = Phase::Moves;
                    let mut j = i;
                    while body.get(j).is_some_and(|&c| !is_delimiter(c)) {
                        j += 1;
                    }
                    // Every delimiter is handled above; never stand still.
                    j = j.max(i + 1);
                    let word = body.get(i..j).unwrap_or_default();
                    match classify(word) {
                        Lexeme::Number(len) => {
                            i += len;
                            continue;
                        }
                        Lexeme::Result(value) => {
                            self.term = Some((value, decode(word)));
                            return Outcome::EndsAt(j);
                        }
                        Lexeme::Square(sq) => {
                            self.push(Token::Move(Move::Play(sq)), pos, word, false)
                        }
                        Lexeme::Pass(dashes) => {
                            self.push(Token::Move(Move::Pass), pos, word, dashes)
                        }
                        Lexeme::Unreadable => self.push(Token::Unreadable, pos, word, false),
                    }
                    i = j;
                }
            }
        }
        Outcome::More
    }

    /// Reads `[%eval x]` and `[%emt t]` in a comment after move `owner`.
    fn annotate(&mut self, owner: usize, text: &[u8]) {
        let text = String::from_utf8_lossy(text);
        let eval = command(&text, "%eval").and_then(|v| v.parse::<f64>().ok());
        let time = command(&text, "%emt").and_then(seconds);
        if eval.is_none() && time.is_none() {
            return;
        }
        let notes = &mut self.rec.notes;
        if notes.len() <= owner {
            notes.resize(owner + 1, MoveNote::default());
        }
        if let Some(note) = notes.get_mut(owner) {
            note.eval = eval.or(note.eval);
            note.time = time.or(note.time);
        }
    }

    /// Records a move token; `dashes` marks a `--` pass, which may be
    /// Cassio's padding when nothing but such passes follows.
    fn push(&mut self, token: Token, pos: Span, word: &[u8], dashes: bool) {
        if self.skipping {
            return;
        }
        self.dashes = if dashes { self.dashes + 1 } else { 0 };
        if token == Token::Unreadable {
            let index = self.rec.moves.len();
            self.rec.unreadable.push((index, decode(word).into()));
        }
        self.rec.moves.push(RecordedMove { token, color: None });
        self.rec.spans.push(Span {
            byte: pos.byte,
            line: pos.line,
            column: pos.column,
            len: u32::try_from(word.len()).unwrap_or(u32::MAX),
        });
    }

    /// Reads a tag pair at `body[open] == '['`; returns where to go on.
    fn tag(&mut self, body: &[u8], open: usize, loc: &mut LineLoc<'_>) -> usize {
        let n = body.len();
        if self.phase == Phase::Moves {
            let pos = loc.pos(open);
            self.defect(pos, 1, "tag pair inside the move text".to_owned());
            return n;
        }
        self.phase = Phase::Tags;
        let mut i = open + 1;
        let skip_ws = |i: &mut usize| {
            while body.get(*i).is_some_and(u8::is_ascii_whitespace) {
                *i += 1;
            }
        };
        skip_ws(&mut i);
        let name_at = i;
        while body
            .get(i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
        {
            i += 1;
        }
        let name = decode(body.get(name_at..i).unwrap_or_default());
        if name.is_empty() {
            let pos = loc.pos(name_at);
            self.defect(pos, 1, "expected a tag name after '['".to_owned());
            return n;
        }
        skip_ws(&mut i);
        if body.get(i) != Some(&b'"') {
            let pos = loc.pos(i);
            self.defect(pos, 1, format!("expected '\"' after the tag name {name}"));
            return n;
        }
        i += 1;
        let mut raw = Vec::new();
        loop {
            match body.get(i) {
                None => {
                    let pos = loc.pos(open);
                    self.defect(pos, n - open, "unterminated tag value".to_owned());
                    return n;
                }
                Some(b'\\') if matches!(body.get(i + 1), Some(b'"' | b'\\')) => {
                    raw.extend(body.get(i + 1));
                    i += 2;
                }
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(&c) => {
                    raw.push(c);
                    i += 1;
                }
            }
        }
        skip_ws(&mut i);
        if body.get(i) != Some(&b']') {
            let pos = loc.pos(i);
            self.defect(pos, 1, "expected ']' after the tag value".to_owned());
            return n;
        }
        i += 1;
        if !self.skipping {
            let pos = loc.pos(open);
            self.apply_tag(name, decode(&raw), pos, i - open);
        }
        i
    }

    fn apply_tag(&mut self, name: String, value: String, pos: Span, len: usize) {
        let lower = name.to_ascii_lowercase();
        let key: &'static str = match lower.as_str() {
            "event" => "event",
            "site" => "site",
            "date" => "date",
            "round" => "round",
            "black" => "black",
            "white" => "white",
            "blackelo" => "blackelo",
            "whiteelo" => "whiteelo",
            "result" => "result",
            "fen" => "fen",
            "setup" => "setup",
            "theoreticalscore" | "theoricalscore" => "theoretical",
            "variant" => "variant",
            "termination" => "termination",
            _ => "",
        };
        let tags = &mut self.rec.tags;
        let slot = match key {
            "event" => Some(&mut tags.event),
            "site" => Some(&mut tags.site),
            "date" => Some(&mut tags.date),
            "round" => Some(&mut tags.round),
            "black" => Some(&mut tags.black),
            "white" => Some(&mut tags.white),
            "blackelo" => Some(&mut tags.black_rating),
            "whiteelo" => Some(&mut tags.white_rating),
            _ => None,
        };
        match slot {
            // Unknown (`?`) leaves the field open to a later value.
            Some(_) if unknown(&value) => return,
            Some(slot) if slot.is_none() => {
                *slot = Some(value);
                return;
            }
            Some(_) => {
                self.rec.tags.extra.push((name, value));
                return;
            }
            None => {}
        }
        if key.is_empty() || self.seen.contains(&key) {
            if !matches!(key, "fen" | "setup") {
                self.rec.tags.extra.push((name, value));
            }
            return;
        }
        self.seen.push(key);
        match key {
            "result" => {
                let t = value.trim();
                self.tag_result = Some(if t == "?" {
                    TagResult::Parsed(None)
                } else if let Some(v) = result_token(t.as_bytes()) {
                    TagResult::Parsed(v)
                } else {
                    self.rec.tags.extra.push((name, value));
                    TagResult::Unparsed
                });
            }
            "fen" => match parse_fen(&value) {
                Ok(position) => self.rec.start = position,
                Err(message) => self.defect(pos, len, message),
            },
            "theoretical" => match theoretical(&value) {
                Some(score) => self.rec.theoretical_black_score = Some(score),
                None => self.rec.tags.extra.push((name, value)),
            },
            "variant" if value.trim().eq_ignore_ascii_case("anti") => {
                self.rec.rules = Rules::Anti;
            }
            "termination" => {
                self.termination = Some(self.rec.tags.extra.len());
                self.rec.tags.extra.push((name, value));
            }
            "setup" => {}
            _ => self.rec.tags.extra.push((name, value)),
        }
    }

    fn finish(mut self, index: u64) -> GameRecord {
        if let Some(open) = self.comment {
            self.defect(open, 1, "unclosed '{' comment".to_owned());
        }
        if self.variation > 0 {
            let open = self.variation_at;
            self.defect(open, 1, "unclosed '(' variation".to_owned());
        }
        let keep = self.rec.moves.len().saturating_sub(self.dashes);
        self.rec.moves.truncate(keep);
        self.rec.spans.truncate(keep);
        if !self.rec.notes.is_empty() {
            self.rec.notes.resize(keep, MoveNote::default());
        }
        let tag_value = match &self.tag_result {
            Some(TagResult::Parsed(v)) => *v,
            _ => None,
        };
        let term_value = self.term.as_ref().and_then(|(v, _)| *v);
        if let (Some(t), Some((Some(m), text))) = (tag_value, &self.term) {
            if t != *m {
                self.rec
                    .tags
                    .extra
                    .push(("MovetextResult".to_owned(), text.clone()));
            }
        }
        self.rec.result = tag_value.or(term_value).map(RecordedResult::new);
        if let (Some(k), Some(result)) = (self.termination, self.rec.result.as_mut()) {
            let kind = self
                .rec
                .tags
                .extra
                .get(k)
                .and_then(|(_, v)| termination_kind(v));
            if let Some(kind) = kind {
                result.kind = kind;
                self.rec.tags.extra.remove(k);
            }
        }
        self.rec.origin.index = index;
        self.rec.origin.text = Some(String::from_utf8_lossy(&self.text).into());
        self.rec
    }
}

/// Streams games from a PGN file, one [`GameRecord`] per game.
///
/// ```
/// use kifu::formats::pgn::Reader;
/// use kifu::ResultValue;
///
/// let text = "[Black \"Ann\"]\n[Result \"38-26\"]\n\n1. f5 d6 2. c3 -- 38-26\n\n1. d3 *\n";
/// let games: Vec<_> = Reader::new(text.as_bytes()).collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].move_string(), "f5d6c3");
/// assert_eq!(games[0].tags.black.as_deref(), Some("Ann"));
/// assert_eq!(
///     games[0].result.unwrap().value,
///     ResultValue::Discs { black: 38, white: 26 }
/// );
/// assert_eq!((games[1].origin.line, games[1].span(0).unwrap().column), (Some(6), 4));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub struct Reader<R> {
    input: R,
    line: Vec<u8>,
    ctx: LineCtx,
    next: LineCtx,
    cursor: Option<usize>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        let start = LineCtx {
            line: 1,
            byte: 0,
            column: 1,
        };
        Reader {
            input,
            line: Vec::with_capacity(256),
            ctx: start,
            next: start,
            cursor: None,
            games: 0,
            failed: false,
        }
    }

    /// Reads the next line (or piece of a long line); `false` at the end.
    fn read_line(&mut self) -> std::io::Result<bool> {
        self.line.clear();
        let n = (&mut self.input)
            .take(LINE_CAP)
            .read_until(b'\n', &mut self.line)?;
        if n == 0 {
            return Ok(false);
        }
        self.ctx = self.next;
        let byte = self.ctx.byte + n as u64;
        self.next = if self.line.last() == Some(&b'\n') {
            LineCtx {
                line: self.ctx.line.saturating_add(1),
                byte,
                column: 1,
            }
        } else {
            let chars = self.line.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            LineCtx {
                line: self.ctx.line,
                byte,
                column: self
                    .ctx
                    .column
                    .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX)),
            }
        };
        if self.ctx.byte == 0 && self.line.starts_with(b"\xEF\xBB\xBF") {
            // A byte order mark is not part of the first line's text.
            self.line.drain(..3);
            self.ctx.byte = 3;
        }
        Ok(true)
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut game = Draft::new();
        loop {
            let from = match self.cursor.take() {
                Some(from) => from,
                None => match self.read_line() {
                    Ok(true) => 0,
                    Ok(false) => break,
                    Err(e) => {
                        self.failed = true;
                        return Some(Err(ReadError::Io(e)));
                    }
                },
            };
            match game.feed(&self.line, from, self.ctx) {
                Outcome::More => {}
                Outcome::EndsAt(at) => {
                    if at < self.line.len() {
                        self.cursor = Some(at);
                    }
                    break;
                }
                Outcome::EndsBefore => {
                    self.cursor = Some(from);
                    break;
                }
            }
        }
        if !game.started {
            return None;
        }
        self.games += 1;
        Some(Ok(game.finish(self.games)))
    }
}

/// The text of a result: disc counts when known, else the winner.
fn result_text(result: Option<&RecordedResult>) -> String {
    let Some(result) = result else {
        return "*".to_owned();
    };
    let winner = || match result.winner() {
        Some(Winner::Black) => "1-0".to_owned(),
        Some(Winner::White) => "0-1".to_owned(),
        Some(Winner::Draw) => "1/2-1/2".to_owned(),
        None => "*".to_owned(),
    };
    match result.value {
        ResultValue::Discs { black, white } if u16::from(black) + u16::from(white) <= 64 => {
            format!("{black}-{white}")
        }
        ResultValue::Discs { .. } => winner(),
        ResultValue::Margin(_) => match result.black_score() {
            Some(b) => format!("{b}-{}", 64 - b),
            None => winner(),
        },
        ResultValue::RawMargin(_) | ResultValue::Winner(_) => winner(),
    }
}

/// A tag name PGN can hold: letters, digits and `_`.
fn tag_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        "Tag".to_owned()
    } else {
        clean
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// An unreadable token as written: one word that reads back unreadable.
fn unreadable_word(text: &str) -> String {
    let mut word: String = text
        .chars()
        .map(|c| {
            if c.is_whitespace() || "{}()[];\"%$".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    if word.is_empty() {
        word.push('?');
    }
    if classify(word.as_bytes()) != Lexeme::Unreadable {
        word.insert(0, '_');
    }
    word
}

/// Writes one game: tags, a blank line, the moves, the result.
///
/// ```
/// use kifu::formats::pgn::{write_record, Reader};
///
/// let game = Reader::new(&b"[Event \"Cup\"]\n1. f5 d6 1-0\n"[..]).next().unwrap()?;
/// let mut out = String::new();
/// write_record(&game, &mut out);
/// assert!(out.starts_with("[Event \"Cup\"]\n[Site \"?\"]\n"));
/// assert!(out.ends_with("[Result \"1-0\"]\n\n1. f5 d6 1-0\n\n"));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying).
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    let t = &record.tags;
    let result = result_text(record.result.as_ref());
    let or = |v: &Option<String>, d: &'static str| v.clone().unwrap_or_else(|| d.to_owned());
    push_tag(out, "Event", &or(&t.event, "?"));
    push_tag(out, "Site", &or(&t.site, "?"));
    push_tag(out, "Date", &or(&t.date, "????.??.??"));
    push_tag(out, "Round", &or(&t.round, "?"));
    push_tag(out, "Black", &or(&t.black, "?"));
    push_tag(out, "White", &or(&t.white, "?"));
    push_tag(out, "Result", &result);
    if let Some(r) = &t.black_rating {
        push_tag(out, "BlackElo", r);
    }
    if let Some(r) = &t.white_rating {
        push_tag(out, "WhiteElo", r);
    }
    if let Some(b) = record.theoretical_black_score.filter(|&b| b <= 64) {
        push_tag(out, "TheoreticalScore", &format!("{b}-{}", 64 - b));
    }
    if record.rules == Rules::Anti {
        push_tag(out, "Variant", "anti");
    }
    if let Some(text) = record.result.and_then(|r| termination_text(r.kind)) {
        push_tag(out, "Termination", text);
    }
    if !record.has_standard_start() {
        let mut fen = String::new();
        write_fen(&record.start, &mut fen);
        push_tag(out, "FEN", &fen);
    }
    for (name, value) in &t.extra {
        if name.eq_ignore_ascii_case("fen") || name.eq_ignore_ascii_case("setup") {
            continue;
        }
        push_tag(out, &tag_name(name), value);
    }
    out.push('\n');
    let colors: Vec<Color> = record.plies(game.report).map(|t| t.color).collect();
    let mut words: Vec<String> = Vec::with_capacity(record.moves.len() * 3 / 2 + 1);
    let mut number = 0u32;
    let mut after_black = false;
    for (i, m) in record.moves.iter().enumerate() {
        let color = colors.get(i).copied().unwrap_or(Color::Black);
        if color == Color::Black {
            number += 1;
            words.push(format!("{number}."));
        } else if !after_black {
            number += 1;
            words.push(format!("{number}..."));
        }
        after_black = color == Color::Black;
        words.push(match m.token {
            Token::Move(Move::Play(sq)) => sq.to_string(),
            Token::Move(Move::Pass) => "pass".to_owned(),
            Token::Unreadable => unreadable_word(&record.token_text(i)),
        });
        if let Some(comment) = record.notes.get(i).and_then(note_comment) {
            words.push(comment);
        }
    }
    words.push(result);
    let mut width = 0;
    for word in &words {
        let len = word.chars().count();
        if width > 0 && width + 1 + len > 80 {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += len;
    }
    out.push_str("\n\n");
}

/// The PGN row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Pgn,
    name: "pgn",
    aliases: &[],
    extensions: &["pgn"],
    summary: "tag pairs and numbered move text, as Othello programs write PGN",
    sniff,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&Pgn),
    writable: true,
    carries_status: false,
    loses: Features::of_list(&[
        Feature::RawMargin,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[
        Check {
            loss: "move colours after an illegal move",
            applies: colours_after_an_error,
        },
        Check {
            loss: "results with more than 64 discs",
            applies: |g| {
                matches!(g.record.result.map(|r| r.value),
                    Some(ResultValue::Discs { black, white }) if u16::from(black) + u16::from(white) > 64)
            },
        },
        Check {
            loss: "result margins that are not disc counts",
            applies: |g| {
                g.record.result.is_some_and(|r| {
                    matches!(r.value, ResultValue::Margin(_)) && r.black_score().is_none()
                })
            },
        },
        Check {
            loss: "line breaks in tag values",
            applies: |g| {
                let t = &g.record.tags;
                [
                    &t.event,
                    &t.site,
                    &t.date,
                    &t.round,
                    &t.black,
                    &t.white,
                    &t.black_rating,
                    &t.white_rating,
                ]
                .iter()
                .filter_map(|v| v.as_deref())
                .chain(t.extra.iter().map(|(_, v)| v.as_str()))
                .any(|v| v.contains(['\n', '\r']))
            },
        },
        Check {
            loss: "tag names that are not PGN tag names",
            applies: |g| {
                g.record
                    .tags
                    .extra
                    .iter()
                    .any(|(name, _)| tag_name(name) != *name)
            },
        },
        Check {
            loss: "the spelling of unreadable moves",
            applies: |g| {
                g.record
                    .unreadable
                    .iter()
                    .any(|(_, text)| unreadable_word(text) != **text)
            },
        },
    ],
};

/// Whether the record gives moves after an illegal one colours that PGN,
/// which numbers moves and keeps no colours, would not give back.
fn colours_after_an_error(game: &Game<'_>) -> bool {
    let mut plain = None;
    for turn in game.record.plies(game.report) {
        let expected = plain.unwrap_or(turn.color);
        if !turn.legal && turn.color != expected {
            return true;
        }
        plain = Some(expected.opponent());
    }
    false
}

/// Writes PGN.
struct Pgn;

impl TextFormat for Pgn {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_game(game, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}

/// Whether the first bytes look like PGN: a tag pair `[Name "…"]`, or
/// move text starting `1.` and a square or pass (PlayOK copies).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let mut head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    loop {
        head = head.trim_ascii_start();
        if head.first() == Some(&b'%') {
            let end = head.iter().position(|&c| c == b'\n').unwrap_or(head.len());
            head = head.get(end..).unwrap_or_default();
        } else {
            break;
        }
    }
    if looks_like_tag(head) {
        return true;
    }
    let digits = head.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = head.get(digits..).unwrap_or_default();
    let dots = rest.iter().take_while(|&&c| c == b'.').count();
    if digits == 0 || dots == 0 {
        return false;
    }
    let rest = rest.get(dots..).unwrap_or_default().trim_ascii_start();
    let end = rest
        .iter()
        .position(|&c| is_delimiter(c))
        .unwrap_or(rest.len());
    matches!(
        classify(rest.get(..end).unwrap_or_default()),
        Lexeme::Square(_) | Lexeme::Pass(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{MoveNote, Origin, Tags};
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

    fn defect(r: &GameRecord) -> (String, u32, u32) {
        let d = r.defect.as_ref().expect("a defect");
        (d.message.clone(), d.span.line, d.span.column)
    }

    fn written(r: &GameRecord) -> String {
        let mut out = String::new();
        write_record(r, &mut out);
        out
    }

    fn extra(r: &GameRecord) -> Vec<(&str, &str)> {
        r.tags
            .extra
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    fn bare(r: &GameRecord) -> GameRecord {
        let mut r = r.clone();
        r.spans = crate::MoveSpans::Unknown;
        r.origin = Origin::default();
        r
    }

    fn discs(black: u8, white: u8) -> Option<RecordedResult> {
        Some(RecordedResult::new(ResultValue::Discs { black, white }))
    }

    fn winner(w: Winner) -> Option<RecordedResult> {
        Some(RecordedResult::new(ResultValue::Winner(w)))
    }

    use crate::testkit::corpus;

    const EDAX: &str = include_str!("../../fixtures/pgn/edax-style.pgn");
    const CASSIO: &str = include_str!("../../fixtures/pgn/cassio-style.pgn");
    const THOR: &str = include_str!("../../fixtures/pgn/thor-style.pgn");
    const PLAYOK: &str = include_str!("../../fixtures/pgn/playok-style.pgn");
    const VARIANTS: &str = include_str!("../../fixtures/pgn/variants.pgn");
    const BROKEN: &str = include_str!("../../fixtures/pgn/broken.pgn");

    #[test]
    fn corpus_playok_game() {
        let Some(dir) = corpus() else { return };
        let file = std::fs::File::open(dir.join("snippets/playok-reversi-2020-05-05.pgn")).unwrap();
        let games: Vec<GameRecord> = Reader::new(std::io::BufReader::new(file))
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.moves.len(), 61);
        assert_eq!(g.moves[56].token, Token::Move(Move::Pass));
        assert_eq!(g.result, discs(38, 26));
        assert_eq!(g.tags.site.as_deref(), Some("PlayOK"));
        assert_eq!(g.tags.event, None);
        assert_eq!(g.tags.round.as_deref(), Some("-"));
        assert_eq!(g.tags.date.as_deref(), Some("2020.05.05"));
        assert_eq!(g.tags.black.as_deref(), Some("t7m4o1k9a"));
        assert_eq!(g.tags.white.as_deref(), Some("cafego"));
        assert_eq!(g.tags.black_rating.as_deref(), Some("1073"));
        assert_eq!(g.tags.white_rating.as_deref(), Some("1183"));
        assert_eq!(extra(g), [("Time", "11:24:48"), ("TimeControl", "300")]);
        assert_eq!(g.defect, None);
        let pass = g.span(56).unwrap();
        assert_eq!((pass.line, pass.column, pass.len), (16, 38, 2));
        assert_eq!(g.origin.line_text(16).map(|l| &l[37..39]), Some("--"));
        let report = g.replay();
        assert_eq!(report.error, None);
        let score = report.final_score().unwrap();
        assert_eq!((score.black_discs, score.white_discs), (38, 26));
        assert!(g.result.unwrap().agrees_with(&score));
        assert_eq!(bare(&one(&written(g))), bare(g));
    }

    #[test]
    fn edax_style_fixture() {
        let games = read(EDAX);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.moves.len(), 60);
        assert_eq!(g.moves[57].token, Token::Move(Move::Pass));
        assert_eq!(g.result, winner(Winner::Black));
        assert_eq!(
            (g.tags.event.as_deref(), g.tags.site.as_deref()),
            (None, Some("edax"))
        );
        assert_eq!(g.tags.date.as_deref(), Some("2024.3.1"));
        assert_eq!(g.tags.round, None);
        assert_eq!(extra(g), [("Time", "12.30.5")]);
        let report = g.replay();
        assert_eq!(report.error, None);
        let score = report.final_score().unwrap();
        assert_eq!(
            (score.black_discs, score.white_discs, score.black_score),
            (39, 24, 40)
        );
        let g = &games[1];
        assert_eq!(g.origin.line, Some(17));
        assert_eq!(g.start.side_to_move(), Color::White);
        assert_eq!(g.start.board().black().count(), 4);
        assert_eq!(tokens(g), "d6 c3 d3 c4");
        assert_eq!((g.result, g.tags.black.as_deref()), (None, None));
        assert_eq!(g.replay().status(), Status::Incomplete);
    }

    #[test]
    fn cassio_style_fixture_drops_the_padding() {
        let games = read(CASSIO);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.moves.len(), 59);
        assert_eq!(g.result, discs(36, 28));
        assert_eq!(g.theoretical_black_score, Some(34));
        assert_eq!(extra(g), [("Database", "WTH_2001.wtb")]);
        assert_eq!(g.tags.date.as_deref(), Some("2001.01.01"));
        let score = g.replay().final_score().unwrap();
        assert_eq!(
            (score.black_discs, score.white_discs, score.black_score),
            (35, 28, 36)
        );
        assert!(g.result.unwrap().agrees_with(&score));
        let g = &games[1];
        assert_eq!(tokens(g), "f5 d6 c5 f6 e7 f4 g5 e6 e3");
        assert_eq!(
            (g.result, g.theoretical_black_score),
            (discs(64, 0), Some(64))
        );
        assert_eq!(g.replay().final_score().unwrap().black_score, 64);
    }

    #[test]
    fn thor_style_fixture_without_terminators() {
        let games = read(THOR);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].moves.len(), games[0].result), (59, discs(40, 24)));
        assert_eq!(games[0].tags.event.as_deref(), Some("Test Cup - 2010"));
        assert_eq!(games[0].tags.date.as_deref(), Some("2010"));
        assert_eq!(games[1].origin.line, Some(37));
        assert_eq!(
            tokens(&games[1]),
            "f5 f4 c3 f6 g7 f7 f3 h7 f8 b2 h6 e7 h8 e3 d7 g3 f2 f1 a1 c5"
        );
        for g in &games {
            let score = g.replay().final_score().unwrap();
            assert!(g.result.unwrap().agrees_with(&score));
        }
    }

    #[test]
    fn playok_style_fixture_and_move_text_without_tags() {
        let games = read(PLAYOK);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.moves.len(), 61);
        assert_eq!(g.moves[59].token, Token::Move(Move::Pass));
        assert_eq!(g.result, discs(29, 35));
        let score = g.replay().final_score().unwrap();
        assert_eq!((score.black_discs, score.white_discs), (29, 35));
        let g = &games[1];
        assert_eq!(g.moves.len(), 20);
        assert_eq!(g.tags, Tags::default());
        assert_eq!((g.result, g.origin.line), (None, Some(18)));
        assert_eq!(g.replay().status(), Status::Incomplete);
    }

    #[test]
    fn variants_fixture() {
        let games = read(VARIANTS);
        assert_eq!(games.len(), 4);
        let g = &games[0];
        assert_eq!(g.origin.line, Some(2));
        assert_eq!(g.tags.event.as_deref(), Some("Club \"Night\" Cup"));
        assert_eq!(g.tags.site.as_deref(), Some("Back\\slash Hall"));
        assert_eq!(g.tags.date.as_deref(), Some("2022.??.??"));
        assert_eq!(g.tags.round.as_deref(), Some("4"));
        assert_eq!(
            extra(g),
            [("Annotator", "someone"), ("Event", "a repeated tag")]
        );
        assert_eq!(tokens(g), "f5 d6 c3 d3 c4 f4 f6");
        assert_eq!(g.result, winner(Winner::Black));
        assert_eq!(g.replay().error, None);
        assert_eq!(
            (
                g.span(1).unwrap().line,
                g.span(1).unwrap().column,
                g.span(1).unwrap().len
            ),
            (11, 27, 3)
        );
        let g = &games[1];
        assert_eq!(g.rules, Rules::Anti);
        assert_eq!(
            g.result,
            Some(RecordedResult {
                value: ResultValue::Winner(Winner::White),
                kind: ResultKind::Time
            })
        );
        assert!(g.tags.extra.is_empty());
        assert_eq!(g.start.side_to_move(), Color::White);
        assert_eq!(tokens(g), "d6 c3 d3");
        assert_eq!(g.replay().error, None);
        let g = &games[2];
        assert_eq!(g.result, discs(40, 24));
        assert_eq!(extra(g), [("MovetextResult", "1-0")]);
        let g = &games[3];
        assert_eq!(tokens(g), "f5 xx i9");
        assert_eq!(g.unreadable.len(), 2);
        assert_eq!(g.result, None);
    }

    #[test]
    fn broken_fixture() {
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
            ("f5 d6", "4:10 unclosed '{' comment"),
            ("f5 f6", ""),
            ("", "12:1 unterminated tag value"),
            ("", "18:1 FEN board has 7 ranks, expected 8"),
            ("f5 d6", "24:10 unmatched ')'"),
            ("f5 d6", "28:10 tag pair inside the move text"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, want);
        assert_eq!(games[1].tags.event.as_deref(), Some("Fine"));
        assert_eq!(games[3].tags.event.as_deref(), Some("Bad FEN"));
        assert_eq!(games[0].origin.line_text(4), Some("1. f5 d6 {never closed"));
    }

    #[test]
    fn tag_pair_syntax() {
        let g = one("[Event \"a\"] [Site\"b\"]\n[ Round   \"c\\\\d\"  ]\n\n1. f5 *");
        assert_eq!(
            (
                g.tags.event.as_deref(),
                g.tags.site.as_deref(),
                g.tags.round.as_deref()
            ),
            (Some("a"), Some("b"), Some("c\\d"))
        );
        let cases = [
            (
                "[Event x]\n1. f5 *",
                "expected '\"' after the tag name Event",
                8,
            ),
            ("[ \"x\"]\n1. f5 *", "expected a tag name after '['", 3),
            (
                "[Event \"x\"\n1. f5 *",
                "expected ']' after the tag value",
                11,
            ),
            ("[Event \"x]\n1. f5 *", "unterminated tag value", 1),
        ];
        for (text, message, column) in cases {
            let g = one(text);
            assert_eq!(defect(&g), (message.to_owned(), 1, column), "{text}");
            assert_eq!(g.moves.len(), 0, "{text}");
        }
    }

    #[test]
    fn repeated_tags() {
        let g = one("[BlackElo \"?\"]\n[BlackElo \"1500\"]\n[Event \"a\"]\n[Event \"b\"]\n[FEN \"8/8/8/3pP3/3Pp3/8/8/8 w\"]\n[FEN \"junk\"]\n*");
        assert_eq!(g.tags.black_rating.as_deref(), Some("1500"));
        assert_eq!(g.tags.event.as_deref(), Some("a"));
        assert_eq!(extra(&g), [("Event", "b")]);
        assert_eq!((g.start.side_to_move(), g.defect), (Color::White, None));
    }

    #[test]
    fn move_numbers_annotations_and_case() {
        for text in [
            "1. f5 d6 2. c3",
            "1.f5 d6 2.c3",
            "1. F5 D6\n3. C3",
            "1... f5 2... d6 c3",
            "1. f5! d6?! 2. c3!!",
            "f5 d6 c3",
        ] {
            assert_eq!(tokens(&one(text)), "f5 d6 c3", "{text}");
        }
    }

    #[test]
    fn every_pass_spelling_and_cassio_padding() {
        for pass in ["pass", "PASS", "--", "---", "PA", "pa", "ps", "@@", "@@@@"] {
            let g = one(&format!("1. f5 {pass} 2. d3 *"));
            assert_eq!(tokens(&g), "f5 pass d3", "{pass}");
        }
        assert_eq!(tokens(&one("1. f5 d6 2. c3 -- 3. -- -- *")), "f5 d6 c3");
        assert_eq!(tokens(&one("1. f5 d6 2. c3 pass *")), "f5 d6 c3 pass");
        assert_eq!(tokens(&one("1. f5 -- 2. -- d6 *")), "f5 pass pass d6");
    }

    #[test]
    fn results_in_tag_and_move_text() {
        let r = |text: &str| one(text).result;
        assert_eq!(r("1. f5 1-0"), winner(Winner::Black));
        assert_eq!(r("1. f5 0-1"), winner(Winner::White));
        assert_eq!(r("1. f5 1/2-1/2"), winner(Winner::Draw));
        assert_eq!(r("1. f5 ½-½"), winner(Winner::Draw));
        assert_eq!(r("1. f5 *"), None);
        assert_eq!(r("1. f5 34-30"), discs(34, 30));
        assert_eq!(r("1. f5 0-0"), discs(0, 0));
        assert_eq!(r("[Result \"34-30\"]\n1. f5"), discs(34, 30));
        assert_eq!(r("[Result \"*\"]\n1. f5 34-30"), discs(34, 30));
        assert_eq!(r("[Result \"?\"]\n1. f5"), None);
        let g = one("[Result \"0-1\"]\n1. f5 33-31");
        assert_eq!(
            (g.result, extra(&g)),
            (winner(Winner::White), vec![("MovetextResult", "33-31")])
        );
        let g = one("[Result \"B+12\"]\n1. f5 1-0");
        assert_eq!(
            (g.result, extra(&g)),
            (winner(Winner::Black), vec![("Result", "B+12")])
        );
        // Not a result: more than 64 discs.
        let g = one("1. f5 40-40");
        assert_eq!((tokens(&g), g.result), ("f5 40-40".to_owned(), None));
    }

    #[test]
    fn comments_variations_nags_and_escapes_are_skipped() {
        let text = "% escape\n1. f5 {a (comment} $12 d6 (1... f6 {x) y} (2. e6) ) ; rest { of line\n2. c3 *";
        let g = one(text);
        assert_eq!(tokens(&g), "f5 d6 c3");
        assert_eq!(g.defect, None);
        assert_eq!(g.origin.line, Some(2));
    }

    #[test]
    fn evaluations_and_times_in_comments() {
        let g = one("1. f5 {[%eval -3.25] [%emt 0:01:02.5]} d6 {just words} 2. c3 {[%emt 4]} *");
        assert_eq!(
            g.notes,
            [
                MoveNote {
                    eval: Some(-3.25),
                    time: Some(62.5)
                },
                MoveNote::default(),
                MoveNote {
                    eval: None,
                    time: Some(4.0)
                }
            ]
        );
        // Comments before any move, in variations or after a defect are
        // not annotations; the notes are as long as the moves.
        let g = one("{[%eval 1]} 1. f5 (1... d6 {[%eval 2]}) d6 {[%eval 3]} 2. c3 *");
        assert_eq!(g.notes.len(), 3);
        assert_eq!(
            g.notes.iter().map(|n| n.eval).collect::<Vec<_>>(),
            [None, Some(3.0), None]
        );
        let g = one("1. f5 d6 *");
        assert!(g.notes.is_empty());
        let mut g = one("1. f5 d6 2. c3 *");
        g.notes = vec![
            MoveNote::default(),
            MoveNote {
                eval: Some(-1.5),
                time: Some(0.25),
            },
            MoveNote {
                eval: Some(2.0),
                time: None,
            },
        ];
        let out = written(&g);
        assert!(
            out.ends_with("\n1. f5 d6 {[%eval -1.5] [%emt 0.25]} 2. c3 {[%eval 2]} *\n\n"),
            "{out}"
        );
        assert_eq!(bare(&one(&out)), bare(&g));
    }

    #[test]
    fn game_boundaries() {
        let games = read("1. f5 1-0 1. d3 0-1\n1. c4\n\n1. e6\n[Event \"x\"]\n1. f5\n");
        let moves: Vec<String> = games.iter().map(tokens).collect();
        assert_eq!(moves, ["f5", "d3", "c4", "e6", "f5"]);
        assert_eq!(games[1].origin.line_text(1), Some("1. f5 1-0 1. d3 0-1"));
        assert_eq!(
            (games[1].span(0).unwrap().column, games[1].origin.byte),
            (14, 10)
        );
        assert_eq!(games[4].tags.event.as_deref(), Some("x"));
        // Tags, a blank line, tags again: two games, the first without moves.
        let games = read("[Event \"a\"]\n\n[Event \"b\"]\n1. f5 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(
            (games[0].moves.len(), games[1].tags.event.as_deref()),
            (0, Some("b"))
        );
        assert!(read("\n\n% only an escape\n\n").is_empty());
    }

    #[test]
    fn fen_forms() {
        let start = |v: &str| one(&format!("[FEN \"{v}\"]\n1. f5 *"));
        assert!(start("8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1").has_standard_start());
        assert!(start("8/8/8/3xo3/3ox3/8/8/8 b").has_standard_start());
        let g = start("8/8/8/3pP3/3Pp3/8/8/8 w");
        assert_eq!(g.start.side_to_move(), Color::White);
        let board = "---------------------------OX------XO---------------------------";
        assert!(start(&format!("{board} X")).has_standard_start());
        assert!(start(&format!("{board}X")).has_standard_start());
        assert_eq!(
            start(&format!("{board} O")).start.side_to_move(),
            Color::White
        );
        let cases = [
            ("8/8/8/3pP3/3Pp3/8/8/8", "FEN has no side to move"),
            (
                "8/8/8/3pP3/3Pp3/8/8/8 q",
                "FEN side to move \"q\" is not b or w",
            ),
            (
                "8/8/8/3pP3/3Pp4/8/8/8 b",
                "FEN rank 4 has 9 squares, expected 8",
            ),
            ("8/8/8/3pQ3/3Pp3/8/8/8 b", "unexpected 'Q' in the FEN board"),
            ("--- X", "FEN board has 3 squares, expected 64"),
            ("", "empty FEN"),
        ];
        for (value, message) in cases {
            assert_eq!(defect(&start(value)), (message.to_owned(), 1, 1), "{value}");
        }
    }

    #[test]
    fn fen_writer_matches_edax() {
        let mut out = String::new();
        write_fen(&Position::start(), &mut out);
        assert_eq!(out, "8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1");
        let g = one("[FEN \"8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1\"]\n1. d6 *");
        let mut out = String::new();
        write_fen(&g.start, &mut out);
        assert_eq!(out, "8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1");
    }

    #[test]
    fn special_tags() {
        let g = one("[TheoreticalScore \"34-30\"]\n*");
        assert_eq!(g.theoretical_black_score, Some(34));
        let g = one("[TheoricalScore \"36\"]\n*");
        assert_eq!(g.theoretical_black_score, Some(36));
        let g = one("[TheoreticalScore \"n/a\"]\n*");
        assert_eq!(
            (g.theoretical_black_score, extra(&g)),
            (None, vec![("TheoreticalScore", "n/a")])
        );
        let g = one("[Termination \"resignation\"]\n[Result \"0-1\"]\n*");
        assert_eq!(g.result.unwrap().kind, ResultKind::Resigned);
        assert!(g.tags.extra.is_empty());
        let g = one("[Termination \"normal\"]\n[Result \"0-1\"]\n*");
        assert_eq!(
            (g.result.unwrap().kind, extra(&g)),
            (ResultKind::Score, vec![("Termination", "normal")])
        );
        let g = one("[Termination \"resignation\"]\n*");
        assert_eq!(
            (g.result, extra(&g)),
            (None, vec![("Termination", "resignation")])
        );
        let g = one("[Variant \"Anti\"]\n[SetUp \"1\"]\n[BlackElo \"?\"]\n*");
        assert_eq!((g.rules, g.tags.black_rating.clone()), (Rules::Anti, None));
        assert!(g.tags.extra.is_empty());
        let g = one("[Variant \"xot\"]\n[Date \"????.??.??\"]\n*");
        assert_eq!(
            (g.rules, g.tags.date.clone(), extra(&g)),
            (Rules::Standard, None, vec![("Variant", "xot")])
        );
    }

    #[test]
    fn encodings_bom_and_crlf() {
        let g = Reader::new(
            &b"\xEF\xBB\xBF% note\r\n[Black \"Pr\xe9tendant\"]\r\n\r\n1. f5 d6\r\n2. c3 *\r\n"[..],
        )
        .next()
        .unwrap()
        .unwrap();
        assert_eq!(g.tags.black.as_deref(), Some("Prétendant"));
        assert_eq!(tokens(&g), "f5 d6 c3");
        assert_eq!((g.span(2).unwrap().line, g.span(2).unwrap().column), (5, 4));
        assert_eq!((g.origin.line, g.origin.byte), (Some(2), 11));
        let g = one("[White \"Élodie\"]\n1. f5 *");
        assert_eq!(g.tags.white.as_deref(), Some("Élodie"));
        let g = one("[Event \"é\"] 1. f5 *");
        assert_eq!(g.span(0).unwrap().column, 16);
    }

    #[test]
    fn a_game_over_the_cap_keeps_what_fits() {
        let mut text = String::from("1. f5 d6\n");
        let line = format!("{}\n", "{x}".repeat(100));
        while text.len() <= GAME_CAP {
            text.push_str(&line);
        }
        text.push_str("2. c3 *\n1. d3 *\n");
        let games = read(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(tokens(&games[0]), "f5 d6");
        assert_eq!(
            defect(&games[0]).0,
            format!("game exceeds {GAME_CAP} bytes; the rest is skipped")
        );
        assert!(games[0].origin.text.as_ref().unwrap().len() <= TEXT_CAP);
        assert_eq!(tokens(&games[1]), "d3");
    }

    #[test]
    fn a_line_longer_than_the_read_limit_is_read_in_pieces() {
        // Four bytes a move, so the pieces are cut between moves.
        let count = LINE_CAP as usize / 4 + 5;
        let mut text = "f5  ".repeat(count);
        text.push_str("*\n1. d3 *\n");
        let games = read(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), count);
        let last = games[0].spans.each().last().unwrap();
        assert_eq!(
            (last.line, last.byte as usize + 1),
            (1, last.column as usize)
        );
        assert_eq!(last.byte as usize, 4 * (count - 1));
        assert_eq!(games[1].origin.line, Some(2));
    }

    #[test]
    fn writer_exact_output() {
        let mut g = one("[Event \"Cup \\\"A\\\"\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n[Result \"40-24\"]\n[Opening \"x\"]\n\n1. f5 d6 2. c3 *");
        g.tags.white_rating = Some("1500".to_owned());
        assert_eq!(
            written(&g),
            "[Event \"Cup \\\"A\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [Black \"Ann\"]\n[White \"Bo\"]\n[Result \"40-24\"]\n[WhiteElo \"1500\"]\n\
             [Opening \"x\"]\n\n1. f5 d6 2. c3 40-24\n\n"
        );
    }

    #[test]
    fn writer_numbers_passes_and_wraps() {
        let games = read(EDAX);
        let out = written(&games[0]);
        let body: Vec<&str> = out.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
        assert!(body.iter().all(|l| l.chars().count() <= 80), "{out}");
        assert!(out.contains("29. f1 pass 30. g7 a8 1-0"), "{out}");
        assert_eq!(body.first().map(|l| &l[..11]), Some("1. d3 c3 2."));
        // White first, and White after White (an implicit Black pass).
        let out = written(&games[1]);
        assert!(
            out.contains("[FEN \"8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1\"]\n"),
            "{out}"
        );
        assert!(out.ends_with("\n1... d6 2. c3 d3 3. c4 *\n\n"), "{out}");
        let cassio = read(CASSIO);
        let out = written(&cassio[0]);
        assert!(out.contains("27. h8 28. h1 29. d1 c1 30. h4 h3"), "{out}");
    }

    #[test]
    fn writer_results_and_extra_tags() {
        let result = |value, kind| {
            let g = GameRecord {
                result: Some(RecordedResult { value, kind }),
                ..GameRecord::default()
            };
            let out = written(&g);
            (
                out.lines().nth(6).unwrap().to_owned(),
                out.lines()
                    .find(|l| l.starts_with("[Termination"))
                    .map(str::to_owned),
            )
        };
        use ResultKind::{Resigned, Score, Time};
        use ResultValue::{Discs, Margin, RawMargin};
        let plain = |v| result(v, Score).0;
        assert_eq!(
            plain(Discs {
                black: 33,
                white: 30
            }),
            "[Result \"33-30\"]"
        );
        assert_eq!(plain(Margin(12.0)), "[Result \"38-26\"]");
        assert_eq!(plain(Margin(0.0)), "[Result \"32-32\"]");
        assert_eq!(plain(Margin(-2.5)), "[Result \"0-1\"]");
        assert_eq!(plain(RawMargin(3)), "[Result \"1-0\"]");
        assert_eq!(
            plain(ResultValue::Winner(Winner::Draw)),
            "[Result \"1/2-1/2\"]"
        );
        assert_eq!(
            result(ResultValue::Winner(Winner::White), Resigned),
            (
                "[Result \"0-1\"]".to_owned(),
                Some("[Termination \"resignation\"]".to_owned())
            )
        );
        assert_eq!(
            result(Margin(-6.0), Time).1.as_deref(),
            Some("[Termination \"time forfeit\"]")
        );
        let mut g = GameRecord {
            theoretical_black_score: Some(36),
            rules: Rules::Anti,
            ..GameRecord::default()
        };
        g.tags.extra = vec![
            ("Time Control".to_owned(), "a\nb".to_owned()),
            ("FEN".to_owned(), "junk".to_owned()),
        ];
        let out = written(&g);
        assert!(
            out.contains(
                "[TheoreticalScore \"36-28\"]\n[Variant \"anti\"]\n[Time_Control \"a b\"]\n\n*\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn unreadable_tokens_are_written_as_one_unreadable_word() {
        let mut g = one("1. f5 i9 *");
        g.unreadable[0].1 = "34-30".into();
        let back = one(&written(&g));
        assert_eq!(tokens(&back), "f5 _34-30");
        g.unreadable[0].1 = "a b{c}".into();
        assert_eq!(tokens(&one(&written(&g))), "f5 a_b_c_");
        let mut out = Vec::new();
        out.extend(crate::formats::Format::Pgn.losses_of(&g));
        assert_eq!(out, ["the spelling of unreadable moves"]);
    }

    #[test]
    fn losses_name_what_pgn_cannot_keep() {
        let mut g = GameRecord::default();
        let mut out = Vec::new();
        out.extend(crate::formats::Format::Pgn.losses_of(&g));
        assert!(out.is_empty());
        g.notes = vec![MoveNote {
            eval: None,
            time: Some(1.5),
        }];
        g.result = Some(RecordedResult::new(ResultValue::Margin(-2.5)));
        g.tags.black = Some("two\nlines".to_owned());
        g.tags
            .extra
            .push(("Time Control".to_owned(), "1".to_owned()));
        out.extend(crate::formats::Format::Pgn.losses_of(&g));
        assert_eq!(
            out,
            [
                "result margins that are not disc counts",
                "line breaks in tag values",
                "tag names that are not PGN tag names"
            ]
        );
        out.clear();
        g = GameRecord::default();
        g.result = Some(RecordedResult::new(ResultValue::RawMargin(-4)));
        out.extend(crate::formats::Format::Pgn.losses_of(&g));
        assert_eq!(out, ["raw disc differences of results"]);
    }

    #[test]
    fn losses_for_colours_and_impossible_disc_counts() {
        let mut g = GameRecord::default();
        // f5 by White is out of turn; d6 by White again.
        for name in [b"f5", b"d6"] {
            g.moves.push(RecordedMove {
                token: Token::Move(Move::Play(Square::from_ascii(name).unwrap())),
                color: Some(Color::White),
            });
        }
        g.result = Some(RecordedResult::new(ResultValue::Discs {
            black: 40,
            white: 40,
        }));
        let mut out = Vec::new();
        out.extend(crate::formats::Format::Pgn.losses_of(&g));
        assert_eq!(
            out,
            [
                "move colours after an illegal move",
                "results with more than 64 discs"
            ]
        );
        assert!(written(&g).contains("[Result \"1/2-1/2\"]"));
        g.moves[0].color = Some(Color::Black);
        g.moves[1].color = Some(Color::White);
        out.clear();
        g.result = None;
        out.extend(crate::formats::Format::Pgn.losses_of(&g));
        assert!(out.is_empty());
    }

    #[test]
    fn sniff_tells_pgn() {
        assert!(sniff(b"[Event \"x\"]\n"));
        assert!(sniff(b"\xEF\xBB\xBF% note\n[Site \"PlayOK\"]"));
        assert!(sniff(b"1. f5 d6 2. c3"));
        assert!(sniff(b"1.F5 D6"));
        assert!(sniff(b"1... d6 2. c3"));
        assert!(sniff(b"\n  12. -- g8"));
        assert!(!sniff(b"f5d6c3"));
        assert!(!sniff(b"(;GM[2]"));
        assert!(!sniff(b"[Event]"));
        assert!(!sniff(b"1. hello"));
        assert!(!sniff(
            b"---------------------------OX------XO--------------------------- X;"
        ));
    }

    #[test]
    fn fixtures_round_trip() {
        for text in [EDAX, CASSIO, THOR, PLAYOK, VARIANTS, BROKEN] {
            for g in read(text) {
                let out = written(&g);
                let back = one(&out);
                let mut expected = bare(&g);
                expected.defect = None;
                assert_eq!(bare(&back), expected, "{out}");
            }
        }
    }

    use crate::testkit::Rng;

    /// Random tag text full of characters that need care.
    trait RandomText {
        fn text(&mut self) -> String;
    }

    impl RandomText for Rng {
        fn text(&mut self) -> String {
            const POOL: [&str; 12] = [
                "a", "Z", " ", "]", "\\", "[", "\"", "é", "{", "(", ";", "名",
            ];
            let n = 1 + self.below(8);
            let s: String = (0..n).map(|_| POOL[self.below(POOL.len())]).collect();
            if unknown(&s) || s.trim() != s {
                format!("x{}x", s.trim())
            } else {
                s
            }
        }
    }

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
            let name = ["Annotator", "TimeControl", "Database", "GN"][rng.below(4)].to_owned();
            t.extra.push((name, rng.text()));
        }
        if rng.chance(20) {
            record.theoretical_black_score = Some(rng.below(65) as u8);
        }
        if rng.chance(25) {
            record.notes = (0..record.moves.len())
                .map(|_| MoveNote {
                    eval: rng
                        .chance(70)
                        .then(|| (rng.below(12_801) as f64 - 6400.0) / 100.0),
                    time: rng.chance(50).then(|| rng.below(100_000) as f64 / 1000.0),
                })
                .collect();
        }
        if rng.chance(10) {
            record.rules = Rules::Anti;
        }
        let side = [Winner::Black, Winner::White, Winner::Draw][rng.below(3)];
        record.result = match rng.below(5) {
            0 => None,
            1 => {
                // `1-0` and `0-1` name a winner, not disc counts.
                let b = 2 + rng.below(63) as u8;
                Some(RecordedResult::new(ResultValue::Discs {
                    black: b,
                    white: rng.below(65 - b as usize) as u8,
                }))
            }
            2 => Some(RecordedResult::new(ResultValue::Winner(side))),
            3 => Some(RecordedResult {
                value: ResultValue::Winner(side),
                kind: [ResultKind::Resigned, ResultKind::Time, ResultKind::Mutual][rng.below(3)],
            }),
            _ => Some(RecordedResult::new(ResultValue::Discs {
                black: 40,
                white: 24,
            })),
        };
        record
    }

    /// Random edits of the fixtures: whatever comes out is consistent,
    /// and writing it then reading it back is stable.
    #[test]
    fn mutated_inputs_give_consistent_records_that_round_trip() {
        const ALPHABET: &[u8] = b"[]\"\\{}();%$ \n\r-*1/2.0f5d6passFEN8pPbw\xc3\xa9";
        let sources = [EDAX, CASSIO, THOR, PLAYOK, VARIANTS, BROKEN];
        let mut rng = Rng(0x5EED_0103);
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
                let text = written(g);
                let first = one(&text);
                assert_eq!(first.defect, None, "{text}");
                assert_eq!(first.moves.len(), g.moves.len(), "{text}");
                let mut lost = Vec::new();
                lost.extend(crate::formats::Format::Pgn.losses_of(g));
                if lost.is_empty() {
                    let mut expected = bare(g);
                    expected.defect = None;
                    assert_eq!(bare(&first), expected, "{text}");
                }
                let second = one(&written(&first));
                assert_eq!(bare(&second), bare(&first), "{text}");
            }
        }
        assert!(defects > 50, "{defects}");
    }

    #[test]
    fn random_games_round_trip() {
        let mut rng = Rng(0x5EED_0101);
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
            assert_eq!(bare(&first), bare(&record), "{text}");
            assert_eq!(first.replay().error, None, "{text}");
            assert_eq!(first.spans.each().len(), first.moves.len());
            for (k, span) in first.spans.each().iter().enumerate() {
                let line = first.origin.line_text(span.line).unwrap();
                let col = span.column as usize - 1;
                let word: String = line.chars().skip(col).take(span.len as usize).collect();
                assert_eq!(word, first.token_text(k), "{text}");
            }
        }
        assert!(
            with_passes > 10 && odd_starts > 30,
            "{with_passes} {odd_starts}"
        );
    }

    #[test]
    fn random_games_in_one_stream() {
        let mut rng = Rng(0x5EED_0102);
        let records: Vec<GameRecord> = (0..40).map(|_| random_game(&mut rng)).collect();
        let mut text = String::new();
        for r in &records {
            write_record(r, &mut text);
        }
        let games = read(&text);
        assert_eq!(games.len(), records.len());
        for (i, (g, r)) in games.iter().zip(&records).enumerate() {
            assert_eq!(g.origin.index, i as u64 + 1);
            assert_eq!(bare(g), bare(r));
        }
    }
}
