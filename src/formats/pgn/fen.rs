//! `FEN`: another start position, in Edax's form.

use crate::{Bitboard, Board, Color, Position, Square};

/// A start position from a `FEN` tag value.
pub(super) fn parse_fen(value: &str) -> Result<Position, String> {
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
pub(super) fn write_fen(position: &Position, out: &mut String) {
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
