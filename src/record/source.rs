//! Where things are in an input: spans, syntax errors and read errors.
//!
//! One position type serves every format: a [`Span`] is a byte offset with
//! its line and column (both 0 in a binary input, where the byte says it
//! all) and a length. A record's moves keep their spans compactly in
//! [`MoveSpans`]: one span each, or a first span and a stride where the
//! moves sit at regular intervals (WTHOR's move bytes, a plain `f5d6c3…`
//! line, GGF's `B[f5]W[d6]…`).

use std::fmt;

/// A stretch of an input: where it starts and how long it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// Byte offset from the start of the input.
    pub byte: u64,
    /// 1-based line; 0 in a binary input.
    pub line: u32,
    /// 1-based column, in characters; 0 in a binary input.
    pub column: u32,
    /// Length in bytes (0 for a place between characters).
    pub len: u32,
}

impl Span {
    /// A span of `len` bytes at a line and column.
    #[must_use]
    pub const fn new(byte: u64, line: u32, column: u32, len: u32) -> Span {
        Span {
            byte,
            line,
            column,
            len,
        }
    }

    /// A place in a binary input: a byte offset, no line or column.
    #[must_use]
    pub const fn binary(byte: u64, len: u32) -> Span {
        Span::new(byte, 0, 0, len)
    }

    /// The same start with another length.
    #[must_use]
    pub const fn with_len(self, len: u32) -> Span {
        Span { len, ..self }
    }

    /// The span `n` ASCII bytes further on the same line.
    #[must_use]
    pub const fn advanced(self, n: u32) -> Span {
        // Saturating: a position past the end of a 4 GiB line or a
        // 16 EiB input stays at the end rather than wrapping.
        Span {
            byte: self.byte.saturating_add(n as u64),
            column: if self.column == 0 {
                0
            } else {
                self.column.saturating_add(n)
            },
            ..self
        }
    }

    /// Whether the span is in a binary input (no lines).
    #[must_use]
    pub const fn is_binary(&self) -> bool {
        self.line == 0
    }
}

impl fmt::Display for Span {
    /// `line:column` in text, `byte N` in a binary input.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_binary() {
            write!(f, "byte {}", self.byte)
        } else {
            write!(f, "{}:{}", self.line, self.column)
        }
    }
}

/// Where the move tokens of a record are in its source.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub enum MoveSpans {
    /// Not known (a record built in memory).
    #[default]
    Unknown,
    /// One span per move token.
    Each(Vec<Span>),
    /// Move `i` starts `i * stride` bytes (and columns) after `first`.
    Every {
        /// The span of the first move.
        first: Span,
        /// Bytes from one move to the next.
        stride: u32,
    },
}

impl MoveSpans {
    /// The span of move token `index` (0-based), if known. For
    /// [`MoveSpans::Every`] the caller bounds `index` by the move count.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<Span> {
        match self {
            MoveSpans::Unknown => None,
            MoveSpans::Each(spans) => spans.get(index).copied(),
            MoveSpans::Every { first, stride } => {
                let step = stride.checked_mul(u32::try_from(index).ok()?)?;
                Some(first.advanced(step))
            }
        }
    }

    /// The spans kept one per move ([`MoveSpans::Each`]), else none.
    #[must_use]
    pub fn each(&self) -> &[Span] {
        match self {
            MoveSpans::Each(spans) => spans,
            _ => &[],
        }
    }

    /// Adds the span of the next move token (a record being read).
    pub fn push(&mut self, span: Span) {
        match self {
            MoveSpans::Each(spans) => spans.push(span),
            _ => *self = MoveSpans::Each(vec![span]),
        }
    }

    /// Room for `n` more spans.
    pub fn reserve(&mut self, n: usize) {
        match self {
            MoveSpans::Each(spans) => spans.reserve_exact(n),
            _ => *self = MoveSpans::Each(Vec::with_capacity(n)),
        }
    }

    /// Keeps the spans of the first `n` moves.
    pub fn truncate(&mut self, n: usize) {
        if let MoveSpans::Each(spans) = self {
            spans.truncate(n);
        }
    }

    /// Whether no span is known.
    #[must_use]
    pub fn is_unknown(&self) -> bool {
        match self {
            MoveSpans::Unknown => true,
            MoveSpans::Each(spans) => spans.is_empty(),
            MoveSpans::Every { .. } => false,
        }
    }

    /// Moves every span `bytes` and `columns` further (a field that
    /// starts inside a longer line).
    pub fn shift(&mut self, bytes: u64, columns: u32) {
        let shift = |s: &mut Span| {
            s.byte += bytes;
            if s.column > 0 {
                s.column += columns;
            }
        };
        match self {
            MoveSpans::Unknown => {}
            MoveSpans::Each(spans) => spans.iter_mut().for_each(shift),
            MoveSpans::Every { first, .. } => shift(first),
        }
    }
}

/// A syntax error at a place in the input. It displays as
/// `line:column: message` in text; in a binary input the message names its
/// own record and byte.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// Where (its length is what a caret underlines).
    pub span: Span,
    /// What, lowercase, the fact first.
    pub message: String,
}

impl ParseError {
    /// An error at `span`.
    #[must_use]
    pub fn at(span: Span, message: impl Into<String>) -> ParseError {
        ParseError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.span.is_binary() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.span, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// A failure that stops reading an input altogether.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The input is not in a form this reader can go on from.
    #[error(transparent)]
    Syntax(#[from] ParseError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_display_as_line_and_column_or_byte() {
        assert_eq!(Span::new(10, 3, 4, 2).to_string(), "3:4");
        assert_eq!(Span::binary(840, 1).to_string(), "byte 840");
        let e = ParseError::at(Span::new(0, 2, 7, 1), "unclosed tag");
        assert_eq!(e.to_string(), "2:7: unclosed tag");
        let e = ParseError::at(Span::binary(22, 1), "record 1 is cut short");
        assert_eq!(e.to_string(), "record 1 is cut short");
    }

    #[test]
    fn regular_spans_follow_from_the_first() {
        let every = MoveSpans::Every {
            first: Span::new(100, 5, 3, 2),
            stride: 2,
        };
        assert_eq!(every.get(4), Some(Span::new(108, 5, 11, 2)));
        let binary = MoveSpans::Every {
            first: Span::binary(24, 1),
            stride: 1,
        };
        assert_eq!(binary.get(3), Some(Span::binary(27, 1)));
        let mut each = MoveSpans::Unknown;
        assert_eq!(each.get(0), None);
        each.push(Span::new(0, 1, 1, 2));
        each.push(Span::new(3, 1, 4, 2));
        each.shift(10, 5);
        assert_eq!(each.get(1), Some(Span::new(13, 1, 9, 2)));
    }
}
