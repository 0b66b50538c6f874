//! SGF (`GM[2]`) Othello records.
//!
//! There is no official Othello profile of the Smart Game Format; this
//! module reads what Othello programs write and writes what they read.
//! Edax writes `(;FF[4]GM[2]AP[edax:…]PC[Edax]DT[…]PB[..]PW[..]SZ[8]
//! AB[e4][d5]AW[d4][e5]PL[B]RE[B+12]B[f5];W[d6];…;)`: the first move in
//! the setup node, passes as `B[PA]`, an empty node at the end. Cassio
//! writes one move per node after the setup and no passes.
//!
//! Read:
//! - one or more game trees `(;…)` per file; text between them is skipped;
//! - properties `ID[value]` with the escapes `\]`, `\\` (any `\x` is `x`,
//!   `\` before a line break removes it), several values `AB[e4][d5]`;
//!   identifiers in lower case (`;b[f5]`, written by some GTP match
//!   runners) are upper-cased, and in mixed case (FF\[3\] `PlayerBlack`)
//!   only their capitals count;
//! - `GM` must be `2` and `SZ` must be `8` (or `8:8`), else the game has a
//!   defect; `FF`, `CA` and `AP` are structural and not kept (`CA` naming
//!   ISO-8859-1 or Windows-1252 decodes the texts as Latin-1; otherwise
//!   texts are UTF-8, falling back to Latin-1 when invalid);
//! - coordinates are a letter and a digit in either case (`f5`, `F5`).
//!   Go-style two-letter points (`fe`) are not read as squares: no
//!   Othello program found writes them (Edax, Cassio and GTP match
//!   runners all write `f5`); such a move is an unreadable token;
//! - passes `B[]`, `B[PA]`, `B[tt]`, `B[pass]` (any case);
//! - setup `AB`/`AW`/`AE`/`PL` in any node before the first move (also in
//!   the node of the first move, as Edax writes it). Without `AB`/`AW`
//!   the board is the standard one (`AE` alone edits it); with them it is
//!   built from an empty board. Without `PL` the side to move is the
//!   colour of the first move, else Black. Setup after the first move is
//!   a defect (a record cannot hold it);
//! - moves `B[..]`/`W[..]` carry their colour; one move per node (a second
//!   one is a defect: a missing `;`);
//! - `RE`: `B+12` is [`ResultValue::Margin`]`(12.0)`, `W+4` is
//!   `Margin(-4.0)` (fractions kept), `0`/`Draw`/`D` is `Margin(0.0)`,
//!   `B+R`/`B+Resign` is [`ResultKind::Resigned`] with
//!   [`ResultValue::Winner`], `B+T`/`B+Time` is [`ResultKind::Time`],
//!   `B+` names the winner only, `Void`/`?`/empty is no result; any other
//!   value (`B+F`) stays in `tags.extra` under `RE`. Cassio writes `B+n`
//!   even when White wins: the replay flags that disagreement;
//! - `PB`/`PW`/`EV`/`DT`/`PC`/`RO`/`BR`/`WR` fill the tags (verbatim, `DT`
//!   too; `?` or empty means unknown); every other property of the root
//!   node but `C` is kept in `tags.extra` under its (upper-case) name,
//!   one entry per value, in source order;
//! - comments `C[..]`: each value is an [`Annotation`] of its node,
//!   [`AnnotationKind::Comment`] with `after` the move tokens read up to
//!   and with the node's own move (`;B[f5]C[x]` is after f5, as PGN's
//!   `f5 {x}`); the root's are about the game, `after` 0, also when the
//!   root holds the first move;
//! - variations: the main line (the first child at each branch) is the
//!   game; every other subtree is an [`AnnotationKind::Variation`] holding
//!   its text exactly as written from its `(` to its `)` (nested
//!   variations inside it), `after` the main line's move tokens before the
//!   branch point. Annotations are in move order, at one place the
//!   comments first, then the variations as in the source, the innermost
//!   branch first. Other properties of later nodes (`BL`, `WL`, `N`…) are
//!   not kept: a reader cannot report these, so they are stated here;
//! - broken structure (an unclosed `[` or `(`, a missing `;`, a stray
//!   character) gives the game a defect with its line and column, keeping
//!   the moves before it. A new game tree `(;GM[`/`(;FF[` inside an
//!   unclosed game (or on a new line inside an unclosed value) starts the
//!   next game, so one broken game does not swallow the rest of the file;
//! - a game longer than [`GAME_CAP`] bytes keeps what fits and gets a
//!   defect.
//!
//! Write: `(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:…]` then the tags and the
//! extra properties (names reduced to upper-case letters; values with
//! `]`, `\\` and a `(` that starts a line escaped); `AB`/`AW` only for a
//! board other than the standard one (`AE[a1:h8]` for an empty one), `PL`
//! when that board is not standard, when White is to move, or when the
//! first move is not by the side to move (a reader without `PL` takes the
//! first move's colour). `DT` is in SGF's form, ISO 8601 as far as the
//! date goes (`2004`, `2004-05`, `2004-05-12`, from any form
//! [`RecordDate`] reads; a time of day is left out and named as a loss),
//! or as written when in no known form. The game's comments follow
//! (`C[..]`). Then one node per move `;B[f5];W[d6]…` (lowercase, ten
//! nodes per line), colours and passes from the one replay
//! ([`GameRecord::plies`]): every pass is a node of its colour `B[PA]`
//! (Edax's spelling, which Edax reads back; some readers take an empty
//! value for "no move"), also where the record leaves the pass out, so
//! that readers that alternate colours stay in step; an unreadable token
//! that would read as a pass or a square is prefixed with `?`. A move's
//! comments go on its node, several as several values. A variation goes
//! where it branches off, after the main line's subtree from there
//! (`;B[f5](;W[d6]…)(;W[f6])`; `(;)` continues the main line when it ends
//! at the branch), its text as recorded when it is an SGF subtree the
//! reader takes back whole, else it is named as a loss. `RE` is `B+n`,
//! `W+n` or `0` from a margin or disc counts (empties to the winner),
//! `B+`/`W+` for a winner only, `B+R`/`B+T` for a resignation or a time
//! loss.
//!
//! [`Annotation`]: crate::record::Annotation
//! [`GameRecord::plies`]: crate::GameRecord::plies

use crate::formats::features::{respells_unreadable, Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::record::date::RecordDate;
use crate::record::row::Game;
use crate::record::{AnnotationKind, ResultKind, ResultValue};
use crate::Winner;

mod frame;
mod read;
#[cfg(test)]
mod tests;
mod write;
#[cfg(test)]
mod write_tests;

pub use frame::GAME_CAP;
pub use read::Reader;
pub use write::{write_game, write_record};

use write::{is_variation, sgf_ident, unreadable_value, STRUCTURAL};

/// The SGF row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    extensions: &["sgf"],
    text: Some(&Sgf),
    loses: Features::of_list(&[
        Feature::Evaluations,
        Feature::Times,
        Feature::AntiRules,
        Feature::TheoreticalScore,
        Feature::RawMargin,
        Feature::Nags,
        Feature::OtherBoard,
    ]),
    checks: &[
        Check {
            loss: "raw disc counts of results",
            applies: |g| {
                matches!(g.record.result.map(|r| r.value),
                    Some(ResultValue::Discs { black, white }) if u16::from(black) + u16::from(white) != 64)
            },
        },
        Check {
            loss: "the margin of a resigned or timed-out game",
            applies: |g| {
                g.record.result.is_some_and(|r| {
                    matches!(r.kind, ResultKind::Resigned | ResultKind::Time)
                        && !matches!(r.value, ResultValue::Winner(_))
                })
            },
        },
        Check {
            // `B+R` and `W+T` name a winner; a draw is `0`.
            loss: "a resignation or timeout in a result with no winner",
            applies: |g| {
                g.record.result.is_some_and(|r| {
                    matches!(r.kind, ResultKind::Resigned | ResultKind::Time)
                        && !matches!(r.winner(), Some(Winner::Black | Winner::White))
                })
            },
        },
        Check {
            loss: "the agreed-score flag of results",
            applies: |g| {
                g.record
                    .result
                    .is_some_and(|r| r.kind == ResultKind::Mutual)
            },
        },
        Check {
            loss: "the spelling of unreadable moves",
            applies: |g| respells_unreadable(g, unreadable_value),
        },
        Check {
            loss: "tag names that are not SGF property names",
            applies: |g| {
                g.record.tags.extra.iter().any(|(name, _)| {
                    let id = sgf_ident(name);
                    id != *name || STRUCTURAL.contains(&id.as_str())
                })
            },
        },
        Check {
            loss: "variations not written in SGF",
            applies: |g| {
                g.record.annotations.iter().any(
                    |a| matches!(&a.kind, AnnotationKind::Variation(text) if !is_variation(text)),
                )
            },
        },
        Check {
            loss: "the time of day of dates",
            applies: |g| {
                g.record
                    .tags
                    .date
                    .as_deref()
                    .and_then(RecordDate::parse)
                    .is_some_and(|d| d.time.is_some())
            },
        },
    ],
    ..FormatInfo::new(
        Format::Sgf,
        "sgf",
        "Smart Game Format with GM[2]: game trees, main line played, comments and variations kept",
        sniff,
        |input, _| Box::new(Reader::new(input)),
    )
};

/// Writes SGF.
struct Sgf;

impl TextFormat for Sgf {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut text = String::new();
        write_game(game, &mut text);
        out.extend_from_slice(text.as_bytes());
    }
}

/// Whether the first bytes look like an SGF game tree: `(;` and, if a
/// `GM` property shows, `GM[2]` (GGF's `GM[Othello]` and Go's `GM[1]`
/// are not).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let head = head.trim_ascii_start();
    let Some(rest) = head.strip_prefix(b"(") else {
        return false;
    };
    if rest.trim_ascii_start().first() != Some(&b';') {
        return false;
    }
    match head.windows(3).position(|w| w == b"GM[") {
        Some(k) => {
            let value = head.get(k + 3..).unwrap_or_default();
            let end = value.iter().position(|&c| c == b']').unwrap_or(value.len());
            value.get(..end).unwrap_or_default().trim_ascii() == b"2"
        }
        None => true,
    }
}
