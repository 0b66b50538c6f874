//! The pipeline itself: chunks read ahead, slices worked in parallel,
//! results handed on in input order.

use std::sync::mpsc::{channel, sync_channel, SyncSender};

use rayon::prelude::*;

use std::sync::Arc;

use crate::formats::chunk::{Carry, ChunkParser, Chunker, RawChunk};
use crate::formats::GameReader;
use crate::record::source::ReadError;
use crate::GameRecord;

/// How to run the pipeline.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads; 0 uses every core.
    pub jobs: usize,
    /// Games per chunk read ahead (inputs read game by game).
    pub chunk: usize,
    /// Games per slice of parallel work (inputs read game by game).
    pub slice: usize,
    /// Input bytes per chunk read ahead: a chunk of games read game by
    /// game ends there too, and raw chunks parsed in the workers are
    /// gathered up to it.
    pub chunk_bytes: usize,
    /// Input bytes per raw chunk parsed in a worker: one slice of work.
    pub slice_bytes: usize,
    /// Games per batch of raw chunks, as their parser estimates them from
    /// their bytes: a batch ends at `chunk_bytes` or here, whichever
    /// comes first.
    pub batch_games: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            jobs: 0,
            chunk: 2048,
            slice: 256,
            chunk_bytes: 128 << 10,
            slice_bytes: 16 << 10,
            batch_games: usize::MAX,
        }
    }
}

impl Options {
    /// The same, reading further ahead: batches of about 8,192 games, at
    /// most 1 MiB of input (WTHOR: 544 KiB; GGF, whose games are four
    /// times the size of a transcript line's, 1 MiB), so fewer waits for a
    /// batch's last slice, for jobs whose output is small beside their
    /// input (a CSV row or a transcript line a game). A job that writes
    /// much more than it reads (JSON Lines: 39 bytes a WTHOR byte) keeps
    /// the default, which holds memory down.
    #[must_use]
    pub fn reading_ahead(self) -> Options {
        Options {
            chunk_bytes: self.chunk_bytes.max(1 << 20),
            batch_games: 8192,
            ..self
        }
    }

    /// Reading 2 MiB ahead, for jobs that only count (validate, stats,
    /// explore): a batch's wait for its last slice comes four times less
    /// often than with [`Options::reading_ahead`] (validate 0.51–0.52 s
    /// against 0.54–0.55 s on big.wtb), and as nothing of the games goes
    /// out, memory stays near 45 MB (WTHOR → CSV would take 67–71 MB).
    #[must_use]
    pub fn counting(self) -> Options {
        Options {
            chunk_bytes: self.chunk_bytes.max(2 << 20),
            ..self
        }
    }
}

/// Why the pipeline stopped early.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input failed; every game before it went through.
    #[error(transparent)]
    Read(ReadError),
    /// The sink failed (e.g. a closed pipe).
    #[error(transparent)]
    Sink(std::io::Error),
    /// The worker pool could not start.
    #[error("cannot start worker threads: {0}")]
    Pool(String),
}

/// Runs `work` over the games of `reader` in parallel and feeds the
/// results to `sink` in input order.
///
/// `work` gets an owned slice of consecutive games; `sink` gets the result
/// of each slice in order. A read error ends the run after every game
/// before it has gone through the sink. A reader that offers itself as a
/// [`Chunker`] is read as raw chunks, parsed in the workers; any other is
/// read game by game in a thread of its own.
pub fn run<I, T, W, S>(mut reader: I, options: &Options, work: W, sink: S) -> Result<(), BatchError>
where
    I: GameReader,
    T: Send,
    W: Fn(Vec<GameRecord>) -> T + Sync + Send,
    S: FnMut(T) -> std::io::Result<()>,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| BatchError::Pool(e.to_string()))?;
    match reader.chunker() {
        Some(chunker) => run_chunks(chunker, &pool, options, work, sink),
        None => run_records(reader, &pool, options, work, sink),
    }
}

/// The pipeline over an input read game by game: chunks of games (of
/// `chunk` games or `chunk_bytes` bytes of input) read ahead, cut into
/// slices of `slice` games.
fn run_records<I, T, W, S>(
    reader: I,
    pool: &rayon::ThreadPool,
    options: &Options,
    work: W,
    mut sink: S,
) -> Result<(), BatchError>
where
    I: GameReader,
    T: Send,
    W: Fn(Vec<GameRecord>) -> T + Sync + Send,
    S: FnMut(T) -> std::io::Result<()>,
{
    let chunk_size = options.chunk.max(1);
    let chunk_bytes = options.chunk_bytes.max(1) as u64;
    let slice = options.slice.max(1);
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Result<Vec<GameRecord>, ReadError>>(1);
        scope.spawn(move || {
            let mut chunk = Vec::with_capacity(chunk_size);
            let mut first_byte = 0;
            for item in reader {
                match item {
                    Ok(record) => {
                        if chunk.is_empty() {
                            first_byte = record.origin.byte;
                        }
                        let far = record.origin.byte.saturating_sub(first_byte) >= chunk_bytes;
                        chunk.push(record);
                        if chunk.len() == chunk_size || far {
                            let full =
                                std::mem::replace(&mut chunk, Vec::with_capacity(chunk_size));
                            if tx.send(Ok(full)).is_err() {
                                return;
                            }
                        }
                    }
                    Err(err) => {
                        send_last(&tx, chunk, Some(err));
                        return;
                    }
                }
            }
            send_last(&tx, chunk, None);
        });
        for message in rx {
            let chunk = message.map_err(BatchError::Read)?;
            let results: Vec<T> = pool.install(|| {
                let mut slices = Vec::with_capacity(chunk.len() / slice + 1);
                let mut games = chunk.into_iter();
                loop {
                    let part: Vec<GameRecord> = games.by_ref().take(slice).collect();
                    if part.is_empty() {
                        break;
                    }
                    slices.push(part);
                }
                slices.into_par_iter().map(&work).collect()
            });
            for result in results {
                sink(result).map_err(BatchError::Sink)?;
            }
        }
        Ok(())
    })
}

/// The end of a reader thread's input: what it holds, then the failure
/// that ended it, if one did (unless the other side has hung up).
fn send_last<B>(
    tx: &SyncSender<Result<Vec<B>, ReadError>>,
    held: Vec<B>,
    failure: Option<ReadError>,
) {
    if !held.is_empty() && tx.send(Ok(held)).is_err() {
        return;
    }
    if let Some(err) = failure {
        let _ = tx.send(Err(err));
    }
}

/// The pipeline over an input cut into raw chunks: the reader thread only
/// cuts (chunks of about `slice_bytes`, gathered up to `chunk_bytes`);
/// the workers parse every chunk of a batch, then — the games numbered in
/// input order — work on each chunk's games as a slice, while this thread
/// gives the results of the batch before to the sink.
fn run_chunks<T, W, S>(
    chunker: &mut dyn Chunker,
    pool: &rayon::ThreadPool,
    options: &Options,
    work: W,
    mut sink: S,
) -> Result<(), BatchError>
where
    T: Send,
    W: Fn(Vec<GameRecord>) -> T + Sync + Send,
    S: FnMut(T) -> std::io::Result<()>,
{
    let slice_bytes = options.slice_bytes.max(1);
    let batch_bytes = options.chunk_bytes.max(slice_bytes);
    let batch_games = options.batch_games.max(1);
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Result<Vec<RawChunk>, ReadError>>(1);
        // The bytes of the chunks worked on, back to the chunker to read
        // into again: as many as three batches are out at a time.
        let (back, spent) = channel::<Vec<u8>>();
        scope.spawn(move || {
            let mut batch = Vec::new();
            let (mut bytes, mut games) = (0, 0);
            loop {
                while let Ok(spare) = spent.try_recv() {
                    chunker.recycle(spare);
                }
                match chunker.next_chunk(slice_bytes) {
                    None => break,
                    Some(Ok(chunk)) => {
                        bytes += chunk.bytes.len();
                        games += chunk.parser.games_in(chunk.bytes.len());
                        batch.push(chunk);
                        if bytes >= batch_bytes || games >= batch_games {
                            (bytes, games) = (0, 0);
                            if tx.send(Ok(std::mem::take(&mut batch))).is_err() {
                                return;
                            }
                        }
                    }
                    Some(Err(err)) => {
                        send_last(&tx, batch, Some(err));
                        return;
                    }
                }
            }
            send_last(&tx, batch, None);
        });
        let mut parsing = Parsing::default();
        // The results of the batch before, given to the sink on this
        // thread while the pool works on the next batch.
        let mut done: Vec<T> = Vec::new();
        for message in rx {
            let batch = match message {
                Ok(batch) => batch,
                Err(err) => {
                    done.into_iter()
                        .try_for_each(&mut sink)
                        .map_err(BatchError::Sink)?;
                    return Err(BatchError::Read(err));
                }
            };
            let mut next: Vec<T> = Vec::new();
            let mut sunk = Ok(());
            pool.in_place_scope(|scope| {
                scope.spawn(|_| {
                    next = match parsing.numbered(&batch, &work) {
                        Some(results) => results,
                        None => {
                            let slices = parsing.parse(pool, &batch);
                            slices.into_par_iter().map(&work).collect()
                        }
                    };
                });
                sunk = done.drain(..).try_for_each(&mut sink);
            });
            sunk.map_err(BatchError::Sink)?;
            done = next;
            for chunk in batch {
                // The reader may have ended: then the bytes are dropped.
                let _ = back.send(chunk.bytes);
            }
        }
        done.into_iter()
            .try_for_each(&mut sink)
            .map_err(BatchError::Sink)?;
        if let Some(last) = parsing.finish() {
            sink(work(last)).map_err(BatchError::Sink)?;
        }
        Ok(())
    })
}

/// A parser's state inside a game at the end of a chunk, and the parser.
type Open = (Carry, Arc<dyn ChunkParser>);

/// The parsing of an input's chunks, batch by batch: what the last chunk
/// left open and how many games came before.
#[derive(Default)]
struct Parsing {
    carry: Option<Open>,
    games: u64,
}

impl Parsing {
    /// The games of each chunk of `batch` (none left empty), numbered in
    /// the input: parsed in parallel, each from a fresh state; a chunk
    /// after one that ended inside a game is parsed again, on from there.
    fn parse(&mut self, pool: &rayon::ThreadPool, batch: &[RawChunk]) -> Vec<Vec<GameRecord>> {
        let mut parsed: Vec<(Vec<GameRecord>, Option<Carry>)> = pool.install(|| {
            batch
                .par_iter()
                .map(|chunk| {
                    let mut out = Vec::with_capacity(chunk.parser.games_in(chunk.bytes.len()));
                    let carry = chunk.parser.parse(chunk, None, &mut out);
                    (out, carry)
                })
                .collect()
        });
        for (chunk, slot) in batch.iter().zip(parsed.iter_mut()) {
            if let Some((state, _)) = self.carry.take() {
                let mut out = Vec::new();
                let carry = chunk.parser.parse(chunk, Some(state), &mut out);
                *slot = (out, carry);
            }
            if let Some(state) = slot.1.take() {
                self.carry = Some((state, Arc::clone(&chunk.parser)));
            }
        }
        parsed
            .into_iter()
            .filter(|(games, _)| !games.is_empty())
            .map(|(games, _)| self.number(games))
            .collect()
    }

    /// When the chunker numbered every chunk of `batch` (and nothing is
    /// carried), each chunk is parsed and worked on by one worker in one
    /// go, its games still in its cache; `None` otherwise.
    fn numbered<T, W>(&mut self, batch: &[RawChunk], work: &W) -> Option<Vec<T>>
    where
        T: Send,
        W: Fn(Vec<GameRecord>) -> T + Sync + Send,
    {
        if self.carry.is_some() || batch.iter().any(|c| c.games_before.is_none()) {
            return None;
        }
        let parsed: Vec<(Option<T>, u64, Option<Open>)> = batch
            .par_iter()
            .map(|chunk| {
                let mut out = Vec::with_capacity(chunk.parser.games_in(chunk.bytes.len()));
                let carry = chunk.parser.parse(chunk, None, &mut out);
                let first = chunk.games_before.unwrap_or(0);
                let end = first + out.len() as u64;
                for (i, game) in out.iter_mut().enumerate() {
                    game.origin.index = first + i as u64 + 1;
                }
                let result = (!out.is_empty()).then(|| work(out));
                (result, end, carry.map(|c| (c, Arc::clone(&chunk.parser))))
            })
            .collect();
        let mut results = Vec::with_capacity(parsed.len());
        for (result, end, carry) in parsed {
            self.games = end;
            // A chunk of whole records leaves nothing open; if one did, the
            // end of the input still completes it.
            self.carry = carry;
            results.extend(result);
        }
        Some(results)
    }

    /// The games a state left open at the end of the input completes.
    fn finish(&mut self) -> Option<Vec<GameRecord>> {
        let (state, parser) = self.carry.take()?;
        let mut out = Vec::new();
        parser.finish(state, &mut out);
        (!out.is_empty()).then(|| self.number(out))
    }

    fn number(&mut self, mut games: Vec<GameRecord>) -> Vec<GameRecord> {
        for game in &mut games {
            self.games += 1;
            game.origin.index = self.games;
        }
        games
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript::Reader;

    #[test]
    fn results_come_back_in_input_order_whatever_the_chunking() {
        let text: String = (0..5000)
            .map(|i| if i % 3 == 0 { "f5d6\n" } else { "f5f6\n" })
            .collect();
        for (chunk, slice, jobs) in [(1, 1, 1), (7, 3, 2), (1000, 64, 0), (16_384, 512, 2)] {
            let options = Options {
                jobs,
                chunk,
                slice,
                ..Options::default()
            };
            let mut seen = Vec::new();
            run(
                Reader::new(text.as_bytes()),
                &options,
                |games| games.iter().map(|g| g.origin.index).collect::<Vec<_>>(),
                |ids| {
                    seen.extend(ids);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen, (1..=5000).collect::<Vec<u64>>(), "{options:?}");
        }
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let text = "f5\n".repeat(100);
        let options = Options {
            jobs: 1,
            chunk: 10,
            slice: 5,
            ..Options::default()
        };
        let mut calls = 0;
        let err = run(
            Reader::new(text.as_bytes()),
            &options,
            |games| games.len(),
            |_| {
                calls += 1;
                Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            },
        )
        .unwrap_err();
        assert!(matches!(err, BatchError::Sink(_)));
        assert_eq!(calls, 1);
    }
}
