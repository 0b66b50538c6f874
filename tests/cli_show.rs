//! `kifu show` through the binary, whole outputs compared.

use crate::support::kifu;

#[test]
fn show_typed_game_ends_with_the_score() {
    kifu()
        .args(["show", "f5d6c5f6e7f4g5e6e3", "--color", "never"])
        .assert()
        .code(0)
        .stdout(
            "opening: Fishhook
  a b c d e f g h
1 · · · · · · · · 1
2 · · · · · · · · 2
3 · · · ·[●]· · · 3
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
            "opening: Perpendicular Opening
  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - . - - - - - 3
4 - - . O X - - - 4
5 - - . O X X - - 5
6 - - .[O]- - - - 6
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
            "opening: Parallel Opening
  a b c d e f g h
1 O X . O O O[O]- 1
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
            "opening: Perpendicular Opening
  a b c d e f g h
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
5 - - - X X[X]- - 5
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
6 - - .[O]- - - - 6
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
            "opening: Fishhook
  a b c d e f g h
1 - - - - - - - - 1
2 - - - - - - - - 2
3 - - - - X . - - 3
4 - - - X O O . - 4
5 - - X X O O . - 5
6 - - - O .[O]- - 6
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

#[test]
fn show_colour_always_paints_discs_legal_moves_and_the_last_move() {
    let assert = kifu()
        .args(["show", "f5", "--ascii", "--color", "always"])
        .assert()
        .code(0);
    let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let row5 = text.lines().nth(5).unwrap();
    // d5 bold, e5 bold, f5 bold on yellow: the last move.
    assert_eq!(
        row5,
        "5 \u{1b}[2m-\u{1b}[0m \u{1b}[2m-\u{1b}[0m \u{1b}[2m-\u{1b}[0m \u{1b}[1mX\u{1b}[0m \u{1b}[1mX\u{1b}[0m \u{1b}[1m\u{1b}[30m\u{1b}[43mX\u{1b}[0m \u{1b}[2m-\u{1b}[0m \u{1b}[2m-\u{1b}[0m 5"
    );
    assert!(
        text.contains("\u{1b}[32m.\u{1b}[0m"),
        "legal moves in green"
    );
}

#[test]
fn show_colour_auto_is_off_when_piped_and_no_color_wins() {
    let plain = kifu()
        .args(["show", "f5"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(!plain.contains(&0x1b));
    let off = kifu()
        .env("NO_COLOR", "1")
        .args(["show", "f5", "--color", "auto"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(plain, off);
}

#[test]
fn show_sheet_numbers_every_move_where_it_was_played() {
    kifu()
        .args([
            "show",
            "fixtures/transcripts/example.txt",
            "--game",
            "2",
            "--sheet",
        ])
        .assert()
        .code(0)
        .stdout(
            "opening: Parallel Opening
   a  b  c  d  e  f  g  h
1 56 21 59 42 35 46 58  ·
2 53 32 14 24 28  8 50 37
3 43 17  3 19 15  5 11 55
4 40 31 10  ○  ●  2 16 20
5 27  9  6  ●  ○  1 51 39
6 12 38 52  7 26 13  4 44
7 47 36 22 30 23 29 18 41
8 54 25 57 34 45 33 48 49
move 59: white c1 (black had no move and passed)
black ● 25  white ○ 38  empty 1
game over: white wins 39-25
",
        );
}

#[test]
fn show_svg_writes_the_golden_pictures() {
    let dir = std::env::temp_dir().join(format!("kifu-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("board.svg");
    let sheet = dir.join("sheet.svg");
    kifu()
        .args(["show", "f5d6c3", "--svg"])
        .arg(&board)
        .assert()
        .code(0);
    kifu()
        .args(["show", "f5d6c3", "--sheet", "--svg"])
        .arg(&sheet)
        .assert()
        .code(0);
    let board_text = std::fs::read_to_string(&board).unwrap();
    let sheet_text = std::fs::read_to_string(&sheet).unwrap();
    assert_eq!(
        board_text,
        std::fs::read_to_string("fixtures/svg/f5d6c3.svg").unwrap()
    );
    assert_eq!(
        sheet_text,
        std::fs::read_to_string("fixtures/svg/f5d6c3-sheet.svg").unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_svg_dir_writes_one_picture_per_position() {
    let dir = std::env::temp_dir().join(format!("kifu-svgdir-{}", std::process::id()));
    kifu()
        .args(["show", "f5d6c3", "--each", "--svg-dir"])
        .arg(&dir)
        .assert()
        .code(0);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["000.svg", "001.svg", "002.svg", "003.svg"]);
    let last = std::fs::read_to_string(dir.join("003.svg")).unwrap();
    assert_eq!(
        last,
        std::fs::read_to_string("fixtures/svg/f5d6c3.svg").unwrap(),
        "the last picture is the final position"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn completions_and_man_page_come_from_the_clap_definitions() {
    let bash = kifu()
        .args(["completions", "bash"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let bash = String::from_utf8(bash).unwrap();
    assert!(bash.starts_with("_kifu() {"));
    assert!(bash.contains("--svg-dir"));
    let man = kifu()
        .arg("man")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let man = String::from_utf8(man).unwrap();
    assert!(man.contains(".TH kifu 1"));
    assert!(man.contains("convert"));
}
