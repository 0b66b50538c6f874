//! Replay speed on the WTHOR games of the corpus.
//!
//! ```text
//! KIFU_CORPUS=/path/to/corpus cargo bench --bench replay
//! KIFU_BENCH_CLOCK=cpu KIFU_CORPUS=/path/to/corpus cargo bench --bench replay
//! ```
//!
//! Every `*.wtb` file under `$KIFU_CORPUS/wthor` (default
//! `../shared/corpus` next to the crate) is parsed here, outside the timed
//! loops, into lists of squares. The timed loops replay them with
//! [`kifu::Replay`] (every square, then `finish()`), which is what
//! `validate` does per game: legality, implicit passes, the end and the
//! score.
//!
//! - `replay/wthor`: games per second;
//! - `replay/wthor_moves`: the same loop, in moves per second;
//! - `replay/records`, `replay/records_in_pairs`: the games as records,
//!   replayed one at a time (`GameRecord::replay`) and two at a time
//!   (`GameRecord::replay_pair`, interleaved with AVX-512);
//! - `engine/flips`, `engine/moves`: the two bitboard kernels alone, over
//!   positions met in the first games.
//!
//! Criterion times wall-clock time. On a machine shared with other work,
//! `KIFU_BENCH_CLOCK=cpu` times the CPU time of the benchmark thread
//! instead (64-bit Linux), which is the speed of one core whoever else
//! runs; those results are named `replay_cpu/…` and `engine_cpu/…`.

use std::hint::black_box;
use std::path::Path;

use criterion::measurement::Measurement;
use criterion::{Criterion, SamplingMode, Throughput};
use kifu::{GameRecord, Move, Position, RecordedMove, Replay, Report, Square, Status};

mod common;
use common::{corpus, wtb_files, CpuTime};

/// Positions for the micro benchmarks of `flips` and `moves`.
const MICRO: usize = 250_000;

/// The squares of every game in a WTHOR file, read with kifu's reader
/// (moves up to an unreadable byte, if any).
fn parse_wtb(path: &Path, games: &mut Vec<Vec<Square>>) {
    let reader = match kifu::formats::wthor::Reader::open(path) {
        Ok(reader) => reader,
        Err(e) => {
            eprintln!("note: cannot read {}: {e}", path.display());
            return;
        }
    };
    for record in reader.flatten() {
        games.push(
            record
                .moves
                .iter()
                .map_while(|m| match m.token {
                    kifu::Token::Move(kifu::Move::Play(sq)) => Some(sq),
                    _ => None,
                })
                .collect(),
        );
    }
}

fn load() -> Option<Vec<Vec<Square>>> {
    let Some(dir) = corpus().map(|d| d.join("wthor")).filter(|d| d.is_dir()) else {
        eprintln!("note: no WTHOR corpus found (set KIFU_CORPUS); nothing to benchmark");
        return None;
    };
    let mut files = Vec::new();
    wtb_files(&dir, &mut files);
    let mut games = Vec::new();
    for path in &files {
        parse_wtb(path, &mut games);
    }
    if games.is_empty() {
        eprintln!(
            "note: no WTHOR games under {}; nothing to benchmark",
            dir.display()
        );
        return None;
    }
    Some(games)
}

/// Replays every game; returns a checksum of scores and statuses so the
/// work cannot be optimised away.
#[inline(never)]
fn replay_all(games: &[Vec<Square>]) -> u64 {
    let mut sum = 0u64;
    for game in games {
        let mut replay = Replay::new(Position::start());
        let mut ok = true;
        for &sq in game {
            if replay.place(sq, None).is_err() {
                ok = false;
                break;
            }
        }
        let end = replay.finish();
        let status = match (ok, end.status) {
            (false, _) => 3,
            (true, Status::Complete) => 1,
            (true, _) => 2,
        };
        sum += u64::from(end.score.black_score) * 4 + status;
    }
    sum
}

/// The games, with counts for the report.
struct Data {
    games: Vec<Vec<Square>>,
    moves: u64,
    /// `(player, opponent, square)` before each move of the first games.
    positions: Vec<(u64, u64, Square)>,
}

impl Data {
    fn load() -> Option<Data> {
        let games = load()?;
        let moves = games.iter().map(|g| g.len() as u64).sum();
        let mut complete = 0usize;
        let mut positions = Vec::with_capacity(MICRO + 60);
        for game in &games {
            let mut replay = Replay::new(Position::start());
            let mut ok = true;
            for &sq in game {
                let (p, o) = replay.position().relative();
                if replay.place(sq, None).is_err() {
                    ok = false;
                    break;
                }
                if positions.len() < MICRO {
                    positions.push((p, o, sq));
                }
            }
            if ok && replay.finish().status == Status::Complete {
                complete += 1;
            }
        }
        eprintln!(
            "{} games, {} moves ({:.1} per game), {} complete",
            games.len(),
            moves,
            moves as f64 / games.len() as f64,
            complete
        );
        Some(Data {
            games,
            moves,
            positions,
        })
    }
}

fn bench<M: Measurement>(c: &mut Criterion<M>, data: &Data, suffix: &str) {
    let games = &data.games;
    let mut group = c.benchmark_group(format!("replay{suffix}"));
    // One pass over the corpus takes tens of milliseconds: time whole
    // passes, the same number in every sample.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(30);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("wthor", |b| {
        b.iter(|| black_box(replay_all(black_box(games))))
    });
    group.throughput(Throughput::Elements(data.moves));
    group.bench_function("wthor_moves", |b| {
        b.iter(|| black_box(replay_all(black_box(games))))
    });
    // The same games as records, replayed as `validate` replays them: one
    // at a time, and two at a time (interleaved where the processor has
    // AVX-512, else the same as one at a time).
    let records: Vec<GameRecord> = games
        .iter()
        .map(|game| {
            let mut record = GameRecord::new(Position::start());
            record.moves = game
                .iter()
                .map(|&sq| RecordedMove::new(Move::Play(sq)))
                .collect();
            record
        })
        .collect();
    let score = |report: &Report| u64::from(report.finish.score.black_score);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("records", |b| {
        b.iter(|| {
            let records = black_box(&records);
            records.iter().map(|r| score(&r.replay())).sum::<u64>()
        })
    });
    group.bench_function("records_in_pairs", |b| {
        b.iter(|| {
            let mut sum = 0;
            for pair in black_box(&records).chunks(2) {
                sum += match pair {
                    [a, b] => {
                        let (x, y) = a.replay_pair(&mut (), b, &mut ());
                        score(&x) + score(&y)
                    }
                    _ => pair.iter().map(|r| score(&r.replay())).sum(),
                };
            }
            sum
        })
    });
    group.finish();

    let positions = &data.positions;
    let mut group = c.benchmark_group(format!("engine{suffix}"));
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o, sq) in black_box(positions) {
                acc ^= kifu::flips(p, o, sq);
            }
            black_box(acc)
        })
    });
    group.bench_function("moves", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o, _) in black_box(positions) {
                acc ^= kifu::moves(p, o);
            }
            black_box(acc)
        })
    });
    group.finish();
}

fn main() {
    let Some(data) = Data::load() else {
        return;
    };
    let cpu = std::env::var("KIFU_BENCH_CLOCK").is_ok_and(|v| v == "cpu");
    if common::cpu_clock() {
        eprintln!("timing thread CPU time (KIFU_BENCH_CLOCK=cpu)");
        let mut c = Criterion::default()
            .with_measurement(CpuTime::Thread)
            .configure_from_args();
        bench(&mut c, &data, "_cpu");
        c.final_summary();
    } else {
        if cpu {
            eprintln!("note: thread CPU time needs 64-bit Linux; timing wall-clock time");
        }
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c, &data, "");
        c.final_summary();
    }
}
