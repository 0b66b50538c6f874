//! Training positions and their labels: games as lines of positions,
//! lines kifu makes itself by leaving them, and each position's label.
//!
//! A label is **exact** where kifu solves the position (at most
//! [`LabelOptions::exact_empties`] empty squares: the solver's value)
//! and **propagated** before that: the exact value of the first position
//! of the same line that is solved, seen from the earlier position's side
//! to move — the result the line's own moves lead to if both sides play
//! perfectly from there. A propagated label is an estimate (the moves
//! before it may lose discs); [`Labelled::exact`] tells them apart.
//!
//! Generated lines ([`deviations`]) leave a line at a random position a
//! little before the exact labels start, by a random legal move other
//! than the one played, and go on to the end by a fixed, weight-free
//! player (the move leaving the opponent fewest replies, a corner
//! first, ties and one move in ten chosen at random). Everything is
//! seeded: the same lines, seed and options give the same positions and
//! labels on any machine and any number of threads.

use rayon::prelude::*;

use super::fit::Sample;
use super::Weights;
use crate::engine::bitboard::Bitboard;
use crate::engine::board::{flips_at, moves};
use crate::search::{SearchOptions, Searcher, Selectivity};
use crate::solve::{Solver, SolverOptions};
use crate::{Board, Color, Position};

/// A line of play: the positions along a game, each before its move,
/// then the last (a side to move with no legal move passes: the next
/// position has the same discs and the other side to move).
pub type Line = Vec<Position>;

/// How positions are labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelOptions {
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// Positions with fewer empties than this are left out of the samples
    /// (they are still solved when a later label needs them).
    pub min_empties: u32,
    /// Positions with more empties than this are left out.
    pub max_empties: u32,
    /// Each solver's transposition table, in bytes.
    pub hash_bytes: usize,
}

impl Default for LabelOptions {
    fn default() -> LabelOptions {
        LabelOptions {
            exact_empties: 18,
            min_empties: 0,
            max_empties: 60,
            hash_bytes: 16 << 20,
        }
    }
}

/// A labelled position and how its label was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The position and its label.
    pub sample: Sample,
    /// Whether the label is the solver's exact value (else propagated).
    pub exact: bool,
}

/// The end value of a finished position for its side to move, the empty
/// squares to the winner.
fn final_value(player: u64, opponent: u64) -> i32 {
    let (p, o) = (player.count_ones() as i32, opponent.count_ones() as i32);
    let empties = 64 - p - o;
    match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + empties,
        std::cmp::Ordering::Less => p - o - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A position from the side to move's discs and the other side's.
fn position(player: u64, opponent: u64, side: Color) -> Position {
    let (black, white) = match side {
        Color::Black => (player, opponent),
        Color::White => (opponent, player),
    };
    let board = Board::new(Bitboard(black), Bitboard(white)).expect("disjoint discs");
    Position::new(board, side)
}

/// `value` (for `from`'s side to move) seen by `to`'s side to move.
fn seen_by(value: i32, from: &Position, to: &Position) -> i32 {
    if from.side_to_move() == to.side_to_move() {
        value
    } else {
        -value
    }
}

/// Labels the positions of one line (see the module's comment), with a
/// solver of its own thread.
fn label_line(solver: &Solver, line: &[Position], options: &LabelOptions) -> Vec<Labelled> {
    let empties = |p: &Position| p.board().empty().count();
    let Some(first) = line
        .iter()
        .position(|p| empties(p) <= options.exact_empties)
        .or_else(|| line.len().checked_sub(1))
    else {
        return Vec::new();
    };
    let mut values = vec![0i32; line.len()];
    let mut guess = 0;
    for i in first..line.len() {
        let (p, o) = line[i].relative();
        let v = if moves(p, o) == 0 && moves(o, p) == 0 {
            final_value(p, o)
        } else {
            match solver.value(&line[i], guess) {
                Ok((v, _)) => v,
                Err(_) => unreachable!("a labelling solver has no interrupt flag"),
            }
        };
        values[i] = v;
        if i + 1 < line.len() {
            guess = seen_by(v, &line[i], &line[i + 1]);
        }
    }
    let anchor = values[first];
    line.iter()
        .enumerate()
        .filter(|(_, p)| (options.min_empties..=options.max_empties).contains(&empties(p)))
        .map(|(i, p)| {
            let (player, opponent) = p.relative();
            let (score, exact) = if i >= first {
                (values[i], true)
            } else {
                (seen_by(anchor, &line[first], p), false)
            };
            Labelled {
                sample: Sample {
                    player,
                    opponent,
                    score: score as i8,
                },
                exact,
            }
        })
        .collect()
}

/// Labels every line's positions, in parallel, in the lines' order.
/// `progress` hears the lines done so far now and then (from any thread).
pub fn label(
    lines: &[Line],
    options: &LabelOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Labelled> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let chunks: Vec<Vec<Labelled>> = lines
        .par_chunks(16)
        .map(|chunk| {
            let solver = Solver::new(SolverOptions::with_hash(options.hash_bytes));
            let out = chunk
                .iter()
                .flat_map(|line| label_line(&solver, line, options))
                .collect();
            let n = done.fetch_add(chunk.len(), std::sync::atomic::Ordering::Relaxed);
            progress(n + chunk.len());
            out
        })
        .collect();
    chunks.concat()
}

/// Relabels every position of `labelled` whose label is not exact and
/// that has at least `from_empties` empty squares by a `depth`-move
/// search on `weights` (the midgame search, careful selectivity): the
/// search's estimate in whole discs replaces the
/// propagated value, weighted `share` percent against it (100: the
/// search alone). The exact labels stay. Deterministic: the positions
/// go in fixed chunks, each searched in order by a searcher of its own
/// (tables of `hash_bytes`), so the same labels, weights and depth give
/// the same result on any number of threads. `progress` hears the
/// positions done so far now and then (from any thread). Returns how
/// many were relabelled.
pub fn relabel_by_search(
    labelled: &mut [Labelled],
    weights: &'static Weights,
    depth: u32,
    share: u8,
    from_empties: u32,
    hash_bytes: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> usize {
    const CHUNK: usize = 4096;
    let share = i32::from(share.min(100));
    let done = std::sync::atomic::AtomicUsize::new(0);
    labelled
        .par_chunks_mut(CHUNK)
        .map(|chunk| {
            let options = SearchOptions {
                hash_bytes,
                solver_hash_bytes: hash_bytes,
                selectivity: Selectivity::Careful,
            };
            let searcher = Searcher::with_weights(options, Some(weights));
            let mut relabelled = 0;
            let wanted = |l: &&mut Labelled| !l.exact && l.sample.empties() >= from_empties;
            for l in chunk.iter_mut().filter(wanted) {
                let (p, o) = (l.sample.player, l.sample.opponent);
                let Ok(estimate) = searcher.estimate(&position(p, o, Color::Black), depth) else {
                    unreachable!("a labelling searcher has no interrupt flag")
                };
                let blended =
                    (estimate.value * share + i32::from(l.sample.score) * (100 - share)) / 100;
                l.sample.score = blended.clamp(-64, 64) as i8;
                relabelled += 1;
            }
            let n = done.fetch_add(chunk.len(), std::sync::atomic::Ordering::Relaxed);
            progress(n + chunk.len());
            relabelled
        })
        .sum()
}

/// The exact values of `positions`, solved in parallel, in their order.
pub fn solve_all(positions: &[Position], hash_bytes: usize) -> Vec<i32> {
    positions
        .par_chunks(8)
        .flat_map_iter(|chunk| {
            let solver = Solver::new(SolverOptions::with_hash(hash_bytes));
            chunk
                .iter()
                .map(|p| match solver.value(p, 0) {
                    Ok((v, _)) => v,
                    Err(_) => unreachable!("no interrupt flag"),
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A small seeded generator (SplitMix64): the same seed, the same
/// numbers on every machine.
#[derive(Clone, Debug)]
pub struct Seeded(u64);

impl Seeded {
    /// The generator for `seed` and stream `stream` (one a line, so lines
    /// do not depend on each other's draws).
    #[must_use]
    pub fn new(seed: u64, stream: u64) -> Seeded {
        let mut s = Seeded(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        s.next_u64();
        s
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// The `k`-th set bit of `set`.
fn nth_bit(mut set: u64, k: u64) -> u64 {
    for _ in 0..k {
        set &= set - 1;
    }
    set & set.wrapping_neg()
}

/// The weight-free player's move: the fewest replies left to the
/// opponent (corners counted twice, a corner of one's own first), ties
/// at random, and one move in ten at random.
fn plain_move(player: u64, opponent: u64, rng: &mut Seeded) -> usize {
    const CORNERS: u64 = 0x8100_0000_0000_0081;
    let legal = moves(player, opponent);
    if rng.below(10) == 0 {
        return nth_bit(legal, rng.below(u64::from(legal.count_ones()))).trailing_zeros() as usize;
    }
    let mut best = (i32::MAX, Vec::new());
    let mut l = legal;
    while l != 0 {
        let x = l.trailing_zeros() as usize;
        l &= l - 1;
        let f = flips_at(player, opponent, x);
        let (p, o) = (opponent ^ f, player | f | (1 << x));
        let replies = moves(p, o);
        let mut key = replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32;
        if (1u64 << x) & CORNERS != 0 {
            key -= 8;
        }
        if key < best.0 {
            best = (key, vec![x]);
        } else if key == best.0 {
            best.1.push(x);
        }
    }
    best.1[rng.below(best.1.len() as u64) as usize]
}

/// Lines kifu makes by leaving `lines`: `count` of them, the `j`-th from
/// the line `seed` draws for it, at a position with `exact_empties + 1`
/// to `exact_empties + reach` empties (drawn too), by a random legal move
/// other than the one played there (where there is one), then played to
/// the end by the weight-free player. Each generated line starts at the
/// position after the leaving move. Lines shorter than that are skipped.
#[must_use]
pub fn deviations(
    lines: &[Line],
    count: usize,
    seed: u64,
    exact_empties: u32,
    reach: u32,
) -> Vec<Line> {
    if lines.is_empty() {
        return Vec::new();
    }
    (0..count)
        .into_par_iter()
        .filter_map(|j| {
            let mut rng = Seeded::new(seed, j as u64);
            let line = &lines[rng.below(lines.len() as u64) as usize];
            let target = exact_empties + 1 + rng.below(u64::from(reach.max(1))) as u32;
            let at = line
                .iter()
                .position(|p| p.board().empty().count() <= target)?;
            let start = line[at];
            let (p, o) = start.relative();
            let legal = moves(p, o);
            if legal == 0 {
                return None;
            }
            // The move the game played, if the line goes on by a move.
            let played = line.get(at + 1).map_or(0, |next| {
                let now = start.board().empty().count();
                if next.board().empty().count() + 1 == now {
                    let (np, no) = next.relative();
                    !(p | o) & (np | no)
                } else {
                    0
                }
            });
            let choices = if legal & !played != 0 {
                legal & !played
            } else {
                legal
            };
            let x = nth_bit(choices, rng.below(u64::from(choices.count_ones()))).trailing_zeros()
                as usize;
            let f = flips_at(p, o, x);
            let (mut p, mut o) = (o ^ f, p | f | (1 << x));
            let mut side = start.side_to_move().opponent();
            let mut out = Vec::with_capacity(target as usize + 2);
            loop {
                let legal = moves(p, o);
                if legal == 0 {
                    if moves(o, p) == 0 {
                        out.push(position(p, o, side));
                        break;
                    }
                    (p, o) = (o, p);
                    side = side.opponent();
                    continue;
                }
                out.push(position(p, o, side));
                let x = plain_move(p, o, &mut rng);
                let f = flips_at(p, o, x);
                (p, o) = (o ^ f, p | f | (1 << x));
                side = side.opponent();
            }
            Some(out)
        })
        .collect()
}

/// One position drawn from each of up to `count` lines (the lines drawn
/// by `seed`, without repeats), with `low` to `high` empties, for a
/// measurement on positions of games no training input holds.
#[must_use]
pub fn draw_positions(
    lines: &[Line],
    count: usize,
    seed: u64,
    low: u32,
    high: u32,
) -> Vec<Position> {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    let mut rng = Seeded::new(seed, u64::MAX);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut out = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if out.len() == count {
            break;
        }
        let mut r = Seeded::new(seed, k as u64);
        let wanted = low + r.below(u64::from(high - low + 1)) as u32;
        if let Some(p) = lines[i].iter().find(|p| {
            let (a, b) = p.relative();
            p.board().empty().count() == wanted && moves(a, b) != 0
        }) {
            out.push(*p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of the weight-free player from the start.
    fn played_line(seed: u64) -> Line {
        let mut rng = Seeded::new(seed, 0);
        let mut pos = Position::start();
        let mut out = Vec::new();
        loop {
            let (p, o) = pos.relative();
            if moves(p, o) == 0 {
                if moves(o, p) == 0 {
                    out.push(pos);
                    break;
                }
                pos = position(o, p, pos.side_to_move().opponent());
                continue;
            }
            out.push(pos);
            let x = plain_move(p, o, &mut rng);
            let f = flips_at(p, o, x);
            pos = position(o ^ f, p | f | (1 << x), pos.side_to_move().opponent());
        }
        out
    }

    #[test]
    fn labels_are_exact_from_the_threshold_and_agree_along_the_line() {
        let line = played_line(3);
        let options = LabelOptions {
            exact_empties: 10,
            hash_bytes: 1 << 20,
            ..LabelOptions::default()
        };
        let labelled = label(std::slice::from_ref(&line), &options, &|_| {});
        assert_eq!(labelled.len(), line.len());
        let solver = Solver::new(SolverOptions::with_hash(1 << 20));
        let first = line
            .iter()
            .position(|p| p.board().empty().count() <= 10)
            .unwrap();
        for (i, (l, p)) in labelled.iter().zip(&line).enumerate() {
            assert_eq!(l.exact, i >= first, "position {i}");
            if l.exact && !p.is_game_over() {
                assert_eq!(i32::from(l.sample.score), solver.value(p, 0).unwrap().0);
            }
            if !l.exact {
                let anchor = labelled[first].sample.score;
                let same = p.side_to_move() == line[first].side_to_move();
                assert_eq!(l.sample.score, if same { anchor } else { -anchor });
            }
        }
    }

    #[test]
    fn searched_labels_replace_the_propagated_ones_only() {
        let Some(weights) = Weights::builtin() else {
            return;
        };
        let lines: Vec<Line> = (0..3).map(played_line).collect();
        let options = LabelOptions {
            exact_empties: 10,
            hash_bytes: 1 << 20,
            ..LabelOptions::default()
        };
        let propagated = label(&lines, &options, &|_| {});
        let searched_by = |share: u8| {
            let mut l = propagated.clone();
            let n = relabel_by_search(&mut l, weights, 2, share, 0, 1 << 20, &|_| {});
            (l, n)
        };
        let (searched, n) = searched_by(100);
        assert_eq!(n, propagated.iter().filter(|l| !l.exact).count());
        assert!(n > 0);
        let searcher = Searcher::with_weights(SearchOptions::with_hash(1 << 20), Some(weights));
        for (s, p) in searched.iter().zip(&propagated) {
            assert_eq!(s.exact, p.exact);
            assert_eq!(
                (s.sample.player, s.sample.opponent),
                (p.sample.player, p.sample.opponent)
            );
            if p.exact {
                assert_eq!(s.sample.score, p.sample.score);
            } else {
                let at = position(p.sample.player, p.sample.opponent, Color::Black);
                let e = searcher.estimate(&at, 2).unwrap();
                assert_eq!(i32::from(s.sample.score), e.value);
            }
        }
        // No share for the search: the labels as they were; half: between.
        assert_eq!(searched_by(0).0, propagated);
        let (half, _) = searched_by(50);
        for ((h, s), p) in half.iter().zip(&searched).zip(&propagated) {
            let (a, b) = (
                s.sample.score.min(p.sample.score),
                s.sample.score.max(p.sample.score),
            );
            assert!((a..=b).contains(&h.sample.score));
        }
        // The same again, on any number of threads: the same labels.
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(one.install(|| searched_by(100)).0, searched);
        // From 50 empties: only the earlier positions change.
        let mut early = propagated.clone();
        let n = relabel_by_search(&mut early, weights, 2, 100, 50, 1 << 20, &|_| {});
        let empties = |l: &Labelled| l.sample.empties();
        assert!(n > 0 && n < searched.len());
        for ((e, s), p) in early.iter().zip(&searched).zip(&propagated) {
            let expected = if empties(p) >= 50 { s } else { p };
            assert_eq!(e, expected);
        }
        assert_eq!(
            n,
            early
                .iter()
                .zip(&propagated)
                .filter(|(_, p)| !p.exact && empties(p) >= 50)
                .count()
        );
    }

    #[test]
    fn deviations_repeat_with_their_seed_and_leave_the_line() {
        let lines: Vec<Line> = (0..4).map(played_line).collect();
        let a = deviations(&lines, 6, 9, 12, 6);
        let b = deviations(&lines, 6, 9, 12, 6);
        assert!(!a.is_empty());
        let key = |l: &Line| l.iter().map(|p| p.relative()).collect::<Vec<_>>();
        assert_eq!(
            a.iter().map(key).collect::<Vec<_>>(),
            b.iter().map(key).collect::<Vec<_>>()
        );
        for line in &a {
            let e = line[0].board().empty().count();
            assert!((12..=18).contains(&e), "{e}");
            assert!(line.last().unwrap().is_game_over());
        }
    }

    #[test]
    fn the_generator_spreads_its_draws() {
        let mut r = Seeded::new(1, 2);
        let mut seen = [0u32; 8];
        for _ in 0..800 {
            seen[r.below(8) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (60..140).contains(&n)), "{seen:?}");
    }
}
