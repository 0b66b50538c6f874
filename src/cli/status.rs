//! What a subcommand found (the exit status) and when to colour: shared by
//! every subcommand, below the dispatch in `mod.rs`.

use std::process::ExitCode;

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
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Valid => ExitCode::SUCCESS,
            Outcome::Invalid => ExitCode::from(1),
            Outcome::Failed => ExitCode::from(2),
        }
    }
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
