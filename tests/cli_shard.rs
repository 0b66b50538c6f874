//! `--shard K/N` (SPEC section 13): N runs of a command, K = 1..N, take
//! every game of the inputs once, each shard in input order, and together
//! write what one run writes; bad values are usage errors.

use std::path::PathBuf;

use crate::support::{corpus, kifu, scratch};

/// Fixtures of every text format and WTHOR, with incomplete and invalid
/// games among them.
const MIXED: [&str; 9] = [
    "fixtures/transcripts/example.txt",
    "fixtures/transcripts/oracles.txt",
    "fixtures/transcripts/variants.txt",
    "fixtures/ggf/variants.ggf",
    "fixtures/pgn/variants.pgn",
    "fixtures/sgf/collection.sgf",
    "fixtures/sheet/variants.sheet",
    "fixtures/wthor/SAMPLE.wtb",
    "fixtures/pgn/thor-style.pgn",
];

/// Standard output of `kifu ARGS FILES [--shard SHARD]`, and its exit code.
fn output(args: &[&str], files: &[String], shard: Option<String>) -> (String, i32) {
    let mut cmd = kifu();
    cmd.args(args).args(files).arg("-q");
    if let Some(shard) = shard {
        cmd.args(["--shard", &shard]);
    }
    let out = cmd.output().unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "kifu {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout).unwrap(), code)
}

/// The lines after `header` lines.
fn body(text: &str, header: usize) -> Vec<String> {
    text.lines().skip(header).map(str::to_owned).collect()
}

/// Runs `args` on `files` whole and as `n` shards: each shard's lines are
/// in the whole run's order, no line is in two shards, and together they
/// are the whole run's; the header lines are the same, and so is the exit
/// code when `same_code`. Returns the whole run's lines.
fn shards_equal_whole(args: &[&str], files: &[String], n: u64, header: usize) -> Vec<String> {
    let (whole_text, whole_code) = output(args, files, None);
    let whole = body(&whole_text, header);
    let mut joined = Vec::new();
    for k in 1..=n {
        let (text, _) = output(args, files, Some(format!("{k}/{n}")));
        assert_eq!(
            text.lines().take(header).collect::<Vec<_>>(),
            whole_text.lines().take(header).collect::<Vec<_>>(),
            "{args:?} shard {k}/{n}: the header"
        );
        let lines = body(&text, header);
        // In the whole run's order: each line found after the one before.
        let mut at = 0;
        for line in &lines {
            let found = whole[at..].iter().position(|w| w == line);
            assert!(
                found.is_some(),
                "{args:?} {k}/{n}: {line} out of order or not in the whole run"
            );
            at += found.unwrap_or(0) + 1;
        }
        joined.extend(lines);
    }
    let mut sorted_whole = whole.clone();
    sorted_whole.sort();
    joined.sort();
    assert_eq!(joined, sorted_whole, "{args:?}: the {n} shards together");
    assert!(!whole.is_empty(), "{args:?}: nothing to compare");
    let _ = whole_code;
    whole
}

fn mixed() -> Vec<String> {
    MIXED.iter().map(|f| (*f).to_owned()).collect()
}

#[test]
fn shard_k_of_n_takes_every_nth_game_counted_across_the_inputs() {
    // Every game is written: game i of the run (from 0) is shard i % N + 1's,
    // at place i / N.
    let files = mixed();
    let (whole, _) = output(&["convert", "--to", "csv"], &files, None);
    let whole = body(&whole, 1);
    assert_eq!(whole.len(), 40);
    for n in [1, 2, 3, 7, 50] {
        for k in 1..=n {
            let (text, _) = output(
                &["convert", "--to", "csv"],
                &files,
                Some(format!("{k}/{n}")),
            );
            let expected: Vec<&String> = whole
                .iter()
                .skip(k as usize - 1)
                .step_by(n as usize)
                .collect();
            let got = body(&text, 1);
            assert_eq!(got.iter().collect::<Vec<_>>(), expected, "shard {k}/{n}");
        }
    }
}

#[test]
fn shard_outputs_together_equal_the_whole_run() {
    let files = mixed();
    shards_equal_whole(&["convert", "--to", "jsonl"], &files, 3, 0);
    shards_equal_whole(&["score"], &files, 4, 1);
    shards_equal_whole(&["validate", "--format", "json"], &files, 2, 0);
    shards_equal_whole(&["positions", "--to", "csv"], &files, 3, 1);
    shards_equal_whole(
        &[
            "analyze",
            "--format",
            "csv",
            "--depth",
            "0",
            "--empties",
            "10",
        ],
        &files,
        3,
        1,
    );
    shards_equal_whole(
        &[
            "analyze",
            "--format",
            "csv",
            "--moves",
            "--depth",
            "2",
            "--empties",
            "8",
            "-j",
            "1",
        ],
        &files[..2],
        2,
        1,
    );
}

#[test]
fn filters_choose_within_a_shard() {
    // The shard is taken of the games read, then the filters choose: the
    // shards of a filtered run are the filtered run.
    let files = mixed();
    let whole = shards_equal_whole(
        &["convert", "--to", "csv", "--status", "complete"],
        &files,
        3,
        1,
    );
    assert!(whole.iter().all(|l| l.contains(",complete,")));
}

/// The 25-byte records of a positions npy.
fn npy_records(bytes: &[u8]) -> Vec<Vec<u8>> {
    let header = 10 + usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    bytes[header..].chunks(25).map(<[u8]>::to_vec).collect()
}

#[test]
fn positions_npy_numbers_games_in_the_whole_run() {
    // The npy's game column counts every game of the run, of every shard.
    let dir = scratch("shard-npy");
    let files = mixed();
    let run = |shard: Option<String>, out: &PathBuf| {
        let mut cmd = kifu();
        cmd.args(["positions", "-q", "-o"]).arg(out).args(&files);
        if let Some(shard) = shard {
            cmd.args(["--shard", &shard]);
        }
        cmd.assert().code(predicates::ord::lt(2));
        npy_records(&std::fs::read(out).unwrap())
    };
    let whole = run(None, &dir.join("whole.npy"));
    let mut joined: Vec<Vec<u8>> = (1..=3)
        .flat_map(|k| run(Some(format!("{k}/3")), &dir.join(format!("{k}.npy"))))
        .collect();
    let mut sorted = whole.clone();
    sorted.sort();
    joined.sort();
    assert!(whole.len() > 100);
    assert_eq!(joined, sorted);
}

#[test]
fn a_shard_of_standard_input() {
    let text = std::fs::read_to_string("fixtures/transcripts/example.txt").unwrap();
    let shard = |k: u64| {
        let out = kifu()
            .args(["convert", "--to", "transcript", "-q", "--shard"])
            .arg(format!("{k}/2"))
            .write_stdin(text.clone())
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let (first, second) = (shard(1), shard(2));
    let (whole, _) = output(
        &["convert", "--to", "transcript"],
        &["fixtures/transcripts/example.txt".to_owned()],
        None,
    );
    let whole: Vec<&str> = whole.lines().collect();
    assert_eq!(whole.len(), 6);
    let odd: Vec<&str> = whole.iter().copied().step_by(2).collect();
    let even: Vec<&str> = whole.iter().copied().skip(1).step_by(2).collect();
    assert_eq!(first.lines().collect::<Vec<_>>(), odd);
    assert_eq!(second.lines().collect::<Vec<_>>(), even);
}

#[test]
fn a_shard_says_how_many_games_it_took() {
    kifu()
        .args([
            "validate",
            "fixtures/transcripts/example.txt",
            "fixtures/sgf/collection.sgf",
        ])
        .args(["--shard", "2/4"])
        .assert()
        .stderr(predicates::str::contains(
            "kifu: shard 2/4 took 2 of the 9 games in the inputs",
        ));
}

#[test]
fn bad_shards_are_usage_errors_naming_the_flag() {
    for (shard, says) in [
        ("0/3", "K (which shard) must be from 1 to N = 3"),
        ("4/3", "K (which shard) must be from 1 to N = 3"),
        ("1/0", "N (the number of shards) must be at least 1"),
        ("x/3", "K is not a whole number"),
        ("1/three", "N is not a whole number"),
        ("-1/3", "K is not a whole number"),
        ("2", "give K/N"),
        ("", "give K/N"),
    ] {
        for command in [
            "convert",
            "analyze",
            "validate",
            "positions",
            "stats",
            "explore",
        ] {
            let out = kifu()
                .args([command, "fixtures/transcripts/example.txt"])
                .arg(format!("--shard={shard}"))
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{command} --shard {shard:?}: {err}"
            );
            assert!(
                err.contains("--shard") && err.contains(says),
                "{command} --shard {shard:?}: {err}"
            );
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn a_shard_refuses_unique_and_in_place() {
    for command in [
        "convert",
        "analyze",
        "positions",
        "score",
        "stats",
        "split",
        "explore",
    ] {
        let out = kifu()
            .args([
                command,
                "fixtures/transcripts/example.txt",
                "--unique",
                "--shard",
                "1/2",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("'--unique' cannot be used with '--shard <K/N>'"),
            "{command}: {err}"
        );
    }
    let out = kifu()
        .args([
            "repair",
            "--in-place",
            "fixtures/repair/typos.txt",
            "--shard",
            "1/2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with '--shard"));
}

#[test]
fn corpus_shards_cover_the_archive() {
    let Some(dir) = corpus() else { return };
    let files: Vec<String> = [
        "wthor/WTH_1977.wtb",
        "wthor/WTH_1984.wtb",
        "ggf/ntest-TestGames.ggf",
    ]
    .iter()
    .map(|f| dir.join(f).display().to_string())
    .collect();
    let whole = shards_equal_whole(&["convert", "--to", "csv"], &files, 5, 1);
    assert!(whole.len() > 500, "{}", whole.len());
    shards_equal_whole(&["validate", "--format", "json", "--strict"], &files, 3, 0);
}

#[test]
fn every_format_is_read_in_shards() {
    // A shard reads its input game by game (the other shards' games
    // counted, not worked on): every reader's games come out the same.
    let dir = scratch("shard-formats");
    for ext in [
        "parquet", "jsonl", "csv", "ggf", "sgf", "pgn", "wtb", "npy", "txt",
    ] {
        let all = dir.join(format!("all.{ext}"));
        let mut cmd = kifu();
        cmd.args(["convert", "-q", "-o"]).arg(&all).args(MIXED);
        match ext {
            "npy" => cmd.args(["--to", "tokens"]),
            // Copied, not solved: the test is about reading.
            "wtb" => cmd.args(["--theoretical", "copy"]),
            _ => &mut cmd,
        };
        cmd.assert().code(predicates::ord::lt(2));
        let files = [all.display().to_string()];
        let whole = shards_equal_whole(&["convert", "--to", "jsonl"], &files, 3, 0);
        assert!(whole.len() >= 10, "{ext}: {}", whole.len());
    }
}
