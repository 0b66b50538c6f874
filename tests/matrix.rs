//! Conversions across every text format, CSV and JSON Lines: `A → B → A`
//! keeps the moves always, and players, event, date and result whenever B
//! can hold them; what B cannot hold is named by its `losses`.

use std::io::BufReader;

use kifu::formats::Format;
use kifu::{GameRecord, RecordedResult, ResultValue, Token};

/// The formats written as text, one record after another.
fn text_formats() -> Vec<Format> {
    Format::ALL.into_iter().filter(|f| f.is_text()).collect()
}

fn write(format: Format, games: &[GameRecord]) -> Vec<u8> {
    format.write_records(games).expect("a text format")
}

/// The date as ISO 8601: each format writes dates in its own form.
fn date(g: &GameRecord) -> Option<String> {
    let date = g.tags.date.as_deref()?;
    Some(kifu::record::date::iso_date(date).unwrap_or_else(|| date.to_owned()))
}

fn read(format: Format, bytes: &[u8]) -> Vec<GameRecord> {
    format
        .reader(BufReader::new(bytes))
        .map(|g| g.unwrap())
        .collect()
}

fn tokens(g: &GameRecord) -> Vec<Token> {
    // Explicit passes are a matter of spelling: compare the squares.
    g.moves
        .iter()
        .map(|m| m.token)
        .filter(|t| *t != Token::Move(kifu::Move::Pass))
        .collect()
}

/// A tournament game with a forced pass (Black passes before White's c1)
/// and a short complete game, with names, event, date and results.
fn games() -> Vec<GameRecord> {
    let lines = std::fs::read_to_string("fixtures/transcripts/example.txt").unwrap();
    let mut out = Vec::new();
    for (i, (line, result)) in lines
        .lines()
        .filter(|l| !l.starts_with('#'))
        .zip([(29u8, 35u8), (25, 39), (26, 38), (32, 32)])
        .enumerate()
    {
        let ctx = kifu::formats::transcript::LineContext {
            line: 1,
            byte: 0,
            index: 1,
        };
        let mut g = kifu::formats::transcript::parse_line(line.as_bytes(), ctx).unwrap();
        g.tags.black = Some(format!("Black Player {i}"));
        g.tags.white = Some(format!("Blanc Joueur {i}"));
        g.tags.event = Some("Open de Paris".into());
        g.tags.date = Some("2026.11.21".into());
        g.result = Some(RecordedResult::new(ResultValue::Discs {
            black: result.0,
            white: result.1,
        }));
        out.push(g);
    }
    out
}

#[test]
fn every_a_to_b_to_a_keeps_what_b_can_hold() {
    let originals = games();
    for a in text_formats() {
        let in_a = read(a, &write(a, &originals));
        assert_eq!(in_a.len(), originals.len(), "{a}");
        for b in text_formats() {
            let back = read(a, &write(a, &read(b, &write(b, &in_a))));
            assert_eq!(back.len(), originals.len(), "{a} -> {b} -> {a}");
            for (x, y) in in_a.iter().zip(&back) {
                assert_eq!(tokens(x), tokens(y), "moves, {a} -> {b} -> {a}");
                let mut lost = b.losses_of(x);
                lost.extend(a.losses_of(x));
                if lost.is_empty() {
                    assert_eq!(x.tags.black, y.tags.black, "{a} -> {b} -> {a}");
                    assert_eq!(x.tags.white, y.tags.white, "{a} -> {b} -> {a}");
                    assert_eq!(x.tags.event, y.tags.event, "{a} -> {b} -> {a}");
                    assert_eq!(date(x), date(y), "{a} -> {b} -> {a}");
                    assert_eq!(
                        x.result.and_then(|r| r.black_score()),
                        y.result.and_then(|r| r.black_score()),
                        "result, {a} -> {b} -> {a}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_formats_that_hold_names_keep_them_all() {
    let originals = games();
    for b in [
        Format::Ggf,
        Format::Sgf,
        Format::Pgn,
        Format::Csv,
        Format::Jsonl,
    ] {
        let back = read(b, &write(b, &originals));
        for (x, y) in originals.iter().zip(&back) {
            assert_eq!(tokens(x), tokens(y), "{b}");
            assert_eq!(
                (&x.tags.black, &x.tags.white, &x.tags.event, date(x)),
                (&y.tags.black, &y.tags.white, &y.tags.event, date(y)),
                "{b}"
            );
            assert_eq!(
                x.result.and_then(|r| r.black_score()),
                y.result.and_then(|r| r.black_score()),
                "{b}"
            );
            let lost = b.losses_of(x);
            assert!(lost.is_empty(), "{b} loses {lost:?}");
        }
    }
}

#[test]
fn a_transcript_names_what_it_loses() {
    let lost = Format::Transcript.losses_of(&games()[0]);
    assert_eq!(
        lost,
        [
            "player names",
            "the event",
            "the date",
            "the recorded result"
        ]
    );
}
