//! What every reading function takes: paths, a format, and the filters of
//! SPEC section 7 as keyword arguments; and the loop over the inputs.

use std::path::PathBuf;

use kifu::batch::BatchError;
use kifu::formats::Format;
use kifu::record::select::FILTER_NAMES;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::errors::Failure;

/// The keyword arguments every reading function takes beside the filters
/// ([`FILTER_NAMES`]).
pub const OPTIONS: [&str; 7] = [
    "exclude",
    "unique",
    "moves_column",
    "names",
    "jobs",
    "games",
    "shard",
];

/// Inputs and how to read and choose their games: the library's.
pub use kifu::jobs::Inputs;

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
        ..Inputs::default()
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
            "year" => {
                // 2004, "2000..2010", or (2000, 2010).
                let spec = if let Ok(y) = value.extract::<i64>() {
                    y.to_string()
                } else if let Ok((a, z)) = value.extract::<(i64, i64)>() {
                    format!("{a}..{z}")
                } else {
                    text(&value, &name)?
                };
                b.set(&name, &spec)
                    .map_err(|e| usage(&name, e.to_string()))?
            }
            "status" => {
                let spec = match value.extract::<Vec<String>>() {
                    Ok(list) if !value.is_instance_of::<PyString>() => list.join(","),
                    _ => text(&value, &name)?,
                };
                b.set(&name, &spec)
                    .map_err(|e| usage(&name, e.to_string()))?
            }
            filter if FILTER_NAMES.contains(&filter) => b
                .set(&name, &text(&value, &name)?)
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
            "games" => {
                // (start, end): the games start..end, counted from 0 over
                // every input (a Dask task's range).
                let (start, end) = value
                    .extract::<(u64, u64)>()
                    .map_err(|_| usage(&name, "expected (start, end), two whole numbers".into()))?;
                inputs.part =
                    kifu::jobs::Part::range(start, end).map_err(|e| usage(&name, e.to_string()))?;
                b
            }
            "shard" => {
                // (k, n) or "k/n": shard k of n, as --shard.
                inputs.part = match value.extract::<(u64, u64)>() {
                    Ok((k, n)) => kifu::jobs::Part::shard(k, n),
                    Err(_) => text(&value, &name)?.parse(),
                }
                .map_err(|e| usage(&name, e.to_string()))?;
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
                        "no such keyword argument (the filters and options: {}, {})",
                        FILTER_NAMES.join(", "),
                        OPTIONS.join(", ")
                    ),
                ))
            }
        };
    }
    if inputs.unique && !inputs.part.is_all() {
        return Err(usage(
            "unique",
            "not with shard= or games=: which of two equal games comes first may be in another \
             part"
                .into(),
        ));
    }
    Ok(inputs)
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
