//! Chunked reading of tables against the csv crate reading the whole
//! input, as the reader did before tables were cut into chunks: the same
//! rows at the same positions, the same failure, wherever the cuts fall —
//! inside quoted fields, between the `\r` and `\n` of a line end, in a run
//! of blank lines.

use std::io::BufReader;

use crate::batch::Options;
use crate::formats::chunk::read_all;
use crate::formats::csv::scan::Scan;
use crate::formats::csv::Reader;
use crate::formats::format::{GameReader, ReadOptions};
use crate::record::source::ReadError;
use crate::testkit::{pipeline_origins, Origin, Rng};
use crate::GameRecord;

const SIZES: [usize; 9] = [1, 2, 3, 5, 8, 13, 64, 300, 1 << 16];

/// The rows csv reads in the whole of `bytes` past the header, those not
/// blank, as `line@byte:fields`, then the failure as the reader words it.
/// Where a record csv places at `byte` on `line` starts: after the line
/// ends and blank lines csv counts as the record's.
fn record_start(bytes: &[u8], byte: u64, line: u64) -> (u64, u64) {
    let from = usize::try_from(byte).unwrap();
    let lead: Vec<u8> = bytes[from..]
        .iter()
        .copied()
        .take_while(|&b| b == b'\r' || b == b'\n')
        .collect();
    let newlines = lead.iter().filter(|&&b| b == b'\n').count() as u64;
    (line + newlines, byte + lead.len() as u64)
}

fn whole(bytes: &[u8], delimiter: u8) -> Vec<String> {
    let mut rows = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(bytes);
    let mut record = ::csv::StringRecord::new();
    let mut out = Vec::new();
    let mut header = true;
    loop {
        match rows.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(err) => {
                if let ::csv::ErrorKind::Utf8 {
                    pos: Some(pos),
                    err,
                } = err.kind()
                {
                    let (line, byte) = record_start(bytes, pos.byte(), pos.line());
                    out.push(format!(
                        "{}:1: invalid UTF-8 in field {} @{}",
                        line,
                        err.field() + 1,
                        byte
                    ));
                }
                break;
            }
        }
        if std::mem::take(&mut header) || record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let pos = record.position().expect("a position");
        let (line, byte) = record_start(bytes, pos.byte(), pos.line());
        // The record as written: to where csv stopped reading (the first
        // byte of its line end), line ends cut.
        let end = usize::try_from(rows.position().byte()).unwrap();
        let mut raw = &bytes[usize::try_from(byte).unwrap()..end];
        while let [rest @ .., b'\r' | b'\n'] = raw {
            raw = rest;
        }
        out.push(format!(
            "{}@{}:{}",
            line,
            byte,
            String::from_utf8_lossy(raw)
        ));
    }
    out
}

fn shown(games: &[GameRecord], error: Option<ReadError>) -> Vec<String> {
    let mut out: Vec<String> = games
        .iter()
        .map(|g| {
            format!(
                "{}@{}:{}",
                g.origin.line.unwrap_or(0),
                g.origin.byte,
                g.origin.text.as_deref().unwrap_or("")
            )
        })
        .collect();
    out.extend(error.map(|e| match e {
        ReadError::Syntax(e) => format!(
            "{}:{}: {} @{}",
            e.span.line, e.span.column, e.message, e.span.byte
        ),
        ReadError::Io(e) => e.to_string(),
    }));
    out
}

fn options(delimiter: Option<u8>) -> ReadOptions {
    ReadOptions {
        moves_column: None,
        delimiter,
    }
}

/// `bytes` read in chunks of `size` (through a tiny buffer).
fn chunked(bytes: &[u8], delimiter: Option<u8>, size: usize) -> Vec<String> {
    let input = BufReader::with_capacity(7, bytes);
    let mut reader = Reader::with_options(input, &options(delimiter));
    let chunker = reader.chunker().expect("tables are cut into chunks");
    let (games, error) = read_all(chunker, size);
    shown(&games, error)
}

/// `bytes` read game by game.
fn sequential(bytes: &[u8], delimiter: Option<u8>) -> Vec<String> {
    let mut games = Vec::new();
    let mut error = None;
    for item in Reader::with_options(BufReader::with_capacity(5, bytes), &options(delimiter)) {
        match item {
            Ok(game) => games.push(game),
            Err(e) => error = Some(e),
        }
    }
    shown(&games, error)
}

/// A random table whose fields are quoted, escaped, broken over lines,
/// quoted in the middle, or not UTF-8, its rows ending every way.
fn table(rng: &mut Rng, delimiter: u8) -> Vec<u8> {
    const FIELDS: [&[u8]; 18] = [
        b"f5d6c3",
        b"f5 d6",
        b"",
        b" ",
        b"\"quoted\"",
        b"\"a, b; c\td\"",
        b"\"say \"\"hi\"\"\"",
        b"\"two\nlines\"",
        b"\"cr\r\nlf\r\"",
        b"\"\"",
        b"\"\"\"\"",
        b"mid\"quote",
        b"\"closed\"then",
        b"\"closed\"\"open\n",
        b"caf\xC3\xA9",
        b"x\"\ny\"",
        b"\"f5\nd6 zz\"",
        b"\xEF\xBB\xBFf5",
    ];
    const ENDS: [&[u8]; 6] = [b"\n", b"\r\n", b"\r", b"\n\n", b"\r\n\r\n", b"\n\r"];
    let mut out = Vec::new();
    if rng.chance(20) {
        out.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let d = char::from(delimiter);
    // A header broken over lines: the delimiter is sniffed from its first.
    let id = match delimiter {
        b',' if rng.chance(50) => "\"i\nd\"",
        _ if rng.chance(30) => "\"id\"",
        _ => "id",
    };
    out.extend_from_slice(format!("{id}{d}moves{d}note").as_bytes());
    for _ in 0..1 + rng.below(12) {
        out.extend_from_slice(rng.pick(&ENDS));
        for i in 0..rng.below(5) {
            if i > 0 {
                out.push(delimiter);
            }
            out.extend_from_slice(rng.pick(&FIELDS));
        }
    }
    match rng.below(4) {
        0 => out.extend_from_slice(b"\n"),
        1 => out.extend_from_slice(b"\"open to the end\nf5"),
        2 if rng.chance(30) => out.extend_from_slice(b"\n1,\xFF\xFE,x\n2,f5,y\n"),
        _ => {}
    }
    out
}

#[test]
fn chunked_tables_read_as_csv_reads_the_whole_input() {
    let mut rng = Rng::new(1492);
    for round in 0..300 {
        let (delimiter, given) = match round % 4 {
            0 => (b';', None),
            1 => (b'\t', None),
            2 => (b'|', Some(b'|')),
            _ => (b',', None),
        };
        let bytes = table(&mut rng, delimiter);
        let expected = whole(&bytes, delimiter);
        let shown = String::from_utf8_lossy(&bytes);
        assert_eq!(sequential(&bytes, given), expected, "{shown:?}");
        for size in SIZES {
            assert_eq!(
                chunked(&bytes, given, size),
                expected,
                "chunks of {size}: {shown:?}"
            );
        }
    }
}

#[test]
fn every_cut_falls_where_csv_ends_a_record() {
    // The scan against csv's own record ends, byte by byte.
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let bytes = table(&mut rng, b',');
        let mut rows = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(&bytes[..]);
        let mut record = ::csv::ByteRecord::new();
        let mut ends = Vec::new();
        while rows.read_byte_record(&mut record).unwrap_or(false) {
            ends.push(rows.position().byte() as usize);
        }
        let mut scan = Scan::new(b',');
        let mut found = Vec::new();
        // Slice by slice, as the cutter reads, past a byte order mark.
        let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        for (i, piece) in bytes[bom..].chunks(3).enumerate() {
            let mut pos = 0;
            while let Some(end) = scan.next_end(piece, &mut pos) {
                found.push(bom + i * 3 + end);
            }
        }
        // The last record may end at the end of the input, with no line end.
        if found.last() != Some(&bytes.len()) && ends.last() == Some(&bytes.len()) {
            found.push(bytes.len());
        }
        assert_eq!(found, ends, "{:?}", String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn games_and_their_defects_keep_their_positions_in_any_chunks() {
    // Moves that are no squares, after quoted line ends, `""` and CRLF:
    // each defect's line, column and byte as the sequential reader's.
    let text = "id,moves,note\r\n1,\"f5\r\nd6 zz\",x\r\n\r\n2,f5d6c3 q9,\"a \"\"b\"\"\nc\"\r\
                3,f5,\n,,\n4,\"f5 xx\n";
    let read = |size: Option<usize>| -> Vec<String> {
        let input = BufReader::with_capacity(3, text.as_bytes());
        let mut reader = Reader::new(input);
        let games = match size {
            Some(size) => read_all(reader.chunker().expect("chunks"), size).0,
            None => reader.map(|g| g.expect("a game")).collect(),
        };
        games.iter().map(|g| format!("{g:?}")).collect()
    };
    let expected = read(None);
    assert_eq!(expected.len(), 4);
    for size in SIZES {
        assert_eq!(read(Some(size)), expected, "{size}");
    }
    // Where the records and the moves the replay stops at are.
    let games: Vec<GameRecord> = Reader::new(text.as_bytes()).flatten().collect();
    let at = |g: &GameRecord| {
        // The move the replay stops at (the line, column and byte the
        // CLI shows, as `kifu validate` showed them before).
        let error = g.replay().error.expect("an invalid game");
        let span = error.span(g).expect("a span");
        (
            g.origin.line,
            g.origin.byte,
            (span.line, span.column, span.byte),
        )
    };
    // A record starts after the line ends and blank lines before it
    // (csv-core leaves the `\n` of a CRLF and blank lines to the next
    // record; these were a line or more early before). A quoted moves
    // field's text starts after its quote (these were a column early).
    assert_eq!(at(&games[0]), (Some(2), 15, (2, 7, 21)));
    assert_eq!(at(&games[1]), (Some(5), 34, (5, 10, 43)));
    assert_eq!(at(&games[3]), (Some(8), 67, (8, 7, 73)));
}

#[test]
fn a_record_over_the_limit_is_an_invalid_game_in_any_chunks() {
    let long = format!("\"{}\n{}\"", "f5".repeat(20), "d6".repeat(20));
    let text = format!("moves,x\nf5,1\n{long},2\r\nd3,3\n\n{long}\n\n\nc4,4\n{long}");
    let read = |size: Option<usize>| -> Vec<String> {
        let input = BufReader::with_capacity(4, text.as_bytes());
        let mut reader = Reader::with_max_record(input, &ReadOptions::default(), 40);
        let games = match size {
            Some(size) => read_all(reader.chunker().expect("chunks"), size).0,
            None => reader.map(|g| g.expect("a game")).collect(),
        };
        games
            .iter()
            .map(|g| {
                let defect = g.defect.as_ref().map(|d| d.to_string());
                format!("{}@{} {:?}", g.origin.index, g.origin.byte, defect)
            })
            .collect()
    };
    let expected = read(None);
    assert_eq!(
        expected[1],
        "2@13 Some(\"3:1: record too long: 86 bytes (the limit is 40 bytes)\")"
    );
    assert_eq!(expected.len(), 6, "{expected:?}");
    assert!(
        expected[5].contains("record too long: 83 bytes"),
        "{expected:?}"
    );
    assert!(
        expected[3].contains("6:1: record too long: 85 bytes"),
        "{expected:?}"
    );
    for size in SIZES {
        assert_eq!(read(Some(size)), expected, "{size}");
    }
}

#[test]
fn a_row_that_is_not_utf8_stops_the_reading_after_the_rows_before() {
    let text = b"moves,x\nf5,1\nd3,\"\xC3\"\nc4,3\n";
    assert_eq!(
        sequential(text, None),
        ["2@8:f5,1", "3:1: invalid UTF-8 in field 2 @13"]
    );
    assert_eq!(whole(text, b','), sequential(text, None));
    // A byte that is not UTF-8 but in no field (its quote taken out
    // makes the field UTF-8): read, as csv reads it.
    let text = b"moves,x\nf5,\"\xC3\"\xA9\n";
    // The record's text, kept for messages, is the line as written.
    assert_eq!(whole(text, b','), ["2@8:f5,\"\u{FFFD}\"\u{FFFD}"]);
    for size in SIZES {
        assert_eq!(chunked(text, None, size), whole(text, b','));
    }
}

#[test]
fn the_pipeline_gives_a_tables_games_in_order() {
    let mut text = String::from("id,moves\n");
    for i in 0..400 {
        text.push_str(&match i % 4 {
            0 => format!("{i},f5d6\n"),
            1 => format!("\"{i}\nnext\",f5f6\r\n"),
            2 => "\n,\n".to_owned(),
            _ => format!("{i},\"f5 \"\"d6\"\"\"\r"),
        });
    }
    let expected: Vec<Origin> = Reader::new(text.as_bytes())
        .flatten()
        .map(|g| (g.origin.index, g.origin.line, g.origin.byte))
        .collect();
    assert_eq!(expected.len(), 300);
    for (slice_bytes, chunk_bytes, jobs) in [(1, 1, 2), (5, 40, 2), (64, 1 << 10, 1)] {
        let options = Options {
            jobs,
            slice_bytes,
            chunk_bytes,
            ..Options::default()
        };
        let seen = pipeline_origins(Reader::new(text.as_bytes()), &options);
        assert_eq!(seen, expected, "{options:?}");
    }
}
