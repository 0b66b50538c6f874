//! Transcript reader and writer on arbitrary bytes: never a panic, and a
//! readable game writes back to the same moves.
#![no_main]

use kifu::formats::transcript::{parse_line, write_record, LineContext, Reader};
use kifu::Token;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in Reader::new(data).flatten() {
        let _ = game.replay();
        let mut line = String::new();
        write_record(&game, &mut line);
        if game.defect.is_none() && game.moves.iter().all(|m| m.token != Token::Unreadable) {
            let ctx = LineContext { line: 1, byte: 0, index: 1 };
            if let Some(back) = parse_line(line.as_bytes(), ctx) {
                assert_eq!(back.move_string(), game.move_string());
                assert_eq!(back.start, game.start);
            }
        }
    }
});
