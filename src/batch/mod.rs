//! The batch pipeline: read an input in chunks, work on each chunk in
//! parallel, hand the results on in input order.
//!
//! A reader thread fills chunks and passes them through a channel that
//! holds one, so memory is bounded by the chunk size, never by the input
//! size. An input whose reader is a [`crate::formats::chunk::Chunker`]
//! (WTHOR, GGF, transcripts, JSON Lines) is only cut there, into raw
//! chunks of `slice_bytes` gathered up to `chunk_bytes`: the rayon pool
//! parses them, the games are numbered in input order, and each chunk's
//! games are one slice of work. Any other input is read game by game on
//! that thread, in chunks of `chunk` games (or `chunk_bytes` of input)
//! split into slices of `slice` games. The results of a chunk are given
//! to the sink in order before the next chunk is taken.

mod convert;
mod pipeline;
mod report;
mod returned;

pub use convert::{convert, Choice, Prepare, Seen};
pub use pipeline::{run, BatchError, Options};
pub use report::{Flag, Quirked, SliceReport, Tally};
pub use returned::Returned;
