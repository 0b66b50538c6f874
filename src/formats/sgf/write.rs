//! Writing SGF: the root node with the tags, then one node per move.

use crate::game::{Move, Winner};
use crate::record::{RecordedResult, ResultKind, ResultValue, Token};
use crate::table::Game;
use crate::{Board, Color, GameRecord, Square};

/// Appends `[value]` with `]` and `\` escaped, and a `(` that starts a
/// line too (readers take `\n(;GM[` in an unclosed value for a new game).
fn push_value(out: &mut String, value: &str) {
    out.push('[');
    let mut blank_line = false;
    for c in value.chars() {
        if c == ']' || c == '\\' || (c == '(' && blank_line) {
            out.push('\\');
        }
        out.push(c);
        if c == '\n' {
            blank_line = true;
        } else if !c.is_whitespace() {
            blank_line = false;
        }
    }
    out.push(']');
}

/// Property names the writer produces itself; extras so named are left
/// out.
pub(super) const STRUCTURAL: [&str; 11] = [
    "B", "W", "AB", "AW", "AE", "PL", "GM", "FF", "SZ", "CA", "AP",
];

/// The SGF identifier for a tag name: its letters, upper-cased.
pub(super) fn sgf_ident(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn margin_text(m: f64) -> String {
    let fmt = |x: f64| {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            format!("{}", x as i64)
        } else {
            format!("{x}")
        }
    };
    if m > 0.0 {
        format!("B+{}", fmt(m))
    } else if m < 0.0 {
        format!("W+{}", fmt(-m))
    } else {
        "0".to_owned()
    }
}

/// The `RE` value for a result.
pub(super) fn result_text(result: &RecordedResult) -> String {
    let winner_only = |w: Option<Winner>, suffix: &str| match w {
        Some(Winner::Black) => format!("B+{suffix}"),
        Some(Winner::White) => format!("W+{suffix}"),
        Some(Winner::Draw) | None => "0".to_owned(),
    };
    match result.kind {
        ResultKind::Resigned => winner_only(result.winner(), "R"),
        ResultKind::Time => winner_only(result.winner(), "T"),
        ResultKind::Score | ResultKind::Mutual => match result.value {
            ResultValue::Margin(m) => margin_text(m),
            ResultValue::Discs { .. } => match result.black_score() {
                Some(b) => margin_text(2.0 * f64::from(b) - 64.0),
                None => winner_only(result.winner(), ""),
            },
            ResultValue::RawMargin(_) | ResultValue::Winner(_) => winner_only(result.winner(), ""),
        },
    }
}

/// Writes one game: the root node with the tags, then one move per node.
///
/// ```
/// use kifu::formats::sgf::{write_record, Reader};
///
/// let game = Reader::new(&b"(;GM[2]EV[Cup];B[f5];W[d6])"[..]).next().unwrap()?;
/// let mut out = String::new();
/// write_record(&game, &mut out);
/// assert!(out.starts_with("(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:"));
/// assert!(out.ends_with("]\nEV[Cup]\n;B[f5];W[d6]\n)\n"));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying).
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    out.push_str("(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("]\n");
    let t = &record.tags;
    let mut line = String::new();
    for (id, value) in [
        ("PB", &t.black),
        ("PW", &t.white),
        ("BR", &t.black_rating),
        ("WR", &t.white_rating),
        ("EV", &t.event),
        ("RO", &t.round),
        ("DT", &t.date),
        ("PC", &t.site),
    ] {
        if let Some(value) = value {
            line.push_str(id);
            push_value(&mut line, value);
        }
    }
    if let Some(result) = &record.result {
        line.push_str("RE");
        push_value(&mut line, &result_text(result));
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    line.clear();
    let mut last: Option<String> = None;
    for (name, value) in &t.extra {
        let id = sgf_ident(name);
        if id.is_empty() || STRUCTURAL.contains(&id.as_str()) {
            last = None;
            continue;
        }
        if last.as_deref() != Some(id.as_str()) {
            line.push_str(&id);
        }
        push_value(&mut line, value);
        last = Some(id);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    let colors: Vec<Color> = record.plies(game.report).map(|t| t.color).collect();
    let side = record.start.side_to_move();
    let board = record.start.board();
    if *board != Board::START {
        if board.black().is_empty() && board.white().is_empty() {
            // `AE` edits the standard board: all of it, an empty board.
            out.push_str("AE[a1:h8]");
        }
        for (id, discs) in [("AB", board.black()), ("AW", board.white())] {
            if !discs.is_empty() {
                out.push_str(id);
                for sq in discs {
                    push_value(out, &sq.to_string());
                }
            }
        }
    }
    // Without `PL` a reader takes the first move's colour (or Black).
    if *board != Board::START || colors.first().is_some_and(|&c| c != side) || side == Color::White
    {
        out.push_str(match side {
            Color::Black => "PL[B]\n",
            Color::White => "PL[W]\n",
        });
    }
    for (i, m) in record.moves.iter().enumerate() {
        out.push_str(match colors.get(i) {
            Some(Color::White) => ";W",
            _ => ";B",
        });
        match m.token {
            Token::Move(Move::Play(sq)) => push_value(out, &sq.to_string()),
            Token::Move(Move::Pass) => out.push_str("[PA]"),
            Token::Unreadable => push_value(out, &unreadable_value(&record.token_text(i))),
        }
        if i % 10 == 9 {
            out.push('\n');
        }
    }
    if !record.moves.is_empty() && record.moves.len() % 10 != 0 {
        out.push('\n');
    }
    out.push_str(")\n");
}

/// An unreadable token as a move value that reads back unreadable (not
/// as a pass or a square).
pub(super) fn unreadable_value(text: &str) -> String {
    let t = text.trim().as_bytes();
    let readable = t.is_empty()
        || t.eq_ignore_ascii_case(b"pa")
        || t.eq_ignore_ascii_case(b"pass")
        || t.eq_ignore_ascii_case(b"tt")
        || Square::from_ascii(t).is_some();
    if readable {
        format!("?{}", text.trim())
    } else {
        text.trim().to_owned()
    }
}
