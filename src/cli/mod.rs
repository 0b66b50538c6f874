//! Command-line wiring: one file per subcommand.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod archive;
mod convert;
mod diagnostic;
mod io;
mod output;
mod progress;
mod repair;
mod report;
mod run;
mod score;
mod show;
mod suggest;
mod validate;

/// Read, validate, score and convert Othello (Reversi) game records.
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
    /// Print the manual page (roff) to standard output.
    ///
    /// Example:
    ///   kifu man > kifu.1 && man ./kifu.1
    #[command(verbatim_doc_comment)]
    Man,
}

/// What a subcommand found, mapped to the exit status.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Every game valid (exit 0).
    Valid,
    /// At least one game invalid, reported (exit 1).
    Invalid,
    /// An input could not be read, reported (exit 2).
    Failed,
}

impl Outcome {
    fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Valid => ExitCode::SUCCESS,
            Outcome::Invalid => ExitCode::from(1),
            Outcome::Failed => ExitCode::from(2),
        }
    }
}

fn completions(shell: clap_complete::Shell) -> anyhow::Result<Outcome> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut cmd, "kifu", &mut out);
    std::io::Write::flush(&mut out)?;
    Ok(Outcome::Valid)
}

fn man_page() -> anyhow::Result<Outcome> {
    use clap::CommandFactory;
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    std::io::Write::flush(&mut out)?;
    Ok(Outcome::Valid)
}

/// When to colour output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// Whether to colour standard output.
    pub fn enabled(self) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
            }
        }
    }
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
        Command::Man => man_page(),
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
