//! Text diagrams of a position and of a score sheet.

use crate::{Color, Position, Square};

/// How to draw a text diagram.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextStyle {
    /// `X`/`O`/`-` and `.` for legal moves instead of `●`/`○`/`·` and `+`.
    pub ascii: bool,
    /// Mark the squares where the next player may move.
    pub legal_moves: bool,
    /// The square of the last move, set off by brackets in plain text.
    pub last_move: Option<Square>,
}

/// What a square of a diagram shows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// A black disc.
    Black,
    /// A white disc.
    White,
    /// An empty square.
    Empty,
    /// An empty square where the next player may move.
    Legal,
}

impl TextStyle {
    /// The glyph for a cell in this style.
    #[must_use]
    pub fn glyph(&self, cell: Cell) -> char {
        match (cell, self.ascii) {
            (Cell::Black, false) => '●',
            (Cell::White, false) => '○',
            (Cell::Empty, false) => '·',
            (Cell::Legal, false) => '+',
            (Cell::Black, true) => 'X',
            (Cell::White, true) => 'O',
            (Cell::Empty, true) => '-',
            (Cell::Legal, true) => '.',
        }
    }

    /// The glyph for a side's discs.
    #[must_use]
    pub fn disc(&self, color: Color) -> char {
        self.glyph(match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        })
    }
}

/// The moves of whoever plays next: the side to move, or its opponent
/// when the side to move must pass.
#[must_use]
pub fn next_moves(position: &Position) -> u64 {
    position.next_moves().0
}

/// The cells of a position, row by row from `a1`.
#[must_use]
pub fn cells(position: &Position, legal_moves: bool) -> [[Cell; 8]; 8] {
    let legal = if legal_moves { next_moves(position) } else { 0 };
    let mut grid = [[Cell::Empty; 8]; 8];
    for sq in Square::all() {
        grid[sq.row() as usize][sq.column() as usize] = match position.board().get(sq) {
            Some(Color::Black) => Cell::Black,
            Some(Color::White) => Cell::White,
            None if legal & sq.mask() != 0 => Cell::Legal,
            None => Cell::Empty,
        };
    }
    grid
}

/// Draws the board with coordinates on all four sides; the last move is
/// set off by brackets.
///
/// ```
/// use kifu::render::text::{diagram, TextStyle};
/// let style = TextStyle { ascii: true, legal_moves: true, last_move: None };
/// let text = diagram(&kifu::Position::start(), &style);
/// assert_eq!(text.lines().nth(3), Some("3 - - - . - - - - 3"));
/// assert_eq!(text.lines().nth(4), Some("4 - - . O X - - - 4"));
/// ```
#[must_use]
pub fn diagram(position: &Position, style: &TextStyle) -> String {
    let grid = cells(position, style.legal_moves);
    let last = style.last_move;
    let mut out = String::with_capacity(400);
    out.push_str("  a b c d e f g h\n");
    for (row, cells) in grid.iter().enumerate() {
        out.push(char::from(b'1' + row as u8));
        for (column, cell) in cells.iter().enumerate() {
            let here = Square::from_coords(column as u8, row as u8);
            let before = column
                .checked_sub(1)
                .and_then(|c| Square::from_coords(c as u8, row as u8));
            out.push(if last.is_some() && here == last {
                '['
            } else if last.is_some() && before == last {
                ']'
            } else {
                ' '
            });
            out.push(style.glyph(*cell));
        }
        let end = Square::from_coords(7, row as u8);
        out.push(if last.is_some() && end == last {
            ']'
        } else {
            ' '
        });
        out.push(char::from(b'1' + row as u8));
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    out
}

/// Draws the board like [`diagram`], passing each glyph through `paint`
/// (with its cell and whether it is the last move) instead of bracketing
/// the last move: the command line uses it to colour a terminal.
#[must_use]
pub fn diagram_painted(
    position: &Position,
    style: &TextStyle,
    paint: &dyn Fn(Cell, bool, char) -> String,
) -> String {
    let grid = cells(position, style.legal_moves);
    let mut out = String::with_capacity(800);
    out.push_str("  a b c d e f g h\n");
    for (row, cells) in grid.iter().enumerate() {
        out.push(char::from(b'1' + row as u8));
        for (column, cell) in cells.iter().enumerate() {
            let last = Square::from_coords(column as u8, row as u8) == style.last_move
                && style.last_move.is_some();
            out.push(' ');
            out.push_str(&paint(*cell, last, style.glyph(*cell)));
        }
        out.push(' ');
        out.push(char::from(b'1' + row as u8));
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    out
}

/// A score sheet: the number of the move that placed each disc (1 for
/// the first disc placed), or the colour of a disc already on the board at
/// the start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sheet {
    /// By square index: `Some((number, colour of the mover))`.
    pub moves: [Option<(u8, Color)>; 64],
    /// The start position.
    pub start: Position,
}

impl Sheet {
    /// The sheet of the squares played, in order, from `start`.
    #[must_use]
    pub fn new(start: Position, played: &[(Square, Color)]) -> Sheet {
        let mut moves = [None; 64];
        for (i, (sq, color)) in played.iter().enumerate() {
            let number = u8::try_from(i + 1).unwrap_or(u8::MAX);
            moves[sq.index()] = Some((number, *color));
        }
        Sheet { moves, start }
    }
}

/// Draws a score sheet: move numbers in the squares where they were
/// played, the start discs as discs.
///
/// ```
/// use kifu::render::text::{sheet, Sheet, TextStyle};
/// use kifu::{Color, Position};
/// let s = Sheet::new(Position::start(), &[("f5".parse()?, Color::Black)]);
/// let text = sheet(&s, &TextStyle::default());
/// assert_eq!(text.lines().nth(5), Some("5  ·  ·  ·  ●  ○  1  ·  ·"));
/// # Ok::<(), kifu::ParseSquareError>(())
/// ```
#[must_use]
pub fn sheet(sheet: &Sheet, style: &TextStyle) -> String {
    let mut out = String::with_capacity(300);
    out.push_str("   a  b  c  d  e  f  g  h\n");
    for row in 0..8u8 {
        let mut line = String::new();
        line.push(char::from(b'1' + row));
        for column in 0..8u8 {
            let Some(sq) = Square::from_coords(column, row) else {
                continue;
            };
            let text = match (sheet.moves[sq.index()], sheet.start.board().get(sq)) {
                (Some((n, _)), _) => n.to_string(),
                (None, Some(color)) => style.disc(color).to_string(),
                (None, None) => style.glyph(Cell::Empty).to_string(),
            };
            line.push_str(&format!("{text:>3}"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_move_is_bracketed_without_shifting_columns() {
        let mut pos = Position::start();
        let f5: Square = "f5".parse().unwrap();
        pos.play(f5).unwrap();
        let style = TextStyle {
            ascii: true,
            legal_moves: false,
            last_move: Some(f5),
        };
        let text = diagram(&pos, &style);
        assert_eq!(text.lines().nth(5), Some("5 - - - X X[X]- - 5"));
        let h1: Square = "h1".parse().unwrap();
        let style = TextStyle {
            last_move: Some(h1),
            ..style
        };
        assert_eq!(
            diagram(&pos, &style).lines().nth(1),
            Some("1 - - - - - - -[-]1")
        );
    }

    #[test]
    fn painted_diagram_passes_every_cell() {
        let style = TextStyle {
            ascii: true,
            legal_moves: true,
            last_move: Some("d4".parse().unwrap()),
        };
        let text = diagram_painted(&Position::start(), &style, &|cell, last, glyph| match (
            cell, last,
        ) {
            (_, true) => format!("<{glyph}>"),
            (Cell::Legal, _) => "?".into(),
            _ => glyph.to_string(),
        });
        assert_eq!(text.lines().nth(4), Some("4 - - ? <O> X - - - 4"));
    }
}
