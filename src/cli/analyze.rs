//! `kifu analyze`: which moves of a game gave discs away, by exact
//! solving from the first position with at most N empty squares.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use kifu::batch::{self, BatchError};
use kifu::jobs::analyze::{Analyzed, Analyzer, GAME_COLUMNS, MOVE_COLUMNS};
use kifu::record::analysis::{
    analyze_game, with_best_moves, Judging, MoveAnalysis, MIDGAME_MISTAKE,
};
use kifu::{Move, Status};
use serde::Serialize;

use super::io::InputArgs;
use super::progress::Steps;
use super::run::{games_ahead, run_inputs, Done, Games, Job};
use super::solver::{SolverArgs, SolverPool};
use super::{report, Outcome};

/// Find the moves that lost discs: exact values from N empties to the end.
///
/// For each game, every move played from the first position with at most
/// N empty squares to the end of the record: the position's exact value,
/// its best moves, the played move's value and its loss (discs given away,
/// as a disc difference). One game: its moves, the losing ones marked
/// (`?` lost discs, `??` threw away the result); many: one row a game.
/// Games are solved in parallel on every core.
///
/// Examples:
///   kifu analyze game.ggf
///   kifu analyze WTH_2004.wtb --empties 16 --format csv > 2004-analysis.csv
///   kifu analyze WTH_2004.wtb --player Tastet --moves --format csv
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Analyse from the first position with at most this many empties.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    empties: u32,

    /// Moves before the exact part are judged by a search this many moves
    /// deep: estimates, marked `~` (`exact` false in CSV and JSON); 0 judges
    /// the endgame only.
    #[arg(long, value_name = "D", default_value_t = kifu::jobs::ANALYSIS_DEPTH,
          value_parser = clap::value_parser!(u32).range(0..=kifu::jobs::MAX_DEPTH as i64))]
    depth: u32,

    /// How boldly the midgame search cuts its tree (see `kifu eval`):
    /// `bold` searches a depth several times faster, a little less surely.
    #[arg(long, value_enum, value_name = "HOW",
          default_value_t = super::eval::SelectivityArg::Careful)]
    selectivity: super::eval::SelectivityArg,

    /// The midgame search estimates by the weights in FILE (as `kifu
    /// train-eval` writes them) instead of the built-in evaluation; the
    /// exact part is the same with any weights.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,

    /// One row per analysed move instead of one per game.
    #[arg(long)]
    moves: bool,

    /// Output: an aligned table, CSV or JSON Lines (one object a game,
    /// with its moves).
    #[arg(long, value_enum, default_value_t = AnalyzeFormat::Table)]
    format: AnalyzeFormat,

    /// Leave out games whose moves repeat an earlier game's, turned or
    /// mirrored or not (the first is kept).
    #[arg(long, conflicts_with = "shard")]
    unique: bool,

    /// The solver's transposition table, in MB, at most: from 20 empties
    /// or fewer 16 MB is all it uses, twice that for each empty beyond.
    #[arg(long, value_name = "MB", default_value_t = kifu::jobs::DEFAULT_HASH_MB)]
    hash: usize,

    #[command(flatten)]
    input: InputArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum AnalyzeFormat {
    Table,
    Csv,
    Json,
}

/// The JSON Lines object of a game.
#[derive(Serialize)]
struct GameJson<'a> {
    source: &'a str,
    game: u64,
    black_player: Option<&'a str>,
    white_player: Option<&'a str>,
    status: &'static str,
    empties: Option<u32>,
    theoretical_black_score: Option<u8>,
    black_score: Option<u8>,
    solved_black_score: Option<u8>,
    black_loss: i32,
    white_loss: i32,
    black_mistakes: u32,
    white_mistakes: u32,
    first_mistake_move: Option<usize>,
    midgame_depth: Option<u32>,
    black_midgame_loss: i32,
    white_midgame_loss: i32,
    black_midgame_mistakes: u32,
    white_midgame_mistakes: u32,
    first_midgame_mistake_move: Option<usize>,
    nodes: u64,
    moves: Vec<MoveJson>,
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    number: usize,
    color: &'static str,
    square: String,
    empties: u32,
    best_value: i32,
    best_moves: Vec<String>,
    value: i32,
    loss: i32,
    exact: bool,
    depth: u32,
}

fn squares(moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    names.join(" ")
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// A value with its sign; an estimate with `~` before it.
fn signed(value: i32, exact: bool) -> String {
    if exact {
        format!("{value:+}")
    } else {
        format!("~{value:+}")
    }
}

/// An estimated loss for the table of games: `~` before it, empty when the
/// midgame was not judged.
fn midgame(depth: Option<u32>, loss: i32) -> String {
    depth.map_or_else(String::new, |_| format!("~{loss}"))
}

/// `?` for a move that lost discs, `??` for one that changed the result
/// (a win no longer a win, a draw now a loss); estimates are marked only
/// from a midgame mistake up.
fn mark(m: &MoveAnalysis) -> &'static str {
    if m.loss == 0 || (!m.exact && m.loss < MIDGAME_MISTAKE) {
        ""
    } else if m.best_value.signum() != m.value.signum() {
        "??"
    } else {
        "?"
    }
}

/// Writes the analysed games in the chosen form.
struct Writer<W: Write> {
    out: W,
    format: AnalyzeFormat,
    moves: bool,
    /// The first game of a table, held until a second shows that there are
    /// many (one game alone is shown move by move).
    held: Option<Analyzed>,
    /// Games written.
    written: u64,
}

impl<W: Write> Writer<W> {
    fn header(&mut self) -> io::Result<()> {
        match self.format {
            AnalyzeFormat::Csv if self.moves => writeln!(self.out, "{}", MOVE_COLUMNS.join(",")),
            AnalyzeFormat::Csv => writeln!(self.out, "{}", GAME_COLUMNS.join(",")),
            _ => Ok(()),
        }
    }

    fn game(&mut self, item: Analyzed) -> io::Result<()> {
        match self.format {
            AnalyzeFormat::Csv => self.csv(&item)?,
            AnalyzeFormat::Json => self.json(&item)?,
            AnalyzeFormat::Table if self.moves => self.table_moves(&item)?,
            AnalyzeFormat::Table => {
                if let Some(first) = self.held.take() {
                    self.table_game_header()?;
                    self.table_game(&first)?;
                }
                if self.written == 0 {
                    self.held = Some(item);
                    self.written += 1;
                    return Ok(());
                }
                self.table_game(&item)?;
            }
        }
        self.written += 1;
        self.out.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        if let Some(only) = self.held.take() {
            self.table_moves(&only)?;
        }
        self.out.flush()
    }

    fn csv(&mut self, item: &Analyzed) -> io::Result<()> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        // The rows the library makes, as Python's Parquet parts hold them.
        if self.moves {
            for fields in item.move_fields() {
                w.write_record(&fields)?;
            }
        } else {
            w.write_record(item.game_fields())?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.out.write_all(&bytes)
    }

    fn json(&mut self, item: &Analyzed) -> io::Result<()> {
        let r = &item.record;
        let a = item.analysis.clone().unwrap_or_default();
        let row = GameJson {
            source: &item.source,
            game: r.origin.index,
            black_player: r.tags.black.as_deref(),
            white_player: r.tags.white.as_deref(),
            status: item.status.name(),
            empties: a.empties,
            theoretical_black_score: a.theoretical_black_score,
            black_score: a.black_score,
            solved_black_score: a.solved_black_score,
            black_loss: a.black_loss,
            white_loss: a.white_loss,
            black_mistakes: a.black_mistakes,
            white_mistakes: a.white_mistakes,
            first_mistake_move: a.first_mistake_move,
            midgame_depth: a.midgame_depth,
            black_midgame_loss: a.black_midgame_loss,
            white_midgame_loss: a.white_midgame_loss,
            black_midgame_mistakes: a.black_midgame_mistakes,
            white_midgame_mistakes: a.white_midgame_mistakes,
            first_midgame_mistake_move: a.first_midgame_mistake_move,
            nodes: a.nodes,
            moves: a
                .moves
                .iter()
                .map(|m| MoveJson {
                    number: m.index + 1,
                    color: m.color.name(),
                    square: m.mv.to_string(),
                    empties: m.empties,
                    best_value: m.best_value,
                    best_moves: m.best_moves.iter().map(ToString::to_string).collect(),
                    value: m.value,
                    loss: m.loss,
                    exact: m.exact,
                    depth: m.depth,
                })
                .collect(),
        };
        serde_json::to_writer(&mut self.out, &row)?;
        writeln!(self.out)
    }

    fn table_game_header(&mut self) -> io::Result<()> {
        writeln!(
            self.out,
            "{:>5}  {:<18} {:<18} {:<10} {:>7} {:>6} {:>5} {:>6} {:>6} {:>6} {:>8} {:>5} {:>7} {:>7}",
            "game",
            "black",
            "white",
            "status",
            "empties",
            "theory",
            "score",
            "solved",
            "b.loss",
            "w.loss",
            "mistakes",
            "first",
            "~b.loss",
            "~w.loss"
        )
    }

    fn table_game(&mut self, item: &Analyzed) -> io::Result<()> {
        let r = &item.record;
        let a = item.analysis.clone().unwrap_or_default();
        writeln!(
            self.out,
            "{:>5}  {:<18} {:<18} {:<10} {:>7} {:>6} {:>5} {:>6} {:>6} {:>6} {:>8} {:>5} {:>7} {:>7}",
            r.origin.index,
            cut(r.tags.black.as_deref().unwrap_or("?"), 18),
            cut(r.tags.white.as_deref().unwrap_or("?"), 18),
            item.status.name(),
            opt(a.empties),
            opt(a.theoretical_black_score),
            opt(a.black_score),
            opt(a.solved_black_score),
            a.black_loss,
            a.white_loss,
            format!("{}/{}", a.black_mistakes, a.white_mistakes),
            opt(a.first_mistake_move),
            midgame(a.midgame_depth, a.black_midgame_loss),
            midgame(a.midgame_depth, a.white_midgame_loss)
        )
    }

    fn table_moves(&mut self, item: &Analyzed) -> io::Result<()> {
        let r = &item.record;
        let a = item.analysis.clone().unwrap_or_default();
        let players = match (&r.tags.black, &r.tags.white) {
            (Some(b), Some(w)) => format!("{b} (black) vs {w} (white)"),
            _ => String::new(),
        };
        writeln!(
            self.out,
            "{}, game {}: {players}",
            item.source, r.origin.index
        )?;
        match (a.empties, a.theoretical_black_score) {
            (Some(e), Some(t)) => writeln!(
                self.out,
                "perfect play from {e} empties: black {t}-{}; played: {}",
                64 - t,
                a.black_score.map_or_else(
                    || item.status.name().to_owned(),
                    |b| format!("black {b}-{}", 64 - b)
                )
            )?,
            _ => writeln!(self.out, "the game never reached the analysed depth")?,
        }
        if a.moves.is_empty() {
            return writeln!(self.out);
        }
        writeln!(
            self.out,
            "{:>5}  {:<5}  {:<4} {:>7} {:>6}  {:<12} {:>6} {:>5}",
            "#", "color", "move", "empties", "best", "best moves", "value", "loss"
        )?;
        for m in &a.moves {
            writeln!(
                self.out,
                "{:>5}  {:<5}  {:<4} {:>7} {:>6}  {:<12} {:>6} {:>5} {}",
                m.index + 1,
                m.color.name(),
                m.mv.to_string(),
                m.empties,
                signed(m.best_value, m.exact),
                squares(&m.best_moves),
                signed(m.value, m.exact),
                match (m.loss, m.exact) {
                    (0, _) => String::new(),
                    (loss, true) => loss.to_string(),
                    (loss, false) => format!("~{loss}"),
                },
                mark(m)
            )?;
        }
        if let Some(depth) = a.midgame_depth {
            writeln!(
                self.out,
                "~ estimates by a {depth}-move search: black lost ~{} in {} of {MIDGAME_MISTAKE}+ discs, \
                 white ~{} in {}{}",
                a.black_midgame_loss,
                super::report::counted(u64::from(a.black_midgame_mistakes), "move"),
                a.white_midgame_loss,
                super::report::counted(u64::from(a.white_midgame_mistakes), "move"),
                a.first_midgame_mistake_move
                    .map(|n| format!("; first: move {n}"))
                    .unwrap_or_default()
            )?;
        }
        writeln!(
            self.out,
            "black lost {} in {}, white {} in {}{}",
            a.black_loss,
            super::report::counted(u64::from(a.black_mistakes), "move"),
            a.white_loss,
            super::report::counted(u64::from(a.white_mistakes), "move"),
            a.first_mistake_move
                .map(|n| format!("; first mistake: move {n}"))
                .unwrap_or_default()
        )?;
        if item.status == Status::Invalid {
            writeln!(self.out, "(invalid: analysed up to its first illegal move)")?;
        }
        writeln!(self.out)
    }
}

/// `text` cut to `width` characters.
fn cut(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// The library's job on the command line: its games written as they come,
/// under a progress bar of games and nodes/s.
struct Analyze<'a, W: Write> {
    options: batch::Options,
    job: Analyzer<'a>,
    engine: &'a SolverPool,
    writer: Writer<W>,
    progress: &'a mut Steps,
}

impl<W: Write> Job for Analyze<'_, W> {
    fn input(&mut self, name: &str, games: Games, done: &mut Done<'_>) -> Result<(), BatchError> {
        let (engine, writer) = (self.engine, &mut self.writer);
        let solver = self.job.solver();
        // The bar moves as games are written, and shows the solver's
        // nodes/s while a batch is solved: one of the two at a time.
        let progress = std::cell::RefCell::new(&mut *self.progress);
        self.job.input(
            name,
            games,
            &self.options,
            &mut |work| progress.borrow_mut().watch(solver, || engine.install(work)),
            &mut |report| done(report, &[]),
            &mut |game| {
                writer.game(game)?;
                progress.borrow_mut().step();
                Ok(())
            },
        )
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let selection = args.input.selection(false)?;
    let weights = super::io::weights_or_builtin(args.weights.as_deref())?;
    let engine = SolverArgs {
        threads: args.input.jobs,
        hash: kifu::jobs::analysis_hash_mb(args.hash, args.empties),
    }
    .start()?;
    let out = BufWriter::new(io::stdout().lock());
    let mut writer = Writer {
        out,
        format: args.format,
        moves: args.moves,
        held: None,
        written: 0,
    };
    writer.header()?;
    // The byte bar of the inputs is replaced by one of games and nodes/s.
    let mut inputs = args.input.clone();
    inputs.quiet = true;
    // The games counted ahead when a bar is shown: it then tells the time
    // left (not for standard input, which is read once).
    let ahead = super::progress::wanted(args.input.quiet)
        .then(|| games_ahead(&args.input, &selection))
        .flatten();
    let mut progress = match ahead {
        Some(games) => Steps::new(args.input.quiet, games, "games"),
        None => Steps::unbounded(args.input.quiet, "games"),
    };
    let searcher = (args.depth > 0)
        .then(|| super::solver::searcher_with(args.hash, args.selectivity.into(), weights));
    let judging = Judging {
        empties: args.empties,
        depth: args.depth,
        best_moves: args.moves || args.format == AnalyzeFormat::Json,
    };
    let mut job = Analyze {
        // Reading is fast beside solving: one worker reads and replays.
        options: kifu::batch::Options {
            jobs: 1,
            ..args.input.options()
        },
        job: Analyzer::new(
            &selection,
            &engine.solver,
            searcher.as_ref(),
            judging,
            args.unique,
        ),
        engine: &engine,
        writer,
        progress: &mut progress,
    };
    let totals = run_inputs(&inputs, &mut job)?;
    // A game alone is shown move by move, with each position's best moves.
    if let Some(only) = job.writer.held.as_mut() {
        let (solver, searcher) = (&engine.solver, searcher.as_ref());
        let judging = Judging {
            best_moves: true,
            ..judging
        };
        only.analysis = engine.install(|| match only.analysis.take() {
            // The midgame's estimates name their best moves already: only
            // the exact part is solved again.
            Some(game) => with_best_moves(solver, &only.record, &judging, game).ok(),
            None => analyze_game(solver, searcher, &only.record, &judging).ok(),
        });
    }
    job.writer.finish()?;
    progress.finish();
    if !args.input.quiet {
        eprintln!("{}", report::summary(&totals));
    }
    Ok(totals.outcome())
}
