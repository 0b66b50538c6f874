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

/// The analysed moves of `kifu analyze ARGS --moves --format csv -q` (one
/// thread: the same search order as `show`'s one game), each row by name.
fn analysed_moves(args: &[&str]) -> Vec<std::collections::HashMap<String, String>> {
    let out = kifu()
        .arg("analyze")
        .args(args)
        .args(["--moves", "--format", "csv", "-j", "1", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .map(str::to_owned)
                .zip(r.iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

fn stdout_lines(args: &[&str]) -> Vec<String> {
    let out = kifu().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn moves(n: i32) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

#[test]
fn show_analyze_with_a_depth_marks_estimates_and_leaves_exact_values_unmarked() {
    let dir = crate::support::scratch("show-depth");
    // The first game of the file, alone, for `analyze`.
    let game = std::fs::read_to_string("fixtures/transcripts/example.txt")
        .unwrap()
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap()
        .to_owned();
    let file = dir.join("game.txt");
    std::fs::write(&file, format!("{game}\n")).unwrap();
    let file = file.to_str().unwrap();
    let show = ["show", file, "--each", "--ascii", "--analyze", "20"];
    let judged = stdout_lines(&[&show[..], &["--depth", "4"]].concat());
    let exact = stdout_lines(&[&show[..], &["--depth", "0"]].concat());
    let rows = analysed_moves(&[file, "--empties", "20", "--depth", "4"]);
    let int = |row: &std::collections::HashMap<String, String>, key: &str| -> i32 {
        row[key].parse().unwrap()
    };
    let (estimated, solved): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r["exact"] == "false");
    assert!(estimated.len() > 30 && solved.len() > 15, "{rows:?}");
    let line = |lines: &[String], number: &str| -> String {
        let head = format!("move {number}: ");
        lines.iter().find(|l| l.starts_with(&head)).unwrap().clone()
    };
    for row in &rows {
        let (value, best, loss) = (int(row, "value"), int(row, "best_value"), int(row, "loss"));
        let mine = line(&judged, &row["move"]);
        if row["exact"] == "true" {
            // Exact values as without the search, unmarked.
            assert_eq!(mine, line(&exact, &row["move"]));
            assert!(!mine.contains('~'), "{mine}");
            assert!(mine.contains(&format!(" — value {value:+}")), "{mine}");
            continue;
        }
        // An estimate: `~` before every figure; marked as a mistake from
        // 4 discs up; the page without the search says nothing of it.
        assert_eq!(row["depth"], "4");
        let head = line(&exact, &row["move"]);
        assert!(!head.contains(" — "), "{head}");
        let said = mine.strip_prefix(&head).expect("the plain line first");
        if loss == 0 {
            assert_eq!(said, format!(" — value ~{value:+} (best)"));
        } else {
            let mark = match (loss >= 4, best.signum() != value.signum()) {
                (false, _) => "",
                (true, false) => " ?",
                (true, true) => " ??",
            };
            assert_eq!(
                said,
                format!(
                    " — value ~{value:+}, best ~{best:+} ({}), loss ~{loss}{mark}",
                    row["best_moves"]
                )
            );
        }
    }
    // Under each position before the exact part, the search's estimate.
    let estimates: Vec<&String> = judged
        .iter()
        .filter(|l| l.starts_with("estimate by a "))
        .collect();
    assert_eq!(estimates.len(), estimated.len());
    for (line, row) in estimates.iter().zip(&estimated) {
        assert_eq!(
            **line,
            format!(
                "estimate by a 4-move search: {} ~{:+} with {}",
                row["color"],
                int(row, "best_value"),
                row["best_moves"]
            )
        );
    }
    // The whole game's losses close the output, the estimates apart.
    let sum = |rows: &[&std::collections::HashMap<String, String>], color: &str, least: i32| {
        let mine: Vec<i32> = rows
            .iter()
            .filter(|r| r["color"] == color)
            .map(|r| int(r, "loss"))
            .collect();
        (
            mine.iter().sum::<i32>(),
            mine.iter().filter(|&&l| l >= least.max(1)).count() as i32,
        )
    };
    let first = |rows: &[&std::collections::HashMap<String, String>], least: i32| {
        rows.iter()
            .find(|r| int(r, "loss") >= least.max(1))
            .map(|r| r["move"].clone())
            .unwrap()
    };
    let (b, bn) = sum(&estimated, "black", 4);
    let (w, wn) = sum(&estimated, "white", 4);
    let (eb, ebn) = sum(&solved, "black", 0);
    let (ew, ewn) = sum(&solved, "white", 0);
    let last = estimated.last().unwrap()["move"].clone();
    assert_eq!(
        judged[judged.len() - 2..],
        [
            format!(
                "~ estimates by a 4-move search to move {last}: black lost ~{b} in {} of 4+ discs, \
                 white ~{w} in {}; first: move {}",
                moves(bn),
                moves(wn),
                first(&estimated, 4)
            ),
            format!(
                "exact from move {} (20 empties): black lost {eb} in {}, white {ew} in {}; \
                 first mistake: move {}",
                solved[0]["move"],
                moves(ebn),
                moves(ewn),
                first(&solved, 0)
            )
        ]
    );
    // Nothing else differs: `--depth 0` is the endgame alone, as before.
    let stripped: Vec<String> = judged[..judged.len() - 2]
        .iter()
        .filter(|l| !l.starts_with("estimate by a "))
        .map(|l| match l.find(" — value ~") {
            Some(at) => l[..at].to_owned(),
            None => l.clone(),
        })
        .collect();
    assert_eq!(stripped, exact);
    assert!(!exact.iter().any(|l| l.contains('~')));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn show_depth_needs_analyze() {
    let out = kifu()
        .args(["show", "f5d6c3", "--depth", "4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--analyze <N>"));
}
