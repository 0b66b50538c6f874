//! Chunked reading against sequential reading: the same games, the same
//! positions, the same failure, wherever the chunks are cut.

use std::io::{self, BufReader, Read};

use crate::batch::{self, Options};
use crate::formats::chunk::{read_all, Chunker};
use crate::formats::lines::{Cut, Lines, MAX_LINE};
use crate::formats::{ggf, jsonl, transcript, wthor, Format, GameReader};
use crate::record::row::Game;
use crate::testkit::{decorate, pipeline_origins, random_game, Origin, Play, Rng};

/// Every game (with its spans and text) and the failure, as text.
fn shown(games: &[crate::GameRecord], error: Option<String>) -> Vec<String> {
    let mut out: Vec<String> = games.iter().map(|g| format!("{g:?}")).collect();
    out.extend(error);
    out
}

fn sequential(
    reader: impl Iterator<Item = Result<crate::GameRecord, crate::record::source::ReadError>>,
) -> Vec<String> {
    let mut games = Vec::new();
    let mut error = None;
    for item in reader {
        match item {
            Ok(game) => games.push(game),
            Err(e) => error = Some(e.to_string()),
        }
    }
    shown(&games, error)
}

fn chunked(reader: &mut dyn GameReader, size: usize) -> Vec<String> {
    let chunker: &mut dyn Chunker = reader.chunker().expect("a chunked format");
    let (games, error) = read_all(chunker, size);
    shown(&games, error.map(|e| e.to_string()))
}

/// Opens `bytes` in `format` through a tiny buffer, so that reads
/// straddle every boundary.
fn open(format: Format, bytes: &[u8]) -> Box<dyn GameReader + '_> {
    let input = BufReader::with_capacity(7, bytes);
    match format {
        Format::Wthor => Box::new(wthor::Reader::new(input, None).with_size(bytes.len() as u64)),
        _ => format.reader(input),
    }
}

fn assert_same(format: Format, bytes: &[u8]) {
    let expected = sequential(open(format, bytes));
    for size in [1, 2, 5, 64, 300, 1 << 16] {
        let got = chunked(&mut open(format, bytes), size);
        assert_eq!(
            got,
            expected,
            "{format:?}, chunks of {size} bytes, input {:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// Random games written in `format`, one after another.
fn written(rng: &mut Rng, format: Format, games: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let text = format.info().text.expect("a text format");
    text.header(&mut out);
    for _ in 0..games {
        let mut record = random_game(rng, Play::WHOLE);
        decorate(rng, &mut record);
        let report = record.replay();
        text.write(&Game::new("-", &record, &report), &mut out);
    }
    out
}

/// `bytes` with random edits of the kind that move boundaries: line ends
/// of every sort, game brackets, quotes, a byte order mark, cut ends.
fn mutated(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    const PIECES: [&[u8]; 16] = [
        b"\n",
        b"\r\n",
        b"\r",
        b"(;",
        b";)",
        b"(",
        b"[",
        b"]",
        b"\\",
        b" ",
        b"\"",
        b"#",
        b"\xEF\xBB\xBF",
        b"{",
        b"}",
        b"\n\n",
    ];
    for _ in 0..rng.below(6) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 => {
                let end = (at + rng.below(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => bytes.truncate(at),
            _ => {
                let piece = rng.pick(&PIECES);
                bytes.splice(at..at, piece.iter().copied());
            }
        }
    }
    bytes
}

#[test]
fn chunked_reading_equals_sequential_reading_on_random_and_mutated_inputs() {
    let mut rng = Rng::new(15);
    for round in 0..60 {
        for format in [Format::Transcript, Format::Ggf, Format::Jsonl, Format::Csv] {
            let games = 1 + rng.below(6);
            let mut bytes = written(&mut rng, format, games);
            if format == Format::Ggf && rng.chance(50) {
                // Several games a line, or games over several lines.
                let from = if rng.chance(50) { b'\n' } else { b']' };
                for b in &mut bytes {
                    if *b == from && rng.chance(50) {
                        *b = if from == b'\n' { b' ' } else { b'\n' };
                    }
                }
                if from == b']' {
                    bytes = bytes
                        .iter()
                        .map(|&b| if b == b'\n' { b']' } else { b })
                        .collect();
                    let mut split = Vec::new();
                    for &b in &bytes {
                        split.push(b);
                        if b == b']' && rng.chance(30) {
                            split.push(b'\n');
                        }
                    }
                    bytes = split;
                }
            }
            if round % 3 != 0 {
                bytes = mutated(&mut rng, bytes);
            }
            assert_same(format, &bytes);
        }
    }
}

/// A `.wtb` file of `games` records (random moves, some bytes odd) whose
/// header claims `claimed` games; `extra` bytes follow.
fn wtb(rng: &mut Rng, games: usize, claimed: u32, extra: usize) -> Vec<u8> {
    let mut out = vec![20, 26, 2, 16, 0, 0, 0, 0, 0, 0, 0xb9, 7, 8, 0, 24, 0];
    out[4..8].copy_from_slice(&claimed.to_le_bytes());
    for _ in 0..games {
        let mut record = [0u8; 68];
        record[6] = rng.below(70) as u8;
        record[7] = rng.below(70) as u8;
        let game = random_game(rng, Play::WHOLE);
        for (slot, mv) in record[8..].iter_mut().zip(game.moves.iter()) {
            if let crate::record::Token::Move(crate::Move::Play(square)) = mv.token {
                *slot = 10 * (square.row() + 1) + square.column() + 1;
            }
        }
        if rng.chance(10) {
            record[8 + rng.below(60)] = rng.pick(&[0, 92, 99, 5]);
        }
        out.extend_from_slice(&record);
    }
    out.extend((0..extra).map(|i| i as u8));
    out
}

#[test]
fn chunked_wthor_equals_sequential_also_when_short_or_long() {
    let mut rng = Rng::new(68);
    for (games, claimed, extra) in [
        (0, 0, 0),
        (5, 5, 0),
        (40, 40, 0),
        (40, 44, 0),
        (40, 40, 30),
        (40, 38, 0),
        (9, 12, 0),
    ] {
        let mut bytes = wtb(&mut rng, games, claimed, extra);
        assert_same(Format::Wthor, &bytes);
        bytes.truncate(bytes.len().saturating_sub(21));
        assert_same(Format::Wthor, &bytes);
    }
}

fn cuts(input: &[u8], size: usize, max: usize) -> Vec<(String, u64, u32, Option<u64>)> {
    let mut lines = Lines::new(BufReader::with_capacity(4, input), max);
    let mut out = Vec::new();
    while let Some(Cut {
        bytes,
        byte,
        lines: n,
        long,
    }) = lines.cut(size).unwrap()
    {
        out.push((String::from_utf8_lossy(&bytes).into_owned(), byte, n, long));
    }
    out
}

#[test]
fn lines_are_cut_after_whole_lines_of_every_ending() {
    let c = |s: &str, byte, lines| (s.to_owned(), byte, lines, None);
    assert_eq!(
        cuts(b"ab\ncd\r\nef\rgh", 1, 100),
        [
            c("ab\n", 0, 0),
            c("cd\r\n", 3, 1),
            c("ef\r", 7, 2),
            c("gh", 10, 3)
        ]
    );
    // A `\r` at the end of what is read may be half of a `\r\n`.
    assert_eq!(cuts(b"a\r\nb", 2, 100), [c("a\r\n", 0, 0), c("b", 3, 1)]);
    // The byte order mark stays with the first chunk (the worker skips it).
    assert_eq!(cuts(b"\xEF\xBB\xBFf5\nd3", 1, 100)[1], c("d3", 6, 1));
    assert_eq!(cuts(b"", 1, 100), []);
    // A line over the limit comes alone, as its head and length.
    assert_eq!(
        cuts(b"f5\nabcdefghij\r\nd3\n", 1, 4),
        [
            c("f5\n", 0, 0),
            ("abcd".to_owned(), 3, 1, Some(10)),
            c("d3\n", 15, 2)
        ]
    );
}

#[test]
fn ggf_games_over_lines_and_several_a_line_read_the_same_in_chunks() {
    let game = "(;GM[Othello]PC[x]PB[a]PW[b]RE[+2]TY[8]\nBO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c5];)";
    let text =
        format!("2 {game} {game}\n{game}\r\n(;GM[Othello]C[(; not a game ;)]B[f5];)\n(;B[f5]\n");
    assert_same(Format::Ggf, text.as_bytes());
    // A `(;` in a value starts a game there, for the chunks as for the
    // sequential reader: 3 + 1 + 2 (the comment's) + 1 unclosed.
    let games = sequential(open(Format::Ggf, text.as_bytes()));
    assert_eq!(games.len(), 7);
}

/// Gives `data`, then fails.
struct Failing<'a> {
    data: &'a [u8],
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return Err(io::Error::other("disk on fire"));
        }
        let n = self.data.read(buf)?;
        Ok(n)
    }
}

#[test]
fn a_read_error_mid_input_comes_after_every_game_before_it() {
    let mut rng = Rng::new(3);
    for format in [Format::Transcript, Format::Ggf, Format::Jsonl, Format::Csv] {
        let bytes = written(&mut rng, format, 20);
        let half = &bytes[..bytes.len() / 2];
        let reader = || -> Box<dyn GameReader + '_> {
            format.reader(BufReader::with_capacity(16, Failing { data: half }))
        };
        let expected = sequential(reader());
        assert_eq!(expected.last().map(String::as_str), Some("disk on fire"));
        for size in [1, 100, 1 << 16] {
            assert_eq!(chunked(&mut reader(), size), expected, "{format:?} {size}");
        }
    }
    // The same through the pipeline: the games before it, in order, then it.
    let text = "f5d6\n".repeat(50);
    let reader = transcript::Reader::new(BufReader::with_capacity(
        16,
        Failing {
            data: text.as_bytes(),
        },
    ));
    let options = Options {
        jobs: 2,
        slice_bytes: 7,
        chunk_bytes: 20,
        ..Options::default()
    };
    let mut seen = Vec::new();
    let err = batch::run(
        reader,
        &options,
        |games| games.iter().map(|g| g.origin.index).collect::<Vec<_>>(),
        |ids| {
            seen.extend(ids);
            Ok(())
        },
    )
    .unwrap_err();
    assert_eq!(seen, (1..=50).collect::<Vec<u64>>());
    assert_eq!(err.to_string(), "disk on fire");
}

#[test]
fn tiny_chunks_keep_the_games_in_order_with_their_positions() {
    let text: String = (0..300)
        .map(|i| match i % 4 {
            0 => "f5d6\n".to_owned(),
            1 => "# a comment\r\n".to_owned(),
            2 => format!(
                "(;GM[Othello]B[f5]W[d6];){}",
                if i % 8 == 2 { "\n" } else { " " }
            ),
            _ => "\n".to_owned(),
        })
        .collect();
    for format in [Format::Transcript, Format::Ggf] {
        let expected: Vec<Origin> = format
            .reader(text.as_bytes())
            .map(|g| {
                g.map(|g| (g.origin.index, g.origin.line, g.origin.byte))
                    .unwrap()
            })
            .collect();
        // Batches ended by bytes, and by the games the parser expects.
        let settings = [
            (1, 1, 2, usize::MAX),
            (5, 40, 2, usize::MAX),
            (64, 1 << 10, 1, usize::MAX),
            (5, 1 << 10, 2, 3),
            (64, 1 << 20, 2, 1),
        ];
        for (slice_bytes, chunk_bytes, jobs, batch_games) in settings {
            let options = Options {
                jobs,
                slice_bytes,
                chunk_bytes,
                batch_games,
                ..Options::default()
            };
            let seen = pipeline_origins(format.reader(text.as_bytes()), &options);
            assert_eq!(seen, expected, "{format:?} {options:?}");
        }
    }
    let _ = (MAX_LINE, ggf::MAX_GAME_BYTES, jsonl::INFO.name);
}

#[test]
fn numbered_wthor_chunks_keep_the_games_in_order_up_to_a_truncated_record() {
    let mut bytes = wtb(&mut Rng::new(5), 50, 50, 0);
    bytes.truncate(bytes.len() - 30);
    let expected: Vec<Result<(u64, u64), String>> = wthor::Reader::new(&bytes[..], None)
        .map(|g| {
            g.map(|g| (g.origin.index, g.origin.byte))
                .map_err(|e| e.to_string())
        })
        .collect();
    assert_eq!(expected.len(), 50, "49 games and the truncated record");
    for (slice_bytes, chunk_bytes, jobs) in [(1, 1, 2), (68 * 3, 68 * 7, 2), (1 << 14, 1 << 17, 1)]
    {
        let options = Options {
            jobs,
            slice_bytes,
            chunk_bytes,
            ..Options::default()
        };
        let mut seen: Vec<Result<(u64, u64), String>> = Vec::new();
        let err = batch::run(
            wthor::Reader::new(&bytes[..], None),
            &options,
            |games| {
                games
                    .iter()
                    .map(|g| (g.origin.index, g.origin.byte))
                    .collect::<Vec<_>>()
            },
            |ids| {
                seen.extend(ids.into_iter().map(Ok));
                Ok(())
            },
        )
        .unwrap_err();
        seen.push(Err(err.to_string()));
        assert_eq!(seen, expected, "{options:?}");
    }
}
