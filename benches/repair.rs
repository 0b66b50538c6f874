//! The repair search on one 60-move record with one slip.
//!
//! `cargo bench --bench repair`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kifu::formats::transcript::{parse_line, LineContext};
use kifu::repair::{suggest, suggest_with, Options};

/// fixtures/transcripts/example.txt, game 2 (60 moves), with one slip.
const GAME: &str = "f5f4c3g6f3c5d6f2b5c4g3a6f6c2e3g4b3g7d3h4b1c7e7d2b8e6a5e2f7d7b4b2f8d8e1b7h2b6h5a4h7d1a3h6e8f1a7g8h8g2g5c6a2a8h3a1c8g1c1";

fn with_slip(index: usize, square: &str) -> kifu::GameRecord {
    let mut text = GAME.to_owned();
    text.replace_range(2 * index..2 * index + 2, square);
    let ctx = LineContext {
        line: 1,
        byte: 0,
        index: 1,
    };
    parse_line(text.as_bytes(), ctx).expect("a game line")
}

fn bench(c: &mut Criterion) {
    // Move 11 written g2 for g3: legal, the record fails at move 15.
    let early = with_slip(10, "g2");
    // Move 45 written b2 for e8: square occupied, late in the game.
    let late = with_slip(44, "b2");
    // Two slips: the search needs a second edit.
    let mut two = with_slip(22, "d8");
    two.moves[44] = with_slip(44, "b2").moves[44];
    assert_eq!(suggest(&early, 3)[0].record.move_string(), GAME);
    assert_eq!(suggest(&late, 3)[0].record.move_string(), GAME);
    assert_eq!(suggest(&two, 3)[0].record.move_string(), GAME);
    let mut group = c.benchmark_group("repair");
    group.bench_function("60 moves, slip at move 11", |b| {
        b.iter(|| suggest(black_box(&early), 3))
    });
    group.bench_function("60 moves, slip at move 45", |b| {
        b.iter(|| suggest(black_box(&late), 3))
    });
    group.bench_function("60 moves, two slips", |b| {
        b.iter(|| suggest_with(black_box(&two), 3, &Options::default()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
