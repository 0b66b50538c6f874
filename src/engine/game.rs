//! Replaying moves: implicit passes, the end of the game and the score.

use std::fmt;

use crate::engine::board::{flips, moves, square_bit};
use crate::{Board, Color, Position, Square};

/// A move as a game record states it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A disc placed on a square.
    Play(Square),
    /// An explicit pass.
    Pass,
}

impl Move {
    /// The square's index (`a1` = 0 … `h8` = 63), 64 for a pass: a key
    /// that orders moves by square, a pass last.
    #[must_use]
    pub fn slot(self) -> u8 {
        match self {
            Move::Play(square) => square.index() as u8,
            Move::Pass => 64,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(square) => fmt::Display::fmt(square, f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move of a record cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ReplayErrorKind {
    /// The square already holds a disc.
    SquareOccupied,
    /// The disc would bracket no opponent disc.
    FlipsNothing,
    /// The token is not a square or a pass.
    NotASquare,
    /// An explicit pass while the side to move (named) has a legal move.
    PassNotAllowed(Color),
    /// The record says one side moves while the other (named) has a move.
    OutOfTurn(Color),
    /// Neither side could move any more.
    MoveAfterEnd,
}

impl fmt::Display for ReplayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayErrorKind::SquareOccupied => f.write_str("square occupied"),
            ReplayErrorKind::FlipsNothing => f.write_str("flips nothing"),
            ReplayErrorKind::NotASquare => f.write_str("not a square"),
            ReplayErrorKind::PassNotAllowed(c) => {
                write!(f, "pass not allowed: {} has moves", capitalised(*c))
            }
            ReplayErrorKind::OutOfTurn(c) => {
                write!(f, "out of turn: {} has moves", capitalised(*c))
            }
            ReplayErrorKind::MoveAfterEnd => f.write_str("move after the game ended"),
        }
    }
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A move of a record that breaks the rules, with where it stands.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("move {number} ({color}) {}: {kind}", token.escape_debug())]
pub struct ReplayError {
    /// 1-based number of the move token as written (explicit passes count).
    pub number: usize,
    /// The side that was to play it.
    pub color: Color,
    /// The token as the record spells it, lowercased for squares.
    pub token: String,
    /// What is wrong.
    pub kind: ReplayErrorKind,
}

/// What one accepted move did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ply {
    /// The side that moved (or passed).
    pub color: Color,
    /// The move played.
    pub mv: Move,
    /// Whether a pass of the other side was inserted just before it.
    pub implicit_pass: bool,
    /// The discs it flipped.
    pub flipped: u64,
}

/// Plays the moves of a record one by one, inserting forced passes.
///
/// A move that the side to move cannot play is tried for the other side
/// only when the side to move has no legal move at all: that is a pass the
/// record left out. Legality of the side to move is therefore checked
/// lazily, only when a move fails, which keeps the common path to one flip
/// computation per move.
///
/// ```
/// use kifu::{Move, Replay, Status};
/// let mut replay = Replay::new(kifu::Position::start());
/// for name in ["f5", "d6", "c5", "f6", "e7", "f4", "g5", "e6", "e3"] {
///     replay.play(Move::Play(name.parse()?), None)?;
/// }
/// let end = replay.finish();
/// assert_eq!(end.status, Status::Complete);
/// assert_eq!((end.score.black_score, end.score.white_score), (64, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Replay {
    position: Position,
    /// Discs on the starting board: each placed disc adds one, so the
    /// count of discs placed needs no counter on the hot path.
    start_discs: u32,
    passes: u32,
    /// Passes written in the record; with `placed`, the tokens accepted.
    explicit_passes: u32,
    ended: bool,
}

/// Whether a record plays to the end.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Played until neither side could move.
    Complete,
    /// Every move legal, but the record stops while a side can still move.
    Incomplete,
    /// A move breaks the rules (or could not be read).
    Invalid,
}

impl Status {
    /// `complete`, `incomplete` or `invalid`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Incomplete => "incomplete",
            Status::Invalid => "invalid",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// Black has more discs.
    Black,
    /// White has more discs.
    White,
    /// Equal discs.
    Draw,
}

impl Winner {
    /// `black`, `white` or `draw`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Winner::Black => "black",
            Winner::White => "white",
            Winner::Draw => "draw",
        }
    }
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Disc counts of a position and the score with empties to the winner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Score {
    /// Black discs on the board.
    pub black_discs: u8,
    /// White discs on the board.
    pub white_discs: u8,
    /// Empty squares.
    pub empties: u8,
    /// Black's score: discs, plus the empties if Black wins, 32 in a draw
    /// with empties (World Othello Federation rule, as WTHOR stores).
    pub black_score: u8,
    /// White's score, `64 - black_score`.
    pub white_score: u8,
    /// Who has more discs.
    pub winner: Winner,
}

impl Score {
    /// Counts a board.
    #[inline]
    #[must_use]
    pub fn of(board: &Board) -> Score {
        let black = board.black().count() as u8;
        let white = board.white().count() as u8;
        Score::from_discs(black, white)
    }

    /// The score from raw disc counts (`black + white <= 64`).
    #[inline]
    #[must_use]
    pub fn from_discs(black: u8, white: u8) -> Score {
        Score::count(black, white, std::cmp::Ordering::Greater)
    }

    /// The score under anti rules: fewer discs wins, empties to the winner.
    #[must_use]
    pub fn anti(black: u8, white: u8) -> Score {
        Score::count(black, white, std::cmp::Ordering::Less)
    }

    /// Black wins when `black.cmp(&white)` is `black_wins`; the winner
    /// takes the empty squares, a draw splits them.
    #[inline]
    fn count(black: u8, white: u8, black_wins: std::cmp::Ordering) -> Score {
        let empties = 64u8.saturating_sub(black.saturating_add(white));
        let order = black.cmp(&white);
        let (black_score, winner) = if order == std::cmp::Ordering::Equal {
            (black.saturating_add(empties / 2), Winner::Draw)
        } else if order == black_wins {
            (black.saturating_add(empties), Winner::Black)
        } else {
            (black, Winner::White)
        };
        Score {
            black_discs: black,
            white_discs: white,
            empties,
            black_score,
            white_score: 64u8.saturating_sub(black_score),
            winner,
        }
    }
}

/// The end of a replay.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Finish {
    /// The last legal position.
    pub position: Position,
    /// Its counts and score.
    pub score: Score,
    /// Discs placed.
    pub placed: u32,
    /// Passes played, implicit and explicit.
    pub passes: u32,
    /// Complete or incomplete (invalid is the caller's to decide).
    pub status: Status,
}

impl Replay {
    /// Starts from `position`.
    #[inline]
    #[must_use]
    pub fn new(position: Position) -> Replay {
        Replay {
            position,
            start_discs: 64 - position.board().empty().count(),
            passes: 0,
            explicit_passes: 0,
            ended: false,
        }
    }

    /// The current position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Move tokens accepted so far (explicit passes included).
    #[inline]
    #[must_use]
    pub fn tokens(&self) -> usize {
        self.placed() as usize + self.explicit_passes as usize
    }

    /// Discs placed so far.
    #[inline]
    #[must_use]
    pub fn placed(&self) -> u32 {
        64 - self.position.board().empty().count() - self.start_discs
    }

    /// Passes so far.
    #[inline]
    #[must_use]
    pub fn passes(&self) -> u32 {
        self.passes
    }

    fn error(&self, color: Color, token: String, kind: ReplayErrorKind) -> ReplayError {
        ReplayError {
            number: self.tokens() + 1,
            color,
            token,
            kind,
        }
    }

    /// Records a token that is not a move at all (`i9`, `zz`).
    #[inline]
    pub fn unreadable(&self, token: &str) -> ReplayError {
        // By value, so that `self` can live in registers in the caller.
        self.clone().unreadable_cold(token)
    }

    #[cold]
    #[inline(never)]
    fn unreadable_cold(self, token: &str) -> ReplayError {
        self.error(
            self.position.side_to_move(),
            token.to_owned(),
            ReplayErrorKind::NotASquare,
        )
    }

    /// Plays the next move of the record. `color` is the side the record
    /// says makes it (letter case, a sign, a `B`/`W` tag), if it says.
    ///
    /// On error nothing changes, so the position stays the last legal one.
    #[inline(always)]
    pub fn play(&mut self, mv: Move, color: Option<Color>) -> Result<Ply, ReplayError> {
        match mv {
            Move::Play(square) => self.place(square, color),
            Move::Pass => self.explicit_pass(color),
        }
    }

    /// Plays `square` when it is a legal move of the side to move (and
    /// `color`, if given, is that side) and returns the discs it flipped;
    /// else changes nothing and returns `None`, for [`Replay::play`] to
    /// tell a left-out pass from an error. The replay loop's common case,
    /// with nothing to build.
    #[inline(always)]
    pub fn try_place(&mut self, square: Square, color: Option<Color>) -> Option<u64> {
        let (p, o) = self.position.relative();
        let bit = square_bit(square);
        if (p | o) & bit != 0 || color.is_some_and(|c| c != self.position.side_to_move()) {
            return None;
        }
        let f = flips(p, o, square);
        if f == 0 {
            return None;
        }
        self.position.apply_relative(p | f | bit, o ^ f);
        Some(f)
    }

    /// Places a disc; see [`Replay::play`].
    #[inline(always)]
    pub fn place(&mut self, square: Square, color: Option<Color>) -> Result<Ply, ReplayError> {
        let mover = self.position.side_to_move();
        if let Some(flipped) = self.try_place(square, color) {
            return Ok(Ply {
                color: mover,
                mv: Move::Play(square),
                implicit_pass: false,
                flipped,
            });
        }
        // The rare cases work on a copy: were `self` handed to a function
        // that is not inlined, the caller would have to keep the replay in
        // memory instead of registers on every move.
        let mut state = self.clone();
        let result = state.place_slow(square, color);
        *self = state;
        result
    }

    /// A move that is not a legal move of the side to move: an implicit
    /// pass before a move of the other side, or an error.
    #[cold]
    #[inline(never)]
    fn place_slow(&mut self, square: Square, color: Option<Color>) -> Result<Ply, ReplayError> {
        let (p, o) = self.position.relative();
        let mover = self.position.side_to_move();
        let bit = square.mask();
        let mine = moves(p, o);
        // The common case first: the side to move is stuck and the move is
        // the other side's, after a pass the record left out (whatever
        // colour the record gives it).
        if !self.ended && mine == 0 && (p | o) & bit == 0 {
            let f = flips(o, p, square);
            if f != 0 {
                self.position.pass();
                self.position.apply_relative(o | f | bit, p ^ f);
                self.passes += 1;
                return Ok(Ply {
                    color: mover.opponent(),
                    mv: Move::Play(square),
                    implicit_pass: true,
                    flipped: f,
                });
            }
        }
        let token = square.to_string();
        if self.ended || (mine == 0 && moves(o, p) == 0) {
            self.ended = true;
            return Err(self.error(mover, token, ReplayErrorKind::MoveAfterEnd));
        }
        if mine != 0 {
            // The side to move can play, so no pass: the move is its own.
            if color.is_some_and(|c| c != mover) {
                return Err(self.error(
                    color.unwrap_or(mover),
                    token,
                    ReplayErrorKind::OutOfTurn(mover),
                ));
            }
            let kind = if (p | o) & bit != 0 {
                ReplayErrorKind::SquareOccupied
            } else {
                ReplayErrorKind::FlipsNothing
            };
            return Err(self.error(mover, token, kind));
        }
        // The side to move must pass; the move belongs to the other side,
        // and is not legal for it.
        let other = mover.opponent();
        let kind = if (p | o) & bit != 0 {
            ReplayErrorKind::SquareOccupied
        } else {
            ReplayErrorKind::FlipsNothing
        };
        Err(self.error(other, token, kind))
    }

    /// Plays an explicit pass; see [`Replay::play`].
    #[inline]
    pub fn explicit_pass(&mut self, color: Option<Color>) -> Result<Ply, ReplayError> {
        // On a copy, as in `place`.
        let mut state = self.clone();
        let result = state.explicit_pass_slow(color);
        *self = state;
        result
    }

    #[inline(never)]
    fn explicit_pass_slow(&mut self, color: Option<Color>) -> Result<Ply, ReplayError> {
        let (p, o) = self.position.relative();
        let mover = self.position.side_to_move();
        // The token's text only for an error: a legal pass allocates
        // nothing.
        let token = || "pass".to_owned();
        if moves(p, o) != 0 {
            return Err(self.error(mover, token(), ReplayErrorKind::PassNotAllowed(mover)));
        }
        if self.ended || moves(o, p) == 0 {
            self.ended = true;
            return Err(self.error(mover, token(), ReplayErrorKind::MoveAfterEnd));
        }
        if color.is_some_and(|c| c != mover) {
            // "White passes" while Black is to move and stuck: Black's
            // pass was left out, then White has moves and may not pass.
            return Err(self.error(
                mover.opponent(),
                token(),
                ReplayErrorKind::PassNotAllowed(mover.opponent()),
            ));
        }
        self.position.pass();
        self.explicit_passes += 1;
        self.passes += 1;
        Ok(Ply {
            color: mover,
            mv: Move::Pass,
            implicit_pass: false,
            flipped: 0,
        })
    }

    /// Whether [`Replay::place_two`] is faster than playing the two games
    /// one after the other: only with AVX-512. Without it, the scalar
    /// flips already keep the processor busy, and the pairing costs more
    /// than the overlap gains (1.03 CPU-s against 0.98 for `validate` on
    /// 1.49 M games).
    #[inline]
    #[must_use]
    pub(crate) fn interleaving_pays() -> bool {
        #[cfg(target_arch = "x86_64")]
        return crate::engine::board::has_avx512();
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// Plays on two replays at once the placements `next` names, `next(k)`
    /// giving the squares of the `k`th move of each (counting from 0),
    /// while both are legal moves of the side to move; returns how many
    /// moves each played.
    ///
    /// Stops at the first `k` where `next` gives `None` or either square
    /// is not a legal move, and leaves that move unplayed in both, for
    /// [`Replay::play`] to take up (a left-out pass, an error). The two
    /// chains of moves are independent, so the processor overlaps them;
    /// with AVX-512 the flips are found in vectors
    /// ([`crate::engine::board::flips_avx512`]), which only pays when it has two
    /// chains to overlap.
    #[inline]
    pub(crate) fn place_two<N>(a: &mut Replay, b: &mut Replay, next: N) -> usize
    where
        N: FnMut(usize) -> Option<(Square, Square)>,
    {
        #[cfg(target_arch = "x86_64")]
        if crate::engine::board::has_avx512() {
            // SAFETY: the processor has the features the function is
            // compiled with.
            return unsafe { place_two_avx512(a, b, next) };
        }
        place_two_with(a, b, next, flips)
    }

    /// Ends the replay: complete if neither side can move, else incomplete.
    #[inline]
    #[must_use]
    pub fn finish(&self) -> Finish {
        let status = if self.position.is_game_over() {
            Status::Complete
        } else {
            Status::Incomplete
        };
        Finish {
            position: self.position,
            score: Score::of(self.position.board()),
            placed: self.placed(),
            passes: self.passes,
            status,
        }
    }
}

/// [`Replay::place_two`]'s loop, with the flips of `flip`.
#[inline(always)]
fn place_two_with<N, F>(a: &mut Replay, b: &mut Replay, mut next: N, flip: F) -> usize
where
    N: FnMut(usize) -> Option<(Square, Square)>,
    F: Fn(u64, u64, Square) -> u64,
{
    // Copies, so that both positions live in registers.
    let (mut x, mut y) = (a.position, b.position);
    let mut k = 0;
    while let Some((sx, sy)) = next(k) {
        let ((px, ox), (py, oy)) = (x.relative(), y.relative());
        let (bx, by) = (square_bit(sx), square_bit(sy));
        if ((px | ox) & bx) | ((py | oy) & by) != 0 {
            break;
        }
        let (fx, fy) = (flip(px, ox, sx), flip(py, oy, sy));
        if fx == 0 || fy == 0 {
            break;
        }
        x.apply_relative(px | fx | bx, ox ^ fx);
        y.apply_relative(py | fy | by, oy ^ fy);
        k += 1;
    }
    a.position = x;
    b.position = y;
    k
}

/// [`place_two_with`] compiled for AVX-512, with [`flips_avx512`].
///
/// [`flips_avx512`]: crate::engine::board::flips_avx512
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512cd")]
fn place_two_avx512<N>(a: &mut Replay, b: &mut Replay, next: N) -> usize
where
    N: FnMut(usize) -> Option<(Square, Square)>,
{
    place_two_with(a, b, next, |p, o, square| {
        // SAFETY: this function is only called when the processor has
        // the features it is compiled with (`place_two`).
        unsafe { crate::engine::board::flips_avx512(p, o, square) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(moves: &str) -> (Replay, Result<(), ReplayError>) {
        let mut replay = Replay::new(Position::start());
        for chunk in moves.as_bytes().chunks(2) {
            let square = Square::from_ascii(chunk).unwrap();
            if let Err(e) = replay.play(Move::Play(square), None) {
                return (replay, Err(e));
            }
        }
        (replay, Ok(()))
    }

    #[test]
    fn oracle_short_win_is_64_0() {
        let (replay, result) = play_all("f5d6c5f6e7f4g5e6e3");
        result.unwrap();
        let end = replay.finish();
        assert_eq!(end.status, Status::Complete);
        assert_eq!((end.score.black_discs, end.score.white_discs), (13, 0));
        assert_eq!(end.score.empties, 51);
        assert_eq!((end.score.black_score, end.score.white_score), (64, 0));
        assert_eq!(end.score.winner, Winner::Black);
    }

    #[test]
    fn oracle_draw_with_empties_is_32_32() {
        let (replay, result) = play_all("f5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1a1c5");
        result.unwrap();
        let end = replay.finish();
        assert_eq!(end.status, Status::Complete);
        assert_eq!(end.placed, 20);
        assert_eq!((end.score.black_discs, end.score.white_discs), (12, 12));
        assert_eq!(end.score.empties, 40);
        assert_eq!((end.score.black_score, end.score.white_score), (32, 32));
        assert_eq!(end.score.winner, Winner::Draw);
    }

    #[test]
    fn oracle_illegal_seventh_move() {
        let (replay, result) = play_all("f5d6c5f4e3f6d3f3d7");
        let err = result.unwrap_err();
        assert_eq!(err.number, 7);
        assert_eq!(err.color, Color::Black);
        assert_eq!(err.token, "d3");
        assert_eq!(err.to_string(), "move 7 (black) d3: flips nothing");
        assert_eq!(replay.placed(), 6);
    }

    #[test]
    fn move_after_the_end_is_rejected() {
        let (mut replay, result) = play_all("f5d6c5f6e7f4g5e6e3");
        result.unwrap();
        let err = replay
            .play(Move::Play("a1".parse().unwrap()), None)
            .unwrap_err();
        assert_eq!(err.kind, ReplayErrorKind::MoveAfterEnd);
        assert_eq!(err.number, 10);
        let err = replay.play(Move::Pass, None).unwrap_err();
        assert_eq!(err.kind, ReplayErrorKind::MoveAfterEnd);
    }

    #[test]
    fn pass_only_where_forced() {
        let mut replay = Replay::new(Position::start());
        let err = replay.play(Move::Pass, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 1 (black) pass: pass not allowed: Black has moves"
        );
    }

    #[test]
    fn score_rule_gives_empties_to_the_winner() {
        let s = Score::from_discs(31, 32);
        assert_eq!(
            (s.black_score, s.white_score, s.winner),
            (31, 33, Winner::White)
        );
        let s = Score::from_discs(31, 31);
        assert_eq!(
            (s.black_score, s.white_score, s.winner),
            (32, 32, Winner::Draw)
        );
        let s = Score::from_discs(40, 20);
        assert_eq!((s.black_score, s.white_score), (44, 20));
    }

    /// The placements each of two games plays from its start before the
    /// first that is not a legal move of the side to move, played one
    /// game at a time.
    fn alone(start: Position, moves: &[Square]) -> Vec<Position> {
        let mut replay = Replay::new(start);
        let mut seen = vec![start];
        for &square in moves {
            if replay.try_place(square, None).is_none() {
                break;
            }
            seen.push(*replay.position());
        }
        seen
    }

    #[test]
    fn two_games_placed_together_reach_what_each_reaches_alone() {
        use crate::testkit::{random_moves, Play, Rng};
        let mut rng = Rng::new(31);
        let play = Play {
            stop: 1,
            written_passes: 0,
            odd_start: 20,
        };
        let games: Vec<(Position, Vec<Square>)> = (0..300)
            .map(|_| {
                let (start, moves) = random_moves(&mut rng, play);
                let squares = moves.into_iter().filter_map(|(mv, _)| match mv {
                    Move::Play(square) => Some(square),
                    Move::Pass => None,
                });
                (start, squares.collect())
            })
            .collect();
        let mut placed = 0;
        for ((sa, ma), (sb, mb)) in games.iter().zip(games.iter().skip(1)) {
            let (ea, eb) = (alone(*sa, ma), alone(*sb, mb));
            let k = ea.len().min(eb.len()) - 1;
            placed += k;
            let next = |k: usize| Some((*ma.get(k)?, *mb.get(k)?));
            let (mut a, mut b) = (Replay::new(*sa), Replay::new(*sb));
            assert_eq!(place_two_with(&mut a, &mut b, next, flips), k);
            assert_eq!((a.position, b.position), (ea[k], eb[k]));
            let (mut a, mut b) = (Replay::new(*sa), Replay::new(*sb));
            assert_eq!(Replay::place_two(&mut a, &mut b, next), k);
            assert_eq!((a.position, b.position), (ea[k], eb[k]));
            #[cfg(target_arch = "x86_64")]
            if crate::engine::board::has_avx512() {
                let (mut a, mut b) = (Replay::new(*sa), Replay::new(*sb));
                // SAFETY: the processor has AVX-512 (checked above).
                assert_eq!(unsafe { place_two_avx512(&mut a, &mut b, next) }, k);
                assert_eq!((a.position, b.position), (ea[k], eb[k]));
            }
        }
        // Games that pass part-way stop the pair there.
        assert!(placed > 300 * 30, "{placed}");
    }
}
