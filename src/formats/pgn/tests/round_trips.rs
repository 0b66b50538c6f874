//! Read → write → read: the fixtures, edits of them, and random games.

use crate::formats::pgn::tests::*;
use crate::formats::round_trips::in_one_stream;
use crate::formats::Format;
use crate::testkit::{check_read, decorate, mutate, random_game, Play, Rng};

#[test]
fn fixtures_round_trip() {
    for text in [EDAX, CASSIO, THOR, PLAYOK, VARIANTS, BROKEN] {
        for g in read(text) {
            let out = written(&g);
            let back = one(&out);
            let mut expected = bare(&as_written(&g));
            expected.defect = None;
            assert_eq!(bare(&back), expected, "{out}");
        }
    }
}

/// How the random games play: stopped at random, half their forced passes
/// written, a third from a position a few moves on.
const PLAY: Play = Play {
    stop: 2,
    written_passes: 50,
    odd_start: 30,
};

/// Gives `record` up to three annotations at random places: comments of
/// the kit's tricky text (its `{`, `}`, `;`, `(`, `[` and line breaks are
/// what PGN comments must survive), NAGs, and variations, PGN ones and
/// an SGF one PGN cannot hold.
fn annotate(rng: &mut Rng, record: &mut GameRecord) {
    const VARIATIONS: [&str; 4] = [
        "(1... d6)",
        "(2. c3 {a (b} (2. e6) ; x)\n)",
        "( $1 )",
        "(;B[f5];W[d6])",
    ];
    let mut list: Vec<Annotation> = (0..rng.below(4))
        .map(|_| Annotation {
            after: rng.below(record.moves.len() + 1),
            kind: match rng.below(3) {
                0 => AnnotationKind::Comment(rng.tricky_text()),
                1 => AnnotationKind::Nag(rng.below(300) as u16),
                _ => AnnotationKind::Variation(rng.pick(&VARIATIONS).to_owned()),
            },
        })
        .collect();
    list.sort_by_key(|a| a.after);
    record.annotations = list;
}

/// Random edits of the fixtures: whatever comes out is consistent,
/// and writing it then reading it back is stable.
#[test]
fn mutated_inputs_give_consistent_records_that_round_trip() {
    // PGN's own delimiters, words and suffixes: edits that matter to its
    // syntax, not the kit's text.
    const ALPHABET: &[u8] = b"[]\"\\{}();%$!?: \n\r-*1/2.0f5d6passFEN8pPbw\xc3\xa9";
    let sources = [EDAX, CASSIO, THOR, PLAYOK, VARIANTS, BROKEN];
    let mut rng = Rng(0x5EED_0103);
    let mut defects = 0;
    for _ in 0..400 {
        let bytes = mutate(&mut rng, &sources, ALPHABET);
        let games: Vec<GameRecord> = Reader::new(&bytes[..]).map(|g| g.unwrap()).collect();
        defects += check_read(&games, &bytes);
        for g in &games {
            let text = written(g);
            let first = one(&text);
            assert_eq!(first.defect, None, "{text}");
            assert_eq!(first.moves.len(), as_written(g).moves.len(), "{text}");
            if lost(g).is_empty() {
                let mut expected = bare(&as_written(g));
                expected.defect = None;
                assert_eq!(bare(&first), expected, "{text}");
            }
            let second = one(&written(&first));
            assert_eq!(bare(&second), bare(&first), "{text}");
        }
    }
    assert!(defects > 50, "{defects}");
}

#[test]
fn random_games_round_trip() {
    let mut rng = Rng(0x5EED_0101);
    let (mut with_passes, mut odd_starts, mut kept, mut annotated) = (0, 0, 0, 0);
    for _ in 0..300 {
        let mut record = random_game(&mut rng, PLAY);
        decorate(&mut rng, &mut record);
        annotate(&mut rng, &mut record);
        with_passes += usize::from(
            record
                .moves
                .iter()
                .any(|m| m.token == Token::Move(Move::Pass)),
        );
        odd_starts += usize::from(!record.has_standard_start());
        let text = written(&record);
        let first = one(&text);
        assert_eq!(first.defect, None, "{text}");
        assert_eq!(first.moves, as_written(&record).moves, "{text}");
        if lost(&record).is_empty() {
            assert_eq!(bare(&first), bare(&as_written(&record)), "{text}");
            kept += 1;
            annotated += usize::from(!record.annotations.is_empty());
        }
        assert_eq!(bare(&one(&written(&first))), bare(&first), "{text}");
        assert_eq!(first.replay().error, None, "{text}");
        assert_eq!(first.spans.each().len(), first.moves.len());
        for (k, span) in first.spans.each().iter().enumerate() {
            let line = first.origin.line_text(span.line).unwrap();
            let col = span.column as usize - 1;
            let word: String = line.chars().skip(col).take(span.len as usize).collect();
            assert_eq!(word, first.token_text(k), "{text}");
        }
    }
    assert!(
        with_passes > 10 && odd_starts > 30 && kept > 80 && annotated > 50,
        "{with_passes} {odd_starts} {kept} {annotated}"
    );
}

#[test]
fn random_games_in_one_stream() {
    let mut rng = Rng(0x5EED_0102);
    let records: Vec<GameRecord> = (0..40)
        .map(|_| {
            let mut record = random_game(&mut rng, PLAY);
            decorate(&mut rng, &mut record);
            record
        })
        .collect();
    let games = in_one_stream(Format::Pgn, &records, write_record);
    let mut kept = 0;
    for (g, r) in games.iter().zip(&records) {
        assert_eq!(g.moves, as_written(r).moves);
        if lost(r).is_empty() {
            assert_eq!(bare(g), bare(&as_written(r)));
            kept += 1;
        }
    }
    assert!(kept > 10, "{kept}");
}
