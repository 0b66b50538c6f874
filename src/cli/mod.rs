//! Command-line wiring: one file per subcommand.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod convert;
mod diagnostic;
mod input;
mod progress;
mod run;
mod score;
mod show;
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

/// The files to read: those given, or standard input.
pub fn default_files(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_owned()]
    } else {
        files.to_vec()
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
    let result = match cli.command {
        Command::Show(args) => show::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Score(args) => score::run(args),
        Command::Convert(args) => convert::run(args),
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
