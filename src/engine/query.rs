//! Finding a position in games, whatever their orientation and move
//! order, and the move each game played next from it.
//!
//! A game *reaches* a position P when, after some number of its moves,
//! its board equals P or one of P's eight images with the same side to
//! move. A pass is a move:
//!
//! - when the side to move at P has no legal move but the other side
//!   has, the move played next from P is a pass (explicit in the record
//!   or left out);
//! - a game reaches P also when it stands on P's board with the *other*
//!   side to move and that side has to pass: the pass leads to P, even
//!   where the record leaves it out or stops before it. So a game that
//!   reaches the board of P with White to move, White stuck, reaches P
//!   with Black to move, and the move played next from P is Black's.
//!
//! Every move places one disc, so a game can stand on P's board only
//! after `k - s` placed discs, `k` the discs of P and `s` those of the
//! game's start: the check is a disc count everywhere else.

use std::str::FromStr;

use crate::{
    Board, Move, ParsePositionError, Ply, Position, Replay, ReplayError, Square, Symmetry,
};

/// A position to find in games, with its images precomputed.
///
/// ```
/// use kifu::{Move, Position, PositionQuery, Symmetry};
/// let query: PositionQuery = "f5d6c3".parse()?;
/// // The same position, turned half way round and by another move order.
/// let moves = ["c4", "e3", "f6"].map(|m| Move::Play(m.parse().unwrap()));
/// let after = [Move::Play("e6".parse()?)];
/// let (at, hit) = query.find(Position::start(), moves.into_iter().chain(after)).unwrap();
/// assert_eq!(at, 3);
/// assert_eq!(hit.symmetry, Symmetry::Rotate180);
/// // e6 played in the game is d3 in the orientation of the query.
/// assert_eq!(hit.next, Some(Move::Play("d3".parse()?)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PositionQuery {
    target: Position,
    /// The distinct boards `t(P)` as (black, white), identity first.
    boards: [(u64, u64); 8],
    /// For each board, the symmetry that maps it back onto P.
    to_target: [Symmetry; 8],
    count: usize,
    discs: u32,
}

/// Where a game reached the query's position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hit {
    /// Maps the game's board onto the query's: a square `m` of the game
    /// is `m.transform(symmetry)` in the query's orientation. The
    /// identity when the game stands on the query's position exactly.
    pub symmetry: Symmetry,
    /// The move the game played next, in the query's orientation: a
    /// square, or a pass; `None` when the record ends there or its next
    /// move is illegal.
    pub next: Option<Move>,
}

impl PositionQuery {
    /// Prepares to look for `target`.
    #[must_use]
    pub fn new(target: Position) -> PositionQuery {
        let mut boards = [(0, 0); 8];
        let mut to_target = [Symmetry::Identity; 8];
        let mut count = 0;
        for s in Symmetry::ALL {
            let image = target.board().transform(s);
            let board = (image.black().0, image.white().0);
            if !boards[..count].contains(&board) {
                boards[count] = board;
                to_target[count] = s.inverse();
                count += 1;
            }
        }
        PositionQuery {
            target,
            boards,
            to_target,
            count,
            discs: 64 - target.board().empty().count(),
        }
    }

    /// Reads moves from the start or a board and side to move; see
    /// [`PositionQuery::from_moves`] and [`PositionQuery::from_board`].
    /// A text that begins with a square of a board (`X`, `O`, `*`, `-`,
    /// `.`) is a board.
    pub fn parse(text: &str) -> Result<PositionQuery, QueryError> {
        let board_like = text
            .trim_start()
            .starts_with(['X', 'x', '*', 'O', 'o', '-', '.']);
        if board_like {
            PositionQuery::from_board(text)
        } else {
            PositionQuery::from_moves(text)
        }
    }

    /// The position after moves from the standard start: squares in
    /// either case, with or without separators (space, tab, `,`, `;`,
    /// a single `-`), move numbers (`1.`), and passes (`pass`, `pa`,
    /// `ps`, `--`) where the side to move has none; a pass may also be
    /// left out. An empty text is the start.
    ///
    /// ```
    /// use kifu::PositionQuery;
    /// let query = PositionQuery::from_moves("F5 d6, c3")?;
    /// assert_eq!(query.discs(), 7);
    /// let err = PositionQuery::from_moves("f5d6z9").unwrap_err();
    /// assert_eq!(err.to_string(), "move 3 (black) z9: not a square");
    /// # Ok::<(), kifu::QueryError>(())
    /// ```
    pub fn from_moves(text: &str) -> Result<PositionQuery, QueryError> {
        let mut replay = Replay::new(Position::start());
        let mut rest = text;
        loop {
            rest = skip_separators(rest);
            let Some((mv, len)) = next_move(rest) else {
                if rest.is_empty() {
                    break;
                }
                // Two characters at most: the length of a square.
                let end = rest.char_indices().nth(2).map_or(rest.len(), |(i, _)| i);
                return Err(replay.unreadable(&rest[..end]).into());
            };
            replay.play(mv, None)?;
            rest = &rest[len..];
        }
        Ok(PositionQuery::new(*replay.position()))
    }

    /// A board and the side to move, as transcripts write one before
    /// the moves: 64 squares from a1 to h8 row by row (`X` or `*` Black,
    /// `O` White, `-` or `.` empty, in either case, spaces and line
    /// breaks ignored), then `X` or `O` (or `B`, `W`) for the side to
    /// move and an optional `;`.
    ///
    /// ```
    /// use kifu::{Color, Position, PositionQuery};
    /// let board = "---------------------------OX------XO--------------------------- X";
    /// let query = PositionQuery::from_board(board)?;
    /// assert_eq!(*query.target(), Position::start());
    /// let err = PositionQuery::from_board(&board[1..]).unwrap_err();
    /// assert_eq!(err.to_string(), "the board has 63 squares, not 64");
    /// # Ok::<(), kifu::QueryError>(())
    /// ```
    pub fn from_board(text: &str) -> Result<PositionQuery, QueryError> {
        Ok(PositionQuery::new(text.parse()?))
    }

    /// The position looked for.
    #[must_use]
    pub fn target(&self) -> &Position {
        &self.target
    }

    /// Discs on the board of the position.
    #[must_use]
    pub fn discs(&self) -> u32 {
        self.discs
    }

    /// The image of the target this board is, if any.
    #[inline]
    fn image(&self, board: &Board) -> Option<usize> {
        // The disc count first: it reads neither colour.
        if board.empty().count() != 64 - self.discs {
            return None;
        }
        let key = (board.black().0, board.white().0);
        self.boards[..self.count].iter().position(|&b| b == key)
    }

    /// The symmetry `s` with `s(position)` equal to the target, side to
    /// move included; the identity when `position` is the target (which
    /// may be its own image under other symmetries too).
    #[inline]
    #[must_use]
    pub fn matches(&self, position: &Position) -> Option<Symmetry> {
        if position.side_to_move() != self.target.side_to_move() {
            return None;
        }
        let i = self.image(position.board())?;
        Some(self.to_target[i])
    }

    /// Checks one position of a game being replayed: `before` is the
    /// position before the next move, `next` what that move did (`None`
    /// at the end of the record or when the move is illegal).
    ///
    /// Call it before every move and once at the end, until it answers:
    /// it answers once per game at most, at the move where the game
    /// reaches the target, under the pass rule of the module (a pass
    /// that leads to the target answers at the next call). A disc
    /// count decides every other position, so it costs next to nothing
    /// in a replay loop.
    ///
    /// ```
    /// use kifu::{Move, Position, PositionQuery, Replay};
    /// let query = PositionQuery::from_moves("f5d6")?;
    /// let mut replay = Replay::new(Position::start());
    /// let mut hit = None;
    /// // f5 d6 reflected on the diagonal, then e3: c5 in the query's terms.
    /// for name in ["e6", "f4", "e3"] {
    ///     let before = *replay.position();
    ///     let ply = replay.play(Move::Play(name.parse()?), None).ok();
    ///     hit = hit.or(query.step(&before, ply.as_ref()));
    /// }
    /// assert_eq!(hit.unwrap().next, Some(Move::Play("c5".parse()?)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn step(&self, before: &Position, next: Option<&Ply>) -> Option<Hit> {
        let i = self.image(before.board())?;
        let symmetry = self.to_target[i];
        let mapped = |mv: Move| match mv {
            Move::Play(square) => Move::Play(square.transform(symmetry)),
            Move::Pass => Move::Pass,
        };
        if before.side_to_move() == self.target.side_to_move() {
            let next = next.map(|ply| {
                if ply.implicit_pass {
                    // The side to move passed; the move is the other's.
                    Move::Pass
                } else {
                    mapped(ply.mv)
                }
            });
            return Some(Hit { symmetry, next });
        }
        // The target's board with the other side to move: the target
        // comes after that side's forced pass.
        if before.has_moves() || !before.opponent_has_moves() {
            return None;
        }
        match next {
            // An explicit pass: the next call stands on the target.
            Some(ply) if ply.mv == Move::Pass => None,
            next => Some(Hit {
                symmetry,
                next: next.map(|ply| mapped(ply.mv)),
            }),
        }
    }

    /// Replays `moves` from `start` and tells where the game reached the
    /// target: the number of moves of the list played before it, and
    /// the [`Hit`]. The replay stops at the first illegal move.
    pub fn find<I>(&self, start: Position, moves: I) -> Option<(usize, Hit)>
    where
        I: IntoIterator<Item = Move>,
    {
        let mut replay = Replay::new(start);
        for (i, mv) in moves.into_iter().enumerate() {
            let before = *replay.position();
            if 64 - before.board().empty().count() > self.discs {
                return None;
            }
            let ply = replay.play(mv, None).ok();
            if let Some(hit) = self.step(&before, ply.as_ref()) {
                return Some((i, hit));
            }
            ply?;
        }
        let at = replay.tokens();
        self.step(replay.position(), None).map(|hit| (at, hit))
    }
}

impl FromStr for PositionQuery {
    type Err = QueryError;

    /// See [`PositionQuery::parse`].
    fn from_str(text: &str) -> Result<PositionQuery, QueryError> {
        PositionQuery::parse(text)
    }
}

/// Separators between moves: white space, `,`, `;`, a single `-` and
/// move numbers (`12.`).
fn skip_separators(mut text: &str) -> &str {
    loop {
        let bytes = text.as_bytes();
        let skip = match bytes {
            [c, ..] if c.is_ascii_whitespace() || matches!(c, b',' | b';') => 1,
            [b'-', next, ..] if *next != b'-' => 1,
            [b'-'] => 1,
            [c, ..] if c.is_ascii_digit() => {
                let digits = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
                let dots = bytes[digits..].iter().take_while(|&&c| c == b'.').count();
                if dots == 0 {
                    return text;
                }
                digits + dots
            }
            _ => return text,
        };
        text = &text[skip..];
    }
}

/// The move at the start of `text` and its length in bytes.
fn next_move(text: &str) -> Option<(Move, usize)> {
    let bytes = text.as_bytes();
    if let Some(square) = bytes.get(..2).and_then(Square::from_ascii) {
        return Some((Move::Play(square), 2));
    }
    let letters = bytes.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let word = &bytes[..letters];
    if ["pass", "pa", "ps"]
        .iter()
        .any(|p| word.eq_ignore_ascii_case(p.as_bytes()))
    {
        return Some((Move::Pass, letters));
    }
    let dashes = bytes.iter().take_while(|&&c| c == b'-').count();
    (dashes >= 2).then_some((Move::Pass, dashes))
}

/// Why a position could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum QueryError {
    /// A move is not a square or not legal.
    #[error(transparent)]
    Move(#[from] ReplayError),
    /// The board and side to move cannot be read.
    #[error(transparent)]
    Board(#[from] ParsePositionError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::Rng;
    use crate::Color;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn play(moves: &str) -> Position {
        *PositionQuery::from_moves(moves).unwrap().target()
    }

    /// Seeded random games to the end; passes written out or left out.
    fn random_game(rng: &mut Rng, explicit_passes: bool) -> Vec<Move> {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            let legal: Vec<Square> = pos.legal_moves().into_iter().collect();
            if legal.is_empty() {
                pos.pass();
                if explicit_passes {
                    moves.push(Move::Pass);
                }
                continue;
            }
            let square = legal[rng.below(legal.len())];
            pos.play(square).unwrap();
            moves.push(Move::Play(square));
        }
        moves
    }

    /// The positions of a game before each move and at its end.
    fn positions(moves: &[Move]) -> Vec<Position> {
        let mut replay = Replay::new(Position::start());
        let mut out = vec![*replay.position()];
        for &mv in moves {
            replay.play(mv, None).unwrap();
            out.push(*replay.position());
        }
        out
    }

    fn transformed(moves: &[Move], s: Symmetry) -> Vec<Move> {
        moves
            .iter()
            .map(|mv| match mv {
                Move::Play(square) => Move::Play(square.transform(s)),
                Move::Pass => Move::Pass,
            })
            .collect()
    }

    /// The symmetries that keep the standard start: the images of a
    /// legal game under them are legal games.
    const KEEP_START: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ];

    #[test]
    fn matches_every_image_and_prefers_the_identity() {
        let start = PositionQuery::new(Position::start());
        assert_eq!(start.count, 2, "the start and its colour-swapped twin");
        assert_eq!(start.matches(&Position::start()), Some(Symmetry::Identity));
        assert_eq!(start.matches(&Position::start().swapped()), None);
        let mut rng = Rng::new(41);
        for _ in 0..100 {
            let game = random_game(&mut rng, true);
            let all = positions(&game);
            let target = all[rng.below(all.len())];
            let query = PositionQuery::new(target);
            assert_eq!(query.matches(&target), Some(Symmetry::Identity));
            for s in Symmetry::ALL {
                let image = target.transform(s);
                let back = query.matches(&image).unwrap();
                assert_eq!(image.transform(back), target, "{s:?}");
                let mut other = image;
                other.pass();
                assert_eq!(query.matches(&other), None, "the side to move counts");
            }
        }
    }

    #[test]
    fn finds_a_position_in_every_orientation_with_the_next_move_mapped_back() {
        let mut rng = Rng::new(7);
        for round in 0..300 {
            let game = random_game(&mut rng, round % 2 == 0);
            let all = positions(&game);
            let k = rng.below(all.len());
            let query = PositionQuery::new(all[k]);
            for s in KEEP_START {
                let image = transformed(&game, s);
                let (at, hit) = query
                    .find(Position::start(), image.iter().copied())
                    .unwrap();
                assert_eq!(at, k, "{s:?}");
                let reached = positions(&image)[k];
                assert_eq!(reached.transform(hit.symmetry), all[k]);
                let next = game.get(k).copied();
                if query.count == 8 {
                    assert_eq!(hit.next, next, "{s:?}");
                } else {
                    // A symmetric target: the move may come out as one of
                    // its images that leads to the same position.
                    let after = |mv: Option<Move>| {
                        let mut replay = Replay::new(all[k]);
                        mv.map(|mv| replay.play(mv, None).unwrap());
                        replay.position().canonical_key()
                    };
                    assert_eq!(after(hit.next), after(next), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn a_pass_is_the_next_move_and_leads_to_the_position() {
        let mut rng = Rng::new(99);
        let (mut direct, mut after_pass) = (0, 0);
        for round in 0..3000 {
            let explicit = round % 2 == 0;
            let game = random_game(&mut rng, explicit);
            let all = positions(&game);
            for (k, pos) in all.iter().enumerate() {
                if pos.has_moves() || !pos.opponent_has_moves() {
                    continue;
                }
                // The side to move is stuck: from here the next move is a
                // pass, whether the record writes it or not.
                let (at, hit) = PositionQuery::new(*pos)
                    .find(Position::start(), game.clone())
                    .unwrap();
                assert_eq!((at, hit.next), (k, Some(Move::Pass)));
                direct += 1;
                // And the game reaches the position after the pass, whose
                // next move is the other side's.
                let mut passed = *pos;
                passed.pass();
                let expected_at = if explicit { k + 1 } else { k };
                let next = game[expected_at];
                let (at, hit) = PositionQuery::new(passed)
                    .find(Position::start(), game.clone())
                    .unwrap();
                assert_eq!(
                    (at, hit.next, hit.symmetry),
                    (expected_at, Some(next), Symmetry::Identity)
                );
                // Also when the record stops before the pass.
                let cut = &game[..k];
                let (at, hit) = PositionQuery::new(passed)
                    .find(Position::start(), cut.to_vec())
                    .unwrap();
                assert_eq!((at, hit.next), (k, None));
                after_pass += 1;
            }
        }
        assert!(direct > 10 && after_pass > 10, "{direct} {after_pass}");
    }

    #[test]
    fn a_game_that_ends_or_breaks_at_the_position_has_no_next_move() {
        let query = PositionQuery::from_moves("f5d6").unwrap();
        let moves = |text: &str| -> Vec<Move> {
            text.as_bytes()
                .chunks(2)
                .map(|p| Move::Play(Square::from_ascii(p).unwrap()))
                .collect()
        };
        let start = Position::start();
        let (at, hit) = query.find(start, moves("f5d6")).unwrap();
        assert_eq!((at, hit.next), (2, None));
        let (at, hit) = query.find(start, moves("f5d6a1")).unwrap();
        assert_eq!((at, hit.next), (2, None), "a1 is illegal");
        assert_eq!(query.find(start, moves("f5a1d6")), None, "stops at a1");
        assert_eq!(query.find(start, moves("f5f6e6")), None);
        let (_, hit) = query.find(start, moves("f5d6c3")).unwrap();
        assert_eq!(hit.next, Some(Move::Play(sq("c3"))));
    }

    #[test]
    fn moves_read_in_any_case_with_separators_numbers_and_passes() {
        let expected = play("f5d6c3d3c4");
        for text in [
            "f5d6c3d3c4",
            "F5D6C3D3C4",
            "f5 d6, c3; d3-c4",
            "1.f5 2.d6 3. c3 4...d3 5.c4",
            "  f5\td6\nc3 d3 c4  ",
        ] {
            assert_eq!(
                *PositionQuery::from_moves(text).unwrap().target(),
                expected,
                "{text}"
            );
            assert_eq!(
                *text.parse::<PositionQuery>().unwrap().target(),
                expected,
                "{text}"
            );
        }
        assert_eq!(
            *PositionQuery::from_moves("").unwrap().target(),
            Position::start()
        );
        assert_eq!(PositionQuery::from_moves("").unwrap().discs(), 4);
    }

    #[test]
    fn move_errors_name_the_move_and_the_reason() {
        let err = |text: &str| PositionQuery::from_moves(text).unwrap_err().to_string();
        assert_eq!(err("f5d6z9"), "move 3 (black) z9: not a square");
        assert_eq!(err("f5 d6 c3 ??"), "move 4 (white) ??: not a square");
        assert_eq!(err("f5a1"), "move 2 (white) a1: flips nothing");
        assert_eq!(err("f5f5"), "move 2 (white) f5: square occupied");
        assert_eq!(
            err("f5 pass"),
            "move 2 (white) pass: pass not allowed: White has moves"
        );
        assert_eq!(
            err("f5--"),
            "move 2 (white) pass: pass not allowed: White has moves"
        );
        assert_eq!(err("f5é1"), "move 2 (white) é1: not a square");
    }

    const START: &str = "---------------------------OX------XO---------------------------";

    #[test]
    fn a_board_reads_as_transcripts_write_it() {
        let pos = play("f5d6c3");
        let text = format!("{pos};");
        assert_eq!(*PositionQuery::from_board(&text).unwrap().target(), pos);
        assert_eq!(*PositionQuery::parse(&text).unwrap().target(), pos);
        let start = Position::start();
        for text in [
            format!("{START} X"),
            format!("{START} x;"),
            format!("{START}B"),
            format!("{START} *"),
            START.replace('-', ".") + " X",
            START
                .as_bytes()
                .chunks(8)
                .map(|r| std::str::from_utf8(r).unwrap())
                .collect::<Vec<_>>()
                .join("\n")
                + "\nX",
        ] {
            assert_eq!(
                *PositionQuery::parse(&text).unwrap().target(),
                start,
                "{text}"
            );
        }
        let white = PositionQuery::from_board(&format!("{START} O")).unwrap();
        assert_eq!(white.target().side_to_move(), Color::White);
        let black_x = START.replace('O', "*").replace('X', "o");
        let swapped = PositionQuery::from_board(&format!("{black_x} w")).unwrap();
        assert_eq!(
            *swapped.target(),
            Position::new(Board::START.swapped(), Color::White)
        );
    }

    #[test]
    fn board_errors_say_what_is_wrong() {
        let err = |text: &str| PositionQuery::from_board(text).unwrap_err().to_string();
        assert_eq!(
            err(&format!("{} X", &START[1..])),
            "the board has 63 squares, not 64"
        );
        assert_eq!(err(&START[1..]), "the board has 63 squares, not 64");
        assert_eq!(
            err(&format!("-{START} X")),
            "text follows the side to move: \"X\""
        );
        assert_eq!(
            err(START),
            "the side to move is missing after the board (x or o)"
        );
        assert_eq!(
            err(&format!("{START} -")),
            "the side to move is \'-\', not x or o"
        );
        assert_eq!(
            err(&format!("{START} X; f5")),
            "text follows the side to move: \";f5\""
        );
        assert_eq!(
            err(&format!("q{}", &START[1..])),
            "square 1 of the board is 'q', not x, o or -"
        );
        assert_eq!(err(""), "the board has 0 squares, not 64");
        assert_eq!(err("X"), "the board has 0 squares, not 64");
    }
}
