use serde_json::Value as Json;

use crate::formats::format::{Format, TextFormat};
use crate::formats::jsonl::{write, GameJson, PlyJson, Reader};
use crate::record::row::{Column, Game};
use crate::record::{
    Annotation, AnnotationKind, GameRecord, MoveNote, OtherBoard, RecordedResult, ResultValue,
    Rules, Token,
};
use crate::testkit::{decorate, random_game, replay_named, transcript, Play, Rng};
use crate::{Color, Position};

fn write_one(record: &GameRecord) -> String {
    let (report, opening) = replay_named(record);
    let mut out = Vec::new();
    let game = Game::new("x", record, &report).with_opening(opening);
    write::JsonLines.write(&game, &mut out);
    String::from_utf8(out).unwrap()
}

fn read(text: &str) -> Vec<GameRecord> {
    Reader::new(text.as_bytes()).map(|g| g.unwrap()).collect()
}

fn round_trip(record: &GameRecord) -> GameRecord {
    let mut games = read(&write_one(record));
    assert_eq!(games.len(), 1);
    games.remove(0)
}

/// The defect of the one game `line` holds.
fn defect(line: &str) -> String {
    let games = read(line);
    assert_eq!(games.len(), 1);
    games[0].defect.as_ref().unwrap().to_string()
}

#[test]
fn plies_mark_implicit_passes() {
    // From the example fixture: Black passes before White's c1.
    let g = transcript("f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1");
    let report = g.replay();
    let json = GameJson::from_row(&Game::new("x", &g, &report));
    assert_eq!(json.plies.len(), 60);
    assert_eq!(
        json.plies[58],
        PlyJson {
            color: Some(Color::Black),
            mv: "pass".into(),
            implicit: true,
            eval: None,
            time: None
        }
    );
    assert_eq!(json.plies[59].mv, "c1");
    let object = serde_json::to_value(&json).unwrap();
    assert_eq!(object["passes"], 1);
    assert_eq!(
        (&object["black_score"], &object["white_score"]),
        (&Json::from(25), &Json::from(39))
    );
    assert_eq!(json.final_board.len(), 64);
    assert_eq!(object["final_board"], json.final_board.as_str());
}

#[test]
fn the_object_is_the_table_then_what_only_json_keeps() {
    let mut g = transcript("f5d6c5f6e7f4g5e6e3");
    g.tags.event = Some("Open".into());
    g.tags.black = Some("Tastet Marc".into());
    g.tags.date = Some("2003.12.15_12:33:18.MST".into());
    g.tags.site = Some("Paris".into());
    g.tags.extra = vec![("TI".into(), "05:00".into())];
    g.theoretical_depth = Some(24);
    g.annotations = vec![
        Annotation {
            after: 1,
            kind: AnnotationKind::Comment("book \"move\"".into()),
        },
        Annotation {
            after: 1,
            kind: AnnotationKind::Nag(1),
        },
        Annotation {
            after: 9,
            kind: AnnotationKind::Variation("(;B[d3])".into()),
        },
    ];
    assert_eq!(
        write_one(&g),
        concat!(
            r#"{"source":"x","index":1,"event":"Open","date":"2003-12-15T19:33:18Z","#,
            r#""black_player":"Tastet Marc","white_player":null,"moves":"f5d6c5f6e7f4g5e6e3","#,
            r#""move_count":9,"passes":0,"black_discs":13,"white_discs":0,"empties":51,"#,
            r#""black_score":64,"white_score":0,"winner":"black","recorded_black_score":null,"#,
            r#""status":"complete","error_move":null,"error":null,"#,
            r#""theoretical_black_score":null,"recorded_result":null,"start":null,"#,
            r#""opening":"Fishhook","rules":"standard","site":"Paris","round":null,"black_rating":null,"#,
            r#""white_rating":null,"tags":[["TI","05:00"]],"#,
            r#""recorded_date":"2003.12.15_12:33:18.MST","theoretical_depth":24,"#,
            r#""annotations":[{"after":1,"comment":"book \"move\""},{"after":1,"nag":1},"#,
            r#"{"after":9,"variation":"(;B[d3])"}],"#,
            r#""plies":[{"color":"black","move":"f5"},{"color":"white","move":"d6"},"#,
            r#"{"color":"black","move":"c5"},{"color":"white","move":"f6"},"#,
            r#"{"color":"black","move":"e7"},{"color":"white","move":"f4"},"#,
            r#"{"color":"black","move":"g5"},{"color":"white","move":"e6"},"#,
            r#"{"color":"black","move":"e3"}],"#,
            r#""final_board":"--------------------X------XXX----XXXXX----XXX------X-----------"}"#,
            "\n"
        )
    );
    let back = round_trip(&g);
    assert_eq!(back.tags, g.tags);
    assert_eq!(back.annotations, g.annotations);
    assert_eq!(back.theoretical_depth, Some(24));
}

#[test]
fn the_table_fields_are_the_columns_in_their_order() {
    let text = write_one(&transcript("f5d6"));
    let expected: Vec<&str> = Column::ALL
        .iter()
        .filter(|&&c| c != Column::Tags)
        .map(|c| c.name())
        .chain([
            "rules",
            "site",
            "round",
            "black_rating",
            "white_rating",
            "tags",
            "plies",
            "final_board",
        ])
        .collect();
    // Where each key is in the line (the object has no nested keys but
    // those of `plies`, which come last).
    let at = |key: &str| text.find(&format!("\"{key}\":"));
    let places: Vec<Option<usize>> = expected.iter().map(|k| at(k)).collect();
    assert!(places.iter().all(Option::is_some), "{text}");
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{text}");
    let object: serde_json::Map<String, Json> = serde_json::from_str(&text).unwrap();
    assert_eq!(object.len(), expected.len(), "{text}");
}

#[test]
fn everything_survives_a_round_trip() {
    let mut g = transcript("f5 d6 pass c3");
    g.tags.event = Some("Open".into());
    g.tags.site = Some("GGS/os".into());
    g.tags.black_rating = Some("2196.37".into());
    g.tags.extra = vec![("TI".into(), "05:00//02:00".into())];
    g.notes = vec![
        MoveNote {
            eval: Some(-1.5),
            time: Some(0.01),
        },
        MoveNote::default(),
        MoveNote::default(),
        MoveNote {
            eval: None,
            time: Some(3.0),
        },
    ];
    g.result = Some(RecordedResult {
        value: ResultValue::Margin(-2.5),
        kind: crate::ResultKind::Time,
    });
    g.rules = Rules::Anti;
    let back = round_trip(&g);
    assert_eq!(back.tags, g.tags);
    assert_eq!(back.notes, g.notes);
    assert_eq!(back.result, g.result);
    assert_eq!(back.rules, Rules::Anti);
    let tokens: Vec<Token> = back.moves.iter().map(|m| m.token).collect();
    let expected: Vec<Token> = g.moves.iter().map(|m| m.token).collect();
    assert_eq!(tokens, expected);
    assert_eq!(back.move_colors(), g.move_colors());
}

#[test]
fn invalid_games_keep_every_token() {
    let g = transcript("f5 d6 i9 c3");
    let back = round_trip(&g);
    assert_eq!(back.move_string(), "f5d6i9c3");
    assert_eq!(
        back.replay().error.unwrap().to_string(),
        "move 3 (black) i9: not a square"
    );
}

#[test]
fn bad_json_is_an_invalid_game_not_a_lost_one() {
    let games: Vec<GameRecord> = Reader::new(&b"{\"moves\":\"f5\"}\n{oops\n"[..])
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].move_string(), "f5");
    let defect = games[1].defect.as_ref().unwrap();
    assert_eq!(defect.span.line, 2);
    assert!(
        defect.message.starts_with("bad JSON: key must be a string"),
        "{}",
        defect.message
    );
}

#[test]
fn moves_are_text_or_a_list() {
    let games = read(concat!(
        r#"{"moves":"f5d6c3"}"#,
        "\n",
        r#"{"moves":["f5","d6","pass","c3"]}"#,
        "\n",
        r#"{"moves":["F5"," d6","-","PA","zz",""]}"#,
        "\n",
        r#"{"moves":"F5 d6 -- c3"}"#,
        "\n",
        r#"{"moves":null,"event":"no moves"}"#,
        "\n",
    ));
    let spelled: Vec<String> = games
        .iter()
        .map(|g| {
            (0..g.moves.len())
                .map(|i| g.token_text(i))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        spelled,
        [
            "f5 d6 c3",
            "f5 d6 pass c3",
            "f5 d6 pass pass zz ",
            "f5 d6 pass c3",
            ""
        ]
    );
    assert_eq!(games[2].unreadable, [(4, "zz".into()), (5, "".into())]);
    assert_eq!(
        games[1].replay().error.unwrap().to_string(),
        "move 3 (black) pass: pass not allowed: Black has moves"
    );
    assert_eq!(games[4].tags.event.as_deref(), Some("no moves"));
    assert!(games.iter().all(|g| g.defect.is_none()));
}

#[test]
fn fields_of_the_wrong_kind_make_an_invalid_game() {
    assert_eq!(
        defect(r#"{"moves":5}"#),
        "1:1: bad JSON: moves is a number, not text or a list"
    );
    assert_eq!(
        defect(r#"{"moves":["f5",{"m":"d6"}]}"#),
        "1:1: bad JSON: move 2 is an object, not text"
    );
    assert_eq!(
        defect(r#"{"moves":"f5","date":2004}"#),
        "1:1: bad JSON: date is a number, not text"
    );
    assert_eq!(
        defect(r#"{"moves":"f5","theoretical_black_score":300}"#),
        "1:1: bad JSON: theoretical_black_score is 300, not a whole number 0-255"
    );
    assert!(
        defect(r#"{"moves":"f5","annotations":[{"after":1}]}"#).starts_with("1:1: bad JSON: "),
        "an annotation names its kind"
    );
}

#[test]
fn another_board_keeps_its_size_and_start() {
    let mut g = transcript("a2 b1");
    g.other_board = Some(OtherBoard {
        size: 4,
        start: "---- -O*- -*O- ---- *".into(),
    });
    let text = write_one(&g);
    assert!(
        text.contains(r#""start":"4x4 ---- -O*- -*O- ---- *","#),
        "{text}"
    );
    assert!(
        text.contains(r#""other_board":{"size":4,"start":"---- -O*- -*O- ---- *"}"#),
        "{text}"
    );
    assert!(
        text.contains(
            r#""status":"invalid","error_move":null,"error":"unsupported board size 4x4""#
        ),
        "{text}"
    );
    let back = round_trip(&g);
    assert_eq!(back.other_board, g.other_board);
    assert_eq!(back.moves.len(), 2);
    assert_eq!(
        back.replay().error.unwrap().reason(),
        "unsupported board size 4x4"
    );
    // The start column alone says it too.
    let games = read(r#"{"moves":"a1","start":"6x6 ------ *"}"#);
    assert_eq!(
        games[0].other_board,
        Some(OtherBoard {
            size: 6,
            start: "------ *".into()
        })
    );
}

/// Random annotations among the moves of `record`.
fn annotate(rng: &mut Rng, record: &mut GameRecord) {
    for _ in 0..rng.below(4) {
        let after = rng.below(record.moves.len() + 1);
        let kind = match rng.below(3) {
            0 => AnnotationKind::Comment(rng.tricky_text()),
            1 => AnnotationKind::Nag(rng.below(300) as u16),
            _ => AnnotationKind::Variation(format!("(;B[{}])", rng.tricky_text())),
        };
        record.annotations.push(Annotation { after, kind });
    }
}

#[test]
fn random_records_survive_json_lines() {
    let mut rng = Rng::new(17);
    let dates = [
        "2004",
        "2020.05.05",
        "2003.12.15_12:33:18.MST",
        "947375357",
        "2022-01-17 12:52:30 GMT",
        "2004.??.??",
    ];
    let mut records = Vec::new();
    for _ in 0..400 {
        let mut g = random_game(
            &mut rng,
            Play {
                stop: 3,
                written_passes: 50,
                odd_start: 20,
            },
        );
        decorate(&mut rng, &mut g);
        annotate(&mut rng, &mut g);
        if rng.chance(30) {
            g.tags.date = Some(rng.pick(&dates).to_owned());
        }
        if rng.chance(20) {
            g.theoretical_depth = Some(rng.below(61) as u8);
        }
        if rng.chance(10) {
            // A reader of another board keeps the 8x8 start untouched.
            g.start = Position::start();
            g.other_board = Some(OtherBoard {
                size: rng.pick(&[4, 6, 10]),
                start: rng.tricky_text(),
            });
        }
        records.push(g);
    }
    let text = Format::Jsonl.write_records(&records).unwrap();
    let back: Vec<GameRecord> = Format::Jsonl
        .reader(text.as_slice())
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(back.len(), records.len());
    // Notes without an evaluation or a time are no notes.
    let notes = |g: &GameRecord| {
        if g.notes.iter().all(|n| *n == MoveNote::default()) {
            Vec::new()
        } else {
            g.notes.clone()
        }
    };
    for (i, (x, y)) in records.iter().zip(&back).enumerate() {
        let tokens = |g: &GameRecord| g.moves.iter().map(|m| m.token).collect::<Vec<_>>();
        assert_eq!(tokens(x), tokens(y), "game {i}");
        if x.other_board.is_none() {
            assert_eq!(x.move_colors(), y.move_colors(), "game {i}");
        }
        assert_eq!(x.unreadable, y.unreadable, "game {i}");
        assert_eq!(x.tags, y.tags, "game {i}");
        assert_eq!(x.result, y.result, "game {i}");
        assert_eq!(notes(x), notes(y), "game {i}");
        assert_eq!(x.annotations, y.annotations, "game {i}");
        assert_eq!(x.other_board, y.other_board, "game {i}");
        assert_eq!(
            (x.theoretical_black_score, x.theoretical_depth),
            (y.theoretical_black_score, y.theoretical_depth),
            "game {i}"
        );
        assert_eq!(x.rules, y.rules, "game {i}");
        assert_eq!(x.start, y.start, "game {i}");
        let error = |g: &GameRecord| g.replay().error.map(|e| (e.move_number(), e.reason()));
        assert_eq!(error(x), error(y), "game {i}");
    }
    // The draw covers what it should.
    assert!(records.iter().any(|g| g.other_board.is_some()));
    assert!(records.iter().any(|g| !g.annotations.is_empty()));
    assert!(records.iter().any(|g| !g.has_standard_start()));
    assert!(records.iter().any(|g| g
        .moves
        .iter()
        .any(|m| m.token == Token::Move(crate::Move::Pass))));
}
