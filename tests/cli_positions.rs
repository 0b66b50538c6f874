//! `kifu positions` (SPEC section 8): bits and scores against positions
//! worked out by hand, the formats row for row against each other (the npy
//! bytes parsed here), `--symmetries`, `--unique` against a brute-force
//! set, `--empties`, `--all-games` and the usage errors.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::support::{corpus, kifu, scratch};
use kifu::{Bitboard, Board, Color, Position, Square};

/// One CSV row, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    source: String,
    game: u64,
    ply: u8,
    empties: u8,
    side: String,
    player: u64,
    opponent: u64,
    mv: String,
    score: Option<i8>,
}

fn parse_csv(text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("source,game,ply,empties,side,player,opponent,move,score")
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 9, "{line}");
            Row {
                source: f[0].to_owned(),
                game: f[1].parse().unwrap(),
                ply: f[2].parse().unwrap(),
                empties: f[3].parse().unwrap(),
                side: f[4].to_owned(),
                player: f[5].parse().unwrap(),
                opponent: f[6].parse().unwrap(),
                mv: f[7].to_owned(),
                score: (!f[8].is_empty()).then(|| f[8].parse().unwrap()),
            }
        })
        .collect()
}

/// The bit of a square name, a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63,
/// worked out from the letters here.
fn bit(name: &str) -> u64 {
    let b = name.as_bytes();
    1 << ((b[1] - b'1') * 8 + (b[0] - b'a'))
}

fn bits(names: &[&str]) -> u64 {
    names.iter().map(|n| bit(n)).fold(0, |a, b| a | b)
}

/// Runs `kifu positions ARGS`, checks the exit status, gives stdout and
/// stderr.
fn positions(args: &[&str], input: Option<&str>, code: i32) -> (String, String) {
    let mut cmd = kifu();
    cmd.arg("positions").args(args);
    if let Some(input) = input {
        cmd.write_stdin(input);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// A 9-move game Black wins 64-0.
const WIPEOUT: &str = "f5d6c5f6e7f4g5e6e3\n";

#[test]
fn bits_and_scores_match_positions_worked_out_by_hand() {
    let (out, err) = positions(&["--to", "csv"], Some(WIPEOUT), 0);
    let rows = parse_csv(&out);
    assert_eq!(rows.len(), 9);
    // The start, Black to move: Black d5 e4, White d4 e5.
    let start = &rows[0];
    assert_eq!((start.source.as_str(), start.game), ("-", 1));
    assert_eq!(
        (start.ply, start.empties, start.side.as_str()),
        (0, 60, "black")
    );
    assert_eq!(start.player, bits(&["d5", "e4"]));
    assert_eq!(start.opponent, bits(&["d4", "e5"]));
    assert_eq!(start.player, 34_628_173_824);
    assert_eq!((start.mv.as_str(), start.score), ("f5", Some(64)));
    // After f5 (e5 flipped): White to move with d4 against d5 e4 e5 f5.
    let second = &rows[1];
    assert_eq!(
        (second.ply, second.empties, second.side.as_str()),
        (1, 59, "white")
    );
    assert_eq!(second.player, bits(&["d4"]));
    assert_eq!(second.opponent, bits(&["d5", "e4", "e5", "f5"]));
    assert_eq!((second.mv.as_str(), second.score), ("d6", Some(-64)));
    for row in &rows {
        let expected = if row.side == "black" { 64 } else { -64 };
        assert_eq!(row.score, Some(expected));
        assert_eq!(row.empties, 60 - row.ply);
    }
    assert!(
        err.contains(
            "1 game read: 1 used, 0 skipped (0 incomplete, 0 invalid); 9 positions written"
        ),
        "{err}"
    );
}

/// An npy file: its dtype text and its records.
struct Npy {
    header: String,
    records: Vec<[u8; 25]>,
}

fn parse_npy(bytes: &[u8]) -> Npy {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "the header is padded to 64 bytes");
    let header = String::from_utf8(bytes[10..10 + len].to_vec()).unwrap();
    assert!(header.ends_with('\n'));
    let body = &bytes[10 + len..];
    assert_eq!(body.len() % 25, 0);
    let shape = header.split("'shape': (").nth(1).unwrap();
    let count: usize = shape.split(',').next().unwrap().trim().parse().unwrap();
    assert_eq!(count, body.len() / 25);
    Npy {
        header,
        records: body
            .chunks(25)
            .map(|c| <[u8; 25]>::try_from(c).unwrap())
            .collect(),
    }
}

fn corpus_files(dir: &Path, years: &[u16]) -> Vec<String> {
    years
        .iter()
        .map(|y| dir.join(format!("wthor/WTH_{y}.wtb")).display().to_string())
        .collect()
}

fn with(files: &[String], args: &[&str]) -> Vec<String> {
    files
        .iter()
        .map(String::as_str)
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect()
}

fn run(args: &[String], code: i32) -> (String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    positions(&args, None, code)
}

#[test]
fn csv_npy_and_jsonl_agree_row_for_row() {
    let Some(dir) = corpus() else { return };
    let files = corpus_files(&dir, &[1980, 1984]);
    let out = scratch("positions-agree");
    let npy_path = out.join("p.npy");
    let (csv, _) = run(&with(&files, &["--to", "csv"]), 0);
    let (jsonl, _) = run(&with(&files, &["--to", "jsonl"]), 0);
    run(&with(&files, &["-o", &npy_path.display().to_string()]), 0);
    let rows = parse_csv(&csv);
    let npy = parse_npy(&std::fs::read(&npy_path).unwrap());
    assert!(npy.header.contains(
        "'descr': [('player', '<u8'), ('opponent', '<u8'), ('move', 'u1'), ('ply', 'u1'), \
         ('empties', 'u1'), ('side', 'u1'), ('score', 'i1'), ('game', '<u4')]"
    ));
    assert!(npy.header.contains("'fortran_order': False"));
    let objects: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() > 30_000, "{}", rows.len());
    assert_eq!(rows.len(), npy.records.len());
    assert_eq!(rows.len(), objects.len());
    // The games of the first file, so the second file's npy numbers go on
    // from there.
    let first_file_games = std::fs::metadata(&files[0]).unwrap().len() / 68;
    for ((row, rec), obj) in rows.iter().zip(&npy.records).zip(&objects) {
        let player = u64::from_le_bytes(rec[0..8].try_into().unwrap());
        let opponent = u64::from_le_bytes(rec[8..16].try_into().unwrap());
        assert_eq!((player, opponent), (row.player, row.opponent));
        let square: Square = row.mv.parse().unwrap();
        assert_eq!(usize::from(rec[16]), square.index());
        assert_eq!(1u64 << rec[16], bit(&row.mv));
        assert_eq!((rec[17], rec[18]), (row.ply, row.empties));
        assert_eq!(rec[19], u8::from(row.side == "white"));
        assert_eq!(rec[20] as i8, row.score.unwrap_or(-128));
        let game = u64::from(u32::from_le_bytes(rec[21..25].try_into().unwrap()));
        let base = if row.source == files[0] {
            0
        } else {
            first_file_games
        };
        assert_eq!(game, base + row.game);
        assert_eq!(obj["source"], row.source.as_str());
        assert_eq!(obj["game"].as_u64(), Some(row.game));
        assert_eq!(obj["ply"].as_u64(), Some(u64::from(row.ply)));
        assert_eq!(obj["empties"].as_u64(), Some(u64::from(row.empties)));
        assert_eq!(obj["side"], row.side.as_str());
        assert_eq!(obj["player"].as_u64(), Some(row.player));
        assert_eq!(obj["opponent"].as_u64(), Some(row.opponent));
        assert_eq!(obj["move"], row.mv.as_str());
        assert_eq!(obj["score"].as_i64(), row.score.map(i64::from));
    }
    // The npy through a pipe is the same file.
    let (piped, _) = {
        let out = kifu()
            .arg("positions")
            .args(&files)
            .args(["--to", "npy"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        (out.stdout, ())
    };
    assert_eq!(piped, std::fs::read(&npy_path).unwrap());
}

/// The position of a row, for checking its move.
fn position(row: &Row) -> Position {
    let side = if row.side == "black" {
        Color::Black
    } else {
        Color::White
    };
    let (black, white) = match side {
        Color::Black => (row.player, row.opponent),
        Color::White => (row.opponent, row.player),
    };
    Position::new(Board::new(Bitboard(black), Bitboard(white)).unwrap(), side)
}

#[test]
fn symmetries_give_eight_images_with_the_moves_mapped_alike() {
    // An asymmetric game, played to its end.
    let game = "c4e3f5c5b5d6e6c6e7c3b4a5b2f7a4c2d3b3e2f4g7f2a2e1f1g5a3c7d7b6g3h4h5f8f3g1c8b8c1d2d1h7h2h3a6h1g8a1g6h8e8b7a7g4b1h6a8d8g2f6\n";
    let (plain, _) = positions(&["--to", "csv", "--all-games"], Some(game), 0);
    let (images, _) = positions(
        &["--to", "csv", "--all-games", "--symmetries"],
        Some(game),
        0,
    );
    let plain = parse_csv(&plain);
    let images = parse_csv(&images);
    assert!(plain.len() > 40);
    assert_eq!(images.len(), 8 * plain.len());
    for (original, group) in plain.iter().zip(images.chunks(8)) {
        assert_eq!(&group[0], original, "the identity comes first");
        let distinct: HashSet<(u64, u64)> = group.iter().map(|r| (r.player, r.opponent)).collect();
        if original.ply >= 2 {
            assert_eq!(distinct.len(), 8, "{group:?}");
        }
        for image in group {
            assert_eq!(
                (image.ply, image.empties, &image.side, image.score),
                (
                    original.ply,
                    original.empties,
                    &original.side,
                    original.score
                )
            );
            assert_eq!(image.player.count_ones(), original.player.count_ones());
            let square: Square = image.mv.parse().unwrap();
            assert!(
                position(image).legal_moves().contains(square),
                "{image:?} is not legal in its image"
            );
            // The move flips as many discs in the image.
            let flips = kifu::flips(image.player, image.opponent, square).count_ones();
            let square0: Square = original.mv.parse().unwrap();
            let flips0 = kifu::flips(original.player, original.opponent, square0).count_ones();
            assert_eq!(flips, flips0);
        }
    }
}

#[test]
fn unique_keeps_the_first_row_of_each_position() {
    let Some(dir) = corpus() else { return };
    let files = corpus_files(&dir, &[2020, 2021]);
    let (all, _) = run(&with(&files, &["--to", "csv"]), 0);
    let (unique, err) = run(&with(&files, &["--to", "csv", "--unique"]), 0);
    let mut seen = HashSet::new();
    let expected: Vec<Row> = parse_csv(&all)
        .into_iter()
        .filter(|r| seen.insert((r.player, r.opponent)))
        .collect();
    let all_rows = all.lines().count() - 1;
    let got = parse_csv(&unique);
    assert_eq!(got, expected);
    let left_out = all_rows - expected.len();
    assert!(left_out > 1000, "the openings repeat: {left_out}");
    assert!(
        err.contains(&format!(
            "{} written ({left_out} duplicates left out)",
            if expected.len() == 1 {
                "1 position".to_owned()
            } else {
                format!("{} positions", expected.len())
            }
        )),
        "{err}"
    );
    // Under --symmetries the images count as positions of their own.
    let (both, _) = run(
        &with(&files[..1], &["--to", "csv", "--unique", "--symmetries"]),
        0,
    );
    let rows = parse_csv(&both);
    let distinct: HashSet<(u64, u64)> = rows.iter().map(|r| (r.player, r.opponent)).collect();
    assert_eq!(distinct.len(), rows.len());
}

#[test]
fn empties_keep_the_range() {
    let Some(dir) = corpus() else { return };
    let files = corpus_files(&dir, &[1984]);
    let (all, _) = run(&with(&files, &["--to", "csv"]), 0);
    let (some, _) = run(&with(&files, &["--to", "csv", "--empties", "20..30"]), 0);
    let expected: Vec<Row> = parse_csv(&all)
        .into_iter()
        .filter(|r| (20..=30).contains(&r.empties))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(parse_csv(&some), expected);
    let (one, _) = run(&with(&files, &["--to", "csv", "--empties", "..1"]), 0);
    assert!(parse_csv(&one).iter().all(|r| r.empties == 1));
    let (one, _) = run(&with(&files, &["--to", "csv", "--empties", "59"]), 0);
    assert!(parse_csv(&one)
        .iter()
        .all(|r| r.empties == 59 && r.ply == 1));
}

#[test]
fn all_games_adds_unfinished_and_invalid_games_without_a_score() {
    // Complete; incomplete after 3 moves; invalid at its 3rd move (f5 d6
    // then a1 flips nothing).
    let input = format!("{WIPEOUT}f5d6c3\nf5d6a1d3\n");
    let (out, err) = positions(&["--to", "csv"], Some(&input), 1);
    assert_eq!(parse_csv(&out).len(), 9);
    assert!(
        err.contains(
            "3 games read: 1 used, 2 skipped (1 incomplete, 1 invalid); 9 positions written"
        ),
        "{err}"
    );
    assert!(
        err.contains("-:3:5: game 3, move 3 (black) a1: flips nothing (skipped)"),
        "{err}"
    );
    let (out, err) = positions(&["--to", "csv", "--all-games"], Some(&input), 1);
    let rows = parse_csv(&out);
    assert_eq!(rows.len(), 9 + 3 + 2);
    assert!(rows[9..].iter().all(|r| r.score.is_none()));
    assert_eq!(
        rows[12..].iter().map(|r| r.mv.as_str()).collect::<Vec<_>>(),
        ["f5", "d6"],
        "the invalid game up to its first bad move"
    );
    assert!(err.contains("(rows up to its first bad move)"), "{err}");
    assert!(err.contains("3 games read: 3 used, 0 skipped"), "{err}");
    // In npy a row without a score has -128, said once.
    let (_, err) = {
        let out = kifu()
            .args(["positions", "--to", "npy", "--all-games"])
            .write_stdin(input.as_str())
            .output()
            .unwrap();
        let npy = parse_npy(&out.stdout);
        assert_eq!(npy.records.len(), 14);
        assert!(npy.records[9..].iter().all(|r| r[20] as i8 == -128));
        ((), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    assert!(
        err.contains("kifu: note: 5 rows of unfinished or invalid games have score -128"),
        "{err}"
    );
    // The filters choose the games first.
    let (out, err) = positions(&["--to", "csv", "--status", "complete"], Some(&input), 0);
    assert_eq!(parse_csv(&out).len(), 9);
    assert!(err.contains("3 games read, 1 matched: 1 used"), "{err}");
}

#[test]
fn usage_errors_name_the_flag() {
    let cases: [(&[&str], &str); 5] = [
        (&["--to", "csv", "--empties", "70..80"], "--empties 70..80"),
        (&["--to", "csv", "--empties", "30..20"], "--empties 30..20"),
        (&["--to", "wthor"], "--to"),
        (&["-o", "out.txt"], "--to"),
        (&["--to", "csv", "--year", "20x4"], "--year 20x4"),
    ];
    for (args, flag) in cases {
        let (out, err) = positions(args, Some(WIPEOUT), 2);
        assert!(out.is_empty());
        assert!(err.contains(flag), "{args:?}: {err}");
    }
}

#[test]
fn parquet_holds_the_csv_rows_typed() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = scratch("positions-parquet");
    let path: PathBuf = dir.join("p.parquet");
    let input = format!("{WIPEOUT}f5d6c3\n");
    let (csv, _) = positions(&["--to", "csv", "--all-games"], Some(&input), 0);
    positions(
        &["--all-games", "-o", &path.display().to_string()],
        Some(&input),
        0,
    );
    let rows = parse_csv(&csv);
    let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    let meta = reader.metadata().file_metadata();
    assert_eq!(meta.num_rows() as usize, rows.len());
    let schema: Vec<String> = meta
        .schema_descr()
        .columns()
        .iter()
        .map(|c| format!("{} {:?}", c.name(), c.logical_type_ref()))
        .collect();
    assert_eq!(schema[0], "source Some(String)");
    assert!(
        schema[5].starts_with("player Some(Integer(IntType { bit_width: 64, is_signed: false"),
        "{schema:?}"
    );
    assert!(
        schema[8].starts_with("score Some(Integer(IntType { bit_width: 8, is_signed: true"),
        "{schema:?}"
    );
    let got: Vec<String> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap().to_string())
        .collect();
    let second = &rows[1];
    assert_eq!(
        got[1],
        format!(
            "{{source: \"-\", game: 1, ply: 1, empties: 59, side: \"white\", player: {}, opponent: {}, move: \"d6\", score: -64}}",
            second.player, second.opponent
        )
    );
    assert!(got[10].ends_with("score: null}"), "{}", got[10]);
}
