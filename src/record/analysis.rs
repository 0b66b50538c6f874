//! Analysis of played games: from the first position with at most N empty
//! squares to the end of the record, each position's exact value, its best
//! moves, the played move's value and what it lost; before that, with a
//! midgame [`Searcher`] ([`analyze_game`]), the same as *estimates* of a
//! depth-D search, marked as such ([`MoveAnalysis::exact`] is false) and
//! summed apart from the exact losses.
//!
//! Rides on the replay: the record is replayed once ([`GameRecord::replay`]
//! and [`GameRecord::plies`] give the legal moves and the passes the record
//! left out), the positions from N empties on are collected, and the
//! [`Solver`] values each (consecutive positions share most of their tree,
//! and one solver's table keeps it).
//!
//! ```
//! use kifu::analysis::analyze;
//! use kifu::formats::Format;
//! use kifu::solve::{Solver, SolverOptions};
//! // A complete game of 60 moves, analysed over its last 10.
//! let moves = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8\
//!              f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1";
//! let record = Format::Transcript.reader(moves.as_bytes()).next().unwrap()?;
//! let solver = Solver::new(SolverOptions::default());
//! let game = analyze(&solver, &record, 10)?;
//! assert_eq!(game.empties, Some(10));
//! let black = game.black_score.unwrap() as i32;
//! let theoretical = game.theoretical_black_score.unwrap() as i32;
//! assert_eq!(2 * (black - theoretical), game.white_loss - game.black_loss);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::record::{Report, Token};
use crate::search::{Estimate, Searcher};
use crate::solve::{Interrupted, Solver};
use crate::{Color, GameRecord, Move, Position, Status};

/// One analysed move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveAnalysis {
    /// 0-based index of the move token in the record (explicit passes
    /// count, as for `error_move`).
    pub index: usize,
    /// The side that played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// Empty squares before it.
    pub empties: u32,
    /// The position's value before the move, from the mover's side.
    pub best_value: i32,
    /// Every move reaching `best_value`, by square (empty when not asked
    /// for, [`analyze_with`]).
    pub best_moves: Vec<Move>,
    /// The played move's value, from the mover's side.
    pub value: i32,
    /// `best_value − value`: what the move gave away (0 for a best move).
    pub loss: i32,
    /// Whether the values are exact (proven by the solver); otherwise they
    /// are a depth-[`MoveAnalysis::depth`] search's estimates.
    pub exact: bool,
    /// The search's depth: the empty squares for an exact value.
    pub depth: u32,
}

/// One analysed game (the per-game row of `kifu analyze`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GameAnalysis {
    /// Complete, incomplete or invalid (analysed up to its first bad move).
    pub status: Option<Status>,
    /// Empty squares of the first analysed position; `None` when the game
    /// ended with more than N.
    pub empties: Option<u32>,
    /// Black's discs under perfect play from the first analysed position,
    /// empties to the winner; the final score when the game ended with
    /// more than N empties.
    pub theoretical_black_score: Option<u8>,
    /// Black's discs at the end, empties to the winner (complete games).
    pub black_score: Option<u8>,
    /// Black's discs under perfect play from the record's last position
    /// (with at most N empties).
    pub solved_black_score: Option<u8>,
    /// The analysed moves, in order.
    pub moves: Vec<MoveAnalysis>,
    /// The sum of Black's move losses.
    pub black_loss: i32,
    /// The sum of White's move losses.
    pub white_loss: i32,
    /// Black's moves that lost discs.
    pub black_mistakes: u32,
    /// White's moves that lost discs.
    pub white_mistakes: u32,
    /// 1-based number of the first losing move token.
    pub first_mistake_move: Option<usize>,
    /// The midgame search's depth; `None` when only the endgame was
    /// analysed.
    pub midgame_depth: Option<u32>,
    /// The sum of Black's estimated losses before the exact part.
    pub black_midgame_loss: i32,
    /// The sum of White's estimated losses before the exact part.
    pub white_midgame_loss: i32,
    /// Black's estimated moves that lost [`MIDGAME_MISTAKE`] discs or more.
    pub black_midgame_mistakes: u32,
    /// White's estimated moves that lost [`MIDGAME_MISTAKE`] discs or more.
    pub white_midgame_mistakes: u32,
    /// 1-based number of the first estimated move that lost
    /// [`MIDGAME_MISTAKE`] discs or more.
    pub first_midgame_mistake_move: Option<usize>,
    /// Positions the solver (and the midgame search) searched.
    pub nodes: u64,
}

/// An estimated loss that counts as a midgame mistake, in discs: smaller
/// ones are within what a search's estimate of two positions can differ
/// by without either move being worse.
pub const MIDGAME_MISTAKE: i32 = 4;

/// How a game is judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Judging {
    /// Exact values from the first position with at most this many empty
    /// squares.
    pub empties: u32,
    /// Estimates by a search this many moves deep before it; 0 for the
    /// endgame only.
    pub depth: u32,
    /// Every exact position's best moves (not only its value).
    pub best_moves: bool,
}

/// Black's discs for a value from `side`'s view.
fn black_discs(value: i32, side: Color) -> u8 {
    let black = if side == Color::Black { value } else { -value };
    // A value is even, within −64..64.
    ((64 + black) / 2).clamp(0, 64) as u8
}

/// `position` with the other side to move.
fn passed(mut position: Position) -> Position {
    position.pass();
    position
}

/// A position of the game from which a move token was played.
struct Step {
    index: usize,
    color: Color,
    mv: Move,
    before: Position,
    after: Position,
}

/// A record's turns played out: the steps from its start to its end or
/// its first move that cannot be played, the position it ended at, and
/// the position before a turn that could not be played (`stopped`).
struct Walk {
    steps: Vec<Step>,
    end: Position,
    stopped: Option<Position>,
}

/// The one walk over `record`'s turns ([`GameRecord::plies`]: the passes
/// the record left out played where they fall) that both analyses take.
fn walk(record: &GameRecord, report: &Report) -> Walk {
    let mut pos = record.start;
    let mut steps = Vec::new();
    let mut stopped = None;
    for turn in record.plies(report) {
        if !turn.legal {
            break;
        }
        if turn.pass_before {
            pos.pass();
        }
        let before = pos;
        let mv = match turn.token {
            Token::Move(Move::Play(square)) => {
                if pos.play(square).is_err() {
                    stopped = Some(before);
                    break;
                }
                Move::Play(square)
            }
            Token::Move(Move::Pass) => {
                pos.pass();
                Move::Pass
            }
            Token::Unreadable => {
                stopped = Some(before);
                break;
            }
        };
        steps.push(Step {
            index: turn.index,
            color: turn.color,
            mv,
            before,
            after: pos,
        });
    }
    Walk {
        steps,
        end: pos,
        stopped,
    }
}

/// Analyses `record` from its first position with at most `empties` empty
/// squares to its end (or its first illegal move).
///
/// # Errors
///
/// [`Interrupted`] when the solver's interrupt flag was set.
pub fn analyze(
    solver: &Solver,
    record: &GameRecord,
    empties: u32,
) -> Result<GameAnalysis, Interrupted> {
    analyze_with(solver, record, empties, true)
}

/// [`analyze`], with each position's best moves only when `best_moves`
/// (without them each move's value and loss come at a fraction of the
/// cost, and every [`MoveAnalysis::best_moves`] is empty).
///
/// # Errors
///
/// [`Interrupted`] when the solver's interrupt flag was set.
pub fn analyze_with(
    solver: &Solver,
    record: &GameRecord,
    empties: u32,
    best_moves: bool,
) -> Result<GameAnalysis, Interrupted> {
    let judging = Judging {
        empties,
        depth: 0,
        best_moves,
    };
    analyze_game(solver, None, record, &judging)
}

/// The whole game judged: exactly by `solver` from `judging.empties` empty
/// squares, and before that by `searcher`'s depth-`judging.depth` search
/// (when given and the depth is not 0): each position's estimate and best
/// move, the played move's estimate (the position after it searched one
/// move less deep, so that the two agree where the move is the best) and
/// its estimated loss.
///
/// # Errors
///
/// [`Interrupted`] when the solver's or the searcher's interrupt flag was
/// set.
pub fn analyze_game(
    solver: &Solver,
    searcher: Option<&Searcher>,
    record: &GameRecord,
    judging: &Judging,
) -> Result<GameAnalysis, Interrupted> {
    let midgame = searcher.filter(|_| judging.depth > 0);
    let report = record.replay();
    let mut game = GameAnalysis {
        status: Some(report.status()),
        black_score: report.final_score().map(|s| s.black_score),
        ..GameAnalysis::default()
    };
    // The positions from `empties` on, and the last legal one.
    let walked = walk(record, &report);
    let empties = judging.empties;
    let start = record.start;
    let mut first: Option<Position> = (start.board().empty().count() <= empties).then_some(start);
    let mut steps = Vec::new();
    let mut early = Vec::new();
    for step in walked.steps {
        if first.is_none() && step.before.board().empty().count() <= empties {
            first = Some(step.before);
        }
        if first.is_some() {
            steps.push(step);
        } else if midgame.is_some() {
            early.push(step);
        }
    }
    if first.is_none() {
        first = walked
            .stopped
            .filter(|p| p.board().empty().count() <= empties);
    }
    let ending = Ending {
        first,
        steps: &steps,
        end: walked.end,
        best_moves: judging.best_moves,
    };
    // The midgame's estimates and the exact part side by side: the one
    // ends while the other's last positions are still searched.
    let (judged, solved) = match midgame {
        Some(searcher) => {
            let (judged, solved) = rayon::join(
                || {
                    let mut judged = GameAnalysis::default();
                    judge_all(searcher, judging.depth, &early, &mut judged).map(|()| judged)
                },
                || solve_end(solver, &ending),
            );
            (Some(judged?), solved?)
        }
        None => (None, solve_end(solver, &ending)?),
    };
    let Some(mut solved) = solved else {
        // Never as few as `empties` empty squares: the real result stands.
        game.theoretical_black_score = game.black_score;
        if let Some(judged) = judged {
            game = with_midgame(game, judged, judging.depth);
        }
        return Ok(game);
    };
    solved.status = game.status;
    solved.black_score = game.black_score;
    Ok(match judged {
        Some(judged) => with_midgame(solved, judged, judging.depth),
        None => solved,
    })
}

/// `game` with the estimated moves and sums of `judged` (by a
/// depth-`depth` search) before its exact moves.
fn with_midgame(game: GameAnalysis, judged: GameAnalysis, depth: u32) -> GameAnalysis {
    let mut moves = judged.moves;
    moves.extend(game.moves);
    GameAnalysis {
        moves,
        midgame_depth: Some(depth),
        black_midgame_loss: judged.black_midgame_loss,
        white_midgame_loss: judged.white_midgame_loss,
        black_midgame_mistakes: judged.black_midgame_mistakes,
        white_midgame_mistakes: judged.white_midgame_mistakes,
        first_midgame_mistake_move: judged.first_midgame_mistake_move,
        nodes: game.nodes + judged.nodes,
        ..game
    }
}

/// The exact part of a game: its first position with at most N empty
/// squares, the steps from there, the position it ended at.
struct Ending<'a> {
    first: Option<Position>,
    steps: &'a [Step],
    end: Position,
    best_moves: bool,
}

/// The exact part of [`analyze_game`]: every step of `ending` solved, its
/// fields of [`GameAnalysis`] filled (the others left default); `None`
/// when the game never had as few as N empty squares.
///
/// The positions are solved from the last to the first. A position's
/// value is at least its played move's, which the position after the move
/// (solved just before) gives exactly: each position is searched from
/// that floor, and where the move played was a best one (seven moves in
/// ten in real games) one null-window search proves the value, the
/// moves after it already in the table. Solving from the first position
/// on instead starts from a guess (4 discs off at the median in
/// WTH_1984) and searches lines the game never played: 4.5 % more nodes
/// and 7 % more CPU time on WTH_1984 from 20 empties, the same values.
fn solve_end(solver: &Solver, ending: &Ending) -> Result<Option<GameAnalysis>, Interrupted> {
    let Some(first) = ending.first else {
        return Ok(None);
    };
    let mut game = GameAnalysis {
        empties: Some(first.board().empty().count()),
        ..GameAnalysis::default()
    };
    // The record's last position: the result it would have had.
    let (end_value, n) = solve_fresh(solver, &ending.end)?;
    game.nodes += n;
    game.solved_black_score = Some(black_discs(end_value, ending.end.side_to_move()));
    // The position solved last, and its value.
    let mut later = (ending.end, end_value);
    let mut moves = Vec::with_capacity(ending.steps.len());
    for step in ending.steps.iter().rev() {
        let after_value = match value_from(step.after, later) {
            Some(v) => v,
            None => {
                let (v, n) = solve_fresh(solver, &step.after)?;
                game.nodes += n;
                v
            }
        };
        let value = -after_value;
        // No move is worth more than its position.
        let (best_value, n) = solver.value_at_least(&step.before, value)?;
        game.nodes += n;
        let solution = if ending.best_moves {
            solver.best_moves(&step.before, best_value)?
        } else {
            (Vec::new(), 0)
        };
        game.nodes += solution.1;
        let empties = step.before.board().empty().count();
        moves.push(MoveAnalysis {
            index: step.index,
            color: step.color,
            mv: step.mv,
            empties,
            best_value,
            best_moves: solution.0,
            value,
            loss: best_value - value,
            exact: true,
            depth: empties,
        });
        later = (step.before, best_value);
    }
    let first_value = match value_from(first, later) {
        Some(v) => v,
        None => {
            let (v, n) = solve_fresh(solver, &first)?;
            game.nodes += n;
            v
        }
    };
    game.theoretical_black_score = Some(black_discs(first_value, first.side_to_move()));
    moves.reverse();
    for m in moves.iter().filter(|m| m.loss > 0) {
        match m.color {
            Color::Black => {
                game.black_loss += m.loss;
                game.black_mistakes += 1;
            }
            Color::White => {
                game.white_loss += m.loss;
                game.white_mistakes += 1;
            }
        }
        game.first_mistake_move.get_or_insert(m.index + 1);
    }
    game.moves = moves;
    Ok(Some(game))
}

/// The value of `position` when `later` (a position and its value) is
/// the same position, or the one after its side's forced pass (one a
/// record left out); `None` otherwise.
pub(crate) fn value_from(position: Position, later: (Position, i32)) -> Option<i32> {
    let (q, v) = later;
    if q == position {
        Some(v)
    } else if !position.has_moves() && passed(position) == q {
        Some(-v)
    } else {
        None
    }
}

/// The exact value of `position` with nothing known about it, from the
/// solver's own guess; and the positions searched.
fn solve_fresh(solver: &Solver, position: &Position) -> Result<(i32, u64), Interrupted> {
    solver.value(position, solver.guess(position))
}

/// `game` — `record` judged by [`analyze_game`] as `judging` says — with
/// every exact position's best moves: the exact part solved again (the
/// solver's table still holds most of it), the midgame estimates kept as
/// they are (each already names its best move). What a front-end does
/// when it learns only after judging a game that it will show it move by
/// move, without searching the midgame twice.
///
/// # Errors
///
/// [`Interrupted`] when the solver's interrupt flag was set.
pub fn with_best_moves(
    solver: &Solver,
    record: &GameRecord,
    judging: &Judging,
    game: GameAnalysis,
) -> Result<GameAnalysis, Interrupted> {
    let endgame = Judging {
        depth: 0,
        best_moves: true,
        ..*judging
    };
    let full = analyze_game(solver, None, record, &endgame)?;
    let Some(depth) = game.midgame_depth else {
        return Ok(full);
    };
    // The moves judged before the exact part come before its first move.
    let exact_from = full.moves.first().map_or(usize::MAX, |m| m.index);
    let judged = GameAnalysis {
        moves: game
            .moves
            .into_iter()
            .filter(|m| m.index < exact_from)
            .collect(),
        ..game
    };
    // Both runs' work.
    Ok(with_midgame(full, judged, depth))
}

/// The moves of `record` before its first position with at most
/// `judging.empties` empty squares, judged by `searcher`'s
/// depth-`judging.depth` search as [`analyze_game`] judges them, without
/// solving the endgame after (its exact fields stay empty).
///
/// # Errors
///
/// [`Interrupted`] when the searcher's interrupt flag was set.
pub fn analyze_midgame(
    searcher: &Searcher,
    record: &GameRecord,
    judging: &Judging,
) -> Result<GameAnalysis, Interrupted> {
    let report = record.replay();
    let mut game = GameAnalysis {
        status: Some(report.status()),
        black_score: report.final_score().map(|s| s.black_score),
        midgame_depth: Some(judging.depth),
        ..GameAnalysis::default()
    };
    let steps = walk(record, &report).steps;
    let midgame = steps
        .iter()
        .position(|step| step.before.board().empty().count() <= judging.empties)
        .unwrap_or(steps.len());
    judge_all(searcher, judging.depth, &steps[..midgame], &mut game)?;
    Ok(game)
}

/// The most a run of [`JUDGING_RUN`] moves before the exact part takes
/// for its own transposition table (less when the searcher's is smaller).
const JUDGING_TABLE_BYTES: usize = 8 << 20;

/// Moves judged one after another on one table (each search leaves the
/// next its best moves), the runs in parallel.
const JUDGING_RUN: usize = 8;

/// The moves of `steps`, before the exact part, judged by a depth-`depth`
/// search ([`estimate_step`]), in parallel on the current rayon pool (in
/// order on a pool of one thread), then summed into `game` in order. Each
/// run of [`JUDGING_RUN`] consecutive moves is searched on a cleared table
/// of its own (see [`Searcher::on_own_table`]), so a game's estimates do
/// not depend on the threads or on the games beside it.
fn judge_all(
    searcher: &Searcher,
    depth: u32,
    steps: &[Step],
    game: &mut GameAnalysis,
) -> Result<(), Interrupted> {
    use rayon::prelude::*;
    let bytes = searcher.table_bytes().min(JUDGING_TABLE_BYTES);
    let chunks = steps
        .par_chunks(JUDGING_RUN)
        .map_init(
            || searcher.on_own_table(bytes),
            |own, run| {
                own.clear();
                run.iter()
                    .map(|step| estimate_step(own, depth, step))
                    .collect::<Result<Vec<_>, _>>()
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    let estimates = chunks.into_iter().flatten();
    for (step, (here, after)) in steps.iter().zip(estimates) {
        game.nodes += here.nodes + after.as_ref().map_or(0, |a| a.nodes);
        let (value, exact) = match &after {
            None => (here.value, here.exact),
            Some(after) => (-after.value, here.exact && after.exact),
        };
        let loss = (here.value - value).max(0);
        game.moves.push(MoveAnalysis {
            index: step.index,
            color: step.color,
            mv: step.mv,
            empties: step.before.board().empty().count(),
            best_value: here.value,
            best_moves: here.best_moves,
            value,
            loss,
            exact,
            depth: here.depth,
        });
        let (sum, mistakes) = match step.color {
            Color::Black => (
                &mut game.black_midgame_loss,
                &mut game.black_midgame_mistakes,
            ),
            Color::White => (
                &mut game.white_midgame_loss,
                &mut game.white_midgame_mistakes,
            ),
        };
        *sum += loss;
        if loss >= MIDGAME_MISTAKE {
            *mistakes += 1;
            game.first_midgame_mistake_move
                .get_or_insert(step.index + 1);
        }
    }
    Ok(())
}

/// One move before the exact part, by a depth-`depth` search: the
/// position's estimate and best move; a best move loses nothing (no
/// second search), another is valued by a search of the position after
/// it one move less deep, so that the two agree where the move is best.
fn estimate_step(
    searcher: &Searcher,
    depth: u32,
    step: &Step,
) -> Result<(Estimate, Option<Estimate>), Interrupted> {
    let here = searcher.estimate(&step.before, depth)?;
    let after = if here.best_moves.contains(&step.mv) {
        None
    } else {
        Some(searcher.estimate(&step.after, depth.saturating_sub(1))?)
    };
    Ok((here, after))
}

/// The first position of `record` (as `report`, its replay, played it)
/// with exactly `empties` empty squares, if its legal moves reach one.
#[must_use]
pub fn position_with_empties(
    record: &GameRecord,
    report: &Report,
    empties: u32,
) -> Option<Position> {
    let mut pos = record.start;
    if pos.board().empty().count() == empties {
        return Some(pos);
    }
    for turn in record.plies(report) {
        if !turn.legal {
            return None;
        }
        if turn.pass_before {
            pos.pass();
        }
        match turn.token {
            Token::Move(Move::Play(square)) => pos.play(square).ok()?,
            Token::Move(Move::Pass) => {
                pos.pass();
                continue;
            }
            Token::Unreadable => return None,
        };
        let left = pos.board().empty().count();
        if left == empties {
            return Some(pos);
        }
        if left < empties {
            return None;
        }
    }
    None
}

/// A game's theoretical score at `depth`, as WTHOR stores it: Black's
/// discs under perfect play from its position with `depth` empty squares,
/// empties to the winner. `None` when the game never had `depth` empties
/// (it ended sooner, or broke the rules before).
///
/// # Errors
///
/// [`Interrupted`] when the solver's interrupt flag was set.
pub fn theoretical_black_score(
    solver: &Solver,
    record: &GameRecord,
    report: &Report,
    depth: u32,
) -> Result<Option<u8>, Interrupted> {
    theoretical_black_score_near(solver, record, report, depth, None)
}

/// [`theoretical_black_score`], the solve started from `likely` (Black's
/// discs the score likely is: a stored score being checked) or else from
/// the solver's own estimate; the guess changes only the time. (Not from
/// the game's result: after `depth` empties most games still lose discs,
/// and the result missed the value by 12 discs at the median in WTH_1984.)
///
/// # Errors
///
/// [`Interrupted`] when the solver's interrupt flag was set.
pub fn theoretical_black_score_near(
    solver: &Solver,
    record: &GameRecord,
    report: &Report,
    depth: u32,
    likely: Option<u8>,
) -> Result<Option<u8>, Interrupted> {
    let Some(position) = position_with_empties(record, report, depth) else {
        return Ok(None);
    };
    let guess = match likely {
        Some(black_score) => {
            let black = 2 * i32::from(black_score) - 64;
            if position.side_to_move() == Color::Black {
                black
            } else {
                -black
            }
        }
        None => solver.guess(&position),
    };
    let (value, _) = solver.value(&position, guess)?;
    Ok(Some(black_discs(value, position.side_to_move())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::solve::SolverOptions;

    #[test]
    fn a_theoretical_score_is_the_same_from_any_guess() {
        let moves = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8\
                     f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1";
        let record = Format::Transcript
            .reader(moves.as_bytes())
            .next()
            .unwrap()
            .unwrap();
        let report = record.replay();
        let solver = Solver::new(SolverOptions::with_hash(1 << 20));
        for depth in [10, 14] {
            let estimated = theoretical_black_score(&solver, &record, &report, depth).unwrap();
            assert!(estimated.is_some());
            for likely in [0, 20, 32, 50, 64] {
                let near =
                    theoretical_black_score_near(&solver, &record, &report, depth, Some(likely));
                assert_eq!(near.unwrap(), estimated, "depth {depth}, likely {likely}");
            }
        }
        // A game never as short of squares: no score.
        let short = Format::Transcript
            .reader(&b"f5d6c3"[..])
            .next()
            .unwrap()
            .unwrap();
        let report = short.replay();
        assert_eq!(
            theoretical_black_score(&solver, &short, &report, 20).unwrap(),
            None
        );
    }

    /// The midgame estimates of a game: the same judged alone on one
    /// thread as judged beside other games on two threads, one searcher
    /// (its shared table full of their bounds) for all, ProbCut's
    /// cut-offs included.
    #[test]
    fn a_games_estimates_depend_on_nothing_but_the_game() {
        use crate::search::{SearchOptions, Selectivity};
        use crate::testkit::{random_game, Play, Rng};
        use rayon::prelude::*;
        let mut rng = Rng::new(1977);
        let play = Play {
            stop: 0,
            written_passes: 0,
            odd_start: 0,
        };
        let games: Vec<GameRecord> = (0..12).map(|_| random_game(&mut rng, play)).collect();
        let judging = Judging {
            empties: 14,
            depth: 8,
            best_moves: false,
        };
        let searcher = || {
            Searcher::new(SearchOptions {
                selectivity: Selectivity::Careful,
                ..SearchOptions::with_hash(1 << 20)
            })
        };
        let values = |a: GameAnalysis| {
            a.moves
                .iter()
                .map(|m| (m.best_value, m.value, m.best_moves.clone()))
                .collect::<Vec<_>>()
        };
        let pool = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
        };
        let alone: Vec<_> = pool(1).install(|| {
            games
                .iter()
                .map(|g| values(analyze_midgame(&searcher(), g, &judging).unwrap()))
                .collect()
        });
        let shared = searcher();
        let together: Vec<_> = pool(2).install(|| {
            games
                .par_iter()
                .map(|g| values(analyze_midgame(&shared, g, &judging).unwrap()))
                .collect()
        });
        assert!(alone.iter().all(|moves| moves.len() > 30));
        for (i, (a, t)) in alone.iter().zip(&together).enumerate() {
            assert_eq!(a, t, "game {i}");
        }
    }

    /// Every exact move's values are its two positions solved alone, by
    /// another solver with a table of its own: the positions solved from
    /// the game's end back to its first, each from the floor the move
    /// after it gives, on random games with passes (written or not), odd
    /// starts, records that stop early and records whose last move cannot
    /// be played.
    #[test]
    fn every_exact_move_is_its_two_positions_solved_alone() {
        use crate::record::RecordedMove;
        use crate::solve::SolverOptions;
        use crate::testkit::{random_game, Play, Rng};
        use crate::Square;
        let mut rng = Rng::new(2911);
        let play = Play {
            stop: 1,
            written_passes: 50,
            odd_start: 20,
        };
        let solver = Solver::new(SolverOptions::with_hash(1 << 20));
        let alone = |p: &Position| {
            let fresh = Solver::new(SolverOptions::with_hash(1 << 16));
            fresh.value(p, 0).unwrap().0
        };
        let (mut moves, mut losses, mut passes, mut stopped) = (0, 0, 0, 0);
        for i in 0..64 {
            let mut record = random_game(&mut rng, play);
            if i % 4 == 0 {
                // A square every start has a disc on.
                let taken = Square::from_ascii(b"d4").unwrap();
                record.moves.push(RecordedMove::new(Move::Play(taken)));
            }
            let report = record.replay();
            let game = analyze_with(&solver, &record, 12, false).unwrap();
            let walked = walk(&record, &report);
            stopped += usize::from(report.status() != Status::Complete);
            let steps: Vec<&Step> = walked
                .steps
                .iter()
                .filter(|s| s.before.board().empty().count() <= 12)
                .collect();
            assert_eq!(game.moves.len(), steps.len(), "game {i}");
            let (mut black_loss, mut white_loss) = (0, 0);
            for (j, (m, s)) in game.moves.iter().zip(&steps).enumerate() {
                assert_eq!(m.best_value, alone(&s.before), "game {i}, move {j}");
                assert_eq!(m.value, -alone(&s.after), "game {i}, move {j}");
                assert_eq!(m.loss, m.best_value - m.value);
                match m.color {
                    Color::Black => black_loss += m.loss,
                    Color::White => white_loss += m.loss,
                }
                losses += usize::from(m.loss > 0);
                passes += usize::from(m.mv == Move::Pass);
                if j > 0 {
                    passes += usize::from(steps[j - 1].after != s.before);
                }
            }
            moves += steps.len();
            assert_eq!((game.black_loss, game.white_loss), (black_loss, white_loss));
            let lost = |c: Color| {
                game.moves
                    .iter()
                    .filter(|m| m.color == c && m.loss > 0)
                    .count()
            };
            let mistakes = (game.black_mistakes as usize, game.white_mistakes as usize);
            assert_eq!(mistakes, (lost(Color::Black), lost(Color::White)));
            let first_mistake = game.moves.iter().find(|m| m.loss > 0).map(|m| m.index + 1);
            assert_eq!(game.first_mistake_move, first_mistake, "game {i}");
            if let Some(first) = steps.first() {
                let value = alone(&first.before);
                let black = black_discs(value, first.before.side_to_move());
                assert_eq!(game.theoretical_black_score, Some(black), "game {i}");
                let end = alone(&walked.end);
                let black = black_discs(end, walked.end.side_to_move());
                assert_eq!(game.solved_black_score, Some(black), "game {i}");
            }
        }
        assert!(
            moves > 400 && losses > 50,
            "{moves} moves, {losses} lost discs"
        );
        assert!(
            passes > 5 && stopped >= 12,
            "{passes} passes, {stopped} stopped"
        );
    }
}
