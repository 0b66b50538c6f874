//! OBF positions: a board, the side to move and scored moves.
//!
//! One position per line, as Edax's problem files write it:
//! `<64 squares a1…h8> <side>; <move>:<score>; …`, for example
//! `--XXXXX--OOOXX-O…OOOOO-- X; G8:+18; H1:+12;`. Blank lines and `%`
//! comment lines are skipped; text after a `%` on a position line is a
//! comment too.
//!
//! The board is read as the move grammar reads a transcript's board
//! ([`crate::formats::movetext`]): squares `X`, `x`, `*`, `b`, `B` Black;
//! `O`, `o`, `w`, `W`, `0` White; `-`, `.` empty (blanks between squares
//! are ignored). Side to move: the same letters for each colour (`X`/`O`
//! in Edax files). Moves: a square in either case or a pass word of the
//! move grammar (`PS`, `PA`, `pass`, `--`, `@@`); scores are integers
//! (Edax: the final disc difference from the side to move's view, empties
//! to the winner) and may be missing (`G8;`).
//!
//! Each line becomes a [`GameRecord`] that starts from the position and has
//! no moves; the scored moves stay verbatim in `tags.extra` under
//! [`EXTRA_TAG`] and [`scored_moves`] reads them back. [`line`] writes a
//! position and its scored moves as Edax does (`kifu solve --format obf`);
//! games are not converted to OBF.

use std::io::BufRead;

use crate::engine::game::Move;
use crate::formats::format::{Format, FormatInfo};
use crate::formats::lines::{Line, Lines};
use crate::formats::movetext::{
    board, is_black, is_empty, is_pass, is_white, line_content, BoardError,
};
use crate::record::source::{ParseError, ReadError, Span};
use crate::record::Origin;
use crate::{GameRecord, Square};

/// The `tags.extra` name under which a position keeps its scored moves.
pub const EXTRA_TAG: &str = "obf";

/// The longest line the reader takes; the rest of a longer line is skipped.
const MAX_LINE: usize = 64 * 1024;

/// One listed move of a position and its score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ScoredMove {
    /// The move (a pass when the side to move has none).
    pub mv: Move,
    /// Its score as listed, when listed.
    pub score: Option<i32>,
}

pub use crate::formats::movetext::LineContext;

/// Parses one `move:score` entry.
fn parse_entry(entry: &str) -> Result<ScoredMove, String> {
    let (word, score) = match entry.split_once(':') {
        Some((w, s)) => (w.trim(), Some(s.trim())),
        None => (entry.trim(), None),
    };
    let mv = if let Some(square) = Square::from_ascii(word.as_bytes()) {
        Move::Play(square)
    } else if is_pass(word.as_bytes()) {
        Move::Pass
    } else {
        return Err(format!("expected a move such as G8:+18, found {word:?}"));
    };
    let score = match score {
        None => None,
        Some(text) => Some(
            text.parse::<i32>()
                .ok()
                .filter(|s| (-64..=64).contains(s))
                .ok_or_else(|| format!("unreadable score {text:?} of move {word}"))?,
        ),
    };
    Ok(ScoredMove { mv, score })
}

/// Reads the scored moves of a text such as `G8:+18; H1:+12;`; each error
/// comes with the byte offset of its entry.
fn parse_entries(text: &str) -> Vec<Result<ScoredMove, (usize, usize, String)>> {
    let mut offset = 0;
    let mut out = Vec::new();
    for entry in text.split(';') {
        let lead = entry.len() - entry.trim_start().len();
        if !entry.trim().is_empty() {
            out.push(parse_entry(entry).map_err(|m| (offset + lead, entry.trim().len(), m)));
        }
        offset += entry.len() + 1;
    }
    out
}

/// The scored moves a position read from OBF lists.
#[must_use]
pub fn scored_moves(record: &GameRecord) -> Vec<ScoredMove> {
    record
        .tags
        .extra
        .iter()
        .filter(|(name, _)| name == EXTRA_TAG)
        .flat_map(|(_, text)| parse_entries(text))
        .filter_map(Result::ok)
        .collect()
}

/// Parses one line; `None` for a blank or comment line.
#[must_use]
pub fn parse_line(line: &[u8], ctx: LineContext) -> Option<GameRecord> {
    let (line, _) = line_content(line)?;
    let text = String::from_utf8_lossy(line);
    let mut record = GameRecord {
        origin: Origin {
            index: ctx.index,
            line: Some(ctx.line),
            byte: ctx.byte,
            text: Some(text.as_ref().into()),
        },
        ..GameRecord::default()
    };
    if let Err((offset, len, message)) = parse_position(line, &mut record) {
        let column = line
            .get(..offset)
            .map_or(offset, |p| p.iter().filter(|&&b| b & 0xC0 != 0x80).count());
        record.defect = Some(ParseError::at(
            Span::new(
                ctx.byte + offset as u64,
                ctx.line,
                u32::try_from(column + 1).unwrap_or(u32::MAX),
                u32::try_from(len.max(1)).unwrap_or(u32::MAX),
            ),
            message,
        ));
    }
    Some(record)
}

/// Reads the board, side and moves of `line` into `record`; an error is
/// (byte offset, length, message).
fn parse_position(line: &[u8], record: &mut GameRecord) -> Result<(), (usize, usize, String)> {
    let (start, moves_at) = match board(line) {
        Ok(read) => read,
        Err(BoardError::Short { squares, at }) => {
            let message = match (line.get(at), Square::new(squares)) {
                (Some(&c), Some(square)) => format!(
                    "unreadable square {:?} at {square}",
                    char::from(c).escape_default().to_string()
                ),
                _ => format!("board has {squares} squares, expected 64"),
            };
            return Err((at, 1, message));
        }
        Err(BoardError::NoSide { at }) => {
            return Err((
                at,
                1,
                "expected the side to move (X or O) after the board".into(),
            ))
        }
    };
    record.start = start;
    let mut moves = line.get(moves_at..).unwrap_or_default();
    if let Some(comment) = moves.iter().position(|&c| c == b'%') {
        moves = moves.get(..comment).unwrap_or_default();
    }
    let moves = String::from_utf8_lossy(moves);
    if let Some(&c) = moves.as_bytes().first() {
        if !matches!(c, b';' | b' ' | b'\t') {
            return Err((moves_at, 1, "expected `;` after the side to move".into()));
        }
    }
    for entry in parse_entries(&moves) {
        if let Err((offset, len, message)) = entry {
            return Err((moves_at + offset, len, message));
        }
    }
    let kept = moves.trim().trim_start_matches(';').trim_start();
    if !kept.is_empty() {
        record.tags.extra.push((EXTRA_TAG.into(), kept.to_owned()));
    }
    Ok(())
}

/// Streams positions from OBF text, one per non-blank, non-comment line;
/// a line over 64 KiB is read up to the limit and marked with a
/// defect there.
pub struct Reader<R> {
    lines: Lines<R>,
    positions: u64,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads from `input`.
    pub fn new(input: R) -> Reader<R> {
        Reader {
            lines: Lines::new(input, MAX_LINE),
            positions: 0,
            done: false,
        }
    }
}

/// Marks a position whose line went past [`MAX_LINE`]; `head` is the part
/// that was read.
fn cut(record: &mut GameRecord, ctx: LineContext, head: &[u8]) {
    let cut = ctx.byte + MAX_LINE as u64;
    // A defect wholly before the cut stands; one at the cut comes from
    // the cut itself.
    if record
        .defect
        .as_ref()
        .is_some_and(|d| d.span.byte + u64::from(d.span.len) < cut)
    {
        return;
    }
    let chars = head.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    record.defect = Some(ParseError::at(
        Span::new(
            cut,
            ctx.line,
            u32::try_from(chars + 1).unwrap_or(u32::MAX),
            1,
        ),
        "line longer than 64 KiB",
    ));
}

/// Read game by game (not parsed in the workers).
impl<R: BufRead + Send> crate::formats::format::GameReader for Reader<R> {}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let index = self.positions + 1;
            let (text, ctx, long) = match self.lines.next_line() {
                Ok(None) => {
                    self.done = true;
                    continue;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(ReadError::Io(e)));
                }
                Ok(Some(Line::Text { number, byte, text })) => (text, (number, byte), false),
                Ok(Some(Line::TooLong {
                    number, byte, head, ..
                })) => (head, (number, byte), true),
            };
            let ctx = LineContext {
                line: ctx.0,
                byte: ctx.1,
                index,
            };
            if let Some(mut record) = parse_line(text, ctx) {
                if long {
                    cut(&mut record, ctx, text);
                }
                self.positions += 1;
                return Some(Ok(record));
            }
        }
        None
    }
}

/// One OBF line (without its line break): the board, the side to move,
/// and each move with its score as Edax writes them (`G8:+18`, a pass
/// `PS`, a zero `+0`).
///
/// ```
/// use kifu::formats::obf;
/// use kifu::{Move, Position};
/// let pos = Position::start();
/// let f5 = Move::Play("f5".parse()?);
/// let line = obf::line(&pos, &[(f5, 0)]);
/// assert_eq!(&line[64..], " X; F5:+0;");
/// # Ok::<(), kifu::ParseSquareError>(())
/// ```
#[must_use]
pub fn line(position: &crate::Position, moves: &[(Move, i32)]) -> String {
    use std::fmt::Write;
    let mut out = position.to_string();
    out.push(';');
    for (mv, score) in moves {
        let word = match mv {
            Move::Play(square) => square.to_string().to_ascii_uppercase(),
            Move::Pass => "PS".to_owned(),
        };
        let _ = write!(out, " {word}:{score:+};");
    }
    out
}

/// The OBF row of the format table: read as positions (`kifu solve`
/// writes it).
pub const INFO: FormatInfo = FormatInfo {
    extensions: &["obf"],
    writable: false,
    ..FormatInfo::new(
        Format::Obf,
        "obf",
        "positions with scored moves (Edax's problems), read as start positions",
        sniff,
        |input, _| Box::new(Reader::new(input)),
    )
};

/// Whether the first bytes look like OBF: after comment lines, a line of
/// 64 squares, the side to move, `;` and a scored move (`G8:+18`).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let Some(line) = head
        .split(|&c| c == b'\n')
        .map(<[u8]>::trim_ascii)
        .find(|l| !l.is_empty() && !l.starts_with(b"%"))
    else {
        return false;
    };
    let (Some(board), Some(rest)) = (line.get(..64), line.get(64..)) else {
        return false;
    };
    if !board
        .iter()
        .all(|&c| is_black(c) || is_white(c) || is_empty(c))
    {
        return false;
    }
    let rest = rest.trim_ascii_start();
    let Some((&side, rest)) = rest.split_first() else {
        return false;
    };
    let Some(moves) = rest.trim_ascii_start().strip_prefix(b";") else {
        return false;
    };
    (is_black(side) || is_white(side))
        && moves
            .split(|&c| c == b';')
            .next()
            .and_then(|e| std::str::from_utf8(e).ok())
            .is_some_and(|e| e.contains(':') && parse_entry(e).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bitboard, Color, Position};

    const FIXTURE: &str = include_str!("../../fixtures/obf/positions.obf");
    const START: &str = "---------------------------OX------XO---------------------------";

    fn ctx() -> LineContext {
        LineContext {
            line: 1,
            byte: 0,
            index: 1,
        }
    }

    fn parse(text: &str) -> GameRecord {
        parse_line(text.as_bytes(), ctx()).expect("a position line")
    }

    fn read(text: &str) -> Vec<GameRecord> {
        Reader::new(text.as_bytes())
            .map(|g| g.expect("no i/o error"))
            .collect()
    }

    fn defect(record: &GameRecord) -> (u32, &str) {
        let d = record.defect.as_ref().expect("a defect");
        (d.span.column, d.message.as_str())
    }

    fn scored(record: &GameRecord) -> Vec<(String, Option<i32>)> {
        scored_moves(record)
            .into_iter()
            .map(|s| (s.mv.to_string(), s.score))
            .collect()
    }

    use crate::testkit::corpus;

    #[test]
    fn edax_line_gives_the_position_and_scored_moves() {
        let r = parse(&format!("{START} X; F5:+0; E6:-2; D3:+64; C4:-64;"));
        assert_eq!(r.start, Position::start());
        assert!(r.moves.is_empty());
        assert_eq!(r.defect, None);
        assert_eq!(
            r.tags.extra,
            [(
                EXTRA_TAG.to_owned(),
                "F5:+0; E6:-2; D3:+64; C4:-64;".to_owned()
            )]
        );
        assert_eq!(
            scored(&r),
            [
                ("f5".into(), Some(0)),
                ("e6".into(), Some(-2)),
                ("d3".into(), Some(64)),
                ("c4".into(), Some(-64))
            ]
        );
        assert_eq!(
            r.origin.text.as_deref(),
            Some(&*format!("{START} X; F5:+0; E6:-2; D3:+64; C4:-64;"))
        );
    }

    #[test]
    fn other_alphabets_and_white_to_move() {
        let plain = parse(&format!("{START} O; e6:+1"));
        assert_eq!(plain.start.side_to_move(), Color::White);
        assert_eq!(plain.start.board(), Position::start().board());
        for (board, side) in [
            (
                START.replace('-', ".").replace('X', "*").replace('O', "o"),
                "o",
            ),
            (START.replace('X', "b").replace('O', "w"), "w"),
            (START.replace('X', "x").replace('O', "0"), "0"),
            (START.replace('X', "B").replace('O', "W"), "W"),
        ] {
            let r = parse(&format!("{board} {side};"));
            assert_eq!((r.start, r.defect.clone()), (plain.start, None), "{board}");
        }
        let spaced: String = START
            .as_bytes()
            .chunks(8)
            .map(|row| std::str::from_utf8(row).unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        let r = parse(&format!("{spaced} X"));
        assert_eq!((r.start, r.defect), (Position::start(), None));
        assert!(r.tags.extra.is_empty());
    }

    #[test]
    fn passes_missing_scores_and_comments() {
        let r = parse(&format!("{START} X;PS:-12; pass; G8 ;  % best first"));
        assert_eq!(
            scored(&r),
            [
                ("pass".into(), Some(-12)),
                ("pass".into(), None),
                ("g8".into(), None)
            ]
        );
        assert_eq!(r.tags.extra[0].1, "PS:-12; pass; G8 ;");
        // Every pass word of the move grammar.
        let r = parse(&format!("{START} X; @@:-4; ---; PA:+2"));
        assert_eq!(
            scored(&r),
            [
                ("pass".into(), Some(-4)),
                ("pass".into(), None),
                ("pass".into(), Some(2))
            ]
        );
        assert!(parse_line(b"% comment", ctx()).is_none());
        assert!(parse_line(b"   ", ctx()).is_none());
        assert!(parse_line(b"\r\n", ctx()).is_none());
        assert!(parse_line(b"# also a comment", ctx()).is_none());
    }

    #[test]
    fn malformed_lines_are_defects_with_columns() {
        let cases = [
            ("XO--".to_owned(), (5, "board has 4 squares, expected 64")),
            (
                format!("{START} Q;"),
                (66, "expected the side to move (X or O) after the board"),
            ),
            (
                format!("{START} Xabc"),
                (67, "expected `;` after the side to move"),
            ),
            (
                format!("{START} X; F5:+0; G9:+1;"),
                (76, "expected a move such as G8:+18, found \"G9\""),
            ),
            (
                format!("{START} X; F5:+x;"),
                (69, "unreadable score \"+x\" of move F5"),
            ),
            (
                format!("{START} X; F5:+66;"),
                (69, "unreadable score \"+66\" of move F5"),
            ),
            (
                format!("{}#{} X;", &START[..10], &START[11..]),
                (11, "unreadable square \"#\" at c2"),
            ),
        ];
        for (line, expected) in cases {
            let r = parse(&line);
            assert_eq!(defect(&r), expected, "{line}");
        }
    }

    #[test]
    fn fixture_positions() {
        let records = read(FIXTURE);
        let summary: Vec<_> = records
            .iter()
            .map(|r| {
                let b = r.start.board();
                (
                    r.origin.index,
                    r.origin.line,
                    r.start.side_to_move(),
                    b.black().count(),
                    b.white().count(),
                    scored_moves(r).len(),
                    r.defect.is_none(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (1, Some(2), Color::Black, 2, 2, 4, true),
                (2, Some(3), Color::Black, 15, 9, 0, true),
                (3, Some(4), Color::Black, 23, 37, 1, true),
                (4, Some(6), Color::Black, 11, 23, 11, true),
            ]
        );
        assert_eq!(records[1].origin.byte, 156);
        // The pass position: Black has no move, White has three.
        assert!(records[2].start.legal_moves().is_empty());
        let white_to_move = Position::new(*records[2].start.board(), Color::White);
        assert_eq!(white_to_move.legal_moves().count(), 3);
        assert_eq!(scored(&records[2]), [("pass".into(), Some(-28))]);
        // Every listed move of the last line is legal and all are listed.
        let listed: Bitboard = scored_moves(&records[3])
            .iter()
            .filter_map(|s| match s.mv {
                Move::Play(sq) => Some(sq),
                Move::Pass => None,
            })
            .collect();
        assert_eq!(listed, records[3].start.legal_moves());
        assert!(!records[3].tags.extra[0].1.contains('%'));
        let chunked: Vec<_> = Reader::new(std::io::BufReader::with_capacity(3, FIXTURE.as_bytes()))
            .map(Result::unwrap)
            .collect();
        assert_eq!(chunked, records);
    }

    #[test]
    fn overlong_lines_are_cut_with_a_defect() {
        let long = format!("{START} X;{}\n", " F5:+0;".repeat(10_000));
        let text = format!("{long}{START} O;\n");
        let records = read(&text);
        assert_eq!(records.len(), 2);
        let d = records[0].defect.as_ref().unwrap();
        assert_eq!((d.span.byte, d.span.column), (65_536, 65_537));
        assert_eq!(d.message, "line longer than 64 KiB");
        assert_eq!(records[0].start, Position::start());
        assert_eq!(
            (records[1].origin.line, records[1].origin.byte),
            (Some(2), long.len() as u64)
        );
        assert_eq!(records[1].start.side_to_move(), Color::White);
        assert_eq!(records[1].defect, None);
    }

    #[test]
    fn sniffs_obf_lines() {
        assert!(sniff(format!("% fforum\n{START} X; F5:+0;\n").as_bytes()));
        assert!(sniff(format!("{START} O;d3:-2").as_bytes()));
        assert!(!sniff(format!("{START} X; f5d6").as_bytes()));
        assert!(!sniff(format!("{START} X;").as_bytes()));
        assert!(!sniff(b"(;GM[Othello]"));
        assert!(!sniff(b"f5d6c3"));
        assert!(!sniff(b""));
    }

    #[test]
    fn corpus_positions_match_their_lines_and_list_every_legal_move() {
        let Some(dir) = corpus() else { return };
        let files = [
            ("fforum-1-19.obf", 19),
            ("fforum-20-39.obf", 20),
            ("fforum-40-59.obf", 20),
            ("fforum-60-79.obf", 20),
        ];
        let mut total = 0;
        let mut listed_total = 0;
        for (name, count) in files {
            let path = dir.join("positions/obf").join(name);
            let text = std::fs::read_to_string(&path).expect("corpus file");
            let file = std::fs::File::open(&path).expect("corpus file");
            let records: Vec<_> = Reader::new(std::io::BufReader::new(file))
                .map(Result::unwrap)
                .collect();
            assert_eq!(records.len(), count, "{name}");
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            assert_eq!(lines.len(), count);
            for (r, line) in records.iter().zip(lines) {
                total += 1;
                assert_eq!(r.defect, None, "{name}: {line}");
                // What the line says, read independently of the parser.
                let board = &line.as_bytes()[..64];
                let xs = board.iter().filter(|&&c| c == b'X').count() as u32;
                let os = board.iter().filter(|&&c| c == b'O').count() as u32;
                let side = match line.as_bytes()[65] {
                    b'X' => Color::Black,
                    b'O' => Color::White,
                    c => panic!("side {c}"),
                };
                let b = r.start.board();
                assert_eq!((b.black().count(), b.white().count()), (xs, os), "{line}");
                assert_eq!(r.start.side_to_move(), side, "{line}");
                for (i, &c) in board.iter().enumerate() {
                    let square = Square::new(i as u8).unwrap();
                    let expected = match c {
                        b'X' => Some(Color::Black),
                        b'O' => Some(Color::White),
                        _ => None,
                    };
                    assert_eq!(b.get(square), expected, "{line} {square}");
                }
                let listed = scored_moves(r);
                assert_eq!(listed.len(), line.matches(':').count());
                listed_total += listed.len();
                let squares: Bitboard = listed
                    .iter()
                    .map(|s| match s.mv {
                        Move::Play(sq) => sq,
                        Move::Pass => panic!("no pass in fforum"),
                    })
                    .collect();
                // Every listed move is legal and every legal move is listed.
                assert_eq!(squares, r.start.legal_moves(), "{line}");
                assert_eq!(squares.count() as usize, listed.len(), "{line}");
                let scores: Vec<i32> = listed.iter().map(|s| s.score.unwrap()).collect();
                assert!(
                    scores.windows(2).all(|w| w[0] >= w[1]),
                    "best first: {line}"
                );
                assert!(scores.iter().all(|s| s % 2 == 0), "even scores: {line}");
            }
        }
        assert_eq!((total, listed_total), (79, 757));
    }
}
