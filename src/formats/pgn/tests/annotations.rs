//! Comments, NAGs and variations: read, written back, and what PGN
//! cannot hold of them.

use crate::formats::pgn::tests::*;

#[test]
fn comments_nags_and_variations_are_kept_and_escapes_skipped() {
    let text =
        "% escape\n1. f5 {a (comment} $12 d6 (1... f6 {x) y} (2. e6) ) ; rest { of line\n2. c3 *";
    let g = one(text);
    assert_eq!(tokens(&g), "f5 d6 c3");
    assert_eq!(g.defect, None);
    assert_eq!(g.origin.line, Some(2));
    assert_eq!(
        g.annotations,
        [
            comment(1, "a (comment"),
            nag(1, 12),
            variation(2, "(1... f6 {x) y} (2. e6) )"),
            comment(2, " rest { of line"),
        ]
    );
}

#[test]
fn evaluations_and_times_in_comments() {
    let g = one("1. f5 {[%eval -3.25] [%emt 0:01:02.5]} d6 {just words} 2. c3 {[%emt 4]} *");
    assert_eq!(
        g.notes,
        [
            MoveNote {
                eval: Some(-3.25),
                time: Some(62.5)
            },
            MoveNote::default(),
            MoveNote {
                eval: None,
                time: Some(4.0)
            }
        ]
    );
    assert_eq!(g.annotations, [comment(2, "just words")]);
    // Comments before any move or in variations are not notes; the notes
    // are as long as the moves.
    let g = one("{[%eval 1]} 1. f5 (1... d6 {[%eval 2]}) d6 {[%eval 3]} 2. c3 *");
    assert_eq!(g.notes.len(), 3);
    assert_eq!(
        g.notes.iter().map(|n| n.eval).collect::<Vec<_>>(),
        [None, Some(3.0), None]
    );
    assert_eq!(
        g.annotations,
        [
            comment(0, "[%eval 1]"),
            variation(1, "(1... d6 {[%eval 2]})")
        ]
    );
    // Words beside the evaluation are a comment; an evaluation that is
    // not a finite number is not one.
    let g = one("1. f5 {[%eval 1.5] good [%emt 2]} d6 {[%eval nan]} *");
    assert_eq!(
        g.notes,
        [
            MoveNote {
                eval: Some(1.5),
                time: Some(2.0)
            },
            MoveNote::default()
        ]
    );
    assert_eq!(
        g.annotations,
        [comment(1, "good"), comment(2, "[%eval nan]")]
    );
    let g = one("1. f5 d6 *");
    assert!(g.notes.is_empty());
    let mut g = one("1. f5 d6 2. c3 *");
    g.notes = vec![
        MoveNote::default(),
        MoveNote {
            eval: Some(-1.5),
            time: Some(0.25),
        },
        MoveNote {
            eval: Some(2.0),
            time: None,
        },
    ];
    let out = written(&g);
    assert!(
        out.ends_with("\n1. f5 d6 {[%eval -1.5] [%emt 0.25]} 2. c3 {[%eval 2]} *\n\n"),
        "{out}"
    );
    assert_eq!(bare(&one(&out)), bare(&g));
}

const ANNOTATED: &str = "[Event \"Annotated\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n\
[Result \"34-30\"]\n\n{Before the first move} 1. f5! {[%eval 0.5]} {good} d6 $14 \
(1... f6 2. e6 {side line} (2. d3)) 2. c3?? ; a rest-of-line comment\nd3 {two\nlines} \
3. c4 34-30\n";

#[test]
fn every_kind_of_annotation_is_read_and_written_back() {
    let g = one(ANNOTATED);
    assert_eq!(tokens(&g), "f5 d6 c3 d3 c4");
    assert_eq!(
        g.annotations,
        [
            comment(0, "Before the first move"),
            nag(1, 1),
            comment(1, "good"),
            nag(2, 14),
            variation(2, "(1... f6 2. e6 {side line} (2. d3))"),
            nag(3, 4),
            comment(3, " a rest-of-line comment"),
            comment(4, "two\nlines"),
        ]
    );
    assert_eq!(g.notes[0].eval, Some(0.5));
    let out = written(&g);
    assert_eq!(
        out,
        "[Event \"Annotated\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [Black \"Ann\"]\n[White \"Bo\"]\n[Result \"34-30\"]\n\n\
         {Before the first move} 1. f5 $1 {[%eval 0.5]} {good} 1... d6 $14\n\
         (1... f6 2. e6 {side line} (2. d3)) 2. c3 $4 { a rest-of-line comment} 2... d3\n\
         {two\nlines} 3. c4 34-30\n\n"
    );
    assert_eq!(bare(&one(&out)), bare(&g));
    assert_eq!(written(&one(&out)), out);
    assert!(lost(&g).is_empty());
}

#[test]
fn comments_braces_cannot_hold_are_line_comments() {
    let g = annotated(vec![
        comment(1, "a } b"),
        comment(2, "[%eval 3]"),
        comment(2, "x\r\ny"),
        comment(3, ""),
    ]);
    assert_eq!(
        move_text(&g),
        "1. f5 ;a } b\n1... d6 ;[%eval 3]\n{x\ny} 2. c3 {} *\n\n"
    );
    let back = one(&written(&g));
    assert_eq!(
        back.annotations,
        [
            comment(1, "a } b"),
            comment(2, "[%eval 3]"),
            comment(2, "x\ny"),
            comment(3, "")
        ]
    );
    assert!(back.notes.is_empty());
    assert!(lost(&g).is_empty());
}

#[test]
fn comments_no_form_holds_lose_their_line_breaks_and_are_named() {
    const LOSS: &str = "comments over several lines holding '}', a tag pair or [%eval]/[%emt]";
    for text in ["x}\ny", "see\n[Event \"x\"]", "[%emt 3]\nlater"] {
        let g = annotated(vec![comment(1, text)]);
        let flat = text.replace('\n', " ");
        assert_eq!(
            move_text(&g),
            format!("1. f5 ;{flat}\n1... d6 2. c3 *\n\n"),
            "{text}"
        );
        assert_eq!(one(&written(&g)).annotations, [comment(1, &flat)]);
        assert_eq!(lost(&g), [LOSS]);
    }
}

#[test]
fn variations_that_are_not_pgn_move_text_are_left_out_and_named() {
    const LOSS: &str = "variations that are not PGN move text";
    let fits = "(1... f6 ; to the end of the line (\n2. e6)";
    let g = annotated(vec![variation(1, fits), variation(3, "(2... e3)")]);
    assert_eq!(
        move_text(&g),
        format!("1. f5 {fits} 1... d6 2. c3 (2... e3) *\n\n")
    );
    assert_eq!(one(&written(&g)).annotations, g.annotations);
    assert!(lost(&g).is_empty());
    for text in [
        "(;B[f5];W[d6])",
        "1... d6",
        "(1... d6) (2. c3)",
        "(1... d6",
        "(1... {d6)}",
        "(1... d6\n[Event \"x\"])",
    ] {
        let g = annotated(vec![variation(1, text)]);
        assert_eq!(move_text(&g), "1. f5 d6 2. c3 *\n\n", "{text}");
        assert_eq!(lost(&g), [LOSS], "{text}");
    }
}

#[test]
fn a_game_with_too_many_annotations_keeps_what_fits() {
    let text = format!("1. f5 {}d6 *\n1. d3 *\n", "$7 ".repeat(ANNOTATION_CAP + 1));
    let games = read(&text);
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(tokens(g), "f5");
    assert_eq!(g.annotations.len(), ANNOTATION_CAP);
    assert_eq!(
        defect(g),
        (
            format!(
                "game has more than {ANNOTATION_CAP} comments, NAGs and variations; \
                 the rest is skipped"
            ),
            1,
            7 + 3 * ANNOTATION_CAP as u32
        )
    );
    assert_eq!(tokens(&games[1]), "d3");
}

#[test]
fn comments_outside_games() {
    // Before a game's tags: its own, before its first move.
    let games = read("{lead}\n[Event \"x\"]\n1. f5 *\n; trailing\n{trailing}\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].annotations, [comment(0, "lead")]);
    assert_eq!(games[0].origin.line, Some(2));
    // One that never closes is said, whether a game follows or not.
    let games = read("1. f5 *\n{oops\n");
    assert_eq!(games.len(), 2);
    assert_eq!(defect(&games[1]), ("unclosed '{' comment".to_owned(), 2, 1));
    let games = read("{oops\n[Event \"x\"]\n1. f5 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        (defect(&games[0]), games[0].moves.len()),
        (("unclosed '{' comment".to_owned(), 1, 1), 0)
    );
    assert_eq!(
        (games[1].tags.event.as_deref(), tokens(&games[1])),
        (Some("x"), "f5".to_owned())
    );
}

#[test]
fn nags_and_move_suffixes() {
    let g = one("1. f5!! d6?? 2. c3!? d3?! 3. c4!!! $0 $65535 $65536 *");
    assert_eq!(tokens(&g), "f5 d6 c3 d3 c4 $65536");
    assert_eq!(
        g.annotations,
        [
            nag(1, 3),
            nag(2, 4),
            nag(3, 5),
            nag(4, 6),
            nag(5, 3),
            nag(5, 1),
            nag(5, 0),
            nag(5, 65535)
        ]
    );
    assert_eq!((g.span(4).unwrap().column, g.span(4).unwrap().len), (30, 2));
}
