//! What every reading function takes: paths, a format, and the filters of
//! SPEC section 7 as keyword arguments; and the loop over the inputs.

use std::path::PathBuf;

use kifu::batch::{self, BatchError};
use kifu::formats::{Format, GameReader, ReadOptions};
use kifu::record::select::{duplicate_key, Excluded, Filter, Selection};
use kifu::GameRecord;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::errors::Failure;

/// The keyword arguments every reading function takes, with what each is.
pub const FILTERS: [&str; 14] = [
    "player",
    "black",
    "white",
    "event",
    "year",
    "status",
    "winner",
    "opening",
    "position",
    "exclude",
    "unique",
    "moves_column",
    "names",
    "jobs",
];

/// Inputs and how to read and choose their games.
pub struct Inputs {
    /// The paths, as given.
    pub paths: Vec<String>,
    /// `format=`.
    pub from: Option<Format>,
    /// `moves_column=`.
    pub read: ReadOptions,
    /// `names=`: where WTHOR name files are.
    pub names: Option<PathBuf>,
    /// `exclude=`: files whose games to leave out.
    pub exclude: Vec<String>,
    /// The filters, without `exclude` until [`Inputs::selection`].
    pub filter: kifu::record::select::FilterBuilder,
    /// `unique=`.
    pub unique: bool,
    /// `jobs=`: worker threads, 0 for every core.
    pub jobs: usize,
}

/// One path or many: `str`, `os.PathLike`, or an iterable of them.
pub fn paths(obj: &Bound<'_, PyAny>, argument: &str) -> PyResult<Vec<String>> {
    let py = obj.py();
    let os = py.import("os")?;
    let one = |o: &Bound<'_, PyAny>| -> PyResult<String> {
        os.call_method1("fspath", (o,))
            .and_then(|p| p.extract::<String>())
            .map_err(|_| {
                Failure::usage(
                    argument,
                    format!(
                        "{} is not a path: give a str or os.PathLike, or a list of them",
                        o.repr().map(|r| r.to_string()).unwrap_or_default()
                    ),
                )
                .into_py(py)
            })
    };
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        return Ok(vec![one(obj)?]);
    }
    let Ok(iter) = obj.try_iter() else {
        return Err(Failure::usage(
            argument,
            "not a path: give a str or os.PathLike, or a list of them",
        )
        .into_py(py));
    };
    let mut out = Vec::new();
    for item in iter {
        out.push(one(&item?)?);
    }
    if out.is_empty() {
        return Err(Failure::usage(argument, "no file given").into_py(py));
    }
    Ok(out)
}

fn text(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    value
        .extract::<String>()
        .map_err(|_| Failure::usage(name, "expected a string").into_py(value.py()))
}

/// Reads `format` and the filters from keyword arguments; an unknown
/// keyword or a malformed value is a `kifu.UsageError` naming it.
pub fn inputs(
    py: Python<'_>,
    paths_obj: &Bound<'_, PyAny>,
    format: Option<&str>,
    filters: Option<&Bound<'_, PyDict>>,
) -> PyResult<Inputs> {
    let given = paths(paths_obj, "paths")?;
    let from = match format {
        None => None,
        Some(name) => {
            let f = name
                .parse::<Format>()
                .map_err(|e| Failure::usage("format", e.to_string()).into_py(py))?;
            if !f.readable() {
                return Err(Failure::usage("format", format!("{f} is not read")).into_py(py));
            }
            Some(f)
        }
    };
    let mut inputs = Inputs {
        paths: given,
        from,
        read: ReadOptions::default(),
        names: None,
        exclude: Vec::new(),
        filter: Filter::builder(),
        unique: false,
        jobs: 0,
    };
    let Some(filters) = filters else {
        return Ok(inputs);
    };
    let usage = |name: &str, e: String| Failure::usage(name, e).into_py(py);
    for (key, value) in filters.iter() {
        let name: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        let b = std::mem::take(&mut inputs.filter);
        inputs.filter = match name.as_str() {
            "player" => b.player(&text(&value, &name)?),
            "black" => b.black(&text(&value, &name)?),
            "white" => b.white(&text(&value, &name)?),
            "event" => b.event(&text(&value, &name)?),
            "opening" => b.opening(&text(&value, &name)?),
            "year" => {
                // 2004, "2000..2010", or (2000, 2010).
                let spec = if let Ok(y) = value.extract::<i64>() {
                    y.to_string()
                } else if let Ok((a, z)) = value.extract::<(i64, i64)>() {
                    format!("{a}..{z}")
                } else {
                    text(&value, &name)?
                };
                b.years(&spec).map_err(|e| usage(&name, e.to_string()))?
            }
            "status" => {
                let spec = match value.extract::<Vec<String>>() {
                    Ok(list) if !value.is_instance_of::<PyString>() => list.join(","),
                    _ => text(&value, &name)?,
                };
                b.statuses(&spec).map_err(|e| usage(&name, e.to_string()))?
            }
            "winner" => b
                .winner(&text(&value, &name)?)
                .map_err(|e| usage(&name, e.to_string()))?,
            "position" => b
                .position(&text(&value, &name)?)
                .map_err(|e| usage(&name, e.to_string()))?,
            "exclude" => {
                inputs.exclude = paths(&value, "exclude")?;
                b
            }
            "unique" => {
                inputs.unique = value.is_truthy()?;
                b
            }
            "moves_column" => {
                inputs.read.moves_column = Some(text(&value, &name)?);
                b
            }
            "names" => {
                inputs.names = Some(PathBuf::from(
                    crate::inputs::paths(&value, "names")?.remove(0),
                ));
                b
            }
            "jobs" => {
                inputs.jobs = value
                    .extract::<usize>()
                    .map_err(|_| usage(&name, "expected a number of threads, 0 for all".into()))?;
                b
            }
            _ => {
                return Err(usage(
                    &name,
                    format!(
                        "no such keyword argument (the filters and options: {})",
                        FILTERS.join(", ")
                    ),
                ))
            }
        };
    }
    Ok(inputs)
}

impl Inputs {
    /// The batch settings.
    pub fn options(&self) -> batch::Options {
        batch::Options {
            jobs: self.jobs,
            ..batch::Options::default()
        }
    }

    /// The games of one opened input.
    fn open(&self, path: &str) -> Result<(Box<dyn GameReader>, Vec<String>), Failure> {
        let input = kifu::io::input::open(path, self.from).map_err(Failure::Open)?;
        let mut notes = Vec::new();
        let games = input.games(self.names.as_deref(), &self.read, &mut notes);
        Ok((games, notes))
    }

    /// The filters, the `exclude` files read (in parallel): run without
    /// the GIL.
    pub fn selection(&self, openings: bool) -> Result<Selection, Failure> {
        let mut filter = self.filter.clone();
        if !self.exclude.is_empty() {
            let mut excluded = Excluded::default();
            for path in &self.exclude {
                let (games, _) = self.open(path)?;
                batch::run(
                    games,
                    &self.options().counting(),
                    |records: Vec<GameRecord>| {
                        records.iter().map(duplicate_key).collect::<Vec<_>>()
                    },
                    |keys| {
                        keys.into_iter().for_each(|k| excluded.add_key(k));
                        Ok(())
                    },
                )
                .map_err(|e| batch_failure(path, e))?;
            }
            filter = filter.exclude(excluded);
        }
        Ok(Selection::new(filter.build(), openings))
    }

    /// Runs `each` over every input in turn: its name, its games, and
    /// the notes about it (WTHOR names).
    pub fn each(
        &self,
        mut each: impl FnMut(&str, Box<dyn GameReader>, Vec<String>) -> Result<(), BatchError>,
    ) -> Result<(), Failure> {
        for path in &self.paths {
            let (games, found) = self.open(path)?;
            let notes = found.into_iter().map(|n| format!("{path}: {n}")).collect();
            each(path, games, notes).map_err(|e| batch_failure(path, e))?;
        }
        Ok(())
    }
}

/// A pipeline's failure on `path`.
pub fn batch_failure(path: &str, e: BatchError) -> Failure {
    match e {
        BatchError::Read(error) => Failure::Read {
            path: path.to_owned(),
            error,
        },
        BatchError::Sink(e) => Failure::Other(format!("{path}: {e}")),
        BatchError::Pool(e) => Failure::Other(format!("cannot start worker threads: {e}")),
    }
}

/// Gives each note to Python's `warnings.warn` (a `kifu.KifuWarning`).
pub fn warn(py: Python<'_>, notes: &[String]) -> PyResult<()> {
    if notes.is_empty() {
        return Ok(());
    }
    let warnings = py.import("warnings")?;
    let category = py.import("kifu.errors")?.getattr("KifuWarning")?;
    for note in notes {
        warnings.call_method1("warn", (note, &category, 2))?;
    }
    Ok(())
}
