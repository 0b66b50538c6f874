//! The `kifu` command-line program.

mod cli;

fn main() -> std::process::ExitCode {
    #[cfg(all(feature = "mimalloc", target_os = "linux"))]
    no_huge_pages();
    cli::main()
}

/// Transparent huge pages only for the memory that asks for them.
///
/// A 2 MiB page is resident in full once one byte of it is touched, so
/// the allocator's memory stays in small pages: with huge pages a run's
/// peak RSS was up to twice what it holds (on big.wtb, WTHOR → CSV 49–55
/// MB, `validate` 42–47 MB, the game table to Parquet 102–115 MB),
/// without them 24–30, 23–26 and 53–64 MB, at the same speed. mimalloc is
/// built never to ask for them (its `no_thp` feature). The solver's table
/// asks (`madvise`) and needs them: in small pages nearly every probe of
/// it misses the TLB (`analyze` 5 % slower, `validate --theoretical` 4 %).
///
/// Where the system gives huge pages only to memory that asks (its
/// `madvise` mode), that is already so. Where it gives them to all
/// memory, Linux 6.18 and later keep them for the memory that asks
/// (`PR_THP_DISABLE_EXCEPT_ADVISED`); an older kernel refuses that, and
/// the process then goes without any (its memory matters more than the
/// solver's speed). A kernel that refuses everything leaves things as
/// they were.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
fn no_huge_pages() {
    /// `PR_SET_THP_DISABLE`'s third argument: except memory advised
    /// `MADV_HUGEPAGE` (Linux 6.18; older kernels fail with `EINVAL`).
    const PR_THP_DISABLE_EXCEPT_ADVISED: libc::c_ulong = 1 << 1;
    // `prctl` is variadic and the kernel reads `unsigned long`s: each
    // argument is passed as one.
    let disable = |flags: libc::c_ulong| {
        let on: libc::c_ulong = 1;
        let zero: libc::c_ulong = 0;
        // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, flags, 0, 0)` sets a flag
        // of the calling process and reads no memory of ours; on failure
        // it returns -1 and changes nothing.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, on, flags, zero, zero) == 0 }
    };
    let always = || {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .is_ok_and(|mode| mode.contains("[always]"))
    };
    if !disable(PR_THP_DISABLE_EXCEPT_ADVISED) && always() {
        disable(0);
    }
}

// Many small allocations per game (names, move lists) across threads:
// mimalloc handles them markedly faster than the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
