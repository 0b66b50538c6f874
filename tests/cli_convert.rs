//! `kifu convert` and `kifu score` through the binary.

use crate::support::kifu;

const HEADER: &str = "source,index,event,date,black_player,white_player,moves,move_count,passes,black_discs,white_discs,empties,black_score,white_score,winner,recorded_black_score,status,error_move,error,theoretical_black_score,recorded_result,start,tags,opening\n";

#[test]
fn convert_to_csv_has_one_row_per_game_and_a_summary() {
    let expected = format!(
        "{HEADER}\
-,1,,,,,f5d6c5f6e7f4g5e6e3,9,0,13,0,51,64,0,black,64,complete,,,,64-0,,,Fishhook
-,2,,,,,f5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1a1c5,20,0,12,12,40,32,32,draw,,complete,,,,,,,Parallel Opening
-,3,,,,,f5d6,2,0,3,3,58,,,white,,incomplete,,,,0-1,,,Perpendicular Opening
-,4,,,,,f5d6c5f4e3f6d3f3d7,6,0,4,6,54,,,,,invalid,7,flips nothing,,,,,Fishhook
"
    );
    kifu()
        .args(["convert", "--to", "csv"])
        .write_stdin(
            "f5d6c5f6e7f4g5e6e3 64-0\nf5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1a1c5\nf5d6 0-1\nf5d6c5f4e3f6d3f3d7\n",
        )
        .assert()
        .code(1)
        .stdout(expected)
        .stderr("kifu: 4 games read: 2 complete, 1 incomplete, 1 invalid; 4 written, 0 left out\n");
}

#[test]
fn convert_names_invalid_games_and_losses_on_stderr() {
    kifu()
        .args(["convert", "--to", "transcript", "-"])
        .write_stdin("F5 D6 pass\nf5 pass d6 1-0\nf5d6c5f4e3f6d3f3d7\n")
        .assert()
        .code(1)
        .stdout("f5d6\nf5d6\nf5d6c5f4e3f6d3f3d7\n")
        .stderr(
            "kifu: -:1:7: game 1, move 3 (black) pass: pass not allowed: Black has moves (written as recorded)
kifu: -:2:4: game 2, move 2 (white) pass: pass not allowed: White has moves (written as recorded)
kifu: -:3:13: game 3, move 7 (black) d3: flips nothing (written as recorded)
kifu: warning: transcript cannot keep explicit passes (2 games)
kifu: warning: transcript cannot keep the recorded result (1 game)
kifu: 3 games read: 0 complete, 0 incomplete, 3 invalid; 3 written, 0 left out
",
        );
}

#[test]
fn convert_keeps_input_order_across_files_and_threads() {
    let dir = std::env::temp_dir().join(format!("kifu-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    let lines_a: String = (0..3000)
        .map(|i| if i % 2 == 0 { "f5d6\n" } else { "c4c3\n" })
        .collect();
    std::fs::write(&a, &lines_a).unwrap();
    std::fs::write(&b, "e6f4\n".repeat(2000)).unwrap();
    let out = kifu()
        .args(["convert", "--to", "txt", "--jobs", "2"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let expected = lines_a + &"e6f4\n".repeat(2000);
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_through_csv_and_jsonl_and_back_keeps_the_games() {
    let out = kifu()
        .args([
            "convert",
            "fixtures/transcripts/example.txt",
            "--to",
            "jsonl",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let csv = kifu()
        .args(["convert", "--from", "jsonl", "--to", "csv"])
        .write_stdin(out)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    kifu()
        .args(["convert", "--from", "csv", "--to", "transcript"])
        .write_stdin(csv)
        .assert()
        .code(1)
        .stdout(
            std::fs::read_to_string("fixtures/transcripts/example.txt")
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
        );
}

#[test]
fn convert_unknown_format_is_a_usage_error() {
    let assert = kifu()
        .args([
            "convert",
            "--to",
            "docx",
            "fixtures/transcripts/example.txt",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(
        err,
        "error: invalid value 'docx' for '--to <FORMAT>'
  [possible values: transcript, ggf, sgf, pgn, wthor, csv, jsonl, sheet, parquet, tokens]

For more information, try '--help'.
"
    );
}

#[test]
fn the_output_format_comes_from_the_output_name() {
    let dir = std::env::temp_dir().join(format!("kifu-infer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.csv");
    kifu()
        .args(["convert", "--from", "transcript", "-o"])
        .arg(&out)
        .write_stdin("f5d6c3\n")
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .starts_with("source,index,"));
    // Neither --to nor a known extension: a usage error naming both ways.
    kifu()
        .args(["convert", "--from", "transcript", "-o"])
        .arg(dir.join("games.out"))
        .write_stdin("f5d6c3\n")
        .assert()
        .code(2)
        .stderr(
            "kifu: cannot tell the output format: give --to FORMAT, or -o a file whose extension \
             names one (transcript, ggf, sgf, pgn, wthor, csv, jsonl, sheet, parquet, tokens)\n",
        );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_unreadable_input_is_reported_and_the_rest_converted() {
    kifu()
        .args([
            "convert",
            "--to",
            "txt",
            "nope.txt",
            "fixtures/transcripts/variants.txt",
        ])
        .assert()
        .code(2)
        .stdout("f5d6c3d3c4\n".repeat(7))
        .stderr(
            "kifu: cannot read nope.txt: No such file or directory (os error 2)
kifu: 7 games read: 0 complete, 7 incomplete, 0 invalid; 7 written, 0 left out
",
        );
}

#[test]
fn score_table_flags_disagreements_and_recorded_results() {
    kifu()
        .args(["score"])
        .write_stdin("f5d6 33-31\nf5d6c5f6e7f4g5e6e3 60-4\nf5d6c5f6e7f4g5e6e3 64-0\nf5 i9\n")
        .assert()
        .code(1)
        .stdout(
            "  game  black                 white                 discs  score  winner  status      note
     1  -                     -                       3-3      -  black   incomplete  recorded 33-31
     2  -                     -                      13-0   64-0  black   complete    recorded 60-4 differs
     3  -                     -                      13-0   64-0  black   complete
     4  -                     -                       4-1      -  -       invalid     move 2: not a square
",
        )
        .stderr("kifu: 4 games read: 2 complete, 1 incomplete, 1 invalid\n");
}

#[test]
fn score_json_is_one_object_per_game() {
    kifu()
        .args(["score", "--format", "json"])
        .write_stdin("f5d6c5f6e7f4g5e6e3\n")
        .assert()
        .code(0)
        .stdout(
            r#"{"source":"-","index":1,"event":null,"date":null,"black_player":null,"white_player":null,"moves":"f5d6c5f6e7f4g5e6e3","move_count":9,"passes":0,"black_discs":13,"white_discs":0,"empties":51,"black_score":64,"white_score":0,"winner":"black","recorded_black_score":null,"status":"complete","error_move":null,"error":null,"theoretical_black_score":null,"recorded_result":null,"start":null,"opening":"Fishhook","rules":"standard","site":null,"round":null,"black_rating":null,"white_rating":null,"tags":[]}
"#,
        );
}

#[test]
fn score_with_several_files_names_them() {
    let assert = kifu()
        .args([
            "score",
            "fixtures/transcripts/oracles.txt",
            "fixtures/transcripts/variants.txt",
        ])
        .assert()
        .code(1);
    let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11);
    // The file column is as wide as the longest name (33 characters).
    assert!(lines[0].starts_with(&format!("file{}  game", " ".repeat(31))));
    assert!(lines[1].starts_with("fixtures/transcripts/oracles.txt        1"));
    assert!(lines[10].starts_with("fixtures/transcripts/variants.txt       7"));
}
