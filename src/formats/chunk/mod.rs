//! Parsing in parallel: a reader cuts its input into raw chunks of bytes
//! at record boundaries, cheaply, and worker threads parse the chunks.
//!
//! A [`Chunker`] (the reader side) only finds where to cut and counts what
//! a parser needs to know to start there: the byte offset and the lines
//! before. A [`ChunkParser`] (shared by the workers) turns a chunk into
//! games exactly as the sequential reader would have read them there. The
//! games of a chunk are numbered from 1; the pipeline numbers them in the
//! input by counting, in order.
//!
//! Where a format cannot tell a boundary for sure without reading every
//! byte (GGF: a `(;` may sit in a comment), the chunker guesses and the
//! parser checks: it ends a chunk with a [`Carry`] when the chunk did not
//! end between games. The next chunk is then parsed again, on from that
//! state, and its guessed parse is dropped — so the games are the
//! sequential reader's in every case, and only a bad guess costs time.

use std::any::Any;
use std::io::BufRead;
use std::sync::Arc;

use crate::formats::lines::{Cut, Lines};
use crate::record::source::ReadError;
use crate::GameRecord;

/// A stretch of an input that starts at a record boundary (or where the
/// chunker guessed one).
pub struct RawChunk {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Offset of the first byte in the input.
    pub byte: u64,
    /// Lines before the first byte (text formats; 0 in a binary input).
    pub lines: u32,
    /// 1-based column of the first byte (text formats; 1 at a line start).
    pub column: u32,
    /// The bytes of the line before the first byte, up to a format's
    /// limit, and whether that is all of them (GGF keeps a game's line for
    /// diagnostics).
    pub line_head: (Vec<u8>, bool),
    /// A line longer than the format's limit, cut from the input: `bytes`
    /// holds its head and this its whole length.
    pub long_line: Option<u64>,
    /// Games before the chunk, when the chunker knows (fixed-size
    /// records): its games are then worked on as they are parsed.
    pub games_before: Option<u64>,
    /// How to parse it.
    pub parser: Arc<dyn ChunkParser>,
}

impl RawChunk {
    /// A chunk of `bytes` at `byte`, after `lines` lines, at a line start.
    pub fn new(bytes: Vec<u8>, byte: u64, lines: u32, parser: Arc<dyn ChunkParser>) -> RawChunk {
        RawChunk {
            bytes,
            byte,
            lines,
            column: 1,
            line_head: (Vec::new(), true),
            long_line: None,
            games_before: None,
            parser,
        }
    }

    /// The chunk of a run of lines.
    pub fn of_lines(cut: Cut, parser: Arc<dyn ChunkParser>) -> RawChunk {
        RawChunk {
            long_line: cut.long,
            ..RawChunk::new(cut.bytes, cut.byte, cut.lines, parser)
        }
    }
}

impl std::fmt::Debug for RawChunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawChunk")
            .field("len", &self.bytes.len())
            .field("byte", &self.byte)
            .field("lines", &self.lines)
            .field("column", &self.column)
            .field("long_line", &self.long_line)
            .finish_non_exhaustive()
    }
}

/// A parser's state in the middle of a game at the end of a chunk, to go
/// on with in the next one.
pub struct Carry(pub Box<dyn Any + Send>);

/// Turns raw chunks of one input into games, in any thread.
pub trait ChunkParser: Send + Sync {
    /// Appends the games of `chunk` to `out`, numbered from 1 within the
    /// chunk; `carry` is the state the previous chunk ended in, if it did
    /// not end between games. Returns the state to go on from when this
    /// chunk does not end between games.
    fn parse(
        &self,
        chunk: &RawChunk,
        carry: Option<Carry>,
        out: &mut Vec<GameRecord>,
    ) -> Option<Carry>;

    /// About how many games `bytes` bytes of the input hold, for the room
    /// a chunk's games are given up front (growing a vector of records
    /// copies them all).
    fn games_in(&self, bytes: usize) -> usize {
        bytes / 128 + 1
    }

    /// The end of the input after a chunk that left `carry`: appends what
    /// the open state completes.
    fn finish(&self, carry: Carry, out: &mut Vec<GameRecord>) {
        let _ = (carry, out);
    }
}

/// The reader side: cuts an input into raw chunks. A failure is the last
/// item; every chunk before it holds whole games.
pub trait Chunker: Send {
    /// The next chunk, of about `size` bytes (more when a record is
    /// longer), or `None` at the end of the input.
    fn next_chunk(&mut self, size: usize) -> Option<Result<RawChunk, ReadError>>;

    /// Takes back the bytes of a chunk it handed out, once worked on, to
    /// read a later chunk into (see [`Spares`](crate::formats::lines::Spares));
    /// by default they are dropped.
    fn recycle(&mut self, bytes: Vec<u8>) {
        drop(bytes);
    }
}

/// Every game of an input read chunk by chunk in one thread: the
/// sequential meaning of a chunked input (what the pipeline does in
/// parallel), for tests and single games.
pub fn read_all(chunker: &mut dyn Chunker, size: usize) -> (Vec<GameRecord>, Option<ReadError>) {
    let mut games = Vec::new();
    let mut carry = None;
    let mut parser = None;
    loop {
        match chunker.next_chunk(size) {
            None => break,
            Some(Err(e)) => return (renumber(games), Some(e)),
            Some(Ok(chunk)) => {
                carry = chunk.parser.parse(&chunk, carry, &mut games);
                parser = Some(Arc::clone(&chunk.parser));
            }
        }
    }
    if let (Some(parser), Some(carry)) = (parser, carry) {
        parser.finish(carry, &mut games);
    }
    (renumber(games), None)
}

fn renumber(mut games: Vec<GameRecord>) -> Vec<GameRecord> {
    for (i, game) in games.iter_mut().enumerate() {
        game.origin.index = i as u64 + 1;
    }
    games
}

#[cfg(test)]
mod tests;

/// The next chunk of whole lines of `lines`, about `size` bytes, parsed
/// by `parser`: the [`Chunker`] of every format read line by line. A
/// failure to read sets `failed` and is the last item.
pub fn next_lines<R: BufRead>(
    lines: &mut Lines<R>,
    failed: &mut bool,
    size: usize,
    parser: impl FnOnce() -> Arc<dyn ChunkParser>,
) -> Option<Result<RawChunk, ReadError>> {
    if *failed {
        return None;
    }
    match lines.cut(size) {
        Ok(cut) => cut.map(|cut| Ok(RawChunk::of_lines(cut, parser()))),
        Err(e) => {
            *failed = true;
            Some(Err(ReadError::Io(e)))
        }
    }
}
