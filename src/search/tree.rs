//! The depth-limited search below the root: principal-variation search
//! (negamax alpha-beta, the first move with the caller's window, the
//! others with a null window and searched again when they beat it).
//!
//! Values are in 1/64 disc ([`SCALE`]) from the side to move's view.
//! The *depth-`d` value* of a position, which every search here returns
//! or bounds, is defined as:
//! - depth 0: the final score (the disc difference, empty squares to the
//!   winner, times [`SCALE`]) when the board is full or a side has no
//!   discs, else the evaluation — a leaf is not asked whether either side
//!   can move, as Edax's and NTest's are not (that move generation was 7 %
//!   of a search's time);
//! - a finished game (neither side can move) with depth left: its final
//!   score;
//! - a side that must pass: minus the depth-`d` value of the same board
//!   with the other side to move (a pass costs no depth);
//! - else the best over the moves of minus the child's depth-`d − 1` value.
//!
//! Invariant of [`Tree::search`] (fail-soft): given `alpha < beta`, it
//! returns `v` with the value at most `v` when `v <= alpha`, at least `v`
//! when `v >= beta`, and exactly `v` between. The transposition table
//! keeps bounds of one depth and cuts off only with bounds of the depth
//! asked, so the value does not depend on what the table held.
//!
//! Selectivity (ProbCut, unless [`Selectivity::Off`]): a null-window
//! node of depth 4 or more first searches itself less deep, and cuts off
//! when that value lies a margin beyond the window on either side. Its
//! results are then bounds of a selective search, not of the minimax.
//! A cut-off depends on the window it was asked with, so a table holding
//! bounds found under other windows can move a selective estimate: one
//! search repeats its answers, but searches sharing a table side by side
//! would differ between runs by a disc or so (11 of 91 games of a
//! WTH_2014 shard, when `kifu analyze` ran every game's positions on one
//! table). Whole-game analysis therefore judges a game's moves on cleared
//! tables of their own ([`super::Searcher::on_own_table`]). Two settings:
//! - [`Selectivity::Careful`]: a search about a quarter as deep, a margin
//!   of 5 discs and a quarter disc a depth (about two standard deviations
//!   of the deep value around the shallow one). Measured on 7 positions
//!   of a 1977 game, 2 threads: depth 10 in 0.23 s against 2.3 s without,
//!   with the same values but for one disc at one position.
//! - [`Selectivity::Bold`]: a search about half as deep (Edax's choice),
//!   and 0.7 of the standard deviation that search leaves, by depth and
//!   empties ([`bold_margin`]): a depth 12 costs 2.6 times fewer nodes at
//!   24–48 empties; for play under a clock, where depth is cheap.
//!
//! The evaluation's pattern indices ([`Features`]) go down the tree with
//! the position, updated by each move, so a leaf only sums its weights.
//! The recursion's one call that is not inlined ([`Tree::descend`]) is
//! compiled for the target's baseline and, on x86-64 processors that have
//! them, with the solver's fast kernel's instructions: the same values.

use std::sync::atomic::{AtomicBool, Ordering};

use super::order::MoveList;
use super::table::Table;
use super::Selectivity;
use crate::engine::board::moves;
use crate::eval::{Features, Weights, SCALE};

/// Beyond every value (windows start at `-INF, INF`).
pub(super) const INF: i32 = 1 << 24;

/// From this depth on, a node keys its moves by their evaluation rather
/// than by mobility alone.
const EVAL_ORDER: u32 = 3;

/// From this depth on, moves are keyed by a search of the position after
/// them, [`probe_depth`] deep.
const SEARCH_ORDER: u32 = 6;

/// How deep the ordering search looks at a node of `depth`.
#[inline(always)]
fn probe_depth(depth: u32) -> u32 {
    if depth >= 10 {
        2
    } else {
        1
    }
}

/// The final score of a finished game in 1/64 disc: discs of the side to
/// move minus the other's, the empty squares to the winner.
#[inline(always)]
pub(super) fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let empty = 64 - p - o;
    let diff = match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + empty,
        std::cmp::Ordering::Less => p - o - empty,
        std::cmp::Ordering::Equal => 0,
    };
    diff * SCALE
}

/// Whether a leaf is scored as the end: a full board or a side without
/// discs (the game's other ends are seen with depth left).
#[inline(always)]
pub(super) fn ended(player: u64, opponent: u64) -> bool {
    (player | opponent) == !0 || player == 0 || opponent == 0
}

/// The evaluation of a position that is not finished, from the side to
/// move's view (the disc difference without weights).
#[inline(always)]
pub(super) fn evaluate(weights: Option<&Weights>, player: u64, opponent: u64) -> i32 {
    match weights {
        Some(w) => w.evaluate(player, opponent),
        None => (player.count_ones() as i32 - opponent.count_ones() as i32) * SCALE,
    }
}

/// One thread's search: what it shares and what it counts.
pub(super) struct Tree<'a> {
    /// The transposition table.
    pub table: &'a Table,
    /// The evaluation.
    pub weights: Option<&'a Weights>,
    /// Positions searched.
    pub nodes: u64,
    /// Set by another thread (a deadline, an interrupt) to stop.
    pub halt: &'a AtomicBool,
    /// Whether this search saw the halt flag: its result means nothing.
    pub stopped: bool,
    /// How null-window nodes may cut off on a shallow search's verdict
    /// (ProbCut); [`Selectivity::Off`] keeps the depth's minimax.
    pub selectivity: Selectivity,
    /// Whether to search in the fast kernel's instructions
    /// ([`crate::solve::modern_instructions`]; the same values, without
    /// them in the target's baseline).
    pub modern: bool,
}

/// Defines one of the recursion's entries ([`Tree::descend`] calls them):
/// [`Tree::search_with`] with every body below inlined into it, so that it
/// takes on the entry's instructions.
macro_rules! entry {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        fn $name(
            t: &mut Tree<'_>,
            (player, opponent): (u64, u64),
            features: &Features,
            depth: u32,
            (alpha, beta): (i32, i32),
        ) -> i32 {
            t.search_with(player, opponent, features, depth, alpha, beta)
        }
    };
}

entry!(
    /// The recursion's one call that is not inlined, for the target's
    /// baseline instruction set.
    #[inline(never)]
    plain_search
);

#[cfg(target_arch = "x86_64")]
entry!(
    /// [`plain_search`] with POPCNT, LZCNT, BMI1, BMI2 and AVX2: only for
    /// a processor that has them ([`crate::solve::modern_instructions`]).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    modern_search
);

/// ProbCut: from this depth on, a null-window node first asks a shallow
/// search whether the window is far from its value.
const PROBCUT_MIN: u32 = 4;

/// [`Selectivity::Careful`]'s shallow search for a node of `depth`:
/// about a quarter as deep, of the same parity (the evaluation's bias
/// alternates with the side to move).
#[inline(always)]
fn careful_depth(depth: u32) -> u32 {
    let d = (depth / 4).max(1);
    if (depth - d) % 2 == 1 {
        d + 1
    } else {
        d
    }
}

/// [`Selectivity::Careful`]: how far (1/64 disc) a shallow search's value
/// must lie beyond the window for the node to cut off without its own
/// search: a few standard deviations of the deep value around the shallow
/// one. Chosen by matches
/// against NTest at depth 8 (46 games each, `--fresh`, one thread) and
/// the time of a whole game analysed at depth 12 (Woch–Heiberg 1977):
/// 3 + d/4 discs scored 44.6 % in 3.3 s, 4 + d/4 48.9 % in 4.6 s,
/// 5 + d/4 50.0 % in 6.1 s, 6 + d/2 52.2 % in 10.0 s, no ProbCut 53.3 %.
#[inline(always)]
fn careful_margin(depth: u32) -> i32 {
    (5 * SCALE) + (depth as i32) * SCALE / 4
}

/// [`Selectivity::Bold`]'s shallow search for a node of `depth`: about
/// half as deep, of the same parity.
#[inline(always)]
fn bold_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// [`Selectivity::Bold`]'s margin (1/64 disc) for a node of `depth` and
/// `empties` empty squares whose shallow search is `shallow` deep: 0.7
/// of the standard deviation of the deep value around the shallow one,
/// which grows with the depth between them and towards the end. Fitted
/// to full-width searches of depth 1 to 11 on 300 positions of WTH_2010
/// at 24–48 empties (`--full-width` estimates, by bands of 8 empties):
/// σ = 5.56 + 0.185 depth − 0.435 shallow − 0.068 empties discs (within
/// 0.3 disc on average, 0.8 at worst). The fraction 0.7 was chosen by
/// matches against NTest at equal time (8 s a game, 46 games): 50.0 %,
/// against 28.3 % with [`Selectivity::Careful`]'s margins.
#[inline(always)]
fn bold_margin(depth: u32, shallow: u32, empties: u32) -> i32 {
    // σ in 1/1000 disc, at least half a disc.
    let sigma = (5560 + 185 * depth as i32 - 435 * shallow as i32 - 68 * empties as i32).max(500);
    sigma * 7 * SCALE / 10_000
}

impl Tree<'_> {
    /// The depth-0 value: the final score of a full board or of a side
    /// without discs, else the evaluation (see the module's definition).
    #[inline(always)]
    pub fn leaf(&mut self, player: u64, opponent: u64) -> i32 {
        self.nodes += 1;
        if ended(player, opponent) {
            return final_score(player, opponent);
        }
        evaluate(self.weights, player, opponent)
    }

    /// [`Tree::leaf`] with the position's pattern indices at hand.
    #[inline(always)]
    fn leaf_with(&mut self, player: u64, opponent: u64, features: &Features) -> i32 {
        self.nodes += 1;
        if ended(player, opponent) {
            return final_score(player, opponent);
        }
        self.evaluate_with(player, opponent, features)
    }

    /// The evaluation (or the disc difference, without weights) from the
    /// indices kept as the search moves.
    #[inline(always)]
    fn evaluate_with(&self, player: u64, opponent: u64, features: &Features) -> i32 {
        match self.weights {
            Some(w) => w.evaluate_features(player, opponent, features),
            None => evaluate(None, player, opponent),
        }
    }

    /// Whether to give up: checked every few thousand nodes.
    #[inline(always)]
    fn check_halt(&mut self) -> bool {
        if self.nodes & 0x3ff == 0 && self.halt.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The depth-`depth` value within `alpha, beta` (see the module's
    /// invariant).
    pub fn search(&mut self, player: u64, opponent: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        let features = Features::new(player, opponent);
        self.descend((player, opponent), &features, depth, (alpha, beta))
    }

    /// [`Tree::search_with`] in this tree's instruction set, for a
    /// position (the side to move's discs, the other's) and a window
    /// (`alpha, beta`): where the search recurses.
    #[inline(always)]
    fn descend(
        &mut self,
        at: (u64, u64),
        features: &Features,
        depth: u32,
        window: (i32, i32),
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.modern {
            // SAFETY: `modern` is set only where `modern_instructions()`
            // found every instruction `modern_search` is compiled with.
            return unsafe { modern_search(self, at, features, depth, window) };
        }
        plain_search(self, at, features, depth, window)
    }

    /// [`Tree::search`] with the position's pattern indices at hand, as
    /// the search keeps them from node to node.
    #[inline(always)]
    fn search_with(
        &mut self,
        player: u64,
        opponent: u64,
        features: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.leaf_with(player, opponent, features);
        }
        self.nodes += 1;
        if self.check_halt() {
            return 0;
        }
        let legal = moves(player, opponent);
        if legal == 0 {
            if moves(opponent, player) == 0 {
                return final_score(player, opponent);
            }
            let passed = features.passed();
            return -self.descend((opponent, player), &passed, depth, (-beta, -alpha));
        }
        if depth == 1 {
            return self.depth_1(player, opponent, features, legal, beta);
        }
        self.node(player, opponent, features, legal, depth, alpha, beta)
    }

    /// One move from the leaves: the best of the children's depth-0
    /// values, stopping at a cut-off.
    #[inline(always)]
    fn depth_1(
        &mut self,
        player: u64,
        opponent: u64,
        features: &Features,
        mut legal: u64,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        while legal != 0 {
            let x = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            let f = crate::engine::board::flips_at(player, opponent, x);
            let next = features.after(x, f);
            let v = -self.leaf_with(opponent ^ f, player | f | (1 << x), &next);
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// A node of depth 2 or more with legal moves: the table, the sorted
    /// moves, the principal-variation loop.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn node(
        &mut self,
        player: u64,
        opponent: u64,
        features: &Features,
        legal: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut hint = None;
        if let Some(e) = self.table.probe(player, opponent) {
            hint = e.best;
            if u32::from(e.depth) == depth.min(255) {
                if e.lower >= beta || e.lower == e.upper {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
            }
        }
        if self.selectivity != Selectivity::Off && depth >= PROBCUT_MIN && beta - alpha == 1 {
            let (shallow, margin) = if self.selectivity == Selectivity::Bold {
                let shallow = bold_depth(depth);
                let empties = (!(player | opponent)).count_ones();
                (shallow, bold_margin(depth, shallow, empties))
            } else {
                (careful_depth(depth), careful_margin(depth))
            };
            let high = beta + margin;
            let at = (player, opponent);
            if self.descend(at, features, shallow, (high - 1, high)) >= high {
                return beta;
            }
            let low = alpha - margin;
            if self.descend(at, features, shallow, (low, low + 1)) <= low {
                return alpha;
            }
            if self.stopped {
                return 0;
            }
        }
        let mut list = MoveList::new(player, opponent, legal);
        self.order(&mut list, player, opponent, features, depth, hint);
        let first_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..list.len() {
            list.bring_best(i);
            let m = list.as_slice()[i];
            let (p, o) = m.next(player, opponent);
            let f = features.after(usize::from(m.square), m.flips);
            let v = if i == 0 {
                -self.descend((p, o), &f, depth - 1, (-beta, -alpha))
            } else {
                let v = -self.descend((p, o), &f, depth - 1, (-alpha - 1, -alpha));
                if v > alpha && v < beta && beta - alpha > 1 {
                    -self.descend((p, o), &f, depth - 1, (-beta, -alpha))
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m.square);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.table
            .store(player, opponent, depth, first_alpha, beta, best, best_move);
        best
    }

    /// Gives each move its ordering key (see [`super::order`]).
    #[inline(always)]
    fn order(
        &mut self,
        list: &mut MoveList,
        player: u64,
        opponent: u64,
        features: &Features,
        depth: u32,
        hint: Option<u8>,
    ) {
        if list.len() < 2 {
            return;
        }
        if depth < EVAL_ORDER {
            list.key_by_mobility(player, opponent, hint);
        } else if depth < SEARCH_ORDER {
            let mut n = 0;
            list.key_by_value(player, opponent, hint, |m, p, o| {
                n += 1;
                self.evaluate_with(p, o, &features.after(usize::from(m.square), m.flips))
            });
            self.nodes += n;
        } else {
            let d = probe_depth(depth);
            list.key_by_value(player, opponent, hint, |m, p, o| {
                // A table entry of this depth is better than a new probe.
                if let Some(e) = self.table.probe(p, o) {
                    if u32::from(e.depth) == depth - 1 && e.lower == e.upper {
                        return e.lower;
                    }
                }
                let f = features.after(usize::from(m.square), m.flips);
                self.descend((p, o), &f, d, (-INF, INF))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probcut_searches_less_deep_with_the_same_parity() {
        for depth in PROBCUT_MIN..=60 {
            for shallow in [careful_depth(depth), bold_depth(depth)] {
                assert!(shallow >= 1 && shallow < depth, "{depth} {shallow}");
                assert_eq!((depth - shallow) % 2, 0, "{depth} {shallow}");
            }
            assert!(bold_depth(depth) >= careful_depth(depth));
        }
    }

    #[test]
    fn bold_margins_grow_with_the_gap_and_towards_the_end() {
        for depth in PROBCUT_MIN..=30 {
            let shallow = bold_depth(depth);
            for empties in 1..60 {
                let m = bold_margin(depth, shallow, empties);
                assert!(m > 0);
                assert!(m >= bold_margin(depth, shallow, empties + 1));
                assert!(bold_margin(depth + 2, shallow, empties) >= m);
            }
        }
    }
}
