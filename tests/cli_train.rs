//! `kifu train-eval` through the binary: a small training run on real
//! games, its manifest, and that it repeats byte for byte.

use crate::support::{corpus, kifu, scratch};

/// One small run: a year of 12 games, exact labels from 12 empties,
/// a few generated lines, a few rounds; returns the weights and the
/// manifest's text.
fn small_run(dir: &std::path::Path, name: &str) -> (Vec<u8>, String) {
    small_run_with(dir, name, &[])
}

/// [`small_run`] with more arguments.
fn small_run_with(
    dir: &std::path::Path,
    name: &str,
    more: &[&std::ffi::OsStr],
) -> (Vec<u8>, String) {
    let corpus = corpus().expect("checked by the caller");
    let out = dir.join(format!("{name}.zst"));
    let manifest = dir.join(format!("{name}.json"));
    kifu()
        .arg("train-eval")
        .arg(corpus.join("wthor/WTH_1977.wtb"))
        .args(["--exact-empties", "12", "--generate", "16", "--reach", "6"])
        .args(["--seed", "5", "--epochs", "8", "--hash", "1", "-q"])
        .arg("--test")
        .arg(corpus.join("wthor/WTH_1978.wtb"))
        .args(["--test-positions", "4", "--test-empties", "12..14"])
        .arg("-o")
        .arg(&out)
        .arg("--manifest")
        .arg(&manifest)
        .args(more)
        .assert()
        .code(0);
    (
        std::fs::read(&out).unwrap(),
        std::fs::read_to_string(&manifest).unwrap(),
    )
}

#[test]
fn a_small_training_run_fits_repeats_and_names_what_it_made() {
    if corpus().is_none() {
        return;
    }
    let dir = scratch("train-eval");
    let (weights, text) = small_run(&dir, "a");
    let manifest = kifu::eval::manifest::Manifest::from_json(&text).unwrap();
    // The manifest names the file written, byte for byte.
    assert_eq!(manifest.weights.sha256, kifu::eval::sha256::hex(&weights));
    assert_eq!(manifest.weights.bytes, weights.len() as u64);
    assert!(kifu::eval::Weights::from_compressed(&weights).is_some());
    // Its input, with the corpus file's digest.
    assert_eq!(manifest.inputs.len(), 1);
    let input = std::fs::read(&manifest.inputs[0].path).unwrap();
    assert_eq!(manifest.inputs[0].sha256, kifu::eval::sha256::hex(&input));
    // The labels: every game (the corpus's MANIFEST: 12 games, none
    // unfinished), exact ones and propagated ones.
    assert_eq!(manifest.labels.games, 12);
    assert!(manifest.labels.generated_lines > 0);
    assert!(manifest.labels.exact > 0 && manifest.labels.propagated > 0);
    assert_eq!(manifest.parameters.exact_empties, 12);
    assert_eq!(manifest.parameters.seed, 5);
    // The fit lowered the error.
    assert!(
        manifest.fit_rmse[1] < manifest.fit_rmse[0],
        "{:?}",
        manifest.fit_rmse
    );
    let measured = manifest.measured.as_ref().unwrap();
    assert_eq!(measured.positions, 4);
    assert!(measured.mean_absolute_error.is_finite());
    // The same command again: the same weights.
    let (again, _) = small_run(&dir, "b");
    assert_eq!(weights, again);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn labels_searched_with_given_weights_are_named_and_repeat() {
    if corpus().is_none() {
        return;
    }
    let dir = scratch("train-eval-searched");
    let (first, _) = small_run(&dir, "first");
    let label_weights = dir.join("first.zst");
    let more = [
        "--search-depth".as_ref(),
        "2".as_ref(),
        "--label-weights".as_ref(),
        label_weights.as_os_str(),
    ];
    let (weights, text) = small_run_with(&dir, "searched", &more);
    let manifest = kifu::eval::manifest::Manifest::from_json(&text).unwrap();
    // Every label before the exact ones searched, none propagated, with
    // the weights named by their digest.
    assert!(manifest.labels.searched > 0 && manifest.labels.exact > 0);
    assert_eq!(manifest.labels.propagated, 0);
    assert_eq!(manifest.parameters.search_depth, Some(2));
    assert_eq!(manifest.parameters.search_share, Some(100));
    let named = manifest.label_weights.as_ref().unwrap();
    assert_eq!(named.sha256, kifu::eval::sha256::hex(&first));
    assert!(manifest.labels.method.contains("depth-2 search"));
    // Other labels, other weights; the same command, the same weights.
    assert_ne!(weights, first);
    let (again, _) = small_run_with(&dir, "again", &more);
    assert_eq!(weights, again);
    // Only the early positions searched: some labels propagated still,
    // fewer searched, and the manifest says from where.
    let from: [&std::ffi::OsStr; 2] = ["--search-from".as_ref(), "40".as_ref()];
    let early = [&more[..], &from[..]].concat();
    let (_, text) = small_run_with(&dir, "early", &early);
    let partly = kifu::eval::manifest::Manifest::from_json(&text).unwrap();
    assert!(partly.labels.searched > 0 && partly.labels.propagated > 0);
    assert_eq!(
        partly.labels.searched + partly.labels.propagated,
        manifest.labels.searched
    );
    assert_eq!(partly.parameters.search_from, Some(40));
    assert!(partly.labels.method.contains("at least 40 empties"));
    // The depth needs the weights, and the weights must read.
    kifu()
        .args(["train-eval", "x.wtb", "-o"])
        .arg(dir.join("never.zst"))
        .args(["--search-depth", "2"])
        .assert()
        .code(2);
    let manifest_path = dir.join("searched.json");
    let broken = kifu()
        .arg("train-eval")
        .arg(corpus().unwrap().join("wthor/WTH_1977.wtb"))
        .arg("-o")
        .arg(dir.join("never.zst"))
        .args(["--search-depth", "2", "--label-weights"])
        .arg(&manifest_path)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&broken.get_output().stderr).into_owned();
    assert!(
        err.contains("searched.json") && err.contains("not kifu weights"),
        "{err}"
    );
    assert!(!dir.join("never.zst").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `kifu eval [--weights FILE] --format csv` of `positions`: each row's
/// columns (the header first) without the time.
fn estimates(
    weights: Option<&std::path::Path>,
    depth: &str,
    positions: &[&str],
) -> Vec<Vec<String>> {
    let mut cmd = kifu();
    cmd.args(["eval", "--format", "csv", "-q", "--hash", "8", "-j", "1"])
        .args(["--depth", depth]);
    if let Some(weights) = weights {
        cmd.arg("--weights").arg(weights);
    }
    let out = cmd
        .args(positions)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&out[..]);
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            // Every column but the last, the seconds.
            r.iter().take(r.len() - 1).map(str::to_owned).collect()
        })
        .collect()
}

#[test]
fn trained_weights_drive_eval_analyze_and_the_engine() {
    if corpus().is_none() {
        return;
    }
    let dir = scratch("train-eval-weights");
    small_run(&dir, "mine");
    let mine = dir.join("mine.zst");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/eval.zst");
    let openings = [
        "f5d6c3d3c4f4f6f3e6e7",
        "f5f6e6f4e3c5c4",
        "c4e3f6e6f5c5f4g6f7d3",
    ];
    // The shipped file named is the built-in evaluation: the same rows.
    let builtin = estimates(None, "4", &openings);
    let named = estimates(Some(&shipped), "4", &openings);
    assert_eq!(named, builtin);
    // Twelve games' weights judge otherwise: some estimate moves.
    let small = estimates(Some(&mine), "4", &openings);
    assert_eq!(small.len(), named.len());
    let value = named[0].iter().position(|c| c == "value").unwrap();
    assert!(
        small[1..]
            .iter()
            .zip(&named[1..])
            .any(|(a, b)| a[value] != b[value]),
        "{small:?}"
    );
    // Where the depth covers the empties, any weights give the exact value.
    let endgame = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7";
    let exact = estimates(Some(&mine), "60", &[endgame]);
    let by_shipped = estimates(Some(&shipped), "60", &[endgame]);
    let exact_col = exact[0].iter().position(|c| c == "exact").unwrap();
    assert_eq!(exact[1][exact_col], "true");
    assert_eq!(exact[1][value], by_shipped[1][value]);
    // The engine plays by them: a legal move at depth 2.
    let out = kifu()
        .args(["engine", "--hash", "8", "--weights"])
        .arg(&mine)
        .write_stdin(
            "nboard 2\nset depth 2\nset game (;GM[Othello]PC[NBoard]PB[me]PW[kifu]RE[?]TY[8]\
             BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)\ngo\n",
        )
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let played = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("{out}"));
    let square = played.split('/').next().unwrap().to_lowercase();
    assert!(["d3", "c4", "f5", "e6"].contains(&square.as_str()), "{out}");
    // A game analysed by them: the exact part as with the built-in
    // weights (every column up to the midgame's), the midgame judged.
    let year = corpus().unwrap().join("wthor/WTH_1977.wtb");
    let analysed = |weights: Option<&std::path::Path>| {
        let mut cmd = kifu();
        cmd.arg("analyze")
            .arg(&year)
            .args(["--black", "Woch", "--white", "Heiberg", "--depth", "2"])
            .args(["--hash", "8", "--format", "csv", "-q"]);
        if let Some(weights) = weights {
            cmd.arg("--weights").arg(weights);
        }
        let out = cmd.assert().code(0).get_output().stdout.clone();
        let mut reader = csv::Reader::from_reader(&out[..]);
        let header = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        (header, rows)
    };
    let (header, by_mine) = analysed(Some(&mine));
    let (_, by_builtin) = analysed(None);
    assert_eq!(by_mine.len(), 1);
    let midgame = header.iter().position(|c| c == "midgame_depth").unwrap();
    for column in 0..=midgame {
        assert_eq!(
            by_mine[0][column], by_builtin[0][column],
            "{}",
            &header[column]
        );
    }
    assert_eq!(&by_mine[0][midgame], "2");
    assert!(
        (midgame + 1..header.len()).any(|c| by_mine[0][c] != by_builtin[0][c]),
        "{by_mine:?}"
    );
    // A file that is not weights is named, for each command, exit 2.
    let not_weights = dir.join("mine.json");
    for command in ["eval", "engine", "analyze"] {
        let mut cmd = kifu();
        cmd.arg(command).arg("--weights").arg(&not_weights);
        match command {
            "eval" => {
                cmd.arg("f5d6");
            }
            "analyze" => {
                cmd.arg(&year);
            }
            _ => {}
        }
        let failed = cmd.write_stdin("quit\n").assert().code(2);
        let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
        assert!(
            err.contains("mine.json") && err.contains("not kifu weights"),
            "{command}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
