//! The replay on arbitrary move sequences: never a panic, an error leaves
//! the position unchanged, and the disc count grows by one per move.
#![no_main]

use kifu::{Move, Position, Replay, Square};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut replay = Replay::new(Position::start());
    for &byte in data {
        let mv = match Square::new(byte & 63) {
            Some(sq) if byte & 64 == 0 => Move::Play(sq),
            _ => Move::Pass,
        };
        let before = *replay.position();
        let placed = replay.placed();
        match replay.play(mv, None) {
            Ok(_) => {
                let board = replay.position().board();
                let discs = board.black().count() + board.white().count();
                assert_eq!(discs, 4 + replay.placed());
                assert_eq!(board.black().0 & board.white().0, 0);
            }
            Err(_) => {
                assert_eq!(*replay.position(), before);
                assert_eq!(replay.placed(), placed);
            }
        }
    }
    let end = replay.finish();
    assert_eq!(
        u32::from(end.score.black_discs) + u32::from(end.score.white_discs) + u32::from(end.score.empties),
        64
    );
});
