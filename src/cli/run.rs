//! Running a command over every input: opening each (a failure is
//! reported and the others still read), notes, progress, read errors and
//! the run's counts.

use std::collections::BTreeMap;

use anyhow::Result;
use kifu::batch::{self, BatchError, Quirked, SliceReport, Tally};
use kifu::formats::GameReader;
use kifu::{GameRecord, Report};

use super::io::{self, InputArgs};
use super::progress::Progress;
use super::{report, Outcome};

/// The whole run's counts.
#[derive(Default)]
pub struct Totals {
    /// Games by status.
    pub tally: Tally,
    /// Games written to the output.
    pub written: u64,
    /// What the output could not keep, with how many games lost each.
    pub losses: BTreeMap<&'static str, u64>,
    /// Some input could not be read (exit 2).
    pub failed: bool,
    /// Oddities read past.
    pub quirks: Quirked,
}

impl Totals {
    /// Adds what a slice came to.
    pub fn add(&mut self, slice: &SliceReport) {
        self.tally.merge(&slice.tally);
        self.written += slice.written;
        for (what, n) in &slice.losses {
            *self.losses.entry(what).or_default() += n;
        }
    }

    /// The exit outcome: failed input, else invalid games, else valid.
    pub fn outcome(&self) -> Outcome {
        if self.failed {
            Outcome::Failed
        } else if self.tally.invalid > 0 {
            Outcome::Invalid
        } else {
            Outcome::Valid
        }
    }
}

/// What a command does with one input: read its games and hand every
/// slice's report to `done`, in order.
pub trait Job {
    /// Runs over one input named `name`.
    fn input(
        &mut self,
        name: &str,
        games: Box<dyn GameReader>,
        done: &mut dyn FnMut(&SliceReport, &[String]),
    ) -> Result<(), BatchError>;
}

/// Runs `job` over every input of `inputs`, with progress, the notes of
/// each input and the run's counts. An input that cannot be opened or read
/// to its end is reported and the run goes on (exit 2 in the end).
pub fn run_inputs(inputs: &InputArgs, job: &mut dyn Job) -> Result<Totals> {
    let files = inputs.files();
    let mut progress = Progress::new(inputs.quiet, super::progress::total_size(&files));
    let mut totals = Totals::default();
    for name in &files {
        let input = match io::open_input(name, inputs.source.from) {
            Ok(input) => input,
            Err(err) => {
                progress.println(&format!("kifu: {err:#}"));
                totals.failed = true;
                continue;
            }
        };
        let size = input.size.unwrap_or(0);
        let mut notes = Vec::new();
        let games = input.games(&inputs.source, &mut notes);
        for note in &notes {
            progress.println(note);
        }
        let mut quirks = Quirked::default();
        let result = job.input(name, games, &mut |slice, lines| {
            for line in lines {
                progress.println(line);
            }
            totals.add(slice);
            quirks.merge(&slice.quirks);
            progress.advance(slice.tally.read, slice.last_byte);
        });
        progress.input_done(size);
        for note in report::input_notes(name, &quirks) {
            progress.println(&note);
        }
        totals.quirks.merge(&quirks);
        match result {
            Ok(()) => {}
            Err(BatchError::Read(err)) => {
                progress.println(&format!("kifu: {name}: {err}"));
                totals.failed = true;
            }
            Err(BatchError::Sink(err)) => {
                // A closed pipe among them: the caller ends quietly.
                progress.finish();
                return Err(err.into());
            }
            Err(err) => {
                progress.finish();
                return Err(err.into());
            }
        }
    }
    progress.finish();
    if let Some(warning) = report::missing_names(&totals.quirks) {
        eprintln!("{warning}");
    }
    Ok(totals)
}

/// What a reporting command made of one slice of games.
#[derive(Default)]
pub struct Part {
    /// Bytes for standard output (or the output file).
    pub bytes: Vec<u8>,
    /// Lines for standard error, in order.
    pub notes: Vec<String>,
    /// The slice's counts.
    pub report: SliceReport,
}

/// A job that replays each slice in the workers and turns it into a
/// [`Part`] with `work`; `sink` takes the parts in input order.
pub struct Replayed<W, S> {
    /// Batch settings.
    pub options: batch::Options,
    /// From a slice of replayed games of an input to its output.
    pub work: W,
    /// Takes each part, in order.
    pub sink: S,
}

impl<W, S> Job for Replayed<W, S>
where
    W: Fn(&str, &[(GameRecord, Report)], &mut Part) + Sync,
    S: FnMut(&Part) -> std::io::Result<()>,
{
    fn input(
        &mut self,
        name: &str,
        games: Box<dyn GameReader>,
        done: &mut dyn FnMut(&SliceReport, &[String]),
    ) -> Result<(), BatchError> {
        let work = &self.work;
        let sink = &mut self.sink;
        batch::run(
            games,
            &self.options,
            |slice: Vec<GameRecord>| {
                let mut part = Part::default();
                let replayed: Vec<(GameRecord, Report)> = slice
                    .into_iter()
                    .map(|g| {
                        let report = g.replay();
                        part.report.tally.add(report.status());
                        part.report.quirks.add(&g);
                        part.report.last_byte = g.origin.byte;
                        (g, report)
                    })
                    .collect();
                work(name, &replayed, &mut part);
                part
            },
            |part: Part| {
                sink(&part)?;
                done(&part.report, &part.notes);
                Ok(())
            },
        )
    }
}
