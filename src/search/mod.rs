//! The midgame search: a position's *estimate* by a depth-limited search
//! on the evaluation, its best move, every move's estimate.
//!
//! An estimate is not a value: [`Estimate`] is its own type, and only an
//! estimate whose search covered every empty square — handed to the exact
//! solver ([`crate::solve`]) — is marked [`Estimate::exact`] and gives a
//! value through [`Estimate::exact_value`]. Everything else is the
//! evaluation's guess, searched `depth` moves deep.
//!
//! ```
//! use kifu::search::{Searcher, SearchOptions};
//! use kifu::Position;
//! let searcher = Searcher::new(SearchOptions::with_hash(1 << 20));
//! let start = Position::start();
//! let estimate = searcher.estimate(&start, 4)?;
//! assert!(!estimate.exact);
//! assert_eq!(estimate.depth, 4);
//! assert_eq!(estimate.best_moves.len(), 1);
//! # Ok::<(), kifu::solve::Interrupted>(())
//! ```
//!
//! The search (from the root down): [`Searcher`]'s entry points deepen
//! one move at a time (iterative deepening, each depth's window centred on
//! the last depth's value: aspiration), the root's moves split over the
//! threads after the first; below the root, [`tree`] (principal-variation
//! search with a transposition table, [`table`], of bounds by depth, and
//! ProbCut's selective cut-offs unless [`SearchOptions::selectivity`]
//! is [`Selectivity::Off`]) and
//! [`order`] (the table's move, then a shallow search's or the
//! evaluation's guess and the opponent's mobility). Values inside are in
//! 1/64 disc, as the evaluation counts them ([`crate::eval::SCALE`]);
//! outputs round them to whole discs.

mod order;
mod table;
#[cfg(test)]
mod tests;
mod tree;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::engine::board::{flips_at, moves};
use crate::eval::{Weights, SCALE};
use crate::solve::{BestMoves, Interrupted, Solver, SolverOptions};
use crate::{Move, Position, Square};
use order::MoveList;
use table::Table;
use tree::{Tree, INF};

/// How much memory a [`Searcher`] takes.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The midgame transposition table's size in bytes.
    pub hash_bytes: usize,
    /// The exact solver's table's size in bytes.
    pub solver_hash_bytes: usize,
    /// ProbCut: how boldly a null-window node is cut off when a shallow
    /// search finds its value far outside the window (faster; the
    /// estimate is then no longer the depth's exact minimax on the
    /// evaluation).
    pub selectivity: Selectivity,
}

/// How a search cuts its tree on shallow searches' verdicts (ProbCut).
/// Estimates under any of them are estimates; only the exact solver
/// gives values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Selectivity {
    /// No cut-off: each estimate is the depth's minimax on the
    /// evaluation.
    Off,
    /// Margins wide enough that a depth's choices are nearly those of the
    /// full-width search: for a depth asked for (analysis, `eval`, an
    /// engine at a set depth). Scores 50 % against NTest at depth 8
    /// against depth 8.
    #[default]
    Careful,
    /// Half-depth searches and narrow margins: each depth is much cheaper
    /// and a little less sure, so a clock buys more depth (an engine
    /// playing under a clock: 50 % against NTest at equal time, where
    /// careful scores 28 %).
    Bold,
}

impl Default for SearchOptions {
    /// 64 MiB for each table.
    fn default() -> SearchOptions {
        SearchOptions {
            hash_bytes: 64 << 20,
            solver_hash_bytes: 64 << 20,
            selectivity: Selectivity::Careful,
        }
    }
}

impl SearchOptions {
    /// Tables of `bytes` bytes each.
    #[must_use]
    pub fn with_hash(bytes: usize) -> SearchOptions {
        SearchOptions {
            hash_bytes: bytes,
            solver_hash_bytes: bytes,
            ..SearchOptions::default()
        }
    }
}

/// A position's estimate: the value a depth-limited search on the
/// evaluation gives it, or — when the search covered every empty square —
/// its exact value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Estimate {
    /// The estimate in whole discs, the side to move's view (the final
    /// disc difference it expects; rounded from [`Estimate::score`]).
    pub value: i32,
    /// The estimate in 1/64 disc, unrounded.
    pub score: i32,
    /// Moves searched ahead (passes not counted); for an exact value, the
    /// empty squares.
    pub depth: u32,
    /// Whether the value is exact (proven by the solver).
    pub exact: bool,
    /// The best move by this search; every move reaching the value when
    /// exact; `[Pass]` when the side to move must pass, empty when the
    /// game is over or at depth 0.
    pub best_moves: Vec<Move>,
    /// The principal variation, as far as the search knows it.
    pub line: Vec<Move>,
    /// Positions searched (the solver's included).
    pub nodes: u64,
}

impl Estimate {
    /// The value when it is exact, else `None`: the only way from an
    /// estimate to a value.
    #[must_use]
    pub fn exact_value(&self) -> Option<i32> {
        self.exact.then_some(self.value)
    }
}

/// One legal move and its estimate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveEstimate {
    /// The move.
    pub mv: Move,
    /// Its estimate in whole discs, from the mover's side.
    pub value: i32,
    /// Its estimate in 1/64 disc.
    pub score: i32,
}

/// Every legal move of a position with its estimate.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveEstimates {
    /// The position's estimate (its best move's), whole discs.
    pub value: i32,
    /// The same in 1/64 disc.
    pub score: i32,
    /// Moves searched ahead from the position (each move's own search is
    /// one less deep); the empty squares when exact.
    pub depth: u32,
    /// Whether every value is exact.
    pub exact: bool,
    /// Every move, best first, ties by square; `[Pass]` when the side to
    /// move must pass, empty when the game is over.
    pub moves: Vec<MoveEstimate>,
    /// Positions searched.
    pub nodes: u64,
}

impl Selectivity {
    /// Every setting, by the name [`Selectivity::name`] gives and
    /// `str::parse` reads.
    pub const ALL: [Selectivity; 3] = [Selectivity::Off, Selectivity::Careful, Selectivity::Bold];

    /// Its name: `off`, `careful` or `bold`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Selectivity::Off => "off",
            Selectivity::Careful => "careful",
            Selectivity::Bold => "bold",
        }
    }
}

impl std::fmt::Display for Selectivity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Selectivity {
    type Err = String;

    /// `off`, `careful` or `bold`; the error says which names there are.
    fn from_str(text: &str) -> Result<Selectivity, String> {
        Selectivity::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| format!("{text:?}: one of off, careful, bold"))
    }
}

/// When a [`Searcher::think`] stops deepening.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The deepest search to run.
    pub depth: u32,
    /// Solve exactly (handing off to the solver) from this many empty
    /// squares down, whatever the depth; 0 for only when the depth
    /// covers them.
    pub exact_from: u32,
    /// Stop deepening by then; the deepest finished search is the answer
    /// (depth 1 always finishes).
    pub deadline: Option<Instant>,
    /// Start no new depth after then (the depth in progress goes on to
    /// `deadline`): a time budget's aim, with `deadline` its hard limit.
    pub soft_deadline: Option<Instant>,
}

impl Limits {
    /// To `depth`, without a clock, exact only when the depth covers the
    /// empty squares.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            exact_from: 0,
            deadline: None,
            soft_deadline: None,
        }
    }
}

/// Rounds 1/64 disc to whole discs, half away from zero, within ±64.
#[must_use]
pub fn discs(score: i32) -> i32 {
    let half = SCALE / 2;
    let d = if score >= 0 {
        (score + half) / SCALE
    } else {
        -((-score + half) / SCALE)
    };
    d.clamp(-64, 64)
}

/// The midgame search, with its transposition table and an exact solver
/// for positions it can search to the end.
///
/// Methods take `&self`; one searcher serves one search at a time per
/// thread, and the root's moves are split over the current rayon pool.
pub struct Searcher {
    table: Table,
    /// Shared with the searchers [`Searcher::on_own_table`] makes.
    solver: Arc<Solver>,
    weights: Option<&'static Weights>,
    /// Set to stop the search in progress (a deadline, an interrupt);
    /// the solver shares it.
    halt: Arc<AtomicBool>,
    /// The caller's interrupt, if any.
    interrupt: Option<Arc<AtomicBool>>,
    selectivity: Selectivity,
    /// Whether the tree searches in the fast kernel's instructions.
    modern: bool,
}

/// What one depth of the root found.
#[derive(Clone)]
struct Iteration {
    score: i32,
    best: u8,
    depth: u32,
    /// Positions searched by every depth so far.
    nodes: u64,
}

/// The square of a move generator's index (always below 64).
fn square(x: u8) -> Move {
    Square::new(x).map_or(Move::Pass, Move::Play)
}

impl Searcher {
    /// A searcher with the built-in evaluation and tables of the given
    /// sizes.
    #[must_use]
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher::with_weights(options, Weights::builtin())
    }

    /// A searcher estimating by `weights` (`None`: counting discs) instead
    /// of the built-in evaluation; its solver still orders by the
    /// built-in one (exact values do not depend on it).
    #[must_use]
    pub fn with_weights(options: SearchOptions, weights: Option<&'static Weights>) -> Searcher {
        let halt = Arc::new(AtomicBool::new(false));
        let mut solver = Solver::new(SolverOptions::with_hash(options.solver_hash_bytes));
        solver.set_interrupt(Arc::clone(&halt));
        Searcher {
            table: Table::new(options.hash_bytes),
            solver: Arc::new(solver),
            weights,
            halt,
            interrupt: None,
            selectivity: options.selectivity,
            modern: crate::solve::modern_instructions(),
        }
    }

    /// A searcher as this one (evaluation, selectivity, interrupt, the
    /// same exact solver) on a transposition table of its own of about
    /// `bytes`. A selective search's estimate depends on what its table
    /// holds (ProbCut's cut-offs depend on the window, and the table keeps
    /// bounds found in other windows): searches that share one table in
    /// parallel give estimates that depend on the order the threads ran
    /// in. A private table, [cleared](Searcher::clear) before each job,
    /// makes every estimate a function of its position and depth alone.
    #[must_use]
    pub fn on_own_table(&self, bytes: usize) -> Searcher {
        Searcher {
            table: Table::new(bytes),
            solver: Arc::clone(&self.solver),
            weights: self.weights,
            halt: Arc::clone(&self.halt),
            interrupt: self.interrupt.clone(),
            selectivity: self.selectivity,
            modern: self.modern,
        }
    }

    /// This searcher's tree in the target's baseline instruction set,
    /// whatever the processor (the tests hold both to the same values).
    #[cfg(test)]
    fn plain_kernel(mut self) -> Searcher {
        self.modern = false;
        self
    }

    /// Stops every search of this searcher, returning [`Interrupted`],
    /// once `flag` is set.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// Changes how boldly the searches that follow cut their trees.
    pub fn set_selectivity(&mut self, selectivity: Selectivity) {
        self.selectivity = selectivity;
    }

    /// How boldly its searches cut their trees.
    #[must_use]
    pub fn selectivity(&self) -> Selectivity {
        self.selectivity
    }

    /// Whether the built-in evaluation was read (without it the search
    /// counts discs).
    #[must_use]
    pub fn has_evaluation(&self) -> bool {
        self.weights.is_some()
    }

    /// The midgame transposition table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The exact solver it hands full-depth searches to.
    #[must_use]
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// Forgets what the tables hold (a new game).
    pub fn clear(&self) {
        self.table.clear();
    }

    /// The estimate of `position` by a `depth`-move search: its value and
    /// best move (every best move and a best line when the depth covers
    /// every empty square, and the value is then exact).
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn estimate(&self, position: &Position, depth: u32) -> Result<Estimate, Interrupted> {
        let limits = Limits::depth(depth);
        self.think_with(position, &limits, BestMoves::Every, |_| {})
    }

    /// Deepens one move at a time up to `limits.depth` or its deadline,
    /// telling `each` every finished depth's estimate; returns the deepest.
    /// The answer is exact — the solver's, with one best move — when the
    /// empty squares are at most `limits.exact_from`, or without a
    /// deadline when the depth covers them; a timed exact solve that runs
    /// out of time answers with the midgame search made before it.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn think(
        &self,
        position: &Position,
        limits: &Limits,
        each: impl FnMut(&Estimate),
    ) -> Result<Estimate, Interrupted> {
        self.think_with(position, limits, BestMoves::One, each)
    }

    /// Every legal move's estimate by a `depth`-move search of the
    /// position (each move's position searched `depth − 1` deep), best
    /// first; exact when the depth covers every empty square.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] when the interrupt flag was set.
    pub fn estimate_moves(
        &self,
        position: &Position,
        depth: u32,
    ) -> Result<MoveEstimates, Interrupted> {
        let (p, o) = position.relative();
        let empties = (!(p | o)).count_ones();
        if depth >= empties {
            return self.guarded(None, || {
                let all = self.solver.solve_moves(position)?;
                Ok(MoveEstimates {
                    value: all.value,
                    score: all.value * SCALE,
                    depth: empties,
                    exact: true,
                    moves: all
                        .moves
                        .iter()
                        .map(|m| MoveEstimate {
                            mv: m.mv,
                            value: m.value,
                            score: m.value * SCALE,
                        })
                        .collect(),
                    nodes: all.nodes,
                })
            });
        }
        self.guarded(None, || {
            self.table.new_date();
            let mut nodes = 0;
            let mut moves_out = Vec::new();
            let legal = moves(p, o);
            let score = if legal == 0 {
                if moves(o, p) == 0 {
                    tree::final_score(p, o)
                } else {
                    let it = self.deepen(o, p, depth, &Limits::depth(depth), |_| {})?;
                    nodes += it.nodes;
                    let v = -it.score;
                    moves_out.push(MoveEstimate {
                        mv: Move::Pass,
                        value: discs(v),
                        score: v,
                    });
                    v
                }
            } else if depth == 0 {
                let mut t = self.tree();
                let v = t.leaf(p, o);
                let mut list = MoveList::new(p, o, legal);
                for m in list.as_mut_slice() {
                    let (cp, co) = m.next(p, o);
                    m.key = -t.leaf(cp, co);
                }
                nodes += t.nodes;
                list.sort();
                moves_out.extend(list.as_slice().iter().map(|m| MoveEstimate {
                    mv: square(m.square),
                    value: discs(m.key),
                    score: m.key,
                }));
                v
            } else {
                if depth > 1 {
                    // The table learns the tree and the order from the
                    // best move's search first.
                    nodes += self
                        .deepen(p, o, depth, &Limits::depth(depth), |_| {})?
                        .nodes;
                }
                let list = MoveList::new(p, o, legal);
                let scored = self.each_move(p, o, &list, depth - 1, &mut nodes)?;
                let mut scored: Vec<(u8, i32)> = scored;
                scored.sort_by_key(|&(x, v)| (std::cmp::Reverse(v), x));
                moves_out.extend(scored.iter().map(|&(x, v)| MoveEstimate {
                    mv: square(x),
                    value: discs(v),
                    score: v,
                }));
                scored[0].1
            };
            Ok(MoveEstimates {
                value: discs(score),
                score,
                depth,
                exact: false,
                moves: moves_out,
                nodes,
            })
        })
    }

    /// A tree searcher on this searcher's table (it counts its own nodes).
    fn tree(&self) -> Tree<'_> {
        Tree {
            table: &self.table,
            weights: self.weights,
            nodes: 0,
            halt: &self.halt,
            stopped: false,
            selectivity: self.selectivity,
            modern: self.modern,
        }
    }

    /// Runs `job` with the halt flag cleared and, while it runs, set at
    /// `deadline` or when the caller's interrupt is set. A job that
    /// returns after the caller's interrupt returns [`Interrupted`].
    fn guarded<T>(
        &self,
        deadline: Option<Instant>,
        job: impl FnOnce() -> Result<T, Interrupted>,
    ) -> Result<T, Interrupted> {
        self.halt.store(false, Ordering::Relaxed);
        if deadline.is_none() && self.interrupt.is_none() {
            return job();
        }
        let (done, wait) = mpsc::channel::<()>();
        let halt = &self.halt;
        let interrupt = self.interrupt.as_deref();
        let out = std::thread::scope(|scope| {
            scope.spawn(move || loop {
                let mut step = Duration::from_millis(5);
                if let Some(d) = deadline {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        halt.store(true, Ordering::Relaxed);
                        return;
                    }
                    step = step.min(left);
                }
                if interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
                    halt.store(true, Ordering::Relaxed);
                    return;
                }
                match wait.recv_timeout(step) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
            });
            let out = job();
            drop(done);
            out
        });
        if self
            .interrupt
            .as_deref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(Interrupted);
        }
        out
    }

    fn think_with(
        &self,
        position: &Position,
        limits: &Limits,
        best: BestMoves,
        mut each: impl FnMut(&Estimate),
    ) -> Result<Estimate, Interrupted> {
        let (p, o) = position.relative();
        let empties = (!(p | o)).count_ones();
        // Under a deadline, depth only bounds the deepening: the end is
        // solved from `exact_from` empties, as a depth-unlimited search
        // would never finish.
        let exact =
            empties <= limits.exact_from || (limits.deadline.is_none() && limits.depth >= empties);
        self.guarded(limits.deadline, || {
            self.table.new_date();
            let mut nodes = 0;
            let legal = moves(p, o);
            if legal == 0 && moves(o, p) == 0 {
                let v = tree::final_score(p, o);
                return Ok(Estimate {
                    value: discs(v),
                    score: v,
                    depth: 0,
                    exact: true,
                    best_moves: Vec::new(),
                    line: Vec::new(),
                    nodes: 0,
                });
            }
            let mut last: Option<Estimate> = None;
            if !exact || limits.deadline.is_some() {
                // A timed exact solve starts from the midgame search's
                // answer in case it runs out of time.
                let depth = if exact {
                    limits.depth.min(empties.saturating_sub(1)).min(10)
                } else {
                    limits.depth.min(empties.saturating_sub(1))
                };
                let found = if legal == 0 {
                    self.deepen(o, p, depth, limits, |it| each(&self.passed(p, o, it)))
                        .map(|it| self.passed(p, o, &it))
                } else if depth == 0 {
                    let v = self.tree().leaf(p, o);
                    Ok(Estimate {
                        value: discs(v),
                        score: v,
                        depth: 0,
                        exact: false,
                        best_moves: Vec::new(),
                        line: Vec::new(),
                        nodes: 1,
                    })
                } else {
                    self.deepen(p, o, depth, limits, |it| each(&self.finish(p, o, it)))
                        .map(|it| self.finish(p, o, &it))
                };
                if !exact {
                    return found;
                }
                if let Ok(e) = found {
                    nodes = e.nodes;
                    last = Some(e);
                }
            }
            match self.solver.solve_with(position, None, best) {
                Ok(s) => {
                    let e = Estimate {
                        value: s.value,
                        score: s.value * SCALE,
                        depth: empties,
                        exact: true,
                        best_moves: s.best_moves,
                        line: s.line,
                        nodes: nodes + s.nodes,
                    };
                    each(&e);
                    Ok(e)
                }
                Err(Interrupted) => last.ok_or(Interrupted),
            }
        })
    }

    /// The estimate of a side that must pass, from the search of the
    /// board with the other side to move.
    fn passed(&self, p: u64, o: u64, it: &Iteration) -> Estimate {
        let inner = self.finish(o, p, it);
        let mut line = vec![Move::Pass];
        line.extend(inner.line);
        Estimate {
            value: -inner.value,
            score: -inner.score,
            depth: inner.depth,
            exact: false,
            best_moves: vec![Move::Pass],
            line,
            nodes: inner.nodes,
        }
    }

    /// An iteration's estimate, its line read from the table.
    fn finish(&self, p: u64, o: u64, it: &Iteration) -> Estimate {
        let line = self.line(p, o, it.best, it.depth);
        Estimate {
            value: discs(it.score),
            score: it.score,
            depth: it.depth,
            exact: false,
            best_moves: vec![square(it.best)],
            line,
            nodes: it.nodes,
        }
    }

    /// The principal variation: `first`, then the table's best moves
    /// while it has them, at most `depth` moves (passes added).
    fn line(&self, mut p: u64, mut o: u64, first: u8, depth: u32) -> Vec<Move> {
        let mut out = Vec::new();
        let mut next = Some(first);
        let mut placed = 0;
        while placed < depth {
            let legal = moves(p, o);
            if legal == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                out.push(Move::Pass);
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let x = match next.take() {
                Some(x) => x,
                None => match self.table.probe(p, o).and_then(|e| e.best) {
                    Some(x) => x,
                    None => break,
                },
            };
            if legal & (1u64 << (x & 63)) == 0 {
                break;
            }
            let f = flips_at(p, o, usize::from(x));
            out.push(square(x));
            (p, o) = (o ^ f, p | f | (1u64 << x));
            placed += 1;
        }
        out
    }

    /// Iterative deepening from depth 1 to `depth` at a position with
    /// legal moves; `each` hears every finished depth. Past `limits`'
    /// deadline (from depth 2 on), the deepest finished depth is the
    /// answer; no depth starts past its soft deadline.
    fn deepen(
        &self,
        p: u64,
        o: u64,
        depth: u32,
        limits: &Limits,
        mut each: impl FnMut(&Iteration),
    ) -> Result<Iteration, Interrupted> {
        let started = Instant::now();
        let mut nodes = 0;
        let nodes = &mut nodes;
        let mut last: Option<Iteration> = None;
        for d in 1..=depth.max(1) {
            if last.is_some() {
                let now = Instant::now();
                if limits.soft_deadline.is_some_and(|soft| now >= soft) {
                    break;
                }
                // A depth takes about twice the one before (with
                // ProbCut): do not start one that cannot finish.
                if let Some(end) = limits.deadline {
                    if now >= end || (now - started) * 2 > end - started {
                        break;
                    }
                }
            }
            let found = match &last {
                Some(prev) if d >= 4 => self.aspiration(p, o, d, prev, nodes),
                _ => self.root(p, o, d, -INF, INF, nodes),
            };
            match found {
                Some(it) => {
                    let it = Iteration {
                        depth: d,
                        nodes: *nodes,
                        ..it
                    };
                    each(&it);
                    last = Some(it);
                }
                None => break,
            }
        }
        last.ok_or(Interrupted)
    }

    /// A depth searched in a narrow window around the last depth's
    /// value, widened on the side the value fell.
    fn aspiration(
        &self,
        p: u64,
        o: u64,
        depth: u32,
        prev: &Iteration,
        nodes: &mut u64,
    ) -> Option<Iteration> {
        let mut delta = 2 * SCALE;
        let (mut low, mut high) = (prev.score - delta, prev.score + delta);
        loop {
            let it = self.root(p, o, depth, low, high, nodes)?;
            // The window only grows (a selective search may fail low,
            // then high, at the same depth: a shrinking window would
            // never end), and a value at a bound that is already open
            // (±INF) is the answer: nothing is outside it.
            if it.score <= low && low > -INF {
                low = if delta > 16 * SCALE {
                    -INF
                } else {
                    it.score - delta
                };
            } else if it.score >= high && high < INF {
                high = if delta > 16 * SCALE {
                    INF
                } else {
                    it.score + delta
                };
            } else {
                return Some(it);
            }
            delta *= 2;
        }
    }

    /// The root of one depth: the best move and the value within
    /// `alpha, beta` (fail-soft, as [`tree`]'s invariant); `None` when
    /// stopped. The first move is searched alone, the others in parallel
    /// with a null window at the best value so far, and those that beat
    /// it again in turn with the window.
    fn root(
        &self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> Option<Iteration> {
        use rayon::prelude::*;
        let mut list = MoveList::new(p, o, moves(p, o));
        let hint = self.table.probe(p, o).and_then(|e| e.best);
        let mut t = self.tree();
        let shallow = depth.saturating_sub(3).min(4);
        let w = self.weights;
        list.key_by_value(p, o, hint, |_, cp, co| {
            if shallow == 0 {
                tree::evaluate(w, cp, co)
            } else {
                t.search(cp, co, shallow, -INF, INF)
            }
        });
        list.sort();
        let moves = list.as_slice();
        let (cp, co) = moves[0].next(p, o);
        let v = -t.search(cp, co, depth - 1, -beta, -alpha);
        *nodes += t.nodes;
        if t.stopped {
            return None;
        }
        let mut best = Iteration {
            score: v,
            best: moves[0].square,
            depth,
            nodes: 0,
        };
        let first_alpha = alpha;
        let mut alpha = alpha.max(v);
        if v < beta && moves.len() > 1 {
            let scout = alpha;
            let scouts: Vec<(i32, u64, bool)> = moves[1..]
                .par_iter()
                .map(|m| {
                    let (cp, co) = m.next(p, o);
                    let mut t = self.tree();
                    let v = -t.search(cp, co, depth - 1, -scout - 1, -scout);
                    (v, t.nodes, t.stopped)
                })
                .collect();
            for (m, &(v, n, stopped)) in moves[1..].iter().zip(&scouts) {
                *nodes += n;
                if stopped {
                    return None;
                }
                let mut v = v;
                // Above the scout's window the value is only bounded
                // below: searched again within the window as it is now.
                if v > scout && v < beta {
                    let (cp, co) = m.next(p, o);
                    let mut t = self.tree();
                    v = -t.search(cp, co, depth - 1, -beta, -alpha);
                    *nodes += t.nodes;
                    if t.stopped {
                        return None;
                    }
                }
                if v > best.score {
                    best.score = v;
                    best.best = m.square;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
        }
        self.table
            .store(p, o, depth, first_alpha, beta, best.score, Some(best.best));
        Some(best)
    }

    /// Each move's depth-`depth` value from the mover's side, in 1/64
    /// disc, the moves searched in parallel.
    fn each_move(
        &self,
        p: u64,
        o: u64,
        list: &MoveList,
        depth: u32,
        nodes: &mut u64,
    ) -> Result<Vec<(u8, i32)>, Interrupted> {
        use rayon::prelude::*;
        let found: Vec<(u8, i32, u64, bool)> = list
            .as_slice()
            .par_iter()
            .map(|m| {
                let (cp, co) = m.next(p, o);
                let mut t = self.tree();
                let v = -t.search(cp, co, depth, -INF, INF);
                (m.square, v, t.nodes, t.stopped)
            })
            .collect();
        let mut out = Vec::with_capacity(found.len());
        for (x, v, n, stopped) in found {
            *nodes += n;
            if stopped {
                return Err(Interrupted);
            }
            out.push((x, v));
        }
        Ok(out)
    }
}
