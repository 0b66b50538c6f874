//! Running a command over every input: opening each (a failure is
//! reported and the others still read), notes, progress, read errors and
//! the run's counts.

use std::collections::BTreeMap;

use anyhow::Result;
use kifu::batch::{self, BatchError, Quirked, Seen, SliceReport, Tally};
use kifu::formats::GameReader;
use kifu::record::select::{duplicate_key, Findings, Selection};
use kifu::{GameRecord, Report, Status};

use super::io::{self, InputArgs};
use super::progress::Progress;
use super::{report, Outcome};

/// The whole run's counts.
#[derive(Default)]
pub struct Totals {
    /// Games read, chosen or not.
    pub read: u64,
    /// Whether filters chose among them (the summary says how many
    /// matched).
    pub filtered: bool,
    /// Games left out as duplicates of earlier ones.
    pub duplicates: u64,
    /// The games kept, by status.
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
        self.read += slice.read;
        self.duplicates += slice.duplicates;
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
    fn input(&mut self, name: &str, games: Games, done: &mut Done<'_>) -> Result<(), BatchError>;

    /// Told before each input how many games the inputs before it held,
    /// of every shard (a game's number in the run is this plus its number
    /// in its input).
    fn games_before(&mut self, _games: u64) {}
}

/// An input's games, as its reader yields them.
pub type Games = Box<dyn GameReader>;

/// Hears each slice's report and the notes about its games, in order.
pub type Done<'a> = dyn FnMut(&SliceReport, &[String]) + 'a;

/// Runs `job` over every input of `inputs`, with progress, the notes of
/// each input and the run's counts. An input that cannot be opened or read
/// to its end is reported and the run goes on (exit 2 in the end).
pub fn run_inputs(inputs: &InputArgs, job: &mut dyn Job) -> Result<Totals> {
    let progress = Progress::new(inputs.quiet, super::progress::total_size(&inputs.files()));
    run_with(inputs, job, progress)
}

/// [`run_inputs`] for a long job (solving every game): the games that
/// `selection` keeps counted first when a bar is shown, so that it counts
/// games and estimates the time left from them.
pub fn run_counted(inputs: &InputArgs, selection: &Selection, job: &mut dyn Job) -> Result<Totals> {
    let progress = match super::progress::wanted(inputs.quiet)
        .then(|| games_ahead(inputs, selection))
        .flatten()
    {
        Some(games) => Progress::over_games(inputs.quiet, games),
        None => Progress::new(inputs.quiet, super::progress::total_size(&inputs.files())),
    };
    run_with(inputs, job, progress)
}

/// The games of `inputs` (their shard) that `selection` keeps, counted
/// ahead in parallel; `None` for standard input (read once) or an input
/// that fails (the run itself reports it).
pub fn games_ahead(inputs: &InputArgs, selection: &Selection) -> Option<u64> {
    let files = inputs.files();
    if files.iter().any(|f| f == "-") {
        return None;
    }
    let library = kifu::jobs::Inputs {
        paths: files,
        jobs: inputs.jobs,
        part: inputs.part(),
        ..inputs.source.inputs()
    };
    let counted = library.count(selection).ok()?;
    Some(counted.iter().map(|c| c.kept).sum())
}

fn run_with(inputs: &InputArgs, job: &mut dyn Job, mut progress: Progress) -> Result<Totals> {
    let files = inputs.files();
    let parting = kifu::jobs::Parting::new(inputs.part());
    let mut totals = Totals {
        filtered: !inputs.filter.is_empty(),
        ..Totals::default()
    };
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
        let games = parting.input(io::games(input, &inputs.source, &mut notes));
        job.games_before(parting.games_read(totals.read));
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
            progress.advance(slice.read, slice.tally.read, slice.last_byte);
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
    if let Some(part) = inputs.shard {
        eprintln!(
            "{}",
            report::shard_line(part, parting.games_read(totals.read))
        );
    }
    Ok(totals)
}

/// One game a command works on: the record, its replay and what the
/// replay found.
pub struct Replay<'a> {
    /// The input's name.
    pub source: &'a str,
    /// The record.
    pub record: &'a GameRecord,
    /// Its replay.
    pub report: &'a Report,
    /// Its opening, and where it reached the positions asked for.
    pub found: &'a Findings,
}

/// What a command makes of each game it keeps, in the workers.
pub struct Out<T> {
    /// The command's own item; `None` when the sink has nothing to take
    /// (the game still counts; with no notes and no `--unique` either, it
    /// is counted in the worker and never goes to the sink's thread).
    pub item: Option<T>,
    /// Lines for standard error.
    pub notes: Vec<String>,
}

/// A job that replays each game in the workers, keeps those the filters
/// choose, and turns each into an item with `work`; `sink` takes the
/// items in input order, duplicates left out under `--unique`.
pub struct Replayed<'s, W, S> {
    /// Batch settings.
    pub options: batch::Options,
    /// The filters, and what each replay finds.
    pub selection: &'s Selection,
    /// The keys of the games kept so far, under `--unique`.
    pub unique: Option<Seen>,
    /// From one kept game to its item and notes.
    pub work: W,
    /// Takes each item, in order.
    pub sink: S,
}

/// The kept games of a slice, each with its key and status.
struct Slice<T> {
    games: Vec<(Option<u128>, Status, Out<T>)>,
    report: SliceReport,
}

impl<T, W, S> Job for Replayed<'_, W, S>
where
    T: Send,
    W: Fn(&Replay<'_>) -> Out<T> + Sync,
    S: FnMut(T) -> std::io::Result<()>,
{
    fn input(&mut self, name: &str, games: Games, done: &mut Done<'_>) -> Result<(), BatchError> {
        let work = &self.work;
        let sink = &mut self.sink;
        let selection = self.selection;
        let unique = self.unique.is_some();
        let seen = &mut self.unique;
        batch::run(
            games,
            &self.options,
            |records: Vec<GameRecord>| {
                let mut slice = Slice {
                    games: Vec::with_capacity(records.len()),
                    report: SliceReport::default(),
                };
                selection.replay_each(&records, false, |record, (report, found)| {
                    slice.report.read += 1;
                    slice.report.quirks.add(record);
                    slice.report.last_byte = record.origin.byte;
                    if !selection.filter.accepts(record, &report, &found) {
                        return;
                    }
                    let out = work(&Replay {
                        source: name,
                        record,
                        report: &report,
                        found: &found,
                    });
                    if !unique && out.item.is_none() && out.notes.is_empty() {
                        slice.report.tally.add(report.status());
                        return;
                    }
                    let key = unique.then(|| duplicate_key(record));
                    slice.games.push((key, report.status(), out));
                });
                slice
            },
            |slice: Slice<T>| {
                let mut report = slice.report;
                let mut notes = Vec::new();
                for (key, status, out) in slice.games {
                    if let (Some(seen), Some(key)) = (seen.as_mut(), key) {
                        if !seen.first(key) {
                            report.duplicates += 1;
                            continue;
                        }
                    }
                    report.tally.add(status);
                    notes.extend(out.notes);
                    if let Some(item) = out.item {
                        sink(item)?;
                    }
                }
                done(&report, &notes);
                Ok(())
            },
        )
    }
}
