//! # kifu
//!
//! Othello (Reversi) game records: read every format, replay every move on a
//! bitboard, convert and query databases, solve endgames exactly and judge
//! whole games.
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

// One folder a layer; ARCHITECTURE.md gives their order (engine, eval,
// solve and search at the bottom; record, formats, ml and io; batch, jobs
// and db; render and web), each using only the layers below it.
pub mod batch;
pub mod db;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod io;
pub mod jobs;
pub mod ml;
pub mod record;
pub mod render;
pub mod search;
pub mod solve;
#[cfg(test)]
mod testkit;
pub mod web;

// The paths of the flat layout before the layers became folders.
pub use db::explore;
pub use io::{compress, input};
pub use ml::{positions, tensors, tokens};
pub use record::row as table;
pub use record::{analysis, date, repair, select, source};

pub use engine::bitboard::{Bitboard, Squares};
pub use engine::board::{flips, moves, Board, Color, IllegalMove, ParsePositionError, Position};
pub use engine::game::{
    Finish, Move, Ply, Replay, ReplayError, ReplayErrorKind, Score, Status, Winner,
};
pub use engine::openings::{Opening, OpeningClassifier, Openings, OpeningsError};
pub use engine::query::{Hit, PositionQuery, QueryError};
pub use engine::square::{ParseSquareError, Square, Symmetry};
pub use engine::symmetry::{CanonicalKey, MoveListKey};
pub use record::source::{MoveSpans, ParseError, ReadError, Span};
pub use record::{
    Annotation, AnnotationKind, GameError, GameRecord, MoveNote, Origin, OtherBoard,
    ParseResultError, Plies, Quirk, Quirks, RecordedMove, RecordedResult, Report, ResultKind,
    ResultValue, Rules, Tags, Token, Turn, Watch,
};
