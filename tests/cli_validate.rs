//! `kifu validate` through the binary, whole outputs compared.

use crate::support::kifu;

#[test]
fn validate_reports_each_invalid_game_with_a_caret_and_a_summary() {
    kifu()
        .args(["validate", "fixtures/transcripts/example.txt"])
        .assert()
        .code(1)
        .stdout(
            "fixtures/transcripts/example.txt:8:13: game 6, move 7 (black) d3: flips nothing
  |
8 | f5d6c5f4e3f6d3f3d7
  |             ^^ flips nothing

6 games read: 4 complete, 1 incomplete, 1 invalid
",
        )
        .stderr("");
}

#[test]
fn validate_all_valid_exits_0() {
    kifu()
        .args(["validate", "fixtures/transcripts/variants.txt"])
        .assert()
        .code(0)
        .stdout("7 games read: 0 complete, 7 incomplete, 0 invalid\n");
}

#[test]
fn validate_strict_fails_incomplete_games() {
    kifu()
        .args(["validate", "--strict", "-"])
        .write_stdin("f5d6c5f6e7f4g5e6e3\nf5d6\n")
        .assert()
        .code(1)
        .stdout(
            "-:2: game 2: incomplete: the record stops while black is to move
2 games read: 1 complete, 1 incomplete, 0 invalid
",
        );
}

#[test]
fn validate_names_every_kind_of_bad_move() {
    let input = "\
f5 f5
f5 a1
f5 i9
f5 pass
f5d6c5f6e7f4g5e6e3 a1
f5 d6 33-31 c3
";
    kifu()
        .args(["validate", "-"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(
            "-:1:4: game 1, move 2 (white) f5: square occupied
  |
1 | f5 f5
  |    ^^ square occupied

-:2:4: game 2, move 2 (white) a1: flips nothing
  |
2 | f5 a1
  |    ^^ flips nothing

-:3:4: game 3, move 2 (white) i9: not a square
  |
3 | f5 i9
  |    ^^ not a square

-:4:4: game 4, move 2 (white) pass: pass not allowed: White has moves
  |
4 | f5 pass
  |    ^^^^ pass not allowed: White has moves

-:5:20: game 5, move 10 (white) a1: move after the game ended
  |
5 | f5d6c5f6e7f4g5e6e3 a1
  |                    ^^ move after the game ended

-:6:13: game 6, text after the result
  |
6 | f5 d6 33-31 c3
  |             ^^ text after the result

6 games read: 0 complete, 0 incomplete, 6 invalid
",
        );
}

#[test]
fn validate_goes_on_after_an_unreadable_file_and_exits_2() {
    kifu()
        .args([
            "validate",
            "missing.txt",
            "fixtures/transcripts/variants.txt",
        ])
        .assert()
        .code(2)
        .stdout("7 games read: 0 complete, 7 incomplete, 0 invalid\n")
        .stderr("kifu: cannot read missing.txt: No such file or directory (os error 2)\n");
}

#[test]
fn validate_a_directory_is_an_io_error() {
    kifu()
        .args(["validate", "fixtures"])
        .assert()
        .code(2)
        .stderr("kifu: cannot read fixtures: is a directory\n");
}

#[test]
fn validate_counts_across_files() {
    kifu()
        .args([
            "validate",
            "fixtures/transcripts/variants.txt",
            "fixtures/transcripts/oracles.txt",
        ])
        .assert()
        .code(1)
        .stdout(
            "fixtures/transcripts/oracles.txt:6:13: game 3, move 7 (black) d3: flips nothing
  |
6 | f5d6c5f4e3f6d3f3d7
  |             ^^ flips nothing

10 games read: 2 complete, 7 incomplete, 1 invalid
",
        );
}
