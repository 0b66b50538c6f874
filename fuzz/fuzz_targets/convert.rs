//! The whole `convert` path on arbitrary bytes: detect the format, read,
//! replay, and write every game in every writable format.
#![no_main]

use std::io::BufReader;

use kifu::formats::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(format) = Format::detect(data) else {
        return;
    };
    let games: Vec<_> = format.reader(BufReader::new(data)).take(64).flatten().collect();
    for to in Format::ALL.into_iter().filter(|f| f.writable()) {
        let _ = to.write_records(&games);
        for g in &games {
            let _ = to.losses_of(g);
        }
    }
});
