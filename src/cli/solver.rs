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

    /// The solver's transposition table, in MB.
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
            solver: kifu::jobs::solver(self.hash),
            pool,
        })
    }
}

impl SolverPool {
    /// Runs `job` on the solver's threads.
    pub fn install<T: Send>(&self, job: impl FnOnce() -> T + Send) -> T {
        self.pool.install(job)
    }
}
