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
/// more than the machine holds (half its memory, or what the system
/// gives) and a smaller one is taken: the values are the same, only the
/// time to them grows.
pub fn solver(hash_mb: usize) -> Solver {
    let solver = kifu::jobs::solver(hash_mb);
    let got = solver.table_bytes() >> 20;
    if got < hash_mb {
        eprintln!(
            "kifu: warning: a {hash_mb} MB table (--hash) is more than this machine holds: \
             the solver's table is {} instead",
            if got == 0 {
                format!("{} bytes", solver.table_bytes())
            } else {
                format!("{got} MB")
            }
        );
    }
    solver
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
