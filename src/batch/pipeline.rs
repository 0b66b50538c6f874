//! The pipeline itself: chunks read ahead, slices worked in parallel,
//! results handed on in input order.

use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use crate::source::ReadError;
use crate::GameRecord;

/// How to run the pipeline.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads; 0 uses every core.
    pub jobs: usize,
    /// Games per chunk read ahead.
    pub chunk: usize,
    /// Games per slice of parallel work.
    pub slice: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            jobs: 0,
            chunk: 2048,
            slice: 256,
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
/// before it has gone through the sink.
pub fn run<I, T, W, S>(reader: I, options: &Options, work: W, mut sink: S) -> Result<(), BatchError>
where
    I: Iterator<Item = Result<GameRecord, ReadError>> + Send,
    T: Send,
    W: Fn(Vec<GameRecord>) -> T + Sync + Send,
    S: FnMut(T) -> std::io::Result<()>,
{
    let chunk_size = options.chunk.max(1);
    let slice = options.slice.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| BatchError::Pool(e.to_string()))?;
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Result<Vec<GameRecord>, ReadError>>(2);
        scope.spawn(move || {
            let mut chunk = Vec::with_capacity(chunk_size);
            for item in reader {
                match item {
                    Ok(record) => {
                        chunk.push(record);
                        if chunk.len() == chunk_size {
                            let full =
                                std::mem::replace(&mut chunk, Vec::with_capacity(chunk_size));
                            if tx.send(Ok(full)).is_err() {
                                return;
                            }
                        }
                    }
                    Err(err) => {
                        if !chunk.is_empty() && tx.send(Ok(std::mem::take(&mut chunk))).is_err() {
                            return;
                        }
                        let _ = tx.send(Err(err));
                        return;
                    }
                }
            }
            if !chunk.is_empty() {
                let _ = tx.send(Ok(chunk));
            }
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
            let options = Options { jobs, chunk, slice };
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
