//! Running a command over every input: opening each (a failure is
//! reported and the others still read), notes, progress, read errors and
//! the run's counts.

use std::collections::BTreeMap;

use anyhow::Result;
use kifu::batch::{self, BatchError, Quirked, Seen, SliceReport, Tally};
use kifu::select::{duplicate_key, Findings, Selection};
use kifu::formats::GameReader;
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
            progress.advance(slice.read, slice.last_byte);
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
    /// Per kept game: its duplicate key, its status, and where its bytes
    /// and notes end.
    games: Vec<(Option<u128>, Status, usize, usize)>,
}

/// One game a reporting command works on: the record, its replay and what
/// the replay found.
pub struct Replay<'a> {
    /// The input's name.
    pub source: &'a str,
    /// The record.
    pub record: &'a GameRecord,
    /// Its replay.
    pub report: &'a Report,
    /// Its opening and where it reached `--position`.
    pub found: &'a Findings,
}

/// A job that replays each game in the workers, keeps those the filters
/// choose, and turns each into output with `work`; `sink` takes the
/// output in input order, duplicates left out under `--unique`.
pub struct Replayed<'s, W, S> {
    /// Batch settings.
    pub options: batch::Options,
    /// The filters, and what each replay finds.
    pub selection: &'s Selection,
    /// The keys of the games kept so far, under `--unique`.
    pub unique: Option<Seen>,
    /// From one kept game to its output (bytes and notes of the part).
    pub work: W,
    /// Takes each part's output, in order.
    pub sink: S,
}

impl<W, S> Job for Replayed<'_, W, S>
where
    W: Fn(&Replay<'_>, &mut Part) + Sync,
    S: FnMut(&[u8]) -> std::io::Result<()>,
{
    fn input(
        &mut self,
        name: &str,
        games: Box<dyn GameReader>,
        done: &mut dyn FnMut(&SliceReport, &[String]),
    ) -> Result<(), BatchError> {
        let work = &self.work;
        let sink = &mut self.sink;
        let selection = self.selection;
        let unique = self.unique.is_some();
        let seen = &mut self.unique;
        batch::run(
            games,
            &self.options,
            |slice: Vec<GameRecord>| {
                let mut part = Part::default();
                for record in slice {
                    part.report.read += 1;
                    part.report.quirks.add(&record);
                    part.report.last_byte = record.origin.byte;
                    let (report, found) = selection.replay(&record);
                    if !selection.filter.accepts(&record, &report, &found) {
                        continue;
                    }
                    let replay = Replay {
                        source: name,
                        record: &record,
                        report: &report,
                        found: &found,
                    };
                    work(&replay, &mut part);
                    let key = unique.then(|| duplicate_key(&record));
                    let ends = (part.bytes.len(), part.notes.len());
                    part.games.push((key, report.status(), ends.0, ends.1));
                }
                part
            },
            |part: Part| {
                let mut report = part.report;
                let mut notes = Vec::with_capacity(part.notes.len());
                let (mut byte, mut note) = (0, 0);
                for &(key, status, bytes_end, notes_end) in &part.games {
                    let (bytes, lines) = (byte..bytes_end, note..notes_end);
                    (byte, note) = (bytes_end, notes_end);
                    if let (Some(seen), Some(key)) = (seen.as_mut(), key) {
                        if !seen.first(key) {
                            report.duplicates += 1;
                            continue;
                        }
                    }
                    report.tally.add(status);
                    sink(&part.bytes[bytes])?;
                    notes.extend_from_slice(&part.notes[lines]);
                }
                done(&report, &notes);
                Ok(())
            },
        )
    }
}
