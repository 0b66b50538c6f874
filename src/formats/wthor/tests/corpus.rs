//! The shared corpus: every `.wtb` read with its measured counts, names,
//! round trips, and sniffing every file.

use std::fs::File;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::game::Winner;
use crate::formats::wthor::names::*;
use crate::formats::wthor::read::*;
use crate::formats::wthor::tests::options;
use crate::formats::wthor::write::*;
use crate::formats::wthor::*;
use crate::testkit::{corpus, wtb_files};
use crate::{GameRecord, Status};

/// Per-file counts of a corpus file.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    games: u64,
    complete: u64,
    incomplete: u64,
    invalid: u64,
    /// Complete games whose stored score is not the computed one.
    disagree: u64,
    /// Games whose names are all found.
    named: u64,
}

fn tally(path: &Path) -> Tally {
    let mut t = Tally::default();
    let mut reader = Reader::open(path).unwrap();
    let header = reader.read_header().unwrap();
    for (i, game) in reader.by_ref().enumerate() {
        let g = game.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(g.origin.index, i as u64 + 1);
        t.games += 1;
        let report = g.replay();
        match report.status() {
            Status::Complete => {
                t.complete += 1;
                let score = report.finish.score;
                if !g.result.unwrap().agrees_with(&score) {
                    t.disagree += 1;
                }
            }
            Status::Incomplete => t.incomplete += 1,
            Status::Invalid => t.invalid += 1,
        }
        if g.tags.black.is_some() && g.tags.white.is_some() && g.tags.event.is_some() {
            t.named += 1;
        }
    }
    assert_eq!(t.games, u64::from(header.games), "{}", path.display());
    t
}

/// Games, complete, incomplete, invalid, complete games whose stored
/// score disagrees, games with all three names, as measured (the
/// manifest's "unfinished transcripts" are the incomplete games).
const CORPUS: [(&str, [u64; 6]); 25] = [
    ("WTH_1977.wtb", [12, 12, 0, 0, 0, 12]),
    ("WTH_1978.wtb", [8, 8, 0, 0, 0, 8]),
    ("WTH_1979.wtb", [11, 11, 0, 0, 0, 11]),
    ("WTH_1980.wtb", [160, 160, 0, 0, 0, 160]),
    ("WTH_1984.wtb", [587, 579, 8, 0, 0, 587]),
    ("WTH_1988.wtb", [1823, 1815, 8, 0, 0, 1823]),
    ("WTH_1990.wtb", [2986, 2965, 21, 0, 0, 2986]),
    ("WTH_1994.wtb", [4343, 4281, 62, 0, 0, 4343]),
    ("WTH_1998.wtb", [8077, 8065, 12, 0, 0, 8077]),
    ("WTH_2000.wtb", [4253, 4220, 33, 0, 0, 4253]),
    ("WTH_2004.wtb", [9113, 9113, 0, 0, 0, 9113]),
    ("WTH_2008.wtb", [2232, 2232, 0, 0, 0, 2232]),
    ("WTH_2010.wtb", [2172, 2172, 0, 0, 0, 2172]),
    ("WTH_2014.wtb", [1817, 1817, 0, 0, 0, 1817]),
    ("WTH_2018.wtb", [2429, 2429, 0, 0, 0, 2429]),
    ("WTH_2019.wtb", [1983, 1983, 0, 0, 0, 1983]),
    ("WTH_2020.wtb", [896, 896, 0, 0, 0, 896]),
    ("WTH_2021.wtb", [680, 680, 0, 0, 0, 680]),
    ("WTH_2022.wtb", [1374, 1374, 0, 0, 0, 1374]),
    ("WTH_2023.wtb", [2478, 2478, 0, 0, 0, 2478]),
    ("WTH_2024.wtb", [2891, 2891, 0, 0, 0, 2891]),
    ("WTH_2025.wtb", [2920, 2920, 0, 0, 0, 2920]),
    ("Logistello_book_1999.wtb", [37709, 37709, 0, 0, 16, 0]),
    ("nboard-test.WTB", [1, 1, 0, 0, 0, 0]),
    ("PLAYOK_2023.wtb", [54366, 41031, 13335, 0, 0, 54366]),
];

#[test]
fn corpus_every_wtb_reads_fully_with_the_measured_counts() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    wtb_files(&dir.join("wthor"), &mut files);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut want: Vec<&str> = CORPUS.iter().map(|(n, _)| *n).collect();
    want.sort_unstable();
    let mut got: Vec<&str> = names.iter().map(String::as_str).collect();
    got.sort_unstable();
    assert_eq!(got, want);
    let mut wth = Tally::default();
    for (file, name) in files.iter().zip(&names) {
        let t = tally(file);
        let counts = [
            t.games,
            t.complete,
            t.incomplete,
            t.invalid,
            t.disagree,
            t.named,
        ];
        let expected = CORPUS.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(counts, expected, "{name}");
        if name.starts_with("WTH_") {
            wth.games += t.games;
            wth.complete += t.complete;
            wth.incomplete += t.incomplete;
            wth.disagree += t.disagree;
        }
    }
    // The manifest: 53,245 games in the 22 federation files, 144
    // unfinished transcripts, every finished game's score stored right.
    assert_eq!(
        (wth.games, wth.complete, wth.incomplete, wth.disagree),
        (53_245, 53_101, 144, 0)
    );
}

#[test]
fn corpus_logistello_book_splits_empties_in_16_games() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("wthor/misc/Logistello_book_1999.wtb");
    let mut split = Vec::new();
    for g in Reader::open(&path).unwrap() {
        let g = g.unwrap();
        let score = g.replay().final_score().unwrap();
        let stored = g.result.unwrap().black_score().unwrap();
        if stored != score.black_score {
            assert!(score.empties > 0 && score.winner != Winner::Draw);
            // Split evenly, the odd one to the winner.
            let half = if score.winner == Winner::Black {
                score.empties.div_ceil(2)
            } else {
                score.empties / 2
            };
            assert_eq!(stored, score.black_discs + half, "game {}", g.origin.index);
            split.push(g.origin.index);
        }
    }
    assert_eq!(split.len(), 16);
}

#[test]
fn corpus_playok_reads_every_game_with_its_names() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("wthor/playok/PLAYOK_2023.wtb");
    let found = find_name_files(&path).unwrap();
    assert_eq!(
        (found.players, found.tournaments),
        (
            Some(dir.join("wthor/playok/PLAYOK.JOU")),
            Some(dir.join("wthor/playok/PLAYOK.TRN"))
        )
    );
    let mut reader = Reader::open(&path).unwrap();
    let header = reader.read_header().unwrap();
    assert_eq!(
        (header.games, header.board_size, header.depth),
        (54_366, 0, 0)
    );
    assert_eq!(header.created_date(), (2023, 4, 2));
    let names = reader.names().unwrap();
    assert_eq!((names.players.len(), names.tournaments.len()), (7834, 18));
    assert_eq!(names.tournaments[0], "PlayOK xot 60");
    let (mut games, mut empty, mut xot60, mut extreme) = (0, 0, 0, 0);
    for g in reader {
        let g = g.unwrap();
        games += 1;
        assert_eq!(g.theoretical_black_score, g.result.unwrap().black_score());
        if g.moves.is_empty() {
            empty += 1;
        }
        if g.tags.event.as_deref() == Some("PlayOK xot 60") {
            xot60 += 1;
        }
        if g.replay().status() == Status::Incomplete {
            let stored = g.result.unwrap().black_score().unwrap();
            assert!(stored == 0 || stored == 64, "game {}", g.origin.index);
            extreme += 1;
        }
    }
    assert_eq!((games, empty, extreme), (54_366, 47, 13_335));
    assert!(xot60 > 0);
}

#[test]
fn corpus_quest_names_report_the_header_mismatch() {
    let Some(dir) = corpus() else { return };
    let jou = dir.join("wthor/quest/QUEST.JOU");
    let trn = dir.join("wthor/quest/QUEST.TRN");
    let names = Names::load(Some(&jou), Some(&trn)).unwrap();
    assert_eq!(names.players.len(), 9427);
    assert_eq!(
        names.tournaments,
        [
            "Othello Quest",
            "Othello Quest 1 min",
            "Othello Quest 5 min"
        ]
    );
    assert_eq!(
        names.warnings,
        [format!(
            "{}: header says 9426 names but the file holds 9427",
            jou.display()
        )]
    );
    let list = Names::read_players(&std::fs::read(&jou).unwrap()).unwrap();
    assert_eq!((list.header.names, list.header.year), (9426, 2022));
}

#[test]
fn corpus_federation_names_are_latin1() {
    let Some(dir) = corpus() else { return };
    let wtb = dir.join("wthor/WTH_1977.wtb");
    let found = find_name_files(&wtb).unwrap();
    let (jou, trn) = (found.players, found.tournaments);
    assert_eq!(jou, Some(dir.join("wthor/WTH.JOU")));
    assert_eq!(trn, Some(dir.join("wthor/WTH.TRN")));
    let names = Names::load(jou.as_deref(), trn.as_deref()).unwrap();
    assert!(names.warnings.is_empty());
    assert_eq!((names.players.len(), names.tournaments.len()), (4448, 492));
    assert_eq!(names.players[0], "???");
    assert_eq!(names.tournaments[0], "Diverses parties");
    assert!(names.tournaments.contains(&"Préqualif de Paris".to_owned()));
    assert_eq!(
        names.tournaments.iter().filter(|t| !t.is_ascii()).count(),
        21
    );
    assert!(names.players.iter().all(|p| p.is_ascii()));
    let misc = dir.join("wthor/misc/nboard-test.WTB");
    assert_eq!(find_name_files(&misc), Ok(NameFiles::default()));
}

/// Reads `path`, writes every game to memory at the same depth and reads
/// it back.
fn round_trip(path: &Path) -> (Vec<GameRecord>, Vec<GameRecord>, Header) {
    let mut reader = Reader::open(path).unwrap();
    let depth = reader.read_header().unwrap().depth;
    let games: Vec<GameRecord> = reader.map(Result::unwrap).collect();
    let options = WriterOptions { depth, ..options() };
    let mut writer = Writer::new(Cursor::new(Vec::new()), options).unwrap();
    let mut book = NameBook::default();
    for g in &games {
        writer.write(g, &g.replay(), &mut book).unwrap();
    }
    let (out, _) = writer.finish().unwrap();
    let bytes = out.into_inner();
    let names = Arc::new(book.to_names());
    let mut reader = Reader::new(&bytes[..], Some(names)).with_size(bytes.len() as u64);
    let header = reader.read_header().unwrap();
    let back: Vec<GameRecord> = reader.map(Result::unwrap).collect();
    assert_eq!(back.len(), games.len());
    (games, back, header)
}

#[test]
fn corpus_round_trip_keeps_moves_scores_and_names() {
    let Some(dir) = corpus() else { return };
    for file in ["wthor/WTH_1998.wtb", "wthor/playok/PLAYOK_2023.wtb"] {
        let (games, back, header) = round_trip(&dir.join(file));
        for (g, b) in games.iter().zip(&back) {
            assert_eq!(b.moves, g.moves, "{file} #{}", g.origin.index);
            assert_eq!(b.result, g.result, "{file} #{}", g.origin.index);
            assert_eq!(b.theoretical_black_score, g.theoretical_black_score);
            assert_eq!(b.tags, g.tags, "{file} #{}", g.origin.index);
            assert_eq!(b.origin.byte, g.origin.byte);
        }
        assert_eq!(Some(header.year.to_string()), games[0].tags.date);
    }
}

#[test]
fn corpus_round_trip_of_the_logistello_book_stores_computed_scores() {
    let Some(dir) = corpus() else { return };
    let (games, back, header) = round_trip(&dir.join("wthor/misc/Logistello_book_1999.wtb"));
    assert_eq!(header.year, 1999);
    let mut changed = 0;
    for (g, b) in games.iter().zip(&back) {
        assert_eq!(b.moves, g.moves);
        let computed = g.replay().final_score().unwrap().black_score;
        assert_eq!(b.result.unwrap().black_score(), Some(computed));
        assert_eq!(b.theoretical_black_score, g.theoretical_black_score);
        assert_eq!(b.tags.black.as_deref(), Some("?"));
        if b.result != g.result {
            changed += 1;
        }
    }
    assert_eq!(changed, 16);
}

#[test]
fn corpus_sniff_tells_wthor_games_from_everything_else() {
    let Some(dir) = corpus() else { return };
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&dir, &mut files);
    let (mut yes, mut no) = (0, 0);
    for path in files {
        let mut head = Vec::new();
        File::open(&path)
            .unwrap()
            .take(1024)
            .read_to_end(&mut head)
            .unwrap();
        let is_wtb = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
        assert_eq!(sniff(&head), is_wtb, "{}", path.display());
        if is_wtb {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert_eq!(yes, 25);
    assert!(no >= 20, "{no} other files");
}
