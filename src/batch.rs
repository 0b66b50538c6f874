//! The batch pipeline: read records sequentially in chunks, work on each
//! chunk in parallel, hand the results on in input order.
//!
//! A reader thread fills chunks of `chunk` games and passes them through a
//! channel that holds at most two, so memory is bounded by the chunk size,
//! never by the input size. Each chunk is split into slices of `slice`
//! games that a rayon pool works on; the results of a chunk are collected
//! in order and given to the sink before the next chunk is taken.

use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::{Features, Format, GameWriter, Refusal, WriteError};
use crate::record::{GameError, Report};
use crate::source::{ReadError, Span};
use crate::table::Game;
use crate::{GameRecord, Quirk, Status};

/// How to run the pipeline.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads; 0 uses every core.
    pub jobs: usize,
    /// Games per chunk read ahead.
    pub chunk: usize,
    /// Games per slice of parallel work.
    pub slice: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            jobs: 0,
            chunk: 2048,
            slice: 256,
        }
    }
}

/// Games counted by their status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games read.
    pub read: u64,
    /// Played to the end.
    pub complete: u64,
    /// Stopped while a side could move.
    pub incomplete: u64,
    /// A move breaks the rules or could not be read.
    pub invalid: u64,
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, status: Status) {
        self.read += 1;
        match status {
            Status::Complete => self.complete += 1,
            Status::Incomplete => self.incomplete += 1,
            Status::Invalid => self.invalid += 1,
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Tally) {
        self.read += other.read;
        self.complete += other.complete;
        self.incomplete += other.incomplete;
        self.invalid += other.invalid;
    }
}

/// Why the pipeline stopped early.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input failed; every game before it went through.
    #[error(transparent)]
    Read(ReadError),
    /// The sink failed (e.g. a closed pipe).
    #[error(transparent)]
    Sink(std::io::Error),
    /// The worker pool could not start.
    #[error("cannot start worker threads: {0}")]
    Pool(String),
}

/// Runs `work` over the games of `reader` in parallel and feeds the
/// results to `sink` in input order.
///
/// `work` gets an owned slice of consecutive games; `sink` gets the result
/// of each slice in order. A read error ends the run after every game
/// before it has gone through the sink.
pub fn run<I, T, W, S>(reader: I, options: &Options, work: W, mut sink: S) -> Result<(), BatchError>
where
    I: Iterator<Item = Result<GameRecord, ReadError>> + Send,
    T: Send,
    W: Fn(Vec<GameRecord>) -> T + Sync + Send,
    S: FnMut(T) -> std::io::Result<()>,
{
    let chunk_size = options.chunk.max(1);
    let slice = options.slice.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| BatchError::Pool(e.to_string()))?;
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Result<Vec<GameRecord>, ReadError>>(2);
        scope.spawn(move || {
            let mut chunk = Vec::with_capacity(chunk_size);
            for item in reader {
                match item {
                    Ok(record) => {
                        chunk.push(record);
                        if chunk.len() == chunk_size {
                            let full =
                                std::mem::replace(&mut chunk, Vec::with_capacity(chunk_size));
                            if tx.send(Ok(full)).is_err() {
                                return;
                            }
                        }
                    }
                    Err(err) => {
                        if !chunk.is_empty() && tx.send(Ok(std::mem::take(&mut chunk))).is_err() {
                            return;
                        }
                        let _ = tx.send(Err(err));
                        return;
                    }
                }
            }
            if !chunk.is_empty() {
                let _ = tx.send(Ok(chunk));
            }
        });
        for message in rx {
            let chunk = message.map_err(BatchError::Read)?;
            let results: Vec<T> = pool.install(|| {
                let mut slices = Vec::with_capacity(chunk.len() / slice + 1);
                let mut games = chunk.into_iter();
                loop {
                    let part: Vec<GameRecord> = games.by_ref().take(slice).collect();
                    if part.is_empty() {
                        break;
                    }
                    slices.push(part);
                }
                slices.into_par_iter().map(&work).collect()
            });
            for result in results {
                sink(result).map_err(BatchError::Sink)?;
            }
        }
        Ok(())
    })
}

/// A game written as recorded although invalid, in a format that cannot
/// say so: where it is and what is wrong, for the caller to name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    /// 1-based game number within its input.
    pub index: u64,
    /// The line the game starts on (text formats).
    pub line: Option<u32>,
    /// Where the error is, when known.
    pub span: Option<Span>,
    /// What is wrong.
    pub error: GameError,
}

impl Flag {
    /// The flag of `record`'s `error`.
    #[must_use]
    pub fn of(record: &GameRecord, error: &GameError) -> Flag {
        Flag {
            index: record.origin.index,
            line: record.origin.line,
            span: error.span(record),
            error: error.clone(),
        }
    }
}

/// Games with each [`Quirk`], and the player and tournament numbers the
/// name files lack.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quirked {
    counts: [u64; Quirk::ALL.len()],
    /// Player numbers missing from the name files.
    pub players: BTreeSet<u16>,
    /// Tournament numbers missing from the name files.
    pub tournaments: BTreeSet<u16>,
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

    /// Games with `quirk`.
    #[must_use]
    pub fn count(&self, quirk: Quirk) -> u64 {
        self.counts[quirk as usize]
    }
}

/// What one slice of games came to.
#[derive(Clone, Debug, Default)]
pub struct SliceReport {
    /// Games by status.
    pub tally: Tally,
    /// Games written.
    pub written: u64,
    /// Games the output refused, with their number and why.
    pub refused: Vec<(u64, Refusal)>,
    /// Invalid games written as recorded.
    pub flagged: Vec<Flag>,
    /// What the output lost, with how many games lost each.
    pub losses: BTreeMap<&'static str, u64>,
    /// Oddities of the input read past.
    pub quirks: Quirked,
    /// Byte offset of the last game in its input (for progress).
    pub last_byte: u64,
}

impl SliceReport {
    /// Counts a replayed game: its status, quirks and what `to` loses of
    /// it.
    fn count(&mut self, game: &Game<'_>, to: Format, lost: &mut Vec<&'static str>) {
        self.tally.add(game.status());
        self.quirks.add(game.record);
        self.last_byte = game.record.origin.byte;
        lost.clear();
        to.losses(game, Features::of(game), lost);
        for what in lost.iter() {
            *self.losses.entry(what).or_default() += 1;
        }
    }

    /// Counts a game written, flagged when it is invalid and `to` cannot
    /// say so.
    fn written(&mut self, game: &Game<'_>, to: Format) {
        self.written += 1;
        if !to.carries_status() {
            if let Some(error) = &game.report.error {
                self.flagged.push(Flag::of(game.record, error));
            }
        }
    }
}

/// What a worker hands the writer: formatted text, or the games.
struct Part {
    bytes: Vec<u8>,
    games: Vec<(GameRecord, Report)>,
    report: SliceReport,
}

/// Reads `games`, replays each and writes it with `writer` in `to`,
/// everything in one place: in parallel slices, in input order. A text
/// format is formatted in the workers; any other writer gets the games in
/// order. `each` sees what every slice came to, in order. A read error
/// ends the run after every game before it was written.
///
/// ```
/// use kifu::batch::{convert, Options};
/// use kifu::formats::{transcript, Format, TextWriter};
///
/// let input = &b"f5d6c3\nf5f6e6f4\n"[..];
/// let mut writer = TextWriter::new(Format::Csv, Vec::new())?.unwrap();
/// let mut games = 0;
/// convert(transcript::Reader::new(input), "-", Format::Csv, &mut writer, &Options::default(),
///     |slice| games += slice.tally.read)?;
/// let csv = String::from_utf8(writer.into_inner())?;
/// assert_eq!((games, csv.lines().count()), (2, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn convert<I, E>(
    games: I,
    source: &str,
    to: Format,
    writer: &mut dyn GameWriter,
    options: &Options,
    mut each: E,
) -> Result<(), BatchError>
where
    I: Iterator<Item = Result<GameRecord, ReadError>> + Send,
    E: FnMut(&SliceReport),
{
    let text = writer.text();
    let work = |slice: Vec<GameRecord>| {
        let mut part = Part {
            bytes: Vec::new(),
            games: Vec::new(),
            report: SliceReport::default(),
        };
        let mut lost = Vec::new();
        for record in slice {
            let report = record.replay();
            let game = Game::new(source, &record, &report);
            part.report.count(&game, to, &mut lost);
            match text {
                Some(format) => {
                    format.write(&game, &mut part.bytes);
                    part.report.written(&game, to);
                }
                None => part.games.push((record, report)),
            }
        }
        part
    };
    run(games, options, work, |mut part: Part| {
        if text.is_some() {
            writer.write_formatted(&part.bytes)?;
        } else {
            for (record, report) in &part.games {
                let game = Game::new(source, record, report);
                match writer.write(&game) {
                    Ok(()) => part.report.written(&game, to),
                    Err(WriteError::Refused(why)) => {
                        part.report.refused.push((record.origin.index, why));
                    }
                    Err(WriteError::Io(e)) => return Err(e),
                }
            }
        }
        each(&part.report);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript::Reader;

    #[test]
    fn results_come_back_in_input_order_whatever_the_chunking() {
        let text: String = (0..5000)
            .map(|i| if i % 3 == 0 { "f5d6\n" } else { "f5f6\n" })
            .collect();
        for (chunk, slice, jobs) in [(1, 1, 1), (7, 3, 2), (1000, 64, 0), (16_384, 512, 2)] {
            let options = Options { jobs, chunk, slice };
            let mut seen = Vec::new();
            run(
                Reader::new(text.as_bytes()),
                &options,
                |games| games.iter().map(|g| g.origin.index).collect::<Vec<_>>(),
                |ids| {
                    seen.extend(ids);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen, (1..=5000).collect::<Vec<u64>>(), "{options:?}");
        }
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let text = "f5\n".repeat(100);
        let options = Options {
            jobs: 1,
            chunk: 10,
            slice: 5,
        };
        let mut calls = 0;
        let err = run(
            Reader::new(text.as_bytes()),
            &options,
            |games| games.len(),
            |_| {
                calls += 1;
                Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            },
        )
        .unwrap_err();
        assert!(matches!(err, BatchError::Sink(_)));
        assert_eq!(calls, 1);
    }

    #[test]
    fn tally_adds_up() {
        let mut t = Tally::default();
        for s in [
            Status::Complete,
            Status::Invalid,
            Status::Incomplete,
            Status::Complete,
        ] {
            t.add(s);
        }
        assert_eq!(t.read, t.complete + t.incomplete + t.invalid);
        assert_eq!((t.complete, t.incomplete, t.invalid), (2, 1, 1));
    }
}
