//! The exact solver on Edax's FFO problems, one thread.
//!
//! ```text
//! KIFU_CORPUS=/path/to/corpus cargo bench --bench solve
//! ```
//!
//! - `ffo/1-19`: every position of `fforum-1-19.obf` (14–16 empties),
//!   value and every best move, a fresh table each time;
//! - `ffo/20-27`: positions #20–#27 (6–20 empties), value and one best
//!   move, the search's nodes per second printed once.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, SamplingMode};
use kifu::solve::{BestMoves, Solver, SolverOptions};
use kifu::Position;

mod common;
use common::corpus;

/// The boards of an OBF file.
fn obf(name: &str) -> Option<Vec<Position>> {
    let text = std::fs::read_to_string(corpus()?.join("positions/obf").join(name)).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .filter_map(|l| l.split(';').next()?.parse().ok())
            .collect(),
    )
}

fn bench(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread");
    let Some(first) = obf("fforum-1-19.obf") else {
        eprintln!("note: corpus not found; set KIFU_CORPUS");
        return;
    };
    let mut group = c.benchmark_group("ffo");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("1-19", |b| {
        b.iter(|| {
            pool.install(|| {
                let solver = Solver::new(SolverOptions::with_hash(16 << 20));
                for pos in &first {
                    black_box(solver.solve(pos).expect("never interrupted"));
                }
            })
        });
    });
    if let Some(second) = obf("fforum-20-39.obf") {
        let some: Vec<Position> = second.into_iter().take(8).collect();
        let run = |some: &[Position]| -> u64 {
            pool.install(|| {
                let solver = Solver::new(SolverOptions::with_hash(64 << 20));
                some.iter()
                    .map(|pos| {
                        solver
                            .solve_with(pos, None, BestMoves::One)
                            .expect("never interrupted")
                            .nodes
                    })
                    .sum()
            })
        };
        let started = Instant::now();
        let nodes = run(&some);
        eprintln!(
            "ffo/20-27: {nodes} nodes, {:.1} M nodes/s",
            nodes as f64 / started.elapsed().as_secs_f64() / 1e6
        );
        group.bench_function("20-27", |b| b.iter(|| black_box(run(&some))));
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
