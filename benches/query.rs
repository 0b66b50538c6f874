//! The cost of asking a database, on the WTHOR games of the corpus.
//!
//! ```text
//! KIFU_CORPUS=/path/to/corpus cargo bench --bench query
//! ```
//!
//! - `symmetry/canonical_key`, `symmetry/canonical`: the canonical key
//!   of one position (without and with its symmetry), per position;
//! - `symmetry/move_list_key`: the duplicate key of a game's move list,
//!   per game;
//! - `query/step`, `openings/push`: the position check and the opening
//!   classifier alone, fed positions replayed beforehand, per game;
//! - `in_replay/*`: a whole replay per game, alone (`replay`), with the
//!   position check before every move (`replay_step`), and with the
//!   opening classifier (`replay_openings`); the differences are what a
//!   subcommand pays per game.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput};
use kifu::{Move, MoveListKey, Openings, Ply, Position, PositionQuery, Replay, Square};

mod common;
use common::{corpus, wtb_files};

/// Games whose positions are kept for the isolated benchmarks.
const KEPT: usize = 2_000;

/// A position most games of the corpus pass through (the Tiger), so
/// that the benchmark takes the path of a match too.
const QUERY: &str = "f5d6c3d3c4";

/// The squares of every WTHOR game of the corpus, up to an unreadable
/// byte.
fn load() -> Option<Vec<Vec<Square>>> {
    let dir = corpus()?;
    let mut files = Vec::new();
    wtb_files(&dir.join("wthor"), &mut files);
    let mut games = Vec::new();
    for path in &files {
        let Ok(reader) = kifu::formats::wthor::Reader::open(path) else {
            continue;
        };
        for record in reader.flatten() {
            games.push(
                record
                    .moves
                    .iter()
                    .map_while(|m| match m.token {
                        kifu::Token::Move(Move::Play(sq)) => Some(sq),
                        _ => None,
                    })
                    .collect(),
            );
        }
    }
    if games.is_empty() {
        eprintln!("note: no WTHOR corpus found (set KIFU_CORPUS); nothing to benchmark");
        return None;
    }
    Some(games)
}

/// The positions of the first games before each move, with what the
/// move did; `ends[i]` is where game `i` stops.
struct Replayed {
    steps: Vec<(Position, Option<Ply>)>,
    ends: Vec<usize>,
}

fn replayed(games: &[Vec<Square>]) -> Replayed {
    let mut steps = Vec::new();
    let mut ends = Vec::new();
    for game in games.iter().take(KEPT) {
        let mut replay = Replay::new(Position::start());
        for &sq in game {
            let before = *replay.position();
            let ply = replay.place(sq, None).ok();
            steps.push((before, ply));
            if ply.is_none() {
                break;
            }
        }
        steps.push((*replay.position(), None));
        ends.push(steps.len());
    }
    Replayed { steps, ends }
}

#[inline(never)]
fn replay_only(games: &[Vec<Square>]) -> u64 {
    let mut sum = 0;
    for game in games {
        let mut replay = Replay::new(Position::start());
        for &sq in game {
            if replay.place(sq, None).is_err() {
                break;
            }
        }
        sum += u64::from(replay.placed());
    }
    sum
}

#[inline(never)]
fn replay_step(games: &[Vec<Square>], query: &PositionQuery) -> u64 {
    let mut sum = 0;
    for game in games {
        let mut replay = Replay::new(Position::start());
        let mut hit = None;
        for &sq in game {
            let before = *replay.position();
            let ply = replay.place(sq, None).ok();
            if hit.is_none() {
                hit = query.step(&before, ply.as_ref());
            }
            if ply.is_none() {
                break;
            }
        }
        if hit.is_none() {
            hit = query.step(replay.position(), None);
        }
        sum += u64::from(replay.placed()) + u64::from(hit.is_some());
    }
    sum
}

#[inline(never)]
fn replay_openings(games: &[Vec<Square>], book: &Openings) -> u64 {
    let mut sum = 0;
    let start = Position::start();
    for game in games {
        let mut replay = Replay::new(start);
        let mut classifier = book.classifier(&start);
        let mut naming = true;
        for &sq in game {
            if replay.place(sq, None).is_err() {
                break;
            }
            if naming {
                naming = classifier.push(replay.position());
            }
        }
        sum +=
            u64::from(replay.placed()) + classifier.opening().map_or(0, |o| o.moves().len() as u64);
    }
    sum
}

fn main() {
    let Some(games) = load() else {
        return;
    };
    let data = replayed(&games);
    let positions: Vec<Position> = data.steps.iter().map(|(p, _)| *p).collect();
    let query: PositionQuery = QUERY.parse().unwrap();
    let book = Openings::builtin();
    eprintln!(
        "{} games; {} positions of the first {} kept",
        games.len(),
        positions.len(),
        data.ends.len()
    );
    let mut c = Criterion::default().configure_from_args();

    let mut group = c.benchmark_group("symmetry");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("canonical_key", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for pos in black_box(&positions) {
                acc ^= pos.canonical_key().0;
            }
            acc
        })
    });
    group.bench_function("canonical", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for pos in black_box(&positions) {
                let (key, s) = pos.canonical();
                acc ^= key.0 ^ s as u128;
            }
            acc
        })
    });
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("move_list_key", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for game in black_box(&games) {
                let mut key = MoveListKey::new();
                for &sq in game {
                    key.push(sq);
                }
                acc ^= key.finish();
            }
            acc
        })
    });
    group.finish();

    let mut group = c.benchmark_group("isolated");
    group.throughput(Throughput::Elements(data.ends.len() as u64));
    group.bench_function("query_step", |b| {
        b.iter(|| {
            let mut hits = 0u32;
            let mut from = 0;
            for &end in &data.ends {
                for (before, ply) in &data.steps[from..end] {
                    if let Some(hit) = query.step(black_box(before), ply.as_ref()) {
                        hits += 1 + u32::from(hit.next.is_some());
                        break;
                    }
                }
                from = end;
            }
            hits
        })
    });
    group.bench_function("openings_push", |b| {
        b.iter(|| {
            let mut named = 0usize;
            let mut from = 0;
            let start = Position::start();
            for &end in &data.ends {
                let mut classifier = book.classifier(&start);
                // Positions after each move: the next step's `before`.
                for (pos, _) in &data.steps[from + 1..end] {
                    if !classifier.push(black_box(pos)) {
                        break;
                    }
                }
                named += classifier.opening().map_or(0, |o| o.moves().len());
                from = end;
            }
            named
        })
    });
    group.finish();

    let mut group = c.benchmark_group("in_replay");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(20);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("replay", |b| b.iter(|| replay_only(black_box(&games))));
    group.bench_function("replay_step", |b| {
        b.iter(|| replay_step(black_box(&games), &query))
    });
    group.bench_function("replay_openings", |b| {
        b.iter(|| replay_openings(black_box(&games), book))
    });
    group.finish();
    c.final_summary();
}
