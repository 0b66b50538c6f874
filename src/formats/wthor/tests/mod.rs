//! Tests of the WTHOR reader and writer, by subject, and what they
//! share: fixtures and files made byte by byte.

mod corpus;
mod naming;
mod reading;
mod writing;

use std::io::Cursor;
use std::path::PathBuf;

use crate::formats::format::WriteError;
use crate::formats::wthor::names::*;
use crate::formats::wthor::read::*;
use crate::formats::wthor::write::*;
use crate::formats::wthor::*;
use crate::record::source::ReadError;
use crate::{GameRecord, Square};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/wthor")
        .join(name)
}

/// A header made on 16 February 2026, of depth 24.
fn header(games: u32, year: u16, board_size: u8, kind: u8) -> Header {
    Header {
        created: (20, 26, 2, 16),
        games,
        names: 0,
        year,
        board_size,
        kind,
        depth: 24,
    }
}

fn header_bytes(games: u32, year: u16, board_size: u8, kind: u8) -> Vec<u8> {
    header(games, year, board_size, kind).to_bytes().to_vec()
}

/// The header at the start of `file`.
fn header_of(file: &[u8]) -> Header {
    Header::from_bytes(file[..16].try_into().unwrap())
}

/// A record with these ids, scores and moves (`f5d6…`).
fn record_bytes(ids: [u16; 3], score: u8, theoretical: u8, moves: &str) -> Vec<u8> {
    let mut r = Vec::with_capacity(RECORD_LEN);
    for id in ids {
        r.extend_from_slice(&id.to_le_bytes());
    }
    r.push(score);
    r.push(theoretical);
    for pair in moves.as_bytes().chunks(2) {
        let sq = Square::from_ascii(pair).expect("a square");
        r.push(byte_of_square(sq));
    }
    r.resize(RECORD_LEN, 0);
    r
}

fn file(games: &[Vec<u8>]) -> Vec<u8> {
    let mut f = header_bytes(games.len() as u32, 1977, 8, 0);
    for g in games {
        f.extend_from_slice(g);
    }
    f
}

fn read_all(bytes: &[u8], sized: bool) -> Vec<Result<GameRecord, ReadError>> {
    let reader = Reader::new(bytes, None);
    let reader = if sized {
        reader.with_size(bytes.len() as u64)
    } else {
        reader
    };
    reader.collect()
}

fn error_message(item: &Result<GameRecord, ReadError>) -> String {
    match item {
        Err(ReadError::Syntax(e)) => e.message.clone(),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

fn options() -> WriterOptions {
    WriterOptions::new(2026, 3, 1)
}

fn write_games(games: &[GameRecord]) -> (Vec<u8>, Names, Vec<Result<(), WriteError>>) {
    let mut writer = Writer::new(Cursor::new(Vec::new()), options()).unwrap();
    let mut book = NameBook::default();
    let results = games
        .iter()
        .map(|g| writer.write(g, &g.replay(), &mut book))
        .collect();
    let (out, _) = writer.finish().unwrap();
    (out.into_inner(), book.to_names(), results)
}
