//! GGF, SGF, PGN and OBF through the binary, and conversions across every
//! text format.

use crate::support::{corpus, kifu};

#[test]
fn obf_position_shows_with_its_scored_moves() {
    kifu()
        .args(["show", "fixtures/obf/positions.obf", "--ascii"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("start position\n"))
        .stdout(predicates::str::contains("scored moves: "));
}

#[test]
fn obf_is_read_only() {
    // Named by an output's extension…
    let out = std::env::temp_dir().join(format!("kifu-obf-{}.obf", std::process::id()));
    kifu()
        .args(["convert", "fixtures/transcripts/oracles.txt", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr("kifu: obf is read only: choose another output format\n");
    assert!(!out.exists());
    // …or not even offered to --to.
    kifu()
        .args(["convert", "--to", "obf", "fixtures/transcripts/oracles.txt"])
        .assert()
        .code(2)
        .stderr(
            "error: invalid value 'obf' for '--to <FORMAT>'
  [possible values: transcript, ggf, sgf, pgn, wthor, csv, jsonl, sheet, parquet, tokens]

For more information, try '--help'.
",
        );
}

#[test]
fn ggs_games_validate_and_survive_jsonl_with_evals_and_times() {
    let Some(dir) = corpus() else { return };
    let src = dir.join("ggf/ntest-TestGames.ggf");
    kifu()
        .arg("validate")
        .arg(&src)
        .assert()
        .code(0)
        .stdout("12 games read: 12 complete, 0 incomplete, 0 invalid\n");
    let json = kifu()
        .args(["convert", "--to", "jsonl"])
        .arg(&src)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let back = kifu()
        .args(["convert", "--from", "jsonl", "--to", "ggf"])
        .write_stdin(json)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let read = |bytes: &[u8]| -> Vec<kifu::GameRecord> {
        kifu::formats::ggf::Reader::new(bytes)
            .map(|g| g.unwrap())
            .collect()
    };
    let original = read(&std::fs::read(&src).unwrap());
    let back = read(&back);
    assert_eq!(back.len(), 12);
    for (a, b) in original.iter().zip(&back) {
        let tokens = |g: &kifu::GameRecord| g.moves.iter().map(|m| m.token).collect::<Vec<_>>();
        assert_eq!(tokens(a), tokens(b), "game {}", a.origin.index);
        assert_eq!(
            a.notes, b.notes,
            "evaluations and times, game {}",
            a.origin.index
        );
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.result, b.result);
        assert_eq!(a.start, b.start);
    }
}

#[test]
fn ggf_unsupported_board_size_is_an_invalid_game_with_a_caret() {
    let Some(dir) = corpus() else { return };
    let assert = kifu()
        .arg("validate")
        .arg(dir.join("ggf/nboard-test2.ggf"))
        .assert()
        .code(1);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        out.contains(":1:1: game 1, unsupported board size 4x4\n"),
        "{out}"
    );
    assert!(out.ends_with("3 games read: 2 complete, 0 incomplete, 1 invalid\n"));
}

#[test]
fn man_dir_makes_the_folder_it_is_given() {
    let base = std::env::temp_dir().join(format!("kifu-man-new-{}", std::process::id()));
    let dir = base.join("share").join("man1");
    let _ = std::fs::remove_dir_all(&base);
    kifu()
        .arg("man")
        .arg("--dir")
        .arg(&dir)
        .assert()
        .code(0)
        .stdout("");
    assert!(dir.join("kifu.1").is_file());
    assert!(dir.join("kifu-convert.1").is_file());
    // A file where the folder should be is an I/O error that names it.
    let file = base.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = kifu()
        .arg("man")
        .arg("--dir")
        .arg(&file)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.contains("cannot make the folder"), "{err}");
    assert!(err.contains("a-file"), "{err}");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn man_writes_one_page_per_subcommand() {
    let dir = std::env::temp_dir().join(format!("kifu-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    kifu()
        .arg("man")
        .arg("--dir")
        .arg(&dir)
        .assert()
        .code(0)
        .stdout("");
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(
        pages,
        [
            "kifu-analyze.1",
            "kifu-completions.1",
            "kifu-convert.1",
            "kifu-engine.1",
            "kifu-eval.1",
            "kifu-explore.1",
            "kifu-formats.1",
            "kifu-man.1",
            "kifu-openings.1",
            "kifu-positions.1",
            "kifu-repair.1",
            "kifu-score.1",
            "kifu-serve.1",
            "kifu-show.1",
            "kifu-solve.1",
            "kifu-split.1",
            "kifu-stats.1",
            "kifu-train-eval.1",
            "kifu-validate.1",
            "kifu.1"
        ]
    );
    let show = std::fs::read_to_string(dir.join("kifu-show.1")).unwrap();
    assert!(show.starts_with(".ie \\n(.g .ds Aq \\(aq"), "{show}");
    assert!(
        show.contains("kifu\\-show"),
        "the page is named for the subcommand"
    );
    assert!(show.contains("\\-\\-ply"), "and documents its flags");
    std::fs::remove_dir_all(&dir).unwrap();
    // Without --dir, the top page on standard output, as before.
    let top = kifu().arg("man").output().unwrap();
    assert!(String::from_utf8_lossy(&top.stdout).contains(".TH kifu 1"));
}
