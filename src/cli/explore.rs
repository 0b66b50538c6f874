//! `kifu explore`: which games reached a position, and what they played
//! next.

use std::io::{self, Write};

use anyhow::{bail, Result};
use kifu::batch::Seen;
use kifu::db::explore::{Explored, Listing, Row};
use kifu::record::select::winner;
use kifu::render::text::{cells, TextStyle};
use kifu::{Move, Position, PositionQuery, Square, Winner};

use super::io::InputArgs;
use super::run::{run_inputs, Out, Replay, Replayed};
use super::shape::Shape;
use super::{report, Outcome};

/// Explore a position: how many games reached it and what was played next.
///
/// A game reaches the position when, after some of its moves, its board
/// is the position or one of its 8 symmetric images with the same side to
/// move, whatever the move order. Each move played next is mapped back
/// into the orientation of the position as given. Rows: the move (or
/// `pass`), games, Black's wins, draws, White's wins, unfinished games
/// and Black's average score in the complete ones. The filters choose the
/// games first.
///
/// Examples:
///   kifu explore WTH_*.wtb --moves f5d6c3d3c4
///   kifu explore games.pgn --board "---------------------------OX------XO--------------------------- X"
///   kifu explore WTH_*.wtb --moves f5d6 --player tastet --format csv
///   kifu explore WTH_*.wtb --moves f5f6e6f4 --games 10
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The position, as moves from the start (default: the start).
    #[arg(long, value_name = "MOVES", conflicts_with = "board")]
    moves: Option<String>,

    /// The position, as 64 squares X, O, - and the side to move.
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    board: Option<String>,

    /// An aligned table with a diagram, CSV, or JSON.
    #[arg(long, value_enum, default_value_t = Shape::Table)]
    format: Shape,

    /// Also list up to N games that reached the position.
    #[arg(long, value_name = "N", default_value_t = 0)]
    games: usize,

    /// Count each game once: leave out games whose moves repeat an
    /// earlier game's, turned or mirrored or not.
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    #[command(flatten)]
    input: InputArgs,
}

/// What one game that reached the position brings.
struct Reached {
    next: Option<Move>,
    winner: Option<Winner>,
    black_score: Option<u8>,
    listing: Option<Listing>,
}

/// The position with its next moves marked by rank: `1` the most played,
/// up to `9`; other legal moves as in `kifu show`.
fn diagram(position: &Position, ranked: &[Row], style: &TextStyle) -> String {
    let grid = cells(position, true);
    let mut out = String::from("  a b c d e f g h\n");
    for (row, line) in grid.iter().enumerate() {
        out.push(char::from(b'1' + row as u8));
        for (column, cell) in line.iter().enumerate() {
            let here = Square::from_coords(column as u8, row as u8);
            let rank = ranked
                .iter()
                .take(9)
                .position(|r| matches!(r.mv, Move::Play(sq) if Some(sq) == here));
            out.push(' ');
            out.push(match rank {
                Some(r) => char::from(b'1' + r as u8),
                None => style.glyph(*cell),
            });
        }
        out.push(' ');
        out.push(char::from(b'1' + row as u8));
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    out
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The CSV header of SPEC section 7, exactly.
const HEADER: &str = "move,games,black_wins,draws,white_wins,unfinished,avg_black_score";

pub fn run(args: Args) -> Result<Outcome> {
    let query =
        match (&args.moves, &args.board) {
            (Some(moves), _) => PositionQuery::from_moves(moves)
                .map_err(|e| anyhow::anyhow!("--moves {moves}: {e}"))?,
            (None, Some(board)) => PositionQuery::from_board(board)
                .map_err(|e| anyhow::anyhow!("--board {board}: {e}"))?,
            (None, None) => PositionQuery::new(Position::start()),
        };
    if args.games > 0 && args.format == Shape::Csv {
        bail!("--games lists games in the table or JSON, not in CSV");
    }
    let target = *query.target();
    let mut selection = args.input.selection(args.games > 0)?;
    selection.explore = Some(query);
    let list = args.games > 0;
    let mut explored = Explored::new(target);
    let job = &mut Replayed {
        options: args.input.options().counting(),
        selection: &selection,
        unique: args.unique.then(Seen::default),
        work: |g: &Replay<'_>| {
            let item = g.found.explored.map(|hit| {
                let record = g.record;
                let winner = winner(record, g.report);
                let score = g.report.final_score().map(|s| s.black_score);
                let listing = list.then(|| Listing {
                    source: g.source.to_owned(),
                    index: record.origin.index,
                    black: record.tags.black.clone(),
                    white: record.tags.white.clone(),
                    year: kifu::record::select::year(record),
                    result: Listing::result_text(
                        g.report.status(),
                        winner,
                        g.report
                            .final_score()
                            .map(|s| (s.black_score, s.white_score)),
                    ),
                    opening: g.found.opening.map(|o| o.name().to_owned()),
                });
                Reached {
                    next: hit.next,
                    winner,
                    black_score: score,
                    listing,
                }
            });
            Out {
                item: Some(item),
                notes: Vec::new(),
            }
        },
        sink: |item: Option<Reached>| {
            let Some(r) = item else { return Ok(()) };
            explored.add(r.next, r.winner, r.black_score);
            if let Some(listing) = r.listing {
                if explored.listed.len() < args.games {
                    explored.listed.push(listing);
                }
            }
            Ok(())
        },
    };
    let totals = run_inputs(&args.input, job)?;
    let ranked = explored.ranked();
    let reached = *explored.reached();
    let mut out = io::stdout().lock();
    match args.format {
        Shape::Csv => {
            writeln!(out, "{HEADER}")?;
            for row in &ranked {
                let r = &row.results;
                writeln!(
                    out,
                    "{},{},{},{},{},{},{}",
                    row.name,
                    r.games,
                    r.black_wins,
                    r.draws,
                    r.white_wins,
                    r.unfinished,
                    row.average().unwrap_or_default()
                )?;
            }
        }
        Shape::Json => {
            serde_json::to_writer(&mut out, &explored)?;
            writeln!(out)?;
        }
        Shape::Table => {
            let style = TextStyle {
                ascii: false,
                legal_moves: true,
                last_move: None,
            };
            out.write_all(diagram(&target, &ranked, &style).as_bytes())?;
            let mover = target.side_to_move();
            writeln!(
                out,
                "{mover} to move; {} reached this position (any symmetry, any move order)",
                report::games(reached.games)
            )?;
            if !ranked.is_empty() {
                writeln!(
                    out,
                    "\n{:<6} {:>7} {:>6}  {:>6} {:>6} {:>6}  {:>10}  {:>15}",
                    "move", "games", "%", "black", "draw", "white", "unfinished", "avg black score"
                )?;
                for row in &ranked {
                    let r = &row.results;
                    let decided = r.games - r.unfinished;
                    writeln!(
                        out,
                        "{:<6} {:>7} {:>6}  {:>6} {:>6} {:>6}  {:>10}  {:>15}",
                        row.name,
                        r.games,
                        percent(r.games, reached.games),
                        percent(r.black_wins, decided),
                        percent(r.draws, decided),
                        percent(r.white_wins, decided),
                        r.unfinished,
                        row.average().unwrap_or_else(|| "-".to_owned())
                    )?;
                }
            }
            if !explored.listed.is_empty() {
                writeln!(out, "\ngames:")?;
                for l in &explored.listed {
                    writeln!(
                        out,
                        "{}#{}  {} - {}  {}  {}  {}",
                        l.source,
                        l.index,
                        l.black.as_deref().unwrap_or("?"),
                        l.white.as_deref().unwrap_or("?"),
                        l.year.map_or_else(|| "-".to_owned(), |y| y.to_string()),
                        l.result,
                        l.opening.as_deref().unwrap_or("-")
                    )?;
                }
            }
        }
    }
    out.flush()?;
    eprintln!("kifu: {}", report::tally_line(&totals));
    Ok(totals.outcome())
}
