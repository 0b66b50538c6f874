//! Exact endgame solving: a position's value under perfect play, its best
//! moves and a best line, every move's value.
//!
//! A position's *value* is the final disc difference, the side to move's
//! discs minus the other side's, when both play perfectly from it, with
//! the empty squares of a game ending early given to the winner (always
//! even, −64 to 64). A move's value is the value of the position after it
//! from the mover's side; its *loss* is the best move's value minus its
//! own. Every value the solver returns is exact: nothing selective is ever
//! reported.
//!
//! ```
//! use kifu::solve::{Solver, SolverOptions};
//! use kifu::Position;
//! // An FFO-style position with 10 empty squares, Black to move.
//! let pos: Position = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X"
//!     .parse()?;
//! let solver = Solver::new(SolverOptions::default());
//! let solution = solver.solve(&pos)?;
//! assert_eq!(solution.value % 2, 0);
//! assert!(solution.best_moves.iter().all(|m| pos.legal_moves().contains(
//!     match m { kifu::Move::Play(s) => *s, kifu::Move::Pass => unreachable!() })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The search (from the root down): [`root`] (aspiration, best moves, the
//! line) → [`search`] (the windowed search, then null-window searches with
//! the transposition table, stability and table cut-offs and sorted moves;
//! [`order`] sorts) → [`last`] (the last four empty squares) — compiled
//! for the processor's instruction set by [`kernel`].

pub use crate::eval;
mod geometry;
mod kernel;
mod last;
mod nws;
mod order;
mod root;
mod stable;
#[cfg(test)]
mod tests;
mod transposition;
pub(crate) use transposition::largest_table;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::{Move, Position, Square};
use nws::{Search, Stop};
use transposition::Table;

/// From this many empty squares on, a search makes the table's pages
/// present before it starts ([`Table::populate`]): a smaller one touches
/// few of them, and a table left alone stays small.
const POPULATE_FROM: u32 = 14;

/// How much of the machine a [`Solver`] may use.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// The transposition table's size in bytes.
    pub hash_bytes: usize,
    /// Sort moves far from the end by the built-in evaluation (faster;
    /// the values are the same without it).
    pub evaluation: bool,
}

impl Default for SolverOptions {
    /// A 64 MiB table, the evaluation used.
    fn default() -> SolverOptions {
        SolverOptions {
            hash_bytes: 64 << 20,
            evaluation: true,
        }
    }
}

impl SolverOptions {
    /// The default options with a table of `bytes` bytes.
    #[must_use]
    pub fn with_hash(bytes: usize) -> SolverOptions {
        SolverOptions {
            hash_bytes: bytes,
            ..SolverOptions::default()
        }
    }
}

/// A search was stopped by its interrupt flag before it had an answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("the search was interrupted")]
pub struct Interrupted;

/// A position solved: its value, the moves that reach it and a best line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution {
    /// The position's value for the side to move.
    pub value: i32,
    /// Every move reaching the value, by square; `[Pass]` when the side to
    /// move must pass, empty when the game is over.
    pub best_moves: Vec<Move>,
    /// A best line to the end of the game, passes included.
    pub line: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// One legal move and its exact value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value, from the mover's side.
    pub value: i32,
}

/// Every legal move of a position with its value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveValues {
    /// The position's value (the best move's).
    pub value: i32,
    /// Every move, best first, ties by square; `[Pass]` when the side to
    /// move must pass, empty when the game is over.
    pub moves: Vec<MoveValue>,
    /// Positions searched.
    pub nodes: u64,
}

/// Which best moves [`Solver::solve_with`] finds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BestMoves {
    /// Every move reaching the value.
    Every,
    /// The first found (the line's first move).
    One,
}

/// What a search within a window found out about a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value itself (it lies inside the window).
    Exact(i32),
    /// The value is at most this (at most the window's low end).
    AtMost(i32),
    /// The value is at least this (at least the window's high end).
    AtLeast(i32),
}

/// The exact endgame solver, with its transposition table.
///
/// Methods take `&self`: one solver may serve several threads at once,
/// which then share the table.
pub struct Solver {
    table: Table,
    interrupt: Option<Arc<AtomicBool>>,
    live: AtomicU64,
    evaluation: bool,
    #[cfg(target_arch = "x86_64")]
    modern: Option<kernel::Modern>,
}

/// Runs `$body` with `$k` bound to the fastest kernel this processor runs.
macro_rules! with_kernel {
    ($solver:expr, $k:ident => $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            match $solver.modern {
                Some($k) => $body,
                None => {
                    let $k = kernel::Plain;
                    $body
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let $k = kernel::Plain;
            $body
        }
    }};
}

/// Whether the environment variable `KIFU_SOLVER_KERNEL=plain` keeps
/// every search (the solver's, the midgame tree's) to the target's
/// baseline instruction set.
pub(crate) fn baseline_forced() -> bool {
    std::env::var_os("KIFU_SOLVER_KERNEL").is_some_and(|k| k == "plain")
}

/// Whether searches may run in the instructions of the fast kernel
/// (x86-64: POPCNT, LZCNT, BMI1, BMI2, AVX2): the processor has them and
/// [`baseline_forced`] does not say otherwise.
pub(crate) fn modern_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        !baseline_forced() && kernel::Modern::detect().is_some()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The move on a square index from the move generator (always below 64).
fn square(x: u8) -> Move {
    Square::new(x).map_or(Move::Pass, Move::Play)
}

impl Solver {
    /// A solver with a table of the given size.
    ///
    /// The search runs in the fastest instruction set this processor has;
    /// the environment variable `KIFU_SOLVER_KERNEL=plain` keeps it to the
    /// target's baseline (the same values, slower: for tests and for
    /// measuring the difference).
    #[must_use]
    pub fn new(options: SolverOptions) -> Solver {
        Solver {
            table: Table::new(options.hash_bytes),
            interrupt: None,
            live: AtomicU64::new(0),
            evaluation: options.evaluation,
            #[cfg(target_arch = "x86_64")]
            modern: kernel::Modern::detect().filter(|_| !baseline_forced()),
        }
    }

    /// This solver on the target's baseline instruction set, whatever the
    /// processor (the tests hold both kernels to the same values).
    #[cfg(test)]
    fn plain_kernel(mut self) -> Solver {
        #[cfg(target_arch = "x86_64")]
        {
            self.modern = None;
        }
        self
    }

    /// Whether this solver runs the processor-specific kernel.
    #[cfg(test)]
    fn runs_modern_kernel(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.modern.is_some()
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// Stops every search of this solver, returning [`Interrupted`], once
    /// `flag` is set.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// The transposition table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Positions searched by every search of this solver so far, updated
    /// while they run (for a progress display).
    #[must_use]
    pub fn nodes_so_far(&self) -> u64 {
        self.live.load(Ordering::Relaxed)
    }

    /// Runs `job` as one search of the position `p`, `o`: a node counter
    /// and the stop flags. A search of [`POPULATE_FROM`] empties or more
    /// first makes the table's pages present (once a table).
    fn run<T>(
        &self,
        (p, o): (u64, u64),
        job: impl FnOnce(&mut Search<'_>) -> T,
    ) -> Result<(T, u64), Interrupted> {
        if (!(p | o)).count_ones() >= POPULATE_FROM {
            self.table.populate();
        }
        let never = AtomicBool::new(false);
        let flag = self.interrupt.as_deref().unwrap_or(&never);
        let stop = Stop::new(flag);
        let mut s = Search {
            table: &self.table,
            edges: &stable::EDGES,
            nodes: 0,
            stop: &stop,
            live: &self.live,
            flushed: 0,
            eval: if self.evaluation {
                eval::Weights::builtin()
            } else {
                None
            },
            split: rayon::current_num_threads() > 1,
            level: 0,
        };
        self.table.new_date();
        let out = job(&mut s);
        s.flush();
        if stop.stopped() {
            return Err(Interrupted);
        }
        Ok((out, s.nodes))
    }

    /// The value of `position` within the window `alpha < value < beta`:
    /// exact inside it, else a bound. A win-loss-draw answer is the
    /// window `-1, 1`. Any window is taken: `alpha` is clamped to
    /// `-65..=64`, then `beta` to `alpha + 1..=65` (an empty window is the
    /// null window above `alpha`).
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn bound(
        &self,
        position: &Position,
        alpha: i32,
        beta: i32,
    ) -> Result<(Bound, u64), Interrupted> {
        let (p, o) = position.relative();
        // Beta is clamped above the clamped alpha: the window is never
        // empty, and never wider than every value.
        let alpha = alpha.clamp(-65, 64);
        let beta = beta.clamp(alpha + 1, 65);
        let (v, nodes) =
            with_kernel!(self, k => self.run((p, o), |s| nws::pvs(k, s, p, o, alpha, beta)))?;
        let bound = if v <= alpha {
            Bound::AtMost(v)
        } else if v >= beta {
            Bound::AtLeast(v)
        } else {
            Bound::Exact(v)
        };
        Ok((bound, nodes))
    }

    /// The exact value of `position` and the positions searched, without
    /// the best moves; `guess` (a value the position is likely to have)
    /// only changes the time it takes.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn value(&self, position: &Position, guess: i32) -> Result<(i32, u64), Interrupted> {
        let (p, o) = position.relative();
        with_kernel!(self, k => self.run((p, o), |s| root::exact(k, s, p, o, guess)))
    }

    /// The exact value of `position` when it is known to be at least
    /// `floor`, and the positions searched: the value of a move's
    /// position, `floor` the negated value of the position before the
    /// move (no move is worth more than its position). A best move's
    /// value is proved by one null-window search at the floor, and a worse
    /// one's is searched only above it; a `floor` above the value gives
    /// `floor` or less (a bound), never a value above it.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn value_at_least(
        &self,
        position: &Position,
        floor: i32,
    ) -> Result<(i32, u64), Interrupted> {
        let (p, o) = position.relative();
        with_kernel!(self, k => self.run((p, o), |s| root::exact_from_floor(k, s, p, o, floor)))
    }

    /// The value the selective pass finds (a guess), from `guess`.
    #[cfg(test)]
    fn selective_pass(&self, position: &Position, guess: i32) -> Result<(i32, u64), Interrupted> {
        let (p, o) = position.relative();
        with_kernel!(self, k => self.run((p, o), |s| {
            s.level = nws::PASS;
            let v = root::aspiration(k, s, p, o, guess, root::FLOORLESS);
            s.level = 0;
            v
        }))
    }

    /// The solver's own guess of `position`'s value (its evaluation
    /// searched a few moves deep; 0 without one): what it starts from when
    /// not given a guess.
    #[must_use]
    pub fn guess(&self, position: &Position) -> i32 {
        let (p, o) = position.relative();
        with_kernel!(self, k => self.run((p, o), |s| root::estimate(k, s, p, o)))
            .map_or(0, |(v, _)| v)
    }

    /// Solves `position`: its value, every best move and a best line.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn solve(&self, position: &Position) -> Result<Solution, Interrupted> {
        self.solve_with(position, None, BestMoves::Every)
    }

    /// [`Solver::solve`] with a guess of the value (`None`: the solver's
    /// own estimate), and every best move or only the first found (proving
    /// that a move reaches the value can take many times the solve itself,
    /// a wipe-out with many ways to it the worst).
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn solve_with(
        &self,
        position: &Position,
        guess: Option<i32>,
        best_moves: BestMoves,
    ) -> Result<Solution, Interrupted> {
        let (p, o) = position.relative();
        let ((value, best, line), nodes) = with_kernel!(self, k => self.run((p, o), |s| {
            let guess = guess.unwrap_or_else(|| root::estimate(k, s, p, o));
            let value = root::exact(k, s, p, o, guess);
            if moves_or_pass(p, o).is_none() {
                return (value, Vec::new(), Vec::new());
            }
            let (best, line) = match best_moves {
                BestMoves::Every => {
                    let best = root::best_moves(k, s, p, o, value);
                    let line = root::line(k, s, p, o, value, best.first().copied());
                    (best, line)
                }
                BestMoves::One => {
                    let line = root::line(k, s, p, o, value, None);
                    (line.first().copied().flatten().into_iter().collect(), line)
                }
            };
            (value, best, line)
        }))?;
        let best_moves = if best.is_empty() && !line.is_empty() {
            vec![Move::Pass]
        } else {
            best.into_iter().map(square).collect()
        };
        Ok(Solution {
            value,
            best_moves,
            line: line
                .into_iter()
                .map(|m| m.map_or(Move::Pass, square))
                .collect(),
            nodes,
        })
    }

    /// Every move of `position` reaching `value`, which must be its value
    /// (as [`Solver::value`] gives it), by square; `[Pass]` when the side
    /// to move must pass, empty when the game is over. With the positions
    /// searched.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn best_moves(
        &self,
        position: &Position,
        value: i32,
    ) -> Result<(Vec<Move>, u64), Interrupted> {
        let (p, o) = position.relative();
        match moves_or_pass(p, o) {
            None => return Ok((Vec::new(), 0)),
            Some(false) => return Ok((vec![Move::Pass], 0)),
            Some(true) => {}
        }
        let (best, nodes) =
            with_kernel!(self, k => self.run((p, o), |s| root::best_moves(k, s, p, o, value)))?;
        Ok((best.into_iter().map(square).collect(), nodes))
    }

    /// Every legal move of `position` with its exact value, best first.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn solve_moves(&self, position: &Position) -> Result<MoveValues, Interrupted> {
        let (p, o) = position.relative();
        let ((value, moves), nodes) = with_kernel!(self, k => self.run((p, o), |s| {
            let value = root::exact(k, s, p, o, root::estimate(k, s, p, o));
            let mut moves = Vec::new();
            match moves_or_pass(p, o) {
                None => {}
                Some(false) => moves.push(MoveValue { mv: Move::Pass, value }),
                Some(true) => {
                    for (x, cp, co) in root::children(p, o) {
                        let v = -root::exact_from_floor(k, s, cp, co, -value);
                        moves.push(MoveValue { mv: square(x), value: v });
                    }
                }
            }
            (value, moves)
        }))?;
        let mut moves = moves;
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        Ok(MoveValues {
            value,
            moves,
            nodes,
        })
    }
}

/// `Some(true)` when the side to move has a move, `Some(false)` when it
/// must pass, `None` when the game is over.
fn moves_or_pass(p: u64, o: u64) -> Option<bool> {
    if crate::engine::board::moves(p, o) != 0 {
        Some(true)
    } else if crate::engine::board::moves(o, p) != 0 {
        Some(false)
    } else {
        None
    }
}
