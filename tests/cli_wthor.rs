//! WTHOR databases through the binary: validate, score, convert both ways.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use kifu::formats::{jsonl, wthor};
use kifu::GameRecord;

use crate::support::{corpus, kifu};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kifu-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read_wthor(path: &Path) -> Vec<GameRecord> {
    wthor::Reader::open(path)
        .unwrap()
        .map(|g| g.unwrap())
        .collect()
}

/// What a WTHOR round trip must keep of every game.
#[derive(Debug, PartialEq)]
struct Essentials {
    moves: String,
    score: Option<u8>,
    theoretical: Option<u8>,
    names: [Option<String>; 3],
}

fn essentials(g: &GameRecord) -> Essentials {
    Essentials {
        moves: g.move_string(),
        score: g.result.and_then(|r| r.black_score()),
        theoretical: g.theoretical_black_score,
        names: [
            g.tags.black.clone(),
            g.tags.white.clone(),
            g.tags.event.clone(),
        ],
    }
}

#[test]
fn fixture_database_scores_with_names() {
    kifu()
        .args(["score", "fixtures/wthor/SAMPLE.wtb"])
        .assert()
        .code(0)
        .stdout(
            "  game  black                 white                 discs  score  winner  status      note
     1  Tastet Marc           Penloup Dominique      13-0   64-0  black   complete
     2  Penloup Dominique     Müller Jörg           12-12  32-32  draw    complete
     3  #9                    Tastet Marc             5-2      -  black   incomplete  recorded 40-24
",
        )
        .stderr(
            "kifu: warning: 1 player number (#9) missing from the WTHOR name files: those names show as #N
kifu: 3 games read: 2 complete, 1 incomplete, 0 invalid
",
        );
}

#[test]
fn federation_files_validate_with_their_totals() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("wthor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("WTH_"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 22);
    kifu()
        .arg("validate")
        .args(&files)
        .assert()
        .code(0)
        .stdout("53245 games read: 53101 complete, 144 incomplete, 0 invalid\n");
}

#[test]
fn logistello_book_disagreements_are_flagged() {
    let Some(dir) = corpus() else { return };
    let out = kifu()
        .arg("score")
        .arg(dir.join("wthor/misc/Logistello_book_1999.wtb"))
        .assert()
        .code(0)
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().filter(|l| l.ends_with("differs")).count(), 16);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "kifu: note: no WTHOR player or tournament files found for {}; games are unnamed\n\
             kifu: 37709 games read: 37709 complete, 0 incomplete, 0 invalid\n",
            dir.join("wthor/misc/Logistello_book_1999.wtb").display()
        )
    );
}

#[test]
fn every_corpus_wthor_file_converts_to_csv() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    let mut stack = vec![dir.join("wthor")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")) {
                files.push(p);
            }
        }
    }
    assert_eq!(files.len(), 25);
    let out = temp_dir("all-csv").join("all.csv");
    let assert = kifu()
        .args(["convert", "--quiet", "--to", "csv", "-o"])
        .arg(&out)
        .args(&files)
        .assert()
        .code(0);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    // 53,245 federation games (144 incomplete), 54,366 PlayOK (13,335
    // incomplete), 37,709 Logistello, 1 NBoard.
    assert!(
        stderr.ends_with(
            "kifu: 145321 games read: 131842 complete, 13479 incomplete, 0 invalid; 145321 written, 0 left out\n"
        ),
        "{stderr}"
    );
    let rows = std::fs::read_to_string(&out).unwrap().lines().count();
    assert_eq!(rows, 145_322);
    std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
}

#[test]
fn wthor_to_wthor_and_through_jsonl_keeps_moves_scores_and_names() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("wthor-rt");
    for year in ["1984", "2004"] {
        let src = dir.join(format!("wthor/WTH_{year}.wtb"));
        let original = read_wthor(&src);
        // WTHOR → WTHOR.
        let direct = tmp.join(format!("direct{year}.wtb"));
        kifu()
            .args(["convert", "--to", "wthor", "-o"])
            .arg(&direct)
            .arg(&src)
            .assert()
            .code(0);
        // WTHOR → JSON Lines → WTHOR.
        let json = tmp.join(format!("games{year}.jsonl"));
        kifu()
            .args(["convert", "--to", "jsonl", "-o"])
            .arg(&json)
            .arg(&src)
            .assert()
            .code(0);
        let via = tmp.join(format!("via{year}.wtb"));
        kifu()
            .args(["convert", "--to", "wthor", "-o"])
            .arg(&via)
            .arg(&json)
            .assert()
            .code(0);
        let from_json: Vec<GameRecord> =
            jsonl::Reader::new(BufReader::new(File::open(&json).unwrap()))
                .map(|g| g.unwrap())
                .collect();
        for (label, copy) in [
            ("direct", read_wthor(&direct)),
            ("via jsonl", read_wthor(&via)),
            ("jsonl", from_json),
        ] {
            assert_eq!(copy.len(), original.len(), "{year} {label}");
            for (a, b) in original.iter().zip(&copy) {
                assert_eq!(
                    essentials(a),
                    essentials(b),
                    "{year} {label} game {}",
                    a.origin.index
                );
            }
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn wthor_output_needs_a_file() {
    kifu()
        .args([
            "convert",
            "--to",
            "wthor",
            "fixtures/transcripts/oracles.txt",
        ])
        .assert()
        .code(2)
        .stderr("kifu: WTHOR output needs a file: use -o OUT.wtb (the name files go beside it)\n");
}

#[test]
fn wthor_output_leaves_out_invalid_games_and_names_them() {
    let tmp = temp_dir("wthor-left-out");
    let out = tmp.join("out.wtb");
    kifu()
        .args(["convert", "--to", "wthor", "fixtures/transcripts/oracles.txt", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(
            "kifu: fixtures/transcripts/oracles.txt: game 3: left out: invalid game: move 7 (black) d3: flips nothing
kifu: 3 games read: 2 complete, 0 incomplete, 1 invalid; 2 written, 1 left out
",
        );
    assert!(tmp.join("out.JOU").is_file() && tmp.join("out.TRN").is_file());
    let back = read_wthor(&out);
    assert_eq!(back.len(), 2);
    assert_eq!(back[0].move_string(), "f5d6c5f6e7f4g5e6e3");
    std::fs::remove_dir_all(&tmp).unwrap();
}
