//! `kifu convert`: any input format to any output format.

use std::io::{IsTerminal, Seek, SeekFrom};
use std::path::PathBuf;

use anyhow::{bail, Result};
use kifu::batch::{self, BatchError, Choice, Prepare, Seen};
use kifu::formats::parquet::TableWriter;
use kifu::formats::{token_npy, Format, GameWriter, TextWriter};
use kifu::record::select::Selection;

use std::sync::atomic::{AtomicU64, Ordering};

use kifu::record::analysis::theoretical_black_score;
use kifu::solve::Solver;
use kifu::{GameRecord, Report};

use super::archive::{self, Theoretical, WthorArgs};
use super::io::{format_of_output, format_parser, InputArgs};
use super::output::{self, Output, Scratch, Target};
use super::run::{run_inputs, Done, Games, Job};
use super::{report, Outcome};

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
///   kifu convert WTH_*.wtb -o train.npy                   (Othello-GPT tokens)
///   kifu convert synthetic.parquet --to csv -o games.csv  (a token column)
///   cat games.txt | kifu convert --to csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Output format (default: the one -o's extension names).
    #[arg(long, short = 't', value_name = "FORMAT", value_parser = format_parser(true))]
    to: Option<Format>,

    /// Output file (default: standard output).
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,

    /// Leave out games whose moves repeat an earlier game's, turned or
    /// mirrored or not (the first is kept).
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    #[command(flatten)]
    wthor: WthorArgs,

    #[command(flatten)]
    input: InputArgs,
}

/// Writes every chosen game of each input with one writer.
pub struct Converting<'w> {
    /// The output format.
    pub to: Format,
    /// Its writer.
    pub writer: &'w mut dyn GameWriter,
    /// Batch settings.
    pub options: batch::Options,
    /// The filters, and what each replay finds.
    pub selection: Selection,
    /// The keys of the games kept so far, under `--unique`.
    pub unique: Option<Seen>,
    /// Work on each game before a writer that is not text gets it.
    pub prepare: Option<&'w Prepare<'w>>,
}

impl Job for Converting<'_> {
    fn input(&mut self, name: &str, games: Games, done: &mut Done<'_>) -> Result<(), BatchError> {
        let choice = Choice {
            selection: &self.selection,
            unique: self.unique.as_mut(),
            prepare: self.prepare,
        };
        batch::convert(
            games,
            name,
            self.to,
            self.writer,
            &self.options,
            choice,
            |slice| {
                let lines: Vec<String> = slice
                    .flagged
                    .iter()
                    .map(|flag| report::flagged(name, flag))
                    .chain(
                        slice
                            .refused
                            .iter()
                            .map(|(index, why)| report::refused(name, *index, why)),
                    )
                    .collect();
                done(slice, &lines);
            },
        )
    }
}

/// Gives `record` its theoretical score at `depth` by solving, unless a
/// WTHOR input of that depth stored it; whether it solved one.
fn solve_theoretical(solver: &Solver, record: &mut GameRecord, report: &Report, depth: u8) -> bool {
    let known = record.theoretical_depth == Some(depth) && record.theoretical_black_score.is_some();
    if known || report.error.is_some() || !record.has_standard_start() {
        return false;
    }
    // The solver is never interrupted here (Ctrl-C ends the process).
    match theoretical_black_score(solver, record, report, u32::from(depth)) {
        Ok(Some(score)) => {
            record.theoretical_black_score = Some(score);
            record.theoretical_depth = Some(depth);
            true
        }
        Ok(None) | Err(_) => false,
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let files = args.input.files();
    let to = match (args.to, args.output.as_deref().and_then(format_of_output)) {
        (Some(to), _) | (None, Some(to)) => to,
        (None, None) => bail!(
            "cannot tell the output format: give --to FORMAT, or -o a file whose extension names \
             one ({})",
            kifu::formats::Format::ALL
                .iter()
                .filter(|f| f.writable())
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let target = match &args.output {
        Some(path) => Target::File(path),
        None => Target::Stdout,
    };
    output::refuse_inputs_as_outputs(&files, &[target])?;
    if !to.writable() {
        bail!("{to} is read only: choose another output format");
    }
    if to != Format::Wthor && args.wthor.any() {
        bail!("--split-year, --depth, --theoretical and --hash are for WTHOR output (--to wthor)");
    }
    let options = match to {
        // A row or a line a game: the output is a few times the input
        // at most (WTHOR to CSV 3.6 times), the read-ahead worth its room.
        Format::Csv | Format::Transcript | Format::Wthor => args.input.options().reading_ahead(),
        _ => args.input.options(),
    };
    let selection = args.input.selection(false)?;
    let unique = args.unique.then(Seen::default);
    let totals = if to == Format::Wthor {
        let Some(path) = &args.output else {
            bail!("WTHOR output needs a file: use -o OUT.wtb (the name files go beside it)");
        };
        let mut archive = archive::open(path, &args.input, &args.wthor)?;
        let depth = archive.depth();
        let solving =
            args.wthor.theoretical.unwrap_or_default() == Theoretical::Solve && depth >= 2;
        let solver = solving
            .then(|| super::solver::solver(args.wthor.hash.unwrap_or(kifu::jobs::DEFAULT_HASH_MB)));
        let solved = AtomicU64::new(0);
        let prepare = |record: &mut GameRecord, report: &Report| {
            if let Some(solver) = &solver {
                if solve_theoretical(solver, record, report, depth) {
                    solved.fetch_add(1, Ordering::Relaxed);
                }
            }
        };
        let totals = run_inputs(
            &args.input,
            &mut Converting {
                to,
                writer: &mut archive.writer,
                options,
                selection,
                unique,
                prepare: solving.then_some(&prepare as &Prepare<'_>),
            },
        )?;
        archive.commit()?;
        let solved = solved.into_inner();
        if solved > 0 {
            eprintln!(
                "kifu: {} solved from {depth} empties for their theoretical scores",
                report::games(solved)
            );
        }
        totals
    } else if to == Format::Tokens {
        output::refuse_binary_on_terminal(
            "tokens",
            args.output.as_deref(),
            std::io::stdout().is_terminal(),
        )?;
        let job = |writer: &mut dyn GameWriter| {
            run_inputs(
                &args.input,
                &mut Converting {
                    to,
                    writer,
                    options,
                    selection,
                    unique,
                    prepare: None,
                },
            )
        };
        match Output::open(args.output.as_deref())? {
            Output::File(mut file) if file.seekable() => {
                let mut writer = token_npy::Writer::new(&mut file)?;
                let totals = job(&mut writer)?;
                writer.finish()?;
                file.commit()?;
                totals
            }
            // A pipe: the array waits in a scratch file for its count.
            mut out => {
                let mut scratch = Scratch::create("tokens")?;
                let mut writer = token_npy::Writer::new(scratch.file())?;
                let totals = job(&mut writer)?;
                writer.finish()?;
                let file = scratch.file();
                file.seek(SeekFrom::Start(0))?;
                std::io::copy(file, &mut out)?;
                out.commit()?;
                totals
            }
        }
    } else {
        if to == Format::Parquet {
            output::refuse_binary_on_terminal(
                "parquet",
                args.output.as_deref(),
                std::io::stdout().is_terminal(),
            )?;
        }
        let mut out = Output::open(args.output.as_deref())?;
        let mut writer: Box<dyn GameWriter + '_> = if to == Format::Parquet {
            Box::new(TableWriter::new(&mut out)?)
        } else {
            match TextWriter::new(to, &mut out)? {
                Some(writer) => Box::new(writer),
                None => bail!("{to} is not written as text"),
            }
        };
        let totals = run_inputs(
            &args.input,
            &mut Converting {
                to,
                writer: writer.as_mut(),
                options,
                selection,
                unique,
                prepare: None,
            },
        )?;
        writer.finish()?;
        drop(writer);
        out.commit()?;
        totals
    };
    report::losses(to, &totals);
    eprintln!("{}", report::summary(&totals));
    Ok(totals.outcome())
}
