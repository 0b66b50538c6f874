//! JSON Lines reader and writer on arbitrary bytes: never a panic, and a
//! written game reads back to the same moves.
#![no_main]

use kifu::formats::jsonl::{write_row, Reader};
use kifu::table::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in Reader::new(data).flatten() {
        let report = game.replay();
        let mut out = Vec::new();
        if write_row(&Game::new("fuzz", &game, &report), &mut out).is_ok() {
            let back: Vec<_> = Reader::new(out.as_slice()).flatten().collect();
            assert_eq!(back.len(), 1);
            assert_eq!(back[0].move_string(), game.move_string());
        }
    }
});
