//! Parse + replay throughput of the text formats (SPEC: >= 200 MB/s on one
//! core for GGF and transcripts), on corpus games repeated to a few MB.
//! Skips with a message when the corpus is absent.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifu::formats::{ggf, transcript};

mod common;
use common::corpus;

fn repeat_to(lines: &[String], bytes: usize) -> Vec<u8> {
    let block: String = lines.iter().map(|l| format!("{l}\n")).collect();
    block.repeat(bytes / block.len() + 1).into_bytes()
}

fn parse_and_replay<
    I: Iterator<Item = Result<kifu::GameRecord, kifu::record::source::ReadError>>,
>(
    games: I,
) -> u64 {
    let mut total = 0u64;
    for game in games.flatten() {
        let report = game.replay();
        total += u64::from(report.finish.score.black_discs);
    }
    total
}

fn formats(c: &mut Criterion) {
    let Some(dir) = corpus() else {
        eprintln!("corpus not found (set KIFU_CORPUS): skipping the format benchmarks");
        return;
    };
    let csv = std::fs::read_to_string(dir.join("csv/othello_dataset.csv")).expect("Kaggle CSV");
    let moves: Vec<String> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(2).map(str::to_owned))
        .collect();
    let text = repeat_to(&moves, 8 << 20);
    let ggs = std::fs::read_to_string(dir.join("ggf/ntest-TestGames.ggf")).expect("GGS games");
    let ggs_lines: Vec<String> = ggs
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let ggf_text = repeat_to(&ggs_lines, 8 << 20);

    let mut group = c.benchmark_group("parse+replay");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("transcript", |b| {
        b.iter(|| {
            black_box(parse_and_replay(transcript::Reader::new(black_box(
                &text[..],
            ))))
        });
    });
    group.throughput(Throughput::Bytes(ggf_text.len() as u64));
    group.bench_function("ggf", |b| {
        b.iter(|| black_box(parse_and_replay(ggf::Reader::new(black_box(&ggf_text[..])))));
    });
    group.finish();
}

criterion_group!(benches, formats);
criterion_main!(benches);
