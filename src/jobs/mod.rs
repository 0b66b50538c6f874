//! What more than one front-end runs: the command line, the Python package
//! and the server are thin layers over these jobs, so that they cannot
//! drift apart.
//!
//! - [`Inputs`]: files, their format and how to read them, the filters by
//!   name, `--exclude`, `--unique`, the part of the games to take
//!   (`--shard`, a range: [`Part`]); opened and run through the batch
//!   pipeline one after another.
//! - [`analyze::Analyzer`]: the games of the inputs analysed by the solver,
//!   in input order, a batch of games at a time in parallel.
//! - [`positions::GameRows`]: one game's training rows, as `kifu positions`
//!   and `kifu.positions` make them, with exact scores when asked.
//! - The solver's defaults ([`DEFAULT_HASH_MB`], [`solver`]).

pub mod analyze;
mod inputs;
mod part;
pub mod positions;
pub mod table;
pub mod theoretical;

pub use inputs::{excluded, Counted, Inputs, JobError};
pub use part::{Part, PartError, Parting};

use crate::search::{SearchOptions, Searcher, Selectivity};
use crate::solve::{Solver, SolverOptions};

/// The solver's transposition table when none is asked for, in MiB: the
/// default of every command's `--hash` and of Python's `hash_mb`.
pub const DEFAULT_HASH_MB: usize = 256;

/// The midgame search's depth when a whole game is judged and none is
/// asked for (`kifu analyze --depth`).
pub const ANALYSIS_DEPTH: u32 = 10;

/// The deepest midgame search a command takes.
pub const MAX_DEPTH: u32 = 60;

/// A midgame searcher for judging games: its table of `hash_mb` MiB / 4
/// (at least 1 MiB; the solver that values the endgames has its own),
/// cutting its tree as `selectivity` says.
pub fn searcher(hash_mb: usize, selectivity: Selectivity) -> Searcher {
    searcher_with(hash_mb, selectivity, crate::eval::Weights::builtin())
}

/// [`searcher`], estimating by `weights` instead of the built-in
/// evaluation (`None`: counting discs).
pub fn searcher_with(
    hash_mb: usize,
    selectivity: Selectivity,
    weights: Option<&'static crate::eval::Weights>,
) -> Searcher {
    let bytes = (hash_mb / 4).max(1).saturating_mul(1 << 20);
    Searcher::with_weights(
        SearchOptions {
            hash_bytes: bytes,
            solver_hash_bytes: bytes,
            selectivity,
        },
        weights,
    )
}

/// A solver with a table of `hash_mb` MiB (at least 1).
pub fn solver(hash_mb: usize) -> Solver {
    Solver::new(SolverOptions::with_hash(
        hash_mb.max(1).saturating_mul(1 << 20),
    ))
}
