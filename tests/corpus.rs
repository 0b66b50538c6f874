//! Real records written by others (`KIFU_CORPUS`, default ../shared/corpus).

use std::fs::File;
use std::io::BufReader;

use kifu::formats::transcript::Reader;
use kifu::{ResultValue, Status};

use crate::support::{corpus, kifu};

#[test]
fn xot_lists_are_all_legal_eight_move_openings() {
    let Some(dir) = corpus() else { return };
    for (name, games) in [("xot-large-list.txt", 10784), ("xot-small-list.txt", 3623)] {
        let path = dir.join("transcripts/xot").join(name);
        kifu()
            .arg("validate")
            .arg(&path)
            .assert()
            .code(0)
            .stdout(format!(
                "{games} games read: 0 complete, {games} incomplete, 0 invalid\n"
            ));
    }
}

#[test]
fn zebra_openings_read_with_case_coded_colours_and_names() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("transcripts/openings/zebra-openings.txt");
    let file = File::open(&path).unwrap();
    let games: Vec<_> = Reader::new(BufReader::new(file))
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 76, "the count line is not a game");
    for game in &games {
        assert_eq!(game.replay().status(), Status::Incomplete);
        assert!(game.moves.iter().all(|m| m.color.is_some()));
        assert_eq!(game.tags.extra.len(), 1, "an opening name");
    }
    assert_eq!(games[1].tags.extra[0].1, "X-square Opening");
}

#[test]
fn logbook_games_replay_and_match_their_raw_margin() {
    let Some(dir) = corpus() else { return };
    let file = File::open(dir.join("logbook/logbook-first3000.gam")).unwrap();
    let mut complete = 0;
    let mut with_pass = 0;
    for game in Reader::new(BufReader::new(file)) {
        let game = game.unwrap();
        let report = game.replay();
        assert_eq!(
            report.status(),
            Status::Complete,
            "game {}",
            game.origin.index
        );
        let result = game.result.unwrap();
        assert!(matches!(result.value, ResultValue::RawMargin(_)));
        assert!(
            result.agrees_with(&report.finish.score),
            "game {}",
            game.origin.index
        );
        complete += 1;
        if report.finish.passes > 0 {
            with_pass += 1;
        }
    }
    assert_eq!(complete, 3000);
    // MANIFEST.md: 1,057 games of the slice contain a pass.
    assert_eq!(with_pass, 1057);
}

#[test]
fn kaggle_csv_converts_and_its_winner_agrees_except_incomplete_games() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("csv/othello_dataset.csv");
    let file = File::open(&path).unwrap();
    let mut read = 0;
    let mut incomplete = Vec::new();
    for game in kifu::formats::csv::Reader::new(BufReader::new(file)) {
        let game = game.unwrap();
        read += 1;
        let report = game.replay();
        let result = game.result.expect("every row has a winner");
        match report.status() {
            Status::Complete => assert!(
                result.agrees_with(&report.finish.score),
                "row {}",
                game.origin.index
            ),
            Status::Incomplete => incomplete.push(game.tags.extra[0].1.clone()),
            Status::Invalid => panic!("row {} invalid: {:?}", game.origin.index, report.error),
        }
    }
    assert_eq!(read, 25657);
    // MANIFEST.md: two unfinished games.
    assert_eq!(incomplete, ["595810", "596120"]);
    let out = std::env::temp_dir().join(format!("kifu-kaggle-{}.csv", std::process::id()));
    kifu()
        .args(["convert", "--to", "csv", "-o"])
        .arg(&out)
        .arg(&path)
        .assert()
        .code(0)
        .stderr("kifu: 25657 games read: 25655 complete, 2 incomplete, 0 invalid; 25657 written, 0 left out\n");
    let rows = std::fs::read_to_string(&out).unwrap().lines().count();
    std::fs::remove_file(&out).unwrap();
    assert_eq!(rows, 25658, "a header and one row per game");
}
