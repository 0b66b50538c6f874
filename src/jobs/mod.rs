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

/// The solver's table when games are judged (or their positions scored)
/// exactly from `empties` empty squares on, in MiB: at most `hash_mb`
/// (`--hash`), and no more than such solves use: [`ANALYSIS_TABLE_MB`]
/// from 20 empties or fewer, twice as much for each empty square beyond
/// (256 MiB from 24).
pub fn analysis_hash_mb(hash_mb: usize, empties: u32) -> usize {
    let used = ANALYSIS_TABLE_MB << empties.saturating_sub(20).min(16);
    hash_mb.min(used).max(1)
}

/// The table of [`analysis_hash_mb`] from 20 empties or fewer. A game's
/// position at 20 empties is solved with about 115 K table nodes; on
/// WTHOR games a 4 or 16 MiB table solves them as fast as 256 MiB (see
/// docs/performance.md), with a quarter of the memory, and a single game
/// no longer waits for 256 MiB to be mapped first.
pub const ANALYSIS_TABLE_MB: usize = 16;

/// A solver for judging games exactly from `empties` empty squares on:
/// its table of [`analysis_hash_mb`] MiB.
pub fn analysis_solver(hash_mb: usize, empties: u32) -> Solver {
    solver(analysis_hash_mb(hash_mb, empties))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analysis_table_grows_with_the_empties_up_to_the_hash() {
        assert_eq!(analysis_hash_mb(DEFAULT_HASH_MB, 14), ANALYSIS_TABLE_MB);
        assert_eq!(analysis_hash_mb(DEFAULT_HASH_MB, 20), ANALYSIS_TABLE_MB);
        assert_eq!(analysis_hash_mb(DEFAULT_HASH_MB, 22), 4 * ANALYSIS_TABLE_MB);
        assert_eq!(analysis_hash_mb(DEFAULT_HASH_MB, 24), 256);
        assert_eq!(analysis_hash_mb(DEFAULT_HASH_MB, 30), DEFAULT_HASH_MB);
        assert_eq!(analysis_hash_mb(4096, 26), 1024);
        // `--hash` is the most it takes, and never less than 1 MiB.
        assert_eq!(analysis_hash_mb(8, 20), 8);
        assert_eq!(analysis_hash_mb(0, 20), 1);
        assert_eq!(analysis_hash_mb(usize::MAX, 60), ANALYSIS_TABLE_MB << 16);
    }
}
