//! The null-window searches that do nearly all the work, and the windowed
//! search above them.
//!
//! Invariant of every null-window search here: given `alpha`, it returns
//! `v` with `v > alpha` if the position's value is more than `alpha` (and
//! then the value is at least `v`), else `v <= alpha` (and the value is at
//! most `v`); an exact value whenever that is what it found. Values are
//! from the side to move's view, empties to the winner, so always even;
//! the root asks with odd or even `alpha` alike.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::geometry::{NEIGHBOURS, QUADRANT, QUADRANTS};
use super::kernel::Kernel;
use super::last::{final_value, solve_1, solve_2, sort_4, squares_3};
use super::order::MoveList;
use super::stable::stable_discs;
use super::transposition::Table;
use crate::engine::board::{flips_at, moves};
use crate::eval::Features;

/// Up to this many empty squares the search has no table and no move
/// list: it tries the empty squares in parity order.
pub(super) const SHALLOW: u32 = 7;

/// From this many empty squares on, a node looks its children up in the
/// table before searching any (enhanced transposition cut-off).
const ETC_MIN: u32 = 12;

/// Why a search stopped before its end: a flag of its own (another thread
/// found a cut-off above) or of any search it is part of.
pub(super) struct Stop<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Stop<'a>>,
}

impl<'a> Stop<'a> {
    /// A search stopped by `flag` alone.
    pub fn new(flag: &'a AtomicBool) -> Stop<'a> {
        Stop { flag, parent: None }
    }

    /// A part of this search, also stopped by `flag`.
    pub fn child(&'a self, flag: &'a AtomicBool) -> Stop<'a> {
        Stop {
            flag,
            parent: Some(self),
        }
    }

    /// Whether this search, or one it is part of, was told to stop.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        let mut stop = Some(self);
        while let Some(s) = stop {
            if s.flag.load(Ordering::Relaxed) {
                return true;
            }
            stop = s.parent;
        }
        false
    }
}

/// One thread's search: what it shares and what it counts.
pub(super) struct Search<'a> {
    /// The transposition table.
    pub table: &'a Table,
    /// The edge stability table.
    pub edges: &'a [u8; 65536],
    /// Positions searched so far.
    pub nodes: u64,
    /// When to give up: the result of a stopped search means nothing.
    pub stop: &'a Stop<'a>,
    /// Nodes of every search of the solver so far, for a progress bar:
    /// this search adds its own now and then.
    pub live: &'a AtomicU64,
    /// Of `nodes`, those already added to `live`.
    pub flushed: u64,
    /// The evaluation that orders moves far from the end, if any.
    pub eval: Option<&'a crate::eval::Weights>,
    /// Whether deep nodes split their moves over the threads.
    pub split: bool,
    /// How selective the search is: 0 exact, [`PASS`] the pass before
    /// the exact search that cuts where the evaluation is sure enough,
    /// whose values are guesses and whose bounds the exact search never
    /// uses.
    pub level: u8,
}

impl Search<'_> {
    /// Adds the nodes not yet counted to the solver's live count.
    #[inline(always)]
    pub fn flush(&mut self) {
        self.live
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }
}

/// From this many empty squares on, a node adds its count to the live
/// count when done (rare enough to cost nothing).
const FLUSH_MIN: u32 = 16;

/// A cut-off by stability: the opponent's stable discs are the mover's
/// at no point, so the mover's value is at most `64 - 2 × stable`. Worth
/// computing only when that could be at most `alpha`.
#[inline(always)]
fn stability_cut(s: &Search<'_>, player: u64, opponent: u64, alpha: i32) -> Option<i32> {
    if alpha < 64 - 2 * opponent.count_ones() as i32 {
        return None;
    }
    let bound = 64 - 2 * stable_discs(s.edges, opponent, player).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// The null-window search for any number of empty squares: the right
/// search for `empties` of them.
#[inline(always)]
pub(super) fn nws<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    empties: u32,
) -> i32 {
    let empty = !(player | opponent);
    match empties {
        0 => {
            s.nodes += 1;
            final_value(player, 0)
        }
        1 => {
            s.nodes += 1;
            solve_1(player, alpha, empty.trailing_zeros() as usize)
        }
        2 => {
            let x1 = empty.trailing_zeros() as usize;
            let x2 = 63 - empty.leading_zeros() as usize;
            solve_2(player, opponent, alpha, x1, x2, &mut s.nodes)
        }
        3 => k.solve_3(&mut s.nodes, player, opponent, alpha, squares_3(empty)),
        4 => k.solve_4(&mut s.nodes, player, opponent, alpha, sort_4(empty)),
        n if n <= SHALLOW => k.shallow(s, player, opponent, alpha, super::geometry::parity(empty)),
        _ => k.deep(s, player, opponent, alpha),
    }
}

/// 5 to [`SHALLOW`] empty squares, no table: from [`SORTED_MIN`] empties
/// the moves sorted fastest first, below that the empties of quadrants
/// holding an odd number of them first.
#[inline(always)]
pub(super) fn shallow<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    parity: u8,
) -> i32 {
    s.nodes += 1;
    let beta = alpha + 1;
    if let Some(bound) = stability_cut(s, player, opponent, alpha) {
        return bound;
    }
    let empty = !(player | opponent);
    let n = empty.count_ones();
    if n >= SORTED_MIN {
        let legal = moves(player, opponent);
        if legal != 0 {
            return shallow_sorted(k, s, player, opponent, alpha, parity, legal);
        }
    }
    let odd = QUADRANTS[parity as usize];
    let mut best = i32::MIN;
    for set in [empty & odd, empty & !odd] {
        let mut e = set;
        while e != 0 {
            let x = e.trailing_zeros() as usize;
            e &= e - 1;
            if NEIGHBOURS[x] & opponent == 0 {
                continue;
            }
            let f = flips_at(player, opponent, x);
            if f == 0 {
                continue;
            }
            let (p, o) = (opponent ^ f, player | f | (1 << x));
            let v = if n == 5 {
                -k.solve_4(&mut s.nodes, p, o, -beta, sort_4(empty ^ (1 << x)))
            } else {
                -k.shallow(s, p, o, -beta, parity ^ QUADRANT[x])
            };
            if v > best {
                if v > alpha {
                    return v;
                }
                best = v;
            }
        }
    }
    if best != i32::MIN {
        best
    } else if moves(opponent, player) != 0 {
        -k.shallow(s, opponent, player, -beta, parity)
    } else {
        final_value(player, n as i32)
    }
}

/// From this many empty squares on, a shallow node sorts its moves
/// (fastest first) instead of taking the odd quadrants' squares first:
/// on 150 positions at 20 empties of WTH_2014, 17 % fewer nodes and 3–4 %
/// less time; from 6, more time.
const SORTED_MIN: u32 = 7;

// A sorted node's children are shallow nodes too (5 empties at least).
const _: () = assert!(SORTED_MIN >= 6);

/// A shallow node's moves (`legal`, not empty) searched fastest first:
/// the move leaving the opponent the fewest replies first.
#[inline(always)]
fn shallow_sorted<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    parity: u8,
    legal: u64,
) -> i32 {
    let beta = alpha + 1;
    let mut list = MoveList::new();
    list.fill(player, opponent, legal);
    list.fastest_first(player, opponent, None, parity);
    let mut best = i32::MIN;
    for i in 0..list.len() {
        list.bring_best(i);
        let m = list.get(i);
        let (p, o) = m.next(player, opponent);
        let v = -k.shallow(s, p, o, -beta, parity ^ QUADRANT[m.square as usize]);
        if v > best {
            if v > alpha {
                return v;
            }
            best = v;
        }
    }
    best
}

/// From this many empty squares on, a deep node sorts its moves by the
/// full keys ([`MoveList::order`]); below, fastest first after the
/// table's move, as a sorted shallow node does: at 8 empties the full
/// keys saved 1 % of the nodes and cost 2–3 % more time (FFO #40–#49 on
/// one thread, the same values); from 10 the cheap keys cost 5 % more
/// nodes and saved no time.
const FULL_KEYS_MIN: u32 = 9;

/// More than [`SHALLOW`] empty squares: stability and table cut-offs,
/// sorted moves, the children looked up first where deep enough.
#[inline(always)]
pub(super) fn deep<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
) -> i32 {
    s.nodes += 1;
    if s.stop.stopped() {
        return alpha;
    }
    let beta = alpha + 1;
    let table = s.table;
    table.prefetch(player, opponent);
    let empty = !(player | opponent);
    let n = empty.count_ones();
    let legal = moves(player, opponent);
    if legal == 0 {
        return if moves(opponent, player) != 0 {
            -k.deep(s, opponent, player, -beta)
        } else {
            final_value(player, n as i32)
        };
    }
    if let Some(bound) = stability_cut(s, player, opponent, alpha) {
        return bound;
    }
    let entry = table.probe(player, opponent);
    if let Some(e) = entry {
        let (lower, upper) = e.bounds_for(s.level);
        if lower > alpha {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
    }
    if s.level > 0 && n >= PROBCUT_MIN {
        if let Some(v) = probcut(k, s, player, opponent, alpha, n) {
            return v;
        }
    }
    let mut list = MoveList::new();
    list.fill(player, opponent, legal);
    if list.len() == 1 {
        let (p, o) = list.get(0).next(player, opponent);
        return -nws(k, s, p, o, -beta, n - 1);
    }
    if n >= ETC_MIN {
        for m in list.as_slice() {
            let (p, o) = m.next(player, opponent);
            if let Some(e) = table.probe(p, o) {
                let upper = e.bounds_for(s.level).1;
                if -upper > alpha {
                    table.store(
                        player,
                        opponent,
                        alpha,
                        beta,
                        -upper,
                        Some(m.square),
                        1,
                        s.level,
                    );
                    return -upper;
                }
            }
        }
    }
    if n > SHALLOW + 1 && n < ETC_MIN {
        // The children's buckets asked for now, while the moves are
        // sorted: each child probes its bucket soon after it starts, too
        // soon for its own prefetch (from 12 empties the ETC has already
        // read them).
        for m in list.as_slice() {
            let (p, o) = m.next(player, opponent);
            table.prefetch(p, o);
        }
    }
    let start = s.nodes;
    let mut best = i32::MIN;
    let mut best_move = 0;
    let mut hint = entry.and_then(|e| e.best);
    // Whether the table's move, searched alone first, cut off (or the
    // search was stopped): the other moves are then never ordered.
    let mut cut = false;
    if n >= FIRST_MIN {
        if let Some(at) = hint.and_then(|h| list.as_slice().iter().position(|m| m.square == h)) {
            let m = list.get(at);
            let (p, o) = m.next(player, opponent);
            let v = -nws(k, s, p, o, -beta, n - 1);
            best = v;
            best_move = m.square;
            cut = v > alpha || s.stop.stopped();
            list.swap_remove(at);
            hint = None;
        }
    }
    if !cut {
        let tried = best != i32::MIN;
        let parity = super::geometry::parity(empty);
        if n < FULL_KEYS_MIN {
            list.fastest_first(player, opponent, hint, parity);
        } else {
            s.nodes += list.order(
                k,
                player,
                opponent,
                hint,
                parity,
                s.eval.filter(|_| n >= super::order::EVAL_MIN),
            );
        }
        for i in 0..list.len() {
            list.bring_best(i);
            if (i > 0 || tried) && n >= SPLIT_MIN && list.len() - i >= 2 && s.split {
                // The first move did not cut off: the others together, on
                // every thread (young brothers wait).
                for j in i + 1..list.len() {
                    list.bring_best(j);
                }
                let (v, square) = split(k, s, player, opponent, alpha, n, &list.as_slice()[i..]);
                if v > best {
                    best = v;
                    best_move = square;
                }
                break;
            }
            let m = list.get(i);
            let (p, o) = m.next(player, opponent);
            let v = -nws(k, s, p, o, -beta, n - 1);
            if v > best {
                best = v;
                best_move = m.square;
                if v > alpha {
                    break;
                }
            }
        }
    }
    if !s.stop.stopped() {
        table.store(
            player,
            opponent,
            alpha,
            beta,
            best,
            Some(best_move),
            s.nodes - start,
            s.level,
        );
    }
    if n >= FLUSH_MIN {
        s.flush();
    }
    best
}

/// The selective pass's level (the exact search's is 0).
pub(super) const PASS: u8 = 1;

/// How many standard deviations of the evaluation's error the pass's
/// cut-offs allow (1.0, 1.2, 1.8 and 2.0 cost more nodes on FFO #40–#49).
const PASS_MARGIN: f32 = 1.5;

/// From this many empty squares on, a selective pass tries a cut-off by
/// the evaluation at each node.
const PROBCUT_MIN: u32 = 12;

/// A cut-off of a selective pass (ProbCut): the evaluation searched about
/// a fifth as deep as the empties (the same parity) says the value is
/// surely above `alpha` (returns `alpha + 1`) or surely not (`alpha`);
/// `None` when it is not sure. "Surely" is [`PASS_MARGIN`] standard
/// deviations of the shallow search's error on the exact value, σ =
/// 5.56 + 0.117 × empties − 0.435 × depth discs: the midgame search's
/// fit (see `search::tree`) with the exact value as the deep one.
#[inline(never)]
fn probcut<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    n: u32,
) -> Option<i32> {
    let w = s.eval?;
    let depth = 2 * (n / 10) + (n & 1);
    let sigma = 5.56 + 0.117 * n as f32 - 0.435 * depth as f32;
    let scale = crate::eval::SCALE;
    let margin = (PASS_MARGIN * sigma * scale as f32) as i32;
    let high = (alpha + 1) * scale + margin;
    // A bound is only given where a value can lie beyond it.
    let f = &Features::new(player, opponent);
    if alpha < 64 && k.probe(w, player, opponent, f, depth, high - 1, high, &mut s.nodes) >= high {
        return Some(alpha + 1);
    }
    let low = alpha * scale - margin;
    if alpha >= -64 && k.probe(w, player, opponent, f, depth, low, low + 1, &mut s.nodes) <= low {
        return Some(alpha);
    }
    None
}

/// From this many empty squares on, a node with a table move searches it
/// before ordering the others.
const FIRST_MIN: u32 = 12;

/// From this many empty squares on, a node whose first move did not cut
/// off searches the others in parallel.
const SPLIT_MIN: u32 = 13;

/// The moves `rest` of a node searched in parallel at `alpha` (null
/// window), each in a search of its own that a cut-off stops: the best
/// value found and its square. A cut-off (a value above `alpha`) stops
/// the others; a stopped search's value is never used.
#[inline(never)]
fn split<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    n: u32,
    rest: &[super::order::Candidate],
) -> (i32, u8) {
    use rayon::prelude::*;
    use std::sync::Mutex;
    let flag = AtomicBool::new(false);
    let stop = s.stop.child(&flag);
    let found = Mutex::new((i32::MIN, 0u8));
    let nodes = AtomicU64::new(0);
    let (table, edges, live, eval, level) = (s.table, s.edges, s.live, s.eval, s.level);
    rest.par_iter().for_each(|m| {
        if stop.stopped() {
            return;
        }
        let mut child = Search {
            table,
            edges,
            nodes: 0,
            stop: &stop,
            live,
            flushed: 0,
            eval,
            split: true,
            level,
        };
        let (p, o) = m.next(player, opponent);
        let v = -nws(k, &mut child, p, o, -alpha - 1, n - 1);
        child.flush();
        nodes.fetch_add(child.nodes, Ordering::Relaxed);
        if stop.stopped() {
            return;
        }
        let mut best = found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if v > best.0 {
            *best = (v, m.square);
        }
        if v > alpha {
            flag.store(true, Ordering::Relaxed);
        }
    });
    let children = nodes.into_inner();
    s.nodes += children;
    s.flushed += children;
    found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The windowed search (alpha-beta with null windows after the first
/// move, principal variation search): the exact value when it lies
/// strictly between `alpha` and `beta`, else a bound on the side it
/// fails to, as for the null-window searches. Used at the root and along
/// the best line only; everything under it is null-window.
pub(super) fn pvs<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    let empty = !(player | opponent);
    let n = empty.count_ones();
    if beta == alpha + 1 || n <= 4 {
        return window_by_null(k, s, player, opponent, alpha, beta, n);
    }
    s.nodes += 1;
    if s.stop.stopped() {
        return alpha;
    }
    let legal = moves(player, opponent);
    if legal == 0 {
        return if moves(opponent, player) != 0 {
            -pvs(k, s, opponent, player, -beta, -alpha)
        } else {
            final_value(player, n as i32)
        };
    }
    let table = s.table;
    let entry = table.probe(player, opponent);
    if let Some(e) = entry {
        let (lower, upper) = e.bounds_for(s.level);
        if lower == upper || lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
    }
    let start = s.nodes;
    let mut list = MoveList::new();
    list.fill(player, opponent, legal);
    s.nodes += list.order(
        k,
        player,
        opponent,
        entry.and_then(|e| e.best),
        super::geometry::parity(empty),
        s.eval.filter(|_| n >= super::order::EVAL_MIN),
    );
    let mut best = i32::MIN;
    let mut best_move = 0;
    let mut low = alpha;
    for i in 0..list.len() {
        list.bring_best(i);
        let m = list.get(i);
        let (p, o) = m.next(player, opponent);
        let v = if i == 0 {
            -pvs(k, s, p, o, -beta, -low)
        } else {
            let v = -nws(k, s, p, o, -low - 1, n - 1);
            if v > low && v < beta {
                -pvs(k, s, p, o, -beta, -(v - 1))
            } else {
                v
            }
        };
        if v > best {
            best = v;
            best_move = m.square;
            if v >= beta {
                break;
            }
            low = low.max(v);
        }
    }
    if !s.stop.stopped() {
        table.store(
            player,
            opponent,
            alpha,
            beta,
            best,
            Some(best_move),
            s.nodes - start,
            s.level,
        );
    }
    best
}

/// A windowed search by null windows alone, for small positions: at
/// `alpha` first, then upwards from each lower bound found until a search
/// fails low (the value is then the last lower bound) or the bound
/// reaches `beta`.
fn window_by_null<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    n: u32,
) -> i32 {
    let v = nws(k, s, player, opponent, alpha, n);
    if v <= alpha {
        return v;
    }
    // The value is at least `known`.
    let mut known = v;
    while known < beta {
        let w = nws(k, s, player, opponent, known, n);
        if w <= known {
            // At most `w`, at least `known`: exactly `known`.
            return known;
        }
        known = w;
    }
    known
}
