//! `kifu convert`: any input format to any output format.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use kifu::formats::Format;
use kifu::table::Row;
use kifu::Status;

use super::run::{run_inputs, BatchArgs, Totals};
use super::{diagnostic, Outcome};

/// Convert game records between formats, whole databases at once.
///
/// Inputs of any readable format (mixed freely) are replayed in parallel
/// and written in input order. In CSV and JSON Lines an invalid game is a
/// row with status=invalid and its error; other formats write it as
/// recorded and name it on standard error. What the output format cannot
/// keep is named once per run. A summary goes to standard error.
///
/// Examples:
///   kifu convert games.txt --to csv -o games.csv
///   kifu convert a.txt b.csv --to jsonl > all.jsonl
///   cat games.txt | kifu convert --to csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Input files (`-` or none: standard input).
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format.
    #[arg(long, short = 't', value_name = "FORMAT")]
    to: Format,

    /// Output file (default: standard output).
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    #[command(flatten)]
    batch: BatchArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = super::default_files(&args.files);
    let to = args.to;
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(BufWriter::with_capacity(
            1 << 16,
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => Box::new(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
    };
    out.write_all(&to.header())?;
    let totals = run_inputs(
        &files,
        &args.batch,
        |name, games, slice| {
            let rows = games.iter().map(|(g, r)| Row::new(name, g, r));
            if let Err(err) = to.write_rows(rows, &mut slice.bytes) {
                slice
                    .notes
                    .push(format!("kifu: cannot format a game: {err}"));
            }
            slice.written += games.len() as u64;
            let mut lost = Vec::new();
            for (game, report) in games {
                lost.clear();
                to.losses(game, &mut lost);
                for what in &lost {
                    *slice.losses.entry(what).or_default() += 1;
                }
                if report.status() == Status::Invalid && !to.carries_status() {
                    if let Some(error) = &report.error {
                        slice.notes.push(format!(
                            "kifu: {}: {} (written as recorded)",
                            diagnostic::location(name, game, error),
                            diagnostic::headline(game, error)
                        ));
                    }
                }
            }
        },
        |slice| out.write_all(&slice.bytes),
    )?;
    out.flush()?;
    report_losses(to, &totals);
    eprintln!("{}", summary(&totals));
    Ok(totals.outcome())
}

/// One warning per thing the output could not keep.
pub fn report_losses(to: Format, totals: &Totals) {
    for (what, games) in &totals.losses {
        eprintln!(
            "kifu: warning: {to} cannot keep {what} ({games} game{})",
            if *games == 1 { "" } else { "s" }
        );
    }
}

/// `kifu: 12 games read: 10 complete, 1 incomplete, 1 invalid; 12 written, 0 left out`
pub fn summary(totals: &Totals) -> String {
    let t = &totals.tally;
    format!(
        "kifu: {} games read: {} complete, {} incomplete, {} invalid; {} written, {} left out",
        t.read,
        t.complete,
        t.incomplete,
        t.invalid,
        totals.written,
        t.read - totals.written.min(t.read)
    )
}
