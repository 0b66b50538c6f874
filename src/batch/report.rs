//! What a slice of games came to: counts, losses, quirks, the games named
//! on standard error.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::{Features, Format, Refusal};
use crate::record::row::Game;
use crate::record::source::Span;
use crate::record::GameError;
use crate::{GameRecord, Quirk, Status};

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
    /// Games read, chosen or not.
    pub read: u64,
    /// The games kept (matched and not duplicates), by status.
    pub tally: Tally,
    /// Games that matched the filters but repeat an earlier game.
    pub duplicates: u64,
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

/// What the sink needs to know of one chosen game to keep or drop it.
#[derive(Clone, Debug)]
pub(crate) struct Chosen {
    /// The game's number in its input.
    pub(crate) index: u64,
    /// Its duplicate key, under `--unique`.
    pub(crate) key: Option<u128>,
    /// Its status.
    pub(crate) status: Status,
    /// What the output loses of it (features and the format's own checks,
    /// one bit each).
    pub(crate) lost: Features,
    pub(crate) checks: u32,
    /// Where its formatted text ends in the slice's bytes.
    pub(crate) end: usize,
    /// Invalid, written as recorded in a format that cannot say so.
    pub(crate) flag: Option<Box<Flag>>,
}

/// What the games a sink keeps lose, counted in runs: the games of a file
/// mostly lose the same, and a run adds to the report's counts once.
#[derive(Default)]
pub(crate) struct Keeping {
    /// What the games of the run lose, and how many they are.
    run: Option<(Features, u32)>,
    games: u64,
}

impl Keeping {
    /// Counts a game the sink keeps: its status, and what its output lost
    /// (see [`Keeping::done`]).
    pub(crate) fn keep(&mut self, report: &mut SliceReport, game: &Chosen, to: Format) {
        report.tally.add(game.status);
        let lost = (game.lost, game.checks);
        if self.run == Some(lost) {
            self.games += 1;
            return;
        }
        self.done(report, to);
        self.run = Some(lost);
        self.games = 1;
    }

    /// Adds the run so far to the report's losses.
    pub(crate) fn done(&mut self, report: &mut SliceReport, to: Format) {
        let Some((lost, checks)) = self.run.take() else {
            return;
        };
        for feature in lost.iter() {
            *report.losses.entry(feature.loss()).or_default() += self.games;
        }
        for (i, check) in to.info().checks.iter().enumerate() {
            if checks & (1 << i) != 0 {
                *report.losses.entry(check.loss).or_default() += self.games;
            }
        }
    }
}

/// What `to` loses of `game`: the features it cannot keep and, bit by
/// bit, the checks of its syntax that apply.
pub(crate) fn losses(game: &Game<'_>, to: Format) -> (Features, u32) {
    let info = to.info();
    let lost = Features::of_those(game, info.loses);
    let checks = info
        .checks
        .iter()
        .enumerate()
        .filter(|(_, c)| (c.applies)(game))
        .fold(0u32, |bits, (i, _)| bits | 1 << i);
    (lost, checks)
}

#[cfg(test)]
mod tests {
    use crate::batch::Tally;
    use crate::Status;

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
