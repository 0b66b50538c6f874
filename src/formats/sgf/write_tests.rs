//! Tests of the SGF writer: exact outputs, what it names as lost, and
//! round trips of the fixtures, of mutated inputs and of random games.

use crate::engine::game::{Move, Winner};
use crate::formats::round_trips::in_one_stream;
use crate::formats::sgf::read::parse_result;
use crate::formats::sgf::tests::{
    bare, colors, comment, one, read, tokens, variation, written, BROKEN, CASSIO, COLLECTION, EDAX,
};
use crate::formats::sgf::write::{
    date_text, is_variation, push_value, result_text, sgf_ident, unreadable_value, STRUCTURAL,
};
use crate::formats::sgf::{write_record, Reader};
use crate::formats::Format;
use crate::record::{
    Annotation, AnnotationKind, MoveNote, RecordedMove, RecordedResult, ResultKind, ResultValue,
    Rules, Token,
};
use crate::testkit::{check_read, decorate, mutate, random_game, transcript, Play, Rng};
use crate::GameRecord;

/// The first line of every game written.
fn root() -> String {
    format!(
        "(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:{}]\n",
        env!("CARGO_PKG_VERSION")
    )
}

#[test]
fn writer_exact_output() {
    let mut g = one("(;GM[2]PB[Ann]PW[Bo]EV[Cup]DT[2024-01-02]RE[B+12];B[f5];W[d6];B[c3])");
    g.tags.extra.push(("GN".to_owned(), "a]b".to_owned()));
    assert_eq!(
        written(&g),
        concat!(
            "(;FF[4]GM[2]SZ[8]CA[UTF-8]AP[kifu:",
            env!("CARGO_PKG_VERSION"),
            "]\n",
            "PB[Ann]PW[Bo]EV[Cup]DT[2024-01-02]RE[B+12]\n",
            "GN[a\\]b]\n",
            ";B[f5];W[d6];B[c3]\n",
            ")\n"
        )
    );
}

#[test]
fn writer_names_passes_and_colours_and_wraps_moves() {
    let g = one(EDAX);
    let out = written(&g);
    assert!(out.contains(";B[g8];W[PA]\n;B[a8]\n)"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with(";B[")).count(), 7);
}

/// Cassio leaves White's two forced passes out (`;B[h8];B[h1];B[d1]`):
/// each is written as a pass node, so that readers that alternate
/// colours stay in step, and reads back with the same squares.
#[test]
fn a_left_out_pass_is_written_as_a_pass_node() {
    let g = one(CASSIO);
    let out = written(&g);
    assert_eq!(
        out,
        root()
            + concat!(
                "PB[Dupont Jean]PW[Martin Paul]EV[Open de Test]DT[2001]RE[B+8]\n",
                "TM[1500]BL[1500]WL[1500]US[Kifu Tests]CP[Copyleft 2024, test fixture]\n",
                ";B[c4];W[c3];B[e6];W[f4];B[e3];W[c5];B[b5];W[d2];B[b4];W[d6]\n",
                ";B[c6];W[a5];B[g3];W[e7];B[d7];W[b7];B[c7];W[b8];B[a7];W[g4]\n",
                ";B[a6];W[a8];B[a4];W[c8];B[f6];W[a3];B[b6];W[h2];B[f3];W[f2]\n",
                ";B[b3];W[g7];B[d8];W[c2];B[f8];W[f7];B[g1];W[d3];B[g2];W[e2]\n",
                ";B[e8];W[f5];B[h6];W[h7];B[g6];W[g5];B[e1];W[g8];B[f1];W[h5]\n",
                ";B[b2];W[a2];B[h8];W[PA];B[h1];W[PA];B[d1];W[c1];B[h4];W[h3]\n",
                ";B[b1]\n",
                ")\n"
            )
    );
    let back = one(&out);
    assert_eq!(back.move_string(), g.move_string());
    assert_eq!(
        tokens(&back).split(' ').skip(50).collect::<Vec<_>>(),
        ["b2", "a2", "h8", "pass", "h1", "pass", "d1", "c1", "h4", "h3", "b1"]
    );
    assert_eq!(colors(&back), "BW".repeat(30) + "B");
    let (before, after) = (g.replay(), back.replay());
    assert_eq!((before.error, after.error), (None, None));
    assert_eq!(after.implicit_passes, 0);
    assert_eq!(after.finish, before.finish);
    // Written again, nothing changes.
    assert_eq!(written(&back), out);
}

/// A pass before the first move: the side to move (Black, with no move)
/// passes in the first node and `PL` keeps the start.
#[test]
fn a_left_out_pass_before_the_first_move() {
    let g = one("(;GM[2]AB[b1]AW[a1]PL[B];W[c1])");
    assert_eq!(g.replay().implicit_passes, 1);
    let out = written(&g);
    assert_eq!(out, root() + "AB[b1]AW[a1]PL[B]\n;B[PA];W[c1]\n)\n");
    let back = one(&out);
    assert_eq!(back.start, g.start);
    assert_eq!(
        (tokens(&back), colors(&back)),
        ("pass c1".to_owned(), "BW".to_owned())
    );
    assert_eq!(back.replay().error, None);
}

#[test]
fn writer_setup_only_for_a_non_standard_start() {
    let g = one("(;GM[2]AB[e4][d5]AW[d4][e5]PL[B];B[f5])");
    assert!(!written(&g).contains("AB") && !written(&g).contains("PL"));
    // The standard board with White to move needs PL only.
    let g = one("(;GM[2]AB[e4][d5]AW[d4][e5]PL[W];W[f4])");
    let out = written(&g);
    assert!(
        out.contains("\nPL[W]\n;W[f4]") && !out.contains("AB"),
        "{out}"
    );
    assert_eq!(one(&out).start, g.start);
    // A first move by the side not to move: PL keeps the start.
    let g = one("(;GM[2]PL[B];W[f4])");
    let out = written(&g);
    assert!(out.contains("\nPL[B]\n;W[f4]"), "{out}");
    assert_eq!(one(&out).start, g.start);
    // An empty board.
    let g = one("(;GM[2]AE[a1:h8]PL[W])");
    assert!(g.start.board().empty().count() == 64);
    let out = written(&g);
    assert!(out.contains("AE[a1:h8]PL[W]"), "{out}");
    assert_eq!(one(&out).start, g.start);
    let g = one("(;GM[2]AB[a1][h8]AW[b2];B[c3])");
    assert!(written(&g).contains("AB[a1][h8]AW[b2]PL[B]\n;B[c3]"));
}

#[test]
fn line_start_parentheses_in_values_are_escaped() {
    let mut g = GameRecord::default();
    g.tags.black = Some("a\n(;GM[2] b".to_owned());
    let out = written(&g);
    assert!(out.contains("PB[a\n\\(;GM[2\\] b]"), "{out}");
    assert_eq!(one(&out).tags.black, g.tags.black);
}

#[test]
fn writer_results() {
    let re = |value, kind| {
        let g = GameRecord {
            result: Some(RecordedResult { value, kind }),
            ..GameRecord::default()
        };
        let out = written(&g);
        let start = out.find("RE[").unwrap() + 3;
        out[start..start + out[start..].find(']').unwrap()].to_owned()
    };
    use ResultKind::{Mutual, Resigned, Score, Time};
    use ResultValue::{Discs, Margin, RawMargin};
    assert_eq!(re(Margin(12.0), Score), "B+12");
    assert_eq!(re(Margin(-4.0), Score), "W+4");
    assert_eq!(re(Margin(-2.5), Score), "W+2.5");
    assert_eq!(re(Margin(0.0), Score), "0");
    assert_eq!(
        re(
            Discs {
                black: 38,
                white: 26
            },
            Score
        ),
        "B+12"
    );
    assert_eq!(
        re(
            Discs {
                black: 31,
                white: 30
            },
            Score
        ),
        "B+4"
    );
    assert_eq!(re(ResultValue::Winner(Winner::White), Score), "W+");
    assert_eq!(re(ResultValue::Winner(Winner::Draw), Score), "0");
    assert_eq!(re(RawMargin(-4), Score), "W+");
    assert_eq!(re(ResultValue::Winner(Winner::Black), Resigned), "B+R");
    assert_eq!(re(Margin(-6.0), Time), "W+T");
    assert_eq!(re(Margin(6.0), Mutual), "B+6");
}

#[test]
fn unreadable_moves_that_would_read_as_moves() {
    let mut g = one("(;GM[2];B[f5];W[zz])");
    for (text, value) in [("tt", "?tt"), ("", "?"), ("d6", "?d6"), ("zz", "zz")] {
        g.unreadable[0].1 = text.into();
        assert!(written(&g).contains(&format!(";W[{value}]")), "{text}");
        let back = one(&written(&g));
        assert_eq!(back.moves[1].token, Token::Unreadable);
        let mut out = Vec::new();
        out.extend(Format::Sgf.losses_of(&g));
        assert_eq!(out.len(), usize::from(text != "zz"), "{text}");
    }
}

#[test]
fn losses_name_what_sgf_cannot_keep() {
    let mut g = GameRecord::default();
    let mut out = Vec::new();
    out.extend(Format::Sgf.losses_of(&g));
    assert!(out.is_empty());
    g.notes = vec![MoveNote {
        eval: Some(1.0),
        time: Some(2.0),
    }];
    g.rules = Rules::Anti;
    g.theoretical_black_score = Some(40);
    g.result = Some(RecordedResult {
        value: ResultValue::Discs {
            black: 31,
            white: 30,
        },
        kind: ResultKind::Resigned,
    });
    g.tags
        .extra
        .push(("TimeControl".to_owned(), "300".to_owned()));
    g.tags.date = Some("2003.12.15_12:33:18.MST".to_owned());
    // Comments and SGF variations are kept; NAGs and variations in
    // another notation (PGN's) are not.
    g.annotations = vec![
        comment(0, "kept"),
        variation(0, "(;B[f5])"),
        Annotation {
            after: 0,
            kind: AnnotationKind::Nag(1),
        },
        variation(0, "(1. d3)"),
    ];
    out.extend(Format::Sgf.losses_of(&g));
    assert_eq!(
        out,
        [
            "the theoretical score",
            "per-move evaluations",
            "per-move times",
            "anti rules",
            "move annotations (NAGs)",
            "raw disc counts of results",
            "the margin of a resigned or timed-out game",
            "tag names that are not SGF property names",
            "variations not written in SGF",
            "the time of day of dates"
        ]
    );
    g.annotations.truncate(2);
    g.tags.date = Some("2003.12.15".to_owned());
    g.tags.extra.clear();
    g.result = None;
    g.notes.clear();
    g.theoretical_black_score = None;
    g.rules = Rules::Standard;
    assert!(Format::Sgf.losses_of(&g).is_empty());
    g.tags.extra = vec![("TimeControl".to_owned(), "300".to_owned())];
    let back = one(&written(&g));
    assert_eq!(
        back.tags.extra,
        [("TIMECONTROL".to_owned(), "300".to_owned())]
    );
}

#[test]
fn fixtures_round_trip() {
    for text in [EDAX, CASSIO, COLLECTION, BROKEN] {
        for g in read(text) {
            let back = one(&written(&g));
            assert_eq!(bare(&back), kept(&g), "{}", written(&g));
            if g.replay().implicit_passes == 0 {
                let mut expected = bare(&g);
                // A defect is not written; the moves before it are.
                expected.defect = None;
                assert_eq!(bare(&back), expected, "{}", written(&g));
            }
        }
    }
}

/// What SGF keeps of `record`: the record as reading its SGF gives it
/// back, without what depends on where it was read. The passes it
/// leaves out are written, so the tokens after them and the annotations
/// move on.
fn kept(record: &GameRecord) -> GameRecord {
    let report = record.replay();
    let mut k = GameRecord::new(record.start);
    // Where each token lands once the left-out passes are written.
    let mut index = Vec::with_capacity(record.moves.len());
    for turn in record.plies(&report) {
        if turn.pass_before {
            k.moves.push(RecordedMove {
                token: Token::Move(Move::Pass),
                color: Some(turn.color.opponent()),
            });
        }
        index.push(k.moves.len());
        k.moves.push(RecordedMove {
            token: turn.token,
            color: Some(turn.color),
        });
    }
    let moved = |after: usize| {
        after
            .min(index.len())
            .checked_sub(1)
            .map_or(0, |i| index[i] + 1)
    };
    k.unreadable = record
        .unreadable
        .iter()
        .map(|(i, text)| (index[*i], unreadable_value(text).into()))
        .collect();
    k.annotations = record
        .annotations
        .iter()
        .filter(|a| match &a.kind {
            AnnotationKind::Comment(_) => true,
            AnnotationKind::Variation(text) => is_variation(text),
            AnnotationKind::Nag(_) => false,
        })
        .map(|a| Annotation {
            after: moved(a.after),
            kind: a.kind.clone(),
        })
        .collect();
    k.annotations
        .sort_by_key(|a| (a.after, matches!(a.kind, AnnotationKind::Variation(_))));
    k.tags = record.tags.clone();
    k.tags.date = record
        .tags
        .date
        .as_deref()
        .map(|d| date_text(d).into_owned());
    k.tags.extra = record
        .tags
        .extra
        .iter()
        .map(|(name, value)| (sgf_ident(name), value.clone()))
        .filter(|(id, _)| !id.is_empty() && !STRUCTURAL.contains(&id.as_str()))
        .collect();
    k.result = record
        .result
        .and_then(|r| parse_result(&result_text(&r)).ok().flatten());
    k
}

/// Random edits of the fixtures: whatever comes out is consistent,
/// and writing it then reading it back is stable.
#[test]
fn mutated_inputs_give_consistent_records_that_round_trip() {
    const ALPHABET: &[u8] = b"();[]\\ \nBWGM2SZ8f5d6PAtABAWPL:RE+x\xc3\xa9";
    let sources = [EDAX, CASSIO, COLLECTION, BROKEN];
    let mut rng = Rng(0x5EED_0003);
    let mut defects = 0;
    for _ in 0..400 {
        let bytes = mutate(&mut rng, &sources, ALPHABET);
        let games: Vec<GameRecord> = Reader::new(&bytes[..]).map(|g| g.unwrap()).collect();
        defects += check_read(&games, &bytes);
        for g in &games {
            let first = one(&written(g));
            assert_eq!(bare(&first), kept(g), "{}", written(g));
            let second = one(&written(&first));
            assert_eq!(bare(&second), bare(&first));
        }
    }
    assert!(defects > 50, "{defects}");
}

/// Random games, maybe unfinished, maybe from another start, with
/// passes written or left out, tags, results, notes and rules at random.
fn random_record(rng: &mut Rng) -> GameRecord {
    let play = Play {
        stop: 2,
        written_passes: 50,
        odd_start: 30,
    };
    let mut record = random_game(rng, play);
    decorate(rng, &mut record);
    annotate(rng, &mut record);
    record
}

/// Random comments, SGF variations (nested, with escaped comments),
/// PGN variations and NAGs, anywhere up to past the last move.
fn annotate(rng: &mut Rng, record: &mut GameRecord) {
    for _ in 0..rng.below(5) {
        let after = rng.below(record.moves.len() + 2);
        let kind = match rng.below(6) {
            0 | 1 => AnnotationKind::Comment(rng.tricky_text()),
            2 | 3 => {
                let mut text = String::from("(;B[c4]C");
                push_value(&mut text, &rng.tricky_text());
                if rng.chance(50) {
                    text.push_str("\n(;W[d3])(;W[e3]N[x])");
                }
                text.push(')');
                AnnotationKind::Variation(text)
            }
            4 => AnnotationKind::Variation("(2... d6 3. c3)".to_owned()),
            _ => AnnotationKind::Nag(rng.below(256) as u16),
        };
        record.annotations.push(Annotation { after, kind });
    }
}

#[test]
fn random_games_round_trip() {
    let mut rng = Rng(0x5EED_0001);
    let mut with_passes = 0;
    let mut left_out = 0;
    let mut odd_starts = 0;
    let mut branched = 0;
    for _ in 0..300 {
        let record = random_record(&mut rng);
        with_passes += usize::from(
            record
                .moves
                .iter()
                .any(|m| m.token == Token::Move(Move::Pass)),
        );
        left_out += usize::from(record.replay().implicit_passes != 0);
        odd_starts += usize::from(!record.has_standard_start());
        branched += usize::from(
            record
                .annotations
                .iter()
                .any(|a| matches!(&a.kind, AnnotationKind::Variation(v) if is_variation(v))),
        );
        let text = written(&record);
        let first = one(&text);
        assert_eq!(bare(&first), kept(&record), "{text}");
        assert_eq!(first.replay().error, None, "{text}");
        // Every pass is written: none is left to the replay.
        assert_eq!(first.replay().implicit_passes, 0, "{text}");
        assert_eq!(first.spans.each().len(), first.moves.len());
        let second = one(&written(&first));
        assert_eq!(bare(&second), bare(&first), "{text}");
    }
    assert!(
        with_passes > 10 && left_out > 10 && odd_starts > 30 && branched > 50,
        "{with_passes} {left_out} {odd_starts} {branched}"
    );
}

#[test]
fn random_games_in_one_stream() {
    let mut rng = Rng(0x5EED_0002);
    let records: Vec<GameRecord> = (0..40).map(|_| random_record(&mut rng)).collect();
    let games = in_one_stream(Format::Sgf, &records, write_record);
    for (g, r) in games.iter().zip(&records) {
        assert_eq!(g.move_string(), r.move_string());
        for (k, span) in g.spans.each().iter().enumerate() {
            if let Token::Move(Move::Play(sq)) = g.moves[k].token {
                // Columns count characters: comments on the line may hold
                // characters of several bytes.
                let text = g.origin.line_text(span.line).unwrap();
                let at: String = text
                    .chars()
                    .skip(span.column as usize - 1)
                    .take(2)
                    .collect();
                assert_eq!(at, sq.to_string());
            }
        }
    }
}

/// Comments in the root and in move nodes, nested variations, escaped
/// brackets: read, written, read again, the record is the same, and the
/// text is exactly as expected.
#[test]
fn comments_and_variations_round_trip() {
    let source = concat!(
        "(;FF[4]GM[2]SZ[8]PB[Ann]C[A game \\] with [brackets\\]]\n",
        ";B[f5]C[good];W[d6]C[w]\n",
        "(;B[c3]C[main (line)];W[d3]\n",
        "  (;B[c4])\n",
        "  (;B[e3]C[also \\\\ fine]))\n",
        "(;B[c5]C[side \\] line];W[f4](;B[e3])(;B[f3]))\n",
        "(;B[e6]))\n",
    );
    let g = one(source);
    assert_eq!(tokens(&g), "f5 d6 c3 d3 c4");
    assert_eq!(
        g.annotations,
        [
            comment(0, "A game ] with [brackets]"),
            comment(1, "good"),
            comment(2, "w"),
            variation(2, "(;B[c5]C[side \\] line];W[f4](;B[e3])(;B[f3]))"),
            variation(2, "(;B[e6])"),
            comment(3, "main (line)"),
            variation(4, "(;B[e3]C[also \\\\ fine])"),
        ]
    );
    let out = written(&g);
    assert_eq!(
        out,
        root()
            + concat!(
                "PB[Ann]\n",
                "C[A game \\] with [brackets\\]]\n",
                ";B[f5]C[good];W[d6]C[w](;B[c3]C[main (line)];W[d3](;B[c4]\n",
                ")(;B[e3]C[also \\\\ fine])\n",
                ")(;B[c5]C[side \\] line];W[f4](;B[e3])(;B[f3]))(;B[e6])\n",
                ")\n"
            )
    );
    let back = one(&out);
    assert_eq!(bare(&back), bare(&g));
    assert_eq!(written(&back), out);
    assert!(Format::Sgf.losses_of(&g).is_empty());
}

/// A variation where the main line ends: the main line goes on with an
/// empty node, since a first child would be read as the main line. A
/// comment past the last move goes on the last node.
#[test]
fn a_variation_after_the_last_move() {
    let mut g = transcript("f5d6");
    g.annotations = vec![comment(5, "end"), variation(2, "(;B[c3])")];
    let out = written(&g);
    assert_eq!(out, root() + ";B[f5];W[d6]C[end](;\n)(;B[c3])\n)\n");
    let back = one(&out);
    assert_eq!(tokens(&back), "f5 d6");
    assert_eq!(
        back.annotations,
        [comment(2, "end"), variation(2, "(;B[c3])")]
    );
    assert_eq!(written(&back), out);
    // With no move at all, in the root.
    let g = GameRecord {
        annotations: vec![comment(0, "only"), variation(0, "(;B[f5])")],
        ..GameRecord::default()
    };
    let out = written(&g);
    assert_eq!(out, root() + "C[only]\n(;)(;B[f5])\n)\n");
    assert_eq!(one(&out).annotations, g.annotations);
}

#[test]
fn variations_that_sgf_can_write() {
    for text in [
        "(;B[f5])",
        "( ;B[f5] ;W[d6])",
        "(;)",
        "(;B[f5](;W[d6])(;W[f6]C[a ) b ( c]))",
        "(;B[f5]\n  (;W[d6]\n(;B[c3]))\n  (;W[f6]))",
        "(;b[f5]C[x\\]]\n(;W[d6]))",
        "(;B[f5]C[line\n\\(;GM[2\\]])",
    ] {
        assert!(is_variation(text), "{text}");
    }
    for text in [
        "",
        "(2... d6 3. c3)",
        "()",
        " (;B[f5])",
        "(;B[f5]) ",
        "(;B[f5]",
        "(;B[f5])(;W[d6])",
        "(;B[f5](;W[d6]);B[c3])",
        "(;B[f5] x)",
        "(;B[f5]C[unclosed)",
        "(;B[f5](;GM[2];W[d6]))",
        "(;B[f5](; FF [4]))",
        "(;B[f5]C[line\n(;GM[2]])",
        "(;B[f5]C[line\n  (;FF[4]])",
    ] {
        assert!(!is_variation(text), "{text}");
    }
}

/// `DT` in SGF's form from every date form records use; a date in no
/// known form as written. Reading keeps `DT` as written.
#[test]
fn dates_in_sgf_form() {
    let cases = [
        ("2024-01-02", "2024-01-02"),
        ("2004", "2004"),
        ("2004.05", "2004-05"),
        ("2004.??.??", "2004"),
        ("2004.05.??", "2004-05"),
        ("2020.05.05", "2020-05-05"),
        ("2004/5/7", "2004-05-07"),
        ("15.12.2003", "2003-12-15"),
        ("2003.12.15_12:33:18.MST", "2003-12-15"),
        ("2003.12.31_20:00:00.MST", "2003-12-31"),
        ("2022-01-17 12:52:30 GMT", "2022-01-17"),
        ("947375357", "2000-01-08"),
        ("1996-05-06,07", "1996-05-06,07"),
        ("yesterday", "yesterday"),
        ("????.??.??", "????.??.??"),
    ];
    for (date, dt) in cases {
        let mut g = GameRecord::default();
        g.tags.date = Some(date.to_owned());
        let out = written(&g);
        assert_eq!(out, format!("{}DT[{dt}]\n)\n", root()), "{date}");
        assert_eq!(one(&out).tags.date.as_deref(), Some(dt), "{date}");
        let timed = date.contains(':') || date == "947375357";
        assert_eq!(
            Format::Sgf.losses_of(&g),
            if timed {
                vec!["the time of day of dates"]
            } else {
                vec![]
            },
            "{date}"
        );
    }
    let g = one("(;GM[2]DT[2020.05.05])");
    assert_eq!(g.tags.date.as_deref(), Some("2020.05.05"));
}
