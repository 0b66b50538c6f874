//! Tests of the score sheet reader and writer.

use crate::formats::sheet::{sniff, write_record, Reader};
use crate::testkit::{random_game, transcript, Play, Rng};
use crate::{Color, GameRecord, Position, Rules};

fn read(text: &str) -> Vec<GameRecord> {
    Reader::new(text.as_bytes())
        .map(|g| g.expect("no read error"))
        .collect()
}

fn one(text: &str) -> GameRecord {
    let mut games = read(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

fn defect(text: &str) -> String {
    one(text).defect.expect("a defect").message
}

/// fixtures/transcripts/example.txt, game 2 (59 moves).
const GAME: &str = "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1";

const SHEET: &str = "   a  b  c  d  e  f  g  h
1 56 21 59 42 35 46 58  -
2 53 32 14 24 28  8 50 37
3 43 17  3 19 15  5 11 55
4 40 31 10  O  X  2 16 20
5 27  9  6  X  O  1 51 39
6 12 38 52  7 26 13  4 44
7 47 36 22 30 23 29 18 41
8 54 25 57 34 45 33 48 49
";

fn fixture(name: &str) -> String {
    let path = format!("{}/fixtures/sheet/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn written(record: &GameRecord) -> String {
    let mut out = String::new();
    write_record(record, &mut out);
    out
}

/// Same game: everything but where it was read from.
fn assert_same(a: &GameRecord, b: &GameRecord) {
    assert_eq!(a.start, b.start);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.tags, b.tags);
    assert_eq!(a.result, b.result);
    assert_eq!(a.theoretical_black_score, b.theoretical_black_score);
    assert_eq!(a.rules, b.rules);
    assert_eq!(a.defect, b.defect);
}

#[test]
fn the_writer_draws_the_grid_of_show_sheet() {
    assert_eq!(written(&transcript(GAME)), format!("{SHEET}\n"));
}

#[test]
fn every_layout_reads_the_same_game() {
    let games = read(&fixture("variants.sheet"));
    assert_eq!(games.len(), 5);
    for g in &games {
        assert_eq!(g.move_string(), GAME, "game {}", g.origin.index);
        assert_eq!(g.defect, None, "game {}", g.origin.index);
        assert_eq!(g.start, Position::start());
        assert_eq!(g.replay().error, None);
    }
    let lines: Vec<Option<u32>> = games.iter().map(|g| g.origin.line).collect();
    assert_eq!(lines, [Some(5), Some(14), Some(24), Some(35), Some(48)]);
    let indexes: Vec<u64> = games.iter().map(|g| g.origin.index).collect();
    assert_eq!(indexes, [1, 2, 3, 4, 5]);
    assert_eq!(games[3].tags.black.as_deref(), Some("Ann"));
    assert_eq!(games[3].tags.white.as_deref(), Some("Bob"));
    assert_eq!(games[3].result.map(|r| r.to_string()), Some("25-38".into()));
}

#[test]
fn spans_point_at_each_number() {
    let text = fixture("variants.sheet");
    let games = read(&text);
    for g in &games {
        assert_eq!(g.spans.each().len(), g.moves.len());
        for (i, span) in g.spans.each().iter().enumerate() {
            let at = &text[span.byte as usize..(span.byte + u64::from(span.len)) as usize];
            assert_eq!(
                at,
                (i + 1).to_string(),
                "game {} move {}",
                g.origin.index,
                i + 1
            );
            let line = g.origin.line_text(span.line).expect("the line");
            let column: String = line
                .chars()
                .skip(span.column as usize - 1)
                .take(at.len())
                .collect();
            assert_eq!(column, at);
        }
    }
    // Move 1 (f5) in the first sheet: line 9, column 17.
    assert_eq!(
        (
            games[0].span(0).unwrap().line,
            games[0].span(0).unwrap().column
        ),
        (9, 17)
    );
}

#[test]
fn round_trip_on_the_fixtures() {
    for name in ["variants.sheet", "tagged.sheet"] {
        for game in read(&fixture(name)) {
            let back = one(&written(&game));
            assert_same(&back, &game);
        }
    }
}

#[test]
fn tags_results_and_starts_round_trip() {
    let games = read(&fixture("tagged.sheet"));
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.tags.event.as_deref(), Some("Club championship"));
    assert_eq!(g.tags.date.as_deref(), Some("2024-05-01"));
    assert_eq!(g.tags.black_rating.as_deref(), Some("1850"));
    assert_eq!(g.tags.extra, [("Opening".to_string(), "Tiger".to_string())]);
    assert_eq!(
        g.result.map(|r| r.to_string()),
        Some("25-38 (resigned)".into())
    );
    assert_eq!(g.theoretical_black_score, Some(30));
    let h = &games[1];
    assert_eq!(h.rules, Rules::Anti);
    assert_eq!(h.start.side_to_move(), Color::White);
    assert_eq!(h.start.board().black().count(), 3);
    assert_eq!(h.start.board().white().count(), 2);
    assert_eq!(h.move_string(), "g4f3");
    assert_eq!(h.replay().error, None);
    assert_eq!(
        written(g),
        fixture("tagged.sheet")
            .split("\n\n")
            .next()
            .unwrap()
            .to_owned()
            + "\n\n"
    );
}

#[test]
fn round_trip_on_random_games() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Games of every length, some from a position a few moves on; passes
    // are not written (a sheet has none).
    let play = Play {
        stop: 2,
        written_passes: 0,
        odd_start: 20,
    };
    for n in 0..300 {
        let record = random_game(&mut rng, play);
        let text = written(&record);
        let back = one(&text);
        assert_same(&back, &record);
        assert_eq!(back.replay(), record.replay(), "game {n}: {text}");
    }
}

#[test]
fn a_number_on_two_squares() {
    let text = SHEET.replace(" 23 29", " 22 29");
    let g = one(&text);
    let d = g.defect.clone().expect("a defect");
    assert_eq!(
        d.message,
        "move 22 is on c7 and e7; move 23 is missing (the sheet goes to 59)"
    );
    assert_eq!((d.span.line, d.span.column, d.span.len), (8, 15, 2));
    assert_eq!(g.moves.len(), 21);
    assert_eq!(g.replay().error.map(|e| e.to_string()), Some(d.message));
}

#[test]
fn a_missing_number() {
    let text = SHEET.replace(" 30 23", "  - 23");
    let g = one(&text);
    let d = g.defect.expect("a defect");
    assert_eq!(d.message, "move 30 is missing (the sheet goes to 59)");
    // At the number after the gap, 31 on b4.
    assert_eq!((d.span.line, d.span.column, d.span.len), (5, 6, 2));
    assert_eq!(g.moves.len(), 29);
    let text = SHEET
        .replace(" 30 23", "  - 23")
        .replace(" 31 10", "  - 10");
    assert_eq!(
        defect(&text),
        "moves 30 to 31 are missing (the sheet goes to 59)"
    );
}

#[test]
fn numbers_that_are_not_moves() {
    let g = one(&SHEET.replace("58  -", "58 61"));
    let d = g.defect.expect("a defect");
    assert_eq!(d.message, "move 61 on h1: the sheet has room for 60 moves");
    assert_eq!((d.span.line, d.span.column, d.span.len), (2, 24, 2));
    assert_eq!(g.moves.len(), 59, "the moves are all there");
    assert_eq!(
        defect(&SHEET.replace("58  -", "58 ab")),
        "not a move number or a disc: \"ab\""
    );
    assert_eq!(
        defect(&SHEET.replace("58  -", "58 7½")),
        "not a move number or a disc: \"7½\""
    );
}

#[test]
fn rows_and_squares_that_do_not_fit() {
    let seven: String = SHEET.lines().take(8).map(|l| format!("{l}\n")).collect();
    assert_eq!(defect(&seven), "a sheet has 8 rows of squares, found 7");
    assert_eq!(
        defect(&SHEET.replace("3 43 17  3", "3 43 17 3 0")),
        "row 3 has 9 squares, expected 8"
    );
    // Single spaces: no column to line a short row up with.
    let short = "56 21 59 42 35 46 58\n53 32 14 24 28 8 50 37\n43 17 3 19 15 5 11 55\n40 31 10 0 0 2 16 20\n27 9 6 0 0 1 51 39\n12 38 52 7 26 13 4 44\n47 36 22 30 23 29 18 41\n54 25 57 34 45 33 48 49\n";
    assert_eq!(
        defect(short),
        "row 1 has 7 squares, expected 8 (cannot tell which are blank)"
    );
    assert_eq!(
        defect(&format!("{SHEET}move 59: white c1\n")),
        "not a row of the grid"
    );
    let g = one(&SHEET.replace("55\n4", "55\nTitle: x\n4"));
    let d = g.defect.expect("a defect");
    assert_eq!(
        (d.message.as_str(), d.span.line),
        ("not a row of the grid", 5)
    );
}

#[test]
fn start_discs_from_the_marks() {
    let stars = SHEET.replace(" O  X", " *  *").replace(" X  O", " *  *");
    assert_eq!(one(&stars).start, Position::start());
    assert_eq!(
        defect(&stars.replace("58  -", "58  *")),
        "a disc outside the centre needs its colour (X or O): \"*\""
    );
    let crosses = SHEET.replace(" O  X", " X  X").replace(" X  O", " X  X");
    assert_eq!(one(&crosses).start, Position::start());
    // Coloured marks anywhere give the start; `*` is black beside O.
    let text = SHEET
        .replace("4 40 31 10  O  X", "4 40 31 10  O  *")
        .replace("5 27  9  6  X  O", "5 27  9  6  *  O");
    assert_eq!(one(&text).start, Position::start());
    // The colours swapped: the game no longer fits.
    let text = SHEET
        .replace("4 40 31 10  O  X", "4 40 31 10  X  O")
        .replace("5 27  9  6  X  O", "5 27  9  6  O  X");
    let g = one(&text);
    assert_eq!(g.start.board().black().count(), 2);
    assert_ne!(g.start, Position::start());
    assert_eq!(
        g.replay().error.map(|e| e.to_string()),
        Some("move 1 (black) f5: flips nothing".into())
    );
}

#[test]
fn a_number_on_a_start_disc_is_a_replay_error_at_it() {
    let g = one(&SHEET
        .replace("4 40 31 10  O", "4 40 31 10 23")
        .replace(" 23 29", "  - 29"));
    assert_eq!(g.start, Position::start());
    assert_eq!(g.defect, None);
    let e = g.replay().error.expect("invalid");
    assert_eq!(e.to_string(), "move 23 (black) d4: square occupied");
    let span = g.span(22).unwrap();
    assert_eq!((span.line, span.column, span.len), (5, 12, 2));
}

#[test]
fn a_runaway_block_is_one_defect() {
    let text = "1 2 3\n".repeat(100) + "\n" + SHEET;
    let games = read(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].defect.as_ref().unwrap().message,
        "not a score sheet: more than 64 lines or 64 KiB without a blank line"
    );
    assert_eq!(games[0].defect.as_ref().unwrap().span.line, 65);
    assert_eq!(games[0].moves.len(), 0);
    assert_eq!(games[1].move_string(), GAME);
    assert_eq!(games[1].origin.line, Some(102));
    // One line too long for a sheet, then a sheet.
    let text = format!("{}\n\n# note\n\n{SHEET}", "7 ".repeat(40_000));
    let games = read(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].origin.line, Some(1));
    assert_eq!(games[1].move_string(), GAME);
    assert_eq!(games[1].origin.line, Some(5));
}

#[test]
fn sniff_tells_sheets_from_other_text() {
    assert!(sniff(SHEET.as_bytes()));
    assert!(sniff(fixture("variants.sheet").as_bytes()));
    assert!(sniff(fixture("tagged.sheet").as_bytes()));
    assert!(sniff(
        b"\t56\t21\t59\t42\t35\t46\t58\t\n53\t32\t14\t24\t28\t8\t50\t37\n"
    ));
    for other in [
        &b"f5d6c3d3c4\n"[..],
        b"76\nC4c3D3c5B2\n",
        b"source,index,event\n",
        b"{\"moves\":\"f5\"}\n",
        b"[Event \"x\"]\n1. f5 d6\n",
        b"1. f5 d6 2. c3 d3 3. c4 f4 4. f6 f3\n",
        b"",
    ] {
        assert!(!sniff(other), "{}", String::from_utf8_lossy(other));
    }
}

proptest::proptest! {
    /// Any text made of sheet-like pieces reads without a panic, and
    /// every move's span points at its own number.
    #[test]
    fn any_sheet_like_text_reads_with_spans_on_the_numbers(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                " ", "  ", "\t", "\n", "\n\n", "1", "7", "12", "60", "61", "0", "-", "X", "O",
                "*", "●", "a b c d e f g h", "Black: x", "# c", "ab", "\r\n",
            ]),
            0..300,
        )
    ) {
        let text: String = pieces.concat();
        for game in Reader::new(text.as_bytes()) {
            let game = game.expect("reading a string cannot fail");
            proptest::prop_assert_eq!(game.spans.each().len(), game.moves.len());
            for (i, span) in game.spans.each().iter().enumerate() {
                let start = span.byte as usize;
                let at = text.get(start..start + span.len as usize);
                let number = at.and_then(|t| t.parse::<usize>().ok());
                proptest::prop_assert_eq!(number, Some(i + 1));
            }
        }
    }
}

#[test]
fn losses_name_what_a_sheet_cannot_hold() {
    let mut lost = Vec::new();
    lost.extend(crate::formats::Format::Sheet.losses_of(&transcript(GAME)));
    assert!(lost.is_empty());
    let mut r = transcript("f5 d6 pass c3 zz f5");
    let timed = crate::MoveNote {
        eval: Some(0.5),
        time: Some(1.5),
    };
    r.notes = vec![timed; r.moves.len()];
    r.tags.extra.push(("two\nlines".into(), "x".into()));
    lost.extend(crate::formats::Format::Sheet.losses_of(&r));
    assert_eq!(
        lost,
        [
            "per-move evaluations",
            "per-move times",
            "explicit passes",
            "unreadable moves",
            "moves on squares already taken",
            "tags that are not one line without spaces around it"
        ]
    );
}
