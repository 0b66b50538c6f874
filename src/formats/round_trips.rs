//! One property for every text format, on the same random games: what
//! kifu writes reads back as the same game, and whatever does not come
//! back is named by the format's losses.

use std::io::BufReader;

use crate::formats::Format;
use crate::record::date::iso_date;
use crate::record::{MoveNote, RecordedResult, ResultKind, Tags, Token};
use crate::testkit::{decorate, random_game, Play, Rng};
use crate::{GameRecord, Move, Winner};

/// The formats written as text.
fn text_formats() -> impl Iterator<Item = Format> {
    Format::ALL.into_iter().filter(|f| f.is_text())
}

/// The squares played: explicit passes are a matter of spelling in a
/// valid game (each format writes forced passes its own way).
fn squares(g: &GameRecord) -> Vec<Token> {
    g.moves
        .iter()
        .map(|m| m.token)
        .filter(|t| *t != Token::Move(Move::Pass))
        .collect()
}

/// The tags with the date in ISO 8601 where it is a date: each format
/// writes dates in its own form.
fn tags(g: &GameRecord) -> Tags {
    let mut tags = g.tags.clone();
    tags.date = tags.date.map(|d| iso_date(&d).unwrap_or(d));
    // GGF states the rules in `TY`, which its reader keeps as a tag: the
    // rules are compared on their own.
    tags.extra
        .retain(|(name, value)| !(name == "TY" && matches!(value.as_str(), "8" | "8a")));
    tags
}

/// What a recorded result says: who won, Black's score, how it ended.
/// A margin and the disc count it stands for are the same result (PGN
/// writes `+34` as `49-15`), and a draw is a margin of 0.
fn says(result: Option<RecordedResult>) -> Option<(Option<Winner>, Option<u8>, ResultKind)> {
    // A draw is 32 each, said or not.
    result.map(|r| {
        let score = match r.winner() {
            Some(Winner::Draw) => Some(32),
            _ => r.black_score(),
        };
        (r.winner(), score, r.kind)
    })
}

type Content = (
    Tags,
    Option<(Option<Winner>, Option<u8>, ResultKind)>,
    Option<u8>,
    String,
    String,
);

/// What a record holds besides its moves, compared when nothing is lost.
fn content(g: &GameRecord) -> Content {
    (
        tags(g),
        says(g.result),
        g.theoretical_black_score,
        format!("{:?}", g.rules),
        g.start.to_string(),
    )
}

/// The notes of the squares played (a pass a format writes, as GGF
/// writes forced passes, has none), none when no move has one.
fn notes(g: &GameRecord) -> Vec<MoveNote> {
    let notes: Vec<MoveNote> = g
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.token != Token::Move(Move::Pass))
        .map(|(i, _)| g.notes.get(i).copied().unwrap_or_default())
        .collect();
    let any = notes.iter().any(|n| n.eval.is_some() || n.time.is_some());
    if any {
        notes
    } else {
        Vec::new()
    }
}

fn read_back(format: Format, bytes: &[u8]) -> Vec<GameRecord> {
    format
        .reader(BufReader::new(bytes))
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("{format}: {e}\n{}", String::from_utf8_lossy(bytes)))
}

/// `records` written one after another by `write`, and read back in
/// `format`: one game each, numbered in order.
pub(super) fn in_one_stream(
    format: Format,
    records: &[GameRecord],
    write: fn(&GameRecord, &mut String),
) -> Vec<GameRecord> {
    let mut text = String::new();
    for r in records {
        write(r, &mut text);
    }
    let games = read_back(format, text.as_bytes());
    assert_eq!(games.len(), records.len());
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.origin.index, i as u64 + 1);
    }
    games
}

#[test]
fn every_text_format_gives_back_what_it_does_not_name_as_lost() {
    let mut rng = Rng::new(0x0011_7715);
    let play = Play {
        stop: 3,
        written_passes: 50,
        odd_start: 10,
    };
    let mut lossless = [0usize; Format::ALL.len()];
    for _ in 0..400 {
        let mut game = random_game(&mut rng, play);
        // Some bare games: every format keeps all of those.
        if rng.chance(80) {
            decorate(&mut rng, &mut game);
        }
        for format in text_formats() {
            let bytes = format.write_records(std::slice::from_ref(&game));
            let bytes = bytes.unwrap_or_else(|| panic!("{format} is text"));
            let text = String::from_utf8_lossy(&bytes);
            let back = read_back(format, &bytes);
            assert_eq!(back.len(), 1, "{format}: one game in\n{text}");
            let back = &back[0];
            assert_eq!(back.defect, None, "{format}:\n{text}");
            assert_eq!(squares(back), squares(&game), "{format}:\n{text}");
            let lost = format.losses_of(&game);
            if lost.is_empty() {
                lossless[format as usize] += 1;
                assert_eq!(content(back), content(&game), "{format}:\n{text}");
                assert_eq!(notes(back), notes(&game), "{format}:\n{text}");
            }
        }
    }
    // Each format kept everything of some of the games: the property
    // above was asked of it.
    for format in text_formats() {
        assert!(lossless[format as usize] > 0, "{format}: no lossless game");
    }
}
