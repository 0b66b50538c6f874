//! The solver's flags, shared by every command that solves positions.

use anyhow::{Context, Result};
use kifu::solve::Solver;

/// How much of the machine the exact solver may use.
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    /// Threads (default: one per core).
    #[arg(
        long,
        short = 'j',
        alias = "jobs",
        value_name = "N",
        default_value_t = 0
    )]
    pub threads: usize,

    /// The solver's transposition table, in MB, at most: positions of 20
    /// empties or fewer use 16 MB, twice that for each empty square beyond.
    #[arg(long, value_name = "MB", default_value_t = kifu::jobs::DEFAULT_HASH_MB)]
    pub hash: usize,
}

/// A solver and the threads it runs on.
pub struct SolverPool {
    pub solver: Solver,
    pool: rayon::ThreadPool,
}

impl SolverArgs {
    /// Allocates the table and starts the threads.
    pub fn start(&self) -> Result<SolverPool> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .context("cannot start the solver's threads")?;
        Ok(SolverPool {
            solver: solver(self.hash),
            pool,
        })
    }
}

/// [`kifu::jobs::solver`], with a warning when the table of `hash_mb` is
/// more than the machine holds (a quarter of its memory, or what the system
/// gives) and a smaller one is taken: the values are the same, only the
/// time to them grows.
pub fn solver(hash_mb: usize) -> Solver {
    let solver = kifu::jobs::solver(hash_mb);
    note_table("solver's", hash_mb.max(1), solver.table_bytes());
    solver
}

/// Says once that a table (`which`: "solver's", "search's") of `asked_mb`
/// was more than the machine holds and is `got` bytes instead.
pub fn note_table(which: &str, asked_mb: usize, got: usize) {
    if got >> 20 >= asked_mb {
        return;
    }
    let size = if got >= 1 << 20 {
        format!("{} MB", got >> 20)
    } else {
        format!("{got} bytes")
    };
    eprintln!(
        "kifu: warning: a {asked_mb} MB table (--hash) is more than this machine holds: \
         the {which} table is {size} instead"
    );
}

/// [`kifu::jobs::searcher`], with [`note_table`]'s warning.
pub fn searcher(hash_mb: usize, selectivity: kifu::search::Selectivity) -> kifu::search::Searcher {
    searcher_with(hash_mb, selectivity, kifu::eval::Weights::builtin())
}

/// [`kifu::jobs::searcher_with`], with [`note_table`]'s warning for its
/// two tables (each a quarter of `hash_mb`).
pub fn searcher_with(
    hash_mb: usize,
    selectivity: kifu::search::Selectivity,
    weights: Option<&'static kifu::eval::Weights>,
) -> kifu::search::Searcher {
    let searcher = kifu::jobs::searcher_with(hash_mb, selectivity, weights);
    note_tables(&searcher, (hash_mb / 4).max(1));
    searcher
}

/// [`note_table`] for a searcher's two tables, each of `each_mb` asked.
pub fn note_tables(searcher: &kifu::search::Searcher, each_mb: usize) {
    note_table("search's", each_mb, searcher.table_bytes());
    note_table("solver's", each_mb, searcher.solver().table_bytes());
}

/// [`kifu::jobs::analysis_solver`], with [`solver`]'s warning.
pub fn analysis_solver(hash_mb: usize, empties: u32) -> Solver {
    solver(kifu::jobs::analysis_hash_mb(hash_mb, empties))
}

impl SolverPool {
    /// Runs `job` on the solver's threads.
    pub fn install<T: Send>(&self, job: impl FnOnce() -> T + Send) -> T {
        self.pool.install(job)
    }
}
