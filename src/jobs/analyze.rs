//! The games of some inputs judged (`kifu analyze`, `kifu.analyze`): exactly
//! by the solver at the end, by the midgame search before; the pipeline's
//! workers replay and filter, the kept
//! games are analysed [`BATCH`] at a time in parallel with one solver
//! (whose table consecutive positions share), and each game comes out in
//! input order.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::batch::{self, BatchError, Seen, SliceReport};
use crate::formats::GameReader;
use crate::record::analysis::{analyze_game, GameAnalysis, Judging};
use crate::record::select::{duplicate_key, Selection};
use crate::search::Searcher;
use crate::solve::Solver;
use crate::{GameRecord, Move, Status};

/// Games analysed together: enough to keep every core busy, few enough
/// that output and progress come often.
pub const BATCH: usize = 32;

/// One game and its analysis.
#[derive(Debug)]
pub struct Analyzed {
    /// The input it was read from, as named.
    pub source: Arc<str>,
    /// The game as read.
    pub record: GameRecord,
    /// Its status once replayed.
    pub status: Status,
    /// The analysis; `None` only if the solver was interrupted.
    pub analysis: Option<GameAnalysis>,
}

/// The columns of the per-game table (SPEC section 9; `kifu analyze
/// --format csv`).
pub const GAME_COLUMNS: [&str; 20] = [
    "source",
    "game",
    "black_player",
    "white_player",
    "status",
    "empties",
    "theoretical_black_score",
    "black_score",
    "solved_black_score",
    "black_loss",
    "white_loss",
    "black_mistakes",
    "white_mistakes",
    "first_mistake_move",
    "midgame_depth",
    "black_midgame_loss",
    "white_midgame_loss",
    "black_midgame_mistakes",
    "white_midgame_mistakes",
    "first_midgame_mistake_move",
];

/// The columns of the per-move table (`kifu analyze --moves --format
/// csv`).
pub const MOVE_COLUMNS: [&str; 12] = [
    "source",
    "game",
    "move",
    "color",
    "square",
    "empties",
    "best_value",
    "best_moves",
    "value",
    "loss",
    "exact",
    "depth",
];

/// The columns of either table that hold text (`exact` is `true` or
/// `false`); every other holds a whole number, or nothing.
pub const TEXT_COLUMNS: [&str; 8] = [
    "source",
    "black_player",
    "white_player",
    "status",
    "color",
    "square",
    "best_moves",
    "exact",
];

/// Squares, space separated.
fn squares(moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    names.join(" ")
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

impl Analyzed {
    /// The game's row of the per-game table, [`GAME_COLUMNS`] as text
    /// (an empty field: none).
    #[must_use]
    pub fn game_fields(&self) -> [String; 20] {
        let r = &self.record;
        let a = self.analysis.clone().unwrap_or_default();
        [
            self.source.to_string(),
            r.origin.index.to_string(),
            r.tags.black.clone().unwrap_or_default(),
            r.tags.white.clone().unwrap_or_default(),
            self.status.name().to_owned(),
            opt(a.empties),
            opt(a.theoretical_black_score),
            opt(a.black_score),
            opt(a.solved_black_score),
            a.black_loss.to_string(),
            a.white_loss.to_string(),
            a.black_mistakes.to_string(),
            a.white_mistakes.to_string(),
            opt(a.first_mistake_move),
            opt(a.midgame_depth),
            a.black_midgame_loss.to_string(),
            a.white_midgame_loss.to_string(),
            a.black_midgame_mistakes.to_string(),
            a.white_midgame_mistakes.to_string(),
            opt(a.first_midgame_mistake_move),
        ]
    }

    /// The game's rows of the per-move table, [`MOVE_COLUMNS`] as text.
    #[must_use]
    pub fn move_fields(&self) -> Vec<[String; 12]> {
        let Some(a) = &self.analysis else {
            return Vec::new();
        };
        let index = self.record.origin.index.to_string();
        a.moves
            .iter()
            .map(|m| {
                [
                    self.source.to_string(),
                    index.clone(),
                    (m.index + 1).to_string(),
                    m.color.name().to_owned(),
                    m.mv.to_string(),
                    m.empties.to_string(),
                    m.best_value.to_string(),
                    squares(&m.best_moves),
                    m.value.to_string(),
                    m.loss.to_string(),
                    m.exact.to_string(),
                    m.depth.to_string(),
                ]
            })
            .collect()
    }
}

/// What to analyse and with what.
pub struct Analyzer<'a> {
    selection: &'a Selection,
    solver: &'a Solver,
    searcher: Option<&'a Searcher>,
    judging: Judging,
    seen: Option<Seen>,
    pending: Vec<Analyzed>,
    analysed: AtomicU64,
}

impl<'a> Analyzer<'a> {
    /// Games that `selection` keeps, judged as `judging` says: exactly by
    /// `solver`, by `searcher` before the exact part (none: the endgame
    /// only); `unique`: the first of equal games only.
    pub fn new(
        selection: &'a Selection,
        solver: &'a Solver,
        searcher: Option<&'a Searcher>,
        judging: Judging,
        unique: bool,
    ) -> Analyzer<'a> {
        Analyzer {
            selection,
            solver,
            searcher,
            judging,
            seen: unique.then(Seen::default),
            pending: Vec::new(),
            analysed: AtomicU64::new(0),
        }
    }

    /// Games analysed so far (read while a batch runs, for progress).
    pub fn analysed(&self) -> u64 {
        self.analysed.load(Ordering::Relaxed)
    }

    /// The solver.
    pub fn solver(&self) -> &'a Solver {
        self.solver
    }

    /// One input's games: replayed and filtered on `options`' workers, each
    /// slice's report (games read, kept, duplicates) given to `done`; the
    /// kept games analysed a batch at a time inside `around` (which runs the
    /// work it is given: on a chosen thread pool, under a progress bar),
    /// in parallel on the current rayon pool; each analysed game given to
    /// `each` in input order.
    pub fn input(
        &mut self,
        name: &str,
        games: Box<dyn GameReader>,
        options: &batch::Options,
        around: &mut dyn FnMut(&mut (dyn FnMut() + Send)),
        done: &mut dyn FnMut(&SliceReport),
        each: &mut dyn FnMut(Analyzed) -> io::Result<()>,
    ) -> Result<(), BatchError> {
        let selection = self.selection;
        let unique = self.seen.is_some();
        let source: Arc<str> = name.into();
        batch::run(
            games,
            options,
            |records: Vec<GameRecord>| {
                let mut report = SliceReport::default();
                let mut kept = Vec::new();
                selection.replay_each(records, false, |record: GameRecord, (rep, found)| {
                    report.read += 1;
                    report.quirks.add(&record);
                    report.last_byte = record.origin.byte;
                    if selection.filter.accepts(&record, &rep, &found) {
                        let key = unique.then(|| duplicate_key(&record));
                        kept.push((key, rep.status(), record));
                    }
                });
                (report, kept)
            },
            |(mut report, kept): (SliceReport, Vec<(Option<u128>, Status, GameRecord)>)| {
                for (key, status, record) in kept {
                    if let (Some(seen), Some(key)) = (self.seen.as_mut(), key) {
                        if !seen.first(key) {
                            report.duplicates += 1;
                            continue;
                        }
                    }
                    report.tally.add(status);
                    report.written += 1;
                    self.pending.push(Analyzed {
                        source: source.clone(),
                        record,
                        status,
                        analysis: None,
                    });
                    if self.pending.len() >= BATCH {
                        self.flush(around, each)?;
                    }
                }
                done(&report);
                Ok(())
            },
        )?;
        self.flush(around, each).map_err(BatchError::Sink)
    }

    /// Analyses the games waiting and hands them on in order.
    fn flush(
        &mut self,
        around: &mut dyn FnMut(&mut (dyn FnMut() + Send)),
        each: &mut dyn FnMut(Analyzed) -> io::Result<()>,
    ) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut pending = std::mem::take(&mut self.pending);
        let (solver, searcher, judging) = (self.solver, self.searcher, &self.judging);
        let analysed = &self.analysed;
        around(&mut || {
            pending.par_iter_mut().for_each(|item| {
                item.analysis = analyze_game(solver, searcher, &item.record, judging).ok();
                analysed.fetch_add(1, Ordering::Relaxed);
            });
        });
        pending.into_iter().try_for_each(each)
    }
}

/// Every game of `inputs` that its filters keep, judged as `judging` says
/// (with `searcher` before the exact part), in input order; the notes
/// about the inputs (WTHOR names) go to `notes`. What `kifu.analyze`
/// returns.
pub fn analyze_all(
    inputs: &super::Inputs,
    solver: &Solver,
    searcher: Option<&Searcher>,
    judging: Judging,
    notes: &mut Vec<String>,
) -> Result<Vec<Analyzed>, super::JobError> {
    let selection = inputs.selection(false)?;
    let mut job = Analyzer::new(&selection, solver, searcher, judging, inputs.unique);
    let mut out = Vec::new();
    // Reading is fast beside solving: one worker reads and replays.
    let options = batch::Options {
        jobs: 1,
        ..inputs.options()
    };
    inputs.each(|path, games, found, _| {
        notes.extend(found);
        job.input(
            path,
            games,
            &options,
            &mut |work| work(),
            &mut |_| {},
            &mut |game| {
                out.push(game);
                Ok(())
            },
        )
    })?;
    Ok(out)
}
