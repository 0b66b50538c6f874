//! The sgf reader on arbitrary bytes: never a panic; every game
//! written reads back.
#![no_main]

use kifu::formats::sgf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in sgf::Reader::new(data).flatten() {
        let _ = game.replay();
        let mut text = String::new();
        sgf::write_record(&game, &mut text);
        let again: Vec<_> = sgf::Reader::new(text.as_bytes()).flatten().collect();
        assert!(!again.is_empty(), "a written game reads back");
    }
});
