//! Tests of the PGN reader and writer: reading here, the rest in
//! `tests/` (annotations, writing, round trips), with the helpers and
//! fixtures of this file.

mod annotations;
mod round_trips;
mod writing;

use crate::engine::game::{Move, Winner};
use crate::formats::pgn::fen::write_fen;
use crate::formats::pgn::read::{ANNOTATION_CAP, LINE_CAP, TEXT_CAP};
use crate::formats::pgn::*;
use crate::record::date::iso_date;
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

pub(super) use crate::testkit::tokens;

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
/// 8601 here), the form of a result that PGN writes as disc counts (a
/// whole margin is the same score), and notes that say nothing.
fn bare(r: &GameRecord) -> GameRecord {
    let mut r = r.clone();
    r.spans = crate::MoveSpans::Unknown;
    r.origin = Origin::default();
    if r.notes.iter().all(|n| *n == MoveNote::default()) {
        r.notes.clear();
    }
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

const EDAX: &str = include_str!("../../../../fixtures/pgn/edax-style.pgn");

const CASSIO: &str = include_str!("../../../../fixtures/pgn/cassio-style.pgn");

const THOR: &str = include_str!("../../../../fixtures/pgn/thor-style.pgn");

const PLAYOK: &str = include_str!("../../../../fixtures/pgn/playok-style.pgn");

const VARIANTS: &str = include_str!("../../../../fixtures/pgn/variants.pgn");

const BROKEN: &str = include_str!("../../../../fixtures/pgn/broken.pgn");

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
    let got = crate::testkit::defects(&games);
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

/// What PGN says it loses of `record`.
fn lost(record: &GameRecord) -> Vec<&'static str> {
    crate::formats::Format::Pgn.losses_of(record)
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
