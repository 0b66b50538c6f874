//! Plain transcripts: one game per line.
//!
//! Read: each line by the move grammar of [`crate::formats::movetext`]
//! (squares in either case, separators, move numbers, passes, a trailing
//! result, a leading board, Logistello's logbook lines, colours by case);
//! blank lines, `#`/`%` comment lines and a line holding only a number
//! (the game count some lists start with) are no game.
//!
//! Write: lowercase `f5d6c3…`, passes left out; a non-standard start is
//! written as a board prefix so the line reads back to the same game.

use std::io::BufRead;
use std::sync::Arc;

use crate::formats::chunk::{next_lines, Carry, ChunkParser, Chunker, RawChunk};
use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo, GameReader, TextFormat};
use crate::formats::lines::{Line, Lines, SliceLines, MAX_LINE};
use crate::record::row::Game;
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::Origin;
use crate::GameRecord;

pub use crate::formats::movetext::{parse_line, LineContext};

/// Streams games from a transcript file, one per non-blank line. Lines
/// end with `\n`, `\r\n` or `\r`; a line over 1 MiB is an invalid game
/// (never held in memory).
pub struct Reader<R> {
    lines: Lines<R>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader::with_max_line(input, MAX_LINE)
    }

    /// Reads from `input`, treating lines over `max` bytes as too long.
    pub fn with_max_line(input: R, max: usize) -> Reader<R> {
        Reader {
            lines: Lines::new(input, max),
            games: 0,
            failed: false,
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            let index = self.games + 1;
            match self.lines.next_line() {
                Ok(None) => return None,
                Ok(Some(Line::Text { number, byte, text })) => {
                    let ctx = LineContext {
                        line: number,
                        byte,
                        index,
                    };
                    if let Some(record) = parse_line(text, ctx) {
                        self.games += 1;
                        return Some(Ok(record));
                    }
                }
                Ok(Some(Line::TooLong {
                    number, byte, len, ..
                })) => {
                    self.games += 1;
                    return Some(Ok(too_long(index, number, byte, len)));
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(ReadError::Io(e)));
                }
            }
        }
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

impl<R: BufRead + Send> GameReader for Reader<R> {
    fn chunker(&mut self) -> Option<&mut dyn Chunker> {
        if self.lines.untouched() {
            Some(self)
        } else {
            None
        }
    }
}

impl<R: BufRead + Send> Chunker for Reader<R> {
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>> {
        let max = self.lines.max();
        next_lines(&mut self.lines, &mut self.failed, size, || {
            Arc::new(ChunkLines { max })
        })
    }

    fn recycle(&mut self, bytes: Vec<u8>) {
        self.lines.recycle(bytes);
    }
}

/// Parses the lines of a chunk as [`Reader`] does.
struct ChunkLines {
    max: usize,
}

impl ChunkParser for ChunkLines {
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
        // The lines are read in place, as `Reader` reads them.
        for line in SliceLines::new(&chunk.bytes, self.max, chunk.lines, chunk.byte) {
            let index = games + 1;
            let game = match line {
                Line::Text { number, byte, text } => {
                    let ctx = LineContext {
                        line: number,
                        byte,
                        index,
                    };
                    parse_line(text, ctx)
                }
                Line::TooLong {
                    number, byte, len, ..
                } => Some(too_long(index, number, byte, len)),
            };
            if let Some(game) = game {
                games += 1;
                out.push(game);
            }
        }
        None
    }
}

/// The transcript row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Transcript,
    name: "transcript",
    aliases: &["txt", "text"],
    extensions: &["txt", "gam", "tr", "transcript"],
    summary: "one game per line: f5d6c3…, every variant seen in the wild",
    // The format of last resort: any text that no other format claims.
    sniff: |_| false,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&Transcript),
    readable: true,
    writable: true,
    carries_status: false,
    names_openings: false,
    loses: Features::of_list(&[
        Feature::PlayerNames,
        Feature::Event,
        Feature::Site,
        Feature::Round,
        Feature::Date,
        Feature::Ratings,
        Feature::OtherTags,
        Feature::Result,
        Feature::TheoreticalScore,
        Feature::Evaluations,
        Feature::Times,
        Feature::ExplicitPasses,
        Feature::AntiRules,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
        Feature::OtherBoard,
    ]),
    checks: &[],
};

/// Writes transcripts.
struct Transcript;

impl TextFormat for Transcript {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        // The common line, squares from the standard start, written in
        // place: what `write_record` writes of it.
        let record = game.record;
        let start = out.len();
        if record.has_standard_start() && record.push_squares(out) {
            if out.len() > start {
                out.push(b'\n');
                return;
            }
            out.truncate(start);
        }
        let mut line = String::new();
        write_record(game.record, &mut line);
        out.extend_from_slice(line.as_bytes());
    }
}

/// Writes one game as a line: lowercase squares, passes left out, with a
/// board prefix when the start is not the standard one, or when no square
/// was played (an empty line would be no game).
pub fn write_record(record: &GameRecord, out: &mut String) {
    let moves = record.move_string();
    if !record.has_standard_start() || moves.is_empty() {
        // The board prefix: 64 squares, the side to move and `;`.
        out.push_str(&record.start.to_string());
        out.push(';');
        if !moves.is_empty() {
            out.push(' ');
        }
    }
    out.push_str(&moves);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testkit::transcript as parse;

    #[test]
    fn writer_lowercases_and_omits_passes() {
        let r = parse("F5 D6 pass C3");
        let mut out = String::new();
        write_record(&r, &mut out);
        assert_eq!(out, "f5d6c3\n");
    }

    #[test]
    fn a_game_without_moves_is_written_as_its_start() {
        let empty = GameRecord::new(crate::Position::start());
        let mut out = String::new();
        write_record(&empty, &mut out);
        assert_eq!(
            out,
            "---------------------------OX------XO--------------------------- X;\n"
        );
        let games: Vec<GameRecord> = Reader::new(out.as_bytes()).map(|g| g.unwrap()).collect();
        assert_eq!(games.len(), 1);
        assert!(games[0].moves.is_empty());
        assert!(games[0].has_standard_start());
    }

    #[test]
    fn writer_round_trips_a_board_prefix() {
        let board = "---------------------------OX------XO---------------------------";
        let r = parse(&format!("{board} O; e6"));
        let mut out = String::new();
        write_record(&r, &mut out);
        let back = parse(out.trim_end());
        assert_eq!(back.start, r.start);
        assert_eq!(back.moves, r.moves);
    }

    #[test]
    fn reader_handles_cr_line_ends_bom_and_long_lines() {
        let text = b"\xEF\xBB\xBFf5d6\rf5f6\r\n\rc4c3";
        let games: Vec<GameRecord> = Reader::new(&text[..]).map(|g| g.unwrap()).collect();
        let lines: Vec<(Option<u32>, String)> = games
            .iter()
            .map(|g| (g.origin.line, g.move_string()))
            .collect();
        assert_eq!(
            lines,
            [
                (Some(1), "f5d6".to_string()),
                (Some(2), "f5f6".to_string()),
                (Some(4), "c4c3".to_string())
            ]
        );
        let long = format!("{}\nf5\n", "f5".repeat(100));
        let games: Vec<GameRecord> = Reader::with_max_line(long.as_bytes(), 50)
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 2);
        assert!(games[0].moves.is_empty());
        assert_eq!(
            games[0].defect.as_ref().unwrap().message,
            "line too long: 200 bytes (the limit is 1048576 bytes)"
        );
        assert_eq!(games[1].origin.index, 2);
        assert_eq!(games[1].move_string(), "f5");
    }

    #[test]
    fn reader_counts_lines_and_games() {
        let text = "# header\nf5d6\n\nf5f6\r\n";
        let games: Vec<GameRecord> = Reader::new(text.as_bytes()).map(|g| g.unwrap()).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].origin.line, Some(4));
        assert_eq!(games[1].origin.index, 2);
        assert_eq!(games[1].origin.byte, 15);
        assert_eq!(games[1].span(1).unwrap().byte, 17);
        assert_eq!(games[1].origin.text.as_deref(), Some("f5f6"));
    }
}
