//! Inputs and how to read and choose their games.

use std::path::PathBuf;

use crate::batch::{self, BatchError};
use crate::formats::{Format, GameReader, ReadOptions};
use crate::io::input::{self, OpenError};
use crate::record::select::{duplicate_key, Excluded, FilterBuilder, Selection};
use crate::GameRecord;

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

    /// Runs `each` over every input in turn: its name, its games, and the
    /// notes about it (WTHOR names), each note led by the input's name.
    pub fn each(
        &self,
        mut each: impl FnMut(&str, Box<dyn GameReader>, Vec<String>) -> Result<(), BatchError>,
    ) -> Result<(), JobError> {
        for path in &self.paths {
            let mut found = Vec::new();
            let games = self.open(path, &mut found)?;
            let notes = found.into_iter().map(|n| format!("{path}: {n}")).collect();
            each(path, games, notes).map_err(|error| JobError::Input {
                path: path.clone(),
                error,
            })?;
        }
        Ok(())
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
