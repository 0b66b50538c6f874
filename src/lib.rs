//! # kifu
//!
//! Read, validate, score and convert Othello (Reversi) game records.
//!
//! The engine replays every move of a record on a bitboard, inserting the
//! passes that records leave out, and tells whether the game is complete,
//! incomplete or invalid, with the final score under the World Othello
//! Federation rule (empty squares to the winner).
//!
//! ```
//! use kifu::formats::transcript::{parse_line, LineContext};
//! use kifu::Status;
//!
//! let ctx = LineContext { line: 1, byte: 0, index: 1 };
//! let game = parse_line(b"f5d6c5f6e7f4g5e6e3", ctx).unwrap();
//! let report = game.replay();
//! assert_eq!(report.status(), Status::Complete);
//! let score = report.final_score().unwrap();
//! assert_eq!((score.black_discs, score.white_discs, score.empties), (13, 0, 51));
//! assert_eq!((score.black_score, score.white_score), (64, 0));
//! ```
//!
//! Parsers never check legality and the replay never parses: a
//! [`GameRecord`] holds the moves as written, [`GameRecord::replay`] judges
//! them.

#![warn(missing_docs)]

pub mod analysis;
pub mod batch;
mod bitboard;
mod board;
pub mod compress;
pub mod date;
pub mod db;
pub mod explore;
pub mod formats;
mod game;
mod hash;
pub mod input;
mod npy;
mod openings;
pub mod positions;
mod query;
mod record;
pub mod render;
pub mod repair;
pub mod select;
pub mod solve;
pub mod source;
mod square;
mod symmetry;
pub mod table;
pub mod tensors;
#[cfg(test)]
mod testkit;
pub mod tokens;
pub mod web;

pub use bitboard::{Bitboard, Squares};
pub use board::{flips, moves, Board, Color, IllegalMove, ParsePositionError, Position};
pub use game::{Finish, Move, Ply, Replay, ReplayError, ReplayErrorKind, Score, Status, Winner};
pub use openings::{Opening, OpeningClassifier, Openings, OpeningsError};
pub use query::{Hit, PositionQuery, QueryError};
pub use record::{
    Annotation, AnnotationKind, GameError, GameRecord, MoveNote, Origin, OtherBoard,
    ParseResultError, Plies, Quirk, Quirks, RecordedMove, RecordedResult, Report, ResultKind,
    ResultValue, Rules, Tags, Token, Turn, Watch,
};
pub use source::{MoveSpans, ParseError, ReadError, Span};
pub use square::{ParseSquareError, Square, Symmetry};
pub use symmetry::{CanonicalKey, MoveListKey};
