//! Tests of what the reader keeps from one game to the next and of the
//! compact forms it reads into: every game reads as if it were alone.

use crate::formats::ggf::tests::{assert_spans_match_source, one, read, STD_BO};
use crate::source::{MoveSpans, Span};

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
