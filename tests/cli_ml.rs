//! Data for machine learning (SPEC section 10) through the built binary:
//! Othello-GPT tokens written and read (npy and Parquet), Parquet game
//! tables read back, `--exclude`, `kifu split` and `positions --to npz`.

use std::path::Path;

use crate::support::{corpus, kifu, scratch};

/// The `.npy` header's length and the data after it.
fn npy_data(bytes: &[u8]) -> (String, &[u8]) {
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = String::from_utf8_lossy(&bytes[10..10 + len]).into_owned();
    (header, &bytes[10 + len..])
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn tokens_are_written_as_othello_world_numbers_and_read_back() {
    let dir = scratch("ml-tokens");
    let games = dir.join("games.txt");
    // The four first moves, and a game from another start (left out).
    write(
        &games,
        "f5d6c3\nd3c5\nc4e3\ne6f4\n---------------------------OX------XO--------------------------- O; e3\n",
    );
    let out = dir.join("t.npy");
    kifu()
        .args([
            "convert",
            games.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "game 5: left out: non-standard start position",
        ))
        .stderr(predicates::str::contains(
            "5 games read: 0 complete, 5 incomplete, 0 invalid; 4 written, 1 left out",
        ));
    let bytes = std::fs::read(&out).unwrap();
    let (header, data) = npy_data(&bytes);
    assert!(
        header.contains("'descr': '|i1'") && header.contains("'shape': (4, 60)"),
        "{header}"
    );
    assert_eq!(data.len(), 4 * 60);
    let firsts: Vec<u8> = data.chunks(60).map(|row| row[0]).collect();
    assert_eq!(firsts, [41, 27, 20, 34]);
    assert_eq!(&data[..4], &[41, 28, 19, 0]);
    // Read back: the same games, every row replayed.
    kifu()
        .args(["convert", out.to_str().unwrap(), "--to", "transcript"])
        .assert()
        .success()
        .stdout("f5d6c3\nd3c5\nc4e3\ne6f4\n");
}

#[test]
fn a_token_file_round_trips_through_every_wthor_game() {
    let Some(corpus) = corpus() else { return };
    let dir = scratch("ml-roundtrip");
    let wtb = corpus.join("wthor/WTH_1984.wtb");
    let tokens = dir.join("t.npy");
    let back = dir.join("back.txt");
    let direct = dir.join("direct.txt");
    for (from, to) in [(&wtb, &tokens), (&tokens, &back), (&wtb, &direct)] {
        kifu()
            .args([
                "convert",
                from.to_str().unwrap(),
                "-o",
                to.to_str().unwrap(),
            ])
            .assert()
            .success();
    }
    let (a, b) = (
        std::fs::read_to_string(&back).unwrap(),
        std::fs::read_to_string(&direct).unwrap(),
    );
    assert!(a.lines().count() > 100);
    assert_eq!(a, b);
}

#[test]
fn bad_token_arrays_name_what_is_wrong() {
    let dir = scratch("ml-bad-npy");
    let bad = dir.join("bad.npy");
    std::fs::write(&bad, b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f8'}").unwrap();
    kifu()
        .args(["validate", bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "an array of <f8 is no token array: tokens are integers",
        ));
}

#[test]
fn kifu_reads_its_own_parquet_table_back() {
    let Some(corpus) = corpus() else { return };
    let dir = scratch("ml-parquet");
    let wtb = corpus.join("wthor/WTH_2004.wtb");
    let table = dir.join("games.parquet");
    kifu()
        .args([
            "convert",
            wtb.to_str().unwrap(),
            "-o",
            table.to_str().unwrap(),
        ])
        .assert()
        .success();
    let csv = |input: &Path| {
        let out = kifu()
            .args(["convert", input.to_str().unwrap(), "--to", "csv"])
            .output()
            .unwrap();
        assert!(out.status.success());
        // Every column but the source.
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split_once(',').unwrap().1.to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(csv(&table), csv(&wtb));
    kifu()
        .args([
            "explore",
            table.to_str().unwrap(),
            "--moves",
            "f5d6c3",
            "--format",
            "csv",
        ])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("move,games,"));
}

#[test]
fn exclude_leaves_out_games_under_every_symmetry() {
    let dir = scratch("ml-exclude");
    let games = dir.join("games.txt");
    let seen = dir.join("seen.txt");
    // e6f4c3: f5d6c3 reflected; d3c3: f5f6 under another symmetry.
    write(&games, "e6f4c3\nf5d6c3\nc4c3\nf5f6e6\n");
    write(&seen, "f5d6c3\n");
    kifu()
        .args([
            "convert",
            games.to_str().unwrap(),
            "--to",
            "transcript",
            "--exclude",
            seen.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout("c4c3\nf5f6e6\n")
        .stderr(predicates::str::contains("4 games read, 2 matched"));
    kifu()
        .args([
            "validate",
            games.to_str().unwrap(),
            "--exclude",
            "missing.txt",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--exclude: cannot read missing.txt",
        ));
}

#[test]
fn split_keeps_symmetric_copies_together_and_repeats_by_seed() {
    let dir = scratch("ml-split");
    let games = dir.join("games.txt");
    let mut text = String::new();
    // Each opening and its 3 other first moves' images: 4 copies a game.
    for line in [
        "f5d6c3d3c4",
        "d3c5f6f5e6",
        "c4e3f6e6f5",
        "e6f4c3c4d3",
        "f5f6e6f4e3",
        "f5f4e3f6d3",
        "f5d6c5f4e3",
        "f5f6e6d6e7",
    ] {
        text.push_str(line);
        text.push('\n');
    }
    write(&games, &text);
    let run = |seed: &str, a: &Path, b: &Path| {
        kifu()
            .args([
                "split",
                games.to_str().unwrap(),
                "--ratio",
                "0.5",
                "--seed",
                seed,
                "-o",
                a.to_str().unwrap(),
                "-o",
                b.to_str().unwrap(),
            ])
            .assert()
            .success()
            .stderr(predicates::str::contains(
                "3 duplicates found (the same moves as an earlier game under the 8 symmetries)",
            ));
        (
            std::fs::read_to_string(a).unwrap(),
            std::fs::read_to_string(b).unwrap(),
        )
    };
    let (a1, b1) = run("9", &dir.join("a1.txt"), &dir.join("b1.txt"));
    let (a2, b2) = run("9", &dir.join("a2.txt"), &dir.join("b2.txt"));
    assert_eq!((&a1, &b1), (&a2, &b2));
    assert_eq!(a1.lines().count() + b1.lines().count(), 8);
    // The four images of the Tiger opening are in one part.
    let tiger = ["f5d6c3d3c4", "d3c5f6f5e6", "c4e3f6e6f5", "e6f4c3c4d3"];
    let in_a = tiger
        .iter()
        .filter(|g| a1.lines().any(|l| l == **g))
        .count();
    assert!(in_a == 0 || in_a == 4, "{a1} / {b1}");
    // Nothing of one part is in the other, under the symmetries: excluding
    // the first part leaves every game of the second.
    let n = b1.lines().count();
    kifu()
        .args([
            "validate",
            dir.join("b1.txt").to_str().unwrap(),
            "--exclude",
            dir.join("a1.txt").to_str().unwrap(),
        ])
        .assert()
        .stdout(predicates::str::contains(format!(
            "{n} games read, {n} matched"
        )));
    kifu()
        .args([
            "split",
            games.to_str().unwrap(),
            "--ratio",
            "1.5",
            "-o",
            "a",
            "-o",
            "b",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is not a ratio"));
}

#[test]
fn positions_to_npz_holds_the_tensors() {
    let dir = scratch("ml-npz");
    let games = dir.join("games.txt");
    write(&games, "f5d6c5f6e7f4g5e6e3\n");
    let out = dir.join("t.npz");
    kifu()
        .args([
            "positions",
            games.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..4], b"PK\x03\x04");
    for name in [
        "mine.npy",
        "theirs.npy",
        "empty.npy",
        "legal.npy",
        "flipped.npy",
        "move.npy",
        "ply.npy",
        "side.npy",
        "score.npy",
        "game.npy",
    ] {
        let at = bytes
            .windows(name.len())
            .position(|w| w == name.as_bytes())
            .unwrap_or_else(|| panic!("{name} missing"));
        assert!(at > 0);
    }
    // The first member's data: mine before f5 is d5 and e4 (Black's).
    let start = bytes.windows(6).position(|w| w == b"\x93NUMPY").unwrap();
    let (header, data) = npy_data(&bytes[start..]);
    assert!(header.contains("'shape': (9, 8, 8)"), "{header}");
    let mine: Vec<usize> = (0..64).filter(|&i| data[i] == 1).collect();
    assert_eq!(mine, [28, 35]);
}
