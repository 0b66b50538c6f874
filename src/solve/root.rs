//! The searches a caller asks for, above the tree: a value within a
//! window, an exact value by aspiration, each move's value, the best moves
//! and a best line. Generic over the kernel; [`super::Solver`] picks it.

use super::kernel::Kernel;
use super::last::final_value;
use super::nws::{nws, pvs, Search, PASS};
use crate::engine::board::{flips_at, moves};
use crate::eval::Features;

/// The moves of `player`: each square index and the position after it,
/// from the opponent's side.
pub(super) fn children(player: u64, opponent: u64) -> Vec<(u8, u64, u64)> {
    let mut legal = moves(player, opponent);
    let mut out = Vec::with_capacity(legal.count_ones() as usize);
    while legal != 0 {
        let x = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = flips_at(player, opponent, x);
        out.push((x as u8, opponent ^ f, player | f | (1 << x)));
    }
    out
}

/// A guess of the value: the evaluation's, searched a few moves deep,
/// or 0 without one (only the time to the exact value depends on it).
pub(super) fn estimate<K: Kernel>(k: K, s: &Search<'_>, player: u64, opponent: u64) -> i32 {
    match s.eval {
        Some(w) => {
            let f = Features::new(player, opponent);
            let v = k.probe(w, player, opponent, &f, 4, -1 << 20, 1 << 20, &mut 0);
            (v / crate::eval::SCALE / 2 * 2).clamp(-64, 64)
        }
        None => 0,
    }
}

/// From this many empty squares on, the exact search runs after a
/// selective pass (level [`PASS`]), from its value and with its best
/// moves in the table.
pub(super) const PRESEARCH_MIN: u32 = 20;

/// The exact value: from [`PRESEARCH_MIN`] empties on, the selective
/// pass first, from `guess`; then the exact search from its value (or
/// from `guess`). Only the time depends on the pass: the exact search
/// takes nothing from it but moves to try first (two passes, a looser
/// one first, cost more nodes on FFO #40–#49).
pub(super) fn exact<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    guess: i32,
) -> i32 {
    let empties = (!(player | opponent)).count_ones();
    if empties == 0 {
        return final_value(player, 0);
    }
    let guess = presearch(k, s, player, opponent, guess);
    if s.stop.stopped() {
        return guess;
    }
    aspiration(k, s, player, opponent, guess, FLOORLESS)
}

/// From [`PRESEARCH_MIN`] empties on (with an evaluation, at level 0):
/// the selective pass's value from `guess`, its moves left in the table;
/// below, `guess` itself.
fn presearch<K: Kernel>(k: K, s: &mut Search<'_>, player: u64, opponent: u64, guess: i32) -> i32 {
    let empties = (!(player | opponent)).count_ones();
    if s.level == 0 && s.eval.is_some() && empties >= PRESEARCH_MIN {
        s.level = PASS;
        let v = aspiration(k, s, player, opponent, guess, FLOORLESS);
        s.level = 0;
        v
    } else {
        guess
    }
}

/// The exact value of a position whose value is known to be at least
/// `floor` (a move's position, when the value of the position before it
/// is known: the move's value is at most that value). One null-window
/// search at `floor` proves the value equal to it (a best move, the common
/// case; values are even, so the window around it that [`exact`] would
/// start with is nearly as narrow: 0.3 % more nodes on real games); only
/// a value above it is searched again, by aspiration above `floor`, never
/// below it. From [`PRESEARCH_MIN`] empties a selective pass comes first;
/// when its value is above `floor`, the aspiration starts from it at
/// once. A `floor` above the value gives a bound (at most `floor`), not
/// the value.
pub(super) fn exact_from_floor<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    floor: i32,
) -> i32 {
    let empties = (!(player | opponent)).count_ones();
    if empties == 0 {
        return final_value(player, 0);
    }
    let floor = floor.clamp(-64, 64);
    let guess = presearch(k, s, player, opponent, floor);
    if s.stop.stopped() {
        return guess;
    }
    if guess > floor {
        // The selective pass found a value above the floor: the floor is
        // rarely the value then, and the aspiration from the pass's value
        // reaches the floor too when it is (WTH_1984 at 20 empties: 1.5 %
        // fewer nodes than proving the floor wrong first).
        return aspiration(k, s, player, opponent, guess, floor);
    }
    let v = nws(k, s, player, opponent, floor, empties);
    if v <= floor || s.stop.stopped() {
        return v;
    }
    // Above the floor: from the pass's value when it is above too, else
    // from the least value above the floor (values are even).
    let guess = guess.max(v).max(floor + 2);
    aspiration(k, s, player, opponent, guess, floor)
}

/// No floor: an [`aspiration`] free to go down to the least value.
pub(super) const FLOORLESS: i32 = -65;

/// The value at the search's level, searched first in a narrow window
/// around `guess` and widened on the side the value fell (aspiration),
/// never below `floor`: the value is known to be above it
/// ([`FLOORLESS`] when nothing is known).
pub(super) fn aspiration<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    guess: i32,
    floor: i32,
) -> i32 {
    let guess = (guess.clamp(-64, 64) / 2) * 2;
    let (mut low, mut high) = ((guess - 1).max(floor), guess + 1);
    let mut delta = 4;
    let mut tries = 0;
    loop {
        let v = pvs(k, s, player, opponent, low, high);
        if s.stop.stopped() {
            return v;
        }
        tries += 1;
        // A selective pass's bounds need not agree with each other, and
        // its value is a guess: a few windows are enough.
        if (v > low && v < high) || (s.level > 0 && tries == 4) {
            return v;
        }
        if v <= floor {
            // Only a wrong floor: the bound is all there is to give.
            return v;
        }
        if v <= low {
            high = v + 1;
            low = (v - delta).max(-65).max(floor);
        } else {
            low = v - 1;
            high = (v + delta).min(65);
        }
        delta *= 2;
    }
}

/// Whether the move to `(p, o)` reaches `value` (its value is at least
/// `value`, never more than the position's).
pub(super) fn reaches<K: Kernel>(k: K, s: &mut Search<'_>, p: u64, o: u64, value: i32) -> bool {
    let empties = (!(p | o)).count_ones();
    // The child's value is at most -value iff the search at -value fails low.
    nws(k, s, p, o, -value, empties) <= -value
}

/// The squares (indices) of every move reaching `value`, the position's
/// value, by square order; `None` for a side that must pass.
pub(super) fn best_moves<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    player: u64,
    opponent: u64,
    value: i32,
) -> Vec<u8> {
    let mut best = Vec::new();
    for (x, p, o) in children(player, opponent) {
        if s.stop.stopped() {
            break;
        }
        if reaches(k, s, p, o, value) {
            best.push(x);
        }
    }
    best
}

/// A best line from a position of `value` to the end of the game, first
/// move `first` when given: square indices, `None` for a pass.
pub(super) fn line<K: Kernel>(
    k: K,
    s: &mut Search<'_>,
    mut player: u64,
    mut opponent: u64,
    mut value: i32,
    first: Option<u8>,
) -> Vec<Option<u8>> {
    let mut out = Vec::new();
    let mut first = first;
    loop {
        if s.stop.stopped() {
            return out;
        }
        let kids = children(player, opponent);
        if kids.is_empty() {
            if moves(opponent, player) == 0 {
                return out;
            }
            out.push(None);
            std::mem::swap(&mut player, &mut opponent);
            value = -value;
            continue;
        }
        let chosen = match first.take() {
            Some(x) => kids.iter().find(|c| c.0 == x).copied(),
            None => None,
        };
        let chosen = chosen.or_else(|| {
            if kids.len() == 1 {
                return Some(kids[0]);
            }
            // The table's best move is tried first: usually right at once.
            let hint = s.table.probe(player, opponent).and_then(|e| e.best);
            let mut order = kids.clone();
            if let Some(h) = hint {
                order.sort_by_key(|c| c.0 != h);
            }
            order
                .into_iter()
                .find(|&(_, p, o)| reaches(k, s, p, o, value))
        });
        let Some((x, p, o)) = chosen else {
            // Only a stopped search finds no move reaching the value.
            return out;
        };
        out.push(Some(x));
        player = p;
        opponent = o;
        value = -value;
    }
}
