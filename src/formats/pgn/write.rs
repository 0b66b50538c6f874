//! Writing PGN: the tags, then the numbered move text.

use crate::engine::game::{Move, Winner};
use crate::formats::features::{respells_unreadable, Check};
use crate::formats::format::TextFormat;
use crate::formats::pgn::fen::write_fen;
use crate::formats::pgn::lex::{classify, holds_note, looks_like_tag, Lexeme};
use crate::record::date::RecordDate;
use crate::record::row::Game;
use crate::record::{
    Annotation, AnnotationKind, MoveNote, RecordedResult, ResultKind, ResultValue, Rules, Token,
};
use crate::{Color, GameRecord};

fn termination_text(kind: ResultKind) -> Option<&'static str> {
    match kind {
        ResultKind::Score => None,
        ResultKind::Resigned => Some("resignation"),
        ResultKind::Time => Some("time forfeit"),
        ResultKind::Mutual => Some("agreement"),
    }
}

/// The comment carrying a move's evaluation and time.
fn note_comment(note: &MoveNote) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(eval) = note.eval {
        parts.push(format!("[%eval {eval}]"));
    }
    if let Some(time) = note.time {
        parts.push(format!("[%emt {time}]"));
    }
    (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(" ")))
}

/// The `Date` and, when the date has a time, `Time` tags of a date: PGN's
/// `YYYY.MM.DD` with `??` for the parts unknown and `HH:MM:SS`, in UTC
/// when the record names the zone; a date in no form
/// [`RecordDate::parse`] reads is written as it is.
fn date_tags(date: Option<&str>) -> (String, Option<String>) {
    let Some(text) = date else {
        return ("????.??.??".to_owned(), None);
    };
    let Some(date) = RecordDate::parse(text) else {
        return (text.to_owned(), None);
    };
    let date = date.to_utc();
    let part = |v: Option<u8>| v.map_or_else(|| "??".to_owned(), |v| format!("{v:02}"));
    (
        format!("{:04}.{}.{}", date.year, part(date.month), part(date.day)),
        date.time.map(|(h, m, s)| format!("{h:02}:{m:02}:{s:02}")),
    )
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
        ResultValue::Discs { black, white } if u16::from(black) + u16::from(white) <= 64 => {
            format!("{black}-{white}")
        }
        ResultValue::Discs { .. } => winner(),
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
///
/// ```
/// use kifu::formats::pgn::{write_record, Reader};
///
/// let game = Reader::new(&b"[Event \"Cup\"]\n1. f5 d6 1-0\n"[..]).next().unwrap()?;
/// let mut out = String::new();
/// write_record(&game, &mut out);
/// assert!(out.starts_with("[Event \"Cup\"]\n[Site \"?\"]\n"));
/// assert!(out.ends_with("[Result \"1-0\"]\n\n1. f5 d6 1-0\n\n"));
/// # Ok::<(), kifu::source::ReadError>(())
/// ```
pub fn write_record(record: &GameRecord, out: &mut String) {
    let report = record.replay();
    write_game(&Game::new("", record, &report), out);
}

/// Writes one replayed game (what [`write_record`] does after replaying):
/// the colours and the passes the record leaves out are the replay's
/// ([`GameRecord::plies`]), not found again.
pub fn write_game(game: &Game<'_>, out: &mut String) {
    let record = game.record;
    let t = &record.tags;
    let result = result_text(record.result.as_ref());
    let or = |v: &Option<String>, d: &'static str| v.clone().unwrap_or_else(|| d.to_owned());
    push_tag(out, "Event", &or(&t.event, "?"));
    push_tag(out, "Site", &or(&t.site, "?"));
    let (date, time) = date_tags(t.date.as_deref());
    push_tag(out, "Date", &date);
    push_tag(out, "Round", &or(&t.round, "?"));
    push_tag(out, "Black", &or(&t.black, "?"));
    push_tag(out, "White", &or(&t.white, "?"));
    push_tag(out, "Result", &result);
    if let Some(time) = time {
        push_tag(out, "Time", &time);
    }
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
    write_moves(game, result, out);
    out.push_str("\n\n");
}

/// The move text: numbered moves, each with its note, the annotations
/// where they were, the result.
fn write_moves(game: &Game<'_>, result: String, out: &mut String) {
    let record = game.record;
    let len = record.moves.len();
    let mut annotations: Vec<&Annotation> = record.annotations.iter().collect();
    // Stable: annotations at one place keep their order.
    annotations.sort_by_key(|a| a.after.min(len));
    let mut annotations = annotations.into_iter().peekable();
    let mut text = MoveText {
        out,
        width: 0,
        number: 0,
        last: None,
        interrupted: false,
    };
    while let Some(a) = annotations.next_if(|a| a.after == 0) {
        text.annotation(&a.kind);
    }
    for turn in record.plies(game.report) {
        let word = match turn.token {
            Token::Move(Move::Play(sq)) => sq.to_string(),
            Token::Move(Move::Pass) => "pass".to_owned(),
            Token::Unreadable => unreadable_word(&record.token_text(turn.index)),
        };
        if turn.pass_before {
            // Written, so that the numbers and colours read back.
            text.ply(turn.color.opponent(), "pass");
        }
        text.ply(turn.color, &word);
        let here = |a: &&Annotation| a.after.min(len) <= turn.index + 1;
        // The move's own NAGs first, then its evaluation and time.
        while let Some(a) =
            annotations.next_if(|a| here(a) && matches!(a.kind, AnnotationKind::Nag(_)))
        {
            text.annotation(&a.kind);
        }
        if let Some(comment) = record.notes.get(turn.index).and_then(note_comment) {
            text.aside(&comment);
        }
        while let Some(a) = annotations.next_if(here) {
            text.annotation(&a.kind);
        }
    }
    text.word(&result);
}

/// Move text as it is written: words wrapped at 80 columns where they
/// can be, move numbers where PGN wants them.
struct MoveText<'a> {
    out: &'a mut String,
    /// Characters on the current line.
    width: usize,
    /// The number of the last move numbered.
    number: u32,
    /// The side of the last move written.
    last: Option<Color>,
    /// A comment or variation came after the last move, so a White move
    /// needs its number again (`1. f5 {good} 1... d6`).
    interrupted: bool,
}

impl MoveText<'_> {
    /// One word, on this line or the next; a word with line breaks (a
    /// comment, a variation) is written as it is.
    fn word(&mut self, word: &str) {
        let first = word.split('\n').next().unwrap_or_default().chars().count();
        if self.width > 0 && self.width + 1 + first > 80 {
            self.out.push('\n');
            self.width = 0;
        } else if self.width > 0 {
            self.out.push(' ');
            self.width += 1;
        }
        self.out.push_str(word);
        self.width = match word.rfind('\n') {
            Some(k) => word.get(k + 1..).unwrap_or_default().chars().count(),
            None => self.width + first,
        };
    }

    /// A move (or pass) of `color`, numbered: `N.` before Black's, `N...`
    /// before White's when it does not follow Black's directly.
    fn ply(&mut self, color: Color, word: &str) {
        let number = match (color, self.last, self.interrupted) {
            (Color::White, Some(Color::Black), false) => None,
            (Color::White, Some(Color::Black), true) => Some(format!("{}...", self.number)),
            (Color::White, ..) => {
                self.number += 1;
                Some(format!("{}...", self.number))
            }
            (Color::Black, ..) => {
                self.number += 1;
                Some(format!("{}.", self.number))
            }
        };
        if let Some(number) = number {
            self.word(&number);
        }
        self.word(word);
        self.last = Some(color);
        self.interrupted = false;
    }

    /// A comment or variation among the moves.
    fn aside(&mut self, word: &str) {
        self.word(word);
        self.interrupted = true;
    }

    /// A `;` comment: the rest of its line.
    fn line_comment(&mut self, text: &str) {
        self.aside(&format!(";{text}"));
        self.out.push('\n');
        self.width = 0;
    }

    fn annotation(&mut self, kind: &AnnotationKind) {
        match kind {
            AnnotationKind::Comment(text) => match comment_form(text) {
                CommentForm::Braces => self.aside(&format!("{{{}}}", text.replace("\r\n", "\n"))),
                CommentForm::Line => self.line_comment(text),
                CommentForm::Lossy => self.line_comment(&text.replace(['\r', '\n'], " ")),
            },
            AnnotationKind::Nag(value) => self.word(&format!("${value}")),
            // One that is not PGN move text is left out, and named
            // ([`CHECKS`]).
            AnnotationKind::Variation(text) if variation_fits(text) => {
                self.aside(&text.replace("\r\n", "\n"));
            }
            AnnotationKind::Variation(_) => {}
        }
    }
}

/// How a comment is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CommentForm {
    /// `{text}`.
    Braces,
    /// `;text` to the end of the line.
    Line,
    /// `;text` with its line breaks made spaces: it has lines, and a `}`,
    /// a line that reads as a tag pair, or what reads as a move's
    /// evaluation or time.
    Lossy,
}

/// The form that gives `text` back as a comment (line breaks as `\n`).
fn comment_form(text: &str) -> CommentForm {
    let lines = text.contains('\n');
    let braces = !text.contains('}')
        && !holds_note(text)
        && !text
            .split('\n')
            .skip(1)
            .any(|l| looks_like_tag(l.as_bytes()));
    if braces {
        CommentForm::Braces
    } else if !lines && !text.ends_with('\r') {
        CommentForm::Line
    } else {
        CommentForm::Lossy
    }
}

/// Whether a variation's text, written as it is, reads back as that
/// variation: it opens with `(` and closes with the `)` that matches it,
/// as the reader counts them (not in `{…}` or after `;` on a line), and
/// no line of it reads as a tag pair.
fn variation_fits(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'(') {
        return false;
    }
    let (mut depth, mut comment, mut i) = (0usize, false, 0);
    while let Some(&c) = bytes.get(i) {
        if c == b'\n' {
            let line = bytes.get(i + 1..).unwrap_or_default();
            let end = line.iter().position(|&c| c == b'\n').unwrap_or(line.len());
            if looks_like_tag(line.get(..end).unwrap_or_default()) {
                return false;
            }
        } else if comment {
            comment = c != b'}';
        } else {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1 == bytes.len();
                    }
                }
                b'{' => comment = true,
                b';' => match bytes
                    .get(i..)
                    .and_then(|r| r.iter().position(|&c| c == b'\n'))
                {
                    // The line break itself is looked at next.
                    Some(k) => i += k - 1,
                    None => return false,
                },
                _ => {}
            }
        }
        i += 1;
    }
    false
}

/// What PGN's own syntax cannot hold.
pub(super) const CHECKS: &[Check] = &[
    Check {
        loss: "move colours after an illegal move",
        applies: colours_after_an_error,
    },
    Check {
        loss: "results with more than 64 discs",
        applies: |g| {
            matches!(g.record.result.map(|r| r.value),
                    Some(ResultValue::Discs { black, white }) if u16::from(black) + u16::from(white) > 64)
        },
    },
    Check {
        loss: "result margins that are not disc counts",
        applies: |g| {
            g.record.result.is_some_and(|r| {
                matches!(r.value, ResultValue::Margin(_)) && r.black_score().is_none()
            })
        },
    },
    Check {
        loss: "line breaks in tag values",
        applies: |g| {
            let t = &g.record.tags;
            [
                &t.event,
                &t.site,
                &t.date,
                &t.round,
                &t.black,
                &t.white,
                &t.black_rating,
                &t.white_rating,
            ]
            .iter()
            .filter_map(|v| v.as_deref())
            .chain(t.extra.iter().map(|(_, v)| v.as_str()))
            .any(|v| v.contains(['\n', '\r']))
        },
    },
    Check {
        loss: "tag names that are not PGN tag names",
        applies: |g| {
            g.record
                .tags
                .extra
                .iter()
                .any(|(name, _)| tag_name(name) != *name)
        },
    },
    Check {
        loss: "comments over several lines holding '}', a tag pair or [%eval]/[%emt]",
        applies: |g| {
            g.record.annotations.iter().any(|a| match &a.kind {
                AnnotationKind::Comment(text) => comment_form(text) == CommentForm::Lossy,
                _ => false,
            })
        },
    },
    Check {
        loss: "variations that are not PGN move text",
        applies: |g| {
            g.record
                .annotations
                .iter()
                .any(|a| matches!(&a.kind, AnnotationKind::Variation(t) if !variation_fits(t)))
        },
    },
    Check {
        loss: "the spelling of unreadable moves",
        applies: |g| respells_unreadable(g, unreadable_word),
    },
];

/// Whether the record gives moves after an illegal one colours that PGN,
/// which numbers moves and keeps no colours, would not give back.
fn colours_after_an_error(game: &Game<'_>) -> bool {
    let mut plain = None;
    for turn in game.record.plies(game.report) {
        let expected = plain.unwrap_or(turn.color);
        if !turn.legal && turn.color != expected {
            return true;
        }
        plain = Some(expected.opponent());
    }
    false
}

/// Writes PGN.
pub(super) struct Pgn;

impl TextFormat for Pgn {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_game(game, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}
