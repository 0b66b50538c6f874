//! Tests of the SGF reader, and the helpers the writer's tests share.

use crate::engine::game::{Move, Winner};
use crate::formats::sgf::frame::{GAME_CAP, PREFIX_CAP, TEXT_CAP};
use crate::formats::sgf::{sniff, write_record, Reader};
use crate::record::{
    Annotation, AnnotationKind, Origin, RecordedResult, ResultKind, ResultValue, Token,
};
use crate::{Color, GameRecord, Status};

pub(super) fn read(text: &str) -> Vec<GameRecord> {
    Reader::new(text.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .expect("no I/O error")
}

pub(super) fn one(text: &str) -> GameRecord {
    let games = read(text);
    assert_eq!(games.len(), 1, "{text}");
    games.into_iter().next().expect("one game")
}

pub(super) use crate::testkit::tokens;

pub(super) use crate::testkit::colors;

pub(super) fn defect(r: &GameRecord) -> (String, u32, u32) {
    let d = r.defect.as_ref().expect("a defect");
    (d.message.clone(), d.span.line, d.span.column)
}

pub(super) fn written(r: &GameRecord) -> String {
    let mut out = String::new();
    write_record(r, &mut out);
    out
}

pub(super) fn comment(after: usize, text: &str) -> Annotation {
    Annotation {
        after,
        kind: AnnotationKind::Comment(text.to_owned()),
    }
}

pub(super) fn variation(after: usize, text: &str) -> Annotation {
    Annotation {
        after,
        kind: AnnotationKind::Variation(text.to_owned()),
    }
}

/// The record without what depends on where it was read.
pub(super) fn bare(r: &GameRecord) -> GameRecord {
    let mut r = r.clone();
    r.spans = crate::MoveSpans::Unknown;
    r.origin = Origin::default();
    r
}

use crate::testkit::corpus;

pub(super) const EDAX: &str = include_str!("../../../fixtures/sgf/edax-style.sgf");
pub(super) const CASSIO: &str = include_str!("../../../fixtures/sgf/cassio-style.sgf");
pub(super) const COLLECTION: &str = include_str!("../../../fixtures/sgf/collection.sgf");
pub(super) const BROKEN: &str = include_str!("../../../fixtures/sgf/broken.sgf");

#[test]
fn corpus_edax_manual_example() {
    let Some(dir) = corpus() else { return };
    let file = std::fs::File::open(dir.join("snippets/edax-manual-example.sgf")).unwrap();
    let games: Vec<GameRecord> = Reader::new(std::io::BufReader::new(file))
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(tokens(g), "f5 d6 c3 d3 c4");
    assert_eq!(colors(g), "BWBWB");
    assert!(g.has_standard_start());
    assert_eq!(g.result, None);
    assert_eq!(g.defect, None);
    assert_eq!(g.tags.site.as_deref(), Some("Edax"));
    assert_eq!(g.tags.date.as_deref(), Some("2026-10-07"));
    assert_eq!(
        (g.tags.black.as_deref(), g.tags.white.as_deref()),
        (None, None)
    );
    assert!(g.tags.extra.is_empty());
    assert_eq!(
        (
            g.span(0).unwrap().line,
            g.span(0).unwrap().column,
            g.span(0).unwrap().byte,
            g.span(0).unwrap().len
        ),
        (6, 3, 103, 2)
    );
    assert_eq!(g.origin.line_text(7), Some("B[c3];W[d3];"));
    let report = g.replay();
    assert_eq!(report.status(), Status::Incomplete);
    assert_eq!(
        (
            report.finish.score.black_discs,
            report.finish.score.white_discs
        ),
        (6, 3)
    );
    let back = one(&written(g));
    assert_eq!(bare(&back), bare(g));
}

#[test]
fn edax_style_fixture_replays_with_its_pass() {
    let g = one(EDAX);
    assert_eq!(g.moves.len(), 61);
    assert_eq!(g.moves[59].token, Token::Move(Move::Pass));
    assert_eq!(g.moves[59].color, Some(Color::White));
    assert_eq!(g.moves[60].color, Some(Color::Black));
    assert_eq!(g.tags.black.as_deref(), Some("Edax (level 10)"));
    assert_eq!(g.tags.white.as_deref(), Some("Human"));
    assert_eq!(
        g.result,
        Some(RecordedResult::new(ResultValue::Margin(-6.0)))
    );
    let report = g.replay();
    assert_eq!(report.error, None);
    let score = report.final_score().unwrap();
    assert_eq!((score.black_discs, score.white_discs), (29, 35));
    assert!(g.result.unwrap().agrees_with(&score));
}

#[test]
fn cassio_style_fixture_has_no_passes_but_replays() {
    let g = one(CASSIO);
    assert_eq!(g.moves.len(), 59);
    assert!(g.moves.iter().all(|m| m.token != Token::Move(Move::Pass)));
    // Two Black moves in a row where White had to pass.
    assert_eq!(&colors(&g)[50..], "BWBBBWBWB");
    assert_eq!(g.tags.event.as_deref(), Some("Open de Test"));
    assert_eq!(g.tags.date.as_deref(), Some("2001"));
    let extra: Vec<&str> = g.tags.extra.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(extra, ["TM", "BL", "WL", "US", "CP"]);
    let report = g.replay();
    assert_eq!(report.error, None);
    let score = report.final_score().unwrap();
    assert_eq!(
        (score.black_discs, score.white_discs, score.black_score),
        (35, 28, 36)
    );
    assert!(g.result.unwrap().agrees_with(&score));
}

#[test]
fn collection_main_lines_tags_and_setups() {
    let games = read(COLLECTION);
    assert_eq!(games.len(), 3);
    let g = &games[0];
    assert_eq!(tokens(g), "f5 d6 c3 d3 c4");
    assert_eq!(g.tags.black.as_deref(), Some("Ann ] Lee"));
    assert_eq!(g.tags.white.as_deref(), Some("Back\\slash"));
    assert_eq!(g.tags.event.as_deref(), Some("Club night"));
    assert_eq!(g.tags.round.as_deref(), Some("3"));
    assert_eq!(g.tags.black_rating.as_deref(), Some("1650"));
    assert_eq!(g.tags.white_rating.as_deref(), Some("1720"));
    assert_eq!(g.tags.extra, [("GN".to_owned(), "Friendly".to_owned())]);
    assert_eq!(
        g.annotations,
        [
            comment(0, "First game\nof the evening"),
            comment(1, "a comment that is not kept"),
            variation(1, "(;W[f6];B[e6])"),
            variation(4, "(;B[e3])"),
        ]
    );
    assert_eq!(g.replay().error, None);

    let g = &games[1];
    assert_eq!(g.start.side_to_move(), Color::White);
    let black = black_squares(g);
    assert_eq!(black, ["e4", "d5", "e5", "f5"]);
    assert_eq!(g.start.board().white().count(), 1);
    assert_eq!(
        (tokens(g), colors(g)),
        ("d6 c3".to_owned(), "WB".to_owned())
    );
    assert_eq!(g.result, None);
    assert_eq!(g.replay().error, None);
    assert_eq!(g.origin.line, Some(10));

    let g = &games[2];
    assert_eq!(g.tags.black.as_deref(), Some("Old Style"));
    assert_eq!(g.tags.white.as_deref(), Some("Élodie"));
    assert_eq!(
        (tokens(g), colors(g)),
        ("f5 f6 e6 f4".to_owned(), "BWBW".to_owned())
    );
}

#[test]
fn broken_games_have_positioned_defects_and_the_rest_is_read() {
    let games = read(BROKEN);
    let got = crate::testkit::defects(&games);
    let want = [
        ("f5 d6", "2:1 missing ')' at the end of the game"),
        ("", "2:20 unclosed '[' value"),
        ("f5 f6", ""),
        ("", "4:6 game type GM[1] is not Othello (GM[2])"),
        ("", "5:16 unsupported board size 10"),
        ("f5", "6:24 two moves in one node (missing ';')"),
        ("", "7:2 expected ';' after '('"),
        ("f5 d6", "8:30 unexpected ']' in a node"),
        ("f5 d6 c3", "10:1 missing ')' at the end of the game"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(games[2].tags.black.as_deref(), Some("Fine"));
    assert_eq!(
        games[1].origin.line_text(2),
        Some("(;GM[2]FF[4]SZ[8]PB[Unclosed value")
    );
    let indexes: Vec<u64> = games.iter().map(|g| g.origin.index).collect();
    assert_eq!(indexes, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

#[test]
fn escapes_and_soft_line_breaks() {
    let g = one("(;GM[2]PB[a\\]b\\\\c\\:d]PW[long\\\nname]C[x\\\r\ny];B[f5])");
    assert_eq!(g.tags.black.as_deref(), Some("a]b\\c:d"));
    assert_eq!(g.tags.white.as_deref(), Some("longname"));
    assert!(g.tags.extra.is_empty());
    assert_eq!(g.annotations, [comment(0, "xy")]);
}

#[test]
fn every_pass_spelling() {
    for value in ["", "PA", "pa", "tt", "TT", "pass", "PASS", " PA "] {
        let g = one(&format!("(;GM[2]SZ[8];B[f5];W[{value}];B[d3])"));
        assert_eq!(tokens(&g), "f5 pass d3", "{value:?}");
        assert_eq!(g.moves[1].color, Some(Color::White));
    }
    let g = one("(;GM[2];B[f5];W[])");
    assert_eq!((g.span(1).unwrap().column, g.span(1).unwrap().len), (16, 2));
}

#[test]
fn coordinates_in_either_case_and_two_letter_points_unreadable() {
    let g = one("(;GM[2];B[F5];W[d6];B[fe];W[i9];B[f55])");
    assert_eq!(tokens(&g), "f5 d6 fe i9 f55");
    assert_eq!(g.moves[2].token, Token::Unreadable);
    assert_eq!(g.unreadable.len(), 3);
    assert_eq!(g.span(2).unwrap().column, 23);
}

#[test]
fn lower_case_and_long_identifiers() {
    let g = one("(;gm[2]sz[8]pb[x];b[f5];w[d6])");
    assert_eq!(
        (tokens(&g), colors(&g)),
        ("f5 d6".to_owned(), "BW".to_owned())
    );
    assert_eq!(g.tags.black.as_deref(), Some("x"));
    let g = one("(;GaMe[2]SiZe[8]PlayerBlack[y];Black[f5];White[d6])");
    assert_eq!(g.tags.black.as_deref(), Some("y"));
    assert_eq!(tokens(&g), "f5 d6");
}

#[test]
fn game_type_and_size() {
    assert_eq!(
        defect(&one("(;GM[1];B[f5])")).0,
        "game type GM[1] is not Othello (GM[2])"
    );
    assert_eq!(
        defect(&one("(;SZ[10];B[f5])")).0,
        "unsupported board size 10"
    );
    assert_eq!(
        defect(&one("(;SZ[8:6];B[f5])")).0,
        "unsupported board size 8:6"
    );
    for ok in [
        "(;SZ[8:8];B[f5])",
        "(;SZ[ 8 ];B[f5])",
        "(;B[f5])",
        "(;FF[3]GM[2];B[f5])",
    ] {
        let g = one(ok);
        assert_eq!((tokens(&g), g.defect), ("f5".to_owned(), None), "{ok}");
    }
}

#[test]
fn setup_with_rectangles_and_erasures() {
    let g = one("(;GM[2]AB[a1:b2]AW[h8]AE[b2]PL[W])");
    let black = black_squares(&g);
    assert_eq!(black, ["a1", "b1", "a2"]);
    assert_eq!(g.start.board().white().count(), 1);
    assert_eq!(g.start.side_to_move(), Color::White);
    // AE alone edits the standard board.
    let g = one("(;GM[2]AE[d4])");
    assert_eq!(g.start.board().white().count(), 1);
    assert_eq!(g.start.board().black().count(), 2);
    // The standard position with PL[B] is the normal start.
    let g = one("(;GM[2]AB[e4][d5]AW[d4][e5]PL[B];B[f5])");
    assert!(g.has_standard_start());
    // No PL: the first move's colour moves first.
    let g = one("(;GM[2];W[f5])");
    assert_eq!(g.start.side_to_move(), Color::White);
    assert_eq!(defect(&one("(;AB[z9])")).0, "not a square: z9");
    assert_eq!(defect(&one("(;PL[X])")).0, "not a colour: X");
}

#[test]
fn setup_after_the_first_move_is_a_defect() {
    let g = one("(;GM[2];B[f5];AB[a1];W[d6])");
    assert_eq!(
        defect(&g),
        (
            "setup property AB after the first move is not supported".to_owned(),
            1,
            15
        )
    );
    assert_eq!(tokens(&g), "f5");
}

#[test]
fn first_move_in_the_setup_node() {
    let g = one("(;GM[2]SZ[8]AB[e4][d5]AW[d4][e5]PL[B]B[f5];W[d6];)");
    assert_eq!((tokens(&g), g.defect), ("f5 d6".to_owned(), None));
}

#[test]
fn results() {
    let re = |v: &str| one(&format!("(;GM[2]RE[{v}])")).result;
    let plain = |v| Some(RecordedResult::new(v));
    let kind = |value, kind| Some(RecordedResult { value, kind });
    assert_eq!(re("B+12"), plain(ResultValue::Margin(12.0)));
    assert_eq!(re("W+4"), plain(ResultValue::Margin(-4.0)));
    assert_eq!(re("w+2.5"), plain(ResultValue::Margin(-2.5)));
    assert_eq!(re("0"), plain(ResultValue::Margin(0.0)));
    assert_eq!(re("Draw"), plain(ResultValue::Margin(0.0)));
    assert_eq!(re("B+"), plain(ResultValue::Winner(Winner::Black)));
    assert_eq!(
        re("B+R"),
        kind(ResultValue::Winner(Winner::Black), ResultKind::Resigned)
    );
    assert_eq!(
        re("W+Resign"),
        kind(ResultValue::Winner(Winner::White), ResultKind::Resigned)
    );
    assert_eq!(
        re("W+T"),
        kind(ResultValue::Winner(Winner::White), ResultKind::Time)
    );
    assert_eq!(
        re("B+Time"),
        kind(ResultValue::Winner(Winner::Black), ResultKind::Time)
    );
    for none in ["Void", "?", "", "void"] {
        assert_eq!(re(none), None, "{none}");
    }
    let g = one("(;GM[2]RE[B+F])");
    assert_eq!(g.result, None);
    assert_eq!(g.tags.extra, [("RE".to_owned(), "B+F".to_owned())]);
    let g = one("(;GM[2]RE[B+99])");
    assert_eq!(g.tags.extra, [("RE".to_owned(), "B+99".to_owned())]);
}

#[test]
fn variations_follow_the_first_child() {
    let g = one("(;GM[2](;B[f5](;W[d6])(;W[f6];B[e6]))(;B[d3];W[c3]))");
    assert_eq!(tokens(&g), "f5 d6");
    assert_eq!(
        g.annotations,
        [
            variation(0, "(;B[d3];W[c3])"),
            variation(1, "(;W[f6];B[e6])")
        ]
    );
    let g = one("(;GM[2];B[f5](;W[d6];B[c3](;W[d3])(;W[e3]))(;W[f4]))");
    assert_eq!(tokens(&g), "f5 d6 c3 d3");
    assert_eq!(
        g.annotations,
        [variation(1, "(;W[f4])"), variation(3, "(;W[e3])")]
    );
    // Values in variations may hold parentheses; the text is as written,
    // nested variations, spaces and line breaks included.
    let games =
        read("(;GM[2];B[f5](;W[d6])( ;W[f6]C[a ) b ( c]\n (;B[e6])(;B[f4])))(;GM[2];B[d3])");
    assert_eq!(games.len(), 2);
    assert_eq!(
        (tokens(&games[0]), &games[0].defect),
        ("f5 d6".to_owned(), &None)
    );
    assert_eq!(
        games[0].annotations,
        [variation(1, "( ;W[f6]C[a ) b ( c]\n (;B[e6])(;B[f4]))")]
    );
    // Several at one branch point in source order, after its comments;
    // one at the root's first move (Edax's layout) branches after it.
    let g = one("(;GM[2]C[g]B[f5](;W[d6]C[m])(;W[f6])(;W[f4];B[e3]))");
    assert_eq!(
        g.annotations,
        [
            comment(0, "g"),
            variation(1, "(;W[f6])"),
            variation(1, "(;W[f4];B[e3])"),
            comment(2, "m"),
        ]
    );
    let g = one("(;GM[2];B[f5](;W[d6]);B[c3])");
    assert_eq!(
        defect(&g),
        ("unexpected ';' after a variation".to_owned(), 1, 22)
    );
}

#[test]
fn comments_are_kept_after_their_nodes_moves() {
    let g = one(concat!(
        "(;GM[2]C[root]GN[x];C[setup \\] note];B[f5]C[move]BL[30]",
        ";W[d6]N[name];C[one][two];W[c3]C[]C[last])"
    ));
    assert_eq!(tokens(&g), "f5 d6 c3");
    assert_eq!(g.tags.extra, [("GN".to_owned(), "x".to_owned())]);
    assert_eq!(
        g.annotations,
        [
            comment(0, "root"),
            comment(0, "setup ] note"),
            comment(1, "move"),
            comment(2, "one"),
            comment(2, "two"),
            comment(3, ""),
            comment(3, "last"),
        ]
    );
    // A comment before the move in its node is still after the move.
    let g = one("(;GM[2];C[x]B[f5])");
    assert_eq!(g.annotations, [comment(1, "x")]);
}

#[test]
fn unknown_root_properties_keep_every_value_in_order() {
    let g = one("(;GM[2]XX[a][b]YY[c]KM[0.5])");
    let extra: Vec<(&str, &str)> = g
        .tags
        .extra
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        extra,
        [("XX", "a"), ("XX", "b"), ("YY", "c"), ("KM", "0.5")]
    );
    let back = one(&written(&g));
    assert_eq!(back.tags.extra, g.tags.extra);
    assert!(written(&g).contains("XX[a][b]YY[c]KM[0.5]"));
}

#[test]
fn question_marks_and_empty_names_are_unknown() {
    let g = one("(;GM[2]PB[?]PW[]EV[ ? ]DT[2020-01-02])");
    assert_eq!(
        (g.tags.black, g.tags.white, g.tags.event),
        (None, None, None)
    );
    assert_eq!(g.tags.date.as_deref(), Some("2020-01-02"));
}

#[test]
fn latin1_charset_and_invalid_utf8() {
    let mut bytes = b"(;GM[2]CA[ISO-8859-1]PB[Pr\xe9tendant])".to_vec();
    let g = Reader::new(&bytes[..]).next().unwrap().unwrap();
    assert_eq!(g.tags.black.as_deref(), Some("Prétendant"));
    bytes = b"(;GM[2]PB[Pr\xe9tendant])".to_vec();
    let g = Reader::new(&bytes[..]).next().unwrap().unwrap();
    assert_eq!(g.tags.black.as_deref(), Some("Prétendant"));
}

#[test]
fn structural_errors() {
    let cases = [
        ("(;GM[2];B[f5", "unclosed '[' value", 10),
        ("(;GM[2];B[f5] 5)", "unexpected '5' in a node", 15),
        ("(;GM[2];B[f5] x)", "property X has no value", 15),
        ("(;GM[2];B [f5];W)", "property W has no value", 16),
        ("(;GM[2];B[f5][d6])", "move B has 2 values", 9),
        ("(;GM[2](B[f5]))", "expected ';' after '('", 9),
        (
            "(;GM[2];B[f5](;W[d6]",
            "missing ')' at the end of the game",
            21,
        ),
        ("(;GM[2];B[f5](;W[d6])(;W[e6]", "unclosed '(' variation", 22),
    ];
    for (text, message, column) in cases {
        let g = one(text);
        assert_eq!(defect(&g), (message.to_owned(), 1, column), "{text}");
    }
}

#[test]
fn junk_between_and_before_games_is_skipped() {
    let games = read("Games (two of them):\n(;GM[2];B[f5]) and (;GM[2];B[d3])\n(not a game)");
    let moves: Vec<String> = games.iter().map(tokens).collect();
    assert_eq!(moves, ["f5", "d3"]);
    assert_eq!((games[1].origin.byte, games[1].origin.line), (40, Some(2)));
    assert_eq!(games[1].span(0).unwrap().column, 30);
    assert_eq!(
        games[1].origin.line_text(2),
        Some("(;GM[2];B[f5]) and (;GM[2];B[d3])")
    );
}

#[test]
fn several_games_on_one_line_and_across_lines() {
    let games = read("(;GM[2];B[f5])(;GM[2]\n;B[d3]\n;W[c3])\r\n(;GM[2])");
    assert_eq!(games.len(), 3);
    assert_eq!(tokens(&games[1]), "d3 c3");
    assert_eq!(
        (
            games[1].span(1).unwrap().line,
            games[1].span(1).unwrap().column
        ),
        (3, 4)
    );
    assert_eq!(games[2].moves.len(), 0);
    assert_eq!(games[2].origin.line, Some(4));
}

#[test]
fn a_game_over_the_cap_keeps_what_fits() {
    let mut text = String::from("(;GM[2]C[");
    text.push_str(&"x".repeat(GAME_CAP + 10));
    text.push_str("];B[f5])(;GM[2];B[d3])");
    let games = read(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(
        defect(&games[0]).0,
        format!("game exceeds {GAME_CAP} bytes; the rest is skipped")
    );
    assert_eq!(games[0].defect.as_ref().unwrap().span.byte, GAME_CAP as u64);
    assert!(games[0].origin.text.as_ref().unwrap().len() <= TEXT_CAP);
    assert_eq!(tokens(&games[1]), "d3");
}

#[test]
fn a_long_line_before_a_game_drops_its_text_only() {
    let text = format!("{}(;GM[2];B[f5])", "z".repeat(PREFIX_CAP + 1));
    let g = one(&text);
    assert_eq!(g.origin.text, None);
    assert_eq!(g.span(0).unwrap().column as usize, PREFIX_CAP + 1 + 11);
}

#[test]
fn sniff_tells_sgf_from_ggf() {
    assert!(sniff(b"(;FF[4]GM[2]SZ[8]"));
    assert!(sniff(b"\xEF\xBB\xBF  (\n;GM[ 2 ]"));
    assert!(sniff(b"(;PB[x];B[f5])"));
    assert!(!sniff(b"(;GM[Othello]PC[GGS/os]"));
    assert!(!sniff(b"(;GM[1]FF[4]SZ[19]"));
    assert!(!sniff(b"1 (;GM[Othello]"));
    assert!(!sniff(b"[Event \"x\"]"));
    assert!(!sniff(b"f5d6c3"));
}

/// The squares of Black's discs at the start of `game`, by name.
fn black_squares(game: &GameRecord) -> Vec<String> {
    game.start
        .board()
        .black()
        .into_iter()
        .map(|s| s.to_string())
        .collect()
}
