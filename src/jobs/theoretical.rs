//! WTHOR's stored theoretical scores checked by exact solving (`kifu
//! validate --theoretical`, `kifu.distributed.validate_theoretical`).

use crate::record::analysis::theoretical_black_score_near;
use crate::solve::Solver;
use crate::{GameRecord, Report};

/// The status of a contradicted score in the report's rows.
pub const WRONG: &str = "wrong_theoretical_score";

/// A stored theoretical score that exact solving contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wrong {
    /// The score stored (Black's discs).
    pub stored: u8,
    /// The score by exact solving.
    pub solved: u8,
    /// The empties it was solved from (the file's depth).
    pub depth: u8,
}

impl Wrong {
    /// `theoretical score S stored, T by exact solving from D empties`.
    #[must_use]
    pub fn message(&self) -> String {
        format!(
            "theoretical score {} stored, {} by exact solving from {} empties",
            self.stored, self.solved, self.depth
        )
    }
}

/// Whether `record` stores a theoretical score that can be checked (a
/// valid game that stores one).
#[must_use]
pub fn checkable(record: &GameRecord, report: &Report) -> bool {
    record.theoretical_black_score.is_some() && report.error.is_none()
}

/// Checks the theoretical score `record` stores, if any: `None` when it
/// is right or cannot be checked (an invalid game), else the stored and
/// the solved score and the depth. A game that ended with more empty
/// squares than the depth stores its own score (WTHOR's rule).
#[must_use]
pub fn check(solver: &Solver, record: &GameRecord, report: &Report) -> Option<Wrong> {
    let (stored, depth) = (record.theoretical_black_score?, record.theoretical_depth?);
    if report.error.is_some() {
        return None;
    }
    // Never interrupted: the solver here has no interrupt flag.
    // The stored score is the likeliest value: started from it, a right
    // score is proven in one narrow search.
    let near = theoretical_black_score_near(solver, record, report, u32::from(depth), Some(stored));
    let solved = match near.ok()? {
        Some(score) => score,
        None => record
            .result
            .and_then(|r| r.black_score())
            .or_else(|| report.final_score().map(|s| s.black_score))?,
    };
    (solved != stored).then_some(Wrong {
        stored,
        solved,
        depth,
    })
}
