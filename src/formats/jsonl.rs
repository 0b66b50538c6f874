//! JSON Lines: one JSON object per game — the CSV table's fields, plus the
//! full move list with passes (implicit ones marked), per-move evaluations
//! and times, the final board, the rules and every tag. The reader takes
//! back everything a record holds, so `record → JSON Lines → record` is
//! lossless.

use std::io::BufRead;

use serde::{Deserialize, Serialize};

use crate::formats::features::Features;
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::formats::lines::{Line, Lines, MAX_LINE};
use crate::formats::transcript::{parse_line, LineContext};
use crate::game::Move;
use crate::record::{
    GameRecord, MoveNote, Origin, RecordedMove, RecordedResult, Report, ResultValue, Rules, Token,
};
use crate::source::{ParseError, ReadError, Span};
use crate::table::Game;
use crate::{Color, Square};

/// One move of the `plies` list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlyJson {
    /// `black` or `white`.
    pub color: Option<Color>,
    /// A square, `pass`, or an unreadable token as written.
    #[serde(rename = "move")]
    pub mv: String,
    /// A pass the record left out and the replay inserted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub implicit: bool,
    /// Evaluation, as the record gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<f64>,
    /// Seconds spent, as the record gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
}

/// One line of the file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameJson {
    /// The input path as given.
    pub source: String,
    /// 1-based game number in the input.
    pub index: u64,
    /// Event.
    pub event: Option<String>,
    /// Date as written.
    pub date: Option<String>,
    /// Black's name.
    pub black_player: Option<String>,
    /// White's name.
    pub white_player: Option<String>,
    /// Squares played, concatenated, passes left out.
    pub moves: String,
    /// Discs placed.
    pub move_count: u32,
    /// Passes, implicit and explicit.
    pub passes: u32,
    /// Black discs at the end (the last legal position).
    pub black_discs: u8,
    /// White discs at the end.
    pub white_discs: u8,
    /// Empty squares at the end.
    pub empties: u8,
    /// Black's score with empties to the winner (complete games).
    pub black_score: Option<u8>,
    /// White's score with empties to the winner (complete games).
    pub white_score: Option<u8>,
    /// `black`, `white` or `draw`.
    pub winner: Option<crate::Winner>,
    /// Black's score as the record claims it.
    pub recorded_black_score: Option<u8>,
    /// `complete`, `incomplete` or `invalid`.
    pub status: Option<crate::Status>,
    /// 1-based number of the first offending move token.
    pub error_move: Option<usize>,
    /// Why the game is invalid.
    pub error: Option<String>,
    /// Black's theoretical score (WTHOR).
    pub theoretical_black_score: Option<u8>,
    /// The depth of the theoretical score (WTHOR's P3), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theoretical_depth: Option<u8>,
    /// The result as the record states it (`34-30`, `+2`, `1-0 (resigned)`).
    pub recorded_result: Option<String>,
    /// A non-standard start: 64 squares `X`/`O`/`-`, a space, `X` or `O`.
    pub start: Option<String>,
    /// `standard` or `anti`.
    pub rules: Option<String>,
    /// Site or server.
    pub site: Option<String>,
    /// Round.
    pub round: Option<String>,
    /// Black's rating as written.
    pub black_rating: Option<String>,
    /// White's rating as written.
    pub white_rating: Option<String>,
    /// Every other tag, in order, as `[name, value]`.
    pub tags: Vec<(String, String)>,
    /// Every move with its colour; implicit passes included and marked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub plies: Vec<PlyJson>,
    /// The final board, 64 squares `X`/`O`/`-` from a1 to h8.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub final_board: String,
}

fn board_string(position: &crate::Position) -> String {
    let mut out = position.to_string();
    // The squares alone: the side to move is not part of a final board.
    out.truncate(64);
    out
}

impl GameJson {
    /// The object for one replayed game.
    #[must_use]
    pub fn from_row(row: &Game<'_>) -> GameJson {
        let record = row.record;
        let report = row.report;
        let finish = &report.finish;
        let tags = &record.tags;
        GameJson {
            source: row.source.to_owned(),
            index: record.origin.index,
            event: tags.event.clone(),
            date: tags.date.clone(),
            black_player: tags.black.clone(),
            white_player: tags.white.clone(),
            moves: record.move_string(),
            move_count: finish.placed,
            passes: finish.passes,
            black_discs: finish.score.black_discs,
            white_discs: finish.score.white_discs,
            empties: finish.score.empties,
            black_score: row.scores().map(|s| s.0),
            white_score: row.scores().map(|s| s.1),
            winner: row.winner(),
            recorded_black_score: row.recorded_black_score(),
            status: Some(row.status()),
            error_move: row.error_move(),
            error: row.error(),
            theoretical_black_score: record.theoretical_black_score,
            theoretical_depth: record.theoretical_depth,
            recorded_result: record.result.map(|r| r.to_string()),
            start: row.start(),
            rules: Some(
                match record.rules {
                    Rules::Standard => "standard",
                    Rules::Anti => "anti",
                }
                .to_owned(),
            ),
            site: tags.site.clone(),
            round: tags.round.clone(),
            black_rating: tags.black_rating.clone(),
            white_rating: tags.white_rating.clone(),
            tags: tags.extra.clone(),
            plies: plies(record, report),
            final_board: board_string(&finish.position),
        }
    }

    /// The record this object describes.
    #[must_use]
    pub fn to_record(&self, line: u32, byte: u64, index: u64) -> GameRecord {
        let mut record = GameRecord::default();
        if let Some(start) = self.start.as_deref().and_then(|s| {
            parse_line(
                format!("{s};").as_bytes(),
                LineContext { line, byte, index },
            )
        }) {
            record.start = start.start;
        }
        if self.plies.is_empty() {
            if let Some(parsed) =
                parse_line(self.moves.as_bytes(), LineContext { line, byte, index })
            {
                record.moves = parsed.moves;
                record.unreadable = parsed.unreadable;
            }
        } else {
            let with_notes = self
                .plies
                .iter()
                .any(|p| !p.implicit && (p.eval.is_some() || p.time.is_some()));
            for ply in self.plies.iter().filter(|p| !p.implicit) {
                let token = if ply.mv.eq_ignore_ascii_case("pass") {
                    Token::Move(Move::Pass)
                } else if let Some(sq) = Square::from_ascii(ply.mv.as_bytes()) {
                    Token::Move(Move::Play(sq))
                } else {
                    record
                        .unreadable
                        .push((record.moves.len(), ply.mv.as_str().into()));
                    Token::Unreadable
                };
                record.moves.push(RecordedMove {
                    token,
                    color: ply.color,
                });
                if with_notes {
                    record.notes.push(MoveNote {
                        eval: ply.eval,
                        time: ply.time,
                    });
                }
            }
        }
        let t = &mut record.tags;
        t.event.clone_from(&self.event);
        t.date.clone_from(&self.date);
        t.black.clone_from(&self.black_player);
        t.white.clone_from(&self.white_player);
        t.site.clone_from(&self.site);
        t.round.clone_from(&self.round);
        t.black_rating.clone_from(&self.black_rating);
        t.white_rating.clone_from(&self.white_rating);
        t.extra.clone_from(&self.tags);
        record.result = match &self.recorded_result {
            Some(text) => text.parse::<RecordedResult>().ok(),
            None => self.recorded_black_score.filter(|&b| b <= 64).map(|b| {
                RecordedResult::new(ResultValue::Discs {
                    black: b,
                    white: 64 - b,
                })
            }),
        };
        record.theoretical_black_score = self.theoretical_black_score;
        record.theoretical_depth = self.theoretical_depth;
        if self.rules.as_deref() == Some("anti") {
            record.rules = Rules::Anti;
        }
        record.origin = Origin {
            index,
            line: Some(line),
            byte,
            text: None,
        };
        record
    }
}

/// The moves with colours, implicit passes inserted, notes attached.
fn plies(record: &GameRecord, report: &Report) -> Vec<PlyJson> {
    let mut out = Vec::with_capacity(record.moves.len() + 4);
    for turn in record.plies(report) {
        if turn.pass_before {
            out.push(PlyJson {
                color: Some(turn.color.opponent()),
                mv: "pass".into(),
                implicit: true,
                ..PlyJson::default()
            });
        }
        let note = record.notes.get(turn.index).copied().unwrap_or_default();
        out.push(PlyJson {
            color: Some(turn.color),
            mv: record.token_text(turn.index),
            implicit: false,
            eval: note.eval,
            time: note.time,
        });
    }
    out
}

/// The JSON Lines row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    format: Format::Jsonl,
    name: "jsonl",
    aliases: &["json", "ndjson", "json-lines"],
    extensions: &["jsonl", "ndjson", "json"],
    summary: "one JSON object a game: the table's fields, every move and tag",
    sniff,
    open: |input, _| Box::new(Reader::new(input)),
    text: Some(&JsonLines),
    writable: true,
    carries_status: true,
    // It keeps everything a record holds.
    loses: Features::NONE,
    checks: &[],
};

/// Writes JSON Lines.
struct JsonLines;

impl TextFormat for JsonLines {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        // Serialising a plain struct to memory cannot fail.
        let _ = serde_json::to_writer(&mut *out, &GameJson::from_row(game));
        out.push(b'\n');
    }
}

/// Whether the first bytes look like JSON Lines.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    head.trim_ascii_start().starts_with(b"{")
}

/// Streams games from JSON Lines, one object per non-blank line (a line
/// over 1 MiB is an invalid game).
pub struct Reader<R> {
    lines: Lines<R>,
    games: u64,
    failed: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            lines: Lines::new(input, MAX_LINE),
            games: 0,
            failed: false,
        }
    }
}

fn bad_line(
    index: u64,
    line: u32,
    byte: u64,
    column: u32,
    text: Option<&[u8]>,
    message: String,
) -> GameRecord {
    GameRecord {
        origin: Origin {
            index,
            line: Some(line),
            byte,
            text: text.map(|t| String::from_utf8_lossy(t).into()),
        },
        defect: Some(ParseError::at(
            Span::new(byte + u64::from(column.saturating_sub(1)), line, column, 1),
            message,
        )),
        ..GameRecord::default()
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
            let record = match self.lines.next_line() {
                Ok(None) => return None,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(ReadError::Io(e)));
                }
                Ok(Some(Line::TooLong {
                    number, byte, len, ..
                })) => bad_line(
                    index,
                    number,
                    byte,
                    1,
                    None,
                    format!("line too long: {len} bytes (the limit is {MAX_LINE} bytes)"),
                ),
                Ok(Some(Line::Text { number, byte, text })) => {
                    let trimmed = text.trim_ascii();
                    if trimmed.is_empty() {
                        continue;
                    }
                    match serde_json::from_slice::<GameJson>(trimmed) {
                        Ok(json) => json.to_record(number, byte, index),
                        // The game is still counted: invalid, with where.
                        Err(e) => bad_line(
                            index,
                            number,
                            byte,
                            e.column() as u32,
                            Some(text),
                            format!("bad JSON: {e}"),
                        ),
                    }
                }
            };
            self.games += 1;
            return Some(Ok(record));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript;

    fn game(text: &str) -> GameRecord {
        transcript::parse_line(
            text.as_bytes(),
            LineContext {
                line: 1,
                byte: 0,
                index: 1,
            },
        )
        .unwrap()
    }

    fn round_trip(record: &GameRecord) -> GameRecord {
        let report = record.replay();
        let mut out = Vec::new();
        JsonLines.write(&Game::new("x", record, &report), &mut out);
        let mut games: Vec<GameRecord> = Reader::new(out.as_slice()).map(|g| g.unwrap()).collect();
        assert_eq!(games.len(), 1);
        games.remove(0)
    }

    #[test]
    fn plies_mark_implicit_passes() {
        // From the example fixture: Black passes before White's c1.
        let g = game("f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1");
        let report = g.replay();
        let json = GameJson::from_row(&Game::new("x", &g, &report));
        assert_eq!(json.plies.len(), 60);
        assert_eq!(
            json.plies[58],
            PlyJson {
                color: Some(Color::Black),
                mv: "pass".into(),
                implicit: true,
                eval: None,
                time: None
            }
        );
        assert_eq!(json.plies[59].mv, "c1");
        assert_eq!(json.passes, 1);
        assert_eq!((json.black_score, json.white_score), (Some(25), Some(39)));
        assert_eq!(json.final_board.len(), 64);
    }

    #[test]
    fn everything_survives_a_round_trip() {
        let mut g = game("f5 d6 pass c3");
        g.tags.event = Some("Open".into());
        g.tags.site = Some("GGS/os".into());
        g.tags.black_rating = Some("2196.37".into());
        g.tags.extra = vec![("TI".into(), "05:00//02:00".into())];
        g.notes = vec![
            MoveNote {
                eval: Some(-1.5),
                time: Some(0.01),
            },
            MoveNote::default(),
            MoveNote::default(),
            MoveNote {
                eval: None,
                time: Some(3.0),
            },
        ];
        g.result = Some(RecordedResult {
            value: ResultValue::Margin(-2.5),
            kind: crate::ResultKind::Time,
        });
        g.rules = Rules::Anti;
        let back = round_trip(&g);
        assert_eq!(back.tags, g.tags);
        assert_eq!(back.notes, g.notes);
        assert_eq!(back.result, g.result);
        assert_eq!(back.rules, Rules::Anti);
        let tokens: Vec<Token> = back.moves.iter().map(|m| m.token).collect();
        let expected: Vec<Token> = g.moves.iter().map(|m| m.token).collect();
        assert_eq!(tokens, expected);
        assert_eq!(back.move_colors(), g.move_colors());
    }

    #[test]
    fn invalid_games_keep_every_token() {
        let g = game("f5 d6 i9 c3");
        let back = round_trip(&g);
        assert_eq!(back.move_string(), "f5d6i9c3");
        assert_eq!(
            back.replay().error.unwrap().to_string(),
            "move 3 (black) i9: not a square"
        );
    }

    #[test]
    fn bad_json_is_an_invalid_game_not_a_lost_one() {
        let games: Vec<GameRecord> = Reader::new(&b"{\"moves\":\"f5\"}\n{oops\n"[..])
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].move_string(), "f5");
        let defect = games[1].defect.as_ref().unwrap();
        assert_eq!(defect.span.line, 2);
        assert!(
            defect.message.starts_with("bad JSON: key must be a string"),
            "{}",
            defect.message
        );
    }
}
