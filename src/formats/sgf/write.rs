//! Writing SGF: the root node with the tags and the game's comments, then
//! one node per move and pass, each with its comments, and the
//! variations as subtrees where they branch off.

use std::borrow::Cow;

use crate::engine::game::{Move, Winner};
use crate::formats::sgf::frame::new_game_head;
use crate::record::date::RecordDate;
use crate::record::row::Game;
use crate::record::{AnnotationKind, RecordedResult, ResultKind, ResultValue, Token};
use crate::{Board, Color, GameRecord, Square};

/// Appends `[value]` with `]` and `\` escaped, and a `(` that starts a
/// line too (readers take `\n(;GM[` in an unclosed value for a new game).
pub(super) fn push_value(out: &mut String, value: &str) {
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

/// Writes one game: the root node with the tags and the game's comments,
/// then one node per move and pass, with the comments and variations
/// where the record puts them.
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

/// Writes one replayed game (what [`write_record`] does after replaying):
/// colours and the passes a record leaves out come from its replay
/// (`game.report`), never from replaying again.
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    out.push_str("(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("]\n");
    push_tags(record, out);
    let mut turns = record.plies(game.report).peekable();
    // The first node's colour: the side to move, when the replay puts
    // its pass before the first move.
    let first = turns.peek().map(|t| {
        if t.pass_before {
            t.color.opponent()
        } else {
            t.color
        }
    });
    push_setup(record, first, out);
    let marks = Marks::of(record);
    if push_comments(out, marks.comments(0)) {
        out.push('\n');
    }
    // Branch points, innermost last: each one's variations follow the
    // `)` of the main line's subtree opened there.
    let mut open = Vec::new();
    let mut nodes = 0;
    let mut end_node = |out: &mut String| {
        nodes += 1;
        if nodes == 10 {
            out.push('\n');
            nodes = 0;
        }
    };
    for k in 0..=record.moves.len() {
        if !marks.variations(k).is_empty() {
            out.push('(');
            open.push(k);
            if k == record.moves.len() {
                // The main line goes on with an empty node: a first
                // child would be read as the main line.
                out.push(';');
            }
        }
        let Some(turn) = turns.next() else {
            break;
        };
        if turn.pass_before {
            // Readers that alternate colours need the pass the record
            // leaves out.
            out.push_str(color_node(turn.color.opponent()));
            out.push_str("[PA]");
            end_node(out);
        }
        out.push_str(color_node(turn.color));
        match turn.token {
            Token::Move(Move::Play(sq)) => push_value(out, &sq.to_string()),
            Token::Move(Move::Pass) => out.push_str("[PA]"),
            Token::Unreadable => push_value(out, &unreadable_value(&record.token_text(turn.index))),
        }
        push_comments(out, marks.comments(k + 1));
        end_node(out);
    }
    if nodes > 0 {
        out.push('\n');
    }
    for &k in open.iter().rev() {
        out.push(')');
        for variation in marks.variations(k) {
            out.push_str(variation);
        }
        out.push('\n');
    }
    out.push_str(")\n");
}

/// The root's tags, the result, then the extra tags, a line each.
fn push_tags(record: &GameRecord, out: &mut String) {
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
            if id == "DT" {
                push_value(&mut line, &date_text(value));
            } else {
                push_value(&mut line, value);
            }
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
}

/// `AB`/`AW` for a board other than the standard one, and `PL` where a
/// reader could not tell the side to move: `first` is the first node's
/// colour.
fn push_setup(record: &GameRecord, first: Option<Color>, out: &mut String) {
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
    if *board != Board::START || first.is_some_and(|c| c != side) || side == Color::White {
        out.push_str(match side {
            Color::Black => "PL[B]\n",
            Color::White => "PL[W]\n",
        });
    }
}

/// The start of a move node of `color`.
fn color_node(color: Color) -> &'static str {
    match color {
        Color::Black => ";B",
        Color::White => ";W",
    }
}

/// Appends `C[..]` with `comments` as its values; whether there were any.
fn push_comments(out: &mut String, comments: &[&str]) -> bool {
    if comments.is_empty() {
        return false;
    }
    out.push('C');
    for comment in comments {
        push_value(out, comment);
    }
    true
}

/// A record's comments and the variations SGF can write, by the move
/// tokens before them (those past the last move after it).
struct Marks<'a> {
    comments: Vec<Vec<&'a str>>,
    variations: Vec<Vec<&'a str>>,
}

impl<'a> Marks<'a> {
    fn of(record: &'a GameRecord) -> Marks<'a> {
        let mut marks = Marks {
            comments: Vec::new(),
            variations: Vec::new(),
        };
        if record.annotations.is_empty() {
            return marks;
        }
        let n = record.moves.len();
        marks.comments = vec![Vec::new(); n + 1];
        marks.variations = vec![Vec::new(); n + 1];
        for annotation in &record.annotations {
            let (list, text) = match &annotation.kind {
                AnnotationKind::Comment(text) => (&mut marks.comments, text),
                AnnotationKind::Variation(text) if is_variation(text) => {
                    (&mut marks.variations, text)
                }
                // SGF has no NAGs; variations in another notation cannot
                // be written as subtrees. Both are named as losses.
                AnnotationKind::Variation(_) | AnnotationKind::Nag(_) => continue,
            };
            if let Some(slot) = list.get_mut(annotation.after.min(n)) {
                slot.push(text.as_str());
            }
        }
        marks
    }

    fn comments(&self, after: usize) -> &[&'a str] {
        self.comments.get(after).map_or(&[], Vec::as_slice)
    }

    fn variations(&self, after: usize) -> &[&'a str] {
        self.variations.get(after).map_or(&[], Vec::as_slice)
    }
}

/// Whether `text` is one SGF game tree, from its `(` to its `)`, that
/// other readers take and this one reads back whole as a variation: each
/// tree a sequence of nodes then its subtrees, each property an
/// identifier of letters and closed values, and nothing this reader would
/// take for the start of another game (`(;GM[` or `(;FF[` outside a value
/// or at the start of a line inside one).
pub(super) fn is_variation(text: &str) -> bool {
    let bytes = text.as_bytes();
    let new_game = |at: usize| new_game_head(bytes.get(at..).unwrap_or_default()) != Some(false);
    let skip_ws = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut depth = 0usize;
    // Whether the current tree had a subtree: only more subtrees or its
    // `)` may follow.
    let mut branched = false;
    let mut i = 0;
    loop {
        match bytes.get(i) {
            Some(b'(') => {
                if new_game(i) {
                    return false;
                }
                i = skip_ws(i + 1);
                if bytes.get(i) != Some(&b';') {
                    return false;
                }
                depth += 1;
                branched = false;
            }
            Some(b')') if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == bytes.len();
                }
                branched = true;
                i += 1;
            }
            Some(b';') if depth > 0 && !branched => i += 1,
            Some(c) if c.is_ascii_alphabetic() && depth > 0 && !branched => {
                while bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
                    i += 1;
                }
                i = skip_ws(i);
                if bytes.get(i) != Some(&b'[') {
                    return false;
                }
                while bytes.get(i) == Some(&b'[') {
                    match value_end(bytes, i, &new_game) {
                        Some(end) => i = skip_ws(end),
                        None => return false,
                    }
                }
                continue;
            }
            Some(c) if c.is_ascii_whitespace() && depth > 0 => i += 1,
            _ => return false,
        }
        i = skip_ws(i);
    }
}

/// Where the value opened at `open` ends (after its `]`), unless it runs
/// out or holds a line starting a new game.
fn value_end(bytes: &[u8], open: usize, new_game: &impl Fn(usize) -> bool) -> Option<usize> {
    let mut blank_line = false;
    let mut i = open + 1;
    loop {
        match *bytes.get(i)? {
            b']' => return Some(i + 1),
            b'\\' => {
                blank_line = bytes.get(i + 1) == Some(&b'\n');
                i += 2;
                continue;
            }
            b'(' if blank_line && new_game(i) => return None,
            b'\n' => blank_line = true,
            c if !c.is_ascii_whitespace() => blank_line = false,
            _ => {}
        }
        i += 1;
    }
}

/// `DT` in SGF's form, ISO 8601 as far as the record goes (`2004`,
/// `2004-05`, `2004-05-12`): the day the record names, without its time
/// of day; a date in no form [`RecordDate`] reads stays as written.
pub(super) fn date_text(date: &str) -> Cow<'_, str> {
    match RecordDate::parse(date) {
        Some(d) => Cow::Owned(
            RecordDate {
                time: None,
                offset: None,
                ..d
            }
            .to_string(),
        ),
        None => Cow::Borrowed(date),
    }
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
