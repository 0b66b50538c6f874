use crate::formats::csv::{sniff, sniff_delimiter, write, Reader, INFO};
use crate::formats::features::Feature;
use crate::formats::format::{Format, ReadOptions, TextFormat};
use crate::formats::transcript::{parse_line, LineContext};
use crate::record::row::Game;
use crate::record::{GameRecord, OtherBoard, RecordedResult, ResultValue};
use crate::testkit::{replay_named, transcript};
use crate::Winner;

fn read(text: &str) -> Vec<GameRecord> {
    Reader::new(text.as_bytes()).map(|g| g.unwrap()).collect()
}

fn read_with(text: &str, options: &ReadOptions) -> Vec<GameRecord> {
    Reader::with_options(text.as_bytes(), options)
        .map(|g| g.unwrap())
        .collect()
}

/// The error that stops reading `text`, which must come first.
fn read_error(text: &str, options: &ReadOptions) -> String {
    let mut r = Reader::with_options(text.as_bytes(), options);
    let err = r.next().unwrap().unwrap_err();
    assert!(r.next().is_none(), "nothing is read after the error");
    err.to_string()
}

fn write(records: &[GameRecord]) -> String {
    let mut out = Vec::new();
    write::Table.header(&mut out);
    for r in records {
        let (report, opening) = replay_named(r);
        let game = Game::new("in.txt", r, &report).with_opening(opening);
        write::Table.write(&game, &mut out);
    }
    String::from_utf8(out).unwrap()
}

/// The data rows `write` gives for `records`.
fn rows(records: &[GameRecord]) -> Vec<String> {
    write(records).lines().skip(1).map(str::to_owned).collect()
}

fn named(column: &str) -> ReadOptions {
    ReadOptions {
        moves_column: Some(column.into()),
        delimiter: None,
    }
}

#[test]
fn header_is_the_contract_then_ours() {
    let text = write(&[]);
    assert_eq!(
        text,
        "source,index,event,date,black_player,white_player,moves,move_count,passes,\
black_discs,white_discs,empties,black_score,white_score,winner,recorded_black_score,\
status,error_move,error,theoretical_black_score,recorded_result,start,tags,opening\n"
    );
}

#[test]
fn rows_for_complete_incomplete_and_invalid_games() {
    let games = read("moves,winner\nf5d6c5f6e7f4g5e6e3,1\nf5d6,-1\nf5d6c5f4e3f6d3f3d7,\n");
    let text = write(&games);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "in.txt,1,,,,,f5d6c5f6e7f4g5e6e3,9,0,13,0,51,64,0,black,,complete,,,,1-0,,,Fishhook"
    );
    assert_eq!(
        lines[2],
        "in.txt,2,,,,,f5d6,2,0,3,3,58,,,white,,incomplete,,,,0-1,,,Perpendicular Opening"
    );
    assert_eq!(
        lines[3],
        "in.txt,3,,,,,f5d6c5f4e3f6d3f3d7,6,0,4,6,54,,,,,invalid,7,flips nothing,,,,,Fishhook"
    );
}

#[test]
fn kaggle_columns_read_with_winner_as_result_and_id_as_tag() {
    for delimiter in [",", ";"] {
        let text = "eOthello_game_id,winner,game_moves\n1056798,-1,f5d6c3\n";
        let games = read(&text.replace(',', delimiter));
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].move_string(), "f5d6c3");
        assert_eq!(
            games[0].result.unwrap().value,
            ResultValue::Winner(Winner::White)
        );
        assert_eq!(
            games[0].tags.extra,
            [("eOthello_game_id".to_string(), "1056798".to_string())]
        );
        assert_eq!(games[0].span(0).unwrap().column, 12);
        let line = "1056798,-1,f5d6c3".replace(',', delimiter);
        assert_eq!(games[0].origin.text.as_deref(), Some(line.as_str()));
    }
}

#[test]
fn own_table_round_trips_names_result_and_start() {
    let mut g = parse_line(
        b"---------------------------OX------XO--------------------------- O; e6 f4",
        LineContext {
            line: 1,
            byte: 0,
            index: 1,
        },
    )
    .unwrap();
    g.tags.event = Some("Open, \"Paris\"".into());
    g.tags.black = Some("Tastet Marc".into());
    g.tags.white = Some("Shaman".into());
    g.tags.date = Some("1999".into());
    g.result = Some(RecordedResult {
        value: ResultValue::Margin(2.0),
        kind: crate::ResultKind::Resigned,
    });
    g.theoretical_black_score = Some(30);
    g.tags.site = Some("Paris".into());
    g.tags.white_rating = Some("2100".into());
    g.tags.extra = vec![("eOthello_game_id".into(), "12".into())];
    let text = write(std::slice::from_ref(&g));
    let back = read(&text);
    assert_eq!(back.len(), 1);
    let b = &back[0];
    assert_eq!(b.tags.event, g.tags.event);
    assert_eq!(b.tags.black, g.tags.black);
    assert_eq!(b.tags.white, g.tags.white);
    assert_eq!(b.tags.date, g.tags.date);
    assert_eq!(b.result, g.result);
    assert_eq!(b.theoretical_black_score, Some(30));
    assert_eq!(b.start, g.start);
    assert_eq!(b.moves, g.moves);
    assert_eq!(b.tags, g.tags, "derived columns are not tags");
}

#[test]
fn a_table_without_moves_is_an_error() {
    assert_eq!(
        read_error("a,b\n1,2\n", &ReadOptions::default()),
        "1:1: no moves column in the CSV header (its columns: a, b): expected one named \
         moves, game_moves, transcript, movelist, move_list, game, or name it with \
         --moves-column"
    );
}

#[test]
fn the_best_named_column_holds_the_moves() {
    // `game` is a moves column only where no better name is.
    let games = read("game,moves\n7,f5d6c3\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].move_string(), "f5d6c3");
    assert_eq!(games[0].tags.extra, [("game".to_string(), "7".to_string())]);
    assert_eq!(games[0].span(0).unwrap().column, 3);
    let games = read("Transcript,Game\nf5d6,12\n");
    assert_eq!(games[0].move_string(), "f5d6");
    assert_eq!(
        games[0].tags.extra,
        [("Game".to_string(), "12".to_string())]
    );
    let games = read("id,GAME\n3,f5d6c3d3\n");
    assert_eq!(games[0].move_string(), "f5d6c3d3");
}

#[test]
fn two_columns_of_the_same_rank_are_named_in_the_error() {
    assert_eq!(
        read_error("moves,id,Moves\nf5,1,d3\n", &ReadOptions::default()),
        "1:1: several columns could hold the moves: moves, Moves: name one with --moves-column"
    );
    // Naming one settles it (the exact name first); the other is a tag.
    let games = read_with("moves,id,Moves\nf5,1,d3\n", &named("Moves"));
    assert_eq!(games[0].move_string(), "d3");
    assert_eq!(
        games[0].tags.extra,
        [
            ("moves".to_string(), "f5".to_string()),
            ("id".to_string(), "1".to_string())
        ]
    );
    assert_eq!(
        read_error("moves,id,Moves\nf5,1,d3\n", &named("MOVES")),
        "1:1: several columns are named \"MOVES\" (ignoring case): moves, Moves"
    );
}

#[test]
fn a_named_moves_column_wins_over_the_names() {
    let games = read_with("moves,record\nnot moves,f5d6\n", &named(" RECORD "));
    assert_eq!(games[0].move_string(), "f5d6");
    assert_eq!(
        games[0].tags.extra,
        [("moves".to_string(), "not moves".to_string())]
    );
    assert_eq!(
        read_error("id;moves\n1;f5\n", &named("record")),
        "1:1: no column named \"record\" in the CSV header (its columns: id, moves)"
    );
}

#[test]
fn tab_tables_are_read() {
    let games = read("id\tblack\twhite\tmoves\r\n1\tTastet, Marc\tShaman\tf5 d6 c3\r\n");
    assert_eq!(games[0].move_string(), "f5d6c3");
    assert_eq!(games[0].tags.black.as_deref(), Some("Tastet, Marc"));
    assert_eq!(games[0].tags.white.as_deref(), Some("Shaman"));
    assert_eq!(games[0].tags.extra, [("id".to_string(), "1".to_string())]);
    // A byte order mark before a semicolon header.
    let games = read("\u{feff}moves;event\nf5d6;Open, de Paris\n");
    assert_eq!(games[0].move_string(), "f5d6");
    assert_eq!(games[0].tags.event.as_deref(), Some("Open, de Paris"));
}

#[test]
fn the_delimiter_is_the_one_that_gives_a_moves_column() {
    // Split at commas this header has more fields, but no moves column.
    assert_eq!(
        sniff_delimiter(b"moves;note, with a comma, or two\n", None),
        b';'
    );
    assert_eq!(sniff_delimiter(b"a,b;moves\n", None), b';');
    assert_eq!(sniff_delimiter(b"a;b,moves\n", None), b',');
    // Without one, the most fields; a tie keeps the comma.
    assert_eq!(sniff_delimiter(b"a;b;c,d\n", None), b';');
    assert_eq!(sniff_delimiter(b"a;b,c\n", None), b',');
    assert_eq!(sniff_delimiter(b"a\tb\tc;d\n", None), b'\t');
    // A named column decides the same way.
    assert_eq!(sniff_delimiter(b"rec;x,moves\n", Some("rec")), b';');
    assert_eq!(sniff_delimiter(b"\"a;b\",moves\n", None), b',');
}

#[test]
fn a_given_delimiter_overrides_the_sniffed_one() {
    let text = "id|moves\n1|f5,d6\n";
    assert_eq!(
        read_error(text, &ReadOptions::default()),
        "1:1: no moves column in the CSV header (its columns: id|moves): expected one named \
         moves, game_moves, transcript, movelist, move_list, game, or name it with \
         --moves-column"
    );
    let pipe = ReadOptions {
        moves_column: None,
        delimiter: Some(b'|'),
    };
    let games = read_with(text, &pipe);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].move_string(), "f5d6");
    assert_eq!(games[0].tags.extra, [("id".to_string(), "1".to_string())]);
    assert_eq!(games[0].origin.text.as_deref(), Some("1|f5,d6"));
}

#[test]
fn sniff_knows_tables_by_any_delimiter() {
    for head in [
        "eOthello_game_id,winner,game_moves\n1,1,f5",
        "id;winner;game_moves\n",
        "id\tmoves\n",
        "game,moves\n",
        "\u{feff}\"Moves\",event\r\n",
        "Transcript;Event",
    ] {
        assert!(sniff(head.as_bytes()), "{head:?}");
    }
    for head in [
        "f5d6c3\n",
        "a;b\nmoves,x\n",
        "moves\nf5d6\n",
        "moved,x\n",
        "",
    ] {
        assert!(!sniff(head.as_bytes()), "{head:?}");
    }
}

#[test]
fn dates_are_written_in_iso_8601_and_read_back_as_recorded() {
    let forms = [
        ("2004", "2004", ""),
        ("2004-05-12", "2004-05-12", ""),
        (
            "2020.05.05",
            "2020-05-05",
            r#""[[""recorded_date"",""2020.05.05""]]""#,
        ),
        (
            "2003.12.15_12:33:18.MST",
            "2003-12-15T19:33:18Z",
            r#""[[""recorded_date"",""2003.12.15_12:33:18.MST""]]""#,
        ),
        (
            "947375357",
            "2000-01-08T23:49:17Z",
            r#""[[""recorded_date"",""947375357""]]""#,
        ),
        (
            "2004.??.??",
            "2004",
            r#""[[""recorded_date"",""2004.??.??""]]""#,
        ),
        ("the day after", "the day after", ""),
    ];
    for (recorded, iso, tags) in forms {
        let mut g = transcript("f5d6");
        g.tags.date = Some(recorded.into());
        assert_eq!(
            rows(std::slice::from_ref(&g)),
            [format!(
                "in.txt,1,,{iso},,,f5d6,2,0,3,3,58,,,,,incomplete,,,,,,{tags},Perpendicular Opening"
            )],
            "{recorded}"
        );
        let back = read(&write(std::slice::from_ref(&g)));
        assert_eq!(back[0].tags, g.tags, "{recorded}");
    }
    // A foreign table's date is taken as it is.
    let games = read("moves,date\nf5,2020.05.05\n");
    assert_eq!(games[0].tags.date.as_deref(), Some("2020.05.05"));
}

#[test]
fn an_invalid_game_keeps_its_passes_so_its_error_stays() {
    let g = transcript("f5 pass");
    let first = g.replay().error.unwrap().to_string();
    assert_eq!(
        first,
        "move 2 (white) pass: pass not allowed: White has moves"
    );
    let text = write(std::slice::from_ref(&g));
    assert_eq!(
        text.lines().nth(1).unwrap(),
        "in.txt,1,,,,,f5pass,1,0,4,1,59,,,,,invalid,2,pass not allowed: White has moves,,,,,"
    );
    let again = read(&text);
    assert_eq!(again[0].replay().error.unwrap().to_string(), first);
    assert_eq!(write(&again), text, "CSV -> CSV gives the same table");
    // Passes before the error, and two in a row after it.
    let g = transcript("f5 d6 c3 d3 c4 pass pass f4");
    let text = write(std::slice::from_ref(&g));
    assert!(text.contains(",f5d6c3d3c4passpassf4,"), "{text}");
    let again = read(&text);
    assert_eq!(again[0].moves, g.moves);
    assert_eq!(write(&again), text);
    assert_eq!(Format::Csv.losses_of(&g), Vec::<&str>::new());
}

#[test]
fn a_valid_game_leaves_its_written_passes_out() {
    // Black passes before White's c1 (the example fixture).
    let g = transcript(
        "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3\
         h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1 pass c1",
    );
    assert_eq!(
        rows(std::slice::from_ref(&g)),
        ["in.txt,1,,,,,f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2\
b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1,59,1,25,38,1,25,39,white,,complete,,,,,,,Parallel Opening"]
    );
    assert!(Format::Csv.losses_of(&g).is_empty());
}

#[test]
fn another_board_keeps_its_size_and_start_and_stays_invalid() {
    let mut g = transcript("a2 b1");
    g.other_board = Some(OtherBoard {
        size: 4,
        start: "---- -O*- -*O- ---- *".into(),
    });
    g.tags.black = Some("x".into());
    let text = write(std::slice::from_ref(&g));
    assert_eq!(
        text.lines().nth(1).unwrap(),
        "in.txt,1,,,x,,a2b1,0,0,2,2,60,,,,,invalid,,unsupported board size 4x4,,,\
4x4 ---- -O*- -*O- ---- *,,"
    );
    let back = read(&text);
    assert_eq!(back[0].other_board, g.other_board);
    assert_eq!(back[0].moves, g.moves);
    assert_eq!(
        back[0].replay().error.unwrap().reason(),
        "unsupported board size 4x4"
    );
    assert_eq!(write(&back), text);
    assert!(!INFO.loses.contains(Feature::OtherBoard));
    assert_eq!(Format::Csv.losses_of(&g), Vec::<&str>::new());
    // A 10x10 board with no start text.
    let g = GameRecord {
        other_board: Some(OtherBoard {
            size: 10,
            start: String::new(),
        }),
        ..GameRecord::default()
    };
    let back = read(&write(std::slice::from_ref(&g)));
    assert_eq!(back[0].other_board, g.other_board);
}

#[test]
fn kaggle_corpus_reads_as_before() {
    let Some(dir) = crate::testkit::corpus() else {
        return;
    };
    let file = std::fs::File::open(dir.join("csv/othello_dataset.csv")).unwrap();
    let games: Vec<GameRecord> = Reader::new(std::io::BufReader::new(file))
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 25657);
    assert_eq!(
        games[0].tags.extra,
        [("eOthello_game_id".to_string(), "1056798".to_string())]
    );
    assert_eq!(
        games[0].move_string(),
        "f5d6c4d3e6f4e3f6c5b4e7f3c6d7b5a5c3b3g5h5g4h4e2g6b6d8c7c8a4a6a7f1a3c2d2b2e1b7g3h3f2d1a1\
a2b1a8c1g1f7g8e8f8b8g7h8h7h6h2g2h1"
    );
    let text = std::fs::read(dir.join("csv/othello_dataset.csv")).unwrap();
    assert!(sniff(&text[..200]));
    assert_eq!(sniff_delimiter(&text[..200], None), b',');
}

/// The row as [`crate::record::row::Column::value`] gives it, field by field,
/// written by the csv crate: what the unrolled writer must equal.
fn row_by_value(game: &Game<'_>) -> Vec<u8> {
    use crate::record::row::{Column, Value};
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let fields: Vec<String> = Column::ALL
        .iter()
        .map(|column| match column.value(game) {
            Value::Null => String::new(),
            Value::Int(n) => n.to_string(),
            Value::Str(text) => text.to_owned(),
            Value::Text(text) => text,
        })
        .collect();
    writer.write_record(&fields).unwrap();
    writer.into_inner().unwrap()
}

#[test]
fn rows_equal_the_columns_values_on_every_kind_of_game() {
    use crate::testkit::{decorate, random_game, Play, Rng};
    use crate::{Move, RecordedMove, Square, Token};
    let mut rng = Rng::new(1123);
    let mut kinds = [0usize; 3];
    for i in 0..3000 {
        let play = Play {
            stop: [0, 0, 3][i % 3],
            written_passes: [0, 50, 100][i % 3],
            odd_start: [0, 10, 30][i % 3],
        };
        let mut g = random_game(&mut rng, play);
        if rng.chance(50) {
            decorate(&mut rng, &mut g);
        }
        match rng.below(8) {
            // An illegal move somewhere.
            0 if !g.moves.is_empty() => {
                let at = rng.below(g.moves.len());
                g.moves[at] = RecordedMove::new(Move::Play(Square::all().nth(27).unwrap()));
            }
            // An unreadable token.
            1 => {
                let at = rng.below(g.moves.len() + 1);
                g.moves.insert(at, RecordedMove::new(Move::Pass));
                g.moves[at].token = Token::Unreadable;
                g.unreadable.push((at, "z9".into()));
            }
            2 => {
                g.other_board = Some(OtherBoard {
                    size: 10,
                    start: "10x10 start".into(),
                });
            }
            3 => {
                g.tags.date = Some(
                    rng.pick(&[
                        "2004",
                        "2004.05.12",
                        "2003.12.15_12:33:18.MST",
                        "soon, maybe",
                    ])
                    .into(),
                )
            }
            _ => {}
        }
        let (report, opening) = replay_named(&g);
        let game = Game::new(rng.pick(&["in.wtb", "a,b.txt", "q\"uote.ggf"]), &g, &report)
            .with_opening(opening);
        kinds[game.status() as usize] += 1;
        let mut row = Vec::new();
        write::Table.write(&game, &mut row);
        assert_eq!(
            String::from_utf8_lossy(&row),
            String::from_utf8_lossy(&row_by_value(&game)),
            "game {i}"
        );
    }
    assert!(
        kinds.iter().all(|&n| n > 100),
        "every status is met: {kinds:?}"
    );
}

#[test]
fn moves_after_quoted_fields_are_placed_where_they_are_written() {
    // A quoted name with a comma, one with a line break, a quoted moves
    // field: each unreadable `zz` named at its own line, column and byte.
    let text = "black,moves\n\"Smith, John\",f5d6c3zz\n\"two\nlines\",f5 zz\nx,\"f5 zz\"\n";
    let games = read(text);
    let at: Vec<(u32, u32, u64)> = games
        .iter()
        .map(|g| {
            let span = g
                .replay()
                .error
                .expect("an invalid game")
                .span(g)
                .expect("a span");
            (span.line, span.column, span.byte)
        })
        .collect();
    assert_eq!(at, [(2, 21, 32), (4, 11, 50), (5, 7, 59)]);
    for (g, at) in games.iter().zip(&at) {
        let byte = usize::try_from(at.2).unwrap();
        assert_eq!(&text[byte..byte + 2], "zz");
        // The line the message shows is the line as written.
        let shown = g.origin.line_text(at.0).expect("the line");
        assert_eq!(shown.chars().nth(at.1 as usize - 1), Some('z'), "{shown:?}");
    }
    assert_eq!(
        games[1].origin.text.as_deref(),
        Some("\"two\nlines\",f5 zz")
    );
}
