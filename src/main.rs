//! The `kifu` command-line program.

mod cli;

fn main() -> std::process::ExitCode {
    #[cfg(all(feature = "mimalloc", target_os = "linux"))]
    no_huge_pages();
    cli::main()
}

/// Asks Linux for no transparent huge pages in this process.
///
/// mimalloc asks for huge pages on its memory (`madvise`), and a 2 MiB
/// page is resident in full once one byte of it is touched: with them a
/// run's peak RSS is up to twice what it holds (on big.wtb, WTHOR → CSV
/// 49–55 MB, `validate` 42–47 MB, the game table to Parquet 102–115 MB),
/// without them 24–30, 23–26 and 53–64 MB, at the same speed. A kernel
/// that refuses leaves things as they were.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
fn no_huge_pages() {
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` sets a flag of the
    // calling process and reads no memory of ours; on failure it returns
    // -1 and changes nothing.
    let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
}

// Many small allocations per game (names, move lists) across threads:
// mimalloc handles them markedly faster than the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
