//! Tests of the GGF reader, and the helpers the writer's tests share.

use crate::engine::game::{Move, Status, Winner};
use crate::formats::ggf::syntax::MAX_TEXT;
use crate::formats::ggf::tags::{note_number, plain_decimal};
use crate::formats::ggf::{sniff, write_record, GameType, Reader, MAX_GAME_BYTES};
use crate::record::date::iso_date;
use crate::record::source::Span;
use crate::record::{MoveNote, OtherBoard, RecordedResult, ResultKind, ResultValue, Rules, Token};
use crate::testkit::Rng;
use crate::{Color, GameRecord};

pub(super) const STD_BO: &str =
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";
pub(super) const VARIANTS: &str = include_str!("../../../fixtures/ggf/variants.ggf");
const BROKEN: &str = include_str!("../../../fixtures/ggf/broken.ggf");

pub(super) fn read(text: &str) -> Vec<GameRecord> {
    Reader::new(text.as_bytes())
        .map(|g| g.expect("no i/o error"))
        .collect()
}

pub(super) fn one(text: &str) -> GameRecord {
    let mut games = read(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

pub(super) fn moves(record: &GameRecord) -> String {
    (0..record.moves.len())
        .map(|i| record.token_text(i))
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) use crate::testkit::colors;

pub(super) fn written(record: &GameRecord) -> String {
    let mut out = String::new();
    write_record(record, &mut out);
    out
}

pub(super) fn defect(record: &GameRecord) -> (u32, u32, &str) {
    let d = record.defect.as_ref().expect("a defect");
    (d.span.line, d.span.column, d.message.as_str())
}

pub(super) fn extra(record: &GameRecord) -> Vec<(&str, &str)> {
    record
        .tags
        .extra
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

/// Whether two dates are the same: as written, or read to the same ISO
/// date (the writer gives a date GGF's form).
pub(super) fn same_date(a: Option<&str>, b: Option<&str>) -> bool {
    a == b
        || a.zip(b)
            .is_some_and(|(a, b)| iso_date(a).is_some() && iso_date(a) == iso_date(b))
}

/// Parse -> write -> parse keeps everything but positions.
pub(super) fn assert_round_trip(record: &GameRecord) {
    let text = written(record);
    assert!(
        text.ends_with(";)\n") && text.matches('\n').count() == 1,
        "{text}"
    );
    let back = one(&text);
    assert_eq!(back.moves, record.moves, "{text}");
    assert_eq!(back.unreadable, record.unreadable, "{text}");
    assert_eq!(back.notes, record.notes, "{text}");
    let mut tags = back.tags.clone();
    assert!(
        same_date(tags.date.as_deref(), record.tags.date.as_deref()),
        "{text}"
    );
    tags.date.clone_from(&record.tags.date);
    assert_eq!(tags, record.tags, "{text}");
    assert_eq!(back.result, record.result, "{text}");
    assert_eq!(back.start, record.start, "{text}");
    assert_eq!(back.rules, record.rules, "{text}");
    assert_eq!(back.other_board, record.other_board, "{text}");
    assert_eq!(back.defect, None, "{text}");
    assert_eq!(written(&back), text);
}

/// The source text under every move span is the move as written.
pub(super) fn assert_spans_match_source(record: &GameRecord) {
    for i in 0..record.moves.len() {
        let span = record.span(i).expect("a span for each move");
        let line = record
            .origin
            .line_text(span.line)
            .expect("the line is kept");
        let start = span.column as usize - 1;
        let found = &line[start..start + span.len as usize];
        let expected = match record.moves[i].token {
            Token::Move(Move::Pass) => {
                assert!(["pa", "pass"].contains(&found.to_ascii_lowercase().as_str()));
                continue;
            }
            _ => record.token_text(i),
        };
        assert!(
            found.eq_ignore_ascii_case(&expected),
            "{found} vs {expected}"
        );
    }
}

pub(super) fn corpus_games(dir: &std::path::Path, name: &str) -> Vec<GameRecord> {
    let file = std::fs::File::open(dir.join(name)).expect("corpus file");
    Reader::new(std::io::BufReader::new(file))
        .map(|g| g.expect("no i/o error"))
        .collect()
}

#[test]
fn tags_moves_and_notes_of_a_ggs_game() {
    let g = one(&format!(
        "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]\
         RB[2196.37]RW[2200]TI[05:00//02:00]TY[8]RE[+6.000]{STD_BO}\
         B[d3//0.01]W[C5/-2.39/1.5]B[f6/3];)"
    ));
    assert_eq!(g.tags.site.as_deref(), Some("GGS/os"));
    assert_eq!(g.tags.date.as_deref(), Some("2003.12.15_12:33:18.MST"));
    assert_eq!(g.tags.black.as_deref(), Some("Saio1200"));
    assert_eq!(g.tags.white.as_deref(), Some("Saio3000"));
    assert_eq!(g.tags.black_rating.as_deref(), Some("2196.37"));
    assert_eq!(g.tags.white_rating.as_deref(), Some("2200"));
    assert_eq!(g.tags.event, None);
    assert_eq!(extra(&g), [("TI", "05:00//02:00"), ("TY", "8")]);
    assert_eq!(
        g.result,
        Some(RecordedResult::new(ResultValue::Margin(6.0)))
    );
    assert_eq!(moves(&g), "d3 c5 f6");
    assert_eq!(colors(&g), "BWB");
    let note = |eval, time| MoveNote { eval, time };
    assert_eq!(
        g.notes,
        [
            note(None, Some(0.01)),
            note(Some(-2.39), Some(1.5)),
            note(Some(3.0), None)
        ]
    );
    assert!(g.has_standard_start());
    assert_eq!(g.rules, Rules::Standard);
    assert_eq!(g.defect, None);
    assert_eq!(
        (g.origin.index, g.origin.line, g.origin.byte),
        (1, Some(1), 2)
    );
    assert_eq!(
        g.span(1).unwrap(),
        Span {
            byte: 218,
            line: 1,
            column: 219,
            len: 2
        }
    );
    assert_spans_match_source(&g);
}

#[test]
fn plain_decimals_read_as_the_general_parser_does() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..100_000 {
        let digits = 1 + rng.below(15);
        let mut text: String = (0..digits)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect();
        if rng.below(4) > 0 {
            text.insert(rng.below(digits + 1), '.');
        }
        if rng.below(2) > 0 {
            text.insert(0, '-');
        }
        let fast = plain_decimal(text.as_bytes());
        let general = text.parse::<f64>().ok();
        if text.trim_start_matches('-') == "." {
            assert_eq!(fast, None);
            continue;
        }
        assert_eq!(fast.map(f64::to_bits), general.map(f64::to_bits), "{text}");
    }
    for text in ["1e5", "1.2.3", "", "-", "+.5", "1234567890123456", "0x1"] {
        let expected = (text == "+.5").then_some(0.5);
        assert_eq!(plain_decimal(text.as_bytes()), expected, "{text}");
    }
    assert_eq!(note_number(b" 1e-3 "), Ok(Some(0.001)));
    assert_eq!(note_number(b"inf"), Err(()));
}

#[test]
fn notes_are_empty_when_no_move_has_one() {
    let g = one(&format!("(;GM[Othello]{STD_BO}B[f5]W[d6//]B[c3];)"));
    assert_eq!(moves(&g), "f5 d6 c3");
    assert!(g.notes.is_empty());
}

#[test]
fn archive_count_and_synchro_pair_on_one_line() {
    let line = "2 (;GM[Othello]PB[a]TY[s8]B[f5];)(;GM[Othello]PB[b]TY[s8]B[d3];)\n\
                1 (;GM[Othello]PB[c]B[c4];)\n";
    let games = read(line);
    assert_eq!(games.len(), 3);
    let names: Vec<_> = games.iter().map(|g| g.tags.black.as_deref()).collect();
    assert_eq!(names, [Some("a"), Some("b"), Some("c")]);
    let origins: Vec<_> = games
        .iter()
        .map(|g| (g.origin.index, g.origin.line, g.origin.byte))
        .collect();
    assert_eq!(
        origins,
        [(1, Some(1), 2), (2, Some(1), 33), (3, Some(2), 67)]
    );
    // The text starts at the line start so that columns point into it.
    assert_eq!(
        games[1].origin.text.as_deref(),
        Some(line.lines().next().unwrap())
    );
    assert_eq!(games[1].span(0).unwrap().column, 60);
    assert_spans_match_source(&games[1]);
}

#[test]
fn several_games_per_line_without_count_and_one_game_over_lines() {
    let games =
        read("(;GM[Othello]B[f5];) (;GM[Othello]B[e6];)\n(;GM[Othello]\n  B[d3]\r\n  W[c5] ;)");
    assert_eq!(games.len(), 3);
    assert_eq!(moves(&games[2]), "d3 c5");
    assert_eq!(games[2].origin.line, Some(2));
    assert_eq!(
        games[2].origin.text.as_deref(),
        Some("(;GM[Othello]\n  B[d3]\r\n  W[c5] ;)")
    );
    assert_eq!(
        (
            games[2].span(1).unwrap().line,
            games[2].span(1).unwrap().column
        ),
        (4, 5)
    );
    assert_spans_match_source(&games[2]);
}

#[test]
fn game_must_be_othello_in_any_case() {
    let g = one("(;GM[othello]B[f5];)");
    assert_eq!((moves(&g), g.defect), ("f5".into(), None));
    let g = one("(;GM[OTHELLO]B[f5];)");
    assert_eq!(g.defect, None);
    let g = one("(;GM[Amazons]B[f5];)");
    assert_eq!(defect(&g), (1, 6, "not an Othello game: GM[Amazons]"));
    assert_eq!(g.defect.unwrap().span.len, 7);
    assert!(g.moves.is_empty());
}

#[test]
fn game_type_grammar() {
    let ty = |s: &str| GameType::parse(s);
    assert_eq!(
        ty("8"),
        Some(GameType {
            size: 8,
            ..GameType::default()
        })
    );
    assert_eq!(
        ty("s8kr20ab"),
        Some(GameType {
            synchro: true,
            size: 8,
            komi: true,
            random: Some(Some(20)),
            anti: true,
            color: Some(Color::Black),
        })
    );
    assert_eq!(ty("8kr").map(|t| t.random), Some(Some(None)));
    assert_eq!(
        ty("10w").map(|t| (t.size, t.color)),
        Some((10, Some(Color::White)))
    );
    for bad in ["", "s", "x8", "8q", "8kk", "8bw", "8r99999999999"] {
        assert_eq!(ty(bad), None, "{bad}");
    }
    for text in ["8", "s8kr20ab", "8kr", "s10a", "8r8w"] {
        assert_eq!(ty(text).unwrap().to_string(), text);
    }
}

#[test]
fn anti_type_sets_the_rules_and_is_kept_verbatim() {
    let g = one(&format!("(;GM[Othello]TY[8a]{STD_BO}B[f5];)"));
    assert_eq!(g.rules, Rules::Anti);
    assert_eq!(extra(&g), [("TY", "8a")]);
    let g = one("(;GM[Othello]TY[s8kr12]B[f5];)");
    assert_eq!((g.rules, &g.defect), (Rules::Standard, &None));
    assert_eq!(extra(&g), [("TY", "s8kr12")]);
}

#[test]
fn other_board_sizes_keep_their_game_and_replay_as_unsupported() {
    let four = "4 ---- -O*- -*O- ---- *";
    let g = one(&format!(
        "(;GM[Othello]PB[x]TY[4]RE[-2.00]BO[{four}]B[A2//7.5]W[a1]B[pass]W[d4];)"
    ));
    assert_eq!(g.defect, None);
    let other = |size, start: &str| {
        Some(OtherBoard {
            size,
            start: start.into(),
        })
    };
    assert_eq!(g.other_board, other(4, four));
    assert_eq!(g.tags.black.as_deref(), Some("x"));
    assert_eq!(extra(&g), [("TY", "4")]);
    assert_eq!(
        g.result,
        Some(RecordedResult::new(ResultValue::Margin(-2.0)))
    );
    assert_eq!(
        (moves(&g).as_str(), colors(&g).as_str()),
        ("a2 a1 pass d4", "BWBW")
    );
    assert_eq!(g.notes[0].time, Some(7.5));
    assert_spans_match_source(&g);
    let report = g.replay();
    assert_eq!(report.status(), Status::Invalid);
    let error = report.error.unwrap();
    assert_eq!(error.reason(), "unsupported board size 4x4");
    assert_eq!(error.span(&g), Some(Span::new(0, 1, 1, 1)));

    // `BO` alone; squares past h8 are kept as written.
    let ten = "10 ---------- *";
    let g = one(&format!("(;GM[Othello]BO[{ten}]B[j10]W[a2];)"));
    assert_eq!(g.other_board, other(10, ten));
    assert_eq!(g.unreadable, [(0, "j10".into())]);
    assert_eq!(
        g.replay().error.unwrap().reason(),
        "unsupported board size 10x10"
    );
    // `TY` alone; `TY` with an 8×8 `BO`, which is then the start as written.
    let g = one("(;GM[Othello]TY[6a]B[a2];)");
    assert_eq!((g.other_board, g.rules), (other(6, ""), Rules::Anti));
    let g = one(&format!("(;GM[Othello]TY[4]{STD_BO};)"));
    assert_eq!(g.other_board, other(4, &STD_BO[3..STD_BO.len() - 1]));
    // `BO` names the board played on when `TY` says another size.
    let g = one(&format!("(;GM[Othello]TY[6]BO[{four}];)"));
    assert_eq!(g.other_board, other(4, four));

    // A size no record holds, an unreadable type: defects.
    let g = one("(;GM[Othello]TY[300]B[a2];)");
    assert_eq!(defect(&g), (1, 17, "unsupported board size 300x300"));
    assert!(g.moves.is_empty());
    let g = one("(;GM[Othello]BO[256 *]B[a2];)");
    assert_eq!(defect(&g), (1, 17, "unsupported board size 256x256"));
    let g = one("(;GM[Othello]TY[8x]B[a2];)");
    assert_eq!(defect(&g), (1, 17, "unreadable game type TY[8x]"));
    assert_eq!(
        g.replay().error.unwrap().reason(),
        "unreadable game type TY[8x]"
    );
}

#[test]
fn board_in_groups_or_one_string_with_either_side() {
    let grouped = one("(;GM[Othello]BO[8 -------- -------- --*----- ---**O-- ---OO--- ---O*--- -------- -------- O];)");
    let flat = one(
        "(;GM[Othello]BO[8 ------------------*--------**O-----OO------O*------------------- O];)",
    );
    assert_eq!(grouped.start, flat.start);
    assert_eq!(grouped.start.side_to_move(), Color::White);
    let board = grouped.start.board();
    assert_eq!((board.black().count(), board.white().count()), (4, 4));
    assert_eq!(board.get("c3".parse().unwrap()), Some(Color::Black));
    assert_eq!(board.get("f4".parse().unwrap()), Some(Color::White));
    let standard = one(&format!("(;GM[Othello]{STD_BO};)"));
    assert!(standard.has_standard_start());
}

#[test]
fn bad_boards_are_defects() {
    let cases = [
        ("BO[8 -------- *]", "board has 8 squares, expected 64"),
        (
            "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- --------]",
            "missing the side to move after the board",
        ),
        (
            "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- X]",
            "",
        ),
        (
            "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- +]",
            "expected the side to move (* or O), found `+`",
        ),
        (
            "BO[8 -------- -------- -------- ---O*--- ---*Q--- -------- -------- -------- *]",
            "unreadable board square `Q` at e5",
        ),
        ("BO[eight]", "unreadable board size eight"),
    ];
    for (tag, message) in cases {
        let g = one(&format!("(;GM[Othello]{tag}B[f5];)"));
        if message.is_empty() {
            assert_eq!(g.defect, None, "{tag}");
            continue;
        }
        assert_eq!(defect(&g), (1, 17, message), "{tag}");
        assert!(g.moves.is_empty());
    }
}

#[test]
fn moves_in_any_case_with_passes_and_unreadable_tokens() {
    let g = one(&format!(
        "(;GM[Othello]{STD_BO}B[F5]W[d6]B[pass]W[PA//3.107]B[Pass/1/2]W[pa]B[PASS]W[z9/1.5]B[];)"
    ));
    assert_eq!(moves(&g), "f5 d6 pass pass pass pass pass z9 ");
    assert_eq!(colors(&g), "BWBWBWBWB");
    assert_eq!(g.moves[7].token, Token::Unreadable);
    assert_eq!(g.moves[8].token, Token::Unreadable);
    assert_eq!(g.unreadable, [(7, "z9".into()), (8, "".into())]);
    // One note per token, passes included.
    let note = |eval, time| MoveNote { eval, time };
    let none = MoveNote::default();
    assert_eq!(
        g.notes,
        [
            none,
            none,
            none,
            note(None, Some(3.107)),
            note(Some(1.0), Some(2.0)),
            none,
            none,
            note(Some(1.5), None),
            none
        ]
    );
    assert_spans_match_source(&g);
    let report = g.replay();
    assert_eq!(report.error.unwrap().move_number(), Some(3));
}

#[test]
fn unreadable_notes_are_defects_at_the_number() {
    let g = one("(;GM[Othello]B[f5]W[d6/x/1]B[c3];)");
    assert_eq!(defect(&g), (1, 24, "unreadable evaluation x in move d6"));
    assert_eq!(moves(&g), "f5");
    let g = one("(;GM[Othello]B[f5]W[d6/1/1s];)");
    assert_eq!(defect(&g), (1, 26, "unreadable time 1s in move d6"));
    let g = one("(;GM[Othello]B[f5/1/2/3];)");
    assert_eq!(defect(&g), (1, 16, "move f5/1/2/3 has more than two `/`"));
}

#[test]
fn results_with_kinds_unknown_and_out_of_range() {
    let re = |v: &str| {
        let g = one(&format!("(;GM[Othello]RE[{v}];)"));
        (
            g.result,
            extra(&g)
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>(),
        )
    };
    let margin = |m, kind| {
        Some(RecordedResult {
            value: ResultValue::Margin(m),
            kind,
        })
    };
    assert_eq!(re("+6.000"), (margin(6.0, ResultKind::Score), vec![]));
    assert_eq!(re("-2.00"), (margin(-2.0, ResultKind::Score), vec![]));
    assert_eq!(re("-22.87"), (margin(-22.87, ResultKind::Score), vec![]));
    assert_eq!(
        re("+64.000:r"),
        (margin(64.0, ResultKind::Resigned), vec![])
    );
    assert_eq!(re("-10.000:t"), (margin(-10.0, ResultKind::Time), vec![]));
    assert_eq!(re("+0.000:s"), (margin(0.0, ResultKind::Mutual), vec![]));
    assert_eq!(re("?"), (None, vec![]));
    assert_eq!(re("-127.000"), (None, vec!["RE=-127.000".to_owned()]));
    assert_eq!(re("+70"), (None, vec!["RE=+70".to_owned()]));
    assert_eq!(re("won"), (None, vec!["RE=won".to_owned()]));
    assert_eq!(re("+2:x"), (None, vec!["RE=+2:x".to_owned()]));
    assert_eq!(re("nan"), (None, vec!["RE=nan".to_owned()]));
}

#[test]
fn komi_event_and_unknown_tags_in_source_order() {
    let g = one("(;GM[Othello]KB[B3/2.00/27.23]EV[cup]XY[1]KW[B3/-8.27]KM[-3.133]TB[1]TW[2];)");
    assert_eq!(g.tags.event.as_deref(), Some("cup"));
    assert_eq!(
        extra(&g),
        [
            ("KB", "B3/2.00/27.23"),
            ("XY", "1"),
            ("KW", "B3/-8.27"),
            ("KM", "-3.133"),
            ("TB", "1"),
            ("TW", "2")
        ]
    );
}

#[test]
fn backslash_escapes_the_next_character() {
    let g = one(r"(;GM[Othello]PB[a\]b]PW[c:\\x\y]PC[(\;];)");
    assert_eq!(g.tags.black.as_deref(), Some("a]b"));
    assert_eq!(g.tags.white.as_deref(), Some(r"c:\xy"));
    assert_eq!(g.tags.site.as_deref(), Some("(;"));
    assert_eq!(g.defect, None);
}

#[test]
fn latin1_values_are_decoded() {
    let mut bytes = b"(;GM[Othello]PB[Pr".to_vec();
    bytes.extend_from_slice(&[0xE9]);
    bytes.extend_from_slice(b"]B[f5];)");
    let games: Vec<_> = Reader::new(&bytes[..]).map(Result::unwrap).collect();
    assert_eq!(games[0].tags.black.as_deref(), Some("Pr\u{e9}"));
}

#[test]
fn broken_fixture_defects_and_resynchronisation() {
    let games = read(BROKEN);
    let summary: Vec<_> = games
        .iter()
        .map(|g| {
            let d = g.defect.as_ref();
            (
                g.origin.index,
                g.origin.line,
                moves(g),
                d.map(|d| (d.span.line, d.span.column, d.span.len, d.message.clone())),
            )
        })
        .collect();
    let d = |l, c, n, m: &str| Some((l, c, n, m.to_owned()));
    assert_eq!(
        summary,
        [
            (
                1,
                Some(1),
                "f5 d6".into(),
                d(1, 1, 2, "game not closed: missing `;)`")
            ),
            (
                2,
                Some(2),
                "f5".into(),
                d(2, 24, 2, "tag W not closed: missing `]`")
            ),
            (3, Some(3), "f5 d6 c3 d3".into(), None),
            (
                4,
                Some(4),
                String::new(),
                d(4, 1, 15, "text outside a game")
            ),
            (
                5,
                Some(5),
                String::new(),
                d(5, 6, 5, "not an Othello game: GM[Chess]")
            ),
            (6, Some(6), "a2".into(), None),
            (
                7,
                Some(7),
                String::new(),
                d(7, 24, 1, "unreadable evaluation x in move f5")
            ),
            (
                8,
                Some(8),
                "f5 d6".into(),
                d(8, 31, 1, "unexpected `]` between tags")
            ),
            (
                9,
                Some(8),
                "f5 d6 c3".into(),
                d(8, 39, 2, "game not closed: missing `;)`")
            ),
        ]
    );
    // Byte offsets agree with lines and columns.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(BROKEN.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    for g in games.iter().filter(|g| g.defect.is_some()) {
        let p = g.defect.as_ref().unwrap().span;
        let expected = line_starts[p.line as usize - 1] + p.column as usize - 1;
        assert_eq!(p.byte, expected as u64);
    }
    assert_eq!(games[8].origin.text.as_deref(), BROKEN.lines().nth(7));
    // The replay reports the defect after the moves before it.
    let report = games[0].replay();
    assert_eq!(
        report.error.unwrap().reason(),
        "game not closed: missing `;)`"
    );
    // A game on another board is read whole, invalid in its replay.
    assert_eq!(games[5].other_board.as_ref().map(|b| b.size), Some(4));
    assert_eq!(
        games[5].replay().error.unwrap().reason(),
        "unsupported board size 4x4"
    );
}

#[test]
fn a_line_of_a_missing_bracket_points_at_the_tag() {
    let g = &read("(;GM[Othello]B[f5]W[d6 B[c3];)\n(;GM[Othello]B[f5];)")[..];
    assert_eq!(g.len(), 2);
    assert_eq!(defect(&g[0]), (1, 19, "tag W not closed: missing `]`"));
    assert_eq!(moves(&g[0]), "f5");
    assert_eq!((moves(&g[1]), g[1].defect.clone()), ("f5".into(), None));
    let g = one("(;GM[Othello]B[f5];x)");
    assert_eq!(defect(&g), (1, 19, "`;` not followed by `)`"));
    let g = one("(;GM[Othello]B[f5](x;)");
    assert_eq!(defect(&g), (1, 19, "unexpected `(` between tags"));
    let g = one("(;GM[Othello]B[f5]PB x[y];)");
    assert_eq!(
        defect(&g),
        (1, 21, "expected `[` after tag PB, found a space")
    );
    let g = one("(;GM[Othello]B[f5]W[d6");
    assert_eq!(defect(&g), (1, 19, "tag W not closed: missing `]`"));
    let g = one(&format!("(;GM[Othello]{}[1];)", "A".repeat(40)));
    assert_eq!(defect(&g), (1, 46, "tag name longer than 32 characters"));
}

#[test]
fn stray_text_and_lone_parens() {
    let games = read("junk (;GM[Othello]B[f5];) )\n(");
    assert_eq!(games.len(), 4);
    assert_eq!(defect(&games[0]), (1, 1, "text outside a game"));
    assert_eq!(games[0].defect.as_ref().unwrap().span.len, 5);
    assert_eq!(
        (moves(&games[1]), games[1].defect.clone()),
        ("f5".into(), None)
    );
    assert_eq!(defect(&games[2]), (1, 27, "text outside a game"));
    assert_eq!(games[2].defect.as_ref().unwrap().span.len, 1);
    assert_eq!(defect(&games[3]), (2, 1, "text outside a game"));
    assert_eq!(games[3].origin.text.as_deref(), Some("("));
    let games = read("(x\n\u{feff}");
    assert_eq!(games.len(), 2);
    assert_eq!(defect(&games[0]), (1, 1, "text outside a game"));
    assert_eq!(defect(&games[1]), (2, 1, "text outside a game"));
    assert!(read("\u{feff}  12 \r\n\n").is_empty());
    let games = read("\u{feff}(;GM[Othello]B[f5];)");
    assert_eq!(games[0].origin.byte, 3);
}

#[test]
fn games_longer_than_the_cap_get_a_defect() {
    let big = "x".repeat(MAX_GAME_BYTES as usize + 10);
    let text = format!("(;GM[Othello]B[f5]PB[{big}]W[d6];)(;GM[Othello]B[e6];)");
    let games = read(&text);
    assert_eq!(games.len(), 2);
    let d = games[0].defect.as_ref().unwrap();
    assert_eq!(d.message, "game longer than 1 MiB");
    assert_eq!(d.span.byte, MAX_GAME_BYTES);
    assert_eq!(moves(&games[0]), "f5");
    assert_eq!(games[0].tags.black, None);
    assert!(games[0].origin.text.as_ref().unwrap().len() <= MAX_TEXT);
    assert_eq!(
        (moves(&games[1]), games[1].defect.clone()),
        ("e6".into(), None)
    );
}

#[test]
fn tiny_buffers_read_the_same_games() {
    for text in [VARIANTS, BROKEN] {
        let whole = read(text);
        for cap in [1, 2, 3, 7] {
            let reader = std::io::BufReader::with_capacity(cap, text.as_bytes());
            let chunked: Vec<_> = Reader::new(reader).map(Result::unwrap).collect();
            assert_eq!(chunked, whole, "capacity {cap}");
        }
    }
}

#[test]
fn variants_fixture_reads_as_written() {
    let games = read(VARIANTS);
    assert_eq!(games.len(), 7);
    let summary: Vec<_> = games
        .iter()
        .map(|g| {
            let r = g.replay();
            let s = r.finish.score;
            (
                g.origin.line.unwrap(),
                g.moves.len(),
                r.status(),
                (s.black_discs, s.white_discs),
                g.result.map(|r| r.agrees_with(&s)),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, 60, Status::Complete, (12, 52), Some(true)),
            (1, 60, Status::Complete, (27, 37), Some(true)),
            (2, 62, Status::Complete, (26, 38), Some(true)),
            (6, 60, Status::Complete, (18, 45), Some(true)),
            (8, 6, Status::Incomplete, (4, 6), None),
            (9, 56, Status::Complete, (12, 52), Some(true)),
            (10, 61, Status::Complete, (40, 24), None),
        ]
    );
    assert_eq!(games[1].result.unwrap().kind, ResultKind::Time);
    assert_eq!(games[2].result.unwrap().kind, ResultKind::Mutual);
    assert_eq!(games[2].notes.len(), 62);
    assert_eq!(games[2].moves[58].token, Token::Move(Move::Pass));
    assert_eq!(
        games[3].notes[56],
        MoveNote {
            eval: Some(-3.5),
            time: Some(0.38)
        }
    );
    assert_eq!(
        extra(&games[3]),
        [("TY", "8"), ("XX", "custom value"), ("ZZ", "after moves")]
    );
    assert_eq!(extra(&games[4]), [("RE", "-127.000")]);
    assert!(!games[5].has_standard_start());
    assert_eq!(games[6].rules, Rules::Anti);
    assert_eq!(games[6].tags.event.as_deref(), Some("kifu test cup"));
    assert_eq!(games[6].tags.black.as_deref(), Some("ivan]s"));
    // Anti: White has fewer discs... no, Black has 40: White wins.
    assert_eq!(games[6].replay().finish.score.winner, Winner::White);
    for g in &games {
        assert_spans_match_source(g);
        assert_round_trip(g);
    }
}

#[test]
fn sniffs_ggf_but_not_sgf() {
    assert!(sniff(b"1 (;GM[Othello]PC[GGS/os]"));
    assert!(sniff(b"(;GM[othello]PC[Edax]"));
    assert!(sniff(b"\xEF\xBB\xBF\r\n  2 (;GM[Othello]"));
    assert!(sniff(b"(;\nGM[Othello]"));
    assert!(!sniff(b"(;FF[4]GM[2]SZ[8]"));
    assert!(!sniff(b"f5d6c3d3c4"));
    assert!(!sniff(b"GM[Othello]"));
    assert!(!sniff(b""));
}
#[test]
fn random_bytes_keep_positions_and_write_back() {
    // Pieces of GGF syntax, not texts: the kit's random games and texts
    // never make the broken games this test is about.
    const PIECES: [&str; 24] = [
        "(;",
        ";)",
        "GM[Othello]",
        "B[",
        "W[",
        "]",
        "f5",
        "d6",
        "/",
        "//0.01",
        "\\",
        "(",
        "[",
        "\n",
        "PA",
        "pass",
        " ",
        "1 ",
        "RE[+2.000]",
        "TY[8a]",
        "é",
        "\r\n",
        ";",
        "PB[x",
    ];
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let (mut with_moves, mut with_defects, mut rewritten) = (0, 0, 0);
    for _ in 0..2000 {
        // A few plausible games, then a few mutations.
        let mut input: Vec<u8> = Vec::new();
        for _ in 0..1 + rng.below(3) {
            input.extend_from_slice(b"(;GM[Othello]");
            for _ in 0..rng.below(12) {
                let piece = match rng.below(4) {
                    0 => "W[d6//0.5]",
                    1 => "B[f5]",
                    2 => "PB[é]",
                    _ => PIECES[rng.below(PIECES.len())],
                };
                input.extend_from_slice(piece.as_bytes());
            }
            input.extend_from_slice(if rng.below(5) > 0 { b";)\n" } else { b"\n" });
        }
        for _ in 0..rng.below(4) {
            let at = rng.below(input.len() + 1);
            if rng.below(3) == 0 && at < input.len() {
                input.remove(at);
            } else if rng.below(2) == 0 {
                input.insert(at, rng.next() as u8);
            } else {
                let piece = PIECES[rng.below(PIECES.len())].as_bytes();
                input.splice(at..at, piece.iter().copied());
            }
        }
        let games: Vec<_> = Reader::new(&input[..]).map(Result::unwrap).collect();
        let chunked: Vec<_> = Reader::new(std::io::BufReader::with_capacity(
            1 + rng.below(5),
            &input[..],
        ))
        .map(Result::unwrap)
        .collect();
        assert_eq!(chunked, games);
        let mut last_byte = None;
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.origin.index, i as u64 + 1);
            assert!(last_byte < Some(g.origin.byte));
            last_byte = Some(g.origin.byte);
            if let Some(d) = &g.defect {
                assert!(d.span.byte <= input.len() as u64);
            }
            for (k, m) in g.moves.iter().enumerate() {
                let span = g.span(k).expect("a span for each move");
                let at = &input[span.byte as usize..(span.byte + u64::from(span.len)) as usize];
                // The token as written, escapes and all.
                let at: Vec<u8> = at.iter().copied().filter(|&b| b != b'\\').collect();
                if let Token::Move(Move::Play(sq)) = m.token {
                    assert!(
                        at.eq_ignore_ascii_case(&sq.to_ascii()),
                        "{:?} {span:?}",
                        String::from_utf8_lossy(&input)
                    );
                }
            }
            with_moves += usize::from(!g.moves.is_empty());
            with_defects += usize::from(g.defect.is_some());
            // A defect may come from a kept tag (an unreadable `TY`),
            // which the writer gives back as it was.
            if g.defect.is_some() || g.unreadable.iter().any(|(_, t)| t.contains('/')) {
                continue;
            }
            rewritten += 1;
            let back = one(&written(g));
            assert_eq!(back.defect, None, "{}", written(g));
            assert_eq!(
                back.moves.iter().map(|m| m.token).collect::<Vec<_>>(),
                g.moves.iter().map(|m| m.token).collect::<Vec<_>>()
            );
            assert_eq!(back.unreadable, g.unreadable);
        }
    }
    // The seed exercises games with moves, with defects and clean ones.
    assert_eq!((with_moves, with_defects, rewritten), (2129, 3335, 1190));
}

/// The games of `text` read one byte at a time: every tag by the
/// byte-by-byte path, none in a run.
fn read_bytewise(text: &[u8]) -> Vec<GameRecord> {
    let reader = std::io::BufReader::with_capacity(1, text);
    Reader::new(reader).map(Result::unwrap).collect()
}

#[test]
fn tag_runs_read_as_the_byte_by_byte_path() {
    const PIECES: [&[u8]; 30] = [
        b"(;",
        b";)",
        b"GM[Othello]",
        b"GM[ othello\t]",
        b"GM[\xa0Othello]",
        b"GM[Go]",
        b"B[f5]",
        b"W[F5]",
        b"B[PA]",
        b"W[pa]",
        b"B[i9]",
        b"W[d6/1.5/2]",
        b"B[ c4]",
        b"B[\\f5]",
        b"W[",
        b"]",
        b" ",
        b"\t",
        b"\n",
        b"\r\n",
        b"RE[+4.000]",
        b"RE[-3.]",
        b"RE[+70]",
        b"RE[?]",
        b"BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]",
        b"BO[8 ---------------------------O*------*O--------------------------- *]",
        b"TY[10]",
        b"PB[\xe9l\xe8ve]",
        b"PW[\xc3\xa9]",
        b"x",
    ];
    let mut rng = Rng::new(15);
    for _ in 0..300 {
        let mut text = Vec::new();
        for _ in 0..rng.below(40) {
            text.extend_from_slice(PIECES[rng.below(PIECES.len())]);
        }
        let whole: Vec<GameRecord> = Reader::new(&text[..]).map(Result::unwrap).collect();
        assert_eq!(whole, read_bytewise(&text), "{text:?}");
    }
}

#[test]
fn the_size_cap_falls_in_a_run_of_moves_as_byte_by_byte() {
    // The cap falls at each byte of a `B[f5]` in turn.
    for shift in 0..6 {
        let pad = "x".repeat(MAX_GAME_BYTES as usize - 40 - shift);
        let text = format!(
            "(;GM[Othello]PB[{pad}]{};)(;B[e6];)",
            "B[f5]W[d6]".repeat(8)
        );
        let whole = read(&text);
        assert_eq!(whole, read_bytewise(text.as_bytes()), "shift {shift}");
        assert_eq!(
            whole[0].defect.as_ref().unwrap().message,
            "game longer than 1 MiB"
        );
        assert_eq!(moves(&whole[1]), "e6");
    }
}

#[test]
fn the_usual_board_reads_as_any_other_board_text() {
    // `BO` as GGS writes it takes a shortcut; spaced otherwise, the
    // general reader reads it.
    let usual = one(&format!("(;GM[Othello]{STD_BO}TY[10]B[f5];)"));
    let spaced = STD_BO.replace("8 -", "8  -");
    let general = one(&format!("(;GM[Othello]{spaced}TY[10]B[f5];)"));
    assert_eq!(usual.start, general.start);
    assert_eq!(usual.start, crate::Position::start());
    let start = |r: &GameRecord| r.other_board.as_ref().map(|b| b.start.clone());
    assert_eq!(start(&usual).as_deref(), STD_BO.get(3..STD_BO.len() - 1));
    assert_eq!(start(&general).as_deref(), spaced.get(3..spaced.len() - 1));
}
