//! Record repair: the smallest edits that make an invalid record legal.
//!
//! A record that breaks the rules at some move was usually typed or copied
//! with one slip: a square one off, letter and digit swapped, two moves in
//! the wrong order, a move left out or written twice, or the whole game
//! taken down in another orientation. [`suggest`] searches those edits and
//! returns the candidates that make the record play on, best first.
//!
//! ```
//! use kifu::formats::transcript::{parse_line, LineContext};
//! use kifu::repair::{is_unique, suggest};
//!
//! let ctx = LineContext { line: 1, byte: 0, index: 1 };
//! // Move 8 was f3, written g3 (flips nothing).
//! let record = parse_line(b"f5d6c3d3c4f4f6g3e6e7", ctx).unwrap();
//! let found = suggest(&record, 3);
//! assert!(is_unique(&found));
//! assert!(found[0].reaches_end);
//! assert_eq!(found[0].edits[0].to_string(), "move 8: g3 -> f3 (neighbouring square)");
//! assert_eq!(found[0].record.move_string(), "f5d6c3d3c4f4f6f3e6e7");
//! ```
//!
//! # The search
//!
//! The first failing move bounds where a single slip can be: at that move
//! or before it (a wrong but legal move only fails later). For every move
//! up to the failure the search replays from the position cached before it
//! and tries: each legal square in its place (a substitution), the move
//! swapped with the next one, each legal square inserted before it, and
//! the move deleted; then it plays the rest of the record as written and
//! notes how far it gets. It also replays the whole record under each of
//! the seven other symmetries of the board and from the start with the
//! disc colours swapped. Only candidates that get further than the record
//! itself are kept, and never one whose edits cancel out (a move deleted
//! and the same move inserted where it stood, or any edits whose moves
//! differ from the record's by fewer edits than they make). When no single
//! edit plays the record to its end, the candidates that got furthest (a
//! beam of [`Options::beam`]) are searched again after their edit, up to
//! [`Options::max_edits`] edits.
//!
//! # The ranking
//!
//! Candidates compare by their [`Rank`], field by field:
//!
//! 1. one that plays the whole record to its end before one that does not
//!    (a candidate that stops early is not a repair);
//! 2. fewer edits;
//! 3. the longer legal continuation (for candidates that stop early);
//! 4. plausibility, in this order:
//!    - a recorded result that the repaired game's final score agrees
//!      with, before no check possible, before a disagreeing one;
//!    - a game played to its end before one that stops while a side can
//!      still move (records are mostly of finished games);
//!    - the cost of the edits, the sum of [`Edit::cost`]: a guess at how
//!      often people make each slip when copying a score sheet. Cheapest
//!      first: a move written twice (1); a neighbouring square, two moves
//!      transposed (2); letter and digit swapped, a whole-record symmetry
//!      that leaves the game starting with f5 (3); a mirrored row or
//!      column, the right column but the wrong row or the reverse, a
//!      symmetry that does not start with f5, the start colours swapped
//!      (4); a move deleted or inserted (5); any other square (7).
//!
//! Candidates with equal ranks are equally good: the best candidate is
//! unique only when the second one ranks strictly lower ([`is_unique`]).
//! Candidates that are the same game under a symmetry of the board (a
//! record turned a quarter turn is repaired by four turns and mirrors,
//! one of which starts with f5, the orientation of WTHOR and most
//! databases) count once, as the best ranked of them.

mod edits;
mod rank;
mod search;
#[cfg(test)]
mod tests;

pub use edits::{Edit, Mark, Typo};
pub use rank::{is_unique, Rank, Suggestion};
pub use search::{suggest_with, Options};

use crate::record::GameRecord;

/// The best `limit` candidate repairs of an invalid record, best first;
/// empty when the record has no illegal move. Uses [`Options::default`].
#[must_use]
pub fn suggest(record: &GameRecord, limit: usize) -> Vec<Suggestion> {
    suggest_with(record, limit, &Options::default())
}

/// What [`repair`] decided for a record.
#[derive(Clone, PartialEq, Debug)]
pub enum Verdict {
    /// Every move is legal: nothing to do.
    Valid,
    /// The record could not be read to its end (a syntax error), which
    /// no move edit mends.
    Unreadable,
    /// One candidate plays the record to its end and ranks above all
    /// others.
    Repaired(Suggestion),
    /// Several candidates tie for first (all of them, best first).
    Ambiguous(Vec<Suggestion>),
    /// No candidate within the edit limit plays the record to its end;
    /// the one that gets furthest, if any.
    Unrepairable(Option<Suggestion>),
}

/// Decides what to do with a record: repair it when exactly one best
/// candidate plays it to its end.
#[must_use]
pub fn repair(record: &GameRecord, options: &Options) -> Verdict {
    let report = record.replay();
    if report.error.is_none() {
        return Verdict::Valid;
    }
    if record.defect.is_some() {
        return Verdict::Unreadable;
    }
    let mut found = suggest_with(record, 6, options);
    match found.first() {
        None => Verdict::Unrepairable(None),
        Some(best) if !best.reaches_end => Verdict::Unrepairable(found.into_iter().next()),
        Some(_) if is_unique(&found) => Verdict::Repaired(found.swap_remove(0)),
        Some(best) => {
            let rank = best.rank;
            found.retain(|s| s.rank == rank);
            Verdict::Ambiguous(found)
        }
    }
}
