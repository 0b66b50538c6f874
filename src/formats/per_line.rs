//! The formats of one game a line (transcripts, JSON Lines): the reader
//! they share. A format says what one line is as a game
//! ([`LineFormat`]); [`LineReader`] reads the lines of an input as games,
//! one after the other or as raw chunks of whole lines that the batch
//! pipeline's workers parse in place, the same games either way.

use std::io::BufRead;
use std::sync::Arc;

use crate::formats::chunk::{next_lines, Carry, ChunkParser, Chunker, RawChunk};
use crate::formats::format::GameReader;
use crate::formats::lines::{Line, Lines, SliceLines, MAX_LINE};
use crate::formats::movetext::LineContext;
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::Origin;
use crate::GameRecord;

/// What one line of a format is as a game.
pub trait LineFormat: Default + Copy + Send + Sync + 'static {
    /// The game on `line` (its end included, when it has one), `None` for
    /// a line that holds none (a blank line, a comment).
    fn game(self, line: &[u8], ctx: LineContext) -> Option<GameRecord>;
}

/// Streams the games of an input in format `F`, one game a line at most.
/// Lines end with `\n`, `\r\n` or `\r`; a line over the limit (1 MiB by
/// default) is an invalid game, never held in memory.
pub struct LineReader<R, F> {
    lines: Lines<R>,
    games: u64,
    failed: bool,
    format: F,
}

impl<R: BufRead, F: LineFormat> LineReader<R, F> {
    /// Reads from `input`.
    pub fn new(input: R) -> LineReader<R, F> {
        LineReader::with_max_line(input, MAX_LINE)
    }

    /// Reads from `input`, treating lines over `max` bytes as too long.
    pub fn with_max_line(input: R, max: usize) -> LineReader<R, F> {
        LineReader {
            lines: Lines::new(input, max),
            games: 0,
            failed: false,
            format: F::default(),
        }
    }
}

/// The game of `line` in `format`; the game of a line over the limit is
/// invalid, with its length.
fn game_of(format: impl LineFormat, line: Line<'_>, index: u64) -> Option<GameRecord> {
    match line {
        Line::Text { number, byte, text } => {
            let ctx = LineContext {
                line: number,
                byte,
                index,
            };
            format.game(text, ctx)
        }
        Line::TooLong {
            number, byte, len, ..
        } => Some(too_long(index, number, byte, len)),
    }
}

/// The game of a line over the limit: invalid, with its length.
fn too_long(index: u64, number: u32, byte: u64, len: u64) -> GameRecord {
    GameRecord {
        origin: Origin {
            index,
            line: Some(number),
            byte,
            text: None,
        },
        defect: Some(ParseError::at(
            Span::new(byte, number, 1, 1),
            format!("line too long: {len} bytes (the limit is {MAX_LINE} bytes)"),
        )),
        ..GameRecord::default()
    }
}

impl<R: BufRead, F: LineFormat> Iterator for LineReader<R, F> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            let index = self.games + 1;
            match self.lines.next_line() {
                Ok(None) => return None,
                Ok(Some(line)) => {
                    if let Some(record) = game_of(self.format, line, index) {
                        self.games += 1;
                        return Some(Ok(record));
                    }
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(ReadError::Io(e)));
                }
            }
        }
    }
}

impl<R: BufRead + Send, F: LineFormat> GameReader for LineReader<R, F> {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        if self.lines.untouched() {
            Some(self)
        } else {
            None
        }
    }
}

impl<R: BufRead + Send, F: LineFormat> Chunker for LineReader<R, F> {
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        let max = self.lines.max();
        let format = self.format;
        next_lines(&mut self.lines, &mut self.failed, size, || {
            Arc::new(ChunkLines { max, format })
        })
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        self.lines.recycle(bytes);
    }
}

/// Parses the lines of a chunk as [`LineReader`] does.
struct ChunkLines<F> {
    max: usize,
    format: F,
}

impl<F: LineFormat> ChunkParser for ChunkLines<F> {
    fn parse(
        &self,
        chunk: &RawChunk,
        _: Option<Carry>,
        out: &mut Vec<GameRecord>,
    ) -> Option<Carry> {
        if let Some(len) = chunk.long_line {
            out.push(too_long(1, chunk.lines.saturating_add(1), chunk.byte, len));
            return None;
        }
        // One game a line at most: room for them all at once (a new
        // buffer rather than a reallocation that would copy the old one).
        let lines = memchr::memchr_iter(b'\n', &chunk.bytes).count() + 1;
        if out.is_empty() && out.capacity() < lines {
            *out = Vec::with_capacity(lines);
        } else {
            out.reserve(lines);
        }
        let mut games = 0;
        // The lines are read in place, as `LineReader` reads them.
        for line in SliceLines::new(&chunk.bytes, self.max, chunk.lines, chunk.byte) {
            if let Some(game) = game_of(self.format, line, games + 1) {
                games += 1;
                out.push(game);
            }
        }
        None
    }
}
