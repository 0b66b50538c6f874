//! The `kifu` command-line program.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

// Many small allocations per game (names, move lists) across threads:
// mimalloc handles them markedly faster than the system allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
