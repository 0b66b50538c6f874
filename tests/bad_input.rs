//! The catalogue of bad inputs: each gets a clear answer with where, and
//! the summary's counts still add up. Never a panic, a hang or a lost game.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use crate::support::kifu;

fn validate(input: &[u8], from: &str) -> (i32, String, String) {
    let out = kifu()
        .args(["validate", "--color", "never", "--from", from])
        .write_stdin(input.to_vec())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn header(games: u32, board: u8, kind: u8) -> Vec<u8> {
    let mut h = vec![20, 26, 11, 21];
    h.extend_from_slice(&games.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes());
    h.extend_from_slice(&2026u16.to_le_bytes());
    h.extend_from_slice(&[board, kind, 24, 0]);
    h
}

fn record(moves: &[u8], score: u8) -> Vec<u8> {
    let mut r = vec![0, 0, 0, 0, 0, 0, score, score];
    let mut m = moves.to_vec();
    m.resize(60, 0);
    r.extend_from_slice(&m);
    r
}

/// f5 d6 c5 f6 e7 f4 g5 e6 e3: a complete game, 64-0.
const SHORT_WIN: [u8; 9] = [56, 64, 53, 66, 75, 46, 57, 65, 35];

#[test]
fn empty_input_and_a_lone_byte_order_mark_hold_no_games() {
    for input in [&b""[..], b"\xEF\xBB\xBF", b"\n\n", b"# only a comment\n"] {
        assert_eq!(
            validate(input, "transcript"),
            (
                0,
                "0 games read: 0 complete, 0 incomplete, 0 invalid\n".into(),
                String::new()
            ),
            "{input:?}"
        );
    }
    assert_eq!(
        validate(b"", "wthor").1,
        "0 games read: 0 complete, 0 incomplete, 0 invalid\n"
    );
}

#[test]
fn invalid_utf8_and_nul_bytes_are_unreadable_tokens() {
    let (code, out, _) = validate(b"f5 \xff d6\n", "transcript");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("-:1:4: game 1, move 2 (white) \u{fffd}: not a square\n"),
        "{out}"
    );
    let (code, out, _) = validate(b"f5\0d6\n", "transcript");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "-:1:3: game 1, move 2 (white) \\0: not a square
  |
1 | f5?d6
  |   ^ not a square

1 game read: 0 complete, 0 incomplete, 1 invalid
"
    );
}

#[test]
fn crlf_and_lone_cr_line_ends() {
    assert_eq!(
        validate(b"f5d6\r\nf5f6\r\n", "transcript").1,
        "2 games read: 0 complete, 2 incomplete, 0 invalid\n"
    );
    assert_eq!(
        validate(b"f5d6\rf5f6\rc4c3", "transcript").1,
        "3 games read: 0 complete, 3 incomplete, 0 invalid\n"
    );
}

#[test]
fn csv_errors_name_the_line_after_crlf_and_blank_lines() {
    let table =
        b"black_player,white_player,moves\r\n\r\nA,B,f5f5\r\nC,D,f5d6\r\n\r\n\r\nE,F,a1\r\n";
    let (code, out, _) = validate(table, "csv");
    assert_eq!(code, 1, "{out}");
    // The diagnostics (on standard output) name line 3 and line 7, and
    // the columns of the bad moves.
    assert!(
        out.contains("-:3:7: game 1, move 2 (white) f5: square occupied"),
        "{out}"
    );
    assert!(
        out.contains("-:7:5: game 3, move 1 (black) a1: flips nothing"),
        "{out}"
    );
    let unix: Vec<u8> = table.iter().copied().filter(|&b| b != b'\r').collect();
    let (_, out, _) = validate(&unix, "csv");
    assert!(out.contains("-:3:7: game 1"), "{out}");
    assert!(out.contains("-:7:5: game 3"), "{out}");
}

#[test]
fn a_100_mb_line_is_one_invalid_game_read_in_bounded_memory() {
    let mut input = b"f5".repeat(50 * 1024 * 1024);
    input.extend_from_slice(b"\nf5d6\n");
    let (code, out, _) = validate(&input, "transcript");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "-:1:1: game 1, line too long: 104857600 bytes (the limit is 1048576 bytes)
2 games read: 0 complete, 1 incomplete, 1 invalid
"
    );
}

#[test]
fn tokens_that_are_not_squares() {
    for (token, column) in [("i9", 4), ("z0", 4), ("f55", 4), ("ff", 4)] {
        let (code, out, _) = validate(format!("f5 {token} d6\n").as_bytes(), "transcript");
        assert_eq!(code, 1);
        assert!(
            out.starts_with(&format!(
                "-:1:{column}: game 1, move 2 (white) {token}: not a square\n"
            )),
            "{out}"
        );
    }
}

#[test]
fn moves_after_the_end_passes_where_a_move_exists_and_a_61st_move() {
    let full = std::fs::read_to_string("fixtures/transcripts/example.txt")
        .unwrap()
        .lines()
        .nth(2)
        .unwrap()
        .to_owned();
    assert_eq!(full.len(), 120, "a 60-move game");
    let (code, out, _) = validate(format!("{full}a1\n").as_bytes(), "transcript");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("-:1:121: game 1, move 61 (black) a1: move after the game ended\n"),
        "{out}"
    );
    let (_, out, _) = validate(b"f5d6c5f6e7f4g5e6e3 pass\n", "transcript");
    assert!(out.starts_with("-:1:20: game 1, move 10 (white) pass: move after the game ended\n"));
    let (_, out, _) = validate(b"f5 d6 pass\n", "transcript");
    assert!(
        out.starts_with("-:1:7: game 1, move 3 (black) pass: pass not allowed: Black has moves\n")
    );
}

#[test]
fn wthor_header_that_claims_more_or_fewer_games_than_the_data() {
    let mut more = header(3, 8, 0);
    more.extend(record(&SHORT_WIN, 64));
    more.extend(record(&SHORT_WIN, 64));
    let (code, out, err) = validate(&more, "wthor");
    assert_eq!(code, 2);
    assert_eq!(out, "2 games read: 2 complete, 0 incomplete, 0 invalid\n");
    assert_eq!(
        err,
        "kifu: -: header says 3 games but the file holds 2: record 3 at byte 152 is missing\n"
    );
    let mut fewer = header(1, 8, 0);
    fewer.extend(record(&SHORT_WIN, 64));
    fewer.extend(record(&SHORT_WIN, 64));
    let (code, out, err) = validate(&fewer, "wthor");
    assert_eq!(code, 2);
    assert_eq!(out, "1 game read: 1 complete, 0 incomplete, 0 invalid\n");
    assert!(err.starts_with("kifu: -: header says 1 game"), "{err}");
}

#[test]
fn wthor_truncated_record_names_the_record_and_byte() {
    let mut data = header(2, 8, 0);
    data.extend(record(&SHORT_WIN, 64));
    data.extend(&record(&SHORT_WIN, 64)[..20]);
    let (code, out, err) = validate(&data, "wthor");
    assert_eq!(code, 2);
    assert_eq!(out, "1 game read: 1 complete, 0 incomplete, 0 invalid\n");
    assert_eq!(
        err,
        "kifu: -: record 2 at byte 84 is truncated: 20 of 68 bytes (header says 2 games)\n"
    );
}

#[test]
fn wthor_move_bytes_outside_the_board() {
    let mut data = header(1, 8, 0);
    data.extend(record(&[56, 99, 64], 64));
    let (code, out, _) = validate(&data, "wthor");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "-: record 1, byte 25: game 1, move 2 (white) byte 99: not a square
1 game read: 0 complete, 0 incomplete, 1 invalid
"
    );
}

#[test]
fn wthor_ten_by_ten_header_is_unsupported() {
    let mut data = header(1, 10, 0);
    data.extend(vec![0u8; 104]);
    let (code, out, err) = validate(&data, "wthor");
    assert_eq!(code, 2);
    assert_eq!(out, "0 games read: 0 complete, 0 incomplete, 0 invalid\n");
    assert_eq!(err, "kifu: -: unsupported board size 10x10\n");
}

#[test]
fn wthor_name_files_with_junk_in_the_header_are_tolerated() {
    let dir = std::env::temp_dir().join(format!("kifu-junk-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut games = header(1, 8, 0);
    games.extend(record(&SHORT_WIN, 64));
    std::fs::write(dir.join("X_2026.wtb"), games).unwrap();
    let mut jou = vec![20, 26, 11, 21, 0, 0, 0, 0, 1, 0, 0, 0, 124, 0, 0, 0];
    let mut name = b"Junk Header".to_vec();
    name.resize(20, 0);
    jou.extend(name);
    std::fs::write(dir.join("X.JOU"), jou).unwrap();
    kifu()
        .arg("score")
        .arg(dir.join("X_2026.wtb"))
        .assert()
        .code(0)
        .stdout(
            "  game  black                 white                 discs  score  winner  status      note
     1  Junk Header           Junk Header            13-0   64-0  black   complete
",
        );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ggf_unbalanced_brackets_resynchronise_at_the_next_game() {
    let (code, out, _) = validate(b"(;GM[Othello]B[f5;)\n(;GM[Othello]B[f5]W[d6];)\n", "ggf");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "-:1:14: game 1, tag B not closed: missing `]`
  |
1 | (;GM[Othello]B[f5;)
  |              ^^ tag B not closed: missing `]`

2 games read: 0 complete, 1 incomplete, 1 invalid
"
    );
}

#[test]
fn directories_and_missing_files_are_io_errors_and_the_rest_is_read() {
    kifu()
        .args([
            "validate",
            "fixtures",
            "no-such-file.ggf",
            "fixtures/transcripts/oracles.txt",
        ])
        .assert()
        .code(2)
        .stderr(
            "kifu: cannot read fixtures: is a directory
kifu: cannot read no-such-file.ggf: No such file or directory (os error 2)
",
        );
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let bin = assert_cmd::cargo::cargo_bin("kifu");
    let mut child = Command::new(bin)
        .args(["convert", "--to", "csv", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let games = "f5d6c5f6e7f4g5e6e3\n".repeat(200_000);
        let _ = stdin.write_all(games.as_bytes());
    });
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status:?}");
    assert_eq!(err, "");
}

#[test]
fn sgf_nested_variations_keep_the_main_line() {
    let (code, out, _) = validate(b"(;FF[4]GM[2]SZ[8];B[f5](;W[d6];B[c3])(;W[f6]))\n", "sgf");
    assert_eq!(code, 0);
    assert_eq!(out, "1 game read: 0 complete, 1 incomplete, 0 invalid\n");
    let games: Vec<_> =
        kifu::formats::sgf::Reader::new(&b"(;FF[4]GM[2]SZ[8];B[f5](;W[d6];B[c3])(;W[f6]))"[..])
            .map(|g| g.unwrap())
            .collect();
    assert_eq!(games[0].move_string(), "f5d6c3");
}

#[test]
fn sgf_unbalanced_brackets_are_reported_and_the_next_game_read() {
    let (code, out, _) = validate(
        b"(;FF[4]GM[2]SZ[8];B[f5;W[d6])\n(;FF[4]GM[2]SZ[8];B[f5];W[f6])\n",
        "sgf",
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "-:1:21: game 1, move 1 (black) f5;W[d6: not a square
  |
1 | (;FF[4]GM[2]SZ[8];B[f5;W[d6])
  |                     ^^^^^^^ not a square

2 games read: 0 complete, 1 incomplete, 1 invalid
"
    );
}

#[test]
fn binary_junk_of_no_known_format_is_refused() {
    let dir = std::env::temp_dir().join(format!("kifu-junk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("picture.bin");
    std::fs::write(&path, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    kifu()
        .arg("validate")
        .arg(&path)
        .assert()
        .code(2)
        .stdout("0 games read: 0 complete, 0 incomplete, 0 invalid\n")
        .stderr(format!(
            "kifu: cannot tell the format of {}: use --from\n",
            path.display()
        ));
    std::fs::remove_dir_all(&dir).unwrap();
}
