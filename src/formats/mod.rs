//! Record formats: detection, positioned errors, readers and writers.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use crate::source::ReadError;
use crate::table::Game;
use crate::GameRecord;

pub mod csv;
pub mod ggf;
pub mod jsonl;
pub mod lines;
pub mod obf;
pub mod pgn;
pub mod sgf;
pub mod sheet;
pub mod transcript;
pub mod wthor;

/// A game record format.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// One game per line: `f5d6c3…`, with the variants of SPEC section 2.
    Transcript,
    /// The toolkit's CSV table; foreign tables with a moves column.
    Csv,
    /// One JSON object per game.
    Jsonl,
    /// The French federation's binary database (`.wtb`).
    Wthor,
    /// The Generic Game Format of the GGS server.
    Ggf,
    /// SGF with `GM[2]`.
    Sgf,
    /// PGN-style Othello records.
    Pgn,
    /// Positions: a board, the side to move, scored moves (read only).
    Obf,
    /// A 2-D score sheet: move numbers in an 8×8 grid.
    Sheet,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 9] = [
        Format::Transcript,
        Format::Ggf,
        Format::Sgf,
        Format::Pgn,
        Format::Wthor,
        Format::Csv,
        Format::Jsonl,
        Format::Sheet,
        Format::Obf,
    ];

    /// The name used on the command line (`--from`, `--to`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Format::Transcript => "transcript",
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Wthor => "wthor",
            Format::Ggf => "ggf",
            Format::Sgf => "sgf",
            Format::Pgn => "pgn",
            Format::Obf => "obf",
            Format::Sheet => "sheet",
        }
    }

    /// Other names accepted on the command line.
    const fn aliases(self) -> &'static [&'static str] {
        match self {
            Format::Transcript => &["txt", "text"],
            Format::Csv => &[],
            Format::Jsonl => &["json", "ndjson", "json-lines"],
            Format::Wthor => &["wtb", "thor"],
            Format::Ggf | Format::Sgf | Format::Pgn => &[],
            Format::Obf => &[],
            Format::Sheet => &["score-sheet"],
        }
    }

    /// The usual file extension.
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Transcript => "txt",
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Wthor => "wtb",
            Format::Ggf => "ggf",
            Format::Sgf => "sgf",
            Format::Pgn => "pgn",
            Format::Obf => "obf",
            Format::Sheet => "sheet",
        }
    }

    /// The format a file name's extension says, if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "txt" | "gam" | "tr" | "transcript" => Some(Format::Transcript),
            "csv" => Some(Format::Csv),
            "jsonl" | "ndjson" | "json" => Some(Format::Jsonl),
            "wtb" => Some(Format::Wthor),
            "ggf" => Some(Format::Ggf),
            "sgf" => Some(Format::Sgf),
            "pgn" => Some(Format::Pgn),
            "obf" => Some(Format::Obf),
            "sheet" => Some(Format::Sheet),
            _ => None,
        }
    }

    /// Guesses the format from the first bytes of the content.
    #[must_use]
    pub fn detect(head: &[u8]) -> Option<Format> {
        if wthor::sniff(head) {
            Some(Format::Wthor)
        } else if ggf::sniff(head) {
            Some(Format::Ggf)
        } else if sgf::sniff(head) {
            Some(Format::Sgf)
        } else if pgn::sniff(head) {
            Some(Format::Pgn)
        } else if obf::sniff(head) {
            Some(Format::Obf)
        } else if sheet::sniff(head) {
            Some(Format::Sheet)
        } else if jsonl::sniff(head) {
            Some(Format::Jsonl)
        } else if csv::sniff(head) {
            Some(Format::Csv)
        } else if looks_binary(head) {
            None
        } else {
            Some(Format::Transcript)
        }
    }

    /// Opens a reader of this format over `input` (a WTHOR reader without
    /// names; see [`wthor::Reader::open`] for a file with its name files).
    pub fn reader<'a, R: BufRead + Send + 'a>(self, input: R) -> Box<dyn GameReader + 'a> {
        match self {
            Format::Wthor => Box::new(wthor::Reader::new(input, None)),
            Format::Ggf => Box::new(ggf::Reader::new(input)),
            Format::Sgf => Box::new(sgf::Reader::new(input)),
            Format::Pgn => Box::new(pgn::Reader::new(input)),
            Format::Obf => Box::new(obf::Reader::new(input)),
            Format::Sheet => Box::new(sheet::Reader::new(input)),
            Format::Transcript => Box::new(transcript::Reader::new(input)),
            Format::Csv => Box::new(csv::Reader::new(input)),
            Format::Jsonl => Box::new(jsonl::Reader::new(input)),
        }
    }

    /// Whether games are written one after another as text (every
    /// writable format but WTHOR, whose writer needs a seekable file and
    /// name files).
    #[must_use]
    pub const fn is_text(self) -> bool {
        !matches!(self, Format::Wthor | Format::Obf)
    }

    /// Whether kifu can write this format (OBF is read only).
    #[must_use]
    pub const fn writable(self) -> bool {
        !matches!(self, Format::Obf)
    }

    /// What the format writes before the first game.
    #[must_use]
    pub fn header(self) -> Vec<u8> {
        match self {
            Format::Csv => {
                let mut w = csv::Writer::new(Vec::new());
                // Writing to a Vec cannot fail.
                let _ = w.write_header();
                w.into_inner().unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// Writes replayed games in this format.
    pub fn write_rows<'r>(
        self,
        rows: impl IntoIterator<Item = Game<'r>>,
        out: &mut Vec<u8>,
    ) -> std::io::Result<()> {
        match self {
            Format::Csv => {
                let mut w = csv::Writer::new(std::mem::take(out));
                for row in rows {
                    w.write_row(&row)?;
                }
                *out = w.into_inner()?;
            }
            Format::Jsonl => {
                for row in rows {
                    jsonl::write_row(&row, out)?;
                }
            }
            Format::Wthor | Format::Obf => {
                return Err(std::io::Error::other(format!(
                    "{self} is not written as rows of text"
                )))
            }
            Format::Transcript | Format::Ggf | Format::Sgf | Format::Pgn | Format::Sheet => {
                let write = match self {
                    Format::Ggf => ggf::write_record,
                    Format::Sgf => sgf::write_record,
                    Format::Pgn => pgn::write_record,
                    Format::Sheet => sheet::write_record,
                    _ => transcript::write_record,
                };
                let mut text = String::new();
                for row in rows {
                    text.clear();
                    write(row.record, &mut text);
                    out.extend_from_slice(text.as_bytes());
                }
            }
        }
        Ok(())
    }

    /// Whether the format records a game's status and error itself.
    #[must_use]
    pub const fn carries_status(self) -> bool {
        matches!(self, Format::Csv | Format::Jsonl)
    }

    /// Pushes what this format cannot keep from `record`.
    pub fn losses(self, record: &GameRecord, out: &mut Vec<&'static str>) {
        match self {
            Format::Transcript => transcript::losses(record, out),
            Format::Csv => csv::losses(record, out),
            Format::Jsonl => jsonl::losses(record, out),
            Format::Wthor => wthor::losses(record, out),
            Format::Ggf => ggf::losses(record, out),
            Format::Sgf => sgf::losses(record, out),
            Format::Pgn => pgn::losses(record, out),
            Format::Sheet => sheet::losses(record, out),
            Format::Obf => {}
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
            .find(|f| {
                f.name().eq_ignore_ascii_case(s)
                    || f.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
            })
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!("unknown format {s:?} (known: {})", names.join(", "))
            })
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
}

/// A source of game records: each item is a game (possibly with a
/// defect inside it) or a failure after which nothing more is read.
pub trait GameReader: Iterator<Item = Result<GameRecord, ReadError>> + Send {}

impl<T: Iterator<Item = Result<GameRecord, ReadError>> + Send> GameReader for T {}
