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
//!
//! `KIFU_BENCH_FFO=20-39` (or `1-19`, `40-59`; `KIFU_BENCH_FFO=40-59:10`
//! for the first ten) skips criterion and solves the file's positions
//! once each on one thread (`KIFU_BENCH_THREADS=n`: n threads, the
//! process's CPU seconds), value and one best move, a fresh 64 MiB table
//! for each (`KIFU_BENCH_HASH=MiB`: another size; `KIFU_BENCH_TABLE=shared`:
//! one table for the whole set, as `kifu solve FILE` keeps one, so that
//! only the first position pays for making its pages present): per
//! position the nodes and the thread's CPU seconds, then the totals and
//! nodes per CPU second (`KIFU_BENCH_PICK=50,53`: only those problems
//! of the set). Copies of the bench binary built
//! before and after a change, run alternately, compare the two on a
//! shared machine (`KIFU_BENCH_ROUNDS=n` repeats the set, medians).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, SamplingMode};
use kifu::solve::{BestMoves, Solver, SolverOptions};
use kifu::Position;

mod common;
use common::{corpus, CpuTime};
use criterion::measurement::Measurement;

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

/// `KIFU_BENCH_FFO`: each position of a set once, nodes and CPU seconds.
fn ffo_set(spec: &str) {
    let (set, count) = spec.split_once(':').map_or((spec, usize::MAX), |(s, n)| {
        (s, n.parse().expect("KIFU_BENCH_FFO=SET:COUNT"))
    });
    let Some(positions) = obf(&format!("fforum-{set}.obf")) else {
        eprintln!("note: fforum-{set}.obf not found; set KIFU_CORPUS");
        return;
    };
    let rounds: usize = std::env::var("KIFU_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let first: usize = set
        .split('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let threads: usize = std::env::var("KIFU_BENCH_THREADS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread");
    // One thread: its own CPU time (whoever else runs); more: the
    // process's, every thread's.
    let clock = if threads == 1 {
        CpuTime::Thread
    } else {
        CpuTime::Process
    };
    let hash_mib: usize = std::env::var("KIFU_BENCH_HASH")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(64);
    let shared = std::env::var("KIFU_BENCH_TABLE").is_ok_and(|t| t == "shared");
    // `KIFU_BENCH_PICK=50,53`: only these problems of the set, by number.
    let pick: Option<Vec<usize>> = std::env::var("KIFU_BENCH_PICK").ok().map(|list| {
        list.split(',')
            .map(|n| n.trim().parse().expect("KIFU_BENCH_PICK=N,N,…"))
            .collect()
    });
    let mut totals = Vec::new();
    for _ in 0..rounds {
        let (mut nodes, mut cpu) = (0u64, 0f64);
        let one = shared.then(|| Solver::new(SolverOptions::with_hash(hash_mib << 20)));
        for (i, pos) in positions.iter().take(count).enumerate() {
            if pick.as_ref().is_some_and(|p| !p.contains(&(first + i))) {
                continue;
            }
            let (n, secs, value) = pool.install(|| {
                let fresh;
                let solver = match &one {
                    Some(solver) => solver,
                    None => {
                        fresh = Solver::new(SolverOptions::with_hash(hash_mib << 20));
                        &fresh
                    }
                };
                let start = clock.start();
                let s = solver
                    .solve_with(pos, None, BestMoves::One)
                    .expect("never interrupted");
                (s.nodes, clock.end(start).as_secs_f64(), s.value)
            });
            println!(
                "#{:<3} {:>3} {:>14} nodes {:>8.3} s {:>6.1} M nodes/s",
                first + i,
                value,
                n,
                secs,
                n as f64 / secs / 1e6
            );
            nodes += n;
            cpu += secs;
        }
        println!(
            "total {nodes} nodes, {cpu:.3} CPU s, {:.2} M nodes/s",
            nodes as f64 / cpu / 1e6
        );
        totals.push((cpu, nodes));
    }
    if rounds > 1 {
        totals.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (cpu, nodes) = totals[rounds / 2];
        println!(
            "median {cpu:.3} CPU s, {:.2} M nodes/s",
            nodes as f64 / cpu / 1e6
        );
    }
}

fn main() {
    if let Ok(spec) = std::env::var("KIFU_BENCH_FFO") {
        ffo_set(&spec);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
