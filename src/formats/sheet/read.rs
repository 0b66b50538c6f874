//! Reading score sheets: lines into blocks, a block into cells, the cells
//! into a grid of move numbers and start discs, the grid into moves.

use std::io::BufRead;

use crate::engine::game::Move;
use crate::formats::lines::{Line as RawLine, Lines};
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::{Origin, RecordedMove, RecordedResult};
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
pub(super) fn tag_line(line: &str) -> Option<(&str, &str)> {
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

/// Read game by game (not parsed in the workers).
impl<R: BufRead + Send> crate::formats::format::GameReader for Reader<R> {}

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
