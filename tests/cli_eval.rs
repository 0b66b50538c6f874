//! `kifu eval` through the binary: the CSV header, estimates marked as
//! such, exact rows equal to `kifu solve`'s, every move's estimate, bad
//! positions named.

use crate::support::{kifu, scratch};

/// The first 48 moves of the first game of WTH_1977: 12 empties.
const ENDGAME: &str =
    "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7";

/// The rows of a CSV output, header first.
fn rows(stdout: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(stdout);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

fn run(args: &[&str]) -> Vec<u8> {
    kifu()
        .args(args)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone()
}

#[test]
fn csv_has_the_spec_header_and_marks_estimates_inexact() {
    let out = run(&[
        "eval", "--format", "csv", "-q", "--depth", "6", "--hash", "8", "f5d6c3",
    ]);
    let rows = rows(&out);
    assert_eq!(
        rows[0].join(","),
        "source,position,empties,side,depth,exact,value,best_moves,nodes,seconds"
    );
    assert_eq!(rows.len(), 2);
    let row = &rows[1];
    assert_eq!(row[0], "");
    assert_eq!(row[2], "57");
    assert_eq!(row[3], "white");
    assert_eq!(row[4], "6");
    assert_eq!(row[5], "false");
    let value: i32 = row[6].parse().unwrap();
    assert!((-64..=64).contains(&value));
    // White's legal replies after f5 d6 c3.
    assert!(["d3", "c5", "f4", "e3", "e6", "f6", "d7", "b4", "c4"].contains(&row[7].as_str()));
    assert!(row[8].parse::<u64>().unwrap() > 0);
}

#[test]
fn exact_rows_equal_kifu_solve() {
    let eval = rows(&run(&[
        "eval", "--format", "csv", "-q", "--depth", "12", "--hash", "8", ENDGAME,
    ]));
    let solve = rows(&run(&[
        "solve", "--format", "csv", "-q", "--hash", "8", ENDGAME,
    ]));
    let (e, s) = (&eval[1], &solve[1]);
    assert_eq!(e[5], "true");
    assert_eq!(e[4], "12");
    // position, empties, side, value, best moves.
    assert_eq!((&e[1], &e[2], &e[3]), (&s[1], &s[2], &s[3]));
    assert_eq!(e[6], s[4]);
    assert_eq!(e[7], s[5]);
    // A shallower search of the same position is an estimate.
    let shallow = rows(&run(&[
        "eval", "--format", "csv", "-q", "--depth", "11", "--hash", "8", ENDGAME,
    ]));
    assert_eq!(shallow[1][5], "false");
    assert_eq!(shallow[1][4], "11");
}

#[test]
fn all_moves_lists_every_move_best_first() {
    let out = run(&[
        "eval",
        "--format",
        "csv",
        "-q",
        "--depth",
        "5",
        "--all-moves",
        "--hash",
        "8",
        "f5",
    ]);
    let table = rows(&out);
    assert_eq!(table[0].last().map(String::as_str), Some("moves"));
    let row = &table[1];
    let moves: Vec<(String, i32)> = row[10]
        .split(' ')
        .map(|w| {
            let (mv, v) = w.split_once(':').unwrap();
            (mv.to_owned(), v.parse().unwrap())
        })
        .collect();
    // White's three replies to f5.
    let mut squares: Vec<&str> = moves.iter().map(|(m, _)| m.as_str()).collect();
    squares.sort_unstable();
    assert_eq!(squares, ["d6", "f4", "f6"]);
    assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));
    assert_eq!(moves[0].1, row[6].parse::<i32>().unwrap());
    assert!(row[7].split(' ').any(|b| b == moves[0].0));
    // Exact: every move's value equals `kifu solve --all-moves`.
    let eval = rows(&run(&[
        "eval",
        "--format",
        "csv",
        "-q",
        "--depth",
        "20",
        "--all-moves",
        "--hash",
        "8",
        ENDGAME,
    ]));
    let solve = rows(&run(&[
        "solve",
        "--format",
        "csv",
        "-q",
        "--all-moves",
        "--hash",
        "8",
        ENDGAME,
    ]));
    assert_eq!(eval[1][10], solve[1][9]);
}

#[test]
fn tables_mark_estimates_with_a_tilde_and_json_says_exact() {
    let out = run(&["eval", "-q", "--depth", "4", "--hash", "8", "f5d6"]);
    let text = String::from_utf8(out).unwrap();
    let row = text.lines().nth(1).unwrap();
    assert!(row.contains(" ~+") || row.contains(" ~-"), "{row}");
    let out = run(&[
        "eval", "--format", "json", "-q", "--depth", "30", "--hash", "8", ENDGAME,
    ]);
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["exact"], true);
    assert_eq!(value["depth"], 12);
    assert!(value["line"].as_array().unwrap().len() >= 12);
}

#[test]
fn bad_positions_are_named() {
    kifu()
        .args(["eval", "f5d6z9"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "position 1 (\"f5d6z9\"): move 3 (black) z9: not a square",
        ));
    let dir = scratch("eval-lines");
    let file = dir.join("mixed.txt");
    std::fs::write(&file, "f5d6c3\nnot a position\nf5f6\n").unwrap();
    let out = kifu()
        .args([
            "eval", "--format", "csv", "-q", "--depth", "3", "--hash", "8",
        ])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("mixed.txt:2:"))
        .get_output()
        .stdout
        .clone();
    let rows = rows(&out);
    assert_eq!(rows.len(), 3);
    assert!(rows[1][0].ends_with("mixed.txt:1"));
    assert!(rows[2][0].ends_with("mixed.txt:3"));
}

#[test]
fn selectivity_trades_nodes_for_sureness_and_full_width_is_off() {
    // The same position at depth 10: off (as --full-width) searches the
    // most, bold the fewest; the exact end is the same whatever it is.
    let midgame = "f5d6c3d3c4f4f6f3e6e7";
    // The one row of `eval` on one thread with `flags`, at `depth`.
    let row = |depth: &str, flags: &[&str], position: &str| -> Vec<String> {
        let mut args = vec!["eval", "--format", "csv", "-q", "--hash", "8", "-j", "1"];
        args.extend(["--depth", depth]);
        args.extend(flags);
        args.push(position);
        rows(&run(&args)).swap_remove(1)
    };
    let nodes = |flags: &[&str]| -> u64 { row("10", flags, midgame)[8].parse().unwrap() };
    let (off, careful, bold) = (
        nodes(&["--selectivity", "off"]),
        nodes(&["--selectivity", "careful"]),
        nodes(&["--selectivity", "bold"]),
    );
    assert!(off > careful && careful > bold, "{off} {careful} {bold}");
    assert_eq!(nodes(&["--full-width"]), off);
    let exact = |how: &str| row("12", &["--selectivity", how], ENDGAME)[6].clone();
    assert_eq!(exact("bold"), exact("off"));
    kifu()
        .args(["eval", "--full-width", "--selectivity", "bold", midgame])
        .assert()
        .code(2);
    kifu()
        .args(["eval", "--selectivity", "wild", midgame])
        .assert()
        .code(2);
}

/// `--hash` larger than the machine holds: both tables named once in a
/// warning, made smaller, and the same estimate as with the default.
#[test]
fn a_hash_larger_than_the_machine_is_made_smaller_with_a_warning() {
    let ask = |hash: &[&str]| {
        let out = kifu()
            .args(["eval", "--format", "csv", "--depth", "6", "f5d6c3d3c4"])
            .args(hash)
            .assert()
            .code(0)
            .get_output()
            .clone();
        (rows(&out.stdout), String::from_utf8(out.stderr).unwrap())
    };
    let (plain, quiet) = ask(&[]);
    assert!(!quiet.contains("--hash"), "{quiet}");
    let (huge, said) = ask(&["--hash", "1000000000"]);
    let warned: Vec<&str> = said.lines().filter(|l| l.contains("--hash")).collect();
    assert_eq!(warned.len(), 2, "{said}");
    for (line, which) in warned.iter().zip(["search's", "solver's"]) {
        assert!(
            line.starts_with("kifu: warning: a 1000000000 MB table (--hash)")
                && line.contains(&format!("the {which} table is ")),
            "{said}"
        );
    }
    // The same value and best move (the node counts and times may differ).
    assert_eq!(plain[1][..5], huge[1][..5]);
}
