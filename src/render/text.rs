//! Text diagrams of a position.

use crate::{Color, Position, Square};

/// How to draw a text diagram.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextStyle {
    /// `X`/`O`/`-` and `.` for legal moves instead of `●`/`○`/`·` and `+`.
    pub ascii: bool,
    /// Mark the squares where the side to move may play.
    pub legal_moves: bool,
}

impl TextStyle {
    fn glyph(&self, disc: Option<Color>, legal: bool) -> char {
        match (disc, self.ascii) {
            (Some(Color::Black), false) => '●',
            (Some(Color::White), false) => '○',
            (Some(Color::Black), true) => 'X',
            (Some(Color::White), true) => 'O',
            (None, false) if legal => '+',
            (None, true) if legal => '.',
            (None, false) => '·',
            (None, true) => '-',
        }
    }

    /// The glyph for a side's discs.
    #[must_use]
    pub fn disc(&self, color: Color) -> char {
        self.glyph(Some(color), false)
    }
}

/// Draws the board with coordinates on all four sides.
///
/// The legal moves marked are those of the player who moves next: the side
/// to move, or its opponent when the side to move must pass.
///
/// ```
/// use kifu::render::text::{diagram, TextStyle};
/// let style = TextStyle { ascii: true, legal_moves: true };
/// let text = diagram(&kifu::Position::start(), &style);
/// assert_eq!(text.lines().nth(3), Some("3 - - - . - - - - 3"));
/// assert_eq!(text.lines().nth(4), Some("4 - - . O X - - - 4"));
/// ```
#[must_use]
pub fn diagram(position: &Position, style: &TextStyle) -> String {
    let legal = if !style.legal_moves {
        0
    } else if position.has_moves() {
        position.legal_moves().0
    } else {
        let mut passed = *position;
        passed.pass();
        passed.legal_moves().0
    };
    let mut out = String::with_capacity(400);
    out.push_str("  a b c d e f g h\n");
    for row in 0..8u8 {
        out.push(char::from(b'1' + row));
        for column in 0..8u8 {
            let Some(sq) = Square::from_coords(column, row) else {
                continue;
            };
            out.push(' ');
            out.push(style.glyph(position.board().get(sq), legal & sq.mask() != 0));
        }
        out.push(' ');
        out.push(char::from(b'1' + row));
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    out
}
