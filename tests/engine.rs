//! The engine against the perft table and against a naive implementation.

use kifu::{Color, Move, Position, Replay, ReplayErrorKind, Square, Status};

use crate::support::Rng;

/// Perft with a pass as one ply and a finished game as a leaf.
fn perft(pos: Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        if !pos.opponent_has_moves() {
            return 1;
        }
        let mut passed = pos;
        passed.pass();
        return perft(passed, depth - 1);
    }
    let mut total = 0;
    for sq in moves {
        let mut next = pos;
        next.play(sq).expect("a legal move plays");
        total += if depth == 1 {
            1
        } else {
            perft(next, depth - 1)
        };
    }
    total
}

const PERFT: [u64; 11] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
];

#[test]
fn perft_to_depth_9_matches_the_table() {
    for depth in 1..=9 {
        assert_eq!(
            perft(Position::start(), depth),
            PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
#[ignore = "deep perft takes a minute; run with --ignored"]
fn perft_depth_10_and_11_match_the_table() {
    for depth in 10..=11 {
        assert_eq!(
            perft(Position::start(), depth),
            PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

/// A deliberately simple board: one cell per square, walking directions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Naive {
    cells: [Option<Color>; 64],
    to_move: Color,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Naive {
    fn start() -> Naive {
        let mut cells = [None; 64];
        cells[27] = Some(Color::White); // d4
        cells[36] = Some(Color::White); // e5
        cells[35] = Some(Color::Black); // d5
        cells[28] = Some(Color::Black); // e4
        Naive {
            cells,
            to_move: Color::Black,
        }
    }

    fn flips_for(&self, color: Color, index: usize) -> Vec<usize> {
        if self.cells[index].is_some() {
            return Vec::new();
        }
        let (c0, r0) = ((index % 8) as i32, (index / 8) as i32);
        let mut all = Vec::new();
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (c0 + dc, r0 + dr);
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let i = (r * 8 + c) as usize;
                match self.cells[i] {
                    Some(x) if x == color.opponent() => run.push(i),
                    Some(_) => {
                        all.extend(run.iter().copied());
                        break;
                    }
                    None => break,
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    fn legal(&self, color: Color) -> Vec<usize> {
        (0..64)
            .filter(|&i| !self.flips_for(color, i).is_empty())
            .collect()
    }

    fn play(&mut self, index: usize) {
        let flips = self.flips_for(self.to_move, index);
        assert!(!flips.is_empty());
        self.cells[index] = Some(self.to_move);
        for i in flips {
            self.cells[i] = Some(self.to_move);
        }
        self.to_move = self.to_move.opponent();
    }

    fn matches(&self, pos: &Position) -> bool {
        pos.side_to_move() == self.to_move
            && Square::all().all(|sq| pos.board().get(sq) == self.cells[sq.index()])
    }
}

/// Plays random games on both engines, comparing every position, every
/// legal-move set, every pass and the end; then replays the recorded moves
/// (passes left out) and checks the lazy replay reaches the same end.
fn differential(games: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    for game in 0..games {
        let mut naive = Naive::start();
        let mut pos = Position::start();
        let mut record = Vec::new();
        let mut passes = 0;
        loop {
            assert!(naive.matches(&pos), "game {game}: boards differ");
            let legal = naive.legal(naive.to_move);
            let fast: Vec<usize> = pos.legal_moves().into_iter().map(|s| s.index()).collect();
            assert_eq!(legal, fast, "game {game}: legal moves differ");
            if legal.is_empty() {
                if naive.legal(naive.to_move.opponent()).is_empty() {
                    assert!(pos.is_game_over());
                    break;
                }
                assert!(!pos.is_game_over());
                naive.to_move = naive.to_move.opponent();
                pos.pass();
                passes += 1;
                continue;
            }
            let index = legal[rng.below(legal.len())];
            let sq = Square::new(index as u8).unwrap();
            naive.play(index);
            pos.play(sq).unwrap();
            record.push(sq);
        }
        // Replay without passes: the replay must insert them itself.
        let mut replay = Replay::new(Position::start());
        for &sq in &record {
            replay.play(Move::Play(sq), None).unwrap();
        }
        let end = replay.finish();
        assert_eq!(end.status, Status::Complete, "game {game}");
        assert_eq!(end.passes, passes, "game {game}");
        assert!(naive.matches(&end.position), "game {game}");
        // And every other square at a random point is rejected for the
        // right reason, leaving the position unchanged.
        let cut = rng.below(record.len());
        let mut replay = Replay::new(Position::start());
        let mut check = Naive::start();
        for &sq in &record[..cut] {
            let ply = replay.play(Move::Play(sq), None).unwrap();
            if ply.implicit_pass {
                check.to_move = check.to_move.opponent();
            }
            check.play(sq.index());
        }
        let mover_has_moves = !check.legal(check.to_move).is_empty();
        let sq = Square::new(rng.below(64) as u8).unwrap();
        let before = *replay.position();
        let legal_for = |c: Color| !check.flips_for(c, sq.index()).is_empty();
        let expect_ok = if mover_has_moves {
            legal_for(check.to_move)
        } else {
            legal_for(check.to_move.opponent())
        };
        match replay.play(Move::Play(sq), None) {
            Ok(_) => assert!(expect_ok, "game {game}: {sq} accepted"),
            Err(e) => {
                assert!(!expect_ok, "game {game}: {sq} rejected: {e}");
                assert_eq!(*replay.position(), before);
                let expected = if check.cells[sq.index()].is_some() {
                    ReplayErrorKind::SquareOccupied
                } else {
                    ReplayErrorKind::FlipsNothing
                };
                assert_eq!(e.kind, expected, "game {game}: {e}");
                assert_eq!(e.number, cut + 1);
            }
        }
    }
}

#[test]
fn bitboard_engine_agrees_with_naive_engine_on_10_000_random_games() {
    differential(10_000, 2026);
}

#[test]
#[ignore = "a million games take a few minutes; run with --ignored"]
fn bitboard_engine_agrees_with_naive_engine_on_1_000_000_random_games() {
    differential(1_000_000, 11_21);
}

#[test]
fn explicit_pass_is_accepted_only_where_forced() {
    // From FORMATS.md: this record ends after 20 moves at 12–12; find a
    // game with a forced pass by random play and check both spellings.
    let mut rng = Rng::new(7);
    let mut checked = 0;
    while checked < 50 {
        let mut pos = Position::start();
        let mut tokens = Vec::new();
        let mut had_pass = false;
        while !pos.is_game_over() {
            let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
            if legal.is_empty() {
                pos.pass();
                tokens.push(Move::Pass);
                had_pass = true;
                continue;
            }
            let sq = legal[rng.below(legal.len())];
            pos.play(sq).unwrap();
            tokens.push(Move::Play(sq));
        }
        if !had_pass {
            continue;
        }
        checked += 1;
        let mut replay = Replay::new(Position::start());
        for mv in &tokens {
            replay.play(*mv, None).unwrap();
        }
        assert_eq!(replay.finish().position, pos);
        // A pass where the mover has a move is refused.
        let first_pass = tokens.iter().position(|m| *m == Move::Pass).unwrap();
        let mut replay = Replay::new(Position::start());
        for mv in &tokens[..first_pass - 1] {
            replay.play(*mv, None).unwrap();
        }
        let err = replay.play(Move::Pass, None).unwrap_err();
        assert!(matches!(err.kind, ReplayErrorKind::PassNotAllowed(_)));
    }
}
