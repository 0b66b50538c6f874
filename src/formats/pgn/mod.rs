//! PGN-style Othello records.
//!
//! There is no Othello PGN standard; this module reads what Othello
//! programs write. Edax: the seven tags plus `Time`, `FEN` for another
//! start, moves `1. f5 d6 2. c3 …` with `pass`, a closing comment
//! `{Name wins 40-24}` and `1-0`/`0-1`/`1/2-1/2`/`*`. Cassio: `Result` and
//! `TheoreticalScore` as disc counts (`34-30`), a `Database` tag, one move
//! pair per line and `--` for the moves after the end of the game. PlayOK:
//! `BlackElo`/`WhiteElo`, `--` for a pass, the disc count repeated after
//! the last move; copies of its move text come without tags. WTHOR dumps
//! (`thor2pgn`): upper-case moves, no blank line after the tags, no
//! result after the moves.
//!
//! Read:
//! - tag pairs `[Name "value"]` (several per line allowed) with `\"` and
//!   `\\`; text is UTF-8, or Latin-1 when it is not valid UTF-8;
//! - `Event`, `Site`, `Date`, `Round`, `Black`, `White` fill the tags
//!   verbatim (`?`, `-` kept, but `?` and `????.??.??` mean unknown);
//!   `BlackElo`/`WhiteElo` the ratings; `Result` the result; `FEN` the
//!   start position; `TheoreticalScore` (also Cassio's `TheoricalScore`)
//!   Black's theoretical score when it is `36-28` or `36`; `Variant
//!   "anti"` the anti rule; `Termination` (`resignation`, `time forfeit`,
//!   `agreement`) the way the game ended when there is a result; the
//!   first `Time` completes a `Date` that has its day and no time when
//!   it reads as a time (`HH:MM[:SS]`, a zone allowed): `tags.date` is
//!   then both verbatim with a space between (`2003.12.15 19:33:18`), a
//!   form [`crate::record::date::RecordDate`] reads whole, so the table's date is
//!   `2003-12-15T19:33:18`; else it stays in `tags.extra`. `SetUp` is
//!   structural and dropped; every other tag (and a repeated one) is
//!   kept in `tags.extra` in source order;
//! - `FEN` in Edax's form: ranks from row 8 down to row 1 separated by
//!   `/`, `p` a black disc, `P` a white one, digits for empty squares,
//!   then `b` or `w` (`8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1` is the standard
//!   start); `x`/`X`/`b`/`B`/`*` and `o`/`O`/`w`/`W` are also read.
//!   Also a 64-square board `a1…h8` of `-`/`.`/`X`/`O`/`*` and the side;
//! - move text: move numbers `1.`, `1...` (their values are not checked),
//!   squares in either case, passes `pass`, `--`, `PA`, `PS`, `@@`;
//!   `%` escape lines are skipped. Trailing `--` tokens after the last
//!   square are Cassio's padding for moves never played and are dropped.
//!   Moves carry no colour (move numbers are unreliable once passes are
//!   left out; the replay finds colours);
//! - annotations, each kept where it is ([`Annotation`](crate::Annotation)
//!   `after` the move tokens before it, 0 before the first move):
//!   `{comments}` (over several lines, line breaks as `\n`) and `;`
//!   comments to the end of the line as their text between the
//!   delimiters, verbatim
//!   ([`AnnotationKind::Comment`](crate::AnnotationKind::Comment));
//!   NAGs `$0`–`$65535` and the move suffixes `!` `?` `!!` `??` `!?` `?!`
//!   as NAGs 1–6, their standard meaning (`!!!` is `!!` then `!`); each
//!   variation `( … )` as its text exactly as written, its parentheses
//!   included, nested variations and comments inside it
//!   ([`AnnotationKind::Variation`](crate::AnnotationKind::Variation)).
//!   `[%eval x]` and `[%emt t]` (seconds, or `h:mm:ss`) in a `{}` comment
//!   after a move are that move's evaluation and time
//!   ([`MoveNote`](crate::MoveNote)), not a comment; the rest of such a
//!   comment, trimmed, is one. Comments before a game's first tag are
//!   its own; those after the last game of a file are not a game;
//! - results `1-0`, `0-1`, `1/2-1/2` (winner only), `*` (none), disc
//!   counts `34-30` ([`ResultValue::Discs`](crate::ResultValue::Discs)),
//!   in the `Result` tag and/or after the moves. The tag wins; a
//!   different result after the moves is kept in `tags.extra` as
//!   `MovetextResult`;
//! - games end at a result after the moves, at a blank line after move
//!   text, or at a tag line after move text; several games per file; move
//!   text without tags is a game. Any other text in the move text is an
//!   unreadable move token;
//! - trouble (a malformed tag, a tag pair after move text on the same
//!   line, an unclosed comment or variation, an unmatched `)`/`}`/`]`, a
//!   bad `FEN`) gives the game a defect with its line and
//!   column, keeps the moves before it and skips the rest of the game. A
//!   tag line inside an unclosed comment or variation ends that game;
//! - a game longer than [`GAME_CAP`] bytes, or with more than 16,384
//!   annotations, keeps what fits and gets a defect; lines longer than
//!   that are read in pieces.
//!
//! Write:
//! - `Event`, `Site`, `Date`, `Round`, `Black`, `White`, `Result` (Black
//!   before White, as Othello programs write them; `?` and `*` when
//!   unknown), then `Time`, `BlackElo`, `WhiteElo`, `TheoreticalScore`,
//!   `Variant`, `Termination`, `FEN` (non-standard start only) when they
//!   apply, then the extra tags, and a blank line. Tag values lose line
//!   breaks (PGN has no escape for them);
//! - `Date` in PGN's form `YYYY.MM.DD` with `??` for the parts the record
//!   does not know (`2004.??.??`), and `Time` (`HH:MM:SS`) when the date
//!   has a time, both from [`crate::record::date::RecordDate`] and in UTC when
//!   the record names the zone (`2003.12.15_12:33:18.MST` is
//!   `2003.12.15` and `19:33:18`; PGN names no zone, so the time reads
//!   back as one without). A date in no form `RecordDate` reads is
//!   written as it is;
//! - the moves wrapped at 80 columns, numbered (`N.` before each Black
//!   move, `N...` before a White move that follows no Black move or
//!   follows a comment or variation), every pass as `pass`, those the
//!   record leaves out too, so that the numbers and colours read back
//!   (Edax's spelling and practice; `--` would be read back as padding
//!   at the end of a game), unreadable tokens as one word that reads back
//!   unreadable. Colours and passes are the replay's
//!   ([`crate::GameRecord::plies`]);
//! - after each move its NAGs, then `{[%eval x] [%emt t]}` when the
//!   record has an evaluation or time for it (seconds, as GGF keeps
//!   them), then its other annotations, each where it was: NAGs as `$n`,
//!   comments as `{text}`, or as `;text` to the end of the line when
//!   braces cannot give the text back (it holds a `}`, an evaluation the
//!   reader would take for the move's, or a line that reads as a tag
//!   pair; when it also has line breaks they become spaces, a named
//!   loss), variations as written when they are PGN move text (else left
//!   out, a named loss);
//! - the result: disc counts for
//!   [`ResultValue::Discs`](crate::ResultValue::Discs) and for whole
//!   margins (empties to the winner), `1-0`/`0-1`/`1/2-1/2` for a winner
//!   only, `*` for none.

use crate::formats::features::{Feature, Features};
use crate::formats::format::{Format, FormatInfo};
use crate::formats::pgn::lex::{classify, is_delimiter, looks_like_tag, Lexeme};

mod fen;
mod lex;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{Reader, GAME_CAP};
pub use write::{write_game, write_record};

/// The PGN row of the format table.
pub const INFO: FormatInfo = FormatInfo {
    extensions: &["pgn"],
    text: Some(&write::Pgn),
    loses: Features::of_list(&[Feature::RawMargin, Feature::OtherBoard]),
    checks: write::CHECKS,
    ..FormatInfo::new(
        Format::Pgn,
        "pgn",
        "tag pairs and numbered move text, as Othello programs write PGN",
        sniff,
        |input, _| Box::new(Reader::new(input)),
    )
};

/// Whether the first bytes look like PGN: a tag pair `[Name "…"]`, or
/// move text starting `1.` and a square or pass (PlayOK copies).
#[must_use]
pub fn sniff(head: &[u8]) -> bool {
    let mut head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    loop {
        head = head.trim_ascii_start();
        if head.first() == Some(&b'%') {
            let end = head.iter().position(|&c| c == b'\n').unwrap_or(head.len());
            head = head.get(end..).unwrap_or_default();
        } else {
            break;
        }
    }
    if looks_like_tag(head) {
        return true;
    }
    let digits = head.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = head.get(digits..).unwrap_or_default();
    let dots = rest.iter().take_while(|&&c| c == b'.').count();
    if digits == 0 || dots == 0 {
        return false;
    }
    let rest = rest.get(dots..).unwrap_or_default().trim_ascii_start();
    let end = rest
        .iter()
        .position(|&c| is_delimiter(c))
        .unwrap_or(rest.len());
    matches!(
        classify(rest.get(..end).unwrap_or_default()),
        Lexeme::Square(_) | Lexeme::Pass(_)
    )
}
