//! The functions that return arrays and tables: `positions`, `tokens`,
//! `tensors` and `table`. Each runs the library's pipeline (parallel
//! replay, input order) with the GIL released and hands its buffers to
//! NumPy without a copy; the Python wrapper gives them their dtype and
//! shape.

use kifu::batch::{self, Choice, Seen};
use kifu::formats::parquet::TableWriter;
use kifu::formats::{Format, GameReader};
use kifu::jobs::positions::{GameRows, Made};
use kifu::ml::positions::{self, push_npy, Empties, NPY_RECORD};
use kifu::ml::tensors::Columns;
use kifu::record::select::duplicate_key;
use kifu::GameRecord;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors::{Failure, OrRaise};
use crate::inputs::{self, Inputs};

/// `empties=`: a number, `"A..B"`, or `(A, B)`.
fn empties(py: Python<'_>, value: Option<&Bound<'_, PyAny>>) -> PyResult<Empties> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(Empties::default());
    };
    let spec = if let Ok(n) = value.extract::<i64>() {
        n.to_string()
    } else if let Ok((a, b)) = value.extract::<(i64, i64)>() {
        format!("{a}..{b}")
    } else if let Ok(text) = value.extract::<String>() {
        text
    } else {
        return Err(Failure::usage("empties", "give a number, \"A..B\" or (A, B)").into_py(py));
    };
    spec.parse::<Empties>()
        .map_err(|e| Failure::usage("empties", e.reason).into_py(py))
}

/// Rows of positions: the options of `kifu positions`.
struct Rows {
    options: positions::Options,
}

impl Rows {
    /// Runs over every input; `each` gets each kept game's rows with the
    /// game's number in the run. Returns the notes.
    fn run<T: Send>(
        &self,
        inputs: &Inputs,
        make: impl Fn() -> T + Sync,
        each: impl Fn(&mut T, u32, &[positions::Row]) + Sync,
        mut sink: impl FnMut(T),
    ) -> Result<Vec<String>, Failure> {
        let selection = inputs.selection(false)?;
        let mut options = inputs.options();
        // As `kifu positions`: a game's rows are many times its bytes.
        options.chunk_bytes = options.chunk_bytes.min(128 << 10);
        let mut base = 0u64;
        let mut notes = Vec::new();
        inputs.each(|_, games: Box<dyn GameReader>, found, parting| {
            notes.extend(found);
            // The game's number in the run counts every game before, of
            // every part.
            base = parting.games_read(base);
            let mut read = 0u64;
            let result = batch::run(
                games,
                &options,
                |records: Vec<GameRecord>| {
                    let mut out = make();
                    let mut maker = GameRows::new(&selection, self.options, None);
                    for record in &records {
                        let Made::Kept {
                            rows: Some(rows), ..
                        } = maker.game(record)
                        else {
                            continue;
                        };
                        // More than 4 billion games keep the last number,
                        // as the command line's npy does.
                        let game = u32::try_from(base + record.origin.index).unwrap_or(u32::MAX);
                        each(&mut out, game, rows);
                    }
                    (out, records.len() as u64)
                },
                |(out, n)| {
                    read += n;
                    sink(out);
                    Ok(())
                },
            );
            base += read;
            result
        })?;
        Ok(notes)
    }
}

/// The positions of SPEC section 8 as the bytes of the npy records
/// (25 bytes a row); see ``kifu.positions``.
#[pyfunction]
#[pyo3(signature = (paths, format=None, empties=None, symmetries=false, all_games=false, **filters))]
pub fn positions_bytes<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    empties: Option<&Bound<'py, PyAny>>,
    symmetries: bool,
    all_games: bool,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let empties = self::empties(py, empties)?;
    let inputs = inputs::inputs(py, paths, format, filters)?;
    let rows = Rows {
        options: positions::Options {
            empties,
            symmetries,
            all_games,
        },
    };
    let (bytes, notes) = py
        .detach(|| {
            let mut out: Vec<u8> = Vec::new();
            let mut seen = inputs.unique.then(positions::Seen::default);
            let notes = rows.run(
                &inputs,
                Vec::new,
                |buf: &mut Vec<u8>, game, rows| {
                    buf.reserve(rows.len() * NPY_RECORD);
                    for row in rows {
                        push_npy(buf, game, row);
                    }
                },
                |buf| match seen.as_mut() {
                    None => out.extend_from_slice(&buf),
                    Some(seen) => {
                        for rec in buf.chunks_exact(NPY_RECORD) {
                            let word = |at: usize| {
                                let mut w = [0u8; 8];
                                w.copy_from_slice(&rec[at..at + 8]);
                                u64::from_le_bytes(w)
                            };
                            if seen.first(word(0), word(8)) {
                                out.extend_from_slice(rec);
                            }
                        }
                    }
                },
            )?;
            Ok((out, notes))
        })
        .or_raise(py)?;
    inputs::warn(py, &notes)?;
    Ok(PyArray1::from_vec(py, bytes))
}

/// The per-move tensors; see ``kifu.tensors``.
#[pyfunction]
#[pyo3(signature = (paths, format=None, empties=None, all_games=false, **filters))]
pub fn tensor_arrays<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    empties: Option<&Bound<'py, PyAny>>,
    all_games: bool,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let empties = self::empties(py, empties)?;
    let inputs = inputs::inputs(py, paths, format, filters)?;
    let rows = Rows {
        options: positions::Options {
            empties,
            symmetries: false,
            all_games,
        },
    };
    let (all, notes) = py
        .detach(|| {
            let mut all = Columns::default();
            let notes = rows.run(
                &inputs,
                Columns::default,
                |cols: &mut Columns, game, rows| {
                    for row in rows {
                        cols.push(game, row);
                    }
                },
                |cols| {
                    for (a, b) in all.planes.iter_mut().zip(&cols.planes) {
                        a.extend_from_slice(b);
                    }
                    all.moves.extend_from_slice(&cols.moves);
                    all.ply.extend_from_slice(&cols.ply);
                    all.side.extend_from_slice(&cols.side);
                    all.score.extend_from_slice(&cols.score);
                    all.game.extend_from_slice(&cols.game);
                },
            )?;
            Ok((all, notes))
        })
        .or_raise(py)?;
    inputs::warn(py, &notes)?;
    let d = PyDict::new(py);
    let Columns {
        planes,
        moves,
        ply,
        side,
        score,
        game,
    } = all;
    for ((name, _), plane) in kifu::ml::tensors::ARRAYS.iter().zip(planes) {
        d.set_item(name, PyArray1::from_vec(py, plane))?;
    }
    d.set_item("move", PyArray1::from_vec(py, moves))?;
    d.set_item("ply", PyArray1::from_vec(py, ply))?;
    d.set_item("side", PyArray1::from_vec(py, side))?;
    d.set_item("score", PyArray1::from_vec(py, score))?;
    d.set_item("game", PyArray1::from_vec(py, game))?;
    Ok(d)
}

/// Othello-GPT tokens, 60 bytes a game, and the games left out; see
/// ``kifu.tokens``.
#[pyfunction]
#[pyo3(signature = (paths, format=None, **filters))]
pub fn token_bytes<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyArray1<i8>>, Vec<String>)> {
    let inputs = inputs::inputs(py, paths, format, filters)?;
    let (rows, left_out, notes) = py
        .detach(|| {
            let selection = inputs.selection(false)?;
            let options = inputs.options().reading_ahead();
            let mut out: Vec<i8> = Vec::new();
            let mut left_out = Vec::new();
            let mut notes = Vec::new();
            let mut seen = inputs.unique.then(Seen::default);
            inputs.each(|path, games: Box<dyn GameReader>, found, _| {
                notes.extend(found);
                batch::run(
                    games,
                    &options,
                    |records: Vec<GameRecord>| {
                        let mut rows = Vec::with_capacity(records.len() * 60);
                        let mut keys = Vec::new();
                        let mut refused = Vec::new();
                        selection.replay_each(&records, false, |record, (report, found)| {
                            if !selection.filter.accepts(record, &report, &found) {
                                return;
                            }
                            match kifu::ml::tokens::encode(record) {
                                Ok(row) => {
                                    rows.extend_from_slice(&row);
                                    keys.push(duplicate_key(record));
                                }
                                Err(why) => refused.push(format!(
                                    "{path}: game {}: left out: {why}",
                                    record.origin.index
                                )),
                            }
                        });
                        (rows, keys, refused)
                    },
                    |(rows, keys, refused)| {
                        left_out.extend(refused);
                        match seen.as_mut() {
                            None => out.extend_from_slice(&rows),
                            Some(seen) => {
                                for (row, key) in rows.chunks_exact(60).zip(keys) {
                                    if seen.first(key) {
                                        out.extend_from_slice(row);
                                    }
                                }
                            }
                        }
                        Ok(())
                    },
                )
            })?;
            Ok((out, left_out, notes))
        })
        .or_raise(py)?;
    inputs::warn(py, &notes)?;
    Ok((PyArray1::from_vec(py, rows), left_out))
}

/// The game table of SPEC section 4 as the bytes of a Parquet file (the
/// Python side reads it with pyarrow); see ``kifu.table``.
#[pyfunction]
#[pyo3(signature = (paths, format=None, **filters))]
pub fn table_parquet<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let inputs = inputs::inputs(py, paths, format, filters)?;
    let (bytes, notes) = py
        .detach(|| {
            let selection = inputs.selection(false)?;
            let mut writer =
                TableWriter::new(Vec::new()).map_err(|e| Failure::Other(e.to_string()))?;
            let mut seen = inputs.unique.then(Seen::default);
            let mut notes = Vec::new();
            let options = inputs.options();
            inputs.each(|path, games: Box<dyn GameReader>, found, _| {
                notes.extend(found);
                batch::convert(
                    games,
                    path,
                    Format::Parquet,
                    &mut writer,
                    &options,
                    Choice {
                        selection: &selection,
                        unique: seen.as_mut(),
                        prepare: None,
                    },
                    |_| {},
                )
            })?;
            let bytes = writer
                .into_inner()
                .map_err(|e| Failure::Other(e.to_string()))?
                .unwrap_or_default();
            Ok((bytes, notes))
        })
        .or_raise(py)?;
    inputs::warn(py, &notes)?;
    Ok(PyBytes::new(py, &bytes))
}
