//! The board's tests: moves and flips against walking the rays, and the positions' operations.

use crate::engine::board::*;

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// A seeded xorshift generator, so random tests repeat exactly.
use crate::testkit::Rng;

/// Flips by walking each direction square by square.
fn walk_flips(player: u64, opponent: u64, index: usize) -> u64 {
    let mut all = 0;
    for (dc, dr) in STEPS.map(|(c, r)| (i32::from(c), i32::from(r))) {
        let (mut c, mut r) = ((index % 8) as i32 + dc, (index / 8) as i32 + dr);
        let mut run = 0;
        while (0..8).contains(&c) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + c);
            if opponent & bit != 0 {
                run |= bit;
            } else {
                if player & bit != 0 {
                    all |= run;
                }
                break;
            }
            c += dc;
            r += dr;
        }
    }
    all
}

/// Legal moves by trying every empty square.
fn walk_moves(player: u64, opponent: u64) -> u64 {
    (0..64)
        .filter(|&i| (player | opponent) >> i & 1 == 0 && walk_flips(player, opponent, i) != 0)
        .fold(0, |m, i| m | 1 << i)
}

/// Random disjoint boards of every density, dense ones included.
fn random_boards(seed: u64, count: usize) -> Vec<(u64, u64)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| {
            let occupied = match i % 4 {
                0 => rng.next() | rng.next(),
                1 => rng.next(),
                2 => rng.next() & rng.next(),
                _ => !(rng.next() & rng.next() & rng.next()),
            };
            let black = occupied & rng.next();
            (black, occupied & !black)
        })
        .collect()
}

#[test]
fn flips_agree_with_walking_on_random_boards() {
    #[cfg(target_arch = "x86_64")]
    let avx512 = has_avx512();
    for (player, opponent) in random_boards(2026, 20_000) {
        for sq in Square::all() {
            let walked = walk_flips(player, opponent, sq.index());
            assert_eq!(
                flips(player, opponent, sq),
                walked,
                "{player:#x} {opponent:#x} {sq}"
            );
            #[cfg(target_arch = "x86_64")]
            if avx512 {
                // SAFETY: the processor has AVX-512 (checked above).
                let vector = unsafe { flips_avx512(player, opponent, sq) };
                assert_eq!(vector, walked, "{player:#x} {opponent:#x} {sq}");
            }
        }
    }
}

#[test]
fn moves_agree_with_walking_on_random_boards() {
    for (player, opponent) in random_boards(7, 20_000) {
        assert_eq!(
            moves(player, opponent),
            walk_moves(player, opponent),
            "{player:#x} {opponent:#x}"
        );
    }
}

#[test]
fn moves_across_long_runs() {
    // A few player discs in a nearly full field of the opponent's:
    // runs of one to six opponent discs in every direction, which
    // the two-square steps of `moves` must all cover.
    let mut rng = Rng::new(11);
    for _ in 0..20_000 {
        let player = rng.next() & rng.next() & rng.next() & rng.next();
        let occupied = !(rng.next() & rng.next() & rng.next());
        let opponent = occupied & !player;
        assert_eq!(
            moves(player, opponent),
            walk_moves(player, opponent),
            "{player:#x} {opponent:#x}"
        );
    }
    // Every run length along a row, a column and a diagonal.
    for len in 1..=6u32 {
        let row = ((1u64 << len) - 1) << 1;
        assert_eq!(moves(1, row), 1 << (len + 1), "row of {len}");
        let column = (0..len).fold(0, |c, i| c | 1u64 << (8 * (i + 1)));
        assert_eq!(moves(1, column), 1 << (8 * (len + 1)), "column of {len}");
        let diagonal = (0..len).fold(0, |d, i| d | 1u64 << (9 * (i + 1)));
        assert_eq!(
            moves(1, diagonal),
            1 << (9 * (len + 1)),
            "diagonal of {len}"
        );
    }
}

#[test]
fn flips_of_a_known_position() {
    // Black d4 e4 f4, White g4: White's c4 brackets all three, White's
    // h4 nothing, Black's h4 brackets g4 against f4.
    let white = Bitboard::from(sq("g4")).0;
    let black = [sq("d4"), sq("e4"), sq("f4")]
        .into_iter()
        .collect::<Bitboard>()
        .0;
    let f = flips(white, black, sq("c4"));
    assert_eq!(f, black);
    assert_eq!(flips(white, black, sq("h4")), 0);
    assert_eq!(flips(black, white, sq("h4")), white);
}

#[test]
fn start_has_the_four_openings() {
    let names: Vec<String> = Position::start()
        .legal_moves()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
}

#[test]
fn play_flips_and_rejects_without_change() {
    let mut pos = Position::start();
    assert_eq!(pos.play(sq("e4")), Err(IllegalMove::Occupied));
    assert_eq!(pos.play(sq("a1")), Err(IllegalMove::FlipsNothing));
    assert_eq!(pos, Position::start());
    let flipped = pos.play(sq("f5")).unwrap();
    assert_eq!(flipped, Bitboard::from(sq("e5")));
    assert_eq!(pos.board().get(sq("e5")), Some(Color::Black));
    assert_eq!(pos.side_to_move(), Color::White);
}

fn hash_of<T: std::hash::Hash>(value: &T) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(value)
}

#[test]
fn board_compares_colours_whichever_side_is_stored_first() {
    // After f5 White is to move, so the position stores White first.
    let mut pos = Position::start();
    pos.play(sq("f5")).unwrap();
    let black = Bitboard(0x0000_0038_1000_0000);
    let white = Bitboard(0x0000_0000_0800_0000);
    let board = Board::new(black, white).unwrap();
    assert_eq!((pos.board().black(), pos.board().white()), (black, white));
    assert_eq!(pos.board().discs(Color::White), white);
    assert_eq!(pos.board().empty(), Bitboard(!(black.0 | white.0)));
    assert_eq!(*pos.board(), board);
    assert_eq!(hash_of(pos.board()), hash_of(&board));
    assert_eq!(format!("{:?}", pos.board()), format!("{board:?}"));
    assert_eq!(pos, Position::new(board, Color::White));
    assert_ne!(pos, Position::new(board, Color::Black));
    assert_ne!(
        hash_of(&pos),
        hash_of(&Position::new(board, Color::Black)),
        "the side to move is hashed"
    );
    assert_eq!(pos.relative(), (white.0, black.0));
}

#[test]
fn pass_and_swap_keep_the_discs() {
    let mut pos = Position::start();
    pos.play(sq("f5")).unwrap();
    let board = *pos.board();
    let mut passed = pos;
    passed.pass();
    assert_eq!(passed.side_to_move(), Color::Black);
    assert_eq!(*passed.board(), board);
    assert_eq!(passed.relative(), (board.black().0, board.white().0));
    let swapped = pos.swapped();
    assert_eq!(swapped.side_to_move(), Color::Black);
    assert_eq!(swapped.board().black(), board.white());
    assert_eq!(swapped.board().white(), board.black());
    assert_eq!(*swapped.board(), board.swapped());
    assert_eq!(swapped.swapped(), pos);
    let turned = board.transform(crate::Symmetry::Rotate90);
    for s in Square::all() {
        let image = s.transform(crate::Symmetry::Rotate90);
        assert_eq!(turned.get(image), board.get(s), "{s}");
    }
    assert_eq!(turned.black().count(), 4);
}

#[test]
fn square_bits_come_from_the_table() {
    for s in Square::all() {
        assert_eq!(square_bit(s), s.mask(), "{s}");
    }
}

#[test]
fn positions_write_and_read_their_board_text() {
    let start = Position::start();
    let text = start.to_string();
    assert_eq!(
        text,
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(text.parse::<Position>(), Ok(start));
    let mut pos = start;
    pos.play(sq("f5")).unwrap();
    assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
    // Spaced rows, other square letters and a closing `;`.
    let rows = "........\n........\n........\n...ox...\n...xo...\n........\n........\n........ o;";
    assert_eq!(
        rows.parse::<Position>(),
        Ok(Position::new(Board::START, Color::White))
    );
    let short = &text[1..];
    assert_eq!(
        short.parse::<Position>(),
        Err(ParsePositionError::Squares(63))
    );
    assert_eq!(
        format!("z{} X", &text[1..64])
            .parse::<Position>()
            .unwrap_err()
            .to_string(),
        "square 1 of the board is 'z', not x, o or -"
    );
    let no_side = &text[..64];
    assert_eq!(
        no_side.parse::<Position>(),
        Err(ParsePositionError::MissingSide)
    );
    assert_eq!(
        format!("{}-", &text[..64]).parse::<Position>(),
        Err(ParsePositionError::NotASide('-'))
    );
    assert_eq!(
        format!("{} X X", &text[..64]).parse::<Position>(),
        Err(ParsePositionError::AfterSide("X".into()))
    );
    assert_eq!(
        format!("{}X", &text[..64]).parse::<Position>(),
        Ok(start),
        "65 characters: the last is the side to move"
    );
}
