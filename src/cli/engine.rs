//! The solver's flags, shared by every command that solves positions.

use anyhow::{Context, Result};
use kifu::solve::{Solver, SolverOptions};

/// How much of the machine the exact solver may use.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
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
    #[arg(long, value_name = "MB", default_value_t = 256)]
    pub hash: usize,
}

/// A solver and the threads it runs on.
pub struct Engine {
    pub solver: Solver,
    pool: rayon::ThreadPool,
}

impl EngineArgs {
    /// Allocates the table and starts the threads.
    pub fn start(&self) -> Result<Engine> {
        allow_huge_pages();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .context("cannot start the solver's threads")?;
        let bytes = self.hash.max(1).saturating_mul(1 << 20);
        Ok(Engine {
            solver: new_solver(SolverOptions::with_hash(bytes)),
            pool,
        })
    }
}

impl Engine {
    /// Runs `job` on the solver's threads.
    pub fn install<T: Send>(&self, job: impl FnOnce() -> T + Send) -> T {
        self.pool.install(job)
    }
}

/// Lets this process have transparent huge pages again (`main` asks for
/// none, which keeps the batch commands' memory small): the solver's
/// table asks for them, and with 4 KiB pages nearly every probe of it
/// misses the TLB.
pub fn allow_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0)` clears a flag of the
    // calling process and reads no memory of ours; on failure it returns
    // -1 and changes nothing.
    let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 0, 0, 0, 0) };
}

/// A solver for a command, its table on huge pages where the system has
/// them.
pub fn new_solver(options: SolverOptions) -> Solver {
    allow_huge_pages();
    Solver::new(options)
}
