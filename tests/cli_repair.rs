//! `kifu repair` and `kifu validate --suggest` through the binary, whole
//! outputs compared.

use crate::support::kifu;

/// What `kifu repair fixtures/repair/typos.txt` writes: the repaired
/// games, the others as they were.
const REPAIRED: &str = "f5d6c3d3c4f4f6f3e6e7
f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
f5e7
f5a1a1a1a1
";

/// What it says on standard error about each invalid game.
const REPORT: &str = "kifu: fixtures/repair/typos.txt:4:45: game 2: repaired: move 23: d8 -> e7 (neighbouring square)
kifu: fixtures/repair/typos.txt:5:1: game 3: repaired: whole record: mirrored top to bottom (rows counted from the bottom)
kifu: fixtures/repair/typos.txt:6:41: game 4: repaired: moves 21 and 22: c7 b1 -> b1 c7 (transposed)
kifu: fixtures/repair/typos.txt:7:67: game 5: repaired: move 34: d8 inserted (missing move)
kifu: fixtures/repair/typos.txt:8:4: game 6: left as is: 2 repairs tie: move 2: e7 -> d6 (neighbouring square) | move 2: e7 -> f6 (neighbouring square)
kifu: fixtures/repair/typos.txt:9:4: game 7: left as is: no repair of up to 2 edits plays the record to its end (the closest, move 2: a1 deleted (extra move), stops at move 3 of 5)
kifu: 7 games read: 1 already valid, 4 repaired, 1 ambiguous, 1 not repaired; 7 written
";

#[test]
fn repair_writes_every_game_and_reports_what_it_did() {
    kifu()
        .args(["repair", "fixtures/repair/typos.txt"])
        .assert()
        .code(1)
        .stdout(REPAIRED)
        .stderr(REPORT);
}

#[test]
fn repair_writes_to_the_output_file() {
    let path = std::env::temp_dir().join(format!("kifu-repair-{}.txt", std::process::id()));
    kifu()
        .args(["repair", "fixtures/repair/typos.txt", "-o"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout("")
        .stderr(REPORT);
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(written, REPAIRED);
}

#[test]
fn repair_exits_0_when_every_game_ends_valid() {
    kifu()
        .args(["repair", "--to", "transcript", "-"])
        .write_stdin("f5d6c3d3c4f4f6g3e6e7\nf5d6\n")
        .assert()
        .code(0)
        .stdout("f5d6c3d3c4f4f6f3e6e7\nf5d6\n")
        .stderr(
            "kifu: -:1:15: game 1: repaired: move 8: g3 -> f3 (neighbouring square)
kifu: 2 games read: 1 already valid, 1 repaired, 0 ambiguous, 0 not repaired; 2 written
",
        );
}

#[test]
fn repair_to_csv_gives_the_repaired_game_its_row() {
    kifu()
        .args(["repair", "--to", "csv", "-"])
        .write_stdin("f5d6c3d3c4f4f6g3e6e7\n")
        .assert()
        .code(0)
        .stdout("source,index,event,date,black_player,white_player,moves,move_count,passes,black_discs,white_discs,empties,black_score,white_score,winner,recorded_black_score,status,error_move,error,theoretical_black_score,recorded_result,start,tags,opening
-,1,,,,,f5d6c3d3c4f4f6f3e6e7,10,0,6,8,50,,,,,incomplete,,,,,,,Scorpion
");
}

#[test]
fn repair_max_edits_1_leaves_two_slips() {
    let two = "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7d8d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1b2\n";
    kifu()
        .args(["repair", "--max-edits", "1", "--to", "transcript", "-"])
        .write_stdin(two)
        .assert()
        .code(1)
        .stdout(two)
        .stderr(
            "kifu: -:1:45: game 1: left as is: no repair of one edit plays the record to its end (the closest, move 23: d8 -> e7 (neighbouring square), stops at move 59 of 59)
kifu: 1 game read: 0 already valid, 0 repaired, 0 ambiguous, 1 not repaired; 1 written
",
        );
    kifu()
        .args(["repair", "--to", "transcript", "-"])
        .write_stdin(two)
        .assert()
        .code(0)
        .stderr(
            "kifu: -:1:45: game 1: repaired: move 23: d8 -> e7 (neighbouring square); move 59: b2 -> c1 (neighbouring square)
kifu: 1 game read: 0 already valid, 1 repaired, 0 ambiguous, 0 not repaired; 1 written
",
        );
}

#[test]
fn repair_of_standard_input_needs_a_format() {
    kifu()
        .args(["repair"])
        .write_stdin("f5d6\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr("kifu: cannot tell the output format for standard input: use --to (or --from)\n");
}

#[test]
fn repair_of_inputs_in_two_formats_needs_to() {
    kifu()
        .args([
            "repair",
            "fixtures/repair/typos.txt",
            "fixtures/repair/typos.csv",
        ])
        .assert()
        .code(2)
        .stderr("kifu: the inputs are in different formats (transcript and csv): use --to\n");
}

#[test]
fn validate_suggest_prints_the_best_repairs_under_each_diagnostic() {
    kifu()
        .args(["validate", "--suggest", "fixtures/repair/typos.txt"])
        .assert()
        .code(1)
        .stdout("fixtures/repair/typos.txt:4:45: game 2, move 23 (black) d8: flips nothing
  |
4 | f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7d8d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
  |                                             ^^ flips nothing

  suggestions, best first:
  1. move 23: d8 -> e7 (neighbouring square): plays to the end, white wins 39-25
     from move 20: h4 b1 c7 [e7] d2 b8 e6
  2. move 23: d8 -> h8 (wrong column): stops at move 31 of 59
     from move 20: h4 b1 c7 [h8] d2 b8 e6
  3. move 23: d8 -> g5 (another move): stops at move 31 of 59
     from move 20: h4 b1 c7 [g5] d2 b8 e6

fixtures/repair/typos.txt:5:1: game 3, move 1 (black) f4: flips nothing
  |
5 | f4f5c6g3f6c4d3f7b4c5g6a3f3c7e6g5b6g2d6h5b8c2e2d7b1e3a4e7f2d2b5b7f1d1e8b2h7b3h4a5h2d8a6h3e1f8a2g1h1g7g4c3a7a1h6a8c1g8c8
  | ^^ flips nothing

  suggestions, best first:
  1. whole record: mirrored top to bottom (rows counted from the bottom): plays to the end, white wins 39-25
     from move 1: f5 f4 c3 g6
  2. moves 1 and 2: f4 f5 -> f5 f4 (transposed): stops at move 3 of 59
     from move 1: [f5] [f4] c6 g3 f6
  3. move 1: f4 deleted (extra move): stops at move 3 of 59
     from move 1: [-f4] f5 c6 g3 f6

fixtures/repair/typos.txt:6:41: game 4, move 21 (black) c7: flips nothing
  |
6 | f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4c7b1e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
  |                                         ^^ flips nothing

  suggestions, best first:
  1. moves 21 and 22: c7 b1 -> b1 c7 (transposed): plays to the end, white wins 39-25
     from move 18: g7 d3 h4 [b1] [c7] e7 d2 b8
  2. move 21: e6 inserted (missing move): stops at move 24 of 59
     from move 18: g7 d3 h4 [+e6] c7 b1 e7
  3. move 21: f7 inserted (missing move): stops at move 24 of 59
     from move 18: g7 d3 h4 [+f7] c7 b1 e7

fixtures/repair/typos.txt:7:67: game 5, move 34 (white) e1: flips nothing
  |
7 | f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1
  |                                                                   ^^ flips nothing

  suggestions, best first:
  1. move 34: d8 inserted (missing move): plays to the end, white wins 39-25
     from move 31: b4 b2 f8 [+d8] e1 b7 h2
  2. move 33: g8 inserted (missing move): stops at move 47 of 58
     from move 30: d7 b4 b2 [+g8] f8 e1 b7
  3. move 30: d8 inserted (missing move): stops at move 47 of 58
     from move 27: a5 e2 f7 [+d8] d7 b4 b2

fixtures/repair/typos.txt:8:4: game 6, move 2 (white) e7: flips nothing
  |
8 | f5 e7
  |    ^^ flips nothing

  suggestions, best first:
  1. move 2: e7 -> d6 (neighbouring square): plays to the end, incomplete
     from move 1: f5 [d6]
  2. move 2: e7 -> f6 (neighbouring square): plays to the end, incomplete
     from move 1: f5 [f6]
  3. move 2: e7 deleted (extra move): plays to the end, incomplete
     from move 1: f5 [-e7]
  the first 2 tie: kifu repair leaves this game as is

fixtures/repair/typos.txt:9:4: game 7, move 2 (white) a1: flips nothing
  |
9 | f5 a1 a1 a1 a1
  |    ^^ flips nothing

  suggestions, best first:
  1. move 2: a1 deleted (extra move): stops at move 3 of 5
     from move 1: f5 [-a1] a1 a1 a1
  2. move 2: a1 -> f4 (another move): stops at move 3 of 5
     from move 1: f5 [f4] a1 a1 a1
  3. move 2: a1 -> d6 (another move): stops at move 3 of 5
     from move 1: f5 [d6] a1 a1 a1

7 games read: 0 complete, 1 incomplete, 6 invalid
")
        .stderr("");
}

#[test]
fn validate_suggest_takes_a_count() {
    kifu()
        .args(["validate", "--suggest=1", "-"])
        .write_stdin("f5d6c3d3c4f4f6g3e6e7\nf5 e7\n")
        .assert()
        .code(1)
        .stdout(
            "-:1:15: game 1, move 8 (white) g3: flips nothing
  |
1 | f5d6c3d3c4f4f6g3e6e7
  |               ^^ flips nothing

  suggestions, best first:
  1. move 8: g3 -> f3 (neighbouring square): plays to the end, incomplete
     from move 5: c4 f4 f6 [f3] e6 e7

-:2:4: game 2, move 2 (white) e7: flips nothing
  |
2 | f5 e7
  |    ^^ flips nothing

  suggestions, best first:
  1. move 2: e7 -> d6 (neighbouring square): plays to the end, incomplete
     from move 1: f5 [d6]
  the first 2 tie: kifu repair leaves this game as is

2 games read: 0 complete, 0 incomplete, 2 invalid
",
        );
}

#[test]
fn repair_into_a_binary_format_is_refused_with_a_hint() {
    kifu()
        .args(["repair", "fixtures/wthor/SAMPLE.wtb"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("kifu: repair writes text formats, not wthor: choose one with --to (jsonl keeps everything)\n");
}
