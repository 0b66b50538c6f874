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

use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::formats::per_line::{LineFormat, LineReader};
use crate::record::row::Game;
use crate::GameRecord;

pub use crate::formats::movetext::{parse_line, LineContext};

/// Streams games from a transcript file, one per non-blank line. Lines
/// end with `\n`, `\r\n` or `\r`; a line over 1 MiB is an invalid game
/// (never held in memory).
pub type Reader<R> = LineReader<R, TranscriptLine>;

/// A transcript's line as a game: [`parse_line`].
#[derive(Clone, Copy, Default, Debug)]
pub struct TranscriptLine;

impl LineFormat for TranscriptLine {
    fn game(self, line: &[u8], ctx: LineContext) -> Option<GameRecord> {
        parse_line(line, ctx)
    }
}

/// The transcript row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    aliases: &["txt", "text"],
    extensions: &["txt", "gam", "tr", "transcript"],
    text: Some(&Transcript),
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
    ..FormatInfo::new(
        Format::Transcript,
        "transcript",
        "one game per line: f5d6c3…, every variant seen in the wild",
        // The format of last resort: any text that no other format claims.
        |_| false,
        |input, _| Box::new(Reader::new(input)),
    )
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
