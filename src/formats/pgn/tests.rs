//! Tests of the PGN reader and writer.

use crate::date::iso_date;
use crate::formats::pgn::fen::write_fen;
use crate::formats::pgn::read::{ANNOTATION_CAP, LINE_CAP, TEXT_CAP};
use crate::formats::pgn::*;
use crate::game::{Move, Winner};
use crate::record::{
    Annotation, AnnotationKind, MoveNote, Origin, RecordedMove, RecordedResult, ResultKind,
    ResultValue, Rules, Tags, Token,
};
use crate::{Color, GameRecord, Position, Square, Status};

fn read(text: &str) -> Vec<GameRecord> {
    Reader::new(text.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("no I/O error")
}

fn one(text: &str) -> GameRecord {
    let games = read(text);
    assert_eq!(games.len(), 1, "{text}");
    games.into_iter().next().expect("one game")
}

fn tokens(r: &GameRecord) -> String {
    (0..r.moves.len())
        .map(|i| r.token_text(i))
        .collect::<Vec<_>>()
        .join(" ")
}

fn defect(r: &GameRecord) -> (String, u32, u32) {
    let d = r.defect.as_ref().expect("a defect");
    (d.message.clone(), d.span.line, d.span.column)
}

fn written(r: &GameRecord) -> String {
    let mut out = String::new();
    write_record(r, &mut out);
    out
}

fn extra(r: &GameRecord) -> Vec<(&str, &str)> {
    r.tags
        .extra
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The record without what a round trip may change: where it was read,
/// the form of a date that PGN writes in its own (the same date, in ISO
/// 8601 here), and the form of a result that PGN writes as disc counts (a
/// whole margin is the same score).
fn bare(r: &GameRecord) -> GameRecord {
    let mut r = r.clone();
    r.spans = crate::MoveSpans::Unknown;
    r.origin = Origin::default();
    if let Some(date) = r.tags.date.as_mut() {
        if let Some(iso) = iso_date(date) {
            *date = iso;
        }
    }
    if let Some(result) = r.result.as_mut() {
        if let (ResultValue::Margin(_), Some(black)) = (result.value, result.black_score()) {
            result.value = ResultValue::Discs {
                black,
                white: 64 - black,
            };
        }
    }
    r
}

/// `r` as PGN gives it back: with every pass written, as PGN numbers
/// moves; notes, unreadable texts and annotations move along (an
/// annotation stays right after the move it followed, before a pass
/// written there).
fn as_written(r: &GameRecord) -> GameRecord {
    let report = r.replay();
    let mut out = r.clone();
    out.moves.clear();
    out.notes.clear();
    let mut at = Vec::with_capacity(r.moves.len());
    for turn in r.plies(&report) {
        if turn.pass_before {
            out.moves.push(RecordedMove::new(Move::Pass));
            if !r.notes.is_empty() {
                out.notes.push(MoveNote::default());
            }
        }
        at.push(out.moves.len());
        out.moves.push(r.moves[turn.index]);
        if let Some(note) = r.notes.get(turn.index) {
            out.notes.push(*note);
        }
    }
    for (k, _) in &mut out.unreadable {
        *k = at[*k];
    }
    for a in &mut out.annotations {
        a.after = a.after.checked_sub(1).map_or(0, |k| at[k] + 1);
    }
    out
}

fn discs(black: u8, white: u8) -> Option<RecordedResult> {
    Some(RecordedResult::new(ResultValue::Discs { black, white }))
}

fn winner(w: Winner) -> Option<RecordedResult> {
    Some(RecordedResult::new(ResultValue::Winner(w)))
}

fn comment(after: usize, text: &str) -> Annotation {
    Annotation {
        after,
        kind: AnnotationKind::Comment(text.to_owned()),
    }
}

fn nag(after: usize, value: u16) -> Annotation {
    Annotation {
        after,
        kind: AnnotationKind::Nag(value),
    }
}

fn variation(after: usize, text: &str) -> Annotation {
    Annotation {
        after,
        kind: AnnotationKind::Variation(text.to_owned()),
    }
}

use crate::testkit::corpus;

const EDAX: &str = include_str!("../../../fixtures/pgn/edax-style.pgn");
const CASSIO: &str = include_str!("../../../fixtures/pgn/cassio-style.pgn");
const THOR: &str = include_str!("../../../fixtures/pgn/thor-style.pgn");
const PLAYOK: &str = include_str!("../../../fixtures/pgn/playok-style.pgn");
const VARIANTS: &str = include_str!("../../../fixtures/pgn/variants.pgn");
const BROKEN: &str = include_str!("../../../fixtures/pgn/broken.pgn");

#[test]
fn corpus_playok_game() {
    let Some(dir) = corpus() else { return };
    let file = std::fs::File::open(dir.join("snippets/playok-reversi-2020-05-05.pgn")).unwrap();
    let games: Vec<GameRecord> = Reader::new(std::io::BufReader::new(file))
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.moves.len(), 61);
    assert_eq!(g.moves[56].token, Token::Move(Move::Pass));
    assert_eq!(g.result, discs(38, 26));
    assert_eq!(g.tags.site.as_deref(), Some("PlayOK"));
    assert_eq!(g.tags.event, None);
    assert_eq!(g.tags.round.as_deref(), Some("-"));
    assert_eq!(g.tags.date.as_deref(), Some("2020.05.05 11:24:48"));
    assert_eq!(g.tags.black.as_deref(), Some("t7m4o1k9a"));
    assert_eq!(g.tags.white.as_deref(), Some("cafego"));
    assert_eq!(g.tags.black_rating.as_deref(), Some("1073"));
    assert_eq!(g.tags.white_rating.as_deref(), Some("1183"));
    assert_eq!(extra(g), [("TimeControl", "300")]);
    assert_eq!(g.defect, None);
    let pass = g.span(56).unwrap();
    assert_eq!((pass.line, pass.column, pass.len), (16, 38, 2));
    assert_eq!(g.origin.line_text(16).map(|l| &l[37..39]), Some("--"));
    let report = g.replay();
    assert_eq!(report.error, None);
    let score = report.final_score().unwrap();
    assert_eq!((score.black_discs, score.white_discs), (38, 26));
    assert!(g.result.unwrap().agrees_with(&score));
    assert_eq!(bare(&one(&written(g))), bare(g));
}

#[test]
fn edax_style_fixture() {
    let games = read(EDAX);
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.moves.len(), 60);
    assert_eq!(g.moves[57].token, Token::Move(Move::Pass));
    assert_eq!(g.result, winner(Winner::Black));
    assert_eq!(
        (g.tags.event.as_deref(), g.tags.site.as_deref()),
        (None, Some("edax"))
    );
    assert_eq!(g.tags.date.as_deref(), Some("2024.3.1"));
    assert_eq!(g.tags.round, None);
    assert_eq!(g.annotations, [comment(60, "Edax wins 40-24")]);
    assert_eq!(extra(g), [("Time", "12.30.5")]);
    let report = g.replay();
    assert_eq!(report.error, None);
    let score = report.final_score().unwrap();
    assert_eq!(
        (score.black_discs, score.white_discs, score.black_score),
        (39, 24, 40)
    );
    let g = &games[1];
    assert_eq!(g.origin.line, Some(17));
    assert_eq!(g.start.side_to_move(), Color::White);
    assert_eq!(g.start.board().black().count(), 4);
    assert_eq!(tokens(g), "d6 c3 d3 c4");
    assert_eq!((g.result, g.tags.black.as_deref()), (None, None));
    assert_eq!(g.replay().status(), Status::Incomplete);
}

#[test]
fn cassio_style_fixture_drops_the_padding() {
    let games = read(CASSIO);
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.moves.len(), 59);
    assert_eq!(g.result, discs(36, 28));
    assert_eq!(g.theoretical_black_score, Some(34));
    assert_eq!(extra(g), [("Database", "WTH_2001.wtb")]);
    assert_eq!(g.tags.date.as_deref(), Some("2001.01.01"));
    let score = g.replay().final_score().unwrap();
    assert_eq!(
        (score.black_discs, score.white_discs, score.black_score),
        (35, 28, 36)
    );
    assert!(g.result.unwrap().agrees_with(&score));
    let g = &games[1];
    assert_eq!(tokens(g), "f5 d6 c5 f6 e7 f4 g5 e6 e3");
    assert_eq!(
        (g.result, g.theoretical_black_score),
        (discs(64, 0), Some(64))
    );
    assert_eq!(g.replay().final_score().unwrap().black_score, 64);
}

#[test]
fn thor_style_fixture_without_terminators() {
    let games = read(THOR);
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].moves.len(), games[0].result), (59, discs(40, 24)));
    assert_eq!(games[0].tags.event.as_deref(), Some("Test Cup - 2010"));
    assert_eq!(games[0].tags.date.as_deref(), Some("2010"));
    assert_eq!(games[1].origin.line, Some(37));
    assert_eq!(
        tokens(&games[1]),
        "f5 f4 c3 f6 g7 f7 f3 h7 f8 b2 h6 e7 h8 e3 d7 g3 f2 f1 a1 c5"
    );
    for g in &games {
        let score = g.replay().final_score().unwrap();
        assert!(g.result.unwrap().agrees_with(&score));
    }
}

#[test]
fn playok_style_fixture_and_move_text_without_tags() {
    let games = read(PLAYOK);
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.moves.len(), 61);
    assert_eq!(g.moves[59].token, Token::Move(Move::Pass));
    assert_eq!(g.tags.date.as_deref(), Some("2021.07.14 20:15:02"));
    assert_eq!(extra(g), [("TimeControl", "120")]);
    assert_eq!(g.result, discs(29, 35));
    let score = g.replay().final_score().unwrap();
    assert_eq!((score.black_discs, score.white_discs), (29, 35));
    let g = &games[1];
    assert_eq!(g.moves.len(), 20);
    assert_eq!(g.tags, Tags::default());
    assert_eq!((g.result, g.origin.line), (None, Some(18)));
    assert_eq!(g.replay().status(), Status::Incomplete);
}

#[test]
fn variants_fixture() {
    let games = read(VARIANTS);
    assert_eq!(games.len(), 4);
    let g = &games[0];
    assert_eq!(g.origin.line, Some(2));
    assert_eq!(g.tags.event.as_deref(), Some("Club \"Night\" Cup"));
    assert_eq!(g.tags.site.as_deref(), Some("Back\\slash Hall"));
    assert_eq!(g.tags.date.as_deref(), Some("2022.??.??"));
    assert_eq!(g.tags.round.as_deref(), Some("4"));
    assert_eq!(
        extra(g),
        [("Annotator", "someone"), ("Event", "a repeated tag")]
    );
    assert_eq!(tokens(g), "f5 d6 c3 d3 c4 f4 f6");
    assert_eq!(g.result, winner(Winner::Black));
    assert_eq!(g.replay().error, None);
    assert_eq!(
        (
            g.span(1).unwrap().line,
            g.span(1).unwrap().column,
            g.span(1).unwrap().len
        ),
        (11, 27, 2)
    );
    assert_eq!(
        g.annotations,
        [
            comment(0, "An opening comment"),
            nag(2, 1),
            nag(3, 1),
            variation(4, "(2... e3 3. f4 {nested})"),
            nag(5, 6),
            comment(5, " a line comment"),
            comment(6, "a comment\nover two lines"),
        ]
    );
    let g = &games[1];
    assert_eq!(g.rules, Rules::Anti);
    assert_eq!(
        g.result,
        Some(RecordedResult {
            value: ResultValue::Winner(Winner::White),
            kind: ResultKind::Time
        })
    );
    assert!(g.tags.extra.is_empty());
    assert_eq!(g.start.side_to_move(), Color::White);
    assert_eq!(tokens(g), "d6 c3 d3");
    assert_eq!(g.replay().error, None);
    let g = &games[2];
    assert_eq!(g.result, discs(40, 24));
    assert_eq!(extra(g), [("MovetextResult", "1-0")]);
    let g = &games[3];
    assert_eq!(tokens(g), "f5 xx i9");
    assert_eq!(g.unreadable.len(), 2);
    assert_eq!(g.result, None);
}

#[test]
fn broken_fixture() {
    let games = read(BROKEN);
    let got: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            let d = g.defect.as_ref().map_or(String::new(), |d| {
                format!("{}:{} {}", d.span.line, d.span.column, d.message)
            });
            (tokens(g), d)
        })
        .collect();
    let want = [
        ("f5 d6", "4:10 unclosed '{' comment"),
        ("f5 f6", ""),
        ("", "12:1 unterminated tag value"),
        ("", "18:1 FEN board has 7 ranks, expected 8"),
        ("f5 d6", "24:10 unmatched ')'"),
        ("f5 d6", "28:10 tag pair inside the move text"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(games[1].tags.event.as_deref(), Some("Fine"));
    assert_eq!(games[3].tags.event.as_deref(), Some("Bad FEN"));
    assert_eq!(games[0].origin.line_text(4), Some("1. f5 d6 {never closed"));
}

#[test]
fn tag_pair_syntax() {
    let g = one("[Event \"a\"] [Site\"b\"]\n[ Round   \"c\\\\d\"  ]\n\n1. f5 *");
    assert_eq!(
        (
            g.tags.event.as_deref(),
            g.tags.site.as_deref(),
            g.tags.round.as_deref()
        ),
        (Some("a"), Some("b"), Some("c\\d"))
    );
    let cases = [
        (
            "[Event x]\n1. f5 *",
            "expected '\"' after the tag name Event",
            8,
        ),
        ("[ \"x\"]\n1. f5 *", "expected a tag name after '['", 3),
        (
            "[Event \"x\"\n1. f5 *",
            "expected ']' after the tag value",
            11,
        ),
        ("[Event \"x]\n1. f5 *", "unterminated tag value", 1),
    ];
    for (text, message, column) in cases {
        let g = one(text);
        assert_eq!(defect(&g), (message.to_owned(), 1, column), "{text}");
        assert_eq!(g.moves.len(), 0, "{text}");
    }
}

#[test]
fn repeated_tags() {
    let g = one("[BlackElo \"?\"]\n[BlackElo \"1500\"]\n[Event \"a\"]\n[Event \"b\"]\n[FEN \"8/8/8/3pP3/3Pp3/8/8/8 w\"]\n[FEN \"junk\"]\n*");
    assert_eq!(g.tags.black_rating.as_deref(), Some("1500"));
    assert_eq!(g.tags.event.as_deref(), Some("a"));
    assert_eq!(extra(&g), [("Event", "b")]);
    assert_eq!((g.start.side_to_move(), g.defect), (Color::White, None));
}

#[test]
fn move_numbers_annotations_and_case() {
    for text in [
        "1. f5 d6 2. c3",
        "1.f5 d6 2.c3",
        "1. F5 D6\n3. C3",
        "1... f5 2... d6 c3",
        "1. f5! d6?! 2. c3!!",
        "f5 d6 c3",
    ] {
        assert_eq!(tokens(&one(text)), "f5 d6 c3", "{text}");
    }
}

#[test]
fn every_pass_spelling_and_cassio_padding() {
    for pass in ["pass", "PASS", "--", "---", "PA", "pa", "ps", "@@", "@@@@"] {
        let g = one(&format!("1. f5 {pass} 2. d3 *"));
        assert_eq!(tokens(&g), "f5 pass d3", "{pass}");
    }
    assert_eq!(tokens(&one("1. f5 d6 2. c3 -- 3. -- -- *")), "f5 d6 c3");
    assert_eq!(tokens(&one("1. f5 d6 2. c3 pass *")), "f5 d6 c3 pass");
    assert_eq!(tokens(&one("1. f5 -- 2. -- d6 *")), "f5 pass pass d6");
}

#[test]
fn results_in_tag_and_move_text() {
    let r = |text: &str| one(text).result;
    assert_eq!(r("1. f5 1-0"), winner(Winner::Black));
    assert_eq!(r("1. f5 0-1"), winner(Winner::White));
    assert_eq!(r("1. f5 1/2-1/2"), winner(Winner::Draw));
    assert_eq!(r("1. f5 ½-½"), winner(Winner::Draw));
    assert_eq!(r("1. f5 *"), None);
    assert_eq!(r("1. f5 34-30"), discs(34, 30));
    assert_eq!(r("1. f5 0-0"), discs(0, 0));
    assert_eq!(r("[Result \"34-30\"]\n1. f5"), discs(34, 30));
    assert_eq!(r("[Result \"*\"]\n1. f5 34-30"), discs(34, 30));
    assert_eq!(r("[Result \"?\"]\n1. f5"), None);
    let g = one("[Result \"0-1\"]\n1. f5 33-31");
    assert_eq!(
        (g.result, extra(&g)),
        (winner(Winner::White), vec![("MovetextResult", "33-31")])
    );
    let g = one("[Result \"B+12\"]\n1. f5 1-0");
    assert_eq!(
        (g.result, extra(&g)),
        (winner(Winner::Black), vec![("Result", "B+12")])
    );
    // Not a result: more than 64 discs.
    let g = one("1. f5 40-40");
    assert_eq!((tokens(&g), g.result), ("f5 40-40".to_owned(), None));
}

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

#[test]
fn game_boundaries() {
    let games = read("1. f5 1-0 1. d3 0-1\n1. c4\n\n1. e6\n[Event \"x\"]\n1. f5\n");
    let moves: Vec<String> = games.iter().map(tokens).collect();
    assert_eq!(moves, ["f5", "d3", "c4", "e6", "f5"]);
    assert_eq!(games[1].origin.line_text(1), Some("1. f5 1-0 1. d3 0-1"));
    assert_eq!(
        (games[1].span(0).unwrap().column, games[1].origin.byte),
        (14, 10)
    );
    assert_eq!(games[4].tags.event.as_deref(), Some("x"));
    // Tags, a blank line, tags again: two games, the first without moves.
    let games = read("[Event \"a\"]\n\n[Event \"b\"]\n1. f5 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0].moves.len(), games[1].tags.event.as_deref()),
        (0, Some("b"))
    );
    assert!(read("\n\n% only an escape\n\n").is_empty());
}

#[test]
fn fen_forms() {
    let start = |v: &str| one(&format!("[FEN \"{v}\"]\n1. f5 *"));
    assert!(start("8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1").has_standard_start());
    assert!(start("8/8/8/3xo3/3ox3/8/8/8 b").has_standard_start());
    let g = start("8/8/8/3pP3/3Pp3/8/8/8 w");
    assert_eq!(g.start.side_to_move(), Color::White);
    let board = "---------------------------OX------XO---------------------------";
    assert!(start(&format!("{board} X")).has_standard_start());
    assert!(start(&format!("{board}X")).has_standard_start());
    assert_eq!(
        start(&format!("{board} O")).start.side_to_move(),
        Color::White
    );
    let cases = [
        ("8/8/8/3pP3/3Pp3/8/8/8", "FEN has no side to move"),
        (
            "8/8/8/3pP3/3Pp3/8/8/8 q",
            "FEN side to move \"q\" is not b or w",
        ),
        (
            "8/8/8/3pP3/3Pp4/8/8/8 b",
            "FEN rank 4 has 9 squares, expected 8",
        ),
        ("8/8/8/3pQ3/3Pp3/8/8/8 b", "unexpected 'Q' in the FEN board"),
        ("--- X", "FEN board has 3 squares, expected 64"),
        ("", "empty FEN"),
    ];
    for (value, message) in cases {
        assert_eq!(defect(&start(value)), (message.to_owned(), 1, 1), "{value}");
    }
}

#[test]
fn fen_writer_matches_edax() {
    let mut out = String::new();
    write_fen(&Position::start(), &mut out);
    assert_eq!(out, "8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1");
    let g = one("[FEN \"8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1\"]\n1. d6 *");
    let mut out = String::new();
    write_fen(&g.start, &mut out);
    assert_eq!(out, "8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1");
}

#[test]
fn special_tags() {
    let g = one("[TheoreticalScore \"34-30\"]\n*");
    assert_eq!(g.theoretical_black_score, Some(34));
    let g = one("[TheoricalScore \"36\"]\n*");
    assert_eq!(g.theoretical_black_score, Some(36));
    let g = one("[TheoreticalScore \"n/a\"]\n*");
    assert_eq!(
        (g.theoretical_black_score, extra(&g)),
        (None, vec![("TheoreticalScore", "n/a")])
    );
    let g = one("[Termination \"resignation\"]\n[Result \"0-1\"]\n*");
    assert_eq!(g.result.unwrap().kind, ResultKind::Resigned);
    assert!(g.tags.extra.is_empty());
    let g = one("[Termination \"normal\"]\n[Result \"0-1\"]\n*");
    assert_eq!(
        (g.result.unwrap().kind, extra(&g)),
        (ResultKind::Score, vec![("Termination", "normal")])
    );
    let g = one("[Termination \"resignation\"]\n*");
    assert_eq!(
        (g.result, extra(&g)),
        (None, vec![("Termination", "resignation")])
    );
    let g = one("[Variant \"Anti\"]\n[SetUp \"1\"]\n[BlackElo \"?\"]\n*");
    assert_eq!((g.rules, g.tags.black_rating.clone()), (Rules::Anti, None));
    assert!(g.tags.extra.is_empty());
    let g = one("[Variant \"xot\"]\n[Date \"????.??.??\"]\n*");
    assert_eq!(
        (g.rules, g.tags.date.clone(), extra(&g)),
        (Rules::Standard, None, vec![("Variant", "xot")])
    );
}

#[test]
fn encodings_bom_and_crlf() {
    let g = Reader::new(
        &b"\xEF\xBB\xBF% note\r\n[Black \"Pr\xe9tendant\"]\r\n\r\n1. f5 d6\r\n2. c3 *\r\n"[..],
    )
    .next()
    .unwrap()
    .unwrap();
    assert_eq!(g.tags.black.as_deref(), Some("Prétendant"));
    assert_eq!(tokens(&g), "f5 d6 c3");
    assert_eq!((g.span(2).unwrap().line, g.span(2).unwrap().column), (5, 4));
    assert_eq!((g.origin.line, g.origin.byte), (Some(2), 11));
    let g = one("[White \"Élodie\"]\n1. f5 *");
    assert_eq!(g.tags.white.as_deref(), Some("Élodie"));
    let g = one("[Event \"é\"] 1. f5 *");
    assert_eq!(g.span(0).unwrap().column, 16);
}

#[test]
fn a_game_over_the_cap_keeps_what_fits() {
    let mut text = String::from("1. f5 d6\n");
    // Long comments, so that the bytes run out before the annotations.
    let line = format!("{{{}}}\n", "x".repeat(298));
    while text.len() <= GAME_CAP {
        text.push_str(&line);
    }
    text.push_str("2. c3 *\n1. d3 *\n");
    let games = read(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(tokens(&games[0]), "f5 d6");
    assert_eq!(
        defect(&games[0]).0,
        format!("game exceeds {GAME_CAP} bytes; the rest is skipped")
    );
    assert!(games[0].origin.text.as_ref().unwrap().len() <= TEXT_CAP);
    assert_eq!(tokens(&games[1]), "d3");
}

#[test]
fn a_line_longer_than_the_read_limit_is_read_in_pieces() {
    // Four bytes a move, so the pieces are cut between moves.
    let count = LINE_CAP as usize / 4 + 5;
    let mut text = "f5  ".repeat(count);
    text.push_str("*\n1. d3 *\n");
    let games = read(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves.len(), count);
    let last = games[0].spans.each().last().unwrap();
    assert_eq!(
        (last.line, last.byte as usize + 1),
        (1, last.column as usize)
    );
    assert_eq!(last.byte as usize, 4 * (count - 1));
    assert_eq!(games[1].origin.line, Some(2));
}

#[test]
fn writer_exact_output() {
    let mut g = one("[Event \"Cup \\\"A\\\"\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n[Result \"40-24\"]\n[Opening \"x\"]\n\n1. f5 d6 2. c3 *");
    g.tags.white_rating = Some("1500".to_owned());
    assert_eq!(
        written(&g),
        "[Event \"Cup \\\"A\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [Black \"Ann\"]\n[White \"Bo\"]\n[Result \"40-24\"]\n[WhiteElo \"1500\"]\n\
         [Opening \"x\"]\n\n1. f5 d6 2. c3 40-24\n\n"
    );
}

#[test]
fn writer_numbers_passes_and_wraps() {
    let games = read(EDAX);
    let out = written(&games[0]);
    let body: Vec<&str> = out.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
    assert!(body.iter().all(|l| l.chars().count() <= 80), "{out}");
    assert!(
        out.contains("29. f1 pass 30. g7 a8 {Edax wins 40-24} 1-0"),
        "{out}"
    );
    assert_eq!(body.first().map(|l| &l[..11]), Some("1. d3 c3 2."));
    // White first.
    let out = written(&games[1]);
    assert!(
        out.contains("[FEN \"8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1\"]\n"),
        "{out}"
    );
    assert!(out.ends_with("\n1... d6 2. c3 d3 3. c4 *\n\n"), "{out}");
    let cassio = read(CASSIO);
    let out = written(&cassio[0]);
    // Cassio leaves White's passes out; they are written.
    assert!(
        out.ends_with("\n26. b2 a2 27. h8 pass 28. h1 pass 29. d1 c1 30. h4 h3 31. b1 36-28\n\n"),
        "{out}"
    );
}

#[test]
fn writer_results_and_extra_tags() {
    let result = |value, kind| {
        let g = GameRecord {
            result: Some(RecordedResult { value, kind }),
            ..GameRecord::default()
        };
        let out = written(&g);
        (
            out.lines().nth(6).unwrap().to_owned(),
            out.lines()
                .find(|l| l.starts_with("[Termination"))
                .map(str::to_owned),
        )
    };
    use ResultKind::{Resigned, Score, Time};
    use ResultValue::{Discs, Margin, RawMargin};
    let plain = |v| result(v, Score).0;
    assert_eq!(
        plain(Discs {
            black: 33,
            white: 30
        }),
        "[Result \"33-30\"]"
    );
    assert_eq!(plain(Margin(12.0)), "[Result \"38-26\"]");
    assert_eq!(plain(Margin(0.0)), "[Result \"32-32\"]");
    assert_eq!(plain(Margin(-2.5)), "[Result \"0-1\"]");
    assert_eq!(plain(RawMargin(3)), "[Result \"1-0\"]");
    assert_eq!(
        plain(ResultValue::Winner(Winner::Draw)),
        "[Result \"1/2-1/2\"]"
    );
    assert_eq!(
        result(ResultValue::Winner(Winner::White), Resigned),
        (
            "[Result \"0-1\"]".to_owned(),
            Some("[Termination \"resignation\"]".to_owned())
        )
    );
    assert_eq!(
        result(Margin(-6.0), Time).1.as_deref(),
        Some("[Termination \"time forfeit\"]")
    );
    let mut g = GameRecord {
        theoretical_black_score: Some(36),
        rules: Rules::Anti,
        ..GameRecord::default()
    };
    g.tags.extra = vec![
        ("Time Control".to_owned(), "a\nb".to_owned()),
        ("FEN".to_owned(), "junk".to_owned()),
    ];
    let out = written(&g);
    assert!(
        out.contains(
            "[TheoreticalScore \"36-28\"]\n[Variant \"anti\"]\n[Time_Control \"a b\"]\n\n*\n"
        ),
        "{out}"
    );
}

#[test]
fn unreadable_tokens_are_written_as_one_unreadable_word() {
    let mut g = one("1. f5 i9 *");
    g.unreadable[0].1 = "34-30".into();
    let back = one(&written(&g));
    assert_eq!(tokens(&back), "f5 _34-30");
    g.unreadable[0].1 = "a b{c}".into();
    assert_eq!(tokens(&one(&written(&g))), "f5 a_b_c_");
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(out, ["the spelling of unreadable moves"]);
}

#[test]
fn losses_name_what_pgn_cannot_keep() {
    let mut g = GameRecord::default();
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert!(out.is_empty());
    g.notes = vec![MoveNote {
        eval: None,
        time: Some(1.5),
    }];
    g.result = Some(RecordedResult::new(ResultValue::Margin(-2.5)));
    g.tags.black = Some("two\nlines".to_owned());
    g.tags
        .extra
        .push(("Time Control".to_owned(), "1".to_owned()));
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(
        out,
        [
            "result margins that are not disc counts",
            "line breaks in tag values",
            "tag names that are not PGN tag names"
        ]
    );
    out.clear();
    g = GameRecord::default();
    g.result = Some(RecordedResult::new(ResultValue::RawMargin(-4)));
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(out, ["raw disc differences of results"]);
}

#[test]
fn losses_for_colours_and_impossible_disc_counts() {
    let mut g = GameRecord::default();
    // f5 by White is out of turn; d6 by White again.
    for name in [b"f5", b"d6"] {
        g.moves.push(RecordedMove {
            token: Token::Move(Move::Play(Square::from_ascii(name).unwrap())),
            color: Some(Color::White),
        });
    }
    g.result = Some(RecordedResult::new(ResultValue::Discs {
        black: 40,
        white: 40,
    }));
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(
        out,
        [
            "move colours after an illegal move",
            "results with more than 64 discs"
        ]
    );
    assert!(written(&g).contains("[Result \"1/2-1/2\"]"));
    g.moves[0].color = Some(Color::Black);
    g.moves[1].color = Some(Color::White);
    out.clear();
    g.result = None;
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert!(out.is_empty());
}

#[test]
fn sniff_tells_pgn() {
    assert!(sniff(b"[Event \"x\"]\n"));
    assert!(sniff(b"\xEF\xBB\xBF% note\n[Site \"PlayOK\"]"));
    assert!(sniff(b"1. f5 d6 2. c3"));
    assert!(sniff(b"1.F5 D6"));
    assert!(sniff(b"1... d6 2. c3"));
    assert!(sniff(b"\n  12. -- g8"));
    assert!(!sniff(b"f5d6c3"));
    assert!(!sniff(b"(;GM[2]"));
    assert!(!sniff(b"[Event]"));
    assert!(!sniff(b"1. hello"));
    assert!(!sniff(
        b"---------------------------OX------XO--------------------------- X;"
    ));
}

#[test]
fn fixtures_round_trip() {
    for text in [EDAX, CASSIO, THOR, PLAYOK, VARIANTS, BROKEN] {
        for g in read(text) {
            let out = written(&g);
            let back = one(&out);
            let mut expected = bare(&as_written(&g));
            expected.defect = None;
            assert_eq!(bare(&back), expected, "{out}");
        }
    }
}

use crate::testkit::{decorate, random_game, Play, Rng};

/// How the random games play: stopped at random, half their forced passes
/// written, a third from a position a few moves on.
const PLAY: Play = Play {
    stop: 2,
    written_passes: 50,
    odd_start: 30,
};

/// Gives `record` up to three annotations at random places: comments of
/// the kit's tricky text (its `{`, `}`, `;`, `(`, `[` and line breaks are
/// what PGN comments must survive), NAGs, and variations, PGN ones and
/// an SGF one PGN cannot hold.
fn annotate(rng: &mut Rng, record: &mut GameRecord) {
    const VARIATIONS: [&str; 4] = [
        "(1... d6)",
        "(2. c3 {a (b} (2. e6) ; x)\n)",
        "( $1 )",
        "(;B[f5];W[d6])",
    ];
    let mut list: Vec<Annotation> = (0..rng.below(4))
        .map(|_| Annotation {
            after: rng.below(record.moves.len() + 1),
            kind: match rng.below(3) {
                0 => AnnotationKind::Comment(rng.tricky_text()),
                1 => AnnotationKind::Nag(rng.below(300) as u16),
                _ => AnnotationKind::Variation(rng.pick(&VARIATIONS).to_owned()),
            },
        })
        .collect();
    list.sort_by_key(|a| a.after);
    record.annotations = list;
}

/// What PGN says it loses of `record`.
fn lost(record: &GameRecord) -> Vec<&'static str> {
    crate::formats::Format::Pgn.losses_of(record)
}

/// Random edits of the fixtures: whatever comes out is consistent,
/// and writing it then reading it back is stable.
#[test]
fn mutated_inputs_give_consistent_records_that_round_trip() {
    const ALPHABET: &[u8] = b"[]\"\\{}();%$ \n\r-*1/2.0f5d6passFEN8pPbw\xc3\xa9";
    let sources = [EDAX, CASSIO, THOR, PLAYOK, VARIANTS, BROKEN];
    let mut rng = Rng(0x5EED_0103);
    let mut defects = 0;
    for _ in 0..400 {
        let mut bytes = sources[rng.below(sources.len())].as_bytes().to_vec();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(bytes.len() + 1);
            let c = ALPHABET[rng.below(ALPHABET.len())];
            match rng.below(3) {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 if at < bytes.len() => bytes[at] = c,
                _ => bytes.insert(at, c),
            }
        }
        let games: Vec<GameRecord> = Reader::new(&bytes[..]).map(|g| g.unwrap()).collect();
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.origin.index, i as u64 + 1);
            assert_eq!(g.spans.each().len(), g.moves.len());
            for span in g.spans.each() {
                assert!(span.byte + u64::from(span.len) <= bytes.len() as u64);
            }
            for (k, _) in &g.unreadable {
                assert_eq!(g.moves[*k].token, Token::Unreadable);
            }
            if let Some(d) = &g.defect {
                defects += 1;
                assert!(d.span.byte <= bytes.len() as u64, "{d:?}");
            }
            let text = written(g);
            let first = one(&text);
            assert_eq!(first.defect, None, "{text}");
            assert_eq!(first.moves.len(), as_written(g).moves.len(), "{text}");
            if lost(g).is_empty() {
                let mut expected = bare(&as_written(g));
                expected.defect = None;
                assert_eq!(bare(&first), expected, "{text}");
            }
            let second = one(&written(&first));
            assert_eq!(bare(&second), bare(&first), "{text}");
        }
    }
    assert!(defects > 50, "{defects}");
}

#[test]
fn random_games_round_trip() {
    let mut rng = Rng(0x5EED_0101);
    let (mut with_passes, mut odd_starts, mut kept, mut annotated) = (0, 0, 0, 0);
    for _ in 0..300 {
        let mut record = random_game(&mut rng, PLAY);
        decorate(&mut rng, &mut record);
        annotate(&mut rng, &mut record);
        with_passes += usize::from(
            record
                .moves
                .iter()
                .any(|m| m.token == Token::Move(Move::Pass)),
        );
        odd_starts += usize::from(!record.has_standard_start());
        let text = written(&record);
        let first = one(&text);
        assert_eq!(first.defect, None, "{text}");
        assert_eq!(first.moves, as_written(&record).moves, "{text}");
        if lost(&record).is_empty() {
            assert_eq!(bare(&first), bare(&as_written(&record)), "{text}");
            kept += 1;
            annotated += usize::from(!record.annotations.is_empty());
        }
        assert_eq!(bare(&one(&written(&first))), bare(&first), "{text}");
        assert_eq!(first.replay().error, None, "{text}");
        assert_eq!(first.spans.each().len(), first.moves.len());
        for (k, span) in first.spans.each().iter().enumerate() {
            let line = first.origin.line_text(span.line).unwrap();
            let col = span.column as usize - 1;
            let word: String = line.chars().skip(col).take(span.len as usize).collect();
            assert_eq!(word, first.token_text(k), "{text}");
        }
    }
    assert!(
        with_passes > 10 && odd_starts > 30 && kept > 80 && annotated > 50,
        "{with_passes} {odd_starts} {kept} {annotated}"
    );
}

#[test]
fn random_games_in_one_stream() {
    let mut rng = Rng(0x5EED_0102);
    let records: Vec<GameRecord> = (0..40)
        .map(|_| {
            let mut record = random_game(&mut rng, PLAY);
            decorate(&mut rng, &mut record);
            record
        })
        .collect();
    let mut text = String::new();
    for r in &records {
        write_record(r, &mut text);
    }
    let games = read(&text);
    assert_eq!(games.len(), records.len());
    let mut kept = 0;
    for (i, (g, r)) in games.iter().zip(&records).enumerate() {
        assert_eq!(g.origin.index, i as u64 + 1);
        assert_eq!(g.moves, as_written(r).moves);
        if lost(r).is_empty() {
            assert_eq!(bare(g), bare(&as_written(r)));
            kept += 1;
        }
    }
    assert!(kept > 10, "{kept}");
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

/// A record of `f5 d6 c3` with these annotations.
fn annotated(annotations: Vec<Annotation>) -> GameRecord {
    let mut g = one("1. f5 d6 2. c3 *");
    g.annotations = annotations;
    g
}

/// The move text a record is written with.
fn move_text(g: &GameRecord) -> String {
    let out = written(g);
    out.split_once("\n\n")
        .map_or(out.clone(), |(_, m)| m.to_owned())
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

#[test]
fn every_pass_is_written_also_those_the_record_leaves_out() {
    // Black has no move after c1; the record goes on with White's b4.
    let mut g = one("1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 5. b4 *");
    assert_eq!(g.replay().implicit_passes, 1 << 8);
    let out = written(&g);
    assert_eq!(
        out,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[Black \"?\"]\n\
         [White \"?\"]\n[Result \"*\"]\n\n1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 5. pass b4 *\n\n"
    );
    let back = one(&out);
    assert_eq!(tokens(&back), "d3 c3 e6 d2 d1 e1 b3 c1 pass b4");
    let report = back.replay();
    assert_eq!((report.error, report.implicit_passes), (None, 0));
    assert_eq!(written(&back), out);
    // `--` is a pass too, as PlayOK writes it.
    let dashes = one("1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 5. -- b4 *");
    assert_eq!(dashes.moves, back.moves);
    // What follows c1 stays before the pass written after it.
    g.annotations = vec![comment(8, "Black has no move"), nag(9, 1)];
    g.notes = vec![MoveNote::default(); 9];
    g.notes[8].eval = Some(-2.0);
    assert_eq!(
        move_text(&g),
        "1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 {Black has no move} 5. pass b4 $1\n\
         {[%eval -2]} *\n\n"
    );
    let back = one(&written(&g));
    assert_eq!(
        back.annotations,
        [comment(8, "Black has no move"), nag(10, 1)]
    );
    assert_eq!(back.notes[9].eval, Some(-2.0));
    assert_eq!(bare(&back), bare(&as_written(&g)));
}

#[test]
fn dates_are_written_in_pgn_form_with_a_time_tag() {
    // (date in the record, Date and Time written, ISO 8601 read back)
    let cases = [
        (None, "????.??.??", None, None),
        (Some("2004"), "2004.??.??", None, Some("2004")),
        (Some("2004-05"), "2004.05.??", None, Some("2004-05")),
        (Some("2024.3.1"), "2024.03.01", None, Some("2024-03-01")),
        (Some("15.12.2003"), "2003.12.15", None, Some("2003-12-15")),
        (
            Some("2022-01-17 08:05"),
            "2022.01.17",
            Some("08:05:00"),
            Some("2022-01-17T08:05:00"),
        ),
        // With a zone: in UTC, across midnight here.
        (
            Some("2003.12.31_20:00:00.MST"),
            "2004.01.01",
            Some("03:00:00"),
            Some("2004-01-01T03:00:00"),
        ),
        (
            Some("947375357"),
            "2000.01.08",
            Some("23:49:17"),
            Some("2000-01-08T23:49:17"),
        ),
        (Some("spring 2004"), "spring 2004", None, None),
    ];
    for (date, written_date, written_time, iso) in cases {
        let mut g = one("1. f5 *");
        g.tags.date = date.map(str::to_owned);
        let out = written(&g);
        let time = written_time.map_or(String::new(), |t| format!("[Time \"{t}\"]\n"));
        assert!(
            out.contains(&format!(
                "[Date \"{written_date}\"]\n[Round \"?\"]\n[Black \"?\"]\n[White \"?\"]\n\
                 [Result \"*\"]\n{time}\n"
            )),
            "{out}"
        );
        let back = one(&out);
        assert_eq!(
            back.tags.date.as_deref().and_then(iso_date).as_deref(),
            iso,
            "{out}"
        );
        assert!(back.tags.extra.is_empty(), "{out}");
        assert_eq!(written(&back), out);
    }
}

#[test]
fn a_time_tag_completes_a_date_with_its_day() {
    let date = |text: &str| {
        let g = one(text);
        (g.tags.date.clone(), g.tags.extra)
    };
    let whole = Some("2003.12.15 19:33:18".to_owned());
    assert_eq!(
        date("[Date \"2003.12.15\"]\n[Time \"19:33:18\"]\n*"),
        (whole.clone(), vec![])
    );
    assert_eq!(
        date("[Time \"19:33:18\"]\n[Event \"e\"]\n[Date \"2003.12.15\"]\n*"),
        (whole, vec![])
    );
    // The first `Time` only, and only what reads as a time of a day.
    let time = |t: &str| vec![("Time".to_owned(), t.to_owned())];
    assert_eq!(
        date("[Date \"2003.12.15\"]\n[Time \"19:33\"]\n[Time \"20:00:00\"]\n*"),
        (Some("2003.12.15 19:33".to_owned()), time("20:00:00"))
    );
    assert_eq!(
        date("[Date \"2024.3.1\"]\n[Time \"12.30.5\"]\n*"),
        (Some("2024.3.1".to_owned()), time("12.30.5"))
    );
    assert_eq!(
        date("[Date \"2022.??.??\"]\n[Time \"10:00:00\"]\n*"),
        (Some("2022.??.??".to_owned()), time("10:00:00"))
    );
    assert_eq!(
        date("[Date \"2022.01.17 08:05\"]\n[Time \"10:00:00\"]\n*"),
        (Some("2022.01.17 08:05".to_owned()), time("10:00:00"))
    );
    assert_eq!(
        date("[Date \"????.??.??\"]\n[Time \"10:00:00\"]\n*"),
        (None, time("10:00:00"))
    );
    assert_eq!(
        iso_date("2003.12.15 19:33:18").as_deref(),
        Some("2003-12-15T19:33:18")
    );
}
