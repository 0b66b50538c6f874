//! How candidates compare: [`Rank`], the [`Suggestion`] that carries it,
//! and which candidates count as one game.

use crate::engine::game::{Finish, Move, Status};
use crate::record::repair::edits::{Edit, Mark};
use crate::record::{GameRecord, Rules, Token};
use crate::{Score, Symmetry};

/// How a suggestion compares with others: smaller is better, field by
/// field (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Rank {
    /// The repaired record stops at an illegal move before its end.
    pub falls_short: bool,
    /// Edits made.
    pub edits: usize,
    /// Move tokens of the record not reached (0 when it plays to the end).
    pub shortfall: usize,
    /// 0: agrees with the recorded result, 1: nothing to check, 2: does
    /// not agree.
    pub result: u8,
    /// The repaired game stops while a side can still move.
    pub unfinished: bool,
    /// The plausibility cost of the edits.
    pub cost: u32,
}

impl Rank {
    /// The rank of a candidate of `record` with `edits` edits of total
    /// `cost` that plays `progress` of its move tokens, and finishes as
    /// `finish` when it plays them all.
    pub(super) fn of(
        record: &GameRecord,
        edits: usize,
        progress: usize,
        finish: Option<&Finish>,
        cost: u32,
    ) -> Rank {
        let total = record.moves.len();
        let reaches = progress >= total;
        let complete = reaches && finish.is_some_and(|f| f.status == Status::Complete);
        let result = match (&record.result, finish) {
            (Some(claim), Some(f)) if complete => {
                if claim.agrees_with(&final_score(record, f)) {
                    0
                } else {
                    2
                }
            }
            _ => 1,
        };
        Rank {
            falls_short: !reaches,
            edits,
            shortfall: total.saturating_sub(progress),
            result,
            unfinished: !complete,
            cost,
        }
    }
}

/// The score of a repaired game of `record` that ends as `finish`, under
/// the record's rules.
pub(super) fn final_score(record: &GameRecord, finish: &Finish) -> Score {
    if record.rules == Rules::Anti {
        Score::anti(finish.score.black_discs, finish.score.white_discs)
    } else {
        finish.score
    }
}

/// A candidate repair.
#[derive(Clone, PartialEq, Debug)]
pub struct Suggestion {
    /// The edits, in record order.
    pub edits: Vec<Edit>,
    /// The record with the edits made (tags, result and the spans of the
    /// moves kept).
    pub record: GameRecord,
    /// Whether every move of the repaired record is legal.
    pub reaches_end: bool,
    /// Move tokens of the original record played legally (all of them
    /// when it reaches the end).
    pub progress: usize,
    /// Complete or incomplete when it reaches the end, else invalid.
    pub status: Status,
    /// The final score when the repaired game is complete.
    pub score: Option<Score>,
    /// How it ranks.
    pub rank: Rank,
    /// Moves of the repaired record that an edit placed, by 0-based index.
    pub marks: Vec<(usize, Mark)>,
    /// Moves deleted: the 0-based index in the repaired record they stood
    /// before, and the token as written.
    pub deleted: Vec<(usize, String)>,
}

/// Whether the first suggestion ranks strictly above the second (or is
/// the only one): only then is it the repair.
#[must_use]
pub fn is_unique(suggestions: &[Suggestion]) -> bool {
    match suggestions {
        [] => false,
        [_] => true,
        [a, b, ..] => a.rank < b.rank,
    }
}

/// A key equal for two records that are the same game under a symmetry
/// of the board.
pub(super) fn orbit_key(record: &GameRecord) -> Vec<u8> {
    let mut best: Option<Vec<u8>> = None;
    for s in Symmetry::ALL {
        let board = record.start.board().transform(s);
        let mut key = Vec::with_capacity(17 + record.moves.len());
        key.extend_from_slice(&board.black().0.to_le_bytes());
        key.extend_from_slice(&board.white().0.to_le_bytes());
        key.push(record.start.side_to_move() as u8);
        for m in &record.moves {
            key.push(match m.token {
                Token::Move(Move::Play(sq)) => sq.transform(s).index() as u8,
                Token::Move(Move::Pass) => 64,
                Token::Unreadable => 65,
            });
        }
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    best.unwrap_or_default()
}
