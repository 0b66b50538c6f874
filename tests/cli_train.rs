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
