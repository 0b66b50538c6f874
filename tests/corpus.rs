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
