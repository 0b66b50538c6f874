//! `kifu show`'s arguments, and the one game it shows read from a file or
//! the command line.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use kifu::formats::transcript::{parse_line, LineContext};
use kifu::{GameRecord, Token};

use crate::cli::io::{open_input, FilterArgs, SourceArgs};
use crate::cli::status::ColorWhen;

/// Show the board of a game, its disc counts and result.
///
/// The board after the last move, an earlier one (--ply) or every position
/// in turn (--each), with the side to move, its legal moves marked, the
/// last move set off, disc counts and the result once the game is over.
///
/// GAME is a file (`-` or nothing for standard input; `--game N` picks a
/// game) or a transcript typed on the command line. The players, event,
/// date and recorded result come first when the record has them.
///
/// With --html OUT.html, every game of the files given (the filters choose
/// among them) goes into one web page to step through: a list of the
/// games with a search box, the board, the moves, a graph of the disc
/// difference; --analyze N adds each position's exact value from N empty
/// squares on and each move's loss, mistakes marked, and before that a
/// --depth D search's estimates (dashed on the graph, marked `~`). The
/// page needs nothing else: send it, open it offline, embed it in another
/// page.
///
/// Examples:
///   kifu show f5d6c3d3c4
///   kifu show f5 d6 c3 --ascii
///   kifu show games.txt --game 3 --ply 20
///   kifu show fixtures/transcripts/oracles.txt --each --ascii
///   kifu show WTH_2024.wtb --event "World" --html worlds-2024.html
///   kifu show games.pgn --html games.html --analyze 20
///   kifu show game.ggf --analyze 20 --depth 8 --each
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// A file, `-` (or nothing: standard input), or the moves of a game
    /// (`f5d6c3`, `f5 d6 c3`).
    #[arg(value_name = "GAME", num_args = 0..)]
    pub(super) game: Vec<String>,

    /// Which game of the file to show (1-based).
    #[arg(long = "game", value_name = "N", default_value_t = 1)]
    pub(super) game_number: u64,

    /// Show the position after the first N moves of the record (0: the
    /// start; explicit passes count as moves).
    #[arg(long, value_name = "N", conflicts_with = "each")]
    pub(super) ply: Option<usize>,

    /// Show every position from the start to the end.
    #[arg(long)]
    pub(super) each: bool,

    /// Draw with X, O and - instead of Unicode discs.
    #[arg(long)]
    pub(super) ascii: bool,

    /// Colour the diagram: auto (on a terminal, unless NO_COLOR is set),
    /// always or never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub(super) color: ColorWhen,

    /// Print the score sheet: each square holds the number of the move
    /// that placed its disc.
    #[arg(long, conflicts_with = "each")]
    pub(super) sheet: bool,

    /// Also write a picture of the board (of the sheet with --sheet) as SVG.
    #[arg(long, value_name = "FILE", conflicts_with = "each")]
    pub(super) svg: Option<PathBuf>,

    /// Judge the game: exactly from the first position with at most N
    /// empty squares, and before it by a --depth search. Each move line
    /// then gives the move's value, the best value and the loss (`?` lost
    /// discs, `??` threw away the result; a search's estimates marked `~`,
    /// its losses marked from 4 discs), a position its value (under perfect
    /// play, or the search's estimate), and the whole game's losses close
    /// the output.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=30))]
    pub(super) analyze: Option<u32>,

    /// With --analyze, the moves before the exact part are judged by a
    /// search this many moves deep (estimates, marked `~`); 0 judges the
    /// endgame only.
    #[arg(long, value_name = "D", requires = "analyze",
          default_value_t = kifu::jobs::ANALYSIS_DEPTH,
          value_parser = clap::value_parser!(u32).range(0..=kifu::jobs::MAX_DEPTH as i64))]
    pub(super) depth: u32,

    /// With --each, write one SVG per position into DIR (000.svg is the
    /// start).
    #[arg(long, value_name = "DIR", requires = "each")]
    pub(super) svg_dir: Option<PathBuf>,

    #[command(flatten)]
    pub(super) source: SourceArgs,

    #[command(flatten)]
    pub(super) html: HtmlArgs,
}

/// The game page (`--html`).
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Game page")]
pub(super) struct HtmlArgs {
    /// Write every game (of every FILE given) into one self-contained web
    /// page to step through, instead of printing a diagram.
    #[arg(
        long,
        value_name = "OUT.html",
        conflicts_with_all = ["ply", "each", "sheet", "svg", "svg_dir", "game_number"]
    )]
    pub(super) html: Option<PathBuf>,

    /// The page's title (default: the files' names and the count of games).
    #[arg(long, value_name = "TEXT", requires = "html")]
    pub(super) title: Option<String>,

    /// The solver's table for --analyze with --html, in MiB (the games of
    /// a page are solved in parallel, sharing it).
    #[arg(long, value_name = "MB", default_value_t = kifu::jobs::DEFAULT_HASH_MB, requires = "html")]
    pub(super) hash: usize,

    #[command(flatten)]
    pub(super) filter: FilterArgs,
}

/// Where the game came from, for messages.
pub(super) struct Loaded {
    pub(super) name: String,
    pub(super) record: GameRecord,
}

fn looks_like_path(text: &str) -> bool {
    text.contains('/')
        || text.contains('\\')
        || text
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
}

pub(super) fn load(args: &Args) -> Result<Loaded> {
    let stdin = "-".to_owned();
    let first = args.game.first().unwrap_or(&stdin);
    if args.game.len() <= 1 && (first == "-" || Path::new(first).exists()) {
        let input = open_input(first, args.source.from)?;
        let mut seen = 0;
        let mut notes = Vec::new();
        let games = crate::cli::io::games(input, &args.source, &mut notes);
        for note in notes {
            eprintln!("{note}");
        }
        for item in games {
            let record = item.with_context(|| format!("cannot read {first}"))?;
            seen += 1;
            if seen == args.game_number {
                return Ok(Loaded {
                    name: first.clone(),
                    record,
                });
            }
        }
        bail!(
            "{first} holds {seen} game{}, so there is no game {}",
            if seen == 1 { "" } else { "s" },
            args.game_number
        );
    }
    let text = args.game.join(" ");
    let ctx = LineContext {
        line: 1,
        byte: 0,
        index: 1,
    };
    let record = parse_line(text.as_bytes(), ctx);
    match record {
        Some(record)
            if args.game.len() == 1
                && record.moves.iter().any(|m| m.token == Token::Unreadable)
                && looks_like_path(first) =>
        {
            bail!("cannot read {first}: no such file")
        }
        Some(record) => Ok(Loaded {
            name: "(command line)".to_owned(),
            record,
        }),
        None => bail!("no moves given: GAME is a file or a transcript such as f5d6c3"),
    }
}
