//! Tests of the WTHOR reader and writer.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::formats::format::WriteError;
use crate::formats::wthor::header::binary_error;
use crate::formats::wthor::names::*;
use crate::formats::wthor::read::*;
use crate::formats::wthor::write::*;
use crate::formats::wthor::*;
use crate::game::Move;
use crate::game::Winner;
use crate::record::{
    GameError, Origin, Quirk, RecordedMove, RecordedResult, ResultKind, ResultValue, Rules, Tags,
    Token,
};
use crate::source::ReadError;
use crate::ReplayErrorKind;
use crate::{GameRecord, Position, Square, Status, Symmetry};
use std::io::Cursor;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/wthor")
        .join(name)
}

/// The shared corpus: `KIFU_CORPUS` or `../shared/corpus`; `None`
/// with a notice outside CI, a failure in CI.
use crate::testkit::corpus;

fn header_bytes(games: u32, year: u16, board_size: u8, kind: u8) -> Vec<u8> {
    Header {
        created: (20, 26, 2, 16),
        games,
        names: 0,
        year,
        board_size,
        kind,
        depth: 24,
    }
    .to_bytes()
    .to_vec()
}

/// A record with these ids, scores and moves (`f5d6…`).
fn record_bytes(ids: [u16; 3], score: u8, theoretical: u8, moves: &str) -> Vec<u8> {
    let mut r = Vec::with_capacity(RECORD_LEN);
    for id in ids {
        r.extend_from_slice(&id.to_le_bytes());
    }
    r.push(score);
    r.push(theoretical);
    for pair in moves.as_bytes().chunks(2) {
        let sq = Square::from_ascii(pair).expect("a square");
        r.push(byte_of_square(sq));
    }
    r.resize(RECORD_LEN, 0);
    r
}

fn file(games: &[Vec<u8>]) -> Vec<u8> {
    let mut f = header_bytes(games.len() as u32, 1977, 8, 0);
    for g in games {
        f.extend_from_slice(g);
    }
    f
}

fn read_all(bytes: &[u8], sized: bool) -> Vec<Result<GameRecord, ReadError>> {
    let reader = Reader::new(bytes, None);
    let reader = if sized {
        reader.with_size(bytes.len() as u64)
    } else {
        reader
    };
    reader.collect()
}

fn error_message(item: &Result<GameRecord, ReadError>) -> String {
    match item {
        Err(ReadError::Syntax(e)) => e.message.clone(),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

fn parse(moves: &str) -> GameRecord {
    use crate::formats::transcript::{parse_line, LineContext};
    let ctx = LineContext {
        line: 1,
        byte: 0,
        index: 1,
    };
    parse_line(moves.as_bytes(), ctx).expect("a game")
}

fn options() -> WriterOptions {
    WriterOptions::new(2026, 3, 1)
}

fn write_games(games: &[GameRecord]) -> (Vec<u8>, Names, Vec<Result<(), WriteError>>) {
    let mut writer = Writer::new(Cursor::new(Vec::new()), options()).unwrap();
    let mut book = NameBook::default();
    let results = games
        .iter()
        .map(|g| writer.write(g, &g.replay(), &mut book))
        .collect();
    let (out, _) = writer.finish().unwrap();
    (out.into_inner(), book.to_names(), results)
}

// --- header -------------------------------------------------------

#[test]
fn header_round_trips_and_reads_the_fixture() {
    let bytes = std::fs::read(fixture("SAMPLE.wtb")).unwrap();
    let head: [u8; 16] = bytes[..16].try_into().unwrap();
    let h = Header::from_bytes(&head);
    assert_eq!(
        h,
        Header {
            created: (20, 26, 2, 16),
            games: 3,
            names: 0,
            year: 1977,
            board_size: 8,
            kind: 0,
            depth: 24,
        }
    );
    assert_eq!(h.created_date(), (2026, 2, 16));
    assert_eq!(h.to_bytes(), head);
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

// --- names --------------------------------------------------------

fn name_file(names: &[&[u8]], claimed: u16, p1: u8, len: usize) -> Vec<u8> {
    let mut f = Header {
        names: claimed,
        board_size: p1,
        ..Header::default()
    }
    .to_bytes()
    .to_vec();
    for n in names {
        let mut rec = n.to_vec();
        rec.resize(len, 0);
        f.extend(rec);
    }
    f
}

#[test]
fn names_are_latin1_and_nul_terminated() {
    let f = name_file(
        &[b"???", b"Pr\xe9qualif de Paris", b"M\xfcller J\xf6rg"],
        3,
        0,
        26,
    );
    let list = Names::read_tournaments(&f).unwrap();
    assert_eq!(list.names, ["???", "Préqualif de Paris", "Müller Jörg"]);
    assert!(list.warnings.is_empty());
    // A record with no NUL keeps all its bytes.
    let f = name_file(&[b"ABCDEFGHIJKLMNOPQRST"], 1, 0, 20);
    assert_eq!(
        Names::read_players(&f).unwrap().names,
        ["ABCDEFGHIJKLMNOPQRST"]
    );
}

#[test]
fn name_header_count_off_by_one_is_a_warning() {
    let f = name_file(&[b"a", b"b", b"c"], 2, 124, 20);
    let list = Names::read_players(&f).unwrap();
    assert_eq!(list.names, ["a", "b", "c"]);
    assert_eq!(list.header.board_size, 124);
    assert_eq!(list.warnings, ["header says 2 names but the file holds 3"]);
}

#[test]
fn cut_short_name_record_is_kept_with_a_warning() {
    let mut f = name_file(&[b"a"], 2, 0, 20);
    f.extend(b"Bob");
    let list = Names::read_players(&f).unwrap();
    assert_eq!(list.names, ["a", "Bob"]);
    assert_eq!(
        list.warnings,
        [
            "header says 2 names but the file holds 1 name and 3 more bytes",
            "the last name record is cut short: 3 of 20 bytes"
        ]
    );
}

#[test]
fn name_file_shorter_than_its_header_is_an_error() {
    let e = Names::read_players(b"\x14\x1a").unwrap_err();
    assert_eq!(e.message, "truncated header: 2 of 16 bytes");
}

#[test]
fn name_files_are_written_in_latin1_and_truncated() {
    let names = [
        "?".to_owned(),
        "Müller Jörg".to_owned(),
        "小林 Kobayashi".to_owned(),
        "A name longer than nineteen bytes".to_owned(),
    ];
    let mut out = Vec::new();
    write_name_file(&mut out, &names, PLAYER_RECORD_LEN, (20, 26, 3, 1)).unwrap();
    assert_eq!(out.len(), 16 + 4 * 20);
    assert_eq!(
        &out[..16],
        &[20, 26, 3, 1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(&out[36..56], b"M\xfcller J\xf6rg\0\0\0\0\0\0\0\0\0");
    let list = Names::read_players(&out).unwrap();
    assert_eq!(
        list.names,
        ["?", "Müller Jörg", "?? Kobayashi", "A name longer than "]
    );
    assert!(list.warnings.is_empty());
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("kifu-wthor-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn touch(&self, names: &[&str]) {
        for n in names {
            std::fs::write(self.0.join(n), b"").unwrap();
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn found(dir: &TempDir, wtb: &str) -> (Option<String>, Option<String>) {
    let name = |p: Option<PathBuf>| {
        p.and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    };
    let f = find_name_files(&dir.0.join(wtb)).unwrap();
    (name(f.players), name(f.tournaments))
}

#[test]
fn name_files_are_found_by_stem_prefix_wthor_or_alone() {
    let dir = TempDir::new("find");
    dir.touch(&[
        "WTH_1977.wtb",
        "WTH.JOU",
        "wth.trn",
        "WTHOR.JOU",
        "other.jou",
    ]);
    assert_eq!(
        found(&dir, "WTH_1977.wtb"),
        (Some("WTH.JOU".into()), Some("wth.trn".into()))
    );
    // The WTHOR files when no stem matches; the only TRN.
    assert_eq!(
        found(&dir, "games.wtb"),
        (Some("WTHOR.JOU".into()), Some("wth.trn".into()))
    );
    dir.touch(&["games.Jou", "WTH_1977.TRN"]);
    // Two TRN files, neither named for games.wtb: no rule chooses.
    let err = find_name_files(&dir.0.join("games.wtb")).unwrap_err();
    assert_eq!(err.kind, "tournament");
    let names: Vec<_> = err
        .candidates
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["wth.trn", "WTH_1977.TRN"]);
    assert_eq!(
        found(&dir, "wth_1977.WTB"),
        (Some("WTH.JOU".into()), Some("WTH_1977.TRN".into()))
    );
    let empty = TempDir::new("find-empty");
    assert_eq!(found(&empty, "x.wtb"), (None, None));
}

#[test]
fn the_longest_stem_prefix_wins() {
    let dir = TempDir::new("prefix");
    dir.touch(&["QUEST.JOU", "QUEST_2023.JOU", "QUEST.TRN"]);
    assert_eq!(
        found(&dir, "QUEST_2023_1.wtb"),
        (Some("QUEST_2023.JOU".into()), Some("QUEST.TRN".into()))
    );
}

// --- writing ------------------------------------------------------

#[test]
fn every_opening_is_stored_from_f5() {
    let openings = [
        ("f5d6c3d3c4", "f5d6c3d3c4"),
        ("d3c5f6f5e6e3", "f5d6c3d3c4f4"),
        ("c4e3f6e6f5", "f5d6c3d3c4"),
        ("e6f4c3c4d3", "f5d6c3d3c4"),
    ];
    let games: Vec<GameRecord> = openings.iter().map(|(m, _)| parse(m)).collect();
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
    let mut rng = 0x5eed_u64;
    let game = std::iter::repeat_with(|| random_game(&mut rng, |_| true, true))
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
    let mut g = parse("f5");
    g.start = Position::start().swapped();
    assert_eq!(refusal(&g), "non-standard start position");
    let mut g = parse("f5d6");
    g.rules = Rules::Anti;
    assert_eq!(refusal(&g), "anti rules");
    assert_eq!(refusal(&parse("f5 d6 i9 c3")), "unreadable move 3: i9");
    assert_eq!(
        refusal(&parse("f5d6c5f4e3f6d3f3d7")),
        "invalid game: move 7 (black) d3: flips nothing"
    );
    let mut g = parse("f5d6");
    g.defect = Some(binary_error(3, 1, "broken".into()));
    assert_eq!(refusal(&g), "invalid game: broken");
    // Nothing is written for a refused game.
    let (bytes, _, _) = write_games(&[parse("f5 zz"), parse("f5d6")]);
    assert_eq!(bytes.len(), 16 + 68);
    assert_eq!(&bytes[4..8], &[1, 0, 0, 0]);
}

#[test]
fn score_bytes_follow_the_documented_rules() {
    // Complete: the computed score, even against a recorded result.
    let mut complete = parse("f5d6c5f6e7f4g5e6e3");
    complete.result = Some(RecordedResult::new(ResultValue::Discs {
        black: 40,
        white: 24,
    }));
    // Incomplete with a recorded score: kept.
    let mut resigned = parse("f5d6c3");
    resigned.result = Some(RecordedResult::new(ResultValue::Margin(-64.0)));
    resigned.theoretical_black_score = Some(30);
    // Incomplete without one: the board's score, empties to the
    // side ahead (6-3 with 55 empties).
    let bare = parse("f5d6c3d3c4");
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
    let mut a = parse("f5d6");
    a.tags.black = Some("Tastet Marc".into());
    a.tags.white = Some("Müller Jörg".into());
    a.tags.event = Some("Open".into());
    a.tags.date = Some("2003.12.15_13:24:03.MST".into());
    let mut b = parse("f5f6");
    b.tags.black = Some("Müller Jörg".into());
    b.tags.white = None;
    b.tags.event = Some("Open".into());
    b.tags.date = Some("1999".into());
    let mut c = parse("f5f4");
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
    let head: [u8; 16] = bytes[..16].try_into().unwrap();
    let h = Header::from_bytes(&head);
    assert_eq!(
        h,
        Header {
            created: (20, 26, 3, 1),
            games: 3,
            names: 0,
            year: 2003,
            board_size: 8,
            kind: 0,
            depth: 1,
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
    let g = parse("f5");
    w.write(&g, &g.replay(), &mut NameBook::default()).unwrap();
    assert_eq!(w.games(), 1);
    let (out, _) = w.finish().unwrap();
    let bytes = out.into_inner();
    assert_eq!(&bytes[10..16], &[0xbc, 0x07, 8, 0, 24, 0]);
    let (bytes, _, _) = write_games(&[parse("f5")]);
    assert_eq!(&bytes[10..12], &[0, 0]);
}

#[test]
fn the_writer_starts_where_the_output_stands() {
    let mut out = Cursor::new(b"prefix".to_vec());
    out.seek(SeekFrom::End(0)).unwrap();
    let mut w = Writer::new(out, options()).unwrap();
    let g = parse("f5d6");
    w.write(&g, &g.replay(), &mut NameBook::default()).unwrap();
    let (out, _) = w.finish().unwrap();
    let bytes = out.into_inner();
    assert_eq!(&bytes[..6], b"prefix");
    assert_eq!(bytes.len(), 6 + 16 + 68);
    assert_eq!(bytes[6 + 4], 1);
    assert_eq!(&bytes[6 + 16 + 8..6 + 16 + 11], &[56, 64, 0]);
}

#[test]
fn names_files_round_trip_through_disk() {
    let dir = TempDir::new("names");
    let mut g = parse("d3c5");
    g.tags.black = Some("Müller Jörg".into());
    g.tags.white = Some("Tastet Marc".into());
    g.tags.event = Some("Préqualif de Paris".into());
    let wtb = dir.0.join("OUT_2026.wtb");
    let mut w = Writer::new(File::create(&wtb).unwrap(), options()).unwrap();
    let mut book = NameBook::default();
    w.write(&g, &g.replay(), &mut book).unwrap();
    w.finish().unwrap();
    let archive = archive_name_files(&dir.0, "OUT_2026").unwrap();
    assert!(!archive.players_exist && !archive.tournaments_exist);
    let (jou, trn) = (archive.players, archive.tournaments);
    assert_eq!(jou, dir.0.join("OUT_2026.JOU"));
    let created = options().created;
    write_name_file(
        File::create(&jou).unwrap(),
        book.players(),
        PLAYER_RECORD_LEN,
        created,
    )
    .unwrap();
    let tournaments = book.tournaments();
    write_name_file(
        File::create(&trn).unwrap(),
        tournaments,
        TOURNAMENT_RECORD_LEN,
        created,
    )
    .unwrap();
    let found = find_name_files(&wtb).unwrap();
    assert_eq!((found.players, found.tournaments), (Some(jou), Some(trn)));
    let back: Vec<GameRecord> = Reader::open(&wtb).unwrap().map(Result::unwrap).collect();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].tags.black.as_deref(), Some("Müller Jörg"));
    assert_eq!(back[0].tags.white.as_deref(), Some("Tastet Marc"));
    assert_eq!(back[0].tags.event.as_deref(), Some("Préqualif de Paris"));
    assert_eq!(back[0].move_string(), "f5d6");
}

/// A random legal game, passes explicit when `passes`; plays while
/// `go_on` holds.
fn random_game(rng: &mut u64, go_on: impl Fn(&Position) -> bool, passes: bool) -> GameRecord {
    let mut next = || {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    };
    let mut pos = Position::start();
    let mut game = GameRecord::default();
    while !pos.is_game_over() && go_on(&pos) {
        let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
        if legal.is_empty() {
            pos.pass();
            if passes {
                game.moves.push(RecordedMove::new(Move::Pass));
            }
            continue;
        }
        let sq = legal[(next() % legal.len() as u64) as usize];
        pos.play(sq).unwrap();
        game.moves.push(RecordedMove::new(Move::Play(sq)));
    }
    game
}

#[test]
fn random_games_round_trip() {
    let mut rng = 0x1234_5678_9abc_def1_u64;
    let mut games = Vec::new();
    for i in 0..2000u32 {
        let stop = 4 + i % 70;
        let mut g = random_game(
            &mut rng,
            |p| p.board().black().count() + p.board().white().count() < stop + 4,
            i % 2 == 0,
        );
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

// --- sniff and losses --------------------------------------------

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
    let mut g = parse("d3 c5 f6 f5 e6 e3");
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
    let mut plain = parse("f5d6");
    plain.tags.date = Some("1977".into());
    plain.tags.black = Some("Müller Jörg".into());
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Wthor.losses_of(&plain));
    assert!(out.is_empty(), "{out:?}");
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Wthor.losses_of(&parse("f5d6c5f6e7f4g5e6e3 1-0")));
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
}

// --- corpus ---------------------------------------------------------

/// Every `.wtb` under `dir`, at any depth, any case of extension.
fn wtb_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            wtb_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            out.push(path);
        }
    }
}

/// Per-file counts of a corpus file.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    games: u64,
    complete: u64,
    incomplete: u64,
    invalid: u64,
    /// Complete games whose stored score is not the computed one.
    disagree: u64,
    /// Games whose names are all found.
    named: u64,
}

fn tally(path: &Path) -> Tally {
    let mut t = Tally::default();
    let mut reader = Reader::open(path).unwrap();
    let header = reader.read_header().unwrap();
    for (i, game) in reader.by_ref().enumerate() {
        let g = game.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(g.origin.index, i as u64 + 1);
        t.games += 1;
        let report = g.replay();
        match report.status() {
            Status::Complete => {
                t.complete += 1;
                let score = report.finish.score;
                if !g.result.unwrap().agrees_with(&score) {
                    t.disagree += 1;
                }
            }
            Status::Incomplete => t.incomplete += 1,
            Status::Invalid => t.invalid += 1,
        }
        if g.tags.black.is_some() && g.tags.white.is_some() && g.tags.event.is_some() {
            t.named += 1;
        }
    }
    assert_eq!(t.games, u64::from(header.games), "{}", path.display());
    t
}

/// Games, complete, incomplete, invalid, complete games whose stored
/// score disagrees, games with all three names, as measured (the
/// manifest's "unfinished transcripts" are the incomplete games).
const CORPUS: [(&str, [u64; 6]); 25] = [
    ("WTH_1977.wtb", [12, 12, 0, 0, 0, 12]),
    ("WTH_1978.wtb", [8, 8, 0, 0, 0, 8]),
    ("WTH_1979.wtb", [11, 11, 0, 0, 0, 11]),
    ("WTH_1980.wtb", [160, 160, 0, 0, 0, 160]),
    ("WTH_1984.wtb", [587, 579, 8, 0, 0, 587]),
    ("WTH_1988.wtb", [1823, 1815, 8, 0, 0, 1823]),
    ("WTH_1990.wtb", [2986, 2965, 21, 0, 0, 2986]),
    ("WTH_1994.wtb", [4343, 4281, 62, 0, 0, 4343]),
    ("WTH_1998.wtb", [8077, 8065, 12, 0, 0, 8077]),
    ("WTH_2000.wtb", [4253, 4220, 33, 0, 0, 4253]),
    ("WTH_2004.wtb", [9113, 9113, 0, 0, 0, 9113]),
    ("WTH_2008.wtb", [2232, 2232, 0, 0, 0, 2232]),
    ("WTH_2010.wtb", [2172, 2172, 0, 0, 0, 2172]),
    ("WTH_2014.wtb", [1817, 1817, 0, 0, 0, 1817]),
    ("WTH_2018.wtb", [2429, 2429, 0, 0, 0, 2429]),
    ("WTH_2019.wtb", [1983, 1983, 0, 0, 0, 1983]),
    ("WTH_2020.wtb", [896, 896, 0, 0, 0, 896]),
    ("WTH_2021.wtb", [680, 680, 0, 0, 0, 680]),
    ("WTH_2022.wtb", [1374, 1374, 0, 0, 0, 1374]),
    ("WTH_2023.wtb", [2478, 2478, 0, 0, 0, 2478]),
    ("WTH_2024.wtb", [2891, 2891, 0, 0, 0, 2891]),
    ("WTH_2025.wtb", [2920, 2920, 0, 0, 0, 2920]),
    ("Logistello_book_1999.wtb", [37709, 37709, 0, 0, 16, 0]),
    ("nboard-test.WTB", [1, 1, 0, 0, 0, 0]),
    ("PLAYOK_2023.wtb", [54366, 41031, 13335, 0, 0, 54366]),
];

#[test]
fn corpus_every_wtb_reads_fully_with_the_measured_counts() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    wtb_files(&dir.join("wthor"), &mut files);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut want: Vec<&str> = CORPUS.iter().map(|(n, _)| *n).collect();
    want.sort_unstable();
    let mut got: Vec<&str> = names.iter().map(String::as_str).collect();
    got.sort_unstable();
    assert_eq!(got, want);
    let mut wth = Tally::default();
    for (file, name) in files.iter().zip(&names) {
        let t = tally(file);
        let counts = [
            t.games,
            t.complete,
            t.incomplete,
            t.invalid,
            t.disagree,
            t.named,
        ];
        let expected = CORPUS.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(counts, expected, "{name}");
        if name.starts_with("WTH_") {
            wth.games += t.games;
            wth.complete += t.complete;
            wth.incomplete += t.incomplete;
            wth.disagree += t.disagree;
        }
    }
    // The manifest: 53,245 games in the 22 federation files, 144
    // unfinished transcripts, every finished game's score stored right.
    assert_eq!(
        (wth.games, wth.complete, wth.incomplete, wth.disagree),
        (53_245, 53_101, 144, 0)
    );
}

#[test]
fn corpus_logistello_book_splits_empties_in_16_games() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("wthor/misc/Logistello_book_1999.wtb");
    let mut split = Vec::new();
    for g in Reader::open(&path).unwrap() {
        let g = g.unwrap();
        let score = g.replay().final_score().unwrap();
        let stored = g.result.unwrap().black_score().unwrap();
        if stored != score.black_score {
            assert!(score.empties > 0 && score.winner != Winner::Draw);
            // Split evenly, the odd one to the winner.
            let half = if score.winner == Winner::Black {
                score.empties.div_ceil(2)
            } else {
                score.empties / 2
            };
            assert_eq!(stored, score.black_discs + half, "game {}", g.origin.index);
            split.push(g.origin.index);
        }
    }
    assert_eq!(split.len(), 16);
}

#[test]
fn corpus_playok_reads_every_game_with_its_names() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("wthor/playok/PLAYOK_2023.wtb");
    let found = find_name_files(&path).unwrap();
    assert_eq!(
        (found.players, found.tournaments),
        (
            Some(dir.join("wthor/playok/PLAYOK.JOU")),
            Some(dir.join("wthor/playok/PLAYOK.TRN"))
        )
    );
    let mut reader = Reader::open(&path).unwrap();
    let header = reader.read_header().unwrap();
    assert_eq!(
        (header.games, header.board_size, header.depth),
        (54_366, 0, 0)
    );
    assert_eq!(header.created_date(), (2023, 4, 2));
    let names = reader.names().unwrap();
    assert_eq!((names.players.len(), names.tournaments.len()), (7834, 18));
    assert_eq!(names.tournaments[0], "PlayOK xot 60");
    let (mut games, mut empty, mut xot60, mut extreme) = (0, 0, 0, 0);
    for g in reader {
        let g = g.unwrap();
        games += 1;
        assert_eq!(g.theoretical_black_score, g.result.unwrap().black_score());
        if g.moves.is_empty() {
            empty += 1;
        }
        if g.tags.event.as_deref() == Some("PlayOK xot 60") {
            xot60 += 1;
        }
        if g.replay().status() == Status::Incomplete {
            let stored = g.result.unwrap().black_score().unwrap();
            assert!(stored == 0 || stored == 64, "game {}", g.origin.index);
            extreme += 1;
        }
    }
    assert_eq!((games, empty, extreme), (54_366, 47, 13_335));
    assert!(xot60 > 0);
}

#[test]
fn corpus_quest_names_report_the_header_mismatch() {
    let Some(dir) = corpus() else { return };
    let jou = dir.join("wthor/quest/QUEST.JOU");
    let trn = dir.join("wthor/quest/QUEST.TRN");
    let names = Names::load(Some(&jou), Some(&trn)).unwrap();
    assert_eq!(names.players.len(), 9427);
    assert_eq!(
        names.tournaments,
        [
            "Othello Quest",
            "Othello Quest 1 min",
            "Othello Quest 5 min"
        ]
    );
    assert_eq!(
        names.warnings,
        [format!(
            "{}: header says 9426 names but the file holds 9427",
            jou.display()
        )]
    );
    let list = Names::read_players(&std::fs::read(&jou).unwrap()).unwrap();
    assert_eq!((list.header.names, list.header.year), (9426, 2022));
}

#[test]
fn corpus_federation_names_are_latin1() {
    let Some(dir) = corpus() else { return };
    let wtb = dir.join("wthor/WTH_1977.wtb");
    let found = find_name_files(&wtb).unwrap();
    let (jou, trn) = (found.players, found.tournaments);
    assert_eq!(jou, Some(dir.join("wthor/WTH.JOU")));
    assert_eq!(trn, Some(dir.join("wthor/WTH.TRN")));
    let names = Names::load(jou.as_deref(), trn.as_deref()).unwrap();
    assert!(names.warnings.is_empty());
    assert_eq!((names.players.len(), names.tournaments.len()), (4448, 492));
    assert_eq!(names.players[0], "???");
    assert_eq!(names.tournaments[0], "Diverses parties");
    assert!(names.tournaments.contains(&"Préqualif de Paris".to_owned()));
    assert_eq!(
        names.tournaments.iter().filter(|t| !t.is_ascii()).count(),
        21
    );
    assert!(names.players.iter().all(|p| p.is_ascii()));
    let misc = dir.join("wthor/misc/nboard-test.WTB");
    assert_eq!(find_name_files(&misc), Ok(NameFiles::default()));
}

/// Reads `path`, writes every game to memory at the same depth and reads
/// it back.
fn round_trip(path: &Path) -> (Vec<GameRecord>, Vec<GameRecord>, Header) {
    let mut reader = Reader::open(path).unwrap();
    let depth = reader.read_header().unwrap().depth;
    let games: Vec<GameRecord> = reader.map(Result::unwrap).collect();
    let options = WriterOptions { depth, ..options() };
    let mut writer = Writer::new(Cursor::new(Vec::new()), options).unwrap();
    let mut book = NameBook::default();
    for g in &games {
        writer.write(g, &g.replay(), &mut book).unwrap();
    }
    let (out, _) = writer.finish().unwrap();
    let bytes = out.into_inner();
    let names = Arc::new(book.to_names());
    let mut reader = Reader::new(&bytes[..], Some(names)).with_size(bytes.len() as u64);
    let header = reader.read_header().unwrap();
    let back: Vec<GameRecord> = reader.map(Result::unwrap).collect();
    assert_eq!(back.len(), games.len());
    (games, back, header)
}

#[test]
fn corpus_round_trip_keeps_moves_scores_and_names() {
    let Some(dir) = corpus() else { return };
    for file in ["wthor/WTH_1998.wtb", "wthor/playok/PLAYOK_2023.wtb"] {
        let (games, back, header) = round_trip(&dir.join(file));
        for (g, b) in games.iter().zip(&back) {
            assert_eq!(b.moves, g.moves, "{file} #{}", g.origin.index);
            assert_eq!(b.result, g.result, "{file} #{}", g.origin.index);
            assert_eq!(b.theoretical_black_score, g.theoretical_black_score);
            assert_eq!(b.tags, g.tags, "{file} #{}", g.origin.index);
            assert_eq!(b.origin.byte, g.origin.byte);
        }
        assert_eq!(Some(header.year.to_string()), games[0].tags.date);
    }
}

#[test]
fn corpus_round_trip_of_the_logistello_book_stores_computed_scores() {
    let Some(dir) = corpus() else { return };
    let (games, back, header) = round_trip(&dir.join("wthor/misc/Logistello_book_1999.wtb"));
    assert_eq!(header.year, 1999);
    let mut changed = 0;
    for (g, b) in games.iter().zip(&back) {
        assert_eq!(b.moves, g.moves);
        let computed = g.replay().final_score().unwrap().black_score;
        assert_eq!(b.result.unwrap().black_score(), Some(computed));
        assert_eq!(b.theoretical_black_score, g.theoretical_black_score);
        assert_eq!(b.tags.black.as_deref(), Some("?"));
        if b.result != g.result {
            changed += 1;
        }
    }
    assert_eq!(changed, 16);
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
        if self.calls % 3 == 0 {
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

#[test]
fn corpus_sniff_tells_wthor_games_from_everything_else() {
    let Some(dir) = corpus() else { return };
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&dir, &mut files);
    let (mut yes, mut no) = (0, 0);
    for path in files {
        let mut head = Vec::new();
        File::open(&path)
            .unwrap()
            .take(1024)
            .read_to_end(&mut head)
            .unwrap();
        let is_wtb = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
        assert_eq!(sniff(&head), is_wtb, "{}", path.display());
        if is_wtb {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert_eq!(yes, 25);
    assert!(no >= 20, "{no} other files");
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
fn theoretical_scores_follow_the_depth_rule() {
    let theoretical = |g: &GameRecord, depth: u8| {
        let e = encode(g, &g.replay(), depth).unwrap();
        (e.theoretical, e.theoretical_unverified)
    };
    // A finished game, 64-0 with 51 empties.
    let mut won = parse("f5d6c5f6e7f4g5e6e3");
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
    let mut g = parse("f5d6c5f6e7f4g5e6e3");
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
fn a_name_book_keeps_the_numbering_and_matches_case_insensitively() {
    let players = vec![
        "???".to_owned(),
        "Tastet Marc".to_owned(),
        "Müller Jörg".to_owned(),
    ];
    let tournaments = vec!["Diverses parties".to_owned()];
    let mut book = NameBook::new(players, tournaments);
    let tags = |black: &str, white: Option<&str>, event: Option<&str>| Tags {
        black: Some(black.to_owned()),
        white: white.map(str::to_owned),
        event: event.map(str::to_owned),
        ..Tags::default()
    };
    let ids = book
        .ids(&tags("Müller Jörg", Some("TASTET MARC"), None))
        .unwrap();
    assert_eq!((ids.black, ids.white, ids.tournament), (2, 1, 0));
    let ids = book
        .ids(&tags(
            "Nouveau Joueur",
            Some("nouveau joueur"),
            Some("Open 2026"),
        ))
        .unwrap();
    assert_eq!((ids.black, ids.white, ids.tournament), (3, 3, 1));
    assert_eq!(book.added(), (1, 1));
    assert_eq!(book.players()[3], "Nouveau Joueur");
    assert_eq!(book.tournaments(), ["Diverses parties", "Open 2026"]);
}

#[test]
fn writer_counts_games_of_other_years() {
    let mut book = NameBook::default();
    let mut w = Writer::new(Cursor::new(Vec::new()), options()).unwrap();
    for date in ["2004", "2008", "2004.05.12", "2008", "2008", "no date"] {
        let mut g = parse("f5d6");
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
    let mut g = parse("f5d6c3d3c4f4");
    assert_eq!(g.replay().finish.score.winner, Winner::Draw);
    for (result, byte) in [(Winner::White, 0), (Winner::Black, 64), (Winner::Draw, 32)] {
        g.result = Some(RecordedResult::new(ResultValue::Winner(result)));
        assert_eq!(encode(&g, &g.replay(), 1).unwrap().score, byte, "{result}");
    }
    // A board that agrees with the winner keeps its own score.
    let mut g = parse("f5d6c3");
    g.result = Some(RecordedResult::new(ResultValue::Winner(Winner::Black)));
    assert_eq!(
        encode(&g, &g.replay(), 1).unwrap().score,
        62,
        "5-2 and 57 empties"
    );
}
