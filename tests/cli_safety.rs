//! Nothing is lost: outputs are written atomically, never over an input,
//! and an interrupted or killed run leaves an earlier output as it was.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{kifu, scratch};

/// The names in a folder, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const GAMES: &str = "f5d6c3d3c4\nf5f6e6f4\n";

#[test]
fn convert_onto_its_own_input_is_refused_and_the_input_kept() {
    let dir = scratch("same");
    let same = dir.join("same.txt");
    std::fs::write(&same, GAMES).unwrap();
    kifu()
        .arg("convert")
        .arg(&same)
        .args(["--to", "transcript", "-o"])
        .arg(&same)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "kifu: the output {0} is the input {0} (the same file): write to another file; \
             nothing was read or written\n",
            same.display()
        ));
    assert_eq!(std::fs::read_to_string(&same).unwrap(), GAMES);
    assert_eq!(listing(&dir), ["same.txt"]);
}

#[cfg(unix)]
#[test]
fn the_same_file_through_a_link_or_standard_output_is_refused() {
    let dir = scratch("links");
    let same = dir.join("x.txt");
    std::fs::write(&same, GAMES).unwrap();
    std::os::unix::fs::symlink(&same, dir.join("sym.txt")).unwrap();
    std::fs::hard_link(&same, dir.join("hard.txt")).unwrap();
    for (input, output) in [("sym.txt", "x.txt"), ("x.txt", "hard.txt")] {
        let assert = kifu()
            .current_dir(&dir)
            .args(["repair", input, "-o", output])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(
            err,
            format!(
                "kifu: the output {output} is the input {input} (the same file): write to \
                 another file; nothing was read or written\n"
            )
        );
    }
    // `kifu convert x.txt >> x.txt` would read what it writes.
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .open(&same)
        .unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("kifu"))
        .current_dir(&dir)
        .args(["convert", "x.txt", "--to", "transcript"])
        .stdout(appended)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kifu: the output standard output is the input x.txt (the same file): write to \
         another file; nothing was read or written\n"
    );
    assert_eq!(std::fs::read_to_string(&same).unwrap(), GAMES);
}

#[test]
fn wthor_onto_its_own_input_is_refused_byte_for_byte() {
    let dir = scratch("wtb");
    let wtb = dir.join("W.wtb");
    std::fs::copy("fixtures/wthor/SAMPLE.wtb", &wtb).unwrap();
    let before = std::fs::read(&wtb).unwrap();
    kifu()
        .arg("convert")
        .arg(&wtb)
        .args(["--to", "wthor", "-o"])
        .arg(&wtb)
        .assert()
        .code(2);
    assert_eq!(std::fs::read(&wtb).unwrap(), before);
    assert_eq!(listing(&dir), ["W.wtb"]);
}

#[test]
fn a_failed_run_leaves_the_earlier_output_untouched() {
    let dir = scratch("failed");
    let out = dir.join("out.csv");
    std::fs::write(&out, "earlier output\n").unwrap();
    // A format that cannot be written fails after the output was opened.
    kifu()
        .args([
            "convert",
            "fixtures/transcripts/example.txt",
            "--to",
            "obf",
            "-o",
        ])
        .arg(&out)
        .assert()
        .code(2);
    // A folder where a file is wanted.
    kifu()
        .args([
            "convert",
            "fixtures/transcripts/example.txt",
            "--to",
            "csv",
            "-o",
        ])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(format!(
            "kifu: cannot write {}: is a directory\n",
            dir.display()
        ));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier output\n");
    assert_eq!(listing(&dir), ["out.csv"]);
}

#[test]
fn a_replaced_output_keeps_its_permissions() {
    let dir = scratch("perm");
    let out = dir.join("out.txt");
    std::fs::write(&out, "old\n").unwrap();
    let mut perms = std::fs::metadata(&out).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&out, perms).unwrap();
    kifu()
        .args([
            "convert",
            "--from",
            "transcript",
            "--to",
            "transcript",
            "-o",
        ])
        .arg(&out)
        .write_stdin("F5 D6\n")
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "f5d6\n");
    assert!(std::fs::metadata(&out).unwrap().permissions().readonly());
}

/// Starts `kifu convert - -o OUT` reading a pipe that stays open, feeds it
/// games until the temporary file holds data, and returns the child.
#[cfg(unix)]
fn convert_in_progress(out: &Path) -> std::process::Child {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("kifu"))
        .args(["convert", "-", "--from", "transcript", "--to", "csv", "-o"])
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let dir = out.parent().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let block = "f5d6c3d3c4f4f6f3e6e7\n".repeat(20_000);
    let start = Instant::now();
    loop {
        stdin.write_all(block.as_bytes()).unwrap();
        let temp_has_data = std::fs::read_dir(dir).unwrap().any(|e| {
            let e = e.unwrap();
            e.file_name().to_string_lossy().contains(".kifu-")
                && e.metadata().is_ok_and(|m| m.len() > 0)
        });
        if temp_has_data {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no output yet");
    }
    // The pipe stays open: the run is mid-way when it is stopped.
    std::mem::forget(stdin);
    child
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_the_old_output_and_no_temporary() {
    for signal in ["INT", "TERM"] {
        let dir = scratch(&format!("sig{signal}"));
        let out = dir.join("out.csv");
        std::fs::write(&out, "the old output\n").unwrap();
        let child = convert_in_progress(&out);
        let status = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let done = child.wait_with_output().unwrap();
        assert_eq!(done.status.code(), Some(130), "SIG{signal}");
        assert!(String::from_utf8_lossy(&done.stderr)
            .ends_with("kifu: interrupted; no output was written\n"));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old output\n");
        assert_eq!(listing(&dir), ["out.csv"], "SIG{signal}");
    }
}

#[cfg(unix)]
#[test]
fn a_killed_run_leaves_the_old_output_and_the_next_run_removes_its_temporary() {
    let dir = scratch("kill");
    let out = dir.join("out.csv");
    std::fs::write(&out, "the old output\n").unwrap();
    let mut child = convert_in_progress(&out);
    let pid = child.id();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old output\n");
    let stray = format!(".out.csv.kifu-{pid}.tmp");
    assert_eq!(listing(&dir), [stray.clone(), "out.csv".to_owned()]);
    kifu()
        .args([
            "convert",
            "--from",
            "transcript",
            "--to",
            "transcript",
            "-o",
        ])
        .arg(&out)
        .write_stdin("f5d6\n")
        .assert()
        .code(0)
        .stderr(format!(
            "kifu: note: removed {}, left by an interrupted run\n\
             kifu: 1 game read: 0 complete, 1 incomplete, 0 invalid; 1 written, 0 left out\n",
            dir.join(&stray).display()
        ));
    assert_eq!(listing(&dir), ["out.csv"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "f5d6\n");
}

#[test]
fn repair_in_place_rewrites_the_file_and_keeps_the_original() {
    let dir = scratch("inplace");
    let typed = dir.join("typed.txt");
    // Game 2 of fixtures/repair/typos.txt: d8 typed for e7 at move 23.
    let fixed = "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1";
    let typo = fixed.replacen("c7e7", "c7d8", 1);
    let original = format!("f5d6c3\n{fixed}\n");
    let broken = format!("F5 D6 C3\n{typo}\n");
    std::fs::write(&typed, &broken).unwrap();
    let assert = kifu().args(["repair", "--in-place"]).arg(&typed).assert();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let code = assert.get_output().status.code();
    let backup = dir.join("typed.txt.orig");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), broken);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.ends_with(&format!(
            "kifu: {}: rewritten with 1 repaired game (the original is {})\n",
            typed.display(),
            backup.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&typed).unwrap(), original);
    assert_eq!(listing(&dir), ["typed.txt", "typed.txt.orig"]);

    // A second run finds the backup in the way and changes nothing.
    std::fs::write(&typed, &broken).unwrap();
    kifu()
        .args(["repair", "--in-place"])
        .arg(&typed)
        .assert()
        .code(2)
        .stderr(format!(
            "kifu: {}: {} already exists: move it away, or use --no-backup\n",
            typed.display(),
            backup.display()
        ));
    assert_eq!(std::fs::read_to_string(&typed).unwrap(), broken);

    // --no-backup keeps nothing; a valid file is left as it was.
    std::fs::remove_file(&backup).unwrap();
    kifu()
        .args(["repair", "--in-place", "--no-backup"])
        .arg(&typed)
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&typed).unwrap(), original);
    assert_eq!(listing(&dir), ["typed.txt"]);
    let valid = dir.join("valid.txt");
    std::fs::write(&valid, "F5 D6 C3\n").unwrap();
    kifu()
        .args(["repair", "-i"])
        .arg(&valid)
        .assert()
        .code(0)
        .stderr(format!(
        "kifu: 1 game read: 1 already valid, 0 repaired, 0 ambiguous, 0 not repaired; 1 written\n\
             kifu: {}: nothing repaired; left as it was\n",
        valid.display()
    ));
    assert_eq!(std::fs::read_to_string(&valid).unwrap(), "F5 D6 C3\n");
}

#[test]
fn show_never_draws_over_the_game_file() {
    let dir = scratch("svg");
    let game = dir.join("game.txt");
    std::fs::write(&game, "f5d6c3\n").unwrap();
    kifu()
        .arg("show")
        .arg(&game)
        .arg("--svg")
        .arg(&game)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&game).unwrap(), "f5d6c3\n");
    let pictures = dir.join("each");
    std::fs::create_dir_all(&pictures).unwrap();
    kifu()
        .arg("show")
        .arg(&game)
        .args(["--each", "--ascii", "--svg-dir"])
        .arg(&pictures)
        .assert()
        .code(0);
    assert_eq!(
        listing(&pictures),
        ["000.svg", "001.svg", "002.svg", "003.svg"]
    );
}

/// A named pipe in `dir`, or `None` where `mkfifo` cannot make one.
#[cfg(unix)]
fn fifo(dir: &Path) -> Option<std::path::PathBuf> {
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    made.is_ok_and(|s| s.success()).then_some(fifo)
}

/// Reads all of `fifo` on a thread of its own (opening it waits for the
/// writer).
#[cfg(unix)]
fn read_fifo(fifo: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let fifo = fifo.to_path_buf();
    std::thread::spawn(move || std::fs::read(fifo).unwrap())
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_written_into_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("fifo");
    let Some(fifo) = fifo(&dir) else {
        eprintln!("skipped: mkfifo is not available");
        return;
    };
    let input = dir.join("games.txt");
    std::fs::write(&input, GAMES).unwrap();
    // One run of kifu on the input (the subcommand, then its flags),
    // written to `out`.
    let run = |args: &[&str], out: &Path| {
        kifu()
            .arg(args[0])
            .arg(&input)
            .args(&args[1..])
            .arg("-o")
            .arg(out)
            .output()
            .unwrap()
    };
    let is_fifo = |fifo: &Path| {
        std::fs::symlink_metadata(fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    };
    // Into the pipe, read on a thread; the pipe checked before waiting
    // for the reader: a replaced pipe has no writer to end it.
    let piped = |args: &[&str]| {
        let reader = read_fifo(&fifo);
        let output = run(args, &fifo);
        assert!(is_fifo(&fifo), "the pipe was replaced");
        (output, reader.join().unwrap())
    };
    // CSV streams into it.
    let (output, csv) = piped(&["convert", "--to", "csv"]);
    assert!(output.status.success());
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(
        csv.lines().nth(1).unwrap().contains(",f5d6c3d3c4,"),
        "{csv}"
    );
    // npy is finished in a scratch file (its count goes back in the
    // header), then copied into it: the same bytes as to a file.
    let npy = ["positions", "--all-games", "--to", "npy"];
    let (output, bytes) = piped(&npy);
    assert!(output.status.success());
    let file = dir.join("p.npy");
    assert!(run(&npy, &file).status.success());
    assert_eq!(bytes, std::fs::read(&file).unwrap());
    // WTHOR writes its header last: refused, saying why.
    let (refused, _) = piped(&["convert", "--to", "wthor"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(
        err.contains("cannot be sought back into; name a file"),
        "{err}"
    );
    assert_eq!(listing(&dir), ["fifo", "games.txt", "p.npy"]);
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_appended_to_keeps_what_the_file_held() {
    let dir = scratch("append");
    let input = dir.join("games.txt");
    std::fs::write(&input, GAMES).unwrap();
    let log = dir.join("log.csv");
    std::fs::write(&log, "kept\n").unwrap();
    let out = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("convert")
        .arg(&input)
        .args(["--to", "transcript", "-o", "/dev/stdout"])
        .stdout(Stdio::from(out))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("kept\n{GAMES}")
    );
    assert_eq!(listing(&dir), ["games.txt", "log.csv"]);
}

#[cfg(unix)]
#[test]
fn an_output_through_a_link_replaces_the_file_and_keeps_the_link() {
    let dir = scratch("outlink");
    let input = dir.join("games.txt");
    std::fs::write(&input, GAMES).unwrap();
    std::fs::create_dir(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/real.txt"), "old\n").unwrap();
    std::os::unix::fs::symlink("data/real.txt", dir.join("out.txt")).unwrap();
    kifu()
        .current_dir(&dir)
        .args([
            "convert",
            "games.txt",
            "--to",
            "transcript",
            "-o",
            "out.txt",
        ])
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(dir.join("out.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.join("data/real.txt")).unwrap(),
        GAMES
    );
    assert_eq!(listing(&dir), ["data", "games.txt", "out.txt"]);
    assert_eq!(listing(&dir.join("data")), ["real.txt"]);
}

#[cfg(unix)]
#[test]
fn repair_in_place_through_a_link_keeps_the_original_and_the_link() {
    let dir = scratch("inplacelink");
    // Game 2 of fixtures/repair/typos.txt: d8 typed for e7 at move 23.
    let fixed = "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1";
    let broken = format!("{}\n", fixed.replacen("c7e7", "c7d8", 1));
    std::fs::write(dir.join("real.txt"), &broken).unwrap();
    std::os::unix::fs::symlink("real.txt", dir.join("link.txt")).unwrap();
    let assert = kifu()
        .current_dir(&dir)
        .args(["repair", "--in-place", "link.txt"])
        .assert();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("rewritten with 1 repaired game"), "{err}");
    // The original is whole in the backup, a file of its own; the link
    // stays and leads to the repaired file.
    let backup = dir.join("link.txt.orig");
    assert!(std::fs::symlink_metadata(&backup).unwrap().is_file());
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), broken);
    assert!(std::fs::symlink_metadata(dir.join("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(dir.join("link.txt")).unwrap(),
        format!("{fixed}\n")
    );
    assert_eq!(listing(&dir), ["link.txt", "link.txt.orig", "real.txt"]);
}
