//! The work of one task of `kifu.distributed`: a range of games of a
//! file (`games=(start, end)`), judged, labelled or checked, its rows
//! written as one Parquet file — the rows the command line writes, with
//! the same columns and values. Python names the file, writes it under a
//! temporary name and renames it into place.

use std::fs::File;
use std::io::BufWriter;

use kifu::batch;
use kifu::formats::parquet::PositionsWriter;
use kifu::jobs::analyze::{analyze_all, GAME_COLUMNS, MOVE_COLUMNS, TEXT_COLUMNS};
use kifu::jobs::positions::{GameRows, Made};
use kifu::jobs::table::TextTable;
use kifu::jobs::theoretical;
use kifu::ml::positions::{self, Empties, Row};
use kifu::record::analysis::Judging;
use kifu::record::select::Selection;
use kifu::GameRecord;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{Failure, OrRaise};
use crate::inputs;

/// The largest analysis the command line allows.
const MAX_EMPTIES: u32 = 30;

/// The output file, buffered.
fn create(out: &str) -> Result<BufWriter<File>, Failure> {
    File::create(out)
        .map(BufWriter::new)
        .map_err(|e| Failure::Other(format!("{out}: {e}")))
}

/// A thread pool of `threads` threads (0: one per core) for the task.
fn pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Other(format!("cannot start worker threads: {e}")))
}

fn parquet_failure(out: &str, e: impl std::fmt::Display) -> Failure {
    Failure::Other(format!("{out}: {e}"))
}

/// Each input's games, of every part: where the tasks are cut.
#[pyfunction]
#[pyo3(signature = (paths, format=None, **filters))]
pub fn count_games<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<(String, u64)>> {
    let inputs = inputs::inputs(py, paths, format, filters)?;
    let counted = py
        .detach(|| inputs.count(&Selection::default()).map_err(Failure::from))
        .or_raise(py)?;
    Ok(counted.into_iter().map(|c| (c.path, c.games)).collect())
}

/// `kifu analyze --format csv [--moves]`'s rows of the games chosen, as
/// Parquet in `out`; the number of rows.
#[pyfunction]
#[pyo3(signature = (out, paths, format=None, empties=20, depth=kifu::jobs::ANALYSIS_DEPTH,
    moves=false, hash_mb=kifu::jobs::DEFAULT_HASH_MB, threads=0, selectivity="careful",
    weights=None, **filters))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_part<'py>(
    py: Python<'py>,
    out: &str,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    empties: u32,
    depth: u32,
    moves: bool,
    hash_mb: usize,
    threads: usize,
    selectivity: &str,
    weights: Option<std::path::PathBuf>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<u64> {
    let selectivity = crate::solve::parse_selectivity(py, selectivity)?;
    let weights = crate::solve::weights_or_builtin(py, weights.as_deref())?;
    if empties > MAX_EMPTIES {
        return Err(
            Failure::usage("empties", format!("{empties}: at most {MAX_EMPTIES}")).into_py(py),
        );
    }
    if depth > kifu::jobs::MAX_DEPTH {
        return Err(Failure::usage(
            "depth",
            format!("{depth}: at most {}", kifu::jobs::MAX_DEPTH),
        )
        .into_py(py));
    }
    let inputs = inputs::inputs(py, paths, format, filters)?;
    py.detach(|| {
        let solver = kifu::jobs::analysis_solver(hash_mb, empties);
        let searcher =
            (depth > 0).then(|| kifu::jobs::searcher_with(hash_mb, selectivity, weights));
        // As `kifu analyze`: the best moves only where they are written.
        let judging = Judging {
            empties,
            depth,
            best_moves: moves,
        };
        let mut notes = Vec::new();
        let games = pool(threads)?
            .install(|| analyze_all(&inputs, &solver, searcher.as_ref(), judging, &mut notes))?;
        let columns: &[&'static str] = if moves { &MOVE_COLUMNS } else { &GAME_COLUMNS };
        let name = if moves { "analysis_moves" } else { "analysis" };
        let mut table = TextTable::new(create(out)?, name, columns, &TEXT_COLUMNS)
            .map_err(|e| parquet_failure(out, e))?;
        let mut rows = 0;
        for game in &games {
            if moves {
                for fields in game.move_fields() {
                    table.push(&fields).map_err(|e| parquet_failure(out, e))?;
                    rows += 1;
                }
            } else {
                table
                    .push(&game.game_fields())
                    .map_err(|e| parquet_failure(out, e))?;
                rows += 1;
            }
        }
        table.finish().map_err(|e| parquet_failure(out, e))?;
        Ok::<_, Failure>(rows)
    })
    .or_raise(py)
}

/// `kifu positions -o OUT.parquet [--score exact]`'s rows of the games
/// chosen, in `out`; the number of rows.
#[pyfunction]
#[pyo3(signature = (out, paths, format=None, empties=None, symmetries=false, all_games=false,
    score="final", hash_mb=kifu::jobs::DEFAULT_HASH_MB, threads=0, **filters))]
#[allow(clippy::too_many_arguments)]
pub fn positions_part<'py>(
    py: Python<'py>,
    out: &str,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    empties: Option<&str>,
    symmetries: bool,
    all_games: bool,
    score: &str,
    hash_mb: usize,
    threads: usize,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<u64> {
    let range = match empties {
        Some(text) => text
            .parse::<Empties>()
            .map_err(|e| Failure::usage("empties", e.reason).into_py(py))?,
        None => Empties::default(),
    };
    let exact = match score {
        "final" => false,
        "exact" => true,
        other => {
            return Err(
                Failure::usage("score", format!("{other:?}: \"final\" or \"exact\"")).into_py(py),
            )
        }
    };
    if exact && (empties.is_none() || u32::from(range.max) > MAX_EMPTIES) {
        return Err(Failure::usage(
            "empties",
            "score=\"exact\" solves every position: give empties=\"A..B\" with B at most 30",
        )
        .into_py(py));
    }
    let inputs = inputs::inputs(py, paths, format, filters)?;
    py.detach(|| {
        let selection = inputs.selection(false)?;
        let solver = exact.then(|| kifu::jobs::analysis_solver(hash_mb, u32::from(range.max)));
        let options = positions::Options {
            empties: range,
            symmetries,
            all_games,
        };
        let mut batch = batch::Options {
            jobs: threads,
            ..inputs.options()
        };
        if exact {
            // As `kifu positions --score exact`: small slices.
            batch.chunk = 4;
            batch.slice = 4;
            batch.chunk_bytes = 256;
            batch.slice_bytes = 256;
        }
        let mut writer = PositionsWriter::new(create(out)?).map_err(|e| parquet_failure(out, e))?;
        let mut rows = 0u64;
        let mut failed = None;
        inputs
            .each(|path, games, _, _| {
                writer.set_source(path);
                batch::run(
                    games,
                    &batch,
                    |records: Vec<GameRecord>| {
                        let mut maker = GameRows::new(&selection, options, solver.as_ref());
                        let mut out: Vec<(u64, Row)> = Vec::new();
                        for record in &records {
                            if let Made::Kept {
                                rows: Some(rows), ..
                            } = maker.game(record)
                            {
                                out.extend(rows.iter().map(|r| (record.origin.index, *r)));
                            }
                        }
                        out
                    },
                    |part| {
                        rows += part.len() as u64;
                        writer.push_rows(&part).map_err(|e| {
                            failed = Some(e.to_string());
                            std::io::Error::other("cannot write Parquet")
                        })
                    },
                )
            })
            .map_err(|e| match failed.take() {
                Some(why) => parquet_failure(out, why),
                None => Failure::from(e),
            })?;
        writer.finish().map_err(|e| parquet_failure(out, e))?;
        Ok::<_, Failure>(rows)
    })
    .or_raise(py)
}

/// The columns of `kifu validate --theoretical --format json`'s rows of
/// contradicted scores.
const THEORETICAL_COLUMNS: [&str; 7] = [
    "file", "game", "status", "depth", "stored", "solved", "message",
];

/// The stored theoretical scores of the games chosen checked by exact
/// solving; the rows of those contradicted (`kifu validate --theoretical
/// --format json`'s) in `out`. Returns (scores checked, rows).
#[pyfunction]
#[pyo3(signature = (out, paths, format=None, hash_mb=kifu::jobs::DEFAULT_HASH_MB, threads=0,
    **filters))]
pub fn validate_theoretical_part<'py>(
    py: Python<'py>,
    out: &str,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    hash_mb: usize,
    threads: usize,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<(u64, u64)> {
    let inputs = inputs::inputs(py, paths, format, filters)?;
    py.detach(|| {
        let selection = inputs.selection(false)?;
        let solver = kifu::jobs::solver(hash_mb);
        // As `kifu validate --theoretical`: small slices.
        let batch = batch::Options {
            jobs: threads,
            chunk: 4,
            slice: 4,
            chunk_bytes: 256,
            slice_bytes: 256,
            ..inputs.options()
        };
        let mut table = TextTable::new(
            create(out)?,
            "theoretical",
            &THEORETICAL_COLUMNS,
            &["file", "status", "message"],
        )
        .map_err(|e| parquet_failure(out, e))?;
        let (mut checked, mut rows) = (0u64, 0u64);
        let mut failed = None;
        inputs
            .each(|path, games, _, _| {
                batch::run(
                    games,
                    &batch,
                    |records: Vec<GameRecord>| {
                        let mut found = (0u64, Vec::new());
                        selection.replay_each(&records, false, |record, (report, seen)| {
                            if !selection.filter.accepts(record, &report, &seen)
                                || !theoretical::checkable(record, &report)
                            {
                                return;
                            }
                            found.0 += 1;
                            if let Some(wrong) = theoretical::check(&solver, record, &report) {
                                found.1.push((record.origin.index, wrong));
                            }
                        });
                        found
                    },
                    |(n, wrong)| {
                        checked += n;
                        for (game, w) in wrong {
                            let fields = [
                                path.to_owned(),
                                game.to_string(),
                                theoretical::WRONG.to_owned(),
                                w.depth.to_string(),
                                w.stored.to_string(),
                                w.solved.to_string(),
                                w.message(),
                            ];
                            table.push(&fields).map_err(|e| {
                                failed = Some(e.to_string());
                                std::io::Error::other("cannot write Parquet")
                            })?;
                            rows += 1;
                        }
                        Ok(())
                    },
                )
            })
            .map_err(|e| match failed.take() {
                Some(why) => parquet_failure(out, why),
                None => Failure::from(e),
            })?;
        table.finish().map_err(|e| parquet_failure(out, e))?;
        Ok::<_, Failure>((checked, rows))
    })
    .or_raise(py)
}
