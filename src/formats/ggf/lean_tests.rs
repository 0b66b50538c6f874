//! Tests of what the reader keeps from one game to the next and of the
//! compact forms it reads into: every game reads as if it were alone.

use crate::formats::ggf::tests::{assert_spans_match_source, one, read, STD_BO};
use crate::record::source::{MoveSpans, Span};

#[test]
fn moves_at_the_stride_keep_one_span_and_others_a_span_each() {
    let regular = one("(;GM[Othello]B[f5]W[d6]B[c3];)");
    assert_eq!(
        regular.spans,
        MoveSpans::Every {
            first: Span::new(15, 1, 16, 2),
            stride: 5,
        }
    );
    assert_spans_match_source(&regular);
    // A blank, a note, a pass spelt out, a line break: each breaks the
    // stride, and the spans of the moves before stay where they were.
    for text in [
        "(;GM[Othello]B[f5]W[d6] B[c3]W[d3];)",
        "(;GM[Othello]B[f5]W[d6//0.5]B[c3]W[d3];)",
        "(;GM[Othello]B[f5]W[pass]B[c3]W[d3];)",
        "(;GM[Othello]B[f5]W[d6]\nB[c3]W[d3];)",
        "(;GM[Othello]B[f5 ]W[d6]B[c3]W[d3];)",
    ] {
        let g = one(text);
        assert!(matches!(g.spans, MoveSpans::Each(_)), "{text}");
        assert_eq!(g.spans.each().len(), g.moves.len(), "{text}");
        assert_spans_match_source(&g);
    }
}

#[test]
fn a_game_after_a_game_off_the_stride_is_on_it_again() {
    let games = read(&format!(
        "(;GM[Othello]{STD_BO}B[f5]W[d6//1]B[c3];)\n(;GM[Othello]{STD_BO}B[f5]W[d6];)\n"
    ));
    assert_eq!(games.len(), 2);
    assert!(matches!(games[0].spans, MoveSpans::Each(_)));
    assert!(matches!(games[1].spans, MoveSpans::Every { .. }));
    assert!(games[1].notes.is_empty());
    for g in &games {
        assert_spans_match_source(g);
    }
}

/// The games before a game change nothing in it: read after `before` on
/// its own line, it is the game read after as many bytes of stray text.
fn assert_alone(before: &str, game: &str) {
    let after = read(&format!("{before}\n{game}\n"));
    let pad = read(&format!("{}\n{game}\n", "x".repeat(before.len())));
    let (Some(got), Some(alone)) = (after.last(), pad.last()) else {
        panic!("no game in {game}");
    };
    let index = |g: &crate::GameRecord| g.origin.index;
    assert_eq!(
        crate::GameRecord {
            origin: crate::record::Origin {
                index: index(alone),
                ..got.origin.clone()
            },
            ..got.clone()
        },
        *alone,
        "{game} after {before:.80}"
    );
}

#[test]
fn a_game_reads_the_same_after_any_game_before_it() {
    let long_name = "n".repeat(20_000);
    let long_game =
        format!("(;GM[Othello]PB[{long_name}]PW[a\\]b]{STD_BO}B[f5//0.01]W[d6/1/2]B[pass]W[c5];)");
    let huge = format!("(;GM[Othello]B[f5]PC[{}]W[d6];)", "h".repeat(1 << 20));
    let befores = [
        long_game.as_str(),
        huge.as_str(),
        // A defect in a value with escapes, one between tags, one in a move.
        "(;GM[Othello]PB[a\\]b\\[c[;)",
        "(;GM[Othello]B[f5]%;)",
        "(;GM[Othello]B[f5]W[d6/x];)",
        // Stray text, an unclosed game, an unclosed value.
        "junk (( x",
        "(;GM[Othello]TY[10]BO[10 ",
        "(;GM[Othello]RE[+3:r]PB[é] B[f5]",
    ];
    let games = [
        format!("(;GM[Othello]PB[a]PW[b (c)]RE[+4.000]{STD_BO}B[f5]W[d6]B[c3];)"),
        "(;GM[Othello]B[f5]W[d6//0.5]B[c3];)".to_string(),
        "(;GM[Othello]PB[x\\]y]B[e6];)".to_string(),
        "(;GM[Othello]B[f5];)".to_string(),
        "(;GM[Othello];)".to_string(),
    ];
    for before in befores {
        for game in &games {
            assert_alone(before, game);
        }
    }
}

#[test]
fn a_game_on_the_line_of_a_long_one_keeps_the_whole_line_as_its_text() {
    let long = format!("(;GM[Othello]PB[{}]B[f5];)", "n".repeat(3000));
    let short = "(;GM[Othello]B[e6];)";
    let line = format!("{long}{short}");
    let games = read(&format!("{line}\n{short}\n"));
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].origin.text.as_deref(), Some(line.as_str()));
    assert_eq!(games[2].origin.text.as_deref(), Some(short));
}

/// Every game of `text`, read in chunks of `size` bytes.
fn chunked(text: &str, size: usize) -> Vec<crate::GameRecord> {
    let mut reader = crate::formats::ggf::Reader::new(text.as_bytes());
    let chunker = crate::formats::GameReader::chunker(&mut reader).expect("a chunker");
    let (games, error) = crate::formats::chunk::read_all(chunker, size);
    assert!(error.is_none());
    games
}

#[test]
fn buffers_reused_across_chunks_read_the_same_games() {
    let long = format!("(;GM[Othello]PB[{}]B[f5]W[d6//1];)", "n".repeat(5000));
    let text = format!(
        "{long}\n(;GM[Othello]B[f5]W[d6];)\n(;GM[Othello]PB[a\\]b[\n\
         (;GM[Othello]PW[The Moor (levy)]{STD_BO}B[f5]W[d6]B[c3]W[c4];)\n\
         1 (;GM[Othello]B[f5];)(;GM[Othello]B[e6]\nW[f4];)\n{long}(;GM[Othello]B[d3];)\n"
    );
    let whole = read(&text);
    assert_eq!(whole.len(), 8);
    for size in [1, 7, 64, 300, 4096, 1 << 16] {
        assert_eq!(chunked(&text, size), whole, "chunks of {size} bytes");
    }
}

#[test]
fn plain_margins_read_as_the_general_result_reader_does() {
    // With blanks around it a value goes the general way.
    for value in [
        "+4.000",
        "-22.870",
        "0",
        "-0.000",
        "+64.000",
        "-64.0",
        "+64.5",
        "+70",
        ".5",
        "-.5",
        "5.",
        "+",
        "1234567890123456",
        "12345678901234.5",
        "0.1000000000000001",
    ] {
        let plain = one(&format!("(;GM[Othello]RE[{value}];)"));
        let spaced = one(&format!("(;GM[Othello]RE[ {value} ];)"));
        assert_eq!(plain.result, spaced.result, "{value}");
        assert_eq!(plain.tags.extra.is_empty(), spaced.tags.extra.is_empty());
    }
}
