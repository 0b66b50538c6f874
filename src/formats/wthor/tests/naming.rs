//! Names: the name files read and written, found next to a `.wtb`, and
//! the name book that numbers them.

use std::fs::File;
use std::path::PathBuf;

use crate::formats::wthor::names::*;
use crate::formats::wthor::read::*;
use crate::formats::wthor::tests::options;
use crate::formats::wthor::write::*;
use crate::formats::wthor::*;
use crate::record::Tags;
use crate::testkit::transcript;
use crate::GameRecord;

fn name_file(names: &[&[u8]], claimed: u16, p1: u8, len: usize) -> Vec<u8> {
    let mut f = Header {
        names: claimed,
        board_size: p1,
        ..Header::default()
    }
    .to_bytes()
    .to_vec();
    for n in names {
        let mut rec = n.to_vec();
        rec.resize(len, 0);
        f.extend(rec);
    }
    f
}

#[test]
fn names_are_latin1_and_nul_terminated() {
    let f = name_file(
        &[b"???", b"Pr\xe9qualif de Paris", b"M\xfcller J\xf6rg"],
        3,
        0,
        26,
    );
    let list = Names::read_tournaments(&f).unwrap();
    assert_eq!(list.names, ["???", "Préqualif de Paris", "Müller Jörg"]);
    assert!(list.warnings.is_empty());
    // A record with no NUL keeps all its bytes.
    let f = name_file(&[b"ABCDEFGHIJKLMNOPQRST"], 1, 0, 20);
    assert_eq!(
        Names::read_players(&f).unwrap().names,
        ["ABCDEFGHIJKLMNOPQRST"]
    );
}

#[test]
fn name_header_count_off_by_one_is_a_warning() {
    let f = name_file(&[b"a", b"b", b"c"], 2, 124, 20);
    let list = Names::read_players(&f).unwrap();
    assert_eq!(list.names, ["a", "b", "c"]);
    assert_eq!(list.header.board_size, 124);
    assert_eq!(list.warnings, ["header says 2 names but the file holds 3"]);
}

#[test]
fn cut_short_name_record_is_kept_with_a_warning() {
    let mut f = name_file(&[b"a"], 2, 0, 20);
    f.extend(b"Bob");
    let list = Names::read_players(&f).unwrap();
    assert_eq!(list.names, ["a", "Bob"]);
    assert_eq!(
        list.warnings,
        [
            "header says 2 names but the file holds 1 name and 3 more bytes",
            "the last name record is cut short: 3 of 20 bytes"
        ]
    );
}

#[test]
fn name_file_shorter_than_its_header_is_an_error() {
    let e = Names::read_players(b"\x14\x1a").unwrap_err();
    assert_eq!(e.message, "truncated header: 2 of 16 bytes");
}

#[test]
fn name_files_are_written_in_latin1_and_truncated() {
    let names = [
        "?".to_owned(),
        "Müller Jörg".to_owned(),
        "小林 Kobayashi".to_owned(),
        "A name longer than nineteen bytes".to_owned(),
    ];
    let mut out = Vec::new();
    write_name_file(&mut out, &names, PLAYER_RECORD_LEN, (20, 26, 3, 1)).unwrap();
    assert_eq!(out.len(), 16 + 4 * 20);
    assert_eq!(
        &out[..16],
        &[20, 26, 3, 1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(&out[36..56], b"M\xfcller J\xf6rg\0\0\0\0\0\0\0\0\0");
    let list = Names::read_players(&out).unwrap();
    assert_eq!(
        list.names,
        ["?", "Müller Jörg", "?? Kobayashi", "A name longer than "]
    );
    assert!(list.warnings.is_empty());
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("kifu-wthor-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn touch(&self, names: &[&str]) {
        for n in names {
            std::fs::write(self.0.join(n), b"").unwrap();
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn found(dir: &TempDir, wtb: &str) -> (Option<String>, Option<String>) {
    let name = |p: Option<PathBuf>| {
        p.and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    };
    let f = find_name_files(&dir.0.join(wtb)).unwrap();
    (name(f.players), name(f.tournaments))
}

#[test]
fn name_files_are_found_by_stem_prefix_wthor_or_alone() {
    let dir = TempDir::new("find");
    dir.touch(&[
        "WTH_1977.wtb",
        "WTH.JOU",
        "wth.trn",
        "WTHOR.JOU",
        "other.jou",
    ]);
    assert_eq!(
        found(&dir, "WTH_1977.wtb"),
        (Some("WTH.JOU".into()), Some("wth.trn".into()))
    );
    // The WTHOR files when no stem matches; the only TRN.
    assert_eq!(
        found(&dir, "games.wtb"),
        (Some("WTHOR.JOU".into()), Some("wth.trn".into()))
    );
    dir.touch(&["games.Jou", "WTH_1977.TRN"]);
    // Two TRN files, neither named for games.wtb: no rule chooses.
    let err = find_name_files(&dir.0.join("games.wtb")).unwrap_err();
    assert_eq!(err.kind, "tournament");
    let names: Vec<_> = err
        .candidates
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["wth.trn", "WTH_1977.TRN"]);
    assert_eq!(
        found(&dir, "wth_1977.WTB"),
        (Some("WTH.JOU".into()), Some("WTH_1977.TRN".into()))
    );
    let empty = TempDir::new("find-empty");
    assert_eq!(found(&empty, "x.wtb"), (None, None));
}

#[test]
fn the_longest_stem_prefix_wins() {
    let dir = TempDir::new("prefix");
    dir.touch(&["QUEST.JOU", "QUEST_2023.JOU", "QUEST.TRN"]);
    assert_eq!(
        found(&dir, "QUEST_2023_1.wtb"),
        (Some("QUEST_2023.JOU".into()), Some("QUEST.TRN".into()))
    );
}

#[test]
fn names_files_round_trip_through_disk() {
    let dir = TempDir::new("names");
    let mut g = transcript("d3c5");
    g.tags.black = Some("Müller Jörg".into());
    g.tags.white = Some("Tastet Marc".into());
    g.tags.event = Some("Préqualif de Paris".into());
    let wtb = dir.0.join("OUT_2026.wtb");
    let mut w = Writer::new(File::create(&wtb).unwrap(), options()).unwrap();
    let mut book = NameBook::default();
    w.write(&g, &g.replay(), &mut book).unwrap();
    w.finish().unwrap();
    let archive = archive_name_files(&dir.0, "OUT_2026").unwrap();
    assert!(!archive.players_exist && !archive.tournaments_exist);
    let (jou, trn) = (archive.players, archive.tournaments);
    assert_eq!(jou, dir.0.join("OUT_2026.JOU"));
    let created = options().created;
    write_name_file(
        File::create(&jou).unwrap(),
        book.players(),
        PLAYER_RECORD_LEN,
        created,
    )
    .unwrap();
    let tournaments = book.tournaments();
    write_name_file(
        File::create(&trn).unwrap(),
        tournaments,
        TOURNAMENT_RECORD_LEN,
        created,
    )
    .unwrap();
    let found = find_name_files(&wtb).unwrap();
    assert_eq!((found.players, found.tournaments), (Some(jou), Some(trn)));
    let back: Vec<GameRecord> = Reader::open(&wtb).unwrap().map(Result::unwrap).collect();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].tags.black.as_deref(), Some("Müller Jörg"));
    assert_eq!(back[0].tags.white.as_deref(), Some("Tastet Marc"));
    assert_eq!(back[0].tags.event.as_deref(), Some("Préqualif de Paris"));
    assert_eq!(back[0].move_string(), "f5d6");
}

#[test]
fn a_name_book_keeps_the_numbering_and_matches_case_insensitively() {
    let players = vec![
        "???".to_owned(),
        "Tastet Marc".to_owned(),
        "Müller Jörg".to_owned(),
    ];
    let tournaments = vec!["Diverses parties".to_owned()];
    let mut book = NameBook::new(players, tournaments);
    let tags = |black: &str, white: Option<&str>, event: Option<&str>| Tags {
        black: Some(black.to_owned()),
        white: white.map(str::to_owned),
        event: event.map(str::to_owned),
        ..Tags::default()
    };
    let ids = book
        .ids(&tags("Müller Jörg", Some("TASTET MARC"), None))
        .unwrap();
    assert_eq!((ids.black, ids.white, ids.tournament), (2, 1, 0));
    let ids = book
        .ids(&tags(
            "Nouveau Joueur",
            Some("nouveau joueur"),
            Some("Open 2026"),
        ))
        .unwrap();
    assert_eq!((ids.black, ids.white, ids.tournament), (3, 3, 1));
    assert_eq!(book.added(), (1, 1));
    assert_eq!(book.players()[3], "Nouveau Joueur");
    assert_eq!(book.tournaments(), ["Diverses parties", "Open 2026"]);
}
