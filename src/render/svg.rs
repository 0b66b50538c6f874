//! SVG pictures of a position or a score sheet: a green board with a
//! grid, coordinates, discs, the last move marked, and optionally the move
//! numbers on the discs (a transcript diagram as printed in Othello books).

use std::fmt::Write;

use crate::render::text::{next_moves, Sheet};
use crate::{Color, Position, Square};

const CELL: u32 = 40;
const MARGIN: u32 = 24;
const SIZE: u32 = 8 * CELL + 2 * MARGIN;

/// What to draw besides the discs.
#[derive(Clone, Copy, Debug, Default)]
pub struct SvgOptions {
    /// Mark the last move with a red dot.
    pub last_move: Option<Square>,
    /// Mark the squares where the next player may move.
    pub legal_moves: bool,
}

fn centre(sq: Square) -> (u32, u32) {
    (
        MARGIN + u32::from(sq.column()) * CELL + CELL / 2,
        MARGIN + u32::from(sq.row()) * CELL + CELL / 2,
    )
}

fn frame(out: &mut String, title: &str) {
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}" font-family="DejaVu Sans, Arial, sans-serif">
<title>{title}</title>
<rect width="{SIZE}" height="{SIZE}" fill="#f7f3e8"/>
<rect x="{MARGIN}" y="{MARGIN}" width="{b}" height="{b}" fill="#1d7a3e" stroke="#0b2e17" stroke-width="2"/>
"##,
        b = 8 * CELL
    );
    for i in 1..8 {
        let p = MARGIN + i * CELL;
        let end = MARGIN + 8 * CELL;
        let _ = writeln!(
            out,
            r##"<line x1="{p}" y1="{MARGIN}" x2="{p}" y2="{end}" stroke="#0b2e17" stroke-width="1"/><line x1="{MARGIN}" y1="{p}" x2="{end}" y2="{p}" stroke="#0b2e17" stroke-width="1"/>"##
        );
    }
    // The four dots at the corners of the central 4×4 area.
    for (x, y) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
        let _ = writeln!(
            out,
            r##"<circle cx="{}" cy="{}" r="3" fill="#0b2e17"/>"##,
            MARGIN + x * CELL,
            MARGIN + y * CELL
        );
    }
    for i in 0..8u32 {
        let c = MARGIN + i * CELL + CELL / 2;
        let letter = char::from(b'a' + i as u8);
        let digit = char::from(b'1' + i as u8);
        let _ = writeln!(
            out,
            r##"<text x="{c}" y="{}" font-size="14" text-anchor="middle" fill="#333">{letter}</text><text x="{}" y="{}" font-size="14" text-anchor="middle" fill="#333">{digit}</text>"##,
            MARGIN - 8,
            MARGIN / 2,
            c + 5
        );
    }
}

fn disc(out: &mut String, sq: Square, color: Color) {
    let (x, y) = centre(sq);
    let (fill, stroke) = match color {
        Color::Black => ("#111111", "#000000"),
        Color::White => ("#f5f5f5", "#222222"),
    };
    let _ = writeln!(
        out,
        r##"<circle cx="{x}" cy="{y}" r="17" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"##
    );
}

/// A picture of `position`.
///
/// ```
/// use kifu::render::svg::{position_svg, SvgOptions};
/// let svg = position_svg(&kifu::Position::start(), &SvgOptions::default());
/// assert!(svg.starts_with("<svg"));
/// assert_eq!(svg.matches("r=\"17\"").count(), 4);
/// ```
#[must_use]
pub fn position_svg(position: &Position, options: &SvgOptions) -> String {
    let mut out = String::with_capacity(8 * 1024);
    frame(&mut out, "Othello position");
    for sq in Square::all() {
        if let Some(color) = position.board().get(sq) {
            disc(&mut out, sq, color);
        }
    }
    if options.legal_moves {
        for sq in crate::Bitboard(next_moves(position)) {
            let (x, y) = centre(sq);
            let _ = writeln!(
                out,
                r##"<circle cx="{x}" cy="{y}" r="5" fill="#0b2e17" fill-opacity="0.55"/>"##
            );
        }
    }
    if let Some(sq) = options.last_move {
        let (x, y) = centre(sq);
        let _ = writeln!(out, r##"<circle cx="{x}" cy="{y}" r="5" fill="#d62828"/>"##);
    }
    out.push_str("</svg>\n");
    out
}

/// A transcript diagram: the start discs, and every move as a disc of the
/// mover's colour with its number on it.
#[must_use]
pub fn sheet_svg(sheet: &Sheet) -> String {
    let mut out = String::with_capacity(12 * 1024);
    frame(&mut out, "Othello score sheet");
    for sq in Square::all() {
        match (sheet.moves[sq.index()], sheet.start.board().get(sq)) {
            (Some((number, color)), _) => {
                disc(&mut out, sq, color);
                let (x, y) = centre(sq);
                let ink = match color {
                    Color::Black => "#ffffff",
                    Color::White => "#111111",
                };
                let _ = writeln!(
                    out,
                    r##"<text x="{x}" y="{}" font-size="16" font-weight="bold" text-anchor="middle" fill="{ink}">{number}</text>"##,
                    y + 6
                );
            }
            (None, Some(color)) => disc(&mut out, sq, color),
            (None, None) => {}
        }
    }
    out.push_str("</svg>\n");
    out
}
