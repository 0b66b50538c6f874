//! Reading: the header, the records, sniffing, short reads, any bytes.

use std::io::{self, Read};

use crate::engine::game::Winner;
use crate::formats::wthor::names::*;
use crate::formats::wthor::read::*;
use crate::formats::wthor::tests::{
    error_message, file, fixture, header, header_bytes, header_of, read_all, record_bytes,
};
use crate::formats::wthor::*;
use crate::record::source::ReadError;
use crate::record::{GameError, Origin, Quirk, RecordedResult, ResultKind, ResultValue, Token};
use crate::testkit::transcript;
use crate::ReplayErrorKind;
use crate::{GameRecord, Square, Status};

#[test]
fn header_round_trips_and_reads_the_fixture() {
    let bytes = std::fs::read(fixture("SAMPLE.wtb")).unwrap();
    let h = header_of(&bytes);
    assert_eq!(h, header(3, 1977, 8, 0));
    assert_eq!(h.created_date(), (2026, 2, 16));
    assert_eq!(h.to_bytes()[..], bytes[..16]);
}

#[test]
fn truncated_header_is_an_error() {
    let bytes = &header_bytes(0, 0, 8, 0)[..10];
    for sized in [false, true] {
        let items = read_all(bytes, sized);
        assert_eq!(items.len(), 1);
        assert_eq!(error_message(&items[0]), "truncated header: 10 of 16 bytes");
    }
    assert_eq!(read_all(&[], false).len(), 1);
}

#[test]
fn board_size_ten_is_unsupported() {
    let items = read_all(&header_bytes(0, 0, 10, 0), true);
    assert_eq!(items.len(), 1);
    assert_eq!(error_message(&items[0]), "unsupported board size 10x10");
    let Err(ReadError::Syntax(e)) = &items[0] else {
        unreachable!()
    };
    assert_eq!(e.span.byte, 12);
    let items = read_all(&header_bytes(0, 0, 6, 0), true);
    assert_eq!(
        error_message(&items[0]),
        "unsupported board size byte 6 (expected 0 or 8)"
    );
}

#[test]
fn board_size_zero_and_eight_are_both_eight_by_eight() {
    for size in [0, 8] {
        let mut f = header_bytes(1, 0, size, 0);
        f.extend(record_bytes([0, 0, 0], 64, 64, "f5d6c5f6e7f4g5e6e3"));
        let items = read_all(&f, true);
        assert_eq!(items.len(), 1);
        let g = items[0].as_ref().unwrap();
        assert_eq!(g.move_string(), "f5d6c5f6e7f4g5e6e3");
        assert_eq!(g.tags.date, None);
    }
}

#[test]
fn solitaire_files_are_unsupported() {
    let items = read_all(&header_bytes(0, 0, 8, 1), false);
    assert_eq!(items.len(), 1);
    assert_eq!(
        error_message(&items[0]),
        "solitaire files are unsupported (game type 1)"
    );
}

#[test]
fn game_count_against_a_known_size() {
    // Every whole record is read before the count is reported.
    let game = record_bytes([0, 0, 0], 64, 64, "f5d6c5f6e7f4g5e6e3");
    let mut more = header_bytes(3, 0, 8, 0);
    more.extend(&game);
    more.extend(&game);
    let items = read_all(&more, true);
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok());
    assert_eq!(
        error_message(&items[2]),
        "header says 3 games but the file holds 2: record 3 at byte 152 is missing"
    );
    let mut fewer = header_bytes(1, 0, 8, 0);
    fewer.extend(&game);
    fewer.extend(&game);
    let items = read_all(&fewer, true);
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    assert_eq!(
        error_message(&items[1]),
        "header says 1 game but the file holds 2"
    );
    let mut ragged = header_bytes(2, 0, 8, 0);
    ragged.extend(&game);
    ragged.extend(&game);
    ragged.extend([0; 5]);
    let items = read_all(&ragged, true);
    assert_eq!(items.len(), 3);
    assert_eq!(
        error_message(&items[2]),
        "header says 2 games but the file holds 2 games and 5 more bytes"
    );
}

#[test]
fn game_count_checked_at_the_end_when_the_size_is_unknown() {
    let game = record_bytes([0, 0, 0], 64, 64, "f5d6c5f6e7f4g5e6e3");
    let mut more = header_bytes(3, 0, 8, 0);
    more.extend(&game);
    more.extend(&game);
    let items = read_all(&more, false);
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok());
    assert_eq!(
        error_message(&items[2]),
        "header says 3 games but the file holds 2: record 3 at byte 152 is missing"
    );

    let mut cut = more.clone();
    cut.extend(&game[..20]);
    let items = read_all(&cut, false);
    assert_eq!(items.len(), 3);
    assert_eq!(
        error_message(&items[2]),
        "record 3 at byte 152 is truncated: 20 of 68 bytes (header says 3 games)"
    );
    let Err(ReadError::Syntax(e)) = &items[2] else {
        unreachable!()
    };
    assert_eq!((e.span.byte, e.span.len), (152, 20));

    let mut fewer = header_bytes(1, 0, 8, 0);
    fewer.extend(&game);
    fewer.extend(&game);
    fewer.extend([1, 2, 3]);
    let items = read_all(&fewer, false);
    assert_eq!(items.len(), 2);
    assert_eq!(
        error_message(&items[1]),
        "header says 1 game but the file holds 2 games and 3 more bytes"
    );
}

#[test]
fn read_header_is_eager_and_the_iterator_stops_after_an_error() {
    let mut reader = Reader::new(&[0u8; 4][..], None);
    assert!(reader.header().is_none());
    assert!(reader.read_header().is_err());
    assert!(reader.next().is_none());
    let bytes = file(&[]);
    let mut reader = Reader::new(&bytes[..], None);
    assert_eq!(reader.read_header().unwrap().year, 1977);
    assert_eq!(reader.header().map(|h| h.games), Some(0));
    assert!(reader.next().is_none());
}

// --- records ------------------------------------------------------

#[test]
fn fixture_games_with_names() {
    let mut reader = Reader::open(&fixture("SAMPLE.wtb")).unwrap();
    let games: Vec<GameRecord> = reader.by_ref().map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(reader.header().unwrap().depth, 24);
    let names = reader.names().unwrap();
    assert_eq!(names.players[3], "Müller Jörg");
    assert!(names.warnings.is_empty());

    let g = &games[0];
    assert_eq!(g.move_string(), "f5d6c5f6e7f4g5e6e3");
    assert_eq!(g.tags.event.as_deref(), Some("Préqualif de Paris"));
    assert_eq!(g.tags.black.as_deref(), Some("Tastet Marc"));
    assert_eq!(g.tags.white.as_deref(), Some("Penloup Dominique"));
    assert_eq!(g.tags.date.as_deref(), Some("1977"));
    assert_eq!(
        g.result,
        Some(RecordedResult::new(ResultValue::Discs {
            black: 64,
            white: 0
        }))
    );
    assert_eq!(g.theoretical_black_score, Some(64));
    assert_eq!(
        g.origin,
        Origin {
            index: 1,
            line: None,
            byte: 16,
            text: None,
        }
    );
    assert_eq!(
        g.spans,
        crate::MoveSpans::Every {
            first: crate::Span::binary(16 + 8, 1),
            stride: 1
        }
    );
    assert_eq!(
        g.span(2).unwrap(),
        crate::Span {
            byte: 16 + 8 + 2,
            line: 0,
            column: 0,
            len: 1
        }
    );
    assert!(g.defect.is_none());

    let g = &games[1];
    assert_eq!(g.tags.event.as_deref(), Some("Coupe d'Europe à Paris"));
    assert_eq!(g.tags.white.as_deref(), Some("Müller Jörg"));
    assert_eq!(g.theoretical_black_score, Some(30));
    let score = g.replay().final_score().unwrap();
    assert_eq!((score.black_score, score.winner), (32, Winner::Draw));
    assert_eq!(g.origin.byte, 16 + 68);

    let g = &games[2];
    assert_eq!(g.tags.event.as_deref(), Some("Diverses parties"));
    assert_eq!(
        g.tags.black.as_deref(),
        Some("#9"),
        "id 9 is past the table"
    );
    assert!(g.quirks.contains(Quirk::BlackUnnamed));
    assert!(!g.quirks.contains(Quirk::WhiteUnnamed));
    assert_eq!(g.tags.white.as_deref(), Some("Tastet Marc"));
    assert_eq!(g.replay().status(), Status::Incomplete);
    assert_eq!(g.result.unwrap().black_score(), Some(40));
    assert_eq!(g.origin.index, 3);
}

#[test]
fn reading_without_names_leaves_tags_empty() {
    let bytes = std::fs::read(fixture("SAMPLE.wtb")).unwrap();
    let games: Vec<GameRecord> = Reader::new(&bytes[..], None).map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);
    assert!(games
        .iter()
        .all(|g| g.tags.black.is_none() && g.tags.event.is_none()));
    assert_eq!(games[1].tags.date.as_deref(), Some("1977"));
}

#[test]
fn bytes_that_are_not_squares_are_unreadable() {
    let mut r = record_bytes([0, 0, 0], 32, 32, "f5d6");
    r[10] = 99;
    r[11] = 19;
    r[12] = 50;
    r[13] = 44;
    let f = file(&[r]);
    let g = read_all(&f, true).pop().unwrap().unwrap();
    assert_eq!(g.moves.len(), 6);
    assert_eq!(g.moves[2].token, Token::Unreadable);
    assert_eq!(g.token_text(2), "byte 99");
    assert_eq!(g.token_text(3), "byte 19");
    assert_eq!(g.token_text(4), "byte 50");
    assert_eq!(g.token_text(5), "d4");
    assert_eq!(g.move_string(), "f5d6byte 99byte 19byte 50d4");
    assert!(g.defect.is_none());
    let report = g.replay();
    let Some(GameError::Replay(e)) = report.error else {
        panic!("expected a replay error")
    };
    assert_eq!((e.number, e.kind), (3, ReplayErrorKind::NotASquare));
    assert_eq!(e.token, "byte 99");
    assert_eq!(g.span(2).unwrap().byte, 16 + 8 + 2);
}

#[test]
fn move_after_the_end_of_the_moves_is_a_defect() {
    let mut r = record_bytes([0, 0, 0], 32, 32, "f5d6c3");
    r[8 + 5] = 45;
    let f = file(&[r.clone(), r]);
    let items = read_all(&f, true);
    let g = items[1].as_ref().unwrap();
    assert_eq!(g.move_string(), "f5d6c3");
    let d = g.defect.as_ref().unwrap();
    let at = 16 + 68 + 8 + 5;
    assert_eq!(d.span.byte, at);
    assert_eq!(
        d.message,
        format!("move byte 45 after the end of the moves (record 2, byte {at})")
    );
    assert_eq!(g.replay().status(), Status::Invalid);
}

#[test]
fn scores_over_64_read_as_no_score_with_a_note() {
    // Edax stores 225 as the score of an unfinished game.
    let f = file(&[record_bytes([0, 0, 0], 225, 80, "f5")]);
    let g = read_all(&f, true).pop().unwrap().unwrap();
    assert_eq!(g.result, None);
    assert_eq!(g.theoretical_black_score, None);
    assert!(g.defect.is_none());
    assert!(g.quirks.contains(Quirk::ScoreOver64));
    assert!(g.quirks.contains(Quirk::TheoreticalOver64));
    assert_eq!(g.replay().status(), Status::Incomplete);
    let f = file(&[record_bytes([0, 0, 0], 10, 65, "f5")]);
    let g = read_all(&f, true).pop().unwrap().unwrap();
    assert!(g.defect.is_none());
    assert!(!g.quirks.contains(Quirk::ScoreOver64));
    assert_eq!(g.result.unwrap().black_score(), Some(10));
}

#[test]
fn edax_padding_with_92_ends_the_moves() {
    let mut record = record_bytes([0, 0, 0], 225, 225, "f5d6c3");
    record[8 + 3..].fill(92);
    let g = read_all(&file(&[record.clone()]), true)
        .pop()
        .unwrap()
        .unwrap();
    assert_eq!(g.move_string(), "f5d6c3");
    assert!(g.defect.is_none());
    assert!(g.quirks.contains(Quirk::PaddedWith92));
    assert_eq!(g.replay().status(), Status::Incomplete);
    // Padding then zeros reads the same; a move after the padding is not
    // padding.
    record[8 + 10..].fill(0);
    let g = read_all(&file(&[record.clone()]), true)
        .pop()
        .unwrap()
        .unwrap();
    assert_eq!((g.moves.len(), g.defect.is_none()), (3, true));
    record[8 + 20] = 44;
    let g = read_all(&file(&[record]), true).pop().unwrap().unwrap();
    assert_eq!(
        g.defect.unwrap().message,
        "move byte 44 after the end of the moves (record 1, byte 44)"
    );
}

#[test]
fn a_record_with_no_moves() {
    let f = file(&[record_bytes([0, 0, 0], 64, 64, "")]);
    let g = read_all(&f, true).pop().unwrap().unwrap();
    assert!(g.moves.is_empty() && g.span(0).is_none());
    assert_eq!(g.replay().status(), Status::Incomplete);
}

#[test]
fn sniff_knows_game_files() {
    let bytes = std::fs::read(fixture("SAMPLE.wtb")).unwrap();
    assert!(sniff(&bytes));
    assert!(sniff(&bytes[..16]));
    assert!(!sniff(&bytes[..15]));
    assert!(!sniff(b"f5d6c3d3c4f4f6f3e6e7d7c6b5\n"));
    assert!(!sniff(b"(;GM[Othello]PC[NBoard]DT[2014]"));
    assert!(!sniff(&std::fs::read(fixture("sample.jou")).unwrap()));
    let mut bad = bytes.clone();
    bad[16 + 8] = 99;
    assert!(!sniff(&bad));
    let mut bad = bytes;
    bad[2] = 13;
    assert!(!sniff(&bad));
}

#[test]
fn losses_name_what_wthor_cannot_keep() {
    let mut g = transcript("d3 c5 f6 f5 e6 e3");
    g.notes = vec![
        crate::MoveNote {
            eval: Some(1.0),
            time: Some(2.0)
        };
        6
    ];
    g.tags.site = Some("GGS".into());
    g.tags.round = Some("3".into());
    g.tags.black_rating = Some("1800".into());
    g.tags.date = Some("2003.12.15".into());
    g.tags.extra.push(("TY".into(), "8".into()));
    g.tags.black = Some("A name of twenty chars".into());
    g.tags.event = Some("Tōkyō".into());
    g.result = Some(RecordedResult {
        value: ResultValue::Winner(Winner::White),
        kind: ResultKind::Resigned,
    });
    let mut out = crate::formats::Format::Wthor.losses_of(&g);
    // Each is named once; the order is the catalogue's.
    out.sort_unstable();
    let mut expected = [
        "per-move evaluations",
        "per-move times",
        "the site",
        "the round",
        "player ratings",
        "the exact date (only the year of the file)",
        "other tags",
        "the orientation of games not opening with f5",
        "player names over 19 bytes",
        "characters outside Latin-1 in names",
        "how the game ended (resignation, time, agreement)",
        "a result that is not a disc count",
    ];
    expected.sort_unstable();
    assert_eq!(out, expected);
    let mut plain = transcript("f5d6");
    plain.tags.date = Some("1977".into());
    plain.tags.black = Some("Müller Jörg".into());
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Wthor.losses_of(&plain));
    assert!(out.is_empty(), "{out:?}");
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Wthor.losses_of(&transcript("f5d6c5f6e7f4g5e6e3 1-0")));
    assert!(out.is_empty(), "complete games carry their winner: {out:?}");
}

#[test]
fn square_bytes() {
    let name = |b: u8| square_of_byte(b).map(|s| s.to_string());
    assert_eq!(name(11).as_deref(), Some("a1"));
    assert_eq!(name(18).as_deref(), Some("h1"));
    assert_eq!(name(81).as_deref(), Some("a8"));
    assert_eq!(name(88).as_deref(), Some("h8"));
    assert_eq!(name(56).as_deref(), Some("f5"));
    for bad in [0, 9, 10, 19, 20, 89, 90, 91, 99, 255] {
        assert_eq!(name(bad), None, "{bad}");
    }
    for sq in Square::all() {
        assert_eq!(square_of_byte(byte_of_square(sq)), Some(sq));
    }
    // The decoder's table says the same of every byte.
    for b in 0..=255u8 {
        let token =
            square_of_byte(b).map_or(Token::Unreadable, |sq| Token::Move(crate::Move::Play(sq)));
        assert_eq!(TOKENS[usize::from(b)], token, "{b}");
    }
}

/// An input that hands out at most 7 bytes a read and is interrupted
/// every third call.
struct Trickle<'a> {
    data: &'a [u8],
    calls: u32,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(3) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(7).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn short_and_interrupted_reads_give_the_same_games() {
    let bytes = std::fs::read(fixture("SAMPLE.wtb")).unwrap();
    let whole: Vec<GameRecord> = Reader::new(&bytes[..], None).map(Result::unwrap).collect();
    let input = Trickle {
        data: &bytes,
        calls: 0,
    };
    let trickled: Vec<GameRecord> = Reader::new(input, None).map(Result::unwrap).collect();
    assert_eq!(trickled, whole);
    assert_eq!(trickled.len(), 3);
}

proptest::proptest! {
    #[test]
    fn any_record_bytes_read_consistently(
        body in proptest::collection::vec(proptest::prelude::any::<u8>(), 3 * RECORD_LEN),
    ) {
        let mut bytes = header_bytes(3, 1977, 8, 0);
        bytes.extend(&body);
        let games: Vec<GameRecord> = Reader::new(&bytes[..], None)
            .with_size(bytes.len() as u64)
            .map(Result::unwrap)
            .collect();
        proptest::prop_assert_eq!(games.len(), 3);
        for (i, g) in games.iter().enumerate() {
            let record = &body[i * RECORD_LEN..(i + 1) * RECORD_LEN];
            proptest::prop_assert!(g.moves.len() <= 60);
            proptest::prop_assert!(g.spans.each().is_empty() && g.span(g.moves.len()).is_none());
            for (at, _) in &g.unreadable {
                proptest::prop_assert_eq!(g.moves[*at].token, Token::Unreadable);
            }
            let end = record[8..].iter().position(|&b| b == 0 || b == 92).unwrap_or(60);
            proptest::prop_assert_eq!(g.moves.len(), end);
            let rest = &record[8 + end..];
            let padded = rest.iter().take_while(|&&b| b == 92).count();
            let bad = rest[padded..].iter().any(|&b| b != 0);
            proptest::prop_assert_eq!(g.defect.is_some(), bad);
            proptest::prop_assert_eq!(g.result.is_none(), record[6] > 64);
            proptest::prop_assert_eq!(g.quirks.contains(Quirk::PaddedWith92), padded > 0);
            let _ = g.replay();
        }
    }

    #[test]
    fn any_bytes_end_in_games_or_one_error(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
    ) {
        let items: Vec<_> = Reader::new(&bytes[..], None).collect();
        let errors = items.iter().filter(|i| i.is_err()).count();
        proptest::prop_assert!(errors <= 1);
        if errors == 1 {
            proptest::prop_assert!(items.last().is_some_and(Result::is_err));
        }
        let _ = sniff(&bytes);
        if let Ok(list) = Names::read_players(&bytes) {
            proptest::prop_assert_eq!(list.names.len(), (bytes.len() - 16).div_ceil(20));
        }
    }
}

#[test]
fn the_move_list_ends_at_the_first_zero_or_padding_byte() {
    let mut rng = crate::testkit::Rng::new(11);
    for _ in 0..20_000 {
        let mut moves = [0u8; 60];
        let end = rng.below(61);
        for (i, b) in moves.iter_mut().enumerate() {
            // Bytes near the two that end a list, and any byte.
            *b = match (i < end, rng.below(4)) {
                (false, 0) => 92,
                (false, _) => 0,
                (true, 0) => rng.pick(&[1, 91, 93, 128, 255]),
                (true, _) => u8::try_from(rng.below(256)).unwrap(),
            };
        }
        let naive = moves.iter().position(|&b| b == 0 || b == 92).unwrap_or(60);
        assert_eq!(read::moves_end(&moves), naive, "{moves:?}");
    }
}
