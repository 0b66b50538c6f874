//! The move grammar shared by transcript, csv, jsonl and obf: how one
//! line of moves reads.
//!
//! A line holds squares in either case with or without separators (space,
//! tab, `,`, `;`, a single `-`), move numbers (`1.`, `1...`, and bare
//! numbers that count the moves: `1 f5 2 d6`), passes (`pass`, `PA`, `PS`,
//! `--`, `@@`, `@@@@`), a trailing result (`51-13`, `1-0`, `0-1`,
//! `1/2-1/2`, `*`), and a comment from `#` or `%` to the end of the line,
//! kept as an [`Annotation`] after the moves before it; blank lines and
//! comment lines hold no game. It may start with a 64-square board and the
//! side to move (`<board> X;`, `<board> *`). Logistello's logbook lines
//! (`+d3-c3…: -04 10`) sign each move with its colour.
//!
//! A line that mixes both cases encodes colour by case (`C4c3D3`: upper
//! Black, lower White) when those colours hold up; when they put a move
//! out of turn where reading case-blind does not, the line reads
//! case-blind and the record gets [`Quirk::CaseIgnored`] (`f5 d6 C3 d3`).
//!
//! A name set off by a wide gap after the moves (Zebra's opening list) is
//! kept as the tag `name`; the evaluation that ends a line of Flippy's
//! book (`C4c3D3c5B2X-21`) as the tag [`BOOK_VALUE_TAG`].
//!
//! Parsers never check legality: the replay does.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1};
use nom::character::complete::{digit1, satisfy};
use nom::combinator::{map, not, peek, recognize, rest, value};
use nom::error::ErrorKind;
use nom::sequence::{pair, separated_pair, terminated};
use nom::{IResult, Parser};

use crate::engine::game::{Move, ReplayErrorKind, Winner};
use crate::record::source::{MoveSpans, ParseError, Span};
use crate::record::{
    Annotation, AnnotationKind, GameError, Origin, Quirk, RecordedMove, RecordedResult,
    ResultValue, Token,
};
use crate::{Bitboard, Board, Color, GameRecord, Position, Square};

/// One lexical item of a transcript line.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Lexeme {
    Separator,
    MoveNumber,
    Square(Square, bool),
    Pass,
    Result(Option<ResultValue>),
    /// Digits alone: a move number when it is the next one (see
    /// `LineParser::is_move_number`), else unreadable.
    Number(u32),
    /// `#` or `%` and the rest of the line.
    Comment,
    Unreadable,
}

fn is_separator(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b',' | b';' | b'\r')
}

fn separator(i: &[u8]) -> IResult<&[u8], Lexeme> {
    alt((
        value(Lexeme::Separator, take_while1(is_separator)),
        // A single dash separates (`F5-D6`); two or more are a pass.
        value(Lexeme::Separator, terminated(tag("-"), not(tag("-")))),
    ))
    .parse(i)
}

fn square(i: &[u8]) -> IResult<&[u8], Lexeme> {
    map(
        terminated(
            pair(
                satisfy(|c| matches!(c, 'a'..='h' | 'A'..='H')),
                satisfy(|c| matches!(c, '1'..='8')),
            ),
            not(peek(satisfy(|c| {
                c.is_ascii_alphanumeric() && !c.is_ascii_alphabetic()
            }))),
        ),
        |(c, r)| {
            let name = [c as u8, r as u8];
            match Square::from_ascii(&name) {
                Some(sq) => Lexeme::Square(sq, c.is_ascii_uppercase()),
                None => Lexeme::Unreadable,
            }
        },
    )
    .parse(i)
}

fn pass(i: &[u8]) -> IResult<&[u8], Lexeme> {
    value(
        Lexeme::Pass,
        alt((
            tag_no_case("pass"),
            tag_no_case("pa"),
            tag_no_case("ps"),
            take_while1(|c| c == b'-'),
            tag("@@@@"),
            tag("@@"),
        )),
    )
    .parse(i)
}

fn move_number(i: &[u8]) -> IResult<&[u8], Lexeme> {
    value(
        Lexeme::MoveNumber,
        recognize(pair(digit1, take_while1(|c| c == b'.'))),
    )
    .parse(i)
}

fn small_number(digits: &[u8]) -> Option<u8> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

fn result(i: &[u8]) -> IResult<&[u8], Lexeme> {
    alt((
        value(
            Lexeme::Result(Some(ResultValue::Winner(Winner::Draw))),
            tag("1/2-1/2"),
        ),
        value(Lexeme::Result(None), tag("*")),
        map(separated_pair(digit1, tag("-"), digit1), |(a, b)| {
            let value = match (small_number(a), small_number(b)) {
                // No position has fewer than four discs, so `1-0` and
                // `0-1` can only name the winner.
                (Some(1), Some(0)) => Some(ResultValue::Winner(Winner::Black)),
                (Some(0), Some(1)) => Some(ResultValue::Winner(Winner::White)),
                (Some(black), Some(white)) if u16::from(black) + u16::from(white) <= 64 => {
                    Some(ResultValue::Discs { black, white })
                }
                _ => return Lexeme::Unreadable,
            };
            Lexeme::Result(value)
        }),
    ))
    .parse(i)
}

fn number(i: &[u8]) -> IResult<&[u8], Lexeme> {
    let (rest, digits) = digit1(i)?;
    // Checked by hand: nom's `satisfy` takes a byte over 127 for a
    // two-byte character and would slice past the end of the input.
    let ends = rest.first().is_none_or(|&c| is_separator(c));
    let n = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse().ok());
    match n {
        Some(n) if ends => Ok((rest, Lexeme::Number(n))),
        _ => Err(nom::Err::Error(nom::error::Error::new(i, ErrorKind::Digit))),
    }
}

fn comment(i: &[u8]) -> IResult<&[u8], Lexeme> {
    value(Lexeme::Comment, pair(alt((tag("#"), tag("%"))), rest)).parse(i)
}

fn unreadable(i: &[u8]) -> IResult<&[u8], Lexeme> {
    value(
        Lexeme::Unreadable,
        alt((
            recognize(pair(
                take_while1(|c: u8| c.is_ascii_alphabetic()),
                take_while(|c: u8| c.is_ascii_digit()),
            )),
            take_while1(|c: u8| c.is_ascii_digit()),
            take_while1(|c: u8| !is_separator(c) && !c.is_ascii_alphanumeric() && c != b'-'),
        )),
    )
    .parse(i)
}

fn lexeme(i: &[u8]) -> IResult<&[u8], Lexeme> {
    alt((
        separator,
        move_number,
        result,
        comment,
        square,
        pass,
        number,
        unreadable,
    ))
    .parse(i)
}

/// Whether `word` is a whole pass token: `pass`, `PA`, `PS` in any case,
/// two or more dashes, `@@` or `@@@@`.
pub(crate) fn is_pass(word: &[u8]) -> bool {
    word != b"-" && matches!(pass(word), Ok((rest, _)) if rest.is_empty())
}

/// A board square or side to move of Black: `X`, `x`, `*`, `b`, `B`.
pub(crate) fn is_black(c: u8) -> bool {
    matches!(c, b'X' | b'x' | b'*' | b'b' | b'B')
}

/// A board square or side to move of White: `O`, `o`, `w`, `W`, `0`.
pub(crate) fn is_white(c: u8) -> bool {
    matches!(c, b'O' | b'o' | b'w' | b'W' | b'0')
}

/// An empty board square: `-` or `.`.
pub(crate) fn is_empty(c: u8) -> bool {
    matches!(c, b'-' | b'.')
}

/// Why the start of a text is not a board and side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BoardError {
    /// Only `squares` squares: byte `at` is no square (or the text ends).
    Short {
        /// Squares read, 0..=63.
        squares: u8,
        /// Byte offset where the board stops.
        at: usize,
    },
    /// Byte `at`, after the 64 squares and any blanks, is no side to move.
    NoSide {
        /// Byte offset of what stands there (the text's length at its end).
        at: usize,
    },
}

/// Reads a board text at the start of `text`: 64 squares a1…h8 (blanks
/// between them ignored; [`is_black`], [`is_white`], [`is_empty`]), blanks,
/// then the side to move. Returns the position and the byte offset just
/// after the side. The board of a transcript line and of an OBF position.
pub(crate) fn board(text: &[u8]) -> Result<(Position, usize), BoardError> {
    let mut black = 0u64;
    let mut white = 0u64;
    let mut squares = 0u8;
    let mut at = 0;
    while squares < 64 {
        let Some(&c) = text.get(at) else {
            return Err(BoardError::Short { squares, at });
        };
        at += 1;
        if c == b' ' || c == b'\t' {
            continue;
        }
        if is_black(c) {
            black |= 1 << squares;
        } else if is_white(c) {
            white |= 1 << squares;
        } else if !is_empty(c) {
            return Err(BoardError::Short {
                squares,
                at: at - 1,
            });
        }
        squares += 1;
    }
    let rest = text.get(at..).unwrap_or_default();
    let side_at = at + (rest.len() - rest.trim_ascii_start().len());
    let side = match text.get(side_at) {
        Some(&c) if is_black(c) => Color::Black,
        Some(&c) if is_white(c) => Color::White,
        _ => return Err(BoardError::NoSide { at: side_at }),
    };
    // Each square went to one of the two sets at most: they are disjoint.
    let board = Board::new(Bitboard(black), Bitboard(white)).unwrap_or(Board::START);
    Ok((Position::new(board, side), side_at + 1))
}

/// The column of a square's letter, either case; 8 (none) for any other
/// byte.
pub(crate) static COLUMN: [u8; 256] = {
    let mut table = [8u8; 256];
    let mut i = 0;
    while i < 8 {
        table[b'a' as usize + i] = i as u8;
        table[b'A' as usize + i] = i as u8;
        i += 1;
    }
    table
};

/// The row of a square's digit; 8 (none) for any other byte.
pub(crate) static ROW: [u8; 256] = {
    let mut table = [8u8; 256];
    let mut i = 0;
    while i < 8 {
        table[b'1' as usize + i] = i as u8;
        i += 1;
    }
    table
};

/// Position information for the line being parsed.
#[derive(Clone, Copy, Debug)]
pub struct LineContext {
    /// 1-based line number.
    pub line: u32,
    /// Byte offset of the line in the input.
    pub byte: u64,
    /// 1-based game number the line would be.
    pub index: u64,
}

struct LineParser<'a> {
    line: &'a [u8],
    ctx: LineContext,
    ascii: bool,
    record: GameRecord,
}

impl<'a> LineParser<'a> {
    /// Where `rest`, always a suffix of the line, starts in it.
    fn offset(&self, rest: &[u8]) -> usize {
        self.line.len() - rest.len()
    }

    fn column(&self, offset: usize) -> u32 {
        let chars = if self.ascii {
            offset
        } else {
            self.line[..offset]
                .iter()
                .filter(|&&b| b & 0xC0 != 0x80)
                .count()
        };
        chars as u32 + 1
    }

    fn span(&self, offset: usize, len: usize) -> Span {
        Span {
            byte: self.ctx.byte + offset as u64,
            line: self.ctx.line,
            column: self.column(offset),
            len: len as u32,
        }
    }

    fn push(&mut self, token: Token, color: Option<Color>, offset: usize, len: usize) {
        if token == Token::Unreadable {
            let text = String::from_utf8_lossy(&self.line[offset..offset + len]);
            self.record
                .unreadable
                .push((self.record.moves.len(), text.into()));
        }
        self.record.moves.push(RecordedMove { token, color });
        let span = self.span(offset, len);
        self.record.spans.push(span);
    }

    fn defect(&mut self, offset: usize, len: usize, message: String) {
        if self.record.defect.is_none() {
            let span = self.span(offset, len);
            self.record.defect = Some(ParseError::at(
                Span::new(span.byte, span.line, span.column, len as u32),
                message,
            ));
        }
    }

    /// Reads a leading board and side to move; returns the rest.
    fn board_prefix(&mut self, input: &'a [u8]) -> &'a [u8] {
        let base = self.offset(input);
        let (start, end) = match board(input) {
            Ok(read) => read,
            Err(BoardError::Short { squares, at }) => {
                self.defect(
                    base + at,
                    1,
                    format!("board has {squares} squares, expected 64 before the side to move"),
                );
                return &[];
            }
            Err(BoardError::NoSide { at }) => {
                self.defect(
                    base + at,
                    1,
                    "expected the side to move (X or O) after the board".into(),
                );
                return &[];
            }
        };
        self.record.start = start;
        let rest = input.get(end..).unwrap_or_default();
        match rest.trim_ascii_start().strip_prefix(b";") {
            Some(stripped) => stripped,
            None => rest,
        }
    }

    fn logbook(&mut self, mut rest: &'a [u8]) {
        loop {
            let offset = self.offset(rest);
            match rest {
                [sign @ (b'+' | b'-'), c, r, ..] => {
                    let color = if *sign == b'+' {
                        Color::Black
                    } else {
                        Color::White
                    };
                    match Square::from_ascii(&[*c, *r]) {
                        Some(sq) => {
                            self.push(Token::Move(Move::Play(sq)), Some(color), offset + 1, 2)
                        }
                        None => self.push(Token::Unreadable, Some(color), offset + 1, 2),
                    }
                    rest = &rest[3..];
                }
                _ => break,
            }
        }
        let trimmed = rest.trim_ascii();
        if trimmed.is_empty() {
            return;
        }
        let offset = self.offset(rest) + (rest.len() - rest.trim_ascii_start().len());
        let Some(after_colon) = trimmed.strip_prefix(b":") else {
            self.defect(
                offset,
                1,
                "expected a signed move such as +d3 or the score after ':'".into(),
            );
            return;
        };
        let mut fields = after_colon
            .split(|c| c.is_ascii_whitespace())
            .filter(|f| !f.is_empty());
        let margin = fields
            .next()
            .and_then(|f| std::str::from_utf8(f).ok())
            .and_then(|f| f.trim_start_matches('+').parse::<i32>().ok());
        match margin {
            Some(m) if (-64..=64).contains(&m) => {
                self.record.result = Some(RecordedResult::new(ResultValue::RawMargin(m)));
            }
            _ => self.defect(
                offset,
                1,
                "expected Black's disc difference after ':'".into(),
            ),
        }
    }

    /// The common case: nothing but squares, concatenated (`f5d6c3…`).
    /// Returns false, having done nothing, when the text is anything else.
    fn plain_squares(&mut self, text: &'a [u8]) -> bool {
        if !text.len().is_multiple_of(2) || text.is_empty() {
            return false;
        }
        let moves = self.record.moves.len();
        // Every pair becomes a square without a branch (a pair that names
        // none, as some square) and `bad` gathers the tables' "none" bit:
        // one pass, written without a capacity check a move.
        let mut bad = 0u8;
        let mut uppers = 0;
        self.record.moves.extend(text.chunks_exact(2).map(|pair| {
            let (c, r) = (pair[0], pair[1]);
            let column = COLUMN[usize::from(c)];
            let row = ROW[usize::from(r)];
            bad |= column | row;
            // A letter's case bit: clear in upper case.
            uppers += usize::from(c & 0x20 == 0);
            RecordedMove {
                token: Token::Move(Move::Play(Square::from_index_wrapping(row << 3 | column))),
                color: None,
            }
        }));
        if bad & 8 != 0 {
            self.record.moves.truncate(moves);
            return false;
        }
        let start = self.offset(text);
        // Two bytes a move: the spans follow from the first.
        self.record.spans = MoveSpans::Every {
            first: self.span(start, 2),
            stride: 2,
        };
        if uppers > 0 && uppers < text.len() / 2 {
            self.case_colours();
        }
        true
    }

    /// Reads the case of a line whose squares mix both as colours, upper
    /// Black and lower White (`C4c3D3c5`, Zebra and NBoard) — unless that
    /// reading breaks where reading case-blind does not: then the case is
    /// no colour code (`f5 d6 C3 d3`) and the record gets
    /// [`Quirk::CaseIgnored`].
    ///
    /// The two readings replay alike up to the first move whose colour is
    /// not the side to move while that side has a move: the case-coded one
    /// stops there, out of turn. (Where the side to move must pass, the
    /// move is the other side's whatever its case, so Zebra's two
    /// same-case moves around a pass read as coded.) Case-blind wins when
    /// it replays past that move. Parsers do not replay, but this choice
    /// between two readings of one line cannot be made otherwise; it costs
    /// one replay of a mixed-case line, two when the colours fail.
    fn case_colours(&mut self) {
        self.paint_case(true);
        let coded = self.record.replay();
        let Some(GameError::Replay(stop)) = coded.error else {
            return;
        };
        if !matches!(stop.kind, ReplayErrorKind::OutOfTurn(_)) {
            return;
        }
        self.paint_case(false);
        let further = match self.record.replay().error {
            Some(GameError::Replay(e)) => e.number > stop.number,
            Some(GameError::Parse(_)) | None => true,
        };
        if further {
            self.record.quirks.insert(Quirk::CaseIgnored);
        } else {
            // Both stop at the same move: the coded reading says why.
            self.paint_case(true);
        }
    }

    /// Gives every square its colour by case, or takes colours away.
    fn paint_case(&mut self, by_case: bool) {
        let spans = &self.record.spans;
        for (i, m) in self.record.moves.iter_mut().enumerate() {
            if !matches!(m.token, Token::Move(Move::Play(_))) {
                continue;
            }
            let letter = spans
                .get(i)
                .and_then(|span| span.byte.checked_sub(self.ctx.byte))
                .and_then(|offset| self.line.get(usize::try_from(offset).ok()?));
            m.color = match letter {
                Some(c) if by_case && c.is_ascii_uppercase() => Some(Color::Black),
                Some(_) if by_case => Some(Color::White),
                _ => None,
            };
        }
    }

    /// Ends the line after the first `kept` bytes of `rest`, the rest of
    /// the line: offsets count from the line's start and `rest` must stay
    /// a suffix of the line for [`LineParser::offset`].
    fn cut(&mut self, rest: &'a [u8], kept: usize) -> &'a [u8] {
        let drop = rest.len().saturating_sub(kept);
        self.line = self.line.get(..self.line.len() - drop).unwrap_or_default();
        rest.get(..kept).unwrap_or_default()
    }

    fn moves(&mut self, mut rest: &'a [u8]) {
        rest = self.cut(rest, rest.trim_ascii_end().len());
        if let Some((moves, value)) = book_value(rest) {
            let value = String::from_utf8_lossy(value).into_owned();
            self.record.tags.extra.push((BOOK_VALUE_TAG.into(), value));
            rest = self.cut(rest, moves.len());
        }
        if self.plain_squares(rest) {
            return;
        }
        let capacity = self.record.moves.capacity();
        self.record.spans.reserve(capacity);
        let mut uppers = 0usize;
        let mut lowers = 0usize;
        let mut seen_result = false;
        while !rest.is_empty() {
            let offset = self.offset(rest);
            let Ok((after, lexeme)) = lexeme(rest) else {
                // Every byte is accepted by `unreadable`; stay safe anyway.
                self.defect(offset, 1, "unexpected character".into());
                return;
            };
            let len = rest.len() - after.len();
            if lexeme == Lexeme::Comment {
                self.comment(rest.get(1..).unwrap_or_default());
                break;
            }
            if seen_result && lexeme != Lexeme::Separator {
                self.defect(offset, len, "text after the result".into());
                return;
            }
            let move_number = match lexeme {
                Lexeme::Number(n) => self.is_move_number(n, after),
                _ => false,
            };
            if lexeme != Lexeme::Separator
                && !move_number
                && !self.record.moves.is_empty()
                && wide_gap_before(self.line, offset)
                && has_unreadable(rest)
            {
                // Zebra-style opening lists put a name after the moves,
                // set off by a tab or several spaces: keep it as a note.
                let text = String::from_utf8_lossy(rest.trim_ascii_end());
                self.record
                    .tags
                    .extra
                    .push(("name".into(), text.into_owned()));
                break;
            }
            match lexeme {
                Lexeme::Separator | Lexeme::MoveNumber | Lexeme::Comment => {}
                Lexeme::Number(_) if move_number => {}
                Lexeme::Square(sq, upper) => {
                    if upper {
                        uppers += 1;
                    } else {
                        lowers += 1;
                    }
                    // Case colours are attached once the whole line is seen.
                    self.push(Token::Move(Move::Play(sq)), None, offset, len);
                }
                Lexeme::Pass => self.push(Token::Move(Move::Pass), None, offset, len),
                Lexeme::Result(value) => {
                    seen_result = true;
                    self.record.result = value.map(RecordedResult::new);
                }
                Lexeme::Number(_) | Lexeme::Unreadable => {
                    self.push(Token::Unreadable, None, offset, len);
                }
            }
            rest = after;
        }
        if uppers > 0 && lowers > 0 {
            self.case_colours();
        }
    }

    /// Whether a bare number `n`, followed by `after`, numbers the next
    /// move: it is the number of the next move token (`1 f5 2 d6 3 c3`)
    /// or, after an even count of tokens, of the next pair of them (`1 f5
    /// d6 2 c3 d3`), and a square or a pass follows it. Any other bare
    /// number stays in the moves as an unreadable token.
    fn is_move_number(&self, n: u32, mut after: &[u8]) -> bool {
        let tokens = self.record.moves.len();
        let Ok(n) = usize::try_from(n) else {
            return false;
        };
        if n != tokens + 1 && (!tokens.is_multiple_of(2) || n != tokens / 2 + 1) {
            return false;
        }
        while let Ok((rest, next)) = lexeme(after) {
            match next {
                Lexeme::Separator => after = rest,
                Lexeme::Square(..) | Lexeme::Pass => return true,
                _ => return false,
            }
        }
        false
    }

    /// Keeps the text of an inline comment (`f5d6 # text`) after the moves
    /// read so far.
    fn comment(&mut self, text: &[u8]) {
        let text = String::from_utf8_lossy(text.trim_ascii());
        if !text.is_empty() {
            self.record.annotations.push(Annotation {
                after: self.record.moves.len(),
                kind: AnnotationKind::Comment(text.into_owned()),
            });
        }
    }
}

/// The tag under which a line keeps the evaluation of Flippy's book
/// (`C4c3D3c5B2X-21`: `-21`), verbatim.
pub const BOOK_VALUE_TAG: &str = "eval";

/// Splits Flippy's book line into its moves and its evaluation: an `X`
/// glued to the last square, then a number with an optional sign and
/// decimals, ending the line (`…B2X-21`, `…F5X-2.2`, `…X3.13`, `…X0`).
/// `None` for any other line; a lone `X3` after a blank stays a token.
fn book_value(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let text = text.trim_ascii_end();
    // Scanned from the end, so a line of squares costs a byte or two.
    let x = text
        .iter()
        .rposition(|c| !matches!(c, b'0'..=b'9' | b'.' | b'+' | b'-'))?;
    if text[x] != b'X' {
        return None;
    }
    let (moves, value) = (text.get(..x)?, text.get(x + 1..)?);
    let glued = matches!(moves, [.., b'a'..=b'h' | b'A'..=b'H', b'1'..=b'8']);
    let unsigned = value
        .strip_prefix(b"-")
        .or_else(|| value.strip_prefix(b"+"))
        .unwrap_or(value);
    let (whole, decimals) = match unsigned.iter().position(|&c| c == b'.') {
        Some(dot) => (&unsigned[..dot], Some(&unsigned[dot + 1..])),
        None => (unsigned, None),
    };
    let digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
    (glued && digits(whole) && decimals.is_none_or(digits)).then_some((moves, value))
}

/// Whether some token of `text` is neither a move nor a result.
fn has_unreadable(mut text: &[u8]) -> bool {
    while let Ok((after, lexeme)) = lexeme(text) {
        match lexeme {
            Lexeme::Unreadable | Lexeme::Number(_) => return true,
            Lexeme::Comment => return false,
            _ => {}
        }
        if after.len() == text.len() {
            break;
        }
        text = after;
    }
    false
}

/// Whether the text before `offset` ends in a tab or two or more spaces.
fn wide_gap_before(line: &[u8], offset: usize) -> bool {
    let before = &line[..offset.min(line.len())];
    before.ends_with(b"\t") || before.ends_with(b"  ")
}

/// A line without its end, and its text from its first byte that is not
/// white space; `None` for a blank line or a comment (`#` or `%` first).
pub(crate) fn line_content(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let body = line.trim_ascii_start();
    match body.first() {
        None | Some(b'#' | b'%') => None,
        _ => Some((line, body)),
    }
}

/// Parses one line; `None` for a blank or comment line, or a line holding
/// only a number (the game count some lists start with).
#[must_use]
pub fn parse_line(line: &[u8], ctx: LineContext) -> Option<GameRecord> {
    let (line, body) = line_content(line)?;
    if body.trim_ascii_end().iter().all(u8::is_ascii_digit) {
        return None;
    }
    // At most one move per two bytes: no growth while pushing.
    let capacity = (line.len() / 2 + 1).min(1024);
    let mut record = GameRecord::default();
    record.moves.reserve_exact(capacity);
    let mut parser = LineParser {
        line,
        ctx,
        ascii: line.is_ascii(),
        record,
    };
    parser.record.origin = Origin {
        index: ctx.index,
        line: Some(ctx.line),
        byte: ctx.byte,
        text: Some(match std::str::from_utf8(line) {
            Ok(text) => text.into(),
            Err(_) => String::from_utf8_lossy(line).into(),
        }),
    };
    let board_like = body.len() >= 8
        && body[..8]
            .iter()
            .all(|c| matches!(c, b'-' | b'.' | b'X' | b'x' | b'*' | b'O' | b'o'));
    if board_like {
        let rest = parser.board_prefix(body);
        parser.moves(rest);
    } else if body.first() == Some(&b'+') {
        parser.logbook(body);
    } else {
        parser.moves(body);
    }
    Some(parser.record)
}
#[cfg(test)]
mod tests;
