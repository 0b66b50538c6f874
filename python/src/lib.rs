//! The Python package's native module, `kifu._kifu`: a thin layer over
//! the kifu library — conversions at the edge, no parsing or replay of its
//! own. Long work runs with the GIL released, on every core, through the
//! library's batch pipeline; arrays go to NumPy without a copy. The
//! Python package `kifu` (`kifu/__init__.py`) gives them their dtypes and
//! shapes and documents the API.

mod arrays;
mod board;
mod distributed;
mod errors;
mod game;
mod inputs;
mod solve;

use pyo3::prelude::*;

/// The vocabulary of Othello-GPT tokens: the token of each square name
/// (60 of them; d4, e4, d5 and e5 have none).
#[pyfunction]
fn vocabulary() -> Vec<(String, u8)> {
    kifu::Square::all()
        .filter_map(|s| kifu::ml::tokens::token(s).map(|t| (s.to_string(), t)))
        .collect()
}

#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::Board>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::GameStream>()?;
    m.add_function(wrap_pyfunction!(game::read, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::positions_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::tensor_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::token_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::table_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(solve::weights_digest, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::count_games, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::analyze_part, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::positions_part, m)?)?;
    m.add_function(wrap_pyfunction!(distributed::validate_theoretical_part, m)?)?;
    m.add_function(wrap_pyfunction!(vocabulary, m)?)?;
    m.add("NPY_DESCR", kifu::ml::positions::NPY_DESCR)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
