//! Record formats: the table of formats, detection, and the two traits
//! every reader and writer meets.
//!
//! A format is a row of [`FORMATS`]: its names and extensions, how its
//! content is recognised, how a reader is opened, how games are written
//! and what a written game loses. Reading yields [`GameRecord`]s
//! ([`GameReader`]); writing takes replayed games ([`Game`]) through one
//! trait, [`GameWriter`]. Text formats implement [`TextFormat`] — one game
//! in, bytes out, no state — so the batch pipeline formats them in its
//! worker threads; [`TextWriter`] makes any of them a `GameWriter`.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use crate::record::row::Game;
use crate::record::select::{Filter, Selection};
use crate::GameRecord;

pub mod chunk;
pub mod csv;
pub mod features;
pub(crate) mod format;
pub mod ggf;
pub mod jsonl;
pub mod lines;
pub mod movetext;
pub mod obf;
pub mod parquet;
pub mod per_line;
pub mod pgn;
pub mod sgf;
pub mod sheet;
pub mod token_npy;
pub mod transcript;
pub mod wthor;

pub use features::{Check, Feature, Features};
pub use format::{
    Format, FormatInfo, GameReader, GameWriter, Games, OpenReader, ReadOptions, Refusal,
    TextFormat, TextWriter, UnknownFormat, WriteError,
};

/// Every format, in the order help texts list them.
pub static FORMATS: [FormatInfo; 11] = [
    transcript::INFO,
    ggf::INFO,
    sgf::INFO,
    pgn::INFO,
    wthor::INFO,
    csv::INFO,
    jsonl::INFO,
    sheet::INFO,
    obf::INFO,
    parquet::INFO,
    token_npy::INFO,
];

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 11] = [
        Format::Transcript,
        Format::Ggf,
        Format::Sgf,
        Format::Pgn,
        Format::Wthor,
        Format::Csv,
        Format::Jsonl,
        Format::Sheet,
        Format::Obf,
        Format::Parquet,
        Format::Tokens,
    ];

    /// This format's row of [`FORMATS`].
    #[must_use]
    pub fn info(self) -> &'static FormatInfo {
        // Every format has its row; the search cannot fail.
        FORMATS
            .iter()
            .find(|i| i.format == self)
            .unwrap_or(&FORMATS[0])
    }

    /// The name used on the command line (`--from`, `--to`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The usual file extension.
    #[must_use]
    pub fn extension(self) -> &'static str {
        self.info().extensions.first().copied().unwrap_or("")
    }

    /// The format a file name's extension says, if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        FORMATS
            .iter()
            .find(|i| i.extensions.contains(&ext.as_str()))
            .map(|i| i.format)
    }

    /// Guesses the format from the first bytes of the content: the first
    /// format in detection order that recognises them, else a transcript
    /// when they are text.
    #[must_use]
    pub fn detect(head: &[u8]) -> Option<Format> {
        const ORDER: [Format; 10] = [
            Format::Tokens,
            Format::Parquet,
            Format::Wthor,
            Format::Ggf,
            Format::Sgf,
            Format::Pgn,
            Format::Obf,
            Format::Sheet,
            Format::Jsonl,
            Format::Csv,
        ];
        if let Some(found) = ORDER.into_iter().find(|f| (f.info().sniff)(head)) {
            Some(found)
        } else if looks_binary(head) {
            None
        } else {
            Some(Format::Transcript)
        }
    }

    /// Opens a reader of this format over `input` (a WTHOR reader without
    /// names; see [`wthor::Reader::new`] for one with them).
    pub fn reader<'a, R: BufRead + Send + 'a>(self, input: R) -> Box<dyn GameReader + 'a> {
        self.reader_with(input, &ReadOptions::default())
    }

    /// Opens a reader with `options` (see [`Format::reader`]).
    pub fn reader_with<'a, R: BufRead + Send + 'a>(
        self,
        input: R,
        options: &ReadOptions,
    ) -> Box<dyn GameReader + 'a> {
        (self.info().open)(Box::new(input), options)
    }

    /// Whether kifu can write this format (OBF is read only).
    #[must_use]
    pub fn writable(self) -> bool {
        self.info().writable
    }

    /// Whether kifu can read this format.
    #[must_use]
    pub fn readable(self) -> bool {
        self.info().readable
    }

    /// Whether games are written one after another as text.
    #[must_use]
    pub fn is_text(self) -> bool {
        self.info().text.is_some()
    }

    /// Whether the format records a game's status and error itself.
    #[must_use]
    pub fn carries_status(self) -> bool {
        self.info().carries_status
    }

    /// Whether a written game carries its opening's name (the table's
    /// `opening` column).
    #[must_use]
    pub fn names_openings(self) -> bool {
        self.info().names_openings
    }

    /// What `game` loses when written in this format, each loss once.
    pub fn losses(self, game: &Game<'_>, features: Features, out: &mut Vec<&'static str>) {
        let info = self.info();
        out.extend(features.and(info.loses).iter().map(Feature::loss));
        out.extend(
            info.checks
                .iter()
                .filter(|c| (c.applies)(game))
                .map(|c| c.loss),
        );
    }

    /// `records` written in this format, each replayed: the whole text of
    /// a small file (`None` for a format not written as text).
    #[must_use]
    pub fn write_records(self, records: &[GameRecord]) -> Option<Vec<u8>> {
        let text = self.info().text?;
        let selection = Selection::new(Filter::default(), self.names_openings());
        let mut out = Vec::new();
        text.header(&mut out);
        for record in records {
            let (report, found) = selection.replay(record);
            let game = Game::new("-", record, &report).with_opening(found.opening);
            text.write(&game, &mut out);
        }
        Some(out)
    }

    /// What `record` loses when written in this format (it is replayed
    /// here; the batch pipeline uses [`Format::losses`] with the replay it
    /// has).
    #[must_use]
    pub fn losses_of(self, record: &GameRecord) -> Vec<&'static str> {
        let report = record.replay();
        let game = Game::new("", record, &report);
        let mut out = Vec::new();
        self.losses(&game, Features::of(&game), &mut out);
        out
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        FORMATS
            .iter()
            .find(|i| {
                i.name.eq_ignore_ascii_case(s)
                    || i.aliases.iter().any(|a| a.eq_ignore_ascii_case(s))
            })
            .map(|i| i.format)
            .ok_or_else(|| UnknownFormat { name: s.to_owned() })
    }
}

/// Whether bytes that no reader recognised are binary rather than text: a
/// NUL byte, or bytes that are not UTF-8 (a character cut at the end of
/// the sample aside) and not mostly printable Latin-1 either.
fn looks_binary(head: &[u8]) -> bool {
    if head.contains(&0) {
        return true;
    }
    match std::str::from_utf8(head) {
        Ok(_) => false,
        Err(e) if e.error_len().is_none() => false,
        Err(_) => {
            let odd = head
                .iter()
                .filter(|&&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
                .count();
            odd * 20 > head.len()
        }
    }
}

/// Writes a text format's games into a byte buffer: the [`TextFormat`] of
/// `format`, for callers that format games themselves.
#[must_use]
pub fn text_format(format: Format) -> Option<&'static dyn TextFormat> {
    format.info().text
}

#[cfg(test)]
mod round_trips;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_by_content() {
        let cases: [(&[u8], Option<Format>); 9] = [
            (b"f5d6c3\n", Some(Format::Transcript)),
            (b"(;GM[Othello]PB[a]B[f5];)", Some(Format::Ggf)),
            (b"(;FF[4]GM[2]SZ[8];B[f5])", Some(Format::Sgf)),
            (b"[Event \"x\"]\n\n1. f5 d6 *\n", Some(Format::Pgn)),
            (b"{\"moves\":\"f5\"}\n", Some(Format::Jsonl)),
            (b"id,moves\n1,f5\n", Some(Format::Csv)),
            (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", None),
            (b"\x7fELF\x02\x01\x01\x00\x00\x00", None),
            (b"Pr\xe9qualif f5d6\n", Some(Format::Transcript)),
        ];
        for (head, expected) in cases {
            assert_eq!(Format::detect(head), expected, "{head:?}");
        }
    }

    #[test]
    fn the_table_names_each_format_once() {
        for (i, info) in FORMATS.iter().enumerate() {
            assert_eq!(info.format, Format::ALL[i]);
            assert_eq!(info.name.parse::<Format>(), Ok(info.format));
            for alias in info.aliases {
                assert_eq!(alias.parse::<Format>(), Ok(info.format));
            }
            for ext in info.extensions {
                let path = format!("x.{}", ext.to_ascii_uppercase());
                assert_eq!(Format::from_path(path.as_ref()), Some(info.format));
            }
            // Text formats, and the two with writers of their own.
            assert_eq!(
                info.writable,
                info.text.is_some()
                    || matches!(
                        info.format,
                        Format::Wthor | Format::Parquet | Format::Tokens
                    )
            );
            assert!(info.readable);
        }
    }
}
