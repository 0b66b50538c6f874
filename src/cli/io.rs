//! What a command reads: the flags that name inputs, and opening them
//! (files or standard input) in the right format.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use kifu::formats::{Format, GameReader, ReadOptions, FORMATS};
use kifu::io::compress::inner_name;
use kifu::jobs::Part;
use kifu::record::select::{Excluded, Filter, Selection, FILTER_NAMES};

/// A `--from`/`--to` value: a format's name or alias, the names listed in
/// `--help` and offered by shell completions.
pub fn format_parser(writable: bool) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = FORMATS
        .iter()
        .filter(move |info| {
            if writable {
                info.writable
            } else {
                info.readable
            }
        })
        .map(|info| PossibleValue::new(info.name).aliases(info.aliases.iter().copied()));
    PossibleValuesParser::new(values).map(|name| {
        // Only the table's names and aliases get here.
        name.parse::<Format>().unwrap_or(Format::Transcript)
    })
}

/// The format an output file's name says, through a compression's
/// extension (`games.csv` → CSV).
pub fn format_of_output(path: &Path) -> Option<Format> {
    Format::from_path(&inner_name(path))
}

/// How to read inputs: shared by every command that reads games.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SourceArgs {
    /// Read every input as this format instead of guessing.
    #[arg(long, value_name = "FORMAT", value_parser = format_parser(false))]
    pub from: Option<Format>,

    /// Where to look for WTHOR player and tournament files: a folder, or a
    /// .JOU/.TRN file and its pair (default: next to each .wtb file).
    #[arg(long, value_name = "DIR|FILE")]
    pub names: Option<PathBuf>,

    /// CSV: the column that holds the moves (default: chosen by name).
    #[arg(long, value_name = "NAME")]
    pub moves_column: Option<String>,

    /// CSV: the field delimiter, one character such as `;` or `tab`
    /// (default: sniffed among `,` `;` and tab).
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
}

impl SourceArgs {
    /// The library's inputs read this way (the files and filters not set).
    pub fn inputs(&self) -> kifu::jobs::Inputs {
        kifu::jobs::Inputs {
            from: self.from,
            read: self.read_options(),
            names: self.names.clone(),
            ..kifu::jobs::Inputs::default()
        }
    }

    /// What the readers are told.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            moves_column: self.moves_column.clone(),
            delimiter: self.delimiter,
        }
    }
}

/// `,`, `;`, `tab` (or a tab), `|`: one ASCII character.
fn parse_delimiter(text: &str) -> Result<u8, String> {
    match text {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        _ => match text.as_bytes() {
            [b] if b.is_ascii() && !b.is_ascii_alphanumeric() && *b != b'"' => Ok(*b),
            _ => Err(format!(
                "{text:?} is not a delimiter: give one character such as , ; | or tab"
            )),
        },
    }
}

/// Which games to take (SPEC section 7): a game must match every filter
/// given.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Filters")]
pub struct FilterArgs {
    /// Games where Black's or White's name contains TEXT (ignoring case).
    #[arg(long, value_name = "TEXT")]
    pub player: Option<String>,

    /// Games where Black's name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub black: Option<String>,

    /// Games where White's name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub white: Option<String>,

    /// Games whose event contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,

    /// Games of year A, or of A to B (`--year 1990..1999`); games without a
    /// year never match.
    #[arg(long, value_name = "A[..B]")]
    pub year: Option<String>,

    /// Games of these statuses: complete, incomplete, invalid (comma
    /// separated).
    #[arg(long, value_name = "S[,S]")]
    pub status: Option<String>,

    /// Games won by black or white, or drawn.
    #[arg(long, value_name = "WHO")]
    pub winner: Option<String>,

    /// Games whose opening name contains TEXT (`kifu openings` lists them).
    #[arg(long, value_name = "TEXT")]
    pub opening: Option<String>,

    /// Games that reach this position, under any of the 8 symmetries and
    /// any move order: moves from the start (`f5d6c3`) or a board of 64
    /// squares X, O, - and the side to move.
    #[arg(long, value_name = "MOVES|BOARD", allow_hyphen_values = true)]
    pub position: Option<String>,

    /// Leave out every game whose moves, under one of the 8 symmetries,
    /// are those of a game of these files (a split without leakage: give
    /// the inputs first, or --exclude once per file).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub exclude: Vec<String>,
}

impl FilterArgs {
    /// Whether no filter is given.
    pub fn is_empty(&self) -> bool {
        self.given().next().is_none() && self.exclude.is_empty()
    }

    /// The filter, every flag checked: a malformed one is a usage error
    /// naming it; the files of `--exclude` read with `source`.
    pub fn filter(&self, source: &SourceArgs) -> Result<Filter> {
        let mut b = Filter::builder();
        for (name, text) in self.given() {
            b = b.set(name, text)?;
        }
        if !self.exclude.is_empty() {
            b = b.exclude(excluded(&self.exclude, source)?);
        }
        Ok(b.build())
    }

    /// The filters given, by name ([`FILTER_NAMES`]'s order).
    fn given(&self) -> impl Iterator<Item = (&'static str, &str)> {
        let values = [
            &self.player,
            &self.black,
            &self.white,
            &self.event,
            &self.opening,
            &self.year,
            &self.status,
            &self.winner,
            &self.position,
        ];
        FILTER_NAMES
            .into_iter()
            .zip(values)
            .filter_map(|(name, value)| Some((name, value.as_deref()?)))
    }
}

/// The inputs of a batch command and how to run through them.
#[derive(clap::Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files (`-` or none: standard input).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    #[command(flatten)]
    pub source: SourceArgs,

    /// Worker threads (default: one per core).
    #[arg(
        long,
        short = 'j',
        alias = "threads",
        value_name = "N",
        default_value_t = 0
    )]
    pub jobs: usize,

    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Take only shard K of N of the input games (1 <= K <= N): game i,
    /// counted from 0 over every input in order, filtered out or not, is
    /// shard i % N + 1's. N runs, K = 1..N, take every game once, each in
    /// input order. Not with --unique (which game of a repeated pair comes
    /// first is in another shard).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Part>,

    #[command(flatten)]
    pub filter: FilterArgs,
}

/// `--shard K/N`.
fn parse_shard(text: &str) -> Result<Part, String> {
    text.parse::<Part>().map_err(|e| e.to_string())
}

impl InputArgs {
    /// The files to read: those given, or standard input.
    pub fn files(&self) -> Vec<String> {
        if self.files.is_empty() {
            vec!["-".to_owned()]
        } else {
            self.files.clone()
        }
    }

    /// What each replay finds and which games are kept (`openings`: name
    /// every game's opening).
    pub fn selection(&self, openings: bool) -> Result<Selection> {
        Ok(Selection::new(self.filter.filter(&self.source)?, openings))
    }

    /// The batch pipeline's settings.
    pub fn options(&self) -> kifu::batch::Options {
        kifu::batch::Options {
            jobs: self.jobs,
            ..kifu::batch::Options::default()
        }
    }

    /// The games to take (`--shard`).
    pub fn part(&self) -> Part {
        self.shard.unwrap_or_default()
    }
}

/// An opened input and its format (the library's, see [`kifu::io::input`]).
pub use kifu::io::input::Input;

/// Opens `name` (`-` is standard input), decodes it if it is compressed
/// (by its extension or its magic bytes; in a thread of its own), and
/// settles its format: `--from` if given, else the extension (of the name
/// without the compression's), else the content.
pub fn open_input(name: &str, from: Option<Format>) -> Result<Input> {
    if name == "-" && io::stdin().is_terminal() {
        eprintln!(
            "kifu: reading games from standard input: type or paste them, then Ctrl-D \
             (or give a file; --help tells more)"
        );
    }
    Ok(kifu::io::input::open(name, from)?)
}

/// The games of an opened input, read as `source` says; what is odd about
/// a WTHOR file's names goes to `notes`, as lines for standard error.
pub fn games(input: Input, source: &SourceArgs, notes: &mut Vec<String>) -> Box<dyn GameReader> {
    let mut found = Vec::new();
    let games = input.games(source.names.as_deref(), &source.read_options(), &mut found);
    notes.extend(found.into_iter().map(|n| format!("kifu: {n}")));
    games
}

/// The games of the `--exclude` files, read in parallel (the library's
/// [`kifu::jobs::excluded`]): any failure to open or read one is a usage
/// error naming it.
fn excluded(files: &[String], source: &SourceArgs) -> Result<Excluded> {
    kifu::jobs::excluded(&source.inputs(), files).context("--exclude")
}

/// A weights file as `kifu train-eval` writes it, and its bytes (for a
/// digest). Searchers borrow weights for as long as the program runs, so
/// they are kept for that long.
pub fn read_weights(path: &Path) -> Result<(&'static kifu::eval::Weights, Vec<u8>)> {
    let (weights, data) = kifu::eval::Weights::read_file(path)?;
    Ok((Box::leak(Box::new(weights)), data))
}

/// The weights a midgame search estimates by: those in `path` if given
/// ([`read_weights`]), else the built-in ones.
pub fn weights_or_builtin(path: Option<&Path>) -> Result<Option<&'static kifu::eval::Weights>> {
    Ok(match path {
        Some(path) => Some(read_weights(path)?.0),
        None => kifu::eval::Weights::builtin(),
    })
}
