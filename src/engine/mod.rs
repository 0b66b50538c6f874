//! The rules of Othello on a bitboard: squares, boards, legal moves and
//! flips, the replay of a game with its passes and end, the eight
//! symmetries, position queries and opening names. Everything above builds
//! on this layer; it knows nothing of records or formats.

pub mod bitboard;
pub mod board;
pub mod game;
pub(crate) mod hash;
pub mod openings;
pub mod query;
pub mod square;
pub mod symmetry;
