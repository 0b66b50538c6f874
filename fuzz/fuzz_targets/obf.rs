//! The obf reader on arbitrary bytes: never a panic; the scored moves
//! of every position read.
#![no_main]

use kifu::formats::obf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in obf::Reader::new(data).flatten() {
        let _ = game.replay();
        let _ = obf::scored_moves(&game);
    }
});
