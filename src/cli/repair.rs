//! `kifu repair`: find the intended game behind each invalid record, and
//! the `--suggest` block of `kifu validate`.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{bail, Context, Result};
use kifu::formats::Format;
use kifu::repair::{self, is_unique, Mark, Options, Suggestion, Verdict};
use kifu::table::Game;
use kifu::{GameError, GameRecord, Report, Status, Winner};

use super::output::{self, AtomicFile, Output, Target};
use super::run::{run_inputs, BatchArgs, Totals};
use super::{convert, diagnostic, Outcome};

/// Repair invalid games: find the smallest edits that make each record
/// legal to its end, and write every game.
///
/// For each invalid game the search tries one square in place of another
/// (a neighbouring square, letter and digit swapped, a mirrored row or
/// column, the wrong row or column, any other square), two moves
/// transposed, a move inserted or deleted, and the whole record turned or
/// mirrored. A game is repaired only when one candidate plays it to its
/// end and ranks above every other; otherwise it is written as it was and
/// the ambiguity is reported. What was done to each game goes to standard
/// error, with a summary line. The output is in the input's format unless
/// --to says otherwise.
///
/// Examples:
///   kifu repair games.txt -o fixed.txt
///   kifu repair typed.txt --to csv > fixed.csv
///   kifu repair --in-place a.txt b.pgn   (originals kept as a.txt.orig, b.pgn.orig)
///   kifu validate --suggest games.txt     (to see the candidates)
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Input files (`-` or none: standard input).
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format (default: the format of the inputs).
    #[arg(long, short = 't', value_name = "FORMAT")]
    to: Option<Format>,

    /// Output file (default: standard output).
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    /// Rewrite each FILE with its repaired games, in its own format,
    /// atomically; the original is kept as FILE.orig.
    #[arg(long, short = 'i')]
    in_place: bool,

    /// With --in-place, keep no FILE.orig.
    #[arg(long)]
    no_backup: bool,

    /// Most edits to make in one game.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u8).range(1..=3))]
    max_edits: u8,

    #[command(flatten)]
    batch: BatchArgs,
}

/// Games by what the repair did, counted across the parallel slices.
#[derive(Default)]
struct Counts {
    valid: AtomicU64,
    repaired: AtomicU64,
    ambiguous: AtomicU64,
    unrepairable: AtomicU64,
}

impl Counts {
    fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// The output format: `--to`, else the one format all inputs are in.
fn output_format(args: &Args, files: &[String]) -> Result<Format> {
    if let Some(to) = args.to {
        return Ok(to);
    }
    let mut found: Option<Format> = None;
    for name in files {
        let format = match args.batch.from.or_else(|| Format::from_path(name.as_ref())) {
            Some(f) => f,
            None if name == "-" => {
                bail!("cannot tell the output format for standard input: use --to (or --from)")
            }
            None => {
                // An input that cannot be opened is reported by the run.
                let Ok(file) = File::open(name) else { continue };
                let mut head = Vec::with_capacity(8192);
                let _ = file.take(8192).read_to_end(&mut head);
                match Format::detect(&head) {
                    Some(f) => f,
                    None => continue,
                }
            }
        };
        match found {
            Some(other) if other != format => {
                bail!("the inputs are in different formats ({other} and {format}): use --to")
            }
            _ => found = Some(format),
        }
    }
    Ok(found.unwrap_or(Format::Transcript))
}

pub fn run(args: Args) -> Result<Outcome> {
    if args.in_place {
        return run_in_place(&args);
    }
    if args.no_backup {
        bail!("--no-backup goes with --in-place");
    }
    let files = super::default_files(&args.files);
    let target = match &args.output {
        Some(path) => Target::File(path),
        None => Target::Stdout,
    };
    output::refuse_inputs_as_outputs(&files, &[target])?;
    let to = output_format(&args, &files)?;
    if !to.is_text() {
        bail!(
            "repair writes text formats, not {to}: choose one with --to (jsonl keeps everything)"
        );
    }
    let mut out = Output::open(args.output.as_deref())?;
    let (totals, counts) = repair_into(&args, &files, to, &mut out)?;
    out.commit()?;
    report(&totals, &counts, to);
    Ok(exit_outcome(&totals, &counts))
}

/// `kifu repair --in-place`: each file rewritten with its repaired games,
/// in its own format, atomically; the original kept as `FILE.orig` unless
/// `--no-backup`. A file with nothing repaired is left as it was.
fn run_in_place(args: &Args) -> Result<Outcome> {
    if args.files.is_empty() || args.files.iter().any(|f| f == "-") {
        bail!("--in-place rewrites named files: give them (not standard input)");
    }
    if args.output.is_some() || args.to.is_some() {
        bail!("--in-place writes each file in its own format, in its place: drop -o and --to");
    }
    let mut worst = Outcome::Valid;
    let mut failed = false;
    for name in &args.files {
        match repair_file(args, name) {
            Ok(outcome) => {
                if outcome == Outcome::Invalid {
                    worst = Outcome::Invalid;
                }
            }
            Err(err) => {
                eprintln!("kifu: {name}: {err:#}");
                failed = true;
            }
        }
    }
    Ok(if failed { Outcome::Failed } else { worst })
}

fn repair_file(args: &Args, name: &str) -> Result<Outcome> {
    let path = Path::new(name);
    let files = vec![name.to_owned()];
    let to = output_format(args, &files)?;
    if !to.is_text() {
        bail!("{to} files cannot be repaired in place (repair writes text formats): use --to jsonl -o OUT");
    }
    let backup = PathBuf::from(format!("{name}.orig"));
    if !args.no_backup && backup.exists() {
        bail!(
            "{} already exists: move it away, or use --no-backup",
            backup.display()
        );
    }
    let mut out = Output::File(AtomicFile::create(path)?);
    let (totals, counts) = repair_into(args, &files, to, &mut out)?;
    let repaired = counts.repaired.load(Ordering::Relaxed);
    if totals.failed {
        bail!("not rewritten: the file could not be read to its end");
    }
    report(&totals, &counts, to);
    if repaired == 0 {
        eprintln!("kifu: {name}: nothing repaired; left as it was");
    } else {
        if !args.no_backup {
            std::fs::hard_link(path, &backup)
                .or_else(|_| std::fs::copy(path, &backup).map(|_| ()))
                .with_context(|| format!("cannot keep the original as {}", backup.display()))?;
        }
        out.commit()?;
        let kept = if args.no_backup {
            String::new()
        } else {
            format!(" (the original is {})", backup.display())
        };
        eprintln!(
            "kifu: {name}: rewritten with {}{kept}",
            super::run::games(repaired).replace("game", "repaired game")
        );
    }
    Ok(exit_outcome(&totals, &counts))
}

/// Repairs every game of `files` and writes them all to `out` in `to`.
fn repair_into(
    args: &Args,
    files: &[String],
    to: Format,
    out: &mut Output,
) -> Result<(Totals, Counts)> {
    let options = Options {
        max_edits: usize::from(args.max_edits),
        ..Options::default()
    };
    out.write_all(&to.header())?;
    let counts = Counts::default();
    let totals = run_inputs(
        files,
        &args.batch,
        |name, games, slice| {
            let mut fixed: Vec<Option<(GameRecord, Report)>> = Vec::with_capacity(games.len());
            for (game, report) in games {
                let Some(error) = &report.error else {
                    Counts::add(&counts.valid);
                    fixed.push(None);
                    continue;
                };
                let verdict = repair::repair(game, &options);
                let (note, repaired) = describe(&verdict, options.max_edits, game.moves.len());
                match &verdict {
                    Verdict::Valid => Counts::add(&counts.valid),
                    Verdict::Repaired(_) => Counts::add(&counts.repaired),
                    Verdict::Ambiguous(_) => Counts::add(&counts.ambiguous),
                    Verdict::Unreadable | Verdict::Unrepairable(_) => {
                        Counts::add(&counts.unrepairable)
                    }
                }
                slice.notes.push(format!(
                    "kifu: {}: game {}: {note}",
                    diagnostic::location(name, game, error),
                    game.origin.index
                ));
                fixed.push(repaired.map(|record| {
                    let report = record.replay();
                    (record, report)
                }));
            }
            let rows: Vec<Game> = games
                .iter()
                .zip(&fixed)
                .map(|((game, report), fix)| match fix {
                    Some((record, report)) => Game::new(name, record, report),
                    None => Game::new(name, game, report),
                })
                .collect();
            let mut lost = Vec::new();
            for row in &rows {
                lost.clear();
                to.losses(row.record, &mut lost);
                for what in &lost {
                    *slice.losses.entry(what).or_default() += 1;
                }
            }
            slice.written += rows.len() as u64;
            if let Err(err) = to.write_rows(rows, &mut slice.bytes) {
                slice
                    .notes
                    .push(format!("kifu: cannot format a game: {err}"));
            }
        },
        |slice| out.write_all(&slice.bytes),
    )?;
    Ok((totals, counts))
}

fn report(totals: &Totals, counts: &Counts, to: Format) {
    convert::report_losses(to, totals);
    eprintln!(
        "kifu: {} read: {} already valid, {} repaired, {} ambiguous, {} not repaired; {} written",
        super::run::games(totals.tally.read),
        counts.valid.load(Ordering::Relaxed),
        counts.repaired.load(Ordering::Relaxed),
        counts.ambiguous.load(Ordering::Relaxed),
        counts.unrepairable.load(Ordering::Relaxed),
        totals.written
    );
}

fn exit_outcome(totals: &Totals, counts: &Counts) -> Outcome {
    let left =
        counts.ambiguous.load(Ordering::Relaxed) + counts.unrepairable.load(Ordering::Relaxed);
    if totals.failed {
        Outcome::Failed
    } else if left > 0 {
        Outcome::Invalid
    } else {
        Outcome::Valid
    }
}

/// What the repair did, for standard error, and the record to write
/// instead of the input's.
fn describe(verdict: &Verdict, max_edits: usize, moves: usize) -> (String, Option<GameRecord>) {
    match verdict {
        Verdict::Valid => ("valid".into(), None),
        Verdict::Repaired(s) => (
            format!("repaired: {}", edit_list(s)),
            Some(s.record.clone()),
        ),
        Verdict::Ambiguous(tied) => {
            let shown: Vec<String> = tied.iter().take(3).map(edit_list).collect();
            let more = if tied.len() > 3 {
                format!(" | {} more", tied.len() - 3)
            } else {
                String::new()
            };
            (
                format!(
                    "left as is: {} repairs tie: {}{more}",
                    tied.len(),
                    shown.join(" | ")
                ),
                None,
            )
        }
        Verdict::Unrepairable(best) => {
            let closest = match best {
                Some(s) => format!(
                    " (the closest, {}, stops at move {} of {moves})",
                    edit_list(s),
                    s.progress + 1
                ),
                None => String::new(),
            };
            (
                format!(
                    "left as is: no repair of {} plays the record to its end{closest}",
                    if max_edits == 1 {
                        "one edit".to_string()
                    } else {
                        format!("up to {max_edits} edits")
                    }
                ),
                None,
            )
        }
        Verdict::Unreadable => (
            "left as is: the record cannot be read to its end".into(),
            None,
        ),
    }
}

fn edit_list(s: &Suggestion) -> String {
    let edits: Vec<String> = s.edits.iter().map(ToString::to_string).collect();
    edits.join("; ")
}

/// How a suggestion ends: `plays to the end, white wins 39-25`.
fn outcome(s: &Suggestion, moves: usize) -> String {
    if !s.reaches_end {
        return format!("stops at move {} of {moves}", s.progress + 1);
    }
    match (s.status, s.score) {
        (Status::Complete, Some(score)) => {
            let (b, w) = (score.black_score, score.white_score);
            match score.winner {
                Winner::Black => format!("plays to the end, black wins {b}-{w}"),
                Winner::White => format!("plays to the end, white wins {w}-{b}"),
                Winner::Draw => format!("plays to the end, a draw {b}-{w}"),
            }
        }
        _ => "plays to the end, incomplete".into(),
    }
}

/// The moves of a suggestion around its edits, edited moves in brackets:
/// `from move 5: c4 f4 f6 [f3] e6 e7`; `[+d8]` an inserted move, `[-a1]` a
/// deleted one.
fn excerpt(s: &Suggestion) -> String {
    const AROUND: usize = 3;
    let record = &s.record;
    let n = record.moves.len();
    let mut spots: Vec<usize> = s.marks.iter().map(|(i, _)| *i).collect();
    spots.extend(s.deleted.iter().map(|(i, _)| *i));
    spots.sort_unstable();
    if spots.is_empty() {
        // A whole-record edit: the opening.
        spots.push(0);
    }
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for at in spots {
        let lo = at.saturating_sub(AROUND);
        let hi = (at + AROUND + 1).min(n);
        match windows.last_mut() {
            Some(w) if lo <= w.1 => w.1 = w.1.max(hi),
            _ => windows.push((lo, hi)),
        }
    }
    let mut parts = Vec::new();
    for (lo, hi) in windows {
        let mut words = Vec::new();
        for i in lo..=hi {
            for (_, text) in s.deleted.iter().filter(|(at, _)| *at == i) {
                words.push(format!("[-{text}]"));
            }
            if i >= hi {
                break;
            }
            let token = record.token_text(i);
            words.push(match s.marks.iter().find(|(at, _)| *at == i).map(|m| m.1) {
                Some(Mark::Inserted) => format!("[+{token}]"),
                Some(Mark::Changed | Mark::Moved) => format!("[{token}]"),
                None => token,
            });
        }
        parts.push(format!("from move {}: {}", lo + 1, words.join(" ")));
    }
    parts.join(" ... ")
}

/// The block `kifu validate --suggest` prints under an invalid game's
/// diagnostic: the best `count` candidates, edited moves in brackets.
pub fn suggestions(record: &GameRecord, error: &GameError, count: usize) -> String {
    if matches!(error, GameError::Parse(_)) {
        return "  no suggestion: the record cannot be read to its end\n\n".into();
    }
    let options = Options::default();
    let found = repair::suggest_with(record, count.max(1) + 5, &options);
    if found.is_empty() {
        return format!(
            "  no suggestion: nothing within {} edits gets further\n\n",
            options.max_edits
        );
    }
    let moves = record.moves.len();
    let mut out = String::from("  suggestions, best first:\n");
    for (i, s) in found.iter().take(count.max(1)).enumerate() {
        out.push_str(&format!(
            "  {}. {}: {}\n     {}\n",
            i + 1,
            edit_list(s),
            outcome(s, moves),
            excerpt(s)
        ));
    }
    if found.first().is_some_and(|s| s.reaches_end) && !is_unique(&found) {
        let tied = found.iter().filter(|s| s.rank == found[0].rank).count();
        out.push_str(&format!(
            "  the first {tied} tie: kifu repair leaves this game as is\n"
        ));
    }
    out.push('\n');
    out
}
