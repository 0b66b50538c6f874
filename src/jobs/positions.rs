//! One game's training rows (SPEC section 8), made the one way that
//! `kifu positions` and `kifu.positions` share: the replay that chooses the
//! game collects its positions, the filters decide, the game's end scores
//! them, and with `--score exact` the solver values each position.

use crate::ml::positions::{Collector, Options, Row};
use crate::record::analysis::value_from;
use crate::record::select::Selection;
use crate::solve::Solver;
use crate::{Bitboard, Board, Color, GameRecord, Position, Report, Square};

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
/// value. The positions are solved from the game's last to its first, as
/// `analyze` solves them: a position one move before the one solved just
/// before it is worth at least that move, and is searched from that
/// floor (one null-window search when the move was a best one).
fn exact_scores(solver: &Solver, rows: &[Row], symmetries: bool, out: &mut Vec<Row>) {
    out.clear();
    out.extend_from_slice(rows);
    let step = if symmetries { 8 } else { 1 };
    // The position solved last, and its value.
    let mut later: Option<(Position, i32)> = None;
    for start in (0..out.len()).step_by(step).rev() {
        let group = &mut out[start..(start + step).min(rows.len())];
        let row = group[0];
        let Some(position) = row_position(&row) else {
            later = None;
            continue;
        };
        // Never interrupted: the solver here has no interrupt flag.
        let value = match later.and_then(|(next, v)| floor_from(position, row.square, next, v)) {
            Some(floor) => solver.value_at_least(&position, floor).ok().map(|(v, _)| v),
            None => {
                let guess = row.score.map_or(0, i32::from);
                solver.value(&position, guess).ok().map(|(v, _)| v)
            }
        };
        later = value.map(|v| (position, v));
        for r in group {
            r.score = value.map(|v| v as i8);
        }
    }
}

/// The position of `row`; `None` for discs on both sides of a square.
fn row_position(row: &Row) -> Option<Position> {
    let (black, white) = match row.side {
        Color::Black => (row.player, row.opponent),
        Color::White => (row.opponent, row.player),
    };
    let board = Board::new(Bitboard(black), Bitboard(white))?;
    Some(Position::new(board, row.side))
}

/// A least value of `position` from `next`'s value `v`: the value of the
/// move `square` between them, when `next` is the position after that
/// move, or after it and the other side's forced pass; `None` when it is
/// neither.
fn floor_from(position: Position, square: Square, next: Position, v: i32) -> Option<i32> {
    let mut after = position;
    after.play(square).ok()?;
    value_from(after, (next, v)).map(|w| -w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::SolverOptions;
    use crate::testkit::{random_moves, Play, Rng};
    use crate::Move;

    /// Every exact score, solved from the game's end back, is its
    /// position's value solved alone; passes between rows included, and
    /// with each row's 7 images after it.
    #[test]
    fn every_exact_score_is_its_position_solved_alone() {
        let mut rng = Rng::new(808);
        let solver = Solver::new(SolverOptions::with_hash(1 << 20));
        let (mut checked, mut passes) = (0, 0);
        for game in 0..40 {
            let (start, moves) = random_moves(&mut rng, Play::WHOLE);
            let mut position = start;
            let mut rows = Vec::new();
            for (ply, (mv, _)) in moves.into_iter().enumerate() {
                if !position.has_moves() {
                    // A forced pass, left out of the moves.
                    position.pass();
                    passes += 1;
                }
                let Move::Play(square) = mv else {
                    position.pass();
                    passes += 1;
                    continue;
                };
                let (player, opponent) = position.relative();
                let empties = position.board().empty().count() as u8;
                if empties <= 12 {
                    rows.push(Row {
                        player,
                        opponent,
                        square,
                        ply: ply as u8,
                        empties,
                        side: position.side_to_move(),
                        score: None,
                    });
                }
                position.play(square).unwrap();
            }
            let symmetries = game % 2 == 1;
            let rows: Vec<Row> = if symmetries {
                rows.iter().flat_map(|r| [*r; 8]).collect()
            } else {
                rows
            };
            let mut out = Vec::new();
            exact_scores(&solver, &rows, symmetries, &mut out);
            assert_eq!(out.len(), rows.len());
            for (i, row) in out.iter().enumerate() {
                let first = &out[i - i % if symmetries { 8 } else { 1 }];
                let position = row_position(row).unwrap();
                let fresh = Solver::new(SolverOptions::with_hash(1 << 16));
                let value = fresh.value(&position, 0).unwrap().0;
                assert_eq!(row.score, Some(value as i8), "game {game}, row {i}");
                assert_eq!(row.score, first.score);
                checked += 1;
            }
        }
        assert!(
            checked > 300 && passes > 5,
            "{checked} rows, {passes} passes"
        );
    }
}
