//! CSV: the toolkit's own table (SPEC section 4) and foreign tables with a
//! moves column, such as Kaggle's `eOthello_game_id,winner,game_moves`.
//!
//! The writer writes one row per game with the exact header of the
//! contract, then `theoretical_black_score`, `recorded_result` (the result
//! as the record states it: `34-30`, `+2`, `1-0`, with ` (resigned)` or
//! ` (time)`), `start` (a non-standard start position, or another board's
//! size and start: `4x4 ---- -O*- -*O- ---- *`) and `tags`. Dates are in
//! ISO 8601; where that changes how the record wrote one, the `tags`
//! column keeps the date as written under `recorded_date`. An invalid
//! game's `moves` keep its explicit passes as `pass` (`f5passd6`), so that
//! `error_move` counts into them.
//!
//! The reader takes the moves, names, event, date, result and start back;
//! the other columns of our table are derived from the replay and are
//! recomputed. Columns it does not know are kept as tags.
//!
//! **Foreign tables.** The field delimiter is `,`, `;` or a tab, found
//! from the header line (the one that gives a moves column, else the one
//! that gives the most fields; [`ReadOptions::delimiter`] overrides). The
//! moves column is found by name ([`MOVE_COLUMNS`], best first, exact
//! names ignoring case), or named outright by
//! [`ReadOptions::moves_column`]; where two columns could hold the moves
//! and no rule chooses, reading stops and names them.
//!
//! **Reading in chunks.** The header is read once; the rest is cut into
//! raw chunks where csv-core ends a record (`scan.rs`), which the batch
//! pipeline's workers read (`row.rs`, `fields.rs`); the sequential
//! [`Reader`] reads the same chunks in turn. A record over [`MAX_RECORD`]
//! bytes is an invalid game; a row that is not UTF-8 stops the reading
//! after the rows before it, as csv did.
//!
//! [`ReadOptions::delimiter`]: crate::formats::ReadOptions::delimiter
//! [`ReadOptions::moves_column`]: crate::formats::ReadOptions::moves_column

#[cfg(test)]
mod chunk_tests;
mod fields;
mod header;
mod read;
mod row;
mod scan;
#[cfg(test)]
mod tests;
mod write;

pub use header::{sniff, sniff_delimiter, DELIMITERS, MOVE_COLUMNS};
pub use read::Reader;
pub use row::MAX_RECORD;

use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo};

/// The CSV row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    extensions: &["csv"],
    text: Some(&write::Table),
    carries_status: true,
    names_openings: true,
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::AntiRules,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
    ]),
    // A valid game's passes follow from its squares and are left out
    // (SPEC section 4): nothing is lost. An invalid game keeps them.
    checks: &[],
    ..FormatInfo::new(
        Format::Csv,
        "csv",
        "the game table (one row a game); foreign tables with a moves column",
        sniff,
        |input, options| Box::new(Reader::with_options(input, options)),
    )
};
