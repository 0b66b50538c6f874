//! Chunked reading on arbitrary bytes: the games (with every position)
//! and the failure are the sequential reader's, wherever the chunks are
//! cut, in every format parsed in the workers.
#![no_main]

use std::io::BufReader;

use kifu::formats::chunk::read_all;
use kifu::formats::{wthor, Format, GameReader};
use libfuzzer_sys::fuzz_target;

fn open(format: Format, data: &[u8]) -> Box<dyn GameReader + '_> {
    let input = BufReader::with_capacity(13, data);
    match format {
        Format::Wthor => Box::new(wthor::Reader::new(input, None).with_size(data.len() as u64)),
        _ => format.reader(input),
    }
}

fuzz_target!(|input: &[u8]| {
    let Some((&size, data)) = input.split_first() else {
        return;
    };
    for format in [
        Format::Transcript,
        Format::Ggf,
        Format::Jsonl,
        Format::Wthor,
        Format::Csv,
    ] {
        let mut expected: Vec<String> = Vec::new();
        for item in open(format, data) {
            expected.push(match item {
                Ok(game) => format!("{game:?}"),
                Err(e) => e.to_string(),
            });
        }
        let mut reader = open(format, data);
        let chunker = reader.chunker().expect("a format parsed in the workers");
        let (games, error) = read_all(chunker, usize::from(size) + 1);
        let mut got: Vec<String> = games.iter().map(|g| format!("{g:?}")).collect();
        got.extend(error.map(|e| e.to_string()));
        assert_eq!(got, expected, "{format:?}");
    }
});
