//! The batch pipeline: read records sequentially in chunks, work on each
//! chunk in parallel, hand the results on in input order.
//!
//! A reader thread fills chunks of `chunk` games and passes them through a
//! channel that holds at most two, so memory is bounded by the chunk size,
//! never by the input size. Each chunk is split into slices of `slice`
//! games that a rayon pool works on; the results of a chunk are collected
//! in order and given to the sink before the next chunk is taken.

mod convert;
mod pipeline;
mod report;

pub use convert::{convert, Choice, Seen};
pub use pipeline::{run, BatchError, Options};
pub use report::{Flag, Quirked, SliceReport, Tally};
