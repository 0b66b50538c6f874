//! `kifu repair`: find the intended game behind each invalid record.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{bail, Context, Result};
use kifu::batch::Flag;
use kifu::formats::{text_format, Features, Format};
use kifu::record::repair::{self, Options, Verdict};
use kifu::record::row::Game;

use super::io::{format_of_output, format_parser, InputArgs};
use super::output::{self, AtomicFile, Output, Target};
use super::run::{run_inputs, Out, Replay, Replayed, Totals};
use super::{diagnostic, report, suggest, Outcome};

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
    /// Output format (default: the format of the inputs).
    #[arg(long, short = 't', value_name = "FORMAT", value_parser = format_parser(true))]
    to: Option<Format>,

    /// Output file (default: standard output).
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    /// Rewrite each FILE with its repaired games, in its own format,
    /// atomically; the original is kept as FILE.orig (not with --shard:
    /// the file would keep only its shard).
    #[arg(long, short = 'i', conflicts_with = "shard")]
    in_place: bool,

    /// With --in-place, keep no FILE.orig.
    #[arg(long)]
    no_backup: bool,

    /// Most edits to make in one game.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u8).range(1..=3))]
    max_edits: u8,

    #[command(flatten)]
    input: InputArgs,
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

/// The output format: `--to`, else the one `-o`'s extension names, else
/// the one format all inputs are in.
fn output_format(args: &Args, files: &[String]) -> Result<Format> {
    if let Some(to) = args
        .to
        .or_else(|| args.output.as_deref().and_then(format_of_output))
    {
        return Ok(to);
    }
    let mut found: Option<Format> = None;
    for name in files {
        let format = match args
            .input
            .source
            .from
            .or_else(|| Format::from_path(name.as_ref()))
        {
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
    let files = args.input.files();
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
    let (totals, counts) = repair_into(&args, &args.input, to, &mut out)?;
    out.commit()?;
    report(&totals, &counts, to);
    Ok(exit_outcome(&totals, &counts))
}

/// `kifu repair --in-place`: each file rewritten with its repaired games,
/// in its own format, atomically; the original kept as `FILE.orig` unless
/// `--no-backup`. A file with nothing repaired is left as it was.
fn run_in_place(args: &Args) -> Result<Outcome> {
    if args.input.files.is_empty() || args.input.files.iter().any(|f| f == "-") {
        bail!("--in-place rewrites named files: give them (not standard input)");
    }
    if args.output.is_some() || args.to.is_some() {
        bail!("--in-place writes each file in its own format, in its place: drop -o and --to");
    }
    let mut worst = Outcome::Valid;
    let mut failed = false;
    for name in &args.input.files {
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
    let inputs = InputArgs {
        files: files.clone(),
        ..args.input.clone()
    };
    let (totals, counts) = repair_into(args, &inputs, to, &mut out)?;
    let repaired = counts.repaired.load(Ordering::Relaxed);
    if totals.failed {
        bail!("not rewritten: the file could not be read to its end");
    }
    report(&totals, &counts, to);
    if repaired == 0 {
        eprintln!("kifu: {name}: nothing repaired; left as it was");
    } else {
        if !args.no_backup {
            // The file itself, not a link to it: the rewrite replaces the
            // file a link leads to, which a link to the link would show.
            let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            std::fs::hard_link(&real, &backup)
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
            report::games(repaired).replace("game", "repaired game")
        );
    }
    Ok(exit_outcome(&totals, &counts))
}

/// Repairs every game of `inputs` and writes them all to `out` in `to`.
fn repair_into(
    args: &Args,
    inputs: &InputArgs,
    to: Format,
    out: &mut Output,
) -> Result<(Totals, Counts)> {
    let options = Options {
        max_edits: usize::from(args.max_edits),
        ..Options::default()
    };
    let text = text_format(to).ok_or_else(|| anyhow::anyhow!("{to} is not written as text"))?;
    let mut header = Vec::new();
    text.header(&mut header);
    out.write_all(&header)?;
    let counts = Counts::default();
    let selection = inputs.selection(to.names_openings())?;
    let mut losses = std::collections::BTreeMap::new();
    let mut written = 0;
    let job = &mut Replayed {
        options: inputs.options(),
        selection: &selection,
        unique: None,
        work: |g: &Replay<'_>| {
            let (name, game, report) = (g.source, g.record, g.report);
            let mut lost = Vec::new();
            let mut notes = Vec::new();
            {
                let fixed = report.error.as_ref().map(|error| {
                    let verdict = repair::repair(game, &options);
                    let (note, repaired) =
                        suggest::describe(&verdict, options.max_edits, game.moves.len());
                    match &verdict {
                        Verdict::Valid => Counts::add(&counts.valid),
                        Verdict::Repaired(_) => Counts::add(&counts.repaired),
                        Verdict::Ambiguous(_) => Counts::add(&counts.ambiguous),
                        Verdict::Unreadable | Verdict::Unrepairable(_) => {
                            Counts::add(&counts.unrepairable)
                        }
                    }
                    notes.push(format!(
                        "kifu: {}: game {}: {note}",
                        diagnostic::location(name, &Flag::of(game, error)),
                        game.origin.index
                    ));
                    repaired.map(|record| {
                        let (report, found) = selection.replay(&record);
                        (record, report, found.opening)
                    })
                });
                if report.error.is_none() {
                    Counts::add(&counts.valid);
                }
                let row = match &fixed {
                    Some(Some((record, report, opening))) => {
                        Game::new(name, record, report).with_opening(*opening)
                    }
                    _ => Game::new(name, game, report).with_opening(g.found.opening),
                };
                to.losses(&row, Features::of(&row), &mut lost);
                let mut bytes = Vec::new();
                text.write(&row, &mut bytes);
                Out {
                    item: Some((bytes, lost)),
                    notes,
                }
            }
        },
        sink: |(bytes, lost): (Vec<u8>, Vec<&'static str>)| {
            for what in lost {
                *losses.entry(what).or_default() += 1;
            }
            written += 1;
            out.write_all(&bytes)
        },
    };
    let mut totals = run_inputs(inputs, job)?;
    totals.losses = losses;
    totals.written = written;
    Ok((totals, counts))
}

fn report(totals: &Totals, counts: &Counts, to: Format) {
    report::losses(to, totals);
    eprintln!(
        "kifu: {} read: {} already valid, {} repaired, {} ambiguous, {} not repaired; {} written",
        report::games(totals.tally.read),
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
