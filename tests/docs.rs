//! Every console example of the documentation runs (issue 34): the
//! ` ```console ` blocks of README.md, CONTRIBUTING.md and docs/*.md are
//! trycmd cases, each `$ kifu …` run against the built binary and its
//! output (standard output and standard error, as a terminal shows them)
//! compared with the page, `...` and `[..]` standing for what changes from
//! run to run.
//!
//! Each page runs in a folder of its own in the system's temporary folder,
//! holding a copy of `fixtures/` (so an example may write files, and read
//! them back in a later example of the same page) and `../shared/corpus`,
//! a link to the corpus (`KIFU_CORPUS`). Without the corpus the blocks that
//! name it are left out with a notice (in CI the test fails instead): a
//! block that reads what an earlier example made from the corpus names the
//! corpus itself, so that it is left out with it.
//!
//! As a shell would, a word of a command with `*` in its last part
//! (`../shared/corpus/wthor/WTH_*.wtb`) stands for the files it matches, in
//! order; trycmd itself runs commands without a shell.
//!
//! Commands that cannot give the same output twice (timings, long solves,
//! `kifu serve`) are shown in `sh` or `text` blocks without the `$ `
//! prompt; a prompt outside a console block fails the test, so that no
//! example with output goes unchecked.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{corpus, scratch};

/// The path the examples read the corpus by, from a page's folder.
const CORPUS: &str = "../shared/corpus";

/// The pages whose examples are checked, relative to the crate root.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    if root.join("CONTRIBUTING.md").is_file() {
        pages.push(PathBuf::from("CONTRIBUTING.md"));
    }
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("the docs folder")
        .map(|entry| entry.expect("a docs entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| path.strip_prefix(root).expect("under the root").to_owned())
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// What `prepare` found in a page.
#[derive(Debug, Default, PartialEq)]
struct Blocks {
    /// `$ ` commands in the console blocks that run.
    checked: usize,
    /// `$ ` commands in the console blocks left out for want of the corpus.
    skipped: usize,
}

/// Whether `name` matches `pattern`, where `*` stands for any text.
fn matches(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.iter().position(|&b| b == b'*') {
        None => pattern == name,
        Some(star) => {
            let (head, rest) = (&pattern[..star], &pattern[star + 1..]);
            name.starts_with(head)
                && (head.len()..=name.len()).any(|from| matches(rest, &name[from..]))
        }
    }
}

/// The shell's expansion of `word` run in `cwd`: when its last part holds
/// a `*`, the names of the folder that match it (hidden ones aside),
/// sorted; else, or when none matches, the word itself.
fn expand(word: &str, cwd: &Path) -> Vec<String> {
    let (dir, pattern) = match word.rsplit_once('/') {
        Some((dir, pattern)) => (Some(dir), pattern),
        None => (None, word),
    };
    let quoted = word.contains(['\'', '"', '\\']);
    if !pattern.contains('*') || quoted || dir.is_some_and(|dir| dir.contains('*')) {
        return vec![word.to_owned()];
    }
    let Ok(entries) = fs::read_dir(cwd.join(dir.unwrap_or("."))) else {
        return vec![word.to_owned()];
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| !name.starts_with('.') && matches(pattern.as_bytes(), name.as_bytes()))
        .map(|name| dir.map_or_else(|| name.clone(), |dir| format!("{dir}/{name}")))
        .collect();
    names.sort();
    if names.is_empty() {
        vec![word.to_owned()]
    } else {
        names
    }
}

/// A command line (`$ ` or `> `) with its `*` words expanded in `cwd`.
fn expand_line(line: &str, cwd: &Path) -> String {
    let (prompt, command) = line.split_at(2);
    let words: Vec<String> = command
        .split(' ')
        .flat_map(|word| expand(word, cwd))
        .collect();
    format!("{prompt}{}", words.join(" "))
}

/// The page as trycmd should run it in `cwd`: every console block that
/// names the corpus marked `ignore` when there is no corpus, the `*` words
/// of the commands expanded. Fails on a fence without a language (trycmd
/// would take it for a case) and on a `$ ` prompt outside a console block.
fn prepare(
    page: &str,
    text: &str,
    have_corpus: bool,
    cwd: &Path,
) -> Result<(String, Blocks), String> {
    let mut out = String::with_capacity(text.len());
    let mut blocks = Blocks::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let ticks = line.len() - line.trim_start_matches('`').len();
        if ticks < 3 {
            out.push_str(line);
            out.push('\n');
            i += 1;
            continue;
        }
        let fence = &line[..ticks];
        let info = line[ticks..].trim();
        if info.is_empty() {
            return Err(format!(
                "{page}:{}: a code block needs a language (console, sh, text, …)",
                i + 1
            ));
        }
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with(fence))
            .ok_or_else(|| format!("{page}:{}: the code block is not closed", i + 1))?;
        let body = &lines[i + 1..end];
        let commands = body.iter().filter(|l| l.starts_with("$ ")).count();
        if info == "console" {
            if commands == 0 {
                return Err(format!(
                    "{page}:{}: a console block without a `$ ` command",
                    i + 1
                ));
            }
            if !have_corpus && body.iter().any(|l| l.contains(CORPUS)) {
                blocks.skipped += commands;
                out.push_str(&format!("{fence}console,ignore\n"));
            } else {
                blocks.checked += commands;
                out.push_str(line);
                out.push('\n');
            }
        } else {
            if let Some(k) = body.iter().position(|l| l.starts_with("$ ")) {
                return Err(format!(
                    "{page}:{}: a `$ ` prompt in a {info} block: make it a console \
                     example (checked), or show the command without the prompt",
                    i + k + 2
                ));
            }
            out.push_str(line);
            out.push('\n');
        }
        // trycmd drops the last line end of each expected output, which
        // kifu prints: an empty line after each output puts it back.
        let mut in_command = false;
        let mut has_output = false;
        for body_line in body {
            let starts = body_line.starts_with("$ ");
            in_command = starts
                || (in_command && (body_line.starts_with("> ") || body_line.starts_with("? ")));
            if info != "console" {
                out.push_str(body_line);
            } else if in_command {
                if starts && has_output {
                    out.push('\n');
                }
                has_output = false;
                if body_line.starts_with("? ") {
                    out.push_str(body_line);
                } else {
                    out.push_str(&expand_line(body_line, cwd));
                }
            } else {
                has_output = true;
                out.push_str(body_line);
            }
            out.push('\n');
        }
        if has_output {
            out.push('\n');
        }
        out.push_str(lines[end]);
        out.push('\n');
        i = end + 1;
    }
    Ok((out, blocks))
}

/// Copies the folder `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("a folder for the copy");
    for entry in fs::read_dir(from).expect("a folder to copy") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("a copied file");
        }
    }
}

#[cfg(unix)]
fn link_corpus(corpus: &Path, link: &Path) -> bool {
    fs::create_dir_all(link.parent().expect("a parent")).expect("the shared folder");
    std::os::unix::fs::symlink(corpus, link).expect("a link to the corpus");
    true
}

#[cfg(not(unix))]
fn link_corpus(corpus: &Path, _link: &Path) -> bool {
    eprintln!(
        "note: the documentation's corpus examples need a symbolic link to {}; skipping them",
        corpus.display()
    );
    false
}

#[test]
fn every_console_example_in_the_docs_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = scratch("docs");
    let corpus_dir = corpus().map(|dir| fs::canonicalize(dir).expect("the corpus folder"));
    let have_corpus = corpus_dir
        .as_deref()
        .is_some_and(|dir| link_corpus(dir, &cases.join(CORPUS.trim_start_matches("../"))));

    let tests = trycmd::TestCases::new();
    tests.register_bin("kifu", PathBuf::from(env!("CARGO_BIN_EXE_kifu")));
    let mut total = Blocks::default();
    for page in pages(root) {
        let name = page.to_string_lossy().replace('/', "-");
        let text = fs::read_to_string(root.join(&page)).expect("a page");
        let case = cases.join(&name);
        // trycmd runs the page's commands in `NAME.in`, beside it.
        let cwd = case.with_extension("in");
        copy_dir(&root.join("fixtures"), &cwd.join("fixtures"));
        let (prepared, blocks) =
            prepare(&name, &text, have_corpus, &cwd).unwrap_or_else(|e| panic!("{e}"));
        fs::write(&case, prepared).expect("the page's copy");
        total.checked += blocks.checked;
        total.skipped += blocks.skipped;
        tests.case(case);
    }
    assert!(
        total.checked + total.skipped >= 40,
        "only {} console examples found in the docs",
        total.checked + total.skipped
    );
    if total.skipped > 0 {
        eprintln!(
            "note: {} console examples read the corpus, which is missing: not run",
            total.skipped
        );
    }
    eprintln!("{} console examples run", total.checked);
    tests.run();
    // Passed: the outputs the examples wrote go (a failure keeps them).
    let _ = fs::remove_dir_all(&cases);
}

#[test]
fn prepare_marks_corpus_blocks_and_refuses_unchecked_prompts() {
    let cwd = Path::new(".");
    let page = "text\n```console\n$ kifu show f5\nout\n```\n\
                ```console\n$ kifu stats ../shared/corpus/x.wtb\nout\n```\n";
    let (with, blocks) = prepare("page", page, true, cwd).unwrap();
    assert_eq!(with, page.replace("out\n```", "out\n\n```"));
    assert_eq!(
        blocks,
        Blocks {
            checked: 2,
            skipped: 0
        }
    );
    let (without, blocks) = prepare("page", page, false, cwd).unwrap();
    assert_eq!(
        blocks,
        Blocks {
            checked: 1,
            skipped: 1
        }
    );
    assert!(without.contains("```console,ignore\n$ kifu stats"));
    assert!(without.starts_with("text\n```console\n$ kifu show"));

    let prompt = prepare("page", "x\n```sh\n$ kifu show\n```\n", true, cwd).unwrap_err();
    assert!(
        prompt.starts_with("page:3: a `$ ` prompt in a sh block"),
        "{prompt}"
    );
    let bare = prepare("page", "```\nkifu show\n```\n", true, cwd).unwrap_err();
    assert!(
        bare.starts_with("page:1: a code block needs a language"),
        "{bare}"
    );
    let open = prepare("page", "```console\n$ kifu show\n", true, cwd).unwrap_err();
    assert!(
        open.starts_with("page:1: the code block is not closed"),
        "{open}"
    );
}

#[test]
fn commands_expand_stars_as_a_shell_does() {
    let dir = scratch("docs-glob");
    fs::create_dir_all(dir.join("sub")).unwrap();
    for name in ["WTH_2004.wtb", "WTH_1977.wtb", "WTH.JOU", ".WTH_x.wtb"] {
        fs::write(dir.join("sub").join(name), "").unwrap();
    }
    assert_eq!(
        expand_line("$ kifu stats sub/WTH_*.wtb --by year", &dir),
        "$ kifu stats sub/WTH_1977.wtb sub/WTH_2004.wtb --by year"
    );
    assert_eq!(expand_line("> sub/*.JOU", &dir), "> sub/WTH.JOU");
    assert_eq!(
        expand_line("$ kifu show sub/*.pgn", &dir),
        "$ kifu show sub/*.pgn"
    );
    assert_eq!(expand_line("$ kifu x '*.wtb'", &dir), "$ kifu x '*.wtb'");
    assert!(matches(b"a*b*c", b"aXbYc") && matches(b"*", b"") && !matches(b"a*c", b"ab"));
}
