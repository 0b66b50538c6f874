//! One game's training rows (SPEC section 8), made the one way that
//! `kifu positions` and `kifu.positions` share: the replay that chooses the
//! game collects its positions, the filters decide, the game's end scores
//! them, and with `--score exact` the solver values each position.

use crate::ml::positions::{Collector, Options, Row};
use crate::record::select::Selection;
use crate::solve::Solver;
use crate::{Bitboard, Board, Color, GameRecord, Position, Report};

/// What became of one game.
pub enum Made<'r> {
    /// The filters left it out.
    Filtered,
    /// Kept by the filters: its replay, and its rows (`None`: a game that
    /// gives none — incomplete or invalid without `all_games`).
    Kept {
        /// The game's replay.
        report: Report,
        /// Its rows, symmetric images after each when asked.
        rows: Option<&'r [Row]>,
    },
}

/// Makes the rows of game after game, reusing its buffers.
pub struct GameRows<'a> {
    selection: &'a Selection,
    options: Options,
    collector: Collector,
    /// With exact scores, the solver that values each position.
    solver: Option<&'a Solver>,
    solved: Vec<Row>,
}

impl<'a> GameRows<'a> {
    /// Rows of the games `selection` keeps, as `options` says; scored by
    /// the game's result, or exactly by `solver` when one is given.
    pub fn new(selection: &'a Selection, options: Options, solver: Option<&'a Solver>) -> Self {
        GameRows {
            selection,
            options,
            collector: Collector::new(options),
            solver,
            solved: Vec::new(),
        }
    }

    /// The rows of `record`.
    pub fn game(&mut self, record: &GameRecord) -> Made<'_> {
        self.collector.clear();
        let (report, found) = self
            .selection
            .replay_with(record, false, &mut self.collector);
        if !self.selection.filter.accepts(record, &report, &found) {
            return Made::Filtered;
        }
        if !self.collector.finish(&report) {
            return Made::Kept { report, rows: None };
        }
        let rows = match self.solver {
            None => self.collector.rows(),
            Some(solver) => {
                exact_scores(
                    solver,
                    self.collector.rows(),
                    self.options.symmetries,
                    &mut self.solved,
                );
                &self.solved
            }
        };
        Made::Kept {
            report,
            rows: Some(rows),
        }
    }
}

/// `rows` with each score the position's exact value; a position's
/// symmetric images (groups of 8 after it when `symmetries`) share its
/// value.
fn exact_scores(solver: &Solver, rows: &[Row], symmetries: bool, out: &mut Vec<Row>) {
    out.clear();
    out.extend_from_slice(rows);
    let step = if symmetries { 8 } else { 1 };
    for group in out.chunks_mut(step) {
        let row = group[0];
        let (black, white) = match row.side {
            Color::Black => (row.player, row.opponent),
            Color::White => (row.opponent, row.player),
        };
        let Some(board) = Board::new(Bitboard(black), Bitboard(white)) else {
            continue;
        };
        let position = Position::new(board, row.side);
        let guess = row.score.map_or(0, i32::from);
        // Never interrupted: the solver here has no interrupt flag.
        let value = solver.value(&position, guess).ok().map(|(v, _)| v as i8);
        for r in group {
            r.score = value;
        }
    }
}
