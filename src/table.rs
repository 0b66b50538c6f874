//! One summary row per game: the CSV table of SPEC section 4, shared by
//! the CSV and JSON Lines writers and by `kifu score`.

use crate::record::{GameRecord, Report};
use crate::{Status, Winner};

/// The CSV header, exactly as SPEC section 4 gives it, followed by the
/// columns kifu adds at the end.
pub const HEADER: [&str; 23] = [
    "source",
    "index",
    "event",
    "date",
    "black_player",
    "white_player",
    "moves",
    "move_count",
    "passes",
    "black_discs",
    "white_discs",
    "empties",
    "black_score",
    "white_score",
    "winner",
    "recorded_black_score",
    "status",
    "error_move",
    "error",
    // Added by kifu, after the contract's columns:
    "theoretical_black_score",
    "recorded_result",
    "start",
    "tags",
];

/// Names under which the `tags` column keeps the tag fields that have no
/// column of their own.
pub const TAG_NAMES: [&str; 4] = ["site", "round", "black_rating", "white_rating"];

/// The summary of one replayed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Row<'a> {
    /// The input path as given (`-` for stdin).
    pub source: &'a str,
    /// The record.
    pub record: &'a GameRecord,
    /// Its replay.
    pub report: &'a Report,
}

impl<'a> Row<'a> {
    /// A row for `record` read from `source`.
    #[must_use]
    pub fn new(source: &'a str, record: &'a GameRecord, report: &'a Report) -> Row<'a> {
        Row {
            source,
            record,
            report,
        }
    }

    /// Complete, incomplete or invalid.
    #[must_use]
    pub fn status(&self) -> Status {
        self.report.status()
    }

    /// Black's and White's scores (empties to the winner), for a complete
    /// game only.
    #[must_use]
    pub fn scores(&self) -> Option<(u8, u8)> {
        self.report
            .final_score()
            .map(|s| (s.black_score, s.white_score))
    }

    /// The winner: from the board for a complete game, from the recorded
    /// result for an incomplete one, none for an invalid one.
    #[must_use]
    pub fn winner(&self) -> Option<Winner> {
        match self.status() {
            Status::Complete => Some(self.report.finish.score.winner),
            Status::Incomplete => self.record.result.and_then(|r| r.winner()),
            Status::Invalid => None,
        }
    }

    /// What the record claims as Black's score, if it gives one.
    #[must_use]
    pub fn recorded_black_score(&self) -> Option<u8> {
        self.record.result.and_then(|r| r.black_score())
    }

    /// Whether a recorded result disagrees with the replay of a complete
    /// game (`None` when there is nothing to compare).
    #[must_use]
    pub fn disagrees(&self) -> Option<bool> {
        let score = self.report.final_score()?;
        let result = self.record.result?;
        Some(!result.agrees_with(&score))
    }

    /// The 1-based number of the first offending move token.
    #[must_use]
    pub fn error_move(&self) -> Option<usize> {
        self.report.error.as_ref().and_then(|e| e.move_number())
    }

    /// The reason a game is invalid.
    #[must_use]
    pub fn error(&self) -> Option<String> {
        self.report.error.as_ref().map(|e| e.reason())
    }

    /// The start as a board string (`X`/`O`/`-`, a space, `X` or `O`),
    /// only when it is not the standard one.
    #[must_use]
    pub fn start(&self) -> Option<String> {
        if self.record.has_standard_start() {
            return None;
        }
        Some(self.record.start.to_string())
    }

    /// The tags without a column of their own, as a JSON array of
    /// `[name, value]` pairs (empty text when there are none).
    #[must_use]
    pub fn tags(&self) -> String {
        let t = &self.record.tags;
        let fixed = [&t.site, &t.round, &t.black_rating, &t.white_rating];
        let pairs: Vec<(&str, &str)> = TAG_NAMES
            .iter()
            .zip(fixed)
            .filter_map(|(name, value)| value.as_deref().map(|v| (*name, v)))
            .chain(t.extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .collect();
        if pairs.is_empty() {
            String::new()
        } else {
            serde_json::to_string(&pairs).unwrap_or_default()
        }
    }
}
