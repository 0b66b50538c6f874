//! The words of PGN move text and the small readings shared by the
//! reader, the writer and `sniff`.

use std::ops::Range;

use crate::engine::game::Winner;
use crate::record::ResultValue;
use crate::Square;

/// One item of move text.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Lexeme {
    /// A move number of this many bytes (`12.`, `3...`).
    Number(usize),
    /// A result; `None` for `*`.
    Result(Option<ResultValue>),
    Square(Square),
    /// A pass; `true` when spelled with dashes.
    Pass(bool),
    Unreadable,
}

fn small_number(digits: &[u8]) -> Option<u8> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// A result token: `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`, `34-30`.
pub(super) fn result_token(word: &[u8]) -> Option<Option<ResultValue>> {
    match word {
        b"*" => return Some(None),
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => return Some(Some(ResultValue::Winner(Winner::Draw))),
        _ => {}
    }
    let dash = word.iter().position(|&c| c == b'-')?;
    let (a, b) = (word.get(..dash)?, word.get(dash + 1..)?);
    if a.is_empty() || b.is_empty() || !a.iter().chain(b).all(u8::is_ascii_digit) {
        return None;
    }
    // No position has fewer than four discs, so `1-0` and `0-1` can only
    // name the winner.
    match (small_number(a)?, small_number(b)?) {
        (1, 0) => Some(Some(ResultValue::Winner(Winner::Black))),
        (0, 1) => Some(Some(ResultValue::Winner(Winner::White))),
        (black, white) if u16::from(black) + u16::from(white) <= 64 => {
            Some(Some(ResultValue::Discs { black, white }))
        }
        _ => None,
    }
}

pub(super) fn classify(word: &[u8]) -> Lexeme {
    if let Some(result) = result_token(word) {
        return Lexeme::Result(result);
    }
    if word.first().is_some_and(u8::is_ascii_digit) {
        let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
        let dots = word
            .get(digits..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| c == b'.')
            .count();
        return if dots > 0 {
            Lexeme::Number(digits + dots)
        } else {
            Lexeme::Unreadable
        };
    }
    if let (Some(name), Some(rest)) = (word.get(..2), word.get(2..)) {
        if let Some(sq) = Square::from_ascii(name) {
            if rest.iter().all(|&c| c == b'!' || c == b'?') {
                return Lexeme::Square(sq);
            }
        }
    }
    if word.len() >= 2 && word.iter().all(|&c| c == b'-') {
        return Lexeme::Pass(true);
    }
    let is = |s: &str| word.eq_ignore_ascii_case(s.as_bytes());
    if is("pass") || is("pa") || is("ps") || word == b"@@" || word == b"@@@@" {
        return Lexeme::Pass(false);
    }
    Lexeme::Unreadable
}

pub(super) fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';')
}

/// Whether a line starts like a tag pair: `[Name "`.
pub(super) fn looks_like_tag(line: &[u8]) -> bool {
    let line = line.trim_ascii_start();
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    let after = rest.get(name..).unwrap_or_default();
    name > 0 && after.trim_ascii_start().first() == Some(&b'"')
}

/// Text from bytes: UTF-8, or Latin-1 when not valid UTF-8.
pub(super) fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => raw.iter().map(|&b| b as char).collect(),
    }
}

/// Whether a tag value means "unknown".
pub(super) fn unknown(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v.bytes().all(|c| c == b'?' || c == b'.')
}

/// The first `[%name arg]` command in a comment: where it is, and its
/// argument.
fn command<'a>(text: &'a str, name: &str) -> Option<(Range<usize>, &'a str)> {
    let open = text.find(&format!("[{name} "))?;
    let start = open + name.len() + 2;
    let rest = text.get(start..)?;
    let end = rest.find(']')?;
    Some((open..start + end + 1, rest.get(..end)?.trim()))
}

/// A command of a comment that reads: where it is and its value.
pub(super) type Command = Option<(Range<usize>, f64)>;

/// The `[%eval x]` (a finite number) and `[%emt t]` (seconds, or
/// `h:mm:ss`) of a comment, where they read.
pub(super) fn note_commands(text: &str) -> (Command, Command) {
    let eval = command(text, "%eval")
        .and_then(|(at, v)| Some((at, v.parse::<f64>().ok().filter(|v| v.is_finite())?)));
    let time = command(text, "%emt").and_then(|(at, v)| Some((at, seconds(v)?)));
    (eval, time)
}

/// Whether a comment after a move would be read as its evaluation or
/// time.
pub(super) fn holds_note(text: &str) -> bool {
    let (eval, time) = note_commands(text);
    eval.is_some() || time.is_some()
}

/// A NAG after its `$`: its value and how many digits it takes.
pub(super) fn nag(after: &[u8]) -> Option<(u16, usize)> {
    let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
    let value = std::str::from_utf8(after.get(..digits)?)
        .ok()?
        .parse()
        .ok()?;
    Some((value, digits))
}

/// The NAGs of a move's suffix: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5,
/// `?!` 6, pairs first (`!!!` is `!!` then `!`).
pub(super) fn glyphs(suffix: &[u8]) -> impl Iterator<Item = u16> + '_ {
    let mut rest = suffix;
    std::iter::from_fn(move || {
        let (value, len) = match rest {
            [b'!', b'!', ..] => (3, 2),
            [b'?', b'?', ..] => (4, 2),
            [b'!', b'?', ..] => (5, 2),
            [b'?', b'!', ..] => (6, 2),
            [b'!', ..] => (1, 1),
            [b'?', ..] => (2, 1),
            _ => return None,
        };
        rest = rest.get(len..).unwrap_or_default();
        Some(value)
    })
}

/// Seconds from `1.5` or `h:mm:ss(.f)`.
fn seconds(text: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        total = total * 60.0 + v;
    }
    total.is_finite().then_some(total)
}
