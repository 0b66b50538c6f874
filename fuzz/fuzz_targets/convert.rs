//! The whole `convert` path on arbitrary bytes: detect the format, read,
//! replay, and write every game in every text format.
#![no_main]

use std::io::BufReader;

use kifu::formats::Format;
use kifu::table::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(format) = Format::detect(data) else {
        return;
    };
    let games: Vec<_> = format.reader(BufReader::new(data)).take(64).flatten().collect();
    let reports: Vec<_> = games.iter().map(|g| g.replay()).collect();
    for to in Format::ALL.into_iter().filter(|f| f.is_text()) {
        let mut out = to.header();
        let rows = games.iter().zip(&reports).map(|(g, r)| Game::new("fuzz", g, r));
        let _ = to.write_rows(rows, &mut out);
        let mut lost = Vec::new();
        for g in &games {
            to.losses(g, &mut lost);
        }
    }
});
