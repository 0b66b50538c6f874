use super::*;
use crate::Square;

fn record(tokens: &[Token]) -> GameRecord {
    let mut record = GameRecord::new(Position::start());
    record.moves = tokens
        .iter()
        .map(|&token| RecordedMove { token, color: None })
        .collect();
    record
}

fn play(name: &str) -> Token {
    Token::Move(Move::Play(name.parse::<Square>().unwrap()))
}

#[test]
fn squares_are_pushed_after_what_is_there_passes_left_out() {
    let pass = Token::Move(Move::Pass);
    for (tokens, expected) in [
        (vec![], ""),
        (vec![play("f5"), play("d6")], "f5d6"),
        (vec![pass, play("f5")], "f5"),
        (vec![play("f5"), pass, play("d6"), pass], "f5d6"),
        (vec![pass, pass], ""),
    ] {
        let mut out = b"x,".to_vec();
        assert!(record(&tokens).push_squares(&mut out));
        assert_eq!(String::from_utf8(out).unwrap(), format!("x,{expected}"));
        assert_eq!(record(&tokens).move_string(), expected);
    }
    // An unreadable token: nothing pushed.
    for tokens in [
        vec![Token::Unreadable],
        vec![play("f5"), pass, Token::Unreadable, play("d6")],
    ] {
        let mut out = b"x,".to_vec();
        assert!(!record(&tokens).push_squares(&mut out));
        assert_eq!(out, b"x,");
    }
}

/// Keeps what a replay shows it, watching for the first `limit` tokens'
/// positions only.
struct Keep {
    limit: usize,
    seen: Vec<(Position, u32, Move)>,
    end: Option<(Position, u32)>,
}

impl Keep {
    fn new(limit: usize) -> Keep {
        Keep {
            limit,
            seen: Vec::new(),
            end: None,
        }
    }
}

/// `n` random games (stopped early, written passes, odd starts), one in
/// three with a move somewhere turned into d4 (never empty: an error
/// before the watcher stops or after).
fn games_with_errors(seed: u64, n: usize) -> Vec<GameRecord> {
    use crate::testkit::{random_game, Play, Rng};
    let mut rng = Rng::new(seed);
    let play = Play {
        stop: 2,
        written_passes: 30,
        odd_start: 10,
    };
    (0..n)
        .map(|i| {
            let mut game = random_game(&mut rng, play);
            if i % 3 == 0 && !game.moves.is_empty() {
                let at = rng.below(game.moves.len());
                game.moves[at] = RecordedMove::new(Move::Play("d4".parse().unwrap()));
            }
            game
        })
        .collect()
}

impl Watch for Keep {
    fn position(&mut self, position: &Position, ply: u32, next: Move) {
        self.seen.push((*position, ply, next));
    }

    fn end(&mut self, position: &Position, ply: u32) {
        self.end = Some((*position, ply));
    }

    fn watching(&self) -> bool {
        self.seen.len() < self.limit
    }
}

#[test]
fn two_games_replayed_together_give_what_each_gives_alone() {
    use crate::testkit::{random_game, Play, Rng};
    let mut rng = Rng::new(29);
    let play = Play {
        stop: 2,
        written_passes: 30,
        odd_start: 10,
    };
    let keep = Keep::new;
    let games: Vec<GameRecord> = (0..400)
        .map(|i| {
            let mut game = random_game(&mut rng, play);
            let n = game.moves.len();
            match i % 5 {
                // A move to d4, never empty: an error somewhere.
                0 if n > 0 => {
                    game.moves[rng.below(n)] = RecordedMove::new(Move::Play("d4".parse().unwrap()));
                }
                // The colours written, one of them wrong now and then.
                1 => {
                    let colors = game.move_colors();
                    for (m, color) in game.moves.iter_mut().zip(colors) {
                        m.color = Some(if rng.chance(3) {
                            color.opponent()
                        } else {
                            color
                        });
                    }
                }
                2 if n > 0 => game.moves[rng.below(n)].token = Token::Unreadable,
                3 if rng.chance(10) => {
                    game.other_board = Some(OtherBoard {
                        size: 10,
                        start: String::new(),
                    });
                }
                _ => {}
            }
            game
        })
        .collect();
    let mut interleaved = 0;
    for (i, (a, b)) in games.iter().zip(games.iter().rev().skip(1)).enumerate() {
        let limits = [0, 3, 12, usize::MAX];
        let (la, lb) = (limits[i % 4], limits[i / 4 % 4]);
        let (mut wa, mut wb) = (keep(la), keep(lb));
        let alone = (a.replay_watched(&mut wa), b.replay_watched(&mut wb));
        let (mut pa, mut pb) = (keep(la), keep(lb));
        assert_eq!(a.replay_pair_if(true, &mut pa, b, &mut pb), alone, "{i}");
        assert_eq!((pa.seen, pa.end), (wa.seen, wa.end), "{i}");
        assert_eq!((pb.seen, pb.end), (wb.seen, wb.end), "{i}");
        assert_eq!(
            a.replay_pair(&mut (), b, &mut ()),
            (a.replay(), b.replay()),
            "{i}"
        );
        interleaved += usize::from(la != usize::MAX && lb != usize::MAX);
    }
    assert!(interleaved > 100, "{interleaved}");
}

#[test]
fn a_watcher_that_stops_watching_changes_nothing_but_what_it_sees() {
    let mut implicit = 0;
    for game in games_with_errors(23, 300) {
        let plain = game.replay();
        implicit += plain.implicit_passes.count_ones();
        let mut all = Keep::new(usize::MAX);
        assert_eq!(game.replay_watched(&mut all), plain);
        for limit in [0, 1, 5, 20, usize::MAX] {
            let mut some = Keep::new(limit);
            assert_eq!(game.replay_watched(&mut some), plain, "{limit}");
            assert_eq!(some.end, all.end, "{limit}");
            // An implicit pass shows two positions for one token.
            let shown = some.seen.len();
            assert!(shown >= limit.min(all.seen.len()) && shown <= limit.saturating_add(1));
            assert_eq!(some.seen[..], all.seen[..shown], "{limit}");
            // Beside a watcher that watches everything, it sees all.
            let (mut both, mut rest) = (Keep::new(limit), Keep::new(usize::MAX));
            assert_eq!(game.replay_watched(&mut (&mut both, &mut rest)), plain);
            assert_eq!((both.seen, rest.seen), (all.seen.clone(), all.seen.clone()));
        }
    }
    assert!(implicit > 10, "{implicit}");
}

#[test]
fn the_replay_compiled_with_lzcnt_gives_what_the_baseline_gives() {
    let mut errors = 0;
    for (i, game) in games_with_errors(31, 300).iter().enumerate() {
        // The baseline body, whatever the processor; then the copy
        // `replay_watched` picks (the LZCNT one where it runs).
        let (mut base, mut picked) = (Keep::new(12), Keep::new(12));
        let report = game.replay_watched_inlined(&mut base);
        assert_eq!(game.replay_watched(&mut picked), report, "{i}");
        assert_eq!((picked.seen, picked.end), (base.seen, base.end), "{i}");
        errors += usize::from(report.error.is_some());
        #[cfg(target_arch = "x86_64")]
        if crate::engine::board::has_lzcnt() {
            // SAFETY: the processor has LZCNT.
            let direct = unsafe { game.replay_watched_lzcnt(&mut ()) };
            assert_eq!(direct, report, "{i}");
        }
    }
    assert!(errors > 50, "{errors}");
}

#[test]
fn a_margin_gives_blacks_score_when_whole_even_and_in_range() {
    // What the score is by its definition, worked out on floats.
    let reference = |m: f64| {
        let doubled = 64.0 + m;
        (m.fract() == 0.0 && (0.0..=128.0).contains(&doubled) && doubled % 2.0 == 0.0)
            .then(|| (doubled / 2.0) as u8)
    };
    let mut values: Vec<f64> = (-300..=300).map(|q| f64::from(q) / 4.0).collect();
    values.extend([
        -0.0,
        63.999_999_999,
        64.000_000_001,
        -64.000_000_001,
        1e300,
        -1e300,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ]);
    let mut scored = 0;
    for m in values {
        let result = RecordedResult::new(ResultValue::Margin(m));
        assert_eq!(result.black_score(), reference(m), "{m}");
        scored += usize::from(reference(m).is_some());
    }
    // -64, -62, …, 64, and -0.
    assert_eq!(scored, 66);
}
