//! The repair search on one 60-move record with one slip.
//!
//! `cargo bench --bench repair`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kifu::formats::transcript::{parse_line, LineContext};
use kifu::record::repair::{suggest, suggest_with, Options};

/// fixtures/transcripts/example.txt, game 1 (60 moves).
const GAME: &str = "c4e3f5c5b5d6e6c6e7c3b4a5b2f7a4c2d3b3e2f4g7f2a2e1f1g5a3c7d7b6g3h4h5f8f3g1c8b8c1d2d1h7h2h3a6h1g8a1g6h8e8b7a7g4b1h6a8d8g2f6";

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
    // Move 14 written f8 for f7: legal, the record fails at move 21.
    let early = with_slip(13, "f8");
    // Move 45 written b6 for a6: square occupied, late in the game.
    let late = with_slip(44, "b6");
    // Both: the search needs a second edit.
    let mut two = with_slip(13, "f8");
    two.moves[44] = late.moves[44];
    assert_eq!(suggest(&early, 3)[0].record.move_string(), GAME);
    assert_eq!(suggest(&late, 3)[0].record.move_string(), GAME);
    assert_eq!(suggest(&two, 3)[0].record.move_string(), GAME);
    let mut group = c.benchmark_group("repair");
    group.bench_function("60 moves, slip at move 14 found at 21", |b| {
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
