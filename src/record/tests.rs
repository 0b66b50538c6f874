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
fn a_watcher_that_stops_watching_changes_nothing_but_what_it_sees() {
    use crate::testkit::{random_game, Play, Rng};
    let mut rng = Rng::new(23);
    let play = Play {
        stop: 2,
        written_passes: 30,
        odd_start: 10,
    };
    let mut implicit = 0;
    for i in 0..300 {
        let mut game = random_game(&mut rng, play);
        if i % 3 == 0 && !game.moves.is_empty() {
            // A move to d4, never empty, somewhere: the replay's error
            // comes before the watcher stops or after.
            let at = rng.below(game.moves.len());
            game.moves[at] = RecordedMove::new(Move::Play("d4".parse().unwrap()));
        }
        let plain = game.replay();
        implicit += plain.implicit_passes.count_ones();
        let mut all = Keep {
            limit: usize::MAX,
            seen: Vec::new(),
            end: None,
        };
        assert_eq!(game.replay_watched(&mut all), plain);
        for limit in [0, 1, 5, 20, usize::MAX] {
            let mut some = Keep {
                limit,
                seen: Vec::new(),
                end: None,
            };
            assert_eq!(game.replay_watched(&mut some), plain, "{limit}");
            assert_eq!(some.end, all.end, "{limit}");
            // An implicit pass shows two positions for one token.
            let shown = some.seen.len();
            assert!(shown >= limit.min(all.seen.len()) && shown <= limit.saturating_add(1));
            assert_eq!(some.seen[..], all.seen[..shown], "{limit}");
            // Beside a watcher that watches everything, it sees all.
            let mut both = Keep {
                limit,
                seen: Vec::new(),
                end: None,
            };
            let mut rest = Keep {
                limit: usize::MAX,
                seen: Vec::new(),
                end: None,
            };
            assert_eq!(game.replay_watched(&mut (&mut both, &mut rest)), plain);
            assert_eq!((both.seen, rest.seen), (all.seen.clone(), all.seen.clone()));
        }
    }
    assert!(implicit > 10, "{implicit}");
}
