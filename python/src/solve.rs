//! `kifu.solve` and `kifu.analyze`: SPEC section 9's exact values, from
//! the library's solver, with the GIL released.

use kifu::record::analysis::GameAnalysis;
use kifu::{Color, GameRecord, Move};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::board::Board;
use crate::errors::{Failure, OrRaise};
use crate::inputs;

/// The most empty squares solved unless asked (`max_empties=`), as the
/// command line's `--max-empties`.
const MAX_EMPTIES: u32 = 30;

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The exact value of ``board`` for the side to move (final disc
/// difference under perfect play, empties to the winner), its best moves
/// and a best line; with ``all_moves=True`` also every legal move's
/// value. See ``kifu.solve``.
#[pyfunction]
#[pyo3(signature = (board, all_moves=false, hash_mb=kifu::jobs::DEFAULT_HASH_MB, max_empties=MAX_EMPTIES))]
pub fn solve<'py>(
    py: Python<'py>,
    board: &Board,
    all_moves: bool,
    hash_mb: usize,
    max_empties: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let position = board.position;
    let empties = position.board().empty().count();
    if empties > max_empties {
        return Err(Failure::usage(
            "board",
            format!(
                "{empties} empty squares, more than max_empties={max_empties}: an exact solve \
                 could take hours; pass max_empties={empties} to ask anyway"
            ),
        )
        .into_py(py));
    }
    let (solution, every) = py
        .detach(|| {
            // The table the position can use, `hash_mb` at most (as `kifu solve`).
            let solver = kifu::jobs::analysis_solver(hash_mb, empties);
            let solution = solver
                .solve(&position)
                .map_err(|e| Failure::Other(e.to_string()))?;
            let every = if all_moves {
                Some(
                    solver
                        .solve_moves(&position)
                        .map_err(|e| Failure::Other(e.to_string()))?,
                )
            } else {
                None
            };
            Ok((solution, every))
        })
        .or_raise(py)?;
    let d = PyDict::new(py);
    d.set_item("value", solution.value)?;
    d.set_item("best_moves", names(&solution.best_moves))?;
    d.set_item("line", names(&solution.line))?;
    d.set_item("nodes", solution.nodes)?;
    d.set_item("empties", empties)?;
    if let Some(every) = every {
        let m = PyDict::new(py);
        for mv in &every.moves {
            m.set_item(mv.mv.to_string(), mv.value)?;
        }
        d.set_item("moves", m)?;
    }
    Ok(d)
}

fn game_dict<'py>(
    py: Python<'py>,
    source: &str,
    record: &GameRecord,
    a: &GameAnalysis,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("source", source)?;
    d.set_item("game", record.origin.index)?;
    d.set_item("black_player", record.tags.black.as_deref())?;
    d.set_item("white_player", record.tags.white.as_deref())?;
    d.set_item("status", a.status.map(|s| s.to_string()))?;
    d.set_item("empties", a.empties)?;
    d.set_item("theoretical_black_score", a.theoretical_black_score)?;
    d.set_item("black_score", a.black_score)?;
    d.set_item("solved_black_score", a.solved_black_score)?;
    d.set_item("black_loss", a.black_loss)?;
    d.set_item("white_loss", a.white_loss)?;
    d.set_item("black_mistakes", a.black_mistakes)?;
    d.set_item("white_mistakes", a.white_mistakes)?;
    d.set_item("first_mistake_move", a.first_mistake_move)?;
    d.set_item("midgame_depth", a.midgame_depth)?;
    d.set_item("black_midgame_loss", a.black_midgame_loss)?;
    d.set_item("white_midgame_loss", a.white_midgame_loss)?;
    d.set_item("black_midgame_mistakes", a.black_midgame_mistakes)?;
    d.set_item("white_midgame_mistakes", a.white_midgame_mistakes)?;
    d.set_item("first_midgame_mistake_move", a.first_midgame_mistake_move)?;
    let moves = PyList::empty(py);
    for m in &a.moves {
        let md = PyDict::new(py);
        md.set_item("move", m.index + 1)?;
        md.set_item(
            "color",
            match m.color {
                Color::Black => "black",
                Color::White => "white",
            },
        )?;
        md.set_item("square", m.mv.to_string())?;
        md.set_item("empties", m.empties)?;
        md.set_item("best_value", m.best_value)?;
        md.set_item("best_moves", names(&m.best_moves))?;
        md.set_item("value", m.value)?;
        md.set_item("loss", m.loss)?;
        md.set_item("exact", m.exact)?;
        md.set_item("depth", m.depth)?;
        moves.append(md)?;
    }
    d.set_item("moves", moves)?;
    Ok(d)
}

/// Every move of each game from its first position with at most
/// ``empties`` empty squares, solved exactly: the list of per-game dicts
/// of ``kifu analyze`` (with a ``moves`` list each). See
/// ``kifu.analyze``.
#[pyfunction]
#[pyo3(signature = (paths, format=None, empties=20, depth=kifu::jobs::ANALYSIS_DEPTH, hash_mb=kifu::jobs::DEFAULT_HASH_MB, selectivity="careful", weights=None, **filters))]
#[allow(clippy::too_many_arguments)]
pub fn analyze<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    format: Option<&str>,
    empties: u32,
    depth: u32,
    hash_mb: usize,
    selectivity: &str,
    weights: Option<std::path::PathBuf>,
    filters: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let selectivity = parse_selectivity(py, selectivity)?;
    let weights = weights_or_builtin(py, weights.as_deref())?;
    if depth > kifu::jobs::MAX_DEPTH {
        return Err(Failure::usage(
            "depth",
            format!("{depth}: at most {} moves deep", kifu::jobs::MAX_DEPTH),
        )
        .into_py(py));
    }
    if empties > MAX_EMPTIES {
        return Err(Failure::usage(
            "empties",
            format!("{empties}: at most {MAX_EMPTIES} empty squares are solved"),
        )
        .into_py(py));
    }
    let inputs = inputs::inputs(py, paths, format, filters)?;
    let (results, notes) = py
        .detach(|| {
            let mut notes = Vec::new();
            let solver = kifu::jobs::analysis_solver(hash_mb, empties);
            let searcher =
                (depth > 0).then(|| kifu::jobs::searcher_with(hash_mb, selectivity, weights));
            let judging = kifu::record::analysis::Judging {
                empties,
                depth,
                best_moves: true,
            };
            let games = kifu::jobs::analyze::analyze_all(
                &inputs,
                &solver,
                searcher.as_ref(),
                judging,
                &mut notes,
            )?;
            Ok::<_, Failure>((games, notes))
        })
        .or_raise(py)?;
    inputs::warn(py, &notes)?;
    let list = PyList::empty(py);
    for game in &results {
        // Only an interrupted solve gives no analysis; nothing interrupts
        // this one.
        if let Some(a) = &game.analysis {
            list.append(game_dict(py, &game.source, &game.record, a)?)?;
        }
    }
    Ok(list)
}

/// The `selectivity` keyword (`off`, `careful`, `bold`), or a usage error
/// that names it.
pub(crate) fn parse_selectivity(py: Python<'_>, text: &str) -> PyResult<kifu::search::Selectivity> {
    text.parse()
        .map_err(|message: String| Failure::usage("selectivity", message).into_py(py))
}

/// The `weights` keyword: the weights of that file, or the built-in
/// evaluation without one; a usage error naming `weights` otherwise.
pub(crate) fn weights_or_builtin(
    py: Python<'_>,
    path: Option<&std::path::Path>,
) -> PyResult<Option<&'static kifu::eval::Weights>> {
    match path {
        Some(path) => Ok(Some(read_weights(path).map_err(|f| f.into_py(py))?.0)),
        None => Ok(kifu::eval::Weights::builtin()),
    }
}

/// The weights in the file at `path` (as `kifu train-eval` writes them)
/// and the SHA-256 of its bytes. A searcher borrows its weights for as
/// long as the process runs, so each file's weights are kept once, by that
/// digest: calling again with the same file costs no more memory.
fn read_weights(path: &std::path::Path) -> Result<(&'static kifu::eval::Weights, String), Failure> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static LOADED: OnceLock<Mutex<HashMap<String, &'static kifu::eval::Weights>>> = OnceLock::new();
    let (weights, data) = kifu::eval::Weights::read_file(path)
        .map_err(|e| Failure::usage("weights", e.to_string()))?;
    let digest = kifu::eval::sha256::hex(&data);
    let mut loaded = LOADED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let weights = *loaded
        .entry(digest.clone())
        .or_insert_with(|| Box::leak(Box::new(weights)));
    Ok((weights, digest))
}

/// The SHA-256 of the weights file at `path`, once it has been read as
/// weights: what `kifu.distributed` records of the weights a job used
/// (a usage error naming `weights` when the file is not weights).
#[pyfunction]
pub fn weights_digest(py: Python<'_>, path: std::path::PathBuf) -> PyResult<String> {
    read_weights(&path)
        .map(|(_, digest)| digest)
        .map_err(|f| f.into_py(py))
}
