//! What GGF text is made of, for the reader and the writer: the limits
//! of a game, the game type grammar, the decoding of values.

use std::borrow::Cow;

use crate::Color;

/// The longest game the reader takes, in bytes from `(;`; a longer one
/// gets a defect and is skipped up to its `;)`.
pub const MAX_GAME_BYTES: u64 = 1 << 20;

/// The most source text kept per game for diagnostics.
pub(super) const MAX_TEXT: usize = 64 * 1024;

/// The longest tag name.
pub(super) const MAX_NAME: usize = 32;

// What a byte is to the lexer's fast paths: bits of [`CLASS`], one table
// lookup instead of a chain of comparisons a byte.

/// A byte of a tag name (ASCII letter or digit).
pub(super) const NAME: u8 = 1;
/// A byte that ends a run of plain value text: `]`, `\`, `(`, `[`, newline.
pub(super) const VALUE_END: u8 = 2;
/// A blank between tags other than a newline.
pub(super) const BLANK: u8 = 4;

/// The class bits of every byte.
pub(super) static CLASS: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            table[b] |= NAME;
        }
        if matches!(c, b']' | b'\\' | b'(' | b'[' | b'\n') {
            table[b] |= VALUE_END;
        }
        if matches!(c, b' ' | b'\t' | b'\r' | 0x0c) {
            table[b] |= BLANK;
        }
        b += 1;
    }
    table
}

/// Whether `b` is of `class`.
#[inline]
pub(super) fn is(b: u8, class: u8) -> bool {
    CLASS[usize::from(b)] & class != 0
}

/// A GGF game type, the value of a `TY` tag: `[s]<size>[k][r[<n>]][a][b|w]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameType {
    /// `s`: one game of a synchro pair.
    pub synchro: bool,
    /// Board size (8 for standard Othello).
    pub size: u32,
    /// `k`: komi game.
    pub komi: bool,
    /// `r` or `r<n>`: random start, with the number of discs when given.
    pub random: Option<Option<u32>>,
    /// `a`: anti Othello (fewer discs win).
    pub anti: bool,
    /// `b` or `w`: the colour the game was set up for.
    pub color: Option<Color>,
}

impl GameType {
    /// Parses a `TY` value; `None` when it does not follow the grammar.
    #[must_use]
    pub fn parse(text: &str) -> Option<GameType> {
        let mut rest = text.trim().as_bytes();
        let mut ty = GameType::default();
        if let Some(after) = rest.strip_prefix(b"s") {
            ty.synchro = true;
            rest = after;
        }
        let (size, after) = digits(rest);
        ty.size = size?;
        rest = after;
        while let Some((&c, after)) = rest.split_first() {
            rest = after;
            match c {
                b'k' if !ty.komi => ty.komi = true,
                b'a' if !ty.anti => ty.anti = true,
                b'r' if ty.random.is_none() => {
                    let (n, after) = digits(rest);
                    if n.is_none() && rest.first().is_some_and(u8::is_ascii_digit) {
                        return None;
                    }
                    ty.random = Some(n);
                    rest = after;
                }
                b'b' if ty.color.is_none() => ty.color = Some(Color::Black),
                b'w' if ty.color.is_none() => ty.color = Some(Color::White),
                _ => return None,
            }
        }
        Some(ty)
    }
}

impl std::fmt::Display for GameType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.synchro {
            f.write_str("s")?;
        }
        write!(f, "{}", self.size)?;
        if self.komi {
            f.write_str("k")?;
        }
        match self.random {
            Some(Some(n)) => write!(f, "r{n}")?,
            Some(None) => f.write_str("r")?,
            None => {}
        }
        if self.anti {
            f.write_str("a")?;
        }
        match self.color {
            Some(Color::Black) => f.write_str("b"),
            Some(Color::White) => f.write_str("w"),
            None => Ok(()),
        }
    }
}

/// A leading run of digits as a number (`None` if empty or too large) and
/// the rest.
fn digits(text: &[u8]) -> (Option<u32>, &[u8]) {
    let n = text.iter().take_while(|c| c.is_ascii_digit()).count();
    let (number, rest) = text.split_at(n);
    let value = std::str::from_utf8(number)
        .ok()
        .and_then(|s| s.parse().ok());
    (value, rest)
}

/// Text from source bytes: UTF-8, or Latin-1 when the bytes are not UTF-8.
pub(super) fn decode(bytes: &[u8]) -> String {
    decode_cow(bytes).into_owned()
}

/// [`decode`], borrowing the bytes when they are UTF-8.
pub(super) fn decode_cow(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// A length as a [`crate::record::source::Span`] holds it: beyond 4 GiB it stops
/// growing (no game comes near; a stray line might).
pub(super) fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
