//! CSV reader and writer on arbitrary bytes: never a panic.
#![no_main]

use kifu::formats::csv::{Reader, Writer};
use kifu::table::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Writer::new(Vec::new());
    for game in Reader::new(data).flatten() {
        let report = game.replay();
        let _ = out.write_row(&Game::new("fuzz", &game, &report));
    }
    let _ = out.into_inner();
});
