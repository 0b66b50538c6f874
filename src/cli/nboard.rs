//! `kifu engine`: the NBoard protocol on standard input and output, so that
//! kifu plays and analyses in the NBoard GUI and in match scripts.
//!
//! Commands (one a line; NTest's `instructions/Protocol.htm` documents
//! them): `nboard N`, `set game GGF`, `set depth N`, `set contempt N`,
//! `move M[/eval[/time]]` (or the bare move, as NBoard 1.1 sends it), `go`
//! (answers `=== MOVE/eval/time`), `hint N` (`search MOVE eval 0 depth`
//! lines, then `status`), `ping N` (`pong N`), `learn` (`learned`),
//! `quit`. `set contempt` is accepted (a number) but kifu scores a proven
//! draw as 0 whatever it is. Commands are answered in order, each search finished before the
//! next line is read, so a `pong` always follows the searches before its
//! `ping`. A line kifu cannot follow gets a line `error …` (NBoard shows
//! any line it does not know, as it shows NTest's `warning …`) and
//! changes nothing.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use kifu::formats::ggf;
use kifu::search::{Estimate, Limits, SearchOptions, Searcher, Selectivity};
use kifu::{Color, GameRecord, Move, Position, Square, Token};

use super::eval::SelectivityArg;
use super::Outcome;

/// Play Othello through the NBoard protocol on standard input and output.
///
/// For the NBoard GUI (add kifu as an engine: `kifu engine`) and match
/// scripts that speak NBoard to engines such as NTest and Edax. kifu
/// searches to the depth NBoard sets (`set depth N`) and solves the end
/// exactly; when the game's clock is known (`set game` with a GGF time
/// tag) it deepens under a time budget for each move instead.
///
/// Example:
///   printf 'nboard 2\nset depth 8\nset game (;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)\ngo\nquit\n' | kifu engine
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The midgame depth until NBoard sets one.
    #[arg(long, short = 'd', value_name = "D", default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,

    /// Estimate by the weights in FILE (as `kifu train-eval` writes them)
    /// instead of the built-in evaluation.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,

    /// Threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    threads: usize,

    /// Each transposition table (the search's and the solver's), in MB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    hash: usize,

    /// No selective cut-offs (ProbCut): each midgame search is the
    /// depth's plain minimax on the evaluation (slower); `--selectivity
    /// off`.
    #[arg(long, conflicts_with = "selectivity")]
    full_width: bool,

    /// Solve exactly from N empty squares (default: the set depth plus
    /// 12, at most 24; under a clock 22 with more than a minute left,
    /// else 18).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=60))]
    exact_from: Option<u32>,

    /// How boldly the search cuts its tree on shallow searches' verdicts
    /// (default: `bold` under a game clock, where each depth it saves is
    /// time for a deeper one, `careful` at a set depth).
    #[arg(long, value_enum, value_name = "HOW")]
    selectivity: Option<SelectivityArg>,
}

/// The empty squares from which a search of `depth` is exact: the end is
/// solved twelve moves deeper than the midgame is searched, up to 24
/// empties (NTest, asked for depth 8, solves win-loss-draw from 17
/// empties and exactly a little later; kifu's solver takes a few
/// milliseconds from 20, less than its depth-8 search there, and the
/// two moves solved instead of searched are measured against NTest in
/// docs/analysis.md).
fn exact_from(depth: u32) -> u32 {
    (depth + 12).min(24)
}

/// Each side's time left, in seconds.
#[derive(Clone, Copy, Debug)]
struct Clock {
    black: f64,
    white: f64,
}

impl Clock {
    fn left(&mut self, color: Color) -> &mut f64 {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// A GGS clock, `[[h:]m:]s[/increment[/extension]]`: its main time in
/// seconds.
fn clock_seconds(text: &str) -> Option<f64> {
    let main = text.split('/').next()?.trim();
    if main.is_empty() {
        return None;
    }
    let mut seconds = 0.0;
    for part in main.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + v;
    }
    Some(seconds)
}

/// The game NBoard set and the moves since.
struct Game {
    position: Position,
    clock: Option<Clock>,
}

struct Engine<W: Write> {
    searcher: Searcher,
    pool: rayon::ThreadPool,
    game: Game,
    depth: u32,
    /// `--exact-from`, if given.
    exact_from: Option<u32>,
    /// The selectivity asked for, else chosen by the clock.
    selectivity: Option<Selectivity>,
    out: W,
}

/// NBoard's move text: `F5`, `PA` for a pass.
fn move_text(mv: Move) -> String {
    match mv {
        Move::Play(square) => square.to_string().to_uppercase(),
        Move::Pass => "PA".to_owned(),
    }
}

/// A principal variation as NBoard reads one: moves joined by `-`.
fn pv_text(line: &[Move]) -> String {
    let words: Vec<String> = line.iter().map(|&m| move_text(m)).collect();
    words.join("-")
}

/// NBoard's depth field: the moves searched, or `100%` for an exact value.
fn depth_text(exact: bool, depth: u32) -> String {
    if exact {
        "100%".to_owned()
    } else {
        depth.to_string()
    }
}

/// Reads a move as NBoard writes it: a square in any case, or `PA` /
/// `pass`.
fn parse_move(text: &str) -> Option<Move> {
    if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    text.parse::<Square>().ok().map(Move::Play)
}

impl<W: Write> Engine<W> {
    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()?;
        Ok(())
    }

    /// Handles one line; `false` once the engine is to quit.
    fn handle(&mut self, line: &str) -> Result<bool> {
        let line = line.trim();
        let (command, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "" => {}
            "nboard" => {
                if rest.parse::<u32>().is_err() {
                    self.send(&format!(
                        "error nboard needs a protocol version, not {rest:?}"
                    ))?;
                }
            }
            "set" => self.set(rest)?,
            "move" => self.play(rest)?,
            "go" => self.go()?,
            "hint" => match rest.parse::<usize>() {
                Ok(n) => self.hint(n.max(1))?,
                Err(_) => {
                    self.send(&format!("error hint needs a number of moves, not {rest:?}"))?
                }
            },
            "ping" => self.send(&format!("pong {rest}"))?,
            "learn" => self.send("learned")?,
            "quit" => return Ok(false),
            _ if rest.is_empty() && parse_move(command).is_some() => self.play(command)?,
            _ => self.send(&format!("error unknown command {command:?}"))?,
        }
        Ok(true)
    }

    fn set(&mut self, rest: &str) -> Result<()> {
        let (name, value) = rest
            .split_once(char::is_whitespace)
            .map_or((rest, ""), |(n, v)| (n, v.trim()));
        match name {
            "game" => match read_game(value) {
                Ok(game) => {
                    self.game = game;
                    // A new game: nothing the tables hold is wrong, but
                    // NBoard's next requests are about this game.
                }
                Err(e) => self.send(&format!("error set game: {e}"))?,
            },
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.depth = d;
                    self.send("set myname kifu")?;
                }
                _ => self.send(&format!("error set depth needs 1 to 60, not {value:?}"))?,
            },
            // Contempt (centidiscs a proven draw is worth) is read and
            // checked; kifu's searches score a draw as 0 whatever it is.
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() => {}
                _ => self.send(&format!("error set contempt needs a number, not {value:?}"))?,
            },
            _ => self.send(&format!("error unknown setting {name:?}"))?,
        }
        Ok(())
    }

    /// `move M/eval/time`: the move played, its time off the mover's clock.
    fn play(&mut self, text: &str) -> Result<()> {
        let mut parts = text.split('/');
        let token = parts.next().unwrap_or_default().trim();
        let _eval = parts.next();
        let time = parts.next().and_then(|t| t.trim().parse::<f64>().ok());
        let Some(mv) = parse_move(token) else {
            return self.send(&format!("error move: {token:?} is not a square or PA"));
        };
        let pos = &mut self.game.position;
        let mover = pos.side_to_move();
        match mv {
            Move::Play(square) => {
                if let Err(e) = pos.play(square) {
                    return self.send(&format!("error move {token}: {e}"));
                }
            }
            Move::Pass => {
                if pos.has_moves() || pos.is_game_over() {
                    return self.send(&format!("error move {token}: the side to move cannot pass"));
                }
                pos.pass();
            }
        }
        if let (Some(clock), Some(t)) = (&mut self.game.clock, time) {
            *clock.left(mover) -= t.max(0.0);
        }
        Ok(())
    }

    /// The empties from which a search at the set depth solves exactly.
    fn set_depth_exact_from(&self) -> u32 {
        self.exact_from.unwrap_or(exact_from(self.depth))
    }

    /// The search's limits for the side to move: its clock's share of the
    /// moves left when the clock is known, else the set depth.
    fn limits(&mut self) -> Limits {
        let pos = self.game.position;
        let empties = pos.board().empty().count();
        match &mut self.game.clock {
            Some(clock) => {
                let left = clock.left(pos.side_to_move()).max(0.0);
                let exact_from = self.exact_from.unwrap_or(if left > 60.0 { 22 } else { 18 });
                // The time goes to the midgame moves: the exact end takes
                // little of it (a few hundredths of a second a move from
                // 18 empties). Each gets an even share of what is left
                // (half a second kept against the protocol's delays) as
                // the time after which no new depth starts; a depth begun
                // before may run on to three shares.
                let midgame_moves = f64::from(empties.saturating_sub(exact_from).div_ceil(2));
                let spare = (left - 0.5).max(0.0);
                let aim = (spare / (midgame_moves + 2.0)).max(0.02);
                let hard = (3.0 * aim).min(spare / 2.0).max(aim);
                let now = Instant::now();
                Limits {
                    depth: 60,
                    exact_from,
                    deadline: Some(now + Duration::from_secs_f64(hard)),
                    soft_deadline: Some(now + Duration::from_secs_f64(aim)),
                }
            }
            None => Limits {
                exact_from: self.set_depth_exact_from(),
                ..Limits::depth(self.depth)
            },
        }
    }

    /// Sets the search's selectivity for the position to search: as asked,
    /// else bold under a clock (depth is what time buys) and careful at a
    /// set depth (the depth is the measure asked for).
    fn choose_selectivity(&mut self) {
        let chosen = self.selectivity.unwrap_or(if self.game.clock.is_some() {
            Selectivity::Bold
        } else {
            Selectivity::Careful
        });
        self.searcher.set_selectivity(chosen);
    }

    fn think(&mut self) -> Result<Estimate> {
        self.choose_selectivity();
        let limits = self.limits();
        let pos = self.game.position;
        let searcher = &self.searcher;
        Ok(self
            .pool
            .install(|| searcher.think(&pos, &limits, |_| {}))?)
    }

    fn go(&mut self) -> Result<()> {
        let pos = self.game.position;
        if pos.is_game_over() {
            return self.send("error go: the game is over");
        }
        if !pos.has_moves() {
            return self.send("=== PA");
        }
        let started = Instant::now();
        let estimate = self.think()?;
        let seconds = started.elapsed().as_secs_f64();
        let Some(&mv) = estimate.best_moves.first() else {
            return self.send("error go: the search found no move");
        };
        self.send(&format!(
            "=== {}/{:.2}/{:.2}",
            move_text(mv),
            f64::from(estimate.score) / 64.0,
            seconds
        ))
    }

    /// `hint N`: the `n` best moves' estimates, best first, then an empty
    /// status.
    fn hint(&mut self, n: usize) -> Result<()> {
        let pos = self.game.position;
        if pos.is_game_over() {
            return self.send("status");
        }
        self.send("status kifu is thinking")?;
        if n == 1 {
            let e = self.think()?;
            if !e.line.is_empty() {
                let line = format!(
                    "search {} {:.2} 0 {}",
                    pv_text(&e.line),
                    f64::from(e.score) / 64.0,
                    depth_text(e.exact, e.depth)
                );
                self.send(&line)?;
            }
        } else {
            let empties = pos.board().empty().count();
            let depth = if empties <= self.set_depth_exact_from() {
                empties
            } else {
                self.depth
            };
            self.choose_selectivity();
            let searcher = &self.searcher;
            let all = self.pool.install(|| searcher.estimate_moves(&pos, depth))?;
            for m in all.moves.iter().take(n) {
                let line = format!(
                    "search {} {:.2} 0 {}",
                    move_text(m.mv),
                    f64::from(m.score) / 64.0,
                    depth_text(all.exact, all.depth.saturating_sub(1))
                );
                self.send(&line)?;
            }
        }
        self.send("status")
    }
}

/// The position at the end of a GGF game and the clock, if the game has
/// one.
fn read_game(text: &str) -> Result<Game, String> {
    let mut reader = ggf::Reader::new(io::Cursor::new(text.as_bytes()));
    let record = match reader.next() {
        Some(Ok(record)) => record,
        Some(Err(e)) => return Err(e.to_string()),
        None => return Err("no GGF game".to_owned()),
    };
    if let Some(board) = &record.other_board {
        return Err(format!(
            "kifu plays 8x8 boards, not {}x{}",
            board.size, board.size
        ));
    }
    if let Some(defect) = &record.defect {
        return Err(defect.message.clone());
    }
    let report = record.replay();
    if let Some(error) = &report.error {
        return Err(error.to_string());
    }
    Ok(Game {
        position: report.finish.position,
        clock: clock(&record, &report),
    })
}

/// Each side's time left: the GGF time tags' main time (`TB`, `TW`, or
/// `TI` for both) less the times its moves took; none for a game without
/// a clock (or one of no time, as `TI[0:00]`).
fn clock(record: &GameRecord, report: &kifu::Report) -> Option<Clock> {
    let tag = |name: &str| {
        record
            .tags
            .extra
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| clock_seconds(v))
            .filter(|&s| s > 0.0)
    };
    let both = tag("TI");
    let mut clock = Clock {
        black: tag("TB").or(both)?,
        white: tag("TW").or(both)?,
    };
    for turn in record.plies(report) {
        if !matches!(turn.token, Token::Move(_)) {
            continue;
        }
        if let Some(t) = record.notes.get(turn.index).and_then(|n| n.time) {
            *clock.left(turn.color) -= t.max(0.0);
        }
    }
    Some(clock)
}

pub fn run(args: Args) -> Result<Outcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("cannot start the search's threads")?;
    let weights = super::io::weights_or_builtin(args.weights.as_deref())?;
    let searcher = Searcher::with_weights(
        SearchOptions::with_hash(args.hash.max(1).saturating_mul(1 << 20)),
        weights,
    );
    super::solver::note_tables(&searcher, args.hash.max(1));
    let selectivity = if args.full_width {
        Some(Selectivity::Off)
    } else {
        args.selectivity.map(Selectivity::from)
    };
    let mut engine = Engine {
        searcher,
        pool,
        game: Game {
            position: Position::start(),
            clock: None,
        },
        depth: args.depth,
        exact_from: args.exact_from,
        selectivity,
        out: io::stdout().lock(),
    };
    let stdin = io::stdin().lock();
    for line in stdin.lines() {
        let line = line.context("cannot read standard input")?;
        if !engine.handle(&line)? {
            break;
        }
    }
    Ok(Outcome::Valid)
}
