//! CSV reader and writer on arbitrary bytes: never a panic, written or
//! read again.
#![no_main]

use kifu::formats::csv::Reader;
use kifu::formats::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let games: Vec<_> = Reader::new(data).flatten().collect();
    for game in &games {
        let _ = game.replay();
    }
    if let Some(text) = Format::Csv.write_records(&games) {
        // What was written reads again without a panic.
        let _ = Reader::new(&text[..]).count();
    }
});
