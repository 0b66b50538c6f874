//! Inputs as users have them: compressed files, standard input, wide
//! names.

use std::io::Write;
use std::path::Path;

use crate::support::{corpus, kifu, scratch};

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut w = liblzma::write::XzEncoder::new(Vec::new(), 1);
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(data, 1).unwrap()
}

/// The stdout of `kifu ARGS FILE`.
fn stdout_of(args: &[&str], file: &Path) -> String {
    let out = kifu().args(args).arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn compressed_inputs_read_as_the_files_they_hold() {
    let Some(corpus) = corpus() else { return };
    let dir = scratch("compressed");
    // A WTHOR archive compressed beside its name files, a GGF collection,
    // a logbook without an inner extension, the Kaggle table.
    for name in ["WTH.JOU", "WTH.TRN"] {
        std::fs::copy(corpus.join("wthor").join(name), dir.join(name)).unwrap();
    }
    type Pack = fn(&[u8]) -> Vec<u8>;
    let cases: [(&str, &str, Pack); 4] = [
        ("wthor/WTH_1990.wtb", "WTH_1990.wtb.gz", gzip),
        ("ggf/ntest-TestGames.ggf", "games.ggf.bz2", bzip2),
        ("logbook/logbook-first3000.gam", "logbook.xz", xz),
        ("csv/othello_dataset.csv", "kaggle.csv.zst", zstd),
    ];
    for (original, packed, pack) in cases {
        let plain = corpus.join(original);
        let file = dir.join(packed);
        std::fs::write(&file, pack(&std::fs::read(&plain).unwrap())).unwrap();
        // The plain WTHOR file reads its names from the corpus folder, the
        // compressed one from the copies beside it.
        let args = &["score", "--format", "csv"];
        let expected = stdout_of(args, &plain).replace(&plain.display().to_string(), "X");
        let got = stdout_of(args, &file).replace(&file.display().to_string(), "X");
        assert_eq!(got.lines().count(), expected.lines().count(), "{packed}");
        assert_eq!(got, expected, "{packed}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_stream_is_an_error_after_the_games_before_it() {
    let dir = scratch("corrupt");
    let games: String = (0..4000)
        .map(|i| {
            if i % 2 == 0 {
                "f5d6c3d3c4f4f6f3e6e7\n"
            } else {
                "f5f6e6f4g5e7f7h5e3d3\n"
            }
        })
        .collect();
    let mut packed = gzip(games.as_bytes());
    let at = packed.len() - 6;
    packed[at] ^= 0xff; // the checksum at the end
    let file = dir.join("games.txt.gz");
    std::fs::write(&file, packed).unwrap();
    let out = kifu().arg("validate").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "4000 games read: 0 complete, 4000 incomplete, 0 invalid\n"
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.starts_with(&format!(
            "kifu: {}: corrupt gzip stream near byte ",
            file.display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_reads_standard_input_without_a_game_and_names_the_players() {
    kifu()
        .args(["show", "--ascii"])
        .write_stdin("[Black \"Tastet Marc\"]\n[White \"小林 聡\"]\n[Event \"Open\"]\n[Date \"2004.05.12\"]\n\n1. f5 d6 *\n")
        .assert()
        .code(0)
        .stdout(
            "black: Tastet Marc   white: 小林 聡
event: Open   date: 2004-05-12
opening: Perpendicular Opening
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
fn wide_names_line_up_in_the_score_table() {
    kifu()
        .args(["score", "--from", "pgn"])
        .write_stdin("[Black \"小林 聡\"]\n[White \"Tastet Marc\"]\n\n1. f5 d6 *\n")
        .assert()
        .code(0)
        .stdout(
            "  game  black                 white                 discs  score  winner  status      note
     1  小林 聡               Tastet Marc             3-3      -  -       incomplete
",
        );
}
