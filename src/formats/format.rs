//! What every format is made of: its identity, its row of data, and the
//! shapes of its reader and writer. The formats build on this module; the
//! table of all of them is in [`super`].

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::formats::chunk::Chunker;
use crate::formats::features::{Check, Features};
use crate::record::row::Game;
use crate::record::source::ReadError;
use crate::record::GameError;
use crate::GameRecord;

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
    /// The game table as Apache Parquet, typed columns; read back, and
    /// read from token columns (lists of integers).
    Parquet,
    /// Othello-GPT tokens: a NumPy array of rows of square tokens.
    Tokens,
}

/// Opens a reader over an input.
pub type OpenReader =
    for<'a> fn(Box<dyn BufRead + Send + 'a>, &ReadOptions) -> Box<dyn GameReader + 'a>;

/// How to read what an input leaves open: set by the user, used by the
/// formats it concerns (the others ignore it).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ReadOptions {
    /// The column of a table that holds the moves (`--moves-column`),
    /// instead of choosing it by name.
    pub moves_column: Option<String>,
    /// The field delimiter of a table (`--delimiter`), instead of sniffing
    /// it.
    pub delimiter: Option<u8>,
}

/// One format, as data.
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// The name used on the command line (`--from`, `--to`).
    pub name: &'static str,
    /// Other names accepted on the command line.
    pub aliases: &'static [&'static str],
    /// File extensions, lowercase, the usual one first.
    pub extensions: &'static [&'static str],
    /// What it is, in a few words.
    pub summary: &'static str,
    /// Whether the first bytes of an input are in this format.
    pub sniff: fn(&[u8]) -> bool,
    /// A reader over an input (a WTHOR reader without names; see
    /// [`wthor::Reader::new`](crate::formats::wthor::Reader::new) for one with them).
    pub open: OpenReader,
    /// How games are written, when they are written as text.
    pub text: Option<&'static dyn TextFormat>,
    /// Whether kifu reads it (Parquet is written only).
    pub readable: bool,
    /// Whether kifu writes it (WTHOR, by [`wthor::ArchiveWriter`](crate::formats::wthor::ArchiveWriter), needs a
    /// file).
    pub writable: bool,
    /// Whether a written game keeps its status and error (an invalid game
    /// is written as a row saying so).
    pub carries_status: bool,
    /// Whether a written game carries its opening's name (the table's
    /// `opening` column), so the replay names every game's opening.
    pub names_openings: bool,
    /// What a written game loses.
    pub loses: Features,
    /// The limits of its own syntax a game may run into.
    pub checks: &'static [Check],
}

impl fmt::Debug for FormatInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormatInfo")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl FormatInfo {
    /// The row of `format`, named `name`, described by `summary`,
    /// recognised by `sniff` and read by `open`: a format kifu reads and
    /// writes, with no other name, no extension and no text writer, whose
    /// games carry neither their status nor their opening, losing nothing
    /// and checking nothing. The rows of the table start from it and say
    /// what differs (`FormatInfo { extensions: &["sgf"], ..FormatInfo::new(…) }`).
    #[must_use]
    pub const fn new(
        format: Format,
        name: &'static str,
        summary: &'static str,
        sniff: fn(&[u8]) -> bool,
        open: OpenReader,
    ) -> FormatInfo {
        FormatInfo {
            format,
            name,
            aliases: &[],
            extensions: &[],
            summary,
            sniff,
            open,
            text: None,
            readable: true,
            writable: true,
            carries_status: false,
            names_openings: false,
            loses: Features::NONE,
            checks: &[],
        }
    }
}

/// One step of a reader that ends at its first failure: `item` as the
/// reader's next item, `done` set when it is the end or a failure.
pub(crate) fn step<T>(
    done: &mut bool,
    item: Result<Option<T>, ReadError>,
) -> Option<Result<T, ReadError>> {
    let item = item.transpose();
    *done |= !matches!(item, Some(Ok(_)));
    item
}

/// The name is no format's.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("unknown format {name:?} (known: {})", Format::ALL.map(Format::name).join(", "))]
pub struct UnknownFormat {
    /// The name given.
    pub name: String,
}

/// A source of game records: each item is a game (possibly with a
/// defect inside it) or a failure after which nothing more is read.
///
/// A reader whose format can be parsed in parallel also offers itself as
/// a [`Chunker`]: the batch pipeline then reads raw chunks from it and
/// parses them in its workers, with the same games as a result.
pub trait GameReader: Iterator<Item = Result<GameRecord, ReadError>> + Send {
    /// This reader as a cutter of raw chunks, when its format is parsed in
    /// the workers and nothing was read yet; `None` to read it game by
    /// game.
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        None
    }
}

impl<T: GameReader + ?Sized> GameReader for Box<T> {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        (**self).chunker()
    }
}

/// Games held in memory (tests, a game typed on the command line), read
/// one by one.
pub struct Games<I>(pub I);

impl<I: Iterator<Item = Result<GameRecord, ReadError>> + Send> Iterator for Games<I> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

impl<I: Iterator<Item = Result<GameRecord, ReadError>> + Send> GameReader for Games<I> {}

/// Why a game cannot be stored in a format; nothing is written for it.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Refusal {
    /// The format stores games from the standard position only.
    #[error("non-standard start position")]
    NonStandardStart,
    /// The format has no way to mark anti games.
    #[error("anti rules")]
    AntiRules,
    /// A move token is not a square.
    #[error("unreadable move {number}: {text}")]
    Unreadable {
        /// 1-based move token number.
        number: usize,
        /// The token as written.
        text: String,
    },
    /// The game breaks the rules or could not be read to its end.
    #[error("invalid game: {0}")]
    Invalid(GameError),
    /// More discs placed than a record holds.
    #[error("{0} moves, more than 60")]
    TooManyMoves(usize),
    /// The id space of a name file is used up.
    #[error("more than 65535 {0} names")]
    TooManyNames(&'static str),
    /// The game count of the header is used up.
    #[error("more than 4294967295 games")]
    TooManyGames,
}

/// A failure to write a game.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The game cannot be stored; nothing was written.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes replayed games in one format: every format's writer.
pub trait GameWriter {
    /// Writes one game. A game the format cannot store is refused and
    /// nothing is written for it.
    fn write(&mut self, game: &Game<'_>) -> Result<(), WriteError>;

    /// Completes the output: what comes after the last game, a header to
    /// patch, side files. Nothing may be written after it.
    fn finish(&mut self) -> io::Result<()>;

    /// The text format whose games the caller may format itself (in
    /// worker threads) and hand over with [`GameWriter::write_formatted`].
    fn text(&self) -> Option<&'static dyn TextFormat> {
        None
    }

    /// Writes games formatted by [`GameWriter::text`]'s format.
    fn write_formatted(&mut self, bytes: &[u8]) -> io::Result<()> {
        let _ = bytes;
        Err(io::Error::other("this writer formats its own games"))
    }
}

/// A text format: each game becomes text on its own, so slices of games
/// can be formatted in parallel and joined in order.
pub trait TextFormat: Sync {
    /// What comes before the first game (CSV's header row).
    fn header(&self, _out: &mut Vec<u8>) {}

    /// Appends one game.
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>);
}

/// A [`GameWriter`] for a text format over any output.
pub struct TextWriter<W: Write> {
    format: &'static dyn TextFormat,
    out: W,
    buf: Vec<u8>,
}

impl<W: Write> TextWriter<W> {
    /// Starts writing `format` to `out` with its header; `None` when the
    /// format is not written as text.
    pub fn new(format: Format, mut out: W) -> io::Result<Option<TextWriter<W>>> {
        let Some(text) = format.info().text else {
            return Ok(None);
        };
        let mut buf = Vec::with_capacity(1 << 12);
        text.header(&mut buf);
        out.write_all(&buf)?;
        buf.clear();
        Ok(Some(TextWriter {
            format: text,
            out,
            buf,
        }))
    }

    /// The output.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> GameWriter for TextWriter<W> {
    fn write(&mut self, game: &Game<'_>) -> Result<(), WriteError> {
        self.buf.clear();
        self.format.write(game, &mut self.buf);
        self.out.write_all(&self.buf)?;
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn text(&self) -> Option<&'static dyn TextFormat> {
        Some(self.format)
    }

    fn write_formatted(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }
}
