//! `kifu solve`: the exact value of positions, their best moves and a
//! best line, or every move's value.

use std::io::{self, BufWriter, Write};
use std::time::Instant;

use anyhow::Result;
use kifu::formats::obf;
use kifu::solve::{BestMoves, MoveValue, Solution};
use kifu::{Move, Position};
use serde::Serialize;

use super::position_list::{
    best_by_square, count, csv_header, csv_line, finish, gather, json_line, json_moves, names,
    scored, JsonMove, Where,
};
use super::progress::Steps;
use super::solver::SolverArgs;
use super::Outcome;

/// Solve positions exactly: value, best moves and a best line.
///
/// A position is a board and the side to move (64 squares a1…h8 of X, O
/// and -, then X or O: quote it), moves from the start (f5d6c3…), or a
/// file of them, one a line: OBF lines (Edax's problem files), boards or
/// move sequences. The value is the final disc difference for the side to
/// move under perfect play, empty squares to the winner.
///
/// Examples:
///   kifu solve fforum-1-19.obf
///   kifu solve 'XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X'
///   kifu solve problems.obf --all-moves --format obf > solved.obf
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Positions, or files of positions (`-`: standard input).
    #[arg(required = true, value_name = "POSITION|FILE")]
    inputs: Vec<String>,

    /// Every legal move's exact value, best first (ties by square).
    #[arg(long)]
    all_moves: bool,

    /// Find one best move, not every one (proving that a move reaches the
    /// value can take many times the solve itself: a wipe-out with many
    /// ways to it the worst).
    #[arg(long, conflicts_with = "all_moves")]
    one_best: bool,

    /// Output: an aligned table, Edax's OBF lines, CSV or JSON Lines.
    #[arg(long, value_enum, default_value_t = SolveFormat::Table)]
    format: SolveFormat,

    /// Refuse positions with more empty squares than this (a position of
    /// 36 empties can take hours).
    #[arg(long, value_name = "N", default_value_t = 30)]
    max_empties: u32,

    #[command(flatten)]
    engine: SolverArgs,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SolveFormat {
    Table,
    Obf,
    Csv,
    Json,
}

/// The CSV header (SPEC section 9); `--all-moves` adds `moves`.
const HEADER: &str = "source,position,empties,side,value,best_moves,line,nodes,seconds";

/// Refuses a position too deep for `--max-empties` before any search.
fn check_empties(position: &Position, max: u32) -> Result<(), String> {
    let empties = position.board().empty().count();
    if empties > max {
        return Err(format!(
            "{empties} empty squares, more than --max-empties {max}; \
             give --max-empties {empties} to solve it anyway (it may take very long)"
        ));
    }
    Ok(())
}

/// A solution, every move's value when asked, and the nodes of both.
type Solved = (Solution, Option<Vec<MoveValue>>, u64);

/// One solved position, as every format writes it.
#[derive(Serialize)]
struct Row<'a> {
    #[serde(flatten)]
    at: Where<'a>,
    value: i32,
    best_moves: Vec<String>,
    line: Vec<String>,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<JsonMove>>,
}

/// Each move and its value.
fn pairs(moves: &[MoveValue]) -> impl Iterator<Item = (Move, i32)> + '_ {
    moves.iter().map(|m| (m.mv, m.value))
}

pub fn run(args: Args) -> Result<Outcome> {
    let mut bad_lines = 0;
    let max = args.max_empties;
    let items = gather(&args.inputs, |p| check_empties(p, max), &mut bad_lines)?;
    // The table the deepest position can use, `--hash` at most: a fresh
    // table's pages cost the system time to map (256 MB: 0.2–0.6 s here,
    // where one position of 15 empties takes 0.05 s).
    let deepest = items.iter().map(|i| i.position.board().empty().count());
    let engine = SolverArgs {
        hash: kifu::jobs::analysis_hash_mb(args.engine.hash, deepest.max().unwrap_or(0)),
        ..args.engine
    }
    .start()?;
    let solver = &engine.solver;
    let out = io::stdout().lock();
    let mut out = BufWriter::new(out);
    match args.format {
        SolveFormat::Csv => csv_header(&mut out, HEADER, args.all_moves)?,
        SolveFormat::Table => {
            writeln!(
                out,
                "{:<22} {:>7} {:>5}  {:<10} {:>8} {:>8}  line",
                "position", "empties", "value", "best", "nodes", "seconds"
            )?;
        }
        _ => {}
    }
    out.flush()?;
    let mut progress = Steps::new(args.quiet, items.len() as u64, "positions");
    let best = if args.one_best {
        BestMoves::One
    } else {
        BestMoves::Every
    };
    let mut total_nodes = 0;
    let started = Instant::now();
    for item in &items {
        let t = Instant::now();
        let (solution, moves, nodes) = engine.install(|| -> Result<Solved> {
            progress.watch(solver, || {
                if args.all_moves {
                    let all = solver.solve_moves(&item.position)?;
                    // The best moves are those of the best value: only a
                    // line is left to find.
                    let mut solution =
                        solver.solve_with(&item.position, Some(all.value), BestMoves::One)?;
                    solution.best_moves = best_by_square(pairs(&all.moves), all.value);
                    let nodes = all.nodes + solution.nodes;
                    Ok((solution, Some(all.moves), nodes))
                } else {
                    let solution = solver.solve_with(&item.position, None, best)?;
                    let nodes = solution.nodes;
                    Ok((solution, None, nodes))
                }
            })
        })?;
        let seconds = t.elapsed().as_secs_f64();
        total_nodes += nodes;
        let pos = &item.position;
        let row = Row {
            at: Where::of(item),
            value: solution.value,
            best_moves: names(&solution.best_moves),
            line: names(&solution.line),
            nodes,
            seconds,
            moves: moves.as_deref().map(|m| json_moves(pairs(m))),
        };
        match args.format {
            SolveFormat::Table => {
                writeln!(
                    out,
                    "{:<22} {:>7} {:>+5}  {:<10} {:>8} {:>8.3}  {}",
                    item.label,
                    row.at.empties,
                    row.value,
                    row.best_moves.join(" "),
                    count(nodes),
                    seconds,
                    row.line.join(" ")
                )?;
                if let Some(m) = &moves {
                    writeln!(out, "{:<22} moves: {}", "", scored(pairs(m), false))?;
                }
            }
            SolveFormat::Obf => {
                let listed: Vec<(Move, i32)> = match &moves {
                    Some(m) => m.iter().map(|m| (m.mv, m.value)).collect(),
                    None => solution
                        .best_moves
                        .iter()
                        .map(|&m| (m, solution.value))
                        .collect(),
                };
                writeln!(out, "{}", obf::line(pos, &listed))?;
            }
            SolveFormat::Csv => {
                let mut record = row.at.cells();
                record.extend([
                    row.value.to_string(),
                    row.best_moves.join(" "),
                    row.line.join(" "),
                    row.nodes.to_string(),
                    format!("{seconds:.3}"),
                ]);
                if let Some(m) = &moves {
                    record.push(scored(pairs(m), false));
                }
                out.write_all(&csv_line(&record)?)?;
            }
            SolveFormat::Json => json_line(&mut out, &row)?,
        }
        out.flush()?;
        progress.step();
    }
    progress.finish();
    finish(
        items.len(),
        "solved",
        started.elapsed().as_secs_f64(),
        total_nodes,
        bad_lines,
        args.quiet,
    )
}
