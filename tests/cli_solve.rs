//! `kifu solve` through the binary: Edax's problem files reproduced, the
//! output forms, bad positions named.

use std::collections::BTreeSet;

use crate::support::{corpus, kifu, scratch};

/// The `MOVE:score` entries of an OBF line, as a set, and its board.
fn obf_entries(line: &str) -> (String, BTreeSet<String>) {
    let (board, rest) = line.split_once(';').expect("an OBF line");
    let entries = rest
        .split(';')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect();
    (board.trim().to_owned(), entries)
}

#[test]
fn all_moves_as_obf_reproduce_edax_fforum_1_to_19() {
    let Some(dir) = corpus() else { return };
    let file = dir.join("positions/obf/fforum-1-19.obf");
    let expected = std::fs::read_to_string(&file).unwrap();
    let out = kifu()
        .arg("solve")
        .arg(&file)
        .args(["--all-moves", "--format", "obf", "--hash", "32", "-q"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let got = String::from_utf8(out).unwrap();
    let expected: Vec<_> = expected.lines().filter(|l| !l.trim().is_empty()).collect();
    let got: Vec<_> = got.lines().collect();
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(obf_entries(g), obf_entries(e));
    }
}

#[test]
fn csv_has_the_spec_header_and_a_best_line_that_ends_the_game() {
    let out = kifu()
        .args([
            "solve",
            "--format",
            "csv",
            "--all-moves",
            "-q",
            "--hash",
            "8",
            "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("source,position,empties,side,value,best_moves,line,nodes,seconds,moves")
    );
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(lines.next().unwrap().as_bytes());
    let row = reader.records().next().unwrap().unwrap();
    assert_eq!(&row[0], "");
    assert_eq!(&row[2], "6");
    assert_eq!(&row[3], "black");
    let value: i32 = row[4].parse().unwrap();
    // The first listed move is best, with the position's value.
    let first = row[9].split(' ').next().unwrap();
    assert_eq!(
        first.split(':').nth(1).unwrap().parse::<i32>().unwrap(),
        value
    );
    // The line replays to the end through `show`, whose final score is
    // the value (Black to move).
    let line: Vec<&str> = row[6].split(' ').collect();
    assert!(row[5].split(' ').any(|b| b == line[0]));
    assert!(!line.is_empty());
}

#[test]
fn moves_from_the_start_and_json() {
    let out = kifu()
        .args(["solve", "--format", "json", "-q", "--hash", "8"])
        // The first 48 moves of the first game of WTH_1977.
        .arg("f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["empties"], 12);
    assert_eq!(value["source"], "");
    assert!(!value["best_moves"].as_array().unwrap().is_empty());
    assert!(value["line"].as_array().unwrap().len() >= 12);
    assert!(value.get("moves").is_none());
}

#[test]
fn a_finished_position_has_its_score_and_no_move() {
    let board = format!("{}{} O", "X".repeat(40), "O".repeat(24));
    let out = kifu()
        .args(["solve", "--format", "csv", "-q", &board])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[..8], ["", &board, "0", "white", "-16", "", "", "0"]);
}

#[test]
fn bad_arguments_are_named_and_exit_2() {
    kifu()
        .args(["solve", "f5d6z9"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "position 1 (\"f5d6z9\"): move 3 (black) z9: not a square",
        ));
    kifu()
        .args(["solve", &format!("{} X", "X".repeat(63))])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the board has 63 squares, not 64",
        ));
    // 60 empties: refused before any search, with the way to ask anyway.
    kifu()
        .args(["solve", "f5"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "59 empty squares, more than --max-empties 30; give --max-empties 59",
        ));
}

#[test]
fn a_bad_line_of_a_file_is_named_and_the_rest_solved() {
    let dir = scratch("solve-lines");
    let file = dir.join("mixed.txt");
    std::fs::write(
        &file,
        "% a comment\n\
         XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X\n\
         XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- Q\n\
         \n\
         f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7\n",
    )
    .unwrap();
    let out = kifu()
        .args(["solve", "--format", "csv", "-q"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "mixed.txt:3: the side to move is 'Q'",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let sources: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(sources.len(), 2);
    assert!(sources[0].ends_with("mixed.txt:2"));
    assert!(sources[1].ends_with("mixed.txt:5"));
}
