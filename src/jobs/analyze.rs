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
use crate::{GameRecord, Status};

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
    inputs.each(|path, games, found| {
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
