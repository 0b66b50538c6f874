//! What the writer writes: tags, numbers, passes, dates, results, and
//! the losses it names.

use crate::formats::pgn::tests::*;

#[test]
fn writer_exact_output() {
    let mut g = one("[Event \"Cup \\\"A\\\"\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n[Result \"40-24\"]\n[Opening \"x\"]\n\n1. f5 d6 2. c3 *");
    g.tags.white_rating = Some("1500".to_owned());
    assert_eq!(
        written(&g),
        "[Event \"Cup \\\"A\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [Black \"Ann\"]\n[White \"Bo\"]\n[Result \"40-24\"]\n[WhiteElo \"1500\"]\n\
         [Opening \"x\"]\n\n1. f5 d6 2. c3 40-24\n\n"
    );
}

#[test]
fn writer_numbers_passes_and_wraps() {
    let games = read(EDAX);
    let out = written(&games[0]);
    let body: Vec<&str> = out.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
    assert!(body.iter().all(|l| l.chars().count() <= 80), "{out}");
    assert!(
        out.contains("29. f1 pass 30. g7 a8 {Edax wins 40-24} 1-0"),
        "{out}"
    );
    assert_eq!(body.first().map(|l| &l[..11]), Some("1. d3 c3 2."));
    // White first.
    let out = written(&games[1]);
    assert!(
        out.contains("[FEN \"8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1\"]\n"),
        "{out}"
    );
    assert!(out.ends_with("\n1... d6 2. c3 d3 3. c4 *\n\n"), "{out}");
    let cassio = read(CASSIO);
    let out = written(&cassio[0]);
    // Cassio leaves White's passes out; they are written.
    assert!(
        out.ends_with("\n26. b2 a2 27. h8 pass 28. h1 pass 29. d1 c1 30. h4 h3 31. b1 36-28\n\n"),
        "{out}"
    );
}

#[test]
fn every_pass_is_written_also_those_the_record_leaves_out() {
    // Black has no move after c1; the record goes on with White's b4.
    let mut g = one("1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 5. b4 *");
    assert_eq!(g.replay().implicit_passes, 1 << 8);
    let out = written(&g);
    assert_eq!(
        out,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[Black \"?\"]\n\
         [White \"?\"]\n[Result \"*\"]\n\n1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 5. pass b4 *\n\n"
    );
    let back = one(&out);
    assert_eq!(tokens(&back), "d3 c3 e6 d2 d1 e1 b3 c1 pass b4");
    let report = back.replay();
    assert_eq!((report.error, report.implicit_passes), (None, 0));
    assert_eq!(written(&back), out);
    // `--` is a pass too, as PlayOK writes it.
    let dashes = one("1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 5. -- b4 *");
    assert_eq!(dashes.moves, back.moves);
    // What follows c1 stays before the pass written after it.
    g.annotations = vec![comment(8, "Black has no move"), nag(9, 1)];
    g.notes = vec![MoveNote::default(); 9];
    g.notes[8].eval = Some(-2.0);
    assert_eq!(
        move_text(&g),
        "1. d3 c3 2. e6 d2 3. d1 e1 4. b3 c1 {Black has no move} 5. pass b4 $1\n\
         {[%eval -2]} *\n\n"
    );
    let back = one(&written(&g));
    assert_eq!(
        back.annotations,
        [comment(8, "Black has no move"), nag(10, 1)]
    );
    assert_eq!(back.notes[9].eval, Some(-2.0));
    assert_eq!(bare(&back), bare(&as_written(&g)));
}

#[test]
fn writer_results_and_extra_tags() {
    let result = |value, kind| {
        let g = GameRecord {
            result: Some(RecordedResult { value, kind }),
            ..GameRecord::default()
        };
        let out = written(&g);
        (
            out.lines().nth(6).unwrap().to_owned(),
            out.lines()
                .find(|l| l.starts_with("[Termination"))
                .map(str::to_owned),
        )
    };
    use ResultKind::{Resigned, Score, Time};
    use ResultValue::{Discs, Margin, RawMargin};
    let plain = |v| result(v, Score).0;
    assert_eq!(
        plain(Discs {
            black: 33,
            white: 30
        }),
        "[Result \"33-30\"]"
    );
    assert_eq!(plain(Margin(12.0)), "[Result \"38-26\"]");
    assert_eq!(plain(Margin(0.0)), "[Result \"32-32\"]");
    assert_eq!(plain(Margin(-2.5)), "[Result \"0-1\"]");
    assert_eq!(plain(RawMargin(3)), "[Result \"1-0\"]");
    assert_eq!(
        plain(ResultValue::Winner(Winner::Draw)),
        "[Result \"1/2-1/2\"]"
    );
    assert_eq!(
        result(ResultValue::Winner(Winner::White), Resigned),
        (
            "[Result \"0-1\"]".to_owned(),
            Some("[Termination \"resignation\"]".to_owned())
        )
    );
    assert_eq!(
        result(Margin(-6.0), Time).1.as_deref(),
        Some("[Termination \"time forfeit\"]")
    );
    let mut g = GameRecord {
        theoretical_black_score: Some(36),
        rules: Rules::Anti,
        ..GameRecord::default()
    };
    g.tags.extra = vec![
        ("Time Control".to_owned(), "a\nb".to_owned()),
        ("FEN".to_owned(), "junk".to_owned()),
    ];
    let out = written(&g);
    assert!(
        out.contains(
            "[TheoreticalScore \"36-28\"]\n[Variant \"anti\"]\n[Time_Control \"a b\"]\n\n*\n"
        ),
        "{out}"
    );
}

#[test]
fn dates_are_written_in_pgn_form_with_a_time_tag() {
    // (date in the record, Date and Time written, ISO 8601 read back)
    let cases = [
        (None, "????.??.??", None, None),
        (Some("2004"), "2004.??.??", None, Some("2004")),
        (Some("2004-05"), "2004.05.??", None, Some("2004-05")),
        (Some("2024.3.1"), "2024.03.01", None, Some("2024-03-01")),
        (Some("15.12.2003"), "2003.12.15", None, Some("2003-12-15")),
        (
            Some("2022-01-17 08:05"),
            "2022.01.17",
            Some("08:05:00"),
            Some("2022-01-17T08:05:00"),
        ),
        // With a zone: in UTC, across midnight here.
        (
            Some("2003.12.31_20:00:00.MST"),
            "2004.01.01",
            Some("03:00:00"),
            Some("2004-01-01T03:00:00"),
        ),
        (
            Some("947375357"),
            "2000.01.08",
            Some("23:49:17"),
            Some("2000-01-08T23:49:17"),
        ),
        (Some("spring 2004"), "spring 2004", None, None),
    ];
    for (date, written_date, written_time, iso) in cases {
        let mut g = one("1. f5 *");
        g.tags.date = date.map(str::to_owned);
        let out = written(&g);
        let time = written_time.map_or(String::new(), |t| format!("[Time \"{t}\"]\n"));
        assert!(
            out.contains(&format!(
                "[Date \"{written_date}\"]\n[Round \"?\"]\n[Black \"?\"]\n[White \"?\"]\n\
                 [Result \"*\"]\n{time}\n"
            )),
            "{out}"
        );
        let back = one(&out);
        assert_eq!(
            back.tags.date.as_deref().and_then(iso_date).as_deref(),
            iso,
            "{out}"
        );
        assert!(back.tags.extra.is_empty(), "{out}");
        assert_eq!(written(&back), out);
    }
}

#[test]
fn fen_writer_matches_edax() {
    let mut out = String::new();
    write_fen(&Position::start(), &mut out);
    assert_eq!(out, "8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1");
    let g = one("[FEN \"8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1\"]\n1. d6 *");
    let mut out = String::new();
    write_fen(&g.start, &mut out);
    assert_eq!(out, "8/8/8/3ppp2/3Pp3/8/8/8 w - - 0 1");
}

#[test]
fn unreadable_tokens_are_written_as_one_unreadable_word() {
    let mut g = one("1. f5 i9 *");
    g.unreadable[0].1 = "34-30".into();
    let back = one(&written(&g));
    assert_eq!(tokens(&back), "f5 _34-30");
    g.unreadable[0].1 = "a b{c}".into();
    assert_eq!(tokens(&one(&written(&g))), "f5 a_b_c_");
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(out, ["the spelling of unreadable moves"]);
}

#[test]
fn losses_name_what_pgn_cannot_keep() {
    let mut g = GameRecord::default();
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert!(out.is_empty());
    g.notes = vec![MoveNote {
        eval: None,
        time: Some(1.5),
    }];
    g.result = Some(RecordedResult::new(ResultValue::Margin(-2.5)));
    g.tags.black = Some("two\nlines".to_owned());
    g.tags
        .extra
        .push(("Time Control".to_owned(), "1".to_owned()));
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(
        out,
        [
            "result margins that are not disc counts",
            "line breaks in tag values",
            "tag names that are not PGN tag names"
        ]
    );
    out.clear();
    g = GameRecord::default();
    g.result = Some(RecordedResult::new(ResultValue::RawMargin(-4)));
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(out, ["raw disc differences of results"]);
}

#[test]
fn losses_for_colours_and_impossible_disc_counts() {
    let mut g = GameRecord::default();
    // f5 by White is out of turn; d6 by White again.
    for name in [b"f5", b"d6"] {
        g.moves.push(RecordedMove {
            token: Token::Move(Move::Play(Square::from_ascii(name).unwrap())),
            color: Some(Color::White),
        });
    }
    g.result = Some(RecordedResult::new(ResultValue::Discs {
        black: 40,
        white: 40,
    }));
    let mut out = Vec::new();
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert_eq!(
        out,
        [
            "move colours after an illegal move",
            "results with more than 64 discs"
        ]
    );
    assert!(written(&g).contains("[Result \"1/2-1/2\"]"));
    g.moves[0].color = Some(Color::Black);
    g.moves[1].color = Some(Color::White);
    out.clear();
    g.result = None;
    out.extend(crate::formats::Format::Pgn.losses_of(&g));
    assert!(out.is_empty());
}
