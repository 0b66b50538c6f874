//! Score sheets: an 8×8 grid of move numbers, the way games are written
//! down at the board.
//!
//! ```text
//! # optional comment lines, and tags before the grid
//! Black: Ann
//! Result: 39-25
//!    a  b  c  d  e  f  g  h
//! 1 56 21 59 42 35 46 58  -
//! 2 53 32 14 24 28  8 50 37
//! 3 43 17  3 19 15  5 11 55
//! 4 40 31 10  O  X  2 16 20
//! 5 27  9  6  X  O  1 51 39
//! 6 12 38 52  7 26 13  4 44
//! 7 47 36 22 30 23 29 18 41
//! 8 54 25 57 34 45 33 48 49
//! ```
//!
//! Read: each square holds the number (1–60) of the move played there;
//! a square nobody played is blank, `0`, `-`, `.` or `·`. The start discs
//! are blank, `0` or marked: `X`, `B`, `●` black and `O`, `W`, `○` white
//! give the start position (any position, Black to move unless a `To
//! move: white` tag says otherwise); marks without colours (`*`, or one
//! colour only) are allowed on the four centre squares and mean the
//! standard start. Column labels `a`–`h` above or below the grid and row
//! labels `1`–`8` before or after each row are optional. Squares are
//! separated by spaces or tabs; with tabs an empty field is a blank
//! square, with spaces a blank square is found by lining the row up with
//! the column labels or the full rows. Sheets are separated by blank
//! lines; `#` and `%` lines are comments; `Key: value` lines before the
//! grid are tags (`Black`, `White`, `Event`, `Site`, `Date`, `Round`,
//! `Black rating`, `White rating`, `Result`, `Theoretical black score`,
//! `Rules`, `To move`; others are kept as they are).
//!
//! A sheet gives no passes and no colours: the replay inserts the passes.
//! Numbers on two squares, numbers missing below the highest one, and
//! cells that are neither a number nor a disc are reported together as
//! the record's defect, at the first of them; the moves before the first
//! missing or doubled number are kept.
//!
//! Write: the layout above with `X`/`O` start discs and `-` for squares
//! nobody played, tags first, one blank line after each sheet.

use std::io::BufRead;

use crate::formats::features::{Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::formats::lines::{Line as RawLine, Lines};
use crate::game::Move;
use crate::record::{Origin, RecordedMove, RecordedResult, Token};
use crate::render::text::{sheet, Sheet, TextStyle};
use crate::source::{ParseError, ReadError, Span};
use crate::table::Game;
use crate::{Bitboard, Board, Color, GameRecord, Position, Rules, Square};

/// Most lines one sheet may take before the reader gives up on it.
const MAX_LINES: usize = 64;
/// Most bytes of a sheet kept for diagnostics.
const MAX_TEXT: usize = 64 * 1024;

/// The four centre squares: d4, e4, d5, e5.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// One line of a sheet as read.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    number: u32,
    byte: u64,
}

/// A cell of a grid row: its text and where it is in the line.
#[derive(Clone, Copy, Debug)]
struct Cell<'a> {
    text: &'a str,
    /// Byte offset in the line.
    offset: usize,
    /// 0-based character column of its first character.
    column: u32,
    /// Width in characters.
    width: u32,
}

impl Cell<'_> {
    /// Twice the character column of its centre (to stay in integers).
    fn centre2(&self) -> i64 {
        2 * i64::from(self.column) + i64::from(self.width.max(1)) - 1
    }
}

/// What a cell says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Value {
    Empty,
    Number(u8),
    Black,
    White,
    Neutral,
    Bad,
}

fn value(text: &str) -> Value {
    match text {
        "" | "-" | "." | "·" | "_" => Value::Empty,
        "X" | "x" | "B" | "b" | "●" | "⚫" => Value::Black,
        "O" | "o" | "W" | "w" | "○" | "⚪" => Value::White,
        "*" => Value::Neutral,
        _ if text.len() <= 3 && text.bytes().all(|b| b.is_ascii_digit()) => {
            match text.parse::<u8>() {
                Ok(0) => Value::Empty,
                Ok(n) => Value::Number(n),
                Err(_) => Value::Bad,
            }
        }
        _ => Value::Bad,
    }
}

/// Splits a row into cells: by tabs (an empty field is a blank cell) when
/// the line has any, else by runs of spaces.
fn cells(line: &str) -> Vec<Cell<'_>> {
    let mut out = Vec::with_capacity(10);
    if line.contains('\t') {
        let mut offset = 0usize;
        let mut column = 0u32;
        for field in line.split('\t') {
            let before = out.len();
            tokens(field, offset, column, &mut out);
            if out.len() == before {
                out.push(Cell {
                    text: "",
                    offset,
                    column,
                    width: 0,
                });
            }
            offset += field.len() + 1;
            column += field.chars().count() as u32 + 1;
        }
    } else {
        tokens(line, 0, 0, &mut out);
    }
    out
}

/// Pushes the space-separated tokens of `text`, which starts at byte
/// `offset` and character `column` of its line.
fn tokens<'a>(text: &'a str, offset: usize, column: u32, out: &mut Vec<Cell<'a>>) {
    let mut start: Option<(usize, u32)> = None;
    let mut col = column;
    for (i, ch) in text.char_indices() {
        if ch == ' ' || ch == '\r' {
            if let Some((s, c)) = start.take() {
                out.push(Cell {
                    text: &text[s..i],
                    offset: offset + s,
                    column: c,
                    width: col - c,
                });
            }
        } else if start.is_none() {
            start = Some((i, col));
        }
        col += 1;
    }
    if let Some((s, c)) = start {
        out.push(Cell {
            text: &text[s..],
            offset: offset + s,
            column: c,
            width: col - c,
        });
    }
}

/// The column labels `a`–`h` in order, or `None`.
fn label_line(line: &str) -> Option<[i64; 8]> {
    let found = cells(line);
    let found: Vec<&Cell> = found.iter().filter(|c| !c.text.is_empty()).collect();
    if found.len() != 8 {
        return None;
    }
    let mut centres = [0i64; 8];
    for (i, cell) in found.iter().enumerate() {
        let want = char::from(b'a' + i as u8);
        let mut chars = cell.text.chars();
        let first = chars.next()?.to_ascii_lowercase();
        if first != want || chars.next().is_some() {
            return None;
        }
        centres[i] = cell.centre2();
    }
    Some(centres)
}

/// `Key: value` before the grid.
fn tag_line(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    let ok = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '-'));
    ok.then(|| (key, value.trim()))
}

fn is_comment(line: &str) -> bool {
    matches!(line.trim_start().as_bytes().first(), Some(b'#' | b'%'))
}

/// Builds one game from the lines of one sheet.
struct Builder<'a> {
    lines: &'a [Line],
    record: GameRecord,
    problems: Vec<(Span, u32, String)>,
}

impl Builder<'_> {
    fn pos(&self, line: &Line, cell: Option<&Cell>) -> Span {
        match cell {
            Some(c) => Span::new(line.byte + c.offset as u64, line.number, c.column + 1, 0),
            None => Span::new(line.byte, line.number, 1, 0),
        }
    }

    fn problem(&mut self, pos: Span, len: usize, message: String) {
        self.problems.push((pos, len as u32, message));
    }

    fn tag(&mut self, key: &str, value: &str, line: &Line) {
        let tags = &mut self.record.tags;
        let text = Some(value.to_owned());
        match key.to_ascii_lowercase().as_str() {
            "black" => tags.black = text,
            "white" => tags.white = text,
            "event" => tags.event = text,
            "site" => tags.site = text,
            "date" => tags.date = text,
            "round" => tags.round = text,
            "black rating" => tags.black_rating = text,
            "white rating" => tags.white_rating = text,
            "result" => match value.parse::<RecordedResult>() {
                Ok(r) => self.record.result = Some(r),
                Err(_) => {
                    let pos = self.pos(line, None);
                    self.problem(pos, line.text.len(), format!("not a result: {value:?}"));
                }
            },
            "theoretical black score" => match value.parse::<u8>() {
                Ok(n) if n <= 64 => self.record.theoretical_black_score = Some(n),
                _ => {
                    let pos = self.pos(line, None);
                    self.problem(pos, line.text.len(), format!("not a score: {value:?}"));
                }
            },
            "rules" if value.eq_ignore_ascii_case("anti") => self.record.rules = Rules::Anti,
            "rules" if value.eq_ignore_ascii_case("standard") => {}
            "to move" if value.eq_ignore_ascii_case("white") => {
                self.record.start = Position::new(*self.record.start.board(), Color::White);
            }
            "to move" if value.eq_ignore_ascii_case("black") => {}
            _ => tags.extra.push((key.to_owned(), value.to_owned())),
        }
    }

    fn build(mut self) -> GameRecord {
        let mut rows: Vec<(&Line, Vec<Cell>)> = Vec::with_capacity(8);
        let mut labels: Option<[i64; 8]> = None;
        let mut after_grid: Option<&Line> = None;
        let lines = self.lines;
        for line in lines {
            let text = line.text.as_str();
            if is_comment(text) {
                continue;
            }
            if let Some(centres) = label_line(text) {
                labels.get_or_insert(centres);
                continue;
            }
            if rows.is_empty() && labels.is_none() {
                if let Some((key, value)) = tag_line(text) {
                    self.tag(key, value, line);
                    continue;
                }
            }
            if rows.len() == 8 || tag_line(text).is_some() {
                after_grid.get_or_insert(line);
                continue;
            }
            rows.push((line, cells(text)));
        }
        if let Some(line) = after_grid {
            let pos = self.pos(line, None);
            self.problem(pos, line.text.len(), "not a row of the grid".into());
        }
        if rows.len() != 8 {
            let (line, len) = match rows.last() {
                Some((l, _)) => (*l, l.text.len()),
                None => (&lines[0], lines[0].text.len()),
            };
            let pos = self.pos(line, None);
            self.problem(
                pos,
                len,
                format!("a sheet has 8 rows of squares, found {}", rows.len()),
            );
            return self.finish();
        }
        strip_row_labels(&mut rows);
        let reference = labels.or_else(|| full_row_centres(&rows));
        let mut grid: Vec<(Square, &Line, Cell)> = Vec::with_capacity(64);
        for (r, (line, row)) in rows.iter().enumerate() {
            let Some(aligned) = align(row, reference, r) else {
                let pos = self.pos(line, row.first());
                self.problem(
                    pos,
                    line.text.len(),
                    format!(
                        "row {} has {} squares, expected 8{}",
                        r + 1,
                        row.len(),
                        if row.len() < 8 {
                            " (cannot tell which are blank)"
                        } else {
                            ""
                        }
                    ),
                );
                continue;
            };
            for (c, cell) in aligned.into_iter().enumerate() {
                if let Some(sq) = Square::from_coords(c as u8, r as u8) {
                    grid.push((sq, line, cell));
                }
            }
        }
        let complete = grid.len() == 64;
        self.read_grid(&grid, complete);
        self.finish()
    }

    /// Reads the squares; with an incomplete grid (a row that could not be
    /// read) the numbers missing are no news and go unreported.
    fn read_grid(&mut self, grid: &[(Square, &Line, Cell)], complete: bool) {
        let mut black = 0u64;
        let mut white = 0u64;
        let mut neutral = 0u64;
        let mut numbered: Vec<(u8, Square, Span, Span)> = Vec::with_capacity(60);
        let mut bad: Vec<(Span, usize, String)> = Vec::new();
        for (sq, line, cell) in grid {
            let pos = self.pos(line, Some(cell));
            match value(cell.text) {
                Value::Empty => {}
                Value::Black => black |= sq.mask(),
                Value::White => white |= sq.mask(),
                Value::Neutral => neutral |= sq.mask(),
                Value::Number(n) => {
                    let span = Span {
                        byte: pos.byte,
                        line: pos.line,
                        column: pos.column,
                        len: cell.text.len() as u32,
                    };
                    numbered.push((n, *sq, pos, span));
                }
                Value::Bad => bad.push((
                    pos,
                    cell.text.len(),
                    format!("not a move number or a disc: {:?}", cell.text),
                )),
            }
        }
        // The start position from the marks.
        let side = self.record.start.side_to_move();
        let marks = black | white | neutral;
        let standard = Board::START;
        let coloured = black != 0 && white != 0;
        let as_standard = black & !standard.black().0 == 0 && white & !standard.white().0 == 0;
        if marks & !CENTRE == 0 && (as_standard || !coloured) {
            // Marks on the centre that do not contradict the standard
            // start (or give no colours) just note the start discs.
        } else if white != 0 && black | neutral != 0 {
            // Both colours: `*` is black, as on GGF boards.
            if let Some(board) = Board::new(Bitboard(black | neutral), Bitboard(white)) {
                self.record.start = Position::new(board, side);
            }
        } else {
            let outside = if marks & !CENTRE != 0 {
                marks & !CENTRE
            } else {
                marks
            };
            let sq = Square::new(outside.trailing_zeros() as u8);
            if let Some((_, line, cell)) = grid.iter().find(|(s, _, _)| Some(*s) == sq) {
                let pos = self.pos(line, Some(cell));
                bad.push((
                    pos,
                    cell.text.len(),
                    format!(
                        "a disc outside the centre needs its colour (X or O): {:?}",
                        cell.text
                    ),
                ));
            }
        }
        let empties = 64
            - self.record.start.board().black().count()
            - self.record.start.board().white().count();
        for (n, sq, pos, span) in &numbered {
            if u32::from(*n) > empties {
                bad.push((
                    *pos,
                    span.len as usize,
                    format!("move {n} on {sq}: the sheet has room for {empties} moves"),
                ));
            }
        }
        numbered.retain(|(n, ..)| u32::from(*n) <= empties);
        numbered.sort_by_key(|(n, ..)| *n);
        let highest = numbered.last().map_or(0, |(n, ..)| *n);
        // Moves up to the first number that is not on exactly one square.
        let mut cut: Option<u8> = None;
        let mut expected = 1u8;
        let mut i = 0;
        let mut problems: Vec<(u8, Span, usize, String)> = Vec::new();
        while i < numbered.len() {
            let n = numbered[i].0;
            let same = numbered[i..].iter().take_while(|(m, ..)| *m == n).count();
            if n > expected {
                let (_, _, pos, span) = numbered[i];
                let message = if n - expected == 1 {
                    format!("move {expected} is missing (the sheet goes to {highest})")
                } else {
                    format!(
                        "moves {expected} to {} are missing (the sheet goes to {highest})",
                        n - 1
                    )
                };
                if complete {
                    problems.push((expected, pos, span.len as usize, message));
                }
                cut.get_or_insert(expected);
            }
            if same > 1 {
                let squares: Vec<String> = numbered[i..i + same]
                    .iter()
                    .map(|(_, sq, ..)| sq.to_string())
                    .collect();
                let (_, _, pos, span) = numbered[i + 1];
                let on = match squares.as_slice() {
                    [a, b] => format!("{a} and {b}"),
                    _ => squares.join(", "),
                };
                problems.push((n, pos, span.len as usize, format!("move {n} is on {on}")));
                cut.get_or_insert(n);
            }
            expected = n.saturating_add(1);
            i += same;
        }
        let keep = cut.map_or(u8::MAX, |c| c);
        for (n, sq, _, span) in &numbered {
            if *n >= keep {
                break;
            }
            self.record.moves.push(RecordedMove::new(Move::Play(*sq)));
            self.record.spans.push(*span);
        }
        for (_, pos, len, message) in problems {
            self.problem(pos, len, message);
        }
        for (pos, len, message) in bad {
            self.problem(pos, len, message);
        }
    }

    fn finish(mut self) -> GameRecord {
        if !self.problems.is_empty() {
            let (pos, len, _) = self.problems[0];
            let message: Vec<String> = self.problems.iter().map(|(_, _, m)| m.clone()).collect();
            self.record.defect = Some(ParseError::at(pos.with_len(len), message.join("; ")));
        }
        self.record
    }
}

/// Drops row labels `1`–`8` when every row starts (or ends) with its own.
fn strip_row_labels(rows: &mut [(&Line, Vec<Cell>)]) {
    let label = |r: usize| char::from(b'1' + r as u8).to_string();
    let leading = rows
        .iter()
        .enumerate()
        .all(|(r, (_, cells))| cells.first().is_some_and(|c| c.text == label(r)));
    if leading {
        for (_, cells) in rows.iter_mut() {
            cells.remove(0);
        }
    }
    let trailing = rows
        .iter()
        .enumerate()
        .all(|(r, (_, cells))| cells.len() > 1 && cells.last().is_some_and(|c| c.text == label(r)));
    if trailing {
        for (_, cells) in rows.iter_mut() {
            cells.pop();
        }
    }
}

/// Column centres from the rows that have all eight squares, when those
/// rows line up (each square within a character of the first row's).
fn full_row_centres(rows: &[(&Line, Vec<Cell>)]) -> Option<[i64; 8]> {
    let mut full = rows.iter().map(|(_, c)| c).filter(|c| c.len() == 8);
    let first = full.next()?;
    let mut centres = [0i64; 8];
    for (centre, cell) in centres.iter_mut().zip(first) {
        *centre = cell.centre2();
    }
    for row in full {
        if row
            .iter()
            .zip(&centres)
            .any(|(cell, centre)| (cell.centre2() - centre).abs() > 2)
        {
            return None;
        }
    }
    Some(centres)
}

/// The eight cells of a row, blanks filled in; `None` when that cannot be
/// told.
fn align<'a>(row: &[Cell<'a>], reference: Option<[i64; 8]>, r: usize) -> Option<[Cell<'a>; 8]> {
    let blank = |column: u32| Cell {
        text: "",
        offset: 0,
        column,
        width: 0,
    };
    // Tabs at the end of a row, or after its label, are no squares.
    let mut row = row;
    while row.len() > 8 && row.last().is_some_and(|c| c.text.is_empty()) {
        row = &row[..row.len() - 1];
    }
    while row.len() > 8 && row.first().is_some_and(|c| c.text.is_empty()) {
        row = &row[1..];
    }
    if row.len() == 8 {
        let mut out = [blank(0); 8];
        out.copy_from_slice(row);
        return Some(out);
    }
    if row.len() > 8 {
        return None;
    }
    let mut out = [blank(0); 8];
    let mut taken = [false; 8];
    match reference {
        Some(centres) => {
            for cell in row {
                let c = cell.centre2();
                let (best, _) = centres
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, x)| (c - **x).abs())?;
                if taken[best] {
                    return None;
                }
                taken[best] = true;
                out[best] = *cell;
            }
            for (i, cell) in out.iter_mut().enumerate() {
                if !taken[i] {
                    *cell = Cell {
                        offset: row.first().map_or(0, |c| c.offset),
                        ..blank((centres[i] / 2) as u32)
                    };
                }
            }
            Some(out)
        }
        // Without a reference only the usual case is sure: the two centre
        // squares of rows 4 and 5 left blank.
        None if row.len() == 6 && (r == 3 || r == 4) => {
            out[..3].copy_from_slice(&row[..3]);
            out[5..].copy_from_slice(&row[3..]);
            Some(out)
        }
        None => None,
    }
}

/// Streams sheets from a text input, one game per sheet.
pub struct Reader<R> {
    lines: Lines<R>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            // A line longer than a whole sheet may be is never held whole.
            lines: Lines::new(input, MAX_TEXT + 1),
            games: 0,
            failed: false,
        }
    }

    /// The next line, without its end; `None` at the end of the input. An
    /// over-long line comes back cut, longer than a sheet may be.
    fn next_line(&mut self) -> Option<Result<Line, ReadError>> {
        match self.lines.next_line() {
            Ok(None) => None,
            Ok(Some(
                RawLine::Text { number, byte, text }
                | RawLine::TooLong {
                    number,
                    byte,
                    head: text,
                    ..
                },
            )) => Some(Ok(Line {
                text: String::from_utf8_lossy(text).into_owned(),
                number,
                byte,
            })),
            Err(e) => Some(Err(ReadError::Io(e))),
        }
    }

    /// Where reading has got to: the last line number and byte offset.
    fn reached(&self) -> (u32, u64) {
        (self.lines.line(), self.lines.offset())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            let mut lines: Vec<Line> = Vec::new();
            let mut kept_bytes = 0usize;
            // The first line not kept when a block runs too long.
            let mut skipped: Option<(u32, u64)> = None;
            loop {
                match self.next_line() {
                    None => break,
                    Some(Err(e)) => {
                        self.failed = true;
                        return Some(Err(e));
                    }
                    Some(Ok(line)) => {
                        if line.text.trim().is_empty() {
                            if lines.is_empty() && skipped.is_none() {
                                continue;
                            }
                            break;
                        }
                        if lines.len() >= MAX_LINES || kept_bytes + line.text.len() > MAX_TEXT {
                            // Read on to the blank line, holding nothing.
                            skipped.get_or_insert((line.number, line.byte));
                            continue;
                        }
                        kept_bytes += line.text.len() + 1;
                        lines.push(line);
                    }
                }
            }
            if lines.is_empty() && skipped.is_none() {
                return None;
            }
            if skipped.is_none() && lines.iter().all(|l| is_comment(&l.text)) {
                // A comment block between sheets is not a game.
                continue;
            }
            self.games += 1;
            let (line, byte) = lines
                .first()
                .map(|l| (l.number, l.byte))
                .or(skipped)
                .unwrap_or_else(|| self.reached());
            let origin = Origin {
                index: self.games,
                line: Some(line),
                byte,
                text: Some(
                    lines
                        .iter()
                        .map(|l| l.text.as_str())
                        .collect::<Vec<_>>()
                        .join("\n")
                        .into(),
                ),
            };
            let mut record = GameRecord {
                origin,
                ..GameRecord::default()
            };
            if let Some((line, byte)) = skipped {
                record.defect = Some(ParseError::at(Span::new(byte, line, 1, 1), format!(
                        "not a score sheet: more than {MAX_LINES} lines or {} KiB without a blank line",
                        MAX_TEXT / 1024
                    )));
                return Some(Ok(record));
            }
            let builder = Builder {
                lines: &lines,
                record,
                problems: Vec::new(),
            };
            return Some(Ok(builder.build()));
        }
        None
    }
}

/// Whether the first bytes look like a score sheet: column labels or a
/// row of eight to ten numbers and discs, after any comments and tags.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let mut rows = 0;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || is_comment(line) {
            if rows > 0 {
                break;
            }
            continue;
        }
        if label_line(line).is_some() {
            return true;
        }
        if rows == 0 && tag_line(line).is_some() {
            continue;
        }
        let found: Vec<Cell> = cells(line)
            .into_iter()
            .filter(|c| !c.text.is_empty())
            .collect();
        let looks = (6..=10).contains(&found.len())
            && found.iter().all(|c| value(c.text) != Value::Bad)
            && found
                .iter()
                .filter(|c| matches!(value(c.text), Value::Number(_)))
                .count()
                >= 4;
        if !looks {
            return false;
        }
        rows += 1;
        if rows == 2 {
            return true;
        }
    }
    // A single row that fits the head is enough.
    rows == 1
}

/// The score sheet row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Sheet,
    name: "sheet",
    aliases: &["score-sheet"],
    extensions: &["sheet"],
    summary: "2-D score sheets: move numbers in an 8x8 grid, as players write",
    sniff,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&SheetFormat),
    writable: true,
    carries_status: false,
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::ExplicitPasses,
        Feature::UnreadableMoves,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[
        Check {
            loss: "moves on squares already taken",
            applies: |g| {
                let record = g.record;
                let mut seen = record.start.board().black().0 | record.start.board().white().0;
                record.moves.iter().any(|m| match m.token {
                    Token::Move(Move::Play(sq)) => {
                        let repeated = seen & sq.mask() != 0;
                        seen |= sq.mask();
                        repeated
                    }
                    _ => false,
                })
            },
        },
        Check {
            loss: "tags that are not one line",
            applies: |g| g.record.tags.extra.iter().any(|(k, v)| !writable_tag(k, v)),
        },
    ],
};

/// Writes score sheets.
struct SheetFormat;

impl TextFormat for SheetFormat {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_record(game.record, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}

const KNOWN_TAGS: [&str; 12] = [
    "black",
    "white",
    "event",
    "site",
    "date",
    "round",
    "black rating",
    "white rating",
    "result",
    "theoretical black score",
    "rules",
    "to move",
];

fn writable_tag(key: &str, value: &str) -> bool {
    let line = format!("{key}: {value}");
    tag_line(&line).is_some_and(|(k, v)| k == key && v == value)
        && !KNOWN_TAGS.contains(&key.to_ascii_lowercase().as_str())
        && !value.contains(['\n', '\r'])
}

/// Writes one game as a sheet: tags, the grid, and a blank line.
pub fn write_record(record: &GameRecord, out: &mut String) {
    let tags = &record.tags;
    let fields = [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
        ("Black", &tags.black),
        ("White", &tags.white),
        ("Black rating", &tags.black_rating),
        ("White rating", &tags.white_rating),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            if !v.contains(['\n', '\r']) {
                out.push_str(&format!("{key}: {}\n", v.trim()));
            }
        }
    }
    for (key, value) in &tags.extra {
        if writable_tag(key, value) {
            out.push_str(&format!("{key}: {value}\n"));
        }
    }
    if let Some(result) = &record.result {
        out.push_str(&format!("Result: {result}\n"));
    }
    if let Some(n) = record.theoretical_black_score {
        out.push_str(&format!("Theoretical black score: {n}\n"));
    }
    if record.rules == Rules::Anti {
        out.push_str("Rules: anti\n");
    }
    if record.start.side_to_move() == Color::White {
        out.push_str("To move: white\n");
    }
    let colors = record.move_colors();
    let mut taken = record.start.board().black().0 | record.start.board().white().0;
    let mut number = 0u8;
    let mut moves = [None; 64];
    for (m, color) in record.moves.iter().zip(colors) {
        match m.token {
            Token::Move(Move::Pass) => {}
            Token::Unreadable => number = number.saturating_add(1),
            Token::Move(Move::Play(sq)) => {
                number = number.saturating_add(1);
                if taken & sq.mask() == 0 {
                    taken |= sq.mask();
                    moves[sq.index()] = Some((number, color));
                }
            }
        }
    }
    let style = TextStyle {
        ascii: true,
        ..TextStyle::default()
    };
    out.push_str(&sheet(
        &Sheet {
            moves,
            start: record.start,
        },
        &style,
    ));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<GameRecord> {
        Reader::new(text.as_bytes())
            .map(|g| g.expect("no read error"))
            .collect()
    }

    fn one(text: &str) -> GameRecord {
        let mut games = read(text);
        assert_eq!(games.len(), 1, "{text}");
        games.remove(0)
    }

    fn defect(text: &str) -> String {
        one(text).defect.expect("a defect").message
    }

    /// fixtures/transcripts/example.txt, game 2 (59 moves).
    const GAME: &str = "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1";

    const SHEET: &str = "   a  b  c  d  e  f  g  h
1 56 21 59 42 35 46 58  -
2 53 32 14 24 28  8 50 37
3 43 17  3 19 15  5 11 55
4 40 31 10  O  X  2 16 20
5 27  9  6  X  O  1 51 39
6 12 38 52  7 26 13  4 44
7 47 36 22 30 23 29 18 41
8 54 25 57 34 45 33 48 49
";

    fn fixture(name: &str) -> String {
        let path = format!("{}/fixtures/sheet/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn transcript(text: &str) -> GameRecord {
        let ctx = crate::formats::transcript::LineContext {
            line: 1,
            byte: 0,
            index: 1,
        };
        crate::formats::transcript::parse_line(text.as_bytes(), ctx).expect("a game")
    }

    fn written(record: &GameRecord) -> String {
        let mut out = String::new();
        write_record(record, &mut out);
        out
    }

    /// Same game: everything but where it was read from.
    fn assert_same(a: &GameRecord, b: &GameRecord) {
        assert_eq!(a.start, b.start);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.result, b.result);
        assert_eq!(a.theoretical_black_score, b.theoretical_black_score);
        assert_eq!(a.rules, b.rules);
        assert_eq!(a.defect, b.defect);
    }

    #[test]
    fn the_writer_draws_the_grid_of_show_sheet() {
        assert_eq!(written(&transcript(GAME)), format!("{SHEET}\n"));
    }

    #[test]
    fn every_layout_reads_the_same_game() {
        let games = read(&fixture("variants.sheet"));
        assert_eq!(games.len(), 5);
        for g in &games {
            assert_eq!(g.move_string(), GAME, "game {}", g.origin.index);
            assert_eq!(g.defect, None, "game {}", g.origin.index);
            assert_eq!(g.start, Position::start());
            assert_eq!(g.replay().error, None);
        }
        let lines: Vec<Option<u32>> = games.iter().map(|g| g.origin.line).collect();
        assert_eq!(lines, [Some(5), Some(14), Some(24), Some(35), Some(48)]);
        let indexes: Vec<u64> = games.iter().map(|g| g.origin.index).collect();
        assert_eq!(indexes, [1, 2, 3, 4, 5]);
        assert_eq!(games[3].tags.black.as_deref(), Some("Ann"));
        assert_eq!(games[3].tags.white.as_deref(), Some("Bob"));
        assert_eq!(games[3].result.map(|r| r.to_string()), Some("25-38".into()));
    }

    #[test]
    fn spans_point_at_each_number() {
        let text = fixture("variants.sheet");
        let games = read(&text);
        for g in &games {
            assert_eq!(g.spans.each().len(), g.moves.len());
            for (i, span) in g.spans.each().iter().enumerate() {
                let at = &text[span.byte as usize..(span.byte + u64::from(span.len)) as usize];
                assert_eq!(
                    at,
                    (i + 1).to_string(),
                    "game {} move {}",
                    g.origin.index,
                    i + 1
                );
                let line = g.origin.line_text(span.line).expect("the line");
                let column: String = line
                    .chars()
                    .skip(span.column as usize - 1)
                    .take(at.len())
                    .collect();
                assert_eq!(column, at);
            }
        }
        // Move 1 (f5) in the first sheet: line 9, column 17.
        assert_eq!(
            (
                games[0].span(0).unwrap().line,
                games[0].span(0).unwrap().column
            ),
            (9, 17)
        );
    }

    #[test]
    fn round_trip_on_the_fixtures() {
        for name in ["variants.sheet", "tagged.sheet"] {
            for game in read(&fixture(name)) {
                let back = one(&written(&game));
                assert_same(&back, &game);
            }
        }
    }

    #[test]
    fn tags_results_and_starts_round_trip() {
        let games = read(&fixture("tagged.sheet"));
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tags.event.as_deref(), Some("Club championship"));
        assert_eq!(g.tags.date.as_deref(), Some("2024-05-01"));
        assert_eq!(g.tags.black_rating.as_deref(), Some("1850"));
        assert_eq!(g.tags.extra, [("Opening".to_string(), "Tiger".to_string())]);
        assert_eq!(
            g.result.map(|r| r.to_string()),
            Some("25-38 (resigned)".into())
        );
        assert_eq!(g.theoretical_black_score, Some(30));
        let h = &games[1];
        assert_eq!(h.rules, Rules::Anti);
        assert_eq!(h.start.side_to_move(), Color::White);
        assert_eq!(h.start.board().black().count(), 3);
        assert_eq!(h.start.board().white().count(), 2);
        assert_eq!(h.move_string(), "g4f3");
        assert_eq!(h.replay().error, None);
        assert_eq!(
            written(g),
            fixture("tagged.sheet")
                .split("\n\n")
                .next()
                .unwrap()
                .to_owned()
                + "\n\n"
        );
    }

    /// A small seeded xorshift generator, so random tests repeat exactly.
    use crate::testkit::Rng;

    #[test]
    fn round_trip_on_random_games() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for n in 0..300 {
            let mut pos = Position::start();
            let mut record = GameRecord::default();
            let stop = 1 + rng.below(70);
            while record.moves.len() < stop {
                if !pos.has_moves() {
                    if pos.is_game_over() {
                        break;
                    }
                    pos.pass();
                }
                let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
                let mv = legal[rng.below(legal.len())];
                pos.play(mv).unwrap();
                record.moves.push(RecordedMove::new(Move::Play(mv)));
            }
            let text = written(&record);
            let back = one(&text);
            assert_same(&back, &record);
            assert_eq!(back.replay(), record.replay(), "game {n}: {text}");
        }
    }

    #[test]
    fn a_number_on_two_squares() {
        let text = SHEET.replace(" 23 29", " 22 29");
        let g = one(&text);
        let d = g.defect.clone().expect("a defect");
        assert_eq!(
            d.message,
            "move 22 is on c7 and e7; move 23 is missing (the sheet goes to 59)"
        );
        assert_eq!((d.span.line, d.span.column, d.span.len), (8, 15, 2));
        assert_eq!(g.moves.len(), 21);
        assert_eq!(g.replay().error.map(|e| e.to_string()), Some(d.message));
    }

    #[test]
    fn a_missing_number() {
        let text = SHEET.replace(" 30 23", "  - 23");
        let g = one(&text);
        let d = g.defect.expect("a defect");
        assert_eq!(d.message, "move 30 is missing (the sheet goes to 59)");
        // At the number after the gap, 31 on b4.
        assert_eq!((d.span.line, d.span.column, d.span.len), (5, 6, 2));
        assert_eq!(g.moves.len(), 29);
        let text = SHEET
            .replace(" 30 23", "  - 23")
            .replace(" 31 10", "  - 10");
        assert_eq!(
            defect(&text),
            "moves 30 to 31 are missing (the sheet goes to 59)"
        );
    }

    #[test]
    fn numbers_that_are_not_moves() {
        let g = one(&SHEET.replace("58  -", "58 61"));
        let d = g.defect.expect("a defect");
        assert_eq!(d.message, "move 61 on h1: the sheet has room for 60 moves");
        assert_eq!((d.span.line, d.span.column, d.span.len), (2, 24, 2));
        assert_eq!(g.moves.len(), 59, "the moves are all there");
        assert_eq!(
            defect(&SHEET.replace("58  -", "58 ab")),
            "not a move number or a disc: \"ab\""
        );
        assert_eq!(
            defect(&SHEET.replace("58  -", "58 7½")),
            "not a move number or a disc: \"7½\""
        );
    }

    #[test]
    fn rows_and_squares_that_do_not_fit() {
        let seven: String = SHEET.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert_eq!(defect(&seven), "a sheet has 8 rows of squares, found 7");
        assert_eq!(
            defect(&SHEET.replace("3 43 17  3", "3 43 17 3 0")),
            "row 3 has 9 squares, expected 8"
        );
        // Single spaces: no column to line a short row up with.
        let short = "56 21 59 42 35 46 58\n53 32 14 24 28 8 50 37\n43 17 3 19 15 5 11 55\n40 31 10 0 0 2 16 20\n27 9 6 0 0 1 51 39\n12 38 52 7 26 13 4 44\n47 36 22 30 23 29 18 41\n54 25 57 34 45 33 48 49\n";
        assert_eq!(
            defect(short),
            "row 1 has 7 squares, expected 8 (cannot tell which are blank)"
        );
        assert_eq!(
            defect(&format!("{SHEET}move 59: white c1\n")),
            "not a row of the grid"
        );
        let g = one(&SHEET.replace("55\n4", "55\nTitle: x\n4"));
        let d = g.defect.expect("a defect");
        assert_eq!(
            (d.message.as_str(), d.span.line),
            ("not a row of the grid", 5)
        );
    }

    #[test]
    fn start_discs_from_the_marks() {
        let stars = SHEET.replace(" O  X", " *  *").replace(" X  O", " *  *");
        assert_eq!(one(&stars).start, Position::start());
        assert_eq!(
            defect(&stars.replace("58  -", "58  *")),
            "a disc outside the centre needs its colour (X or O): \"*\""
        );
        let crosses = SHEET.replace(" O  X", " X  X").replace(" X  O", " X  X");
        assert_eq!(one(&crosses).start, Position::start());
        // Coloured marks anywhere give the start; `*` is black beside O.
        let text = SHEET
            .replace("4 40 31 10  O  X", "4 40 31 10  O  *")
            .replace("5 27  9  6  X  O", "5 27  9  6  *  O");
        assert_eq!(one(&text).start, Position::start());
        // The colours swapped: the game no longer fits.
        let text = SHEET
            .replace("4 40 31 10  O  X", "4 40 31 10  X  O")
            .replace("5 27  9  6  X  O", "5 27  9  6  O  X");
        let g = one(&text);
        assert_eq!(g.start.board().black().count(), 2);
        assert_ne!(g.start, Position::start());
        assert_eq!(
            g.replay().error.map(|e| e.to_string()),
            Some("move 1 (black) f5: flips nothing".into())
        );
    }

    #[test]
    fn a_number_on_a_start_disc_is_a_replay_error_at_it() {
        let g = one(&SHEET
            .replace("4 40 31 10  O", "4 40 31 10 23")
            .replace(" 23 29", "  - 29"));
        assert_eq!(g.start, Position::start());
        assert_eq!(g.defect, None);
        let e = g.replay().error.expect("invalid");
        assert_eq!(e.to_string(), "move 23 (black) d4: square occupied");
        let span = g.span(22).unwrap();
        assert_eq!((span.line, span.column, span.len), (5, 12, 2));
    }

    #[test]
    fn a_runaway_block_is_one_defect() {
        let text = "1 2 3\n".repeat(100) + "\n" + SHEET;
        let games = read(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].defect.as_ref().unwrap().message,
            "not a score sheet: more than 64 lines or 64 KiB without a blank line"
        );
        assert_eq!(games[0].defect.as_ref().unwrap().span.line, 65);
        assert_eq!(games[0].moves.len(), 0);
        assert_eq!(games[1].move_string(), GAME);
        assert_eq!(games[1].origin.line, Some(102));
        // One line too long for a sheet, then a sheet.
        let text = format!("{}\n\n# note\n\n{SHEET}", "7 ".repeat(40_000));
        let games = read(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].origin.line, Some(1));
        assert_eq!(games[1].move_string(), GAME);
        assert_eq!(games[1].origin.line, Some(5));
    }

    #[test]
    fn sniff_tells_sheets_from_other_text() {
        assert!(sniff(SHEET.as_bytes()));
        assert!(sniff(fixture("variants.sheet").as_bytes()));
        assert!(sniff(fixture("tagged.sheet").as_bytes()));
        assert!(sniff(
            b"\t56\t21\t59\t42\t35\t46\t58\t\n53\t32\t14\t24\t28\t8\t50\t37\n"
        ));
        for other in [
            &b"f5d6c3d3c4\n"[..],
            b"76\nC4c3D3c5B2\n",
            b"source,index,event\n",
            b"{\"moves\":\"f5\"}\n",
            b"[Event \"x\"]\n1. f5 d6\n",
            b"1. f5 d6 2. c3 d3 3. c4 f4 4. f6 f3\n",
            b"",
        ] {
            assert!(!sniff(other), "{}", String::from_utf8_lossy(other));
        }
    }

    proptest::proptest! {
        /// Any text made of sheet-like pieces reads without a panic, and
        /// every move's span points at its own number.
        #[test]
        fn any_sheet_like_text_reads_with_spans_on_the_numbers(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    " ", "  ", "\t", "\n", "\n\n", "1", "7", "12", "60", "61", "0", "-", "X", "O",
                    "*", "●", "a b c d e f g h", "Black: x", "# c", "ab", "\r\n",
                ]),
                0..300,
            )
        ) {
            let text: String = pieces.concat();
            for game in Reader::new(text.as_bytes()) {
                let game = game.expect("reading a string cannot fail");
                proptest::prop_assert_eq!(game.spans.each().len(), game.moves.len());
                for (i, span) in game.spans.each().iter().enumerate() {
                    let start = span.byte as usize;
                    let at = text.get(start..start + span.len as usize);
                    let number = at.and_then(|t| t.parse::<usize>().ok());
                    proptest::prop_assert_eq!(number, Some(i + 1));
                }
            }
        }
    }

    #[test]
    fn losses_name_what_a_sheet_cannot_hold() {
        let mut lost = Vec::new();
        lost.extend(crate::formats::Format::Sheet.losses_of(&transcript(GAME)));
        assert!(lost.is_empty());
        let mut r = transcript("f5 d6 pass c3 zz f5");
        let timed = crate::MoveNote {
            eval: Some(0.5),
            time: Some(1.5),
        };
        r.notes = vec![timed; r.moves.len()];
        r.tags.extra.push(("two\nlines".into(), "x".into()));
        lost.extend(crate::formats::Format::Sheet.losses_of(&r));
        assert_eq!(
            lost,
            [
                "per-move evaluations",
                "per-move times",
                "explicit passes",
                "unreadable moves",
                "moves on squares already taken",
                "tags that are not one line"
            ]
        );
    }
}
