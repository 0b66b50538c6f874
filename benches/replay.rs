//! Replay speed on the WTHOR games of the corpus.
//!
//! ```text
//! KIFU_CORPUS=/path/to/corpus cargo bench --bench replay
//! ```
//!
//! Every `*.wtb` file under `$KIFU_CORPUS/wthor` (default
//! `../shared/corpus` next to the crate) is parsed here, outside the timed
//! loops, into lists of squares. The timed loops replay them with
//! [`kifu::Replay`] (every square, then `finish()`), which is what
//! `validate` does per game: legality, implicit passes, the end and the
//! score.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::{Position, Replay, Square, Status};

/// The WTHOR file header and one game record, in bytes.
const HEADER: usize = 16;
const RECORD: usize = 68;
/// Where the 60 move bytes start in a record.
const MOVES_AT: usize = 8;
/// Positions for the micro benchmarks of `flips` and `moves`.
const MICRO: usize = 250_000;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("KIFU_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    let wthor = dir.join("wthor");
    wthor.is_dir().then_some(wthor)
}

fn wtb_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            wtb_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            out.push(path);
        }
    }
}

/// The move lists of every game in a WTHOR file (moves up to the first 0
/// byte; a byte that is not a square ends the game there too).
fn parse_wtb(bytes: &[u8], games: &mut Vec<Vec<Square>>) {
    let Some(body) = bytes.get(HEADER..) else {
        return;
    };
    for record in body.chunks_exact(RECORD) {
        let mut game = Vec::with_capacity(60);
        for &b in &record[MOVES_AT..] {
            let (row, col) = (b / 10, b % 10);
            let square = (1..=8)
                .contains(&row)
                .then(|| Square::from_coords(col.wrapping_sub(1), row - 1))
                .flatten();
            match square {
                Some(sq) => game.push(sq),
                None => break,
            }
        }
        games.push(game);
    }
}

fn load() -> Option<Vec<Vec<Square>>> {
    let Some(dir) = corpus() else {
        eprintln!("note: no WTHOR corpus found (set KIFU_CORPUS); nothing to benchmark");
        return None;
    };
    let mut files = Vec::new();
    wtb_files(&dir, &mut files);
    let mut games = Vec::new();
    for path in &files {
        match std::fs::read(path) {
            Ok(bytes) => parse_wtb(&bytes, &mut games),
            Err(e) => eprintln!("note: cannot read {}: {e}", path.display()),
        }
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

fn bench_replay(c: &mut Criterion) {
    let Some(games) = load() else {
        return;
    };
    let moves: usize = games.iter().map(Vec::len).sum();
    let complete = {
        let mut n = 0usize;
        for game in &games {
            let mut replay = Replay::new(Position::start());
            if game.iter().all(|&sq| replay.place(sq, None).is_ok())
                && replay.finish().status == Status::Complete
            {
                n += 1;
            }
        }
        n
    };
    eprintln!(
        "{} games, {} moves ({:.1} per game), {} complete",
        games.len(),
        moves,
        moves as f64 / games.len() as f64,
        complete
    );

    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("wthor", |b| {
        b.iter(|| black_box(replay_all(black_box(&games))))
    });
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function("wthor_moves", |b| {
        b.iter(|| black_box(replay_all(black_box(&games))))
    });
    group.finish();

    // Positions met in the first games, for the micro benchmarks (a
    // quarter of a million, which stay in cache).
    let mut positions = Vec::with_capacity(MICRO + 60);
    for game in &games {
        if positions.len() >= MICRO {
            break;
        }
        let mut pos = Position::start();
        for &sq in game {
            let (p, o) = pos.relative();
            if pos.play(sq).is_err() {
                break;
            }
            positions.push((p, o, sq));
        }
    }
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o, sq) in black_box(&positions) {
                acc ^= kifu::flips(p, o, sq);
            }
            black_box(acc)
        })
    });
    group.bench_function("moves", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o, _) in black_box(&positions) {
                acc ^= kifu::moves(p, o);
            }
            black_box(acc)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
