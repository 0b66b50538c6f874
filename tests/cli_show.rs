//! `kifu show` through the binary, whole outputs compared.

use crate::support::kifu;

#[test]
fn show_typed_game_ends_with_the_score() {
    kifu()
        .args(["show", "f5d6c5f6e7f4g5e6e3"])
        .assert()
        .code(0)
        .stdout(
            "  a b c d e f g h
1 · · · · · · · · 1
2 · · · · · · · · 2
3 · · · · ● · · · 3
4 · · · ● ● ● · · 4
5 · · ● ● ● ● ● · 5
6 · · · ● ● ● · · 6
7 · · · · ● · · · 7
8 · · · · · · · · 8
  a b c d e f g h
move 9: black e3
black ● 13  white ○ 0  empty 51
game over: black wins 64-0
",
        )
        .stderr("");
}

#[test]
fn show_ascii_marks_legal_moves_of_the_side_to_move() {
    kifu()
        .args(["show", "f5", "d6", "--ascii"])
        .assert()
        .code(0)
        .stdout(
            "  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - . - - - - - 3
4 - - . O X - - - 4
5 - - . O X X - - 5
6 - - . O - - - - 6
7 - - . - - - - - 7
8 - - - - - - - - 8
  a b c d e f g h
move 2: white d6
black X 3  white O 3  empty 58
black to move: c3 c4 c5 c6 c7
",
        );
}

#[test]
fn show_draw_with_empties_is_32_32() {
    let out = kifu()
        .args(["show", "fixtures/transcripts/oracles.txt", "--game", "2"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let tail: Vec<&str> = text.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            "game over: draw 32-32",
            "black ● 12  white ○ 12  empty 40",
            "move 20: white c5"
        ]
    );
}

#[test]
fn show_ply_before_a_forced_pass_says_who_passes() {
    kifu()
        .args([
            "show",
            "fixtures/transcripts/example.txt",
            "--game",
            "2",
            "--ply",
            "58",
            "--ascii",
        ])
        .assert()
        .code(0)
        .stdout(
            "  a b c d e f g h
1 O X . O O O O - 1
2 O O X X X O O X 2
3 O X O O O O O X 3
4 O X O O O X O X 4
5 O O O O X X O X 5
6 O X O O X O O X 6
7 O O X X X O X X 7
8 O X X X X X X X 8
  a b c d e f g h
move 58: white g1
black X 28  white O 34  empty 2
black has no move and must pass; white to move: c1
",
        );
}

#[test]
fn show_last_move_notes_the_implicit_pass() {
    let assert = kifu()
        .args([
            "show",
            "fixtures/transcripts/example.txt",
            "--game",
            "2",
            "--ascii",
        ])
        .assert()
        .code(0);
    let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(text.ends_with(
        "move 59: white c1 (black had no move and passed)
black X 25  white O 38  empty 1
game over: white wins 39-25
"
    ));
}

#[test]
fn show_each_prints_every_position_from_the_start() {
    kifu()
        .args(["show", "f5d6", "--each", "--ascii"])
        .assert()
        .code(0)
        .stdout(
            "  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - - . - - - - 3
4 - - . O X - - - 4
5 - - - X O . - - 5
6 - - - - . - - - 6
7 - - - - - - - - 7
8 - - - - - - - - 8
  a b c d e f g h
start position
black X 2  white O 2  empty 60
black to move: d3 c4 f5 e6

  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - - - - - - - 3
4 - - - O X . - - 4
5 - - - X X X - - 5
6 - - - . - . - - 6
7 - - - - - - - - 7
8 - - - - - - - - 8
  a b c d e f g h
move 1: black f5
black X 4  white O 1  empty 59
white to move: f4 d6 f6

  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - . - - - - - 3
4 - - . O X - - - 4
5 - - . O X X - - 5
6 - - . O - - - - 6
7 - - . - - - - - 7
8 - - - - - - - - 8
  a b c d e f g h
move 2: white d6
black X 3  white O 3  empty 58
black to move: c3 c4 c5 c6 c7
",
        );
}

#[test]
fn show_invalid_game_shows_last_legal_position_and_fails() {
    kifu()
        .args(["show", "f5d6c5f4e3f6d3f3d7", "--ascii"])
        .assert()
        .code(1)
        .stdout(
            "  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - - - X . - - 3
4 - - - X O O . - 4
5 - - X X O O . - 5
6 - - - O . O - - 6
7 - - - . . - . - 7
8 - - - - - - - - 8
  a b c d e f g h
move 6: white f6
black X 4  white O 6  empty 54
black to move: f3 g4 g5 e6 d7 e7 g7
",
        )
        .stderr(
            "(command line):1:13: game 1, move 7 (black) d3: flips nothing
  |
1 | f5d6c5f4e3f6d3f3d7
  |             ^^ flips nothing

",
        );
}

#[test]
fn show_rejects_a_pass_where_a_move_exists() {
    kifu()
        .args(["show", "f5 pass", "--ascii"])
        .assert()
        .code(1)
        .stderr(
            "(command line):1:4: game 1, move 2 (white) pass: pass not allowed: White has moves
  |
1 | f5 pass
  |    ^^^^ pass not allowed: White has moves

",
        );
}

#[test]
fn show_missing_game_number_is_a_usage_error() {
    kifu()
        .args(["show", "fixtures/transcripts/example.txt", "--game", "9"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("kifu: fixtures/transcripts/example.txt holds 6 games, so there is no game 9\n");
}

#[test]
fn show_ply_past_the_end_is_a_usage_error() {
    kifu()
        .args(["show", "f5d6", "--ply", "5"])
        .assert()
        .code(2)
        .stderr("kifu: --ply 5: the record has only 2 moves\n");
}

#[test]
fn show_missing_file_is_an_io_error() {
    kifu()
        .args(["show", "no/such/games.txt"])
        .assert()
        .code(2)
        .stderr("kifu: cannot read no/such/games.txt: no such file\n");
}

#[test]
fn show_reads_a_game_from_stdin() {
    let assert = kifu()
        .args(["show", "-", "--game", "2", "--ascii"])
        .write_stdin("# two games\nf5\nf5d6c5f6e7f4g5e6e3\n")
        .assert()
        .code(0);
    let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(text.ends_with("game over: black wins 64-0\n"), "{text}");
}

#[test]
fn unknown_flag_exits_2() {
    kifu().args(["show", "--frobnicate", "f5"]).assert().code(2);
}
