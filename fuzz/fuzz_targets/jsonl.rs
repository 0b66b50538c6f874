//! JSON Lines reader and writer on arbitrary bytes: never a panic, and a
//! written game reads back to the same moves.
#![no_main]

use kifu::formats::jsonl::Reader;
use kifu::formats::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in Reader::new(data).flatten() {
        let _ = game.replay();
        if let Some(out) = Format::Jsonl.write_records(std::slice::from_ref(&game)) {
            let back: Vec<_> = Reader::new(out.as_slice()).flatten().collect();
            assert_eq!(back.len(), 1);
            assert_eq!(back[0].move_string(), game.move_string());
        }
    }
});
