//! Record formats: detection, positioned errors, readers and writers.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use crate::GameRecord;

pub mod ggf;
pub mod obf;
pub mod pgn;
pub mod sgf;
pub mod transcript;
pub mod wthor;

/// A game record format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// One game per line: `f5d6c3…`, with the variants of SPEC section 2.
    Transcript,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 1] = [Format::Transcript];

    /// The name used on the command line (`--from`, `--to`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::Transcript => "transcript",
        }
    }

    /// The format a file name's extension says, if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "txt" | "gam" | "tr" | "transcript" => Some(Format::Transcript),
            _ => None,
        }
    }

    /// Guesses the format from the first bytes of the content.
    #[must_use]
    pub fn detect(_head: &[u8]) -> Option<Format> {
        Some(Format::Transcript)
    }

    /// Opens a reader of this format over `input`.
    pub fn reader<'a, R: BufRead + 'a>(self, input: R) -> Box<dyn GameReader + 'a> {
        match self {
            Format::Transcript => Box::new(transcript::Reader::new(input)),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format {s:?} (known: {})", names.join(", "))
            })
    }
}

/// A place in a source text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SourcePos {
    /// Byte offset from the start of the input.
    pub byte: u64,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A syntax error at a place in the input.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct ParseError {
    /// Where.
    pub pos: SourcePos,
    /// What, lowercase, the fact first.
    pub message: String,
    /// Length in bytes of the offending text (for a caret).
    pub len: u32,
}

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

/// A source of game records: each item is a game (possibly with a
/// defect inside it) or a failure after which nothing more is read.
pub trait GameReader: Iterator<Item = Result<GameRecord, ReadError>> {}

impl<T: Iterator<Item = Result<GameRecord, ReadError>>> GameReader for T {}
