//! The move grammar's tests: every form of a line of moves, as read.

use crate::engine::game::{Move, Status, Winner};
use crate::formats::movetext::{
    board, is_pass, parse_line, BoardError, LineContext, BOOK_VALUE_TAG,
};
use crate::record::source::MoveSpans;
use crate::record::{Annotation, AnnotationKind, Quirk, ResultValue, Token};
use crate::testkit::{random_moves, transcript as parse, Play, Rng};
use crate::{Color, GameRecord, Position};

fn ctx() -> LineContext {
    LineContext {
        line: 1,
        byte: 0,
        index: 1,
    }
}

fn moves(record: &GameRecord) -> String {
    record
        .moves
        .iter()
        .enumerate()
        .map(|(i, _)| record.token_text(i))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn concatenated_lowercase() {
    let r = parse("f5d6c3d3c4");
    assert_eq!(moves(&r), "f5 d6 c3 d3 c4");
    assert!(r.moves.iter().all(|m| m.color.is_none()));
    assert_eq!(r.span(2).unwrap().column, 5);
}

#[test]
fn trailing_blanks_do_not_shift_the_spans() {
    for text in ["f5d6c3  ", "f5d6c3\t", "f5 d6 c3 \x0c", "  f5d6c3 "] {
        let r = parse(text);
        let first = text.find('f').unwrap() as u32 + 1;
        assert_eq!(r.span(0).unwrap().column, first, "{text:?}");
        let third = text.find("c3").unwrap() as u64;
        assert_eq!(r.span(2).unwrap().byte, third, "{text:?}");
        assert!(r.unreadable.is_empty(), "{text:?}");
    }
}

#[test]
fn concatenated_uppercase_has_no_colours() {
    let r = parse("F5D6C3D3C4");
    assert_eq!(moves(&r), "f5 d6 c3 d3 c4");
    assert!(r.moves.iter().all(|m| m.color.is_none()));
}

#[test]
fn separators_space_dash_comma() {
    for text in [
        "f5 d6 c3",
        "F5-D6-C3",
        "f5,d6,c3",
        "f5, d6;c3",
        " f5\td6  c3 ",
    ] {
        assert_eq!(moves(&parse(text)), "f5 d6 c3", "{text}");
    }
}

#[test]
fn move_numbers_and_dash_pass_and_trailing_discs() {
    let r = parse("1. c4 c5 2. d6 c7 29. b1 -- 30. g1 h1 31. f2 51-13");
    assert_eq!(moves(&r), "c4 c5 d6 c7 b1 pass g1 h1 f2");
    assert_eq!(
        r.result.unwrap().value,
        ResultValue::Discs {
            black: 51,
            white: 13
        }
    );
    let r = parse("1... f5 2... d6");
    assert_eq!(moves(&r), "f5 d6");
}

#[test]
fn bare_numbers_that_count_the_moves_are_move_numbers() {
    for text in [
        "1 f5 2 d6 3 c3",
        "1 f5 d6 2 c3",
        "1 f5\t2 d6  3 c3",
        "1 f5 2 pass",
    ] {
        let r = parse(text);
        assert!(r.unreadable.is_empty(), "{text}");
        assert!(r.tags.extra.is_empty(), "{text}");
        assert_eq!(r.defect, None, "{text}");
    }
    assert_eq!(moves(&parse("1 f5 2 d6 3 c3")), "f5 d6 c3");
    assert_eq!(moves(&parse("1 f5 d6 2 c3 d3")), "f5 d6 c3 d3");
    assert_eq!(parse("1 f5 2 d6 3 c3").replay().error, None);
    // Any other bare number is no move number: an unreadable token.
    for (text, read) in [
        ("f5 7 d6", "f5 7 d6"),
        ("f5 d6 3", "f5 d6 3"),
        ("2 f5", "2 f5"),
        ("1 f5 1 d6", "f5 1 d6"),
        ("f5 d6 99999999999", "f5 d6 99999999999"),
    ] {
        let r = parse(text);
        assert_eq!(moves(&r), read, "{text}");
        assert_eq!(r.unreadable.len(), 1, "{text}");
    }
    // Digits glued to other text are unreadable, a byte over 127 included.
    for (text, read) in [("f5 1\u{e9}", "f5 1 \u{e9}"), ("f5 12f4", "f5 12 f4")] {
        let r = parse(text);
        assert_eq!(moves(&r), read, "{text}");
        assert_eq!(r.moves[1].token, Token::Unreadable, "{text}");
    }
    // Dotted numbers are move numbers wherever they stand.
    assert_eq!(moves(&parse("7. f5 d6")), "f5 d6");
}

#[test]
fn inline_comments_are_kept_after_the_moves_before_them() {
    let comment = |after, text: &str| Annotation {
        after,
        kind: AnnotationKind::Comment(text.to_owned()),
    };
    for (text, read, kept) in [
        ("f5d6 # a comment", "f5 d6", vec![comment(2, "a comment")]),
        ("f5 d6 % note", "f5 d6", vec![comment(2, "note")]),
        ("f5d6#glued", "f5 d6", vec![comment(2, "glued")]),
        (
            "1. f5 # after f5 # d6",
            "f5",
            vec![comment(1, "after f5 # d6")],
        ),
        ("f5 d6 #", "f5 d6", vec![]),
        // After a wide gap it is a comment, not a name.
        ("C4c3     # Diagonal", "c4 c3", vec![comment(2, "Diagonal")]),
    ] {
        let r = parse(text);
        assert_eq!(moves(&r), read, "{text}");
        assert_eq!(r.annotations, kept, "{text}");
        assert!(r.tags.extra.is_empty(), "{text}");
        assert_eq!(r.defect, None, "{text}");
    }
    // A comment may follow the result.
    let r = parse("f5 d6 33-31 # final");
    assert_eq!(r.defect, None);
    assert_eq!(
        r.result.unwrap().value,
        ResultValue::Discs {
            black: 33,
            white: 31
        }
    );
    assert_eq!(r.annotations, [comment(2, "final")]);
    // A board prefix, then moves and a comment.
    let board = "---------------------------OX------XO---------------------------";
    let r = parse(&format!("{board} O; e6 # White first"));
    assert_eq!(
        (r.start.side_to_move(), moves(&r)),
        (Color::White, "e6".into())
    );
    assert_eq!(r.annotations, [comment(1, "White first")]);
}

#[test]
fn every_pass_spelling() {
    for text in ["pass", "PA", "pa", "PS", "ps", "--", "@@", "@@@@", "PASS"] {
        let r = parse(&format!("f5 {text} d6"));
        assert_eq!(moves(&r), "f5 pass d6", "{text}");
    }
    let r = parse("H1D3PAB3");
    assert_eq!(moves(&r), "h1 d3 pass b3");
}

#[test]
fn results_winner_notation() {
    let winner = |t: &str| parse(t).result.map(|r| r.value);
    assert_eq!(winner("f5 1-0"), Some(ResultValue::Winner(Winner::Black)));
    assert_eq!(winner("f5 0-1"), Some(ResultValue::Winner(Winner::White)));
    assert_eq!(
        winner("f5 1/2-1/2"),
        Some(ResultValue::Winner(Winner::Draw))
    );
    assert_eq!(winner("f5 *"), None);
    assert!(parse("f5 *").defect.is_none());
}

#[test]
fn text_after_the_result_is_a_defect() {
    let r = parse("f5 d6 33-31 c3");
    let d = r.defect.unwrap();
    assert_eq!(d.message, "text after the result");
    assert_eq!(d.span.column, 13);
}

#[test]
fn case_encodes_colour_when_mixed() {
    let r = parse("C4c3D3c5B2");
    let colours: Vec<_> = r.moves.iter().map(|m| m.color).collect();
    assert_eq!(
        colours,
        [
            Some(Color::Black),
            Some(Color::White),
            Some(Color::Black),
            Some(Color::White),
            Some(Color::Black)
        ]
    );
    let r = parse("F5 f4 2. F3 g4");
    assert_eq!(r.moves[1].color, Some(Color::White));
}

#[test]
fn mixed_case_that_is_no_colour_code_reads_case_blind() {
    for text in ["f5 d6 C3 d3", "f5d6C3d3", "1. f5 d6 2. C3 d3"] {
        let r = parse(text);
        assert_eq!(moves(&r), "f5 d6 c3 d3", "{text}");
        assert!(r.moves.iter().all(|m| m.color.is_none()), "{text}");
        assert!(r.quirks.contains(Quirk::CaseIgnored), "{text}");
        let report = r.replay();
        assert_eq!((report.status(), report.error), (Status::Incomplete, None));
    }
    // The fast path keeps its regular spans.
    let r = parse("f5d6C3d3");
    assert!(matches!(r.spans, MoveSpans::Every { stride: 2, .. }));
    assert_eq!(r.span(2).unwrap().column, 5);
}

#[test]
fn case_colours_that_hold_up_are_kept_without_a_quirk() {
    for text in ["C4c3D3c5B2", "F5 f4 2. F3 g4", "F5d6C3"] {
        let r = parse(text);
        assert!(r.moves.iter().all(|m| m.color.is_some()), "{text}");
        assert!(r.quirks.is_empty(), "{text}");
        assert_eq!(r.replay().error, None, "{text}");
    }
}

#[test]
fn a_case_coded_move_out_of_turn_is_still_reported() {
    // D3 is Black's by case while White is to move; read case-blind,
    // White's d3 flips nothing: no reading gets past move 2.
    let r = parse("F5 D3 c4");
    assert_eq!(r.moves[1].color, Some(Color::Black));
    assert!(r.quirks.is_empty());
    assert_eq!(
        r.replay().error.unwrap().to_string(),
        "move 2 (black) d3: out of turn: White has moves"
    );
}

#[test]
fn random_games_read_in_any_case() {
    let mut rng = Rng::new(7);
    let mut with_pass = 0;
    let mut ignored = 0;
    for game in 0..400 {
        let (start, played) = random_moves(&mut rng, Play::WHOLE);
        let true_case = game % 2 == 0;
        let mut side = start.side_to_move();
        let mut line = String::new();
        let mut coded_fails = false;
        for &(mv, color) in &played {
            let Move::Play(sq) = mv else {
                unreachable!("passes left out")
            };
            let upper = if true_case {
                color == Color::Black
            } else {
                rng.chance(50)
            };
            // No pass before it, and the case names the other side.
            coded_fails |= color == side && upper != (color == Color::Black);
            with_pass += usize::from(color != side);
            side = color.opponent();
            let name = sq.to_string();
            line.push_str(&if upper { name.to_uppercase() } else { name });
        }
        let r = parse(&line);
        let expected: Vec<Move> = played.iter().map(|&(mv, _)| mv).collect();
        let read: Vec<Move> = r
            .moves
            .iter()
            .map(|m| match m.token {
                Token::Move(mv) => mv,
                Token::Unreadable => panic!("{line}"),
            })
            .collect();
        assert_eq!(read, expected, "{line}");
        let report = r.replay();
        assert_eq!(
            (report.status(), report.error),
            (Status::Complete, None),
            "{line}"
        );
        let mixed = line.bytes().any(|c| c.is_ascii_uppercase())
            && line.bytes().any(|c| c.is_ascii_lowercase());
        assert_eq!(
            r.quirks.contains(Quirk::CaseIgnored),
            mixed && coded_fails,
            "{line}"
        );
        if true_case && mixed {
            let colours: Vec<_> = r.moves.iter().map(|m| m.color).collect();
            let truth: Vec<_> = played.iter().map(|&(_, c)| Some(c)).collect();
            assert_eq!(colours, truth, "{line}");
        }
        ignored += usize::from(r.quirks.contains(Quirk::CaseIgnored));
    }
    assert!(with_pass > 20, "{with_pass} passes");
    assert!(ignored > 100, "{ignored} read case-blind");
}

#[test]
fn comments_and_blank_lines_are_skipped() {
    for text in ["", "   ", "# comment", "  % also", "\r\n", "\n"] {
        assert!(parse_line(text.as_bytes(), ctx()).is_none(), "{text:?}");
    }
}

#[test]
fn unreadable_tokens_are_kept_with_positions() {
    let r = parse("f5 d6 i9 c3");
    assert_eq!(moves(&r), "f5 d6 i9 c3");
    assert_eq!(r.moves[2].token, Token::Unreadable);
    assert_eq!(r.span(2).unwrap().column, 7);
    for (text, token) in [
        ("f5 z0", "z0"),
        ("f5 f55", "f55"),
        ("f5 ff", "ff"),
        ("f5x", "x"),
    ] {
        let r = parse(text);
        assert_eq!(r.token_text(1), token, "{text}");
        assert_eq!(r.moves[1].token, Token::Unreadable);
    }
}

#[test]
fn a_name_after_a_wide_gap_is_kept() {
    let r = parse("C4c3D3c5B2                               X-square Opening");
    assert_eq!(moves(&r), "c4 c3 d3 c5 b2");
    assert!(r.defect.is_none());
    assert_eq!(
        r.tags.extra,
        [("name".to_string(), "X-square Opening".to_string())]
    );
    let r = parse("C4c5                                     Parallel Opening");
    assert_eq!(moves(&r), "c4 c5");
    assert_eq!(r.tags.extra[0].1, "Parallel Opening");
    // A single space is not a gap: the token is an error.
    let r = parse("f5 d6 hello");
    assert_eq!(r.moves[2].token, Token::Unreadable);
}

#[test]
fn flippy_book_lines_keep_their_evaluation() {
    for (text, read, value) in [
        ("C4c3D3c5B2X-21", "c4 c3 d3 c5 b2", "-21"),
        (
            "C4c3D3c5B3f4B5b4C6d6F5X-2.2",
            "c4 c3 d3 c5 b3 f4 b5 b4 c6 d6 f5",
            "-2.2",
        ),
        (
            "C4e3F6e6F5c5C3c6D6X3.13",
            "c4 e3 f6 e6 f5 c5 c3 c6 d6",
            "3.13",
        ),
        ("C4e3F6e6F5X0\r\n", "c4 e3 f6 e6 f5", "0"),
        ("c4 c3 d3X+1", "c4 c3 d3", "+1"),
    ] {
        let r = parse(text);
        assert_eq!(moves(&r), read, "{text}");
        assert_eq!(
            r.tags.extra,
            [(BOOK_VALUE_TAG.to_owned(), value.to_owned())],
            "{text}"
        );
        assert_eq!((r.defect.clone(), r.replay().error), (None, None), "{text}");
    }
    // Case-coded, on the fast path.
    let r = parse("C4c3D3c5B2X-21");
    assert_eq!(r.moves[1].color, Some(Color::White));
    assert!(matches!(r.spans, MoveSpans::Every { stride: 2, .. }));
    // Anything else after the moves stays a token.
    for (text, token) in [
        ("f5d6 X3", "X3"),
        ("f5d6X", "X"),
        ("f5d6X1.", "X1"),
        ("f5d6x-2", "x"),
        ("f5d6X-", "X"),
        ("f5d6X1.2.3", "X1"),
    ] {
        let r = parse(text);
        assert!(r.tags.extra.is_empty(), "{text}");
        assert_eq!(r.token_text(2), token, "{text}");
        assert_eq!(r.moves[2].token, Token::Unreadable, "{text}");
    }
}

#[test]
fn every_flippy_book_line_reads_case_coded_and_replays() {
    let Some(dir) = crate::testkit::corpus() else {
        return;
    };
    let path = dir.join("transcripts/openings/flippy-ankBook.txt");
    let text = std::fs::read(path).expect("corpus file");
    let mut games = 0;
    for (i, line) in text.split(|&c| c == b'\n').enumerate() {
        let ctx = LineContext {
            line: i as u32 + 1,
            byte: 0,
            index: i as u64 + 1,
        };
        let Some(r) = parse_line(line, ctx) else {
            continue;
        };
        let shown = String::from_utf8_lossy(line);
        games += 1;
        assert_eq!(r.defect, None, "{shown}");
        assert!(r.unreadable.is_empty(), "{shown}");
        assert!(r.quirks.is_empty(), "{shown}");
        assert!(r.moves.iter().all(|m| m.color.is_some()), "{shown}");
        let report = r.replay();
        assert_eq!(
            (report.status(), report.error),
            (Status::Incomplete, None),
            "{shown}"
        );
        assert_eq!(r.tags.extra.len(), 1, "{shown}");
        let value = &r.tags.extra[0];
        assert_eq!(value.0, BOOK_VALUE_TAG);
        assert!(shown.ends_with(&format!("X{}", value.1)), "{shown}");
        assert!(value.1.parse::<f64>().is_ok(), "{shown}");
    }
    assert_eq!(games, 68);
}

#[test]
fn a_bare_count_line_is_not_a_game() {
    assert!(parse_line(b"76\r\n", ctx()).is_none());
}

#[test]
fn board_prefix_sets_the_start() {
    let board = "---------------------------OX------XO---------------------------";
    let r = parse(&format!("{board} O; e6 f4"));
    assert_eq!(r.start.side_to_move(), Color::White);
    assert_eq!(r.start.board().black().count(), 2);
    assert_eq!(moves(&r), "e6 f4");
    let r = parse(&format!("{board} * f5"));
    assert_eq!(r.start.side_to_move(), Color::Black);
    assert_eq!(moves(&r), "f5");
}

#[test]
fn boards_read_every_alphabet_and_say_where_they_stop() {
    let start = "---------------------------OX------XO---------------------------";
    assert_eq!(
        board(format!("{start} X; f5").as_bytes()),
        Ok((Position::start(), 66))
    );
    // OBF's other letters, rows set apart by blanks, White to move.
    let other: String = start
        .replace('X', "b")
        .replace('O', "0")
        .replace('-', ".")
        .as_bytes()
        .chunks(8)
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect::<Vec<_>>()
        .join(" \t");
    let white = Position::new(*Position::start().board(), Color::White);
    assert_eq!(board(format!("{other}  w").as_bytes()), Ok((white, 81)));
    let r = parse(&format!("{other} W; d3"));
    assert_eq!((r.start, moves(&r)), (white, "d3".to_owned()));
    assert_eq!(
        board(b"--------XO f5"),
        Err(BoardError::Short {
            squares: 10,
            at: 11
        })
    );
    assert_eq!(board(b"XO"), Err(BoardError::Short { squares: 2, at: 2 }));
    assert_eq!(
        board(format!("{start}   ").as_bytes()),
        Err(BoardError::NoSide { at: 67 })
    );
    assert_eq!(
        board(format!("{start} Q").as_bytes()),
        Err(BoardError::NoSide { at: 65 })
    );
}

#[test]
fn pass_words_are_whole_pass_tokens() {
    for word in [
        "pass", "PASS", "PA", "pa", "PS", "ps", "--", "---", "@@", "@@@@",
    ] {
        assert!(is_pass(word.as_bytes()), "{word}");
    }
    for word in ["", "-", "@", "@@@", "pas", "passe", "p", "f5"] {
        assert!(!is_pass(word.as_bytes()), "{word}");
    }
}

#[test]
fn short_board_prefix_is_a_defect() {
    let r = parse("--------XO f5");
    assert!(r
        .defect
        .unwrap()
        .message
        .starts_with("board has 10 squares"));
}

#[test]
fn logbook_lines_carry_colours_and_raw_margin() {
    let r = parse("+d3-c3+c4-e3: -04 10");
    assert_eq!(moves(&r), "d3 c3 c4 e3");
    assert_eq!(r.moves[1].color, Some(Color::White));
    assert_eq!(r.result.unwrap().value, ResultValue::RawMargin(-4));
    let r = parse("+d3-c3+c4-e3: +00 10");
    assert_eq!(r.result.unwrap().value, ResultValue::RawMargin(0));
}
