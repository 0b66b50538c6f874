//! `kifu eval`: positions judged by a depth-limited midgame search on the
//! evaluation — an estimate and the best move, or every move's estimate;
//! exact (the solver's) when the depth covers every empty square.

use std::io::{self, BufWriter, Write};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use kifu::search::{Estimate, MoveEstimate, SearchOptions, Searcher, Selectivity};
use kifu::Move;
use serde::Serialize;

use super::position_list::{
    best_by_square, count, csv_header, csv_line, finish, gather, json_line, json_moves, names,
    scored, JsonMove, Where,
};
use super::progress::Steps;
use super::Outcome;

/// The depth searched when none is given: about a second a midgame
/// position on 2 cores (0.2 to 1.3 s, 0.6 s on average, measured on
/// positions of a 1977 game with the machine shared).
pub const DEFAULT_DEPTH: u32 = 16;

/// Estimate positions by a midgame search: value and best move.
///
/// A position is a board and the side to move (64 squares a1…h8 of X, O
/// and -, then X or O: quote it), moves from the start (f5d6c3…), or a
/// file of them, one a line: OBF lines, boards or move sequences — as
/// `kifu solve` takes them. The estimate is the final disc difference the
/// search expects for the side to move; tables mark it `~`. When the
/// depth covers every empty square the search is exact (the solver's
/// value, best moves and line) and says so.
///
/// Examples:
///   kifu eval f5d6c3d3c4
///   kifu eval --depth 10 --all-moves 'XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X'
///   kifu eval positions.txt --format csv > estimates.csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Positions, or files of positions (`-`: standard input).
    #[arg(required = true, value_name = "POSITION|FILE")]
    inputs: Vec<String>,

    /// Moves to search ahead (passes not counted); at least the empty
    /// squares gives the exact value.
    #[arg(long, short = 'd', value_name = "D", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(0..=60))]
    depth: u32,

    /// Every legal move's estimate, best first (ties by square).
    #[arg(long)]
    all_moves: bool,

    /// No selective cut-offs (ProbCut): each estimate is the depth's
    /// plain minimax on the evaluation (slower); `--selectivity off`.
    #[arg(long, conflicts_with = "selectivity")]
    full_width: bool,

    /// How boldly the search cuts its tree on shallow searches' verdicts:
    /// `careful` keeps nearly the full-width choices, `bold` searches a
    /// depth several times faster and a little less surely.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = SelectivityArg::Careful)]
    selectivity: SelectivityArg,

    /// Estimate by the weights in FILE (as `kifu train-eval` writes them)
    /// instead of the built-in evaluation.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,

    /// Output: an aligned table, CSV or JSON Lines.
    #[arg(long, value_enum, default_value_t = EvalFormat::Table)]
    format: EvalFormat,

    /// Threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    threads: usize,

    /// Each transposition table (the search's and the solver's), in MB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    hash: usize,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EvalFormat {
    Table,
    Csv,
    Json,
}

/// The CSV header (SPEC section 12); `--all-moves` adds `moves`.
const HEADER: &str = "source,position,empties,side,depth,exact,value,best_moves,nodes,seconds";

/// One estimated position, as every format writes it.
#[derive(Serialize)]
struct Row<'a> {
    #[serde(flatten)]
    at: Where<'a>,
    depth: u32,
    exact: bool,
    value: i32,
    best_moves: Vec<String>,
    line: Vec<String>,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<JsonMove>>,
}

/// Each move and its estimate.
fn pairs(moves: &[MoveEstimate]) -> impl Iterator<Item = (Move, i32)> + '_ {
    moves.iter().map(|m| (m.mv, m.value))
}

/// The position's estimate, and every move's when asked, by one search.
fn judge(
    searcher: &Searcher,
    position: &kifu::Position,
    depth: u32,
    all_moves: bool,
) -> Result<(Estimate, Option<Vec<MoveEstimate>>)> {
    if !all_moves {
        return Ok((searcher.estimate(position, depth)?, None));
    }
    let all = searcher.estimate_moves(position, depth)?;
    // The best moves are those of the best estimate; the line is the
    // best move's search.
    let mut estimate = searcher.estimate(position, depth)?;
    estimate.best_moves = best_by_square(all.moves.iter().map(|m| (m.mv, m.score)), all.score);
    estimate.nodes += all.nodes;
    Ok((estimate, Some(all.moves)))
}

/// `--selectivity`, for `eval` and `engine` ([`Selectivity`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum SelectivityArg {
    /// No cut-off (as `--full-width`).
    Off,
    /// Cut only where the full-width search nearly surely agrees.
    Careful,
    /// Cut on half-depth searches with narrow margins.
    Bold,
}

impl From<SelectivityArg> for Selectivity {
    fn from(arg: SelectivityArg) -> Selectivity {
        match arg {
            SelectivityArg::Off => Selectivity::Off,
            SelectivityArg::Careful => Selectivity::Careful,
            SelectivityArg::Bold => Selectivity::Bold,
        }
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let mut bad_lines = 0;
    let items = gather(&args.inputs, |_| Ok(()), &mut bad_lines)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the search's threads")?;
    let selectivity = if args.full_width {
        Selectivity::Off
    } else {
        args.selectivity.into()
    };
    let weights = super::io::weights_or_builtin(args.weights.as_deref())?;
    let searcher = Searcher::with_weights(
        SearchOptions {
            selectivity,
            ..SearchOptions::with_hash(args.hash.max(1).saturating_mul(1 << 20))
        },
        weights,
    );
    super::solver::note_tables(&searcher, args.hash.max(1));
    if !searcher.has_evaluation() {
        bail!("the built-in evaluation could not be read");
    }
    let mut out = BufWriter::new(io::stdout().lock());
    match args.format {
        EvalFormat::Csv => csv_header(&mut out, HEADER, args.all_moves)?,
        EvalFormat::Table => {
            writeln!(
                out,
                "{:<22} {:>7} {:>5} {:>6}  {:<10} {:>8} {:>8}  line",
                "position", "empties", "depth", "value", "best", "nodes", "seconds"
            )?;
        }
        EvalFormat::Json => {}
    }
    out.flush()?;
    let mut progress = Steps::new(args.quiet, items.len() as u64, "positions");
    let mut total_nodes = 0;
    let started = Instant::now();
    for item in &items {
        let t = Instant::now();
        let (estimate, moves) =
            pool.install(|| judge(&searcher, &item.position, args.depth, args.all_moves))?;
        let seconds = t.elapsed().as_secs_f64();
        total_nodes += estimate.nodes;
        let row = Row {
            at: Where::of(item),
            depth: estimate.depth,
            exact: estimate.exact,
            value: estimate.value,
            best_moves: names(&estimate.best_moves),
            line: names(&estimate.line),
            nodes: estimate.nodes,
            seconds,
            moves: moves.as_deref().map(|m| json_moves(pairs(m))),
        };
        match args.format {
            EvalFormat::Table => {
                let value = format!("{}{:+}", if row.exact { "" } else { "~" }, row.value);
                writeln!(
                    out,
                    "{:<22} {:>7} {:>5} {:>6}  {:<10} {:>8} {:>8.3}  {}",
                    item.label,
                    row.at.empties,
                    row.depth,
                    value,
                    row.best_moves.join(" "),
                    count(row.nodes),
                    seconds,
                    row.line.join(" ")
                )?;
                if let Some(m) = &moves {
                    writeln!(out, "{:<22} moves: {}", "", scored(pairs(m), !row.exact))?;
                }
            }
            EvalFormat::Csv => {
                let mut record = row.at.cells();
                record.extend([
                    row.depth.to_string(),
                    row.exact.to_string(),
                    row.value.to_string(),
                    row.best_moves.join(" "),
                    row.nodes.to_string(),
                    format!("{seconds:.3}"),
                ]);
                if let Some(m) = &moves {
                    record.push(scored(pairs(m), false));
                }
                out.write_all(&csv_line(&record)?)?;
            }
            EvalFormat::Json => json_line(&mut out, &row)?,
        }
        out.flush()?;
        progress.step();
    }
    progress.finish();
    finish(
        items.len(),
        "estimated",
        started.elapsed().as_secs_f64(),
        total_nodes,
        bad_lines,
        args.quiet,
    )
}
