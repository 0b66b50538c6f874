//! GGF, the Generic Game Format of the GGS server.
//!
//! A game is `(;` tags `;)`, each tag `NAME[value]`. Games may share a
//! line (GGS archives prefix a match count: `1 (;…;)`, and a synchro match
//! `2 (;…;)(;…;)` holds two games) or span several lines; blanks between
//! tags are allowed.
//!
//! Read:
//! - `GM`: `Othello` in any case; any other game is a defect.
//! - `PC` site, `DT` date (verbatim: GGS dates, Unix seconds, …), `PB`/`PW`
//!   players, `RB`/`RW` ratings (verbatim), `EV` the event (kifu's own tag:
//!   GGF has none, kifu writes and reads `EV`).
//! - `TY` game type `[s]8[k][r[<n>]][a][b|w]` ([`GameType`]), kept
//!   verbatim in `tags.extra` so it is written back; `a` selects
//!   [`Rules::Anti`](crate::record::Rules::Anti).
//! - `BO[8 <64 squares> <side>]`: the start position, `-` empty, `*` Black,
//!   `O` White, the squares in 8 groups or one string, side `*` or `O`.
//! - A board of another size, by `BO[4 …]` or `TY[4]` (GGS plays several):
//!   the game is read whole — tags, result, moves as tokens (`a2`, or
//!   `j10` as unreadable text) — and its board goes to
//!   [`GameRecord::other_board`](crate::GameRecord::other_board): the
//!   size, and the `BO` value as written. The replay calls the game
//!   invalid (`unsupported board size 4x4`). A size past 255 is a defect.
//! - `B[..]`/`W[..]`: a move `sq[/eval[/time]]` in any case, or a pass `PA`
//!   or `pass` (any case), with the colour the tag names; evaluations and
//!   times go to [`GameRecord::notes`](crate::GameRecord::notes).
//! - `RE[+6.000]` Black's margin with an optional `:r` (resigned), `:t`
//!   (time) or `:s` (mutual score); `RE[?]` is no result. A value that is
//!   not a margin within ±64 (Edax writes `RE[-127.000]` for "no result")
//!   is no result and stays verbatim in `tags.extra` to be written back.
//! - Every other tag (`TI`, `TB`, `TW`, `KM`, `KB`, `KW`, …) verbatim in
//!   `tags.extra`, in source order.
//!
//! The GGS specification defines no escapes and GGS never needs one; kifu
//! reads a backslash as escaping the next character (as SGF does) so that
//! its writer can keep `[`, `]` or `(;` inside a value.
//!
//! Write: one game per line (a line break in a value is kept), `(;GM[Othello]PC[..]DT[..]EV[..]PB[..]PW[..]
//! RB[..]RW[..]<other tags>TY[..]RE[..]BO[8 …]B[f5//0.01]W[d6]…;)`: moves
//! in lowercase with the colour the replay gives them, notes as
//! `/eval/time`, the result as a margin with three decimals as GGS writes
//! it (`+2.000`, `-22.870:r`).
//!
//! `DT` is written in a form no GGF reader takes for another date: GGF
//! readers take a bare number for Unix seconds, so `2004` is written
//! `2004.??.??`, a month `2004.05.??`, a day `2004.05.12`, a date with a
//! time in GGS's form `2003.12.15_12:33:18.MST` (the zone as recorded; a
//! numeric offset turned to UTC, `…_22:30:00.UTC`). Unix seconds, GGF's
//! other form, and a date in no known form are written as they are.
//!
//! Passes are written as `PA`, with their notes — also the passes a record
//! leaves out (a transcript, WTHOR), which GGS writes too (its archives
//! spell them `B[pass]`): GGF readers such as NBoard's play each move for
//! the side to move whatever its `B`/`W` tag says, so without its pass a
//! game would have its next move played by the side that must pass. A
//! pass the writer adds has no note; the notes stay with their moves.
//!
//! A game on another board is written back as it was read: its `TY`, its
//! `BO` value, its moves with the colours of the record (`TY[10]` and no
//! `BO` for one from a format without GGF's board notation).

use crate::formats::features::{Check, Feature, Features};
use crate::formats::format::{Format, FormatInfo, TextFormat};
use crate::record::row::Game;
use crate::record::ResultValue;

#[cfg(test)]
mod lean_tests;
mod read;
mod syntax;
mod tags;
#[cfg(test)]
mod tests;
mod write;
#[cfg(test)]
mod write_tests;

pub use read::Reader;
pub use syntax::{GameType, MAX_GAME_BYTES};
pub use write::{write_game, write_record};

use write::{is_ggf_board, raw_margin, writable_name};

/// Whether the first bytes look like GGF: optional blanks and a match
/// count, then `(;`, and a `GM[Othello]` tag in the head (SGF also opens
/// with `(;`).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let rest = head.trim_ascii_start();
    let count = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = rest.get(count..).unwrap_or_default().trim_ascii_start();
    rest.starts_with(b"(;")
        && head
            .windows(11)
            .any(|w| w.eq_ignore_ascii_case(b"GM[othello]"))
}

/// The GGF row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    extensions: &["ggf"],
    text: Some(&Ggf),
    loses: Features::of_list(&[
        Feature::Round,
        Feature::TheoreticalScore,
        Feature::WinnerOnlyResult,
        Feature::Comments,
        Feature::Nags,
        Feature::Variations,
    ]),
    checks: &[
        Check {
            loss: "results with more than 64 discs",
            applies: |g| disc_total(g).is_some_and(|n| n > 64),
        },
        Check {
            loss: "disc counts of results with empty squares",
            applies: |g| disc_total(g).is_some_and(|n| n < 64),
        },
        Check {
            loss: "raw disc differences of unfinished games",
            applies: |g| match g.record.result.map(|r| r.value) {
                Some(ResultValue::RawMargin(raw)) => !raw_margin(g, raw).1,
                _ => false,
            },
        },
        Check {
            loss: "results beyond 64 discs",
            applies: |g| match g.record.result.map(|r| r.value) {
                Some(ResultValue::Margin(m)) => !m.is_finite() || m.abs() > 64.0,
                _ => false,
            },
        },
        Check {
            loss: "start positions of other board sizes in another notation",
            applies: |g| {
                g.record
                    .other_board
                    .as_ref()
                    .is_some_and(|b| !b.start.is_empty() && !is_ggf_board(b))
            },
        },
        Check {
            loss: "tags GGF cannot name",
            applies: |g| {
                g.record
                    .tags
                    .extra
                    .iter()
                    .any(|(name, _)| name != "TY" && name != "RE" && !writable_name(name))
            },
        },
    ],
    ..FormatInfo::new(
        Format::Ggf,
        "ggf",
        "Generic Game Format of the GGS server: several games a file",
        sniff,
        |input, _| Box::new(Reader::new(input)),
    )
};

/// Black's and White's discs together, when the result is a disc count.
fn disc_total(game: &Game<'_>) -> Option<u16> {
    match game.record.result?.value {
        ResultValue::Discs { black, white } => Some(u16::from(black) + u16::from(white)),
        _ => None,
    }
}

/// Writes GGF.
struct Ggf;

impl TextFormat for Ggf {
    fn write(&self, game: &Game<'_>, out: &mut Vec<u8>) {
        let mut line = String::new();
        write_game(game, &mut line);
        out.extend_from_slice(line.as_bytes());
    }
}
