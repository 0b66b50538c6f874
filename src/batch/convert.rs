//! Read, replay, choose and write, in one place.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use crate::batch::pipeline::{run, BatchError, Options};
use crate::batch::report::{losses, Chosen, Flag, Keeping, SliceReport};
use crate::engine::hash::PairHasher;
use crate::formats::{Format, GameReader, GameWriter, WriteError};
use crate::record::row::Game;
use crate::record::select::{duplicate_key, Findings, Selection};
use crate::record::Report;
use crate::GameRecord;

/// The duplicate keys of the games kept so far, across every input of a
/// run (`--unique`): the first of equal games is kept.
#[derive(Clone, Debug, Default)]
pub struct Seen(HashSet<u128, BuildHasherDefault<PairHasher>>);

/// Work done on a chosen game in the workers before it is written.
pub type Prepare<'a> = dyn Fn(&mut GameRecord, &Report) + Sync + 'a;

impl std::fmt::Debug for Choice<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Choice")
            .field("selection", &self.selection)
            .field("unique", &self.unique)
            .field("prepare", &self.prepare.map(|_| "…"))
            .finish()
    }
}

impl Seen {
    /// Whether a game with `key` is new (and now seen).
    pub fn first(&mut self, key: u128) -> bool {
        self.0.insert(key)
    }
}

/// What a worker hands the sink: the chosen games, each with its formatted
/// text (text formats) or itself (other writers).
struct Part {
    bytes: Vec<u8>,
    chosen: Vec<Chosen>,
    games: Vec<(GameRecord, Report, Findings)>,
    report: SliceReport,
}

/// How a run chooses games: the filters and names to find, and whether
/// duplicates are left out.
pub struct Choice<'a> {
    /// The filters, and what each replay finds.
    pub selection: &'a Selection,
    /// The keys seen so far, when duplicates are left out.
    pub unique: Option<&'a mut Seen>,
    /// Work on each chosen game before a writer that is not a text format
    /// gets it, in the workers, the games of a slice in parallel (WTHOR
    /// output solves theoretical scores here).
    pub prepare: Option<&'a Prepare<'a>>,
}

/// Reads `games`, replays each once (finding what `choice` asks for),
/// keeps those that match, and writes them with `writer` in `to`:
/// everything in one place, in parallel slices, in input order. A text
/// format is formatted in the workers; any other writer gets the games in
/// order. Duplicates are told apart in input order, so the first is kept.
/// `each` sees what every slice came to, in order. A read error ends the
/// run after every game before it was written.
///
/// ```
/// use kifu::batch::{convert, Choice, Options};
/// use kifu::formats::{transcript, Format, TextWriter};
/// use kifu::select::Selection;
///
/// let input = &b"f5d6c3\nf5f6e6f4\n"[..];
/// let mut writer = TextWriter::new(Format::Csv, Vec::new())?.unwrap();
/// let mut games = 0;
/// let choice = Choice { selection: &Selection::default(), unique: None, prepare: None };
/// convert(transcript::Reader::new(input), "-", Format::Csv, &mut writer, &Options::default(),
///     choice, |slice| games += slice.read)?;
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
    choice: Choice<'_>,
    mut each: E,
) -> Result<(), BatchError>
where
    I: GameReader,
    E: FnMut(&SliceReport),
{
    let text = writer.text();
    let selection = choice.selection;
    let unique = choice.unique.is_some();
    let flags = !to.carries_status();
    let openings = to.names_openings();
    let prepare = choice.prepare;
    let work = |slice: Vec<GameRecord>| {
        let mut part = Part {
            bytes: Vec::new(),
            chosen: Vec::with_capacity(slice.len()),
            games: Vec::new(),
            report: SliceReport::default(),
        };
        let games = slice.len();
        selection.replay_each(slice, openings, |record, (report, found)| {
            part.report.read += 1;
            part.report.quirks.add(&record);
            part.report.last_byte = record.origin.byte;
            if !selection.filter.accepts(&record, &report, &found) {
                return;
            }
            let game = Game::new(source, &record, &report).with_opening(found.opening);
            let (lost, checks) = losses(&game, to);
            let flag = match &report.error {
                Some(error) if flags => Some(Box::new(Flag::of(&record, error))),
                _ => None,
            };
            if let Some(format) = text {
                format.write(&game, &mut part.bytes);
                if part.chosen.is_empty() {
                    // Room for the others at the first one's size and a
                    // quarter more: one allocation a slice.
                    part.bytes.reserve(part.bytes.len() * games * 5 / 4);
                }
            }
            part.chosen.push(Chosen {
                index: record.origin.index,
                key: unique.then(|| duplicate_key(&record)),
                status: report.status(),
                lost,
                checks,
                end: part.bytes.len(),
                flag,
            });
            if text.is_none() {
                part.games.push((record, report, found));
            }
        });
        if let Some(prepare) = prepare {
            use rayon::prelude::*;
            part.games
                .par_iter_mut()
                .for_each(|(record, report, _)| prepare(record, report));
        }
        part
    };
    let mut seen = choice.unique;
    run(games, options, work, |mut part: Part| {
        let mut report = std::mem::take(&mut part.report);
        let mut keeping = Keeping::default();
        let mut start = 0;
        // The formatted games not yet written begin here: a run of them
        // goes out in one write.
        let mut unwritten = 0;
        let mut games = part.games.iter();
        for chosen in &part.chosen {
            let game = if text.is_none() { games.next() } else { None };
            let range = start..chosen.end;
            start = chosen.end;
            if let (Some(seen), Some(key)) = (seen.as_deref_mut(), chosen.key) {
                if !seen.first(key) {
                    report.duplicates += 1;
                    if unwritten < range.start {
                        writer.write_formatted(&part.bytes[unwritten..range.start])?;
                    }
                    unwritten = range.end;
                    continue;
                }
            }
            match game {
                None => {}
                Some((record, replay, found)) => {
                    let game = Game::new(source, record, replay).with_opening(found.opening);
                    match writer.write(&game) {
                        Ok(()) => {}
                        Err(WriteError::Refused(why)) => {
                            report.tally.add(chosen.status);
                            report.refused.push((chosen.index, why));
                            continue;
                        }
                        Err(WriteError::Io(e)) => return Err(e),
                    }
                }
            }
            keeping.keep(&mut report, chosen, to);
            report.written += 1;
            if let Some(flag) = &chosen.flag {
                report.flagged.push((**flag).clone());
            }
        }
        keeping.done(&mut report, to);
        if unwritten < part.bytes.len() {
            writer.write_formatted(&part.bytes[unwritten..])?;
        }
        each(&report);
        Ok(())
    })
}
