//! Othello-GPT tokens (SPEC section 10): the vocabulary of othello_world,
//! TransformerLens and the Hugging Face sets of synthetic games.
//!
//! Tokens 1..=60 are the 60 squares other than d4, e4, d5 and e5, in the
//! order of othello_world's index `8 · letter + digit − 1` (a1 = 1,
//! a2 = 2, …, a8 = 8, b1 = 9, …, h8 = 60); 0 pads a game's row after its
//! last move. There is no pass token: a pass is implied, as the replay
//! finds it.
//!
//! ```
//! use kifu::tokens::{square, token};
//! use kifu::Square;
//!
//! let f5: Square = "f5".parse()?;
//! assert_eq!(token(f5), Some(41));
//! assert_eq!(square(27).map(|s| s.to_string()).as_deref(), Some("d3"));
//! assert_eq!(token("d4".parse()?), None); // a centre square has no token
//! # Ok::<(), kifu::ParseSquareError>(())
//! ```

use crate::formats::format::Refusal;
use crate::record::source::MoveSpans;
use crate::record::{GameRecord, Origin, RecordedMove, Token};
use crate::{Move, Position, Square};

/// Tokens in a row: the most moves a game has.
pub const LENGTH: usize = 60;

/// A missing value in a row (a null in a Parquet list): no token.
pub const NULL: i64 = i64::MIN;

/// The token of each square by kifu's index (a1 = 0, b1 = 1, …), 0 for
/// the four centre squares.
const TOKEN_OF: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut token = 0u8;
    // othello_world's order: letter by letter, digit by digit.
    let mut letter = 0;
    while letter < 8 {
        let mut digit = 0;
        while digit < 8 {
            let centre = (letter == 3 || letter == 4) && (digit == 3 || digit == 4);
            if !centre {
                token += 1;
                table[digit * 8 + letter] = token;
            }
            digit += 1;
        }
        letter += 1;
    }
    table
};

/// The square of each token, by token (index 0 unused).
const SQUARE_OF: [u8; 61] = {
    let mut table = [0u8; 61];
    let mut i = 0;
    while i < 64 {
        if TOKEN_OF[i] != 0 {
            table[TOKEN_OF[i] as usize] = i as u8;
        }
        i += 1;
    }
    table
};

/// The token of `square`; `None` for d4, e4, d5 and e5, which no move
/// from the standard start can take.
#[must_use]
pub const fn token(square: Square) -> Option<u8> {
    match TOKEN_OF[square.index()] {
        0 => None,
        t => Some(t),
    }
}

/// The square of a token 1..=60; `None` for any other number (0 is the
/// padding).
#[must_use]
pub fn square(token: i64) -> Option<Square> {
    match token {
        1..=60 => Square::new(SQUARE_OF[token as usize]),
        _ => None,
    }
}

/// The tokens of a game's squares in order (passes left out), padded
/// with 0 to [`LENGTH`]. A game from another start than the standard
/// one, with a token that is not a square, a move on a centre square or
/// more than 60 moves cannot be written.
pub fn encode(record: &GameRecord) -> Result<[i8; LENGTH], Refusal> {
    if !record.has_standard_start() {
        return Err(Refusal::NonStandardStart);
    }
    let mut row = [0i8; LENGTH];
    let mut n = 0;
    for (i, m) in record.moves.iter().enumerate() {
        match m.token {
            Token::Move(Move::Pass) => {}
            Token::Move(Move::Play(square)) => {
                let Some(t) = token(square) else {
                    return Err(Refusal::Unreadable {
                        number: i + 1,
                        text: square.to_string(),
                    });
                };
                let Some(slot) = row.get_mut(n) else {
                    let played = record
                        .moves
                        .iter()
                        .filter(|m| matches!(m.token, Token::Move(Move::Play(_))))
                        .count();
                    return Err(Refusal::TooManyMoves(played));
                };
                // Tokens are 1..=60: they fit an i8.
                *slot = t as i8;
                n += 1;
            }
            Token::Unreadable => {
                return Err(Refusal::Unreadable {
                    number: i + 1,
                    text: record.token_text(i),
                })
            }
        }
    }
    Ok(row)
}

/// The record of one row of tokens (any integer type, widened): the
/// moves up to the padding, from the standard start. A number that is no
/// token is an unreadable move (the replay then names it: `not a
/// square`), and so is a padding 0 followed by more moves: nothing of a
/// row is dropped unseen ([`NULL`] stands for a missing value of a
/// Parquet list). `origin` says where the row is, `spans` where its
/// tokens are.
/// Any integer type: a row of `u8` (numbers `0..=255`) decodes as its
/// numbers widened would.
#[must_use]
pub fn decode<T: Copy + Into<i64>>(row: &[T], origin: Origin, spans: MoveSpans) -> GameRecord {
    let mut record = GameRecord::new(Position::start());
    record.origin = origin;
    record.spans = spans;
    let end = row
        .iter()
        .rposition(|&t| t.into() != 0)
        .map_or(0, |i| i + 1);
    record.moves.reserve_exact(end);
    for (i, &t) in row[..end].iter().enumerate() {
        let t: i64 = t.into();
        match square(t) {
            Some(s) => record.moves.push(RecordedMove::new(Move::Play(s))),
            None => {
                record.moves.push(RecordedMove {
                    token: Token::Unreadable,
                    color: None,
                });
                let text = if t == 0 {
                    "padding 0 before a move".to_owned()
                } else if t == NULL {
                    "null".to_owned()
                } else {
                    format!("token {t}")
                };
                record.unreadable.push((i, text.into()));
            }
        }
    }
    record
}

/// The `.npy` header (version 1.0) of `rows` rows of [`LENGTH`] int8
/// tokens, of the same length for every count ([`crate::ml::npy::header`]).
#[must_use]
pub fn npy_header(rows: u64) -> Vec<u8> {
    crate::ml::npy::header("'|i1'", &[LENGTH], rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::transcript;

    /// othello_world's own mapping, written out: its board index
    /// `8 · letter + digit − 1` with the four centre squares taken out.
    fn othello_world_token(name: &str) -> Option<i64> {
        let b = name.as_bytes();
        let index = i64::from(b[0] - b'a') * 8 + i64::from(b[1] - b'1');
        let centre = [27, 28, 35, 36];
        if centre.contains(&index) {
            return None;
        }
        Some(index - centre.iter().filter(|&&c| c < index).count() as i64 + 1)
    }

    #[test]
    fn the_first_moves_map_as_othello_world_does() {
        for (name, t) in [("f5", 41), ("d3", 27), ("c4", 20), ("e6", 34)] {
            assert_eq!(token(name.parse().unwrap()), Some(t), "{name}");
        }
        assert_eq!(token("a1".parse().unwrap()), Some(1));
        assert_eq!(token("a2".parse().unwrap()), Some(2));
        assert_eq!(token("b1".parse().unwrap()), Some(9));
        assert_eq!(token("h8".parse().unwrap()), Some(60));
    }

    #[test]
    fn every_square_maps_as_othello_world_does_and_back() {
        for s in Square::all() {
            let expected = othello_world_token(&s.to_string());
            assert_eq!(token(s).map(i64::from), expected, "{s}");
            if let Some(t) = expected {
                assert_eq!(square(t), Some(s));
            }
        }
        for t in [0, 61, -1, 128, i64::MAX] {
            assert_eq!(square(t), None);
        }
    }

    #[test]
    fn a_game_encodes_and_decodes_to_the_same_moves() {
        let game = transcript("f5d6c3d3c4f4c5b3c2e6c6b4");
        let row = encode(&game).unwrap();
        assert_eq!(&row[..4], &[41, 28, 19, 27]);
        assert!(row[12..].iter().all(|&t| t == 0));
        let wide: Vec<i64> = row.iter().map(|&t| i64::from(t)).collect();
        let back = decode(&wide, Origin::default(), MoveSpans::Unknown);
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.move_string(), "f5d6c3d3c4f4c5b3c2e6c6b4");
    }

    #[test]
    fn what_tokens_cannot_hold_is_refused() {
        let mut other = transcript("f5d6");
        other.start.pass();
        assert_eq!(encode(&other), Err(Refusal::NonStandardStart));
        let centre = transcript("d4");
        assert!(matches!(
            encode(&centre),
            Err(Refusal::Unreadable { number: 1, .. })
        ));
    }

    #[test]
    fn numbers_that_are_no_tokens_are_unreadable_moves() {
        let record = decode(
            &[41, 61, 0, 20, 0, 0],
            Origin::default(),
            MoveSpans::Unknown,
        );
        assert_eq!(record.moves.len(), 4);
        assert_eq!(record.token_text(1), "token 61");
        assert_eq!(record.token_text(2), "padding 0 before a move");
        let error = record.replay().error.unwrap();
        assert_eq!(error.move_number(), Some(2));
    }

    #[test]
    fn the_npy_header_is_the_same_length_for_every_count() {
        let a = npy_header(0);
        let b = npy_header(123_456_789);
        assert_eq!(a.len(), b.len());
        assert_eq!(a.len() % 64, 0);
        let text = String::from_utf8_lossy(&b[10..]);
        assert!(text.contains("'shape': (123456789, 60)"), "{text}");
    }
}
