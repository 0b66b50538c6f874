//! WTHOR databases through the binary: validate, score, convert both ways.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use kifu::formats::{jsonl, wthor};
use kifu::GameRecord;

use crate::support::{corpus, kifu, scratch};

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
    let out = scratch("all-csv").join("all.csv");
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
    let tmp = scratch("wthor-rt");
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
    let tmp = scratch("wthor-left-out");
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

/// Copies the federation's archive folder of the corpus: every
/// `WTH_*.wtb` and the name files.
fn archive_copy(corpus: &Path, name: &str) -> PathBuf {
    let tmp = scratch(name);
    for entry in std::fs::read_dir(corpus.join("wthor")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, tmp.join(path.file_name().unwrap())).unwrap();
        }
    }
    tmp
}

/// The names of every game of every `.wtb` in `dir`, read through the
/// name files found beside each.
fn all_names(dir: &Path) -> Vec<(String, Vec<[Option<String>; 3]>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let names = read_wthor(f)
                .iter()
                .map(|g| {
                    [
                        g.tags.black.clone(),
                        g.tags.white.clone(),
                        g.tags.event.clone(),
                    ]
                })
                .collect();
            (f.file_name().unwrap().to_string_lossy().into_owned(), names)
        })
        .collect()
}

/// The tournament, Black and White ids of each record of a `.wtb`.
fn ids(wtb: &Path) -> Vec<[u16; 3]> {
    let bytes = std::fs::read(wtb).unwrap();
    bytes[16..]
        .chunks(68)
        .map(|r| {
            [
                u16::from_le_bytes([r[0], r[1]]),
                u16::from_le_bytes([r[2], r[3]]),
                u16::from_le_bytes([r[4], r[5]]),
            ]
        })
        .collect()
}

const NEW_YEAR: &str = r#"[Event "Championnat de France"]
[Date "2026.06.01"]
[Black "TASTET MARC"]
[White "Nouveau Joueur"]
[Result "34-30"]

1. f5 d6 2. c3 d3 3. c4 f4 34-30

[Event "Open de Paris 2026"]
[Date "2026.05.12"]
[Black "Nouveau Joueur"]
[White "Penloup Dominique"]
[Result "*"]

1. d3 c5 *
"#;

#[test]
fn adding_a_year_to_the_archive_keeps_every_old_name_and_number() {
    let Some(corpus) = corpus() else { return };
    let dir = archive_copy(&corpus, "archive");
    let before = all_names(&dir);
    let jou_before = std::fs::read(dir.join("WTH.JOU")).unwrap();
    let trn_before = std::fs::read(dir.join("WTH.TRN")).unwrap();
    let pgn = dir.join("2026.pgn");
    std::fs::write(&pgn, NEW_YEAR).unwrap();
    let out = dir.join("WTH_2026.wtb");
    kifu()
        .arg("convert")
        .arg(&pgn)
        .args(["--to", "wthor", "-o"])
        .arg(&out)
        .assert()
        .code(0)
        .stderr(format!(
            "kifu: note: 1 player added to {} (4449 now)
kifu: note: 1 tournament added to {} (493 now)
kifu: warning: wthor cannot keep the exact date (only the year of the file) (2 games)
kifu: warning: wthor cannot keep the orientation of games not opening with f5 (1 game)
kifu: 2 games read: 0 complete, 2 incomplete, 0 invalid; 2 written, 0 left out
",
            dir.join("WTH.JOU").display(),
            dir.join("WTH.TRN").display()
        ));
    // The name files grew at the end; every old record is as it was.
    let jou = std::fs::read(dir.join("WTH.JOU")).unwrap();
    assert_eq!(jou.len(), jou_before.len() + 20);
    assert_eq!(jou[16..jou_before.len()], jou_before[16..]);
    assert_eq!(&jou[8..10], &4449u16.to_le_bytes());
    let trn = std::fs::read(dir.join("WTH.TRN")).unwrap();
    assert_eq!(trn[16..trn_before.len()], trn_before[16..]);
    // Every old game still has its names.
    let after = all_names(&dir);
    assert_eq!(after.len(), before.len() + 1);
    for (old, new) in before
        .iter()
        .zip(after.iter().filter(|(f, _)| f != "WTH_2026.wtb"))
    {
        assert_eq!(old, new);
    }
    // The new games: Tastet Marc (1) and Penloup Dominique (2) keep their
    // numbers whatever the case; the new player is 4448.
    assert_eq!(ids(&out), [[2, 1, 4448], [492, 4448, 2]]);
    let games = read_wthor(&out);
    assert_eq!(games[0].tags.black.as_deref(), Some("Tastet Marc"));
    assert_eq!(games[1].tags.event.as_deref(), Some("Open de Paris 2026"));
    assert_eq!(games[0].tags.date.as_deref(), Some("2026"));
    // Nothing new: the name files are not rewritten.
    let stamp = std::fs::metadata(dir.join("WTH.JOU"))
        .unwrap()
        .modified()
        .unwrap();
    kifu()
        .arg("convert")
        .arg(&pgn)
        .args(["--to", "wthor", "-o"])
        .arg(dir.join("WTH_2026b.wtb"))
        .assert()
        .code(0);
    let again = std::fs::metadata(dir.join("WTH.JOU"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(stamp, again);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_of_several_years_are_split_or_warned() {
    let Some(corpus) = corpus() else { return };
    let dir = archive_copy(&corpus, "years");
    let out = dir.join("m.wtb");
    kifu()
        .current_dir(&dir)
        .args(["convert", "WTH_2004.wtb", "WTH_2008.wtb", "--to", "wthor", "-o", "m.wtb"])
        .assert()
        .code(0)
        .stderr(
            "kifu: warning: 2232 games of other years (2008: 2232) dated 2004 in m.wtb: --split-year writes one file per year
kifu: 11345 games read: 11345 complete, 0 incomplete, 0 invalid; 11345 written, 0 left out
",
        );
    let h = std::fs::read(&out).unwrap();
    assert_eq!(u16::from_le_bytes([h[10], h[11]]), 2004);
    kifu()
        .current_dir(&dir)
        .args(["convert", "WTH_2004.wtb", "WTH_2008.wtb", "--to", "wthor", "--split-year", "-o", "all.wtb"])
        .assert()
        .code(0)
        .stderr("kifu: 11345 games read: 11345 complete, 0 incomplete, 0 invalid; 11345 written, 0 left out\n");
    for year in ["2004", "2008"] {
        let split = read_wthor(&dir.join(format!("all_{year}.wtb")));
        let original = read_wthor(&dir.join(format!("WTH_{year}.wtb")));
        assert_eq!(split.len(), original.len());
        for (a, b) in original.iter().zip(&split) {
            assert_eq!(essentials(a), essentials(b));
            assert_eq!(b.tags.date.as_deref(), Some(year));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The depth byte (P3) of a `.wtb`.
fn depth(wtb: &Path) -> u8 {
    std::fs::read(wtb).unwrap()[14]
}

#[test]
fn the_depth_of_theoretical_scores_is_carried_or_set() {
    let Some(corpus) = corpus() else { return };
    let tmp = scratch("depth");
    let src = corpus.join("wthor/WTH_1990.wtb");
    let out = tmp.join("copy.wtb");
    kifu()
        .arg("convert")
        .arg(&src)
        .args(["--to", "wthor", "-o"])
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(depth(&out), 24);
    let original = std::fs::read(&src).unwrap();
    let copy = std::fs::read(&out).unwrap();
    assert_eq!(copy.len(), original.len());
    // Every score and theoretical score byte as stored (all 1990 games
    // open with f5, so the records are the same but for the names).
    for (a, b) in original[16..].chunks(68).zip(copy[16..].chunks(68)) {
        assert_eq!(a[6..], b[6..]);
    }
    // --depth 1: the theoretical score of a finished game is its score.
    let shallow = tmp.join("shallow.wtb");
    kifu()
        .arg("convert")
        .arg(&src)
        .args(["--to", "wthor", "--depth", "1", "-o"])
        .arg(&shallow)
        .assert()
        .code(0);
    assert_eq!(depth(&shallow), 1);
    let shallow_bytes = std::fs::read(&shallow).unwrap();
    let games = read_wthor(&src);
    for (g, r) in games.iter().zip(shallow_bytes[16..].chunks(68)) {
        if g.replay().final_score().is_some() {
            assert_eq!(r[6], r[7]);
        }
    }
    // Inputs of two depths: one warning, the first input's depth.
    let mixed = tmp.join("mixed.wtb");
    let playok = corpus.join("wthor/playok/PLAYOK_2023.wtb");
    // The PlayOK games' scores copied, not solved (54,000 of them).
    let assert = kifu()
        .args([
            "convert",
            "--quiet",
            "--to",
            "wthor",
            "--theoretical",
            "copy",
            "-o",
        ])
        .arg(&mixed)
        .arg(&src)
        .arg(&playok)
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.starts_with(&format!(
            "kifu: warning: the WTHOR inputs disagree on the depth of their theoretical scores \
             (24 in {}; 0 in {}): the output says 24 (--depth sets it)\n",
            src.display(),
            playok.display()
        )),
        "{err}"
    );
    // The PlayOK games (depth 0) that end with fewer than 24 empties.
    assert!(
        err.contains("kifu: warning: 52879 games have no theoretical score known at depth 24"),
        "{err}"
    );
    assert_eq!(depth(&mixed), 24);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn recorded_scores_that_differ_from_the_replay_are_replaced_with_a_warning() {
    let Some(corpus) = corpus() else { return };
    let tmp = scratch("logistello");
    let out = tmp.join("book.wtb");
    let assert = kifu()
        .arg("convert")
        .arg(corpus.join("wthor/misc/Logistello_book_1999.wtb"))
        .args(["--to", "wthor", "-o"])
        .arg(&out)
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains(
            "kifu: warning: 16 games record another score than their replay: written with the replayed score\n"
        ),
        "{err}"
    );
    assert_eq!(depth(&out), 0, "the book's own depth");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_file_cut_short_keeps_its_intact_games_in_the_output() {
    let tmp = scratch("cut");
    let wtb = tmp.join("CUT.wtb");
    let mut bytes = std::fs::read("fixtures/wthor/SAMPLE.wtb").unwrap();
    bytes[4] += 1; // the header claims one game more than the file holds
    std::fs::write(&wtb, &bytes).unwrap();
    let csv = tmp.join("cut.csv");
    kifu()
        .args(["convert", "--to", "csv", "-o"])
        .arg(&csv)
        .arg(&wtb)
        .assert()
        .code(2)
        .stderr(format!(
            "kifu: note: no WTHOR player or tournament files found for {0}; games are unnamed
kifu: {0}: header says 4 games but the file holds 3: record 4 at byte 220 is missing
kifu: 3 games read: 2 complete, 1 incomplete, 0 invalid; 3 written, 0 left out
",
            wtb.display()
        ));
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 4);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn edax_padding_and_unfinished_scores_are_incomplete_games_with_a_note() {
    let tmp = scratch("edax");
    let wtb = tmp.join("edax.wtb");
    // Two unfinished games as Edax writes them: score 225, moves padded
    // with 92; and one finished game.
    let mut bytes = vec![20, 26, 11, 22, 3, 0, 0, 0, 0, 0, 0xea, 0x07, 8, 0, 1, 0];
    for moves in [&[56u8, 64, 53][..], &[56, 46][..]] {
        let mut record = vec![0, 0, 0, 0, 0, 0, 225, 225];
        record.extend_from_slice(moves);
        record.resize(68, 92);
        bytes.extend(record);
    }
    let mut record = vec![0, 0, 0, 0, 0, 0, 64, 64];
    record.extend_from_slice(&[56, 64, 53, 66, 75, 46, 57, 65, 35]);
    record.resize(68, 0);
    bytes.extend(record);
    std::fs::write(&wtb, bytes).unwrap();
    kifu()
        .arg("validate")
        .arg(&wtb)
        .assert()
        .code(0)
        .stdout("3 games read: 1 complete, 2 incomplete, 0 invalid\n")
        .stderr(format!(
            "kifu: note: no WTHOR player or tournament files found for {0}; games are unnamed
kifu: note: {0}: 2 games pad their moves with byte 92 (as Edax writes): read as the end of the moves
kifu: note: {0}: 2 games store a score byte over 64 (Edax's mark of an unfinished game): read as no recorded score
kifu: note: {0}: 2 games store a theoretical score byte over 64: read as no theoretical score
",
            wtb.display()
        ));
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn names_are_found_in_a_folder_of_several_name_files() {
    let Some(corpus) = corpus() else { return };
    let names = scratch("names");
    for file in [
        "WTH.JOU",
        "WTH.TRN",
        "playok/PLAYOK.JOU",
        "playok/PLAYOK.TRN",
        "quest/QUEST.JOU",
        "quest/QUEST.TRN",
    ] {
        let from = corpus.join("wthor").join(file);
        std::fs::copy(&from, names.join(from.file_name().unwrap())).unwrap();
    }
    let games = scratch("names-games");
    let wtb = games.join("WTH_1977.wtb");
    std::fs::copy(corpus.join("wthor/WTH_1977.wtb"), &wtb).unwrap();
    let expected = kifu()
        .arg("score")
        .arg(corpus.join("wthor/WTH_1977.wtb"))
        .output()
        .unwrap()
        .stdout;
    kifu()
        .arg("score")
        .arg(&wtb)
        .arg("--names")
        .arg(&names)
        .assert()
        .code(0)
        .stdout(expected.clone());
    // A file no rule pairs with: the candidates are named.
    let odd = games.join("odd.wtb");
    std::fs::copy(&wtb, &odd).unwrap();
    let assert = kifu()
        .arg("score")
        .arg(&odd)
        .arg("--names")
        .arg(&names)
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.starts_with(&format!(
            "kifu: warning: several player files could go with {} and none is named after it: {}, {}, {}: name one with --names",
            names.join("odd.wtb").display(),
            names.join("PLAYOK.JOU").display(),
            names.join("QUEST.JOU").display(),
            names.join("WTH.JOU").display(),
        )),
        "{err}"
    );
    // --names FILE picks that pair.
    kifu()
        .arg("score")
        .arg(&odd)
        .arg("--names")
        .arg(names.join("WTH.JOU"))
        .assert()
        .code(0)
        .stdout(expected);
    std::fs::remove_dir_all(&names).unwrap();
    std::fs::remove_dir_all(&games).unwrap();
}

/// A `--hash` larger than the machine can hold: a warning that names the
/// flag and the table taken instead, and the same theoretical scores.
#[test]
fn a_table_too_large_for_the_machine_is_made_smaller_with_a_warning() {
    let tmp = scratch("huge-hash");
    let convert = |hash: Option<&str>, out: &Path| {
        let mut cmd = kifu();
        cmd.args(["convert", "fixtures/transcripts/example.txt"])
            .args(["--to", "wthor", "--depth", "12", "-o"])
            .arg(out);
        if let Some(h) = hash {
            cmd.args(["--hash", h]);
        }
        // Exit 1: the fixture holds an invalid game, named and left out.
        let output = cmd.assert().code(1).get_output().clone();
        String::from_utf8(output.stderr).unwrap()
    };
    let (plain, huge) = (tmp.join("plain.wtb"), tmp.join("huge.wtb"));
    let quiet = convert(None, &plain);
    assert!(!quiet.contains("--hash"), "{quiet}");
    // A petabyte: more than any machine holds.
    let said = convert(Some("1000000000"), &huge);
    let warning: Vec<&str> = said.lines().filter(|l| l.contains("--hash")).collect();
    assert_eq!(warning.len(), 1, "{said}");
    assert!(
        warning[0].starts_with("kifu: warning: a 1000000000 MB table (--hash)")
            && warning[0].ends_with(" MB instead"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&huge).unwrap()
    );
}
