//! Command-line wiring: one file per subcommand.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use status::{ColorWhen, Outcome};

mod analyze;
mod archive;
mod convert;
mod diagnostic;
mod eval;
mod explore;
mod formats;
mod io;
mod nboard;
mod openings;
mod output;
mod position_list;
mod positions;
mod progress;
mod repair;
mod report;
mod run;
mod score;
mod serve;
mod shape;
mod show;
mod solve;
mod solver;
mod split;
mod stats;
mod status;
mod suggest;
mod train;
mod validate;

/// Othello (Reversi) game records: read every format, replay every move,
/// convert and query databases, solve endgames, judge whole games.
#[derive(Parser, Debug)]
#[command(name = "kifu", version, about, max_term_width = 100)]
#[command(
    after_help = "Exit status: 0 every game valid, 1 some game invalid, 2 usage or I/O error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Show(show::Args),
    Validate(validate::Args),
    Score(score::Args),
    Convert(convert::Args),
    Repair(repair::Args),
    Explore(explore::Args),
    Stats(stats::Args),
    Positions(positions::Args),
    Split(split::Args),
    Solve(solve::Args),
    Eval(eval::Args),
    Engine(nboard::Args),
    Analyze(analyze::Args),
    TrainEval(train::Args),
    Serve(serve::Args),
    Openings(openings::Args),
    Formats(formats::Args),
    /// Print a shell completion script.
    ///
    /// Shells: bash, zsh, fish, elvish, powershell.
    ///
    /// Example:
    ///   kifu completions bash > ~/.local/share/bash-completion/completions/kifu
    #[command(verbatim_doc_comment)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per subcommand.
    ///
    /// Without --dir, kifu(1) goes to standard output; with --dir DIR,
    /// kifu.1 and kifu-show.1, kifu-validate.1, … are written into DIR.
    ///
    /// Examples:
    ///   kifu man > kifu.1 && man ./kifu.1
    ///   kifu man --dir ~/.local/share/man/man1
    #[command(verbatim_doc_comment)]
    Man {
        /// Write every page into this folder.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

fn completions(shell: clap_complete::Shell) -> anyhow::Result<Outcome> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut cmd, "kifu", &mut out);
    std::io::Write::flush(&mut out)?;
    Ok(Outcome::Valid)
}

fn man_page(dir: Option<&std::path::Path>) -> anyhow::Result<Outcome> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    command.build();
    let Some(dir) = dir else {
        let mut out = std::io::stdout().lock();
        clap_mangen::Man::new(command).render(&mut out)?;
        std::io::Write::flush(&mut out)?;
        return Ok(Outcome::Valid);
    };
    // Like install(1) -d and every other tool: the folder is made,
    // parents included, when it is not there yet.
    if let Err(err) = std::fs::create_dir_all(dir) {
        anyhow::bail!("cannot make the folder {}: {err}", dir.display());
    }
    // kifu.1, then kifu-show.1 and the others, as the top page names them.
    let mut pages = vec![("kifu".to_owned(), command.clone())];
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("kifu-{}", sub.get_name());
        pages.push((name.clone(), sub.clone().name(name)));
    }
    let mut files = Vec::with_capacity(pages.len());
    for (name, page) in pages {
        let mut roff = Vec::new();
        clap_mangen::Man::new(page).render(&mut roff)?;
        let mut file = output::AtomicFile::create(&dir.join(format!("{name}.1")))?;
        std::io::Write::write_all(&mut file, &roff)?;
        files.push(file);
    }
    for file in files {
        file.commit()?;
    }
    Ok(Outcome::Valid)
}

/// Whether an error chain ends in a closed pipe, which ends quietly.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    output::install_signal_handler();
    let result = match cli.command {
        Command::Show(args) => show::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Score(args) => score::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Repair(args) => repair::run(args),
        Command::Completions { shell } => completions(shell),
        Command::Explore(args) => explore::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Positions(args) => positions::run(args),
        Command::Split(args) => split::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Engine(args) => nboard::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::TrainEval(args) => train::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Openings(args) => openings::run(args),
        Command::Formats(args) => formats::run(args),
        Command::Man { dir } => man_page(dir.as_deref()),
    };
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("kifu: {err:#}");
            ExitCode::from(2)
        }
    }
}
