//! JSON Lines: one JSON object per game — the CSV table's fields, plus the
//! full move list with passes (implicit ones marked), per-move evaluations
//! and times, the final board, the rules, every tag, the annotations and
//! another board's size and start. The reader takes back everything a
//! record holds, so `record → JSON Lines → record` is lossless.
//!
//! The table's fields are [`Column::ALL`]'s, under their names, in their
//! order (integers as numbers, null where the CSV field is empty), but for
//! `tags`: JSON keeps the tags in fields of its own. Then come the fields
//! only JSON has: `rules`, `site`, `round`, `black_rating`,
//! `white_rating`, `tags` (every other tag as `[name, value]`), and where
//! the game has them `recorded_date` (the date as the record wrote it,
//! when the ISO 8601 `date` differs), `theoretical_depth`, `annotations`
//! (`[{"after":3,"comment":"…"},{"after":3,"nag":1},{"after":5,"variation":"…"}]`,
//! `after` counting the move tokens before it), `other_board`
//! (`{"size":4,"start":"…"}`), `plies` and `final_board`.
//!
//! Read, `moves` may be text (`"f5d6c3"`, any transcript) or a list of
//! moves (`["f5","d6","pass","c3"]`); `plies`, when present, is the move
//! list. The fields the replay decides are recomputed.
//!
//! [`Column::ALL`]: crate::record::row::Column::ALL

mod read;
mod shapes;
#[cfg(test)]
mod tests;
mod write;

pub use read::{JsonLine, Reader};
pub use shapes::PlyJson;
pub use write::GameJson;

use crate::formats::features::Features;
use crate::formats::format::{Format, FormatInfo};

/// The JSON Lines row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    aliases: &["json", "ndjson", "json-lines"],
    extensions: &["jsonl", "ndjson", "json"],
    text: Some(&write::JsonLines),
    carries_status: true,
    names_openings: true,
    // It keeps everything a record holds.
    loses: Features::NONE,
    ..FormatInfo::new(
        Format::Jsonl,
        "jsonl",
        "one JSON object a game: the table's fields, every move and tag",
        sniff,
        |input, _| Box::new(Reader::new(input)),
    )
};

/// Whether the first bytes look like JSON Lines.
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    head.trim_ascii_start().starts_with(b"{")
}
