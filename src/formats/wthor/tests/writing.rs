//! Writing: openings turned to f5, passes, refusals, the score bytes,
//! ids, the header, random games round trip.

use std::collections::BTreeMap;
use std::io::{Cursor, Seek, SeekFrom};
use std::sync::Arc;

use crate::engine::game::{Move, Winner};
use crate::formats::format::WriteError;
use crate::formats::wthor::header::binary_error;
use crate::formats::wthor::read::*;
use crate::formats::wthor::tests::{header, header_of, options, read_all, write_games};
use crate::formats::wthor::write::*;
use crate::formats::wthor::*;
use crate::record::{RecordedMove, RecordedResult, ResultValue, Rules, Token};
use crate::testkit::{random_game, transcript, Play, Rng};
use crate::{GameRecord, Position, Status, Symmetry};

#[test]
fn every_opening_is_stored_from_f5() {
    let openings = [
        ("f5d6c3d3c4", "f5d6c3d3c4"),
        ("d3c5f6f5e6e3", "f5d6c3d3c4f4"),
        ("c4e3f6e6f5", "f5d6c3d3c4"),
        ("e6f4c3c4d3", "f5d6c3d3c4"),
    ];
    let games: Vec<GameRecord> = openings.iter().map(|(m, _)| transcript(m)).collect();
    let (bytes, _, results) = write_games(&games);
    assert!(results.iter().all(Result::is_ok));
    let back: Vec<GameRecord> = read_all(&bytes, true)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    for ((_, want), g) in openings.iter().zip(&back) {
        assert_eq!(g.move_string(), *want);
        assert_eq!(g.replay().status(), Status::Incomplete);
    }
    let symmetries: Vec<Symmetry> = games
        .iter()
        .map(|g| encode(g, &g.replay(), 1).unwrap().symmetry)
        .collect();
    assert_eq!(
        symmetries,
        [
            Symmetry::Identity,
            Symmetry::FlipAntiDiagonal,
            Symmetry::Rotate180,
            Symmetry::FlipDiagonal
        ]
    );
}

#[test]
fn passes_are_dropped_and_found_again() {
    let is_pass = |m: &RecordedMove| m.token == Token::Move(Move::Pass);
    let mut rng = Rng::new(0x5eed);
    let play = Play {
        written_passes: 100,
        ..Play::WHOLE
    };
    let game = std::iter::repeat_with(|| random_game(&mut rng, play))
        .take(100)
        .find(|g| g.moves.iter().any(is_pass))
        .expect("one of 100 random games has a pass");
    let (bytes, _, results) = write_games(std::slice::from_ref(&game));
    assert!(results[0].is_ok());
    let back = read_all(&bytes, true).pop().unwrap().unwrap();
    let symmetry = encode(&game, &game.replay(), 1).unwrap().symmetry;
    let placed: Vec<RecordedMove> = game
        .moves
        .iter()
        .filter(|m| !is_pass(m))
        .map(|m| match m.token {
            Token::Move(Move::Play(sq)) => RecordedMove::new(Move::Play(sq.transform(symmetry))),
            _ => *m,
        })
        .collect();
    assert_eq!(back.moves, placed);
    let (a, b) = (game.replay(), back.replay());
    assert!(a.finish.passes > 0);
    assert_eq!(b.finish.passes, a.finish.passes);
    assert_eq!(b.status(), Status::Complete);
    assert_eq!(b.finish.score, a.finish.score);
}

#[test]
fn refusals_name_the_reason() {
    let refusal = |g: &GameRecord| match write_games(std::slice::from_ref(g)).2.pop() {
        Some(Err(WriteError::Refused(r))) => r.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    };
    let mut g = transcript("f5");
    g.start = Position::start().swapped();
    assert_eq!(refusal(&g), "non-standard start position");
    let mut g = transcript("f5d6");
    g.rules = Rules::Anti;
    assert_eq!(refusal(&g), "anti rules");
    assert_eq!(refusal(&transcript("f5 d6 i9 c3")), "unreadable move 3: i9");
    assert_eq!(
        refusal(&transcript("f5d6c5f4e3f6d3f3d7")),
        "invalid game: move 7 (black) d3: flips nothing"
    );
    let mut g = transcript("f5d6");
    g.defect = Some(binary_error(3, 1, "broken".into()));
    assert_eq!(refusal(&g), "invalid game: broken");
    // Nothing is written for a refused game.
    let (bytes, _, _) = write_games(&[transcript("f5 zz"), transcript("f5d6")]);
    assert_eq!(bytes.len(), 16 + 68);
    assert_eq!(&bytes[4..8], &[1, 0, 0, 0]);
}

#[test]
fn score_bytes_follow_the_documented_rules() {
    // Complete: the computed score, even against a recorded result.
    let mut complete = transcript("f5d6c5f6e7f4g5e6e3");
    complete.result = Some(RecordedResult::new(ResultValue::Discs {
        black: 40,
        white: 24,
    }));
    // Incomplete with a recorded score: kept.
    let mut resigned = transcript("f5d6c3");
    resigned.result = Some(RecordedResult::new(ResultValue::Margin(-64.0)));
    resigned.theoretical_black_score = Some(30);
    // Incomplete without one: the board's score, empties to the
    // side ahead (6-3 with 55 empties).
    let bare = transcript("f5d6c3d3c4");
    let games = [complete, resigned, bare];
    let encoded: Vec<(u8, u8)> = games
        .iter()
        .map(|g| encode(g, &g.replay(), 1).unwrap())
        .map(|e| (e.score, e.theoretical))
        .collect();
    assert_eq!(encoded, [(64, 64), (0, 30), (61, 61)]);
}

#[test]
fn ids_are_given_in_first_seen_order_with_zero_for_unknown() {
    let mut a = transcript("f5d6");
    a.tags.black = Some("Tastet Marc".into());
    a.tags.white = Some("Müller Jörg".into());
    a.tags.event = Some("Open".into());
    a.tags.date = Some("2003.12.15_13:24:03.MST".into());
    let mut b = transcript("f5f6");
    b.tags.black = Some("Müller Jörg".into());
    b.tags.white = None;
    b.tags.event = Some("Open".into());
    b.tags.date = Some("1999".into());
    let mut c = transcript("f5f4");
    c.tags.black = Some("A very long player name indeed".into());
    c.tags.white = Some("A very long player name too".into());
    let (bytes, names, _) = write_games(&[a, b, c]);
    assert_eq!(
        names.players,
        ["?", "Tastet Marc", "Müller Jörg", "A very long player "]
    );
    assert_eq!(names.tournaments, ["?", "Open"]);
    let ids = |i: usize| {
        let r = &bytes[16 + 68 * i..];
        [
            u16::from_le_bytes([r[0], r[1]]),
            u16::from_le_bytes([r[2], r[3]]),
            u16::from_le_bytes([r[4], r[5]]),
        ]
    };
    assert_eq!(ids(0), [1, 1, 2]);
    assert_eq!(ids(1), [1, 2, 0]);
    assert_eq!(ids(2), [0, 3, 3], "names equal once truncated share an id");
    assert_eq!(
        header_of(&bytes),
        Header {
            created: (20, 26, 3, 1),
            depth: 1,
            ..header(3, 2003, 8, 0)
        }
    );
}

#[test]
fn header_year_from_options_or_zero() {
    assert_eq!(year_of("1977"), Some(1977));
    assert_eq!(year_of("2022-01-17 12:52:30 GMT"), Some(2022));
    assert_eq!(year_of("947375357"), None);
    assert_eq!(year_of("15.12.2003"), None);
    let mut opts = options();
    opts.year = Some(1980);
    opts.depth = 24;
    let mut w = Writer::new(Cursor::new(Vec::new()), opts).unwrap();
    let g = transcript("f5");
    w.write(&g, &g.replay(), &mut NameBook::default()).unwrap();
    assert_eq!(w.games(), 1);
    let (out, _) = w.finish().unwrap();
    let bytes = out.into_inner();
    assert_eq!(&bytes[10..16], &[0xbc, 0x07, 8, 0, 24, 0]);
    let (bytes, _, _) = write_games(&[transcript("f5")]);
    assert_eq!(&bytes[10..12], &[0, 0]);
}

#[test]
fn the_writer_starts_where_the_output_stands() {
    let mut out = Cursor::new(b"prefix".to_vec());
    out.seek(SeekFrom::End(0)).unwrap();
    let mut w = Writer::new(out, options()).unwrap();
    let g = transcript("f5d6");
    w.write(&g, &g.replay(), &mut NameBook::default()).unwrap();
    let (out, _) = w.finish().unwrap();
    let bytes = out.into_inner();
    assert_eq!(&bytes[..6], b"prefix");
    assert_eq!(bytes.len(), 6 + 16 + 68);
    assert_eq!(bytes[6 + 4], 1);
    assert_eq!(&bytes[6 + 16 + 8..6 + 16 + 11], &[56, 64, 0]);
}

#[test]
fn random_games_round_trip() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mut games = Vec::new();
    for i in 0..2000u32 {
        // Every fifth game played to its end, the others stopped anywhere;
        // passes written in every other game.
        let play = Play {
            stop: if i % 5 == 0 { 0 } else { 3 },
            written_passes: if i % 2 == 0 { 100 } else { 0 },
            odd_start: 0,
        };
        let mut g = random_game(&mut rng, play);
        // A pass after the last move is no pass the replay finds again
        // (WTHOR loses it, as it says); the games here go on after theirs.
        if g.moves
            .last()
            .is_some_and(|m| m.token == Token::Move(Move::Pass))
        {
            g.moves.pop();
        }
        g.tags.black = Some(format!("Player {}", i % 37));
        g.tags.white = Some(format!("Joueur é{}", i % 41));
        g.tags.event = Some(format!("Event {}", i % 5));
        games.push(g);
    }
    let (bytes, names, results) = write_games(&games);
    assert!(results.iter().all(Result::is_ok));
    let names = Arc::new(names);
    let back: Vec<GameRecord> = Reader::new(&bytes[..], Some(names))
        .with_size(bytes.len() as u64)
        .map(Result::unwrap)
        .collect();
    assert_eq!(back.len(), games.len());
    let mut complete = 0;
    for (g, b) in games.iter().zip(&back) {
        let want = encode(g, &g.replay(), 1).unwrap();
        let mut turned = String::new();
        for m in &g.moves {
            if let Token::Move(Move::Play(sq)) = m.token {
                turned.push_str(&sq.transform(want.symmetry).to_string());
            }
        }
        assert_eq!(b.move_string(), turned);
        let (r, s) = (g.replay(), b.replay());
        assert_eq!(r.status(), s.status());
        assert_eq!(r.finish.passes, s.finish.passes);
        assert_eq!(r.finish.score.black_score, s.finish.score.black_score);
        if r.status() == Status::Complete {
            complete += 1;
            assert!(b.result.unwrap().agrees_with(&s.finish.score));
        }
        assert_eq!(b.tags.black, g.tags.black);
        assert_eq!(b.tags.white, g.tags.white);
        assert_eq!(b.tags.event, g.tags.event);
    }
    assert!(complete > 100, "{complete} complete games");
}

#[test]
fn theoretical_scores_follow_the_depth_rule() {
    let theoretical = |g: &GameRecord, depth: u8| {
        let e = encode(g, &g.replay(), depth).unwrap();
        (e.theoretical, e.theoretical_unverified)
    };
    // A finished game, 64-0 with 51 empties.
    let mut won = transcript("f5d6c5f6e7f4g5e6e3");
    assert_eq!(theoretical(&won, 1), (64, false), "depth 1: the score");
    assert_eq!(theoretical(&won, 24), (64, false), "ended with 51 empties");
    assert_eq!(theoretical(&won, 60), (64, true), "51 < 60: not known");
    // Stored at depth 24 by a WTHOR file: kept at depth 24 only.
    won.theoretical_black_score = Some(60);
    won.theoretical_depth = Some(24);
    assert_eq!(theoretical(&won, 24), (60, false));
    assert_eq!(
        theoretical(&won, 1),
        (64, false),
        "--depth 1 asks for the score"
    );
    assert_eq!(theoretical(&won, 60), (60, true));
    // Of an unknown depth (a CSV column): kept as recorded, unverified.
    won.theoretical_depth = None;
    assert_eq!(theoretical(&won, 1), (60, true));
}

#[test]
fn a_recorded_score_that_differs_from_the_replay_is_replaced_and_said() {
    let mut g = transcript("f5d6c5f6e7f4g5e6e3");
    g.result = Some(RecordedResult::new(ResultValue::Discs {
        black: 40,
        white: 24,
    }));
    let e = encode(&g, &g.replay(), 1).unwrap();
    assert_eq!((e.score, e.score_replaced), (64, true));
    g.result = Some(RecordedResult::new(ResultValue::Discs {
        black: 64,
        white: 0,
    }));
    assert!(!encode(&g, &g.replay(), 1).unwrap().score_replaced);
}

#[test]
fn writer_counts_games_of_other_years() {
    let mut book = NameBook::default();
    let mut w = Writer::new(Cursor::new(Vec::new()), options()).unwrap();
    for date in ["2004", "2008", "2004.05.12", "2008", "2008", "no date"] {
        let mut g = transcript("f5d6");
        g.tags.date = Some(date.to_owned());
        w.write(&g, &g.replay(), &mut book).unwrap();
    }
    let (_, stats) = w.finish().unwrap();
    assert_eq!(stats.year, 2004);
    assert_eq!(stats.games, 6);
    assert_eq!(stats.other_years, BTreeMap::from([(2008, 3)]));
}

#[test]
fn an_unfinished_game_with_only_a_winner_gives_the_winner_the_discs() {
    let mut g = transcript("f5d6c3d3c4f4");
    assert_eq!(g.replay().finish.score.winner, Winner::Draw);
    for (result, byte) in [(Winner::White, 0), (Winner::Black, 64), (Winner::Draw, 32)] {
        g.result = Some(RecordedResult::new(ResultValue::Winner(result)));
        assert_eq!(encode(&g, &g.replay(), 1).unwrap().score, byte, "{result}");
    }
    // A board that agrees with the winner keeps its own score.
    let mut g = transcript("f5d6c3");
    g.result = Some(RecordedResult::new(ResultValue::Winner(Winner::Black)));
    assert_eq!(
        encode(&g, &g.replay(), 1).unwrap().score,
        62,
        "5-2 and 57 empties"
    );
}
