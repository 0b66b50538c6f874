//! Inputs and how to read and choose their games.

use std::path::PathBuf;

use crate::batch::{self, BatchError};
use crate::formats::{Format, GameReader, ReadOptions};
use crate::io::input::{self, OpenError};
use crate::record::select::{duplicate_key, Excluded, FilterBuilder, Selection};
use crate::GameRecord;

use super::{Part, Parting};

/// A job's failure: an input that cannot be opened, or one whose reading
/// (or whose sink) failed part way, with the input's name.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// An input could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// An input failed part way: every game before the failure went
    /// through.
    #[error("{path}: {error}")]
    Input {
        /// The input, as named.
        path: String,
        /// What failed.
        error: BatchError,
    },
}

/// Files to read, how to read them, and which of their games to take.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The inputs, as named (`-` is standard input).
    pub paths: Vec<String>,
    /// The format of every input, instead of guessing.
    pub from: Option<Format>,
    /// What the readers are told (the CSV moves column, the delimiter).
    pub read: ReadOptions,
    /// Where WTHOR name files are (default: beside each file).
    pub names: Option<PathBuf>,
    /// Files whose games to leave out, under any symmetry.
    pub exclude: Vec<String>,
    /// The filters; `exclude` is added by [`Inputs::selection`].
    pub filter: FilterBuilder,
    /// The first of equal games only.
    pub unique: bool,
    /// Worker threads, 0 for one per core.
    pub jobs: usize,
    /// Which games of the inputs, counted across all of them, to take
    /// (`--shard`; a Dask task's range).
    pub part: Part,
}

impl Inputs {
    /// The batch pipeline's settings.
    pub fn options(&self) -> batch::Options {
        batch::Options {
            jobs: self.jobs,
            ..batch::Options::default()
        }
    }

    /// One input opened, its games as read; what is odd about a WTHOR
    /// file's names goes to `notes`.
    pub fn open(
        &self,
        path: &str,
        notes: &mut Vec<String>,
    ) -> Result<Box<dyn GameReader>, JobError> {
        let input = input::open(path, self.from)?;
        Ok(input.games(self.names.as_deref(), &self.read, notes))
    }

    /// The filters with the `exclude` files read (in parallel), and what
    /// each replay finds (`openings`: every game's opening named).
    pub fn selection(&self, openings: bool) -> Result<Selection, JobError> {
        let mut filter = self.filter.clone();
        if !self.exclude.is_empty() {
            filter = filter.exclude(excluded(self, &self.exclude)?);
        }
        Ok(Selection::new(filter.build(), openings))
    }

    /// Runs `each` over every input in turn: its name, its games (only
    /// those of [`Inputs::part`]), the notes about it (WTHOR names), each
    /// note led by the input's name, and the count of games across the
    /// inputs ([`Parting::games_read`]).
    pub fn each(
        &self,
        mut each: impl FnMut(&str, Box<dyn GameReader>, Vec<String>, &Parting) -> Result<(), BatchError>,
    ) -> Result<(), JobError> {
        let parting = Parting::new(self.part);
        for path in &self.paths {
            let mut found = Vec::new();
            let games = parting.input(self.open(path, &mut found)?);
            let notes = found.into_iter().map(|n| format!("{path}: {n}")).collect();
            each(path, games, notes, &parting).map_err(|error| JobError::Input {
                path: path.clone(),
                error,
            })?;
        }
        Ok(())
    }
}

/// One input's games, counted ([`Inputs::count`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The input, as named.
    pub path: String,
    /// Its games, of every part (up to where a range's end stopped the
    /// reading).
    pub games: u64,
    /// Those the part takes.
    pub taken: u64,
    /// Of those, the ones the selection keeps.
    pub kept: u64,
}

impl Inputs {
    /// Each input's games counted, in parallel and without working on
    /// them: all, the part's, and those of the part `selection` keeps
    /// (replayed only when a filter needs it). What a long job's estimate
    /// of the time left starts from, and where a Dask run cuts its tasks.
    pub fn count(&self, selection: &Selection) -> Result<Vec<Counted>, JobError> {
        let options = self.options().counting();
        let mut out = Vec::new();
        let mut read = 0;
        self.each(|path, games, _, parting| {
            let before = parting.games_read(read);
            let (mut taken, mut kept) = (0, 0);
            let result = batch::run(
                games,
                &options,
                |records: Vec<GameRecord>| {
                    let n = records.len() as u64;
                    if selection.filter.is_empty() {
                        return (n, n);
                    }
                    let mut kept = 0;
                    selection.replay_each(&records, false, |record, (report, found)| {
                        kept += u64::from(selection.filter.accepts(record, &report, &found));
                    });
                    (n, kept)
                },
                |(n, k)| {
                    taken += n;
                    kept += k;
                    Ok(())
                },
            );
            read += taken;
            out.push(Counted {
                path: path.to_owned(),
                games: parting.games_read(read) - before,
                taken,
                kept,
            });
            result
        })?;
        Ok(out)
    }
}

/// The games of `files`, read as `how` reads its inputs, as keys that
/// [`Filter`](crate::record::select::Filter)s leave out under any symmetry (`--exclude`). Any failure to
/// open or read one is an error naming it: a split that silently excluded
/// less would leak.
pub fn excluded(how: &Inputs, files: &[String]) -> Result<Excluded, JobError> {
    let mut excluded = Excluded::default();
    for path in files {
        let games = how.open(path, &mut Vec::new())?;
        batch::run(
            games,
            &how.options().counting(),
            |records: Vec<GameRecord>| records.iter().map(duplicate_key).collect::<Vec<_>>(),
            |keys| {
                keys.into_iter().for_each(|k| excluded.add_key(k));
                Ok(())
            },
        )
        .map_err(|error| JobError::Input {
            path: path.clone(),
            error,
        })?;
    }
    Ok(excluded)
}
