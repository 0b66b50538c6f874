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
//!   variations `( … )` are skipped (so comments are not kept). Trailing
//!   `--` tokens after the last square are Cassio's padding for moves
//!   never played and are dropped;
//! - results `1-0`, `0-1`, `1/2-1/2` (winner only), `*` (none), disc
//!   counts `34-30` ([`ResultValue::Discs`]), in the `Result` tag and/or
//!   after the moves. The tag wins; a different result after the moves is
//!   kept in `tags.extra` as `MovetextResult`;
//! - games end at a result after the moves, at a blank line after move
//!   text, or at a tag line after move text; several games per file; move
//!   text without tags is a game. Any other text in the move text is an
//!   unreadable move token;
//! - trouble (a malformed tag, an unclosed comment or variation, an
//!   unmatched `)`, a bad `FEN`) gives the game a defect with its line and
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
//! wrapped at 80 columns, explicit passes as `pass` (Edax's spelling; `--`
//! would be read back as padding at the end of a game) and no pass where
//! the record has none; then the result: disc counts for
//! [`ResultValue::Discs`] and for whole margins, `1-0`/`0-1`/`1/2-1/2`
//! for a winner only, `*` for none.

use std::io::BufRead;
use std::io::Read;

use crate::formats::{ParseError, ReadError, SourcePos};
use crate::game::{Move, Winner};
use crate::record::{
    RecordedMove, RecordedResult, ResultKind, ResultValue, Rules, Span, Token,
};
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

    fn pos(&mut self, offset: usize) -> SourcePos {
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
        SourcePos {
            byte: self.ctx.byte + offset as u64,
            line: self.ctx.line,
            column,
        }
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
    name > 0 && after.trim_ascii_start().first() == Some(&b'"') && after.first() != Some(&b'"')
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

struct Game {
    rec: GameRecord,
    started: bool,
    phase: Phase,
    blank_after_tags: bool,
    comment: Option<SourcePos>,
    variation: usize,
    variation_at: SourcePos,
    skipping: bool,
    size: usize,
    text: Vec<u8>,
    tag_result: Option<TagResult>,
    term: Option<(Option<ResultValue>, String)>,
    termination: Option<usize>,
    dashes: usize,
    seen: Vec<&'static str>,
}

impl Game {
    fn new() -> Game {
        Game {
            rec: GameRecord::default(),
            started: false,
            phase: Phase::Start,
            blank_after_tags: false,
            comment: None,
            variation: 0,
            variation_at: SourcePos::default(),
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

    fn defect(&mut self, pos: SourcePos, len: usize, message: String) {
        if self.rec.defect.is_none() {
            self.rec.defect = Some(ParseError {
                pos,
                message,
                len: u32::try_from(len.max(1)).unwrap_or(u32::MAX),
            });
        }
        self.skipping = true;
    }

    fn begin(&mut self, pos: SourcePos) {
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
        let counted = if was_started { line.len() } else { line.len() - from };
        self.size = self.size.saturating_add(counted);
        if self.size > GAME_CAP && !self.skipping {
            let pos = LineLoc::new(line, ctx).pos(0);
            self.defect(pos, 1, format!("game exceeds {GAME_CAP} bytes; the rest is skipped"));
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
                match body.get(i..).unwrap_or_default().iter().position(|&c| c == b'}') {
                    Some(k) => {
                        i += k + 1;
                        self.comment = None;
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
                b')' => {
                    let pos = loc.pos(i);
                    self.begin(pos);
                    self.defect(pos, 1, "unmatched ')'".to_owned());
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
                        Lexeme::Square(sq) => self.push(Token::Move(Move::Play(sq)), pos, word),
                        Lexeme::Pass(dashes) => {
                            self.push(Token::Move(Move::Pass), pos, word);
                            if dashes && !self.skipping {
                                self.dashes += 1;
                            }
                        }
                        Lexeme::Unreadable => self.push(Token::Unreadable, pos, word),
                    }
                    i = j;
                }
            }
        }
        Outcome::More
    }

    fn push(&mut self, token: Token, pos: SourcePos, word: &[u8]) {
        if self.skipping {
            return;
        }
        self.dashes = 0;
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

    fn apply_tag(&mut self, name: String, value: String, pos: SourcePos, len: usize) {
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
        if key.is_empty() || self.seen.contains(&key) {
            if !matches!(key, "fen" | "setup") {
                self.rec.tags.extra.push((name, value));
            }
            return;
        }
        self.seen.push(key);
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
        if let Some(slot) = slot {
            if !unknown(&value) {
                *slot = Some(value);
            }
            return;
        }
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

/// Streams games from a PGN file.
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
            self.cursor = Some(3);
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
        let mut game = Game::new();
        loop {
            let from = match self.cursor.take() {
                Some(from) => from,
                None => match self.read_line() {
                    Ok(true) => self.cursor.take().unwrap_or(0),
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
        ResultValue::Discs { black, white } => format!("{black}-{white}"),
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
pub fn write_record(record: &GameRecord, out: &mut String) {
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
    let colors = record.move_colors();
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

/// Pushes what PGN cannot keep of `record`.
pub fn losses(record: &GameRecord, out: &mut Vec<&'static str>) {
    if record
        .notes
        .iter()
        .any(|n| n.eval.is_some() || n.time.is_some())
    {
        out.push("per-move evaluations and times");
    }
    if let Some(result) = &record.result {
        match result.value {
            ResultValue::Margin(_) if result.black_score().is_none() => {
                out.push("result margins that are not disc counts");
            }
            ResultValue::RawMargin(m) if m != 0 => out.push("raw disc differences of results"),
            _ => {}
        }
    }
    let t = &record.tags;
    let values = [
        &t.event,
        &t.site,
        &t.date,
        &t.round,
        &t.black,
        &t.white,
        &t.black_rating,
        &t.white_rating,
    ];
    if values.iter().filter_map(|v| v.as_deref()).chain(t.extra.iter().map(|(_, v)| v.as_str())).any(|v| v.contains(['\n', '\r'])) {
        out.push("line breaks in tag values");
    }
    if t.extra.iter().any(|(name, _)| tag_name(name) != *name) {
        out.push("tag names that are not PGN tag names");
    }
    if record
        .unreadable
        .iter()
        .any(|(_, text)| unreadable_word(text) != **text)
    {
        out.push("the spelling of unreadable moves");
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
    let Some(rest) = head.get(digits..).and_then(|r| r.strip_prefix(b".")) else {
        return false;
    };
    if digits == 0 {
        return false;
    }
    let rest = rest.trim_ascii_start();
    let end = rest.iter().position(|&c| is_delimiter(c)).unwrap_or(rest.len());
    matches!(
        classify(rest.get(..end).unwrap_or_default()),
        Lexeme::Square(_) | Lexeme::Pass(_)
    )
}
