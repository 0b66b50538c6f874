//! Running a batch over every input of a command: opening, the parallel
//! pipeline, progress, errors per input, and the counts.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use kifu::batch::{self, BatchError, Options, Tally};
use kifu::formats::Format;
use kifu::{GameRecord, Quirk, Report};

use super::{input, progress::Progress};

/// Flags shared by the batch commands.
#[derive(clap::Args, Debug, Clone)]
pub struct BatchArgs {
    /// Read every input as this format instead of guessing.
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<Format>,

    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    pub jobs: usize,

    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Where to look for WTHOR player and tournament files (default: next
    /// to each .wtb file).
    #[arg(long, value_name = "DIR")]
    pub names: Option<std::path::PathBuf>,
}

/// What one slice of games produced.
pub struct SliceOut {
    /// Bytes for standard output (or the output file).
    pub bytes: Vec<u8>,
    /// Lines for standard error, in order.
    pub notes: Vec<String>,
    /// Games by status.
    pub tally: Tally,
    /// Games written to the output.
    pub written: u64,
    /// What the output format could not keep, with how many games lost it.
    pub losses: BTreeMap<&'static str, u64>,
    /// Offset of the last game in its input, for the progress bar.
    pub last_byte: u64,
    /// Games encoded for a WTHOR output, with their names.
    pub encoded: Vec<(kifu::formats::wthor::EncodedGame, kifu::Tags)>,
    /// Oddities of the input read past, and how many games had each.
    pub quirks: Quirked,
}

/// Games with each [`Quirk`], and the numbers missing from name files.
#[derive(Default, Clone)]
pub struct Quirked {
    counts: [u64; Quirk::ALL.len()],
    /// Player numbers missing from the name files.
    players: BTreeSet<u16>,
    /// Tournament numbers missing from the name files.
    tournaments: BTreeSet<u16>,
}

impl Quirked {
    /// Counts the quirks of one game.
    pub fn add(&mut self, game: &GameRecord) {
        if game.quirks.is_empty() {
            return;
        }
        for quirk in game.quirks.iter() {
            self.counts[quirk as usize] += 1;
        }
        let number = |name: &Option<String>| {
            name.as_deref()
                .and_then(|n| n.strip_prefix('#'))
                .and_then(|n| n.parse::<u16>().ok())
        };
        let tags = &game.tags;
        if game.quirks.contains(Quirk::BlackUnnamed) {
            self.players.extend(number(&tags.black));
        }
        if game.quirks.contains(Quirk::WhiteUnnamed) {
            self.players.extend(number(&tags.white));
        }
        if game.quirks.contains(Quirk::EventUnnamed) {
            self.tournaments.extend(number(&tags.event));
        }
    }

    /// Adds another count.
    pub fn merge(&mut self, other: &Quirked) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self.players.extend(&other.players);
        self.tournaments.extend(&other.tournaments);
    }

    /// One note per quirk of the input `name` (names aside: those are
    /// warned about once per run).
    pub fn notes(&self, name: &str) -> Vec<String> {
        [
            Quirk::PaddedWith92,
            Quirk::ScoreOver64,
            Quirk::TheoreticalOver64,
        ]
        .into_iter()
        .filter(|q| self.counts[*q as usize] > 0)
        .map(|q| {
            format!(
                "kifu: note: {name}: {} {}",
                games(self.counts[q as usize]),
                q.note()
            )
        })
        .collect()
    }

    /// The warning about numbers missing from the name files, if any.
    pub fn missing_names(&self) -> Option<String> {
        if self.players.is_empty() && self.tournaments.is_empty() {
            return None;
        }
        let list = |what: &str, ids: &BTreeSet<u16>| {
            if ids.is_empty() {
                return None;
            }
            let first: Vec<String> = ids.iter().take(5).map(|id| format!("#{id}")).collect();
            let more = if ids.len() > 5 { ", …" } else { "" };
            Some(format!(
                "{} {what} number{} ({}{more})",
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                first.join(", ")
            ))
        };
        let parts: Vec<String> = [
            list("player", &self.players),
            list("tournament", &self.tournaments),
        ]
        .into_iter()
        .flatten()
        .collect();
        Some(format!(
            "kifu: warning: {} missing from the WTHOR name files: those names show as #N",
            parts.join(" and ")
        ))
    }
}

impl SliceOut {
    pub fn new(games: &[GameRecord]) -> SliceOut {
        SliceOut {
            bytes: Vec::new(),
            notes: Vec::new(),
            tally: Tally::default(),
            written: 0,
            losses: BTreeMap::new(),
            last_byte: games.last().map_or(0, |g| g.origin.byte),
            encoded: Vec::new(),
            quirks: Quirked::default(),
        }
    }
}

/// `1 game` or `N games`.
pub fn games(n: u64) -> String {
    if n == 1 {
        "1 game".to_owned()
    } else {
        format!("{n} games")
    }
}

/// `N games read: a complete, b incomplete, c invalid`.
pub fn tally_line(t: &Tally) -> String {
    format!(
        "{} read: {} complete, {} incomplete, {} invalid",
        games(t.read),
        t.complete,
        t.incomplete,
        t.invalid
    )
}

/// The whole run's counts.
#[derive(Default)]
pub struct Totals {
    pub tally: Tally,
    pub written: u64,
    pub losses: BTreeMap<&'static str, u64>,
    /// Some input could not be read (exit 2).
    pub failed: bool,
    /// Oddities read past, over the whole run.
    pub quirks: Quirked,
}

impl Totals {
    pub fn add(&mut self, slice: &SliceOut) {
        self.tally.merge(&slice.tally);
        self.written += slice.written;
        for (what, n) in &slice.losses {
            *self.losses.entry(what).or_default() += n;
        }
    }

    /// The exit outcome: failed input, else invalid games, else valid.
    pub fn outcome(&self) -> super::Outcome {
        if self.failed {
            super::Outcome::Failed
        } else if self.tally.invalid > 0 {
            super::Outcome::Invalid
        } else {
            super::Outcome::Valid
        }
    }
}

/// Replays every game of `files` in parallel: `work` turns each slice of
/// replayed games into a [`SliceOut`] (in parallel), `sink` takes the
/// slices in input order.
pub fn run_inputs<W, S>(files: &[String], args: &BatchArgs, work: W, mut sink: S) -> Result<Totals>
where
    W: Fn(&str, &[(GameRecord, Report)], &mut SliceOut) + Sync + Send,
    S: FnMut(&SliceOut) -> std::io::Result<()>,
{
    let mut progress = Progress::new(args.quiet, super::progress::total_size(files));
    let mut totals = Totals::default();
    let options = Options {
        jobs: args.jobs,
        ..Options::default()
    };
    for name in files {
        let input = match input::open(name, args.from) {
            Ok(input) => input,
            Err(err) => {
                progress.println(&format!("kifu: {err:#}"));
                totals.failed = true;
                continue;
            }
        };
        let size = if name == "-" {
            0
        } else {
            std::fs::metadata(name).map(|m| m.len()).unwrap_or(0)
        };
        let size = input.size.unwrap_or(size);
        let mut notes = Vec::new();
        let reader = input.games(args.names.as_deref(), &mut notes);
        for note in &notes {
            progress.println(note);
        }
        let mut quirks = Quirked::default();
        let work = |games: Vec<GameRecord>| {
            let mut out = SliceOut::new(&games);
            let replayed: Vec<(GameRecord, Report)> = games
                .into_iter()
                .map(|g| {
                    let report = g.replay();
                    out.tally.add(report.status());
                    out.quirks.add(&g);
                    (g, report)
                })
                .collect();
            work(name, &replayed, &mut out);
            out
        };
        let result = batch::run(reader, &options, work, |slice: SliceOut| {
            for note in &slice.notes {
                progress.println(note);
            }
            sink(&slice)?;
            totals.add(&slice);
            quirks.merge(&slice.quirks);
            progress.advance(slice.tally.read, slice.last_byte);
            Ok(())
        });
        progress.input_done(size);
        for note in quirks.notes(name) {
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
                progress.finish();
                return Err(err.into());
            }
            Err(err @ BatchError::Pool(_)) => {
                progress.finish();
                return Err(err.into());
            }
        }
    }
    progress.finish();
    if let Some(warning) = totals.quirks.missing_names() {
        eprintln!("{warning}");
    }
    Ok(totals)
}
